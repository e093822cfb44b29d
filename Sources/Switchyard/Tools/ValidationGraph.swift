// The checks of `validate()`, on integers. `ValidationIndex` turns every state
// and event a description names into an integer once; everything here then
// works on arrays of positions and on sets of integer keys. This type is not
// generic on purpose: `validate()` is not inlinable, so generic code would
// run unspecialised, with a metadata look-up and a witness call for each
// dictionary or set operation on a state, which cost about a hundred times
// the checks themselves.
//
// Positions: a described state's is its place in the description's
// `states`; the states routes, moves, handlers or declarations name that the
// description does not list (states of nested machines named through an enum
// case, states only a listed mapping names) come after them, top-level and
// atomic for every check, as they were when the checks looked states up by
// name. `-1` stands for `.any` or for no state.

/// A machine's structure on positions, and the checks of
/// ``MachineDescription/validate()`` on it.
struct ValidationGraph {
    /// What makes a route taken, with events by code.
    enum Trigger: Hashable {
        case event(Int)
        case anyEvent
        case state
        case eventless
        case done
    }

    /// What the checks need of one route.
    struct Route {
        var trigger: Trigger
        /// Its source; `-1` for `.any` (also for a route with listed sources).
        var source: Int
        /// Its target; `-1` for `.any` (also for a route with listed targets).
        var target: Int
        var hasListedSources: Bool
        var hasListedTargets: Bool
        /// Whether it enters states in other regions with its target.
        var entersOtherRegions: Bool
        var isConditional: Bool
        var ignoresHistory: Bool
    }

    /// Where a route or listed mapping move leads.
    enum Targets {
        /// The states in its `targets` (and so their ancestors and initial descendants).
        case states
        /// Nowhere: the machine stays where it is.
        case stays
        /// Any state: a route to `.any` that a state request can take.
        case anywhere
    }

    /// A route or a listed mapping move; its states are ranges of ``edgeStates``.
    struct Edge {
        /// The states it leaves from; `nil` for any state.
        var sources: Range<Int>?
        var targets: Range<Int>
        var kind: Targets
    }

    /// What validation checks of one handler.
    enum Handler {
        /// Never reported: handlers of `.any` events, error, entry and exit
        /// handlers, routes' actions.
        case unchecked
        /// A handler of the event with this code.
        case event(Int)
        /// A handler of transitions between these positions (`-1` for `.any`).
        case transition(from: Int, to: Int)
    }

    /// How many of the positions are the description's states.
    let describedCount: Int
    /// Each position's parent; `-1` for a top-level state (and for the
    /// states the description does not list).
    let parent: [Int]
    /// Each position's depth, a top-level state's being 0.
    let depth: [Int]
    /// The child each compound state enters first, by position; `-1` for other states.
    let initialChild: [Int]
    /// The history default each state declares, by position; `-1` for none.
    let historyDefault: [Int]
    /// The regions of each parallel state, by position; none for other states.
    let regions: PositionLists
    let isParallel: [Bool]
    let hasHistory: [Bool]
    /// Whether the state can be done, by position: a compound state with a
    /// final child, a parallel state whose regions all can, a state hosting
    /// a nested machine (its machine's final states complete it).
    let canBeDone: [Bool]
    /// Whether a listed mapping move leads to the state, by position.
    let isMoveTarget: [Bool]
    /// Whether ``inescapablePositions()`` checks the state: atomic, not
    /// final, not hosting a nested machine; by position.
    let mayBeInescapable: [Bool]
    /// The position the machine starts in.
    let initialPosition: Int
    /// The description's routes, in order.
    let routes: [Route]
    /// The routes, then the moves of the mappings that list them.
    let edges: [Edge]
    /// The sources and targets of ``edges``, one range each.
    let edgeStates: [Int]
    /// The edges leaving each position, in order.
    let edgesBySource: PositionLists
    let edgesFromAnyState: [Int]
    /// Whether some route mapping could not be listed: it might go anywhere.
    let hasUnlistedMapping: Bool
    /// Whether some route or listed move is taken on the event, by code.
    let isEventTaken: [Bool]
    /// Whether some route or unlisted event mapping takes any event.
    let takesAnyEvent: Bool
    /// The description's handlers, in order.
    let handlers: [Handler]

