/// How far the machine has walked along one route chain.
///
/// Fed every state-driven transition in order; says when the walk completes
/// the chain and when a started walk is broken by a move off the chain.
final class ChainProgress<S: StateType, E: EventType> {
    enum Step {
        case none, completed, broken
    }

    private let routes: [Route<S, E>]
    /// The number of the chain's steps taken in a row so far.
    private var taken = 0

    /// - Parameter routes: The chain's steps; the machine has already refused an empty chain.
    init(routes: [Route<S, E>]) {
        self.routes = routes
    }

    func record(_ context: TransitionContext<S, E>) -> Step {
        func isStep(_ index: Int) -> Bool {
            let route = routes[index]
            return route.transition.matches(from: context.fromState, to: context.toState)
                && (route.condition?(context) ?? true)
        }
        let wasWalking = taken > 0
        if wasWalking, isStep(taken) {
            taken += 1
        } else {
            // Off the chain, or not on it yet: this move may start it afresh.
            taken = isStep(0) ? 1 : 0
            if wasWalking {
                return .broken
            }
        }
        if taken == routes.count {
            taken = 0
            return .completed
        }
        return .none
    }
}
