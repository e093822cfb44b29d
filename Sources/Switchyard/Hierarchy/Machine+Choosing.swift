// A hierarchy's choice of moves: SPEC §3.2's walk over the root's chart, each
// node asked of the machines that name it, innermost first, the root last;
// then the route mappings.

extension Machine {
    /// Fills `plan` with the moves `event`, sent to `member`, takes (`nil`:
    /// the eventless routes that are enabled): offered to each active atomic
    /// state inside the member, then up through its ancestors to the root,
    /// each node's machines asked innermost first.
    /// Returns why routes refused. Route mappings are the caller's to try
    /// (``chooseMappedMove(event:member:userInfo:chart:into:refusal:)``) when no
    /// route moves.
    ///
    /// `routes` is the machine's route table as the choice began, which the
    /// caller holds while the choice runs: conditions
    /// may read and change the machines.
    // Inlined into each caller: an eventless try passes no event, and the
    // branches for one fold away (eventless-3: 176 instructions fewer).
    @inlinable
    @inline(__always)
    func chooseMoves(
        event: BorrowedEvent?, eventCode: SymbolCode, member: Int, routes: RouteTable<S, E>.Storage,
        userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting, into plan: inout StepPlan
    ) -> Refusal? {
        let current = currentState
        var refusal: Refusal?
        plan.reset()
        decisionDepth += 1
        assert(noteDecidingThread())
        defer { decisionDepth -= 1 }
        if !chart.tree.hasChildren {
            // One machine without children: the walk of its one active
            // state, then the root.
            if let route = routes.firstRouteWalking(
                event: event?.load(as: E.self), code: eventCode, from: currentCode, current: current,
                userInfo: userInfo, refusal: &refusal)
            {
                chart.choose(
                    rootMove(along: route, routes: routes, chart: chart, nesting: nesting, plan: &plan), into: &plan)
            }
            return refusal
        }
        // An event's choice among one machine's routes, none of them guarded
        // on the walks, depends on the configuration and the event alone:
        // remembered (see `ChoiceMemo`).
        let host = member == 0 ? nil : nesting.memberStates[member].hostNode
        let mayRememberChoice = event != nil && !nesting.hasNestedMachines
        if mayRememberChoice,
            chart.recallChoice(of: eventCode, inside: host, routesVersion: routes.eventRoutesVersion, into: &plan)
        {
            return nil
        }
        var isUnguarded = mayRememberChoice
        chart.chooseMoves(inside: host, into: &plan) {
            node, plan in
            isUnguarded = isUnguarded && routes.hasOnlyUnguardedEventRoutes(from: node)
            return firstMove(
                event: event, eventCode: eventCode, on: node, routes: routes, current: current, userInfo: userInfo,
                chart: chart, nesting: nesting, plan: &plan, refusal: &refusal)
        }
        if isUnguarded {
            chart.rememberChoice(of: eventCode, inside: host, routesVersion: routes.eventRoutesVersion, plan: &plan)
        }
        return refusal
    }

    /// The move along the first route of `event` on `node` (`nil`: the
    /// first route kept under the reserved code `eventCode`, an eventless or
    /// a done route): asked of each machine that names the node, innermost
    /// first, the root last.
    ///
    /// A question about one move (`hasRoute`) asks the same, as `question`:
    /// each machine's conditions are told its state at the node `from`
    /// rather than its current state, and only routes that lead to the node
    /// `to` count (see ``RouteTable/Storage/firstRoute(event:code:on:current:reaching:userInfo:refusal:)``);
    /// `current` is then the root's state at `from`.
    @inlinable
    func firstMove(
        event: BorrowedEvent?, eventCode: SymbolCode, on node: SymbolCode, routes: RouteTable<S, E>.Storage, current: S,
        question: (from: SymbolCode, to: SymbolCode)? = nil, userInfo: UserInfoBox?, chart: Statechart,
        nesting: Nesting, plan: inout StepPlan, refusal: inout Refusal?
    ) -> StepPlan.Move? {
        // Names read in place, and closures called unretained: each copy
        // would cost a retain and a release.
        var position = 0
        let asksMembers = event != nil || nesting.membersMayHaveRoutes(reservedEvent: eventCode)
        while asksMembers, Int(node) < nesting.names.count, position < nesting.names[Int(node)].count {
            let name = nesting.names[Int(node)][position]
            position += 1
            var reaching: SymbolCode?
            if let question {
                reaching = nesting.code(of: question.to, in: name.member)
                // No route of this machine leads to a state it does not name.
                guard reaching != .unknown else { continue }
            }
            var extras: RouteExtras?
            let route = nesting.withAccess(of: name.member) { access -> MemberRoute? in
                let current =
                    question.map { nesting.nearestName(from: $0.from, in: name.member, chart: chart) }
                    ?? nesting.memberStates[name.member].current
                // An event has its code in each machine; a reserved code is the same in all.
                var memberEventCode = eventCode
                if let event {
                    guard access.routes.hasEvents else { return nil }
                    memberEventCode = nesting.eventCode(in: name.member, event: event, rootCode: eventCode)
                }
                return access.routes.firstRoute(
                    event, memberEventCode, name.code, current, reaching, userInfo, &refusal, &extras)
            }
            guard let route else { continue }
            return memberMove(
                along: route, extras: extras, from: node, member: name.member, chart: chart, nesting: nesting,
                plan: &plan)
        }
        // Most nodes on a walk up have no routes of the root's: passed by a count.
        guard event == nil || routes.hasEventRoutes(from: node) else { return nil }
        guard node == .wildcard || nesting.isNamedByRoot(node) else { return nil }
        var reaching: S?
        if let question {
            // No route of the root leads to a state it does not name.
            guard let target = routes.states.name(of: question.to) else { return nil }
            reaching = target
        }
        guard
            let route = routes.firstRoute(
                event: event?.load(as: E.self), code: eventCode, on: node, current: current, reaching: reaching,
                userInfo: userInfo, refusal: &refusal)
        else { return nil }
        return rootMove(along: route, routes: routes, chart: chart, nesting: nesting, plan: &plan)
    }

