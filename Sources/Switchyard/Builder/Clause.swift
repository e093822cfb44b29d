/// One side of a clause: the state it leaves from, or the event it answers.
@usableFromInline
enum ClauseSide<Value: Hashable> {
    /// Exactly this value.
    case value(Value)
    /// Every value: `.any`.
    case any
    /// Every value of a case (`Document.draft`) or of the cases carrying a type (`Loading.self`).
    case pattern(CasePattern<Value>)

    /// How specific the side is, for ordering: a value (0) before a pattern
    /// (1) before `.any` (2).
    @inlinable
    var rank: Int {
        switch self {
        case .value: 0
        case .pattern: 1
        case .any: 2
        }
    }

    /// Whether `value` is on this side.
    @inlinable
    func contains(_ value: Value) -> Bool {
        switch self {
        case .value(let own): own == value
        case .any: true
        case .pattern(let pattern): pattern.matches(value)
        }
    }

    /// The same side with a pattern that has learned nothing yet, so that a
    /// machine keeps its own verdicts.
    func fresh() -> ClauseSide {
        if case .pattern(let pattern) = self {
            return .pattern(pattern.fresh())
        }
        return self
    }

    /// How the side was written, for messages.
    var name: String {
        switch self {
        case .value(let value): "\(value)"
        case .any: ".any"
        case .pattern(let pattern): pattern.name
        }
    }
}

/// Where a clause leads.
@usableFromInline
enum ClauseTarget<S: StateType, E: EventType, Effect> {
    /// To this state, or, for `nil`, nowhere: the machine stays. The clause's
    /// effects are its own.
    case fixed(S?)
    /// Wherever the closure says, given the current state and the event;
    /// `nil` refuses. The clause's effects come before the reaction's.
    case computed((S, E) -> Reaction<S, Effect>?)
    /// Wherever the closure says, emitting only the clause's effects: a
    /// computed target without a ``Reaction`` to wrap, one call fewer.
    case computedState((S, E) -> S?)
}

/// How a clause with a fixed target enters it, as its `alsoEntering:` and
/// `ignoringHistory:` arguments say: the operator API's
/// ``Transition/alsoEntering(_:)`` and ``Transition/ignoringHistory(_:)``.
@usableFromInline
struct Entering<S: StateType> {
    /// The targets in other regions of the parallel state that holds the target.
    @usableFromInline var otherTargets: [S]
    /// Whether the target is entered by its initial child even if it keeps history.
    @usableFromInline var ignoresHistory: Bool

    @inlinable
    init(otherTargets: [S] = [], ignoresHistory: Bool = false) {
        self.otherTargets = otherTargets
        self.ignoresHistory = ignoresHistory
    }

    /// Whether the target is entered as a plain `from => to` enters it.
    @inlinable
    var isPlain: Bool { otherTargets.isEmpty && !ignoresHistory }

    /// The move from `source` to `target`, as the operator API writes it:
    /// `(source => target).alsoEntering(…)`, inside `.ignoringHistory(…)`.
    @inlinable
    func transition(from source: State<S>, to target: State<S>) -> Transition<S> {
        Transition(
            fromState: source, toState: target, isLocal: false, otherTargets: otherTargets,
            ignoresHistory: ignoresHistory)
    }

    /// The arguments that say it, for messages: `, alsoEntering: b, ignoringHistory: true`.
    var written: String {
        (otherTargets.isEmpty ? "" : ", alsoEntering: " + otherTargets.map { "\($0)" }.joined(separator: ", "))
            + (ignoresHistory ? ", ignoringHistory: true" : "")
    }
}

/// One "from this state, on this event, go there and emit this", as the
/// definition flattens it: the state side given by the enclosing `From`, the
/// conditions of every enclosing group folded into one.
@usableFromInline
struct Clause<S: StateType, E: EventType, Effect> {
    @usableFromInline var source: ClauseSide<S>
    @usableFromInline var event: ClauseSide<E>
    /// Guards and `disable` conditions, all of which must allow the move;
    /// `nil` for none.
    @usableFromInline var condition: ((S, E) -> Bool)?
    @usableFromInline var target: ClauseTarget<S, E, Effect>
    /// How a fixed target is entered; plain for the others.
    @usableFromInline var entering: Entering<S>
    @usableFromInline var effects: [Effect]
    /// Where the clause was written among the definition's clauses.
    var order: Int

    init(
        source: ClauseSide<S>, event: ClauseSide<E>, condition: ((S, E) -> Bool)?,
        target: ClauseTarget<S, E, Effect>, entering: Entering<S> = Entering(), effects: [Effect], order: Int
    ) {
        self.source = source
        self.event = event
        self.condition = condition
        self.target = target
        self.entering = entering
        self.effects = effects
        self.order = order
    }

    /// Whether the clause becomes a route (`from => to` for its event): a
    /// fixed target, and a value or `.any` on both sides. Every other clause
    /// is answered by the definition's route mapping.
    @inlinable
    var isRoute: Bool {
        guard case .fixed = target else { return false }
        if case .pattern = source { return false }
        if case .pattern = event { return false }
        return true
    }

    /// Whether the clause leaves from `.any`: the root's, tried after every
    /// state's on the walk. Read only when a definition is made, in the library.
    var isFromAny: Bool {
        if case .any = source { return true }
        return false
    }

    /// Whether the clause's conditions allow the move.
    @inlinable
    func allows(_ state: S, _ event: E) -> Bool {
        condition?(state, event) ?? true
    }

    /// What the clause does in `state` on `event`, once its sides and
    /// conditions have matched: `nil` if its closure refuses.
    @inlinable
    func react(_ state: S, _ event: E) -> Reaction<S, Effect>? {
        switch target {
        case .fixed(let target):
            return Reaction(toState: target, effects: effects)
        case .computedState(let body):
            guard let target = body(state, event) else { return nil }
            return Reaction(toState: target, effects: effects)
        case .computed(let body):
            guard let reaction = body(state, event) else { return nil }
            if effects.isEmpty {
                return reaction
            }
            return Reaction(toState: reaction.toState, effects: effects + reaction.effects)
        }
    }
}

/// Folds two optional conditions into one that needs both.
@usableFromInline
func both<S, E>(_ first: ((S, E) -> Bool)?, _ second: ((S, E) -> Bool)?) -> ((S, E) -> Bool)? {
    guard let first else { return second }
    guard let second else { return first }
    return { first($0, $1) && second($0, $1) }
}

/// Folds two optional `disable` conditions into one that holds when either does.
@usableFromInline
func either(_ first: (() -> Bool)?, _ second: (() -> Bool)?) -> (() -> Bool)? {
    guard let first else { return second }
    guard let second else { return first }
    return { first() || second() }
}
