/// Chains keyed by a pair of codes, such as (event, from-state) or
/// (from-state, to-state), either of which may be ``SymbolCode/wildcard``.
///
/// An open-addressing hash table over integer keys: a look-up is a multiply
/// and, nearly always, one probe, with no call to the key's `hash(into:)`.
/// It also counts the non-empty chains of each key shape, so that a decision
/// skips the look-ups of a shape that has none.
@usableFromInline
struct PairIndex {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: UInt64
        @usableFromInline var chain: Chain

        @inlinable
        init(key: UInt64, chain: Chain) {
            self.key = key
            self.chain = chain
        }
    }

    /// A key no pair makes: both codes would have to be ``SymbolCode/unknown``.
    @inlinable static var emptyKey: UInt64 { .max }

    /// A power of two in length (or empty), at most three quarters full.
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var count = 0
    @usableFromInline var shapes = BucketShapes()

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    @inlinable
    static func key(_ first: SymbolCode, _ second: SymbolCode) -> UInt64 {
        UInt64(first) << 32 | UInt64(second)
    }

    @inlinable
    static func shape(_ first: SymbolCode, _ second: SymbolCode) -> Int {
        BucketShapes.shape(first != .wildcard, second != .wildcard)
    }

    /// Where `key` is, or the empty slot where it would go.
    @inlinable
    func position(of key: UInt64) -> Int {
        let mask = slots.count - 1
        // Fibonacci hashing: the multiply spreads consecutive codes, and the
        // high half folded into the low half keeps both codes in the index.
        let mixed = key &* 0x9E37_79B9_7F4A_7C15
        var position = Int(truncatingIfNeeded: mixed ^ (mixed >> 29)) & mask
        while slots[position].key != key, slots[position].key != Self.emptyKey {
            position = (position + 1) & mask
        }
        return position
    }

    /// The chain at (`first`, `second`); empty when there is none.
    @inlinable
    subscript(first: SymbolCode, second: SymbolCode) -> Chain {
        guard shapes.contains(Self.shape(first, second)) else { return Chain() }
        return slots[position(of: Self.key(first, second))].chain
    }

    /// Lets `body` change the chain at (`first`, `second`), creating it if needed.
    @inlinable
    mutating func withChain<Result>(
        _ first: SymbolCode, _ second: SymbolCode, _ body: (inout Chain) -> Result
    ) -> Result {
        let key = Self.key(first, second)
        var position = slots.isEmpty ? -1 : position(of: key)
        if position < 0 || slots[position].key == Self.emptyKey {
            // A new key: grow first if it would fill the table past three quarters.
            if (count + 1) * 4 > slots.count * 3 {
                grow()
                position = self.position(of: key)
            }
            slots[position].key = key
            count += 1
        }
        let wasEmpty = slots[position].chain.isEmpty
        let result = body(&slots[position].chain)
        let isEmpty = slots[position].chain.isEmpty
        if wasEmpty != isEmpty {
            shapes.adjust(Self.shape(first, second), by: isEmpty ? -1 : 1)
        }
        return result
    }

    /// Makes room for `count` more keys at once, so that a large batch
    /// rehashes at most once.
    @inlinable
    mutating func reserveRoom(forAdding count: Int) {
        var capacity = max(8, slots.count)
        while (self.count + count) * 4 > capacity * 3 {
            capacity *= 2
        }
        if capacity > slots.count {
            resize(to: capacity)
        }
    }

    /// Doubles the table (keys stay, even with empty chains: they are few,
    /// and keeping them spares a deletion scheme).
    @inlinable
    mutating func grow() {
        resize(to: max(8, slots.count * 2))
    }

    @inlinable
    mutating func resize(to capacity: Int) {
        let old = slots
        slots = Array(repeating: Slot(key: Self.emptyKey, chain: Chain()), count: capacity)
        for slot in old where slot.key != Self.emptyKey {
            slots[position(of: slot.key)] = slot
        }
    }
}
