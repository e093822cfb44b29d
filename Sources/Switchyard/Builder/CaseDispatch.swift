/// The mapped clauses of a flat definition whose state is an enum, with the
/// clauses worth trying for each case of the state, learned from the first
/// value of each case: one indirect call and a read find them.
///
/// What a case's list holds is decided by case alone (a case pattern's
/// verdict is kept per case, see ``CasePattern``); a clause from one state
/// value stays in the list of that value's case and is compared with `==`.
/// Each clause lies in an object the dispatch owns, which a request reaches
/// through an unretained reference and reads in place, so that a request
/// retains nothing, not even the closure it calls.
@usableFromInline
final class CaseDispatch<S: StateType, E: EventType, Effect> {
    /// One clause, in an object of its own so that a request reads its fields
    /// and calls its closures where they lie: a clause copied out of an array
    /// retains every closure and pattern it holds.
    ///
    /// The closures are also kept apart from the clause's enums and
    /// optionals, each in a `let` of its own (a placeholder where the clause
    /// has none): a closure bound out of an enum's payload or an optional is
    /// retained for the call, one called straight from a `let` is not.
    @usableFromInline
    final class Candidate {
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

        @usableFromInline
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

        /// Whether the clause covers `event` in `state` and its conditions
        /// allow it; `refused` becomes `true` when it covers it but a
        /// condition refuses.
        @inlinable
        @inline(__always)
        func covers(_ state: S, _ event: E, comparesState: Bool, refused: inout Bool) -> Bool {
            if comparesState, !clause.source.contains(state) {
                return false
            }
            guard clause.event.contains(event) else {
                return false
            }
            if isGuarded, !allows(state, event) {
                refused = true
                return false
            }
            return true
        }

        /// Where the clause takes the machine from `state` on `event`
        /// (`state` itself for a stay), without its effects; `nil` if it does
        /// not cover the request or refuses it.
        @inlinable
        @inline(__always)
        func target(_ state: S, _ event: E, comparesState: Bool) -> S? {
            var refused = false
            guard covers(state, event, comparesState: comparesState, refused: &refused) else {
                return nil
            }
            switch targetKind {
            case .fixed: return fixedTarget ?? state
            case .computedState: return computeState(state, event)
            case .computed: return compute(state, event).map { $0.toState ?? state }
            }
        }

        /// ``target(_:_:comparesState:)`` for an effect machine: tells
        /// `recorder` what the clause emits when it takes the request, and
        /// sets `refused` when it covers the request but refuses it.
        @inlinable
        func target(
            _ state: S, _ event: E, comparesState: Bool, recording recorder: EffectRecorder<S, E, Effect>,
            refused: inout Bool
        ) -> S? {
            guard covers(state, event, comparesState: comparesState, refused: &refused) else {
                return nil
            }
            switch targetKind {
            case .fixed:
                recorder.record(clause.effects)
                return fixedTarget ?? state
            case .computedState:
                if let target = computeState(state, event) {
                    recorder.record(clause.effects)
                    return target
                }
            case .computed:
                if let reaction = compute(state, event) {
                    let own = clause.effects
                    recorder.record(own.isEmpty ? reaction.effects : own + reaction.effects)
                    return reaction.toState ?? state
                }
            }
            refused = true
            return nil
        }
    }

    /// A clause to try, and whether its state side must be matched again on
    /// each request (a state value, or a pattern whose case varies).
    @usableFromInline
    struct Entry {
        /// Kept alive by the dispatch's `candidates`.
        @usableFromInline var candidate: Unmanaged<Candidate>
        @usableFromInline var comparesState: Bool

        @inlinable
        init(candidate: Candidate, comparesState: Bool) {
            self.candidate = .passUnretained(candidate)
            self.comparesState = comparesState
        }
    }

