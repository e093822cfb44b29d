// Validation: read from the description alone. `ValidationIndex` numbers
// every state and event the description names, once; the checks then run on
// those numbers (`ValidationGraph`), and this file only turns their answers
// back into diagnostics. It costs O(n) in the states, routes, moves and
// handlers (times the depth of the state tree, for the walks up it).

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
        let graph = index.graph
        return unreachableStates(graph) + inescapableStates(index) + shadowedRoutes(graph) + unusedHandlers(graph)
            + eventlessCycles(graph) + routesFromFinalStates(index) + neverDoneRoutes(graph)
    }

    /// The states no route reaches (see ``ValidationGraph/unreachablePositions()``).
    func unreachableStates(_ graph: ValidationGraph) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for position in graph.unreachablePositions() {
            found.append(.unreachableState(states[position].state))
        }
        return found
    }

    /// The states no route leaves (see ``ValidationGraph/inescapablePositions()``).
    func inescapableStates(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for position in index.graph.inescapablePositions() {
            found.append(.inescapableState(index.state(at: position)))
        }
        return found
    }

    /// The routes an earlier route always wins over (see ``ValidationGraph/shadowedRoutes()``).
    func shadowedRoutes(_ graph: ValidationGraph) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (route, earlier) in graph.shadowedRoutes() {
            found.append(.shadowedRoute(route, by: earlier, source: routes[route].source))
        }
        return found
    }

    /// The handlers no route allows (see ``ValidationGraph/unusedHandlers()``).
    func unusedHandlers(_ graph: ValidationGraph) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for position in graph.unusedHandlers() {
            found.append(.unusedHandler(position, handlers[position].kind))
        }
        return found
    }

    /// The done routes of states that are never done (see ``ValidationGraph/neverDoneRoutes()``).
    func neverDoneRoutes(_ graph: ValidationGraph) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for route in graph.neverDoneRoutes() {
            // A done route names its source.
            found.append(.doneRouteNeverTaken(route, state: routes[route].source!))
        }
        return found
    }

    /// The cycles of certain eventless routes (see ``ValidationGraph/eventlessCycles()``).
    func eventlessCycles(_ graph: ValidationGraph) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for cycle in graph.eventlessCycles() {
            // Every route of a cycle has a source: it was its source's first eventless route.
            found.append(.eventlessCycle(routes: cycle, states: cycle.map { routes[$0].source! }))
        }
        return found
    }
}

/// A description's states and events numbered, and its structure on those
/// numbers: each state and event is hashed once here, the first time the
/// description names it, and never again.
struct ValidationIndex<S: StateType, E: EventType> {
    let description: MachineDescription<S, E>
    /// Each state's position in the description's ``MachineDescription/states``.
    let position: [S: Int]
    /// The structure on positions, with the states the description does not
    /// list after its own.
    let graph: ValidationGraph
    /// The states the description does not list, by position after its own.
    let unlistedStates: [S]

    /// Each position's parent's position; `-1` for a top-level state, and
    /// for each position after the description's states.
    var parent: [Int] { graph.parent }

    init(_ description: MachineDescription<S, E>) {
        var builder = Builder(description)
        self.description = description
        position = builder.described
        graph = builder.graph()
        unlistedStates = builder.unlistedStates
    }

    /// The state at `position`, listed by the description or not.
    func state(at position: Int) -> S {
        position < graph.describedCount
            ? description.states[position].state : unlistedStates[position - graph.describedCount]
    }

    /// The proper ancestors of `state`, innermost first.
    func ancestors(of state: S) -> [S] {
        var found: [S] = []
        var current = position[state].map { graph.parent[$0] } ?? -1
        while current >= 0 {
            found.append(description.states[current].state)
            current = graph.parent[current]
        }
        return found
    }
}

