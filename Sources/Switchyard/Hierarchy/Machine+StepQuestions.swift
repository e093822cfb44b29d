// The questions a statechart answers without moving (`canTryEvent`,
// `canTryState`, `hasRoute`): the step's own choice of routes (see
// `Machine+Steps.swift`), asked of the hierarchy's root for one member.

extension Machine {
    // MARK: Asked of this machine

    /// The state this machine would be in after the step `event` causes
    /// now, or `nil` if the event would be refused; nothing changes.
    func stateAfterStep(for event: E, userInfo: UserInfoBox?) -> S? {
        let code = BorrowedEvent.lending(event) { lent in
            if let link = nestingLink {
                return link.stateAfterEvent(link.member, lent, userInfo)
            }
            return stateAfterStep(member: 0, event: lent, userInfo: userInfo)
        }
        let state = code.map { value(of: $0) }
        if !routes.storage.states.transient.isEmpty {
            releaseTransientCodes()
        }
        return state
    }

    /// Whether a request for `target` would move this machine now.
    func canTakeStep(toward target: S, userInfo: UserInfoBox?) -> Bool {
        let code = transientCode(of: target)
        let answer =
            if let link = nestingLink {
                link.canTakeStep(link.member, code, userInfo)
            } else {
                canTakeStep(member: 0, target: code, userInfo: userInfo)
            }
        if !routes.storage.states.transient.isEmpty {
            releaseTransientCodes()
        }
        return answer
    }

    /// Whether `event` (`nil`: asking for the state) could take this machine
    /// from `from` (as the active state) to `to`, by a route of `from`, of an
    /// ancestor (in this machine or one it is nested in), of `.any`, or by a
    /// route mapping.
    func chartHasRoute(event: E?, from: S, to: S, userInfo: UserInfoBox?) -> Bool {
        let (fromCode, toCode) = (routes.code(of: from), routes.code(of: to))
        guard fromCode.isConcrete, toCode.isConcrete else {
            // A state that no route, handler or declaration names is reached
            // or left by a mapping only.
            return mappingsAllow(event: event, from: from, to: to, userInfo: userInfo)
        }
        guard let event else {
            if let link = nestingLink {
                return link.hasStateRoute(link.member, fromCode, toCode, userInfo)
            }
            return hasRoute(member: 0, event: nil, from: fromCode, to: toCode, userInfo: userInfo)
        }
        return BorrowedEvent.lending(event) { lent in
            if let link = nestingLink {
                return link.hasEventRoute(link.member, lent, fromCode, toCode, userInfo)
            }
            return hasRoute(member: 0, event: lent, from: fromCode, to: toCode, userInfo: userInfo)
        }
    }

    // MARK: Asked of the root for a member

    /// `member`'s state after the step `event` would cause, in its codes, or
    /// `nil` if the event would be refused; nothing changes.
    @inlinable
    func stateAfterStep(member: Int, event: BorrowedEvent, userInfo: UserInfoBox?) -> SymbolCode? {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        guard nesting.isActive(member, in: chart) else { return nil }
        // A plan of its own: the question may be asked while a step runs.
        var question = StepPlan()
        // A local copy: conditions may read and change the machines.
        let routes = self.routes
        var refusal = chooseMoves(
            event: event, eventCode: routes.code(of: event.load(as: E.self)), member: member, routes: routes.storage,
            userInfo: userInfo, chart: chart, nesting: nesting, into: &question)
        if question.moves.isEmpty {
            chooseMappedMove(
                event: event, member: member, userInfo: userInfo, chart: chart, into: &question, refusal: &refusal)
        }
        guard !question.moves.isEmpty else { return nil }
        chart.complete(&question)
        return nesting.state(of: member, after: &question, chart: chart)
    }

    /// Whether asking `member` for its state `target` would move the hierarchy now.
    @inlinable
    func canTakeStep(member: Int, target: SymbolCode, userInfo: UserInfoBox?) -> Bool {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        guard nesting.isActive(member, in: chart) else { return false }
        var question = StepPlan()
        _ = chooseMove(
            toward: nesting.node(of: target, in: member, chart: chart), member: member, userInfo: userInfo,
            chart: chart, nesting: nesting, into: &question)
        return !question.moves.isEmpty
    }

    /// Whether `event` (`nil`: asking for the state) could take `member`
    /// from `from` (as the active state) to `to`, both in its codes, by a
    /// route of any machine on the walk up from `from`, or by the member's
    /// route mappings.
    ///
    /// The step's own choice, asked about one move: the walk up from `from`
    /// (``Statechart/firstOnWalk(from:_:)``), each node asked as a step asks
    /// it (``firstMove(event:eventCode:on:routes:current:question:userInfo:chart:nesting:plan:refusal:)``,
    /// or ``firstRoute(toward:on:routes:current:askingFrom:userInfo:nesting:chart:refusal:)``
    /// for a state), with only the routes that lead to `to` counted. So the
    /// question asks conditions in the order the request would.
    // Not inlined into clients: a question, called out of line through
    // `chartHasRoute` or a nested machine's link.
    @usableFromInline
    func hasRoute(member: Int, event: BorrowedEvent?, from: SymbolCode, to: SymbolCode, userInfo: UserInfoBox?)
        -> Bool
    {
        prepareChart()
        let routes = event == nil ? routesForStateRequests() : self.routes
        let nesting = self.nesting!
        let chart = self.chart!
        let fromNode = nesting.node(of: from, in: member, chart: chart)
        let toNode = nesting.node(of: to, in: member, chart: chart)
        if fromNode != .unknown, toNode != .unknown {
            // The root's state at `from`, which its conditions are told.
            let current = value(of: nesting.nearestName(from: fromNode, in: 0, chart: chart))
            var refusal: Refusal?
            let found: Bool
            if let event {
                let eventCode = routes.code(of: event.load(as: E.self))
                // A plan of its own, for what a move does besides moving: the
                // question may be asked while a step runs.
                var question = StepPlan()
                found =
                    chart.firstOnWalk(from: fromNode) { node in
                        firstMove(
                            event: event, eventCode: eventCode, on: node, routes: routes.storage, current: current,
                            question: (fromNode, toNode), userInfo: userInfo, chart: chart, nesting: nesting,
                            plan: &question, refusal: &refusal)
                    } != nil
            } else {
                found =
                    chart.firstOnWalk(from: fromNode) { node in
                        firstRoute(
                            toward: toNode, on: node, routes: routes.storage, current: current,
                            askingFrom: fromNode, userInfo: userInfo, nesting: nesting, chart: chart,
                            refusal: &refusal)
                    } != nil
            }
            if found {
                return true
            }
        }
        guard from.isConcrete, to.isConcrete else { return false }
        if member == 0 {
            return mappingsAllow(
                event: event?.load(as: E.self), from: value(of: from), to: value(of: to), userInfo: userInfo)
        }
        return nesting.withAccess(of: member) { $0.routes.mappingsAllow(event, from, to, userInfo) }
    }

    /// Whether this machine's mappings allow a move from `from` to `to`: for
    /// an event, some route mapping asked with it; for a state request
    /// (`nil`), a state route mapping or a route mapping asked with no event.
    @inlinable
    func mappingsAllow(event: E?, from: S, to: S, userInfo: UserInfoBox?) -> Bool {
        // A local copy: mappings may change the machine.
        let routes = self.routes
        guard let event else { return routes.storage.mappingsAllow(from: from, to: to, userInfo: userInfo) }
        var refusal: Refusal?
        return routes.storage.mappedMove(event: event, from: from, reaching: to, userInfo: userInfo, refusal: &refusal)
            != nil
    }
}