    @usableFromInline let reader: EnumCaseReader
    /// Every clause, by where it was written.
    @usableFromInline let candidates: [Candidate]
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
        self.candidates = clauses.enumerated().map { Candidate(index: $0.offset, clause: $0.element) }
        self.order = order
        self.entries = .allocate(capacity: 0)
        self.ranges = .allocate(capacity: 0)
    }

    deinit {
        entries.deallocate()
        ranges.deallocate()
    }

    /// The first clause that takes `event` in `state`, and what it does, as
    /// ``MappedClauses/answer(_:_:refused:)`` says.
    @inlinable
    func answer(_ state: S, _ event: E, refused: inout Bool) -> (clause: Int, reaction: Reaction<S, Effect>)? {
        let range = entries(ofCase: reader.caseIndex(of: state), from: state)
        for position in range.start..<range.end {
            let entry = entries[position]
            let answer = entry.candidate._withUnsafeGuaranteedRef { candidate -> (Int, Reaction<S, Effect>)? in
                guard candidate.covers(state, event, comparesState: entry.comparesState, refused: &refused) else {
                    return nil
                }
                guard let reaction = candidate.clause.react(state, event) else {
                    refused = true
                    return nil
                }
                return (candidate.index, reaction)
            }
            if let answer {
                return answer
            }
        }
        return nil
    }

    /// The state the first clause that takes `event` in `state` leads to
    /// (`state` itself for a stay), without its effects: what a plain
    /// machine's route mapping answers.
    ///
    /// Each of the first eight cases has a copy of the search of its own, and
    /// so calls its clauses' closures from call sites of its own. Called from
    /// one place, a closure chosen by the state's case makes the processor
    /// guess its address from that one indirect call; a machine going round
    /// its states changes the address on every request, and each wrong guess
    /// costs more than the rest of the call. From a call site per case, the
    /// address a site calls rarely changes.
    @inlinable
    func target(_ state: S, _ event: E) -> S? {
        // The copies differ by a constant, which keeps the compiler from
        // folding them back into one; and they are chosen by comparisons, not
        // by a `switch`, which would jump through a table: one more indirect
        // jump whose address changes with the case.
        let caseIndex = reader.caseIndex(of: state)
        if caseIndex < 4 {
            if caseIndex < 2 {
                return caseIndex == 0 ? target(state, event, inCase: 0) : target(state, event, inCase: 1)
            }
            return caseIndex == 2 ? target(state, event, inCase: 2) : target(state, event, inCase: 3)
        }
        if caseIndex < 8 {
            if caseIndex < 6 {
                return caseIndex == 4 ? target(state, event, inCase: 4) : target(state, event, inCase: 5)
            }
            return caseIndex == 6 ? target(state, event, inCase: 6) : target(state, event, inCase: 7)
        }
        return target(state, event, inCase: caseIndex)
    }

    /// ``target(_:_:)`` once the state's case is known; inlined into each
    /// case's copy.
    @inlinable
    @inline(__always)
    func target(_ state: S, _ event: E, inCase caseIndex: Int) -> S? {
        let range = entries(ofCase: caseIndex, from: state)
        var position = range.start
        while position < range.end {
            let entry = entries[position]
            position &+= 1
            if let target = entry.candidate._withUnsafeGuaranteedRef({
                $0.target(state, event, comparesState: entry.comparesState)
            }) {
                return target
            }
        }
        return nil
    }

    /// ``target(_:_:)`` for an effect machine: tells `recorder` what the
    /// clause taken emits, or that a clause covered the request and refused.
    @inlinable
    func target(_ state: S, _ event: E, recording recorder: EffectRecorder<S, E, Effect>) -> S? {
        let range = entries(ofCase: reader.caseIndex(of: state), from: state)
        var refused = false
        for position in range.start..<range.end {
            let entry = entries[position]
            if let target = entry.candidate._withUnsafeGuaranteedRef({
                $0.target(state, event, comparesState: entry.comparesState, recording: recorder, refused: &refused)
            }) {
                return target
            }
        }
        if refused {
            recorder.recordRefusal()
        }
        return nil
    }

    /// Where the list of `caseIndex`'s clauses lies in `entries`, learned
    /// from `state` (a value of that case) the first time.
    @inlinable
    @inline(__always)
    func entries(ofCase caseIndex: Int, from state: S) -> (start: Int, end: Int) {
        let range = caseIndex < ranges.count ? ranges[caseIndex] : (start: -1, end: -1)
        return range.start < 0 ? learn(caseIndex, from: state) : range
    }

    /// Learns the list of `state`'s case (`caseIndex`): the clauses, in the
    /// order they are tried, whose state side may hold a value of that case
    /// (a state of that case, a pattern the case belongs to, `.any`).
    @usableFromInline
    func learn(_ caseIndex: Int, from state: S) -> (start: Int, end: Int) {
        var list: [Entry] = []
        for index in order {
            let candidate = candidates[index]
            switch candidate.clause.source {
            case .value(let source):
                if reader.caseIndex(of: source) == caseIndex {
                    list.append(Entry(candidate: candidate, comparesState: true))
                }
            case .pattern(let pattern):
                // A case whose values the pattern judges one by one stays in
                // the list, to be matched on every request.
                if pattern.matches(state) || pattern.varies(state) {
                    list.append(Entry(candidate: candidate, comparesState: pattern.varies(state)))
                }
            case .any:
                list.append(Entry(candidate: candidate, comparesState: false))
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
