// An independent statechart interpreter for the model-based tests. It must not
// import Switchyard or share code with its engine: it is what the engine is
// checked against.

/// A statechart interpreter written straight from the W3C SCXML algorithm
/// (Recommendation of 2015-09-01, section 3.13 and Appendix D), with
/// Switchyard's deliberate differences, to check the engine against.
///
/// Clarity comes before speed: states and events are `Int`s, the tree is a
/// table of plain nodes, and every question is answered by a linear scan. The
/// step functions keep the recommendation's names (`selectTransitions`,
/// `computeExitSet`, `addDescendantStatesToEnter`, …) so that each can be read
/// beside its pseudo-code.
///
/// Where Switchyard differs from SCXML, this interpreter follows Switchyard:
/// - There are no history pseudo-states. A compound state that keeps history is
///   entered through it whenever it is entered by default: as a route's
///   target, as an initial child, as a region, or as a recorded shallow child.
///   A route that targets a deeper descendant enters it on the way, without
///   its history.
/// - On one state, the routes for the exact event are tried before the routes
///   for any event, each group in registration order.
/// - Routes from "any state" belong to the implicit root, so they are tried
///   last, and their domain is the root.
/// - A chart in which no state has children is a flat machine, and keeps a
///   flat machine's precedence (SPEC section 2): the exact event before any
///   event and, within each, the state before any state. So a route for the
///   event from any state beats a route for any event from the state, where
///   the walk of a nested chart would choose the other.
/// - A targetless route ("stay") is a successful step that exits and enters
///   nothing; its transition handler still runs.
/// - The transition handler runs once per step, however many routes fired.
///
/// ```swift
/// var chart = ReferenceStatechart(initialState: 1)
/// chart.addChildren([2, 3], to: 1)
/// chart.addRoute(.init(event: 0, source: 2, target: 3))
/// chart.start()  // [entry 1, entry 2]
/// chart.fire(0)  // [exit 2, e0: 2 -> 3, entry 3]
/// ```
struct ReferenceStatechart {
    /// The implicit root: the compound parent of the top-level states, and the
    /// source of the routes from "any state".
    static let root = -1

    /// What a compound state's history remembers.
    enum HistoryKind: Equatable, Sendable {
        /// The child that was active when the state was last exited.
        case shallow
        /// The atomic descendants that were active when the state was last exited.
        case deep
    }

    /// A route: on an event, from a source state, to a target state.
    struct Route: Equatable, Sendable {
        /// The event the route answers, or `nil` for any event.
        var event: Int?
        /// The source state, or ``ReferenceStatechart/root`` for any state.
        var source: Int
        /// The target state, or `nil` for a targetless route ("stay").
        var target: Int?
        /// Whether a route from a compound state to one of its descendants
        /// leaves the compound active.
        var isLocal = false
        /// The constant answer of the route's guard.
        var isAllowed = true
    }

    /// One handler call that a step makes.
    enum Call: Equatable, Sendable, CustomStringConvertible {
        /// The exit handler of a state.
        case exit(Int)
        /// The transition handler, with the machine's `state` before and after the step.
        case transition(event: Int, from: Int, to: Int)
        /// The entry handler of a state.
        case entry(Int)
        /// The error handler, for an event that selected no route.
        case error(event: Int, state: Int)

        var description: String {
            switch self {
            case .exit(let state): "exit \(state)"
            case .transition(let event, let from, let to): "e\(event): \(from) -> \(to)"
            case .entry(let state): "entry \(state)"
            case .error(let event, let state): "error e\(event) in \(state)"
            }
        }
    }

    /// How a state holds its children.
    private enum Kind {
        case atomic, compound, parallel
    }

    /// One state of the tree.
    private struct Node {
        var parent: Int?
        var kind = Kind.atomic
        var children: [Int] = []
        var initial: Int?
        var history: HistoryKind?
    }

