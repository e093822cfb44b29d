/// Builds the block of a ``From`` or a ``Parallel``: its ``On``, ``OnDone``
/// and ``Always`` clauses, its child states (a `From`, `Parallel` or
/// ``Final`` inside a `From`), and its ``OnEntry`` and ``OnExit`` effects,
/// with `if`, `if`/`else`, `switch`, `for` and optional clauses.
///
/// ```swift
/// From(.editing) {
///     On(.save, transitionTo: .saving, emit: .persist)
///     if allowsDrafts {
///         On(.close, transitionTo: .draft)
///     }
///     for shortcut in shortcuts {
///         On(.key(shortcut), stayAndEmit: .run(shortcut))
///     }
/// }
/// ```
///
/// `View` is the type the clauses' closures see the current state as: the
/// state type itself, or, in `From(Loading.self)`, the associated value.
@resultBuilder
public enum ClauseBuilder<S: StateType, E: EventType, Effect, View> {
    /// A block: its parts in order.
    ///
    /// - Parameter parts: What each statement built.
    /// - Returns: Everything, in order.
    @inlinable
    public static func buildBlock(_ parts: DefinitionBody<S, E, Effect>...) -> DefinitionBody<S, E, Effect> {
        DefinitionBody(parts.flatMap(\.components))
    }

    /// An event clause.
    ///
    /// - Parameter clause: The clause.
    /// - Returns: The clause, as part of the block.
    @inlinable
    public static func buildExpression(_ clause: On<S, E, Effect, View>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.clause(clause.draft)])
    }

    /// An event clause that may be absent: `nil` adds nothing.
    ///
    /// - Parameter clause: The clause, or `nil`.
    /// - Returns: The clause, or nothing.
    @inlinable
    public static func buildExpression(_ clause: On<S, E, Effect, View>?) -> DefinitionBody<S, E, Effect> {
        DefinitionBody(clause.map { [.clause($0.draft)] } ?? [])
    }

    /// A child state: a `From` inside a `From`.
    ///
    /// - Parameter child: The child state's group.
    /// - Returns: The child, as part of the block.
    @inlinable
    public static func buildExpression<ChildView>(_ child: From<S, E, Effect, ChildView>) -> DefinitionBody<
        S, E, Effect
    > {
        DefinitionBody([.group(child.draft)])
    }

    /// A child state with regions.
    ///
    /// - Parameter child: The child state's group.
    /// - Returns: The child, as part of the block.
    @inlinable
    public static func buildExpression(_ child: Parallel<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.group(child.draft)])
    }

    /// A final child state.
    ///
    /// - Parameter child: The final state.
    /// - Returns: The child, as part of the block.
    @inlinable
    public static func buildExpression(_ child: Final<S, E, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.group(child.draft)])
    }

    /// A clause taken when the state is done.
    ///
    /// - Parameter clause: The clause.
    /// - Returns: The clause, as part of the block.
    @inlinable
    public static func buildExpression(_ clause: OnDone<S, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.completion(clause.draft)])
    }

    /// A clause with no event.
    ///
    /// - Parameter clause: The clause.
    /// - Returns: The clause, as part of the block.
    @inlinable
    public static func buildExpression(_ clause: Always<S, Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.completion(clause.draft)])
    }

    /// Effects emitted when the state is entered.
    ///
    /// - Parameter entry: The effects.
    /// - Returns: The effects, as part of the block.
    @inlinable
    public static func buildExpression(_ entry: OnEntry<Effect>) -> DefinitionBody<S, E, Effect> {
        DefinitionBody([.lifecycle(entering: true, effects: entry.effects)])
    }

    /// Effects emitted when the state is exited.
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
