/// A small number standing for a state or an event in a machine's tables.
///
/// A value is hashed once, when it is first registered (or once per request,
/// for an event); after that the tables are indexed by its code, and a
/// machine keeps the code of its current state beside the state, so that a
/// decision hashes no state at all.
@usableFromInline
typealias SymbolCode = UInt32

extension SymbolCode {
    /// `.any`: the code of the wildcard on either side of a key.
    @inlinable static var wildcard: SymbolCode { 0 }
    /// A value that no route or handler names (or not yet looked up): it
    /// matches wildcard keys only.
    @inlinable static var unknown: SymbolCode { .max }

    /// Whether the code names one registered value.
    @inlinable var isConcrete: Bool { self != .wildcard && self != .unknown }

    /// The event code under which eventless routes are kept, by source
    /// state: no event value is ever given it.
    @inlinable static var eventless: SymbolCode { .max - 1 }
    /// The event code under which the routes that react to a state being
    /// done are kept, by that state: SCXML's `done.state.ID`.
    @inlinable static var done: SymbolCode { .max - 2 }
    /// The first code kept for the machine's own use; values are given
    /// codes below it.
    @inlinable static var firstReserved: SymbolCode { .done }

    /// Whether the code stands for no event a user can send (eventless, done).
    @inlinable var isReservedEvent: Bool { self >= .firstReserved && self != .unknown }
}

/// The values a machine's routes and handlers name, each with its code.
///
/// Codes are handed out in registration order from 1. A code that a
/// declaration, a route or a handler names stays valid for the machine's
/// whole life, whatever routes are removed. A code only a step named — a
/// state a route mapping computed, or a request's target — is *transient*
/// (``internTransient(_:)``): its machine hands it back once nothing uses it
/// (``release(_:)``), and the next such state gets it, so that a mapping that
/// computes a new state each step does not grow the tables.
@usableFromInline
struct Symbols<Value: Hashable> {
    @usableFromInline var codes: [Value: SymbolCode] = [:]
    /// The values in code order: the value of code `c` is at `c - 1`;
    /// `nil` for an anonymous code (``reserveAnonymousCode()``) or one
    /// handed back.
    @usableFromInline var values: [Value?] = []
    /// The transient codes in use, few at a time: those of the states the
    /// machine is in or was asked about since it was last idle.
    @usableFromInline var transient: [SymbolCode] = []
    /// The codes handed back, for the next transient values.
    var released: [SymbolCode] = []
    /// The value interned last, with its code: registrations often name the
    /// same value again (an event's routes added one call at a time, the next
    /// step of a chain starting where the last one ended), and comparing costs
    /// much less than hashing.
    @usableFromInline var last: (value: Value, code: SymbolCode)?

    @inlinable
    init() {}

    /// The code of `value`, or ``SymbolCode/unknown`` if nothing names it.
    ///
    /// - Complexity: One hash of `value`, none when no value has a code.
    @inlinable
    func code(of value: Value) -> SymbolCode {
        codes.isEmpty ? .unknown : codes[value] ?? .unknown
    }

    /// Makes room for up to `count` more values at once, growing
    /// geometrically, so that many small batches still cost amortised O(1) each.
    @inlinable
    mutating func reserveRoom(forAdding count: Int) {
        let needed = codes.count + count
        if needed > codes.capacity {
            codes.reserveCapacity(Swift.max(needed, 2 * codes.capacity))
            values.reserveCapacity(Swift.max(needed, 2 * values.capacity))
        }
    }

    /// The code of `value` if it is the value interned last, `nil` if not:
    /// a look-up that writes nothing, so that naming that value again needs
    /// no unshared copy of the table.
    @inlinable
    func codeIfInternedLast(_ value: Value) -> SymbolCode? {
        guard let last, last.value == value else { return nil }
        return last.code
    }

