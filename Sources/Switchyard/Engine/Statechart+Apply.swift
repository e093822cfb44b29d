// Taking a planned step: the active atomic states after it, and the
// configuration changed by its exits and entries.

extension Statechart {
    /// Fills the plan's ``StepPlan/atomicsAfter``: the active atomic states
    /// that survive its exits and the atomic states it enters, in document
    /// order; ``planEntries(into:)`` ends with it.
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
}
