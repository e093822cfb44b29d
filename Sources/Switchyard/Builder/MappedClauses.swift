/// The clauses a definition answers with its route mapping (computed targets,
/// case and type patterns), in the order they are tried, and how it tries them.
///
/// Every path finds its clause with the one search,
/// ``first(among:entry:from:in:on:refused:answer:)``: the pure function
/// through ``answer(_:_:refused:)``, a machine's mapping (plain or an effect
/// machine's) through ``mappingAnswer(_:_:keepingEffectsIn:)``, by the
/// per-case ``CaseDispatch`` when the state is an enum, without building a
/// ``Reaction``. They differ only in the lists they search and in what they
/// ask of the clause found.
@usableFromInline
struct MappedClauses<S: StateType, E: EventType, Effect> {
    /// A clause to try, and whether its state side must be matched on each
    /// request (always, but for `.any`, and for a case whose clauses a
    /// ``CaseDispatch`` has already sorted by case).
    @usableFromInline
    struct Entry {
        /// Kept alive by the `mapped` of the ``MappedClauses`` that made it.
        @usableFromInline var clause: Unretained<MappedClause<S, E, Effect>>
        @usableFromInline var comparesState: Bool

        @inlinable
        init(_ clause: MappedClause<S, E, Effect>, comparesState: Bool) {
            self.clause = Unretained(clause)
            self.comparesState = comparesState
        }
    }

    @usableFromInline var clauses: [Clause<S, E, Effect>]
    /// The indices of the clauses to try: those from a state or a pattern
    /// before those from `.any`; within each, the most specific event first,
    /// then the most specific state, then the order written.
    @usableFromInline var order: [Int]
    /// Each nested state's parent: a clause of an ancestor applies too.
    @usableFromInline var parents: [S: S]
    /// Every clause of `order`, in that order: the entries and the dispatch
    /// read them unretained, so they live here.
    var mapped: [MappedClause<S, E, Effect>]
    /// Without a dispatch: the clauses from a state or a pattern, in
    /// `order`, tried on the state and on each of its ancestors.
    @usableFromInline var stateEntries: [Entry]
    /// Without a dispatch: the clauses from `.any`, in `order`, tried last.
    @usableFromInline var rootEntries: [Entry]
    /// The clauses worth trying for each case of the state, for a flat
    /// definition whose state type is an enum; `nil` otherwise.
    @usableFromInline var dispatch: CaseDispatch<S, E, Effect>?

    init(clauses: [Clause<S, E, Effect>], parents: [S: S]) {
        self.clauses = clauses
        self.parents = parents
        // SPEC §2's order, a walk of the state then the root: the clauses
        // from `.any` after the others; on each, as ranked.
        let order = clauses.indices.filter { !clauses[$0].isRoute }.sorted { first, second in
            let (one, other) = (clauses[first], clauses[second])
            if one.isFromAny != other.isFromAny { return other.isFromAny }
            if one.event.rank != other.event.rank { return one.event.rank < other.event.rank }
            if one.source.rank != other.source.rank { return one.source.rank < other.source.rank }
            return one.order < other.order
        }
        self.order = order
        let ordered = order.map { MappedClause(index: $0, clause: clauses[$0]) }
        self.mapped = ordered
        self.stateEntries = []
        self.rootEntries = []
        self.dispatch = nil
        if parents.isEmpty, !order.isEmpty, let reader = EnumCaseReader(for: S.self) {
            dispatch = CaseDispatch(reader: reader, clauses: ordered)
            return
        }
        for clause in ordered {
            if clause.clause.isFromAny {
                rootEntries.append(Entry(clause, comparesState: false))
            } else {
                stateEntries.append(Entry(clause, comparesState: true))
            }
        }
    }

    @inlinable
    var isEmpty: Bool { order.isEmpty }