    /// The states counting as `position` for whether a route applies to it,
    /// innermost first: itself, its ancestors, then `-1` (`.any`, which
    /// holds every state). Just `-1` for `-1`.
    func holders(of position: Int) -> Holders {
        Holders(parent: parent, upcoming: position)
    }

    /// The deepest state a route from `source` to `target` leaves as it is
    /// (SCXML's transition domain, taking every route as external): the
    /// deepest holding both, or its parent when it is one of them.
    func domain(from source: Int, to target: Int) -> Int {
        let common = commonAncestor(source, target)
        return common >= 0 && (common == source || common == target) ? parent[common] : common
    }

    /// The deepest described state holding both positions; `-1` for none
    /// (for a state the description does not list, none holds it).
    func commonAncestor(_ first: Int, _ second: Int) -> Int {
        guard first >= 0, second >= 0, first < describedCount, second < describedCount else { return -1 }
        var first = first
        var second = second
        while depth[first] > depth[second] { first = parent[first] }
        while depth[second] > depth[first] { second = parent[second] }
        while first != second, first >= 0 {
            first = parent[first]
            second = parent[second]
        }
        return first
    }
}

// MARK: Reachability

extension ValidationGraph {
    /// The described positions no route reaches, in order; none when a route
    /// mapping cannot be listed, or a route a state request can take goes to
    /// `.any`.
    func unreachablePositions() -> [Int] {
        guard !hasUnlistedMapping else { return [] }
        var search = ReachabilitySearch(graph: self)
        guard search.run() else { return [] }
        var found: [Int] = []
        for position in 0..<describedCount where !search.reached[position] {
            found.append(position)
        }
        return found
    }
}

/// A breadth-first walk over the positions from the initial state, taking
/// each edge once.
private struct ReachabilitySearch {
    let graph: ValidationGraph
    /// Whether the state has been active, by position.
    var reached: [Bool]
    /// Whether the state has been entered (and so its defaults), by position.
    var entered: [Bool]
    var taken: [Bool]
    var queue: [Int] = []
    /// The states waiting to be entered, each with the state whose default
    /// it is (`-1` for a route's target): an explicit stack, so that
    /// entering a deep tree of defaults does not recurse.
    var pending: [(state: Int, owner: Int)] = []

    init(graph: ValidationGraph) {
        self.graph = graph
        reached = Array(repeating: false, count: graph.parent.count)
        entered = reached
        taken = Array(repeating: false, count: graph.edges.count)
    }

    /// Walks from the initial state; `false` when a reached edge goes anywhere.
    mutating func run() -> Bool {
        enter(graph.initialPosition)
        guard take(graph.edgesFromAnyState[...]) else { return false }
        var next = 0
        while next < queue.count {
            let state = queue[next]
            next += 1
            guard take(graph.edgesBySource[state]) else { return false }
        }
        return true
    }

    private mutating func activate(_ position: Int) {
        if !reached[position] {
            reached[position] = true
            queue.append(position)
        }
    }

    /// Enters `position`, a route's target, where the route's step leaves
    /// `domain` and its ancestors as they are (`-1`: none): it and its
    /// ancestors become active, the regions of its parallel ancestors below
    /// `domain` that do not hold it are entered by default, then its initial
    /// child, its regions and its history default.
    private mutating func enter(_ position: Int, below domain: Int = -1) {
        pending.append((position, domain))
        while let (state, owner) = pending.popLast() {
            guard !entered[state] else { continue }
            entered[state] = true
            for holder in graph.holders(of: state) where holder >= 0 {
                activate(holder)
            }
            // Up to the state whose default this is, which entered the rest.
            var below = state
            var ancestor = graph.parent[state]
            while ancestor >= 0 && ancestor != owner {
                for region in graph.regions[ancestor] where region != below {
                    pending.append((region, ancestor))
                }
                below = ancestor
                ancestor = graph.parent[ancestor]
            }
            guard state < graph.describedCount else { continue }
            if graph.initialChild[state] >= 0 {
                pending.append((graph.initialChild[state], state))
            }
            for region in graph.regions[state] {
                pending.append((region, state))
            }
            if graph.historyDefault[state] >= 0 {
                pending.append((graph.historyDefault[state], state))
            }
        }
    }

