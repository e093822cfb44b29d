// Test paths: a breadth-first search over the states the machine can be in
// whose every step the description decides for certain, built on the same
// index as validation.

extension MachineDescription {
    /// For each state, the shortest sequence of events and state requests
    /// that makes it active, from a fresh machine.
    ///
    /// ```swift
    /// for path in makeDoor().describe().shortestPaths().paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// ```
    ///
    /// The search models the machine as the atomic state it is in, and
    /// follows a step only when the description decides its outcome for
    /// certain: the route it takes, by the precedence the machine applies,
    /// has no condition, and so do the eventless and done routes taken after
    /// it, until the machine settles. Everything else is left out, and shows
    /// in ``TestPaths/unreachedStates`` and ``TestPaths/uncoveredRoutes``
    /// rather than as a path that might not replay. The article *Describing
    /// and Drawing Machines* lists exactly what is followed.
    ///
    /// - Parameter maxLength: The most steps a path may have.
    /// - Returns: One path per state of ``states`` that some path makes
    ///   active, in the order of ``states``, each as short as possible (the
    ///   first found, breadth-first, among equally short ones).
    /// - Complexity: O((*n* + *r*) × *d*) in the states *n* and routes and
    ///   listed moves *r*, for a state tree of depth *d*, plus, for a state
    ///   with a route of `.any` event or to `.any`, the events or states it
    ///   tries; plus the length of the paths returned.
    public func shortestPaths(maxLength: Int = 64) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength)
        let paths = search.nodes.indices.compactMap { position in
            search.nearest[position].map { search.path(to: $0, target: search.nodes[position].state) }
        }
        return TestPaths(
            paths: paths, unreachedStates: search.unreachedStates, uncoveredRoutes: search.uncoveredRoutes)
    }

    /// Paths that together take every route a certain path can take.
    ///
    /// ```swift
    /// let covering = makeDoor().describe().routeCoveringPaths()
    /// for path in covering.paths {
    ///     #expect(path.replay(on: makeDoor()), "\(path)")
    /// }
    /// print(covering.uncoveredRoutes)  // [3]: unlocking has a condition
    /// ```
    ///
    /// Chosen greedily: for each route in the order of ``routes`` that no
    /// path so far takes, the shortest path to a state it is taken from,
    /// then the step that takes it, then, while a step from where the path
    /// ends takes a route not yet taken, that step (so a ring is one path).
    /// Which steps are followed is as for ``shortestPaths(maxLength:)``.
    ///
    /// - Parameter maxLength: The most steps a path may have.
    /// - Returns: The paths, in the order of the first route each was chosen
    ///   for; the routes none takes are in ``TestPaths/uncoveredRoutes``.
    /// - Complexity: That of ``shortestPaths(maxLength:)``, plus the length
    ///   of the paths returned.
    public func routeCoveringPaths(maxLength: Int = 64) -> TestPaths<S, E> {
        let search = TestPathSearch(self, maxLength: maxLength)
        var covered = [Bool](repeating: false, count: routes.count)
        var paths: [TestPath<S, E>] = []
        for route in routes.indices where !covered[route] {
            guard let taking = search.taking[route] else { continue }
            var edges = search.edges(through: taking)
            for taken in edges.flatMap(\.routes) {
                covered[taken] = true
            }
            // Go on while a step from where the path ends takes a route not yet taken.
            while edges.count < maxLength,
                let next = search.leaving[edges.last!.to].first(where: { $0.routes.contains { !covered[$0] } })
            {
                edges.append(next)
                for taken in next.routes {
                    covered[taken] = true
                }
            }
            paths.append(search.makePath(edges, target: search.nodes[edges.last!.to].state))
        }
        return TestPaths(
            paths: paths, unreachedStates: search.unreachedStates, uncoveredRoutes: search.uncoveredRoutes)
    }
}

/// The breadth-first search behind test paths, run once when it is made.
///
/// A node is the position of an atomic state in the description's states:
/// the machine's whole configuration when no parallel state is active.
struct TestPathSearch<S: StateType, E: EventType> {
    typealias Route = MachineDescription<S, E>.Route
    typealias Step = TestPath<S, E>.Step

    /// What a request does from a node.
    enum Outcome {
        /// No route or mapping takes it: the machine refuses it.
        case refused
        /// The description cannot tell.
        case uncertain
        /// The machine settles in this node, having taken these routes.
        case moves(to: Int, routes: [Int])
    }

    /// The route a request takes from a node, before its target is entered.
    enum Choice {
        case none
        case uncertain
        case route(Int)
    }

    /// One step from a node: how the search reached a node, or took a route.
    struct Edge {
        var from: Int
        var step: Step
        var to: Int
        var routes: [Int]
    }

