import Testing

@testable import Switchyard

// A step reads its machine's route table pinned rather than retained: a
// change made while it is pinned goes to a copy, and the pinned storage lives
// until its last reader lets it go.

private enum Key: StateType {
    case a, b, c
}

private enum Tick: EventType {
    case tick
}

@Suite struct ReaderPinsTests {
    @Test func aChangeToAPinnedTableGoesToACopyThatTheTableKeeps() {
        var table = RouteTable<Key, Tick>()
        _ = table.intern(Key.a)
        weak var pinnedStorage: RouteTable<Key, Tick>.Storage?
        Unretained(table.storage).withPinnedObject { storage in
            pinnedStorage = storage
            _ = table.intern(Key.b)
            #expect(table.storage !== storage, "a change to a pinned table changed the storage in place")
            #expect(storage.states.code(of: .b) == .unknown, "the reader saw a change made after it pinned")
            #expect(table.code(of: Key.b) != .unknown)
        }
        #expect(pinnedStorage == nil, "the replaced storage outlived its last reader")
    }

    @Test func aReplacedStorageLivesUntilItsOutermostReaderLetsGo() {
        var table = RouteTable<Key, Tick>()
        weak var pinnedStorage: RouteTable<Key, Tick>.Storage?
        Unretained(table.storage).withPinnedObject { outer in
            pinnedStorage = outer
            Unretained(outer).withPinnedObject { _ in
                _ = table.intern(Key.c)
            }
            #expect(pinnedStorage != nil, "the storage was released while a reader still held it")
            #expect(outer.readerPins.count == 1)
        }
        #expect(pinnedStorage == nil)
    }

    @Test func anUnpinnedTableChangesInPlace() {
        var table = RouteTable<Key, Tick>()
        let before = ObjectIdentifier(table.storage)
        Unretained(table.storage).withPinnedObject { _ in }
        _ = table.intern(Key.a)
        #expect(ObjectIdentifier(table.storage) == before)
    }

    @Test func aTableCopyStillCopiesOnWrite() {
        var table = RouteTable<Key, Tick>()
        let copy = table
        _ = table.intern(Key.a)
        #expect(copy.code(of: Key.a) == .unknown)
        #expect(!table.sharesStorage(with: copy))
    }
}
