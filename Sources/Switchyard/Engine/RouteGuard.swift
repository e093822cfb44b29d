// What a route table keeps beside its chains: how many routes leave each
// state, the keys of event routes, and the guard of a route that has more
// than a source, an event and a target.

/// How many routes leave one state: of an event or of `.any` event,
/// eventless, and done.
@usableFromInline
struct SourceRouteCounts {
    @usableFromInline var events: UInt32 = 0
    @usableFromInline var eventless: UInt32 = 0
    @usableFromInline var done: UInt32 = 0
    /// Of ``events``, how many have a guard (see
    /// ``RouteTable/Storage/hasOnlyUnguardedEventRoutes(from:)``).
    @usableFromInline var guardedEvents: UInt32 = 0

    @inlinable
    init() {}

    /// How many routes of the event `eventCode` leave the state: its kind's count.
    @inlinable
    func count(ofEvent eventCode: SymbolCode) -> UInt32 {
        switch eventCode {
        case .eventless: eventless
        case .done: done
        default: events
        }
    }

    /// Counts `change` (negative for routes removed) routes of the event
    /// `eventCode`, with a guard or without.
    @inlinable
    mutating func add(_ change: Int, ofEvent eventCode: SymbolCode, isGuarded: Bool) {
        let count = UInt32(Int(count(ofEvent: eventCode)) + change)
        switch eventCode {
        case .eventless: eventless = count
        case .done: done = count
        default:
            events = count
            if isGuarded {
                guardedEvents = UInt32(Int(guardedEvents) + change)
            }
        }
    }
}

/// The keys an event route is kept under, and its link by transition (`-1`
/// for none): what removing the route needs, kept beside it.
@usableFromInline
struct EventRouteKeys {
    @usableFromInline var event: SymbolCode
    @usableFromInline var from: SymbolCode
    @usableFromInline var to: SymbolCode
    @usableFromInline var link: Int32

    @inlinable
    init(event: SymbolCode, from: SymbolCode, to: SymbolCode, link: Int32) {
        self.event = event
        self.from = from
        self.to = to
        self.link = link
    }
}

/// What must hold for a route to be taken (the user's condition, or the
/// states listed by `[.a, .b] => .c` or `.a => [.b, .c]`), and how it moves
/// when it is: whether it is local, enters its target ignoring its history,
/// has other targets, or has an action. Routes with none of these keep no
/// guard; routes added together share one.
@usableFromInline
final class RouteGuard<S: StateType, E: EventType> {
    /// Whether the route has a condition of the user's, kept in ``condition``.
    @usableFromInline let hasCondition: Bool
    /// The user's condition; one that always holds for a route without.
    /// Not optional: a closure kept as a `let` of this class is called in
    /// place, where unwrapping an optional one copied it (a retain and a
    /// release of its captures at each try).
    @usableFromInline let condition: (TransitionContext<S, E>) -> Bool
    /// `nil` for a side that lists no states. Checked here rather than by a
    /// closure, so that a refusal can say which list the state was missing from.
    @usableFromInline let sources: [S]?
    @usableFromInline let targets: [S]?
    /// See ``Transition/local(_:)``.
    @usableFromInline let isLocal: Bool
    /// See ``Transition/ignoringHistory(_:)``.
    @usableFromInline let ignoresHistory: Bool
    /// The codes of the route's targets besides its own (see
    /// ``Transition/alsoEntering(_:)``), given when the route is added,
    /// before any step reads them: unchecked, since a step asks every route
    /// it takes whether it has some.
    @usableFromInline
    @exclusivity(unchecked) var otherTargets: [SymbolCode] = []
    /// The node of the route's action in its machine's handler table; -1 for none.
    @usableFromInline let action: Int32
    /// The action's registration, which tells the action from a handler
    /// that took its node after it was disposed.
    @usableFromInline let actionID: RegistrationID

    /// Whether the route does more than move to one target and use its
    /// history: an action, other targets, or history ignored.
    @inlinable
    var hasExtras: Bool {
        action >= 0 || ignoresHistory || !otherTargets.isEmpty
    }

    @inlinable
    init(
        condition: ((TransitionContext<S, E>) -> Bool)?, sources: [S]?, targets: [S]?, isLocal: Bool,
        ignoresHistory: Bool = false, action: Int32 = -1, actionID: RegistrationID = RegistrationID(rawValue: 0)
    ) {
        hasCondition = condition != nil
        self.condition = condition ?? { _ in true }
        self.sources = sources
        self.targets = targets
        self.isLocal = isLocal
        self.ignoresHistory = ignoresHistory
        self.action = action
        self.actionID = actionID
    }

    /// The guard of a route along `transition` added with `condition` and
    /// `action`; `nil` when there is nothing to keep.
    @inlinable
    static func of(
        _ transition: Transition<S>, condition: ((TransitionContext<S, E>) -> Bool)?,
        action: (node: Int32, id: RegistrationID)? = nil
    ) -> RouteGuard? {
        guard condition != nil || action != nil || !transition.movesByDefault else { return nil }
        return RouteGuard(
            condition: condition, sources: nil, targets: nil, isLocal: transition.isLocal,
            ignoresHistory: transition.ignoresHistory, action: action?.node ?? -1,
            actionID: action?.id ?? RegistrationID(rawValue: 0))
    }

    /// The guard of `route`: its lists if it has any, else its condition;
    /// `nil` when there is nothing to keep.
    @inlinable
    static func of(_ route: Route<S, E>) -> RouteGuard? {
        let transition = route.transition
        if route.listedSources != nil || route.listedTargets != nil {
            return RouteGuard(
                condition: nil, sources: route.listedSources, targets: route.listedTargets,
                isLocal: transition.isLocal, ignoresHistory: transition.ignoresHistory)
        }
        return of(transition, condition: route.condition)
    }

    /// Why the move `from` → `to` is refused, or `nil` if it is allowed. A
    /// context (and its copy of `userInfo`) is made only for a condition.
    @inlinable
    func refusal(event: E?, from: S, to: S, userInfo: UserInfoBox?) -> Refusal? {
        if hasCondition {
            // Called in place rather than bound to a name: a binding copies
            // the closure, a retain and a release of its captures.
            return condition(TransitionContext(event: event, fromState: from, toState: to, userInfoBox: userInfo))
                ? nil : .conditions
        }
        if let sources, !sources.contains(from) { return .sourceNotListed }
        if let targets, !targets.contains(to) { return .targetNotListed }
        return nil
    }
}
