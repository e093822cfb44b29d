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
            // compete and no order could change a decision; the routes are
            // still added in a fixed order (see ``orderedStates(_:)``), so
            // that the machine's description and diagrams are the same in
            // every run, whatever the dictionary's hash order.
            let table = stateTransitions
            for fromState in orderedStates(table.keys) {
                for nextState in orderedStates(table[fromState]!) {
                    machine.addRoute(Transition(fromState: fromState, toState: nextState))
                }
            }
        }
    }

    /// Describes the machine ``makeMachine(state:delivery:)`` builds from
    /// the table: a description of the table, read from the same engine.
    ///
    /// ```swift
    /// print(Ticket.describe(state: .open).mermaid())
    /// ```
    ///
    /// States come in the order of `State.allCases` when `State` is
    /// `CaseIterable`, else in the order of their descriptions, so that the
    /// description is the same in every run.
    ///
    /// - Parameter state: The initial state.
    /// - Returns: The description.
    /// - Complexity: O(*n* log *n*) in the moves the table allows.
    public static func describe(state: State) -> MachineDescription<State, NoEvent> {
        makeMachine(state: state).describe()
    }

    /// `states` in a fixed order: that of `State.allCases` when `State` is
    /// `CaseIterable`, else by description (states with equal descriptions
    /// then keep the collection's order).
    static func orderedStates(_ states: some Collection<State>) -> [State] {
        if let allCases = Machine<State, NoEvent>.allCases(of: State.self) {
            let position = Dictionary(allCases.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return states.sorted { (position[$0] ?? .max, "\($0)") < (position[$1] ?? .max, "\($1)") }
        }
        return states.map { (String(describing: $0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
