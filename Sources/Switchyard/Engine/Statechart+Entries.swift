// A step's entry set (SCXML's computeEntrySet and addDescendantStatesToEnter),
// in document order, with the default entries of states and their histories.

extension Statechart {
    /// Fills the plan's entries: SCXML's entry set for its moves, in document order.
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
    func addWithDescendants(_ state: SymbolCode, ignoringHistory: Bool = false, to plan: inout StepPlan) {
        guard tree.kind(of: state) != .atomic else {
            add(state, to: &plan)
            return
        }
        if remembers, tree.isLaidOut, case .known(let start, let end) = defaultEntrySpan(of: state),
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
    func addEachWithDescendants(_ state: SymbolCode, ignoringHistory: Bool = false, to plan: inout StepPlan) {
        addEntries(.state(state, ignoringHistory: ignoringHistory), to: &plan)
    }

    /// Where the list entering `state` by default makes lies in
    /// ``defaultEntries``, worked out now if it is not yet.
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

    func add(_ state: SymbolCode, to plan: inout StepPlan) {
        for index in 0..<plan.entries.length where plan.entries[index] == state {
            return
        }
        plan.entries.append(state)
    }
}
