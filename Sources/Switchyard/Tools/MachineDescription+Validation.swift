// Validation: read from the description alone, with indexes built once, so
// that it costs O(n) in the states, routes, moves and handlers (times the
// depth of the state tree, for the walks up it).

extension MachineDescription {
    /// Looks for problems in the machine's structure: states that are never
    /// reached or never left, routes that are never taken, handlers that
    /// never run, eventless routes that never settle, and routes out of
    /// final states.
    ///
    /// ```swift
    /// for diagnostic in door.validate() {
    ///     print(diagnostic)  // state locked cannot be left and is not final
    /// }
    /// ```
    ///
    /// The diagnostics come grouped by kind, in the order of
    /// ``Diagnostic``'s cases, and within a kind in the order of ``states``,
    /// ``routes`` and ``handlers``. Only this machine's own states, routes
    /// and handlers are checked; each nested machine is validated on its own
    /// (call `validate()` on it). The article *Describing and Drawing
    /// Machines* says exactly what each diagnostic means.
    ///
    /// - Returns: The problems found; empty for a sound machine.
    /// - Complexity: O(*n* × *d*) in the states, routes, listed moves and
    ///   handlers *n*, for a state tree of depth *d* (O(*n*) for a flat
    ///   machine), plus the listed sources times the listed targets of a
    ///   route written `[.a, .b] => [.c, .d]`.
    public func validate() -> [Diagnostic] {
        let index = ValidationIndex(self)
        return unreachableStates(index) + inescapableStates(index) + shadowedRoutes() + unusedHandlers(index)
            + eventlessCycles(index) + routesFromFinalStates(index)
    }

    // MARK: Reachability

    /// The states no route reaches; none when a route mapping cannot be
    /// listed, or a route a state request can take goes to `.any`.
    func unreachableStates(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        guard !index.hasUnlistedMapping else { return [] }
        var reached: Set<S> = []
        var entered: Set<S> = []
        var queue: [S] = []
        func activate(_ state: S) {
            if reached.insert(state).inserted {
                queue.append(state)
            }
        }
        func enter(_ state: S) {
            guard entered.insert(state).inserted else { return }
            activate(state)
            for ancestor in index.ancestors(of: state) {
                activate(ancestor)
            }
            guard let position = index.position[state] else { return }
            let described = states[position]
            switch described.kind {
            case .atomic: break
            case .compound: if let initial = described.initial { enter(initial) }
            case .parallel: described.children.forEach(enter)
            }
            if let historyDefault = described.historyDefault {
                enter(historyDefault)
            }
        }
        var taken = [Bool](repeating: false, count: index.edges.count)
        func take(_ edges: [Int]) -> Bool {
            for edge in edges where !taken[edge] {
                taken[edge] = true
                switch index.edges[edge].targets {
                case .states(let targets): targets.forEach(enter)
                case .stays: break
                case .anywhere: return false
                }
            }
            return true
        }
        enter(initialState)
        guard take(index.edgesFromAnyState) else { return [] }
        var next = 0
        while next < queue.count {
            let state = queue[next]
            next += 1
            guard take(index.edgesBySource[state] ?? []) else { return [] }
        }
        return states.filter { !reached.contains($0.state) }.map { .unreachableState($0.state) }
    }

    // MARK: Leaving

    /// The atomic states, not final and not hosting a nested machine, that
    /// no route leaves; none when a route mapping cannot be listed.
    func inescapableStates(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        guard !index.hasUnlistedMapping else { return [] }
        // For each source (`nil` for `.any`), the deepest state that holds
        // every target of its routes: a state outside it is left by one of
        // them. `.none` when some route may go anywhere.
        var heldIn: [S?: Int?] = [:]
        for edge in index.edges {
            let holder: Int?
            switch edge.targets {
            case .states(let targets):
                guard let first = targets.first else { continue }
                holder = targets.dropFirst().reduce(index.position[first]) { holder, target in
                    index.commonAncestor(holder, index.position[target])
                }
            case .stays: continue
            case .anywhere: holder = nil
            }
            let sources: [S?] = edge.sources ?? [nil]
            for source in sources {
                let existing = heldIn[source]
                heldIn[source] = .some(existing.map { index.commonAncestor($0, holder) } ?? holder)
            }
        }
        let hosts = Set(nestedMachines.compactMap(\.host))
        return states.indices.compactMap { position in
            let state = states[position]
            guard state.kind == .atomic, !state.isFinal, !hosts.contains(state.state) else { return nil }
            let sources: [S?] = [state.state] + index.ancestors(of: state.state) + [nil]
            let isLeft = sources.contains { source in
                guard let holder = heldIn[source] else { return false }
                return holder != position
            }
            return isLeft ? nil : .inescapableState(state.state)
        }
    }

