/// The breadth-first search behind test paths, run once when it is made.
///
/// A node is a configuration the machine can be in, with the history
/// recorded in it (``TestPathChart/Configuration``, the engine's snapshot of
/// one): the machine's whole state as far as its routes are concerned. Nodes
/// are numbered in the order they are found, which is the order they are
/// visited.
struct TestPathSearch<S: StateType, E: EventType> {
    typealias Chart = TestPathChart<S, E>
    typealias Step = TestPath<S, E>.Step

    /// One step from a node: how the search reached a node, or took a route.
    struct Edge {
        var from: Int
        var step: Step
        var to: Int
        var routes: [Int]
    }

    let chart: Chart
    let maxLength: Int
    let maxConfigurations: Int

    /// The nodes found, in the order found.
    private(set) var configurations: [Chart.Configuration] = []
    private var node: [Chart.Configuration: Int] = [:]
    /// By node: the step it was first reached by (`nil` for the start), and its distance from the start.
    private(set) var reachedBy: [Edge?] = []
    private(set) var distance: [Int] = []
    /// The steps the search followed from each node, in the order tried.
    private(set) var leaving: [[Edge]] = []
    /// For each state, by position, the first node reached in which it is active.
    private(set) var nearest: [Int?]
    /// For each route, the first step found that takes it.
    private(set) var taking: [Edge?]
    /// Whether a configuration was left out because `maxConfigurations` were found.
    private(set) var isTruncated = false

    init(_ description: MachineDescription<S, E>, maxLength: Int, maxConfigurations: Int) {
        precondition(maxLength >= 0, "test paths were asked for with a negative maxLength")
        precondition(maxConfigurations > 0, "test paths were asked for with maxConfigurations below 1")
        chart = TestPathChart(description)
        self.maxLength = maxLength
        self.maxConfigurations = maxConfigurations
        nearest = Array(repeating: nil, count: chart.nodes.count)
        taking = Array(repeating: nil, count: description.routes.count)
        search()
    }

    // MARK: Search

    private mutating func search() {
        // The engine's plan of each step, kept so that its lists are made once.
        var plan = StepPlan()
        guard let start = chart.start(&plan) else { return }
        admit(start, reachedBy: nil, distance: 0)
        var next = 0
        while next < configurations.count {
            let from = next
            next += 1
            markActive(from)
            let length = distance[from] + 1
            // A top-level final state finishes the machine: it refuses every later request.
            guard length <= maxLength, !chart.isFinished(configurations[from]) else { continue }
            for step in chart.steps(from: configurations[from]) {
                guard
                    case .moves(let target, let routes) = chart.outcome(of: step, from: configurations[from], &plan)
                else { continue }
                var edge = Edge(from: from, step: step, to: node[target] ?? configurations.count, routes: routes)
                if edge.to == configurations.count {
                    guard configurations.count < maxConfigurations else {
                        isTruncated = true
                        continue
                    }
                    admit(target, reachedBy: edge, distance: length)
                }
                edge.to = node[target]!
                leaving[from].append(edge)
                for route in routes where taking[route] == nil {
                    taking[route] = edge
                }
            }
        }
    }

    private mutating func admit(_ configuration: Chart.Configuration, reachedBy edge: Edge?, distance: Int) {
        node[configuration] = configurations.count
        configurations.append(configuration)
        reachedBy.append(edge)
        self.distance.append(distance)
        leaving.append([])
    }

    /// Records `node` as the nearest for its active states not reached yet.
    private mutating func markActive(_ node: Int) {
        for atomic in configurations[node].atomics {
            var current = atomic
            // An ancestor marked has its own ancestors marked.
            while current != .wildcard, nearest[chart.position(of: current)] == nil {
                nearest[chart.position(of: current)] = node
                current = chart.parent(of: current)
            }
        }
    }

    // MARK: Paths

    /// What a path lists at a node: the machine's ``Machine/state`` and its
    /// active states.
    typealias Reading = (state: S, activeStates: [S])

    /// The readings of the nodes, each worked out the first time a path
    /// passes through it: the paths to every state of a ring of *n* pass
    /// through *n*²/2 nodes in all, and each reading puts a configuration
    /// back in the engine. Paths then share each node's list of active
    /// states rather than hold a copy each.
    struct Readings {
        var byNode: [Reading?]

        init(nodes: Int) {
            byNode = Array(repeating: nil, count: nodes)
        }
    }

    /// An empty set of readings, for one call's paths.
    func makeReadings() -> Readings {
        Readings(nodes: configurations.count)
    }

    /// The path the search found to `node`, for `target`: the steps it was
    /// first reached by, found by walking back from it.
    func path(to node: Int, target: S, readings: inout Readings) -> TestPath<S, E> {
        var edges: [Edge] = []
        var current = node
        while let edge = reachedBy[current] {
            edges.append(edge)
            current = edge.from
        }
        return makePath(edges.reversed(), target: target, readings: &readings)
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

    /// The machine's ``Machine/state`` at `node`.
    func state(at node: Int) -> S {
        chart.state(of: configurations[node])
    }

    func makePath(_ edges: [Edge], target: S, readings: inout Readings) -> TestPath<S, E> {
        let start = reading(of: 0, in: &readings)
        // One loop without key paths: unspecialized, as this generic code runs
        // in the library, each key path cost a look-up of generic metadata
        // per step, most of what a path of a ring cost.
        var steps: [Step] = []
        var states: [S] = []
        var configurations: [[S]] = []
        var routes: [Int] = []
        steps.reserveCapacity(edges.count)
        states.reserveCapacity(edges.count)
        configurations.reserveCapacity(edges.count)
        for edge in edges {
            let after = reading(of: edge.to, in: &readings)
            steps.append(edge.step)
            states.append(after.state)
            configurations.append(after.activeStates)
            routes.append(contentsOf: edge.routes)
        }
        return TestPath(
            target: target, start: start.state, startConfiguration: start.activeStates, steps: steps, states: states,
            configurations: configurations, routes: routes)
    }

    func reading(of node: Int, in readings: inout Readings) -> Reading {
        if let known = readings.byNode[node] {
            return known
        }
        let reading = chart.reading(configurations[node])
        readings.byNode[node] = reading
        return reading
    }

    var unreachedStates: [S] {
        chart.nodes.indices.filter { nearest[$0] == nil }.map { chart.nodes[$0].state }
    }

    var uncoveredRoutes: [Int] {
        taking.indices.filter { taking[$0] == nil }
    }

    func paths(_ paths: [TestPath<S, E>]) -> TestPaths<S, E> {
        TestPaths(
            paths: paths, unreachedStates: unreachedStates, uncoveredRoutes: uncoveredRoutes,
            isTruncated: isTruncated)
    }
}
