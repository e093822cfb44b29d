// Completion and the macrostep: the done events a step queues (SCXML's
// internal queue), the one macrostep loop, and the plans of start, restore
// and finish.

extension Statechart {
    /// Queues what entering the final state `state` completes: its parent
    /// and, if that is a region whose parallel state now has every region
    /// complete, the parallel state too (SCXML looks no further up). A
    /// top-level final state finishes the machine instead. States entered
    /// after `bound` in document order (when given) count as not entered yet.
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
    @usableFromInline var hasNotedCompletions: Bool {
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
