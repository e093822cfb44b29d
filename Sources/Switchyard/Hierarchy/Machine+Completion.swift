// What a statechart does after a step and before any later request, as
// SCXML's macrostep does: it takes the eventless routes that are enabled,
// then offers each state a step completed (by entering a final state) to the
// routes that react to it, one at a time, each followed by eventless routes
// again, until nothing is left. A top-level final state finishes the machine.

extension Machine {
    // MARK: Declaring

    /// How many steps of eventless and done routes one request (or
    /// ``start()``) may lead to: past it, a cycle of routes whose conditions
    /// keep holding is cut, and the request fails with
    /// ``TransitionError/Reason/unsettled``.
    public static var internalStepLimit: Int { internalStepLimitValue }

    /// Makes `state` final: entering it completes its parent (SCXML's
    /// `<final>`), or, for a top-level state, finishes the machine.
    ///
    /// ```swift
    /// order.addChildren([.packing, .packed], to: .fulfilment)
    /// order.addFinalState(.packed)
    /// order.addDoneRoute(.fulfilment => .shipping)  // taken once .packed is entered
    /// ```
    ///
    /// A compound state is *done* once its active child is final; a parallel
    /// state once every region is done. The step that completes a state is
    /// delivered first; then the routes added with
    /// ``addDoneRoute(_:condition:action:)`` for it are offered its completion,
    /// before any later request. When a top-level final state is entered,
    /// the machine runs the exit handlers of every active state (innermost
    /// first), keeps its configuration for reading, and refuses every later
    /// request with ``TransitionError/Reason/finished``.
    ///
    /// On a machine nested in another (see ``nest(_:under:as:)``), a final
    /// top-level state completes the state the machine is nested in, and the
    /// hierarchy's root is the machine that finishes.
    ///
    /// - Parameter state: An atomic state: it may not have children or
    ///   regions, now or later, and may not be a region itself.
    /// - Precondition: Once the machine (or the hierarchy it is nested in)
    ///   has begun, `state` is not active.
    @inlinable
    public func addFinalState(_ state: S) {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        declareFinal(state)
    }

    /// ``addFinalState(_:)``, once the steps are specialised.
    @usableFromInline
    func declareFinal(_ state: S) {
        let code = internedCode(of: state)
        ensureChart()
        if let link = nestingLink {
            // Its own declarations, then the hierarchy's.
            chart!.tree.setFinal(code, names: name(of:))
            link.setFinal(link.member, code)
            return
        }
        declareFinal(code, of: 0)
    }

    /// Whether the machine has entered a top-level final state (see
    /// ``addFinalState(_:)``): it refuses every request from then on.
    public var isFinished: Bool {
        guard chart != nil else { return false }
        if let link = nestingLink {
            return link.isFinished()
        }
        return uncheckedChart.isFinished
    }

    /// Adds a route with no event, taken whenever its source is active and
    /// its condition holds; see ``addEventlessRoute(_:condition:action:)``.
    ///
    /// A trailing closure is the condition, in the Swift 6 and Swift 5
    /// language modes alike (a separate overload from the one with an
    /// action, so that Swift 5's backward matching of trailing closures
    /// cannot make it the action):
    ///
    /// ```swift
    /// machine.addEventlessRoute(.checking => .approved) { _ in order.isPaid }
    /// ```
    ///
    /// - Parameters:
    ///   - transition: The move.
    ///   - condition: What must hold; `nil` always allows it.
    /// - Returns: What removes the route.
    @inlinable
    @discardableResult
    public func addEventlessRoute(_ transition: Transition<S>, condition: Condition? = nil) -> Disposable {
        addEventlessRoute(transition, condition: condition, action: nil)
    }

