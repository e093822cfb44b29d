/// Builds a definition from its groups: ``From``, ``Parallel``, ``Final`` and
/// ``Transitions`` blocks, with `if`, `if`/`else`, `switch`, `for` and
/// optional groups, and, in the style of Tinder's StateMachine, the
/// ``InitialState`` and the observers.
///
/// ```swift
/// let light = Definition<Light, LightEvent, Never>(initialState: .red) {
///     From(.red) { On(.timer, transitionTo: .green) }
///     From(.green) { On(.timer, transitionTo: .yellow) }
///     From(.yellow) { On(.timer, transitionTo: .red) }
/// }
/// ```
///
/// A definition names its initial state exactly once: either as the
/// argument of ``Definition/init(initialState:_:)``, or as the first statement of
/// the block (``Definition/init(_:)``). Naming it twice, or not at all, does not
/// compile, and the compiler's message says which.
@resultBuilder
public enum DefinitionBuilder<S: StateType, E: EventType, Effect> {
    /// An empty block.
    ///
    /// - Returns: Nothing.
    @inlinable
    public static func buildBlock() -> DefinitionBody<S, E, Effect> {
        DefinitionBody([])
    }

    /// The initial state, as a statement.
    ///
    /// - Parameter initialState: The initial state.
    /// - Returns: The same.
    @inlinable
    public static func buildExpression(_ initialState: InitialState<S>) -> InitialState<S> {
        initialState
    }

    /// A group of clauses for some states.
    ///
    /// - Parameter group: The group.
    /// - Returns: The group, as part of the block.
    @inlinable
    public static func buildExpression<View>(_ group: From<S, E, Effect, View>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.group(group.draft)])
    }

    /// A group for a state with regions.
    ///
    /// - Parameter group: The group.
    /// - Returns: The group, as part of the block.
    @inlinable
    public static func buildExpression(_ group: Parallel<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.group(group.draft)])
    }

    /// A top-level final state: entering it finishes the machine.
    ///
    /// - Parameter state: The final state.
    /// - Returns: The state, as part of the block.
    @inlinable
    public static func buildExpression(_ state: Final<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.group(state.draft)])
    }

    /// Several groups under one modifier.
    ///
    /// - Parameter section: The groups.
    /// - Returns: The groups, as part of the block.
    @inlinable
    public static func buildExpression(_ section: Transitions<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.section(section.content, disabled: section.disabled)])
    }

    /// An observer of the transitions of every ``EffectMachine`` made from the definition.
    ///
    /// - Parameter observer: The observer.
    /// - Returns: The observer, as part of the block.
    @inlinable
    public static func buildExpression(_ observer: TransitionObserver<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.observer(observer.callback)])
    }

    /// The first statement of a block, when it is the initial state.
    ///
    /// - Parameter first: The initial state.
    /// - Returns: A definition with that initial state and nothing else yet.
    @inlinable
    public static func buildPartialBlock(first: InitialState<S>) -> DefinitionDraft<S, E, Effect> {
        DefinitionDraft(initialState: first.state, body: DefinitionBody([]))
    }

    /// The first statement of a block, when it is not the initial state.
    ///
    /// - Parameter first: What the statement built.
    /// - Returns: The same.
    @inlinable
    public static func buildPartialBlock(first: DefinitionBody<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        first
    }

    /// A statement after the initial state.
    ///
    /// - Parameters:
    ///   - accumulated: The block so far.
    ///   - next: What the statement built.
    /// - Returns: Both, in order.
    @inlinable
    public static func buildPartialBlock(
        accumulated: DefinitionDraft<S, E, Effect>, next: DefinitionBody<S, E, Effect>
    ) -> DefinitionDraft<S, E, Effect> {
        DefinitionDraft(
            initialState: accumulated.initialState,
            body: DefinitionBody(accumulated.body.components + next.components))
    }

    /// A statement before or without the initial state.
    ///
    /// - Parameters:
    ///   - accumulated: The block so far.
    ///   - next: What the statement built.
    /// - Returns: Both, in order.
    @inlinable
    public static func buildPartialBlock(
        accumulated: DefinitionBody<S, E, Effect>, next: DefinitionBody<S, E, Effect>
    ) -> DefinitionBody<S, E, Effect> {
        DefinitionBody(accumulated.components + next.components)
    }

    /// The initial state, after other statements.
    ///
    /// - Parameters:
    ///   - accumulated: The block so far.
    ///   - next: The initial state.
    /// - Returns: The block with its initial state.
    @inlinable
    public static func buildPartialBlock(
        accumulated: DefinitionBody<S, E, Effect>, next: InitialState<S>
    ) -> DefinitionDraft<S, E, Effect> {
        DefinitionDraft(initialState: next.state, body: accumulated)
    }

    /// A second initial state: not allowed.
    ///
    /// - Parameters:
    ///   - accumulated: The block so far, which has its initial state.
    ///   - next: Another initial state.
    /// - Returns: Nothing: this does not compile.
    @available(*, unavailable, message: "a definition names its initial state once: remove the second one")
    public static func buildPartialBlock(
        accumulated: DefinitionDraft<S, E, Effect>, next: InitialState<S>
    ) -> DefinitionDraft<S, E, Effect> {
        fatalError("unavailable")
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

    /// A `for` loop.
    ///
    /// - Parameter bodies: What each pass built.
    /// - Returns: All of it, in order.
    @inlinable
    public static func buildArray(_ bodies: [DefinitionBody<S, E, Effect>]) -> DefinitionBody<S, E, Effect> {
        DefinitionBody(bodies.flatMap(\.components))
    }

    /// An `if #available` block.
    ///
    /// - Parameter body: What the block built.
    /// - Returns: The same.
    @inlinable
    public static func buildLimitedAvailability(_ body: DefinitionBody<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        body
    }
}

/// A definition's block that names its initial state: what
/// ``DefinitionBuilder`` makes of `InitialState(.idle)` (or Tinder's
/// `initialState(.idle)`) and the groups around it.
///
/// The builder makes these; you do not make one yourself.
public struct DefinitionDraft<S: StateType, E: EventType, Effect> {
    @usableFromInline var initialState: S
    @usableFromInline var body: DefinitionBody<S, E, Effect>

    @inlinable
    init(initialState: S, body: DefinitionBody<S, E, Effect>) {
        self.initialState = initialState
        self.body = body
    }
}
