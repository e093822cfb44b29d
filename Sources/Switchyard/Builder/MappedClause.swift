/// One clause of a definition's route mapping, in an object of its own so
/// that a request reads its fields and calls its closures where they lie: a
/// clause copied out of an array retains every closure and pattern it holds.
///
/// The closures are also kept apart from the clause's enums and optionals,
/// each in a `let` of its own (a placeholder where the clause has none): a
/// closure bound out of an enum's payload or an optional is retained for the
/// call, one called straight from a `let` is not.
///
/// Whether the clause covers a request is for
/// ``MappedClauses/first(among:entry:from:in:on:refused:answer:)`` to
/// decide; the methods here say what it does once it does.
@usableFromInline
final class MappedClause<S: StateType, E: EventType, Effect> {
    /// How the clause finds its target.
    @usableFromInline
    enum TargetKind {
        case fixed, computedState, computed
    }

    /// Where the clause was written among the definition's clauses.
    @usableFromInline let index: Int
    @usableFromInline let clause: Clause<S, E, Effect>
    @usableFromInline let targetKind: TargetKind
    /// The target of a `.fixed` clause; `nil` stays.
    @usableFromInline let fixedTarget: S?
    /// The closure of a `.computedState` clause.
    @usableFromInline let computeState: (S, E) -> S?
    /// The closure of a `.computed` clause.
    @usableFromInline let compute: (S, E) -> Reaction<S, Effect>?
    /// Whether the clause has guards or `disable` conditions, which
    /// `allows` then asks.
    @usableFromInline let isGuarded: Bool
    @usableFromInline let allows: (S, E) -> Bool

    init(index: Int, clause: Clause<S, E, Effect>) {
        self.index = index
        self.clause = clause
        var fixedTarget: S?
        var computeState: (S, E) -> S? = { _, _ in nil }
        var compute: (S, E) -> Reaction<S, Effect>? = { _, _ in nil }
        switch clause.target {
        case .fixed(let target):
            targetKind = .fixed
            fixedTarget = target
        case .computedState(let body):
            targetKind = .computedState
            computeState = body
        case .computed(let body):
            targetKind = .computed
            compute = body
        }
        self.fixedTarget = fixedTarget
        self.computeState = computeState
        self.compute = compute
        self.isGuarded = clause.condition != nil
        self.allows = clause.condition ?? { _, _ in true }
    }

    /// What the clause does in `state` on `event`: its position among the
    /// definition's clauses and its reaction; `nil` if its closure refuses.
    @inlinable
    @inline(__always)
    func reaction(_ state: S, _ event: E) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        clause.react(state, event).map { (index, $0) }
    }

    /// Where the clause takes the machine from `state` on `event` (`state`
    /// itself for a stay), without its effects; `nil` if its closure refuses.
    /// A computed clause's reaction makes effects that cannot be looked up
    /// by the clause later: they are handed to `keeper`, if any.
    @inlinable
    @inline(__always)
    func target(_ state: S, _ event: E, keepingEffectsIn keeper: DefinitionMapping<S, E, Effect>?) -> S? {
        switch targetKind {
        case .fixed: return fixedTarget ?? state
        case .computedState: return computeState(state, event)
        case .computed:
            guard let reaction = compute(state, event) else { return nil }
            if let keeper {
                let own = clause.effects
                keeper.computedEffects = own.isEmpty ? reaction.effects : own + reaction.effects
            }
            return reaction.toState ?? state
        }
    }
}
