/// The clauses a definition answers with its route mapping (computed targets,
/// case and type patterns), in the order they are tried, and how it tries them.
///
/// The machine's mapping and the pure function both answer through
/// ``answer(_:_:refused:)``, so they cannot disagree.
@usableFromInline
struct MappedClauses<S: StateType, E: EventType, Effect> {
    @usableFromInline var clauses: [Clause<S, E, Effect>]
    /// The indices of the clauses to try: the most specific event first, then
    /// the most specific state, then the order written.
    @usableFromInline var order: [Int]
    /// Each nested state's parent: a clause of an ancestor applies too.
    @usableFromInline var parents: [S: S]

    @usableFromInline
    init(clauses: [Clause<S, E, Effect>], parents: [S: S]) {
        self.clauses = clauses
        self.parents = parents
        self.order = clauses.indices.filter { !clauses[$0].isRoute }.sorted { first, second in
            let (one, other) = (clauses[first], clauses[second])
            if one.event.rank != other.event.rank { return one.event.rank < other.event.rank }
            if one.source.rank != other.source.rank { return one.source.rank < other.source.rank }
            return one.order < other.order
        }
    }

    @inlinable
    var isEmpty: Bool { order.isEmpty }

    /// The first clause that takes `event` in `state`, and what it does.
    ///
    /// The state's own clauses come first, then its ancestors', innermost
    /// first, then those of `.any`; on each, the event's clauses before those
    /// of an event pattern before those of `.any`. A clause refuses when a
    /// guard or `disable` says so, or its closure returns `nil`; `refused` then
    /// becomes `true`, and the next clause is tried.
    ///
    /// - Complexity: O(*n* × *d*) in the clauses tried and the state's depth;
    ///   a pattern's first value of each case reflects.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        var level: S? = state
        while let current = level {
            for index in order {
                let clause = clauses[index]
                if case .any = clause.source { continue }
                guard clause.source.contains(current), clause.event.contains(event) else { continue }
                if let reaction = react(clause, state, event, refused: &refused) {
                    return (index, reaction)
                }
            }
            level = parents.isEmpty ? nil : parents[current]
        }
        for index in order {
            let clause = clauses[index]
            guard case .any = clause.source, clause.event.contains(event) else { continue }
            if let reaction = react(clause, state, event, refused: &refused) {
                return (index, reaction)
            }
        }
        return nil
    }

    @inlinable
    func react(_ clause: Clause<S, E, Effect>, _ state: S, _ event: E, refused: inout Bool) -> Reaction<S, Effect>? {
        guard clause.allows(state, event), let reaction = clause.react(state, event) else {
            refused = true
            return nil
        }
        return reaction
    }

    /// The same clauses with patterns that have learned nothing, for a machine of its own.
    @usableFromInline
    func fresh() -> MappedClauses {
        var copy = self
        copy.clauses = clauses.map { clause in
            var clause = clause
            clause.source = clause.source.fresh()
            clause.event = clause.event.fresh()
            return clause
        }
        return copy
    }
}
