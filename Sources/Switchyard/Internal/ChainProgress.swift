/// How far the machine has walked along one route chain, counted the way
/// SwiftState counts it, so that chain handlers and chain error handlers run
/// exactly when they ran there.
///
/// Fed every state-driven transition in order. A walk starts when the chain's
/// first step is taken while no walk is under way. From then on every move is
/// counted, and so is every move that is a step of the chain; the walk
/// completes when the last step is taken after nothing but steps, as many as
/// the chain has. A move that is not a step breaks the walk, and the counts
/// stay apart until a new walk starts, so every state-driven move after a
/// break reports it again, until the chain's first step is taken again.
final class ChainProgress<S: StateType, E: EventType> {
    enum Step {
        case none, completed, broken
    }

    private let routes: [Route<S, E>]
    /// Whether no walk is under way (none started, or the last one ended).
    private var isStopped = true
    /// The moves of the current walk that were steps of the chain.
    private var steps = 0
    /// All the moves of the current walk.
    private var moves = 0

    /// - Parameter routes: The chain's steps; the machine has already refused an empty chain.
    init(routes: [Route<S, E>]) {
        self.routes = routes
    }

    func record(_ context: TransitionContext<S, E>) -> Step {
        func isTaken(_ route: Route<S, E>) -> Bool {
            route.transition.matches(from: context.fromState, to: context.toState)
                && (route.condition?(context) ?? true)
        }
        if isStopped, isTaken(routes[0]) {
            isStopped = false
            steps = 0
            moves = 0
        }
        if !isStopped {
            moves += 1
            if routes.contains(where: isTaken) {
                steps += 1
            }
        }
        if steps < moves {
            isStopped = true
            return .broken
        }
        if steps == routes.count, isTaken(routes[routes.count - 1]) {
            isStopped = true
            return .completed
        }
        return .none
    }
}
