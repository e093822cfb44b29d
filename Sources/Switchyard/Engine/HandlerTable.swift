/// A handler as a delivery reads it from a ``HandlerTable``: its place in
/// the delivery order, and its closure.
@usableFromInline
struct HandlerRecord<S: StateType, E: EventType> {
    @usableFromInline
    typealias Body = (TransitionContext<S, E>) -> Void

    /// Where the handler sits in the delivery order.
    @usableFromInline let entry: HandlerEntry
    /// The handler's closure, lent by the table the record was read from
    /// (see ``HandlerTable/Storage/subscript(_:)``).
    @usableFromInline let body: Unretained<HandlerBody<S, E>>

    @inlinable
    init(entry: HandlerEntry, body: Unretained<HandlerBody<S, E>>) {
        self.entry = entry
        self.body = body
    }

    /// The registration.
    @inlinable
    var id: RegistrationID {
        entry.id
    }

    /// Runs the handler with `context`, without retaining its closure.
    @inlinable
    @inline(__always)
    func call(_ context: TransitionContext<S, E>) {
        body.withObject { $0.call(context) }
    }
}

/// A handler's closure alone in an object, which a delivery calls without a
/// retain.
///
/// A closure read out of an array is copied, which retains its captures and
/// releases them after the call: two atomic operations, which cost a step
/// with one handler about as much time as choosing it. Read from this
/// object's `let` while the object is lent (``Unretained``), the closure is
/// borrowed instead. Its type is spelled out rather than generic, so that
/// it is kept as the caller calls it, with no reabstraction thunk per call.
/// A table makes one at a handler's first call (see
/// ``HandlerTable/StoredBody/box``).
@usableFromInline
final class HandlerBody<S: StateType, E: EventType> {
    @usableFromInline let call: (TransitionContext<S, E>) -> Void

    @inlinable
    init(_ call: @escaping (TransitionContext<S, E>) -> Void) {
        self.call = call
    }
}

/// A handler's place in the delivery order, and where it is registered: what
/// the chains of a ``HandlerTable`` hold. The handler's closure is kept apart
/// (see ``HandlerTable/Storage/bodies``), so that these stay trivial to copy.
@usableFromInline
struct HandlerEntry {
    /// `order`, then rank (how specific the registration is, 0 most), then
    /// the registration, packed so that one comparison orders two handlers.
    @usableFromInline let sortKey: UInt64
    /// Where the handler is kept, so that its node alone can remove it.
    @usableFromInline let slot: HandlerSlot

    @inlinable
    init(order: HandlerOrder, slot: HandlerSlot, id: RegistrationID) {
        require(id.rawValue < 1 << 48, "A machine can register at most 2^48 routes and handlers")
        self.sortKey = UInt64(order) << 56 | UInt64(slot.rank) << 48 | id.rawValue
        self.slot = slot
    }

    /// The registration, kept in the low bits of ``sortKey``.
    @inlinable
    var id: RegistrationID {
        RegistrationID(rawValue: sortKey & (1 << 48 - 1))
    }
}

/// Which handlers a transition concerns.
@usableFromInline
enum DeliveryKind {
    /// A successful `tryEvent`: event handlers and "any" handlers.
    case event
    /// A successful `tryState`: transition handlers and "any" handlers.
    case state
    /// A failed request of either kind: error handlers.
    case error
}

/// The codes of one transition's event and states, which pick its handlers.
@usableFromInline
struct TransitionCodes {
    /// The event's code; ``SymbolCode/wildcard`` for a state-driven transition.
    @usableFromInline var event: SymbolCode
    @usableFromInline var from: SymbolCode
    @usableFromInline var to: SymbolCode

    @inlinable
    init(event: SymbolCode, from: SymbolCode, to: SymbolCode) {
        self.event = event
        self.from = from
        self.to = to
    }
}

/// Where a handler is registered, which decides the transitions it hears of.
/// States and events appear as their codes (``Symbols``), `.any` as
/// ``SymbolCode/wildcard``.
@usableFromInline
enum HandlerSlot {
    /// Event-driven transitions caused by this event (or any event).
    case event(SymbolCode)
    /// State-driven transitions covered by this (from, to) pair.
    case state(from: SymbolCode, to: SymbolCode)
    /// Transitions of both kinds covered by this (from, to) pair.
    case any(from: SymbolCode, to: SymbolCode)
    /// Failed requests of both kinds.
    case error
    /// Entries into this state.
    case entry(SymbolCode)
    /// Exits from this state.
    case exit(SymbolCode)
    /// The action of one route, run when that route is taken; the route
    /// refers to it by its node.
    case action

    /// How specific the slot is, 0 most: an exact event before `.any`, and
    /// `from => to`, `from => .any`, `.any => to`, `.any => .any` in that order.
    @inlinable
    var rank: UInt8 {
        switch self {
        case .event(let code): code == .wildcard ? 1 : 0
        case .state(let from, let to), .any(let from, let to): UInt8(PairIndex.shape(from, to))
        case .error, .entry, .exit, .action: 0
        }
    }
}