    struct RouteKey: Hashable {
        var source: S?
        var trigger: Route.Trigger
    }

    struct MoveKey: Hashable {
        var event: E?
        var source: S
    }

    let description: MachineDescription<S, E>
    let index: ValidationIndex<S, E>
    /// The description's states, then the states only listed mapping moves
    /// name (atomic and top-level, since nothing declares them).
    let nodes: [MachineDescription<S, E>.State]
    let position: [S: Int]
    let maxLength: Int
    /// Routes by source and trigger, in registration order.
    let routesAt: [RouteKey: [Int]]
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
    /// The states nested machines are nested under.
    let hosts: Set<S>

    /// The node each node was first reached from, by node; `nil` for the start and unreached nodes.
    private(set) var reachedBy: [Edge?]
    private(set) var distance: [Int?]
    /// For each state, by position, the first node reached in which it is active.
    private(set) var nearest: [Int?]
    /// For each route, the first step found that takes it.
    private(set) var taking: [Edge?]
    private(set) var start: Int?
    /// The steps the search followed from each node, in the order tried.
    private(set) var leaving: [[Edge]]

    init(_ description: MachineDescription<S, E>, maxLength: Int) {
        precondition(maxLength >= 0, "test paths were asked for with a negative maxLength")
        self.description = description
        index = ValidationIndex(description)
        self.maxLength = maxLength
        var routesAt: [RouteKey: [Int]] = [:]
        var eventsFrom: [S?: [E]] = [:]
        for (position, route) in description.routes.enumerated() {
            routesAt[RouteKey(source: route.source, trigger: route.trigger), default: []].append(position)
            if case .event(let event) = route.trigger {
                eventsFrom[route.source, default: []].append(event)
            }
        }
        self.routesAt = routesAt
        self.eventsFrom = eventsFrom
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
        hosts = Set(description.nestedMachines.compactMap(\.host))
        let count = nodes.count
        reachedBy = Array(repeating: nil, count: count)
        distance = Array(repeating: nil, count: count)
        nearest = Array(repeating: nil, count: count)
        taking = Array(repeating: nil, count: description.routes.count)
        leaving = Array(repeating: [], count: count)
        search()
    }

    /// The parent of `node`, `-1` for none.
    func parent(_ node: Int) -> Int {
        node < index.parent.count ? index.parent[node] : -1
    }

    // MARK: Search

    private mutating func search() {
        guard let initial = position[description.initialState],
            let first = enter(initial, atStart: true),
            case .moves(let settled, let taken) = settle(first), taken.isEmpty
        else { return }
        start = settled
        distance[settled] = 0
        var queue = [settled]
        var next = 0
        while next < queue.count {
            let node = queue[next]
            next += 1
            markActive(node)
            let length = distance[node]! + 1
            // A top-level final state finishes the machine: it refuses every later request.
            guard length <= maxLength, !(nodes[node].isFinal && parent(node) < 0) else { continue }
            for step in steps(from: node) {
                guard case .moves(let target, let routes) = outcome(of: step, from: node) else { continue }
                let edge = Edge(from: node, step: step, to: target, routes: routes)
                leaving[node].append(edge)
                for route in routes where taking[route] == nil {
                    taking[route] = edge
                }
                if distance[target] == nil {
                    distance[target] = length
                    reachedBy[target] = edge
                    queue.append(target)
                }
            }
        }
    }

    /// Records `node` as the nearest for it and its ancestors not reached yet.
    private mutating func markActive(_ node: Int) {
        var current = node
        while current >= 0 {
            if nearest[current] == nil {
                nearest[current] = node
            }
            current = parent(current)
        }
    }

    /// `state` at `node` and its proper ancestors, innermost first; `nil`
    /// stands for `.any`, last.
    private func levels(of node: Int) -> [S?] {
        let state = nodes[node].state
        return [state] + index.ancestors(of: state).map(Optional.some) + [nil]
    }

