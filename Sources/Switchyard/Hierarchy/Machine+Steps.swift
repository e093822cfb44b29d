// How a statechart takes a step, in one machine or in a hierarchy of nested
// machines alike: a statechart on one machine is the hierarchy with one
// member (see `Nesting.swift`). The root of the hierarchy chooses routes,
// each node's routes asked of every machine that names the node, innermost
// machine first; plans what to exit and enter (``StepPlan``); then delivers
// in SPEC 3.2's order: exit handlers, innermost first; the state changes;
// the handlers of transitions; entry handlers, outermost first. A request
// made by any handler meanwhile waits until the step ends, so that steps
// never interleave. Requests to nested machines come here through their
// links, in their codes.

extension Machine {
    /// A request made by a handler during a step, decided after it: its
    /// machine's index among the hierarchy's members, and for a state, its
    /// code there.
    @usableFromInline
    enum QueuedRequest {
        case event(member: Int, E, userInfo: UserInfoBox?)
        case state(member: Int, SymbolCode, userInfo: UserInfoBox?)
        /// A request made to a flat machine during a delivery under
        /// run-to-completion, which names states by value, not by code.
        case flatEvent(E, userInfo: UserInfoBox?)
        case flatState(S, userInfo: UserInfoBox?)
        /// A request made through an ``EffectMachine`` on this machine,
        /// which decides it and keeps its result when the closure runs: it
        /// waits in this queue, in its turn among the machine's own.
        case throughEffectMachine(() -> Void)
        /// The completion of a state (SCXML's `done.state.ID`), queued once
        /// the entry handlers of the final state that completed it ran.
        case completion(SymbolCode)

        /// Whether this is a completion.
        @inlinable
        var isCompletion: Bool {
            if case .completion = self { true } else { false }
        }
    }

    // MARK: Preparing

    /// The code of `state`, handed out now if nothing named it yet.
    @inlinable
    func internedCode(of state: S) -> SymbolCode {
        routes.intern(state)
    }

    /// The code of `state`, which a request, a question or a route mapping
    /// names: if no declaration, route or handler names it, a transient code
    /// (see ``Symbols``) that ``releaseTransientCodes()`` hands back once the
    /// machine's hierarchy is idle and not in that state.
    @usableFromInline
    func transientCode(of state: S) -> SymbolCode {
        let known = routes.code(of: state)
        guard known == .unknown else { return known }
        let code = routes.internTransient(state)
        // A code handed back and taken again names a new state, which a
        // machine nested through an enum case may name.
        if let nesting, nesting.hasNestedMachines, Int(code) <= nesting.syncedRoot, let chart {
            nesting.nameAgain(code, chart: chart)
        }
        return code
    }

    /// Hands back the transient codes of states the machine is not in, once
    /// no step, decision or queued request can hold one; a nested machine
    /// has its root do it (see ``Nesting/releaseTransientCodes(of:chart:)``).
    /// In a hierarchy, the root keeps the codes a nested machine names (the
    /// images of its states, which it hands back itself) and those a history
    /// recorded.
    ///
    /// - Complexity: O(1) for each code handed back; few are in use at a time.
    @usableFromInline
    func releaseTransientCodes() {
        if let link = nestingLink {
            link.releaseTransientCodes(link.member)
            return
        }
        guard let chart, isIdle else { return }
        let nesting = nesting?.hasNestedMachines == true ? nesting : nil
        let transient = routes.storage.states.transient
        for code in transient where !chart.configuration.isActive(code) {
            if let nesting, nesting.isNamedByMember(code) || nesting.isHeld(code, chart: chart) {
                continue
            }
            routes.uniqueStorage.states.release(code)
        }
    }

    /// ``releaseTransientCodes()`` for the nested machine `member`, at the root.
    @usableFromInline
    func releaseTransientCodes(of member: Int) {
        guard let chart, let nesting, isIdle else { return }
        nesting.releaseTransientCodes(of: member, chart: chart)
    }

    /// Whether no step, decision or queued request is under way.
    var isIdle: Bool {
        !isStepping && !isRunningQueue && decisionDepth == 0 && !waiting.hasRequests
    }

    /// The state whose code is `code`.
    @inlinable
    func value(of code: SymbolCode) -> S {
        routes.storage.states.value(of: code)
    }

