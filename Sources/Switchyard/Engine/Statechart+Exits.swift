// Completing a step's plan from its moves: the memo of steps, the exit set
// (SCXML's computeExitSet) and the history the exits record.

extension Statechart {
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
    func remembersChoice(at mark: ChoiceMemo.Mark) -> Bool {
        choiceMemo.entry(at: mark, layout: tree.layouts) != nil
    }

    /// Marks the sibling move's step `plan` holds, just completed, as the
    /// memo of steps' entry for it, remembering it first if the memo does
    /// not hold it yet (another event's choice may have led to it).
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
    func linkChoice(at choice: ChoiceMemo.Mark, to step: StepMemo.Mark) {
        guard let index = choiceMemo.entry(at: choice, layout: tree.layouts),
            stepMemo.entry(at: step, layout: tree.layouts) != nil
        else { return }
        choiceMemo.entries[Int(index)].step = step
    }

    /// Whether `plan` is a step the memo may hold: one move with nothing
    /// extra, that exits and enters, on a laid-out tree (see ``StepMemo``).
    func mayRemember(_ plan: borrowing StepPlan) -> Bool {
        tree.isLaidOut && plan.moves.length == 1 && plan.moves[0].extras < 0 && plan.moves[0].target != .wildcard
    }

    /// Completes `plan` from the memo of steps, if it holds the step.
    ///
    /// - Returns: Whether it did.
    func recallStep(into plan: inout StepPlan) -> Bool {
        guard mayRemember(plan), let index = rememberedStep(along: plan.moves[0]) else { return false }
        completeFromMemo(at: index, into: &plan)
        return true
    }

    /// The memo of steps' entry for the step along `move` from this
    /// configuration, if it holds one.
    func rememberedStep(along move: StepPlan.Move) -> Int32? {
        stepMemo.entry(
            hash: stepHash(along: move), source: move.source, target: move.target, isLocal: move.isLocal,
            atomics: configuration.atomics, layout: tree.layouts)
    }

    /// The hash of the memo of steps' key for the step along `move` from
    /// this configuration.
    func stepHash(along move: StepPlan.Move) -> UInt64 {
        StepMemo.hash(source: move.source, target: move.target, isLocal: move.isLocal, atomics: configuration.atomics)
    }

    /// Completes `plan`, whose one move is the step's at `index` in the
    /// memo of steps, from there: its lists stay in the memo (see
    /// ``StepPlan/listsAreInMemo``).
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
    func rememberedEntry(of mark: StepMemo.Mark) -> Int32 {
        guard tree.isLaidOut, let index = stepMemo.entry(at: mark, layout: tree.layouts) else {
            preconditionFailure("Switchyard: the memo of steps forgot a step whose lists a plan left in it")
        }
        return index
    }

    /// Keeps the step `plan` holds, just planned, in the memo of steps,
    /// unless history plays a part in it: it records some, or enters a
    /// state that keeps some (its entries then depend on what was recorded).
    func rememberStep(_ plan: inout StepPlan) {
        guard remembers, mayRemember(plan), plan.history.isEmpty,
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
}
