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
/// - There are no history pseudo-states. A compound or parallel state that
///   keeps history is entered through it whenever it is entered by default:
///   as a route's target, as an initial child, as a region, as a recorded
///   shallow child, or as a history's default. A route that targets a deeper
///   descendant enters it on the way, without its history. A route marked
///   ``Route/ignoresHistory`` enters its targets themselves, as SCXML's
///   transition to the state (not to its history) does.
/// - A history's default, SCXML's `<history>` child `<transition>`, is given
///   with the history (``addHistory(_:to:default:)``), and is any proper
///   descendant of the state.
/// - A route's action (its executable content) runs after the exits and
///   before the transition handler; the actions of one microstep run in the
///   order the atomic states selected their routes, as in SCXML.
/// - On one state, the routes for the exact event are tried before the routes
///   for any event, each group in registration order.
/// - Routes from "any state" belong to the implicit root, so they are tried
///   last, and their domain is the root.
/// - A chart in which no state has children is a flat machine, and chooses
///   by the same walk (SPEC section 2): its state, then the root, the exact
///   event before any event on each. So a route for any event from the
///   state beats a route for the event from any state, as in a nested chart.
/// - A targetless route ("stay") is a successful step that exits and enters
///   nothing; its transition handler still runs.
/// - The transition handler runs once per step, however many routes fired.
/// - Several targets (SCXML's `target="a b"`) lie in different regions of
///   parallel states; the engine refuses other combinations when the route
///   is added, so the charts here have none.
/// - A done route is SCXML's `<transition event="done.state.X">` on X itself:
///   Switchyard only lets X react to its own completion. Finishing (entering
///   a final child of `<scxml>`) keeps the configuration for reading, after
///   running every active state's exit handler as `exitInterpreter` does.
/// - A request that selects no route takes no microstep, so it starts no
///   macrostep either (SCXML would look for eventless transitions again; in
///   the charts of the model tests they could only differ after a macrostep
///   cut at ``internalStepLimit``, which SCXML does not have).
/// - A macrostep is cut after ``internalStepLimit`` internal microsteps: the
///   done events in the internal queue are dropped and the error handler
///   runs, with no event; no eventless route is tried again before the next
///   microstep.
/// - An entry handler may make a request (``addRaise(of:onEntryTo:)``):
///   SCXML's `<raise>` in `<onentry>`, queued in the one internal queue
///   with the done events, in the order they arose (SPEC 3.2, "The internal
///   queue"), while ``raiseBudget`` lasts. Served, it is decided as a
///   request: a route for the event (or any event), or the error handler
///   when none is selected; its microstep resets the data model's counter,
///   as a request's does. After finishing, the events still queued are
///   refused as later requests are (the error handler), where SCXML drops
///   them; a macrostep cut at the limit keeps them too.
///
/// The data model is one counter, ``internalStepsSinceLastEvent``, that every
/// route taken for an event resets and every eventless or done route taken
/// increments (as if each carried an `<assign>`), and SCXML's `In(state)`
/// predicate: a route's ``Condition`` reads only those.
///
/// ```swift
/// var chart = ReferenceStatechart(initialState: 1)
/// chart.addChildren([2, 3], to: 1)
/// chart.addFinalState(3)
/// chart.addRoute(.init(trigger: .event(0), source: 2, target: 3))
/// chart.addRoute(.init(trigger: .done, source: 1, target: 4))
/// chart.start()  // [entry 1, entry 2]
/// chart.fire(0)  // [exit 2, e0: 2 -> 3, entry 3, exit 3, exit 1, internal: 3 -> 4, entry 4]
/// ```
struct ReferenceStatechart {
    /// The implicit root: the compound parent of the top-level states, and the
    /// source of the routes from "any state".
    static let root = -1

    /// What a state's history remembers.
    enum HistoryKind: Equatable, Sendable {
        /// The child that was active when the state was last exited (every
        /// region, for a parallel state).
        case shallow
        /// The atomic descendants that were active when the state was last
        /// exited, in every region.
        case deep
    }

    /// What a route answers.
    enum Trigger: Equatable, Sendable {
        /// One external event.
        case event(Int)
        /// Any external event.
        case anyEvent
        /// No event: SCXML's eventless transition, tried after every microstep.
        case eventless
        /// The source being done: SCXML's `done.state.ID` for the route's source.
        case done
    }

