/// A route of one machine of a hierarchy, as a step needs it: its
/// registration, its target in the machine's codes (``SymbolCode/wildcard``
/// for a route to `.any`, which stays), and whether it is local.
@usableFromInline
struct MemberRoute {
    @usableFromInline var id: RegistrationID
    @usableFromInline var target: SymbolCode
    @usableFromInline var isLocal: Bool
    /// What the route does besides moving to one target (see
    /// ``RouteGuard/hasExtras``), read from the table the route was chosen
    /// from, while it is pinned: a condition may have removed the route
    /// from the machine's table since; `nil` for nothing else.
    @usableFromInline var extras: RouteExtras?

    @inlinable
    init(id: RegistrationID, target: SymbolCode, isLocal: Bool) {
        self.id = id
        self.target = target
        self.isLocal = isLocal
    }

    /// `route`, selected from a machine's own table `routes`.
    @inlinable
    init<S, E>(_ route: SelectedRoute<S>, in routes: RouteTable<S, E>.Storage) {
        self.init(id: route.id, target: route.target == nil ? .wildcard : route.targetCode, isLocal: route.isLocal)
        if route.hasExtras {
            extras = routes.extrasOfEventRoute(at: route.node)
        }
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
