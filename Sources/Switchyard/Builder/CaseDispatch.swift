/// The mapped clauses of a flat definition whose state is an enum, with the
/// clauses worth trying for each case of the state, learned from the first
/// value of each case: one indirect call and a read find them.
///
/// What a case's list holds is decided by case alone (a case pattern's
/// verdict is kept per case, see ``CasePattern``); a clause from one state
/// value stays in the list of that value's case and is compared with `==`.
/// The lists hold the clauses unretained (the ``MappedClauses`` that made
/// the dispatch keeps them, and so does `clauses`), so that a request
/// retains nothing, not even the closure it calls.
@usableFromInline
final class CaseDispatch<S: StateType, E: EventType, Effect> {
    @usableFromInline
    typealias Entry = MappedClauses<S, E, Effect>.Entry

    @usableFromInline let reader: EnumCaseReader
    /// Every mapped clause, in the order they are tried.
    let clauses: [MappedClause<S, E, Effect>]
    // Dynamic exclusivity checks are off, as in the machine: the lists are
    // read on every request and only written when a case is first seen, and
    // no access to them lasts across a call to user code.
    /// Each case's list, learned when a value of the case is first seen.
    @usableFromInline
    @exclusivity(unchecked) var lists = CaseListStorage<Entry>()

    init(reader: EnumCaseReader, clauses: [MappedClause<S, E, Effect>]) {
        self.reader = reader
        self.clauses = clauses
    }

    /// The first clause that takes `event` in `state`, and what it does, as
    /// ``MappedClauses/answer(_:_:refused:)`` says.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        MappedClauses.first(
            among: positions(ofCase: reader.caseIndex(of: state), from: state), entry: { lists[$0] }, from: state,
            in: state, on: event, refused: &refused
        ) { $0.reaction(state, event) }
    }

    /// What a machine's route mapping answers `event` in `state`: the
    /// target of the first clause that takes it (`state` itself for a stay)
    /// and the clause's place, without its effects (but a computed clause's,
    /// handed to `keeper`); a refusal when clauses cover the request and
    /// refuse it.
    ///
    /// Each of the first eight cases has a copy of the search of its own, and
    /// so calls its clauses' closures from call sites of its own. Called from
    /// one place, a closure chosen by the state's case makes the processor
    /// guess its address from that one indirect call; a machine going round
    /// its states changes the address on every request, and each wrong guess
    /// costs more than the rest of the call. From a call site per case, the
    /// address a site calls rarely changes. (Measured on `dsl-mapping`: one
    /// call site runs 9 instructions a request fewer, and 18 ns slower, 75
    /// against 57.)
    @inlinable
    func mappingAnswer(_ state: S, _ event: E, keepingEffectsIn keeper: DefinitionMapping<S, E, Effect>?)
        -> MappingAnswer<S>
    {
        // The copies differ by a constant, which keeps the compiler from
        // folding them back into one; and they are chosen by comparisons, not
        // by a `switch`, which would jump through a table: one more indirect
        // jump whose address changes with the case.
        let caseIndex = reader.caseIndex(of: state)
        if caseIndex < 4 {
            if caseIndex < 2 {
                return caseIndex == 0
                    ? mappingAnswer(state, event, inCase: 0, keeper) : mappingAnswer(state, event, inCase: 1, keeper)
            }
            return caseIndex == 2
                ? mappingAnswer(state, event, inCase: 2, keeper) : mappingAnswer(state, event, inCase: 3, keeper)
        }
        if caseIndex < 8 {
            if caseIndex < 6 {
                return caseIndex == 4
                    ? mappingAnswer(state, event, inCase: 4, keeper) : mappingAnswer(state, event, inCase: 5, keeper)
            }
            return caseIndex == 6
                ? mappingAnswer(state, event, inCase: 6, keeper) : mappingAnswer(state, event, inCase: 7, keeper)
        }
        return mappingAnswer(state, event, inCase: caseIndex, keeper)
    }

    /// ``mappingAnswer(_:_:)`` once the state's case is known; inlined into
    /// each case's copy.
    @inlinable
    @inline(__always)
    func mappingAnswer(
        _ state: S, _ event: E, inCase caseIndex: Int, _ keeper: DefinitionMapping<S, E, Effect>?
    ) -> MappingAnswer<S> {
        var refused = false
        let found = MappedClauses.first(
            among: positions(ofCase: caseIndex, from: state), entry: { lists[$0] }, from: state, in: state,
            on: event, refused: &refused
        ) { clause in clause.target(state, event, keepingEffectsIn: keeper).map { (target: $0, clause: clause.index) } }
        guard let found else { return refused ? .refused : .none }
        return .move(to: found.target, clause: Int32(found.clause))
    }

    /// Where the list of `caseIndex`'s clauses lies in `lists`, learned from
    /// `state` (a value of that case) the first time.
    @inlinable
    @inline(__always)
    func positions(ofCase caseIndex: Int, from state: S) -> Range<Int> {
        lists.positions(ofCase: caseIndex) ?? learn(caseIndex, from: state)
    }

    /// Learns the list of `state`'s case (`caseIndex`): the clauses, in the
    /// order they are tried, whose state side may hold a value of that case
    /// (a state of that case, a pattern the case belongs to, `.any`).
    @usableFromInline
    func learn(_ caseIndex: Int, from state: S) -> Range<Int> {
        var list: [Entry] = []
        for clause in clauses {
            switch clause.clause.source {
            case .value(let source):
                if reader.caseIndex(of: source) == caseIndex {
                    list.append(Entry(clause, comparesState: true))
                }
            case .pattern(let pattern):
                // A case whose values the pattern judges one by one stays in
                // the list, to be matched on every request.
                if pattern.matches(state) || pattern.varies(state) {
                    list.append(Entry(clause, comparesState: pattern.varies(state)))
                }
            case .any:
                list.append(Entry(clause, comparesState: false))
            }
        }
        return lists.append(list, forCase: caseIndex)
    }
}