    /// Takes the edges not taken yet; `false` when one goes anywhere.
    private mutating func take(_ edges: ArraySlice<Int>) -> Bool {
        for edge in edges where !taken[edge] {
            taken[edge] = true
            guard !graph.isNeverTaken(edge: edge) else { continue }
            let described = graph.edges[edge]
            switch described.kind {
            case .states:
                // One source: the step leaves what holds both as it is. From
                // several or any, assume nothing is kept, which may enter
                // too much, never too little.
                let source = described.sources.flatMap { $0.count == 1 ? graph.edgeStates[$0.lowerBound] : nil }
                for target in described.targets {
                    let target = graph.edgeStates[target]
                    enter(target, below: source.map { graph.domain(from: $0, to: target) } ?? -1)
                }
            case .stays: break
            case .anywhere: return false
            }
        }
        return true
    }
}

// MARK: Leaving

extension ValidationGraph {
    /// The positions that no route leaves, in order: the described ones
    /// that are atomic, not final and not hosting a nested machine, then the
    /// states the description does not list that a listed mapping move leads
    /// to; none when a route mapping cannot be listed.
    func inescapablePositions() -> [Int] {
        guard !hasUnlistedMapping else { return [] }
        let held = heldTargets()
        var found: [Int] = []
        for position in parent.indices
        where position < describedCount ? mayBeInescapable[position] : isMoveTarget[position] {
            // Left when a route from it, from a state holding it or from
            // `.any` has targets not all inside it.
            var isLeft = false
            for source in holders(of: position) {
                let holder = held[source + 1]
                if holder != Self.noRoute && holder != position {
                    isLeft = true
                    break
                }
            }
            if !isLeft {
                found.append(position)
            }
        }
        return found
    }

    /// In ``heldTargets()``, a source no route leaves from.
    private static let noRoute = -2

    /// For each source, at `source + 1` (at 0 for `.any`), the deepest state
    /// that holds every target of its routes: a state outside it is left by
    /// one of them. `-1` when no state holds them all (or some route may go
    /// anywhere); ``noRoute`` when no route leaves from there.
    private func heldTargets() -> [Int] {
        var held = [Int](repeating: Self.noRoute, count: parent.count + 1)
        for (index, edge) in edges.enumerated() where !isNeverTaken(edge: index) {
            let holder: Int
            switch edge.kind {
            case .states:
                guard let first = edge.targets.first else { continue }
                var common = edgeStates[first] < describedCount ? edgeStates[first] : -1
                for target in edge.targets.dropFirst() {
                    common = commonAncestor(common, edgeStates[target])
                }
                holder = common
            case .stays: continue
            case .anywhere: holder = -1
            }
            if let sources = edge.sources {
                for source in sources {
                    record(holder, from: edgeStates[source], in: &held)
                }
            } else {
                record(holder, from: -1, in: &held)
            }
        }
        return held
    }

    private func record(_ holder: Int, from source: Int, in held: inout [Int]) {
        let existing = held[source + 1]
        held[source + 1] = existing == Self.noRoute ? holder : commonAncestor(existing, holder)
    }
}

// MARK: Done routes

extension ValidationGraph {
    /// The done routes whose source is never done, in order.
    func neverDoneRoutes() -> [Int] {
        routes.indices.filter { isNeverTaken(edge: $0) }
    }

    /// Whether the edge is a done route whose source is never done. The
    /// first edges are the routes, in order.
    func isNeverTaken(edge: Int) -> Bool {
        guard edge < routes.count else { return false }
        let route = routes[edge]
        return route.trigger == .done && route.source >= 0 && !canBeDone[route.source]
    }
}

// MARK: Shadowed routes

extension ValidationGraph {
    /// What two routes that compete for the same requests share.
    private struct ShadowKey: Hashable {
        var trigger: Trigger
        var source: Int
        var target: Int
    }

    /// The routes an earlier unconditional route with the same trigger and
    /// source always wins over, with that route, in order.
    func shadowedRoutes() -> [(route: Int, by: Int)] {
        // Only a route that shares its source with another can be shadowed:
        // counting them first spares hashing the others (every route of a
        // ring, or of a large machine with one route per state).
        var competing = [Int](repeating: 0, count: parent.count + 1)
        for route in routes where Self.competes(route) {
            competing[route.source + 1] += 1
        }
        var first: [ShadowKey: Int] = [:]
        var found: [(route: Int, by: Int)] = []
        for (position, route) in routes.enumerated() where Self.competes(route) && competing[route.source + 1] > 1 {
            // A state request names its target: only the same target competes.
            let key = ShadowKey(
                trigger: route.trigger, source: route.source, target: route.trigger == .state ? route.target : -1)
            if let earlier = first[key] {
                found.append((position, earlier))
            } else {
                first[key] = position
            }
        }
        return found
    }

