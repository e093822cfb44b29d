/// A final state: entering it completes its parent (SCXML's `<final>`), or,
/// written at the top of a definition, finishes the machine.
///
/// ```swift
/// From(.fulfilment) {
///     OnDone(transitionTo: .shipping)            // taken once .packed is entered
///     From(.packing) { On(.packed, transitionTo: .packed) }
///     Final(.packed)
/// }
/// Final(.delivered) {                             // finishes the machine
///     OnEntry(emit: .thankCustomer)
/// }
/// ```
///
/// It declares exactly what ``Machine/addFinalState(_:)`` does, and a child
/// state as a `From` inside a `From` does. It is an element of its own, not a
/// modifier of `From`, because a final state is what SCXML writes as
/// `<final>` beside `<state>`: a state with no children and no clauses of
/// its own, only its entry and exit effects, left by its parent's
/// transitions. A `From` for the same state elsewhere may still give it
/// clauses, as the operator API allows.
///
/// A compound state is done once its active child is final, and a
/// ``Parallel`` state once each region is; its ``OnDone`` clauses react to
/// that. A machine that enters a top-level final state runs the exit
/// handlers of every active state and refuses every later request with
/// ``TransitionError/Reason/finished``.
public struct Final<S: StateType, E: EventType, Effect> {
    @usableFromInline var draft: GroupDraft<S, E, Effect>

    /// A final state, with no entry or exit effects.
    ///
    /// - Parameter state: The state: a child of the enclosing ``From``, or a
    ///   top-level state.
    /// - Precondition: `state` has no children and is not a region; the
    ///   misuse stops with ``Machine/addFinalState(_:)``'s message.
    @inlinable
    public init(_ state: S) {
        draft = GroupDraft(source: .values([state]), isParallel: false, initial: nil, history: nil, content: [])
        draft.isFinal = true
    }

    /// A final state, with what entering and leaving it emits.
    ///
    /// - Parameters:
    ///   - state: The state: a child of the enclosing ``From``, or a
    ///     top-level state.
    ///   - content: Its ``OnEntry`` and ``OnExit`` effects.
    /// - Precondition: `state` has no children and is not a region; the
    ///   misuse stops with ``Machine/addFinalState(_:)``'s message.
    @inlinable
    public init(_ state: S, @FinalStateBuilder<S, E, Effect> _ content: () -> DefinitionBody<S, E, Effect>) {
        draft = GroupDraft(
            source: .values([state]), isParallel: false, initial: nil, history: nil, content: content().components)
        draft.isFinal = true
    }
}

/// Builds the block of a ``Final`` state: its ``OnEntry`` and ``OnExit``
/// effects, with `if`, `if`/`else` and `switch`. A final state has no
/// clauses and no children, so the block takes nothing else.
@resultBuilder
public enum FinalStateBuilder<S: StateType, E: EventType, Effect> {
    /// A block: its parts in order.
    ///
    /// - Parameter parts: What each statement built.
    /// - Returns: Everything, in order.
    @inlinable
    public static func buildBlock(_ parts: DefinitionBody<S, E, Effect>...) -> DefinitionBody<S, E, Effect> {
        DefinitionBody(parts.flatMap(\.components))
    }

    /// Effects emitted when the final state is entered.
    ///
    /// - Parameter entry: The effects.
    /// - Returns: The effects, as part of the block.
    @inlinable
    public static func buildExpression(_ entry: OnEntry<Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.lifecycle(entering: true, effects: entry.effects)])
    }

    /// Effects emitted when the final state is exited.
    ///
    /// - Parameter exit: The effects.
    /// - Returns: The effects, as part of the block.
    @inlinable
    public static func buildExpression(_ exit: OnExit<Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.lifecycle(entering: false, effects: exit.effects)])
    }

    /// An `if` without `else`.
    ///
    /// - Parameter body: What the `if` built, or `nil` when its condition was false.
    /// - Returns: That, or nothing.
    @inlinable
    public static func buildOptional(_ body: DefinitionBody<S, E, Effect>?) -> DefinitionBody<S, E, Effect> {
        body ?? DefinitionBody([])
    }

    /// The first branch of an `if`/`else` or `switch`.
    ///
    /// - Parameter body: What the branch built.
    /// - Returns: The same.
    @inlinable
    public static func buildEither(first body: DefinitionBody<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        body
    }

    /// The second branch of an `if`/`else` or `switch`.
    ///
    /// - Parameter body: What the branch built.
    /// - Returns: The same.
    @inlinable
    public static func buildEither(second body: DefinitionBody<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        body
    }
}
