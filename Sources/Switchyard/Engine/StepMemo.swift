/// The steps a statechart has planned, remembered by what they depend on:
/// the configuration they start from and their one move. A step along the
/// same move from the same configuration is then recalled rather than
/// worked out again: its exits, entries and atomic states after (read in
/// place when the step is taken, see ``StepPlan/listsAreInMemo``), the state
/// that contains those, and what applying it completes.
///
/// What it remembers and when:
/// - **Key:** the active atomic states before the step (they determine the
///   whole configuration), and the move's source, target and whether it is
///   local. Only a step of one move with nothing extra (no other targets,
///   no action, not ignoring history) is remembered; a sibling move's step
///   (see ``Statechart/completeSiblingMove(_:)``) only when a remembered
///   choice takes it, for the choice to link to (``ChoiceMemo/Entry/step``).
/// - **Not remembered:** a step in which history plays a part, one that
///   records history or enters a state that keeps one, as its entries then
///   depend on what was recorded, which the key does not hold.
/// - **Forgotten:** when the tree is laid out again (``StateTree/layouts``
///   moves: a change of the tree's shape, history or final states), which a
///   look-up sees by the layout it is asked for, and all at once when it
///   holds ``entryLimit`` steps, so that a chart with very many
///   configurations keeps a bounded memo. Emptying it moves ``generation``,
///   so that a plan that points at a forgotten step (see ``Mark``) is
///   recognised as such.
/// - **Read:** only while ``StateTree/isLaidOut``: a handler may change the
///   tree in the middle of a macrostep.
///
/// The plans it returns are those the algorithm would compute: the
/// statechart's model-based tests compare every step with a reference
/// interpreter (on trees that do not change while they run), and
/// `RememberedStepTests` changes the tree between two takes of a step.
struct StepMemo: ~Copyable {
    /// One remembered step. Its lists lie in ``codes``.
    @usableFromInline
    struct Entry {
        var hash: UInt64
        var source: SymbolCode
        var target: SymbolCode
        var isLocal: Bool
        /// The atomic states before: `codes[atomicsStart..<exitsStart]`.
        var atomicsStart: Int32
        /// The exits: `codes[exitsStart..<entriesStart]`.
        var exitsStart: Int32
        /// The entries: `codes[entriesStart..<atomicsAfterStart]`.
        var entriesStart: Int32
        /// The atomic states after: `codes[atomicsAfterStart..<end]`.
        var atomicsAfterStart: Int32
        var end: Int32
        /// The deepest state that contains the atomic states after.
        var innermostAfter: SymbolCode
        /// The move's domain (see ``StepPlan/Move/domain``).
        var domain: SymbolCode?
        /// What applying the step completes, `codes[completions]`, once a
        /// step applied has recorded it; `nil` until then.
        var completions: Range<Int32>?
        /// Whether the step enters a top-level final state, which finishes
        /// the machine; recorded with ``completions``.
        var finishes = false

        /// An entry for a key whose lists are yet to be placed.
        init(hash: UInt64, move: StepPlan.Move, innermostAfter: SymbolCode) {
            self.hash = hash
            (source, target, isLocal) = (move.source, move.target, move.isLocal)
            (atomicsStart, exitsStart, entriesStart, atomicsAfterStart, end) = (0, 0, 0, 0, 0)
            self.innermostAfter = innermostAfter
            self.domain = move.domain
        }
    }

    /// Where a plan's step lies in the memo: the entry it was recalled from,
    /// or the one that remembers it, as of a generation. A remembered
    /// choice keeps one too, as the link to its step.
    typealias Mark = MemoMark<StepMemo>

    /// How many steps it holds at most before it forgets them all.
    static let entryLimit = 512

    /// The layout of the tree the steps were planned on.
    var layout: UInt32?
    /// Moves each time the memo forgets what it holds.
    var generation: UInt32 = 0
    var entries = ReusableList<Entry>()
    /// The lists of the entries, one after another.
    var codes = ReusableList<SymbolCode>()
    /// Where each entry is, by its hash.
    var slots = MemoSlots()