    /// A route's guard: a constant, and optionally what it reads of the data
    /// model. It holds when every part of it does.
    struct Condition: Equatable, Sendable {
        /// The constant part.
        var isAllowed = true
        /// Holds while ``ReferenceStatechart/internalStepsSinceLastEvent`` is
        /// below it.
        var internalStepsBelow: Int?
        /// Holds while this state is active: SCXML's `In(state)`.
        var whileActive: Int?

        static let always = Condition()
        static let never = Condition(isAllowed: false)
    }

    /// A route: on a trigger, from a source state, to one target state or
    /// several.
    struct Route: Equatable, Sendable {
        var trigger: Trigger
        /// The source state, or ``ReferenceStatechart/root`` for any state.
        var source: Int
        /// The target state, or `nil` for a targetless route ("stay").
        var target: Int?
        /// Whether a route from a compound state to descendants of it leaves
        /// the compound active: SCXML's `type="internal"`.
        var isLocal = false
        var condition = Condition.always
        /// More targets, in other regions of parallel states than `target`
        /// and one another: SCXML's `target="a b"`.
        var otherTargets: [Int] = []
        /// Whether the targets are entered themselves even when they keep
        /// history: SCXML's transition to the state rather than to its
        /// `<history>`.
        var ignoresHistory = false
        /// A label for the route's action (its executable content), or `nil`
        /// for a route without one.
        var action: Int?

        /// Every target, `target` first; none for a stay.
        var targets: [Int] {
            target.map { [$0] + otherTargets } ?? []
        }
    }

    /// How a request ended.
    enum Outcome: String, Equatable, Sendable {
        /// It took its microstep and settled.
        case moved
        /// It selected no route.
        case refused
        /// The chart had finished before it.
        case finished
        /// It took its microstep, but the macrostep that followed was cut at
        /// ``ReferenceStatechart/internalStepLimit`` microsteps.
        case unsettled
    }

    /// What one request (or `start()`) did: the handler calls of its whole
    /// macrostep, in order, and how it ended.
    struct Macrostep: Equatable, Sendable {
        var calls: [Call]
        var outcome: Outcome
    }

    /// How many eventless and done microsteps one macrostep may take; the
    /// next one is not taken.
    static let internalStepLimit = 1_000

    /// One handler call that a step makes.
    enum Call: Equatable, Sendable, CustomStringConvertible {
        /// The exit handler of a state.
        case exit(Int)
        /// The transition handler, with the machine's `state` before and after
        /// the step; the event is `nil` for an eventless or done microstep.
        case transition(event: Int?, from: Int, to: Int)
        /// The entry handler of a state.
        case entry(Int)
        /// The action of a route, by its label, with the event and the
        /// machine's `state` before and after the step, as its context says.
        case action(Int, event: Int?, from: Int, to: Int)
        /// The error handler: for an event that selected no route or came
        /// after the chart finished, or (with no event) for a macrostep cut
        /// at the limit.
        case error(event: Int?, state: Int)

        var description: String {
            switch self {
            case .exit(let state): "exit \(state)"
            case .transition(let event, let from, let to): "\(Self.describe(event)): \(from) -> \(to)"
            case .entry(let state): "entry \(state)"
            case .action(let label, let event, let from, let to):
                "action \(label) for \(Self.describe(event)): \(from) -> \(to)"
            case .error(let event, let state): "error \(Self.describe(event)) in \(state)"
            }
        }

        private static func describe(_ event: Int?) -> String {
            event.map { "e\($0)" } ?? "internal"
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
        /// What entering through the history enters before anything is recorded.
        var historyDefault: Int?
        var isFinal = false
    }

    private var nodes: [Int: Node] = [root: Node(parent: nil, kind: .compound)]
    private var routes: [Route] = []
    private var recordedHistory: [Int: [Int]] = [:]
    /// The active states once the chart has started or taken a step; before
    /// that, the configuration is the initial state's entry set. Kept in
    /// document order, and grown one state at a time while a step enters.
    private var activeStates: [Int]?
    /// What waits in SCXML's internal queue.
    private enum InternalEvent: Equatable {
        /// An event an entry handler raised: a request made during a step.
        case raised(Int)
        /// A state's `done.state.ID`.
        case done(Int)
    }