    /// The machine's statechart, on the paths that run only once it has one
    /// (after ``ensureChart()``); unwrapped without a check in release builds.
    @inlinable
    var uncheckedChart: Statechart {
        chart.unchecked("a statechart's path ran on a machine without a statechart")
    }

    /// The hierarchy of a statechart's root (every chart's root has one, from
    /// ``ensureChart()``), on the paths a root runs; unwrapped without a check
    /// in release builds.
    @inlinable
    var uncheckedNesting: Nesting {
        nesting.unchecked("a step ran on a machine that is not the root of its hierarchy")
    }

    /// Lays out the tree and, until the hierarchy begins, builds the
    /// configuration that entering its initial state makes; `state` follows.
    @inlinable
    func prepareChart() {
        let chart = uncheckedChart
        guard chart.needsInitialConfiguration || !chart.tree.isLaidOut else { return }
        prepareHierarchy()
    }

    // MARK: Requests

    /// Decides and takes the step `event`, sent to this machine, causes;
    /// `reading` is shown the step once it is planned, before any handler
    /// runs (see ``perform(event:userInfo:reading:)``).
    @inlinable
    func performStep(event: E, userInfo: UserInfoBox?, reading: StepReader) -> Decision<S> {
        let outcome = BorrowedEvent.lending(event) { lent in
            performStep(.event(lent), userInfo: userInfo, reading: reading)
        }
        return decision(after: outcome)
    }

    /// Decides and takes the step asking this machine for `target` causes.
    @inlinable
    func performStep(toward target: S, userInfo: UserInfoBox?) -> Decision<S> {
        decision(after: performStep(.state(transientCode(of: target)), userInfo: userInfo))
    }

