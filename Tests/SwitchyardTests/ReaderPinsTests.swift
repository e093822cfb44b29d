import Testing

@testable import Switchyard

// A step reads its machine's route table pinned rather than retained: a
// change made while it is pinned goes to a copy, and the pinned storage lives
// until its last reader lets it go.

private enum Key: StateType {
    case a, b, c, d
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
        #expect(table.storage !== copy.storage)
    }

    @Test func aHandlerTableChangedByAHandlerIsCopiedOnceAndLetGoAfterTheRequest() {
        // `tick` takes a => b, which is final: the done route c => c follows
        // in the same request and enters a again.
        let machine = Machine<Key, Tick>(state: .a) { machine in
            machine.addChildren([.a, .b], to: .c)
            machine.addFinalState(.b)
            machine.addRoutes(event: .tick, transitions: [.a => .b])
            machine.addDoneRoute(.c => .c)
        }
        weak var pinnedStorage: HandlerTable<Key, Tick>.Storage?
        var heard: [String] = []
        machine.addHandler(event: .tick) { [unowned machine] _ in
            pinnedStorage = machine.handlers.storage
            machine.addAnyHandler(.any => .c) { _ in heard.append("added") }
            #expect(machine.handlers.storage !== pinnedStorage, "a handler changed the pinned table in place")
        }
        #expect(machine.tryEvent(.tick))
        #expect(machine.state == .a)
        #expect(heard == ["added"], "the done step did not hear the handler added, or the step that added it did")
        #expect(pinnedStorage == nil, "the replaced handler table outlived the request")
    }

    @Test func noReaderHoldsATableOnceARequestEnds() {
        let machine = Machine<Key, Tick>(state: .a) { machine in
            machine.addChildren([.a, .b], to: .c)
            machine.addFinalState(.b)
            machine.addRoutes(event: .tick, transitions: [.a => .b]) { _ in true }
            machine.addDoneRoute(.c => .c)
            machine.addEntryHandler(.b) { _ in }
        }
        func expectUnpinned(_ operation: String) {
            #expect(!machine.routes.storage.isPinned, "the route table is still pinned after \(operation)")
            #expect(!machine.handlers.storage.isPinned, "the handler table is still pinned after \(operation)")
        }
        machine.start()
        expectUnpinned("start()")
        #expect(machine.tryEvent(.tick))
        expectUnpinned("a step and its done step")
        #expect(!machine.tryState(.d))
        expectUnpinned("a refused request")
        _ = machine.canTryEvent(.tick)
        expectUnpinned("a question")
    }
}
