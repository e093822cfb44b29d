// The statechart the test-path search walks: the description's state tree by
// position, and what one request does from a configuration, computed the way
// the contract (SPEC 3.2, SCXML's microstep and macrostep) says a machine
// computes it, from the description alone.

/// The description's state tree, and what a request does from a configuration
/// and the history recorded in it, as far as the description decides it.
struct TestPathChart<S: StateType, E: EventType> {
    typealias Route = MachineDescription<S, E>.Route
    typealias Step = TestPath<S, E>.Step

    /// A node of the search: the active atomic states, in document order
    /// (they determine the whole configuration), and what each state that
    /// keeps history has recorded, by its slot in ``historyStates`` (empty:
    /// nothing yet).
    struct Configuration: Hashable {
        var atomics: [Int]
        var history: [[Int]]
    }

    /// What a request does from a configuration.
    enum Outcome {
        /// No route or mapping takes it: the machine refuses it.
        case refused
        /// The description cannot tell.
        case uncertain
        /// The machine settles in this configuration, having taken these routes.
        case moves(to: Configuration, routes: [Int])
    }

    /// The route a request takes from one state's walk up the tree.
    enum Choice {
        case none
        case uncertain
        case route(Int)
    }

    /// Where to look routes up: the source, by ``TestPathChart/levels(of:)``, and the trigger.
    struct RouteKey {
        var level: Int
        var trigger: Route.Trigger
    }

    /// The routes from one source, by trigger, each in registration order:
    /// looked up by position, so that a walk up the tree hashes an event at
    /// most once per state that has routes.
    struct LevelRoutes {
        var byEvent: [E: [Int]] = [:]
        var anyEvent: [Int] = []
        var state: [Int] = []
        var eventless: [Int] = []
        var done: [Int] = []
    }

    struct MoveKey: Hashable {
        var event: E?
        var source: S
    }

    /// One route taken in a step, as the machine plans it.
    struct Move {
        /// The route, `nil` for a move a route mapping names.
        var route: Int?
        /// The state the route leaves from; -1 for the root (`.any`).
        var source: Int
        /// The states it enters; empty for a route that stays.
        var targets: [Int]
        var isLocal: Bool
        var ignoresHistory: Bool
        /// The state below which it exits and enters (-1: the root); `nil` for one that stays.
        var domain: Int?
    }

    /// The states one step enters, outermost first once sorted.
    struct EntrySet {
        var states: [Int] = []
        /// Whether it enters a state a machine is nested under.
        var isUncertain = false
    }

    /// Buffers sized by the states, reused from step to step so that a step
    /// costs what it touches, not the size of the tree.
    struct Scratch {
        /// The configuration a macrostep works on: whether each state is active.
        var isActive: [Bool]
        /// For each active compound state, its active child; -1 otherwise.
        var activeChild: [Int]
        /// The states marked in the step being planned (exited or entered).
        var isMarked: [Bool]
        /// The positions written in ``isActive`` and ``activeChild``, to clear.
        var touched: [Int] = []

        mutating func clear() {
            for position in touched {
                isActive[position] = false
                activeChild[position] = -1
            }
            touched.removeAll(keepingCapacity: true)
        }
    }

    /// A macrostep in progress: the configuration and history, and the
    /// completions waiting to be offered to done routes.
    struct Working {
        var atomics: [Int]
        var history: [[Int]]
        var completions: [Int] = []
        var completionsRead = 0
        var isFinished = false
    }

    /// The most steps of eventless and done routes one request may lead to
    /// before the machine reports it unsettled (``Machine/internalStepLimit``).
    static var settlingLimit: Int { 1_000 }

