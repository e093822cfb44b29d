// The statechart the test-path search walks. The description's tree is built
// as the engine's own `Statechart` (the state at position p of the states has
// code p + 1), and what a request does from a configuration (the moves chosen
// and kept, exits, history, entries, completions, then the eventless and done
// steps until the chart settles) is planned and taken by the engine, as a
// machine's step is: the rules of a step live in the engine alone. What stays
// here is what only the description knows: which route a request takes on a
// node, and whether the description can tell that for certain.

/// The description's routes and listed mapping moves, over the engine's
/// statechart of its tree: what a request does from a configuration, as far
/// as the description decides it.
struct TestPathChart<S: StateType, E: EventType> {
    typealias Step = TestPath<S, E>.Step
    /// A node of the search: the engine's configuration and the history
    /// recorded in it, as a value.
    typealias Configuration = Statechart.Snapshot

    /// What a request does from a configuration.
    enum Outcome {
        /// No route or mapping takes it: the machine refuses it.
        case refused
        /// The description cannot tell.
        case uncertain
        /// The machine settles in this configuration, having taken these routes.
        case moves(to: Configuration, routes: [Int])
    }

    /// The route a request takes on a node, as far as the description tells.
    enum Choice {
        case none
        case uncertain
        case route(Int)
    }

    /// The routes from one source, by trigger, each in registration order:
    /// looked up by code, so that a walk up the tree hashes an event at most
    /// once per state that has routes.
    struct LevelRoutes {
        var byEvent: [E: [Int]] = [:]
        var anyEvent: [Int] = []
        var state: [Int] = []
        var eventless: [Int] = []
        var done: [Int] = []
    }

    /// Where a listed mapping move is looked up: the event it was asked with
    /// (`nil` for a state request) and the state it was asked from.
    struct MoveKey: Hashable {
        var event: E?
        var source: S
    }

