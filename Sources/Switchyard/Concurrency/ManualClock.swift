/// A clock whose time moves only when a test advances it: pass it to
/// ``Machine/addTimedRoute(after:_:condition:clock:isolation:)`` and check
/// what a machine does after any duration, at once and deterministically.
///
/// ```swift
/// @MainActor @Test func theBannerHidesAfterFiveSeconds() async {
///     let clock = ManualClock()
///     let banner = Machine<Banner, BannerEvent>(state: .shown)
///     banner.addTimedRoute(after: .seconds(5), .shown => .hidden, clock: clock)
///     await clock.advance(by: .seconds(4))
///     #expect(banner.state == .shown)
///     await clock.advance(by: .seconds(1))
///     #expect(banner.state == .hidden)
/// }
/// ```
///
/// Sleepers wake in the order of their deadlines. Advancing past several
/// deadlines wakes them one deadline at a time, with ``now`` set to each in
/// turn, so that a timer started by what one sleeper does (a state entered
/// again) fires within the same advance if its deadline comes before the end.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class ManualClock: Clock, Sendable {
    /// A moment of a ``ManualClock``: how long after the clock's start.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// How long after the clock's start.
        public var offset: Duration

        /// The moment `offset` after the clock's start.
        ///
        /// - Parameter offset: How long after the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The moment `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// How long from this moment to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `left` comes before `right`.
        public static func < (left: Instant, right: Instant) -> Bool {
            left.offset < right.offset
        }

        /// The offset, such as `5.0 seconds`.
        public var description: String {
            "\(offset)"
        }
    }

    /// A task waiting in ``sleep(until:tolerance:)``.
    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What the lock guards.
    private final class State {
        var now: Instant
        var sleepers: [Sleeper] = []
        /// Sleepers whose task was cancelled before they were listed.
        var cancelled: Set<Int> = []
        var lastID = 0
        /// Sleepers woken whose `sleep` has not returned yet.
        var waking: Set<Int> = []
        /// Sleepers announced (by a machine's timer, as it is armed) that
        /// have not called `sleep` yet.
        var announced: Set<Int> = []

        init(now: Instant) {
            self.now = now
        }
    }

    private let state: Guarded<State>

    /// A clock that reads `now` until it is advanced.
    ///
    /// - Parameter now: Where time starts: the clock's start by default.
    public init(now: Instant = Instant()) {
        state = Guarded(State(now: now), lock: RecursiveLock())
    }

    /// The current time, which only ``advance(by:isolation:)`` moves.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// The clock measures any duration exactly.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are waiting in ``sleep(until:tolerance:)``.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Waits until the clock is advanced to `deadline` (at once if it has
    /// been), or until the task is cancelled.
    ///
    /// - Parameters:
    ///   - deadline: When to wake.
    ///   - tolerance: Ignored: a manual clock is exact.
    /// - Throws: `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(until: deadline, id: announceSleeper())
    }

    /// A sleeper's number, handed out before it sleeps: a machine's timer
    /// announces itself as it is armed, so that an advance in progress waits
    /// for its task to reach ``sleep(until:id:)`` before it looks for the
    /// next deadline.
    func announceSleeper() -> Int {
        state.withLock { state in
            state.lastID += 1
            state.announced.insert(state.lastID)
            return state.lastID
        }
    }

    /// Sleeps as sleeper `id`, which ``announceSleeper()`` handed out.
    func sleep(until deadline: Instant, id: Int) async throws {
        // Whichever way it ends, the sleeper is neither announced nor waking.
        defer {
            state.withLock { state in
                state.announced.remove(id)
                state.waking.remove(id)
            }
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Bool, CancellationError> in
                    state.announced.remove(id)
                    if state.cancelled.remove(id) != nil {
                        return .failure(CancellationError())
                    }
                    if deadline <= state.now {
                        return .success(true)
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline
    /// comes, and lets the tasks it woke run before it returns.
    ///
    /// - Parameters:
    ///   - duration: How far to move; not negative.
    ///   - isolation: The caller's actor, on which the clock lets the tasks
    ///     it woke run (a timer of a machine on the same actor fires before
    ///     this returns).
    public func advance(by duration: Duration, isolation: isolated (any Actor)? = #isolation) async {
        require(duration >= .zero, "a ManualClock cannot go back in time (advanced by \(duration))")
        await advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant` (if it is later than ``now``), waking
    /// every sleeper whose deadline comes, one deadline at a time, and lets
    /// the tasks it woke run before it returns.
    ///
    /// - Parameters:
    ///   - instant: Where time goes.
    ///   - isolation: The caller's actor (see ``advance(by:isolation:)``).
    public func advance(to instant: Instant, isolation: isolated (any Actor)? = #isolation) async {
        while true {
            await waitForAnnouncedSleepers()
            let woken = state.withLock { state -> [Sleeper] in
                guard let next = state.sleepers.map(\.deadline).min(), next <= instant else {
                    state.now = max(state.now, instant)
                    return []
                }
                state.now = max(state.now, next)
                let woken = state.sleepers.filter { $0.deadline == next }
                state.sleepers.removeAll { $0.deadline == next }
                state.waking.formUnion(woken.map(\.id))
                return woken
            }
            guard !woken.isEmpty else { break }
            for sleeper in woken {
                sleeper.continuation.resume()
            }
            await letWokenTasksRun()
        }
        await letWokenTasksRun()
    }

    /// Yields until every sleeper announced has begun to sleep (or given up).
    private func waitForAnnouncedSleepers(isolation: isolated (any Actor)? = #isolation) async {
        var spins = 0
        while state.withLock({ !$0.announced.isEmpty }), spins < 10_000 {
            await Task.yield()
            spins += 1
        }
    }

    /// Yields until the sleepers woken have returned from their sleep, then
    /// a little longer, so that their tasks run on to their next suspension
    /// (a hop to their actor included) before the caller goes on.
    private func letWokenTasksRun(isolation: isolated (any Actor)? = #isolation) async {
        var spins = 0
        while state.withLock({ !$0.waking.isEmpty }), spins < 10_000 {
            await Task.yield()
            spins += 1
        }
        for _ in 0..<20 {
            await Task.yield()
        }
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Clock where Duration == Swift.Duration {
    /// What a timer's task awaits: sleeping on this clock until `deadline`.
    /// A ``ManualClock`` learns of the sleeper now, as the timer is armed,
    /// rather than when the task gets to run.
    func timerSleep(until deadline: Instant) -> @Sendable () async throws -> Void {
        if let manual = self as? ManualClock, let deadline = deadline as? ManualClock.Instant {
            let id = manual.announceSleeper()
            return { try await manual.sleep(until: deadline, id: id) }
        }
        return { try await sleep(until: deadline, tolerance: nil) }
    }
}
