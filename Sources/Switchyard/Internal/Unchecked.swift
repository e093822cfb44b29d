extension Optional {
    /// The wrapped value of an optional that the caller's invariant says is
    /// set: checked, with `invariant` as the message, in debug builds only;
    /// read without a check in release builds.
    @inlinable
    @inline(__always)
    func unchecked(_ invariant: @autoclosure () -> String) -> Wrapped {
        assert(self != nil, "Switchyard: \(invariant())")
        return unsafelyUnwrapped
    }
}
