// The declarations of a sendable machine: each is its ``Machine``
// counterpart, made under the lock, taking `@Sendable` closures and
// returning a disposable any thread may use.

extension SendableMachine {
    /// Runs `declare` on the machine under its lock, and wraps what removes
    /// the registration so that it takes the lock too.
    func declare(_ declare: (Machine<S, E>) -> any Disposable) -> SendableDisposable {
        guarded.withLock { machine in
            SendableDisposable(Guarded(declare(machine), lock: guarded.lock))
        }
    }

    /// Stops on a route whose condition is a closure that is not
    /// `@Sendable`: it would run on whichever thread makes a request.
    func requireSendable(_ route: Route<S, E>) {
        require(
            route.condition == nil || route.listedSources != nil || route.listedTargets != nil,
            "the route \(route.transition) has a condition that is not @Sendable, which a SendableMachine would call from any thread; pass the transition and its condition separately (addRoute(_:condition:))"
        )
    }
}

// MARK: - Routes

extension SendableMachine {
    /// Adds event routes; see ``Machine/addRoutes(event:transitions:condition:)-(E,_,Condition?)``.
    @discardableResult
    public func addRoutes(event: E, transitions: [Transition<S>], condition: Condition? = nil) -> SendableDisposable {
        declare { $0.addRoutes(event: event, transitions: transitions, condition: condition) }
    }

    /// Adds routes for an event or `.any`; see ``Machine/addRoutes(event:transitions:condition:)-(Event<E>,_,Condition?)``.
    @discardableResult
    public func addRoutes(event: Event<E>, transitions: [Transition<S>], condition: Condition? = nil)
        -> SendableDisposable
    {
        declare { $0.addRoutes(event: event, transitions: transitions, condition: condition) }
    }

    /// Adds event routes and a handler of the event; see
    /// ``Machine/addRoutes(event:transitions:condition:handler:)-(E,_,Condition?,Handler)``.
    @discardableResult
    public func addRoutes(
        event: E, transitions: [Transition<S>], condition: Condition? = nil, handler: @escaping Handler
    ) -> SendableDisposable {
        declare { $0.addRoutes(event: event, transitions: transitions, condition: condition, handler: handler) }
    }

    /// Adds routes that list their states (`[.a, .b] => .c`) for an event;
    /// see ``Machine/addRoutes(event:routes:)-(E,_)``.
    ///
    /// - Precondition: Each route's condition is `nil` or one the list
    ///   operators made: a condition of your own goes in
    ///   ``addRoutes(event:transitions:condition:)-(E,_,_)``, where it must be `@Sendable`.
    @discardableResult
    public func addRoutes(event: E, routes: [Route<S, E>]) -> SendableDisposable {
        routes.forEach(requireSendable)
        return declare { $0.addRoutes(event: event, routes: routes) }
    }

    /// Adds a route a state request takes; see ``Machine/addRoute(_:condition:)-(_,Condition?)``.
    @discardableResult
    public func addRoute(_ transition: Transition<S>, condition: Condition? = nil) -> SendableDisposable {
        declare { $0.addRoute(transition, condition: condition) }
    }

    /// Adds a route a state request takes, and a handler of it; see
    /// ``Machine/addRoute(_:condition:handler:)-(_,Condition?,Handler)``.
    @discardableResult
    public func addRoute(_ transition: Transition<S>, condition: Condition? = nil, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addRoute(transition, condition: condition, handler: handler) }
    }

    /// Adds a route that lists its states (`[.a, .b] => .c`); see ``Machine/addRoute(_:)``.
    ///
    /// - Precondition: The route's condition is `nil` or one the list operators made.
    @discardableResult
    public func addRoute(_ route: Route<S, E>) -> SendableDisposable {
        requireSendable(route)
        return declare { $0.addRoute(route) }
    }

    /// Adds an event route with an action of its own; see
    /// ``Machine/addRoute(event:_:condition:action:)-(E,_,_,_)``.
    @discardableResult
    public func addRoute(event: E, _ transition: Transition<S>, condition: Condition? = nil, action: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addRoute(event: event, transition, condition: condition, action: action) }
    }

    /// Adds a route mapping; see ``Machine/addRouteMapping(_:)``.
    @discardableResult
    public func addRouteMapping(_ routeMapping: @escaping RouteMapping) -> SendableDisposable {
        declare { $0.addRouteMapping(routeMapping) }
    }

    /// Adds a route mapping and a handler of what it allows; see
    /// ``Machine/addRouteMapping(_:order:handler:)-(_,_,Handler)``.
    @discardableResult
    public func addRouteMapping(
        _ routeMapping: @escaping RouteMapping, order: HandlerOrder = 100, handler: @escaping Handler
    ) -> SendableDisposable {
        declare { $0.addRouteMapping(routeMapping, order: order, handler: handler) }
    }

    /// Adds a state route mapping; see ``Machine/addStateRouteMapping(_:)``.
    @discardableResult
    public func addStateRouteMapping(_ routeMapping: @escaping StateRouteMapping) -> SendableDisposable {
        declare { $0.addStateRouteMapping(routeMapping) }
    }

    /// Adds a route chain (`.a => .b => .c`) and a handler of its completion;
    /// see ``Machine/addRouteChain(_:condition:handler:)-(_,Condition?,Handler)``.
    @discardableResult
    public func addRouteChain(_ chain: TransitionChain<S>, condition: Condition? = nil, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addRouteChain(chain, condition: condition, handler: handler) }
    }
}

