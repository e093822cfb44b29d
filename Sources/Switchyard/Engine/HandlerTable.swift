/// A handler as the machine keeps it: its place in the delivery order and
/// whether it has been disposed.
///
/// A reference, so that disposing it from inside a delivery is seen by that
/// delivery at once: a disposed handler never runs again.
@usableFromInline
final class HandlerRecord<S: StateType, E: EventType> {
    @usableFromInline let order: HandlerOrder
    /// How specific the registration is (0 most); breaks ties of equal `order`.
    @usableFromInline let rank: UInt8
    @usableFromInline let id: RegistrationID
    @usableFromInline let body: (TransitionContext<S, E>) -> Void
    @usableFromInline var isDisposed = false

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
        case .event(.some): 0
        case .event(.any): 1
        case .state(let key), .any(let key): key.rank
        case .error: 0
        }
    }
}

/// The handlers of one machine, kept sorted in buckets so that a delivery
/// merges a few sorted lists instead of sorting.
@usableFromInline
struct HandlerTable<S: StateType, E: EventType> {
    @usableFromInline typealias Record = HandlerRecord<S, E>

    /// Handlers for event-driven transitions, by event (`.any` included).
    @usableFromInline var eventHandlers: [Event<E>: [Record]] = [:]
    /// Handlers for state-driven transitions, by transition.
    @usableFromInline var stateHandlers: [TransitionKey<S>: [Record]] = [:]
    /// Handlers for both kinds, by transition.
    @usableFromInline var anyHandlers: [TransitionKey<S>: [Record]] = [:]
    @usableFromInline var errorHandlers: [Record] = []

    @inlinable
    init() {}

    // MARK: Registration

    @inlinable
    mutating func add(_ record: Record, to slot: HandlerSlot<S, E>) {
        switch slot {
        case .event(let event): Self.insert(record, into: &eventHandlers[event, default: []])
        case .state(let key): Self.insert(record, into: &stateHandlers[key, default: []])
        case .any(let key): Self.insert(record, into: &anyHandlers[key, default: []])
        case .error: Self.insert(record, into: &errorHandlers)
        }
    }

    @inlinable
    mutating func remove(_ record: Record, from slot: HandlerSlot<S, E>) {
        switch slot {
        case .event(let event): Self.remove(record, at: event, from: &eventHandlers)
        case .state(let key): Self.remove(record, at: key, from: &stateHandlers)
        case .any(let key): Self.remove(record, at: key, from: &anyHandlers)
        case .error: errorHandlers.removeAll { $0 === record }
        }
    }

    /// Inserts after every handler that runs before it: O(1) when handlers
    /// arrive in order, O(bucket) otherwise.
    @inlinable
    static func insert(_ record: Record, into bucket: inout [Record]) {
        var index = bucket.endIndex
        while index > bucket.startIndex, record.precedes(bucket[index - 1]) {
            index -= 1
        }
        bucket.insert(record, at: index)
    }

    @inlinable
    static func remove<Key>(_ record: Record, at key: Key, from buckets: inout [Key: [Record]]) {
        guard let index = buckets.index(forKey: key) else { return }
        buckets.values[index].removeAll { $0 === record }
        if buckets.values[index].isEmpty {
            buckets.remove(at: index)
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
            errorHandlers.forEach(body)
            return
        }
        let transitionKeys = (
            TransitionKey(from: from, to: to), TransitionKey(from: from, to: nil),
            TransitionKey(from: nil, to: to), TransitionKey<S>(from: nil, to: nil)
        )
        withUnsafeTemporaryAllocation(of: Cursor.self, capacity: 10) { cursors in
            var count = 0
            func add(_ bucket: [Record]?) {
                guard let bucket, !bucket.isEmpty else { return }
                cursors.initializeElement(at: count, to: Cursor(records: bucket))
                count += 1
            }
            func addBuckets(of table: [TransitionKey<S>: [Record]]) {
                guard !table.isEmpty else { return }
                add(table[transitionKeys.0])
                add(table[transitionKeys.1])
                add(table[transitionKeys.2])
                add(table[transitionKeys.3])
            }
            if kind == .event, !eventHandlers.isEmpty {
                if let event {
                    add(eventHandlers[.some(event)])
                }
                add(eventHandlers[.any])
            }
            if kind == .state {
                addBuckets(of: stateHandlers)
            }
            addBuckets(of: anyHandlers)
            defer { cursors.prefix(count).deinitialize() }
            Self.merge(cursors.prefix(count), body)
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

    @inlinable
    static func merge(_ cursors: Slice<UnsafeMutableBufferPointer<Cursor>>, _ body: (Record) -> Void) {
        if cursors.count == 1 {
            cursors.first!.records.forEach(body)
            return
        }
        while true {
            var next: Int?
            for position in cursors.indices where cursors[position].index < cursors[position].records.count {
                let candidate = cursors[position].records[cursors[position].index]
                if let best = next, !candidate.precedes(cursors[best].records[cursors[best].index]) {
                    continue
                }
                next = position
            }
            guard let best = next else { return }
            let record = cursors[best].records[cursors[best].index]
            cursors.base[best].index += 1
            body(record)
        }
    }
}
