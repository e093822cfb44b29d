// Conditions and handlers written as SwiftState's README writes them, taking
// the context apart in their parameter list:
//
//     machine.addErrorHandler { event, fromState, toState, userInfo in … }
//
// SwiftState's context was a tuple, which such a closure destructures. Here
// it is a struct, so each method that takes a condition or a handler has a
// twin that takes the four values instead; it wraps the closure and calls the
// method it mirrors. Closures that take the context whole (`{ context in … }`,
// `{ _ in … }`, `{ print($0) }`) have one parameter, which only the original
// method accepts, so no call becomes ambiguous.

extension Machine {
    /// A condition that takes the context's four values as parameters.
    public typealias DestructuredCondition = (_ event: E?, _ fromState: S, _ toState: S, _ userInfo: Any?) -> Bool
    /// A handler that takes the context's four values as parameters.
    public typealias DestructuredHandler = (_ event: E?, _ fromState: S, _ toState: S, _ userInfo: Any?) -> Void

    /// `condition`, taking the context whole.
    static func whole(_ condition: @escaping DestructuredCondition) -> Condition {
        { context in condition(context.event, context.fromState, context.toState, context.userInfo) }
    }

    /// `handler`, taking the context whole.
    static func whole(_ handler: @escaping DestructuredHandler) -> Handler {
        { context in handler(context.event, context.fromState, context.toState, context.userInfo) }
    }
}

// MARK: - Events

extension Machine {
    /// Adds routes that `event` takes, under a condition that takes the
    /// context apart; see ``addRoutes(event:transitions:condition:)-(E,_,Condition?)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves; `.any` may stand on either side.
    ///   - condition: What must hold for each move.
    /// - Returns: What removes these routes.
    @discardableResult
    public func addRoutes(event: E, transitions: [Transition<S>], condition: @escaping DestructuredCondition)
        -> Disposable
    {
        addRoutes(event: event, transitions: transitions, condition: Self.whole(condition))
    }

    /// Adds routes that `event` (or every event) takes, under a condition that
    /// takes the context apart; see ``addRoutes(event:transitions:condition:)-(Event<E>,_,Condition?)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves; `.any` may stand on either side.
    ///   - condition: What must hold for each move.
    /// - Returns: What removes these routes.
    @discardableResult
    public func addRoutes(event: Event<E>, transitions: [Transition<S>], condition: @escaping DestructuredCondition)
        -> Disposable
    {
        addRoutes(event: event, transitions: transitions, condition: Self.whole(condition))
    }

