// Adding and removing routes and route mappings: each interns its states
// and events and links the route into the chains a decision walks.

extension RouteTable {
    /// Adds one route that `event` (`nil` for `.any`) takes.
    ///
    /// - Returns: The route's node, for ``removeEventRoute(_:at:)``.
    /// - Complexity: Amortised O(1): at most one hash of the event and two of
    ///   the route's states (none of a value hashed just before).
    mutating func addEventRoute(
        event: E?, _ transition: Transition<S>, guarded: RouteGuard<S, E>?, id: RegistrationID
    ) -> Int32 {
        let storage = uniqueStorage
        return storage.addEventRoute(
            eventCode: storage.events.intern(event), transition, guarded: guarded, id: id)
    }

    /// Adds one route kept under a reserved event code: an eventless route
    /// (``SymbolCode/eventless``) or one that reacts to its source being done
    /// (``SymbolCode/done``). Neither is taken by a state request.
    ///
    /// - Returns: The route's node, for ``removeEventRoute(at:)``.
    mutating func addRoute(
        reservedEvent eventCode: SymbolCode, _ transition: Transition<S>, guarded: RouteGuard<S, E>?,
        id: RegistrationID
    ) -> Int32 {
        precondition(eventCode.isReservedEvent, "addRoute(reservedEvent:) takes the eventless or the done code only")
        return uniqueStorage.addEventRoute(eventCode: eventCode, transition, guarded: guarded, id: id)
    }

    /// Whether some route is kept under the reserved event code `eventCode`.
    @inlinable
    func hasRoutes(reservedEvent eventCode: SymbolCode) -> Bool {
        (eventCode == .eventless ? storage.eventlessRouteCount : storage.doneRouteCount) > 0
    }

    /// Adds `count` routes that `event` (`nil` for `.any`) takes, the one at
    /// each offset given by `route`, registered as `firstID` and the
    /// registrations after it.
    ///
    /// - Returns: The routes' nodes, in order, for ``removeEventRoute(_:at:)``.
    /// - Complexity: Amortised O(*n*) in the routes added, with room made once.
    mutating func addEventRoutes(
        event: E?, count: Int, firstID: RegistrationID,
        route: (Int) -> (transition: Transition<S>, guarded: RouteGuard<S, E>?)
    ) -> [Int32] {
        let storage = uniqueStorage
        let eventCode = storage.events.intern(event)
        storage.states.reserveRoom(forAdding: count)
        storage.eventRoutes.reserveRoom(forAdding: count)
        storage.eventEntries.reserveRoom(forAdding: count)
        if storage.isIndexingEventRoutesByTransition {
            storage.eventRoutesByTransition.reserveRoom(forAdding: count)
            storage.eventRouteLinks.reserveRoom(forAdding: count)
        }
        return (0..<count).map { offset in
            let (transition, guarded) = route(offset)
            let id = RegistrationID(rawValue: firstID.rawValue + UInt64(offset))
            return storage.addEventRoute(eventCode: eventCode, transition, guarded: guarded, id: id)
        }
    }

    /// Whether the event route of registration `id` is still at `node`.
    func holdsEventRoute(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.eventEntries.element(at: node)?.id == id
    }

    /// Removes the event route at `node`, which ``holdsEventRoute(_:at:)``.
    ///
    /// - Returns: The route, for the caller to let go of once it is done
    ///   with the table (its condition's captures may run code that changes
    ///   the table).
    /// - Complexity: O(1).
    mutating func removeEventRoute(at node: Int32) -> Entry {
        let storage = uniqueStorage
        let keys = storage.eventNodeKeys[Int(node)]
        let removed = storage.eventRoutes.withChain(keys.event, keys.from) {
            storage.eventEntries.remove(node, from: &$0)
        }
        storage.countRoute(keys.event, from: keys.from, isGuarded: removed.guarded != nil, by: -1)
        if keys.link >= 0 {
            _ = storage.eventRoutesByTransition.withChain(keys.from, keys.to) {
                storage.eventRouteLinks.remove(keys.link, from: &$0)
            }
            storage.eventNodeKeys[Int(node)].link = -1
        }
        return removed
    }

    /// Whether a state request must first index the event routes by transition.
    @inlinable
    var needsEventRoutesByTransition: Bool {
        !storage.isIndexingEventRoutesByTransition && !storage.eventRoutes.isEmpty
    }

