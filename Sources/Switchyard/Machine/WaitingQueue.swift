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
/// Running it, a drain takes each item in turn with ``next(_:)``, which
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
    /// How many of the deliveries, from the front, have run.
    @usableFromInline var deliveriesRun = 0
    /// How many of the requests, from the first, have run (or were taken).
    @usableFromInline var requestsRun = 0

    @inlinable
    init() {}

    /// Whether nothing waits to run.
    @inlinable
    var isEmpty: Bool { !hasDeliveries && !hasRequests }

    /// Whether deliveries wait to run.
    @inlinable
    var hasDeliveries: Bool { deliveryCount > deliveriesRun }

    /// Whether requests wait to run.
    @inlinable
    var hasRequests: Bool { items.count - deliveryCount > requestsRun }

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

    /// The work of `kind` that comes next, counted as run; `nil` once every
    /// one has run, and then they are gone. The queue keeps its place in
    /// each kind itself, so that a drain and ``takeFirstRequest(if:)``,
    /// called from the work the drain runs, share it.
    ///
    /// Once the items that ran are 64 or more and the larger half, they are
    /// dropped.
    ///
    /// Always inlined: a drain that runs unspecialised (a machine the thread
    /// resumes) would otherwise look up the queue's generic metadata for
    /// every item.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable @inline(__always)
    mutating func next(_ kind: Kind) -> Work? {
        let start = kind == .delivery ? 0 : deliveryCount
        let count = kind == .delivery ? deliveryCount : items.count - deliveryCount
        var run = kind == .delivery ? deliveriesRun : requestsRun
        guard run < count else {
            remove(kind, count: count)
            return nil
        }
        if run >= 64, run * 2 >= count {
            remove(kind, count: run)
            run = 0
        }
        let work = items[start + run]
        if kind == .delivery {
            deliveriesRun = run + 1
        } else {
            requestsRun = run + 1
        }
        return work
    }

    /// The request that waits first, if one does.
    @inlinable
    var firstRequest: Request? {
        guard hasRequests, case .request(let request) = items[deliveryCount + requestsRun] else { return nil }
        return request
    }

    /// The request that waits first, taken out of its turn, if there is one
    /// and `isWanted` says so: how a macrostep takes a completion that waits
    /// at the front of the queue.
    @inlinable
    mutating func takeFirstRequest(if isWanted: (Request) -> Bool) -> Request? {
        guard hasRequests, case .request(let request) = items[deliveryCount + requestsRun], isWanted(request)
        else { return nil }
        requestsRun += 1
        return request
    }

    /// Forgets the requests that wait and that `isDropped` says to drop.
    ///
    /// - Complexity: O(*n*) in the requests that wait.
    @usableFromInline
    mutating func dropRequests(where isDropped: (Request) -> Bool) {
        let first = deliveryCount + requestsRun
        guard first < items.count else { return }
        var kept: [Work] = []
        for work in items[first...] {
            if case .request(let request) = work, isDropped(request) { continue }
            kept.append(work)
        }
        items.replaceSubrange(first..., with: kept)
    }

    /// Forgets the first `count` items of `kind`, and that any of it ran.
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
            deliveriesRun = 0
        } else {
            requestsRun = 0
        }
    }
}
