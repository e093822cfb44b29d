/// A value with a `state` whose moves a static table allows: the
/// "simple state machine" style, where the whole machine is a dictionary from
/// each state to the set of states it may move to.
///
/// ```swift
/// struct Door: TransitionTable {
///     enum State { case open, closed, locked }
///
///     static let stateTransitions: [State: Set<State>] = [
///         .open: [.closed],
///         .closed: [.open, .locked],
///         .locked: [.closed],
///     ]
///
///     private(set) var state: State = .open
///
///     mutating func transition(to nextState: State) {
///         precondition(canTransition(to: nextState), "Door: \(state) -> \(nextState)")
///         state = nextState
///     }
/// }
/// ```
///
/// The protocol is named `TransitionTable` rather than `StateMachine`, the name
/// this style usually goes by, because in Switchyard `StateMachine` already
/// names ``Machine`` (SwiftState's name for its class, kept so that SwiftState
/// code compiles unchanged).
///
/// `state` is only required to be readable, so that a conforming type may keep
/// its setter private and write ``transition(to:)`` itself, as above. A type
/// whose `state` is settable can adopt ``MutableTransitionTable`` instead and
/// get `transition(to:)` for free.
///
/// What a conforming type gets:
/// - ``canTransition(to:)``, which reads the table;
/// - ``tryTransition(to:)``, which throws a ``TableTransitionError`` instead of
///   moving when the table does not allow the move;
/// - when `State` conforms to ``StateType``, ``makeMachine(state:delivery:)``,
///   which builds a ``Machine`` with one route for each move the table allows.
///
/// A state with an empty set is final: nothing leaves it. A state with no
/// entry at all is a mistake in the table, and is reported as such.
public protocol TransitionTable {
    /// The states; usually an enum.
    associatedtype State: Hashable

    /// The current state.
    var state: State { get }

    /// For each state, the states it may move to.
    ///
    /// Every state needs an entry; give a final state an empty set.
    static var stateTransitions: [State: Set<State>] { get }

    /// Whether the table allows a move from the current state to `nextState`.
    ///
    /// - Parameter nextState: The state to move to.
    /// - Returns: `true` when `stateTransitions[state]` contains `nextState`.
    func canTransition(to nextState: State) -> Bool

    /// Moves to `nextState`; a move the table does not allow is a programmer
    /// error that stops the program.
    ///
    /// - Parameter nextState: The state to move to.
    mutating func transition(to nextState: State)
}

extension TransitionTable {
    /// Whether the table allows a move from `state` to `nextState`.
    ///
    /// ```swift
    /// Door.canTransition(from: .locked, to: .open)  // false
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state to move from.
    ///   - nextState: The state to move to.
    /// - Returns: `true` when `stateTransitions[state]` contains `nextState`;
    ///   `false` too when the table has no entry for `state`.
    /// - Complexity: O(1) on average, plus the cost of reading `stateTransitions`.
    public static func canTransition(from state: State, to nextState: State) -> Bool {
        stateTransitions[state]?.contains(nextState) ?? false
    }

    /// Whether the table allows a move from the current state to `nextState`.
    ///
    /// ```swift
    /// let door = Door()
    /// door.canTransition(to: .closed)  // true
    /// door.canTransition(to: .locked)  // false
    /// ```
    ///
    /// - Parameter nextState: The state to move to.
    /// - Returns: `true` when `stateTransitions[state]` contains `nextState`;
    ///   `false` too when the table has no entry for the current state.
    /// - Complexity: O(1) on average, plus the cost of reading `stateTransitions`.
    public func canTransition(to nextState: State) -> Bool {
        Self.canTransition(from: state, to: nextState)
    }

    /// Moves to `nextState` if the table allows it, and throws otherwise.
    ///
    /// The move itself is made by ``transition(to:)``, yours if the type
    /// declares one.
    ///
    /// ```swift
    /// var door = Door()
    /// do {
    ///     try door.tryTransition(to: .locked)
    /// } catch {
    ///     print(error)  // "Door cannot move from open to locked: …"
    /// }
    /// ```
    ///
    /// - Parameter nextState: The state to move to.
    /// - Throws: A ``TableTransitionError`` whose reason is
    ///   ``TableTransitionError/Reason/stateNotInTable`` when the table has no
    ///   entry for the current state, or ``TableTransitionError/Reason/notAllowed``
    ///   when the entry does not list `nextState`. The state is then unchanged.
    public mutating func tryTransition(to nextState: State) throws(TableTransitionError) {
        if let error = transitionError(to: nextState) {
            throw error
        }
        transition(to: nextState)
    }

    /// Why the table refuses a move from the current state to `nextState`, or
    /// `nil` when it allows the move.
    func transitionError(to nextState: State) -> TableTransitionError? {
        guard let nextStates = Self.stateTransitions[state] else {
            return TableTransitionError(stateNotInTable: Self.self, fromState: state, toState: nextState)
        }
        guard nextStates.contains(nextState) else {
            return TableTransitionError(notAllowed: Self.self, fromState: state, toState: nextState)
        }
        return nil
    }
}