/// The handlers of one machine, kept sorted in chains so that a delivery
/// merges a few sorted lists instead of sorting.
///
/// Like ``RouteTable``, a value type over one copy-on-write storage object: a
/// delivery holds the storage it reads, so handlers
/// added or removed by handlers change the machine's table, not the lists
/// being delivered.
@usableFromInline
struct HandlerTable<S: StateType, E: EventType> {
    @usableFromInline
    typealias Record = HandlerRecord<S, E>

    @usableFromInline
    final class Storage: TableStorage {
        @usableFromInline
        @exclusivity(unchecked) var entries = ChainStore<HandlerEntry>()
        /// The closure of the handler at each node of ``entries``, by node; a
        /// free node's does nothing.
        ///
        /// Apart from the entries because a chain's node holds an optional:
        /// reading a closure out of an optional record copied and destroyed
        /// the whole record through outlined functions, two calls per handler
        /// delivered.
        @usableFromInline
        @exclusivity(unchecked) var bodies: [StoredBody] = []
        /// Handlers for event-driven transitions, by event code (`.any` at 0).
        @usableFromInline
        @exclusivity(unchecked) var eventHandlers: [Chain] = []
        /// Handlers for state-driven transitions, by (from, to).
        @usableFromInline
        @exclusivity(unchecked) var stateHandlers = PairIndex()
        /// Handlers for both kinds, by (from, to).
        @usableFromInline
        @exclusivity(unchecked) var anyHandlers = PairIndex()
        @usableFromInline
        @exclusivity(unchecked) var errorHandlers = Chain()
        /// Entry and exit handlers, by state code.
        @usableFromInline
        @exclusivity(unchecked) var entryHandlers: [Chain] = []
        @usableFromInline
        @exclusivity(unchecked) var exitHandlers: [Chain] = []
        /// The routes' actions, in one chain: a route finds its own by node.
        @exclusivity(unchecked) var actionHandlers = Chain()
        /// How many entry and exit handlers there are: none keeps a flat
        /// machine on its fast path.
        @usableFromInline
        @exclusivity(unchecked) var lifecycleHandlerCount = 0

        @inlinable
        init() {}

        @usableFromInline
        init(copying other: Storage) {
            entries = other.entries
            bodies = other.bodies
            eventHandlers = other.eventHandlers
            stateHandlers = other.stateHandlers
            anyHandlers = other.anyHandlers
            errorHandlers = other.errorHandlers
            entryHandlers = other.entryHandlers
            exitHandlers = other.exitHandlers
            actionHandlers = other.actionHandlers
            lifecycleHandlerCount = other.lifecycleHandlerCount
        }

        /// The entry or exit handlers' chain of the state `code`.
        @inlinable
        func lifecycleChain(entering: Bool, _ code: SymbolCode) -> Chain {
            // Each list read in place: a copy of either would cost a retain.
            if entering {
                return Int(code) < entryHandlers.count ? entryHandlers[Int(code)] : Chain()
            }
            return Int(code) < exitHandlers.count ? exitHandlers[Int(code)] : Chain()
        }

        /// The event handlers' chain of `code`; empty for an unknown event.
        @inlinable
        func eventChain(_ code: SymbolCode) -> Chain {
            Int(code) < eventHandlers.count ? eventHandlers[Int(code)] : Chain()
        }

        /// Adds the handler `body` at `entry`; see ``HandlerTable/add(_:body:)``.
        func add(_ entry: HandlerEntry, body: @escaping Record.Body) -> Int32 {
            let node = insert(entry)
            // The node is either a free one, whose closure is replaced, or a new
            // one at the end.
            if Int(node) < bodies.count {
                bodies[Int(node)] = StoredBody(body)
            } else {
                assert(Int(node) == bodies.count, "A new node is the next after the last")
                bodies.append(StoredBody(body))
            }
            return node
        }

        /// Adds `entry` to the chain of its slot, in order.
        func insert(_ entry: HandlerEntry) -> Int32 {
            let precedes: (HandlerEntry, HandlerEntry) -> Bool = { $0.sortKey < $1.sortKey }
            switch entry.slot {
            case .event(let code):
                HandlerTable.grow(&eventHandlers, toHold: code)
                return entries.insert(entry, into: &eventHandlers[Int(code)], by: precedes)
            case .state(let from, let to):
                return stateHandlers.withChain(from, to) { entries.insert(entry, into: &$0, by: precedes) }
            case .any(let from, let to):
                return anyHandlers.withChain(from, to) { entries.insert(entry, into: &$0, by: precedes) }
            case .error:
                return entries.insert(entry, into: &errorHandlers, by: precedes)
            case .entry(let code):
                lifecycleHandlerCount += 1
                HandlerTable.grow(&entryHandlers, toHold: code)
                return entries.insert(entry, into: &entryHandlers[Int(code)], by: precedes)
            case .exit(let code):
                lifecycleHandlerCount += 1
                HandlerTable.grow(&exitHandlers, toHold: code)
                return entries.insert(entry, into: &exitHandlers[Int(code)], by: precedes)
            case .action:
                return entries.insert(entry, into: &actionHandlers, by: precedes)
            }
        }

