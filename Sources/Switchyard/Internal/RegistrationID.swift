/// Names one registration (route, handler, mapping) on one machine, so that
/// its `Disposable` can find it again. Also fixes registration order.
struct RegistrationID: Hashable, Comparable {
    var rawValue: UInt64

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
