import Switchyard

// Random statecharts for the SCXML round trip (see SCXMLRoundTripTests.swift),
// built with the public API: nested compound states, parallel regions,
// shallow and deep history with and without a default, final states and done
// routes, eventless routes, routes from `.any`, local routes, routes that
// ignore history or enter several targets, state routes to listed states,
// any-event routes, state routes, and route mappings listed move by move.

/// A state of a random chart: `s0`, `s1`, … Its type is `CaseIterable`, so
/// that the export can list the moves of a route mapping.
struct ChartState: StateType, CaseIterable, CustomStringConvertible {
    var id: Int

    static let allCases = (0..<RandomExportChart.maximumStateCount).map(ChartState.init)

    var description: String { "s\(id)" }
}

/// An event of a random chart: `e0`, `e1`, …
struct ChartEvent: EventType, CaseIterable, CustomStringConvertible {
    var id: Int

    static let allCases = (0..<RandomExportChart.eventCount).map(ChartEvent.init)

    var description: String { "e\(id)" }
}

/// A random statechart drawn from a seed, as plain data, and the machine
/// declared from it.
///
/// A chart takes one of three kinds of requests, because of what the export
/// cannot say yet:
/// - Events and state requests, and parallel states. Then the chart has no
///   any-event route and no event route to `.any`. D5 in issue 38: SCXML's
///   `event="*"` also hears the requests (`to.ID`) and the done events
///   (`done.state.ID`), which the machine's any-event routes never hear, and
///   a state request that takes an event route to `.any` goes to the state
///   it asks for, where the export's targetless `to.*` stays. (A state
///   request in a parallel state follows SCXML's conflict rule, as an
///   event does.)
/// - Events only, with final states inside other states and done routes,
///   and parallel states.
/// - Events only, with any-event routes (D5: then no final state inside
///   another, whose done event SCXML's `*` would hear), and parallel states.
/// Event routes to `.any` (which stay) are drawn when the chart takes events
/// only.
///
/// No chart has a state route to `.any` (D5: it is written as a targetless
/// `to.*`), a route out of a final state (which SCXML's `<final>` cannot
/// hold), a condition (the export writes placeholders), a route mapping that
/// is not listed, or a route from inside a compound state with history to
/// it that ignores the history (the export says in a comment that SCXML
/// cannot leave the state there).
///
/// Nor, for disagreements the round trip found, which the export does not
/// say yet:
/// - A route from listed sources (`[.a, .b] => .c`). The machine keeps it as
///   a route from `.any` that asks whether its `state` is listed: tried after
///   every route of the state and its ancestors, and never while a listed
///   state is only one of several active ones. The export writes it among
///   the routes of each listed state, in the order added, so that it is
///   taken first, and in a parallel region too.
/// - A route mapping's move from a state that is not top-level and atomic.
///   The machine asks mappings with its `state`, after every route, and takes
///   a move from the root, leaving every state; the export writes the move
///   among its source's transitions, before its ancestors' routes, with a
///   domain inside its top-level state, and for states that are never the
///   machine's `state` (those in a parallel region).
/// - A parallel state with deep history, or a history default, that can be
///   entered by default (as the initial state, a child or a region). The
///   machine enters it through its history, as it enters a compound state;
///   SCXML's `<parallel>` has no `<initial>` to say so, and enters every
///   region by default. At the top level, and not initial, it is entered
///   only by routes.
///
/// Eventless and done routes cannot enable one another (or themselves) in
/// a cycle: an SCXML interpreter would never settle, where the machine cuts
/// the macrostep at its limit.
struct RandomExportChart {
    static let maximumStateCount = 24
    static let maximumDepth = 3
    /// Routes use events 0 to `eventCount - 2`; the last one is heard only by
    /// any-event routes.
    static let eventCount = 4

    struct Parent {
        var state: Int
        var children: [Int]
        var isParallel: Bool
        var initial: Int?
        var history: HistoryKind?
        var historyDefault: Int?
    }

