/// The codes of the last few events a machine looked up: a machine mostly
/// receives a handful of events over and over (a tick, "next", a round of
/// "pay", "pack", "ship"), and comparing an event with four others costs
/// much less than hashing it.
///
/// Codes are never withdrawn (see `Engine/Symbols.swift`), so a remembered
/// pair stays true for the machine's life: nothing invalidates this cache.
/// It keeps events of a trivial type only, so that a machine holds on to
/// nothing an event carries; for other types it remembers nothing.
@usableFromInline
struct RecentEventCodes<E: EventType> {
    /// How many events are remembered.
    @usableFromInline
    static var capacity: Int { 4 }

    /// The remembered events, the most recently added at `next - 1`
    /// (round-robin), with their codes.
    @usableFromInline var entries: [(event: E, code: SymbolCode)] = []
    @usableFromInline var next = 0

    @inlinable
    init() {}

    /// The remembered code of `event`, if any.
    ///
    /// - Complexity: At most ``capacity`` comparisons.
    @inlinable
    func code(of event: E) -> SymbolCode? {
        for index in entries.indices where entries[index].event == event {
            return entries[index].code
        }
        return nil
    }

    /// Remembers `code` for `event`, in place of the event remembered
    /// longest ago once ``capacity`` are.
    @inlinable
    mutating func remember(_ code: SymbolCode, for event: E) {
        guard _isPOD(E.self) else { return }
        if entries.count < Self.capacity {
            entries.append((event, code))
        } else {
            entries[next] = (event, code)
        }
        next = (next + 1) % Self.capacity
    }
}
