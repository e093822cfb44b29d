/// A clause that reacts to no event: an ``OnDone`` or an ``Always``, as the
/// definition flattens it, with the state side given by the enclosing `From`
/// and the `disable` conditions of every enclosing group folded in.
@usableFromInline
struct CompletionClause<S: StateType, Effect> {
    /// What the clause reacts to.
    @usableFromInline
    enum Kind {
        /// Its source being done: a route added with ``Machine/addDoneRoute(_:condition:action:)``.
        case done
        /// Nothing: a route added with ``Machine/addEventlessRoute(_:condition:action:)``.
        case eventless
    }

    @usableFromInline var kind: Kind
    /// The state it leaves from: a state, or `.any` (the root).
    @usableFromInline var source: State<S>
    @usableFromInline var target: S
    @usableFromInline var entering: Entering<S>
    /// Guards and `disable` conditions, given the machine's state; `nil` for none.
    @usableFromInline var condition: ((S) -> Bool)?
    @usableFromInline var effects: [Effect]

    @inlinable
    init(
        kind: Kind, source: State<S>, target: S, entering: Entering<S>, condition: ((S) -> Bool)?, effects: [Effect]
    ) {
        self.kind = kind
        self.source = source
        self.target = target
        self.entering = entering
        self.condition = condition
        self.effects = effects
    }

    /// The clause's move, as the operator API writes it.
    @inlinable
    var transition: Transition<S> {
        entering.transition(from: source, to: .some(target))
    }

    /// How the clause is written, for messages.
    var written: String {
        switch kind {
        case .done: "OnDone(transitionTo: \(target)\(entering.written))"
        case .eventless: "Always(transitionTo: \(target)\(entering.written))"
        }
    }
}

/// An ``OnDone`` or an ``Always`` before the definition gives it its state side.
@usableFromInline
struct CompletionDraft<S: StateType, Effect> {
    @usableFromInline var kind: CompletionClause<S, Effect>.Kind
    @usableFromInline var target: S
    @usableFromInline var entering: Entering<S>
    @usableFromInline var condition: ((S) -> Bool)?
    @usableFromInline var effects: [Effect]

    @inlinable
    init(kind: CompletionClause<S, Effect>.Kind, target: S, entering: Entering<S>, effects: [Effect]) {
        self.kind = kind
        self.target = target
        self.entering = entering
        self.condition = nil
        self.effects = effects
    }

    /// The draft with `condition` added to its conditions.
    @inlinable
    func adding(_ condition: @escaping (S) -> Bool) -> CompletionDraft {
        var copy = self
        if let earlier = self.condition {
            copy.condition = { earlier($0) && condition($0) }
        } else {
            copy.condition = condition
        }
        return copy
    }
}