    /// One transition of a route; `nil` stands for `.any`.
    struct Arrow {
        var source: Int?
        var target: Int?
        var isLocal = false
        var ignoresHistory = false
        var otherTargets: [Int] = []
    }

    /// One declaration of a route, in the order the machine gets them.
    enum Declaration {
        /// `addRoutes(event:transitions:)`; a `nil` event is `.any`.
        case eventRoutes(event: Int?, arrows: [Arrow])
        /// `addRoute(_:)`.
        case stateRoute(Arrow)
        /// `addRoute(source => [targets])`; a `nil` source is `.any`.
        case stateRouteToListedTargets(source: Int?, targets: [Int])
        case eventlessRoute(Arrow)
        case doneRoute(Arrow)
        /// `addRouteMapping`, answering these moves: (event, source, target).
        case routeMapping([(event: Int, source: Int, target: Int)])
        /// `addStateRouteMapping`, answering `targets` from `source`.
        case stateRouteMapping(source: Int, targets: [Int])
    }

    let seed: UInt64
    /// Whether state requests are made too (see the type's notes).
    private(set) var takesStateRequests: Bool
    /// Whether any-event routes are drawn (see the type's notes).
    private(set) var hasAnyEventRoutes: Bool
    private(set) var parents: [Parent] = []
    private(set) var topLevel: [Int] = []
    /// Every state, in document order.
    private(set) var states: [Int] = []
    private(set) var initialState = 0
    private(set) var finalStates: [Int] = []
    private(set) var declarations: [Declaration] = []
    private var random: SplitMix64
    private var unusedIDs = Array(0..<maximumStateCount)

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
        let takesStateRequests = random.chance(percent: 50)
        self.takesStateRequests = takesStateRequests
        hasAnyEventRoutes = random.chance(percent: 50) && !takesStateRequests
        random.shuffle(&unusedIDs)
        topLevel = (0..<random.int(in: 2...4)).map { _ in unusedIDs.removeLast() }
        for state in topLevel {
            grow(state, depth: 1)
        }
        initialState = random.element(of: topLevel)
        addHistories()
        addFinalStates()
        for _ in 0..<(states.count + random.int(in: 0...states.count)) {
            addRandomRoute()
        }
        addCompletionRoutes()
        addRouteMappings()
    }

    // MARK: The tree

    private mutating func grow(_ state: Int, depth: Int) {
        states.append(state)
        guard depth < Self.maximumDepth, unusedIDs.count >= 3 else { return }
        // Most top-level states have children, so that most requests find
        // several states active.
        let roll = random.int(in: 0...99)
        guard roll < (depth == 1 ? 80 : 55) else { return }
        let isParallel = roll < 20
        let children = (0..<random.int(in: 2...3)).map { _ in unusedIDs.removeLast() }
        let initial = isParallel || random.chance(percent: 50) ? nil : random.element(of: children)
        parents.append(
            Parent(state: state, children: children, isParallel: isParallel, initial: initial, history: nil))
        for child in children {
            grow(child, depth: depth + 1)
        }
    }

    /// Shallow or deep history for about a third of the states with
    /// children, with a default now and then: any proper descendant. A
    /// parallel state keeps deep history, or has a default, only at the top
    /// level and not as the initial state (see the type's notes).
    private mutating func addHistories() {
        for index in parents.indices where random.chance(percent: 35) {
            let parent = parents[index]
            let mayEnterByDefault =
                parent.isParallel && (!topLevel.contains(parent.state) || parent.state == initialState)
            parents[index].history = !mayEnterByDefault && random.chance(percent: 50) ? .deep : .shallow
            if !mayEnterByDefault, random.chance(percent: 40) {
                parents[index].historyDefault = random.element(of: descendants(of: parent.state))
            }
        }
    }

    /// An atomic child of about half the compound states (none when any-event
    /// routes are drawn: see the type's notes), and now and then a
    /// top-level state other than the initial one, which finishes the machine.
    private mutating func addFinalStates() {
        if !hasAnyEventRoutes {
            for parent in parents where !parent.isParallel && random.chance(percent: 50) {
                let atomicChildren = parent.children.filter(isAtomic)
                if !atomicChildren.isEmpty { finalStates.append(random.element(of: atomicChildren)) }
            }
        }
        let topLevelCandidates = topLevel.filter { isAtomic($0) && $0 != initialState }
        if !topLevelCandidates.isEmpty, random.chance(percent: 15) {
            finalStates.append(random.element(of: topLevelCandidates))
        }
    }

    // MARK: The routes

    private mutating func addRandomRoute() {
        let roll = random.int(in: 0...99)
        switch roll {
        case 0...54:
            let arrows = (0..<(random.chance(percent: 25) ? 2 : 1)).map { _ in randomArrow(forEvent: true) }
            declarations.append(.eventRoutes(event: randomEvent(), arrows: arrows))
        case 55...84:
            declarations.append(.stateRoute(randomArrow(forEvent: false)))
        default:
            let source = random.chance(percent: 10) ? nil : randomSource()
            let targets = Array(Set((0..<random.int(in: 2...3)).map { _ in random.element(of: states) })).sorted()
            declarations.append(.stateRouteToListedTargets(source: source, targets: targets))
        }
    }

    /// An event routes use; with events only, now and then `.any` (`nil`).
    private mutating func randomEvent() -> Int? {
        if hasAnyEventRoutes && random.chance(percent: 25) { return nil }
        return random.int(in: 0...(Self.eventCount - 2))
    }

    /// A state that is not final, or (with `mayBeAny`) now and then `.any`.
    private mutating func randomSource(mayBeAny: Bool = false) -> Int? {
        if mayBeAny && random.chance(percent: 8) { return nil }
        return random.element(of: states.filter { !finalStates.contains($0) })
    }

    /// A route's arrow, with targets biased towards where the rules differ:
    /// the source itself and its descendants (self, local and external
    /// routes), its siblings, and states that keep history. An event's
    /// arrow may lead to `.any` (it stays) when the chart takes events only.
    private mutating func randomArrow(forEvent: Bool) -> Arrow {
        let source = randomSource(mayBeAny: true)
        if forEvent && !takesStateRequests && random.chance(percent: 10) {
            return Arrow(source: source, target: nil)
        }
        let target: Int
        if let source {
            let descendants = descendants(of: source)
            let siblings = siblings(of: source)
            let withHistory = parents.filter { $0.history != nil }.map(\.state)
            target =
                switch random.int(in: 0...19) {
                case 0...1: source
                case 2...5 where !descendants.isEmpty: random.element(of: descendants)
                case 6...8 where !siblings.isEmpty: random.element(of: siblings)
                case 9...11 where !withHistory.isEmpty: random.element(of: withHistory)
                default: random.element(of: states)
                }
        } else {
            target = random.element(of: states)
        }
        var arrow = Arrow(source: source, target: target, isLocal: random.chance(percent: 25))
        // Not from inside a compound state with history to it: the export
        // says in a comment that SCXML cannot leave the state there.
        let isFromInside = source.map { $0 != target && isWithin($0, target) } ?? false
        if hasHistory(target), !(isCompound(target) && isFromInside), random.chance(percent: 30) {
            arrow.ignoresHistory = true
        }
        if forEvent, random.chance(percent: 15) {
            arrow.otherTargets = otherTargets(besides: target)
        }
        return arrow
    }

    /// States in other regions of the nearest parallel state `target` lies
    /// in, one for some of them; none if it lies in none.
    private mutating func otherTargets(besides target: Int) -> [Int] {
        guard
            let parallel = properAncestors(of: target).first(where: { ancestor in
                parents.contains { $0.state == ancestor && $0.isParallel }
            }),
            let regions = parents.first(where: { $0.state == parallel })?.children
        else { return [] }
        var others: [Int] = []
        for region in regions where !isWithin(target, region) && random.chance(percent: 60) {
            others.append(random.element(of: [region] + descendants(of: region)))
        }
        return others
    }

    // MARK: Completion

    /// Done routes from most states that can be done, and a few eventless
    /// routes, each kept only if it cannot take part in a cycle of them.
    private mutating func addCompletionRoutes() {
        var kept: [(arrow: Arrow, isDone: Bool)] = []
        func keep(_ arrow: Arrow, isDone: Bool) -> Bool {
            let candidate = (arrow: arrow, isDone: isDone)
            guard !leadsBack(to: candidate, from: candidate, through: kept, visited: []) else { return false }
            kept.append(candidate)
            return true
        }
        for parent in parents where canBeDone(parent) && random.chance(percent: 70) {
            var arrow = Arrow(source: parent.state, target: randomCompletionTarget(from: parent.state))
            arrow.isLocal = random.chance(percent: 20)
            if keep(arrow, isDone: true) { declarations.append(.doneRoute(arrow)) }
        }
        for _ in 0..<random.int(in: 0...3) {
            // An eventless route that stays in its source would be taken
            // again at once: its target lies outside.
            let source = randomSource()!
            guard let target = randomCompletionTarget(from: source), !isWithin(target, source) else { continue }
            let arrow = Arrow(source: source, target: target, isLocal: random.chance(percent: 20))
            if keep(arrow, isDone: false) { declarations.append(.eventlessRoute(arrow)) }
        }
    }

    /// A compound state with a final child, or a parallel state whose
    /// regions all have one.
    private func canBeDone(_ parent: Parent) -> Bool {
        guard parent.isParallel else { return parent.children.contains(where: finalStates.contains) }
        return parent.children.allSatisfy { region in
            parents.first { $0.state == region }.map { !$0.isParallel && canBeDone($0) } ?? false
        }
    }

    /// A stay now and then, else a descendant, a sibling or any state.
    private mutating func randomCompletionTarget(from source: Int) -> Int? {
        let descendants = descendants(of: source)
        let siblings = siblings(of: source)
        return switch random.int(in: 0...9) {
        case 0...1: nil
        case 2...3 where !descendants.isEmpty: random.element(of: descendants)
        case 4...6 where !siblings.isEmpty: random.element(of: siblings)
        default: random.element(of: states)
        }
    }

    /// Whether taking `route` may, through routes of `others`, enable `start` again.
    private func leadsBack(
        to start: (arrow: Arrow, isDone: Bool), from route: (arrow: Arrow, isDone: Bool),
        through others: [(arrow: Arrow, isDone: Bool)], visited: [Int]
    ) -> Bool {
        if mayEnable(route.arrow, start) { return true }
        for (index, next) in others.enumerated() where !visited.contains(index) && mayEnable(route.arrow, next) {
            if leadsBack(to: start, from: next, through: others, visited: visited + [index]) { return true }
        }
        return false
    }

    /// Whether taking `first` may enable `second`, over-approximated: every
    /// state `first` enters lies within the outermost one it enters (the
    /// regions a parallel ancestor enters by default too), so it may activate
    /// an eventless route's source within it, and complete a done route's
    /// source within it or above it. A targetless route enters nothing.
    private func mayEnable(_ first: Arrow, _ second: (arrow: Arrow, isDone: Bool)) -> Bool {
        guard let entered = outermostStateEntered(by: first), let source = second.arrow.source else { return false }
        return isWithin(source, entered) || (second.isDone && isWithin(entered, source))
    }

    /// The child of the arrow's domain on the way to its target; `nil` for a
    /// stay. (The domain of a local arrow into its compound source is the
    /// source; else the nearest compound proper ancestor of the source that
    /// holds the target; `nil` stands for the root.)
    private func outermostStateEntered(by arrow: Arrow) -> Int? {
        guard let target = arrow.target, let source = arrow.source else { return nil }
        var domain: Int?
        if arrow.isLocal, isCompound(source), target != source, isWithin(target, source) {
            domain = source
        } else {
            domain = properAncestors(of: source).first { isCompound($0) && $0 != target && isWithin(target, $0) }
        }
        return ([target] + properAncestors(of: target)).first { parent(of: $0) == domain }
    }

    // MARK: Route mappings

    /// Now and then a route mapping of events, or of state requests, whose
    /// moves start in top-level atomic states (see the type's notes).
    private mutating func addRouteMappings() {
        let sources = topLevel.filter { isAtomic($0) && !finalStates.contains($0) }
        guard !sources.isEmpty else { return }
        if random.chance(percent: 20) {
            let moves = (0..<random.int(in: 1...3)).map { _ in
                (
                    event: random.int(in: 0...(Self.eventCount - 2)), source: random.element(of: sources),
                    target: random.element(of: states)
                )
            }
            declarations.append(.routeMapping(moves))
        }
        if takesStateRequests, random.chance(percent: 15) {
            let targets = Array(Set((0..<random.int(in: 1...2)).map { _ in random.element(of: states) })).sorted()
            declarations.append(.stateRouteMapping(source: random.element(of: sources), targets: targets))
        }
    }

    // MARK: The tree, read

    private func parent(of state: Int) -> Int? {
        parents.first { $0.children.contains(state) }?.state
    }

    private func properAncestors(of state: Int) -> [Int] {
        var ancestors: [Int] = []
        var current = parent(of: state)
        while let next = current {
            ancestors.append(next)
            current = parent(of: next)
        }
        return ancestors
    }

    /// Whether `state` is `ancestor` or one of its descendants.
    private func isWithin(_ state: Int, _ ancestor: Int) -> Bool {
        state == ancestor || properAncestors(of: state).contains(ancestor)
    }

    private func descendants(of state: Int) -> [Int] {
        states.filter { $0 != state && isWithin($0, state) }
    }

    private func siblings(of state: Int) -> [Int] {
        let parent = parent(of: state)
        return (parent.flatMap { parent in parents.first { $0.state == parent }?.children } ?? topLevel)
            .filter { $0 != state }
    }

    private func isAtomic(_ state: Int) -> Bool {
        !parents.contains { $0.state == state }
    }

    private func isCompound(_ state: Int) -> Bool {
        parents.contains { $0.state == state && !$0.isParallel }
    }

    private func hasHistory(_ state: Int) -> Bool {
        parents.contains { $0.state == state && $0.history != nil }
    }
}