    private var nodes: [Int: Node] = [root: Node(parent: nil, kind: .compound)]
    private var routes: [Route] = []
    private var recordedHistory: [Int: [Int]] = [:]
    /// The active states once the chart has started or taken a step; before
    /// that, the configuration is the initial state's entry set.
    private var activeStates: [Int]?

    /// The top-level state the chart starts in.
    let initialState: Int

    /// Creates a chart whose initial state is the top-level state `initialState`.
    init(initialState: Int) {
        self.initialState = initialState
        declareTopLevelIfNew(initialState)
    }

    // MARK: - Declaring the tree and the routes

    /// Makes `parent` a compound state with `children`, in declaration order,
    /// whose initial child is `initial`, or the first child when it is `nil`.
    mutating func addChildren(_ children: [Int], to parent: Int, initial: Int? = nil) {
        declareParent(parent, of: children, as: .compound)
        nodes[parent]!.initial = initial ?? children[0]
        precondition(children.contains(nodes[parent]!.initial!), "the initial state of \(parent) is not its child")
    }

    /// Makes `parent` a parallel state whose regions are `regions`, in declaration order.
    mutating func addRegions(_ regions: [Int], to parent: Int) {
        declareParent(parent, of: regions, as: .parallel)
    }

    /// Makes the compound state `state` keep history of `kind`.
    mutating func addHistory(_ kind: HistoryKind, to state: Int) {
        precondition(isCompound(state) && state != Self.root, "only a compound state keeps history")
        nodes[state]!.history = kind
    }

    /// Adds `route` after every route added so far.
    mutating func addRoute(_ route: Route) {
        if route.source != Self.root { declareTopLevelIfNew(route.source) }
        if let target = route.target { declareTopLevelIfNew(target) }
        routes.append(route)
    }

    private mutating func declareParent(_ parent: Int, of children: [Int], as kind: Kind) {
        declareTopLevelIfNew(parent)
        precondition(nodes[parent]!.kind == .atomic, "\(parent) already has children")
        precondition(!children.isEmpty, "\(parent) needs at least one child")
        for child in children {
            precondition(nodes[child] == nil && child != Self.root, "\(child) is already in the tree")
            nodes[child] = Node(parent: parent)
        }
        nodes[parent]!.kind = kind
        nodes[parent]!.children = children
    }

    /// A state first met outside `addChildren` and `addRegions` is top level.
    /// Their order under the root is never observable, since only one
    /// top-level state is active at a time.
    private mutating func declareTopLevelIfNew(_ state: Int) {
        precondition(state != Self.root, "\(Self.root) is the root, not a state")
        guard nodes[state] == nil else { return }
        nodes[state] = Node(parent: Self.root)
        nodes[Self.root]!.children.append(state)
    }

    // MARK: - Reading

    /// Every active state, in document order (ancestors first).
    var configuration: [Int] {
        activeStates ?? initialEntrySet
    }

    /// The deepest state that contains every active atomic state.
    var state: Int {
        let atomicStates = configuration.filter(isAtomic)
        let candidates = [atomicStates[0]] + properAncestors(of: atomicStates[0])
        return candidates.first { candidate in
            atomicStates.allSatisfy { $0 == candidate || isDescendant($0, of: candidate) }
        }!
    }

    /// Whether `state` is in the configuration.
    func isActive(_ state: Int) -> Bool {
        configuration.contains(state)
    }

    /// Every state of the tree in document order, without the root.
    var states: [Int] {
        Array(documentOrder.dropFirst())
    }

    // MARK: - Running

    /// Enters the initial configuration, and returns the entry handler calls.
    @discardableResult
    mutating func start() -> [Call] {
        precondition(activeStates == nil, "start() must come before any step, once")
        let entrySet = initialEntrySet
        activeStates = entrySet
        return entrySet.map(Call.entry)
    }