    // MARK: Shadowed routes

    /// The routes an earlier unconditional route with the same trigger and
    /// source always wins over.
    func shadowedRoutes() -> [Diagnostic] {
        var first: [ShadowKey: Int] = [:]
        var found: [Diagnostic] = []
        for (position, route) in routes.enumerated() {
            // Listed sources and targets are membership conditions.
            guard !route.isConditional, route.listedSources == nil, route.listedTargets == nil else { continue }
            // A state request names its target: only the same target competes.
            let key = ShadowKey(
                trigger: route.trigger, source: route.source, target: route.trigger == .state ? route.target : nil)
            if let earlier = first[key] {
                found.append(.shadowedRoute(position, by: earlier, source: route.source))
            } else {
                first[key] = position
            }
        }
        return found
    }

    // MARK: Handlers

    /// The handlers of events and transitions no route or mapping allows.
    func unusedHandlers(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        guard !handlers.isEmpty else { return [] }
        let pairs = TransitionPairs(index)
        return handlers.enumerated().compactMap { position, handler in
            switch handler.kind {
            case .event(nil), .error, .entry, .exit, .action:
                return nil
            case .event(let event?):
                return index.allowsEvent(event) ? nil : .unusedHandler(position, handler.kind)
            case .transition(let from, let to), .anyTransition(let from, let to):
                return index.hasUnlistedMapping || pairs.allow(from: from, to: to)
                    ? nil : .unusedHandler(position, handler.kind)
            }
        }
    }

    // MARK: Eventless cycles

    /// The cycles of eventless routes without conditions, each taken for
    /// certain after the one before.
    func eventlessCycles(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        // The first eventless route of each source decides, if it has no condition.
        var firstEventless: [S: Int] = [:]
        for (position, route) in routes.enumerated() where route.trigger == .eventless {
            guard let source = route.source, route.listedSources == nil else { continue }
            if firstEventless[source] == nil {
                firstEventless[source] = position
            }
        }
        func isCertain(_ position: Int) -> Bool {
            let route = routes[position]
            return !route.isConditional && route.listedTargets == nil && route.alsoEntering.isEmpty
                && route.target != nil
        }
        /// The route taken for certain right after the route at `position`.
        func successor(of position: Int) -> Int? {
            let route = routes[position]
            guard let target = route.target else { return nil }
            // The states active after it, deepest first: its initial
            // descendants, the target, the target's ancestors. A parallel
            // state or a history makes that uncertain.
            var chain = [target]
            var current = target
            while let described = index.position[current].map({ states[$0] }) {
                if described.kind == .parallel || (described.history != nil && !route.ignoresHistory) {
                    return nil
                }
                guard described.kind == .compound, let initial = described.initial else { break }
                chain.append(initial)
                current = initial
            }
            let ancestors = index.ancestors(of: target)
            guard !ancestors.contains(where: { index.position[$0].map { states[$0].kind == .parallel } ?? false })
            else { return nil }
            for state in chain.reversed() + ancestors {
                if let decider = firstEventless[state] {
                    return isCertain(decider) ? decider : nil
                }
            }
            return nil
        }
        // Each route has at most one successor: walk each path once,
        // colouring routes as visited (1) or finished (2).
        var colour = [UInt8](repeating: 0, count: routes.count)
        var found: [Diagnostic] = []
        for start in firstEventless.values.sorted() where isCertain(start) && colour[start] == 0 {
            var path: [Int] = []
            var current: Int? = start
            while let position = current, colour[position] == 0 {
                colour[position] = 1
                path.append(position)
                current = successor(of: position)
            }
            if let position = current, colour[position] == 1, let entry = path.firstIndex(of: position) {
                var cycle = Array(path[entry...])
                // Named from its earliest route, so the same cycle reads the same.
                let earliest = cycle.indices.min { cycle[$0] < cycle[$1] }!
                cycle = Array(cycle[earliest...] + cycle[..<earliest])
                found.append(.eventlessCycle(routes: cycle, states: cycle.map { routes[$0].source! }))
            }
            for position in path {
                colour[position] = 2
            }
        }
        return found.sorted { $0.firstRoute < $1.firstRoute }
    }
}

