/// The clauses a definition answers with its route mapping (computed targets,
/// case and type patterns), in the order they are tried, and how it tries them.
///
/// The pure function answers through ``answer(_:_:refused:)``. A machine's
/// mapping answers through the same clause order, by the per-case
/// ``CaseDispatch`` when the state is an enum (without building a
/// ``Reaction`` for a plain machine); the equivalence tests hold the three
/// paths to the same decisions.
@usableFromInline
struct MappedClauses<S: StateType, E: EventType, Effect> {
    @usableFromInline var clauses: [Clause<S, E, Effect>]
    /// The indices of the clauses to try: the most specific event first, then
    /// the most specific state, then the order written.
    @usableFromInline var order: [Int]
    /// Each nested state's parent: a clause of an ancestor applies too.
    @usableFromInline var parents: [S: S]
    /// The clauses worth trying for each case of the state, for a flat
    /// definition whose state type is an enum; `nil` otherwise.
    @usableFromInline var dispatch: CaseDispatch<S, E, Effect>?

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
        self.dispatch = nil
        if parents.isEmpty, !order.isEmpty, let reader = EnumCaseReader(for: S.self) {
            dispatch = CaseDispatch(reader: reader, clauses: clauses, order: order)
        }
    }

    @inlinable
    var isEmpty: Bool { order.isEmpty }

    /// The first clause that takes `event` in `state`, and what it does.
    ///
    /// In a flat definition the order is the machine's order for routes: the
    /// event's clauses before those of an event pattern before those of
    /// `.any`; within each, a state's before a pattern's before `.any`'s; then
    /// the order written. With nested states, as for a statechart's routes,
    /// the state's own clauses come first, then its ancestors', innermost
    /// first, then those of `.any` (the root); on each, the event's before an
    /// event pattern's before `.any`'s. A clause refuses when a guard or
    /// `disable` says so, or its closure returns `nil`; `refused` then becomes
    /// `true`, and the next clause is tried.
    ///
    /// - Complexity: O(*n* × *d*) in the clauses tried and the state's depth;
    ///   a pattern's first value of each case reflects.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        // The clauses are read in place, not copied: a copy retains every
        // closure and pattern a clause holds.
        if let dispatch {
            return dispatch.answer(state, event, refused: &refused)
        }
        return clauses.withUnsafeBufferPointer { clauses in
            if parents.isEmpty {
                for index in order {
                    guard clauses[index].source.contains(state), clauses[index].event.contains(event) else { continue }
                    if let reaction = react(clauses[index], state, event, refused: &refused) {
                        return (index, reaction)
                    }
                }
                return nil
            }
            var level: S? = state
            while let current = level {
                for index in order {
                    if case .any = clauses[index].source { continue }
                    guard clauses[index].source.contains(current), clauses[index].event.contains(event) else {
                        continue
                    }
                    if let reaction = react(clauses[index], state, event, refused: &refused) {
                        return (index, reaction)
                    }
                }
                level = parents[current]
            }
            for index in order {
                guard case .any = clauses[index].source, clauses[index].event.contains(event) else { continue }
                if let reaction = react(clauses[index], state, event, refused: &refused) {
                    return (index, reaction)
                }
            }
            return nil
        }
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
        if let reader = dispatch?.reader {
            copy.dispatch = CaseDispatch(reader: reader, clauses: copy.clauses, order: order)
        }
        return copy
    }
}