    /// Whether the route takes part in shadowing: a route with a condition
    /// (listed sources and targets are membership conditions) neither
    /// shadows another nor is shadowed.
    private static func competes(_ route: Route) -> Bool {
        !route.isConditional && !route.hasListedSources && !route.hasListedTargets
    }
}

// MARK: Handlers

extension ValidationGraph {
    /// The handlers of events and transitions no route or mapping allows, by position.
    func unusedHandlers() -> [Int] {
        var pairs: TransitionPairs?
        var found: [Int] = []
        for (position, handler) in handlers.enumerated() {
            switch handler {
            case .unchecked:
                continue
            case .event(let event):
                if !takesAnyEvent && !isEventTaken[event] {
                    found.append(position)
                }
            case .transition(let from, let to):
                guard !hasUnlistedMapping else { continue }
                // Built for the first handler of a transition only: most machines have none.
                if pairs == nil {
                    pairs = TransitionPairs(self)
                }
                if !pairs!.allow(from: from, to: to) {
                    found.append(position)
                }
            }
        }
        return found
    }
}

/// The (before, after) pairs of positions that some route or listed move
/// allows, closed over the state tree, so that asking about one handler costs
/// O(*d*²) look-ups.
///
/// A handler for `f => g` hears a step whose state before is `f` or inside
/// it and whose state after is `g` or inside it (`-1`, `.any`, holds every
/// state). A route from `s` is taken while the state is `s` or inside it,
/// and leaves the machine in `t` or inside it. So the handler may run when `s`
/// and `f` lie on one branch (one holds the other), and so do `t` and `g`:
/// four cases, each a look-up in one of four sets.
struct TransitionPairs {
    struct Pair: Hashable {
        var before: Int
        var after: Int
    }

    let graph: ValidationGraph
    /// (s, t) of each route.
    private var exact: Set<Pair> = []
    /// (a, b) for every a holding s and b holding t.
    private var held: Set<Pair> = []
    /// (s, b) for every b holding t.
    private var heldAfter: Set<Pair> = []
    /// (a, t) for every a holding s.
    private var heldBefore: Set<Pair> = []

    init(_ graph: ValidationGraph) {
        self.graph = graph
        for edge in graph.edges {
            let sources = edge.sources.map { Array(graph.edgeStates[$0]) } ?? [-1]
            let targets: [Int]
            switch edge.kind {
            case .states: targets = Array(graph.edgeStates[edge.targets])
            case .anywhere: targets = [-1]
            // The machine stays in the source.
            case .stays: targets = sources
            }
            for source in sources {
                for target in targets {
                    insert(from: source, to: target)
                }
            }
        }
    }

    private mutating func insert(from source: Int, to target: Int) {
        exact.insert(Pair(before: source, after: target))
        for after in graph.holders(of: target) {
            heldAfter.insert(Pair(before: source, after: after))
        }
        for before in graph.holders(of: source) {
            heldBefore.insert(Pair(before: before, after: target))
            for after in graph.holders(of: target) {
                held.insert(Pair(before: before, after: after))
            }
        }
    }

    /// Whether some route or move may take the machine from `from` (or a state
    /// inside it) to `to` (or a state inside it).
    func allow(from: Int, to: Int) -> Bool {
        if held.contains(Pair(before: from, after: to)) {
            return true
        }
        for before in graph.holders(of: from) {
            if heldAfter.contains(Pair(before: before, after: to)) {
                return true
            }
            for after in graph.holders(of: to) where exact.contains(Pair(before: before, after: after)) {
                return true
            }
        }
        for after in graph.holders(of: to) where heldBefore.contains(Pair(before: from, after: after)) {
            return true
        }
        return false
    }
}

// MARK: Eventless cycles