extension MachineDescription {
    // MARK: Routes out of final states

    /// The routes that leave a final state, named or listed as a source, in
    /// route order (each route once per final source). The engine takes
    /// them as any other route, where SCXML has no such transition.
    func routesFromFinalStates(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (position, route) in routes.enumerated() {
            let sources = route.listedSources ?? route.source.map { [$0] } ?? []
            for source in sources where index.position[source].map({ states[$0].isFinal }) ?? false {
                found.append(.routeFromFinalState(position, state: source))
            }
        }
        return found
    }
}

extension MachineDescription {
    /// What two routes that compete for the same requests share.
    struct ShadowKey: Hashable {
        var trigger: Route.Trigger
        var source: S?
        var target: S?
    }
}

extension MachineDescription.Diagnostic {
    /// The first route an eventless cycle names, for ordering them.
    fileprivate var firstRoute: Int {
        if case .eventlessCycle(let routes, _) = self {
            return routes[0]
        }
        return 0
    }
}

/// Where routes and listed mapping moves go, indexed by source once.
struct ValidationIndex<S: StateType, E: EventType> {
    /// Where a route leads.
    enum Targets {
        /// These states (and so their ancestors and initial descendants).
        case states([S])
        /// Nowhere: the machine stays where it is.
        case stays
        /// Any state: a route to `.any` that a state request can take.
        case anywhere
    }

    /// A route or a listed mapping move.
    struct Edge {
        /// The states it leaves from; `nil` for any state.
        var sources: [S]?
        var targets: Targets
    }

    let description: MachineDescription<S, E>
    /// Each state's position in the description's ``MachineDescription/states``.
    let position: [S: Int]
    /// Each state's parent's position, by position; `-1` for a top-level one.
    let parent: [Int]
    /// Each state's depth, by position, a top-level state's being 0.
    let depth: [Int]
    /// The routes, then the moves of the mappings that list them.
    let edges: [Edge]
    let edgesBySource: [S: [Int]]
    let edgesFromAnyState: [Int]
    /// Whether some route mapping could not be listed: it might go anywhere.
    let hasUnlistedMapping: Bool
    /// The events some route or listed move is taken on; `anyEvent` when some
    /// route or unlisted event mapping takes any.
    let events: Set<E>
    let anyEvent: Bool

    init(_ description: MachineDescription<S, E>) {
        self.description = description
        var position: [S: Int] = [:]
        for (index, state) in description.states.enumerated() {
            position[state.state] = index
        }
        let parent = description.states.map { state in state.parent.flatMap { position[$0] } ?? -1 }
        var depth = [Int](repeating: -1, count: parent.count)
        for start in parent.indices where depth[start] < 0 {
            var path: [Int] = []
            var current = start
            while current >= 0, depth[current] < 0 {
                path.append(current)
                current = parent[current]
            }
            var known = current >= 0 ? depth[current] : -1
            for node in path.reversed() {
                known += 1
                depth[node] = known
            }
        }
        var edges: [Edge] = []
        var events: Set<E> = []
        var anyEvent = false
        for route in description.routes {
            let targets: Targets
            if let listed = route.listedTargets {
                targets = .states(listed + route.alsoEntering)
            } else if let target = route.target {
                targets = .states([target] + route.alsoEntering)
            } else if route.trigger == .eventless || route.trigger == .done {
                targets = .stays
            } else {
                targets = .anywhere
            }
            edges.append(Edge(sources: route.listedSources ?? route.source.map { [$0] }, targets: targets))
            switch route.trigger {
            case .event(let event): events.insert(event)
            case .anyEvent: anyEvent = true
            case .state, .eventless, .done: break
            }
        }
        var hasUnlistedMapping = false
        for mapping in description.routeMappings {
            guard let moves = mapping.moves else {
                hasUnlistedMapping = true
                anyEvent = anyEvent || mapping.kind == .event
                continue
            }
            for move in moves {
                edges.append(Edge(sources: [move.source], targets: .states([move.target])))
                if let event = move.event {
                    events.insert(event)
                }
            }
        }
        var edgesBySource: [S: [Int]] = [:]
        var edgesFromAnyState: [Int] = []
        for (index, edge) in edges.enumerated() {
            guard let sources = edge.sources else {
                edgesFromAnyState.append(index)
                continue
            }
            for source in sources {
                edgesBySource[source, default: []].append(index)
            }
        }
        self.position = position
        self.parent = parent
        self.depth = depth
        self.edges = edges
        self.edgesBySource = edgesBySource
        self.edgesFromAnyState = edgesFromAnyState
        self.hasUnlistedMapping = hasUnlistedMapping
        self.events = events
        self.anyEvent = anyEvent
    }

