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
    typealias Context = TransitionContext<S, E>
    typealias Condition = (Context) -> Bool
    @usableFromInline
    typealias RouteMapping = (E?, S, Any?) -> S?
    @usableFromInline
    typealias StateRouteMapping = (S, Any?) -> [S]?
    /// A route mapping that answers as the table asks: a definition's,
    /// which names its clause and refuses.
    @usableFromInline
    typealias MappingBody = (E?, S, UserInfoBox?) -> MappingAnswer<S>

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
        /// Called on a table that the caller holds a copy of, or holds the
        /// storage of, while the condition runs (as every decision is: a
        /// condition may change the machine's table, which then copies its
        /// storage first), so the table keeps the guard alive: the condition
        /// is called unretained, without a retain and a release of its
        /// captures at each try.
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
        /// The codes of the states and events that routes and handlers name.
        @usableFromInline
        @exclusivity(unchecked) var states = Symbols<S>()
        @usableFromInline
        @exclusivity(unchecked) var events = Symbols<E>()
        /// Event routes by (event, from-state), for `tryEvent`.
        @usableFromInline
        @exclusivity(unchecked) var eventRoutes = PairIndex()
        @usableFromInline
        @exclusivity(unchecked) var eventEntries = ChainStore<Entry>()
        /// The same event routes by (from-state, to-state), whatever their
        /// event, for `tryState`: each link is the node of an event route.
        /// Built by ``indexEventRoutesByTransition()`` when a state request
        /// first needs it, then kept up to date; a machine driven by events
        /// alone never pays for it.
        @usableFromInline
        @exclusivity(unchecked) var eventRoutesByTransition = PairIndex()
        @usableFromInline
        @exclusivity(unchecked) var eventRouteLinks = ChainStore<Int32>()
        /// For each node of `eventEntries`: the keys its route is kept under,
        /// and its link by transition (`-1` for none).
        @usableFromInline
        @exclusivity(unchecked) var eventNodeKeys: [EventRouteKeys] = []
        @usableFromInline
        @exclusivity(unchecked) var isIndexingEventRoutesByTransition = false
        /// How many eventless routes and done routes `eventRoutes` keeps
        /// (under ``SymbolCode/eventless`` and ``SymbolCode/done``), so that
        /// a step without any skips looking for them.
        @usableFromInline
        @exclusivity(unchecked) var eventlessRouteCount = 0
        @usableFromInline
        @exclusivity(unchecked) var doneRouteCount = 0
        /// How many routes of each kind leave each state, by its code (`.any`
        /// at 0): a statechart's walk up from an active state skips the
        /// ancestors that have none of the kind it looks for without looking
        /// them up in `eventRoutes`.
        @usableFromInline
        @exclusivity(unchecked) var routeCountsBySource: [SourceRouteCounts] = []
        /// Moves each time an event route (eventless and done routes
        /// included) is added or removed, all of which ``countRoute(_:from:isGuarded:by:)``
        /// counts: what a remembered choice (``ChoiceMemo``) was made with.
        /// A copy starts from its original's version, and a machine's table
        /// is only ever replaced by a copy of itself, so one machine never
        /// sees two different sets of routes under one version.
        @usableFromInline
        @exclusivity(unchecked) var eventRoutesVersion: UInt64 = 0
        /// Event-less routes by (from-state, to-state), for `tryState`.
        @usableFromInline
        @exclusivity(unchecked) var stateRoutes = PairIndex()
        @usableFromInline
        @exclusivity(unchecked) var stateEntries = ChainStore<Entry>()
        /// For each node of `stateEntries`, the code of its route's source.
        @exclusivity(unchecked) var stateNodeSources: [SymbolCode] = []
        /// Route mappings of both kinds, each kind one chain in registration order.
        @usableFromInline
        @exclusivity(unchecked) var routeMappings = ChainStore<Mapping<RouteMappingBody>>()
        @usableFromInline
        @exclusivity(unchecked) var routeMappingChain = Chain()
        @usableFromInline
        @exclusivity(unchecked) var stateRouteMappings = ChainStore<Mapping<StateRouteMapping>>()
        @usableFromInline
        @exclusivity(unchecked) var stateRouteMappingChain = Chain()

        @inlinable
        init() {}

        /// Compiled once, in the library: a table is copied only when it is
        /// changed while a request reads it.
        @usableFromInline
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
}

extension RouteTable: CopyOnWriteTable {}
