/// The routes and route mappings of one machine, indexed so that a decision
/// costs a few hash look-ups whatever the number of routes.
///
/// A value type with no knowledge of handlers or threads: it answers "where may
/// the machine go?" and nothing else. Its buckets live in one copy-on-write
/// storage object, so that a copy taken for a decision costs one retain, and a
/// route added or removed by a condition during that decision changes the
/// machine's table, not the copy being read.
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

    @usableFromInline
    final class Storage {
        /// Event routes by (event, from-state), for `tryEvent`.
        @exclusivity(unchecked) @usableFromInline var eventRoutes = Buckets<EventRouteKey<S, E>, Entry>()
        /// The same event routes by transition, whatever their event, for `tryState`.
        @exclusivity(unchecked) @usableFromInline var eventRoutesByTransition = Buckets<TransitionKey<S>, Entry>()
        /// Event-less routes by transition, for `tryState`.
        @exclusivity(unchecked) @usableFromInline var stateRoutes = Buckets<TransitionKey<S>, Entry>()
        @exclusivity(unchecked) @usableFromInline var routeMappings: [Mapping<RouteMapping>] = []
        @exclusivity(unchecked) @usableFromInline var stateRouteMappings: [Mapping<StateRouteMapping>] = []

        @inlinable
        init() {}

        @inlinable
        init(copying other: Storage) {
            eventRoutes = other.eventRoutes
            eventRoutesByTransition = other.eventRoutesByTransition
            stateRoutes = other.stateRoutes
            routeMappings = other.routeMappings
            stateRouteMappings = other.stateRouteMappings
        }
    }

    @usableFromInline var storage = Storage()

    @inlinable
    init() {}

    /// The storage, copied first if a decision in progress still reads it.
    @inlinable
    var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(copying: storage)
            }
            return storage
        }
    }

    // MARK: Registration

    @inlinable
    mutating func addEventRoute(_ id: RegistrationID, event: E?, transition: Transition<S>, condition: Condition?) {
        let key = TransitionKey(transition)
        let entry = Entry(id: id, target: key.to, condition: condition)
        let storage = uniqueStorage
        storage.eventRoutes.append(entry, at: EventRouteKey(event: event, from: key.from))
        storage.eventRoutesByTransition.append(entry, at: key)
    }

    @inlinable
    mutating func removeEventRoute(_ id: RegistrationID, event: E?, transition: Transition<S>) {
        let key = TransitionKey(transition)
        let storage = uniqueStorage
        storage.eventRoutes.removeAll(at: EventRouteKey(event: event, from: key.from)) { $0.id == id }
        storage.eventRoutesByTransition.removeAll(at: key) { $0.id == id }
    }

    @inlinable
    mutating func addStateRoute(_ id: RegistrationID, transition: Transition<S>, condition: Condition?) {
        let key = TransitionKey(transition)
        uniqueStorage.stateRoutes.append(Entry(id: id, target: key.to, condition: condition), at: key)
    }

    @inlinable
    mutating func removeStateRoute(_ id: RegistrationID, transition: Transition<S>) {
        uniqueStorage.stateRoutes.removeAll(at: TransitionKey(transition)) { $0.id == id }
    }

    @inlinable
    mutating func addRouteMapping(_ id: RegistrationID, _ mapping: @escaping RouteMapping) {
        uniqueStorage.routeMappings.append(Mapping(id: id, body: mapping))
    }

    @inlinable
    mutating func removeRouteMapping(_ id: RegistrationID) {
        uniqueStorage.routeMappings.removeAll { $0.id == id }
    }

    @inlinable
    mutating func addStateRouteMapping(_ id: RegistrationID, _ mapping: @escaping StateRouteMapping) {
        uniqueStorage.stateRouteMappings.append(Mapping(id: id, body: mapping))
    }

    @inlinable
    mutating func removeStateRouteMapping(_ id: RegistrationID) {
        uniqueStorage.stateRouteMappings.removeAll { $0.id == id }
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
        let eventRoutes = storage.eventRoutes
        var sawRoute = false
        if !eventRoutes.isEmpty {
            func firstAllowedTarget(_ key: EventRouteKey<S, E>) -> S? {
                guard let entries = eventRoutes[key] else { return nil }
                sawRoute = true
                for entry in entries {
                    let target = entry.target ?? state
                    guard let condition = entry.condition else { return target }
                    if condition(Context(event: event, fromState: state, toState: target, userInfo: userInfo)) {
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
        for mapping in storage.routeMappings {
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
        var sawRoute = false
        func someRouteAllows(in table: Buckets<TransitionKey<S>, Entry>) -> Bool {
            guard !table.isEmpty else { return false }
            func allows(_ key: TransitionKey<S>) -> Bool {
                guard let entries = table[key] else { return false }
                sawRoute = true
                // A context (and its `userInfo` copy) only for routes that ask.
                return entries.contains { entry in
                    guard let condition = entry.condition else { return true }
                    return condition(Context(event: nil, fromState: state, toState: target, userInfo: userInfo))
                }
            }
            return allows(TransitionKey(from: state, to: target)) || allows(TransitionKey(from: state, to: nil))
                || allows(TransitionKey(from: nil, to: target)) || allows(TransitionKey(from: nil, to: nil))
        }
        if someRouteAllows(in: storage.stateRoutes) || someRouteAllows(in: storage.eventRoutesByTransition) {
            return .move(to: target)
        }
        for mapping in storage.stateRouteMappings {
            if let targets = mapping.body(state, userInfo), targets.contains(target) {
                return .move(to: target)
            }
        }
        for mapping in storage.routeMappings {
            if mapping.body(nil, state, userInfo) == target {
                return .move(to: target)
            }
        }
        return sawRoute ? .refused : .noRoute
    }

    /// Whether `event` could take the machine from `state` to `target`, by any
    /// of its routes (not only the one `tryEvent` would choose) or mappings.
    func allows(event: E, from state: S, to target: S, userInfo: Any?) -> Bool {
        let context = Context(event: event, fromState: state, toState: target, userInfo: userInfo)
        let eventRoutes = storage.eventRoutes
        func allows(_ key: EventRouteKey<S, E>) -> Bool {
            // A route to `.any` keeps an event's machine where it is.
            eventRoutes[key]?.contains { ($0.target ?? state) == target && $0.allows(context) } ?? false
        }
        return allows(EventRouteKey(event: event, from: state)) || allows(EventRouteKey(event: event, from: nil))
            || allows(EventRouteKey(event: nil, from: state)) || allows(EventRouteKey(event: nil, from: nil))
            || storage.routeMappings.contains { $0.body(event, state, userInfo) == target }
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