// MARK: - Handlers

extension SendableMachine {
    /// Adds a handler of an event's transitions; see ``Machine/addHandler(event:order:handler:)-(E,_,Handler)``.
    @discardableResult
    public func addHandler(event: E, order: HandlerOrder = 100, handler: @escaping Handler) -> SendableDisposable {
        declare { $0.addHandler(event: event, order: order, handler: handler) }
    }

    /// Adds a handler of an event's (or any event's) transitions; see
    /// ``Machine/addHandler(event:order:handler:)-(Event<E>,_,Handler)``.
    @discardableResult
    public func addHandler(event: Event<E>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addHandler(event: event, order: order, handler: handler) }
    }

    /// Adds a handler of state-driven transitions; see ``Machine/addHandler(_:order:handler:)-(_,_,Handler)``.
    @discardableResult
    public func addHandler(_ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addHandler(transition, order: order, handler: handler) }
    }

    /// Adds a handler of transitions of both kinds; see ``Machine/addAnyHandler(_:order:handler:)-(_,_,Handler)``.
    @discardableResult
    public func addAnyHandler(_ transition: Transition<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addAnyHandler(transition, order: order, handler: handler) }
    }

    /// Adds a handler of refused requests; see ``Machine/addErrorHandler(order:handler:)-(_,Handler)``.
    @discardableResult
    public func addErrorHandler(order: HandlerOrder = 100, handler: @escaping Handler) -> SendableDisposable {
        declare { $0.addErrorHandler(order: order, handler: handler) }
    }

    /// Adds a handler of a chain's completion; see ``Machine/addChainHandler(_:order:handler:)-(TransitionChain<S>,_,Handler)``.
    @discardableResult
    public func addChainHandler(_ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addChainHandler(chain, order: order, handler: handler) }
    }

    /// Adds a handler of a chain broken off; see
    /// ``Machine/addChainErrorHandler(_:order:handler:)-(TransitionChain<S>,_,Handler)``.
    @discardableResult
    public func addChainErrorHandler(
        _ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping Handler
    ) -> SendableDisposable {
        declare { $0.addChainErrorHandler(chain, order: order, handler: handler) }
    }
}

// MARK: - Statecharts

extension SendableMachine {
    /// Declares `children` of a compound state; see ``Machine/addChildren(_:to:initial:)``.
    public func addChildren(_ children: [S], to parent: S, initial: S? = nil) {
        guarded.withLock { $0.addChildren(children, to: parent, initial: initial) }
    }

    /// Declares the regions of a parallel state; see ``Machine/addRegions(_:to:)``.
    public func addRegions(_ regions: [S], to parent: S) {
        guarded.withLock { $0.addRegions(regions, to: parent) }
    }

    /// Has `state` keep history; see ``Machine/addHistory(_:to:default:)``.
    public func addHistory(_ kind: HistoryKind, to state: S, default fallback: S? = nil) {
        guarded.withLock { $0.addHistory(kind, to: state, default: fallback) }
    }

    /// Makes `state` final; see ``Machine/addFinalState(_:)``.
    public func addFinalState(_ state: S) {
        guarded.withLock { $0.addFinalState(state) }
    }

    /// Adds a handler of entering `state`; see ``Machine/addEntryHandler(_:order:handler:)``.
    @discardableResult
    public func addEntryHandler(_ state: S, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addEntryHandler(state, order: order, handler: handler) }
    }

    /// Adds a handler of leaving `state`; see ``Machine/addExitHandler(_:order:handler:)``.
    @discardableResult
    public func addExitHandler(_ state: S, order: HandlerOrder = 100, handler: @escaping Handler)
        -> SendableDisposable
    {
        declare { $0.addExitHandler(state, order: order, handler: handler) }
    }

    /// Adds an eventless route; see ``Machine/addEventlessRoute(_:condition:)``. A trailing
    /// closure is the condition, in either language mode.
    @discardableResult
    public func addEventlessRoute(_ transition: Transition<S>, condition: Condition? = nil) -> SendableDisposable {
        addEventlessRoute(transition, condition: condition, action: nil)
    }

    /// Adds an eventless route with an action; see ``Machine/addEventlessRoute(_:condition:action:)``.
    @discardableResult
    public func addEventlessRoute(
        _ transition: Transition<S>, condition: Condition? = nil, action: Handler?
    ) -> SendableDisposable {
        declare { $0.addEventlessRoute(transition, condition: condition, action: action) }
    }

    /// Adds a route taken when its source is done; see ``Machine/addDoneRoute(_:condition:)``. A
    /// trailing closure is the condition, in either language mode.
    @discardableResult
    public func addDoneRoute(_ transition: Transition<S>, condition: Condition? = nil) -> SendableDisposable {
        addDoneRoute(transition, condition: condition, action: nil)
    }

    /// Adds a done route with an action; see ``Machine/addDoneRoute(_:condition:action:)``.
    @discardableResult
    public func addDoneRoute(_ transition: Transition<S>, condition: Condition? = nil, action: Handler?)
        -> SendableDisposable
    {
        declare { $0.addDoneRoute(transition, condition: condition, action: action) }
    }
}