    /// SCXML's internal queue: raised events and the states whose
    /// `done.state.ID` is pending, in the order they arose.
    private var internalQueue: [InternalEvent] = []
    /// The event that entering a state raises, by state.
    private var raisedOnEntry: [Int: Int] = [:]
    /// How many more events entry handlers may raise in this run: each
    /// raise spends one, and none is raised once it is zero.
    var raiseBudget = 0
    /// SCXML's `running`, the other way round: a final child of the root
    /// was entered.
    private(set) var isFinished = false
    /// The data model's counter: eventless and done microsteps taken since
    /// the last microstep for an event (or since `start()`).
    private(set) var internalStepsSinceLastEvent = 0

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

    /// Makes the compound or parallel state `state` keep history of `kind`,
    /// whose default, before anything is recorded, is `fallback` (any proper
    /// descendant), or the default entry of `state` when it is `nil`.
    mutating func addHistory(_ kind: HistoryKind, to state: Int, default fallback: Int? = nil) {
        precondition(!isAtomic(state) && state != Self.root, "only a compound or parallel state keeps history")
        precondition(
            fallback.map { isDescendant($0, of: state) } ?? true, "the default is not a descendant of \(state)")
        nodes[state]!.history = kind
        nodes[state]!.historyDefault = fallback
    }

    /// Makes the atomic state `state`, which is not a region, final: SCXML's
    /// `<final>`.
    mutating func addFinalState(_ state: Int) {
        declareTopLevelIfNew(state)
        precondition(isAtomic(state), "a final state has no children")
        precondition(!isParallel(nodes[state]!.parent!), "a region cannot be final")
        nodes[state]!.isFinal = true
    }

    /// Makes the entry handler of `state` raise `event` (SCXML's `<raise>`
    /// in `<onentry>`, a request made by the handler) each time `state` is
    /// entered, while ``raiseBudget`` lasts.
    mutating func addRaise(of event: Int, onEntryTo state: Int) {
        declareTopLevelIfNew(state)
        raisedOnEntry[state] = event
    }

    /// Adds `route` after every route added so far.
    mutating func addRoute(_ route: Route) {
        precondition(route.trigger != .done || !isAtomic(route.source), "only a compound or parallel state is done")
        if route.source != Self.root { declareTopLevelIfNew(route.source) }
        for target in route.targets { declareTopLevelIfNew(target) }
        precondition(haveLegalTargets(route), "the targets of \(describe(route)) are not in different regions")
        routes.append(route)
    }

    /// Whether every two targets of `route` lie in different regions of a
    /// parallel state: neither contains the other, and the nearest state
    /// containing both is parallel.
    private func haveLegalTargets(_ route: Route) -> Bool {
        let targets = route.targets
        return targets.indices.allSatisfy { index in
            targets[(index + 1)...].allSatisfy { other in
                let first = targets[index]
                guard first != other, !isDescendant(first, of: other), !isDescendant(other, of: first) else {
                    return false
                }
                let common = properAncestors(of: first).first { isDescendant(other, of: $0) }!
                return common != Self.root && isParallel(common)
            }
        }
    }

    private mutating func declareParent(_ parent: Int, of children: [Int], as kind: Kind) {
        declareTopLevelIfNew(parent)
        precondition(nodes[parent]!.kind == .atomic, "\(parent) already has children")
        precondition(!nodes[parent]!.isFinal, "\(parent) is final, so it has no children")
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
        deepestState(containingEveryAtomicStateOf: configuration)
    }