    /// Adds routes that `event` takes and a handler that takes the context
    /// apart; see ``addRoutes(event:transitions:condition:handler:)-(E,_,Condition?,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: E, transitions: [Transition<S>], condition: Condition? = nil,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoutes(event: event, transitions: transitions, condition: condition, handler: Self.whole(handler))
    }

    /// Adds routes that `event` (or every event) takes and a handler that takes
    /// the context apart; see ``addRoutes(event:transitions:condition:handler:)-(Event<E>,_,Condition?,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: Event<E>, transitions: [Transition<S>], condition: Condition? = nil,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoutes(event: event, transitions: transitions, condition: condition, handler: Self.whole(handler))
    }

    /// Adds routes that `event` takes, under a condition that takes the
    /// context apart, and a handler.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: E, transitions: [Transition<S>], condition: @escaping DestructuredCondition,
        handler: @escaping Handler
    ) -> Disposable {
        addRoutes(event: event, transitions: transitions, condition: Self.whole(condition), handler: handler)
    }

    /// Adds routes that `event` (or every event) takes, under a condition that
    /// takes the context apart, and a handler.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: Event<E>, transitions: [Transition<S>], condition: @escaping DestructuredCondition,
        handler: @escaping Handler
    ) -> Disposable {
        addRoutes(event: event, transitions: transitions, condition: Self.whole(condition), handler: handler)
    }

    /// Adds routes that `event` takes, with a condition and a handler that
    /// both take the context apart.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: E, transitions: [Transition<S>], condition: @escaping DestructuredCondition,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoutes(
            event: event, transitions: transitions, condition: Self.whole(condition), handler: Self.whole(handler))
    }

    /// Adds routes that `event` (or every event) takes, with a condition and a
    /// handler that both take the context apart.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - transitions: The moves.
    ///   - condition: What must hold for each move.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(
        event: Event<E>, transitions: [Transition<S>], condition: @escaping DestructuredCondition,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoutes(
            event: event, transitions: transitions, condition: Self.whole(condition), handler: Self.whole(handler))
    }

    /// Adds routes that `event` takes and a handler that takes the context
    /// apart; see ``addRoutes(event:routes:handler:)-(E,_,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes.
    ///   - routes: The routes.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(event: E, routes: [Route<S, E>], handler: @escaping DestructuredHandler) -> Disposable {
        addRoutes(event: event, routes: routes, handler: Self.whole(handler))
    }

    /// Adds routes that `event` (or every event) takes and a handler that takes
    /// the context apart; see ``addRoutes(event:routes:handler:)-(Event<E>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event that takes these routes, or `.any`.
    ///   - routes: The routes.
    ///   - handler: Runs after each transition caused by `event`.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRoutes(event: Event<E>, routes: [Route<S, E>], handler: @escaping DestructuredHandler)
        -> Disposable
    {
        addRoutes(event: event, routes: routes, handler: Self.whole(handler))
    }

    /// Adds a route mapping and a handler that takes the context apart; see
    /// ``addRouteMapping(_:order:handler:)-(_,_,Handler)``.
    ///
    /// - Parameters:
    ///   - routeMapping: Returns the state to go to, or `nil` for no route.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs when the mapping names the state the machine moved to.
    /// - Returns: What removes the mapping and the handler.
    @discardableResult
    public func addRouteMapping(
        _ routeMapping: @escaping RouteMapping, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRouteMapping(routeMapping, order: order, handler: Self.whole(handler))
    }

    /// Adds a handler, taking the context apart, for transitions `event`
    /// causes; see ``addHandler(event:order:handler:)-(E,_,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event to observe.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(event: E, order: HandlerOrder = 100, handler: @escaping DestructuredHandler) -> Disposable {
        addHandler(event: event, order: order, handler: Self.whole(handler))
    }

    /// Adds a handler, taking the context apart, for transitions `event` (or
    /// any event) causes; see ``addHandler(event:order:handler:)-(Event<E>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - event: The event to observe, or `.any`.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(event: Event<E>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler)
        -> Disposable
    {
        addHandler(event: event, order: order, handler: Self.whole(handler))
    }

    /// Adds an error handler that takes the context apart, as in SwiftState's
    /// README; see ``addErrorHandler(order:handler:)-(_,Handler)``.
    ///
    /// ```swift
    /// machine.addErrorHandler { event, fromState, toState, userInfo in
    ///     print("[ERROR] \(fromState) => \(toState)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - order: When the handler runs among the other error handlers; lower first.
    ///   - handler: Runs after the refusal; the state has not changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addErrorHandler(order: HandlerOrder = 100, handler: @escaping DestructuredHandler) -> Disposable {
        addErrorHandler(order: order, handler: Self.whole(handler))
    }
}

// MARK: - States

extension Machine {
    /// Adds a route under a condition that takes the context apart; see
    /// ``addRoute(_:condition:)-(Transition<S>,_)``.
    ///
    /// - Parameters:
    ///   - transition: The move; `.any` may stand on either side.
    ///   - condition: What must hold for the move.
    /// - Returns: What removes the route.
    @discardableResult
    public func addRoute(_ transition: Transition<S>, condition: @escaping DestructuredCondition) -> Disposable {
        addRoute(transition, condition: Self.whole(condition))
    }

