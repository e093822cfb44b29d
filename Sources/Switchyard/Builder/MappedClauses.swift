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
    /// The clauses worth trying for each case of the state, for a flat
    /// definition whose state type is an enum; `nil` otherwise.
    @usableFromInline var dispatch: CaseDispatch<S>?

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
            dispatch = CaseDispatch(reader: reader)
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
        // The clauses are read in place, not copied: a copy retains every
        // closure and pattern a clause holds.
        if let dispatch {
            return clauses.withUnsafeBufferPointer { clauses in
                let candidates = dispatch.candidates(for: state) { self.learnCandidates(for: state, in: clauses) }
                for index in candidates {
                    if case .value(let source) = clauses[index].source, source != state { continue }
                    guard clauses[index].event.contains(event) else { continue }
                    if let reaction = react(clauses[index], state, event, refused: &refused) {
                        return (index, reaction)
                    }
                }
                return nil
            }
        }
        return clauses.withUnsafeBufferPointer { clauses in
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
                level = parents.isEmpty ? nil : parents[current]
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

    /// The clauses, in the order ``answer(_:_:refused:)`` tries them, whose
    /// state side may hold a value of `state`'s case: a state of that case,
    /// a pattern the case belongs to, then `.any`.
    @usableFromInline
    func learnCandidates(for state: S, in clauses: UnsafeBufferPointer<Clause<S, E, Effect>>) -> [Int] {
        guard let reader = dispatch?.reader else { return order }
        let caseIndex = reader.caseIndex(of: state)
        var candidates: [Int] = []
        for index in order {
            switch clauses[index].source {
            case .value(let source): if reader.caseIndex(of: source) == caseIndex { candidates.append(index) }
            case .pattern(let pattern): if pattern.matches(state) { candidates.append(index) }
            case .any: break
            }
        }
        for index in order {
            if case .any = clauses[index].source { candidates.append(index) }
        }
        return candidates
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
        copy.dispatch = dispatch.map { CaseDispatch(reader: $0.reader) }
        return copy
    }
}

/// The clauses worth trying for each case of an enum state, learned from the
/// first value of each case: one indirect call and an array read find them.
///
/// What a case's list holds is decided by case alone (a case pattern's
/// verdict is kept per case, see ``CasePattern``); a clause from one state
/// value stays in the list of that value's case and is compared with `==`.
@usableFromInline
final class CaseDispatch<S> {
    @usableFromInline let reader: EnumCaseReader
    // Dynamic exclusivity checks are off, as in the machine: the lists are
    // read on every request and only written when a case is first seen.
    @exclusivity(unchecked) @usableFromInline var lists: [[Int]?] = []

    @usableFromInline
    init(reader: EnumCaseReader) {
        self.reader = reader
    }

    /// The list for `state`'s case, learned with `learn` the first time.
    @inlinable
    func candidates(for state: S, learn: () -> [Int]) -> [Int] {
        let index = reader.caseIndex(of: state)
        if index < lists.count, let list = lists[index] {
            return list
        }
        let list = learn()
        if index >= lists.count {
            lists.append(contentsOf: repeatElement(nil, count: index + 1 - lists.count))
        }
        lists[index] = list
        return list
    }
}
