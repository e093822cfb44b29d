// Route chains: `.a => .b => .c` added at once, and handlers told when the
// machine has walked a whole chain, or broke off a walk it had started.

extension Machine {
    /// Adds a route for each step of `chain`, and a handler that runs when the
    /// machine has walked the whole chain in a row by asking for states.
    ///
    /// ```swift
    /// machine.addRouteChain(.draft => .review => .published) { context in
    ///     print("published after review")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - condition: What must hold for every step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(_ chain: TransitionChain<S>, condition: Condition? = nil, handler: @escaping Handler)
        -> Disposable
    {
        addRouteChain(RouteChain(transitionChain: chain, condition: condition), handler: handler)
    }

    /// Adds each route of `chain`, and a handler that runs when the machine has
    /// walked the whole chain in a row by asking for states.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the routes and the handler.
    @discardableResult
    public func addRouteChain(_ chain: RouteChain<S, E>, handler: @escaping Handler) -> Disposable {
        require(!chain.routes.isEmpty, "addRouteChain needs a chain of at least two states, such as .a => .b")
        let routeDisposables = chain.routes.map { addRoute($0) }
        return combine(routeDisposables + [addChainHandler(chain, handler: handler)])
    }

    /// Adds a handler that runs when the machine has walked the whole chain in
    /// a row by asking for states.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the last step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainHandler(_ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        addChainHandler(RouteChain(transitionChain: chain), order: order, handler: handler)
    }

    /// Adds a handler that runs when the machine has walked every route of the
    /// chain in a row by asking for states.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the last step.
    ///   - handler: Runs after the transition that completes the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainHandler(_ chain: RouteChain<S, E>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        addChainObserver(chain, order: order, on: .completed, handler: handler)
    }

    /// Adds a handler that runs when a walk along the chain, once started,
    /// is broken by a state-driven move off the chain.
    ///
    /// As in SwiftState, a broken walk is reported again at every
    /// state-driven move after the break, until the chain's first step is
    /// taken again and a new walk starts.
    ///
    /// - Parameters:
    ///   - chain: Two or more states; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the breaking move.
    ///   - handler: Runs after the transition that broke the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainErrorHandler(_ chain: TransitionChain<S>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        addChainErrorHandler(RouteChain(transitionChain: chain), order: order, handler: handler)
    }

    /// Adds a handler that runs when a walk along the chain, once started,
    /// is broken by a state-driven move off the chain, and at every
    /// state-driven move after that until the chain's first step is taken again.
    ///
    /// - Parameters:
    ///   - chain: One or more routes; an empty chain is a programmer error.
    ///   - order: When the handler runs among the handlers of the breaking move.
    ///   - handler: Runs after the transition that broke the chain.
    /// - Returns: What removes the handler.
    @discardableResult
    public func addChainErrorHandler(_ chain: RouteChain<S, E>, order: HandlerOrder = 100, handler: @escaping Handler)
        -> Disposable
    {
        addChainObserver(chain, order: order, on: .broken, handler: handler)
    }

    /// Follows every state-driven transition, at `order`, and calls `handler`
    /// when the chain reaches `step`.
    private func addChainObserver(
        _ chain: RouteChain<S, E>, order: HandlerOrder, on step: ChainProgress<S, E>.Step, handler: @escaping Handler
    ) -> Disposable {
        require(!chain.routes.isEmpty, "A chain handler needs a chain of at least two states, such as .a => .b")
        let progress = ChainProgress(routes: chain.routes)
        return addHandler(.any => .any, order: order) { context in
            if progress.record(context) == step {
                handler(context)
            }
        }
    }
}