    /// The move along the root machine's `route`, its targets nodes of the
    /// hierarchy; its other targets, if it has any, go into `plan`.
    @inlinable
    @inline(__always)
    func rootMove(
        along route: SelectedRoute<S>, routes: RouteTable<S, E>.Storage, chart: Statechart, nesting: Nesting,
        plan: inout StepPlan
    ) -> StepPlan.Move {
        var move = StepPlan.Move(route)
        if route.target != nil {
            move.target = nesting.node(of: route.targetCode, in: 0, chart: chart)
        }
        if route.hasExtras {
            addExtras(of: route, routes: routes, chart: chart, nesting: nesting, to: &move, in: &plan)
        }
        return move
    }

    /// Lists in `plan` what `move` along the root's `route` does besides
    /// moving to one target, as the route's guard says.
    @usableFromInline
    func addExtras(
        of route: SelectedRoute<S>, routes: RouteTable<S, E>.Storage, chart: Statechart, nesting: Nesting,
        to move: inout StepPlan.Move, in plan: inout StepPlan
    ) {
        addExtras(
            routes.extrasOfEventRoute(at: route.node), of: 0, chart: chart, nesting: nesting, to: &move, in: &plan)
    }

    /// The move from `node` along `member`'s `route`, its targets nodes of
    /// the hierarchy; what else it does (`extras`, read from the table the
    /// route was chosen from), if anything, goes into `plan`.
    @inlinable
    func memberMove(
        along route: MemberRoute, extras: RouteExtras?, from node: SymbolCode, member: Int, chart: Statechart,
        nesting: Nesting, plan: inout StepPlan
    ) -> StepPlan.Move {
        let target = route.target == .wildcard ? .wildcard : nesting.node(of: route.target, in: member, chart: chart)
        var move = StepPlan.Move(source: node, target: target, isLocal: route.isLocal)
        move.taken = TakenRoute(id: route.id)
        move.member = UInt32(member)
        if let extras {
            addExtras(extras, of: member, chart: chart, nesting: nesting, to: &move, in: &plan)
        }
        return move
    }

    /// Lists in `plan` what `move` along a route of `member` does besides
    /// moving to one target, as the route's guard says (`extras`, in the
    /// member's codes).
    @usableFromInline
    func addExtras(
        _ extras: RouteExtras, of member: Int, chart: Statechart, nesting: Nesting, to move: inout StepPlan.Move,
        in plan: inout StepPlan
    ) {
        require(plan.extras.length < Int(Int16.max), "one step takes more than \(Int16.max) routes")
        var planned = StepPlan.Extras()
        planned.ignoresHistory = extras.ignoresHistory
        planned.action = extras.action
        planned.actionID = extras.actionID
        let start = plan.otherTargets.length
        for code in extras.otherTargets {
            plan.otherTargets.append(nesting.node(of: code, in: member, chart: chart))
        }
        planned.otherTargets = start..<plan.otherTargets.length
        if planned.action >= 0 {
            plan.hasActions = true
        }
        move.extras = Int16(plan.extras.length)
        plan.extras.append(planned)
    }

    /// Fills `plan` with the move `member`'s route mappings name for `event`
    /// (`nil`: a state request) from its state, if they name one; a mapping
    /// that covers the request and refuses it sets `refusal`.
    @inlinable
    func chooseMappedMove(
        event: BorrowedEvent?, member: Int, userInfo: UserInfoBox?, chart: Statechart, into plan: inout StepPlan,
        refusal: inout Refusal?
    ) {
        let nesting = uncheckedNesting
        // Mappings decide: a request one makes is refused.
        decisionDepth += 1
        assert(noteDecidingThread())
        var taken = TakenRoute.none
        let target: SymbolCode?
        if member == 0 {
            let move = mappedMove(
                event: event?.load(as: E.self), from: currentState, userInfo: userInfo, refusal: &refusal)
            taken = move?.taken ?? .none
            target = move.map { transientCode(of: $0.target) }
        } else {
            target = nesting.withAccess(of: member) {
                $0.routes.mappedTarget(event, nesting.memberStates[member].current, userInfo)
            }
        }
        decisionDepth -= 1
        guard let target else { return }
        let host = nesting.memberStates[member].hostNode
        var move = StepPlan.Move(
            source: host, target: nesting.node(of: target, in: member, chart: chart), isLocal: member != 0)
        move.taken = taken
        move.member = UInt32(member)
        chart.choose(move, into: &plan)
    }