// MARK: - The machine

extension RandomExportChart {
    /// The machine, with an entry handler that makes it a statechart even
    /// when it has no children, so that its inspections list its exits and
    /// entries; and its requests.
    func subject() -> RoundTripSubject {
        let machine = makeMachine()
        let requestedStates = takesStateRequests ? states.map(ChartState.init) : []
        return RoundTripSubject(
            "random chart", machine, events: ChartEvent.allCases, states: requestedStates, listing: listing)
    }

    func makeMachine() -> Machine<ChartState, ChartEvent> {
        Machine(state: ChartState(id: initialState)) { machine in
            for parent in parents {
                let children = parent.children.map(ChartState.init)
                if parent.isParallel {
                    machine.addRegions(children, to: ChartState(id: parent.state))
                } else {
                    machine.addChildren(
                        children, to: ChartState(id: parent.state), initial: parent.initial.map(ChartState.init))
                }
            }
            for parent in parents {
                if let history = parent.history {
                    machine.addHistory(
                        history, to: ChartState(id: parent.state), default: parent.historyDefault.map(ChartState.init))
                }
            }
            for state in finalStates {
                machine.addFinalState(ChartState(id: state))
            }
            machine.addEntryHandler(ChartState(id: initialState)) { _ in }
            for declaration in declarations {
                declare(declaration, on: machine)
            }
        }
    }

