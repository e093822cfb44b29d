/// "From this state": a group of ``On`` clauses that the machine takes while
/// in the group's state, and, nested inside, the state's children.
///
/// ```swift
/// From(.solid) {
///     On(.melt, transitionTo: .liquid, emit: .logMelted)
/// }
/// From(.any) {                                   // every state
///     On(.reset, transitionTo: .solid)
/// }
/// From(Document.draft) {                         // every .draft(_), whatever its values
///     On(.submit) { draft, _ in .review(draft.version) }
/// }
/// From(Loading.self) {                           // the case that carries a Loading
///     On(Loaded.self) { loading, loaded in .showing(Page(number: loading.page, items: loaded.items)) }
/// }
/// ```
///
/// A `From` for one state may declare children: a `From` (or ``Parallel``)
/// inside it makes its state a child, in the order written, exactly as
/// ``Machine/addChildren(_:to:initial:)`` does. The first child is entered by
/// default unless `initial` names another, and `history` keeps
/// ``HistoryKind/shallow`` or ``HistoryKind/deep`` history:
///
/// ```swift
/// From(.active, history: .shallow) {
///     On(.stop, transitionTo: .stopped)       // from either child
///     From(.playing) { On(.pause, transitionTo: .paused) }
///     From(.paused) { On(.play, transitionTo: .playing) }
/// }
/// ```
///
/// `View` is what the clauses' closures see the state as: the state type, or,
/// for `From(Loading.self)`, `Loading`.
public struct From<S: StateType, E: EventType, Effect, View> {
    @usableFromInline var draft: GroupDraft<S, E, Effect>

    @inlinable
    init(_ draft: GroupDraft<S, E, Effect>) {
        self.draft = draft
    }

    /// Turns every clause of the group off, its children's included, while
    /// `disabled` returns `true`: Feedbacks' `.disable { … }`.
    ///
    /// ```swift
    /// From(.saved) {
    ///     On(.refresh, transitionTo: .loading)
    /// }
    /// .disable { !user.isSuperUser }
    /// ```
    ///
    /// Entry and exit effects are not clauses: they stay on.
    ///
    /// - Parameter disabled: Whether the group is off now; asked on every
    ///   request one of its clauses could answer.
    /// - Returns: The group, with its switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> From {
        var copy = self
        copy.draft.disabled = either(draft.disabled, disabled)
        return copy
    }
}

extension From where View == S {
    /// The clauses the machine takes in `states`, and, for one state, its children.
    ///
    /// - Parameters:
    ///   - states: The states; the clauses apply in each of them.
    ///   - initial: The child entered by default; the first child if `nil`.
    ///   - history: The history the state keeps; none if `nil`.
    ///   - historyDefault: What the history enters before it has recorded
    ///     anything: any descendant (see ``Machine/addHistory(_:to:default:)``);
    ///     the initial child if `nil`.
    ///   - content: The clauses, child states, and entry and exit effects.
    /// - Precondition: `initial` and `history` need one state with children,
    ///   `historyDefault` needs `history`, and children need one state; each
    ///   misuse stops with a message naming it.
    @inlinable
    public init(
        _ states: S..., initial: S? = nil, history: HistoryKind? = nil, historyDefault: S? = nil,
        @ClauseBuilder<S, E, Effect, S> _ content: () -> DefinitionBody<S, E, Effect>
    ) {
        self.init(
            GroupDraft(
                source: .values(states), isParallel: false, initial: initial, history: history,
                historyDefault: historyDefault, content: content().components))
    }

    /// The clauses the machine takes in every state (`.any`): tried after the
    /// clauses of the current state.
    ///
    /// - Parameters:
    ///   - state: `.any` (or `.some(state)`, the same as the state itself).
    ///   - content: The clauses.
    @inlinable
    public init(_ state: State<S>, @ClauseBuilder<S, E, Effect, S> _ content: () -> DefinitionBody<S, E, Effect>) {
        let source: GroupDraft<S, E, Effect>.Source
        switch state {
        case .some(let value): source = .values([value])
        case .any: source = .any
        }
        self.init(
            GroupDraft(source: source, isParallel: false, initial: nil, history: nil, content: content().components))
    }

    /// The clauses the machine takes in every state of the case `embed`
    /// builds (`Document.draft`), whatever its associated values.
    ///
    /// The case is found without macros: see "Matching enum cases" in
    /// <doc:DefinitionDSL>.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor, such as `Document.draft`.
    ///   - content: The clauses; their closures see the whole state.
    @inlinable
    public init<each Payload>(
        _ embed: @escaping (repeat each Payload) -> S,
        @ClauseBuilder<S, E, Effect, S> _ content: () -> DefinitionBody<S, E, Effect>
    ) {
        self.init(
            GroupDraft(
                source: .pattern(.of(embed)), isParallel: false, initial: nil, history: nil,
                content: content().components))
    }
}

extension From {
    /// The clauses the machine takes in the states whose case carries a
    /// `View`: `From(Loading.self)` for `case loading(Loading)`. Their
    /// closures are handed that `Loading`.
    ///
    /// The state type's own type (`From(Screen.self)`) stands for every state.
    ///
    /// - Parameters:
    ///   - payload: The type the state's case carries.
    ///   - content: The clauses.
    @inlinable
    public init(_ payload: View.Type, @ClauseBuilder<S, E, Effect, View> _ content: () -> DefinitionBody<S, E, Effect>)
    {
        let source: GroupDraft<S, E, Effect>.Source
        if View.self == S.self {
            source = .any
        } else {
            source = .pattern(.carrying(payload))
        }
        self.init(
            GroupDraft(source: source, isParallel: false, initial: nil, history: nil, content: content().components))
    }
}