    /// Indexes the event routes by transition, in the order they were
    /// registered, and keeps doing so for routes added later.
    ///
    /// - Complexity: O(*n* log *n*) in the event routes, once.
    @usableFromInline
    mutating func indexEventRoutesByTransition() {
        let storage = uniqueStorage
        guard !storage.isIndexingEventRoutesByTransition else { return }
        storage.isIndexingEventRoutesByTransition = true
        var routes: [(id: RegistrationID, node: Int32)] = []
        for slot in storage.eventRoutes.slots
        where slot.key != PairIndex.emptyKey && !SymbolCode(truncatingIfNeeded: slot.key >> 32).isReservedEvent {
            var node = slot.chain.head
            while node >= 0 {
                routes.append((storage.eventEntries[node].id, node))
                node = storage.eventEntries.next(after: node)
            }
        }
        routes.sort { $0.id < $1.id }
        storage.eventRoutesByTransition.reserveRoom(forAdding: routes.count)
        storage.eventRouteLinks.reserveRoom(forAdding: routes.count)
        for route in routes {
            storage.linkEventRoute(route.node)
        }
    }

    /// Adds a route that only `tryState` takes.
    ///
    /// - Returns: The route's node, for ``removeStateRoute(at:)``.
    mutating func addStateRoute(_ id: RegistrationID, _ route: Route<S, E>) -> Int32 {
        let storage = uniqueStorage
        let fromCode = storage.states.intern(route.transition.fromState.rawValue)
        let target = route.transition.toState.rawValue
        let targetCode = storage.states.intern(target)
        let entry = Entry(id: id, target: target, targetCode: targetCode, guarded: .of(route))
        let node = storage.stateRoutes.withChain(fromCode, targetCode) { storage.stateEntries.append(entry, to: &$0) }
        while storage.stateNodeSources.count <= Int(node) {
            storage.stateNodeSources.append(.wildcard)
        }
        storage.stateNodeSources[Int(node)] = fromCode
        return node
    }

    /// Whether the event-less route of registration `id` is still at `node`.
    func holdsStateRoute(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.stateEntries.element(at: node)?.id == id
    }

    /// Removes the event-less route at `node`, which ``holdsStateRoute(_:at:)``.
    ///
    /// - Returns: The route, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    mutating func removeStateRoute(at node: Int32) -> Entry {
        let storage = uniqueStorage
        let from = storage.stateNodeSources[Int(node)]
        let to = storage.stateEntries[node].targetCode
        return storage.stateRoutes.withChain(from, to) { storage.stateEntries.remove(node, from: &$0) }
    }

    /// Adds a route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeRouteMapping(at:)``.
    mutating func addRouteMapping(_ id: RegistrationID, _ mapping: @escaping RouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.routeMappings.append(
            Mapping(id: id, body: RouteMappingBody(written: mapping)), to: &storage.routeMappingChain)
    }

    /// Adds a route mapping that answers as the table asks, after the others:
    /// a definition's, which names the clause that answered, and refuses.
    ///
    /// - Returns: Its node, for ``removeRouteMapping(at:)``.
    mutating func addRouteMapping(_ id: RegistrationID, answering mapping: @escaping MappingBody) -> Int32 {
        let storage = uniqueStorage
        return storage.routeMappings.append(
            Mapping(id: id, body: RouteMappingBody(answering: mapping)), to: &storage.routeMappingChain)
    }

    /// Whether the route mapping of registration `id` is still at `node`.
    func holdsRouteMapping(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.routeMappings.element(at: node)?.id == id
    }

    /// - Returns: The mapping, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    mutating func removeRouteMapping(at node: Int32) -> Mapping<RouteMappingBody> {
        let storage = uniqueStorage
        return storage.routeMappings.remove(node, from: &storage.routeMappingChain)
    }

    /// Adds a state route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeStateRouteMapping(at:)``.
    mutating func addStateRouteMapping(_ id: RegistrationID, _ mapping: @escaping StateRouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.stateRouteMappings.append(Mapping(id: id, body: mapping), to: &storage.stateRouteMappingChain)
    }

    /// Whether the state route mapping of registration `id` is still at `node`.
    func holdsStateRouteMapping(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.stateRouteMappings.element(at: node)?.id == id
    }

    /// - Returns: The mapping, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    mutating func removeStateRouteMapping(at node: Int32) -> Mapping<StateRouteMapping> {
        let storage = uniqueStorage
        return storage.stateRouteMappings.remove(node, from: &storage.stateRouteMappingChain)
    }

    /// Calls `body` with the registration of every route and mapping.
    func forEachRegistration(_ body: (RegistrationID) -> Void) {
        storage.eventEntries.forEachElement { body($0.id) }
        storage.stateEntries.forEachElement { body($0.id) }
        storage.routeMappings.forEachElement { body($0.id) }
        storage.stateRouteMappings.forEachElement { body($0.id) }
    }
}