    /// The code of `value` (`.wildcard` for `nil`), handing out a new one if
    /// nothing named it yet.
    ///
    /// - Complexity: One hash of `value`.
    @inlinable
    mutating func intern(_ value: Value?) -> SymbolCode {
        guard let value else { return .wildcard }
        if let code = codeIfInternedLast(value) {
            return code
        }
        let next = SymbolCode(truncatingIfNeeded: values.count + 1)
        require(next < .firstReserved, "A machine can name at most \(SymbolCode.firstReserved - 1) distinct values")
        // The defaulted subscript, passed inout, stores `next` for a new value
        // in the same look-up that finds an old one.
        let code = Self.read(&codes[value, default: next])
        if code == next {
            values.append(value)
        } else if !transient.isEmpty, let index = transient.firstIndex(of: code) {
            // Named now by what the machine keeps: it stays.
            transient.remove(at: index)
        }
        last = (value, code)
        return code
    }

    /// The code of `value`, which a step names: if nothing named it yet, a
    /// transient one, taken from those handed back when there is one.
    ///
    /// - Complexity: One hash of `value`.
    mutating func internTransient(_ value: Value) -> SymbolCode {
        if let code = codes[value] {
            return code
        }
        let code: SymbolCode
        if let reused = released.popLast() {
            code = reused
            values[Int(code) - 1] = value
        } else {
            code = SymbolCode(truncatingIfNeeded: values.count + 1)
            require(code < .firstReserved, "A machine can name at most \(SymbolCode.firstReserved - 1) distinct values")
            values.append(value)
        }
        codes[value] = code
        transient.append(code)
        return code
    }

    /// Hands back the transient `code`, which nothing uses any more: its
    /// value has no code until a step names it again.
    @usableFromInline
    mutating func release(_ code: SymbolCode) {
        guard let index = transient.firstIndex(of: code) else { return }
        transient.remove(at: index)
        if let value = values[Int(code) - 1] {
            codes[value] = nil
        }
        values[Int(code) - 1] = nil
        released.append(code)
    }

    /// Keeps the transient `code` for the machine's whole life, as if a
    /// declaration named it.
    @usableFromInline
    mutating func keep(_ code: SymbolCode) {
        if let index = transient.firstIndex(of: code) {
            transient.remove(at: index)
        }
    }

    /// Forgets which code `value` has, keeping the code and what it names:
    /// a state nested in this machine's, whose code another machine handed
    /// back, gives the code to the next state it names (see ``rename(_:to:)``).
    @usableFromInline
    mutating func forget(_ value: Value) {
        codes[value] = nil
        if last?.value == value {
            last = nil
        }
    }

    /// Has `code`, which ``forget(_:)`` let go of, name `value`, which has no code.
    @usableFromInline
    mutating func rename(_ code: SymbolCode, to value: Value) {
        precondition(codes[value] == nil, "Switchyard: a code was renamed to a value that has one")
        codes[value] = code
        values[Int(code) - 1] = value
    }

    /// The value of `code`, which must be concrete and named. (Debug builds
    /// check that it names one; release builds unwrap it unchecked.)
    @inlinable
    func value(of code: SymbolCode) -> Value {
        values[Int(code) - 1].unchecked("value(of:) was asked about code \(code), which names no value")
    }

    /// The value of `code`, `nil` for an anonymous one or one past the end.
    @inlinable
    func name(of code: SymbolCode) -> Value? {
        code.isConcrete && Int(code) <= values.count ? values[Int(code) - 1] : nil
    }

    /// Hands out a code that no value names: a state of a nested machine that
    /// this machine cannot name, which still needs a place in its tree.
    @usableFromInline
    mutating func reserveAnonymousCode() -> SymbolCode {
        let next = SymbolCode(truncatingIfNeeded: values.count + 1)
        require(next < .firstReserved, "A machine can name at most \(SymbolCode.firstReserved - 1) distinct values")
        values.append(nil)
        return next
    }

    /// How many values have codes; the highest code.
    @inlinable
    var count: Int { values.count }

    @inlinable
    static func read(_ code: inout SymbolCode) -> SymbolCode { code }
}