    /// The proper ancestors of `state`, innermost first.
    func ancestors(of state: S) -> [S] {
        var found: [S] = []
        var current = position[state].map { parent[$0] } ?? -1
        while current >= 0 {
            found.append(description.states[current].state)
            current = parent[current]
        }
        return found
    }

    /// The deepest state holding both (positions); `nil` for none, or for a
    /// state the description does not list.
    func commonAncestor(_ first: Int?, _ second: Int?) -> Int? {
        guard var first, var second else { return nil }
        while depth[first] > depth[second] { first = parent[first] }
        while depth[second] > depth[first] { second = parent[second] }
        while first != second, first >= 0 {
            first = parent[first]
            second = parent[second]
        }
        return first >= 0 ? first : nil
    }

    /// Whether some route or mapping is taken on `event`.
    func allowsEvent(_ event: E) -> Bool {
        anyEvent || events.contains(event)
    }
}

/// The (before, after) pairs of states that some route or listed move
/// allows, closed over the state tree, so that asking about one handler costs
/// O(*d*²) look-ups.
///
/// A handler for `f => g` hears a step whose state before is `f` or inside
/// it and whose state after is `g` or inside it (`nil`, `.any`, holds every
/// state). A route from `s` is taken while the state is `s` or inside it,
/// and leaves the machine in `t` or inside it. So the handler may run when `s`
/// and `f` lie on one branch (one holds the other), and so do `t` and `g`:
/// four cases, each a look-up in one of four sets.
struct TransitionPairs<S: StateType, E: EventType> {
    struct Pair: Hashable {
        var before: S?
        var after: S?
    }

    let index: ValidationIndex<S, E>
    /// (s, t) of each route.
    var exact: Set<Pair> = []
    /// (a, b) for every a holding s and b holding t.
    var held: Set<Pair> = []
    /// (s, b) for every b holding t.
    var heldAfter: Set<Pair> = []
    /// (a, t) for every a holding s.
    var heldBefore: Set<Pair> = []

    init(_ index: ValidationIndex<S, E>) {
        self.index = index
        for edge in index.edges {
            let targets: [S?]
            switch edge.targets {
            case .states(let states): targets = states
            case .anywhere: targets = [nil]
            // The machine stays in the source.
            case .stays: targets = edge.sources ?? [S?.none]
            }
            let sources: [S?] = edge.sources ?? [nil]
            for source in sources {
                let sourceHolders = holders(of: source)
                for target in targets {
                    let targetHolders = holders(of: target)
                    exact.insert(Pair(before: source, after: target))
                    for after in targetHolders {
                        heldAfter.insert(Pair(before: source, after: after))
                    }
                    for before in sourceHolders {
                        heldBefore.insert(Pair(before: before, after: target))
                        for after in targetHolders {
                            held.insert(Pair(before: before, after: after))
                        }
                    }
                }
            }
        }
    }

    /// `state`, the states holding it, and `nil` (`.any`, which holds all).
    func holders(of state: S?) -> [S?] {
        guard let state else { return [nil] }
        return [state] + index.ancestors(of: state).map(Optional.some) + [nil]
    }

    /// Whether some route or move may take the machine from `from` (or a state
    /// inside it) to `to` (or a state inside it).
    func allow(from: S?, to: S?) -> Bool {
        let fromHolders = holders(of: from)
        let toHolders = holders(of: to)
        if held.contains(Pair(before: from, after: to)) {
            return true
        }
        for before in fromHolders {
            if heldAfter.contains(Pair(before: before, after: to)) {
                return true
            }
            for after in toHolders where exact.contains(Pair(before: before, after: after)) {
                return true
            }
        }
        return toHolders.contains { heldBefore.contains(Pair(before: from, after: $0)) }
    }
}
