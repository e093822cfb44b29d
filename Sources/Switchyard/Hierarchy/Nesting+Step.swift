// What a step works out for each machine of a hierarchy: which machines it
// concerns, their states before and after it, and what their handlers are told.

extension Nesting {
    // MARK: A step

    /// Works out, for the step `plan` holds, which members it concerns (those
    /// whose part of the chart it exits or enters, or whose routes it takes,
    /// and the members they are nested in), and their states before and
    /// after. Returns the root's state after the step.
    ///
    /// A hierarchy of one machine needs none of it: the root's state after
    /// the step is the innermost state it leaves active, and no other
    /// machine is told anything (``touchedMembers`` stays empty).
    ///
    /// A microstep that no route takes (``StepPlan/lifecycle``) tells every
    /// machine its states: see ``planLifecycleDelivery(of:chart:)``.
    @inlinable
    func planDelivery(of plan: inout StepPlan, chart: Statechart) -> SymbolCode {
        if plan.lifecycle != nil {
            return planLifecycleDelivery(of: &plan, chart: chart)
        }
        guard hasNestedMachines else {
            return chart.innermostState(after: &plan)
        }
        refreshNodeCache(chart: chart)
        for index in 0..<touchedMembers.length {
            memberStates[touchedMembers[index]].touched = false
        }
        touchedMembers.removeAll()
        markTouched(0)
        for index in 0..<plan.exits.length {
            markTouched(cachedOwner(of: plan.exits[index]))
        }
        for index in 0..<plan.entries.length {
            markTouched(cachedOwner(of: plan.entries[index]))
        }
        for index in 0..<plan.moves.length {
            markTouched(Int(plan.moves[index].member))
        }
        // The order in which their transition handlers run: deepest first,
        // then in the order they were nested (by index).
        for index in 1..<touchedMembers.length {
            let member = touchedMembers[index]
            let depth = memberStates[member].depth
            var position = index
            while position > 0,
                memberStates[touchedMembers[position - 1]].depth < depth
                    || (memberStates[touchedMembers[position - 1]].depth == depth
                        && touchedMembers[position - 1] > member)
            {
                touchedMembers[position] = touchedMembers[position - 1]
                position -= 1
            }
            touchedMembers[position] = member
        }
        // Without regions, one atomic state is active after the step: the
        // innermost state of each member is found from it.
        let atomicAfter = chart.tree.hasParallel || plan.atomicsAfter.isEmpty ? .unknown : plan.atomicsAfter[0]
        for index in 0..<touchedMembers.length {
            let member = touchedMembers[index]
            let host = memberStates[member].hostNode
            // Without regions, the states active after the step are the
            // one atomic state's ancestors.
            let willBeActive =
                member == 0 || atomicAfter != .unknown
                ? chart.tree.isWithin(atomicAfter, host) : isActive(member, after: &plan, chart: chart)
            memberStates[member].wasActive = isActive(member, in: chart)
            memberStates[member].willBeActive = willBeActive
            memberStates[member].before = memberStates[member].current
            if !willBeActive {
                memberStates[member].after = defaultState(of: member, chart: chart, after: &plan)
            } else if atomicAfter != .unknown {
                let innermost = member == 0 || chart.tree.isDescendant(atomicAfter, of: host) ? atomicAfter : host
                memberStates[member].after = nearestName(from: innermost, in: member, chart: chart)
            } else {
                memberStates[member].after = state(of: member, after: &plan, chart: chart)
            }
        }
        return memberStates[0].after
    }

    /// ``planDelivery(of:chart:)`` for a microstep that no route takes: a
    /// start or a finish tells each machine it stays in its state; a restore
    /// tells each its state before and its state in the restored
    /// configuration, which ``commitLifecycleStates(of:)`` then sets in
    /// every machine. Returns the root's state after it.
    @usableFromInline
    func planLifecycleDelivery(of plan: inout StepPlan, chart: Statechart) -> SymbolCode {
        guard plan.lifecycle == .restore else {
            for member in members.indices {
                memberStates[member].before = memberStates[member].current
                memberStates[member].after = memberStates[member].current
            }
            return memberStates[0].current
        }
        // Worked out on the restored configuration, its history included.
        chart.swapRestoredConfiguration(of: &plan)
        for member in members.indices.dropFirst() {
            memberStates[member].before = memberStates[member].current
            memberStates[member].after = state(of: member, chart: chart)
        }
        let after = nearestName(from: chart.innermostState(of: chart.configuration), in: 0, chart: chart)
        chart.swapRestoredConfiguration(of: &plan)
        memberStates[0].before = memberStates[0].current
        memberStates[0].after = after
        return after
    }

    /// Records the states a restore planned (see
    /// ``planLifecycleDelivery(of:chart:)``) in every machine of the
    /// hierarchy, once applied; a start or a finish changes none.
    @usableFromInline
    func commitLifecycleStates(of plan: borrowing StepPlan) {
        guard plan.lifecycle == .restore else { return }
        for member in members.indices {
            tell(member, memberStates[member].after)
        }
    }

