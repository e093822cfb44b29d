/// The walks of one call's test paths, shared by all of them: the search's
/// tree of first steps (each node's parent, the step from it and the routes
/// that step takes), then the steps covering paths go on with, and what a
/// path lists at each node.
///
/// A ``TestPath`` is a node of this tree, and its lists are walked back from
/// there when it is asked for them. The paths to every state of a ring of
/// *n* pass through *n*²/2 nodes in all; held as lists of their own, a ring
/// of 10,000 took 4.4 GB. Held here, they take the *n* nodes of the search.
///
/// Immutable once made, so that the paths of one call can be read, and sent,
/// anywhere.
final class TestPathTree<S: StateType, E: EventType> {
    typealias Step = TestPath<S, E>.Step

    /// How a node is reached: from `parent`, by `step`, taking `routes` (as
    /// positions in ``MachineDescription/routes``, in the order taken).
    struct Link {
        let parent: Int
        let step: Step
        let routes: [Int]
    }

    /// What a path lists at a node: the machine's ``Machine/state`` and its
    /// active states, each before its descendants.
    struct Reading {
        let state: S
        let activeStates: [S]
    }

    /// By node: how it is reached; `nil` for node 0, the start.
    let links: [Link?]
    /// By node: what a path lists there; `nil` at a node no path passes through.
    let readings: [Reading?]

    /// A tree of `links` and `readings`, by node, node 0 its start.
    init(links: [Link?], readings: [Reading?]) {
        precondition(links.count == readings.count, "a test-path tree was made with a reading missing")
        self.links = links
        self.readings = readings
    }

    /// The reading at the start, before the first step of every path.
    var start: Reading {
        readings[0]!
    }

    /// The reading at `node`, which a path passes through.
    func reading(at node: Int) -> Reading {
        readings[node]!
    }

    /// The nodes a path to `end` reaches after the start, in order.
    ///
    /// - Complexity: O(*m*) for a path of *m* steps.
    func walk(to end: Int) -> [Int] {
        var nodes: [Int] = []
        var current = end
        while let link = links[current] {
            nodes.append(current)
            current = link.parent
        }
        return nodes.reversed()
    }

    // One loop per list rather than `walk(to:).map(\.…)`: unspecialized, as
    // this generic code runs in the library, a key path costs a look-up of
    // generic metadata per step.

    /// The steps of the path to `end`.
    func steps(to end: Int) -> [Step] {
        let nodes = walk(to: end)
        var steps: [Step] = []
        steps.reserveCapacity(nodes.count)
        for node in nodes {
            steps.append(links[node]!.step)
        }
        return steps
    }

    /// The machine's state after each step of the path to `end`.
    func states(to end: Int) -> [S] {
        let nodes = walk(to: end)
        var states: [S] = []
        states.reserveCapacity(nodes.count)
        for node in nodes {
            states.append(reading(at: node).state)
        }
        return states
    }

    /// The active states after each step of the path to `end`.
    func configurations(to end: Int) -> [[S]] {
        let nodes = walk(to: end)
        var configurations: [[S]] = []
        configurations.reserveCapacity(nodes.count)
        for node in nodes {
            configurations.append(reading(at: node).activeStates)
        }
        return configurations
    }

    /// The routes the path to `end` takes, in order.
    func routes(to end: Int) -> [Int] {
        var routes: [Int] = []
        for node in walk(to: end) {
            routes.append(contentsOf: links[node]!.routes)
        }
        return routes
    }
}

extension TestPathTree: Sendable where S: Sendable, E: Sendable {}
extension TestPathTree.Link: Sendable where S: Sendable, E: Sendable {}
extension TestPathTree.Reading: Sendable where S: Sendable {}
