#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
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
