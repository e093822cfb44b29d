// How a statechart takes a step: it chooses routes, plans what to exit and
// enter (``StepPlan``), then delivers in SPEC 3.2's order: exit handlers,
// innermost first; the state changes; the handlers of transitions; entry
// handlers, outermost first. A request made by any handler meanwhile waits
// until the step ends, so that steps never interleave.

extension Machine {
    /// A request made by a handler during a step, decided after it.
    @usableFromInline
    enum QueuedRequest {
        case event(E, userInfo: UserInfoBox?)
        case state(S, userInfo: UserInfoBox?)
        /// A request to a machine nested in this one: its index among the
        /// hierarchy's members, and for a state, its code there.
        case nestedEvent(member: Int, E, userInfo: UserInfoBox?)
        case nestedState(member: Int, SymbolCode, userInfo: UserInfoBox?)
    }

    // MARK: Preparing

    /// The code of `state`, handed out now if nothing named it yet.
    @inlinable
    func internedCode(of state: S) -> SymbolCode {
        routes.intern(state)
    }

    /// The state whose code is `code`.
    @inlinable
    func value(of code: SymbolCode) -> S {
        routes.storage.states.value(of: code)
    }

    /// Lays out the tree and, until the machine begins, builds the
    /// configuration that entering its state makes; `state` follows.
    @inlinable
    func prepareChart() {
        let chart = self.chart.unsafelyUnwrapped
        guard chart.needsInitialConfiguration || !chart.tree.isLaidOut else { return }
        if nesting != nil || nestingLink != nil {
            prepareHierarchy()
            return
        }
        let anchor = internedCode(of: chart.hasBegun ? currentState : initialState)
        chart.prepare(initial: anchor, plan: &plan)
        let innermost = chart.innermostState(of: chart.configuration)
        currentState = value(of: innermost)
        currentCode = innermost
    }

    // MARK: Requests

