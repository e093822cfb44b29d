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

    /// What must hold for a route to be taken.
    @usableFromInline
    enum Guard {
        /// Nothing: the route is always taken.
        case none
        /// The user's condition.
        case condition(Condition)
        /// The states listed by `[.a, .b] => .c` or `.a => [.b, .c]` (`nil`
        /// for a side that lists none), checked here rather than by a closure
        /// so that a refusal can say which list the state was missing from.
        case listed(sources: [S]?, targets: [S]?)

        @inlinable
        init(_ route: Route<S, E>) {
            if route.listedSources != nil || route.listedTargets != nil {
                self = .listed(sources: route.listedSources, targets: route.listedTargets)
            } else if let condition = route.condition {
                self = .condition(condition)
            } else {
                self = .none
            }
        }
    }

    /// One registered route in one chain.
    @usableFromInline
    struct Entry {
        @usableFromInline var id: RegistrationID
        /// Where the route leads; `nil` is `.any`, which an event takes as "stay".
        @usableFromInline var target: S?
        /// The code of `target`, ``SymbolCode/wildcard`` for `.any`.
        @usableFromInline var targetCode: SymbolCode
        @usableFromInline var guarded: Guard

        @inlinable
        init(id: RegistrationID, target: S?, targetCode: SymbolCode, guarded: Guard) {
            self.id = id
            self.target = target
            self.targetCode = targetCode
            self.guarded = guarded
        }

        /// Whether the route may take the move `from` → `to`, or why not.
        ///
        /// A context (and its copy of `userInfo`) is made only for a condition.
        @inlinable
        func refusal(event: E?, from: S, to: S, userInfo: Any?) -> Refusal? {
            switch guarded {
            case .none:
                return nil
            case .condition(let condition):
                return condition(Context(event: event, fromState: from, toState: to, userInfo: userInfo))
                    ? nil : .conditions
            case .listed(let sources, let targets):
                if let sources, !sources.contains(from) { return .sourceNotListed }
                if let targets, !targets.contains(to) { return .targetNotListed }
                return nil
            }
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
        /// Route mappings of both kinds, each kind one chain in registration order.
        @exclusivity(unchecked) @usableFromInline var routeMappings = ChainStore<Mapping<RouteMapping>>()
        @exclusivity(unchecked) @usableFromInline var routeMappingChain = Chain()
        @exclusivity(unchecked) @usableFromInline var stateRouteMappings = ChainStore<Mapping<StateRouteMapping>>()
        @exclusivity(unchecked) @usableFromInline var stateRouteMappingChain = Chain()

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
            routeMappingChain = other.routeMappingChain
            stateRouteMappings = other.stateRouteMappings
            stateRouteMappingChain = other.stateRouteMappingChain
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

    /// Where a registered route is kept: the codes of its keys and its nodes,
    /// so that removing it hashes nothing and searches nothing.
    @usableFromInline
    struct Placement {
        /// The event's code; ``SymbolCode/wildcard`` for `.any` and for event-less routes.
        @usableFromInline var event: SymbolCode
        @usableFromInline var from: SymbolCode
        @usableFromInline var to: SymbolCode
        /// The route's node in `eventEntries`; `-1` for an event-less route.
        @usableFromInline var eventNode: Int32
        /// The route's node in `transitionEntries`.
        @usableFromInline var transitionNode: Int32

        @inlinable
        init(event: SymbolCode, from: SymbolCode, to: SymbolCode, eventNode: Int32, transitionNode: Int32) {
            self.event = event
            self.from = from
            self.to = to
            self.eventNode = eventNode
            self.transitionNode = transitionNode
        }
    }

    /// Adds the routes that `event` (`nil` for `.any`) takes, each with its
    /// registration.
    ///
    /// - Returns: Where each route is kept, for ``removeEventRoutes(_:)``.
    /// - Complexity: Amortised O(*n*) in the routes added: one hash of the
    ///   event, two of each route's states.
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
            let entry = Entry(id: id, target: target, targetCode: targetCode, guarded: Guard(route))
            let eventNode = storage.eventRoutes.withChain(eventCode, fromCode) {
                storage.eventEntries.append(entry, to: &$0)
            }
            let transitionNode = storage.eventRoutesByTransition.withChain(fromCode, targetCode) {
                storage.transitionEntries.append(entry, to: &$0)
            }
            return Placement(
                event: eventCode, from: fromCode, to: targetCode, eventNode: eventNode, transitionNode: transitionNode)
        }
    }

    /// Removes event routes from where ``addEventRoutes(event:_:)`` put them.
    ///
    /// - Complexity: O(*n*) in the routes removed.
    @inlinable
    mutating func removeEventRoutes(_ placements: [Placement]) {
        let storage = uniqueStorage
        for place in placements {
            storage.eventRoutes.withChain(place.event, place.from) {
                storage.eventEntries.remove(place.eventNode, from: &$0)
            }
            storage.eventRoutesByTransition.withChain(place.from, place.to) {
                storage.transitionEntries.remove(place.transitionNode, from: &$0)
            }
        }
    }

    /// Adds a route that only `tryState` takes.
    ///
    /// - Returns: Where the route is kept, for ``removeStateRoute(_:)``.
    @inlinable
    mutating func addStateRoute(_ id: RegistrationID, _ route: Route<S, E>) -> Placement {
        let storage = uniqueStorage
        storage.transitionEntries.reserveRoom(forAdding: 1)
        let fromCode = storage.states.intern(route.transition.fromState.rawValue)
        let target = route.transition.toState.rawValue
        let targetCode = storage.states.intern(target)
        let entry = Entry(id: id, target: target, targetCode: targetCode, guarded: Guard(route))
        let node = storage.stateRoutes.withChain(fromCode, targetCode) {
            storage.transitionEntries.append(entry, to: &$0)
        }
        return Placement(event: .wildcard, from: fromCode, to: targetCode, eventNode: -1, transitionNode: node)
    }

    /// Removes an event-less route from where ``addStateRoute(_:_:)`` put it.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func removeStateRoute(_ place: Placement) {
        let storage = uniqueStorage
        storage.stateRoutes.withChain(place.from, place.to) {
            storage.transitionEntries.remove(place.transitionNode, from: &$0)
        }
    }

    /// Adds a route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeRouteMapping(_:)``.
    @inlinable
    mutating func addRouteMapping(_ id: RegistrationID, _ mapping: @escaping RouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.routeMappings.append(Mapping(id: id, body: mapping), to: &storage.routeMappingChain)
    }

    /// - Complexity: O(1).
    @inlinable
    mutating func removeRouteMapping(_ node: Int32) {
        let storage = uniqueStorage
        storage.routeMappings.remove(node, from: &storage.routeMappingChain)
    }

    /// Adds a state route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeStateRouteMapping(_:)``.
    @inlinable
    mutating func addStateRouteMapping(_ id: RegistrationID, _ mapping: @escaping StateRouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.stateRouteMappings.append(Mapping(id: id, body: mapping), to: &storage.stateRouteMappingChain)
    }

    /// - Complexity: O(1).
    @inlinable
    mutating func removeStateRouteMapping(_ node: Int32) {
        let storage = uniqueStorage
        storage.stateRouteMappings.remove(node, from: &storage.stateRouteMappingChain)
    }

    // MARK: Decisions

    /// Where `event` takes the machine from `state`.
    ///
    /// Chains are tried from the most specific (this event, this state) to the
    /// least (`.any` event, `.any` state), each in registration order; route
    /// mappings come last, in registration order. The first route whose
    /// guard allows the move wins.
    ///
    /// - Parameters:
    ///   - event: The event fired.
    ///   - eventCode: `code(of: event)`.
    ///   - state: The current state.
    ///   - stateCode: `code(of: state)`.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: The move and its target's code, or why there is none.
    /// - Complexity: No hashing; at most four integer look-ups, then the
    ///   guards of the routes that could fire.
    @inlinable
    func decide(
        event: E, code eventCode: SymbolCode, from state: S, code stateCode: SymbolCode, userInfo: Any?
    ) -> Decision<S> {
        let storage = self.storage
        var refusal: Refusal?
        if !storage.eventRoutes.isEmpty {
            func firstAllowed(_ first: SymbolCode, _ second: SymbolCode) -> Decision<S>? {
                let chain = storage.eventRoutes[first, second]
                var node = chain.head
                while node >= 0 {
                    let entry = storage.eventEntries[node]
                    // A route to `.any` keeps an event's machine where it is.
                    let target = entry.target ?? state
                    guard let refused = entry.refusal(event: event, from: state, to: target, userInfo: userInfo) else {
                        return .move(to: target, code: entry.target == nil ? stateCode : entry.targetCode)
                    }
                    refusal = Refusal.merging(refusal, refused)
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
        var node = storage.routeMappingChain.head
        while node >= 0 {
            if let target = storage.routeMappings[node].body(event, state, userInfo) {
                return .move(to: target, code: .unknown)
            }
            node = storage.routeMappings.next(after: node)
        }
        return refusal.map(Decision.refused) ?? .noRoute
    }

    /// Whether the machine may go from `state` to `target` by asking for the state.
    ///
    /// Event-less routes come first, then event routes of every event, then
    /// state route mappings, then route mappings asked with a `nil` event.
    ///
    /// - Complexity: No hashing; at most eight integer look-ups, then the
    ///   guards of the routes that could allow the move.
    @inlinable
    func decide(from state: S, code stateCode: SymbolCode, to target: S, code targetCode: SymbolCode, userInfo: Any?)
        -> Decision<S>
    {
        let storage = self.storage
        var refusal: Refusal?
        // Names the index by a flag rather than taking it as an argument: a
        // copy of the index would cost a retain and a release per request.
        func someRouteAllows(byEvent: Bool) -> Bool {
            guard !(byEvent ? storage.eventRoutesByTransition.isEmpty : storage.stateRoutes.isEmpty) else {
                return false
            }
            func allows(_ first: SymbolCode, _ second: SymbolCode) -> Bool {
                let chain =
                    byEvent ? storage.eventRoutesByTransition[first, second] : storage.stateRoutes[first, second]
                return storage.transitionEntries.contains(in: chain) { entry in
                    guard let refused = entry.refusal(event: nil, from: state, to: target, userInfo: userInfo) else {
                        return true
                    }
                    refusal = Refusal.merging(refusal, refused)
                    return false
                }
            }
            return allows(stateCode, targetCode) || allows(stateCode, .wildcard) || allows(.wildcard, targetCode)
                || allows(.wildcard, .wildcard)
        }
        if someRouteAllows(byEvent: false) || someRouteAllows(byEvent: true) {
            return .move(to: target, code: targetCode)
        }
        var node = storage.stateRouteMappingChain.head
        while node >= 0 {
            if let targets = storage.stateRouteMappings[node].body(state, userInfo), targets.contains(target) {
                return .move(to: target, code: targetCode)
            }
            node = storage.stateRouteMappings.next(after: node)
        }
        node = storage.routeMappingChain.head
        while node >= 0 {
            if storage.routeMappings[node].body(nil, state, userInfo) == target {
                return .move(to: target, code: targetCode)
            }
            node = storage.routeMappings.next(after: node)
        }
        return refusal.map(Decision.refused) ?? .noRoute
    }

    /// Whether `event` could take the machine from `state` to `target`, by any
    /// of its routes (not only the one `tryEvent` would choose) or mappings.
    func allows(event: E, from state: S, to target: S, userInfo: Any?) -> Bool {
        let storage = self.storage
        let eventCode = code(of: event)
        let stateCode = code(of: state)
        func allows(_ first: SymbolCode, _ second: SymbolCode) -> Bool {
            storage.eventEntries.contains(in: storage.eventRoutes[first, second]) {
                // A route to `.any` keeps an event's machine where it is.
                ($0.target ?? state) == target
                    && $0.refusal(event: event, from: state, to: target, userInfo: userInfo) == nil
            }
        }
        if allows(eventCode, stateCode) || allows(eventCode, .wildcard) || allows(.wildcard, stateCode)
            || allows(.wildcard, .wildcard)
        {
            return true
        }
        return storage.routeMappings.contains(in: storage.routeMappingChain) {
            $0.body(event, state, userInfo) == target
        }
    }
}

/// Why routes that cover a request did not take it.
@usableFromInline
enum Refusal: Hashable, Sendable {
    /// The user's condition of every covering route said no.
    case conditions
    /// The covering routes list their source states, and the current state is not among them.
    case sourceNotListed
    /// The covering routes list their target states, and the target is not among them.
    case targetNotListed
    /// The request came while the machine was deciding another one.
    case reentrant

    /// What to report when a route refuses for `new` after others refused
    /// for `old`: a user's condition says the most, so it wins; otherwise
    /// the first reason stands.
    @inlinable
    static func merging(_ old: Refusal?, _ new: Refusal) -> Refusal {
        guard let old, new != .conditions else { return new }
        return old
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
    /// Routes cover the request, but each one's guard refused it.
    case refused(Refusal)
}

extension RouteTable: CopyOnWriteTable {}