extension ValidationIndex {
    /// Reads a description once, numbering each state and event the first
    /// time it meets it, and gathers the structure on those numbers.
    private struct Builder {
        let description: MachineDescription<S, E>
        /// The described states' positions.
        let described: [S: Int]
        /// The positions of the states the description does not list, after its own.
        var unlisted: [S: Int] = [:]
        /// Those states, by position after the described ones.
        var unlistedStates: [S] = []
        var stateCount: Int
        var eventCodes: [E: Int] = [:]

        // The parts of the graph, as ``ValidationGraph`` documents them.
        var parent: [Int] = []
        var initialChild: [Int] = []
        var historyDefault: [Int] = []
        var regions: [(position: Int, element: Int)] = []
        var isParallel: [Bool] = []
        var hasHistory: [Bool] = []
        var mayBeInescapable: [Bool] = []
        /// By described position: whether the state is final, and whether it hosts a nested machine.
        var isFinal: [Bool] = []
        var hostsMachine: [Bool] = []
        /// The positions a listed mapping move leads to.
        var moveTargets: [Int] = []
        /// The positions of the states of nested machines that this machine names.
        var namedInNestedMachines: [Int] = []
        var routes: [ValidationGraph.Route] = []
        var edges: [ValidationGraph.Edge] = []
        var edgeStates: [Int] = []
        var hasUnlistedMapping = false
        /// The codes of the events some route or listed move is taken on.
        var takenEvents: [Int] = []
        var takesAnyEvent = false
        var handlers: [ValidationGraph.Handler] = []

        init(_ description: MachineDescription<S, E>) {
            self.description = description
            var described: [S: Int] = [:]
            described.reserveCapacity(description.states.count)
            for position in description.states.indices {
                described[description.states[position].state] = position
            }
            self.described = described
            stateCount = description.states.count
        }

        /// The position of `state`, given it now if the description does not list it.
        mutating func position(of state: S) -> Int {
            if let position = described[state] ?? unlisted[state] {
                return position
            }
            unlisted[state] = stateCount
            unlistedStates.append(state)
            stateCount += 1
            return stateCount - 1
        }

        /// The position of `state`; `-1` for `nil` (`.any`, or no state).
        mutating func position(of state: S?) -> Int {
            guard let state else { return -1 }
            return position(of: state)
        }

        /// The code of `event`, given it now if it has none.
        mutating func code(of event: E) -> Int {
            if let code = eventCodes[event] {
                return code
            }
            eventCodes[event] = eventCodes.count
            return eventCodes.count - 1
        }

        mutating func graph() -> ValidationGraph {
            let initialPosition = position(of: description.initialState)
            readTree()
            readRoutes()
            readMappings()
            readHandlers()
            // Every state and event has its number now: size the arrays by them.
            let unlistedCount = stateCount - parent.count
            parent.append(contentsOf: repeatElement(-1, count: unlistedCount))
            var isEventTaken = [Bool](repeating: false, count: eventCodes.count)
            for code in takenEvents {
                isEventTaken[code] = true
            }
            var bySource: [(position: Int, element: Int)] = []
            bySource.reserveCapacity(edges.count)
            var fromAnyState: [Int] = []
            for (index, edge) in edges.enumerated() {
                guard let sources = edge.sources else {
                    fromAnyState.append(index)
                    continue
                }
                for source in sources {
                    bySource.append((edgeStates[source], index))
                }
            }
            var isMoveTarget = [Bool](repeating: false, count: stateCount)
            for target in moveTargets {
                isMoveTarget[target] = true
            }
            // A nested machine's states are left by its own routes.
            for position in namedInNestedMachines {
                isMoveTarget[position] = false
            }
            let depth = Self.depths(parent)
            let regionLists = PositionLists(count: stateCount, pairs: regions)
            return ValidationGraph(
                describedCount: description.states.count, parent: parent, depth: depth,
                initialChild: initialChild, historyDefault: historyDefault,
                regions: regionLists, isParallel: isParallel,
                hasHistory: hasHistory, canBeDone: canBeDone(depth: depth, regions: regionLists),
                isMoveTarget: isMoveTarget,
                mayBeInescapable: mayBeInescapable, initialPosition: initialPosition,
                routes: routes, edges: edges, edgeStates: edgeStates,
                edgesBySource: PositionLists(count: stateCount, pairs: bySource), edgesFromAnyState: fromAnyState,
                hasUnlistedMapping: hasUnlistedMapping, isEventTaken: isEventTaken, takesAnyEvent: takesAnyEvent,
                handlers: handlers)
        }

