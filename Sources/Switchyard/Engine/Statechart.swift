/// How many steps of eventless and done routes one request may lead to
/// before a macrostep is cut (see ``Machine/internalStepLimit``).
let internalStepLimitValue = 1_000

/// A machine's statechart: its tree of states, which of them are active, and
/// how a step exits and enters them.
///
/// A machine has one once it declares children or regions, or adds an entry
/// or exit handler; until then it is flat and keeps its fast path. The step
/// being planned (``StepPlan``) lives beside it, in the machine, so that
/// conditions and handlers may read the chart while a step is computed and
/// delivered.
///
/// The algorithms are SCXML's (W3C Recommendation 2015-09-01, section 3.13
/// and Appendix D), on state codes. They are methods of this class, reading
/// its own tree and configuration: passing those structs to functions from
/// outside cost a retain of each of their lists at every call.
@usableFromInline
final class Statechart {
    @usableFromInline
    @exclusivity(unchecked) var tree = StateTree()
    @usableFromInline
    @exclusivity(unchecked) var configuration = Configuration()
    /// The tree's layout (``StateTree/layouts``) the configuration was built
    /// for by entering the machine's initial state (see
    /// ``prepare(initial:plan:)``), or was restored on; `nil` until then,
    /// and on a nested machine's own statechart, whose configuration is the
    /// root's.
    var initialConfigurationLayout: UInt32?
    /// Whether the machine has been started or has taken a step: from then on
    /// the tree under active states is fixed.
    @usableFromInline
    @exclusivity(unchecked) var hasBegun = false
    /// The states completed by the steps taken and not yet offered to their
    /// done routes, in the order they completed: SCXML's internal queue of
    /// `done.state.ID` events, read from ``completionsRead`` on.
    @exclusivity(unchecked) var completions = ReusableList<SymbolCode>()
    @exclusivity(unchecked) var completionsRead = 0
    /// Whether the machine has entered a top-level final state: it takes no
    /// more steps.
    @usableFromInline
    @exclusivity(unchecked) var isFinished = false
    /// What entering each state by default enters, as far as worked out.
    @exclusivity(unchecked) var defaultEntries = DefaultEntries()
    /// The steps planned so far, by configuration and move.
    @exclusivity(unchecked) var stepMemo = StepMemo()
    /// The moves events chose so far, by configuration and event.
    @exclusivity(unchecked) var choiceMemo = ChoiceMemo()
    /// Whether steps, choices and default entries are remembered in the
    /// three memos above. Always, but in `MemoDifferentialTests`, which runs
    /// the same charts with and without them. Read only where a memo would
    /// remember (the memos' own look-ups find nothing in an empty memo), so
    /// turning it off empties them first.
    var remembers = true {
        didSet {
            guard !remembers else { return }
            stepMemo = StepMemo()
            choiceMemo = ChoiceMemo()
            defaultEntries = DefaultEntries()
        }
    }

    @usableFromInline
    init() {}

    // MARK: The configuration

    /// Whether the configuration must be built again from the machine's
    /// initial state: until it is first built, and, before the machine
    /// begins, once the tree was laid out again since.
    ///
    /// Before the machine begins, its configuration is what entering its
    /// initial state makes on the tree as declared now. Every declaration
    /// that can change that (children, regions, history and its default,
    /// final states, a nested machine) lays the tree out again, so the rule
    /// reads the tree's layout, as the caches worked out from the tree do,
    /// rather than a flag that each declaration must remember to set:
    /// history did not, and was missed when declared after the chart was
    /// first prepared (by a final state, a done route or a read).
    // Inlinable as the stored flag it replaces was: `prepareChart` asks it
    // on every request and read.
    @usableFromInline var needsInitialConfiguration: Bool {
        guard let initialConfigurationLayout else { return true }
        return !hasBegun && (!tree.isLaidOut || initialConfigurationLayout != tree.layouts)
    }

    /// Lays out the tree and, before the machine begins, builds the
    /// configuration that entering `initial` makes.
    @usableFromInline
    func prepare(initial: SymbolCode, plan: inout StepPlan) {
        tree.layOutIfNeeded()
        guard needsInitialConfiguration else { return }
        initialConfigurationLayout = tree.layouts
        // Anew: the tree may have changed under what was active.
        configuration = Configuration()
        reenter(initial, plan: &plan)
    }

    /// Makes the configuration the one entering `state` from outside makes,
    /// whatever was active before: what a question asked from one state (the
    /// pure function of a definition) plans from. The states active before
    /// are made inactive one by one, so that, unlike ``prepare(initial:plan:)``,
    /// nothing is allocated once the configuration has grown.
    ///
    /// - Complexity: O(*d*) in the depth of the states left and entered.
    @usableFromInline
    func reenter(_ state: SymbolCode, plan: inout StepPlan) {
        tree.layOutIfNeeded()
        deactivateAll()
        plan.reset()
        planInitialEntry(of: state, into: &plan)
        // The entries, in document order, are all that is active now.
        configuration.atomics.removeAll()
        for index in 0..<plan.entries.length {
            activate(plan.entries[index], in: &configuration)
            if tree.kind(of: plan.entries[index]) == .atomic {
                configuration.atomics.append(plan.entries[index])
            }
        }
    }

