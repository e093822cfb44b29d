/// The moves events have chosen, remembered by what the choice depends on,
/// so that an event sent again from the same configuration takes the same
/// moves without walking up the tree from each active state again.
///
/// What it remembers and when:
/// - **Key:** the active atomic states (they determine the configuration)
///   and the event's code.
/// - **Value:** the moves chosen, in the order the choice left them, and
///   for a choice of one move, where the memo of steps holds the step it
///   takes (``Entry/step``), once it does.
/// - **Remembered** only by a machine without nested machines, for an event
///   sent to it, when the choice took some route and every state its walks
///   passed has only unguarded event routes (see
///   ``RouteTable/Storage/hasOnlyUnguardedEventRoutes(from:)``): the choice
///   then depends on the key, the tree and the routes alone.
/// - **Forgotten:** when the tree is laid out again (``StateTree/layouts``
///   moves) or the machine's event routes change
///   (``RouteTable/Storage/eventRoutesVersion`` moves), which a look-up sees
///   by the layout and version it is asked for; and all at once when it
///   holds ``entryLimit`` choices. Emptying it moves ``generation``, so that
///   a plan's ``Mark`` of a forgotten choice is recognised as such. A
///   choice's link to its step (``Entry/step``) is a mark in the memo of
///   steps, stale once that memo forgets.
/// - **Read:** only while ``StateTree/isLaidOut``.
///
/// The moves it returns are those the walk would choose: the statechart's
/// model-based tests compare every step with a reference interpreter (on
/// routes and trees that do not change while they run), and
/// `RememberedChoiceTests` changes routes, guards and the tree between two
/// events.
struct ChoiceMemo: ~Copyable {
    /// One remembered choice. Its atomic states lie in ``codes``, its moves
    /// in ``moves``.
    @usableFromInline
    struct Entry {
        var hash: UInt64
        var event: SymbolCode
        var atomics: Range<Int32>
        var moves: Range<Int32>
        /// The step its one move takes from its configuration, once the
        /// memo of steps holds it: a plan of these moves is then copied
        /// from there without a look-up of its own.
        var step = StepMemo.Mark.none

        init(hash: UInt64, event: SymbolCode, atomics: Range<Int32>, moves: Range<Int32>) {
            self.hash = hash
            self.event = event
            self.atomics = atomics
            self.moves = moves
        }
    }

    /// Where a plan's moves lie in the memo: the entry they were recalled
    /// from or kept in, as of a generation.
    typealias Mark = MemoMark<ChoiceMemo>

    /// How many choices it holds at most before it forgets them all.
    static let entryLimit = 512

    /// The layout of the tree and the version of the routes the choices
    /// were made with.
    var layout: UInt32?
    var routesVersion: UInt64 = 0
    /// Moves each time the memo forgets what it holds.
    var generation: UInt32 = 0
    var entries = ReusableList<Entry>()
    var codes = ReusableList<SymbolCode>()
    var moves = ReusableList<StepPlan.Move>()
    /// Where each entry is, by its hash.
    var slots = MemoSlots()

    init() {}

    /// The hash of a choice's key.
    @inline(__always)
    static func hash(event: SymbolCode, atomics: borrowing ReusableList<SymbolCode>) -> UInt64 {
        var hash = MemoSlots.mix(0x1319_8A2E_0370_7344, UInt64(event))
        for index in 0..<atomics.length {
            hash = MemoSlots.mix(hash, UInt64(atomics[index]))
        }
        return hash
    }

    /// The index of the choice `event` made from `atomics`, as of `layout`
    /// and `routesVersion`, if one is remembered.
    func entry(
        hash: UInt64, event: SymbolCode, atomics: borrowing ReusableList<SymbolCode>, layout: UInt32,
        routesVersion: UInt64
    ) -> Int32? {
        guard self.layout == layout, self.routesVersion == routesVersion else { return nil }
        return slots.firstEntry(hash: hash) { index in
            let entry = entries[Int(index)]
            return entry.hash == hash && entry.event == event && codes.elements(at: entry.atomics, equal: atomics)
        }
    }

    /// The entry `mark` names, if the memo still holds it for `layout`.
    func entry(at mark: Mark, layout: UInt32) -> Int32? {
        mark.entry(inGeneration: generation, filledFor: self.layout, askedFor: layout)
    }

    /// Remembers that `event` chose `chosen` from `atomics`, as of `layout`
    /// and `routesVersion`; forgets every choice made with another layout
    /// or version, or all of them when it is full, first.
    ///
    /// - Returns: Where the choice now lies.
    mutating func remember(
        hash: UInt64, event: SymbolCode, atomics: borrowing ReusableList<SymbolCode>,
        chosen: borrowing ReusableList<StepPlan.Move>, layout: UInt32, routesVersion: UInt64
    ) -> Mark {
        if self.layout != layout || self.routesVersion != routesVersion || entries.length >= Self.entryLimit {
            forgetAll(layout: layout, routesVersion: routesVersion)
        }
        slots.makeRoom(besides: entries) { $0.hash }
        let firstCode = Int32(codes.length)
        codes.append(contentsOf: atomics, at: 0..<atomics.length)
        let firstMove = Int32(moves.length)
        moves.append(contentsOf: chosen, at: 0..<chosen.length)
        let index = Int32(entries.length)
        entries.append(
            Entry(
                hash: hash, event: event, atomics: firstCode..<Int32(codes.length),
                moves: firstMove..<Int32(moves.length)))
        slots.place(index, hash: hash)
        return Mark(entry: index, generation: generation)
    }

    /// Forgets every choice, for `layout` and `routesVersion`; keeps the storage.
    mutating func forgetAll(layout: UInt32, routesVersion: UInt64) {
        self.layout = layout
        self.routesVersion = routesVersion
        generation &+= 1
        entries.removeAll()
        codes.removeAll()
        moves.removeAll()
        slots.removeAll()
    }
}