    /// Adds a route with no event, taken whenever its source is active and
    /// its condition holds: after each step, before any later request, the
    /// machine takes the eventless routes that are enabled, selected as an
    /// event's routes are (deepest source first, in regions in declaration
    /// order), until none is (SCXML's eventless transitions).
    ///
    /// ```swift
    /// machine.addEventlessRoute(.checking => .approved) { _ in order.isPaid }
    /// machine.addEventlessRoute(.checking => .rejected)
    /// ```
    ///
    /// A route added with ``addRoute(_:condition:)-(_,Condition?)`` is not eventless: it is
    /// the route a state request (`machine <- .b`) takes, as in SwiftState.
    /// A nested machine's eventless routes are taken by the hierarchy's
    /// macrostep, asked as its event routes are (innermost machine first on
    /// each state). A cycle of eventless routes whose conditions keep holding is cut
    /// after ``internalStepLimit`` steps, and the request that led to it
    /// fails with ``TransitionError/Reason/unsettled``.
    ///
    /// - Parameters:
    ///   - transition: The move. `.any` as the source stands for the root
    ///     (any state); `.any` as the target stays (exits and enters nothing).
    ///   - condition: What must hold; `nil` always allows it. The context's
    ///     event is `nil`.
    ///   - action: Runs when the route is taken (see
    ///     ``addRoute(event:_:condition:action:)-(E,_,_,_)``).
    /// - Returns: What removes the route.
    /// - Precondition: A route without condition may not lead back into its
    ///   source (a state that is always active once it is entered), and may
    ///   not stay or leave from `.any`: it would never stop being taken.
    @inlinable
    @discardableResult
    public func addEventlessRoute(_ transition: Transition<S>, condition: Condition? = nil, action: Handler?)
        -> Disposable
    {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        if condition == nil {
            requireSettles(transition)
        }
        return addReservedRoute(.eventless, transition, condition: condition, action: action)
    }

    /// Adds a route taken when its source is done; see
    /// ``addDoneRoute(_:condition:action:)``.
    ///
    /// A trailing closure is the condition, in the Swift 6 and Swift 5
    /// language modes alike:
    ///
    /// ```swift
    /// machine.addDoneRoute(.work => .shipped) { _ in order.isPaid }
    /// ```
    ///
    /// - Parameters:
    ///   - transition: From the state whose completion the route reacts to.
    ///   - condition: What must hold; `nil` always allows it.
    /// - Returns: What removes the route.
    @inlinable
    @discardableResult
    public func addDoneRoute(_ transition: Transition<S>, condition: Condition? = nil) -> Disposable {
        addDoneRoute(transition, condition: condition, action: nil)
    }

    /// Adds a route taken when its source is done: when a final child of a
    /// compound source is entered, or when every region of a parallel source
    /// is done (SCXML's `done.state.ID` event, which a typed event enum has
    /// no case for).
    ///
    /// ```swift
    /// machine.addRegions([.payment, .packing], to: .fulfilment)
    /// machine.addDoneRoute(.fulfilment => .shipped)
    /// ```
    ///
    /// The completion is offered after the step that caused it and before
    /// any later request; the source's done routes are tried in the order
    /// they were added, and the first whose condition holds is taken, as
    /// one step with the usual exits, handlers and entries. In a hierarchy
    /// of nested machines, the done routes of each machine that names the
    /// source are tried, innermost machine first.
    ///
    /// - Parameters:
    ///   - transition: From the state whose completion the route reacts to,
    ///     which must have children or regions (or a machine nested in it),
    ///     to the target (`.any` stays).
    ///   - condition: What must hold; `nil` always allows it. The context's
    ///     event is `nil`.
    ///   - action: Runs when the route is taken (see
    ///     ``addRoute(event:_:condition:action:)-(E,_,_,_)``).
    /// - Returns: What removes the route.
    @inlinable
    @discardableResult
    public func addDoneRoute(_ transition: Transition<S>, condition: Condition? = nil, action: Handler?)
        -> Disposable
    {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        return declareDoneRoute(transition, condition: condition, action: action)
    }

    /// ``addDoneRoute(_:condition:action:)``, once the steps are specialised.
    @usableFromInline
    func declareDoneRoute(_ transition: Transition<S>, condition: Condition?, action: Handler?) -> Disposable {
        let source = transition.fromState.rawValue
        require(source != nil, "a done route reacts to one state being done; .any => \(transition.toState) names none")
        ensureChart()
        let code = routes.code(of: source!)
        let kind = nestingLink.map { $0.kind($0.member, code) } ?? composedKind(of: code, in: 0)
        require(
            kind != .atomic,
            "\(source!) has no children or regions, so it is never done: declare its children (and a final one) before its done routes"
        )
        return addReservedRoute(.done, transition, condition: condition, action: action)
    }

    /// Adds a route under a reserved event code: an eventless or a done route.
    @usableFromInline
    func addReservedRoute(_ eventCode: SymbolCode, _ transition: Transition<S>, condition: Condition?, action: Handler?)
        -> Disposable
    {
        ensureChart()
        if !transition.otherTargets.isEmpty {
            requireLegalTargets(of: transition)
        }
        let registered = action.map(registerAction)
        let id = makeID()
        let node = routes.addRoute(
            reservedEvent: eventCode, transition,
            guarded: .of(transition, condition: condition, action: registered.map { ($0.node, $0.id) }), id: id)
        nestingLink?.noteRoutes(eventCode)
        let route = registration(id, at: node, in: .eventRoute)
        guard let registered else { return route }
        return combine([route, registered.disposable])
    }

