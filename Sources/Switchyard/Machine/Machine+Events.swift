// The event-driven half of the machine: routes by event, route mappings,
// event handlers and error handlers.

extension Machine {
    // MARK: Asking

    /// Whether `event` could take the machine from one state to another.
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - transition: The move, with concrete states on both sides. A `.any`
    ///     side is a programmer error: it stops debug builds and returns `false`.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: Whether a route or mapping allows the move.
    /// - Complexity: O(1) in the number of routes of other events and states.
    public func hasRoute(event: E, transition: Transition<S>, userInfo: Any? = nil) -> Bool {
        guard let fromState = transition.fromState.rawValue, let toState = transition.toState.rawValue else {
            assertionFailure("hasRoute(event:transition:) needs concrete states; got \(transition)")
            return false
        }
        return hasRoute(event: event, fromState: fromState, toState: toState, userInfo: userInfo)
    }

    /// Whether `event` could take the machine from `fromState` to `toState`.
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - fromState: The state to start in.
    ///   - toState: The state to end in.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: Whether a route or mapping allows the move.
    public func hasRoute(event: E, fromState: S, toState: S, userInfo: Any? = nil) -> Bool {
        let userInfo = UserInfoBox.boxing(userInfo)
        return answer(.event(event, from: fromState, to: toState), unanswerable: false) {
            if chart != nil {
                return chartHasRoute(event: event, from: fromState, to: toState, userInfo: userInfo)
            }
            // The choice itself, asked about one target: conditions are
            // asked as `tryEvent` would ask them.
            let routes = self.routes
            let decision = routes.decide(
                event: event, code: routes.code(of: event), from: fromState, code: routes.code(of: fromState),
                reaching: toState, userInfo: userInfo)
            if case .move = decision {
                return true
            }
            return false
        }
    }

    /// The state `event` would take the machine to now, without moving it.
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: The target state, or `nil` if the event would be refused.
    public func canTryEvent(_ event: E, userInfo: Any? = nil) -> S? {
        let userInfo = UserInfoBox.boxing(userInfo)
        return answer(.event(event, from: state, to: nil), unanswerable: nil) {
            if chart != nil {
                return stateAfterStep(for: event, userInfo: userInfo)
            }
            let routes = self.routes
            let decision = routes.decide(
                event: event, code: routes.code(of: event), from: state, code: currentStateCode(in: routes),
                userInfo: userInfo)
            guard case .move(let target, _, _) = decision else {
                return nil
            }
            return target
        }
    }

    // MARK: Firing

    /// Fires `event`: moves along the first route that allows it, then runs the
    /// handlers; or, if none does, runs the error handlers.
    ///
    /// Routes are chosen deterministically: this event before `.any`; within
    /// that, this state before `.any`; then registration order; route mappings
    /// last. A route to `.any` keeps the machine where it is (and its handlers run).
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: Whether the machine moved.
    /// - Complexity: O(1) in the number of routes: one hash of the event (the
    ///   current state is not hashed), then at most four integer look-ups.
    @inlinable
    @discardableResult
    public func tryEvent(_ event: E, userInfo: consuming Any? = nil) -> Bool {
        if case .move = perform(event: event, userInfo: UserInfoBox.boxing(userInfo)) {
            return true
        }
        return false
    }

    // MARK: Routes

    /// Adds routes that `event` takes.
    ///
    /// ```swift
    /// machine.addRoutes(event: .next, transitions: [.a => .b, .b => .c])
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves; `.any` may stand on either side.
    ///   - condition: What must hold for each move; `nil` always allows it.
    /// - Returns: What removes these routes.
    @discardableResult
    public func addRoutes(event: E, transitions: [Transition<S>], condition: Condition? = nil) -> Disposable {
        addRoutes(event: .some(event), transitions: transitions, condition: condition)
    }

    /// Adds routes that `event` (or, for `.any`, every event) takes.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves; `.any` may stand on either side.
    ///   - condition: What must hold for each move; `nil` always allows it.
    /// - Returns: What removes these routes.
    @discardableResult
    public func addRoutes(event: Event<E>, transitions: [Transition<S>], condition: Condition? = nil) -> Disposable {
        for transition in transitions where !transition.otherTargets.isEmpty {
            requireLegalTargets(of: transition)
        }
        // Routes added together share one guard, unless some move otherwise.
        let shared = RouteGuard<S, E>.of(Transition(fromState: .any, toState: .any), condition: condition)
        return addEventRoutes(event: event, count: transitions.count) { offset in
            let transition = transitions[offset]
            return (transition, transition.movesByDefault ? shared : .of(transition, condition: condition))
        }
    }