    private func declare(_ declaration: Declaration, on machine: Machine<ChartState, ChartEvent>) {
        func state(_ id: Int?) -> State<ChartState> { id.map { .some(ChartState(id: $0)) } ?? .any }
        func event(_ id: Int?) -> Event<ChartEvent> { id.map { .some(ChartEvent(id: $0)) } ?? .any }
        func transition(_ arrow: Arrow) -> Transition<ChartState> {
            var transition = Transition(fromState: state(arrow.source), toState: state(arrow.target))
            for other in arrow.otherTargets {
                transition = transition.alsoEntering(ChartState(id: other))
            }
            if arrow.isLocal { transition = .local(transition) }
            if arrow.ignoresHistory { transition = .ignoringHistory(transition) }
            return transition
        }
        switch declaration {
        case .eventRoutes(let id, let arrows):
            machine.addRoutes(event: event(id), transitions: arrows.map(transition))
        case .stateRoute(let arrow):
            machine.addRoute(transition(arrow))
        case .stateRouteToListedTargets(let source, let targets):
            machine.addRoute(state(source) => targets.map(ChartState.init))
        case .eventlessRoute(let arrow):
            machine.addEventlessRoute(transition(arrow))
        case .doneRoute(let arrow):
            machine.addDoneRoute(transition(arrow))
        case .routeMapping(let moves):
            machine.addRouteMapping { event, state, _ in
                moves.first { $0.event == event?.id && $0.source == state.id }.map { ChartState(id: $0.target) }
            }
        case .stateRouteMapping(let source, let targets):
            machine.addStateRouteMapping { state, _ in state.id == source ? targets.map(ChartState.init) : nil }
        }
    }

