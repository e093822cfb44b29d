#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A mutual-exclusion lock that the thread holding it may take again: what a
/// ``SendableMachine`` holds while it decides a request and runs its handlers,
/// so that a handler's own request (on the same thread) goes straight in and
/// waits in the machine's queue, while other threads wait for the lock.
///
/// Invariants, written once: the mutex lives in memory of its own, allocated
/// and initialised as recursive in `init`, destroyed and freed in `deinit`
/// (no thread can hold it then: holding it means holding a reference); every
/// `lock()` is matched by one `unlock()` on the same thread, which
/// ``withLock(_:)`` guarantees. Failures of the POSIX calls (which would mean
/// a broken invariant) stop with a message.
@usableFromInline
final class RecursiveLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        precondition(status == 0, "Switchyard: pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock; the thread that holds it may call this again.
    @inlinable
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let locked = pthread_mutex_lock(mutex)
        assert(locked == 0, "Switchyard: pthread_mutex_lock failed (\(locked))")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            assert(unlocked == 0, "Switchyard: pthread_mutex_unlock failed (\(unlocked))")
        }
        return try body()
    }
}

/// A value only ever touched while its lock is held: what lets a class that
/// is not `Sendable` (a ``Machine``) live inside one that is.
///
/// The invariant, written once: `value` is read only inside ``withLock(_:)``,
/// and nothing it hands to `body` is kept past the call by code in this
/// module unless it is `Sendable`.
@usableFromInline
struct Guarded<Value>: @unchecked Sendable {
    @usableFromInline let lock: RecursiveLock
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value, lock: RecursiveLock) {
        self.value = value
        self.lock = lock
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    func withLock<Result, Failure: Error>(_ body: (Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) in try body(value) }
    }
}
