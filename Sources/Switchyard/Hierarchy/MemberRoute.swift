/// A route of one machine of a hierarchy, as a step needs it: its
/// registration, its target in the machine's codes (``SymbolCode/wildcard``
/// for a route to `.any`, which stays), and whether it is local.
@usableFromInline
struct MemberRoute {
    @usableFromInline var id: RegistrationID
    @usableFromInline var target: SymbolCode
    @usableFromInline var isLocal: Bool

    @inlinable
    init(id: RegistrationID, target: SymbolCode, isLocal: Bool) {
        self.id = id
        self.target = target
        self.isLocal = isLocal
    }

    /// `route`, selected from a machine's own table.
    @inlinable
    init<S>(_ route: SelectedRoute<S>) {
        self.init(id: route.id, target: route.target == nil ? .wildcard : route.targetCode, isLocal: route.isLocal)
    }
}

/// What a route does besides moving to one target, in its machine's codes
/// (see ``RouteGuard``): whether it enters its target ignoring history, its
/// other targets, and its action: the node of the action in the machine's
/// handler table (-1 for none) and its registration.
@usableFromInline
typealias RouteExtras = (
    ignoresHistory: Bool, otherTargets: [SymbolCode], action: Int32, actionID: RegistrationID
)
