// How a statechart takes a step: it chooses routes, plans what to exit and
// enter (``StepPlan``), then delivers in SPEC 3.2's order: exit handlers,
// innermost first; the state changes; the handlers of transitions; entry
// handlers, outermost first. A request made by any handler meanwhile waits
// until the step ends, so that steps never interleave.

extension Machine {
    /// A request made by a handler during a step, decided after it.
    @usableFromInline
    enum QueuedRequest {
        case event(E, userInfo: Any?)
        case state(S, userInfo: Any?)
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
        let anchor = internedCode(of: chart.hasBegun ? currentState : initialState)
        chart.prepare(initial: anchor, plan: &plan)
        let innermost = chart.innermostState(of: chart.configuration)
        currentState = value(of: innermost)
        currentCode = innermost
    }

    // MARK: Requests

    /// Decides and takes the step `event` causes in a statechart.
    @inlinable
    func performStep(event: E, userInfo: consuming Any?) -> Decision<S> {
        guard !isStepping else {
            queuedRequests.append(.event(event, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        guard decisionDepth == 0 else {
            refuse(event: event, target: currentState, userInfo: userInfo)
            reportReentrantRequest("tryEvent(\(event))")
            return .refused(.reentrant)
        }
        let (eventCode, mapped, refusal) = chooseMoves(for: event, userInfo: userInfo)
        if plan.moves.isEmpty, let mapped {
            chart!.choose(
                StepPlan.Move(source: .wildcard, target: internedCode(of: mapped), isLocal: false), into: &plan)
        }
        guard !plan.moves.isEmpty else {
            refuse(event: event, target: currentState, userInfo: userInfo)
            return refusal.map(Decision.refused) ?? .noRoute
        }
        takeStep(kind: .event, event: event, eventCode: eventCode, userInfo: userInfo)
        return .move(to: currentState, code: currentCode)
    }

    /// Fills ``plan`` with the moves `event` takes; hands back its code, the
    /// target of a route mapping (to be tried when no route moves), and why
    /// routes refused.
    @inlinable
    func chooseMoves(for event: E, userInfo: Any?) -> (code: SymbolCode, mapped: S?, refusal: Refusal?) {
        // Local copies: conditions and mappings may read and change the machine.
        let routes = self.routes
        let chart = self.chart.unsafelyUnwrapped
        let eventCode = routes.code(of: event)
        let current = currentState
        var refusal: Refusal?
        plan.reset()
        decisionDepth = 1
        defer { decisionDepth = 0 }
        if chart.tree.hasChildren {
            var chosen = 0
            for atomic in chart.configuration.atomics {
                var state = atomic
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
    func performStep(toward target: S, userInfo: consuming Any?) -> Decision<S> {
        guard !isStepping else {
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
        let refusal = chooseMove(toward: target, code: targetCode, userInfo: userInfo)
        guard !plan.moves.isEmpty else {
            refuse(event: nil, target: target, userInfo: userInfo)
            return refusal.map(Decision.refused) ?? .noRoute
        }
        takeStep(kind: .state, event: nil, eventCode: .wildcard, userInfo: userInfo)
        return .move(to: currentState, code: currentCode)
    }

    /// Fills ``plan`` with the move a request for `target` takes, if a route
    /// or mapping allows one; returns why routes refused.
    @inlinable
    func chooseMove(toward target: S, code targetCode: SymbolCode, userInfo: Any?) -> Refusal? {
        let routes = self.routes
        let chart = self.chart.unsafelyUnwrapped
        let current = currentState
        var refusal: Refusal?
        plan.reset()
        decisionDepth = 1
        defer { decisionDepth = 0 }
        func take(from source: SymbolCode, isLocal: Bool) {
            chart.choose(StepPlan.Move(source: source, target: targetCode, isLocal: isLocal), into: &plan)
        }
        if chart.tree.hasChildren {
            for atomic in chart.configuration.atomics {
                var state = atomic
                while true {
                    if let route = routes.firstRoute(
                        on: state, to: target, code: targetCode, current: current, userInfo: userInfo,
                        refusal: &refusal)
                    {
                        take(from: state, isLocal: route.isLocal)
                        return refusal
                    }
                    guard state != .wildcard else { break }
                    state = chart.tree.parent(of: state)
                }
            }
        } else if case .move = routes.decide(
            from: current, code: currentCode, to: target, code: targetCode, userInfo: userInfo)
        {
            take(from: currentCode, isLocal: false)
            return refusal
        }
        if routes.stateMappingAllows(from: current, to: target, userInfo: userInfo)
            || routes.mappedTarget(event: nil, from: current, userInfo: userInfo) == target
        {
            take(from: .wildcard, isLocal: false)
        }
        return refusal
    }

    // MARK: Delivering

    /// Takes the step ``plan`` holds: exits, the change, the transition
    /// handlers of `kind`, entries; then runs the requests its handlers made.
    @inlinable
    @inline(__always)
    func takeStep(kind: DeliveryKind, event: E?, eventCode: SymbolCode, userInfo: Any?) {
        let chart = self.chart.unsafelyUnwrapped
        chart.planExits(into: &plan)
        // History is recorded as the states are exited, so a state exited and
        // entered again in this step is entered through what it just recorded.
        chart.recordHistory(of: &plan)
        chart.planEntries(into: &plan)
        let beforeCode = currentCode
        let afterCode = chart.innermostState(after: &plan, scratch: &scratch)
        let context = Context(event: event, fromState: currentState, toState: value(of: afterCode), userInfo: userInfo)
        // Local copies: handlers may add or dispose handlers, and each
        // handler's request waits, so the plan stays as it is.
        let handlers = self.handlers
        chart.hasBegun = true
        isStepping = true
        deliveryDepth += 1

        // The plan is read in place: while the step runs, requests wait, so
        // nothing plans another step over it.
        for index in 0..<plan.exits.length {
            handlers.forEachLifecycleHandler(entering: false, of: plan.exits.storage[index]) { invoke($0, context) }
        }
        chart.apply(&plan)
        currentState = context.toState
        currentCode = afterCode
        ancestryBefore.removeAll()
        ancestryAfter.removeAll()
        chart.appendAncestry(of: beforeCode, to: &ancestryBefore)
        chart.appendAncestry(of: afterCode, to: &ancestryAfter)
        handlers.forEachHandler(kind: kind, event: eventCode, before: ancestryBefore, after: ancestryAfter) {
            invoke($0, context)
        }
        for index in 0..<plan.entries.length {
            handlers.forEachLifecycleHandler(entering: true, of: plan.entries.storage[index]) { invoke($0, context) }
        }

        endStep()
    }

    /// Runs the error handlers of a refused request in a statechart; a
    /// request they make waits until they have all run.
    @inlinable
    func refuse(event: E?, target: S, userInfo: Any?) {
        let context = Context(event: event, fromState: currentState, toState: target, userInfo: userInfo)
        let handlers = self.handlers
        isStepping = true
        deliveryDepth += 1
        handlers.forEachHandler(kind: .error, codes: TransitionCodes(event: .wildcard, from: .wildcard, to: .wildcard))
        {
            invoke($0, context)
        }
        endStep()
    }

    /// Ends a step's delivery and runs the requests it queued.
    @inlinable
    func endStep() {
        deliveryDepth -= 1
        if deliveryDepth == 0, !disposedDuringDelivery.isEmpty {
            disposedDuringDelivery.removeAll()
        }
        isStepping = false
        // Checked here, in specialised code: the call costs a look-up of the
        // queue's generic metadata even when there is nothing to run.
        if !queuedRequests.isEmpty {
            runQueuedRequests()
        }
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