    /// Adds routes, each with its own condition, that `event` takes.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - routes: The routes, such as `[.a, .b] => .c`.
    /// - Returns: What removes these routes.
    @discardableResult
    public func addRoutes(event: E, routes: [Route<S, E>]) -> Disposable {
        addRoutes(event: .some(event), routes: routes)
    }

    /// Adds routes, each with its own condition, that `event` (or every event) takes.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - routes: The routes, such as `[.a, .b] => .c`.
    /// - Returns: What removes these routes.
    /// - Complexity: O(*n*) in the number of routes added.
    @discardableResult
    public func addRoutes(event: Event<E>, routes: [Route<S, E>]) -> Disposable {
        for route in routes where !route.transition.otherTargets.isEmpty {
            requireLegalTargets(of: route.transition)
        }
        return addEventRoutes(event: event, count: routes.count) { (routes[$0].transition, .of(routes[$0])) }
    }

    /// Adds a route that `event` (or every event) takes, with an action
    /// that runs whenever this route is taken.
    ///
    /// ```swift
    /// machine.addRoute(event: .pay, .cart => .paid) { context in receipts.append(context.userInfo) }
    /// ```
    ///
    /// The action belongs to the route, as SCXML's executable content
    /// belongs to its transition: it runs in the step that takes the route,
    /// after the exit handlers and before the state changes (and so before
    /// the transition's handlers and the entry handlers). When one step
    /// takes several routes (in regions), their actions run in the order the
    /// routes were added. A request the action makes waits until the step
    /// ends.
    ///
    /// - Parameters:
    ///   - event: The event that takes the route.
    ///   - transition: The move.
    ///   - condition: What must hold for the move; `nil` always allows it.
    ///   - action: Runs when the route is taken; its context is the step's.
    /// - Returns: What removes the route and its action.
    @inlinable
    @discardableResult
    public func addRoute(
        event: E, _ transition: Transition<S>, condition: Condition? = nil, action: @escaping Handler
    ) -> Disposable {
        addRoute(event: .some(event), transition, condition: condition, action: action)
    }

    /// Adds a route that `event` (or, for `.any`, every event) takes, with an
    /// action that runs whenever this route is taken, as the variant for one
    /// event does.
    ///
    /// - Parameters:
    ///   - event: The event that takes the route, or `.any`.
    ///   - transition: The move.
    ///   - condition: What must hold for the move; `nil` always allows it.
    ///   - action: Runs when the route is taken; its context is the step's.
    /// - Returns: What removes the route and its action.
    @inlinable
    @discardableResult
    public func addRoute(
        event: Event<E>, _ transition: Transition<S>, condition: Condition? = nil, action: @escaping Handler
    ) -> Disposable {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        return addActionRoute(event: event, transition, condition: condition, action: action)
    }

    /// ``addRoute(event:_:condition:action:)``, once the steps are specialised.
    @usableFromInline
    func addActionRoute(event: Event<E>, _ transition: Transition<S>, condition: Condition?, action: @escaping Handler)
        -> Disposable
    {
        if !transition.otherTargets.isEmpty {
            requireLegalTargets(of: transition)
        }
        let registered = registerAction(action)
        return combine([
            addEventRoutes(event: event, count: 1) { _ in
                (transition, .of(transition, condition: condition, action: (registered.node, registered.id)))
            },
            registered.disposable,
        ])
    }

    /// Registers a route's action; the route refers to it by its node.
    func registerAction(_ action: @escaping Handler) -> (node: Int32, id: RegistrationID, disposable: Disposable) {
        // Routes with actions make steps a statechart's, which delivers actions.
        ensureChart()
        let id = makeID()
        let node = handlers.add(HandlerEntry(order: 0, slot: .action, id: id), body: action)
        return (node, id, Registration.disposable(owner: registrationOwner, id: id, node: node, kind: .handler))
    }

    /// Adds `count` routes that `event` takes, the one at each offset given by
    /// `route`; one route, the common case, allocates nothing.
    func addEventRoutes(
        event: Event<E>, count: Int,
        route: (Int) -> (transition: Transition<S>, guarded: RouteGuard<S, E>?)
    ) -> Disposable {
        let firstID = makeIDs(count: count)
        if count == 1 {
            let (transition, guarded) = route(0)
            let node = routes.addEventRoute(event: event.rawValue, transition, guarded: guarded, id: firstID)
            return registration(firstID, at: node, in: .eventRoute)
        }
        let nodes = routes.addEventRoutes(event: event.rawValue, count: count, firstID: firstID, route: route)
        return BatchRegistration(
            parts: nodes.indices.map { offset in
                registration(
                    RegistrationID(rawValue: firstID.rawValue + UInt64(offset)), at: nodes[offset], in: .eventRoute)
            })
    }

