// The state-driven half of the machine: routes without events, state route
// mappings and transition handlers.

extension Machine {
    // MARK: Asking

    /// Whether the machine could move along `transition` by asking for the state.
    ///
    /// Looks at event-less routes, routes of every event, and both kinds of
    /// route mapping.
    ///
    /// - Parameters:
    ///   - transition: The move, with concrete states on both sides. A `.any`
    ///     side is a programmer error: it stops debug builds and returns `false`.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: Whether a route or mapping allows the move.
    public func hasRoute(_ transition: Transition<S>, userInfo: Any? = nil) -> Bool {
        guard let fromState = transition.fromState.rawValue, let toState = transition.toState.rawValue else {
            assertionFailure("hasRoute(_:) needs concrete states; got \(transition)")
            return false
        }
        return hasRoute(fromState: fromState, toState: toState, userInfo: userInfo)
    }

    /// Whether the machine could move from `fromState` to `toState` by asking for the state.
    ///
    /// - Parameters:
    ///   - fromState: The state to start in.
    ///   - toState: The state to end in.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: Whether a route or mapping allows the move.
    /// - Complexity: O(1) in the number of routes: one hash of each state, then
    ///   at most eight integer look-ups.
    public func hasRoute(fromState: S, toState: S, userInfo: Any? = nil) -> Bool {
        let userInfo = UserInfoBox.boxing(userInfo)
        return answer(.state(from: fromState, to: toState), unanswerable: false) {
            if chart != nil {
                return chartHasRoute(event: nil, from: fromState, to: toState, userInfo: userInfo)
            }
            let routes = routesForStateRequests()
            let decision = routes.decide(
                from: fromState, code: routes.code(of: fromState), to: toState, code: routes.code(of: toState),
                userInfo: userInfo)
            if case .move = decision {
                return true
            }
            return false
        }
    }

    /// Whether ``tryState(_:userInfo:)`` would move the machine to `toState` now.
    ///
    /// - Parameters:
    ///   - toState: The state to ask for.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: Whether a route or mapping allows the move.
    public func canTryState(_ toState: S, userInfo: Any? = nil) -> Bool {
        guard chart != nil else {
            return hasRoute(fromState: state, toState: toState, userInfo: userInfo)
        }
        return answer(.state(from: state, to: toState), unanswerable: false) {
            canTakeStep(toward: toState, userInfo: UserInfoBox.boxing(userInfo))
        }
    }

    // MARK: Moving

    /// Asks the machine to go to `toState`: moves if a route allows it, then runs
    /// the handlers; otherwise runs the error handlers.
    ///
    /// Routes of events count too, as do route mappings (asked with a `nil` event).
    ///
    /// - Parameters:
    ///   - toState: The state to go to.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: Whether the machine moved.
    /// - Complexity: O(1) in the number of routes.
    @inlinable
    @discardableResult
    public func tryState(_ toState: S, userInfo: consuming Any? = nil) -> Bool {
        if case .move = perform(state: toState, userInfo: UserInfoBox.boxing(userInfo)) {
            return true
        }
        return false
    }

    // MARK: Routes

    /// Adds a route that ``tryState(_:userInfo:)`` may take.
    ///
    /// ```swift
    /// machine.addRoute(.open => .closed)
    /// machine.addRoute(.any => .broken, condition: { $0.userInfo != nil })
    /// ```
    ///
    /// - Parameters:
    ///   - transition: The move; `.any` may stand on either side.
    ///   - condition: What must hold for the move; `nil` always allows it.
    /// - Returns: What removes the route.
    @discardableResult
    public func addRoute(_ transition: Transition<S>, condition: Condition? = nil) -> Disposable {
        addRoute(Route(transition: transition, condition: condition))
    }

