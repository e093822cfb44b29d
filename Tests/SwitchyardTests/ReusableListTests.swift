import Testing

@testable import Switchyard

// The lists a statechart refills at every step: raw storage the list owns,
// kept when emptied.

/// Counts its instances alive, so that a test sees the list let go of what
/// it held.
private final class Tracked {
    nonisolated(unsafe) static var alive = 0
    let value: Int

    init(_ value: Int) {
        self.value = value
        Tracked.alive += 1
    }

    deinit {
        Tracked.alive -= 1
    }
}

@Suite(.serialized) struct ReusableListTests {
    @Test func appendsGrowTheStorageAndKeepTheElementsInOrder() {
        var list = ReusableList<Int>()
        #expect(list.length == 0)
        for value in 0..<100 {
            list.append(value)
        }
        #expect(list.length == 100)
        #expect(list.capacity >= 100)
        #expect(list.elements == Array(0..<100))
        list[7] = -7
        #expect(list[7] == -7)
    }

    @Test func appendingARangeOfAnotherListCopiesItInOrder() {
        let source = ReusableList([10, 11, 12, 13, 14])
        var list = ReusableList([1])
        list.append(contentsOf: source, at: 1..<4)
        list.append(contentsOf: source, at: 2..<2)
        list.append(contentsOf: source, at: 4..<5)
        #expect(list.elements == [1, 11, 12, 13, 14])
        var grown = ReusableList<Int>()
        for start in 0..<200 {
            grown.append(contentsOf: source, at: start % 5..<5)
        }
        #expect(grown.length == (0..<200).reduce(0) { $0 + 5 - $1 % 5 })
        #expect(grown.capacity < 2 * grown.length + 8, "room grows by doubling, not by the exact length")
    }

    @Test func aRangeEqualsAnotherListOnlyWithTheSameElementsInOrder() {
        let list = ReusableList([10, 11, 12, 13])
        let middle = ReusableList([11, 12])
        let reversed = ReusableList([12, 11])
        let shorter = ReusableList([11])
        let empty = ReusableList<Int>()
        let answers = [
            list.elements(at: 1..<3, equal: middle), list.elements(at: 1..<3, equal: reversed),
            list.elements(at: 1..<3, equal: shorter), list.elements(at: 2..<2, equal: empty),
        ]
        #expect(answers == [true, false, false, true])
    }

    @Test func emptyingKeepsTheStorage() {
        var list = ReusableList([1, 2, 3, 4, 5])
        let (base, capacity) = (list.base, list.capacity)
        list.removeAll()
        #expect(list.length == 0)
        list.append(9)
        #expect(list.base == base && list.capacity == capacity, "refilling an emptied list allocated")
        #expect(list.elements == [9])
    }

    @Test func removingByPredicateKeepsTheOthersInOrder() {
        var list = ReusableList(0..<10)
        list.removeAll { $0 % 3 == 0 }
        #expect(list.elements == [1, 2, 4, 5, 7, 8])
    }

    @Test func insertionSortSortsAndIsStable() {
        var list = ReusableList([(2, "a"), (1, "b"), (2, "c"), (0, "d"), (1, "e")])
        list.insertionSort { $0.0 < $1.0 }
        #expect(list.elements.map(\.1) == ["d", "b", "e", "a", "c"])
    }

    @Test func containsLooksAtTheElementsHeldOnly() {
        var list = ReusableList([3, 4])
        let found = list.contains(4)
        #expect(found)
        list.removeAll()
        let foundAfterEmptying = list.contains(4) || list.contains { _ in true }
        #expect(!foundAfterEmptying, "an emptied list still found an element")
    }

    @Test func roomReservedIsFilledWithoutGrowing() {
        var list = ReusableList<Int>()
        list.reserveCapacity(3)
        let base = list.base
        for value in 0..<3 {
            list.appendWithinCapacity(value)
        }
        #expect(list.base == base, "appending within the room reserved moved the storage")
        #expect(list.elements == [0, 1, 2])
    }

    @Test func theListLetsGoOfWhatItHolds() {
        let before = Tracked.alive
        do {
            var list = ReusableList<Tracked>()
            for value in 0..<10 {
                list.append(Tracked(value))
            }
            #expect(Tracked.alive == before + 10)
            list.removeAll { $0.value.isMultiple(of: 2) }
            #expect(Tracked.alive == before + 5, "removing elements did not release them")
            list.removeAll()
            #expect(Tracked.alive == before, "emptying the list did not release its elements")
            list.append(Tracked(99))
            #expect(Tracked.alive == before + 1)
        }
        #expect(Tracked.alive == before, "the list did not release its elements when it ended")
    }
}