        /// Removes the record at `node` of `slot`; see ``HandlerTable/remove(_:from:)``.
        func remove(_ node: Int32, from slot: HandlerSlot) -> Record.Body {
            switch slot {
            case .event(let code):
                _ = entries.remove(node, from: &eventHandlers[Int(code)])
            case .state(let from, let to):
                _ = stateHandlers.withChain(from, to) { entries.remove(node, from: &$0) }
            case .any(let from, let to):
                _ = anyHandlers.withChain(from, to) { entries.remove(node, from: &$0) }
            case .error:
                _ = entries.remove(node, from: &errorHandlers)
            case .entry(let code):
                lifecycleHandlerCount -= 1
                _ = entries.remove(node, from: &entryHandlers[Int(code)])
            case .exit(let code):
                lifecycleHandlerCount -= 1
                _ = entries.remove(node, from: &exitHandlers[Int(code)])
            case .action:
                _ = entries.remove(node, from: &actionHandlers)
            }
            // The box, if any, goes here; the closure it shares goes to the
            // caller, so that releasing the box releases no captures.
            let body = bodies[Int(node)].call
            bodies[Int(node)] = StoredBody { _ in }
            return body
        }

        /// The record at `node`, which must be in a chain.
        ///
        /// Its closure is lent, not retained: this storage keeps it, and a
        /// storage that a delivery reads keeps its handlers until the
        /// delivery ends (it is held, so a change goes to
        /// another storage). A record is used only while its storage is read so.
        @inlinable
        subscript(node: Int32) -> Record {
            Record(entry: entries[node], body: box(at: node))
        }

        /// The box of the handler at `node`, which must be in a chain, lent
        /// (see ``StoredBody/box``).
        @inlinable
        @inline(__always)
        func box(at node: Int32) -> Unretained<HandlerBody<S, E>> {
            if let box = bodies[Int(node)].box {
                return Unretained(box)
            }
            return Unretained(makeBox(at: node))
        }

        /// Makes the box of the handler at `node`; out of line, as it runs
        /// once per handler.
        @usableFromInline
        @inline(never)
        func makeBox(at node: Int32) -> HandlerBody<S, E> {
            let box = HandlerBody(bodies[Int(node)].call)
            bodies[Int(node)].box = box
            return box
        }
    }

    /// A handler's closure as an element of ``Storage/bodies``. Wrapped,
    /// because an array keeps a bare closure at its most general abstraction
    /// (its result returned indirectly): each call would go through one more
    /// reabstraction thunk.
    @usableFromInline
    struct StoredBody {
        @usableFromInline let call: Record.Body
        /// The box through which a delivery calls ``call``: made at the
        /// handler's first call (``Storage/box(at:)``), `nil` before it.
        ///
        /// Made then, not when the handler is added, so that adding and
        /// disposing handlers allocates no box. The one change a delivery
        /// makes to the storage it reads: it alters no handler, and the box
        /// stays for as long as its handler does.
        @usableFromInline var box: HandlerBody<S, E>?

        @inlinable
        init(_ call: @escaping Record.Body) {
            self.call = call
        }
    }

    @usableFromInline var storage: Storage

    @inlinable
    init() {
        storage = Storage()
    }

    // MARK: Registration

    /// Adds the handler `body` to the slot of `entry`, after the handlers
    /// it does not precede.
    ///
    /// - Returns: The handler's node, for ``remove(_:from:)``.
    /// - Complexity: O(1) when handlers of a slot are added in `order`;
    ///   otherwise O(*k*) in the slot's handlers of a higher order.
    mutating func add(_ entry: HandlerEntry, body: @escaping Record.Body) -> Int32 {
        withUniqueStorage { $0.add(entry, body: body) }
    }

    static func grow(_ chains: inout [Chain], toHold code: SymbolCode) {
        if Int(code) >= chains.count {
            chains += repeatElement(Chain(), count: Int(code) + 1 - chains.count)
        }
    }

    /// Whether any entry or exit handler is registered.
    @inlinable
    var hasLifecycleHandlers: Bool {
        storage.lifecycleHandlerCount > 0
    }

    /// Calls `body` with the registration of every handler in the table.
    func forEachRegistration(_ body: (RegistrationID) -> Void) {
        storage.entries.forEachElement { body($0.id) }
    }

    /// Removes the record at `node` of `slot`.
    ///
    /// - Returns: The record's handler, for the caller to let go of once it
    ///   is done with the table: its captures may run code that changes the
    ///   table. The handler alone, because the rest of the record holds
    ///   nothing to release, and a whole record handed back is destroyed
    ///   through its value witnesses.
    /// - Complexity: O(1).
    mutating func remove(_ node: Int32, from slot: HandlerSlot) -> Record.Body {
        withUniqueStorage { $0.remove(node, from: slot) }
    }

}

extension HandlerTable: CopyOnWriteTable {}
