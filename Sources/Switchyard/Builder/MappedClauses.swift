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

/// The mapped clauses of a flat definition whose state is an enum, with the
/// clauses worth trying for each case of the state, learned from the first
/// value of each case: one indirect call and a read find them.
///
/// What a case's list holds is decided by case alone (a case pattern's
/// verdict is kept per case, see ``CasePattern``); a clause from one state
/// value stays in the list of that value's case and is compared with `==`.
/// Everything a request reads lies in memory the dispatch owns, so that a
/// request retains nothing but the closure it calls.
@usableFromInline
final class CaseDispatch<S: StateType, E: EventType, Effect> {
    /// A clause to try, and whether its state side must be matched again on
    /// each request (a state value, or a pattern whose case varies).
    @usableFromInline
    struct Entry {
        @usableFromInline var clause: Int
        @usableFromInline var comparesState: Bool

        @inlinable
        init(clause: Int, comparesState: Bool) {
            self.clause = clause
            self.comparesState = comparesState
        }
    }

    @usableFromInline let reader: EnumCaseReader
    @usableFromInline let clauses: UnsafeMutableBufferPointer<Clause<S, E, Effect>>
    @usableFromInline let order: [Int]
    // Dynamic exclusivity checks are off, as in the machine: the lists are
    // read on every request and only written when a case is first seen.
    /// Every case's list, one after another.
    @exclusivity(unchecked) @usableFromInline var entries: UnsafeMutableBufferPointer<Entry>
    @exclusivity(unchecked) @usableFromInline var entryCount = 0
    /// Where each case's list lies in `entries`, by case index: its start
    /// and end, or -1 for a case not seen yet.
    @exclusivity(unchecked) @usableFromInline var ranges: UnsafeMutableBufferPointer<(start: Int, end: Int)>

    @usableFromInline
    init(reader: EnumCaseReader, clauses: [Clause<S, E, Effect>], order: [Int]) {
        self.reader = reader
        self.clauses = .allocate(capacity: clauses.count)
        _ = self.clauses.initialize(from: clauses)
        self.order = order
        self.entries = .allocate(capacity: 0)
        self.ranges = .allocate(capacity: 0)
    }

    deinit {
        clauses.deinitialize().deallocate()
        entries.deallocate()
        ranges.deallocate()
    }

