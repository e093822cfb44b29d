/// What the blocks of a definition hold, in the order written: the clauses
/// of a `From`, its child states, its entry and exit effects, or the groups
/// of a whole definition.
///
/// The builders make these; you do not make one yourself.
public struct DefinitionBody<S: StateType, E: EventType, Effect> {
    @usableFromInline var components: [DefinitionComponent<S, E, Effect>]

    @inlinable
    init(_ components: [DefinitionComponent<S, E, Effect>]) {
        self.components = components
    }
}

/// One thing a definition's block says.
@usableFromInline
enum DefinitionComponent<S: StateType, E: EventType, Effect> {
    /// An `On`: its state side comes from the enclosing `From`.
    case clause(ClauseDraft<S, E, Effect>)
    /// A `From` or `Parallel`; inside another, it declares a child state.
    case group(GroupDraft<S, E, Effect>)
    /// Effects emitted when the enclosing state is entered (or exited).
    case lifecycle(entering: Bool, effects: [Effect])
    /// An `OnDone` or an `Always`: its state side comes from the enclosing `From`.
    case completion(CompletionDraft<S, Effect>)
    /// A `Transitions` block: its components, all disabled while `disabled` says so.
    case section([DefinitionComponent], disabled: (() -> Bool)?)
    /// An observer every ``EffectMachine`` made from the definition registers.
    case observer(EffectMachine<S, E, Effect>.Transition.Callback)
}

/// An `On` before the definition gives it its state side.
@usableFromInline
struct ClauseDraft<S: StateType, E: EventType, Effect> {
    @usableFromInline var event: ClauseSide<E>
    @usableFromInline var condition: ((S, E) -> Bool)?
    @usableFromInline var target: ClauseTarget<S, E, Effect>
    @usableFromInline var entering: Entering<S>
    @usableFromInline var effects: [Effect]

    @inlinable
    init(
        event: ClauseSide<E>, target: ClauseTarget<S, E, Effect>, entering: Entering<S> = Entering(),
        effects: [Effect]
    ) {
        self.event = event
        self.condition = nil
        self.target = target
        self.entering = entering
        self.effects = effects
    }
}

/// A `From`, a `Parallel` or a `Final`, before the definition flattens it.
@usableFromInline
struct GroupDraft<S: StateType, E: EventType, Effect> {
    /// The states the group's clauses leave from.
    @usableFromInline
    enum Source {
        case values([S])
        case any
        case pattern(CasePattern<S>)
    }

    @usableFromInline var source: Source
    @usableFromInline var isParallel: Bool
    @usableFromInline var initial: S?
    @usableFromInline var history: HistoryKind?
    /// What the history enters before it has recorded anything.
    @usableFromInline var historyDefault: S?
    @usableFromInline var content: [DefinitionComponent<S, E, Effect>]
    /// Whether the group is a `Final`.
    @usableFromInline var isFinal = false
    /// The group's `disable` conditions, any of which turns its clauses off.
    @usableFromInline var disabled: (() -> Bool)?

    @inlinable
    init(
        source: Source, isParallel: Bool, initial: S?, history: HistoryKind?, historyDefault: S? = nil,
        content: [DefinitionComponent<S, E, Effect>]
    ) {
        self.source = source
        self.isParallel = isParallel
        self.initial = initial
        self.history = history
        self.historyDefault = historyDefault
        self.content = content
        self.disabled = nil
    }
}
