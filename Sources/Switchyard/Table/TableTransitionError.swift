/// Why a ``TransitionTable`` refused a move, from
/// ``TransitionTable/tryTransition(to:)``.
///
/// ```swift
/// do {
///     try ticket.tryTransition(to: .reopened)
/// } catch {
///     switch error.reason {
///     case .notAllowed: print(error)  // "JiraTicket cannot move from open to reopened: …"
///     default: print("the table is incomplete: \(error)")
///     }
/// }
/// ```
///
/// The error does not repeat the table's state type, so that it is `Sendable`
/// (as every `Error` must be) whatever the states are; ``description`` names
/// both states.
public struct TableTransitionError: Error, Hashable, CustomStringConvertible {
    /// Why a move was refused.
    ///
    /// A struct rather than an enum, so that later versions can add reasons
    /// without breaking code that switches over them: match the reasons you
    /// handle, and add a `default`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case notAllowed, stateNotInTable
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The table has an entry for the current state, and it does not list
        /// the state asked for.
        public static let notAllowed = Reason(.notAllowed)
        /// The table has no entry at all for the current state: a mistake in
        /// the table, since a final state has an empty set.
        public static let stateNotInTable = Reason(.stateNotInTable)

        /// The reason's name, such as `notAllowed`.
        public var description: String {
            kind.rawValue
        }
    }

    /// Why the move was refused.
    public let reason: Reason
    /// A sentence naming the table's type, both states and the reason, for logs.
    public let description: String

    /// Creates an error value; ``TransitionTable/tryTransition(to:)`` makes
    /// these, tests may too.
    ///
    /// - Parameters:
    ///   - reason: Why the move was refused.
    ///   - description: A sentence naming both states and the reason.
    public init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }

    /// The error for a move that the entry of `fromState` does not list.
    init<Table, State>(notAllowed table: Table.Type, fromState: State, toState: State) {
        self.init(
            reason: .notAllowed,
            description:
                "\(table) cannot move from \(fromState) to \(toState): stateTransitions[\(fromState)] does not list \(toState)"
        )
    }

    /// The error for a move from a state that has no entry in the table.
    init<Table, State>(stateNotInTable table: Table.Type, fromState: State, toState: State) {
        self.init(
            reason: .stateNotInTable,
            description:
                "\(table) cannot move from \(fromState) to \(toState): stateTransitions has no entry for \(fromState) (give a final state an empty set)"
        )
    }
}