    /// Records `state` as `member`'s, and tells the machine (the root keeps
    /// its own): the one way a step, a start, a restore or a rebuilt
    /// hierarchy tells its machines their states.
    // Inlined into `commitStates`, as the loop it replaced was: out of line,
    // `nested-machines` cost 46 instructions more a step (3,927 → 3,973).
    @inlinable
    func tell(_ member: Int, _ state: SymbolCode) {
        memberStates[member].current = state
        if member != 0 {
            withAccess(of: member) { $0.handlers.setCurrent(state) }
        }
    }

    @inlinable
    @inline(__always)
    func markTouched(_ member: Int) {
        var member = member
        while member >= 0, !memberStates[member].touched {
            memberStates[member].touched = true
            touchedMembers.appendWithinCapacity(member)
            member = memberStates[member].parent
        }
    }

    /// Whether `member` will be active once `plan` is applied.
    @inlinable
    func isActive(_ member: Int, after plan: inout StepPlan, chart: Statechart) -> Bool {
        guard member != 0 else { return true }
        let host = memberStates[member].hostNode
        return plan.entries.contains(host) || (chart.configuration.isActive(host) && !plan.exits.contains(host))
    }

    /// Whether a planned step runs `member`'s handlers of transitions: it
    /// concerns the member, which is active before and after it.
    @inlinable
    func hearsTransition(_ member: Int) -> Bool {
        let state = memberStates[member]
        return state.touched && state.wasActive && state.willBeActive
    }

    /// What `member`'s handlers are told of the planned step.
    @inlinable
    func facts(of member: Int, event: BorrowedEvent?, userInfo: UserInfoBox?) -> StepFacts {
        StepFacts(
            event: event, userInfo: userInfo, before: memberStates[member].before, after: memberStates[member].after)
    }

    /// Records the states of the members the step concerned, once applied.
    @inlinable
    func commitStates() {
        for index in 0..<touchedMembers.length {
            let member = touchedMembers[index]
            let state = memberStates[member].after
            // The machine knows its state already when it stays in it, but
            // is told (and its observable model updated) when its parent
            // enters or leaves it.
            let (wasActive, willBeActive) = (memberStates[member].wasActive, memberStates[member].willBeActive)
            guard state != memberStates[member].current || wasActive != willBeActive else { continue }
            tell(member, state)
        }
    }

    /// `member`'s state once `plan` is applied, in its codes.
    @inlinable
    func state(of member: Int, after plan: inout StepPlan, chart: Statechart) -> SymbolCode {
        guard isActive(member, after: &plan, chart: chart) else {
            return defaultState(of: member, chart: chart, after: &plan)
        }
        let host = memberStates[member].hostNode
        let innermost = chart.innermostState(after: &plan, within: host)
        return nearestName(from: innermost, in: member, chart: chart)
    }

    /// `member`'s state now, in its codes.
    @usableFromInline
    func state(of member: Int, chart: Statechart) -> SymbolCode {
        guard isActive(member, in: chart) else {
            var noStep = StepPlan()
            return defaultState(of: member, chart: chart, after: &noStep)
        }
        let innermost = chart.innermostActiveState(within: memberStates[member].hostNode)
        return nearestName(from: innermost, in: member, chart: chart)
    }

    /// The state entering `member` by default would give it: its initial
    /// state, or what its history recorded, or records in the step `plan`
    /// plans (which has not recorded it yet).
    @inlinable
    func defaultState(of member: Int, chart: Statechart, after plan: inout StepPlan) -> SymbolCode {
        if let known = members[member].defaultState, members[member].defaultVersion == version(of: chart) {
            return known
        }
        return workOutDefaultState(of: member, chart: chart, after: &plan)
    }

    @usableFromInline
    func workOutDefaultState(of member: Int, chart: Statechart, after plan: inout StepPlan) -> SymbolCode {
        defaultEntry.reset()
        for index in 0..<plan.history.length {
            defaultEntry.history.append(plan.history[index])
        }
        for index in 0..<plan.historyCodes.length {
            defaultEntry.historyCodes.append(plan.historyCodes[index])
        }
        chart.addWithDescendants(memberStates[member].hostNode, to: &defaultEntry)
        var innermost = SymbolCode.unknown
        var keepsHistory = false
        for index in 0..<defaultEntry.entries.length {
            let entry = defaultEntry.entries[index]
            keepsHistory = keepsHistory || chart.tree.history(of: entry) != nil
            guard chart.tree.kind(of: entry) == .atomic else { continue }
            if innermost == .unknown {
                innermost = entry
            } else {
                while !chart.tree.isWithin(entry, innermost) {
                    innermost = chart.tree.parent(of: innermost)
                }
            }
        }
        let state = nearestName(from: innermost, in: member, chart: chart)
        members[member].defaultState = keepsHistory ? nil : state
        members[member].defaultVersion = version(of: chart)
        return state
    }

    /// `code`, a state of `member`, and its ancestors inside the member,
    /// innermost first, then `.any`: what its handlers of transitions match.
    @inlinable
    func appendAncestry(
        of code: SymbolCode, in member: Int, to list: inout ReusableList<SymbolCode>, chart: Statechart
    ) {
        list.removeAll()
        let host = memberStates[member].hostNode
        var node = self.node(of: code, in: member, chart: chart)
        while node != host, node != .wildcard, node != .unknown {
            let name = self.code(of: node, in: member)
            if name != .unknown {
                list.append(name)
            }
            node = chart.tree.parent(of: node)
        }
        list.append(.wildcard)
    }
}