extension ValidationGraph {
    /// The cycles of eventless routes without conditions, each taken for
    /// certain after the one before, each named from its earliest route,
    /// ordered by it.
    func eventlessCycles() -> [[Int]] {
        // The first eventless route of each source decides, if it has no condition.
        var firstEventless = [Int](repeating: -1, count: parent.count)
        for (position, route) in routes.enumerated() where route.trigger == .eventless {
            guard route.source >= 0, !route.hasListedSources else { continue }
            if firstEventless[route.source] < 0 {
                firstEventless[route.source] = position
            }
        }
        var starts: [Int] = []
        for route in firstEventless where route >= 0 && isCertain(route) {
            starts.append(route)
        }
        starts.sort()
        // Each route has at most one successor: walk each path once,
        // colouring routes as visited (1) or finished (2).
        var colour = [UInt8](repeating: 0, count: routes.count)
        var found: [[Int]] = []
        for start in starts where colour[start] == 0 {
            var path: [Int] = []
            var current = start
            while current >= 0, colour[current] == 0 {
                colour[current] = 1
                path.append(current)
                current = successor(of: current, firstEventless: firstEventless)
            }
            if current >= 0, colour[current] == 1, let entry = path.firstIndex(of: current) {
                let cycle = path[entry...]
                // Named from its earliest route, so the same cycle reads the same.
                let earliest = cycle.indices.min { cycle[$0] < cycle[$1] }!
                found.append(Array(cycle[earliest...] + cycle[..<earliest]))
            }
            for position in path {
                colour[position] = 2
            }
        }
        return found.sorted { $0[0] < $1[0] }
    }

    /// Whether the route is taken whenever it is tried, and leads to one known state.
    private func isCertain(_ route: Int) -> Bool {
        let route = routes[route]
        return !route.isConditional && !route.hasListedTargets && !route.entersOtherRegions && route.target >= 0
    }

    /// The route taken for certain right after `route`; `-1` for none.
    private func successor(of route: Int, firstEventless: [Int]) -> Int {
        let target = routes[route].target
        guard target >= 0 else { return -1 }
        // The states active after it, deepest first: its initial
        // descendants, the target, the target's ancestors. A parallel
        // state or a history makes that uncertain.
        var chain = [target]
        var current = target
        while current < describedCount {
            if isParallel[current] || (hasHistory[current] && !routes[route].ignoresHistory) {
                return -1
            }
            guard initialChild[current] >= 0 else { break }
            current = initialChild[current]
            chain.append(current)
        }
        for ancestor in holders(of: parent[target]) where ancestor >= 0 {
            if isParallel[ancestor] {
                return -1
            }
        }
        for state in chain.reversed() {
            if firstEventless[state] >= 0 {
                return isCertain(firstEventless[state]) ? firstEventless[state] : -1
            }
        }
        for state in holders(of: parent[target]) where state >= 0 && firstEventless[state] >= 0 {
            return isCertain(firstEventless[state]) ? firstEventless[state] : -1
        }
        return -1
    }
}

/// The positions holding one, innermost first, ending with `-1` (`.any`):
/// a walk up the parents, without an array.
struct Holders: Sequence, IteratorProtocol {
    let parent: [Int]
    var upcoming: Int?

    mutating func next() -> Int? {
        guard let position = upcoming else { return nil }
        upcoming = position < 0 ? nil : parent[position]
        return position
    }
}

/// One list of integers per position, in two flat arrays: what `[[Int]]`
/// would hold, without an array per position.
struct PositionLists {
    /// Where each position's list starts in ``elements``; one more entry
    /// than positions, for the end of the last.
    private let starts: [Int]
    private let elements: [Int]

    /// Lists `pairs`, each (position, element), by position, keeping the
    /// order of the elements of each position.
    init(count: Int, pairs: [(position: Int, element: Int)]) {
        var starts = [Int](repeating: 0, count: count + 1)
        for pair in pairs {
            starts[pair.position + 1] += 1
        }
        for position in 0..<count {
            starts[position + 1] += starts[position]
        }
        var filled = starts
        var elements = [Int](repeating: 0, count: pairs.count)
        for pair in pairs {
            elements[filled[pair.position]] = pair.element
            filled[pair.position] += 1
        }
        self.starts = starts
        self.elements = elements
    }

    /// The list of `position`.
    subscript(position: Int) -> ArraySlice<Int> {
        elements[starts[position]..<starts[position + 1]]
    }
}