    /// The requests worth trying from `node`, events first (in the order of
    /// ``events``), then state requests (in the order of the states).
    private func steps(from node: Int) -> [Step] {
        let state = nodes[node].state
        var eventSet: Set<E> = []
        var everyEvent = false
        var targetSet: Set<S> = []
        var everyTarget = false
        for level in levels(of: node) {
            if routesAt[RouteKey(source: level, trigger: .anyEvent)] != nil {
                everyEvent = true
            }
            eventSet.formUnion(eventsFrom[level] ?? [])
            for route in routesAt[RouteKey(source: level, trigger: .state)] ?? [] {
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
        eventSet.formUnion(moveEventsFrom[state] ?? [])
        for case let mapping? in moves {
            targetSet.formUnion(mapping[MoveKey(event: nil, source: state)] ?? [])
        }
        let eventSteps =
            everyEvent ? events.map(Step.event) : eventSet.sorted { eventRank[$0]! < eventRank[$1]! }.map(Step.event)
        let targets =
            everyTarget
            ? nodes.map(\.state)
            : targetSet.compactMap { position[$0] }.sorted().map { nodes[$0].state }
        return eventSteps + targets.map(Step.state)
    }

    // MARK: Outcomes

    /// What `step` does from `node`, as far as the description tells.
    private func outcome(of step: Step, from node: Int) -> Outcome {
        let choice: Choice
        switch step {
        case .event(let event): choice = chooseEventRoute(event, at: node)
        case .state(let target): choice = chooseStateRoute(target, at: node)
        }
        switch choice {
        case .uncertain: return .uncertain
        case .route(let route): return take(route, from: node, toward: step)
        case .none: return mappingOutcome(of: step, from: node)
        }
    }

    /// The route `event` takes at `node`. Flat machines try the exact event
    /// before `.any` event, then the exact source before `.any`; statecharts
    /// try each state on the way up, exact event first. Where the two orders
    /// disagree, the answer depends on the engine's mode: uncertain.
    private func chooseEventRoute(_ event: E, at node: Int) -> Choice {
        let levels = levels(of: node)
        let byLevel = first(
            at: node,
            levels.map { [RouteKey(source: $0, trigger: .event(event)), RouteKey(source: $0, trigger: .anyEvent)] })
        let byTrigger = first(
            at: node,
            [.event(event), .anyEvent].map { trigger in levels.map { RouteKey(source: $0, trigger: trigger) } })
        switch (byLevel, byTrigger) {
        case (.none, .none): return .none
        case (.route(let one), .route(let other)) where one == other: return .route(one)
        default: return .uncertain
        }
    }

    /// The route a request for `target` takes at `node`.
    private func chooseStateRoute(_ target: S, at node: Int) -> Choice {
        for level in levels(of: node) {
            let candidates = applicable(RouteKey(source: level, trigger: .state), at: node).filter { route in
                guard route >= 0 else { return true }
                let described = description.routes[route]
                if let listed = described.listedTargets {
                    return listed.contains(target)
                }
                return described.target == target || described.target == nil
            }
            guard let route = candidates.first else { continue }
            guard !candidates.contains(-1) else { return .uncertain }
            // Whether a route to `.any` yields to one naming the target is the engine's business.
            let namesTarget = candidates.map { description.routes[$0].target == target }
            guard Set(namesTarget).count == 1 else { return .uncertain }
            return description.routes[route].isConditional ? .uncertain : .route(route)
        }
        return .none
    }

    /// The first route of the first group that has one, `.uncertain` if it has a condition.
    private func first(at node: Int, _ groups: [[RouteKey]]) -> Choice {
        for group in groups {
            let candidates = group.flatMap { applicable($0, at: node) }
            guard let route = candidates.first else { continue }
            if route == -1 || description.routes[route].isConditional {
                return .uncertain
            }
            return .route(route)
        }
        return .none
    }

    /// The routes of `key` that may be taken at `node`, in registration
    /// order; a route written `[.a, .b] => …` only where `node` is one of
    /// them. `-1` stands for one whose membership the description cannot
    /// tell (an ancestor of the node is listed, the node is not).
    private func applicable(_ key: RouteKey, at node: Int) -> [Int] {
        guard let routes = routesAt[key] else { return [] }
        let state = nodes[node].state
        return routes.compactMap { route in
            guard let listed = description.routes[route].listedSources else { return route }
            if listed.contains(state) {
                return route
            }
            return index.ancestors(of: state).contains(where: listed.contains) ? -1 : nil
        }
    }

    /// Takes `route` from `node` for `step`, then settles.
    private func take(_ route: Int, from node: Int, toward step: Step) -> Outcome {
        let described = description.routes[route]
        guard described.alsoEntering.isEmpty else { return .uncertain }
        let target: S
        if case .state(let requested) = step {
            target = requested
        } else if described.listedTargets != nil {
            return .uncertain
        } else if let named = described.target {
            target = named
        } else {
            // An event route to `.any` keeps the machine where it is.
            return .moves(to: node, routes: [route])
        }
        guard let position = position[target],
            let entered = enter(position, ignoringHistory: described.ignoresHistory)
        else { return .uncertain }
        guard case .moves(let settled, let taken) = settle(entered) else { return .uncertain }
        return .moves(to: settled, routes: [route] + taken)
    }

    /// What the route mappings do with `step` at `node`, asked in
    /// registration order, after the routes.
    private func mappingOutcome(of step: Step, from node: Int) -> Outcome {
        guard !description.routeMappings.isEmpty else { return .refused }
        // What a mapping is asked with inside a statechart is not modelled.
        guard parent(node) < 0, nodes[node].kind == .atomic else { return .uncertain }
        let state = nodes[node].state
        for (mapping, listed) in zip(description.routeMappings, moves) {
            guard let listed else { return .uncertain }
            switch step {
            case .event(let event):
                guard mapping.kind == .event, let targets = listed[MoveKey(event: event, source: state)] else {
                    continue
                }
                return enterAndSettle(targets[0])
            case .state(let target):
                guard listed[MoveKey(event: nil, source: state)]?.contains(target) == true else { continue }
                return enterAndSettle(target)
            }
        }
        return .refused
    }

    private func enterAndSettle(_ target: S) -> Outcome {
        guard let position = position[target], let entered = enter(position, ignoringHistory: false) else {
            return .uncertain
        }
        return settle(entered)
    }

    // MARK: Entering and settling

    /// The atomic state entering the state at `position` leads to; `nil`
    /// when that depends on what the description cannot tell: a parallel
    /// state, a history, a nested machine.
    private func enter(_ node: Int, ignoringHistory: Bool = false, atStart: Bool = false) -> Int? {
        var ancestor = parent(node)
        while ancestor >= 0 {
            guard nodes[ancestor].kind != .parallel else { return nil }
            ancestor = parent(ancestor)
        }
        var current = node
        var isTarget = true
        while true {
            let state = nodes[current]
            guard state.kind != .parallel, !hosts.contains(state.state) else { return nil }
            // Before anything is recorded, the initial configuration enters initial children.
            if state.history != nil && !(isTarget && ignoringHistory) && !(atStart && state.historyDefault == nil) {
                return nil
            }
            guard state.kind == .compound else { return current }
            guard let initial = state.initial, let next = position[initial] else { return nil }
            current = next
            isTarget = false
        }
    }

    /// Where the machine settles from `node` after a step: the eventless and
    /// done routes it then takes, each for certain.
    private func settle(_ node: Int) -> Outcome {
        var current = node
        var taken: [Int] = []
        var seen: Set<Int> = []
        while seen.insert(current).inserted {
            let state = nodes[current]
            if state.isFinal && state.parent == nil {
                // The machine has finished.
                return .moves(to: current, routes: taken)
            }
            let eventless = first(at: current, levels(of: current).map { [RouteKey(source: $0, trigger: .eventless)] })
            var done = Choice.none
            if state.isFinal, let parent = state.parent {
                done = first(at: current, [[RouteKey(source: parent, trigger: .done)]])
            }
            if routesAt[RouteKey(source: nil, trigger: .done)] != nil && state.isFinal {
                return .uncertain
            }
            let route: Int
            switch (eventless, done) {
            case (.none, .none): return .moves(to: current, routes: taken)
            case (.route(let chosen), .none), (.none, .route(let chosen)): route = chosen
            default: return .uncertain
            }
            let described = description.routes[route]
            guard described.listedTargets == nil, described.alsoEntering.isEmpty, let target = described.target,
                let position = position[target],
                let entered = enter(position, ignoringHistory: described.ignoresHistory)
            else { return .uncertain }
            taken.append(route)
            current = entered
        }
        // The routes lead back to a state already entered: the machine never settles.
        return .uncertain
    }

    // MARK: Paths

    /// The path the search found to `node`, for `target`.
    func path(to node: Int, target: S) -> TestPath<S, E> {
        var edges: [Edge] = []
        var current = node
        while let edge = reachedBy[current] {
            edges.append(edge)
            current = edge.from
        }
        return makePath(edges.reversed(), target: target)
    }

    /// The steps the search found to `edge`'s source, then `edge`.
    func edges(through edge: Edge) -> [Edge] {
        var edges = [edge]
        var current = edge.from
        while let previous = reachedBy[current] {
            edges.append(previous)
            current = previous.from
        }
        return edges.reversed()
    }

    func makePath(_ edges: [Edge], target: S) -> TestPath<S, E> {
        TestPath(
            target: target, start: nodes[start!].state, steps: edges.map(\.step),
            states: edges.map { nodes[$0.to].state }, routes: edges.flatMap(\.routes))
    }

    var unreachedStates: [S] {
        nodes.indices.filter { nearest[$0] == nil }.map { nodes[$0].state }
    }

    var uncoveredRoutes: [Int] {
        taking.indices.filter { taking[$0] == nil }
    }
}
