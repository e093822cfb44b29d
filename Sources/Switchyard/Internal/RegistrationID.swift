/// Names one registration (route, handler, mapping) on one machine, so that
/// its `Disposable` can find it again. Also fixes registration order.
@usableFromInline
struct RegistrationID: Hashable, Comparable, Sendable {
    @usableFromInline var rawValue: UInt64

    @inlinable
    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    @inlinable
    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
