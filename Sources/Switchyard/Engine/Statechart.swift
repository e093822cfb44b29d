/// How many steps of eventless and done routes one request may lead to
/// before a macrostep is cut (see ``Machine/internalStepLimit``).
@usableFromInline
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
    @exclusivity(unchecked) @usableFromInline var tree = StateTree()
    @exclusivity(unchecked) @usableFromInline var configuration = Configuration()
    /// The tree's layout (``StateTree/layouts``) the configuration was built
    /// for by entering the machine's initial state (see
    /// ``prepare(initial:plan:)``), or was restored on; `nil` until then,
    /// and on a nested machine's own statechart, whose configuration is the
    /// root's.
    @usableFromInline var initialConfigurationLayout: UInt32?
    /// Whether the machine has been started or has taken a step: from then on
    /// the tree under active states is fixed.
    @exclusivity(unchecked) @usableFromInline var hasBegun = false
    /// The states completed by the steps taken and not yet offered to their
    /// done routes, in the order they completed: SCXML's internal queue of
    /// `done.state.ID` events, read from ``completionsRead`` on.
    @exclusivity(unchecked) @usableFromInline var completions = ReusableList<SymbolCode>()
    @exclusivity(unchecked) @usableFromInline var completionsRead = 0
    /// Whether the machine has entered a top-level final state: it takes no
    /// more steps.
    @exclusivity(unchecked) @usableFromInline var isFinished = false
    /// What entering each state by default enters, as far as worked out.
    @exclusivity(unchecked) @usableFromInline var defaultEntries = DefaultEntries()
    /// The steps planned so far, by configuration and move.
    @exclusivity(unchecked) @usableFromInline var stepMemo = StepMemo()
    /// The moves events chose so far, by configuration and event.
    @exclusivity(unchecked) @usableFromInline var choiceMemo = ChoiceMemo()

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
    @usableFromInline
    var needsInitialConfiguration: Bool {
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
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
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

    // MARK: Choosing moves

    /// Fills `plan` with the moves of one step, SPEC 3.2's choice: each
    /// active atomic state (inside `host`, if given) is offered the request,
    /// then its ancestors up to the root, and the first node on that walk
    /// for which `firstMove` finds a route takes it; the moves chosen are
    /// kept or dropped by ``choose(_:into:)``. Where a node's routes come
    /// from is the caller's: a machine asks each machine of its hierarchy
    /// that names the node, a definition's pure function its own routes.
    /// The caller resets `plan` first.
    ///
    /// - Parameters:
    ///   - host: The state the request's machine is nested in, whose active
    ///     atomic states alone are offered it; `nil` for all of them.
    ///   - takesOneMove: Whether the request takes one move at most (a
    ///     state request): the walks stop at the first move found.
    ///   - plan: The plan to fill; `firstMove` may add to its lists.
    ///   - firstMove: The move along the first route that takes the request
    ///     on a node, if one does.
    @usableFromInline
    func chooseMoves(
        inside host: SymbolCode?, takingOneMove takesOneMove: Bool = false, into plan: inout StepPlan,
        firstMove: (_ node: SymbolCode, _ plan: inout StepPlan) -> StepPlan.Move?
    ) {
        var index = 0
        while index < configuration.atomics.length {
            let atomic = configuration.atomics[index]
            index += 1
            if let host, !tree.isDescendant(atomic, of: host) { continue }
            if let move = firstOnWalk(from: atomic, { firstMove($0, &plan) }) {
                // A route two regions reach through a common ancestor is taken once.
                if !plan.moves.contains(where: { $0.taken == move.taken && $0.member == move.member }) {
                    choose(move, into: &plan)
                }
                if takesOneMove { return }
            }
        }
    }

    /// The first answer `visit` gives on the walk from `state` outward:
    /// `state`, its ancestors, then the root (`.wildcard`, where routes
    /// from `.any` are kept), as ``walkOutward(from:parent:_:)`` walks. A
    /// step (``chooseMoves(inside:into:firstMove:)``), a state request, the
    /// questions about one move (`hasRoute`) and a definition's pure
    /// function each walk the tree through it.
    // Inlined, with its closure, into the walks that call it: out of line,
    // `nested-machines` cost 169 instructions more a step (3,472 → 3,641),
    // `eventless-3` 56.
    @usableFromInline
    func firstOnWalk<Answer>(from state: SymbolCode, _ visit: (SymbolCode) -> Answer?) -> Answer? {
        walkOutward(from: state == .wildcard ? nil : state) { node in
            let parent = tree.parent(of: node)
            return parent == .wildcard ? nil : parent
        } _: { node in
            visit(node ?? .wildcard)
        }
    }

    /// Fills `plan`, just reset, with the moves the event `eventCode` chose
    /// from this configuration, if the memo of choices holds them for the
    /// machine's event routes as of `routesVersion` (see ``ChoiceMemo``).
    /// The memo holds only choices offered to every active state: for one
    /// offered to the states inside `host`, it answers `false`. The plan's
    /// ``StepPlan/choiceMark`` says where the moves came from.
    ///
    /// - Returns: Whether it did.
    @usableFromInline
    func recallChoice(
        of eventCode: SymbolCode, inside host: SymbolCode?, routesVersion: UInt64, into plan: inout StepPlan
    ) -> Bool {
        guard host == nil, tree.isLaidOut,
            let index = choiceMemo.entry(
                hash: ChoiceMemo.hash(event: eventCode, atomics: configuration.atomics), event: eventCode,
                atomics: configuration.atomics, layout: tree.layouts, routesVersion: routesVersion)
        else { return false }
        let moves = choiceMemo.entries[Int(index)].moves
        plan.moves.append(contentsOf: choiceMemo.moves, at: Int(moves.lowerBound)..<Int(moves.upperBound))
        plan.choiceMark = ChoiceMemo.Mark(entry: index, generation: choiceMemo.generation)
        return true
    }

    /// Keeps the moves `plan` holds, just chosen by the event `eventCode`
    /// from this configuration (offered to the states inside `host`, if
    /// given), in the memo of choices, unless it chose none or was offered
    /// to only some states; the caller has checked that the choice depends
    /// on nothing else (see ``ChoiceMemo``). The plan's
    /// ``StepPlan/choiceMark`` says where the memo keeps them.
    @usableFromInline
    func rememberChoice(
        of eventCode: SymbolCode, inside host: SymbolCode?, routesVersion: UInt64, plan: inout StepPlan
    ) {
        guard host == nil, tree.isLaidOut, !plan.moves.isEmpty else { return }
        assert(plan.extras.isEmpty, "a choice with a guarded route remembered")
        plan.choiceMark = choiceMemo.remember(
            hash: ChoiceMemo.hash(event: eventCode, atomics: configuration.atomics), event: eventCode,
            atomics: configuration.atomics, chosen: plan.moves, layout: tree.layouts, routesVersion: routesVersion)
    }

    /// The state below which `move` exits and enters: SCXML's transition domain.
    ///
    /// A local move from a compound state to one of its descendants stays
    /// inside the source; any other move's domain is the nearest compound
    /// proper ancestor of the source that contains the target (the root if
    /// none does, and for a move from the root).
    @usableFromInline
    func domain(of move: StepPlan.Move, among otherTargets: borrowing ReusableList<SymbolCode>, _ others: Range<Int>)
        -> SymbolCode?
    {
        guard move.target != .wildcard else { return nil }
        // Without children, the root is every state's parent and contains
        // every target.
        guard tree.hasChildren else { return .wildcard }
        func holdsTargets(_ ancestor: SymbolCode) -> Bool {
            guard tree.isDescendant(move.target, of: ancestor) else { return false }
            for index in others where !tree.isDescendant(otherTargets[index], of: ancestor) {
                return false
            }
            return true
        }
        if move.isLocal, tree.kind(of: move.source) == .compound, holdsTargets(move.source) {
            return move.source
        }
        var ancestor = move.source == .wildcard ? .wildcard : tree.parent(of: move.source)
        while ancestor != .wildcard, !(tree.kind(of: ancestor) == .compound && holdsTargets(ancestor)) {
            ancestor = tree.parent(of: ancestor)
        }
        return ancestor
    }

    /// Adds `move` to `plan` unless it conflicts with one already chosen: two
    /// conflict when the states they exit overlap, which happens when one's
    /// domain is inside (or is) the other's. A move whose source is a proper
    /// descendant of the sources of all it conflicts with replaces them;
    /// otherwise the moves chosen first stay.
    ///
    /// A first move's domain is worked out only when a second is chosen or
    /// the step is completed (see ``StepPlan/Move/domain``): most steps take
    /// one move, whose plan may be remembered.
    @usableFromInline
    func choose(_ move: StepPlan.Move, into plan: inout StepPlan) {
        var move = move
        guard !plan.moves.isEmpty else {
            move.domain = move.target == .wildcard ? nil : .unknown
            plan.moves.append(move)
            return
        }
        workOutDomain(at: 0, in: &plan)
        move.domain = domain(of: move, in: plan)
        guard let domain = move.domain else {
            plan.moves.append(move)
            return
        }
        func conflicts(_ other: StepPlan.Move) -> Bool {
            guard let otherDomain = other.domain else { return false }
            return tree.isWithin(domain, otherDomain) || tree.isWithin(otherDomain, domain)
        }
        var replaces = false
        for index in 0..<plan.moves.length {
            let other = plan.moves[index]
            if conflicts(other) {
                guard tree.isDescendant(move.source, of: other.source) else { return }
                replaces = true
            }
        }
        if replaces {
            plan.moves.removeAll(where: conflicts)
        }
        plan.moves.append(move)
    }

    /// Works out the domain of the move at `index`, unless it is known.
    @usableFromInline
    func workOutDomain(at index: Int, in plan: inout StepPlan) {
        guard plan.moves[index].domain == .unknown else { return }
        let domain = domain(of: plan.moves[index], in: plan)
        plan.moves[index].domain = domain
    }

    /// The domain of `move`, with the other targets `plan` lists for it.
    @usableFromInline
    func domain(of move: StepPlan.Move, in plan: borrowing StepPlan) -> SymbolCode? {
        domain(of: move, among: plan.otherTargets, plan.extras(of: move).otherTargets)
    }

    // MARK: Exits

    /// Completes the plan of a step whose moves are chosen: what it exits,
    /// the history that records, and what it enters. Reads the configuration
    /// and writes only the plan (and what it remembers of default entries,
    /// of steps and of the step each remembered choice takes, see
    /// ``defaultEntries``, ``stepMemo`` and ``choiceMemo``), so a question
    /// may plan a step and drop it.
    ///
    /// In order: the step a remembered choice is linked to; the sibling
    /// path; the memo of steps; the general planning.
    ///
    /// - Parameters:
    ///   - plan: The plan, its moves chosen.
    ///   - leavingListsInMemo: Whether a step recalled from the memo of
    ///     steps may leave its lists there (see ``StepPlan/listsAreInMemo``):
    ///     for a step about to be taken, which ``apply(_:)`` reads in place.
    @usableFromInline
    func complete(_ plan: inout StepPlan, leavingListsInMemo: Bool = false) {
        completeLeavingListsInMemo(&plan)
        if !leavingListsInMemo {
            copyRememberedLists(into: &plan)
        }
    }

    /// ``complete(_:leavingListsInMemo:)``, leaving the lists of a recalled
    /// step in the memo of steps.
    @usableFromInline
    func completeLeavingListsInMemo(_ plan: inout StepPlan) {
        // Most steps' moves were not recalled or kept by the memo of choices
        // (eventless and done steps, state requests): no call for them.
        let isRememberedChoice = plan.choiceMark.entry >= 0
        if isRememberedChoice, recallLinkedStep(into: &plan) { return }
        if completeSiblingMove(&plan) {
            // Remembered only for a remembered choice to link to, once.
            if isRememberedChoice, remembersChoice(at: plan.choiceMark) {
                markOrRememberStep(&plan)
            }
        } else if !recallStep(into: &plan) {
            if plan.moves.length == 1 {
                workOutDomain(at: 0, in: &plan)
            }
            planExits(into: &plan)
            planHistory(of: &plan)
            planEntries(into: &plan)
            rememberStep(&plan)
        }
        if isRememberedChoice {
            linkChoice(at: plan.choiceMark, to: plan.memoMark)
        }
    }

    /// Completes `plan` from the step its remembered choice is linked to
    /// (see ``ChoiceMemo/Entry/step``), if it has one that the memo of steps
    /// still holds: the step's own look-up is spared.
    ///
    /// - Returns: Whether it did.
    @usableFromInline
    func recallLinkedStep(into plan: inout StepPlan) -> Bool {
        guard let choice = choiceMemo.entry(at: plan.choiceMark, layout: tree.layouts), tree.isLaidOut,
            let index = stepMemo.entry(at: choiceMemo.entries[Int(choice)].step, layout: tree.layouts)
        else { return false }
        completeFromMemo(at: index, into: &plan)
        return true
    }

    /// Whether the memo of choices still holds the choice at `mark`.
    // Marks, not the plan, are passed: a borrowed plan was copied (220 bytes)
    // into each call.
    @usableFromInline
    func remembersChoice(at mark: ChoiceMemo.Mark) -> Bool {
        choiceMemo.entry(at: mark, layout: tree.layouts) != nil
    }

    /// Marks the sibling move's step `plan` holds, just completed, as the
    /// memo of steps' entry for it, remembering it first if the memo does
    /// not hold it yet (another event's choice may have led to it).
    @usableFromInline
    func markOrRememberStep(_ plan: inout StepPlan) {
        guard mayRemember(plan) else { return }
        if let index = rememberedStep(along: plan.moves[0]) {
            plan.memoMark = StepMemo.Mark(entry: index, generation: stepMemo.generation)
        } else {
            rememberStep(&plan)
        }
    }

    /// Links the remembered choice at `choice`, if the memo of choices still
    /// holds it, to the step at `step`, the one its moves take, if the memo
    /// of steps holds it.
    @usableFromInline
    func linkChoice(at choice: ChoiceMemo.Mark, to step: StepMemo.Mark) {
        guard let index = choiceMemo.entry(at: choice, layout: tree.layouts),
            stepMemo.entry(at: step, layout: tree.layouts) != nil
        else { return }
        choiceMemo.entries[Int(index)].step = step
    }

    /// Whether `plan` is a step the memo may hold: one move with nothing
    /// extra, that exits and enters, on a laid-out tree (see ``StepMemo``).
    @usableFromInline
    func mayRemember(_ plan: borrowing StepPlan) -> Bool {
        tree.isLaidOut && plan.moves.length == 1 && plan.moves[0].extras < 0 && plan.moves[0].target != .wildcard
    }

    /// Completes `plan` from the memo of steps, if it holds the step.
    ///
    /// - Returns: Whether it did.
    @usableFromInline
    func recallStep(into plan: inout StepPlan) -> Bool {
        guard mayRemember(plan), let index = rememberedStep(along: plan.moves[0]) else { return false }
        completeFromMemo(at: index, into: &plan)
        return true
    }

    /// The memo of steps' entry for the step along `move` from this
    /// configuration, if it holds one.
    @usableFromInline
    func rememberedStep(along move: StepPlan.Move) -> Int32? {
        stepMemo.entry(
            hash: stepHash(along: move), source: move.source, target: move.target, isLocal: move.isLocal,
            atomics: configuration.atomics, layout: tree.layouts)
    }

    /// The hash of the memo of steps' key for the step along `move` from
    /// this configuration.
    @usableFromInline
    func stepHash(along move: StepPlan.Move) -> UInt64 {
        StepMemo.hash(source: move.source, target: move.target, isLocal: move.isLocal, atomics: configuration.atomics)
    }

    /// Completes `plan`, whose one move is the step's at `index` in the
    /// memo of steps, from there: its lists stay in the memo (see
    /// ``StepPlan/listsAreInMemo``).
    @usableFromInline
    func completeFromMemo(at index: Int32, into plan: inout StepPlan) {
        let entry = stepMemo.entries[Int(index)]
        assert(
            entry.source == plan.moves[0].source && entry.target == plan.moves[0].target
                && entry.isLocal == plan.moves[0].isLocal
                && stepMemo.codes.elements(at: entry.atomicsStart..<entry.exitsStart, equal: configuration.atomics),
            "a remembered step recalled for another move or configuration")
        assert(plan.storedExits.isEmpty && plan.storedEntries.isEmpty, "a remembered step completes a planned one")
        plan.listsAreInMemo = true
        plan.innermostAfter = entry.innermostAfter
        plan.moves[0].domain = entry.domain
        plan.memoMark = StepMemo.Mark(entry: index, generation: stepMemo.generation)
    }

    /// Copies the lists that `plan`, recalled from the memo of steps, left
    /// there (see ``StepPlan/listsAreInMemo``) into the plan; does nothing
    /// for a plan that holds its own. For whoever reads them other than
    /// ``apply(_:)``, before any code of the user's runs: a handler may
    /// change the tree, which makes the memo forget.
    @usableFromInline
    func copyRememberedLists(into plan: inout StepPlan) {
        guard plan.listsAreInMemo else { return }
        let entry = stepMemo.entries[Int(rememberedEntry(of: plan.memoMark))]
        plan.listsAreInMemo = false
        stepMemo.appendCodes(in: entry.exitsStart..<entry.entriesStart, to: &plan.storedExits)
        stepMemo.appendCodes(in: entry.entriesStart..<entry.atomicsAfterStart, to: &plan.storedEntries)
        plan.storedAtomicsAfter.removeAll()
        stepMemo.appendCodes(in: entry.atomicsAfterStart..<entry.end, to: &plan.storedAtomicsAfter)
    }

    /// The index of the memo of steps' entry at `mark`, where a plan left
    /// its lists: the memo cannot have forgotten it, since the lists are
    /// copied out before any code of the user's runs (see
    /// ``Machine/deliverPlannedStep(_:plan:event:eventCode:userInfo:chart:nesting:handlers:)``);
    /// a trap with a message if it has.
    @usableFromInline
    func rememberedEntry(of mark: StepMemo.Mark) -> Int32 {
        guard tree.isLaidOut, let index = stepMemo.entry(at: mark, layout: tree.layouts) else {
            preconditionFailure("Switchyard: the memo of steps forgot a step whose lists a plan left in it")
        }
        return index
    }

    /// Keeps the step `plan` holds, just planned, in the memo of steps,
    /// unless history plays a part in it: it records some, or enters a
    /// state that keeps some (its entries then depend on what was recorded).
    @usableFromInline
    func rememberStep(_ plan: inout StepPlan) {
        guard mayRemember(plan), plan.history.isEmpty,
            !plan.entries.contains(where: { tree.history(of: $0) != nil })
        else { return }
        let move = plan.moves[0]
        plan.innermostAfter = innermostState(after: &plan)
        plan.memoMark = stepMemo.remember(
            hash: stepHash(along: move), move: move, atomics: configuration.atomics, plan: plan,
            innermostAfter: plan.innermostAfter,
            layout: tree.layouts)
    }

    /// Completes the commonest step at once, if `plan` is one: a single move,
    /// with nothing extra, from an active atomic state to an atomic sibling
    /// (every step of a chart without children, and a region's usual step).
    /// What the general planning would find, without its searches: the
    /// move's domain is the siblings' compound parent, whose one active child
    /// is the source, so the step exits the source alone and records no
    /// history (an atomic state keeps none); it enters the target alone; and
    /// the target takes the source's place among the active atomic states,
    /// which keeps them in document order (the siblings in between are
    /// inactive).
    ///
    /// - Returns: Whether the plan was such a step, now complete.
    @usableFromInline
    func completeSiblingMove(_ plan: inout StepPlan) -> Bool {
        guard plan.moves.length == 1 else { return false }
        let move = plan.moves[0]
        let parent = tree.parent(of: move.source)
        guard move.extras < 0, move.target != .wildcard, configuration.activeChild(of: parent) == move.source,
            tree.parent(of: move.target) == parent, tree.kind(of: move.source) == .atomic,
            tree.kind(of: move.target) == .atomic
        else { return false }
        assert(plan.exits.isEmpty && plan.entries.isEmpty && plan.history.isEmpty, "a plan completed twice")
        // The domain the general planning would work out (see the summary).
        plan.moves[0].domain = parent
        plan.exits.append(move.source)
        plan.entries.append(move.target)
        plan.atomicsAfter.removeAll()
        for index in 0..<configuration.atomics.length {
            let atomic = configuration.atomics[index]
            plan.atomicsAfter.append(atomic == move.source ? move.target : atomic)
        }
        return true
    }

    /// Fills the plan's exits: the active states below the domains of its
    /// moves, in reverse document order (innermost first, later siblings
    /// before earlier ones).
    @usableFromInline
    func planExits(into plan: inout StepPlan) {
        for index in 0..<plan.moves.length {
            guard let domain = plan.moves[index].domain else { continue }
            let start = plan.exits.length
            appendActiveDescendants(of: domain, to: &plan.exits)
            // Moves exit disjoint subtrees: keep the whole list in order.
            if start > 0 {
                plan.exits.insertionSort { tree.order(of: $0) > tree.order(of: $1) }
            }
        }
    }

    /// Appends the active proper descendants of `code` to `list`, in reverse
    /// document order: the order of a post-order walk, found without one
    /// (which recursed as deep as the tree). Every active state inside
    /// `code` holds an active atomic state, so each is met on the way up from
    /// one; the atomic states are taken last first, and a state is listed on
    /// the way up from the first atomic state it holds, once every state
    /// after it in document order is listed.
    ///
    /// - Complexity: O(*k* + *e*) for *k* active atomic states and the *e*
    ///   states listed.
    @usableFromInline
    func appendActiveDescendants(of code: SymbolCode, to list: inout ReusableList<SymbolCode>) {
        for index in stride(from: configuration.atomics.length - 1, through: 0, by: -1) {
            let atomic = configuration.atomics[index]
            guard tree.isDescendant(atomic, of: code) else { continue }
            let earlier = index > 0 ? configuration.atomics[index - 1] : SymbolCode.wildcard
            var state = atomic
            // A state that holds the earlier atomic state waits for it.
            while state != code, earlier == .wildcard || !tree.isDescendant(earlier, of: state) {
                list.append(state)
                state = tree.parent(of: state)
            }
        }
    }

    /// Plans the history the states the plan exits record, before the
    /// entries are planned: a state exited and entered again in one step is
    /// entered through what it records in it.
    ///
    /// The plan is `inout` here and below only so that it is not copied.
    @usableFromInline
    func planHistory(of plan: inout StepPlan) {
        for index in 0..<plan.exits.length {
            let state = plan.exits[index]
            guard let kind = tree.history(of: state) else { continue }
            let start = plan.historyCodes.length
            switch kind {
            case .shallow where tree.kind(of: state) == .parallel:
                for child in tree.children(of: state) where configuration.isActive(child) {
                    plan.historyCodes.append(child)
                }
            case .shallow:
                plan.historyCodes.append(configuration.activeChild(of: state))
            case .deep:
                for position in 0..<configuration.atomics.length {
                    let atomic = configuration.atomics[position]
                    if tree.isDescendant(atomic, of: state) {
                        plan.historyCodes.append(atomic)
                    }
                }
            }
            plan.history.append((state: state, start: start, end: plan.historyCodes.length))
        }
    }

    /// Records the history the plan planned, as the step begins to exit
    /// states (SCXML records it before the exit handlers run).
    @usableFromInline
    func recordHistory(of plan: inout StepPlan) {
        for index in 0..<plan.history.length {
            let record = plan.history[index]
            configuration.grow(toHold: record.state)
            configuration.recorded[Int(record.state)].removeAll(keepingCapacity: true)
            for position in record.start..<record.end {
                configuration.recorded[Int(record.state)].append(plan.historyCodes[position])
            }
        }
    }

    // MARK: Entries

    /// Fills the plan's entries: SCXML's entry set for its moves, in document order.
    @usableFromInline
    func planEntries(into plan: inout StepPlan) {
        for index in 0..<plan.moves.length {
            let move = plan.moves[index]
            guard let domain = move.domain else { continue }
            guard move.extras >= 0 else {
                addWithDescendants(move.target, to: &plan)
                addAncestors(of: move.target, below: domain, to: &plan)
                continue
            }
            let extras = plan.extras(of: move)
            addWithDescendants(move.target, ignoringHistory: extras.ignoresHistory, to: &plan)
            for position in extras.otherTargets {
                addWithDescendants(
                    plan.otherTargets[position], ignoringHistory: extras.ignoresHistory, to: &plan)
            }
            addAncestors(of: move.target, below: domain, to: &plan)
            for position in extras.otherTargets {
                addAncestors(of: plan.otherTargets[position], below: domain, to: &plan)
            }
        }
        plan.entries.insertionSort { tree.order(of: $0) < tree.order(of: $1) }
        planAtomics(of: &plan)
    }

    /// Fills the plan's entries with what entering `state` from outside the
    /// machine enters: the state, its ancestors and its default descendants.
    @usableFromInline
    func planInitialEntry(of state: SymbolCode, into plan: inout StepPlan) {
        addWithDescendants(state, to: &plan)
        addAncestors(of: state, below: .wildcard, to: &plan)
        plan.entries.insertionSort { tree.order(of: $0) < tree.order(of: $1) }
    }

    /// SCXML's addDescendantStatesToEnter: `state`, then what entering it by
    /// default enters: what it recorded if it keeps history (or its history's
    /// default, before it has recorded anything), else a compound state's
    /// initial child and all of a parallel state's regions.
    /// `ignoringHistory` enters `state` itself as if it kept none.
    ///
    /// When nothing entered yet lies inside `state`, that is the list
    /// remembered for it (see ``DefaultEntries``), if no history changes it.
    @usableFromInline
    func addWithDescendants(_ state: SymbolCode, ignoringHistory: Bool = false, to plan: inout StepPlan) {
        guard tree.kind(of: state) != .atomic else {
            add(state, to: &plan)
            return
        }
        if tree.isLaidOut, case .known(let start, let end) = defaultEntrySpan(of: state),
            !plan.entries.contains(where: { tree.isWithin($0, state) })
        {
            // Nothing on the list is entered yet: appended without a search.
            for index in Int(start)..<Int(end) {
                plan.entries.append(defaultEntries.codes[index])
            }
            return
        }
        addEachWithDescendants(state, ignoringHistory: ignoringHistory, to: &plan)
    }

    /// ``addWithDescendants(_:ignoringHistory:to:)`` worked out state by
    /// state, for a state that is not atomic; out of line, as a step the
    /// memo of steps holds plans none of it.
    @usableFromInline
    func addEachWithDescendants(_ state: SymbolCode, ignoringHistory: Bool = false, to plan: inout StepPlan) {
        addEntries(.state(state, ignoringHistory: ignoringHistory), to: &plan)
    }

    /// Where the list entering `state` by default makes lies in
    /// ``defaultEntries``, worked out now if it is not yet.
    @usableFromInline
    func defaultEntrySpan(of state: SymbolCode) -> DefaultEntries.Span {
        let span = defaultEntries.span(of: state, layout: tree.layouts)
        guard case .unknown = span else { return span }
        return workOutDefaultEntry(of: state)
    }

    /// Works out the list entering `state` by default makes, on a plan of
    /// its own, and remembers it (or that history changes it); out of line,
    /// as it runs once a state and layout. Only `state`'s own list is
    /// remembered, not those of the states inside it: the lists of a chain
    /// of *d* nested states would hold *d*²/2 codes.
    @usableFromInline
    func workOutDefaultEntry(of state: SymbolCode) -> DefaultEntries.Span {
        var entry = StepPlan()
        addEachWithDescendants(state, to: &entry)
        let dependsOnHistory = entry.entries.contains { tree.history(of: $0) != nil }
        return defaultEntries.remember(
            entry.entries, of: state, layout: tree.layouts, dependsOnHistory: dependsOnHistory)
    }

    /// SCXML's addAncestorStatesToEnter: the proper ancestors of `state`
    /// below `ancestor`, with the regions of a parallel one that nothing
    /// entered yet covers.
    @usableFromInline
    func addAncestors(of state: SymbolCode, below ancestor: SymbolCode, to plan: inout StepPlan) {
        addEntries(.ancestors(of: state, below: ancestor), to: &plan)
    }

    /// Does `work`, and the work it leads to, in the order SCXML's mutually
    /// recursive addDescendantStatesToEnter and addAncestorStatesToEnter
    /// would: each piece pushes what it leads to on the plan's
    /// ``StepPlan/entryWork`` in reverse, so that the first comes off first.
    /// A stack rather than recursion, as a chain of thousands of nested
    /// states would overflow a thread's stack.
    func addEntries(_ work: StepPlan.EntryWork, to plan: inout StepPlan) {
        let base = plan.entryWork.length
        plan.entryWork.append(work)
        while plan.entryWork.length > base {
            switch plan.entryWork.removeLast() {
            case .state(let state, let ignoringHistory):
                addDefaultEntry(of: state, ignoringHistory: ignoringHistory, to: &plan)
            case .ancestors(let state, let ancestor):
                let parent = tree.parent(of: state)
                guard parent != ancestor, parent != .wildcard else { continue }
                add(parent, to: &plan)
                // The parent's uncovered regions first, then its own ancestors.
                plan.entryWork.append(.ancestors(of: parent, below: ancestor))
                if tree.kind(of: parent) == .parallel {
                    pushUncoveredRegions(of: parent, to: &plan)
                }
            case .region(let region):
                if !plan.entries.contains(where: { tree.isWithin($0, region) }) {
                    addDefaultEntry(of: region, ignoringHistory: false, to: &plan)
                }
            }
        }
    }

    /// Adds `state` and pushes what entering it by default leads to: what
    /// it remembers, else its initial child (or history default) with the
    /// states between, and a parallel state's regions.
    func addDefaultEntry(of state: SymbolCode, ignoringHistory: Bool, to plan: inout StepPlan) {
        add(state, to: &plan)
        let kind = tree.kind(of: state)
        guard kind != .atomic else { return }
        let usesHistory = !ignoringHistory && tree.history(of: state) != nil
        if usesHistory, pushRemembered(of: state, to: &plan) {
            return
        }
        // Read in place: a call on the tree would copy its lists.
        var start = tree.nodes[Int(state)].initial
        if usesHistory, tree.nodes[Int(state)].historyDefault != .wildcard {
            start = tree.nodes[Int(state)].historyDefault
        } else if start == .wildcard, kind == .compound {
            start = tree.children[Int(state)][0]
        }
        if kind == .parallel {
            pushUncoveredRegions(of: state, to: &plan)
        }
        if start != .wildcard {
            plan.entryWork.append(.ancestors(of: start, below: state))
            plan.entryWork.append(.state(start, ignoringHistory: false))
        }
    }

    /// Pushes what `state` remembers, with their ancestors below it (and a
    /// parallel state's regions they leave uncovered): what this step
    /// records for it, else what it recorded when last exited.
    ///
    /// - Returns: Whether it remembers anything.
    func pushRemembered(of state: SymbolCode, to plan: inout StepPlan) -> Bool {
        let record = plan.historyRecord(of: state)
        let count =
            record.map { plan.history[$0].end - plan.history[$0].start }
            ?? configuration.recorded(by: state).count
        guard count > 0 else { return false }
        func remembered(_ position: Int, _ plan: inout StepPlan) -> SymbolCode {
            guard let record else { return configuration.recorded[Int(state)][position] }
            return plan.historyCodes[plan.history[record].start + position]
        }
        if tree.kind(of: state) == .parallel {
            pushUncoveredRegions(of: state, to: &plan)
        }
        // All the remembered states first, then their ancestors: a parallel
        // ancestor then finds its regions covered by them.
        for position in stride(from: count - 1, through: 0, by: -1) {
            plan.entryWork.append(.ancestors(of: remembered(position, &plan), below: state))
        }
        for position in stride(from: count - 1, through: 0, by: -1) {
            plan.entryWork.append(.state(remembered(position, &plan), ignoringHistory: false))
        }
        return true
    }

    /// Pushes `state`'s regions, each to be entered unless something entered
    /// by then covers it.
    func pushUncoveredRegions(of state: SymbolCode, to plan: inout StepPlan) {
        for position in stride(from: tree.childCount(of: state) - 1, through: 0, by: -1) {
            plan.entryWork.append(.region(tree.child(position, of: state)))
        }
    }

    @usableFromInline
    func add(_ state: SymbolCode, to plan: inout StepPlan) {
        for index in 0..<plan.entries.length where plan.entries[index] == state {
            return
        }
        plan.entries.append(state)
    }

    // MARK: Taking the step

    /// Fills the plan's ``StepPlan/atomicsAfter``: the active atomic states
    /// that survive its exits and the atomic states it enters, in document
    /// order; ``planEntries(into:)`` ends with it.
    @usableFromInline
    func planAtomics(of plan: inout StepPlan) {
        plan.atomicsAfter.removeAll()
        // Without regions one atomic state is active: the one the step
        // enters, else the one active now.
        if !tree.hasParallel {
            for index in stride(from: plan.entries.length - 1, through: 0, by: -1)
            where tree.kind(of: plan.entries[index]) == .atomic {
                plan.atomicsAfter.append(plan.entries[index])
                return
            }
            if configuration.atomics.length > 0 {
                plan.atomicsAfter.append(configuration.atomics[0])
            }
            return
        }
        // Both lists are in document order: merge them.
        var next = 0
        func takeEntries(before atomic: SymbolCode?, _ plan: inout StepPlan) {
            while next < plan.entries.length {
                let entry = plan.entries[next]
                if let atomic, tree.order(of: entry) > tree.order(of: atomic) { return }
                if tree.kind(of: entry) == .atomic {
                    plan.atomicsAfter.append(entry)
                }
                next += 1
            }
        }
        for index in 0..<configuration.atomics.length {
            let atomic = configuration.atomics[index]
            guard !plan.exits.contains(atomic) else { continue }
            takeEntries(before: atomic, &plan)
            plan.atomicsAfter.append(atomic)
        }
        takeEntries(before: nil, &plan)
    }

    /// Exits and enters what `plan` says; its atomic states must be planned
    /// (``planAtomics(of:)``), and the configuration takes that list over.
    /// Reads the lists in place, from the plan or from the memo of steps
    /// (``StepPlan/listsAreInMemo``, which stays set: the lists are not the
    /// plan's to read afterwards, and debug builds stop a reader who tries). Queues what the step completes: copied
    /// from the memo of steps if the plan came from it and its completions
    /// are known, else worked out, and then recorded on the plan's entry in
    /// the memo if it has one. A plan of a start, a restore or a finish
    /// (``StepPlan/lifecycle``) is applied by ``applyLifecycle(_:of:)``.
    @usableFromInline
    func apply(_ plan: inout StepPlan) {
        if let lifecycle = plan.lifecycle {
            applyLifecycle(lifecycle, of: &plan)
            return
        }
        let remembered =
            plan.listsAreInMemo
            ? rememberedEntry(of: plan.memoMark)
            : tree.isLaidOut ? stepMemo.entry(at: plan.memoMark, layout: tree.layouts) : nil
        let completed = remembered.flatMap { stepMemo.entries[Int($0)].completions }
        let start = completions.length
        let finishes: Bool
        if plan.listsAreInMemo, let remembered {
            let entry = stepMemo.entries[Int(remembered)]
            finishes = change(
                exiting: stepMemo.codes, Int(entry.exitsStart)..<Int(entry.entriesStart), entering: stepMemo.codes,
                Int(entry.entriesStart)..<Int(entry.atomicsAfterStart), notingCompletions: completed == nil)
            configuration.atomics.removeAll()
            stepMemo.appendCodes(in: entry.atomicsAfterStart..<entry.end, to: &configuration.atomics)
        } else {
            finishes = change(
                exiting: plan.storedExits, 0..<plan.storedExits.length, entering: plan.storedEntries,
                0..<plan.storedEntries.length, notingCompletions: completed == nil)
            // Handed over, not copied: the plan's list is planned again before it is read.
            swap(&configuration.atomics, &plan.storedAtomicsAfter)
            plan.storedAtomicsAfter.removeAll()
        }
        if let remembered, let completed {
            stepMemo.appendCodes(in: completed, to: &completions)
            if stepMemo.entries[Int(remembered)].finishes {
                isFinished = true
            }
        } else if let remembered {
            stepMemo.recordCompletions(of: remembered, from: completions, startingAt: start, finishes: finishes)
        }
    }

    /// Deactivates the states at `exitRange` of `exits`, then activates
    /// those at `entryRange` of `entries`, queuing what entering them
    /// completes if `notingCompletions`.
    ///
    /// - Returns: Whether a top-level final state was entered.
    @usableFromInline
    @inline(__always)
    func change(
        exiting exits: borrowing ReusableList<SymbolCode>, _ exitRange: Range<Int>,
        entering entries: borrowing ReusableList<SymbolCode>, _ entryRange: Range<Int>, notingCompletions: Bool
    ) -> Bool {
        for index in exitRange {
            deactivate(exits[index])
        }
        var finishes = false
        for index in entryRange {
            let state = entries[index]
            activate(state, in: &configuration)
            // Checked as each state is entered, as SCXML's enterStates does:
            // a parallel state completes once, when its last region does.
            if notingCompletions, tree.hasFinalStates, tree.isFinal(state) {
                noteCompletion(byEntering: state)
                if tree.parent(of: state) == .wildcard {
                    finishes = true
                }
            }
        }
        return finishes
    }

    // MARK: Completion

    /// Queues what entering the final state `state` completes: its parent
    /// and, if that is a region whose parallel state now has every region
    /// complete, the parallel state too (SCXML looks no further up). A
    /// top-level final state finishes the machine instead. States entered
    /// after `bound` in document order (when given) count as not entered yet.
    @usableFromInline
    func noteCompletion(byEntering state: SymbolCode, bound: UInt32 = .max) {
        let parent = tree.parent(of: state)
        guard parent != .wildcard else {
            isFinished = true
            return
        }
        completions.append(parent)
        let grandparent = tree.parent(of: parent)
        if tree.kind(of: grandparent) == .parallel, grandparent != .wildcard,
            isInFinalState(grandparent, bound: bound)
        {
            completions.append(grandparent)
        }
    }

    /// Whether `state` is complete: a compound state whose active child is
    /// final, or a parallel state whose regions all are complete.
    @usableFromInline
    func isInFinalState(_ state: SymbolCode, bound: UInt32 = .max) -> Bool {
        switch tree.kind(of: state) {
        case .atomic:
            return false
        case .compound:
            return isFinalChild(configuration.activeChild(of: state), bound: bound)
        case .parallel:
            for position in 0..<tree.childCount(of: state) {
                let region = tree.child(position, of: state)
                // Most regions are compound: checked here, without a call.
                let isComplete =
                    tree.kind(of: region) == .compound
                    ? isFinalChild(configuration.activeChild(of: region), bound: bound)
                    : isInFinalState(region, bound: bound)
                if !isComplete { return false }
            }
            return true
        }
    }

    /// Whether `child`, a compound state's active child (or
    /// ``SymbolCode/wildcard``), is a final state entered by `bound`.
    @usableFromInline
    @inline(__always)
    func isFinalChild(_ child: SymbolCode, bound: UInt32) -> Bool {
        child != .wildcard && tree.isFinal(child) && tree.order(of: child) <= bound
    }

    /// Forgets the completions waiting to be offered: the machine finished,
    /// stopped at the step limit, or was restored.
    @usableFromInline
    func dropCompletions() {
        completions.removeAll()
        completionsRead = 0
    }

    /// How a macrostep ended (see
    /// ``takeMacrostep(into:leavingListsInMemo:takeQueuedCompletion:chooseEventless:firstDoneMove:take:)``).
    @usableFromInline
    enum MacrostepEnd {
        /// No eventless route is enabled and no completion waits.
        case settled
        /// A step entered a top-level final state: the caller finishes the
        /// chart (see ``planFinish(into:)``).
        case finished
        /// It passed ``internalStepLimitValue`` steps, and the completions
        /// still waiting were dropped.
        case cutAtLimit
        /// The caller's `take` stopped it.
        case stopped
    }

    /// Takes the macrostep that follows a step (SCXML's), the one loop
    /// every runner of steps uses: the moves of the eventless routes enabled
    /// now, which `chooseEventless` fills `plan` with (resetting it first);
    /// else the first done route, which `firstDoneMove` finds, of the next
    /// state whose completion waits and that is still active; and so on,
    /// each step planned in full and handed to `take`, which must apply it
    /// to the configuration before the next is planned.
    ///
    /// - Parameters:
    ///   - plan: The plan each step is planned in.
    ///   - leavingListsInMemo: See ``complete(_:leavingListsInMemo:)``.
    ///   - takeQueuedCompletion: The next completion a runtime queued with
    ///     requests, if one waits first in its queue: a machine moves the
    ///     completions noted here into its queue as their final states'
    ///     entry handlers run, so that requests those made go first.
    ///   - chooseEventless: Fills the plan with the moves of the eventless
    ///     routes enabled now, with ``chooseMoves(inside:into:firstMove:)``.
    ///   - firstDoneMove: The move along the first done route of the state
    ///     given that may be taken, if one may.
    ///   - take: Takes a planned step (the runtime delivers it, a pure
    ///     reading applies it); `false` stops the macrostep there.
    /// - Returns: How it ended.
    // Compiled in the library: its callers' closures are specialised
    // where they are made.
    @usableFromInline
    func takeMacrostep(
        into plan: inout StepPlan, leavingListsInMemo: Bool = false,
        takeQueuedCompletion: () -> SymbolCode? = { nil },
        chooseEventless: (_ plan: inout StepPlan) -> Void,
        firstDoneMove: (_ state: SymbolCode, _ plan: inout StepPlan) -> StepPlan.Move?,
        take: (_ plan: inout StepPlan) -> Bool
    ) -> MacrostepEnd {
        var steps = 0
        while !isFinished {
            chooseEventless(&plan)
            if plan.moves.isEmpty {
                guard let state = nextCompletion() ?? takeQueuedCompletion() else { return .settled }
                plan.reset()
                // A step taken since it completed may have left it.
                guard configuration.isActive(state), let move = firstDoneMove(state, &plan) else { continue }
                choose(move, into: &plan)
                plan.internalCause = .done
            } else {
                plan.internalCause = .eventless
            }
            steps += 1
            guard steps <= internalStepLimitValue else {
                dropCompletions()
                return .cutAtLimit
            }
            complete(&plan, leavingListsInMemo: leavingListsInMemo)
            guard take(&plan) else { return .stopped }
        }
        return .finished
    }

    /// Fills `plan` with what finishing exits: every active state,
    /// innermost first; it moves and enters nothing, and the configuration
    /// stays as it is, for reading.
    @usableFromInline
    func planFinish(into plan: inout StepPlan) {
        dropCompletions()
        plan.reset()
        plan.lifecycle = .finish
        appendActiveDescendants(of: .wildcard, to: &plan.exits)
    }

    /// Fills `plan` with what starting enters: every state of the initial
    /// configuration, which is in place already, outermost first (in
    /// document order); it exits and moves nothing. Applying it notes the
    /// completions of the final states it enters, as a step's entries do.
    @usableFromInline
    func planStart(into plan: inout StepPlan) {
        plan.reset()
        plan.lifecycle = .start
        for node in activeNodes(within: .wildcard) {
            plan.entries.append(node)
        }
    }

    /// Fills `plan` with what restoring `restored` does: it exits what the
    /// configuration has and `restored` lacks, innermost first, and enters
    /// what `restored` adds, outermost first; applying it puts `restored`
    /// in place, with the history it records, and notes no completion.
    func planRestore(to restored: consuming Configuration, into plan: inout StepPlan) {
        plan.reset()
        plan.lifecycle = .restore
        let before = activeNodes(within: .wildcard)
        // The configuration not in the chart waits here: the restored one
        // while the chart has the old one, and the other way round.
        var other = restored
        for node in before.reversed() where !other.isActive(node) {
            plan.exits.append(node)
        }
        swap(&configuration, &other)
        for node in activeNodes(within: .wildcard) where !other.isActive(node) {
            plan.entries.append(node)
        }
        swap(&configuration, &other)
        plan.restored = consume other
    }

    /// Swaps the configuration a restore plan holds (see
    /// ``planRestore(to:into:)``) with the chart's: what restoring puts in
    /// place, and what reads the restored configuration before it is
    /// applied uses twice.
    func swapRestoredConfiguration(of plan: inout StepPlan) {
        guard var other = plan.restored.take() else { return }
        swap(&configuration, &other)
        plan.restored = consume other
    }

    /// What applying a microstep that no route takes does (see
    /// ``StepPlan/Lifecycle``): a start notes what its final states
    /// complete, in document order, each as if the states after it were not
    /// entered yet; a restore puts its configuration in place; a finish
    /// changes nothing.
    @usableFromInline
    func applyLifecycle(_ lifecycle: StepPlan.Lifecycle, of plan: inout StepPlan) {
        switch lifecycle {
        case .start:
            guard tree.hasFinalStates else { return }
            for index in 0..<plan.entries.length where tree.isFinal(plan.entries[index]) {
                let entry = plan.entries[index]
                noteCompletion(byEntering: entry, bound: tree.order(of: entry))
            }
        case .restore:
            swapRestoredConfiguration(of: &plan)
            plan.restored = nil
            isFinished = configuration.atomics.contains {
                tree.isFinal($0) && tree.parent(of: $0) == .wildcard
            }
            dropCompletions()
        case .finish:
            return
        }
    }

    /// The next state whose completion waits to be offered, if any.
    @usableFromInline
    func nextCompletion() -> SymbolCode? {
        guard completionsRead < completions.length else {
            if completionsRead > 0 {
                dropCompletions()
            }
            return nil
        }
        completionsRead += 1
        return completions[completionsRead - 1]
    }

    /// Whether completions noted wait to be offered (or queued).
    @usableFromInline
    var hasNotedCompletions: Bool {
        completionsRead < completions.length
    }

    /// The next completion waiting to be offered, if entering the final
    /// state `final` noted it: its parent's, or then the parallel state's
    /// above that. Completions are noted in the order their final states are
    /// entered, so a runtime that delivers entries in that order takes each
    /// completion as its final state's entry has run.
    @usableFromInline
    func nextCompletion(notedByEntering final: SymbolCode) -> SymbolCode? {
        guard completionsRead < completions.length else { return nil }
        let next = completions[completionsRead]
        let parent = tree.parent(of: final)
        guard parent != .wildcard, next == parent || next == tree.parent(of: parent) else { return nil }
        return nextCompletion()
    }

    /// The deepest state that will contain every active atomic state inside
    /// `ancestor` (the root by default) once `plan` is applied; `ancestor`
    /// itself when none will be active in it. The plan's atomic states must
    /// be planned (``planAtomics(of:)``).
    @usableFromInline
    func innermostState(after plan: inout StepPlan, within ancestor: SymbolCode = .wildcard) -> SymbolCode {
        if ancestor == .wildcard, plan.innermostAfter != .unknown {
            return plan.innermostAfter
        }
        var first = SymbolCode.unknown
        var last = SymbolCode.unknown
        for index in 0..<plan.atomicsAfter.length {
            let atomic = plan.atomicsAfter[index]
            if ancestor == .wildcard || tree.isDescendant(atomic, of: ancestor) {
                if first == .unknown {
                    first = atomic
                }
                last = atomic
            }
        }
        guard first != .unknown else { return ancestor }
        var candidate = first
        while candidate != ancestor, candidate != .wildcard, !tree.isWithin(last, candidate) {
            candidate = tree.parent(of: candidate)
        }
        return candidate
    }

    /// `state` and its ancestors, innermost first, then the root.
    @usableFromInline
    func appendAncestry(of state: SymbolCode, to list: inout ReusableList<SymbolCode>) {
        var current = state
        while current != .wildcard {
            list.append(current)
            current = tree.parent(of: current)
        }
        list.append(.wildcard)
    }
}