    private func deepestState(containingEveryAtomicStateOf configuration: [Int]) -> Int {
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

    /// Enters the initial configuration, then runs the macrostep that
    /// follows (SCXML's `interpret`, then `mainEventLoop` up to its first
    /// external event), and returns the handler calls.
    @discardableResult
    mutating func start() -> Macrostep {
        precondition(activeStates == nil, "start() must come before any step, once")
        let entrySet = initialEntrySet
        activeStates = []
        let calls = enterStates(entrySet)
        return completeMacrostep(after: calls)
    }

    /// Takes the microstep that `event` selects, then the eventless and done
    /// microsteps that follow, and returns the handler calls they make.
    ///
    /// The microstep is SCXML's `microstep`: exits in exit order, then the
    /// transition handler, then entries in document order. An event that
    /// selects no route, or that comes after the chart finished, calls the
    /// error handler only.
    @discardableResult
    mutating func fire(_ event: Int) -> Macrostep {
        guard !isFinished else { return Macrostep(calls: [.error(event: event, state: state)], outcome: .finished) }
        let selected = selectTransitions(for: .external(event))
        guard !selected.isEmpty else {
            return Macrostep(calls: [.error(event: event, state: state)], outcome: .refused)
        }
        internalStepsSinceLastEvent = 0
        return completeMacrostep(after: microstep(selected, event: event))
    }

    /// The rest of SCXML's `mainEventLoop` after a microstep: eventless
    /// transitions until none is enabled, then the next internal event
    /// (a raised event or a `done.state.ID`), and again, until both are
    /// exhausted; then, if a final child of the root was entered,
    /// `exitInterpreter`, and the raised events still queued are refused.
    ///
    /// The outcome is the first request's: a cut after a raised event was
    /// served belongs to that event's request, which the machine runs after
    /// the first one's step.
    private mutating func completeMacrostep(after calls: [Call]) -> Macrostep {
        var calls = calls
        var outcome = Outcome.moved
        var hasServedARaisedEvent = false
        // Whether eventless routes are tried: not after a cut, until the
        // next microstep.
        var triesEventless = true
        while !isFinished {
            var selected = triesEventless ? selectTransitions(for: nil) : []
            if selected.isEmpty {
                guard !internalQueue.isEmpty else { break }
                switch internalQueue.removeFirst() {
                case .done(let completed):
                    selected = selectTransitions(for: .done(completed))
                    if selected.isEmpty { continue }
                case .raised(let event):
                    hasServedARaisedEvent = true
                    selected = selectTransitions(for: .external(event))
                    guard !selected.isEmpty else {
                        calls.append(.error(event: event, state: state))
                        continue
                    }
                    internalStepsSinceLastEvent = 0
                    calls += microstep(selected, event: event)
                    triesEventless = true
                    continue
                }
            }
            guard internalStepsSinceLastEvent < Self.internalStepLimit else {
                internalQueue.removeAll { if case .done = $0 { true } else { false } }
                calls.append(.error(event: nil, state: state))
                if !hasServedARaisedEvent { outcome = .unsettled }
                triesEventless = false
                continue
            }
            calls += microstep(selected, event: nil)
            internalStepsSinceLastEvent += 1
            triesEventless = true
        }
        if isFinished {
            calls += inExitOrder(configuration).map(Call.exit)
            for case .raised(let event) in internalQueue {
                calls.append(.error(event: event, state: state))
            }
            internalQueue.removeAll()
        }
        return Macrostep(calls: calls, outcome: outcome)
    }

    /// SCXML's `microstep` for the routes `selected`: exits, the routes'
    /// actions (`executeTransitionContent`), the transition handler with the
    /// `state` before and after, then entries.
    private mutating func microstep(_ selected: [Int], event: Int?) -> [Call] {
        let stateBefore = state
        let statesToExit = inExitOrder(computeExitSet(selected))
        recordHistory(of: statesToExit)
        let statesToEnter = inDocumentOrder(computeEntrySet(selected))
        let statesStaying = configuration.filter { !statesToExit.contains($0) }
        let stateAfter = deepestState(containingEveryAtomicStateOf: inDocumentOrder(statesStaying + statesToEnter))
        activeStates = statesStaying
        // SCXML runs the contents in the order of `selected`: the order the
        // atomic states chose the routes.
        let actions = selected.compactMap { index in
            routes[index].action.map { Call.action($0, event: event, from: stateBefore, to: stateAfter) }
        }
        return statesToExit.map(Call.exit) + actions
            + [.transition(event: event, from: stateBefore, to: stateAfter)]
            + enterStates(statesToEnter)
    }

    /// SCXML's `enterStates` after `computeEntrySet`: each state joins the
    /// configuration in entry order, and its entry handler raises its event
    /// (while the budget lasts); entering a final state then completes its
    /// parent and, if the grandparent is parallel and every region of it is
    /// now in a final state, the grandparent too (one level only, as SCXML
    /// says); entering a final child of the root finishes the chart.
    private mutating func enterStates(_ statesToEnter: [Int]) -> [Call] {
        var calls: [Call] = []
        for state in statesToEnter {
            activeStates = inDocumentOrder(configuration + [state])
            calls.append(.entry(state))
            if let event = raisedOnEntry[state], raiseBudget > 0 {
                raiseBudget -= 1
                internalQueue.append(.raised(event))
            }
            guard nodes[state]!.isFinal else { continue }
            let parent = nodes[state]!.parent!
            if parent == Self.root {
                isFinished = true
                continue
            }
            internalQueue.append(.done(parent))
            let grandparent = nodes[parent]!.parent!
            if isParallel(grandparent) && nodes[grandparent]!.children.allSatisfy(isInFinalState) {
                internalQueue.append(.done(grandparent))
            }
        }
        return calls
    }

    /// SCXML's `isInFinalState`, on the configuration as it is so far.
    private func isInFinalState(_ state: Int) -> Bool {
        switch nodes[state]!.kind {
        case .compound: nodes[state]!.children.contains { nodes[$0]!.isFinal && isActive($0) }
        case .parallel: nodes[state]!.children.allSatisfy(isInFinalState)
        case .atomic: false
        }
    }

    // MARK: - Selecting routes

    /// What routes are selected for: an external event, or a state's
    /// `done.state.ID`; `nil` stands for no event (eventless routes).
    private enum Stimulus: Equatable {
        case external(Int)
        case done(Int)
    }

    /// SCXML's `selectTransitions` (`selectEventlessTransitions` for `nil`):
    /// the routes that fire, as indices into `routes`, in the order of the
    /// atomic states that selected them.
    private func selectTransitions(for stimulus: Stimulus?) -> [Int] {
        var enabled: [Int] = []
        for atomicState in configuration.filter(isAtomic) {
            let route = firstEnabledRouteOnTheWalk(from: atomicState, for: stimulus)
            if let route, !enabled.contains(route) { enabled.append(route) }
        }
        return removeConflictingTransitions(enabled)
    }

    /// The first enabled route on the walk from `atomicState` through its
    /// ancestors up to the root.
    private func firstEnabledRouteOnTheWalk(from atomicState: Int, for stimulus: Stimulus?) -> Int? {
        for state in [atomicState] + properAncestors(of: atomicState) {
            if let route = firstEnabledRoute(from: state, for: stimulus) { return route }
        }
        return nil
    }

    /// The first route from `state` for `stimulus` whose condition holds.
    /// For an event: routes for exactly the event first, then routes for any
    /// event, each in registration order. For `done.state.X`: the done routes
    /// of X, only when `state` is X. For no event: the eventless routes,
    /// with no fallback to routes for any event.
    private func firstEnabledRoute(from state: Int, for stimulus: Stimulus?) -> Int? {
        let fromState = routes.indices.filter { routes[$0].source == state }
        let candidates: [Int] =
            switch stimulus {
            case .external(let event):
                fromState.filter { routes[$0].trigger == .event(event) }
                    + fromState.filter { routes[$0].trigger == .anyEvent }
            case .done(let completed):
                completed == state ? fromState.filter { routes[$0].trigger == .done } : []
            case nil:
                fromState.filter { routes[$0].trigger == .eventless }
            }
        return candidates.first { holds(routes[$0].condition) }
    }

    /// Evaluates a condition against the data model and the configuration.
    private func holds(_ condition: Condition) -> Bool {
        guard condition.isAllowed else { return false }
        if let bound = condition.internalStepsBelow, internalStepsSinceLastEvent >= bound { return false }
        if let state = condition.whileActive, !isActive(state) { return false }
        return true
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

    /// SCXML's `getTransitionDomain`: the state whose active descendants a
    /// route exits, or `nil` for a targetless route. The effective targets
    /// are the targets themselves (a target that keeps history stands for
    /// its `<history>`, but the domain is the target's: see the type's notes).
    /// Only a compound source can be a local route's domain, and only when
    /// every target is inside it; a parallel source never is, as in SCXML.
    private func transitionDomain(of route: Route) -> Int? {
        let targets = route.targets
        guard !targets.isEmpty else { return nil }
        if route.isLocal && isCompound(route.source) && targets.allSatisfy({ isDescendant($0, of: route.source) }) {
            return route.source
        }
        return findLCCA(route.source, targets)
    }

    /// SCXML's `findLCCA([source] + targets)`: the nearest compound proper
    /// ancestor of `source` that is also an ancestor of every target; the
    /// root for a route from the root.
    private func findLCCA(_ source: Int, _ targets: [Int]) -> Int {
        guard source != Self.root else { return Self.root }
        return properAncestors(of: source).first { ancestor in
            isCompound(ancestor) && targets.allSatisfy { isDescendant($0, of: ancestor) }
        }!
    }

    /// Remembers, for every exiting state that keeps history, its active child
    /// (shallow; every region of a parallel state) or its active atomic
    /// descendants in every region (deep), before anything exits: SCXML's
    /// `exitStates` filling `historyValue`.
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

    /// SCXML's `computeEntrySet`: the states that the routes enter, in no
    /// particular order. For each route, every target with what entering
    /// it by default enters first, then the ancestors of each target below
    /// the domain: a parallel ancestor sees all the targets in its regions
    /// before it enters the regions no target names, by default.
    private func computeEntrySet(_ selected: [Int]) -> [Int] {
        var statesToEnter: [Int] = []
        for index in selected {
            let route = routes[index]
            guard let domain = transitionDomain(of: route) else { continue }
            for target in route.targets {
                addDescendantStatesToEnter(target, throughHistory: !route.ignoresHistory, to: &statesToEnter)
            }
            for target in route.targets {
                addAncestorStatesToEnter(target, below: domain, to: &statesToEnter)
            }
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

    /// SCXML's `addDescendantStatesToEnter`: adds `state` entered by default,
    /// and what entering it by default enters. Through its history, when it
    /// keeps one and `throughHistory`: the recorded states, else the
    /// history's default, as SCXML enters a history pseudo-state's
    /// `historyValue` or its default transition's targets (each with what
    /// entering it by default enters, then their ancestors below `state`).
    /// Otherwise a compound state's initial child; and then every region of
    /// a parallel state not already being entered.
    ///
    /// `throughHistory` concerns `state` only: the states entered inside it
    /// use their own history.
    private func addDescendantStatesToEnter(
        _ state: Int, throughHistory: Bool = true, to statesToEnter: inout [Int]
    ) {
        if !statesToEnter.contains(state) { statesToEnter.append(state) }
        let node = nodes[state]!
        let historyStates = throughHistory ? historyEntry(of: state) : nil
        if let historyStates {
            // Every descendant first, then the ancestors: a parallel ancestor
            // must see all the restored regions before it enters the others.
            for historyState in historyStates {
                addDescendantStatesToEnter(historyState, to: &statesToEnter)
            }
            for historyState in historyStates {
                addAncestorStatesToEnter(historyState, below: state, to: &statesToEnter)
            }
        }
        switch node.kind {
        case .atomic:
            break
        case .compound:
            if historyStates == nil {
                addDescendantStatesToEnter(node.initial!, to: &statesToEnter)
            }
        case .parallel:
            // The regions no recorded state or default lies in (SCXML's
            // `addAncestorStatesToEnter` on the parallel state does that for
            // a `<history>` child of it).
            addRegionsNotBeingEntered(of: state, to: &statesToEnter)
        }
    }

    /// What entering `state` through its history enters: the recorded
    /// states if something was recorded, else the history's default; `nil`
    /// when it keeps no history or it has neither (the default entry then).
    private func historyEntry(of state: Int) -> [Int]? {
        guard nodes[state]!.history != nil else { return nil }
        if let recorded = recordedHistory[state], !recorded.isEmpty { return recorded }
        return nodes[state]!.historyDefault.map { [$0] }
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
        if !raisedOnEntry.isEmpty { lines.append("raises left in the budget: \(raiseBudget)") }
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
        if let fallback = node.historyDefault { line += " (default \(fallback))" }
        if node.isFinal { line += " final" }
        if let event = raisedOnEntry[state] { line += ", entry raises e\(event)" }
        return line
    }

    private func describe(_ route: Route) -> String {
        let trigger =
            switch route.trigger {
            case .event(let event): "e\(event)"
            case .anyEvent: "any event"
            case .eventless: "eventless"
            case .done: "done"
            }
        let source = route.source == Self.root ? "any" : "\(route.source)"
        let target = route.target == nil ? "stay" : route.targets.map { "\($0)" }.joined(separator: " + ")
        let local = route.isLocal ? ", local" : ""
        let ignoringHistory = route.ignoresHistory ? ", ignoring history" : ""
        let action = route.action.map { ", action \($0)" } ?? ""
        return "\(trigger): \(source) => \(target)\(local)\(ignoringHistory)\(describe(route.condition))\(action)"
    }

    private func describe(_ condition: Condition) -> String {
        guard condition.isAllowed else { return ", refused" }
        var parts: [String] = []
        if let bound = condition.internalStepsBelow { parts.append("fewer than \(bound) internal steps") }
        if let state = condition.whileActive { parts.append("In(\(state))") }
        return parts.isEmpty ? "" : ", if " + parts.joined(separator: " and ")
    }
}