    /// The chart as the calls that declare it, to read beside a failure.
    var listing: String {
        func name(_ id: Int?) -> String { id.map { ".s\($0)" } ?? ".any" }
        func names(_ ids: [Int]) -> String { "[" + ids.map { name($0) }.joined(separator: ", ") + "]" }
        func event(_ id: Int?) -> String { id.map { ".e\($0)" } ?? ".any" }
        func transition(_ arrow: Arrow) -> String {
            var text = "\(name(arrow.source)) => \(name(arrow.target))"
            if !arrow.otherTargets.isEmpty {
                text = "(\(text)).alsoEntering(\(arrow.otherTargets.map { name($0) }.joined(separator: ", ")))"
            }
            if arrow.isLocal { text = ".local(\(text))" }
            if arrow.ignoresHistory { text = ".ignoringHistory(\(text))" }
            return text
        }
        var lines = ["Machine(state: \(name(initialState)))"]
        for parent in parents {
            let children = names(parent.children)
            if parent.isParallel {
                lines.append("addRegions(\(children), to: \(name(parent.state)))")
            } else {
                let initial = parent.initial.map { ", initial: \(name($0))" } ?? ""
                lines.append("addChildren(\(children), to: \(name(parent.state))\(initial))")
            }
        }
        for parent in parents {
            if let history = parent.history {
                let fallback = parent.historyDefault.map { ", default: \(name($0))" } ?? ""
                lines.append(
                    "addHistory(.\(history == .deep ? "deep" : "shallow"), to: \(name(parent.state))\(fallback))")
            }
        }
        for state in finalStates {
            lines.append("addFinalState(\(name(state)))")
        }
        for declaration in declarations {
            switch declaration {
            case .eventRoutes(let id, let arrows):
                lines.append(
                    "addRoutes(event: \(event(id)), transitions: [\(arrows.map(transition).joined(separator: ", "))])")
            case .stateRoute(let arrow):
                lines.append("addRoute(\(transition(arrow)))")
            case .stateRouteToListedTargets(let source, let targets):
                lines.append("addRoute(\(name(source)) => \(names(targets)))")
            case .eventlessRoute(let arrow):
                lines.append("addEventlessRoute(\(transition(arrow)))")
            case .doneRoute(let arrow):
                lines.append("addDoneRoute(\(transition(arrow)))")
            case .routeMapping(let moves):
                let cases = moves.map { "(\(event($0.event)), \(name($0.source))) → \(name($0.target))" }
                lines.append("addRouteMapping { \(cases.joined(separator: "; ")) }")
            case .stateRouteMapping(let source, let targets):
                lines.append("addStateRouteMapping { \(name(source)) → \(names(targets)) }")
            }
        }
        return lines.joined(separator: "\n")
    }
}
