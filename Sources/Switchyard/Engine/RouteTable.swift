/// The routes and route mappings of one machine, indexed so that a decision
/// costs a few hash look-ups whatever the number of routes.
///
/// A value type with no knowledge of handlers or threads: it answers "where may
/// the machine go?" and nothing else.
@usableFromInline
struct RouteTable<S: StateType, E: EventType> {
    @usableFromInline typealias Context = TransitionContext<S, E>
    @usableFromInline typealias Condition = (Context) -> Bool
    @usableFromInline typealias RouteMapping = (E?, S, Any?) -> S?
    @usableFromInline typealias StateRouteMapping = (S, Any?) -> [S]?

    /// One registered route in one bucket.
    @usableFromInline
    struct Entry {
        @usableFromInline var id: RegistrationID
        /// Where the route leads; `nil` is `.any`, which an event takes as "stay".
        @usableFromInline var target: S?
        @usableFromInline var condition: Condition?

        @inlinable
        init(id: RegistrationID, target: S?, condition: Condition?) {
            self.id = id
            self.target = target
            self.condition = condition
        }

        @inlinable
        func allows(_ context: Context) -> Bool {
            condition?(context) ?? true
        }
    }

    /// A route mapping of either kind, with the registration that removes it.
    @usableFromInline
    struct Mapping<Body> {
        @usableFromInline var id: RegistrationID
        @usableFromInline var body: Body

        @inlinable
        init(id: RegistrationID, body: Body) {
            self.id = id
            self.body = body
        }
    }

    /// Event routes by (event, from-state), for `tryEvent`.
    @usableFromInline var eventRoutes: [EventRouteKey<S, E>: [Entry]] = [:]
    /// The same event routes by transition, whatever their event, for `tryState`.
    @usableFromInline var eventRoutesByTransition: [TransitionKey<S>: [Entry]] = [:]
    /// Event-less routes by transition, for `tryState`.
    @usableFromInline var stateRoutes: [TransitionKey<S>: [Entry]] = [:]
    @usableFromInline var routeMappings: [Mapping<RouteMapping>] = []
    @usableFromInline var stateRouteMappings: [Mapping<StateRouteMapping>] = []

    @inlinable
    init() {}

    // MARK: Registration

    @inlinable
    mutating func addEventRoute(_ id: RegistrationID, event: E?, transition: Transition<S>, condition: Condition?) {
        let key = TransitionKey(transition)
        let entry = Entry(id: id, target: key.to, condition: condition)
        eventRoutes[EventRouteKey(event: event, from: key.from), default: []].append(entry)
        eventRoutesByTransition[key, default: []].append(entry)
    }

    @inlinable
    mutating func removeEventRoute(_ id: RegistrationID, event: E?, transition: Transition<S>) {
        let key = TransitionKey(transition)
        Self.remove(id, at: EventRouteKey(event: event, from: key.from), from: &eventRoutes)
        Self.remove(id, at: key, from: &eventRoutesByTransition)
    }

    @inlinable
    mutating func addStateRoute(_ id: RegistrationID, transition: Transition<S>, condition: Condition?) {
        let key = TransitionKey(transition)
        stateRoutes[key, default: []].append(Entry(id: id, target: key.to, condition: condition))
    }

    @inlinable
    mutating func removeStateRoute(_ id: RegistrationID, transition: Transition<S>) {
        Self.remove(id, at: TransitionKey(transition), from: &stateRoutes)
    }

    @inlinable
    mutating func addRouteMapping(_ id: RegistrationID, _ mapping: @escaping RouteMapping) {
        routeMappings.append(Mapping(id: id, body: mapping))
    }

    @inlinable
    mutating func removeRouteMapping(_ id: RegistrationID) {
        routeMappings.removeAll { $0.id == id }
    }

    @inlinable
    mutating func addStateRouteMapping(_ id: RegistrationID, _ mapping: @escaping StateRouteMapping) {
        stateRouteMappings.append(Mapping(id: id, body: mapping))
    }

    @inlinable
    mutating func removeStateRouteMapping(_ id: RegistrationID) {
        stateRouteMappings.removeAll { $0.id == id }
    }

