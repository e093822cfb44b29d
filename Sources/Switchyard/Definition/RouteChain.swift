/// Consecutive routes, each with its own condition.
public struct RouteChain<S: StateType, E: EventType> {
    /// The chain's routes, in order.
    public private(set) var routes: [Route<S, E>]

    /// Creates a chain from routes.
    ///
    /// - Parameter routes: The routes in order; each must start where the previous one ends.
    public init(routes: [Route<S, E>]) {
        self.routes = routes
    }

    /// Creates a chain whose steps all share one condition.
    ///
    /// - Parameters:
    ///   - transitionChain: The states to walk through.
    ///   - condition: What must hold for every step; `nil` always allows it.
    public init(transitionChain: TransitionChain<S>, condition: ((TransitionContext<S, E>) -> Bool)? = nil) {
        self.init(routes: transitionChain.transitions.map { Route(transition: $0, condition: condition) })
    }
}

extension RouteChain {
    /// Creates a chain whose steps share a condition that takes the context
    /// apart: `{ event, fromState, toState, userInfo in … }`.
    ///
    /// - Parameters:
    ///   - transitionChain: The states to walk through.
    ///   - condition: What must hold for every step.
    public init(
        transitionChain: TransitionChain<S>,
        condition: @escaping (_ event: E?, _ fromState: S, _ toState: S, _ userInfo: Any?) -> Bool
    ) {
        self.init(routes: transitionChain.transitions.map { Route(transition: $0, condition: condition) })
    }
}