    /// Has the root of this machine's hierarchy (itself, unless it is nested)
    /// decide and take the step `request` causes; `reading` is shown the
    /// step if this machine is the root.
    @inlinable
    func performStep(_ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }) -> NestedOutcome {
        if let link = nestingLink {
            let outcome = link.request(link.member, request, userInfo)
            if !routes.storage.states.transient.isEmpty {
                releaseTransientCodes()
            }
            return outcome
        }
        return takeStep(member: 0, request, userInfo: userInfo, reading: reading)
    }

    /// ``requestStep(member:_:userInfo:reading:)`` through the machine's
    /// ``stepEntry``, the one way a request path reaches a statechart's step.
    @inlinable
    func takeStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }
    ) -> NestedOutcome {
        let entry = stepEntry.unchecked("a step was asked of a machine without a statechart")
        return entry.takeStep(self, member, request, userInfo, reading)
    }

    @inlinable
    func decision(after outcome: NestedOutcome) -> Decision<S> {
        switch outcome {
        case .moved: .move(to: currentState, code: currentCode, taken: .none)
        case .refused(let refusal): refusal.map(Decision.refused) ?? .noRoute
        }
    }

    /// Decides and takes the step `request`, made to `member`, causes;
    /// `reading` is shown the step once it is planned.
    @inlinable
    func requestStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }
    ) -> NestedOutcome {
        // Read once for the request: a thread-specific read costs a call.
        let thread = DeliveryThread.current
        guard !mustQueueRequest(on: thread) else {
            waiting.append(request: queued(request, member: member, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        // Lent to the step without a retain: the machine keeps both, and
        // nothing replaces them while it decides or takes a step (`nest`
        // refuses such a machine, `restore` throws, `ensureChart` keeps an
        // existing chart). The machine itself is alive for the request: its
        // caller holds it, or the nested machine's link does (`makeLink`).
        let outcome = Unretained(uncheckedChart).withObject { chart in
            Unretained(uncheckedNesting).withObject { nesting in
                let outcome = decideAndTakeStep(
                    member: member, request, userInfo: userInfo, chart: chart, nesting: nesting, thread: thread,
                    reading: reading)
                assert(
                    self.chart === chart && self.nesting === nesting,
                    "Switchyard: a machine's statechart or hierarchy was replaced while it took a step")
                return outcome
            }
        }
        if !routes.storage.states.transient.isEmpty {
            releaseTransientCodes()
        }
        return outcome
    }

    /// ``requestStep(member:_:userInfo:reading:)`` once the request need
    /// not wait, with the root's chart and hierarchy, on `thread`.
    @inlinable
    func decideAndTakeStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting,
        thread: DeliveryThread, reading: StepReader
    ) -> NestedOutcome {
        guard decisionDepth == 0 else {
            refuse(member: member, request, userInfo: userInfo, refusal: .reentrant, thread: thread)
            reportReentrantRequest(describe(request, member: member))
            return .refused(.reentrant)
        }
        guard nesting.isActive(member, in: chart) else {
            refuse(member: member, request, userInfo: userInfo, refusal: .inactive, thread: thread)
            return .refused(.inactive)
        }
        guard !chart.isFinished else {
            refuse(member: member, request, userInfo: userInfo, refusal: .finished, thread: thread)
            return .refused(.finished)
        }
        let eventCode: SymbolCode
        var refusal: Refusal?
        switch request {
        case .event(let event):
            // Pinned for the event's code and the choice, let go before the
            // step: conditions and mappings may read and change the machines.
            (eventCode, refusal) = withPinnedRoutes { routes in
                let eventCode = code(of: event.load(as: E.self), in: routes)
                let refusal = chooseMoves(
                    event: event, eventCode: eventCode, member: member, routes: routes, userInfo: userInfo,
                    chart: chart, nesting: nesting, into: &plan)
                return (eventCode, refusal)
            }
            if plan.moves.isEmpty {
                chooseMappedMove(
                    event: event, member: member, userInfo: userInfo, chart: chart, into: &plan, refusal: &refusal)
            }
        case .state(let target):
            eventCode = .wildcard
            refusal = chooseMove(
                toward: nesting.node(of: target, in: member, chart: chart), member: member, userInfo: userInfo,
                chart: chart, nesting: nesting, into: &plan)
        }
        guard !plan.moves.isEmpty else {
            refuse(member: member, request, userInfo: userInfo, refusal: refusal, thread: thread)
            return .refused(refusal)
        }
        let isSettled = takeStep(
            kind: request.kind, event: request.event, eventCode: eventCode, userInfo: userInfo, chart: chart,
            nesting: nesting, thread: thread, reading: reading)
        return isSettled ? .moved : .refused(.unsettled)
    }

    /// `request` to `member`, to be decided after the step in progress.
    @inlinable
    func queued(_ request: StepRequest, member: Int, userInfo: UserInfoBox?) -> QueuedRequest {
        switch request {
        case .event(let event): .event(member: member, event.load(as: E.self), userInfo: userInfo)
        case .state(let target): .state(member: member, target, userInfo: userInfo)
        }
    }

    /// `request` to `member`, as a call, for messages.
    @usableFromInline
    func describe(_ request: StepRequest, member: Int) -> String {
        switch request {
        case .event(let event):
            return "tryEvent(\(event.load(as: E.self)))"
        case .state(let target):
            let nesting = self.nesting!
            return "tryState(\(nesting.describe(nesting.node(of: target, in: member, chart: chart!))))"
        }
    }

    // MARK: Choosing

    /// Fills `plan` with the moves `event`, sent to `member`, takes (`nil`:
    /// the eventless routes that are enabled): offered to each active atomic
    /// state inside the member, then up through its ancestors to the root,
    /// each node's machines asked innermost first.
    /// Returns why routes refused. Route mappings are the caller's to try
    /// (``chooseMappedMove(event:member:userInfo:chart:into:refusal:)``) when no
    /// route moves.
    ///
    /// `routes` is the machine's route table as the choice began, which the
    /// caller holds pinned (or a copy of) while the choice runs: conditions
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
    /// `target` takes: the first route on the walks of a step
    /// (``Statechart/chooseMoves(inside:takingOneMove:into:firstMove:)``),
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
        chart.chooseMoves(inside: member == 0 ? nil : host, takingOneMove: true, into: &plan) { node, _ in
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

extension StepPlan.Move {
    /// The move along a selected route; a route to `.any` stays. What else
    /// it does is the caller's to add (see ``Machine/rootMove(along:routes:chart:nesting:plan:)``).
    @inlinable
    init<S>(_ route: SelectedRoute<S>) {
        self.init(
            source: route.source, target: route.target == nil ? .wildcard : route.targetCode, isLocal: route.isLocal)
        self.taken = TakenRoute(id: route.id)
    }
}
