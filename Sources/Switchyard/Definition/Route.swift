/// A transition together with the condition under which it may be taken.
///
/// `[.a, .b] => .c` and `.a => [.b, .c]` make routes that list their states: a
/// wildcard transition whose ``condition`` checks that the move starts (or
/// ends) in one of the listed states. A machine checks the lists itself, so
/// that a refusal says the state was not listed rather than that a condition
/// refused.
public struct Route<S: StateType, E: EventType> {
    /// The move this route allows.
    public let transition: Transition<S>
    /// What must hold for the move to be taken; `nil` always allows it.
    public let condition: ((TransitionContext<S, E>) -> Bool)?
    /// The states a move may start in, for routes written `[.a, .b] => …`.
    @usableFromInline let listedSources: [S]?
    /// The states a move may end in, for routes written `… => [.b, .c]`.
    @usableFromInline let listedTargets: [S]?

    /// Creates a route.
    ///
    /// - Parameters:
    ///   - transition: The move this route allows.
    ///   - condition: What must hold for the move; `nil` always allows it.
    @inlinable
    public init(transition: Transition<S>, condition: ((TransitionContext<S, E>) -> Bool)?) {
        self.transition = transition
        self.condition = condition
        self.listedSources = nil
        self.listedTargets = nil
    }

    /// A route from `.any` to `.any` whose condition checks the listed states.
    init(sources: [S]?, fromState: State<S>, targets: [S]?, toState: State<S>) {
        self.transition = Transition(fromState: fromState, toState: toState)
        self.condition = { context in
            (sources?.contains(context.fromState) ?? true) && (targets?.contains(context.toState) ?? true)
        }
        self.listedSources = sources
        self.listedTargets = targets
    }
}

extension Route {
    /// A route from any of several states to one state: `[.a, .b] => .c`.
    ///
    /// - Parameters:
    ///   - fromStates: The states the move may start in.
    ///   - toState: Where the move ends, or `.any`.
    public init(fromStates: [S], toState: State<S>) {
        self.init(sources: fromStates, fromState: .any, targets: nil, toState: toState)
    }

    /// A route from one state to any of several states: `.a => [.b, .c]`.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts, or `.any`.
    ///   - toStates: The states the move may end in.
    public init(fromState: State<S>, toStates: [S]) {
        self.init(sources: nil, fromState: fromState, targets: toStates, toState: .any)
    }

    /// A route from any of several states to any of several states: `[.a, .b] => [.c, .d]`.
    ///
    /// - Parameters:
    ///   - fromStates: The states the move may start in.
    ///   - toStates: The states the move may end in.
    public init(fromStates: [S], toStates: [S]) {
        self.init(sources: fromStates, fromState: .any, targets: toStates, toState: .any)
    }
}

extension Route {
    /// Creates a route whose condition takes the context apart, as SwiftState's
    /// tuple context allowed: `{ event, fromState, toState, userInfo in … }`.
    ///
    /// - Parameters:
    ///   - transition: The move this route allows.
    ///   - condition: What must hold for the move.
    public init(
        transition: Transition<S>,
        condition: @escaping (_ event: E?, _ fromState: S, _ toState: S, _ userInfo: Any?) -> Bool
    ) {
        self.init(transition: transition) { context in
            condition(context.event, context.fromState, context.toState, context.userInfo)
        }
    }
}
