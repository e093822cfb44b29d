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

    /// The tree the paths of one call share: the search's first steps, to
    /// the nodes of `ends`, then each walk of `walks` (edges the search
    /// followed, the first from a node of the search, each from where the
    /// one before it leads) as nodes of its own after the search's.
    ///
    /// A node is read (its configuration put back in the engine) only
    /// where a path passes through it, once however many paths do.
    ///
    /// - Returns: The tree, and the node each walk ends at.
    /// - Complexity: O(*c* + *w*) for the *c* configurations visited and
    ///   the *w* edges of the walks, plus a reading per node read.
    func tree(reaching ends: [Int], thenWalking walks: [[Edge]] = []) -> (
        tree: TestPathTree<S, E>, walkEnds: [Int]
    ) {
        typealias Tree = TestPathTree<S, E>
        var links: [Tree.Link?] = []
        links.reserveCapacity(reachedBy.count + walks.count)
        for edge in reachedBy {
            links.append(edge.map { Tree.Link(parent: $0.from, step: $0.step, routes: $0.routes) })
        }
        var readings = [Tree.Reading?](repeating: nil, count: configurations.count)
        // Reads `node` and the nodes before it not read yet: a node is read
        // only with all those before it, so the walk back stops at the first.
        func readBack(from node: Int) {
            var current = node
            while readings[current] == nil {
                let reading = chart.reading(configurations[current])
                readings[current] = Tree.Reading(state: reading.state, activeStates: reading.activeStates)
                guard let edge = reachedBy[current] else { break }
                current = edge.from
            }
        }
        for end in ends {
            readBack(from: end)
        }
        var walkEnds: [Int] = []
        walkEnds.reserveCapacity(walks.count)
        for walk in walks {
            guard var parent = walk.first?.from else { preconditionFailure("a test path walk has no step") }
            readBack(from: parent)
            for edge in walk {
                readBack(from: edge.to)
                links.append(Tree.Link(parent: parent, step: edge.step, routes: edge.routes))
                readings.append(readings[edge.to])
                parent = links.count - 1
            }
            walkEnds.append(parent)
        }
        return (TestPathTree(links: links, readings: readings), walkEnds)
    }

    /// The machine's ``Machine/state`` at `node`.
    func state(at node: Int) -> S {
        chart.state(of: configurations[node])
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
