/// A reference to an object that its owner keeps alive elsewhere, used
/// without a retain and a release at each use (which would cost more than
/// the call it makes on a step's path).
///
/// Invariant: the object outlives every use of the reference; whoever makes
/// one says, where it does, what keeps the object alive. Debug builds hold a
/// weak reference beside it and stop, with a message, at a use after the
/// object is gone.
@usableFromInline
struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>
    #if DEBUG
        @usableFromInline
        weak var liveness: Object?
    #endif

    @inlinable
    init(_ object: Object) {
        reference = .passUnretained(object)
        #if DEBUG
            liveness = object
        #endif
    }

    /// Calls `body` with the object, which must still be alive.
    @inlinable
    @inline(__always)
    func withObject<Result>(_ body: (Object) -> Result) -> Result {
        #if DEBUG
            assert(liveness != nil, "Switchyard: an object used unretained was released while still in use")
        #endif
        return reference._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with the object, which must still be alive, as the
    /// `Subclass` it is: for a reference kept as a base type by code that
    /// cannot name the object's own (generic) type. Debug builds check the
    /// cast; release builds trust it.
    @inlinable
    @inline(__always)
    func withObject<Subclass: AnyObject, Result>(as type: Subclass.Type, _ body: (Subclass) -> Result) -> Result {
        withObject { object in
            assert(
                object is Subclass,
                "Switchyard: an object used unretained as \(Subclass.self) is a \(Swift.type(of: object))")
            return body(unsafeDowncast(object, to: Subclass.self))
        }
    }
}
