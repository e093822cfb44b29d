/// The routes and route mappings of one machine, indexed so that a decision
/// costs a few integer look-ups whatever the number of routes.
///
/// A value type with no knowledge of handlers or threads: it answers "where may
/// the machine go?" and nothing else. States and events are hashed once, when
/// registered, into small codes (``Symbols``) that key the routes, so a
/// decision hashes nothing but the event. Everything lives in one
/// copy-on-write storage object, so that a copy taken for a decision costs one
/// retain, and a route added or removed by a condition during that decision
/// changes the machine's table, not the copy being read.
@usableFromInline
struct RouteTable<S: StateType, E: EventType> {
    @usableFromInline typealias Context = TransitionContext<S, E>
    @usableFromInline typealias Condition = (Context) -> Bool
    @usableFromInline typealias RouteMapping = (E?, S, Any?) -> S?
    @usableFromInline typealias StateRouteMapping = (S, Any?) -> [S]?

    /// One registered route in one chain.
    @usableFromInline
    struct Entry {
        @usableFromInline var id: RegistrationID
        /// Where the route leads; `nil` is `.any`, which an event takes as "stay".
        @usableFromInline var target: S?
        /// The code of `target`, ``SymbolCode/wildcard`` for `.any`.
        @usableFromInline var targetCode: SymbolCode
        @usableFromInline var condition: Condition?

