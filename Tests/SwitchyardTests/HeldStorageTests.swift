import Testing

@testable import Switchyard

// A step holds the storage of the machine's tables it reads: a change made
// while it holds one goes to a copy (copy on write), and the storage it holds
// lives until its last reader lets it go.

private enum Key: StateType {
    case a, b, c, d
}

private enum Tick: EventType {
    case tick
}

@Suite struct HeldStorageTests {
    @Test func aChangeToAHeldTableGoesToACopyThatTheTableKeeps() {
        var table = RouteTable<Key, Tick>()
        _ = table.intern(Key.a)
        weak var heldStorage: RouteTable<Key, Tick>.Storage?
        do {
            let storage = table.storage
            heldStorage = storage
            _ = table.intern(Key.b)
            #expect(table.storage !== storage, "a change to a held table changed the storage in place")
            #expect(storage.states.code(of: .b) == .unknown, "the reader saw a change made after it took the storage")
            #expect(table.code(of: Key.b) != .unknown)
            withExtendedLifetime(storage) {}
        }
        #expect(heldStorage == nil, "the replaced storage outlived its last reader")
    }

    @Test func aReplacedStorageLivesUntilItsOutermostReaderLetsGo() {
        var table = RouteTable<Key, Tick>()
        weak var heldStorage: RouteTable<Key, Tick>.Storage?
        do {
            let outer = table.storage
            heldStorage = outer
            do {
                let inner = outer
                _ = table.intern(Key.c)
                withExtendedLifetime(inner) {}
            }
            #expect(heldStorage != nil, "the storage was released while a reader still held it")
            #expect(table.storage !== outer, "the change went to the storage a reader holds")
            withExtendedLifetime(outer) {}
        }
        #expect(heldStorage == nil)
    }

    @Test func aTableNoReaderHoldsChangesInPlace() {
        var table = RouteTable<Key, Tick>()
        let before = ObjectIdentifier(table.storage)
        do {
            let storage = table.storage
            withExtendedLifetime(storage) {}
        }
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

    @Test func aRouteTableChangedByAConditionDuringAStatechartsChoiceIsCopied() {
        // `tick` from a: the condition of a's route adds a route while the
        // step chooses; the choice reads the table it began with.
        let machine = Machine<Key, Tick>(state: .a) { machine in
            machine.addChildren([.a, .b], to: .c)
        }
        weak var heldStorage: RouteTable<Key, Tick>.Storage?
        var changedInPlace: Bool?
        machine.addRoutes(event: .tick, transitions: [.a => .b]) { [unowned machine] _ in
            let before = machine.routes.storage
            heldStorage = before
            machine.addRoutes(event: .tick, transitions: [.b => .a])
            changedInPlace = machine.routes.storage === before
            return true
        }
        machine.start()
        #expect(machine.tryEvent(.tick))
        #expect(changedInPlace == false, "a condition changed the route table a step holds in place")
        #expect(heldStorage == nil, "the replaced route table outlived the request")
        #expect(machine.state == .b)
        #expect(machine.tryEvent(.tick), "the route the condition added is not in the machine's table")
        #expect(machine.state == .a)
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
        weak var heldStorage: HandlerTable<Key, Tick>.Storage?
        var heard: [String] = []
        machine.addHandler(event: .tick) { [unowned machine] _ in
            heldStorage = machine.handlers.storage
            machine.addAnyHandler(.any => .c) { _ in heard.append("added") }
            #expect(machine.handlers.storage !== heldStorage, "a handler changed the held table in place")
        }
        #expect(machine.tryEvent(.tick))
        #expect(machine.state == .a)
        #expect(heard == ["added"], "the done step did not hear the handler added, or the step that added it did")
        #expect(heldStorage == nil, "the replaced handler table outlived the request")
    }

    @Test func noReaderHoldsATableOnceARequestEnds() {
        let machine = Machine<Key, Tick>(state: .a) { machine in
            machine.addChildren([.a, .b], to: .c)
            machine.addFinalState(.b)
            machine.addRoutes(event: .tick, transitions: [.a => .b]) { _ in true }
            machine.addDoneRoute(.c => .c)
            machine.addEntryHandler(.b) { _ in }
        }
        func expectUnheld(_ operation: String) {
            #expect(
                isKnownUniquelyReferenced(&machine.routes.storage), "the route table is still held after \(operation)")
            #expect(
                isKnownUniquelyReferenced(&machine.handlers.storage),
                "the handler table is still held after \(operation)")
        }
        machine.start()
        expectUnheld("start()")
        #expect(machine.tryEvent(.tick))
        expectUnheld("a step and its done step")
        #expect(!machine.tryState(.d))
        expectUnheld("a refused request")
        _ = machine.canTryEvent(.tick)
        expectUnheld("a question")
    }
}