    /// Takes one step for `event`, and returns the handler calls it makes.
    ///
    /// The step is SCXML's `microstep`: exits in exit order, then the new
    /// configuration, then the transition handler, then entries in document
    /// order. An event that selects no route calls the error handler only.
    @discardableResult
    mutating func fire(_ event: Int) -> [Call] {
        let stateBefore = state
        let selected = selectTransitions(for: event)
        guard !selected.isEmpty else { return [.error(event: event, state: stateBefore)] }

        let statesToExit = inExitOrder(computeExitSet(selected))
        recordHistory(of: statesToExit)
        let statesToEnter = inDocumentOrder(computeEntrySet(selected))
        activeStates = inDocumentOrder(configuration.filter { !statesToExit.contains($0) } + statesToEnter)

        return statesToExit.map(Call.exit)
            + [.transition(event: event, from: stateBefore, to: state)]
            + statesToEnter.map(Call.entry)
    }

    // MARK: - Selecting routes

    /// The routes that fire for `event`, as indices into `routes`, in the
    /// order of the atomic states that selected them.
    private func selectTransitions(for event: Int) -> [Int] {
        var enabled: [Int] = []
        for atomicState in configuration.filter(isAtomic) {
            let route =
                isFlat
                ? firstEnabledRouteOfAFlatChart(from: atomicState, for: event)
                : firstEnabledRouteOnTheWalk(from: atomicState, for: event)
            if let route, !enabled.contains(route) { enabled.append(route) }
        }
        return removeConflictingTransitions(enabled)
    }

    /// The first enabled route on the walk from `atomicState` through its
    /// ancestors up to the root.
    private func firstEnabledRouteOnTheWalk(from atomicState: Int, for event: Int) -> Int? {
        for state in [atomicState] + properAncestors(of: atomicState) {
            if let route = firstEnabledRoute(from: state, for: event) { return route }
        }
        return nil
    }

    /// The first route from `state` whose guard allows it: routes for exactly
    /// `event` first, then routes for any event, each in registration order.
    private func firstEnabledRoute(from state: Int, for event: Int) -> Int? {
        let fromState = routes.indices.filter { routes[$0].source == state }
        let forEvent = fromState.filter { routes[$0].event == event }
        let forAnyEvent = fromState.filter { routes[$0].event == nil }
        return (forEvent + forAnyEvent).first { routes[$0].isAllowed }
    }

    /// The first enabled route of a chart without nesting, which keeps the
    /// precedence of a flat machine (SPEC section 2): the exact event before
    /// any event and, within each, the state before any state.
    private func firstEnabledRouteOfAFlatChart(from state: Int, for event: Int) -> Int? {
        let precedence: [(event: Int?, source: Int)] = [
            (event, state), (event, Self.root), (nil, state), (nil, Self.root),
        ]
        let candidates = precedence.flatMap { bucket in
            routes.indices.filter { routes[$0].event == bucket.event && routes[$0].source == bucket.source }
        }
        return candidates.first { routes[$0].isAllowed }
    }

    /// Whether no state has children or regions: a flat machine.
    private var isFlat: Bool {
        states.allSatisfy(isAtomic)
    }

    /// Keeps, of two routes whose exit sets overlap, the later one if its
    /// source is a proper descendant of the earlier one's, else the earlier one.
    private func removeConflictingTransitions(_ enabled: [Int]) -> [Int] {
        var filtered: [Int] = []
        for later in enabled {
            var isPreempted = false
            var preempted: [Int] = []
            for earlier in filtered where exitSetsOverlap(later, earlier) {
                if isDescendant(routes[later].source, of: routes[earlier].source) {
                    preempted.append(earlier)
                } else {
                    isPreempted = true
                    break
                }
            }
            if !isPreempted {
                filtered.removeAll { preempted.contains($0) }
                filtered.append(later)
            }
        }
        return filtered
    }

    private func exitSetsOverlap(_ first: Int, _ second: Int) -> Bool {
        let firstExits = computeExitSet([first])
        return computeExitSet([second]).contains { firstExits.contains($0) }
    }

