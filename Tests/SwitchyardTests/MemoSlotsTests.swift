import Testing

@testable import Switchyard

// The open-addressed index both memos find their entries through
// (`Internal/MemoSlots.swift`): probes that collide and wrap around.

@Suite struct MemoSlotsTests {
    /// The index of `hashes`' entries, placed in order.
    private func slots(placing hashes: [UInt64]) -> MemoSlots {
        var slots = MemoSlots()
        var placed = ReusableList<UInt64>()
        for hash in hashes {
            slots.makeRoom(besides: placed) { $0 }
            slots.place(Int32(placed.length), hash: hash)
            placed.append(hash)
        }
        return slots
    }

    @Test func entriesOfOneHashAreFoundOneAfterAnother() {
        // Their top bits name slots 3 and 9 of 16.
        let (shared, other): (UInt64, UInt64) = (3 << 60, 9 << 60)
        let slots = slots(placing: [shared, shared, shared, other])
        let found = (0..<4).map { wanted in slots.firstEntry(hash: shared) { $0 == Int32(wanted) } }
        #expect(found == [0, 1, 2, nil], "the probe stops at the first empty slot, before entry 3's")
        #expect(slots.firstEntry(hash: other) { $0 == 3 } == 3)
    }

    @Test func aProbeFromTheLastSlotWrapsAroundToTheFirst() {
        // The top bits of `.max` name the last slot.
        let slots = slots(placing: [.max, .max, .max])
        #expect(slots.slots[slots.length - 1] == 0)
        #expect(slots.slots[0] == 1)
        #expect(slots.slots[1] == 2)
        #expect(slots.firstEntry(hash: .max) { $0 == 2 } == 2)
        #expect(slots.firstEntry(hash: .max) { $0 == 5 } == nil)
    }

    @Test func growingPlacesEveryEntryAgain() {
        let hashes = (0..<100).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let slots = slots(placing: hashes)
        #expect(slots.length >= 200)
        for (index, hash) in hashes.enumerated() {
            #expect(slots.firstEntry(hash: hash) { $0 == Int32(index) } == Int32(index))
        }
    }
}
