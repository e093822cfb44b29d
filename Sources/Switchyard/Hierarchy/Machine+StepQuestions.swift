// The questions a statechart answers without moving (`canTryEvent`,
// `canTryState`, `hasRoute`): the step's own choice of routes (see
// `Machine+Steps.swift`), asked of the hierarchy's root for one member.

extension Machine {
    // MARK: Asked of this machine

    /// The state this machine would be in after the step `event` causes
    /// now, or `nil` if the event would be refused; nothing changes.
    @usableFromInline
    func stateAfterStep(for event: E, userInfo: UserInfoBox?) -> S? {
        let code = BorrowedEvent.lending(event) { lent in
            if let link = nestingLink {
                return link.stateAfterEvent(link.member, lent, userInfo)
            }
            return stateAfterStep(member: 0, event: lent, userInfo: userInfo)
        }
        return code.map { value(of: $0) }
    }

    /// Whether a request for `target` would move this machine now.
    @usableFromInline
    func canTakeStep(toward target: S, userInfo: UserInfoBox?) -> Bool {
        if let link = nestingLink {
            return link.canTakeStep(link.member, internedCode(of: target), userInfo)
        }
        return canTakeStep(member: 0, target: internedCode(of: target), userInfo: userInfo)
    }

    /// Whether `event` (`nil`: asking for the state) could take this machine
    /// from `from` (as the active state) to `to`, by a route of `from`, of an
    /// ancestor (in this machine or one it is nested in), of `.any`, or by a
    /// route mapping.
    @usableFromInline
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
    @inlinable
    func hasRoute(member: Int, event: BorrowedEvent?, from: SymbolCode, to: SymbolCode, userInfo: UserInfoBox?)
        -> Bool
    {
        prepareChart()
        let routes = event == nil ? routesForStateRequests() : self.routes
        let nesting = self.nesting!
        let chart = self.chart!
        let fromNode = nesting.node(of: from, in: member, chart: chart)
        let toNode = nesting.node(of: to, in: member, chart: chart)
        let eventCode = event.map { routes.code(of: $0.load(as: E.self)) } ?? .wildcard
        if fromNode != .unknown, toNode != .unknown {
            var node = fromNode
            while true {
                if someRoute(
                    event: event, code: eventCode, on: node, from: fromNode, to: toNode, userInfo: userInfo,
                    routes: routes, chart: chart)
                {
                    return true
                }
                guard node != .wildcard else { break }
                node = chart.tree.parent(of: node)
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
        return routes.storage.someMapping(event: event, from: from, leadsTo: to, userInfo: userInfo)
    }

    /// Whether a route on `node` of any machine that names it could take the
    /// hierarchy from the node `from` (as the active state) to the node `to`.
    @inlinable
    func someRoute(
        event: BorrowedEvent?, code eventCode: SymbolCode, on node: SymbolCode, from: SymbolCode, to: SymbolCode,
        userInfo: UserInfoBox?, routes: RouteTable<S, E>, chart: Statechart
    ) -> Bool {
        let nesting = self.nesting!
        var refusal: Refusal?
        let names = node != .wildcard && Int(node) < nesting.names.count ? nesting.names[Int(node)] : []
        for name in names {
            let access = nesting.members[name.member].access!
            let target = nesting.code(of: to, in: name.member)
            guard target != .unknown else { continue }
            let current = nesting.nearestName(from: from, in: name.member, chart: chart)
            if let event {
                if access.routes.hasEvents,
                    access.routes.someEventRoute(
                        event, nesting.eventCode(in: name.member, event: event, rootCode: eventCode), name.code,
                        current, target, userInfo)
                {
                    return true
                }
            } else if access.routes.firstStateRoute(name.code, target, current, userInfo, &refusal) != nil {
                return true
            }
        }
        guard node == .wildcard || routes.storage.states.name(of: node) != nil,
            let target = routes.storage.states.name(of: to)
        else { return false }
        let current = value(of: nesting.nearestName(from: from, in: 0, chart: chart))
        guard let event else {
            return routes.storage.firstRoute(
                on: node, to: target, code: to, current: current, userInfo: userInfo, refusal: &refusal) != nil
        }
        return routes.storage.someRoute(
            event: event.load(as: E.self), code: eventCode, on: node, current: current, to: target, userInfo: userInfo)
    }
}
