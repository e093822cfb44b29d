/// A handler as the machine keeps it, with its place in the delivery order.
@usableFromInline
struct HandlerRecord<S: StateType, E: EventType> {
    @usableFromInline let order: HandlerOrder
    /// How specific the registration is (0 most); breaks ties of equal `order`.
    @usableFromInline let rank: UInt8
    @usableFromInline let id: RegistrationID
    @usableFromInline let body: (TransitionContext<S, E>) -> Void

    @inlinable
    init(order: HandlerOrder, rank: UInt8, id: RegistrationID, body: @escaping (TransitionContext<S, E>) -> Void) {
        self.order = order
        self.rank = rank
        self.id = id
        self.body = body
    }

    /// Whether this handler runs before `other` in one delivery.
    @inlinable
    func precedes(_ other: HandlerRecord) -> Bool {
        (order, rank, id.rawValue) < (other.order, other.rank, other.id.rawValue)
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

/// Where a handler is registered, which decides the transitions it hears of.
@usableFromInline
enum HandlerSlot<S: StateType, E: EventType> {
    /// Event-driven transitions caused by this event (or any event).
    case event(Event<E>)
    /// State-driven transitions covered by this transition.
    case state(TransitionKey<S>)
    /// Transitions of both kinds covered by this transition.
    case any(TransitionKey<S>)
    /// Failed requests of both kinds.
    case error

    /// How specific the slot is, 0 most: an exact event before `.any`, and
    /// `from => to`, `from => .any`, `.any => to`, `.any => .any` in that order.
    @inlinable
    var rank: UInt8 {
        switch self {
        case .event(let event): event.rawValue == nil ? 1 : 0
        case .state(let key), .any(let key): UInt8(key.shape)
        case .error: 0
        }
    }
}

/// The handlers of one machine, kept sorted in buckets so that a delivery
/// merges a few sorted lists instead of sorting.
///
/// Like ``RouteTable``, a value type over one copy-on-write storage object: a
/// delivery reads a copy, so handlers added or removed by handlers change the
/// machine's table, not the lists being delivered.
@usableFromInline
struct HandlerTable<S: StateType, E: EventType> {
    @usableFromInline typealias Record = HandlerRecord<S, E>

    @usableFromInline
    final class Storage {
        /// Handlers for event-driven transitions, by event (`.any` included).
        @exclusivity(unchecked) @usableFromInline var eventHandlers = Buckets<Event<E>, Record>()
        /// Handlers for state-driven transitions, by transition.
        @exclusivity(unchecked) @usableFromInline var stateHandlers = Buckets<TransitionKey<S>, Record>()
        /// Handlers for both kinds, by transition.
        @exclusivity(unchecked) @usableFromInline var anyHandlers = Buckets<TransitionKey<S>, Record>()
        @exclusivity(unchecked) @usableFromInline var errorHandlers: [Record] = []

        @inlinable
        init() {}

        @inlinable
        init(copying other: Storage) {
            eventHandlers = other.eventHandlers
            stateHandlers = other.stateHandlers
            anyHandlers = other.anyHandlers
            errorHandlers = other.errorHandlers
        }
    }

    @usableFromInline var storage = Storage()

    @inlinable
    init() {}

    /// The storage, copied first if a delivery in progress still reads it.
    @inlinable
    var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(copying: storage)
            }
            return storage
        }
    }

    // MARK: Registration

    @inlinable
    mutating func add(_ record: Record, to slot: HandlerSlot<S, E>) {
        let storage = uniqueStorage
        let precedes: (Record, Record) -> Bool = { $0.precedes($1) }
        switch slot {
        case .event(let event): storage.eventHandlers.insert(record, at: event, by: precedes)
        case .state(let key): storage.stateHandlers.insert(record, at: key, by: precedes)
        case .any(let key): storage.anyHandlers.insert(record, at: key, by: precedes)
        case .error: storage.errorHandlers.insertSorted(record, by: precedes)
        }
    }

    @inlinable
    mutating func remove(_ id: RegistrationID, from slot: HandlerSlot<S, E>) {
        let storage = uniqueStorage
        switch slot {
        case .event(let event): storage.eventHandlers.removeAll(at: event) { $0.id == id }
        case .state(let key): storage.stateHandlers.removeAll(at: key) { $0.id == id }
        case .any(let key): storage.anyHandlers.removeAll(at: key) { $0.id == id }
        case .error: storage.errorHandlers.removeAll { $0.id == id }
        }
    }

    // MARK: Delivery

    /// Calls `body` with every handler that `kind` of transition from `from`
    /// to `to` concerns, in delivery order: by `order`, then most specific
    /// first, then registration order.
    ///
    /// The sorted buckets are merged on the fly, without allocating.
    @inlinable
    func forEachHandler(kind: DeliveryKind, event: E?, from: S, to: S, _ body: (Record) -> Void) {
        if kind == .error {
            storage.errorHandlers.forEach(body)
            return
        }
        withUnsafeTemporaryAllocation(of: Cursor.self, capacity: 10) { buffer in
            let cursors = buffer.baseAddress!
            var count = 0
            func add(_ bucket: [Record]?) {
                guard let bucket, !bucket.isEmpty else { return }
                (cursors + count).initialize(to: Cursor(records: bucket))
                count += 1
            }
            func addBuckets(of table: Buckets<TransitionKey<S>, Record>) {
                guard !table.isEmpty else { return }
                add(table[TransitionKey(from: from, to: to)])
                add(table[TransitionKey(from: from, to: nil)])
                add(table[TransitionKey(from: nil, to: to)])
                add(table[TransitionKey(from: nil, to: nil)])
            }
            if kind == .event, !storage.eventHandlers.isEmpty {
                if let event {
                    add(storage.eventHandlers[.some(event)])
                }
                add(storage.eventHandlers[.any])
            }
            if kind == .state {
                addBuckets(of: storage.stateHandlers)
            }
            addBuckets(of: storage.anyHandlers)
            defer { cursors.deinitialize(count: count) }
            Self.merge(cursors, count: count, body)
        }
    }

    /// A position in one sorted bucket.
    @usableFromInline
    struct Cursor {
        @usableFromInline var records: [Record]
        @usableFromInline var index = 0

        @inlinable
        init(records: [Record]) {
            self.records = records
        }
    }

    /// Calls `body` with the records of `count` sorted buckets in merged order.
    @inlinable
    static func merge(_ cursors: UnsafeMutablePointer<Cursor>, count: Int, _ body: (Record) -> Void) {
        if count == 1 {
            for record in cursors[0].records {
                body(record)
            }
            return
        }
        while true {
            var best = -1
            for position in 0..<count where cursors[position].index < cursors[position].records.count {
                if best < 0
                    || cursors[position].records[cursors[position].index].precedes(
                        cursors[best].records[cursors[best].index])
                {
                    best = position
                }
            }
            guard best >= 0 else { return }
            let record = cursors[best].records[cursors[best].index]
            cursors[best].index += 1
            body(record)
        }
    }
}