    let description: MachineDescription<S, E>
    let index: ValidationIndex<S, E>
    /// The description's states, then the states only listed mapping moves
    /// name (atomic and top-level, since nothing declares them).
    let nodes: [MachineDescription<S, E>.State]
    let position: [S: Int]
    /// By position: the parent (-1 for a top-level state), the children, the
    /// initial child (-1 for none), the history default (-1 for none).
    let parent: [Int]
    let children: [[Int]]
    let initial: [Int]
    let historyDefault: [Int]
    /// By position: the place in document order (each state before its
    /// descendants, children in declaration order), and the place after the
    /// last of its descendants.
    let order: [Int]
    let subtreeEnd: [Int]
    /// The states that keep history, and each state's slot among them (-1 for none).
    let historyStates: [Int]
    let historySlot: [Int]
    /// The states nested machines are nested under, by position.
    let isHost: [Bool]
    /// Routes by source (position + 1, 0 for `.any`) and trigger.
    let routesFrom: [LevelRoutes]
    /// By route: whether it has a condition, and its listed sources.
    let isConditional: [Bool]
    let listedSources: [[S]?]
    /// The events of the routes from each source (`nil` for `.any`), in registration order.
    let eventsFrom: [S?: [E]]
    /// The events of each mapping's listed moves, by source.
    let moveEventsFrom: [S: [E]]
    /// For each mapping, its listed targets by event and source; `nil` for
    /// one that could not be listed.
    let moves: [[MoveKey: [S]]?]
    /// The events in a fixed order: the description's, then those only listed moves name.
    let events: [E]
    let eventRank: [E: Int]

    init(_ description: MachineDescription<S, E>) {
        self.description = description
        index = ValidationIndex(description)
        var eventsFrom: [S?: [E]] = [:]
        for route in description.routes {
            if case .event(let event) = route.trigger {
                eventsFrom[route.source, default: []].append(event)
            }
        }
        self.eventsFrom = eventsFrom
        isConditional = description.routes.map(\.isConditional)
        listedSources = description.routes.map(\.listedSources)
        var events = description.events
        var known = Set(events)
        var nodes = description.states
        var position = index.position
        func name(_ state: S) {
            guard position[state] == nil else { return }
            position[state] = nodes.count
            nodes.append(
                .init(
                    state: state, kind: .atomic, parent: nil, children: [], initial: nil, history: nil,
                    historyDefault: nil, isFinal: false))
        }
        var moveEventsFrom: [S: [E]] = [:]
        moves = description.routeMappings.map { mapping in
            guard let listed = mapping.moves else { return nil }
            var targets: [MoveKey: [S]] = [:]
            for move in listed {
                targets[MoveKey(event: move.event, source: move.source), default: []].append(move.target)
                name(move.source)
                name(move.target)
                if let event = move.event {
                    moveEventsFrom[move.source, default: []].append(event)
                    if known.insert(event).inserted {
                        events.append(event)
                    }
                }
            }
            return targets
        }
        self.nodes = nodes
        self.position = position
        self.moveEventsFrom = moveEventsFrom
        self.events = events
        var eventRank: [E: Int] = [:]
        for (rank, event) in events.enumerated() {
            eventRank[event] = rank
        }
        self.eventRank = eventRank
        var routesFrom = [LevelRoutes](repeating: LevelRoutes(), count: nodes.count + 1)
        for (index, route) in description.routes.enumerated() {
            let level = route.source.flatMap { position[$0] }.map { $0 + 1 } ?? 0
            switch route.trigger {
            case .event(let event): routesFrom[level].byEvent[event, default: []].append(index)
            case .anyEvent: routesFrom[level].anyEvent.append(index)
            case .state: routesFrom[level].state.append(index)
            case .eventless: routesFrom[level].eventless.append(index)
            case .done: routesFrom[level].done.append(index)
            }
        }
        self.routesFrom = routesFrom
        func at(_ state: S?) -> Int { state.flatMap { position[$0] } ?? -1 }
        let parent = nodes.map { at($0.parent) }
        let children = nodes.map { $0.children.compactMap { position[$0] } }
        self.parent = parent
        self.children = children
        initial = nodes.map { at($0.initial) }
        historyDefault = nodes.map { at($0.historyDefault) }
        var order = [Int](repeating: -1, count: nodes.count)
        var subtreeEnd = order
        var next = 0
        func visit(_ node: Int) {
            guard order[node] < 0 else { return }
            order[node] = next
            next += 1
            children[node].forEach(visit)
            subtreeEnd[node] = next
        }
        for node in nodes.indices where parent[node] < 0 {
            visit(node)
        }
        // A tree the machine accepted has no cycle; anything left is put last.
        nodes.indices.forEach(visit)
        self.order = order
        self.subtreeEnd = subtreeEnd
        historyStates = nodes.indices.filter { nodes[$0].history != nil }
        var historySlot = [Int](repeating: -1, count: nodes.count)
        for (slot, state) in historyStates.enumerated() {
            historySlot[state] = slot
        }
        self.historySlot = historySlot
        var isHost = [Bool](repeating: false, count: nodes.count)
        for case let host? in description.nestedMachines.map(\.host) {
            if let hosted = position[host] {
                isHost[hosted] = true
            }
        }
        self.isHost = isHost
    }