    /// The state this machine's route mappings name for `event` (`nil`: a
    /// state request) from `state`, and what was taken; a mapping that
    /// covers the request and refuses it sets `refusal`.
    @inlinable
    func mappedMove(event: E?, from state: S, userInfo: UserInfoBox?, refusal: inout Refusal?) -> (
        target: S, taken: TakenRoute
    )? {
        // A local copy, let go before the caller interns the answer (which
        // would otherwise copy the whole table): mappings may change the machine.
        let routes = self.routes
        return routes.storage.mappedMove(event: event, from: state, userInfo: userInfo, refusal: &refusal)
    }

    /// Fills `plan` with the move a request to `member` for the node
    /// `target` takes: the route the walks of a step find, SCXML's conflict
    /// rule keeping one (``Statechart/chooseMoves(inside:into:firstMove:)``),
    /// each node asked through
    /// ``firstRoute(toward:on:routes:current:askingFrom:userInfo:nesting:chart:refusal:)``,
    /// else the member's route mappings. Returns why routes refused.
    @inlinable
    func chooseMove(
        toward target: SymbolCode, member: Int, userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting,
        into plan: inout StepPlan
    ) -> Refusal? {
        // A local copy: conditions and mappings may read and change the machines.
        let routes = routesForStateRequests()
        let current = currentState
        let host = nesting.memberStates[member].hostNode
        var refusal: Refusal?
        plan.reset()
        guard target != .unknown else { return nil }
        decisionDepth += 1
        assert(noteDecidingThread())
        defer { decisionDepth -= 1 }
        chart.chooseMoves(inside: member == 0 ? nil : host, into: &plan) { node, _ in
            firstRoute(
                toward: target, on: node, routes: routes.storage, current: current, userInfo: userInfo,
                nesting: nesting, chart: chart, refusal: &refusal
            ).map { StepPlan.Move(source: node, target: target, isLocal: $0.isLocal) }
        }
        if plan.moves.isEmpty, mappingAllows(member: member, target: target, userInfo: userInfo) {
            chart.choose(StepPlan.Move(source: host, target: target, isLocal: member != 0), into: &plan)
        }
        return refusal
    }

    /// The first route from `node` to the node `target`: asked of each
    /// machine that names both, innermost first, the root last. A question
    /// about one move (`hasRoute`) names the node `from` whose states the
    /// machines' conditions are told, rather than their current ones;
    /// `current` is then the root's state at `from`.
    @inlinable
    func firstRoute(
        toward target: SymbolCode, on node: SymbolCode, routes: RouteTable<S, E>.Storage, current: S,
        askingFrom from: SymbolCode? = nil, userInfo: UserInfoBox?, nesting: Nesting, chart: Statechart,
        refusal: inout Refusal?
    ) -> MemberRoute? {
        if Int(node) < nesting.names.count {
            for name in nesting.names[Int(node)] {
                let targetCode = nesting.code(of: target, in: name.member)
                guard targetCode != .unknown else { continue }
                let memberCurrent =
                    from.map { nesting.nearestName(from: $0, in: name.member, chart: chart) }
                    ?? nesting.memberStates[name.member].current
                let route = nesting.withAccess(of: name.member) {
                    $0.routes.firstStateRoute(name.code, targetCode, memberCurrent, userInfo, &refusal)
                }
                if let route {
                    return route
                }
            }
        }
        guard node == .wildcard || nesting.isNamedByRoot(node),
            let rootTarget = routes.states.name(of: target),
            let route = routes.firstRoute(
                on: node, to: rootTarget, code: target, current: current, userInfo: userInfo, refusal: &refusal)
        else { return nil }
        return MemberRoute(id: route.id, target: target, isLocal: route.isLocal)
    }

    /// Whether `member`'s route mappings allow a request for the node `target`.
    @inlinable
    func mappingAllows(member: Int, target: SymbolCode, userInfo: UserInfoBox?) -> Bool {
        let nesting = uncheckedNesting
        let targetCode = nesting.code(of: target, in: member)
        guard targetCode != .unknown else { return false }
        if member == 0 {
            let routes = self.routes
            let value = value(of: targetCode)
            return routes.storage.mappingsAllow(from: currentState, to: value, userInfo: userInfo)
        }
        return nesting.withAccess(of: member) {
            $0.routes.mappingsAllow(nil, nesting.memberStates[member].current, targetCode, userInfo)
        }
    }
}