    @inlinable
    static func remove<Key>(_ id: RegistrationID, at key: Key, from buckets: inout [Key: [Entry]]) {
        guard let index = buckets.index(forKey: key) else { return }
        buckets.values[index].removeAll { $0.id == id }
        if buckets.values[index].isEmpty {
            buckets.remove(at: index)
        }
    }

    // MARK: Decisions

    /// Where `event` takes the machine from `state`.
    ///
    /// Buckets are tried from the most specific (this event, this state) to the
    /// least (`.any` event, `.any` state), each in registration order; route
    /// mappings come last, in registration order. The first route whose
    /// condition holds wins.
    @inlinable
    func decide(event: E, from state: S, userInfo: Any?) -> Decision<S> {
        var sawRoute = false
        if !eventRoutes.isEmpty {
            func firstAllowedTarget(_ key: EventRouteKey<S, E>) -> S? {
                guard let entries = eventRoutes[key] else { return nil }
                sawRoute = true
                for entry in entries {
                    let target = entry.target ?? state
                    if entry.allows(Context(event: event, fromState: state, toState: target, userInfo: userInfo)) {
                        return target
                    }
                }
                return nil
            }
            if let target = firstAllowedTarget(EventRouteKey(event: event, from: state))
                ?? firstAllowedTarget(EventRouteKey(event: event, from: nil))
                ?? firstAllowedTarget(EventRouteKey(event: nil, from: state))
                ?? firstAllowedTarget(EventRouteKey(event: nil, from: nil))
            {
                return .move(to: target)
            }
        }
        for mapping in routeMappings {
            if let target = mapping.body(event, state, userInfo) {
                return .move(to: target)
            }
        }
        return sawRoute ? .refused : .noRoute
    }

    /// Whether the machine may go from `state` to `target` by asking for the state.
    ///
    /// Event-less routes come first, then event routes of every event, then
    /// state route mappings, then route mappings asked with a `nil` event.
    @inlinable
    func decide(from state: S, to target: S, userInfo: Any?) -> Decision<S> {
        let context = Context(event: nil, fromState: state, toState: target, userInfo: userInfo)
        var sawRoute = false
        func someRouteAllows(in table: [TransitionKey<S>: [Entry]]) -> Bool {
            guard !table.isEmpty else { return false }
            func allows(_ key: TransitionKey<S>) -> Bool {
                guard let entries = table[key] else { return false }
                sawRoute = true
                return entries.contains { $0.allows(context) }
            }
            return allows(TransitionKey(from: state, to: target)) || allows(TransitionKey(from: state, to: nil))
                || allows(TransitionKey(from: nil, to: target)) || allows(TransitionKey(from: nil, to: nil))
        }
        if someRouteAllows(in: stateRoutes) || someRouteAllows(in: eventRoutesByTransition) {
            return .move(to: target)
        }
        for mapping in stateRouteMappings {
            if let targets = mapping.body(state, userInfo), targets.contains(target) {
                return .move(to: target)
            }
        }
        for mapping in routeMappings {
            if mapping.body(nil, state, userInfo) == target {
                return .move(to: target)
            }
        }
        return sawRoute ? .refused : .noRoute
    }

    /// Whether `event` could take the machine from `state` to `target`, by any
    /// of its routes (not only the one `tryEvent` would choose) or mappings.
    @inlinable
    func allows(event: E, from state: S, to target: S, userInfo: Any?) -> Bool {
        let context = Context(event: event, fromState: state, toState: target, userInfo: userInfo)
        func allows(_ key: EventRouteKey<S, E>) -> Bool {
            // A route to `.any` keeps an event's machine where it is.
            eventRoutes[key]?.contains { ($0.target ?? state) == target && $0.allows(context) } ?? false
        }
        return allows(EventRouteKey(event: event, from: state)) || allows(EventRouteKey(event: event, from: nil))
            || allows(EventRouteKey(event: nil, from: state)) || allows(EventRouteKey(event: nil, from: nil))
            || routeMappings.contains { $0.body(event, state, userInfo) == target }
    }
}

/// What a route table decided for one request.
@usableFromInline
enum Decision<S: StateType> {
    /// A route or mapping allows the move to this state.
    case move(to: S)
    /// No route or mapping covers the request.
    case noRoute
    /// Routes cover the request, but every one's condition refused it.
    case refused
}
