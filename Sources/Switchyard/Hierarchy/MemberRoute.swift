/// A route of one machine of a hierarchy, as a step needs it.
@usableFromInline
struct MemberRoute {
    @usableFromInline var id: RegistrationID
    /// In the machine's codes; ``SymbolCode/wildcard`` for a route to `.any` (stay).
    @usableFromInline var target: SymbolCode
    @usableFromInline var isLocal: Bool

    @inlinable
    init(id: RegistrationID, target: SymbolCode, isLocal: Bool) {
        self.id = id
        self.target = target
        self.isLocal = isLocal
    }
}
