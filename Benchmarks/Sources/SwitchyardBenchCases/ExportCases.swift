import Switchyard

// Exporting a diagram, and validating a machine: describing it and writing it
// as Graphviz DOT, or checking it, must cost O(n) in its routes, so that
// `export-dot-100k` costs ten times `export-dot-10k`, and `validate-100k` ten
// times `validate-10k`.

extension BenchCase {
    /// Describing a ring of `count` event routes and writing it as DOT.
    static func exportDOT(routes count: Int) -> BenchCase {
        BenchCase(
            name: "export-dot-\(count / 1000)k",
            summary: "describing a machine of \(count) routes (a ring) and writing it as Graphviz DOT",
            switchyard: {
                let machine = ringMachine(count)
                return { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        checksum &+= machine.describe().dot().utf8.count
                    }
                    return checksum
                }
            },
            dictionary: {
                let routes = ringRoutes(count)
                return { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        checksum &+= handWrittenDOT(initial: 0, routes: routes).utf8.count
                    }
                    return checksum
                }
            },
            handSwitch: nil
        )
    }

    /// Describing a ring of `count` event routes and validating it.
    static func validate(routes count: Int) -> BenchCase {
        BenchCase(
            name: "validate-\(count / 1000)k",
            summary: "describing a machine of \(count) routes (a ring) and validating it (no diagnostics)",
            switchyard: {
                let machine = ringMachine(count)
                return { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        checksum &+= machine.validate().count &+ 1
                    }
                    return checksum
                }
            },
            dictionary: {
                let routes = ringRoutes(count)
                return { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        checksum &+= handWrittenProblems(initial: 0, routes: routes) &+ 1
                    }
                    return checksum
                }
            },
            handSwitch: nil
        )
    }
}

/// The ring both cases describe: `count` states, each with one route to the next.
private func ringMachine(_ count: Int) -> Machine<RingState, RingEvent> {
    Machine(state: RingState(index: 0)) { machine in
        machine.addRoutes(
            event: .advance,
            transitions: (0..<count).map { RingState(index: $0) => RingState(index: ($0 &+ 1) % count) })
    }
}

/// The same ring as the baselines keep it: a plain array of routes.
private func ringRoutes(_ count: Int) -> [ExportedRoute] {
    (0..<count).map { ExportedRoute(from: $0, event: .advance, to: ($0 &+ 1) % count) }
}

/// One route of the baseline: a plain value in a plain array.
private struct ExportedRoute {
    var from: Int
    var event: RingEvent
    var to: Int
}

/// The DOT text Switchyard writes for a flat ring, written by a hand-written
/// loop: the states in the order the routes name them, then the edges.
private func handWrittenDOT(initial: Int, routes: [ExportedRoute]) -> String {
    var ids: [Int: Int] = [:]
    var states: [Int] = []
    func id(_ state: Int) -> Int {
        if let found = ids[state] { return found }
        states.append(state)
        ids[state] = states.count
        return states.count
    }
    let edges = routes.map { (id($0.from), $0.event, id($0.to)) }
    var text = "digraph machine {\n    compound=true;\n    node [shape=box, style=rounded];\n"
    text += "    start [shape=point, width=0.15];\n"
    for (offset, state) in states.enumerated() {
        text += "    s\(offset + 1) [label=\"\(RingState(index: state))\"];\n"
    }
    text += "    start -> s\(id(initial));\n"
    for (from, event, to) in edges {
        text += "    s\(from) -> s\(to) [label=\" \(event) \"];\n"
    }
    text += "}\n"
    return text
}

/// How many problems a hand-written check finds in a flat machine: states
/// the initial state does not reach, states no route leaves, and routes that
/// an earlier route with the same source and event hides, the checks
/// `validate()` makes of a flat machine without conditions or handlers.
private func handWrittenProblems(initial: Int, routes: [ExportedRoute]) -> Int {
    var targets: [Int: [Int]] = [:]
    var states: Set<Int> = [initial]
    var seen: Set<RouteKey<Int, RingEvent>> = []
    var problems = 0
    for route in routes {
        targets[route.from, default: []].append(route.to)
        states.insert(route.from)
        states.insert(route.to)
        if !seen.insert(RouteKey(state: route.from, event: route.event)).inserted {
            problems += 1
        }
    }
    var reached: Set<Int> = [initial]
    var waiting = [initial]
    while let state = waiting.popLast() {
        for target in targets[state] ?? [] where reached.insert(target).inserted {
            waiting.append(target)
        }
    }
    problems += states.count - reached.count
    problems += states.filter { targets[$0] == nil }.count
    return problems
}
