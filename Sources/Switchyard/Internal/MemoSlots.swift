/// The index of a memo's entries (``StepMemo``, ``ChoiceMemo``): an
/// open-addressed table of entry indices, found by their keys' hashes.
///
/// Invariants: the number of slots is 0 or a power of two, at least twice
/// the entries placed, so a probe always meets an empty slot; a probe
/// starts at the slot a hash's top bits name and goes on one slot at a time,
/// wrapping around. The memo keeps the keys and compares them; this table
/// only says where to look.
struct MemoSlots: ~Copyable {
    /// Entry indices; -1 for an empty slot.
    @usableFromInline var slots = ReusableList<Int32>()
    /// log2 of the number of slots; 0 before the first entry.
    @usableFromInline var bits = 0

    @inlinable
    init() {}

    /// The number of slots.
    @inlinable
    var length: Int { slots.length }

    /// The index of the first entry on `hash`'s probe that `matches`, if one does.
    @inlinable
    @inline(__always)
    func firstEntry(hash: UInt64, where matches: (Int32) -> Bool) -> Int32? {
        guard bits > 0 else { return nil }
        var slot = homeSlot(of: hash)
        while true {
            let index = slots[slot]
            guard index >= 0 else { return nil }
            if matches(index) { return index }
            slot = slotAfter(slot)
        }
    }

    /// The slot a probe for `hash` starts at: the hash's top bits.
    @inlinable
    @inline(__always)
    func homeSlot(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> UInt64(64 - bits))
    }

    /// The slot a probe tries after `slot`, wrapping around.
    @inlinable
    @inline(__always)
    func slotAfter(_ slot: Int) -> Int {
        (slot + 1) & (slots.length - 1)
    }

    /// Makes room for one more entry beside `entries`, all placed: if that
    /// would fill half the slots, doubles them (16 at first) and places each
    /// entry again by the hash `hash` reads from it.
    @inlinable
    mutating func makeRoom<Entry>(besides entries: borrowing ReusableList<Entry>, hash: (Entry) -> UInt64) {
        guard bits == 0 || 2 * (entries.length + 1) > slots.length else { return }
        bits = bits == 0 ? 4 : bits + 1
        slots.removeAll()
        slots.reserveCapacity(1 << bits)
        for _ in 0..<(1 << bits) {
            slots.append(-1)
        }
        for index in 0..<entries.length {
            place(Int32(index), hash: hash(entries[index]))
        }
    }

    /// Puts the entry `index` in the first empty slot of `hash`'s probe.
    @usableFromInline
    mutating func place(_ index: Int32, hash: UInt64) {
        var slot = homeSlot(of: hash)
        while slots[slot] >= 0 {
            slot = slotAfter(slot)
        }
        slots[slot] = index
    }

    /// Empties every slot; keeps their number.
    mutating func removeAll() {
        for slot in 0..<slots.length {
            slots[slot] = -1
        }
    }

    /// Mixes `value` into `hash`: what both memos hash their keys with.
    @inlinable
    @inline(__always)
    static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 {
        // A multiply spreads low bits upwards; slots are chosen by the top bits.
        ((hash ^ value) &* 0x9E37_79B9_7F4A_7C15) ^ (hash >> 29)
    }
}
