/// A machine's statechart: its tree of states and which of them are active.
///
/// A machine has one once it declares children or regions, or adds an entry
/// or exit handler; until then it is flat and keeps its fast path. The step
/// being planned lives beside it, in the machine, so that conditions and
/// handlers may read the chart while a step is computed and delivered.
///
/// A class, so that the machine reaches it through one reference: held as an
/// optional struct, every access copied its lists.
@usableFromInline
final class Statechart {
    @exclusivity(unchecked) @usableFromInline var tree = StateTree()
    @exclusivity(unchecked) @usableFromInline var configuration = Configuration()
    /// Whether the configuration must be built again from the machine's
    /// initial state: before the machine begins, after each declaration.
    @exclusivity(unchecked) @usableFromInline var needsInitialConfiguration = true
    /// Whether the machine has been started or has taken a step: from then on
    /// the tree under active states is fixed.
    @exclusivity(unchecked) @usableFromInline var hasBegun = false

    @inlinable
    init() {}

    /// Lays out the tree and, before the machine begins, builds the
    /// configuration that entering `initial` makes.
    @inlinable
    func prepare(initial: SymbolCode, plan: inout StepPlan) {
        tree.layOutIfNeeded()
        guard needsInitialConfiguration else { return }
        needsInitialConfiguration = false
        configuration = Configuration()
        plan.reset()
        plan.planInitialEntry(of: initial, configuration: configuration, tree: tree)
        for state in plan.entries {
            configuration.activate(state, in: tree)
        }
        configuration.collectAtomics(in: tree)
    }

    /// Records the history of the states `plan` exits, before any of them exits.
    @inlinable
    func recordHistory(of plan: StepPlan) {
        for state in plan.exits {
            guard let kind = tree.history(of: state) else { continue }
            configuration.grow(toHold: state)
            configuration.recorded[Int(state)].removeAll(keepingCapacity: true)
            switch kind {
            case .shallow:
                configuration.recorded[Int(state)].append(configuration.activeChild(of: state))
            case .deep:
                for atomic in configuration.atomics where tree.isDescendant(atomic, of: state) {
                    configuration.recorded[Int(state)].append(atomic)
                }
            }
        }
    }

    /// Exits and enters what `plan` says.
    @inlinable
    func apply(_ plan: StepPlan) {
        for state in plan.exits {
            configuration.deactivate(state, in: tree)
        }
        for state in plan.entries {
            configuration.activate(state, in: tree)
        }
        configuration.collectAtomics(in: tree)
    }

    /// The deepest state that will contain every active atomic state once
    /// `plan` is applied, found without applying it.
    @inlinable
    func innermostState(after plan: StepPlan, scratch: inout ReusableList<SymbolCode>) -> SymbolCode {
        scratch.removeAll()
        for atomic in configuration.atomics where !plan.exits.contains(atomic) {
            scratch.append(atomic)
        }
        for state in plan.entries where tree.kind(of: state) == .atomic {
            scratch.append(state)
        }
        guard var candidate = scratch.first else { return .wildcard }
        for state in scratch.dropFirst() {
            while candidate != .wildcard, !tree.isWithin(state, candidate) {
                candidate = tree.parent(of: candidate)
            }
        }
        return candidate
    }

    /// `state` and its ancestors, innermost first, then the root.
    @inlinable
    func appendAncestry(of state: SymbolCode, to list: inout ReusableList<SymbolCode>) {
        var current = state
        while current != .wildcard {
            list.append(current)
            current = tree.parent(of: current)
        }
        list.append(.wildcard)
    }
}