    /// Decides and takes the step `event` causes in a statechart.
    @inlinable
    func performStep(event: E, userInfo: consuming UserInfoBox?) -> Decision<S> {
        if nesting != nil || nestingLink != nil {
            return performHierarchyStep(event: event, userInfo: userInfo)
        }
        guard !mustQueueRequest() else {
            queuedRequests.append(.event(event, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        guard decisionDepth == 0 else {
            refuse(event: event, target: currentState, userInfo: userInfo)
            reportReentrantRequest("tryEvent(\(event))")
            return .refused(.reentrant)
        }
        let (eventCode, mapped, refusal) = chooseMoves(for: event, userInfo: userInfo, into: &plan)
        if plan.moves.isEmpty, let mapped {
            chart!.choose(
                StepPlan.Move(source: .wildcard, target: internedCode(of: mapped), isLocal: false), into: &plan)
        }
        guard !plan.moves.isEmpty else {
            refuse(event: event, target: currentState, userInfo: userInfo)
            return refusal.map(Decision.refused) ?? .noRoute
        }
        takeStep(kind: .event, event: event, eventCode: eventCode, userInfo: consume userInfo)
        return .move(to: currentState, code: currentCode)
    }

    /// Fills `plan` with the moves `event` takes; hands back its code, the
    /// target of a route mapping (to be tried when no route moves), and why
    /// routes refused.
    @inlinable
    func chooseMoves(for event: E, userInfo: UserInfoBox?, into plan: inout StepPlan) -> (
        code: SymbolCode, mapped: S?, refusal: Refusal?
    ) {
        // Local copies: conditions and mappings may read and change the machine.
        let routes = self.routes
        let chart = self.chart.unsafelyUnwrapped
        let eventCode = code(of: event, in: routes)
        let current = currentState
        var refusal: Refusal?
        plan.reset()
        decisionDepth += 1
        defer { decisionDepth -= 1 }
        if chart.tree.hasChildren {
            var chosen = 0
            // By index: a copy of the list would cost a retain and a release.
            var index = 0
            while index < chart.configuration.atomics.length {
                var state = chart.configuration.atomics.storage[index]
                index += 1
                while true {
                    if let route = routes.firstRoute(
                        event: event, code: eventCode, on: state, current: current, userInfo: userInfo,
                        refusal: &refusal)
                    {
                        // A route two regions reach through a common ancestor is taken once.
                        if !plan.moves.contains(where: { $0.id == route.id }) {
                            chart.choose(StepPlan.Move(route), into: &plan)
                        }
                        chosen += 1
                        break
                    }
                    guard state != .wildcard else { break }
                    state = chart.tree.parent(of: state)
                }
            }
            if chosen > 0 {
                return (eventCode, nil, refusal)
            }
        } else if let route = routes.firstRouteInFlatOrder(
            event: event, code: eventCode, from: currentCode, current: current, userInfo: userInfo,
            refusal: &refusal)
        {
            chart.choose(StepPlan.Move(route), into: &plan)
            return (eventCode, nil, refusal)
        }
        return (eventCode, routes.mappedTarget(event: event, from: current, userInfo: userInfo), refusal)
    }

    /// Decides and takes the step a request for `target` causes in a statechart.
    @inlinable
    func performStep(toward target: S, userInfo: consuming UserInfoBox?) -> Decision<S> {
        if nesting != nil || nestingLink != nil {
            return performHierarchyStep(toward: target, userInfo: userInfo)
        }
        guard !mustQueueRequest() else {
            queuedRequests.append(.state(target, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        let targetCode = internedCode(of: target)
        guard decisionDepth == 0 else {
            refuse(event: nil, target: target, userInfo: userInfo)
            reportReentrantRequest("tryState(\(target))")
            return .refused(.reentrant)
        }
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        let refusal = chooseMove(toward: target, code: targetCode, userInfo: userInfo, into: &plan)
        guard !plan.moves.isEmpty else {
            refuse(event: nil, target: target, userInfo: userInfo)
            return refusal.map(Decision.refused) ?? .noRoute
        }
        takeStep(kind: .state, event: nil, eventCode: .wildcard, userInfo: consume userInfo)
        return .move(to: currentState, code: currentCode)
    }

    /// Fills `plan` with the move a request for `target` takes, if a route
    /// or mapping allows one; returns why routes refused.
    @inlinable
    func chooseMove(toward target: S, code targetCode: SymbolCode, userInfo: UserInfoBox?, into plan: inout StepPlan)
        -> Refusal?
    {
        let routes = self.routes
        let chart = self.chart.unsafelyUnwrapped
        let current = currentState
        var refusal: Refusal?
        plan.reset()
        decisionDepth += 1
        defer { decisionDepth -= 1 }
        func take(from source: SymbolCode, isLocal: Bool, _ plan: inout StepPlan) {
            chart.choose(StepPlan.Move(source: source, target: targetCode, isLocal: isLocal), into: &plan)
        }
        if chart.tree.hasChildren {
            var index = 0
            while index < chart.configuration.atomics.length {
                var state = chart.configuration.atomics.storage[index]
                index += 1
                while true {
                    if let route = routes.firstRoute(
                        on: state, to: target, code: targetCode, current: current, userInfo: userInfo,
                        refusal: &refusal)
                    {
                        take(from: state, isLocal: route.isLocal, &plan)
                        return refusal
                    }
                    guard state != .wildcard else { break }
                    state = chart.tree.parent(of: state)
                }
            }
        } else {
            // A flat machine decides as one without a chart: mappings included.
            switch routes.decide(from: current, code: currentCode, to: target, code: targetCode, userInfo: userInfo) {
            case .move: take(from: currentCode, isLocal: false, &plan)
            case .refused(let refused): return refused
            case .noRoute: break
            }
            return nil
        }
        if routes.mappingsAllow(from: current, to: target, userInfo: userInfo) {
            take(from: .wildcard, isLocal: false, &plan)
        }
        return refusal
    }

    // MARK: Questions

    /// The state a statechart would be in after the step `event` causes now,
    /// or `nil` if the event would be refused; nothing changes.
    @usableFromInline
    func stateAfterStep(for event: E, userInfo: UserInfoBox?) -> S? {
        if nesting != nil || nestingLink != nil {
            let code = withUnsafePointer(to: event) { pointer in
                if let link = nestingLink {
                    return link.stateAfterEvent(link.member, UnsafeRawPointer(pointer), userInfo)
                }
                return nestedStateAfterStep(member: 0, event: UnsafeRawPointer(pointer), userInfo: userInfo)
            }
            return code.map { value(of: $0) }
        }
        prepareChart()
        // A plan of its own: the question may be asked while a step runs.
        var question = StepPlan()
        let (_, mapped, _) = chooseMoves(for: event, userInfo: userInfo, into: &question)
        if question.moves.isEmpty, let mapped {
            let code = routes.code(of: mapped)
            guard code.isConcrete else { return mapped }
            chart!.choose(StepPlan.Move(source: .wildcard, target: code, isLocal: false), into: &question)
        }
        return question.moves.isEmpty ? nil : stateAfter(&question)
    }

    /// Whether a request for `target` would move the statechart now.
    @usableFromInline
    func canTakeStep(toward target: S, userInfo: UserInfoBox?) -> Bool {
        if let link = nestingLink {
            return link.canTakeStep(link.member, internedCode(of: target), userInfo)
        }
        if nesting != nil {
            return nestedCanTakeStep(member: 0, target: internedCode(of: target), userInfo: userInfo)
        }
        prepareChart()
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        var question = StepPlan()
        _ = chooseMove(toward: target, code: routes.code(of: target), userInfo: userInfo, into: &question)
        return !question.moves.isEmpty
    }

    /// Whether, in a statechart, `event` could take the machine from `from`
    /// (as the active state) to `to`, by a route of `from`, of an ancestor,
    /// or of `.any`, or by a route mapping.
    @usableFromInline
    func chartHasRoute(event: E, from: S, to: S, userInfo: UserInfoBox?) -> Bool {
        if nesting != nil || nestingLink != nil {
            let (fromCode, toCode) = (routes.code(of: from), routes.code(of: to))
            return withUnsafePointer(to: event) { pointer in
                if let link = nestingLink {
                    return link.hasEventRoute(link.member, UnsafeRawPointer(pointer), fromCode, toCode, userInfo)
                }
                return nestedHasRoute(
                    member: 0, event: UnsafeRawPointer(pointer), from: fromCode, to: toCode, userInfo: userInfo)
            }
        }
        prepareChart()
        let routes = self.routes
        let chart = self.chart!
        let eventCode = routes.code(of: event)
        var state = routes.code(of: from)
        guard state != .unknown else {
            return routes.someMapping(event: event, from: from, leadsTo: to, userInfo: userInfo)
        }
        while true {
            if routes.someRoute(event: event, code: eventCode, on: state, current: from, to: to, userInfo: userInfo) {
                return true
            }
            guard state != .wildcard else { break }
            state = chart.tree.parent(of: state)
        }
        return routes.someMapping(event: event, from: from, leadsTo: to, userInfo: userInfo)
    }

    /// Whether, in a statechart, asking for `to` could take the machine from
    /// `from` (as the active state), by a route of `from`, of an ancestor, or
    /// of `.any`, or by a mapping.
    @usableFromInline
    func chartHasRoute(from: S, to: S, userInfo: UserInfoBox?) -> Bool {
        if nesting != nil || nestingLink != nil {
            let (fromCode, toCode) = (routes.code(of: from), routes.code(of: to))
            if let link = nestingLink {
                return link.hasStateRoute(link.member, fromCode, toCode, userInfo)
            }
            return nestedHasRoute(member: 0, event: nil, from: fromCode, to: toCode, userInfo: userInfo)
        }
        prepareChart()
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        let routes = self.routes
        let chart = self.chart!
        let targetCode = routes.code(of: to)
        var state = routes.code(of: from)
        var refusal: Refusal?
        while state != .unknown, targetCode != .unknown {
            if routes.firstRoute(
                on: state, to: to, code: targetCode, current: from, userInfo: userInfo, refusal: &refusal)
                != nil
            {
                return true
            }
            guard state != .wildcard else { break }
            state = chart.tree.parent(of: state)
        }
        return routes.mappingsAllow(from: from, to: to, userInfo: userInfo)
    }

    /// The state the planned moves would leave the machine in; the history
    /// the step would record is recorded for the plan, then put back.
    func stateAfter(_ question: inout StepPlan) -> S {
        let chart = self.chart!
        let recorded = chart.configuration.recorded
        chart.planExits(into: &question)
        chart.recordHistory(of: &question)
        chart.planEntries(into: &question)
        chart.configuration.recorded = recorded
        return value(of: chart.innermostState(after: &question))
    }

    // MARK: Delivering

    /// Takes the step ``plan`` holds: exits, the change, the transition
    /// handlers of `kind`, entries; then runs the requests its handlers made.
    @inlinable
    @inline(__always)
    func takeStep(kind: DeliveryKind, event: E?, eventCode: SymbolCode, userInfo: consuming UserInfoBox?) {
        let chart = self.chart.unsafelyUnwrapped
        chart.planExits(into: &plan)
        // History is recorded as the states are exited, so a state exited and
        // entered again in this step is entered through what it just recorded.
        chart.recordHistory(of: &plan)
        chart.planEntries(into: &plan)
        let beforeCode = currentCode
        let afterCode = chart.innermostState(after: &plan)
        let context = Context(
            event: event, fromState: currentState, toState: value(of: afterCode), userInfoBox: userInfo)
        // Local copies: handlers may add or dispose handlers, and each
        // handler's request waits, so the plan stays as it is.
        let handlers = self.handlers
        chart.hasBegun = true
        beginStepDelivery()

        // The plan is read in place: while the step runs, requests wait, so
        // nothing plans another step over it.
        handlers.forEachLifecycleHandler(entering: false, ofEach: plan.exits) { invoke($0, context) }
        chart.apply(&plan)
        currentState = context.toState
        currentCode = afterCode
        deliverTransition(
            kind, eventCode: eventCode, from: beforeCode, to: afterCode, chart: chart, handlers: handlers,
            context: context)
        handlers.forEachLifecycleHandler(entering: true, ofEach: plan.entries) { invoke($0, context) }

        endStep()
    }

    /// Runs the handlers of sections 1–2 that a step from `before` to
    /// `after` concerns: a handler for `a => b` hears it when `before` is `a`
    /// or inside it and `after` is `b` or inside it.
    ///
    /// The caller's chart and handler table are passed in: reading either
    /// again here would cost a retain and a release.
    @inlinable
    func deliverTransition(
        _ kind: DeliveryKind, eventCode: SymbolCode, from before: SymbolCode, to after: SymbolCode,
        chart: Statechart, handlers: HandlerTable<S, E>, context: Context
    ) {
        ancestryBefore.removeAll()
        ancestryAfter.removeAll()
        // Event handlers need no ancestries: the common case lists none.
        if handlers.matchesStates(of: kind) {
            chart.appendAncestry(of: before, to: &ancestryBefore)
            chart.appendAncestry(of: after, to: &ancestryAfter)
        }
        handlers.forEachHandler(kind: kind, event: eventCode, before: ancestryBefore, after: ancestryAfter) {
            invoke($0, context)
        }
    }

    /// Runs the error handlers of a refused request in a statechart; a
    /// request they make waits until they have all run.
    @inlinable
    func refuse(event: E?, target: S, userInfo: UserInfoBox?) {
        let context = Context(event: event, fromState: currentState, toState: target, userInfoBox: userInfo)
        let handlers = self.handlers
        beginStepDelivery()
        handlers.forEachHandler(kind: .error, codes: TransitionCodes(event: .wildcard, from: .wildcard, to: .wildcard))
        {
            invoke($0, context)
        }
        endStep()
    }

    /// Begins a step's delivery: requests made meanwhile wait for its end.
    @inlinable
    func beginStepDelivery() {
        isStepping = true
        deliveryDepth += 1
        let thread = DeliveryThread.current
        thread.enter()
        stepThread = thread
    }

    /// Ends a step's delivery and runs the requests it queued.
    @inlinable
    func endStep() {
        deliveryDepth -= 1
        if deliveryDepth == 0, !disposedDuringDelivery.isEmpty {
            disposedDuringDelivery.removeAll()
        }
        isStepping = false
        // The step began on this thread, and a step does not change threads.
        let thread = stepThread!
        thread.leave()
        // Checked here, in specialised code: the call costs a look-up of the
        // queue's generic metadata even when there is nothing to run.
        if !queuedRequests.isEmpty {
            runQueuedRequests()
        }
        thread.resumeWaitingIfUnwound()
    }

    /// Whether a request must wait, queued: while a step runs, for its end;
    /// while deliveries are nested too deep on the thread (or this machine's
    /// earlier requests wait for them), for them to unwind.
    @inlinable
    func mustQueueRequest() -> Bool {
        isStepping || isWaitingOnThread || waitIfFull(DeliveryThread.current)
    }

    /// Calls one handler, unless it was disposed during the delivery.
    @inlinable
    func invoke(_ record: HandlerRecord<S, E>, _ context: Context) {
        if disposedDuringDelivery.isEmpty || !disposedDuringDelivery.contains(record.id) {
            record.body(context)
        }
    }

    /// Decides and delivers the queued requests in the order they were made,
    /// including those their handlers queue, from the one frame that stands
    /// below them all, so that a long chain of them does not deepen the stack.
    @usableFromInline
    func runQueuedRequests() {
        guard !isRunningQueue, !queuedRequests.isEmpty else { return }
        // Run while deliveries nest too deep, they would only be queued again.
        guard !waitIfFull(DeliveryThread.current) else { return }
        isRunningQueue = true
        defer { isRunningQueue = false }
        var next = 0
        while next < queuedRequests.count {
            let request = queuedRequests[next]
            next += 1
            switch request {
            case .event(let event, let userInfo):
                _ = performStep(event: event, userInfo: userInfo)
            case .state(let target, let userInfo):
                _ = performStep(toward: target, userInfo: userInfo)
            case .nestedEvent(let member, let event, let userInfo):
                _ = withUnsafePointer(to: event) {
                    requestNested(member: member, event: UnsafeRawPointer($0), userInfo: userInfo)
                }
            case .nestedState(let member, let target, let userInfo):
                _ = requestNested(member: member, target: target, userInfo: userInfo)
            }
            if next >= 64, next * 2 >= queuedRequests.count {
                queuedRequests.removeFirst(next)
                next = 0
            }
        }
        queuedRequests.removeAll(keepingCapacity: true)
    }
}

extension StepPlan.Move {
    /// The move along a selected route; a route to `.any` stays.
    @inlinable
    init<S>(_ route: SelectedRoute<S>) {
        self.init(
            source: route.source, target: route.target == nil ? .wildcard : route.targetCode, isLocal: route.isLocal)
        self.id = route.id
    }
}
