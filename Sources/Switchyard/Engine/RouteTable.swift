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
    /// A route mapping that answers as the table asks: a definition's,
    /// which names its clause and refuses.
    @usableFromInline typealias MappingBody = (E?, S, UserInfoBox?) -> MappingAnswer<S>

    /// A route mapping of either kind: a closure a user wrote, or one that
    /// answers as the table asks. Each is kept in a `let` of its own (a
    /// placeholder for the other kind), so that a call reads it in place and
    /// retains nothing; wrapping a user's closure in an answering one cost a
    /// request another indirect call and a thunk (47 instructions on `mapping`).
    @usableFromInline
    struct RouteMappingBody {
        @usableFromInline let answers: Bool
        @usableFromInline let written: RouteMapping
        @usableFromInline let answering: MappingBody

        @inlinable
        init(written: @escaping RouteMapping) {
            answers = false
            self.written = written
            answering = { _, _, _ in .none }
        }

        @inlinable
        init(answering: @escaping MappingBody) {
            answers = true
            written = { _, _, _ in nil }
            self.answering = answering
        }
    }

    /// One registered route in one chain.
    ///
    /// Small, and trivial to copy but for one optional reference, because
    /// decisions copy it: past a size, the optimiser copies it through
    /// outlined value witnesses, which cost more than the rest of a decision.
    /// The keys a route is kept under, needed only to remove it, live in side
    /// arrays of the storage.
    @usableFromInline
    struct Entry {
        @usableFromInline var id: RegistrationID
        /// Where the route leads; `nil` is `.any`, which an event takes as "stay".
        @usableFromInline var target: S?
        /// The code of `target`, ``SymbolCode/wildcard`` for `.any`.
        @usableFromInline var targetCode: SymbolCode
        /// What must hold for the route to be taken; `nil` for nothing.
        @usableFromInline var guarded: RouteGuard<S, E>?

        @inlinable
        init(id: RegistrationID, target: S?, targetCode: SymbolCode, guarded: RouteGuard<S, E>?) {
            self.id = id
            self.target = target
            self.targetCode = targetCode
            self.guarded = guarded
        }

        /// Whether the route may take the move `from` → `to`, or why not.
        ///
        /// Called on a table that the caller holds a copy of, or holds
        /// pinned (``ReaderPins``), while the condition runs (as every
        /// decision is: a condition may change the machine's table, which
        /// then copies its storage first), so the table keeps the guard
        /// alive: the condition is called unretained, without a retain and a
        /// release of its captures at each try.
        @inlinable
        func refusal(event: E?, from: S, to: S, userInfo: UserInfoBox?) -> Refusal? {
            guard guarded != nil else { return nil }
            return Unretained(guarded!).withObject {
                $0.refusal(event: event, from: from, to: to, userInfo: userInfo)
            }
        }
    }

    /// A route mapping of either kind, with the registration that removes it.
    ///
    /// The closure lives in a box of its own, which a decision calls without
    /// retaining it (``Storage/routeMappingTarget(at:event:from:userInfo:)``):
    /// a closure copied out of its chain would retain its captures on every
    /// request.
    @usableFromInline
    struct Mapping<Body> {
        @usableFromInline var id: RegistrationID
        @usableFromInline var box: MappingBox<Body>

        @inlinable
        init(id: RegistrationID, body: Body) {
            self.id = id
            self.box = MappingBox(body)
        }
    }

    /// A route mapping's closure, alone in an object so that it can be
    /// called through an unretained reference.
    @usableFromInline
    final class MappingBox<Body> {
        @usableFromInline let body: Body

        @inlinable
        init(_ body: Body) {
            self.body = body
        }
    }

    @usableFromInline
    final class Storage: TableStorage {
        @exclusivity(unchecked) @usableFromInline var readerPins = ReaderPins()

        #if DEBUG
            deinit {
                assert(!isPinned, "Switchyard: a table's storage was freed while a reader held it pinned")
            }
        #endif
        /// The codes of the states and events that routes and handlers name.
        @exclusivity(unchecked) @usableFromInline var states = Symbols<S>()
        @exclusivity(unchecked) @usableFromInline var events = Symbols<E>()
        /// Event routes by (event, from-state), for `tryEvent`.
        @exclusivity(unchecked) @usableFromInline var eventRoutes = PairIndex()
        @exclusivity(unchecked) @usableFromInline var eventEntries = ChainStore<Entry>()
        /// The same event routes by (from-state, to-state), whatever their
        /// event, for `tryState`: each link is the node of an event route.
        /// Built by ``indexEventRoutesByTransition()`` when a state request
        /// first needs it, then kept up to date; a machine driven by events
        /// alone never pays for it.
        @exclusivity(unchecked) @usableFromInline var eventRoutesByTransition = PairIndex()
        @exclusivity(unchecked) @usableFromInline var eventRouteLinks = ChainStore<Int32>()
        /// For each node of `eventEntries`: the keys its route is kept under,
        /// and its link by transition (`-1` for none).
        @exclusivity(unchecked) @usableFromInline var eventNodeKeys: [EventRouteKeys] = []
        @exclusivity(unchecked) @usableFromInline var isIndexingEventRoutesByTransition = false
        /// How many eventless routes and done routes `eventRoutes` keeps
        /// (under ``SymbolCode/eventless`` and ``SymbolCode/done``), so that
        /// a step without any skips looking for them.
        @exclusivity(unchecked) @usableFromInline var eventlessRouteCount = 0
        @exclusivity(unchecked) @usableFromInline var doneRouteCount = 0
        /// How many routes of each kind leave each state, by its code (`.any`
        /// at 0): a statechart's walk up from an active state skips the
        /// ancestors that have none of the kind it looks for without looking
        /// them up in `eventRoutes`.
        @exclusivity(unchecked) @usableFromInline var routeCountsBySource: [SourceRouteCounts] = []
        /// Moves each time an event route (eventless and done routes
        /// included) is added or removed, all of which ``countRoute(_:from:isGuarded:by:)``
        /// counts: what a remembered choice (``ChoiceMemo``) was made with.
        /// A copy starts from its original's version, and a machine's table
        /// is only ever replaced by a copy of itself, so one machine never
        /// sees two different sets of routes under one version.
        @exclusivity(unchecked) @usableFromInline var eventRoutesVersion: UInt64 = 0
        /// Event-less routes by (from-state, to-state), for `tryState`.
        @exclusivity(unchecked) @usableFromInline var stateRoutes = PairIndex()
        @exclusivity(unchecked) @usableFromInline var stateEntries = ChainStore<Entry>()
        /// For each node of `stateEntries`, the code of its route's source.
        @exclusivity(unchecked) @usableFromInline var stateNodeSources: [SymbolCode] = []
        /// Route mappings of both kinds, each kind one chain in registration order.
        @exclusivity(unchecked) @usableFromInline var routeMappings = ChainStore<Mapping<RouteMappingBody>>()
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
            eventRouteLinks = other.eventRouteLinks
            eventNodeKeys = other.eventNodeKeys
            isIndexingEventRoutesByTransition = other.isIndexingEventRoutesByTransition
            eventlessRouteCount = other.eventlessRouteCount
            doneRouteCount = other.doneRouteCount
            routeCountsBySource = other.routeCountsBySource
            eventRoutesVersion = other.eventRoutesVersion
            stateRoutes = other.stateRoutes
            stateEntries = other.stateEntries
            stateNodeSources = other.stateNodeSources
            routeMappings = other.routeMappings
            routeMappingChain = other.routeMappingChain
            stateRouteMappings = other.stateRouteMappings
            stateRouteMappingChain = other.stateRouteMappingChain
        }

        /// What the route mapping at `node` answers for `event` from `state`.
        ///
        /// The mapping is called without being retained: the caller holds
        /// this storage, which keeps it alive even if the mapping removes
        /// itself while it runs (the removal then changes a copy).
        @inlinable
        func routeMappingAnswer(at node: Int32, event: E?, from state: S, userInfo: UserInfoBox?) -> MappingAnswer<S> {
            Unretained(routeMappings[node].box).withObject { box in
                guard box.body.answers else {
                    return box.body.written(event, state, userInfo?.value).map { .move(to: $0, clause: -1) } ?? .none
                }
                return box.body.answering(event, state, userInfo)
            }
        }

        /// The state the route mapping at `node` names for `event` from `state`, if any.
        @inlinable
        func routeMappingTarget(at node: Int32, event: E?, from state: S, userInfo: UserInfoBox?) -> S? {
            guard
                case .move(let target, _) = routeMappingAnswer(at: node, event: event, from: state, userInfo: userInfo)
            else { return nil }
            return target
        }

        /// What the state route mapping at `node` allows from `state`, called
        /// as ``routeMappingTarget(at:event:from:userInfo:)`` calls its mapping.
        @inlinable
        func stateRouteMappingTargets(at node: Int32, from state: S, userInfo: UserInfoBox?) -> [S]? {
            Unretained(stateRouteMappings[node].box).withObject { $0.body(state, userInfo?.value) }
        }
    }

    @usableFromInline var storage: Storage

    @inlinable
    init() {
        storage = Storage()
    }

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
        guard let state else { return .wildcard }
        return storage.states.codeIfInternedLast(state) ?? uniqueStorage.states.intern(state)
    }

    /// The code of `state`, which a step names, handing out a transient one
    /// if nothing names it (see ``Symbols``).
    @usableFromInline
    mutating func internTransient(_ state: S) -> SymbolCode {
        let code = storage.states.code(of: state)
        return code != .unknown ? code : uniqueStorage.states.internTransient(state)
    }

    /// Keeps every transient code for the machine's whole life, as if a
    /// declaration named its state.
    @usableFromInline
    mutating func keepTransientCodes() {
        if !storage.states.transient.isEmpty {
            uniqueStorage.states.transient.removeAll()
        }
    }

    /// The code of `event` (`.wildcard` for `nil`), handing out a new one if needed.
    ///
    /// Handlers and routes of one event are often added one call at a time:
    /// the event named last is answered without unsharing the table.
    @inlinable
    mutating func intern(_ event: E?) -> SymbolCode {
        guard let event else { return .wildcard }
        return storage.events.codeIfInternedLast(event) ?? uniqueStorage.events.intern(event)
    }

    // MARK: Registration

    /// Adds one route that `event` (`nil` for `.any`) takes.
    ///
    /// - Returns: The route's node, for ``removeEventRoute(_:at:)``.
    /// - Complexity: Amortised O(1): at most one hash of the event and two of
    ///   the route's states (none of a value hashed just before).
    @inlinable
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
    @inlinable
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
    @inlinable
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
    @inlinable
    func holdsEventRoute(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.eventEntries.element(at: node)?.id == id
    }

    /// Removes the event route at `node`, which ``holdsEventRoute(_:at:)``.
    ///
    /// - Returns: The route, for the caller to let go of once it is done
    ///   with the table (its condition's captures may run code that changes
    ///   the table).
    /// - Complexity: O(1).
    @inlinable
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
    @inlinable
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
    @inlinable
    func holdsStateRoute(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.stateEntries.element(at: node)?.id == id
    }

    /// Removes the event-less route at `node`, which ``holdsStateRoute(_:at:)``.
    ///
    /// - Returns: The route, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    @inlinable
    mutating func removeStateRoute(at node: Int32) -> Entry {
        let storage = uniqueStorage
        let from = storage.stateNodeSources[Int(node)]
        let to = storage.stateEntries[node].targetCode
        return storage.stateRoutes.withChain(from, to) { storage.stateEntries.remove(node, from: &$0) }
    }

    /// Adds a route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeRouteMapping(at:)``.
    @inlinable
    mutating func addRouteMapping(_ id: RegistrationID, _ mapping: @escaping RouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.routeMappings.append(
            Mapping(id: id, body: RouteMappingBody(written: mapping)), to: &storage.routeMappingChain)
    }

    /// Adds a route mapping that answers as the table asks, after the others:
    /// a definition's, which names the clause that answered, and refuses.
    ///
    /// - Returns: Its node, for ``removeRouteMapping(at:)``.
    @inlinable
    mutating func addRouteMapping(_ id: RegistrationID, answering mapping: @escaping MappingBody) -> Int32 {
        let storage = uniqueStorage
        return storage.routeMappings.append(
            Mapping(id: id, body: RouteMappingBody(answering: mapping)), to: &storage.routeMappingChain)
    }

    /// Whether the route mapping of registration `id` is still at `node`.
    @inlinable
    func holdsRouteMapping(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.routeMappings.element(at: node)?.id == id
    }

    /// - Returns: The mapping, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    @inlinable
    mutating func removeRouteMapping(at node: Int32) -> Mapping<RouteMappingBody> {
        let storage = uniqueStorage
        return storage.routeMappings.remove(node, from: &storage.routeMappingChain)
    }

    /// Adds a state route mapping after the others.
    ///
    /// - Returns: Its node, for ``removeStateRouteMapping(at:)``.
    @inlinable
    mutating func addStateRouteMapping(_ id: RegistrationID, _ mapping: @escaping StateRouteMapping) -> Int32 {
        let storage = uniqueStorage
        return storage.stateRouteMappings.append(Mapping(id: id, body: mapping), to: &storage.stateRouteMappingChain)
    }

    /// Whether the state route mapping of registration `id` is still at `node`.
    @inlinable
    func holdsStateRouteMapping(_ id: RegistrationID, at node: Int32) -> Bool {
        storage.stateRouteMappings.element(at: node)?.id == id
    }

    /// - Returns: The mapping, for the caller to let go of once it is done
    ///   with the table.
    /// - Complexity: O(1).
    @inlinable
    mutating func removeStateRouteMapping(at node: Int32) -> Mapping<StateRouteMapping> {
        let storage = uniqueStorage
        return storage.stateRouteMappings.remove(node, from: &storage.stateRouteMappingChain)
    }

    /// Calls `body` with the registration of every route and mapping.
    @usableFromInline
    func forEachRegistration(_ body: (RegistrationID) -> Void) {
        storage.eventEntries.forEachElement { body($0.id) }
        storage.stateEntries.forEachElement { body($0.id) }
        storage.routeMappings.forEachElement { body($0.id) }
        storage.stateRouteMappings.forEachElement { body($0.id) }
    }

    // MARK: Decisions

    /// Where `event` takes the machine from `state`; for a question about
    /// one move (`hasRoute`), where it may take it if it names `reaching`.
    ///
    /// The one order of every machine (SPEC §2, §3.2), for a flat machine's
    /// walk of two states: `state`, then `.any` (the root); on each, this
    /// event's routes, then `.any` event's, each in registration order
    /// (``Storage/firstRouteWalking(event:code:from:current:reaching:userInfo:refusal:)``,
    /// a statechart's walk with one state); route mappings last, in
    /// registration order. The first route whose guard allows the move (and
    /// that leads to `reaching`, if given) wins.
    ///
    /// - Parameters:
    ///   - event: The event fired.
    ///   - eventCode: `code(of: event)`.
    ///   - state: The current state.
    ///   - stateCode: `code(of: state)`.
    ///   - wanted: For a question, the target it asks about: routes and
    ///     mappings that lead elsewhere are passed over, their conditions unasked.
    ///   - userInfo: Passed to conditions and mappings.
    /// - Returns: The move and its target's code, or why there is none.
    /// - Complexity: No hashing; at most four integer look-ups, then the
    ///   guards of the routes that could fire.
    @inlinable
    func decide(
        event: E, code eventCode: SymbolCode, from state: S, code stateCode: SymbolCode, reaching wanted: S? = nil,
        userInfo: UserInfoBox?
    ) -> Decision<S> {
        let storage = self.storage
        var refusal: Refusal?
        if let route = storage.firstRouteWalking(
            event: event, code: eventCode, from: stateCode, current: state, reaching: wanted, userInfo: userInfo,
            refusal: &refusal)
        {
            // A route to `.any` keeps an event's machine where it is.
            return route.target == nil
                ? .move(to: state, code: stateCode, taken: TakenRoute(id: route.id))
                : .move(to: route.target!, code: route.targetCode, taken: TakenRoute(id: route.id))
        }
        if let (target, taken) = storage.mappedMove(
            event: event, from: state, reaching: wanted, userInfo: userInfo, refusal: &refusal)
        {
            return .move(to: target, code: .unknown, taken: taken)
        }
        return refusal.map(Decision.refused) ?? .noRoute
    }

    /// Whether the machine may go from `state` to `target` by asking for the state.
    ///
    /// The one order of every machine (SPEC §2, §3.2), for a flat machine's
    /// walk of two states: `state`, then `.any` (the root), each asked as a
    /// statechart asks a node for a state
    /// (``Storage/firstRoute(on:to:code:current:userInfo:refusal:)``:
    /// event-less routes, then event routes of every event); then state
    /// route mappings, then route mappings asked with a `nil` event.
    /// Event routes count only once ``indexEventRoutesByTransition()`` has run.
    ///
    /// - Complexity: No hashing; at most eight integer look-ups, then the
    ///   guards of the routes that could allow the move.
    // Always inlined: called out of line, as the optimiser chose once the
    // mappings' calls grew, it cost a state request 26 instructions more.
    @inlinable
    @inline(__always)
    func decide(
        from state: S, code stateCode: SymbolCode, to target: S, code targetCode: SymbolCode, userInfo: UserInfoBox?
    ) -> Decision<S> {
        let storage = self.storage
        var refusal: Refusal?
        let route =
            storage.firstRoute(
                on: stateCode, to: target, code: targetCode, current: state, userInfo: userInfo, refusal: &refusal)
            ?? storage.firstRoute(
                on: .wildcard, to: target, code: targetCode, current: state, userInfo: userInfo, refusal: &refusal)
        if route != nil || storage.mappingsAllow(from: state, to: target, userInfo: userInfo) {
            return .move(to: target, code: targetCode, taken: .none)
        }
        return refusal.map(Decision.refused) ?? .noRoute
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
    /// The request came while a statechart's step was running; it waits.
    case queued
    /// The request was made to a nested machine whose state is not active.
    case inactive
    /// The machine entered a top-level final state: it takes no more steps.
    case finished
    /// The step was taken, but the eventless and done routes it led to did
    /// not settle within ``Machine/internalStepLimit`` steps.
    case unsettled

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
    /// An event's decision names what it took; a state request's, which may
    /// be allowed by several routes at once, names nothing (``TakenRoute/none``).
    case move(to: S, code: SymbolCode, taken: TakenRoute)
    /// No route or mapping covers the request.
    case noRoute
    /// Routes cover the request, but each one's guard refused it.
    case refused(Refusal)

    /// Why routes refused the request: `nil` for a move, and when none covered it.
    @inlinable
    var refusal: Refusal? {
        if case .refused(let refusal) = self { refusal } else { nil }
    }
}

extension RouteTable: CopyOnWriteTable {}

extension RouteTable.Storage {
    /// Adds one event route, interning its states, and links it by
    /// transition if event routes are indexed so.
    @inlinable
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
    /// makes before it pins the table to run conditions.
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
    @inlinable
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
    @inlinable
    func linkEventRoute(_ node: Int32) {
        let keys = eventNodeKeys[Int(node)]
        // A state request takes neither eventless routes nor done routes.
        guard isIndexingEventRoutesByTransition, !keys.event.isReservedEvent else { return }
        eventNodeKeys[Int(node)].link = eventRoutesByTransition.withChain(keys.from, keys.to) {
            eventRouteLinks.append(node, to: &$0)
        }
    }
}

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
    @exclusivity(unchecked) @usableFromInline var otherTargets: [SymbolCode] = []
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
