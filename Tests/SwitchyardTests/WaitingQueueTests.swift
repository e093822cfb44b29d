import Testing

@testable import Switchyard

// The queue of a machine's waiting work, on its own: deliveries (here
// numbers) and requests (here strings), each kind drained in the order it
// was queued, with the work queued during a drain.

@Suite struct WaitingQueueTests {
    private typealias Queue = WaitingQueue<Int, String>

    /// Runs the waiting work of `kind` as a machine does, letting `body`
    /// queue more; returns what ran.
    private func drain(
        _ queue: inout Queue, _ kind: Queue.Kind, _ body: (Queue.Work, inout Queue) -> Void = { _, _ in }
    ) -> [String] {
        var ran: [String] = []
        while let work = queue.next(kind) {
            switch work {
            case .delivery(let number): ran.append("\(number)")
            case .request(let name): ran.append(name)
            }
            body(work, &queue)
        }
        return ran
    }

    @Test func eachKindRunsInTheOrderItWasQueuedAndLeavesTheOther() {
        var queue = Queue()
        queue.append(delivery: 1)
        queue.append(delivery: 2)
        queue.append(request: "a")
        queue.append(request: "b")
        #expect(queue.hasDeliveries && queue.hasRequests)

        #expect(drain(&queue, .request) == ["a", "b"])
        #expect(queue.hasDeliveries && !queue.hasRequests)
        #expect(drain(&queue, .delivery) == ["1", "2"])
        #expect(queue.isEmpty)
    }

    @Test func aDeliveryQueuedBehindARequestRunsWithTheDeliveries() {
        var queue = Queue()
        queue.append(request: "a")
        queue.append(delivery: 1)
        queue.append(request: "b")

        #expect(drain(&queue, .delivery) == ["1"])
        #expect(!queue.hasDeliveries)
        #expect(drain(&queue, .request) == ["a", "b"])
        #expect(queue.isEmpty)
    }

    @Test(arguments: [true, false])
    func aLongChainRunsInOrderAndTheQueueStaysShort(ofDeliveries: Bool) {
        let kind: Queue.Kind = ofDeliveries ? .delivery : .request
        var queue = Queue()
        // Work of the other kind waits throughout, untouched.
        if kind == .delivery {
            queue.append(request: "other")
            queue.append(delivery: 0)
        } else {
            queue.append(delivery: -1)
            queue.append(request: "0")
        }
        var longest = 0
        let ran = drain(&queue, kind) { work, queue in
            longest = max(longest, queue.items.count)
            // Each item queues the next, as a handler-driven chain does.
            switch work {
            case .delivery(let number) where number < 10_000:
                queue.append(delivery: number + 1)
            case .request(let name) where Int(name)! < 10_000:
                queue.append(request: "\(Int(name)! + 1)")
            default:
                break
            }
        }

        #expect(ran == (0...10_000).map { "\($0)" })
        #expect(longest < 200, "the items that ran are dropped as the drain goes")
        #expect(queue.hasDeliveries == (kind == .request))
        #expect(queue.hasRequests == (kind == .delivery))
        #expect(queue.items.count == 1)
    }
}