    /// Stops on an eventless route without condition that would be taken
    /// again and again.
    @usableFromInline
    func requireSettles(_ transition: Transition<S>) {
        guard let source = transition.fromState.rawValue else {
            require(
                false,
                "the eventless route \(transition) leaves from .any and has no condition: it would be taken forever")
            return
        }
        guard let target = transition.toState.rawValue else {
            require(false, "the eventless route \(transition) stays and has no condition: it would be taken forever")
            return
        }
        let sourceCode = routes.code(of: source)
        let targetCode = routes.code(of: target)
        if let chart, sourceCode.isConcrete, targetCode.isConcrete {
            chart.tree.layOutIfNeeded()
            require(
                !chart.tree.isWithin(targetCode, sourceCode),
                "the eventless route \(transition) leads back into its source and has no condition: it would be taken forever"
            )
        } else {
            require(
                source != target,
                "the eventless route \(transition) leads back into its source and has no condition: it would be taken forever"
            )
        }
    }

    // MARK: Settling

    /// Whether the step just taken may lead to more: an eventless route to
    /// try, a completion to offer, or a finish to deliver.
    @inlinable
    func mayContinue(after chart: Statechart, nesting: Nesting) -> Bool {
        chart.hasNotedCompletions || chart.isFinished
            || hasRoutes(reservedEvent: .eventless, nesting: nesting)
            || (waiting.hasRequests && waiting.firstRequest?.isCompletion == true)
    }

    /// Queues the completions the chart noted and that wait to be queued,
    /// behind the requests waiting now: the rule is that a completion waits
    /// in the one queue with the requests, in the order they arose (SPEC
    /// 3.2, "The internal queue"); a step's delivery queues each as the
    /// entry handlers of its final state have run, and this queues the rest.
    @inlinable
    func queueNotedCompletions(chart: Statechart) {
        while let completed = chart.nextCompletion() {
            waiting.append(request: .completion(completed))
        }
    }

    /// Offers the completion of `state`, which waited in the queue, to its
    /// done routes, and takes what follows (see
    /// ``settle(chart:nesting:handlers:reading:offering:)``): the queue's turn of a
    /// completion that requests made before it had kept waiting. Rare: not
    /// inlined into clients.
    @usableFromInline
    func takeQueuedCompletion(of state: SymbolCode) {
        let chart = uncheckedChart
        guard !chart.isFinished else { return }
        beginStepDelivery(on: DeliveryThread.current)
        _ = withHandlersHeldForSteps { handlers in
            settle(chart: chart, nesting: uncheckedNesting, handlers: &handlers, reading: { _ in }, offering: state)
        }
        endStep()
    }

    /// Whether some machine of the hierarchy may have routes under the
    /// reserved code `eventCode` (eventless or done): the root's table
    /// counts its own, the hierarchy notes its members'.
    @inlinable
    func hasRoutes(reservedEvent eventCode: SymbolCode, nesting: Nesting) -> Bool {
        routes.hasRoutes(reservedEvent: eventCode) || nesting.membersMayHaveRoutes(reservedEvent: eventCode)
    }

