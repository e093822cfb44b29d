/// An event lent by address to the machines of a hierarchy for the length
/// of one request, so that each machine whose event type is the root's reads
/// it where it is (a copy into an existential, or a cast from one, would
/// cost more than the rest of the look-up).
///
/// Invariants: a borrowed event is used only inside the closure that
/// ``lending(_:_:)`` calls (a step runs, and its handlers are told, inside
/// it), and is read as the type it was lent as. Debug builds check the type
/// at each read.
@usableFromInline
struct BorrowedEvent {
    @usableFromInline let address: UnsafeRawPointer
    #if DEBUG
        @usableFromInline let type: ObjectIdentifier
    #endif

    @inlinable
    init<E>(_ address: UnsafePointer<E>) {
        // A value with no stored bytes (an enum of one case) has no address
        // of its own: an optimised build may lend it at any, null included,
        // which an optional borrowed event reads as no event at all. It is
        // lent at a fixed address instead, where reading it reads nothing.
        self.address = MemoryLayout<E>.size == 0 ? Self.addressOfEmptyValues : UnsafeRawPointer(address)
        #if DEBUG
            type = ObjectIdentifier(E.self)
        #endif
    }

    /// Where values with no stored bytes are lent: any address but null,
    /// aligned for them (their alignment is 1).
    @inlinable
    static var addressOfEmptyValues: UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: 1).unchecked("1 is not null")
    }

    /// Calls `body` with `event`, lent for the call.
    @inlinable
    @inline(__always)
    static func lending<E, Result>(_ event: E, _ body: (BorrowedEvent) -> Result) -> Result {
        withUnsafePointer(to: event) { body(BorrowedEvent($0)) }
    }

    /// The event, read as the type it was lent as.
    @inlinable
    @inline(__always)
    func load<E>(as type: E.Type) -> E {
        #if DEBUG
            assert(
                self.type == ObjectIdentifier(E.self),
                "Switchyard: an event lent to the machines of a hierarchy was read as \(E.self), another type")
        #endif
        return address.load(as: E.self)
    }
}
