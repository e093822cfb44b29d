extension TransitionTable where State: StateType {
    /// A ``Machine`` with one route for each move the table allows, so that
    /// `machine <- next` succeeds exactly when ``canTransition(from:to:)``
    /// says so.
    ///
    /// ```swift
    /// extension Door.State: StateType {}
    ///
    /// let door = Door.makeMachine(state: .open)
    /// door <- .closed <- .locked
    /// door.tryState(.open)  // false, as Door.canTransition(from: .locked, to: .open)
    /// ```
    ///
    /// The machine reads the table once, here; it does not call a
    /// ``canTransition(to:)`` or ``transition(to:)`` that the type declares
    /// itself. A state with no entry, like a final state, gets no routes out.
    /// Add handlers, conditions or further routes to the machine as to any
    /// other.
    ///
    /// - Parameters:
    ///   - state: The machine's initial state.
    ///   - delivery: When the handlers of a transition requested from inside a
    ///     handler run; ``DeliveryPolicy/immediate`` by default, as for
    ///     ``Machine/init(state:delivery:initClosure:)``.
    /// - Returns: A new machine in `state`, driven by states only.
    /// - Complexity: O(*n*), where *n* is the number of moves the table allows.
    public static func makeMachine(state: State, delivery: DeliveryPolicy = .immediate) -> Machine<State, NoEvent> {
        Machine(state: state, delivery: delivery) { machine in
            // Each route joins a distinct pair of states, so no two ever
            // compete, and the dictionary's order cannot change a decision.
            for (fromState, nextStates) in stateTransitions {
                for nextState in nextStates {
                    machine.addRoute(Transition(fromState: fromState, toState: nextState))
                }
            }
        }
    }
}