    /// Takes eventless routes until none is enabled, then offers the next
    /// completion to its done routes, and so on until nothing is left
    /// (SCXML's macrostep, as the statechart plans it: see
    /// ``Statechart/takeMacrostep(into:leavingListsInMemo:takeQueuedCompletion:chooseEventless:firstDoneMove:take:)``);
    /// finishes the machine if a step entered a top-level final state. Runs
    /// inside a step's delivery; `reading` is shown each step once it is
    /// planned, as the request's own step was.
    ///
    /// `handlers` is the machine's handler table, which the caller holds
    /// and each step brings up to date before it delivers (see
    /// ``deliverPlannedStep(_:plan:event:eventCode:userInfo:chart:nesting:handlers:)``).
    ///
    /// - Returns: `false` if it stopped at ``internalStepLimit`` steps, after
    ///   running the error handlers.
    @inlinable
    func settle(
        chart: Statechart, nesting: Nesting, handlers: inout HandlerTable<S, E>.Storage,
        reading: StepReader,
        offering first: SymbolCode? = nil
    ) -> Bool {
        var first = first
        let end = chart.takeMacrostep(
            into: &plan, leavingListsInMemo: true,
            takeQueuedCompletion: {
                // The completion the queue gave its turn, then those that
                // wait first in it: not one behind a request.
                if let state = first {
                    first = nil
                    return state
                }
                guard case .completion(let state) = waiting.takeFirstRequest(if: \.isCompletion) else { return nil }
                return state
            },
            chooseEventless: { plan in
                guard hasRoutes(reservedEvent: .eventless, nesting: nesting) else {
                    plan.reset()
                    return
                }
                // Held for each try, not while the step is delivered:
                // then a handler's change to the routes would copy them.
                _ = withHeldRoutes { routes in
                    chooseMoves(
                        event: nil, eventCode: .eventless, member: 0, routes: routes, userInfo: nil, chart: chart,
                        nesting: nesting, into: &plan)
                }
            },
            firstDoneMove: { state, plan in firstDoneMove(of: state, chart: chart, nesting: nesting, plan: &plan) },
            take: { plan in
                show(&plan, to: reading, chart: chart)
                deliverPlannedStep(
                    .state, plan: &plan, event: nil, eventCode: .wildcard, userInfo: nil, chart: chart,
                    nesting: nesting,
                    handlers: &handlers)
                return true
            })
        switch end {
        case .settled, .stopped:
            break
        case .cutAtLimit:
            waiting.dropRequests(where: \.isCompletion)
            deliverErrorHandlers(
                Context(event: nil, fromState: currentState, toState: currentState, userInfoBox: nil),
                refusal: .unsettled)
            return false
        case .finished:
            waiting.dropRequests(where: \.isCompletion)
            finish(chart: chart, nesting: nesting, handlers: &handlers, reading: reading)
        }
        return true
    }

    /// Takes the eventless routes that are enabled now, and what they lead
    /// to, as after a step (SCXML's macrostep), outside any request: what a
    /// timed route's timer does when it fires. A nested machine has its root
    /// do it. Does nothing while the machine takes or decides a step (a timer
    /// fires from a task, between requests) or once it has finished.
    @usableFromInline
    func takeEventlessSteps() {
        guard chart != nil else { return }
        if let link = nestingLink {
            link.takeEventlessSteps()
            return
        }
        prepareChart()
        let chart = uncheckedChart
        let thread = DeliveryThread.current
        guard !chart.isFinished, !mustQueueRequest(on: thread), decisionDepth == 0 else { return }
        beginStepDelivery(on: thread)
        _ = withHandlersHeldForSteps { handlers in
            settle(chart: chart, nesting: uncheckedNesting, handlers: &handlers, reading: { _ in })
        }
        endStep()
    }

    /// The move along the first done route of `state` whose condition
    /// holds: asked of each machine that names it, innermost first, the
    /// root last.
    @inlinable
    func firstDoneMove(of state: SymbolCode, chart: Statechart, nesting: Nesting, plan: inout StepPlan)
        -> StepPlan.Move?
    {
        // Most completions have no done route: asked in place, before the table is held.
        guard
            nesting.membersMayHaveRoutes(reservedEvent: .done)
                || (nesting.isNamedByRoot(state) && routes.storage.hasRoutes(reservedEvent: .done, from: state))
        else { return nil }
        var refusal: Refusal?
        decisionDepth += 1
        assert(noteDecidingThread())
        defer { decisionDepth -= 1 }
        // Held: conditions may change the machine.
        return withHeldRoutes { routes in
            firstMove(
                event: nil, eventCode: .done, on: state, routes: routes, current: currentState, userInfo: nil,
                chart: chart, nesting: nesting, plan: &plan, refusal: &refusal)
        }
    }

    /// Runs the exit handlers of every active state, innermost first, as
    /// the machine finishes; the configuration stays as it is, for reading:
    /// a microstep the chart plans (``Statechart/planFinish(into:)``) and
    /// the one runner delivers. `reading` is shown the exits as a plan that
    /// moves and enters nothing.
    /// Rare: not inlined into clients.
    @usableFromInline
    func finish(
        chart: Statechart, nesting: Nesting, handlers: inout HandlerTable<S, E>.Storage,
        reading: StepReader
    ) {
        chart.planFinish(into: &plan)
        show(&plan, to: reading, chart: chart)
        deliverPlannedStep(
            .state, plan: &plan, event: nil, eventCode: .wildcard, userInfo: nil, chart: chart, nesting: nesting,
            handlers: &handlers)
        plan.reset()
    }
}