    /// The first clause that takes `event` in `state`, and what it does, as
    /// ``MappedClauses/answer(_:_:refused:)`` says.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        let caseIndex = reader.caseIndex(of: state)
        var range = caseIndex < ranges.count ? ranges[caseIndex] : (start: -1, end: -1)
        if range.start < 0 {
            range = learn(caseIndex, from: state)
        }
        var position = range.start
        while position < range.end {
            let entry = entries[position]
            position &+= 1
            let clause = clauses.baseAddress.unsafelyUnwrapped + entry.clause
            guard Self.covers(clause, state, event, comparesState: entry.comparesState, refused: &refused) else {
                continue
            }
            guard let reaction = clause.pointee.react(state, event) else {
                refused = true
                continue
            }
            return (entry.clause, reaction)
        }
        return nil
    }

    /// Whether `clause` covers `event` in `state` and its conditions allow
    /// it; `refused` becomes `true` when it covers it but a condition refuses.
    ///
    /// Each field is read where it lies: calling a method of the clause would
    /// copy all of it, retaining every closure and pattern it holds.
    @inlinable
    static func covers(
        _ clause: UnsafeMutablePointer<Clause<S, E, Effect>>, _ state: S, _ event: E, comparesState: Bool,
        refused: inout Bool
    ) -> Bool {
        if comparesState {
            switch clause.pointee.source {
            case .value(let source): if source != state { return false }
            case .pattern(let pattern): if !pattern.matches(state) { return false }
            case .any: break
            }
        }
        switch clause.pointee.event {
        case .value(let own): if own != event { return false }
        case .any: break
        case .pattern(let pattern): if !pattern.matches(event) { return false }
        }
        if let condition = clause.pointee.condition, !condition(state, event) {
            refused = true
            return false
        }
        return true
    }

    /// ``covers(_:_:_:comparesState:refused:)`` without the refusal.
    @inlinable
    static func covers(
        _ clause: UnsafeMutablePointer<Clause<S, E, Effect>>, _ state: S, _ event: E, comparesState: Bool
    ) -> Bool {
        var refused = false
        return covers(clause, state, event, comparesState: comparesState, refused: &refused)
    }

    /// The state the first clause that takes `event` in `state` leads to
    /// (`state` itself for a stay), without its effects: what a plain
    /// machine's route mapping answers.
    @inlinable
    func target(_ state: S, _ event: E) -> S? {
        let caseIndex = reader.caseIndex(of: state)
        var range = caseIndex < ranges.count ? ranges[caseIndex] : (start: -1, end: -1)
        if range.start < 0 {
            range = learn(caseIndex, from: state)
        }
        var position = range.start
        while position < range.end {
            let entry = entries[position]
            position &+= 1
            let clause = clauses.baseAddress.unsafelyUnwrapped + entry.clause
            guard Self.covers(clause, state, event, comparesState: entry.comparesState) else { continue }
            switch clause.pointee.target {
            case .fixed(let target):
                return target ?? state
            case .computedState(let body):
                if let target = body(state, event) {
                    return target
                }
            case .computed(let body):
                if let reaction = body(state, event) {
                    return reaction.toState ?? state
                }
            }
        }
        return nil
    }

    /// ``target(_:_:)`` for an effect machine: tells `recorder` what the
    /// clause taken emits, or that a clause covered the request and refused.
    @inlinable
    func target(_ state: S, _ event: E, recording recorder: EffectRecorder<S, E, Effect>) -> S? {
        let caseIndex = reader.caseIndex(of: state)
        var range = caseIndex < ranges.count ? ranges[caseIndex] : (start: -1, end: -1)
        if range.start < 0 {
            range = learn(caseIndex, from: state)
        }
        var refused = false
        var position = range.start
        while position < range.end {
            let entry = entries[position]
            position &+= 1
            let clause = clauses.baseAddress.unsafelyUnwrapped + entry.clause
            guard Self.covers(clause, state, event, comparesState: entry.comparesState, refused: &refused) else {
                continue
            }
            switch clause.pointee.target {
            case .fixed(let target):
                recorder.record(clause.pointee.effects)
                return target ?? state
            case .computedState(let body):
                if let target = body(state, event) {
                    recorder.record(clause.pointee.effects)
                    return target
                }
            case .computed(let body):
                if let reaction = body(state, event) {
                    let own = clause.pointee.effects
                    recorder.record(own.isEmpty ? reaction.effects : own + reaction.effects)
                    return reaction.toState ?? state
                }
            }
            refused = true
        }
        if refused {
            recorder.recordRefusal()
        }
        return nil
    }

    /// Learns the list of `state`'s case (`caseIndex`): the clauses, in the
    /// order they are tried, whose state side may hold a value of that case
    /// (a state of that case, a pattern the case belongs to, `.any`).
    @usableFromInline
    func learn(_ caseIndex: Int, from state: S) -> (start: Int, end: Int) {
        var list: [Entry] = []
        for index in order {
            switch clauses[index].source {
            case .value(let source):
                if reader.caseIndex(of: source) == caseIndex {
                    list.append(Entry(clause: index, comparesState: true))
                }
            case .pattern(let pattern):
                // A case whose values the pattern judges one by one stays in
                // the list, to be matched on every request.
                if pattern.matches(state) || pattern.varies(state) {
                    list.append(Entry(clause: index, comparesState: pattern.varies(state)))
                }
            case .any:
                list.append(Entry(clause: index, comparesState: false))
            }
        }
        let range = (start: entryCount, end: entryCount + list.count)
        if range.end > entries.count {
            let grown = UnsafeMutableBufferPointer<Entry>.allocate(capacity: max(range.end, 2 * entries.count))
            if entryCount > 0 {
                _ = grown.initialize(from: entries[0..<entryCount])
            }
            entries.deallocate()
            entries = grown
        }
        for (offset, entry) in list.enumerated() {
            (entries.baseAddress.unsafelyUnwrapped + entryCount + offset).initialize(to: entry)
        }
        entryCount = range.end
        if caseIndex >= ranges.count {
            let grown = UnsafeMutableBufferPointer<(start: Int, end: Int)>.allocate(capacity: caseIndex + 1)
            grown.initialize(repeating: (start: -1, end: -1))
            for index in 0..<ranges.count {
                grown[index] = ranges[index]
            }
            ranges.deallocate()
            ranges = grown
        }
        ranges[caseIndex] = range
        return range
    }
}