    /// The first clause that takes `event` in `state`, and what it does.
    ///
    /// The order is the machine's for routes (SPEC §2, §3.2), whether the
    /// definition nests states or not (a flat one is the walk of one state):
    /// the clauses that hold the state (its own and its patterns') first,
    /// then its ancestors', innermost first, then those of `.any` (the
    /// root); on each, the event's before an event pattern's before any
    /// event's, then a state's before a pattern's, then the order written.
    /// A clause refuses when a guard or
    /// `disable` says so, or its closure returns `nil`; `refused` then becomes
    /// `true`, and the next clause is tried.
    ///
    /// - Complexity: O(*n* × *d*) in the clauses tried and the state's depth;
    ///   a pattern's first value of each case reflects.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        if let dispatch {
            return dispatch.answer(state, event, refused: &refused)
        }
        return search(state, event, refused: &refused) { $0.reaction(state, event) }
    }

    /// What a machine's route mapping answers `event` in `state`: the
    /// target of the first clause that takes it (`state` itself for a stay)
    /// and the clause's place, in the order ``answer(_:_:refused:)`` tries
    /// them, without building its reaction (a computed clause's effects are
    /// handed to `keeper`); a refusal when clauses cover the request and
    /// refuse it.
    @inlinable
    func mappingAnswer(_ state: S, _ event: E, keepingEffectsIn keeper: DefinitionMapping<S, E, Effect>?)
        -> MappingAnswer<S>
    {
        if let dispatch {
            return dispatch.mappingAnswer(state, event, keepingEffectsIn: keeper)
        }
        var refused = false
        let found = search(state, event, refused: &refused) { clause in
            clause.target(state, event, keepingEffectsIn: keeper).map { (target: $0, clause: clause.index) }
        }
        guard let found else { return refused ? .refused : .none }
        return .move(to: found.target, clause: Int32(found.clause))
    }

    /// The first clause that takes `event` in `state` without a dispatch,
    /// and what `answer` makes of it, in the order ``answer(_:_:refused:)`` says.
    /// The walk is the engine's (``walkOutward(from:parent:_:)``), up this
    /// definition's `parents`.
    @inlinable
    func search<Answer>(
        _ state: S, _ event: E, refused: inout Bool, answer: (MappedClause<S, E, Effect>) -> Answer?
    ) -> Answer? {
        walkOutward(from: state, parent: { parents.isEmpty ? nil : parents[$0] }) { level in
            guard let level else {
                return Self.first(
                    among: rootEntries.indices, entry: { rootEntries[$0] }, from: state, in: state, on: event,
                    refused: &refused, answer: answer)
            }
            return Self.first(
                among: stateEntries.indices, entry: { stateEntries[$0] }, from: level, in: state, on: event,
                refused: &refused, answer: answer)
        }
    }

    /// The first clause among the entries at `positions` (read with `entry`,
    /// in order) that takes `event` in `state`, and what `answer` makes of
    /// it: the one search of every path.
    ///
    /// A clause takes the request when its state side holds `source` (only
    /// asked if its entry says so), its event side holds `event`, its guards
    /// and `disable` conditions allow `state` and `event`, and `answer` does
    /// not return `nil`. When a clause covers the request but a condition or
    /// `answer` refuses, `refused` becomes `true` and the next one is tried.
    /// `source` is `state`, or, with nested states, the ancestor whose
    /// clauses are being tried.
    ///
    /// Each entry is read when it is reached, not before: a condition may ask
    /// the same clauses another question, which may learn a new case's list.
    @inlinable
    @inline(__always)
    static func first<Answer>(
        among positions: Range<Int>, entry: (Int) -> Entry, from source: S, in state: S, on event: E,
        refused: inout Bool, answer: (MappedClause<S, E, Effect>) -> Answer?
    ) -> Answer? {
        var position = positions.lowerBound
        while position < positions.upperBound {
            let entry = entry(position)
            position &+= 1
            let found = entry.clause.withObject { clause -> Answer? in
                if entry.comparesState, !clause.clause.source.contains(source) {
                    return nil
                }
                guard clause.clause.event.contains(event) else {
                    return nil
                }
                if clause.isGuarded, !clause.allows(state, event) {
                    refused = true
                    return nil
                }
                guard let found = answer(clause) else {
                    refused = true
                    return nil
                }
                return found
            }
            if let found {
                return found
            }
        }
        return nil
    }

    /// The same clauses with patterns that have learned nothing, for a machine of its own.
    @usableFromInline
    func fresh() -> MappedClauses {
        let clauses = clauses.map { clause in
            var clause = clause
            clause.source = clause.source.fresh()
            clause.event = clause.event.fresh()
            return clause
        }
        return MappedClauses(clauses: clauses, parents: parents)
    }
}
