/// A machine's work that waits, in one queue: the deliveries of a flat
/// machine (handlers of transitions already decided) and the requests of a
/// statechart (decided when they run).
///
/// The two kinds wait for different things, so each is run at its own moment
/// (see ``Machine``'s `deliver` and `endStep`), in the order it was queued,
/// including the work queued while it runs. The deliveries come first: a
/// machine queues deliveries only while it is flat and requests only once it
/// has a statechart, which it keeps; so the queue holds its work in the
/// order it was queued. Were a delivery queued behind a request, it would go
/// before it: each kind's order is kept whatever happens.
///
/// Running it, a drain takes each item in turn with ``next(_:after:)``, which
/// drops the items run now and then and forgets them all at the end: a long
/// handler-driven chain, which queues one item for each it runs, keeps the
/// queue short, and a drain of n items costs O(n).
@usableFromInline
struct WaitingQueue<Delivery, Request> {
    /// One item of waiting work.
    @usableFromInline
    enum Work {
        case delivery(Delivery)
        case request(Request)
    }

    /// The kind of work a drain runs.
    @usableFromInline
    enum Kind {
        case delivery
        case request
    }

    /// The deliveries, then the requests.
    @usableFromInline var items: [Work] = []
    /// How many of `items`, at the front, are deliveries.
    @usableFromInline var deliveryCount = 0

    @inlinable
    init() {}

    /// Whether nothing waits.
    @inlinable
    var isEmpty: Bool { items.isEmpty }

    /// Whether deliveries wait.
    @inlinable
    var hasDeliveries: Bool { deliveryCount > 0 }

    /// Whether requests wait.
    @inlinable
    var hasRequests: Bool { items.count > deliveryCount }

    /// Queues `delivery` after the other deliveries.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    mutating func append(delivery: consuming Delivery) {
        if deliveryCount == items.count {
            items.append(.delivery(delivery))
        } else {
            items.insert(.delivery(delivery), at: deliveryCount)
        }
        deliveryCount += 1
    }

    /// Queues `request` after the other requests.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    mutating func append(request: consuming Request) {
        items.append(.request(request))
    }

    /// The work of `kind` after the `cursor` items of it that ran, counting
    /// it in `cursor`; `nil` once every one has run, and then they are gone.
    ///
    /// Once the items that ran are 64 or more and the larger half, they are
    /// dropped and `cursor` starts again from zero.
    ///
    /// Always inlined: a drain that runs unspecialised (a machine the thread
    /// resumes) would otherwise look up the queue's generic metadata for
    /// every item.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable @inline(__always)
    mutating func next(_ kind: Kind, after cursor: inout Int) -> Work? {
        let start = kind == .delivery ? 0 : deliveryCount
        let count = kind == .delivery ? deliveryCount : items.count - deliveryCount
        guard cursor < count else {
            remove(kind, count: count)
            return nil
        }
        if cursor >= 64, cursor * 2 >= count {
            remove(kind, count: cursor)
            cursor = 0
        }
        cursor += 1
        return items[start + cursor - 1]
    }

    /// Forgets the first `count` items of `kind`.
    @inlinable
    mutating func remove(_ kind: Kind, count: Int) {
        if count == items.count {
            items.removeAll(keepingCapacity: true)
        } else {
            let start = kind == .delivery ? 0 : deliveryCount
            items.removeSubrange(start..<start + count)
        }
        if kind == .delivery {
            deliveryCount -= count
        }
    }
}