    init() {}

    // MARK: Reading

    /// The hash of a step's key.
    static func hash(
        source: SymbolCode, target: SymbolCode, isLocal: Bool, atomics: borrowing ReusableList<SymbolCode>
    ) -> UInt64 {
        var hash = MemoSlots.mix(0x243F_6A88_85A3_08D3, UInt64(source) << 32 | UInt64(target))
        hash = MemoSlots.mix(hash, isLocal ? 1 : 0)
        for index in 0..<atomics.length {
            hash = MemoSlots.mix(hash, UInt64(atomics[index]))
        }
        return hash
    }

    /// The index of the entry for this key as of `layout`, if one is remembered.
    func entry(
        hash: UInt64, source: SymbolCode, target: SymbolCode, isLocal: Bool,
        atomics: borrowing ReusableList<SymbolCode>, layout: UInt32
    ) -> Int32? {
        guard self.layout == layout else { return nil }
        return slots.firstEntry(hash: hash) { index in
            let entry = entries[Int(index)]
            return entry.hash == hash && entry.source == source && entry.target == target
                && entry.isLocal == isLocal && codes.elements(at: entry.atomicsStart..<entry.exitsStart, equal: atomics)
        }
    }

    /// The entry `mark` names, if the memo still holds it for `layout`.
    func entry(at mark: Mark, layout: UInt32) -> Int32? {
        mark.entry(inGeneration: generation, filledFor: self.layout, askedFor: layout)
    }

    /// Appends the codes at `range` to `list`.
    func appendCodes(in range: Range<Int32>, to list: inout ReusableList<SymbolCode>) {
        list.append(contentsOf: codes, at: Int(range.lowerBound)..<Int(range.upperBound))
    }

    // MARK: Remembering

    /// Remembers a step: its key, its plan's lists and its innermost state
    /// after, as of `layout`; forgets every step of another layout, or all
    /// of them when it is full, first.
    ///
    /// - Returns: Where the step now lies, for
    ///   ``recordCompletions(of:from:startingAt:finishes:)``.
    mutating func remember(
        hash: UInt64, move: StepPlan.Move, atomics: borrowing ReusableList<SymbolCode>,
        plan: borrowing StepPlan, innermostAfter: SymbolCode, layout: UInt32
    ) -> Mark {
        if self.layout != layout || entries.length >= Self.entryLimit {
            forgetAll(layout: layout)
        }
        slots.makeRoom(besides: entries) { $0.hash }
        var entry = Entry(hash: hash, move: move, innermostAfter: innermostAfter)
        entry.atomicsStart = Int32(codes.length)
        appendAll(atomics)
        entry.exitsStart = Int32(codes.length)
        appendAll(plan.exits)
        entry.entriesStart = Int32(codes.length)
        appendAll(plan.entries)
        entry.atomicsAfterStart = Int32(codes.length)
        appendAll(plan.atomicsAfter)
        entry.end = Int32(codes.length)
        let index = Int32(entries.length)
        entries.append(entry)
        slots.place(index, hash: hash)
        return Mark(entry: index, generation: generation)
    }

    /// Records what applying the step at `index` completed, the elements
    /// of `completed` from `start` on, and whether it entered a top-level
    /// final state.
    mutating func recordCompletions(
        of index: Int32, from completed: borrowing ReusableList<SymbolCode>, startingAt start: Int, finishes: Bool
    ) {
        let first = Int32(codes.length)
        codes.append(contentsOf: completed, at: start..<completed.length)
        entries[Int(index)].completions = first..<Int32(codes.length)
        entries[Int(index)].finishes = finishes
    }

    mutating func appendAll(_ list: borrowing ReusableList<SymbolCode>) {
        codes.append(contentsOf: list, at: 0..<list.length)
    }

    /// Forgets every step, for `layout`; keeps the storage.
    mutating func forgetAll(layout: UInt32) {
        self.layout = layout
        generation &+= 1
        entries.removeAll()
        codes.removeAll()
        slots.removeAll()
    }
}
