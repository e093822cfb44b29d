#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A machine whose deliveries (or requests) wait for the thread's deliveries
/// to unwind, and how to resume it: a function made where the machine's type
/// is known, so that resuming runs code specialised for it (a protocol's
/// witness would run the machine's generic code).
@usableFromInline
struct WaitingMachine {
    @usableFromInline let machine: AnyObject
    @usableFromInline let resume: (AnyObject) -> Void

    @inlinable
    init(_ machine: AnyObject, resume: @escaping (AnyObject) -> Void) {
        self.machine = machine
        self.resume = resume
    }
}

/// The deliveries running on the current thread, of every machine: how
/// deeply they are nested, and the machines whose deliveries wait until the
/// nesting unwinds below ``limit``.
///
/// One machine's own depth cannot see a chain of requests through many
/// machines (each machine's handler asking the next one), which deepens the
/// stack by a delivery per machine just the same. This counts them all, so
/// that past ``limit`` a delivery waits for the frame below the limit, which
/// runs the waiting ones one after another: the stack stays flat however long
/// the chain is.
///
/// Invariants, asserted in debug builds: `depth` is never negative, a machine
/// is listed in `waiting` at most once while it waits (its `isWaitingOnThread`
/// flag), and only one frame resumes the waiting machines at a time.
///
/// The state lives in storage of its own per thread, reached through a
/// POSIX thread-specific key, allocated on a thread's first delivery and freed
/// when the thread exits. A `DeliveryThread` is a pointer to it: valid on the
/// thread that read it, for as long as that thread runs, and never to be
/// handed to another thread.
@usableFromInline
struct DeliveryThread {
    /// How deeply deliveries may nest on one thread before they wait: the
    /// depth under which ``DeliveryPolicy/immediate`` keeps SwiftState's order.
    @inlinable
    static var limit: Int { DeliveryPolicy.immediateNestingLimit }

    @usableFromInline
    struct State {
        @usableFromInline var depth = 0
        /// The machines that wait, in the order they began to; those before
        /// `resumed` have been resumed by the loop in progress.
        @usableFromInline var waiting: [WaitingMachine] = []
        var resumed = 0
        @usableFromInline var isResuming = false

        init() {}
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    /// The current thread's deliveries.
    ///
    /// - Complexity: One thread-specific read; an allocation on a thread's first call.
    @usableFromInline
    static var current: DeliveryThread {
        DeliveryThread(state: currentState())
    }

    @inlinable
    init(state: UnsafeMutablePointer<State>) {
        self.state = state
    }

    /// Whether a delivery started now would nest past ``limit``.
    @inlinable
    var isFull: Bool {
        state.pointee.depth >= Self.limit
    }

    /// Counts a delivery starting.
    @inlinable
    func enter() {
        state.pointee.depth += 1
    }

    /// Counts a delivery ending.
    @inlinable
    func leave() {
        assert(state.pointee.depth > 0, "Switchyard: a delivery ended that had not started on this thread")
        state.pointee.depth -= 1
    }

    /// Lists `machine` as waiting; it must not be waiting already.
    @usableFromInline
    func wait(_ machine: WaitingMachine) {
        assert(
            !state.pointee.waiting[state.pointee.resumed...].contains { $0.machine === machine.machine },
            "Switchyard: a machine was listed twice as waiting for this thread's deliveries")
        state.pointee.waiting.append(machine)
    }

    /// Resumes the waiting machines if the deliveries have unwound below the
    /// limit, unless a frame below is resuming them already: that frame's
    /// loop takes those listed meanwhile, so the stack stays flat.
    @inlinable
    func resumeWaitingIfUnwound() {
        if !state.pointee.waiting.isEmpty, !state.pointee.isResuming, !isFull {
            resumeWaiting()
        }
    }

    @usableFromInline
    func resumeWaiting() {
        state.pointee.isResuming = true
        while state.pointee.resumed < state.pointee.waiting.count {
            let waiting = state.pointee.waiting[state.pointee.resumed]
            state.pointee.resumed += 1
            waiting.resume(waiting.machine)
            // A long chain lists one machine for each it resumes: drop the
            // resumed ones now and then, so that the list stays short.
            let resumed = state.pointee.resumed
            if resumed >= 64, resumed * 2 >= state.pointee.waiting.count {
                state.pointee.waiting.removeFirst(resumed)
                state.pointee.resumed = 0
            }
        }
        state.pointee.waiting.removeAll(keepingCapacity: true)
        state.pointee.resumed = 0
        state.pointee.isResuming = false
    }
}

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
    extension DeliveryThread {
        /// The key of every thread's ``State``; its destructor frees a
        /// thread's state when the thread exits.
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key) { state in
                #if canImport(Darwin)
                    let state = state.assumingMemoryBound(to: State.self)
                #else
                    guard let state = state?.assumingMemoryBound(to: State.self) else { return }
                #endif
                state.deinitialize(count: 1)
                state.deallocate()
            }
            require(status == 0, "Switchyard could not create a thread-specific key (error \(status))")
            return key
        }()

        static func currentState() -> UnsafeMutablePointer<State> {
            if let existing = pthread_getspecific(key) {
                return existing.assumingMemoryBound(to: State.self)
            }
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(to: State())
            let status = pthread_setspecific(key, state)
            require(status == 0, "Switchyard could not store a thread's deliveries (error \(status))")
            return state
        }
    }
#else
    extension DeliveryThread {
        /// Without POSIX threads (WASI), one state for the one thread.
        nonisolated(unsafe) private static let only: UnsafeMutablePointer<State> = {
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(to: State())
            return state
        }()

        static func currentState() -> UnsafeMutablePointer<State> {
            only
        }
    }
#endif

/// The calling thread's identity, as a number: equal on one thread, different
/// between two threads that run at the same time. Debug builds use it to
/// tell a machine used from two threads at once from a request made inside
/// its own decision.
@usableFromInline
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
