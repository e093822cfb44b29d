import Testing

@testable import Switchyard

// An event is lent to the machines of a hierarchy by address; an optional
// borrowed event at null would read as no event at all.

private enum OneCase: EventType {
    case only
}

private enum TwoCases: EventType {
    case first, second
}

@Suite struct BorrowedEventTests {
    @Test func anEventWithNoStoredBytesIsLentAtAnAddressThatIsNotNull() {
        #expect(MemoryLayout<OneCase>.size == 0)
        let read = BorrowedEvent.lending(OneCase.only) { (event: BorrowedEvent?) in
            event?.load(as: OneCase.self)
        }
        #expect(read == .only)
    }

    @Test func anEventIsReadBackAsItWasLent() {
        let read = BorrowedEvent.lending(TwoCases.second) { (event: BorrowedEvent?) in
            event?.load(as: TwoCases.self)
        }
        #expect(read == .second)
    }
}
