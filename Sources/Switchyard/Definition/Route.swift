/// A transition together with the condition under which it may be taken.
///
/// `[.a, .b] => .c` and `.a => [.b, .c]` make routes: a wildcard transition
/// plus a condition that checks membership.
public struct Route<S: StateType, E: EventType> {
    /// The move this route allows.
    public let transition: Transition<S>
    /// What must hold for the move to be taken; `nil` always allows it.
    public let condition: ((TransitionContext<S, E>) -> Bool)?

    /// Creates a route.
    ///
    /// - Parameters:
    ///   - transition: The move this route allows.
    ///   - condition: What must hold for the move; `nil` always allows it.
    @inlinable
    public init(transition: Transition<S>, condition: ((TransitionContext<S, E>) -> Bool)?) {
        self.transition = transition
        self.condition = condition
    }
}

extension Route {
    /// A route from any of several states to one state: `[.a, .b] => .c`.
    ///
    /// - Parameters:
    ///   - fromStates: The states the move may start in.
    ///   - toState: Where the move ends, or `.any`.
    public init(fromStates: [S], toState: State<S>) {
        self.init(transition: Transition(fromState: .any, toState: toState)) { context in
            fromStates.contains(context.fromState)
        }
    }

    /// A route from one state to any of several states: `.a => [.b, .c]`.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts, or `.any`.
    ///   - toStates: The states the move may end in.
    public init(fromState: State<S>, toStates: [S]) {
        self.init(transition: Transition(fromState: fromState, toState: .any)) { context in
            toStates.contains(context.toState)
        }
    }

    /// A route from any of several states to any of several states: `[.a, .b] => [.c, .d]`.
    ///
    /// - Parameters:
    ///   - fromStates: The states the move may start in.
    ///   - toStates: The states the move may end in.
    public init(fromStates: [S], toStates: [S]) {
        self.init(transition: Transition(fromState: .any, toState: .any)) { context in
            fromStates.contains(context.fromState) && toStates.contains(context.toState)
        }
    }
}