        /// Whether each state can be done (see ``ValidationGraph/canBeDone``),
        /// worked out deepest first, so that a parallel state's regions are
        /// known before it.
        private func canBeDone(depth: [Int], regions: PositionLists) -> [Bool] {
            let described = description.states.count
            var canBeDone = hostsMachine + repeatElement(false, count: parent.count - described)
            // A nested machine's state named here: its own tree says whether
            // it can be done, and validation does not read it.
            for position in namedInNestedMachines {
                canBeDone[position] = true
            }
            for position in 0..<described where isFinal[position] && parent[position] >= 0 {
                // A compound state with a final child; a parallel state has regions, not final children.
                if !isParallel[parent[position]] {
                    canBeDone[parent[position]] = true
                }
            }
            let deepestFirst = (0..<described).filter { isParallel[$0] }.sorted { depth[$0] > depth[$1] }
            for position in deepestFirst {
                // The engine (as SCXML) asks a parallel state when a final
                // state is entered in one of its regions' children: it needs
                // one region that is not parallel itself.
                let regions = regions[position]
                canBeDone[position] =
                    canBeDone[position]
                    || (regions.allSatisfy { canBeDone[$0] } && regions.contains { $0 >= described || !isParallel[$0] })
            }
            return canBeDone
        }

        /// Each position's depth, given each one's parent.
        private static func depths(_ parent: [Int]) -> [Int] {
            var depth = [Int](repeating: -1, count: parent.count)
            // The states walked up from a start, whose depths follow from the first known one.
            var path: [Int] = []
            for start in parent.indices where depth[start] < 0 {
                path.removeAll(keepingCapacity: true)
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
            return depth
        }

        /// The described states: their tree, and what entering each enters with it.
        private mutating func readTree() {
            // By index, here and below: in unspecialised code, `enumerated()`
            // costs more than copying each element once, which is most of the work.
            let states = description.states
            parent.reserveCapacity(states.count)
            initialChild.reserveCapacity(states.count)
            historyDefault.reserveCapacity(states.count)
            isParallel.reserveCapacity(states.count)
            hasHistory.reserveCapacity(states.count)
            mayBeInescapable.reserveCapacity(states.count)
            for index in states.indices {
                let state = states[index]
                let kind = state.kind
                // A parent the description does not list does not count (there is none to walk up to).
                if let parentState = state.parent, let position = described[parentState] {
                    parent.append(position)
                } else {
                    parent.append(-1)
                }
                initialChild.append(kind == .compound ? position(of: state.initial) : -1)
                historyDefault.append(position(of: state.historyDefault))
                if kind == .parallel {
                    for region in state.children {
                        regions.append((index, position(of: region)))
                    }
                }
                isParallel.append(kind == .parallel)
                hasHistory.append(state.history != nil)
                mayBeInescapable.append(kind == .atomic && !state.isFinal)
                isFinal.append(state.isFinal)
                hostsMachine.append(false)
            }
            // A state hosting a nested machine is left by that machine's
            // routes, and done by its final states.
            for nested in description.nestedMachines {
                if let host = nested.host, let position = described[host] {
                    mayBeInescapable[position] = false
                    hostsMachine[position] = true
                }
                for state in nested.statesNamedHere {
                    namedInNestedMachines.append(position(of: state))
                }
            }
        }

        private mutating func readRoutes() {
            let routes = description.routes
            self.routes.reserveCapacity(routes.count)
            edges.reserveCapacity(routes.count)
            // Most routes have one source and one target.
            edgeStates.reserveCapacity(2 * routes.count)
            for route in routes {
                let trigger: ValidationGraph.Trigger
                switch route.trigger {
                case .event(let event):
                    let code = code(of: event)
                    trigger = .event(code)
                    takenEvents.append(code)
                case .anyEvent:
                    trigger = .anyEvent
                    takesAnyEvent = true
                case .state: trigger = .state
                case .eventless: trigger = .eventless
                case .done: trigger = .done
                }
                let described = ValidationGraph.Route(
                    trigger: trigger, source: position(of: route.source), target: position(of: route.target),
                    hasListedSources: route.listedSources != nil, hasListedTargets: route.listedTargets != nil,
                    entersOtherRegions: !route.alsoEntering.isEmpty, isConditional: route.isConditional,
                    ignoresHistory: route.ignoresHistory)
                self.routes.append(described)
                appendEdge(of: route, described)
            }
        }

        /// Adds where `route` (`described` on positions) goes from and to.
        private mutating func appendEdge(
            of route: MachineDescription<S, E>.Route, _ described: ValidationGraph.Route
        ) {
            let sourceStart = edgeStates.count
            if described.hasListedSources, let listed = route.listedSources {
                for source in listed {
                    edgeStates.append(position(of: source))
                }
            } else if described.source >= 0 {
                edgeStates.append(described.source)
            }
            let sources = !described.hasListedSources && described.source < 0 ? nil : sourceStart..<edgeStates.count
            let targetStart = edgeStates.count
            let kind: ValidationGraph.Targets
            if described.hasListedTargets, let listed = route.listedTargets {
                for target in listed {
                    edgeStates.append(position(of: target))
                }
                kind = .states
            } else if described.target >= 0 {
                edgeStates.append(described.target)
                kind = .states
            } else {
                // A route to `.any`: an eventless or done one stays; another
                // may be asked for any state.
                kind = described.trigger == .eventless || described.trigger == .done ? .stays : .anywhere
            }
            if kind == .states && described.entersOtherRegions {
                for state in route.alsoEntering {
                    edgeStates.append(position(of: state))
                }
            }
            edges.append(ValidationGraph.Edge(sources: sources, targets: targetStart..<edgeStates.count, kind: kind))
        }

        /// Adds the listed moves of the mappings, as edges.
        private mutating func readMappings() {
            for mapping in description.routeMappings {
                guard let moves = mapping.moves else {
                    hasUnlistedMapping = true
                    takesAnyEvent = takesAnyEvent || mapping.kind == .event
                    continue
                }
                for move in moves {
                    // One source, then one target.
                    let source = edgeStates.count
                    edgeStates.append(position(of: move.source))
                    edgeStates.append(position(of: move.target))
                    moveTargets.append(edgeStates[source + 1])
                    let target = source + 1
                    edges.append(
                        ValidationGraph.Edge(sources: source..<target, targets: target..<target + 1, kind: .states))
                    if let event = move.event {
                        takenEvents.append(code(of: event))
                    }
                }
            }
        }

        private mutating func readHandlers() {
            handlers.reserveCapacity(description.handlers.count)
            for handler in description.handlers {
                switch handler.kind {
                case .event(nil), .error, .entry, .exit, .action:
                    handlers.append(.unchecked)
                case .event(let event?):
                    handlers.append(.event(code(of: event)))
                case .transition(let from, let to), .anyTransition(let from, let to):
                    handlers.append(.transition(from: position(of: from), to: position(of: to)))
                }
            }
        }
    }
}

extension MachineDescription {
    // MARK: Routes out of final states

    /// The routes that leave a final state, named or listed as a source, in
    /// route order (each route once per final source). The engine takes
    /// them as any other route, where SCXML has no such transition.
    func routesFromFinalStates(_ index: ValidationIndex<S, E>) -> [Diagnostic] {
        // Most machines have no final state: then no route is hashed.
        guard states.contains(where: \.isFinal) else { return [] }
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
