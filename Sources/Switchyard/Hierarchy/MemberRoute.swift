/// A route of one machine of a hierarchy, as a step needs it: its
/// registration, its target in the machine's codes (``SymbolCode/wildcard``
/// for a route to `.any`, which stays), and whether it is local.
@usableFromInline
struct MemberRoute {
    @usableFromInline var id: RegistrationID
    @usableFromInline var target: SymbolCode
    @usableFromInline var isLocal: Bool
    /// The node of the route in the machine's event routes, where its guard
    /// says what else it does (see ``MemberAccess/Routes/extras``); -1 for
    /// a state route.
    @usableFromInline var node: Int32 = -1
    /// Whether the route does more than move to one target and use its
    /// history (see ``RouteGuard/hasExtras``).
    @usableFromInline var hasExtras = false

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
        node = route.node
        hasExtras = route.hasExtras
    }
}

/// What a route does besides moving to one target, in its machine's codes
/// (see ``RouteGuard``): whether it enters its target ignoring history, its
/// other targets, and the node of its action in the machine's handler
/// table (-1 for none).
@usableFromInline
typealias RouteExtras = (ignoresHistory: Bool, otherTargets: [SymbolCode], action: Int32)