        @inlinable
        init(id: RegistrationID, target: S?, targetCode: SymbolCode, condition: Condition?) {
            self.id = id
            self.target = target
            self.targetCode = targetCode
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
    final class Storage: TableStorage {
        /// The codes of the states and events that routes and handlers name.
        @exclusivity(unchecked) @usableFromInline var states = Symbols<S>()
        @exclusivity(unchecked) @usableFromInline var events = Symbols<E>()
        /// Event routes by (event, from-state), for `tryEvent`.
        @exclusivity(unchecked) @usableFromInline var eventRoutes = PairIndex()
        @exclusivity(unchecked) @usableFromInline var eventEntries = ChainStore<Entry>()
        /// The same event routes by (from-state, to-state), whatever their
        /// event, for `tryState`; then the event-less routes, also by transition.
        @exclusivity(unchecked) @usableFromInline var eventRoutesByTransition = PairIndex()
        @exclusivity(unchecked) @usableFromInline var stateRoutes = PairIndex()
        @exclusivity(unchecked) @usableFromInline var transitionEntries = ChainStore<Entry>()
        @exclusivity(unchecked) @usableFromInline var routeMappings: [Mapping<RouteMapping>] = []
        @exclusivity(unchecked) @usableFromInline var stateRouteMappings: [Mapping<StateRouteMapping>] = []

        @inlinable
        init() {}

        @inlinable
        init(copying other: Storage) {
            states = other.states
            events = other.events
            eventRoutes = other.eventRoutes
            eventEntries = other.eventEntries
            eventRoutesByTransition = other.eventRoutesByTransition
            stateRoutes = other.stateRoutes
            transitionEntries = other.transitionEntries
            routeMappings = other.routeMappings
            stateRouteMappings = other.stateRouteMappings
        }
    }

    @usableFromInline var storage = Storage()

    @inlinable
    init() {}

    // MARK: Codes

    /// The code of `state`, ``SymbolCode/unknown`` if nothing names it.
    @inlinable
    func code(of state: S) -> SymbolCode {
        storage.states.code(of: state)
    }

    /// The code of `event`, ``SymbolCode/unknown`` if nothing names it.
    @inlinable
    func code(of event: E) -> SymbolCode {
        storage.events.code(of: event)
    }

    /// The code of `state` (`.wildcard` for `nil`), handing out a new one if needed.
    @inlinable
    mutating func intern(_ state: S?) -> SymbolCode {
        state == nil ? .wildcard : uniqueStorage.states.intern(state)
    }

    /// The code of `event` (`.wildcard` for `nil`), handing out a new one if needed.
    @inlinable
    mutating func intern(_ event: E?) -> SymbolCode {
        event == nil ? .wildcard : uniqueStorage.events.intern(event)
    }

    // MARK: Registration

    /// Where a registered route is kept: its registration and the codes of
    /// its keys, so that removing it hashes nothing.
    @usableFromInline
    struct Placement {
        @usableFromInline var id: RegistrationID
        /// The event's code; ``SymbolCode/wildcard`` for `.any` and for event-less routes.
        @usableFromInline var event: SymbolCode
        @usableFromInline var from: SymbolCode
        @usableFromInline var to: SymbolCode

        @inlinable
        init(id: RegistrationID, event: SymbolCode, from: SymbolCode, to: SymbolCode) {
            self.id = id
            self.event = event
            self.from = from
            self.to = to
        }
    }

    /// Adds the routes that `event` (`nil` for `.any`) takes, each with its
    /// registration.
    ///
    /// - Returns: Where each route is kept, for ``removeEventRoutes(_:)``.
    /// - Complexity: O(*n*) in the routes added: one hash of the event, two
    ///   of each route's states, and room made once for the whole batch.
    @inlinable
    mutating func addEventRoutes(event: E?, _ routes: [(id: RegistrationID, route: Route<S, E>)]) -> [Placement] {
        let storage = uniqueStorage
        let eventCode = storage.events.intern(event)
        storage.states.reserveRoom(forAdding: routes.count)
        storage.eventRoutes.reserveRoom(forAdding: routes.count)
        storage.eventRoutesByTransition.reserveRoom(forAdding: routes.count)
        storage.eventEntries.reserveRoom(forAdding: routes.count)
        storage.transitionEntries.reserveRoom(forAdding: routes.count)
        return routes.map { id, route in
            let fromCode = storage.states.intern(route.transition.fromState.rawValue)
            let target = route.transition.toState.rawValue
            let targetCode = storage.states.intern(target)
            let entry = Entry(id: id, target: target, targetCode: targetCode, condition: route.condition)
            storage.eventRoutes.withChain(eventCode, fromCode) { storage.eventEntries.append(entry, to: &$0) }
            storage.eventRoutesByTransition.withChain(fromCode, targetCode) {
                storage.transitionEntries.append(entry, to: &$0)
            }
            return Placement(id: id, event: eventCode, from: fromCode, to: targetCode)
        }
    }

    /// Removes event routes from where ``addEventRoutes(event:_:)`` put them.
    ///
    /// - Complexity: O(*n*) in the routes removed times the length of their chains.
    @inlinable
    mutating func removeEventRoutes(_ placements: [Placement]) {
        let storage = uniqueStorage
        for place in placements {
            storage.eventRoutes.withChain(place.event, place.from) {
                storage.eventEntries.removeAll(from: &$0) { $0.id == place.id }
            }
            storage.eventRoutesByTransition.withChain(place.from, place.to) {
                storage.transitionEntries.removeAll(from: &$0) { $0.id == place.id }
            }
        }
    }

    /// Adds a route that only `tryState` takes.
    ///
    /// - Returns: Where the route is kept, for ``removeStateRoute(_:)``.
    @inlinable
    mutating func addStateRoute(_ id: RegistrationID, transition: Transition<S>, condition: Condition?) -> Placement {
        let storage = uniqueStorage
        let fromCode = storage.states.intern(transition.fromState.rawValue)
        let target = transition.toState.rawValue
        let entry = Entry(id: id, target: target, targetCode: storage.states.intern(target), condition: condition)
        storage.stateRoutes.withChain(fromCode, entry.targetCode) { storage.transitionEntries.append(entry, to: &$0) }
        return Placement(id: id, event: .wildcard, from: fromCode, to: entry.targetCode)
    }

    /// Removes an event-less route from where ``addStateRoute(_:transition:condition:)`` put it.
    @inlinable
    mutating func removeStateRoute(_ place: Placement) {
        let storage = uniqueStorage
        storage.stateRoutes.withChain(place.from, place.to) {
            storage.transitionEntries.removeAll(from: &$0) { $0.id == place.id }
        }
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
    /// Chains are tried from the most specific (this event, this state) to the
    /// least (`.any` event, `.any` state), each in registration order; route
    /// mappings come last, in registration order. The first route whose
    /// condition holds wins.
    ///
    /// - Parameters:
    ///   - event: The event fired.
    ///   - eventCode: `code(of: event)`.
    ///   - state: The current state.
    ///   - stateCode: `code(of: state)`.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: The move and its target's code, or why there is none.
    /// - Complexity: No hashing; at most four integer look-ups, then the
    ///   conditions of the routes that could fire.
    @inlinable
    func decide(
        event: E, code eventCode: SymbolCode, from state: S, code stateCode: SymbolCode, userInfo: Any?
    ) -> Decision<S> {
        let storage = self.storage
        var sawRoute = false
        if !storage.eventRoutes.isEmpty {
            func firstAllowed(_ first: SymbolCode, _ second: SymbolCode) -> Decision<S>? {
                let chain = storage.eventRoutes[first, second]
                guard !chain.isEmpty else { return nil }
                sawRoute = true
                var node = chain.head
                while node >= 0 {
                    let entry = storage.eventEntries[node]
                    // A route to `.any` keeps an event's machine where it is.
                    let target = entry.target ?? state
                    if entry.condition?(Context(event: event, fromState: state, toState: target, userInfo: userInfo))
                        ?? true
                    {
                        return .move(to: target, code: entry.target == nil ? stateCode : entry.targetCode)
                    }
                    node = storage.eventEntries.next(after: node)
                }
                return nil
            }
            if let decision = firstAllowed(eventCode, stateCode) ?? firstAllowed(eventCode, .wildcard)
                ?? firstAllowed(.wildcard, stateCode) ?? firstAllowed(.wildcard, .wildcard)
            {
                return decision
            }
        }
        for mapping in storage.routeMappings {
            if let target = mapping.body(event, state, userInfo) {
                return .move(to: target, code: .unknown)
            }
        }
        return sawRoute ? .refused : .noRoute
    }

    /// Whether the machine may go from `state` to `target` by asking for the state.
    ///
    /// Event-less routes come first, then event routes of every event, then
    /// state route mappings, then route mappings asked with a `nil` event.
    ///
    /// - Complexity: No hashing; at most eight integer look-ups, then the
    ///   conditions of the routes that could allow the move.
    @inlinable
    func decide(from state: S, code stateCode: SymbolCode, to target: S, code targetCode: SymbolCode, userInfo: Any?)
        -> Decision<S>
    {
        let storage = self.storage
        var sawRoute = false
        // Names the index by a flag rather than taking it as an argument: a
        // copy of the index would cost a retain and a release per request.
        func someRouteAllows(byEvent: Bool) -> Bool {
            guard !(byEvent ? storage.eventRoutesByTransition.isEmpty : storage.stateRoutes.isEmpty) else {
                return false
            }
            func allows(_ first: SymbolCode, _ second: SymbolCode) -> Bool {
                let chain =
                    byEvent ? storage.eventRoutesByTransition[first, second] : storage.stateRoutes[first, second]
                guard !chain.isEmpty else { return false }
                sawRoute = true
                // A context (and its `userInfo` copy) only for routes that ask.
                return storage.transitionEntries.contains(in: chain) { entry in
                    guard let condition = entry.condition else { return true }
                    return condition(Context(event: nil, fromState: state, toState: target, userInfo: userInfo))
                }
            }
            return allows(stateCode, targetCode) || allows(stateCode, .wildcard) || allows(.wildcard, targetCode)
                || allows(.wildcard, .wildcard)
        }
        if someRouteAllows(byEvent: false) || someRouteAllows(byEvent: true) {
            return .move(to: target, code: targetCode)
        }
        for mapping in storage.stateRouteMappings {
            if let targets = mapping.body(state, userInfo), targets.contains(target) {
                return .move(to: target, code: targetCode)
            }
        }
        for mapping in storage.routeMappings {
            if mapping.body(nil, state, userInfo) == target {
                return .move(to: target, code: targetCode)
            }
        }
        return sawRoute ? .refused : .noRoute
    }

    /// Whether `event` could take the machine from `state` to `target`, by any
    /// of its routes (not only the one `tryEvent` would choose) or mappings.
    func allows(event: E, from state: S, to target: S, userInfo: Any?) -> Bool {
        let storage = self.storage
        let context = Context(event: event, fromState: state, toState: target, userInfo: userInfo)
        let eventCode = code(of: event)
        let stateCode = code(of: state)
        func allows(_ first: SymbolCode, _ second: SymbolCode) -> Bool {
            storage.eventEntries.contains(in: storage.eventRoutes[first, second]) {
                // A route to `.any` keeps an event's machine where it is.
                ($0.target ?? state) == target && $0.allows(context)
            }
        }
        return allows(eventCode, stateCode) || allows(eventCode, .wildcard) || allows(.wildcard, stateCode)
            || allows(.wildcard, .wildcard)
            || storage.routeMappings.contains { $0.body(event, state, userInfo) == target }
    }
}

/// What a route table decided for one request.
@usableFromInline
enum Decision<S: StateType> {
    /// A route or mapping allows the move to this state, whose code is given
    /// (``SymbolCode/unknown`` after a route mapping: no look-up was needed).
    case move(to: S, code: SymbolCode)
    /// No route or mapping covers the request.
    case noRoute
    /// Routes cover the request, but every one's condition refused it.
    case refused
}

extension RouteTable: CopyOnWriteTable {}