    let description: MachineDescription<S, E>
    /// The description's states, then the states only listed mapping moves
    /// name (atomic and top-level, since nothing declares them): the state at
    /// position p has code p + 1 in ``engine``.
    let nodes: [MachineDescription<S, E>.State]
    let position: [S: Int]
    /// The engine's statechart of the tree, which every step is planned and
    /// taken on; the search puts a node's configuration back in it first.
    let engine: Statechart
    /// The states that keep history: what a ``Configuration`` records.
    let historyStates: [SymbolCode]
    /// The states nested machines are nested under, by code.
    let isHost: [Bool]
    /// Routes by the code of their source (0 for `.any`) and trigger. A route
    /// from a state the description does not list (one named through a
    /// nested machine) is left out: no configuration the search visits has it active.
    let routesFrom: [LevelRoutes]
    /// By route: whether it has a condition, and its listed sources.
    let isConditional: [Bool]
    let listedSources: [[S]?]
    /// Whether some route is eventless: a settling step looks for none otherwise.
    let hasEventlessRoutes: Bool
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
        isConditional = description.routes.map(\.isConditional)
        listedSources = description.routes.map(\.listedSources)
        var events = description.events
        var known = Set(events)
        var nodes = description.states
        var position: [S: Int] = [:]
        position.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            position[node.state] = index
        }
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
            var level = 0
            if let source = route.source {
                guard let sourcePosition = position[source] else { continue }
                level = sourcePosition + 1
            }
            switch route.trigger {
            case .event(let event): routesFrom[level].byEvent[event, default: []].append(index)
            case .anyEvent: routesFrom[level].anyEvent.append(index)
            case .state: routesFrom[level].state.append(index)
            case .eventless: routesFrom[level].eventless.append(index)
            case .done: routesFrom[level].done.append(index)
            }
        }
        self.routesFrom = routesFrom
        hasEventlessRoutes = routesFrom.contains { !$0.eventless.isEmpty }
        engine = Self.makeEngine(nodes, position)
        historyStates = engine.tree.statesKeepingHistory()
        var isHost = [Bool](repeating: false, count: nodes.count + 1)
        for case let host? in description.nestedMachines.map(\.host) {
            if let hosted = position[host] {
                isHost[hosted + 1] = true
            }
        }
        self.isHost = isHost
    }

    /// The engine's statechart of the tree of `nodes`, as the machine
    /// declared it: children and regions, initial children, history and its
    /// defaults, final states.
    static func makeEngine(_ nodes: [MachineDescription<S, E>.State], _ position: [S: Int]) -> Statechart {
        let engine = Statechart()
        func code(_ state: S?) -> SymbolCode? {
            state.flatMap { position[$0] }.map { SymbolCode($0 + 1) }
        }
        let names = { (code: SymbolCode) in code == .wildcard ? "the machine" : "\(nodes[Int(code) - 1].state)" }
        engine.tree.grow(toHold: SymbolCode(nodes.count))
        var hasChildren = [Bool](repeating: false, count: nodes.count)
        for (index, node) in nodes.enumerated() where node.kind != .atomic {
            // A child named only through a nested machine is not a state here.
            let children = node.children.compactMap(code)
            guard !children.isEmpty else { continue }
            hasChildren[index] = true
            // The engine enters the first child of a compound state with none declared.
            let initial = code(node.initial).flatMap { children.contains($0) ? $0 : nil }
            engine.tree.add(
                children, to: SymbolCode(index + 1), kind: node.kind == .parallel ? .parallel : .compound,
                initial: initial, names: names)
        }
        for (index, node) in nodes.enumerated() {
            if let history = node.history, hasChildren[index] {
                engine.tree.setHistory(
                    history, of: SymbolCode(index + 1), default: code(node.historyDefault), names: names)
            }
            if node.isFinal {
                engine.tree.setFinal(SymbolCode(index + 1), names: names)
            }
        }
        engine.tree.layOutIfNeeded()
        return engine
    }

    // MARK: Names

    /// The state of `code`, which is not the root's.
    func state(_ code: SymbolCode) -> S {
        nodes[Int(code) - 1].state
    }

    /// The state of `code`; `nil` for the root (`.any`).
    func name(_ code: SymbolCode) -> S? {
        code == .wildcard ? nil : state(code)
    }

    func code(_ state: S) -> SymbolCode? {
        position[state].map { SymbolCode($0 + 1) }
    }

    /// The position in ``nodes`` of the state of `code`.
    func position(of code: SymbolCode) -> Int {
        Int(code) - 1
    }

    func parent(of code: SymbolCode) -> SymbolCode {
        engine.tree.parent(of: code)
    }

    // MARK: Configurations

    /// Whether the machine has finished there: it refuses every later request.
    func isFinished(_ configuration: Configuration) -> Bool {
        engine.isFinished(configuration)
    }

    /// Puts `configuration` in the engine's chart, to step from or read.
    func restore(_ configuration: Configuration) {
        engine.restore(configuration, recordedBy: historyStates)
    }

    /// The machine's ``Machine/state`` in `configuration`: the deepest state
    /// that holds all its atomic states.
    func state(of configuration: Configuration) -> S {
        restore(configuration)
        return state(engine.innermostState(of: engine.configuration))
    }

    /// The machine's ``Machine/state`` and its active states (each before
    /// its descendants) in `configuration`: what a path lists after each
    /// step, read with the configuration put back once.
    func reading(_ configuration: Configuration) -> (state: S, activeStates: [S]) {
        restore(configuration)
        let innermost = engine.innermostState(of: engine.configuration)
        return (state(innermost), engine.activeNodes(within: .wildcard).map(state))
    }

    // MARK: Starting

    /// Where a fresh machine is: entering the initial state, its ancestors
    /// and default descendants, with nothing recorded; `nil` when that
    /// enters a nested machine's host, or when an eventless route could be
    /// taken from there (a fresh machine tries those only after its first
    /// step, which the search does not model). What the initial
    /// configuration completes is never offered to done routes: only
    /// `start()` does that, and test paths replay on a machine not started.
    func start(_ plan: inout StepPlan) -> Configuration? {
        guard let initial = code(description.initialState) else { return nil }
        engine.prepare(initial: initial, plan: &plan)
        guard !entersHost(plan) else { return nil }
        let configuration = engine.snapshot(recordedBy: historyStates)
        guard !isFinished(configuration) else { return configuration }
        plan.reset()
        var isUncertain = false
        chooseEventlessMoves(into: &plan, isUncertain: &isUncertain)
        guard plan.moves.isEmpty, !isUncertain else { return nil }
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
        var seen: Set<SymbolCode> = []
        for atomic in configuration.atomics {
            var level = atomic
            while true {
                if seen.insert(level).inserted {
                    let routes = routesFrom[Int(level)]
                    if !routes.anyEvent.isEmpty {
                        everyEvent = true
                    }
                    eventSet.formUnion(routes.byEvent.keys)
                    for route in routes.state {
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
                guard level != .wildcard else { break }
                level = parent(of: level)
            }
        }
        // Mappings are modelled only where one atomic state is all there is.
        if configuration.atomics.count == 1 {
            let state = state(configuration.atomics[0])
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

    /// What `step` does from `configuration`, as far as the description
    /// tells: the engine plans and takes the step, and the eventless and
    /// done steps after it, on ``engine``, asking this chart which route
    /// each node takes.
    ///
    /// - Complexity: O(*k* × *d* + *h*) for *k* active atomic states in a tree
    ///   of depth *d* and *h* states that keep history, per step of the
    ///   macrostep, plus the routes looked at; nothing in the size of the
    ///   whole tree.
    func outcome(of step: Step, from configuration: Configuration, _ plan: inout StepPlan) -> Outcome {
        restore(configuration)
        plan.reset()
        var isUncertain = false
        let isSingle = engine.configuration.atomics.length == 1
        // The active atomic state the engine's walk started from: what a
        // route written `[.a, .b] => …` is asked about. A walk starts at one
        // and goes up through compound and parallel states only, so the
        // atomic node it is called with first is that state.
        var walkStart = SymbolCode.wildcard
        switch step {
        case .event(let event):
            engine.chooseMoves(inside: nil, into: &plan) { node, plan in
                if engine.tree.kind(of: node) == .atomic {
                    walkStart = node
                }
                return move(for: eventChoice(event, on: node, from: walkStart, isSingle: isSingle), &plan, &isUncertain)
            }
        case .state(let target):
            guard let targetCode = code(target) else { return .uncertain }
            // Every walk is asked, as for an event: the moves, which all lead
            // to the target, conflict, and the engine keeps one.
            engine.chooseMoves(inside: nil, into: &plan) { node, _ in
                guard !isUncertain else { return nil }
                if engine.tree.kind(of: node) == .atomic {
                    walkStart = node
                }
                switch stateChoice(target, on: node, from: walkStart, isSingle: isSingle) {
                case .none: return nil
                case .uncertain:
                    isUncertain = true
                    return nil
                case .route(let route):
                    let described = description.routes[route]
                    // A state request enters its target through its history, and nothing else.
                    guard described.alsoEntering.isEmpty, !described.ignoresHistory else {
                        isUncertain = true
                        return nil
                    }
                    var move = StepPlan.Move(source: node, target: targetCode, isLocal: described.isLocal)
                    move.taken = Self.taken(route)
                    return move
                }
            }
        }
        guard !isUncertain else { return .uncertain }
        if plan.moves.isEmpty {
            switch mappedTarget(of: step, at: configuration.atomics) {
            case .none: return .refused
            case .uncertain: return .uncertain
            case .route(let target):
                engine.choose(
                    StepPlan.Move(source: .wildcard, target: SymbolCode(target + 1), isLocal: false), into: &plan)
            }
        }
        let routes = routesTaken(in: plan)
        engine.complete(&plan)
        guard !entersHost(plan) else { return .uncertain }
        engine.recordHistory(of: &plan)
        engine.apply(&plan)
        guard let settling = settle(&plan) else { return .uncertain }
        return .moves(to: engine.snapshot(recordedBy: historyStates), routes: routes + settling)
    }

    // MARK: Choosing routes

    /// The registration a move along the route at `route` is taken as: what
    /// the engine tells two walks that reach one route apart by.
    static func taken(_ route: Int) -> TakenRoute {
        TakenRoute(id: RegistrationID(rawValue: UInt64(route) + 1))
    }

    /// The routes the moves of `plan` take, in the order of ``MachineDescription/routes``.
    func routesTaken(in plan: borrowing StepPlan) -> [Int] {
        // A move a mapping names takes no route: registration 0.
        plan.moves.elements.compactMap { $0.taken.id.rawValue > 0 ? Int($0.taken.id.rawValue) - 1 : nil }.sorted()
    }

    /// Whether `plan` enters a state a machine is nested under: where the
    /// nested machine goes, the description does not tell.
    func entersHost(_ plan: borrowing StepPlan) -> Bool {
        plan.entries.contains { isHost[Int($0)] }
    }

    /// The move `choice` makes, noting in `isUncertain` when the description
    /// cannot tell what it is.
    func move(for choice: Choice, _ plan: inout StepPlan, _ isUncertain: inout Bool) -> StepPlan.Move? {
        switch choice {
        case .none:
            return nil
        case .uncertain:
            isUncertain = true
            return nil
        case .route(let route):
            guard let move = move(along: route, &plan) else {
                isUncertain = true
                return nil
            }
            return move
        }
    }

    /// The move along an event, eventless or done route, what it does
    /// besides moving to one target listed in `plan`; `nil` when where it
    /// leads depends on more than the description (listed targets).
    func move(along route: Int, _ plan: inout StepPlan) -> StepPlan.Move? {
        let described = description.routes[route]
        guard described.listedTargets == nil else { return nil }
        var source = SymbolCode.wildcard
        if let state = described.source {
            guard let code = code(state) else { return nil }
            source = code
        }
        var target = SymbolCode.wildcard
        var otherTargets: [SymbolCode] = []
        if let state = described.target {
            guard let code = code(state) else { return nil }
            target = code
            for other in described.alsoEntering {
                guard let otherCode = self.code(other) else { return nil }
                otherTargets.append(otherCode)
            }
        }
        var move = StepPlan.Move(source: source, target: target, isLocal: described.isLocal)
        move.taken = Self.taken(route)
        if described.ignoresHistory || !otherTargets.isEmpty {
            var extras = StepPlan.Extras()
            extras.ignoresHistory = described.ignoresHistory
            let start = plan.otherTargets.length
            for code in otherTargets {
                plan.otherTargets.append(code)
            }
            extras.otherTargets = start..<plan.otherTargets.length
            move.extras = Int16(plan.extras.length)
            plan.extras.append(extras)
        }
        return move
    }

    /// The route `event` takes on `node`, on the walk up from the active
    /// atomic state `atomic`: the event's own routes (``LevelRoutes/byEvent``)
    /// before those of any event, each in the order added, as every machine
    /// chooses on one state.
    func eventChoice(_ event: E, on node: SymbolCode, from atomic: SymbolCode, isSingle: Bool) -> Choice {
        // Read in place: a copy of the node's routes costs a retain of each list.
        let level = Int(node)
        if !routesFrom[level].byEvent.isEmpty, let exact = routesFrom[level].byEvent[event] {
            let choice = first(at: atomic, exact, isSingle: isSingle)
            if case .none = choice {} else { return choice }
        }
        return first(at: atomic, routesFrom[level].anyEvent, isSingle: isSingle)
    }

    /// The route a request for `target` takes on `node`, on the walk up
    /// from `atomic`, in the order ``MachineDescription/Route/standing(forStateRequest:)``
    /// gives: an event's route too, without its action.
    func stateChoice(_ target: S, on node: SymbolCode, from atomic: SymbolCode, isSingle: Bool) -> Choice {
        let routes = routesFrom[Int(node)]
        let ranked = (routes.state + routes.byEvent.values.joined() + routes.anyEvent).compactMap { route in
            description.routes[route].standing(forStateRequest: target).map { (standing: $0, route: route) }
        }
        return first(at: atomic, ranked.sorted { $0 < $1 }.map(\.route), isSingle: isSingle)
    }

    /// The first of `routes` that may be taken from `atomic`, `.uncertain`
    /// if it has a condition or the description cannot tell whether it applies.
    func first(at atomic: SymbolCode, _ routes: [Int], isSingle: Bool) -> Choice {
        guard let route = applicable(routes, at: atomic, isSingle: isSingle).first else { return .none }
        if route == -1 || isConditional[route] {
            return .uncertain
        }
        return .route(route)
    }

    /// The routes of `routes` that may be taken on the walk up from
    /// `atomic`, in registration order; a route written `[.a, .b] => …`
    /// only where `atomic` is the machine's state and one of them. `-1`
    /// stands for one whose membership the description cannot tell (an
    /// ancestor is listed, the state is not; or several atomic states are
    /// active, and the machine asks its `state`).
    func applicable(_ routes: [Int], at atomic: SymbolCode, isSingle: Bool) -> [Int] {
        guard routes.contains(where: { listedSources[$0] != nil }) else { return routes }
        let state = name(atomic)
        return routes.compactMap { route in
            guard let listed = listedSources[route] else { return route }
            guard isSingle, let state else { return -1 }
            if listed.contains(state) {
                return route
            }
            var ancestor = parent(of: atomic)
            while ancestor != .wildcard {
                if listed.contains(self.state(ancestor)) {
                    return -1
                }
                ancestor = parent(of: ancestor)
            }
            return nil
        }
    }

    /// The target route mappings name for `step` where `atomics` are active,
    /// asked in registration order, after the routes: `.route` carries the
    /// target's position.
    func mappedTarget(of step: Step, at atomics: [SymbolCode]) -> Choice {
        guard !description.routeMappings.isEmpty else { return .none }
        // What a mapping is asked with inside a statechart is not modelled.
        guard atomics.count == 1, parent(of: atomics[0]) == .wildcard else { return .uncertain }
        let state = state(atomics[0])
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

    // MARK: Settling

    /// Fills `plan` with the moves of the eventless routes enabled in the
    /// engine's configuration, by the engine's walks; sets `isUncertain`
    /// when the description cannot tell one.
    func chooseEventlessMoves(into plan: inout StepPlan, isUncertain: inout Bool) {
        guard hasEventlessRoutes else { return }
        let isSingle = engine.configuration.atomics.length == 1
        var walkStart = SymbolCode.wildcard
        engine.chooseMoves(inside: nil, into: &plan) { node, plan in
            if engine.tree.kind(of: node) == .atomic {
                walkStart = node
            }
            let choice = first(at: walkStart, routesFrom[Int(node)].eventless, isSingle: isSingle)
            return move(for: choice, &plan, &isUncertain)
        }
    }

    /// Takes, on the engine, the eventless and done steps that follow a
    /// step, as a machine does until it settles (SCXML's macrostep).
    ///
    /// - Returns: The routes taken, in order; `nil` when a condition, a
    ///   nested machine, or a cycle makes where it settles uncertain.
    func settle(_ plan: inout StepPlan) -> [Int]? {
        var taken: [Int] = []
        var seen: Set<Configuration> = []
        var isUncertain = false
        let end = engine.takeMacrostep(
            into: &plan,
            chooseEventless: { plan in
                plan.reset()
                chooseEventlessMoves(into: &plan, isUncertain: &isUncertain)
            },
            firstDoneMove: { completed, plan in
                // Whether a route from `.any` hears it is the engine's business.
                guard routesFrom[0].done.isEmpty else {
                    isUncertain = true
                    return nil
                }
                let isSingle = engine.configuration.atomics.length == 1
                let choice = first(at: completed, routesFrom[Int(completed)].done, isSingle: isSingle)
                return move(for: choice, &plan, &isUncertain)
            },
            take: { plan in
                guard !isUncertain, !entersHost(plan) else { return false }
                taken += routesTaken(in: plan)
                // As conservative as the machine's bound, counted in routes.
                guard taken.count <= internalStepLimitValue else { return false }
                engine.recordHistory(of: &plan)
                engine.apply(&plan)
                // Back where it was: the routes never settle (or settle only by a count).
                return seen.insert(engine.snapshot(recordedBy: historyStates)).inserted
            })
        switch end {
        case .settled, .finished:
            guard !isUncertain else { return nil }
        case .stopped, .cutAtLimit:
            return nil
        }
        return taken
    }
}