    /// Makes every active state inactive, walking up from each active atomic
    /// state while its ancestors are active: O(*k* × *d*) for *k* atomic
    /// states *d* deep, where clearing the configuration's arrays would cost
    /// the size of the tree. The list of atomic states is left for the
    /// caller to refill.
    func deactivateAll() {
        for index in 0..<configuration.atomics.length {
            var code = configuration.atomics[index]
            while code != .wildcard, configuration.isActive(code) {
                deactivate(code)
                code = tree.parent(of: code)
            }
        }
    }

    /// Makes `code` active in `configuration`, and its parent's active child
    /// if the parent is compound.
    func activate(_ code: SymbolCode, in configuration: inout Configuration) {
        configuration.grow(toHold: code)
        configuration.isActive[Int(code)] = true
        let parent = tree.parent(of: code)
        if tree.kind(of: parent) == .compound {
            configuration.grow(toHold: parent)
            configuration.activeChild[Int(parent)] = code
        }
    }

    /// Makes `code` inactive.
    func deactivate(_ code: SymbolCode) {
        configuration.isActive[Int(code)] = false
        let parent = tree.parent(of: code)
        if configuration.activeChild(of: parent) == code {
            configuration.activeChild[Int(parent)] = .wildcard
        }
    }

    /// The active proper descendants of `ancestor`, in document order (each
    /// state before its descendants, siblings in declaration order).
    @usableFromInline
    func activeNodes(within ancestor: SymbolCode) -> [SymbolCode] {
        var nodes: [SymbolCode] = []
        forEachActive(within: ancestor, of: configuration) { nodes.append($0) }
        return nodes
    }

    /// Lists `configuration`'s active atomic states again, in document order.
    func collectAtomics(of configuration: inout Configuration) {
        var atomics: [SymbolCode] = []
        forEachActive(within: .wildcard, of: configuration) { code in
            if tree.kind(of: code) == .atomic {
                atomics.append(code)
            }
        }
        configuration.atomics.removeAll()
        for code in atomics {
            configuration.atomics.append(code)
        }
    }

    /// Calls `body` with each active proper descendant of `ancestor` in
    /// `configuration`, in document order.
    private func forEachActive(
        within ancestor: SymbolCode, of configuration: borrowing Configuration, _ body: (SymbolCode) -> Void
    ) {
        // A stack rather than recursion, which a chain of thousands of nested
        // states would overflow: each state's active children, the first on top.
        var pending = [ancestor]
        while let code = pending.popLast() {
            if code != ancestor {
                body(code)
            }
            switch tree.kind(of: code) {
            case .atomic:
                continue
            case .compound:
                let child = configuration.activeChild(of: code)
                if child != .wildcard {
                    pending.append(child)
                }
            case .parallel:
                for position in stride(from: tree.childCount(of: code) - 1, through: 0, by: -1) {
                    let child = tree.child(position, of: code)
                    if configuration.isActive(child) {
                        pending.append(child)
                    }
                }
            }
        }
    }

    /// The deepest state that contains every active atomic state of
    /// `configuration`: the single one when no parallel state is active; the
    /// root when nothing is active.
    @usableFromInline
    func innermostState(of configuration: borrowing Configuration) -> SymbolCode {
        guard !configuration.atomics.isEmpty else { return .wildcard }
        var candidate = configuration.atomics[0]
        // Atomics are in document order: a state that contains the first and
        // the last contains all of them.
        let last = configuration.atomics[configuration.atomics.length - 1]
        while candidate != .wildcard, !tree.isWithin(last, candidate) {
            candidate = tree.parent(of: candidate)
        }
        return candidate
    }

    /// The deepest state that contains every active atomic state inside
    /// `ancestor`; `ancestor` itself when none is active in it.
    func innermostActiveState(within ancestor: SymbolCode) -> SymbolCode {
        var first = SymbolCode.unknown
        var last = SymbolCode.unknown
        for index in 0..<configuration.atomics.length {
            let atomic = configuration.atomics[index]
            if tree.isDescendant(atomic, of: ancestor) {
                if first == .unknown {
                    first = atomic
                }
                last = atomic
            }
        }
        guard first != .unknown else { return ancestor }
        var candidate = first
        while candidate != ancestor, !tree.isWithin(last, candidate) {
            candidate = tree.parent(of: candidate)
        }
        return candidate
    }
}