    /// Adds a route that ``tryState(_:userInfo:)`` may take.
    ///
    /// - Parameter route: The route, such as `[.a, .b] => .c`.
    /// - Returns: What removes the route.
    @discardableResult
    public func addRoute(_ route: Route<S, E>) -> Disposable {
        require(
            route.transition.otherTargets.isEmpty,
            "the state route \(route.transition) has several targets; a state request names one (several targets are for event, eventless and done routes)"
        )
        let id = makeID()
        return registration(id, at: routes.addStateRoute(id, route), in: .stateRoute)
    }

    /// Adds a route and a handler for it.
    ///
    /// The handler belongs to the transition: it runs after every state-driven
    /// transition that `transition` covers and `condition` allows, whichever
    /// route was taken.
    ///
    /// - Parameters:
    ///   - transition: The move.
    ///   - condition: What must hold for the move.
    ///   - handler: Runs after each such transition.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(_ transition: Transition<S>, condition: Condition? = nil, handler: @escaping Handler)
        -> Disposable
    {
        addRoute(Route(transition: transition, condition: condition), handler: handler)
    }

    /// Adds a route and a handler for it.
    ///
    /// - Parameters:
    ///   - route: The route.
    ///   - handler: Runs after each state-driven transition the route covers and allows.
    /// - Returns: What removes the route and the handler.
    @discardableResult
    public func addRoute(_ route: Route<S, E>, handler: @escaping Handler) -> Disposable {
        let condition = route.condition
        let handlerDisposable = addHandler(route.transition) { context in
            if condition?(context) ?? true {
                handler(context)
            }
        }
        return combine([addRoute(route), handlerDisposable])
    }

    // MARK: State route mappings

    /// Adds state routes written as a closure: from a state, the states
    /// ``tryState(_:userInfo:)`` may go to.
    ///
    /// - Parameter routeMapping: Returns the allowed targets, or `nil` for none.
    /// - Returns: What removes the mapping.
    @discardableResult
    public func addStateRouteMapping(_ routeMapping: @escaping StateRouteMapping) -> Disposable {
        let id = makeID()
        return registration(id, at: routes.addStateRouteMapping(id, routeMapping), in: .stateRouteMapping)
    }

    /// Adds a state route mapping and a handler that runs after each
    /// state-driven transition the mapping allows.
    ///
    /// - Parameters:
    ///   - routeMapping: Returns the allowed targets, or `nil` for none.
    ///   - order: When the handler runs among the others; lower first. SwiftState
    ///     had no such parameter; its default keeps that code compiling.
    ///   - handler: Runs when the mapping allows the move just made.
    /// - Returns: What removes the mapping and the handler.
    @discardableResult
    public func addStateRouteMapping(
        _ routeMapping: @escaping StateRouteMapping, order: HandlerOrder = 100, handler: @escaping Handler
    ) -> Disposable {
        let handlerDisposable = addHandler(.any => .any, order: order) { context in
            if routeMapping(context.fromState, context.userInfo)?.contains(context.toState) == true {
                handler(context)
            }
        }
        return combine([addStateRouteMapping(routeMapping), handlerDisposable])
    }

    // MARK: Handlers

    /// Adds a handler for state-driven transitions that `transition` covers.
    ///
    /// It does not run for transitions caused by events; use
    /// ``addAnyHandler(_:order:handler:)-(_,_,Handler)`` for both.
    ///
    /// - Parameters:
    ///   - transition: The moves to observe; `.any` may stand on either side.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addHandler(_ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        let (from, to) = codes(of: transition)
        return register(.state(from: from, to: to), order: order, handler: handler)
    }

    /// Adds a handler for every transition that `transition` covers, whether
    /// caused by an event or by asking for the state.
    ///
    /// - Parameters:
    ///   - transition: The moves to observe; `.any` may stand on either side.
    ///   - order: When the handler runs among the others; lower first.
    ///   - handler: Runs after the state has changed.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addAnyHandler(_ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        let (from, to) = codes(of: transition)
        return register(.any(from: from, to: to), order: order, handler: handler)
    }
}
