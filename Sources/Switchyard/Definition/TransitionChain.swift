/// Consecutive transitions through a list of states, written `.a => .b => .c`.
///
/// A chain is used with ``Machine/addRouteChain(_:condition:handler:)-(_,Condition?,Handler)`` to add
/// all of its routes at once, and with ``Machine/addChainHandler(_:order:handler:)-(TransitionChain<S>,_,Handler)``
/// to be told when the machine has walked the whole chain in order.
public struct TransitionChain<S: StateType> {
    /// The states of the chain, in order. Every consecutive pair is one transition.
    public private(set) var states: [State<S>]

    /// Creates a chain through the given states.
    ///
    /// - Parameter states: At least two states; `.any` may stand for any state.
    public init(states: [State<S>]) {
        self.states = states
    }

    /// Creates a chain of one transition.
    ///
    /// - Parameter transition: The only step of the chain.
    public init(transition: Transition<S>) {
        self.init(states: [transition.fromState, transition.toState])
    }

    /// The chain's steps, one transition for each consecutive pair of states.
    ///
    /// A chain of fewer than two states has no transitions.
    ///
    /// - Complexity: O(*n*) in the number of states.
    public var transitions: [Transition<S>] {
        zip(states, states.dropFirst()).map { Transition(fromState: $0, toState: $1) }
    }
}

extension TransitionChain: Hashable {}

extension TransitionChain: Sendable where S: Sendable {}

extension TransitionChain {
    /// The chain with one more state at its end.
    ///
    /// - Parameter state: The state to walk to after the last one.
    /// - Returns: A chain one step longer.
    /// - Complexity: O(*n*) in the number of states.
    public func appending(_ state: State<S>) -> TransitionChain<S> {
        TransitionChain(states: states + [state])
    }

    /// The chain with one more state at its start.
    ///
    /// - Parameter state: The state to walk from before the first one.
    /// - Returns: A chain one step longer.
    /// - Complexity: O(*n*) in the number of states.
    public func prepending(_ state: State<S>) -> TransitionChain<S> {
        TransitionChain(states: [state] + states)
    }
}
