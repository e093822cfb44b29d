/// A request's `userInfo`, boxed once when the request is made.
///
/// A step hands its `userInfo` to every condition, mapping and handler
/// context it builds. As an `Any?` each hand-over copies or destroys it
/// through its type's value witnesses, even when it is `nil`, which cost a
/// step a couple of hundred instructions; as a reference, `nil` (what nearly
/// every request gives) costs nothing to pass on.
@usableFromInline
final class UserInfoBox {
    @usableFromInline let value: Any

    @inlinable
    init(_ value: Any) {
        self.value = value
    }

    /// A box holding `userInfo`, or `nil` when there is none.
    @inlinable
    static func boxing(_ userInfo: consuming Any?) -> UserInfoBox? {
        switch consume userInfo {
        case .some(let value): UserInfoBox(value)
        case .none: nil
        }
    }
}
