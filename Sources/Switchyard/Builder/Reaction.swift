/// What a clause whose closure decides does: go to a state, or stay where the
/// machine is, and emit effects either way.
///
/// ```swift
/// On(.submit) { document, _ in
///     document.isEmpty ? .stay(emit: .warnEmpty) : .transition(to: .review, emit: .notifyReviewers)
/// }
/// ```
///
/// Effects are values handed back with the transition; the library never runs them.
public struct Reaction<S: StateType, Effect> {
    /// Where the machine goes; `nil` to stay in the current state.
    public var toState: S?
    /// The effects the transition emits, in order.
    public var effects: [Effect]

    /// Creates a reaction.
    ///
    /// - Parameters:
    ///   - toState: Where the machine goes; `nil` to stay.
    ///   - effects: The effects the transition emits, in order.
    @inlinable
    public init(toState: S?, effects: [Effect]) {
        self.toState = toState
        self.effects = effects
    }

    /// Goes to `state` and emits `effects`.
    ///
    /// - Parameters:
    ///   - state: Where the machine goes.
    ///   - effects: The effects the transition emits, in order; none by default.
    /// - Returns: The reaction.
    @inlinable
    public static func transition(to state: S, emit effects: Effect...) -> Reaction {
        Reaction(toState: state, effects: effects)
    }

    /// Stays in the current state and emits `effects`: a successful transition
    /// that changes nothing but what it emits.
    ///
    /// - Parameter effects: The effects the transition emits, in order; none by default.
    /// - Returns: The reaction.
    @inlinable
    public static func stay(emit effects: Effect...) -> Reaction {
        Reaction(toState: nil, effects: effects)
    }

    /// Tinder StateMachine's name for ``stay(emit:)``.
    ///
    /// - Parameter effects: The effects the transition emits, in order; none by default.
    /// - Returns: The reaction.
    @inlinable
    public static func dontTransition(emit effects: Effect...) -> Reaction {
        Reaction(toState: nil, effects: effects)
    }
}

extension Reaction: Equatable where S: Equatable, Effect: Equatable {}
extension Reaction: Hashable where S: Hashable, Effect: Hashable {}
extension Reaction: Sendable where S: Sendable, Effect: Sendable {}