extension RouteTable.Storage {
    /// Adds one event route, interning its states, and links it by
    /// transition if event routes are indexed so.
    func addEventRoute(
        eventCode: SymbolCode, _ transition: Transition<S>, guarded: RouteGuard<S, E>?, id: RegistrationID
    ) -> Int32 {
        let fromCode = states.intern(transition.fromState.rawValue)
        let target = transition.toState.rawValue
        let targetCode = states.intern(target)
        if let guarded, !transition.otherTargets.isEmpty {
            guarded.otherTargets = transition.otherTargets.map { states.intern($0) }
        }
        let entry = RouteTable.Entry(id: id, target: target, targetCode: targetCode, guarded: guarded)
        let node = eventRoutes.withChain(eventCode, fromCode) { eventEntries.append(entry, to: &$0) }
        countRoute(eventCode, from: fromCode, isGuarded: guarded != nil, by: 1)
        while eventNodeKeys.count <= Int(node) {
            eventNodeKeys.append(EventRouteKeys(event: .wildcard, from: .wildcard, to: .wildcard, link: -1))
        }
        eventNodeKeys[Int(node)] = EventRouteKeys(event: eventCode, from: fromCode, to: targetCode, link: -1)
        linkEventRoute(node)
        return node
    }

    /// Whether a route of an event or of `.any` event leaves `state`.
    @inlinable
    func hasEventRoutes(from state: SymbolCode) -> Bool {
        Int(state) < routeCountsBySource.count && routeCountsBySource[Int(state)].events > 0
    }

    /// Whether a route kept under the reserved event code `eventCode`
    /// (eventless or done) leaves `state`: an array read, which a decision
    /// makes before it holds the table to run conditions.
    @inlinable
    func hasRoutes(reservedEvent eventCode: SymbolCode, from state: SymbolCode) -> Bool {
        Int(state) < routeCountsBySource.count && routeCountsBySource[Int(state)].count(ofEvent: eventCode) > 0
    }

    /// Whether every route of an event or of `.any` event that leaves
    /// `state` has no guard (``RouteTable/Entry/guarded`` is `nil`): no
    /// condition, no list of sources or targets (`[S] => S`), not local,
    /// nothing extra. Which of them an event takes then depends on the event
    /// and the state alone, so a statechart may remember it (``ChoiceMemo``).
    @inlinable
    func hasOnlyUnguardedEventRoutes(from state: SymbolCode) -> Bool {
        Int(state) >= routeCountsBySource.count || routeCountsBySource[Int(state)].guardedEvents == 0
    }

    /// Counts `change` routes of the event `eventCode` from `state`, with a
    /// guard or without: every event route added or removed, which moves
    /// ``eventRoutesVersion``.
    func countRoute(_ eventCode: SymbolCode, from state: SymbolCode, isGuarded: Bool, by change: Int) {
        eventRoutesVersion &+= 1
        if Int(state) >= routeCountsBySource.count {
            routeCountsBySource.append(
                contentsOf: repeatElement(SourceRouteCounts(), count: Int(state) + 1 - routeCountsBySource.count))
        }
        routeCountsBySource[Int(state)].add(change, ofEvent: eventCode, isGuarded: isGuarded)
        if eventCode == .eventless {
            eventlessRouteCount += change
        } else if eventCode == .done {
            doneRouteCount += change
        }
    }

    /// Links the event route at `node` by transition, if event routes are indexed so.
    func linkEventRoute(_ node: Int32) {
        let keys = eventNodeKeys[Int(node)]
        // A state request takes neither eventless routes nor done routes.
        guard isIndexingEventRoutesByTransition, !keys.event.isReservedEvent else { return }
        eventNodeKeys[Int(node)].link = eventRoutesByTransition.withChain(keys.from, keys.to) {
            eventRouteLinks.append(node, to: &$0)
        }
    }
}