    /// Adds routes that `event` takes, and a handler for that event.
    ///
    /// The handler belongs to the event: it runs after every transition the
    /// event causes, whichever route was taken.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: E, transitions: [Transition<S>], condition: Condition? = nil, handler: @escaping Handler
    ) -> Disposable {
        addRoutes(event: .some(event), transitions: transitions, condition: condition, handler: handler)
    }

    /// Adds routes that `event` (or every event) takes, and a handler for that event.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: Event<E>, transitions: [Transition<S>], condition: Condition? = nil, handler: @escaping Handler
    ) -> Disposable {
        addRoutes(
            event: event, routes: transitions.map { Route(transition: $0, condition: condition) }, handler: handler)
    }

    /// Adds routes that `event` takes, and a handler for that event.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - routes: The routes.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(event: E, routes: [Route<S, E>], handler: @escaping Handler) -> Disposable {
        addRoutes(event: .some(event), routes: routes, handler: handler)
    }

    /// Adds routes that `event` (or every event) takes, and a handler for that event.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - routes: The routes.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(event: Event<E>, routes: [Route<S, E>], handler: @escaping Handler) -> Disposable {
        combine([addRoutes(event: event, routes: routes), addHandler(event: event, handler: handler)])
    }

    // MARK: Route mappings

    /// Adds routes written as a closure, for states and events with associated values.
    ///
    /// ```swift
    /// machine.addRouteMapping { event, fromState, userInfo in
    ///     guard case .str(let word)? = event else { return nil }
    ///     return word == "go" ? .str("gone") : nil
    /// }
    /// ```
    ///
    /// Mappings are asked after every arrow route, in the order they were added.
    /// `tryState` asks them with a `nil` event and takes the move if the mapping
    /// names the requested state. A mapping that returns the current state makes
    /// a successful transition that stays in place.
    ///
    /// - Parameter routeMapping: Returns the state to go to, or `nil` for no route.
    /// - Returns: What removes the mapping.
    @discardableResult
    public func addRouteMapping(_ routeMapping: @escaping RouteMapping) -> Disposable {
        let id = makeID()
        return registration(id, at: routes.addRouteMapping(id, routeMapping), in: .routeMapping)
    }

    /// Adds a route mapping that answers as the engine asks it: a
    /// definition's, which names the clause that took the request, and
    /// refuses when the clauses that cover it refuse.
    @usableFromInline
    func addAnsweringRouteMapping(_ mapping: @escaping RouteTable<S, E>.MappingBody) -> Disposable {
        let id = makeID()
        return registration(id, at: routes.addRouteMapping(id, answering: mapping), in: .routeMapping)
    }

    /// Adds a route mapping and a handler that runs after each event-driven
    /// transition the mapping names.
    ///
    /// As in SwiftState, the handler hears only transitions caused by events:
    /// a `tryState` that the mapping allows does not run it. It runs whenever
    /// the mapping names the new state, whichever route made the move.
    ///
    /// - Parameters:
    ///   - routeMapping: Returns the state to go to, or `nil` for no route.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs when the mapping names the state the machine moved to.
    /// - Returns: What removes the mapping and the handler.
    @discardableResult
    public func addRouteMapping(
        _ routeMapping: @escaping RouteMapping, order: HandlerOrder = 100, handler: @escaping Handler
    ) -> Disposable {
        let handlerDisposable = register(.event(.wildcard), order: order) { context in
            if routeMapping(context.event, context.fromState, context.userInfo) == context.toState {
                handler(context)
            }
        }
        return combine([addRouteMapping(routeMapping), handlerDisposable])
    }

    // MARK: Handlers

    /// Adds a handler that runs after every transition `event` causes.
    ///
    /// - Parameters:
    ///   - event: The event to observe.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(event: E, order: HandlerOrder = 100, handler: @escaping Handler) -> Disposable {
        addHandler(event: .some(event), order: order, handler: handler)
    }

    /// Adds a handler that runs after every transition `event` (or, for `.any`,
    /// any event) causes. It does not run for `tryState`.
    ///
    /// - Parameters:
    ///   - event: The event to observe, or `.any`.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(event: Event<E>, order: HandlerOrder = 100, handler: @escaping Handler) -> Disposable {
        register(slot(event: event), order: order, handler: handler)
    }

    /// Adds a handler that runs whenever a request is refused, by event or by state.
    ///
    /// For a refused event, the context's `toState` is the current state; for
    /// a refused state request, it is the requested state.
    ///
    /// - Parameters:
    ///   - order: When the handler runs among the other error handlers; lower first.
    ///   - handler: Runs after the refusal; the state has not changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addErrorHandler(order: HandlerOrder = 100, handler: @escaping Handler) -> Disposable {
        register(.error, order: order, handler: handler)
    }
}