    // MARK: - Exiting

    /// The active states that the routes exit: the proper descendants of
    /// their domains. Targetless routes exit nothing.
    private func computeExitSet(_ selected: [Int]) -> [Int] {
        var statesToExit: [Int] = []
        for index in selected {
            guard let domain = transitionDomain(of: routes[index]) else { continue }
            for state in configuration where isDescendant(state, of: domain) && !statesToExit.contains(state) {
                statesToExit.append(state)
            }
        }
        return statesToExit
    }

    /// The state whose active descendants a route exits, or `nil` for a
    /// targetless route.
    private func transitionDomain(of route: Route) -> Int? {
        guard let target = route.target else { return nil }
        if route.isLocal && isCompound(route.source) && isDescendant(target, of: route.source) {
            return route.source
        }
        return findLCCA(route.source, target)
    }

    /// The nearest compound proper ancestor of `source` that is also an
    /// ancestor of `target`; the root for a route from the root.
    private func findLCCA(_ source: Int, _ target: Int) -> Int {
        guard source != Self.root else { return Self.root }
        return properAncestors(of: source).first { isCompound($0) && isDescendant(target, of: $0) }!
    }

    /// Remembers, for every exiting state that keeps history, its active child
    /// (shallow) or its active atomic descendants (deep), before anything exits.
    private mutating func recordHistory(of statesToExit: [Int]) {
        let configuration = configuration
        for state in statesToExit {
            switch nodes[state]!.history {
            case .shallow:
                recordedHistory[state] = configuration.filter { nodes[$0]!.parent == state }
            case .deep:
                recordedHistory[state] = configuration.filter { isAtomic($0) && isDescendant($0, of: state) }
            case nil:
                break
            }
        }
    }

    // MARK: - Entering

    /// The states that the routes enter, in no particular order.
    private func computeEntrySet(_ selected: [Int]) -> [Int] {
        var statesToEnter: [Int] = []
        for index in selected {
            let route = routes[index]
            guard let target = route.target, let domain = transitionDomain(of: route) else { continue }
            addDescendantStatesToEnter(target, to: &statesToEnter)
            addAncestorStatesToEnter(target, below: domain, to: &statesToEnter)
        }
        return statesToEnter
    }

    /// The configuration of a chart that has not moved yet: the initial state
    /// entered by default, with its ancestors.
    private var initialEntrySet: [Int] {
        var statesToEnter: [Int] = []
        addDescendantStatesToEnter(initialState, to: &statesToEnter)
        addAncestorStatesToEnter(initialState, below: Self.root, to: &statesToEnter)
        return inDocumentOrder(statesToEnter)
    }

    /// Adds `state` entered by default, and what entering it by default enters:
    /// a compound state's recorded history, else its initial child; every
    /// region of a parallel state not already being entered.
    private func addDescendantStatesToEnter(_ state: Int, to statesToEnter: inout [Int]) {
        if !statesToEnter.contains(state) { statesToEnter.append(state) }
        let node = nodes[state]!
        switch node.kind {
        case .atomic:
            break
        case .compound:
            // Every descendant first, then the ancestors: a parallel ancestor
            // must see all the restored regions before it enters the others.
            let defaultStates = defaultEntry(of: state)
            for defaultState in defaultStates {
                addDescendantStatesToEnter(defaultState, to: &statesToEnter)
            }
            for defaultState in defaultStates {
                addAncestorStatesToEnter(defaultState, below: state, to: &statesToEnter)
            }
        case .parallel:
            addRegionsNotBeingEntered(of: state, to: &statesToEnter)
        }
    }

    /// What entering the compound state `compound` by default enters: its
    /// recorded history if it keeps one and something was recorded, else its
    /// initial child.
    private func defaultEntry(of compound: Int) -> [Int] {
        if let recorded = recordedHistory[compound], !recorded.isEmpty { return recorded }
        return [nodes[compound]!.initial!]
    }

