import Foundation

// What the concurrency cases share: the lock an app would put round its own
// machine, the subscriber task of `stream-event`, and the threads of
// `contended-8`.

/// A plain (not recursive) mutex: what a hand-written machine shared between
/// threads is guarded by.
final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A mutex and a condition on it: how the concurrency cases' threads wait
/// for one another. Every wait and every change of what a wait checks
/// happens inside ``withLock(_:)``.
final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits until `isDone`; call it holding the lock.
    func wait(until isDone: () -> Bool) {
        while !isDone() {
            pthread_cond_wait(changed, mutex)
        }
    }

    /// Wakes every waiter, to check again; call it holding the lock.
    func wakeWaiters() {
        pthread_cond_broadcast(changed)
    }
}

/// A task that iterates a stream and counts what it receives, in rounds:
/// the thread that feeds the stream sends a round's elements while the task
/// waits at a gate, then opens the gate and waits until the task has received
/// them all. So a round times the sending and the receiving of every element,
/// one after the other, and not how often the task happened to sleep and be
/// woken between two elements.
///
/// The task ends when the stream does (when the machine that feeds it is
/// released), and lets go of the subscriber then.
final class StreamSubscriber: @unchecked Sendable {
    private let monitor = Monitor()
    /// Guarded by `monitor`, as the rest.
    private var received = 0
    /// The count at which the round ends.
    private var goal = 0
    /// Whether the task may receive: from the end of a round's sending to
    /// the end of its receiving.
    private var isOpen = false

    init<Element: Sendable>(_ stream: AsyncStream<Element>) {
        Task.detached { [self] in
            for await _ in stream {
                receiveOne()
            }
        }
    }

    private func receiveOne() {
        monitor.withLock {
            // Blocks the task's thread, not only the task: a benchmark may.
            monitor.wait { isOpen }
            received += 1
            if received == goal {
                isOpen = false
                monitor.wakeWaiters()
            }
        }
    }

    /// Runs `send`, which sends `count` elements and returns a checksum,
    /// then lets the task receive them and waits until it has. Returns the
    /// checksum plus how many elements the task has received in all.
    func round(of count: Int, _ send: () -> Int) -> Int {
        monitor.withLock { goal = received + count }
        let checksum = send()
        return monitor.withLock {
            isOpen = true
            monitor.wakeWaiters()
            monitor.wait { received >= goal }
            isOpen = false
            return checksum &+ received
        }
    }
}

/// Runs `body` in a task of its own, and blocks the calling thread until it
/// returns: how a synchronous workload measures asynchronous work.
func awaitingTask(_ body: @escaping @Sendable () async -> Int) -> Int {
    let result = TaskResult()
    Task.detached {
        result.set(await body())
    }
    return result.wait()
}

/// The answer of a task, and a way for a thread to wait for it.
private final class TaskResult: @unchecked Sendable {
    private let monitor = Monitor()
    /// Guarded by `monitor`.
    private var value: Int?

    func set(_ answer: Int) {
        monitor.withLock {
            value = answer
            monitor.wakeWaiters()
        }
    }

    func wait() -> Int {
        monitor.withLock {
            monitor.wait { value != nil }
            return value!
        }
    }
}

/// Threads that wait for work together: `contended-8`'s senders. Started
/// once, with the case's machine, so that a sample times the requests and not
/// the starting of threads; they end when the crew is released.
final class ThreadCrew: Sendable {
    private let shared: Shared

    /// Starts `count` threads, which wait for ``run(operations:_:)``.
    init(count: Int) {
        shared = Shared(count: count)
        for index in 0..<count {
            Thread { [shared] in shared.work(as: index) }.start()
        }
    }

    deinit {
        shared.stop()
    }

    /// Shares `operations` calls of `body` out between the threads, which
    /// all run at once, and returns how many of the calls answered `true`.
    func run(operations: Int, _ body: @escaping @Sendable () -> Bool) -> Int {
        shared.run(operations: operations, body)
    }

    /// What the crew's threads and the thread that gives them work share,
    /// all of it guarded by `mutex`.
    private final class Shared: @unchecked Sendable {
        private let monitor = Monitor()
        private let count: Int
        /// Guarded by `monitor`, as the rest. Counts the rounds of work; a
        /// thread works once per round.
        private var round = 0
        private var isStopping = false
        private var body: (@Sendable () -> Bool)?
        private var operations = 0
        /// Threads still working on this round.
        private var working = 0
        /// Calls that answered `true` this round.
        private var taken = 0

        init(count: Int) {
            self.count = count
        }

        func run(operations: Int, _ body: @escaping @Sendable () -> Bool) -> Int {
            monitor.withLock {
                self.body = body
                self.operations = operations
                working = count
                taken = 0
                round += 1
                monitor.wakeWaiters()
                monitor.wait { working == 0 }
                self.body = nil
                return taken
            }
        }

        func stop() {
            monitor.withLock {
                isStopping = true
                monitor.wakeWaiters()
            }
        }

        /// The loop of the thread `index`: one share of every round's work,
        /// until the crew stops.
        func work(as index: Int) {
            var done = 0
            while let (body, share) = nextShare(as: index, after: &done) {
                var answeredTrue = 0
                for _ in 0..<share where body() {
                    answeredTrue &+= 1
                }
                monitor.withLock {
                    taken &+= answeredTrue
                    working -= 1
                    if working == 0 {
                        monitor.wakeWaiters()
                    }
                }
            }
        }

        /// Waits for a round after `done`, and returns the work and this
        /// thread's share of it; `nil` once the crew stops.
        private func nextShare(as index: Int, after done: inout Int) -> (@Sendable () -> Bool, Int)? {
            monitor.withLock {
                monitor.wait { round != done || isStopping }
                guard !isStopping, let body else { return nil }
                done = round
                return (body, operations / count + (index < operations % count ? 1 : 0))
            }
        }
    }
}