    /// Adds a route and a handler that takes the context apart; see
    /// ``addRoute(_:condition:handler:)-(Transition<S>,_,_)``.
    ///
    /// - Parameters:
    ///   - transition: The move.
    ///   - condition: What must hold for the move.
    ///   - handler: Runs after each such transition.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(
        _ transition: Transition<S>, condition: Condition? = nil, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoute(transition, condition: condition, handler: Self.whole(handler))
    }

    /// Adds a route under a condition that takes the context apart, and a handler.
    ///
    /// - Parameters:
    ///   - transition: The move.
    ///   - condition: What must hold for the move.
    ///   - handler: Runs after each such transition.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(
        _ transition: Transition<S>, condition: @escaping DestructuredCondition, handler: @escaping Handler
    ) -> Disposable {
        addRoute(transition, condition: Self.whole(condition), handler: handler)
    }

    /// Adds a route with a condition and a handler that both take the context apart.
    ///
    /// - Parameters:
    ///   - transition: The move.
    ///   - condition: What must hold for the move.
    ///   - handler: Runs after each such transition.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(
        _ transition: Transition<S>, condition: @escaping DestructuredCondition,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRoute(transition, condition: Self.whole(condition), handler: Self.whole(handler))
    }

    /// Adds a route and a handler that takes the context apart; see
    /// ``addRoute(_:handler:)-(Route<S,E>,_)``.
    ///
    /// - Parameters:
    ///   - route: The route.
    ///   - handler: Runs after each state-driven transition the route covers and allows.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(_ route: Route<S, E>, handler: @escaping DestructuredHandler) -> Disposable {
        addRoute(route, handler: Self.whole(handler))
    }

    /// Adds a state route mapping and a handler that takes the context apart;
    /// see ``addStateRouteMapping(_:order:handler:)-(_,_,Handler)``.
    ///
    /// - Parameters:
    ///   - routeMapping: Returns the allowed targets, or `nil` for none.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs when the mapping allows the move just made.
    /// - Returns: What removes the mapping and the handler.
    @discardableResult
    public func addStateRouteMapping(
        _ routeMapping: @escaping StateRouteMapping, order: HandlerOrder = 100,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addStateRouteMapping(routeMapping, order: order, handler: Self.whole(handler))
    }

    /// Adds a handler, taking the context apart, for state-driven transitions
    /// that `transition` covers; see ``addHandler(_:order:handler:)-(_,_,Handler)``.
    ///
    /// - Parameters:
    ///   - transition: The moves to observe; `.any` may stand on either side.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(
        _ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addHandler(transition, order: order, handler: Self.whole(handler))
    }

    /// Adds a handler, taking the context apart, for every transition that
    /// `transition` covers; see ``addAnyHandler(_:order:handler:)-(_,_,Handler)``.
    ///
    /// - Parameters:
    ///   - transition: The moves to observe; `.any` may stand on either side.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addAnyHandler(
        _ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addAnyHandler(transition, order: order, handler: Self.whole(handler))
    }
}

// MARK: - Chains

extension Machine {
    /// Adds a chain's routes and a chain handler that takes the context apart;
    /// see ``addRouteChain(_:condition:handler:)-(_,Condition?,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - condition: What must hold for every step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(
        _ chain: TransitionChain<S>, condition: Condition? = nil, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRouteChain(chain, condition: condition, handler: Self.whole(handler))
    }

    /// Adds a chain's routes under a condition that takes the context apart,
    /// and a chain handler.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - condition: What must hold for every step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(
        _ chain: TransitionChain<S>, condition: @escaping DestructuredCondition, handler: @escaping Handler
    ) -> Disposable {
        addRouteChain(chain, condition: Self.whole(condition), handler: handler)
    }

    /// Adds a chain's routes and a chain handler, condition and handler both
    /// taking the context apart.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - condition: What must hold for every step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(
        _ chain: TransitionChain<S>, condition: @escaping DestructuredCondition,
        handler: @escaping DestructuredHandler
    ) -> Disposable {
        addRouteChain(chain, condition: Self.whole(condition), handler: Self.whole(handler))
    }

    /// Adds a route chain's routes and a chain handler that takes the context
    /// apart; see ``addRouteChain(_:handler:)-(_,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(_ chain: RouteChain<S, E>, handler: @escaping DestructuredHandler) -> Disposable {
        addRouteChain(chain, handler: Self.whole(handler))
    }

    /// Adds a chain handler that takes the context apart; see
    /// ``addChainHandler(_:order:handler:)-(TransitionChain<S>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the last step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainHandler(
        _ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addChainHandler(chain, order: order, handler: Self.whole(handler))
    }

    /// Adds a chain handler that takes the context apart; see
    /// ``addChainHandler(_:order:handler:)-(RouteChain<S,E>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the last step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainHandler(
        _ chain: RouteChain<S, E>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addChainHandler(chain, order: order, handler: Self.whole(handler))
    }

    /// Adds a chain error handler that takes the context apart; see
    /// ``addChainErrorHandler(_:order:handler:)-(TransitionChain<S>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the breaking move.
    ///   - handler: Runs after the transition that broke the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainErrorHandler(
        _ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addChainErrorHandler(chain, order: order, handler: Self.whole(handler))
    }

    /// Adds a chain error handler that takes the context apart; see
    /// ``addChainErrorHandler(_:order:handler:)-(RouteChain<S,E>,_,Handler)``.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the breaking move.
    ///   - handler: Runs after the transition that broke the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainErrorHandler(
        _ chain: RouteChain<S, E>, order: HandlerOrder = 100, handler: @escaping DestructuredHandler
    ) -> Disposable {
        addChainErrorHandler(chain, order: order, handler: Self.whole(handler))
    }
}