    /// Adds the proper ancestors of `state` below `ancestor`, and the regions
    /// of any parallel one among them that are not already being entered.
    private func addAncestorStatesToEnter(_ state: Int, below ancestor: Int, to statesToEnter: inout [Int]) {
        for ancestorToEnter in properAncestors(of: state, below: ancestor) {
            if !statesToEnter.contains(ancestorToEnter) { statesToEnter.append(ancestorToEnter) }
            if isParallel(ancestorToEnter) {
                addRegionsNotBeingEntered(of: ancestorToEnter, to: &statesToEnter)
            }
        }
    }

    private func addRegionsNotBeingEntered(of parallel: Int, to statesToEnter: inout [Int]) {
        for region in nodes[parallel]!.children
        where !statesToEnter.contains(where: { isDescendant($0, of: region) }) {
            addDescendantStatesToEnter(region, to: &statesToEnter)
        }
    }

    // MARK: - The tree

    private func isAtomic(_ state: Int) -> Bool { nodes[state]!.kind == .atomic }
    private func isCompound(_ state: Int) -> Bool { nodes[state]!.kind == .compound }
    private func isParallel(_ state: Int) -> Bool { nodes[state]!.kind == .parallel }

    /// Whether `state` is a proper descendant of `ancestor`.
    private func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        properAncestors(of: state).contains(ancestor)
    }

    /// SCXML's `getProperAncestors`: the parent of `state`, its parent, and so
    /// on, stopping before `ancestor` (or after the root when `ancestor` is `nil`).
    private func properAncestors(of state: Int, below ancestor: Int? = nil) -> [Int] {
        var ancestors: [Int] = []
        var current = nodes[state]!.parent
        while let next = current, next != ancestor {
            ancestors.append(next)
            current = nodes[next]!.parent
        }
        return ancestors
    }

    /// The root and every state, in preorder: parents before children,
    /// children in declaration order.
    private var documentOrder: [Int] {
        var order: [Int] = []
        var pending = [Self.root]
        while let state = pending.popLast() {
            order.append(state)
            pending.append(contentsOf: nodes[state]!.children.reversed())
        }
        return order
    }

    /// `states` without repeats, in document order.
    private func inDocumentOrder(_ states: [Int]) -> [Int] {
        documentOrder.filter { states.contains($0) }
    }

    /// `states` without repeats, in reverse document order: descendants before
    /// ancestors, later siblings before earlier ones.
    private func inExitOrder(_ states: [Int]) -> [Int] {
        inDocumentOrder(states).reversed()
    }
}

// MARK: - Description

extension ReferenceStatechart: CustomStringConvertible {
    /// The tree and the routes, to print beside a failure so it can be read.
    var description: String {
        var lines = ["initial state \(initialState)"]
        for state in states {
            lines.append(describe(state))
        }
        for (index, route) in routes.enumerated() {
            lines.append("route \(index): \(describe(route))")
        }
        return lines.joined(separator: "\n")
    }

    private func describe(_ state: Int) -> String {
        let node = nodes[state]!
        let depth = properAncestors(of: state).count - 1
        var line = String(repeating: "  ", count: depth) + "\(state)"
        switch node.kind {
        case .atomic: break
        case .compound: line += " compound, initial \(node.initial!)"
        case .parallel: line += " parallel"
        }
        if let history = node.history { line += ", \(history) history" }
        return line
    }

    private func describe(_ route: Route) -> String {
        let event = route.event.map { "e\($0)" } ?? "any event"
        let source = route.source == Self.root ? "any" : "\(route.source)"
        let target = route.target.map { "\($0)" } ?? "stay"
        let local = route.isLocal ? ", local" : ""
        let refused = route.isAllowed ? "" : ", refused"
        return "\(event): \(source) => \(target)\(local)\(refused)"
    }
}