    func makeScratch() -> Scratch {
        Scratch(
            isActive: Array(repeating: false, count: nodes.count),
            activeChild: Array(repeating: -1, count: nodes.count),
            isMarked: Array(repeating: false, count: nodes.count))
    }

    // MARK: The tree

    /// Whether `state` is `ancestor` or inside it; everything is inside the root (-1).
    func isWithin(_ state: Int, _ ancestor: Int) -> Bool {
        guard ancestor >= 0 else { return true }
        guard state >= 0 else { return false }
        return order[ancestor] <= order[state] && order[state] < subtreeEnd[ancestor]
    }

    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        state != ancestor && isWithin(state, ancestor)
    }

    func isCompound(_ state: Int) -> Bool {
        state >= 0 && nodes[state].kind == .compound
    }

    /// The machine's ``Machine/state`` in a configuration: the deepest state
    /// that holds all its atomic states.
    func innermostState(of atomics: [Int]) -> Int {
        var candidate = atomics[0]
        // Atomic states are in document order: what holds the first and the last holds all.
        while parent[candidate] >= 0, !isWithin(atomics[atomics.count - 1], candidate) {
            candidate = parent[candidate]
        }
        return candidate
    }

    /// The active states of a configuration, each before its descendants.
    func activeStates(of atomics: [Int]) -> [S] {
        var found: Set<Int> = []
        for atomic in atomics {
            var current = atomic
            while current >= 0, found.insert(current).inserted {
                current = parent[current]
            }
        }
        return found.sorted { order[$0] < order[$1] }.map { nodes[$0].state }
    }

    /// Whether the machine has finished there: a top-level final state is active.
    func isFinished(_ configuration: Configuration) -> Bool {
        configuration.atomics.contains { parent[$0] < 0 && nodes[$0].isFinal }
    }

    /// `atomic` and its proper ancestors, innermost first, then -1 for `.any`.
    func levels(of atomic: Int) -> [Int] {
        var levels = [atomic]
        var current = parent[atomic]
        while current >= 0 {
            levels.append(current)
            current = parent[current]
        }
        levels.append(-1)
        return levels
    }

    func name(_ level: Int) -> S? {
        level >= 0 ? nodes[level].state : nil
    }

    // MARK: Starting

    /// Where a fresh machine is: entering the initial state, its ancestors
    /// and default descendants, with nothing recorded; `nil` when that
    /// enters a nested machine's host, or when an eventless or done route
    /// could be taken from there (a fresh machine takes those only after its
    /// first step, which the search does not model).
    func start(_ scratch: inout Scratch) -> Configuration? {
        guard let initial = position[description.initialState] else { return nil }
        let history = [[Int]](repeating: [], count: historyStates.count)
        var entries = EntrySet()
        addWithDescendants(initial, ignoringHistory: false, history: history, to: &entries, &scratch)
        addAncestors(of: initial, below: -1, history: history, to: &entries, &scratch)
        unmark(entries.states, &scratch)
        guard !entries.isUncertain else { return nil }
        let atomics = entries.states.filter { nodes[$0].kind == .atomic }.sorted { order[$0] < order[$1] }
        let configuration = Configuration(atomics: atomics, history: history)
        guard !isFinished(configuration) else { return configuration }
        load(atomics, &scratch)
        defer { scratch.clear() }
        let isSingle = atomics.count == 1
        for atomic in atomics {
            guard case .none = first(at: atomic, levels(of: atomic).map { [key($0, .eventless)] }, isSingle: isSingle)
            else { return nil }
        }
        for state in entries.states where nodes[state].isFinal && parent[state] >= 0 {
            if routes(from: parent[state], .done) != nil || routes(from: -1, .done) != nil {
                return nil
            }
        }
        return configuration
    }

    // MARK: Requests

    /// The requests worth trying from `configuration`, events first (in the
    /// order of ``events``), then state requests (in the order of the states).
    func steps(from configuration: Configuration) -> [Step] {
        var eventSet: Set<E> = []
        var everyEvent = false
        var targetSet: Set<S> = []
        var everyTarget = false
        var seen: Set<Int> = []
        for atomic in configuration.atomics {
            for level in levels(of: atomic) where seen.insert(level).inserted {
                if routes(from: level, .anyEvent) != nil {
                    everyEvent = true
                }
                eventSet.formUnion(eventsFrom[name(level)] ?? [])
                for route in routes(from: level, .state) ?? [] {
                    let described = description.routes[route]
                    if let listed = described.listedTargets {
                        targetSet.formUnion(listed)
                    } else if let target = described.target {
                        targetSet.insert(target)
                    } else {
                        everyTarget = true
                    }
                }
            }
        }
        // Mappings are modelled only where one atomic state is all there is.
        if configuration.atomics.count == 1 {
            let state = nodes[configuration.atomics[0]].state
            eventSet.formUnion(moveEventsFrom[state] ?? [])
            for case let mapping? in moves {
                targetSet.formUnion(mapping[MoveKey(event: nil, source: state)] ?? [])
            }
        }
        let eventSteps =
            everyEvent ? events.map(Step.event) : eventSet.sorted { eventRank[$0]! < eventRank[$1]! }.map(Step.event)
        let targets =
            everyTarget
            ? nodes.map(\.state)
            : targetSet.compactMap { position[$0] }.sorted().map { nodes[$0].state }
        return eventSteps + targets.map(Step.state)
    }

    /// What `step` does from `configuration`, as far as the description tells.
    ///
    /// - Complexity: O(*k* × *d* + *h*) for *k* active atomic states in a tree
    ///   of depth *d* and *h* recorded states, per step of the macrostep,
    ///   plus the routes looked at; nothing in the size of the whole tree.
    func outcome(of step: Step, from configuration: Configuration, _ scratch: inout Scratch) -> Outcome {
        var working = Working(atomics: configuration.atomics, history: configuration.history)
        load(working.atomics, &scratch)
        defer { scratch.clear() }
        let isSingle = working.atomics.count == 1
        var moves: [Move] = []
        switch step {
        case .event(let event):
            for atomic in working.atomics {
                switch chooseEventRoute(event, at: atomic, isSingle: isSingle) {
                case .none: continue
                case .uncertain: return .uncertain
                case .route(let route):
                    guard let move = self.move(along: route) else { return .uncertain }
                    choose(move, into: &moves)
                }
            }
        case .state(let target):
            guard let targetPosition = position[target] else { return .uncertain }
            walks: for atomic in working.atomics {
                for level in levels(of: atomic) {
                    switch chooseStateRoute(target, from: level, at: atomic, isSingle: isSingle) {
                    case .none: continue
                    case .uncertain: return .uncertain
                    case .route(let route):
                        let described = description.routes[route]
                        // A state request enters its target through its history, and nothing else.
                        guard described.alsoEntering.isEmpty, !described.ignoresHistory else { return .uncertain }
                        choose(
                            Move(
                                route: route, source: level, targets: [targetPosition], isLocal: described.isLocal,
                                ignoresHistory: false),
                            into: &moves)
                        break walks
                    }
                }
            }
        }
        if moves.isEmpty {
            switch mappedTarget(of: step, at: working.atomics) {
            case .none: return .refused
            case .uncertain: return .uncertain
            case .route(let target):
                choose(
                    Move(route: nil, source: -1, targets: [target], isLocal: false, ignoresHistory: false), into: &moves
                )
            }
        }
        let routes = moves.compactMap(\.route).sorted()
        guard microstep(moves, &working, &scratch), let settling = settle(&working, &scratch) else {
            return .uncertain
        }
        return .moves(to: Configuration(atomics: working.atomics, history: working.history), routes: routes + settling)
    }

    // MARK: Choosing routes

    func key(_ level: Int, _ trigger: Route.Trigger) -> RouteKey {
        RouteKey(level: level, trigger: trigger)
    }

    /// The routes of `trigger` from `level`, in registration order; `nil` for none.
    func routes(from level: Int, _ trigger: Route.Trigger) -> [Int]? {
        let routes: [Int]
        switch trigger {
        case .event(let event):
            routes = routesFrom[level + 1].byEvent.isEmpty ? [] : routesFrom[level + 1].byEvent[event] ?? []
        case .anyEvent: routes = routesFrom[level + 1].anyEvent
        case .state: routes = routesFrom[level + 1].state
        case .eventless: routes = routesFrom[level + 1].eventless
        case .done: routes = routesFrom[level + 1].done
        }
        return routes.isEmpty ? nil : routes
    }

    /// The route `event` takes on the walk up from `atomic`. Flat machines
    /// try the exact event before `.any` event, then the exact source before
    /// `.any`; statecharts try each state on the way up, exact event first.
    /// Where the two orders disagree, the answer depends on the engine's
    /// mode: uncertain.
    func chooseEventRoute(_ event: E, at atomic: Int, isSingle: Bool) -> Choice {
        let levels = levels(of: atomic)
        let byLevel = first(
            at: atomic, levels.map { [key($0, .event(event)), key($0, .anyEvent)] }, isSingle: isSingle)
        let byTrigger = first(
            at: atomic, [.event(event), .anyEvent].map { trigger in levels.map { key($0, trigger) } },
            isSingle: isSingle)
        switch (byLevel, byTrigger) {
        case (.none, .none): return .none
        case (.route(let one), .route(let other)) where one == other: return .route(one)
        default: return .uncertain
        }
    }

    /// The route a request for `target` takes on `level`, on the walk up from `atomic`.
    func chooseStateRoute(_ target: S, from level: Int, at atomic: Int, isSingle: Bool) -> Choice {
        let candidates = applicable(key(level, .state), at: atomic, isSingle: isSingle).filter { route in
            guard route >= 0 else { return true }
            let described = description.routes[route]
            if let listed = described.listedTargets {
                return listed.contains(target)
            }
            return described.target == target || described.target == nil
        }
        guard let route = candidates.first else { return .none }
        guard !candidates.contains(-1) else { return .uncertain }
        // Whether a route to `.any` yields to one naming the target is the engine's business.
        let namesTarget = candidates.map { description.routes[$0].target == target }
        guard Set(namesTarget).count == 1 else { return .uncertain }
        return description.routes[route].isConditional ? .uncertain : .route(route)
    }

    /// The first route of the first group that has one, `.uncertain` if it has a condition.
    func first(at atomic: Int, _ groups: [[RouteKey]], isSingle: Bool) -> Choice {
        for group in groups {
            let candidates = group.flatMap { applicable($0, at: atomic, isSingle: isSingle) }
            guard let route = candidates.first else { continue }
            if route == -1 || isConditional[route] {
                return .uncertain
            }
            return .route(route)
        }
        return .none
    }

    /// The routes of `key` that may be taken on the walk up from `atomic`,
    /// in registration order; a route written `[.a, .b] => …` only where
    /// `atomic` is the machine's state and one of them. `-1` stands for one
    /// whose membership the description cannot tell (an ancestor is listed,
    /// the state is not; or several atomic states are active, and the
    /// machine asks its `state`).
    func applicable(_ key: RouteKey, at atomic: Int, isSingle: Bool) -> [Int] {
        guard let routes = routes(from: key.level, key.trigger) else { return [] }
        guard routes.contains(where: { listedSources[$0] != nil }) else { return routes }
        let state = nodes[atomic].state
        return routes.compactMap { route in
            guard let listed = listedSources[route] else { return route }
            guard isSingle else { return -1 }
            if listed.contains(state) {
                return route
            }
            return index.ancestors(of: state).contains(where: listed.contains) ? -1 : nil
        }
    }

    /// The move along an event, eventless or done route; `nil` when where
    /// it leads depends on more than the description (listed targets).
    func move(along route: Int) -> Move? {
        let described = description.routes[route]
        guard described.listedTargets == nil else { return nil }
        var targets: [Int] = []
        if let target = described.target {
            for state in [target] + described.alsoEntering {
                guard let position = position[state] else { return nil }
                targets.append(position)
            }
        }
        return Move(
            route: route, source: described.source.flatMap { position[$0] } ?? -1, targets: targets,
            isLocal: described.isLocal, ignoresHistory: described.ignoresHistory)
    }

    /// The target route mappings name for `step` where `atomics` are active,
    /// asked in registration order, after the routes: `.route` carries the
    /// target's position.
    func mappedTarget(of step: Step, at atomics: [Int]) -> Choice {
        guard !description.routeMappings.isEmpty else { return .none }
        // What a mapping is asked with inside a statechart is not modelled.
        guard atomics.count == 1, parent[atomics[0]] < 0 else { return .uncertain }
        let state = nodes[atomics[0]].state
        for (mapping, listed) in zip(description.routeMappings, moves) {
            guard let listed else { return .uncertain }
            let target: S
            switch step {
            case .event(let event):
                guard mapping.kind == .event, let targets = listed[MoveKey(event: event, source: state)] else {
                    continue
                }
                target = targets[0]
            case .state(let requested):
                guard listed[MoveKey(event: nil, source: state)]?.contains(requested) == true else { continue }
                target = requested
            }
            return position[target].map(Choice.route) ?? .uncertain
        }
        return .none
    }

    /// Adds `move` to `moves` as the machine does: unless it conflicts with
    /// one chosen before (their domains nest), or its source is a proper
    /// descendant of the sources of all it conflicts with, which it then
    /// replaces. A route two walks reach is taken once.
    func choose(_ move: Move, into moves: inout [Move]) {
        if let route = move.route, moves.contains(where: { $0.route == route }) {
            return
        }
        var move = move
        move.domain = domain(of: move)
        guard let domain = move.domain else {
            moves.append(move)
            return
        }
        func conflicts(_ other: Move) -> Bool {
            guard let otherDomain = other.domain else { return false }
            return isWithin(domain, otherDomain) || isWithin(otherDomain, domain)
        }
        var replaces = false
        for other in moves where conflicts(other) {
            guard isDescendant(move.source, of: other.source) else { return }
            replaces = true
        }
        if replaces {
            moves.removeAll(where: conflicts)
        }
        moves.append(move)
    }

    /// The state below which `move` exits and enters: the nearest compound
    /// proper ancestor of its source that holds its targets (the source
    /// itself for a local move into it), -1 for the root; `nil` when it stays.
    func domain(of move: Move) -> Int? {
        guard !move.targets.isEmpty else { return nil }
        func holdsTargets(_ ancestor: Int) -> Bool {
            move.targets.allSatisfy { isDescendant($0, of: ancestor) }
        }
        if move.isLocal, isCompound(move.source), holdsTargets(move.source) {
            return move.source
        }
        var ancestor = move.source < 0 ? -1 : parent[move.source]
        while ancestor >= 0, !(isCompound(ancestor) && holdsTargets(ancestor)) {
            ancestor = parent[ancestor]
        }
        return ancestor
    }

    // MARK: Taking a step

    /// Marks the states of a configuration active in `scratch`.
    func load(_ atomics: [Int], _ scratch: inout Scratch) {
        for atomic in atomics {
            var current = atomic
            while current >= 0, !scratch.isActive[current] {
                activate(current, &scratch)
                current = parent[current]
            }
        }
    }

    func activate(_ state: Int, _ scratch: inout Scratch) {
        scratch.isActive[state] = true
        scratch.touched.append(state)
        if isCompound(parent[state]) {
            scratch.activeChild[parent[state]] = state
            scratch.touched.append(parent[state])
        }
    }

    func unmark(_ states: [Int], _ scratch: inout Scratch) {
        for state in states {
            scratch.isMarked[state] = false
        }
    }

    /// Takes `moves` as one step from `working`, whose states `scratch`
    /// holds active: exits, records history, enters, and queues the
    /// completions entering final states makes. Returns `false` when the
    /// step enters a state a machine is nested under.
    func microstep(_ moves: [Move], _ working: inout Working, _ scratch: inout Scratch) -> Bool {
        // The active states below each domain.
        var exits: [Int] = []
        for move in moves {
            guard let domain = move.domain else { continue }
            for atomic in working.atomics where isDescendant(atomic, of: domain) {
                var current = atomic
                while current != domain, current >= 0, !scratch.isMarked[current] {
                    scratch.isMarked[current] = true
                    exits.append(current)
                    current = parent[current]
                }
            }
        }
        // History is recorded before anything is entered: a state exited and
        // entered again in one step enters what it records in it.
        var history = working.history
        for state in exits where historySlot[state] >= 0 {
            var record: [Int] = []
            if nodes[state].history == .deep {
                record = working.atomics.filter { isDescendant($0, of: state) }
            } else if nodes[state].kind == .parallel {
                record = children[state].filter { scratch.isActive[$0] }
            } else if scratch.activeChild[state] >= 0 {
                record = [scratch.activeChild[state]]
            }
            history[historySlot[state]] = record
        }
        let survivors = working.atomics.filter { !scratch.isMarked[$0] }
        unmark(exits, &scratch)
        var entries = EntrySet()
        for move in moves {
            guard let domain = move.domain else { continue }
            for target in move.targets {
                addWithDescendants(
                    target, ignoringHistory: move.ignoresHistory, history: history, to: &entries, &scratch)
            }
            for target in move.targets {
                addAncestors(of: target, below: domain, history: history, to: &entries, &scratch)
            }
        }
        unmark(entries.states, &scratch)
        guard !entries.isUncertain else { return false }
        entries.states.sort { order[$0] < order[$1] }
        // Apply, as the machine does: exits, then entries in document order,
        // each final state entered completing its parent, and a parallel
        // grandparent once its last region completes.
        for state in exits {
            scratch.isActive[state] = false
            if parent[state] >= 0, scratch.activeChild[parent[state]] == state {
                scratch.activeChild[parent[state]] = -1
            }
        }
        for state in entries.states {
            activate(state, &scratch)
            guard nodes[state].isFinal else { continue }
            let completed = parent[state]
            guard completed >= 0 else {
                working.isFinished = true
                continue
            }
            working.completions.append(completed)
            let grandparent = parent[completed]
            if grandparent >= 0, nodes[grandparent].kind == .parallel, isInFinalState(grandparent, scratch) {
                working.completions.append(grandparent)
            }
        }
        working.atomics = (survivors + entries.states.filter { nodes[$0].kind == .atomic }).sorted {
            order[$0] < order[$1]
        }
        working.history = history
        return true
    }

    /// Whether `state` is done: a compound state whose active child is
    /// final, a parallel state whose regions all are done.
    func isInFinalState(_ state: Int, _ scratch: Scratch) -> Bool {
        switch nodes[state].kind {
        case .atomic: return false
        case .compound: return scratch.activeChild[state] >= 0 && nodes[scratch.activeChild[state]].isFinal
        case .parallel: return children[state].allSatisfy { isInFinalState($0, scratch) }
        }
    }

    /// SCXML's addDescendantStatesToEnter: `state`, then what entering it by
    /// default enters: what it recorded if it keeps history (else its
    /// history's default), else a compound state's initial child and all of
    /// a parallel state's regions.
    func addWithDescendants(
        _ state: Int, ignoringHistory: Bool, history: [[Int]], to entries: inout EntrySet, _ scratch: inout Scratch
    ) {
        add(state, to: &entries, &scratch)
        let kind = nodes[state].kind
        guard kind != .atomic else { return }
        let usesHistory = !ignoringHistory && historySlot[state] >= 0
        if usesHistory, !history[historySlot[state]].isEmpty {
            let remembered = history[historySlot[state]]
            // All the remembered states first, then their ancestors: a
            // parallel ancestor then finds its regions covered by them.
            for child in remembered {
                addWithDescendants(child, ignoringHistory: false, history: history, to: &entries, &scratch)
            }
            for child in remembered {
                addAncestors(of: child, below: state, history: history, to: &entries, &scratch)
            }
            if kind == .parallel {
                addUncoveredRegions(of: state, history: history, to: &entries, &scratch)
            }
            return
        }
        var start = initial[state]
        if usesHistory, historyDefault[state] >= 0 {
            start = historyDefault[state]
        }
        if start >= 0 {
            addWithDescendants(start, ignoringHistory: false, history: history, to: &entries, &scratch)
            addAncestors(of: start, below: state, history: history, to: &entries, &scratch)
        }
        if kind == .parallel {
            addUncoveredRegions(of: state, history: history, to: &entries, &scratch)
        }
    }

    /// SCXML's addAncestorStatesToEnter: the proper ancestors of `state`
    /// below `ancestor`, with the regions of a parallel one nothing entered covers.
    func addAncestors(
        of state: Int, below ancestor: Int, history: [[Int]], to entries: inout EntrySet, _ scratch: inout Scratch
    ) {
        var current = parent[state]
        while current != ancestor, current >= 0 {
            add(current, to: &entries, &scratch)
            if nodes[current].kind == .parallel {
                addUncoveredRegions(of: current, history: history, to: &entries, &scratch)
            }
            current = parent[current]
        }
    }

    func addUncoveredRegions(
        of state: Int, history: [[Int]], to entries: inout EntrySet, _ scratch: inout Scratch
    ) {
        for region in children[state] where !entries.states.contains(where: { isWithin($0, region) }) {
            addWithDescendants(region, ignoringHistory: false, history: history, to: &entries, &scratch)
        }
    }

    func add(_ state: Int, to entries: inout EntrySet, _ scratch: inout Scratch) {
        guard !scratch.isMarked[state] else { return }
        scratch.isMarked[state] = true
        entries.states.append(state)
        if isHost[state] {
            entries.isUncertain = true
        }
    }

    // MARK: Settling

    /// Takes the eventless routes enabled after a step (the walks up from
    /// every active atomic state, as for an event), and, when none is, offers
    /// the oldest completion waiting to its state's done routes; until
    /// nothing applies or the machine finishes (SCXML's macrostep).
    ///
    /// - Returns: The routes taken, in order; `nil` when a condition, a
    ///   nested machine, or a cycle makes where it settles uncertain.
    func settle(_ working: inout Working, _ scratch: inout Scratch) -> [Int]? {
        var taken: [Int] = []
        var seen: Set<Configuration> = []
        while !working.isFinished {
            let isSingle = working.atomics.count == 1
            var moves: [Move] = []
            for atomic in working.atomics {
                switch first(at: atomic, levels(of: atomic).map { [key($0, .eventless)] }, isSingle: isSingle) {
                case .none: continue
                case .uncertain: return nil
                case .route(let route):
                    guard let move = move(along: route) else { return nil }
                    choose(move, into: &moves)
                }
            }
            if moves.isEmpty {
                guard working.completionsRead < working.completions.count else { break }
                let completed = working.completions[working.completionsRead]
                working.completionsRead += 1
                // A step taken since it completed may have left it.
                guard scratch.isActive[completed] else { continue }
                // Whether a route from `.any` hears it is the engine's business.
                guard routes(from: -1, .done) == nil else { return nil }
                switch first(at: completed, [[key(completed, .done)]], isSingle: isSingle) {
                case .none: continue
                case .uncertain: return nil
                case .route(let route):
                    guard let move = move(along: route) else { return nil }
                    choose(move, into: &moves)
                }
            }
            taken += moves.compactMap(\.route).sorted()
            guard taken.count <= Self.settlingLimit, microstep(moves, &working, &scratch) else { return nil }
            // Back where it was: the routes never settle (or settle only by a count).
            guard seen.insert(Configuration(atomics: working.atomics, history: working.history)).inserted else {
                return nil
            }
        }
        return taken
    }
}
