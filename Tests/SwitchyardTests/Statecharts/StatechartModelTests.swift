import Foundation
import Switchyard
import Testing

// Model-based tests of statecharts. Each chart is declared twice: on a
// Switchyard `Machine` through its public API, and on `ReferenceStatechart`,
// an interpreter written separately from the SCXML algorithm. Both are started
// and driven by the same events; after every event the active states, `state`,
// whether the machine finished, how the request ended, and the handler calls
// of its whole macrostep (exits, route actions, transition handler, entries,
// error handler, for the event's step and for the eventless and done steps
// that follow it, and the exits of finishing) must agree. A failure names its seed or chart,
// its step, the events that led there and the chart itself.
//
// The charts are random, drawn from fixed seeds, plus a few written by hand for
// the rules random charts seldom reach (a parallel state done, completion only
// one level up, finishing, the limit of internal steps) and one for each of
// several targets, actions and complete history, whose expected logs were
// checked by hand.
//
// In about one chart in four, entry handlers of a few states make requests
// (`machine <-! event`, SCXML's `<raise>` in `<onentry>`) while a budget
// for the run lasts: they wait in one queue with the completions, in the
// order they arose (SPEC 3.2, "The internal queue"), and a refused one
// shows as the error handler's call in the macrostep's log.
//
// Replay one seed, printing every step:
//     SWITCHYARD_MODEL_SEED=17 swift test --filter StatechartModelTests
// Try many more seeds than the fixed ones (a few dozen a second in a debug build):
//     SWITCHYARD_MODEL_SEEDS=5000 swift test --filter StatechartModelTests

private typealias Call = ReferenceStatechart.Call
private typealias Outcome = ReferenceStatechart.Outcome

/// A state of a model chart.
struct ModelNode: StateType, CustomStringConvertible {
    var id: Int
    var description: String { "\(id)" }
}

/// An event of a model chart.
struct ModelEvent: EventType, CustomStringConvertible {
    var id: Int
    var description: String { "e\(id)" }
}

private typealias Node = ModelNode
private typealias Ev = ModelEvent

/// The random chart the model tests draw from `seed`, declared on a new
/// machine as they declare it, its handlers writing to `log`; with the chart's
/// states and the events the model tests send it. For tests that compare two
/// machines rather than a machine and the reference (`MemoDifferentialTests`).
func makeModelChart(seed: UInt64, loggingTo log: Log) -> (
    machine: Machine<ModelNode, ModelEvent>, states: [Int], events: [Int]
) {
    let blueprint = Blueprint(seed: seed)
    let states = blueprint.makeReference().states
    let machine = blueprint.makeMachine(loggingTo: log, states: states, raising: RaiseBudget())
    return (machine, states, blueprint.events)
}

@Suite struct StatechartModelTests {
    /// The seeds every run checks.
    static let fixedSeeds: [UInt64] = Array(1...48)

    @Test(arguments: fixedSeeds)
    func machineAgreesWithTheReferenceOnARandomChart(seed: UInt64) {
        ModelCheck(blueprint: Blueprint(seed: seed), name: "seed \(seed)").run()
    }

    @Test(arguments: HandWrittenChart.all)
    func machineAgreesWithTheReferenceOnAHandWrittenChart(chart: HandWrittenChart) {
        ModelCheck(blueprint: chart.blueprint, name: "chart \"\(chart.name)\"").run()
    }

    /// A history and its default hold whatever the order of declarations
    /// and reads (SPEC 3.2): the same charts, with every history declared
    /// last, after a read of the configuration.
    @Test(arguments: fixedSeeds)
    func machineAgreesWithTheReferenceWhenHistoryIsDeclaredLast(seed: UInt64) {
        ModelCheck(blueprint: Blueprint(seed: seed), name: "seed \(seed), history last", declaresHistoryLast: true)
            .run()
    }

    @Test(.enabled(if: seedFromEnvironment != nil, "set SWITCHYARD_MODEL_SEED to replay one seed"))
    func machineAgreesWithTheReferenceForTheSeedInTheEnvironment() throws {
        let seed = try #require(seedFromEnvironment)
        ModelCheck(blueprint: Blueprint(seed: seed), name: "seed \(seed)", printsSteps: true).run()
    }

    @Test(.enabled(if: seedCountFromEnvironment != nil, "set SWITCHYARD_MODEL_SEEDS to try many seeds"))
    func machineAgreesWithTheReferenceForManySeeds() throws {
        let count = try #require(seedCountFromEnvironment)
        for seed in 1_000..<(1_000 + count) {
            ModelCheck(blueprint: Blueprint(seed: seed), name: "seed \(seed)").run()
        }
    }
}

private let seedFromEnvironment = environmentNumber("SWITCHYARD_MODEL_SEED")
private let seedCountFromEnvironment = environmentNumber("SWITCHYARD_MODEL_SEEDS")

private func environmentNumber(_ name: String) -> UInt64? {
    ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
}

// MARK: - Checking one chart

/// Declares one blueprint on both sides, drives both with its events, and
/// records an issue at the first moment they disagree (later steps would only
/// repeat it).
private struct ModelCheck {
    let blueprint: Blueprint
    /// The seed or chart, as failure messages name it.
    let name: String
    var printsSteps = false
    /// Whether the machine declares its histories after everything else
    /// and a read of its configuration, rather than right after its tree.
    var declaresHistoryLast = false

    func run() {
        var reference = blueprint.makeReference()
        let log = Log()
        let machine = blueprint.makeMachine(
            loggingTo: log, states: reference.states, declaringHistoryLast: declaresHistoryLast,
            raising: RaiseBudget())
        let states = reference.states
        trace("\(name)\n\(reference)")

        guard
            expect(
                Observation(machine, log: log, states: states), equals: Observation(reference),
                at: "before start()", chart: reference)
        else { return }

        var expectedStart = reference.start()
        let started = machine.start()
        trace("start: \(expectedStart.calls)")
        // `start()` answers whether it started; a start whose macrostep was
        // cut shows in the error handler's call.
        expectedStart.outcome = .moved
        guard
            expect(
                Observation(machine, log: log, states: states, outcome: started ? .moved : .refused),
                equals: Observation(reference, step: expectedStart), at: "start()", chart: reference)
        else { return }

        for (index, event) in blueprint.events.enumerated() {
            log.clear()
            let expected = reference.fire(event)
            let result = machine.attemptEvent(Ev(id: event))
            trace("e\(event): \(expected.outcome) \(expected.calls)")
            let moment = "step \(index + 1), events \(blueprint.events[...index].map { "e\($0)" })"
            guard
                expect(
                    Observation(machine, log: log, states: states, outcome: Outcome(result)),
                    equals: Observation(reference, step: expected), at: moment, chart: reference)
            else { return }
        }
    }

    /// Records an issue naming the chart and `moment` when `observed` is not
    /// `expected`, and returns whether they agree.
    private func expect(
        _ observed: Observation, equals expected: Observation, at moment: String, chart: ReferenceStatechart
    ) -> Bool {
        let differences = observed.differences(from: expected)
        #expect(
            differences.isEmpty,
            "\(name), \(moment):\n\(differences.joined(separator: "\n"))\nchart:\n\(chart)")
        return differences.isEmpty
    }

    private func trace(_ line: @autoclosure () -> String) {
        if printsSteps { print(line()) }
    }
}

extension ReferenceStatechart.Outcome {
    /// How `attemptEvent` ended, in the reference's words.
    fileprivate init(_ result: Result<Node, TransitionError>) {
        self =
            switch result.failureReason {
            case nil: .moved
            case .finished?: .finished
            case .unsettled?: .unsettled
            default: .refused
            }
    }
}

/// What one side shows after a request.
private struct Observation {
    /// How the request ended: `attemptEvent`'s or `start()`'s answer.
    var outcome: Outcome
    /// The handler calls of the macrostep, in order.
    var calls: [String]
    var configuration: [Int]
    var state: Int
    /// The states `isActive` answers true for, in document order.
    var activeStates: [Int]
    var isFinished: Bool

    init(_ reference: ReferenceStatechart, step: ReferenceStatechart.Macrostep = .init(calls: [], outcome: .moved)) {
        outcome = step.outcome
        calls = step.calls.map(\.description)
        configuration = reference.configuration
        state = reference.state
        activeStates = reference.states.filter(reference.isActive)
        isFinished = reference.isFinished
    }

    init(_ machine: Machine<Node, Ev>, log: Log, states: [Int], outcome: Outcome = .moved) {
        self.outcome = outcome
        calls = log.lines
        configuration = machine.configuration.map(\.id)
        state = machine.state.id
        activeStates = states.filter { machine.isActive(Node(id: $0)) }
        isFinished = machine.isFinished
    }

    /// One line for each property that differs from `expected`.
    func differences(from expected: Self) -> [String] {
        var lines: [String] = []
        func compare<Value: Equatable>(_ name: String, _ observed: Value, _ expected: Value) {
            if observed != expected { lines.append("\(name): machine \(observed), reference \(expected)") }
        }
        compare("outcome", outcome, expected.outcome)
        compare("calls", calls, expected.calls)
        compare("configuration", configuration, expected.configuration)
        compare("state", state, expected.state)
        compare("isActive", activeStates, expected.activeStates)
        compare("isFinished", isFinished, expected.isFinished)
        return lines
    }
}

// MARK: - Blueprints

/// A chart and the events to drive it with, as plain data that both sides
/// are declared from.
private struct Blueprint: Sendable {
    /// One `addChildren` or `addRegions` call, and the history of the parent.
    struct Parent: Sendable {
        var state: Int
        var children: [Int]
        var isParallel = false
        /// The `initial:` argument, or `nil` to leave it out.
        var initial: Int?
        var history: ReferenceStatechart.HistoryKind?
        /// The history's `default:` argument, or `nil` to leave it out.
        var historyDefault: Int?

        static func compound(
            _ state: Int, _ children: [Int], initial: Int? = nil, history: ReferenceStatechart.HistoryKind? = nil,
            historyDefault: Int? = nil
        ) -> Self {
            Parent(state: state, children: children, initial: initial, history: history, historyDefault: historyDefault)
        }

        static func parallel(
            _ state: Int, _ regions: [Int], history: ReferenceStatechart.HistoryKind? = nil, historyDefault: Int? = nil
        ) -> Self {
            Parent(state: state, children: regions, isParallel: true, history: history, historyDefault: historyDefault)
        }
    }

    /// One transition of an `addRoutes` call; `nil` stands for `.any`.
    struct Arrow: Sendable {
        var source: Int?
        var target: Int?
        var isLocal = false
        /// The `alsoEntering` arguments: targets in other regions.
        var otherTargets: [Int] = []
        /// Whether the transition is wrapped in `.ignoringHistory`.
        var ignoresHistory = false
    }

    /// What a route's condition answers.
    enum Guard: Equatable, Sendable {
        /// No condition.
        case none
        /// A condition that always allows.
        case allows
        /// A condition that always refuses.
        case refuses
        /// Allows while fewer than `bound` eventless and done steps were taken
        /// since the last step for an event, and `whileActive` (if any) is
        /// active. Such routes settle, whatever cycle they make.
        case internalStepsBelow(Int, whileActive: Int? = nil)
    }

    /// One `addRoutes` call, or, with an action, one `addRoute(event:_:condition:action:)`.
    struct RouteGroup: Sendable {
        /// The event, or `nil` for `.any`.
        var event: Int?
        /// One arrow when there is an action.
        var arrows: [Arrow]
        var condition = Guard.none
        /// The label the route's action logs, or `nil` for no action.
        var action: Int?

        static func route(
            _ event: Int?, _ arrow: Arrow, condition: Guard = .none, action: Int? = nil
        ) -> Self {
            RouteGroup(event: event, arrows: [arrow], condition: condition, action: action)
        }

        static func route(
            _ event: Int?, _ source: Int?, _ target: Int?, isLocal: Bool = false, condition: Guard = .none
        ) -> Self {
            route(event, Arrow(source: source, target: target, isLocal: isLocal), condition: condition)
        }
    }

    /// One `addDoneRoute` or `addEventlessRoute` call.
    struct InternalRoute: Sendable {
        var arrow: Arrow
        var condition = Guard.none
        /// The label the route's action logs, or `nil` for no action.
        var action: Int?

        static func route(
            _ source: Int?, _ target: Int?, isLocal: Bool = false, condition: Guard = .none
        ) -> Self {
            InternalRoute(arrow: Arrow(source: source, target: target, isLocal: isLocal), condition: condition)
        }
    }

    /// A top-level state, entered by `Machine(state:)`.
    var initialState: Int
    /// In declaration order, each parent before its descendants.
    var parents: [Parent]
    var routeGroups: [RouteGroup]
    var events: [Int]
    /// Atomic states that are not regions, declared after the parents.
    var finalStates: [Int] = []
    /// Done routes, in registration order; their sources have children.
    var doneRoutes: [InternalRoute] = []
    /// Eventless routes, in registration order.
    var eventlessRoutes: [InternalRoute] = []
    /// States whose entry handler makes a request, and its event.
    var raisingEntries: [RaisingEntry] = []

    /// An entry handler that makes a request: `machine <-! Ev(id: event)`
    /// when `state` is entered, while the run's budget lasts.
    struct RaisingEntry: Sendable {
        var state: Int
        var event: Int
    }

    /// How many requests the raising entry handlers of one run make in all:
    /// a raise that enters its own state again cannot go on forever.
    static let raiseBudget = 20
}

// MARK: - Random blueprints

extension Blueprint {
    /// A random chart and events drawn from `seed`.
    init(seed: UInt64) {
        var generator = RandomChartGenerator(seed: seed)
        self = generator.blueprint()
        generator.addCompletion(to: &self)
        generator.addTargetsActionsAndHistory(to: &self)
        generator.addRaisingEntries(to: &self)
    }
}

/// Draws random charts: depth at most 4; compound states with 2–4 children,
/// parallel states with 2–3 regions; some compounds keep shallow or deep
/// history; routes of every kind the contract names; in about two charts in
/// three, final states, done routes and eventless routes; in about three
/// charts in four, routes with several targets, routes that ignore history,
/// actions, history defaults and parallel states that keep history.
///
/// States take their ids from a shuffled pool, so that id order never stands
/// in for declaration order. The completion features are drawn from a stream
/// of their own, after the rest, and the targets, actions and complete
/// history from a third stream after those: a seed's tree, event routes and
/// events are the ones it drew before those features existed, and its
/// completion features the ones it drew before targets, actions and history
/// defaults existed. Raising entry handlers come from a fourth stream, for
/// the same reason.
private struct RandomChartGenerator {
    static let maximumDepth = 4
    static let maximumStateCount = 40
    /// Routes use events 0 to `eventCount - 2`; the last event is heard only
    /// by routes for any event.
    static let eventCount = 5
    static let stepCount = 50

    private var random: SplitMix64
    private var completionRandom: SplitMix64
    private var featureRandom: SplitMix64
    private var raiseRandom: SplitMix64
    /// The last label given to an action.
    private var lastAction = 0
    private var unusedIDs = Array(0..<(maximumStateCount + 8))
    private var topLevelStates: [Int] = []
    private var parents: [Blueprint.Parent] = []
    /// Every state, in document order.
    private var states: [Int] = []

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        completionRandom = SplitMix64(seed: ~seed)
        featureRandom = SplitMix64(seed: seed ^ 0x5EED_7A26_E75A_C710)
        raiseRandom = SplitMix64(seed: seed ^ 0x7A15_E0F0_E472_0003)
        random.shuffle(&unusedIDs)
    }

    mutating func blueprint() -> Blueprint {
        for _ in 0..<random.int(in: 2...4) {
            let state = newState()
            topLevelStates.append(state)
            grow(state, depth: 1)
        }
        let initialState = random.element(of: topLevelStates)
        let routeGroups = (0..<(states.count + random.int(in: 0...states.count))).map { _ in randomRouteGroup() }
        let events = (0..<Self.stepCount).map { _ in random.int(in: 0...(Self.eventCount - 1)) }
        return Blueprint(initialState: initialState, parents: parents, routeGroups: routeGroups, events: events)
    }

    private mutating func newState() -> Int {
        unusedIDs.removeLast()
    }

    // MARK: The tree

    /// Gives `state` at `depth` children or regions at random, and theirs in
    /// turn. It becomes a parallel state with a chance of `parallelPercent`,
    /// higher under deep history, which restores several regions at once.
    private mutating func grow(_ state: Int, depth: Int, parallelPercent: Int = 20) {
        states.append(state)
        guard depth < Self.maximumDepth, states.count + 4 <= Self.maximumStateCount else { return }
        let roll = random.int(in: 0...99)
        if roll < parallelPercent {
            growParallel(state, depth: depth)
        } else if roll < parallelPercent + 40 {
            growCompound(state, depth: depth)
        }
    }

    private mutating func growCompound(_ state: Int, depth: Int) {
        let children = (0..<random.int(in: 2...4)).map { _ in newState() }
        let initial: Int? =
            switch random.int(in: 0...2) {
            case 0: nil
            case 1: children[0]
            default: random.element(of: children)
            }
        let history: ReferenceStatechart.HistoryKind? =
            switch random.int(in: 0...4) {
            case 0: .shallow
            case 1: .deep
            default: nil
            }
        parents.append(.compound(state, children, initial: initial, history: history))
        for child in children {
            grow(child, depth: depth + 1, parallelPercent: history == .deep ? 50 : 20)
        }
    }

    private mutating func growParallel(_ state: Int, depth: Int) {
        let regions = (0..<random.int(in: 2...3)).map { _ in newState() }
        parents.append(.parallel(state, regions))
        for region in regions {
            grow(region, depth: depth + 1)
        }
    }

    // MARK: The routes

    private mutating func randomRouteGroup() -> Blueprint.RouteGroup {
        let event = random.chance(percent: 20) ? nil : random.int(in: 0...(Self.eventCount - 2))
        let arrows = (0..<(random.chance(percent: 20) ? 2 : 1)).map { _ in randomArrow() }
        let condition: Blueprint.Guard =
            switch random.int(in: 0...19) {
            case 0...2: .allows
            case 3...5: .refuses
            default: .none
            }
        return Blueprint.RouteGroup(event: event, arrows: arrows, condition: condition)
    }

    /// A route from any state now and then, a stay now and then, and targets
    /// biased towards where the rules differ: the source itself and its
    /// descendants (self, local and external routes), its siblings (moves
    /// inside a region), and states that keep history (entering through it).
    private mutating func randomArrow() -> Blueprint.Arrow {
        let source = random.chance(percent: 8) ? nil : random.element(of: states)
        guard !random.chance(percent: 12) else { return Blueprint.Arrow(source: source, target: nil) }
        guard let source else { return Blueprint.Arrow(source: nil, target: random.element(of: states)) }
        let descendants = descendants(of: source)
        let siblings = siblings(of: source)
        let statesWithHistory = parents.filter { $0.history != nil }.map(\.state)
        let target: Int =
            switch random.int(in: 0...19) {
            case 0...1: source
            case 2...5 where !descendants.isEmpty: random.element(of: descendants)
            case 6...9 where !siblings.isEmpty: random.element(of: siblings)
            case 10...12 where !statesWithHistory.isEmpty: random.element(of: statesWithHistory)
            default: random.element(of: states)
            }
        return Blueprint.Arrow(source: source, target: target, isLocal: random.chance(percent: 25))
    }

    // MARK: Completion

    /// Adds final states, done routes and eventless routes to `blueprint`,
    /// drawn from this generator's chart, to about two charts in three.
    ///
    /// The charts settle: a bounded condition holds only in the first three
    /// internal steps of a macrostep, and the routes that always hold
    /// cannot enable one another in a cycle (see ``mayEnable(_:_:)``), so
    /// every macrostep ends well before `Machine.internalStepLimit`. (A
    /// hand-written chart reaches the limit; random ones would reach it on
    /// every event, a thousand steps each.)
    mutating func addCompletion(to blueprint: inout Blueprint) {
        guard completionRandom.chance(percent: 65) else { return }
        blueprint.finalStates = randomFinalStates(initialState: blueprint.initialState)
        // Routes into most final children, from a sibling, added after the
        // others so that they only answer where nothing did: random targets
        // seldom reach every region's final state.
        for state in blueprint.finalStates where !topLevelStates.contains(state) && completionRandom.chance(percent: 70)
        {
            let siblings = siblings(of: state)
            let event = completionRandom.int(in: 0...(Self.eventCount - 2))
            blueprint.routeGroups.append(.route(event, completionRandom.element(of: siblings), state))
        }
        var alwaysHolding: [AlwaysHoldingRoute] = []
        // Mostly on states that can be done: a final child, or regions with one.
        let finalStates = blueprint.finalStates
        for parent in parents {
            let grandchildren = parent.children.flatMap { child in parents.first { $0.state == child }?.children ?? [] }
            let canBeDone = (parent.isParallel ? grandchildren : parent.children).contains(where: finalStates.contains)
            guard completionRandom.chance(percent: canBeDone ? 75 : 15) else { continue }
            for _ in 0..<completionRandom.int(in: 1...2) {
                var route = randomDoneRoute(from: parent.state)
                keepSettling(&route, isDone: true, alongside: &alwaysHolding)
                blueprint.doneRoutes.append(route)
            }
        }
        for _ in 0..<completionRandom.int(in: 0...4) {
            var route = randomEventlessRoute()
            keepSettling(&route, isDone: false, alongside: &alwaysHolding)
            blueprint.eventlessRoutes.append(route)
        }
    }

    /// A done or eventless route whose condition always holds.
    private struct AlwaysHoldingRoute {
        var arrow: Blueprint.Arrow
        var isDone: Bool
    }

    /// Gives `route` a bounded condition instead if it always holds and
    /// could take part in a cycle of such routes; else records it.
    private mutating func keepSettling(
        _ route: inout Blueprint.InternalRoute, isDone: Bool, alongside alwaysHolding: inout [AlwaysHoldingRoute]
    ) {
        guard route.condition == .none || route.condition == .allows else { return }
        let candidate = AlwaysHoldingRoute(arrow: route.arrow, isDone: isDone)
        if leadsBack(to: candidate, from: candidate, through: alwaysHolding, visited: []) {
            route.condition = randomBoundedGuard()
        } else {
            alwaysHolding.append(candidate)
        }
    }

    /// Whether taking `route` may, through routes of `others`, enable `start` again.
    private func leadsBack(
        to start: AlwaysHoldingRoute, from route: AlwaysHoldingRoute, through others: [AlwaysHoldingRoute],
        visited: [Int]
    ) -> Bool {
        if mayEnable(route, start) { return true }
        for (index, next) in others.enumerated() where !visited.contains(index) && mayEnable(route, next) {
            if leadsBack(to: start, from: next, through: others, visited: visited + [index]) { return true }
        }
        return false
    }

    /// Whether taking `first` may enable `second`, over-approximated: every
    /// state `first` enters lies under the outermost one it enters, so it
    /// may activate an eventless source under that state, and complete a
    /// done source above or under it. A route that always holds leaves its
    /// own source, so only an entry enables it again.
    private func mayEnable(_ first: AlwaysHoldingRoute, _ second: AlwaysHoldingRoute) -> Bool {
        guard let entered = outermostStateEntered(by: first.arrow), let source = second.arrow.source else {
            return false
        }
        return isWithin(source, entered) || (second.isDone && isWithin(entered, source))
    }

    /// The child of the route's domain on the way to its target; `nil` for
    /// a stay, which enters nothing.
    private func outermostStateEntered(by arrow: Blueprint.Arrow) -> Int? {
        guard let target = arrow.target else { return nil }
        // `nil` stands for the root.
        var domain: Int?
        if let source = arrow.source {
            if arrow.isLocal, isCompound(source), target != source, isWithin(target, source) {
                domain = source
            } else {
                domain = properAncestors(of: source).first { isCompound($0) && $0 != target && isWithin(target, $0) }
            }
        }
        return ([target] + properAncestors(of: target)).first { parent(of: $0) == domain }
    }

    private func parent(of state: Int) -> Int? {
        parents.first { $0.children.contains(state) }?.state
    }

    /// The parent of `state`, its parent, and so on, without the root.
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

    private func isCompound(_ state: Int) -> Bool {
        parents.contains { $0.state == state && !$0.isParallel }
    }

    /// One atomic child (now and then two) of about half the compound
    /// states, and of every region of most parallel states whose regions
    /// all have children, so that they can be done; now and then a
    /// top-level state, seldom the initial one: entering it finishes the
    /// machine, and the events after it are refused.
    private mutating func randomFinalStates(initialState: Int) -> [Int] {
        var compoundsWithAFinalChild: [Int] = []
        for parent in parents where parent.isParallel && parent.children.allSatisfy(isCompound) {
            if completionRandom.chance(percent: 70) { compoundsWithAFinalChild += parent.children }
        }
        var finalStates: [Int] = []
        for parent in parents where !parent.isParallel {
            guard compoundsWithAFinalChild.contains(parent.state) || completionRandom.chance(percent: 50) else {
                continue
            }
            var atomicChildren = parent.children.filter(isAtomic)
            guard !atomicChildren.isEmpty else { continue }
            completionRandom.shuffle(&atomicChildren)
            let count = atomicChildren.count > 2 && completionRandom.chance(percent: 25) ? 2 : 1
            finalStates += atomicChildren.prefix(count)
        }
        let topLevelCandidates = topLevelStates.filter {
            isAtomic($0) && ($0 != initialState || completionRandom.chance(percent: 15))
        }
        if !topLevelCandidates.isEmpty, completionRandom.chance(percent: 15) {
            finalStates.append(completionRandom.element(of: topLevelCandidates))
        }
        return finalStates
    }

    /// A done route from `source`, to a state near it or anywhere, or a stay.
    private mutating func randomDoneRoute(from source: Int) -> Blueprint.InternalRoute {
        let target = randomInternalTarget(from: source)
        let condition: Blueprint.Guard =
            switch completionRandom.int(in: 0...9) {
            case 0...4: .none
            case 5: .allows
            case 6: .refuses
            default: randomBoundedGuard()
            }
        return .route(source, target, isLocal: completionRandom.chance(percent: 20), condition: condition)
    }

    /// An eventless route from a state (now and then from any state), with a
    /// bounded condition, or none when its shape allows.
    private mutating func randomEventlessRoute() -> Blueprint.InternalRoute {
        let source = completionRandom.chance(percent: 8) ? nil : completionRandom.element(of: states)
        let target = source.map { randomInternalTarget(from: $0) } ?? completionRandom.element(of: states)
        var condition = randomBoundedGuard()
        if let source, let target, target != source, !descendants(of: source).contains(target),
            completionRandom.chance(percent: 25)
        {
            condition = .none
        }
        return .route(source, target, isLocal: completionRandom.chance(percent: 20), condition: condition)
    }

    /// A target for a route from `source`: a stay, `source` itself, one of
    /// its descendants or siblings, or any state.
    private mutating func randomInternalTarget(from source: Int) -> Int? {
        let descendants = descendants(of: source)
        let siblings = siblings(of: source)
        return switch completionRandom.int(in: 0...9) {
        case 0...1: nil
        case 2: source
        case 3...4 where !descendants.isEmpty: completionRandom.element(of: descendants)
        case 5...6 where !siblings.isEmpty: completionRandom.element(of: siblings)
        default: completionRandom.element(of: states)
        }
    }

    /// Holds for the first 1 to 3 internal steps after an event's step, and,
    /// half the time, only while some state is active.
    private mutating func randomBoundedGuard() -> Blueprint.Guard {
        let bound = completionRandom.int(in: 1...3)
        let state = completionRandom.chance(percent: 50) ? completionRandom.element(of: states) : nil
        return .internalStepsBelow(bound, whileActive: state)
    }

    // MARK: Several targets, actions and complete history

    /// Adds to `blueprint`, in about three charts in four: history defaults,
    /// history on parallel states (and on a few more compounds), actions on
    /// some of its routes, and new routes with several targets, ignoring
    /// history or with actions, inserted among the others (whose order
    /// stays the same) so that they are not only the last resort.
    ///
    /// New eventless and done routes get a bounded condition, so they take
    /// no part in a cycle that never settles (see ``addCompletion(to:)``).
    mutating func addTargetsActionsAndHistory(to blueprint: inout Blueprint) {
        guard featureRandom.chance(percent: 75) else { return }
        addHistory()
        blueprint.parents = parents
        for index in blueprint.routeGroups.indices
        where blueprint.routeGroups[index].arrows.count == 1 && featureRandom.chance(percent: 20) {
            blueprint.routeGroups[index].action = newAction()
        }
        for index in blueprint.doneRoutes.indices where featureRandom.chance(percent: 30) {
            blueprint.doneRoutes[index].action = newAction()
        }
        for index in blueprint.eventlessRoutes.indices where featureRandom.chance(percent: 30) {
            blueprint.eventlessRoutes[index].action = newAction()
        }
        for _ in 0..<featureRandom.int(in: 1...max(2, states.count / 3)) {
            let event = featureRandom.chance(percent: 15) ? nil : featureRandom.int(in: 0...(Self.eventCount - 2))
            let condition: Blueprint.Guard =
                switch featureRandom.int(in: 0...9) {
                case 0: .allows
                case 1: .refuses
                default: .none
                }
            let action = featureRandom.chance(percent: 50) ? newAction() : nil
            var group = Blueprint.RouteGroup.route(event, newArrow(), condition: condition, action: action)
            // `addRoutes` takes such transitions too, several at once.
            if action == nil, featureRandom.chance(percent: 25) { group.arrows.append(newArrow()) }
            blueprint.routeGroups.insert(group, at: featureRandom.int(in: 0...blueprint.routeGroups.count))
        }
        for _ in 0..<featureRandom.int(in: 0...2) {
            var route = Blueprint.InternalRoute(arrow: newArrow(), condition: newBoundedGuard())
            if featureRandom.chance(percent: 50) { route.action = newAction() }
            blueprint.eventlessRoutes.insert(route, at: featureRandom.int(in: 0...blueprint.eventlessRoutes.count))
        }
        for parent in parents where featureRandom.chance(percent: 15) {
            var route = Blueprint.InternalRoute(arrow: newArrow(from: parent.state), condition: newBoundedGuard())
            if featureRandom.chance(percent: 50) { route.action = newAction() }
            blueprint.doneRoutes.insert(route, at: featureRandom.int(in: 0...blueprint.doneRoutes.count))
        }
    }

    // MARK: Requests from entry handlers

    /// Makes, in about one chart in four, the entry handlers of one to three
    /// states make a request for a random event: half the time a final
    /// state's, whose request must go before its completion.
    mutating func addRaisingEntries(to blueprint: inout Blueprint) {
        guard raiseRandom.chance(percent: 25) else { return }
        for _ in 0..<raiseRandom.int(in: 1...3) {
            let candidates =
                !blueprint.finalStates.isEmpty && raiseRandom.chance(percent: 50) ? blueprint.finalStates : states
            let state = raiseRandom.element(of: candidates)
            guard !blueprint.raisingEntries.contains(where: { $0.state == state }) else { continue }
            let event = raiseRandom.int(in: 0...(Self.eventCount - 1))
            blueprint.raisingEntries.append(Blueprint.RaisingEntry(state: state, event: event))
        }
    }

    /// Gives a default to some histories, and history to some parallel
    /// states and a few compounds that have none.
    private mutating func addHistory() {
        for index in parents.indices {
            let parent = parents[index]
            if parent.history == nil {
                guard featureRandom.chance(percent: parent.isParallel ? 35 : 8) else { continue }
                parents[index].history = featureRandom.chance(percent: 60) ? .deep : .shallow
            }
            if featureRandom.chance(percent: 45) {
                parents[index].historyDefault = featureRandom.element(of: descendants(of: parent.state))
            }
        }
    }

    private mutating func newAction() -> Int {
        lastAction += 1
        return lastAction
    }

    /// A route's arrow, from `source` if given: to several targets about
    /// half the time (when the chart has a parallel state), ignoring history
    /// now and then, mostly when a target keeps history.
    private mutating func newArrow(from source: Int? = nil) -> Blueprint.Arrow {
        let parallelStates = parents.filter(\.isParallel).map(\.state)
        let statesWithHistory = parents.filter { $0.history != nil }.map(\.state)
        var arrow = Blueprint.Arrow(source: source, target: nil)
        if !parallelStates.isEmpty, featureRandom.chance(percent: 55) {
            let parallel = featureRandom.element(of: parallelStates)
            var targets = targets(inRegionsOf: parallel)
            featureRandom.shuffle(&targets)
            arrow.target = targets[0]
            arrow.otherTargets = Array(targets.dropFirst())
            if source == nil { arrow.source = sourceNear(parallel) }
        } else {
            let target =
                !statesWithHistory.isEmpty && featureRandom.chance(percent: 60)
                ? featureRandom.element(of: statesWithHistory) : featureRandom.element(of: states)
            arrow.target = target
            if source == nil { arrow.source = sourceNear(target) }
        }
        arrow.isLocal = featureRandom.chance(percent: 30)
        let entersHistory = arrow.target.map { ([$0] + arrow.otherTargets).contains(where: statesWithHistory.contains) }
        arrow.ignoresHistory = featureRandom.chance(percent: entersHistory == true ? 45 : 10)
        return arrow
    }

    /// A source for a route to or into `state`: now and then any state;
    /// often `state` itself, an ancestor (local or external moves inside
    /// it) or a descendant of it; else any state.
    private mutating func sourceNear(_ state: Int) -> Int? {
        let ancestors = properAncestors(of: state)
        let descendants = descendants(of: state)
        return switch featureRandom.int(in: 0...19) {
        case 0: nil
        case 1...3: state
        case 4...7 where !ancestors.isEmpty: featureRandom.element(of: ancestors)
        case 8...11 where !descendants.isEmpty: featureRandom.element(of: descendants)
        default: featureRandom.element(of: states)
        }
    }

    /// Targets in two or more regions of `parallel`, one state (the region
    /// itself or inside it) per region chosen; now and then, in place of a
    /// parallel state chosen so, targets in its own regions.
    private mutating func targets(inRegionsOf parallel: Int) -> [Int] {
        var regions = parents.first { $0.state == parallel }!.children
        featureRandom.shuffle(&regions)
        let chosen = regions.prefix(featureRandom.int(in: 2...regions.count))
        return chosen.flatMap { region -> [Int] in
            let candidates = [region] + descendants(of: region)
            let target = featureRandom.chance(percent: 35) ? region : featureRandom.element(of: candidates)
            let isParallel = parents.contains { $0.state == target && $0.isParallel }
            return isParallel && featureRandom.chance(percent: 50) ? targets(inRegionsOf: target) : [target]
        }
    }

    /// Holds for the first 1 to 3 internal steps after an event's step, and,
    /// half the time, only while some state is active.
    private mutating func newBoundedGuard() -> Blueprint.Guard {
        let bound = featureRandom.int(in: 1...3)
        let state = featureRandom.chance(percent: 50) ? featureRandom.element(of: states) : nil
        return .internalStepsBelow(bound, whileActive: state)
    }

    private func isAtomic(_ state: Int) -> Bool {
        !parents.contains { $0.state == state }
    }

    private func descendants(of state: Int) -> [Int] {
        guard let parent = parents.first(where: { $0.state == state }) else { return [] }
        return parent.children + parent.children.flatMap(descendants)
    }

    private func siblings(of state: Int) -> [Int] {
        let family = parents.first { $0.children.contains(state) }?.children ?? topLevelStates
        return family.filter { $0 != state }
    }
}

// MARK: - Hand-written blueprints

/// A chart written by hand for a rule that random charts seldom reach.
struct HandWrittenChart: Sendable, CustomTestStringConvertible {
    let name: String
    fileprivate let blueprint: Blueprint

    var testDescription: String { name }

    static let all = [
        deepHistoryOverRegions, stayFromACompoundState, deeperSourcePreempts, recordedChildWithItsOwnHistory,
        localAndExternalRoutes, selectionOrder, flatSelectionOrder, parallelCompletion, completionOneLevelUp,
        eventlessChain, finishing, startingInAFinalChild, unsettledCycle, severalTargets, actionsInRegistrationOrder,
        historyDefaultsAndIgnoringHistory, requestBeforeCompletion,
    ]

    /// 1 deep { 2 parallel { 3 { 5, 6 }, 4 { 7, 8 } }, 9 }, 10: leaving 1 and
    /// coming back restores both regions, none of them by default.
    static let deepHistoryOverRegions = HandWrittenChart(
        name: "deep history over regions",
        blueprint: Blueprint(
            initialState: 1,
            parents: [
                .compound(1, [2, 9], history: .deep), .parallel(2, [3, 4]), .compound(3, [5, 6]), .compound(4, [7, 8]),
            ],
            routeGroups: [
                .route(0, 5, 6), .route(1, 7, 8), .route(2, 1, 10), .route(3, 10, 1), .route(4, 10, 3),
            ],
            events: [1, 2, 3, 0, 2, 3, 2, 4]))

    /// 1 parallel { 2 { 4 { 6, 7 }, 5 }, 3 { 8, 9 } }, 10: a stay from the
    /// compound 4, chosen first, never conflicts with the route from 1.
    static let stayFromACompoundState = HandWrittenChart(
        name: "stay from a compound state",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.parallel(1, [2, 3]), .compound(2, [4, 5]), .compound(4, [6, 7]), .compound(3, [8, 9])],
            routeGroups: [.route(0, 4, nil), .route(0, 1, 10), .route(1, 10, 1)],
            events: [0, 1, 0]))

    /// 1 parallel { 2 { 4, 5 }, 3 { 6, 7 } }, 8: a later route from a deeper
    /// source preempts an earlier one; one from a shallower source is dropped.
    static let deeperSourcePreempts = HandWrittenChart(
        name: "deeper source preempts",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.parallel(1, [2, 3]), .compound(2, [4, 5]), .compound(3, [6, 7])],
            routeGroups: [.route(0, 1, 8), .route(0, 6, 7), .route(1, 4, 5), .route(1, 3, 8), .route(2, 8, 1)],
            events: [0, 1, 1, 2, 0]))

    /// 1 shallow { 2 shallow { 3, 4 }, 5 }, 6: the recorded child 2 is entered
    /// through its own history.
    static let recordedChildWithItsOwnHistory = HandWrittenChart(
        name: "recorded child with its own history",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 5], history: .shallow), .compound(2, [3, 4], history: .shallow)],
            routeGroups: [.route(0, 3, 4), .route(1, 1, 6), .route(2, 6, 1), .route(3, 4, 5), .route(4, 5, 2)],
            events: [0, 1, 2, 3, 1, 2, 4]))

    /// 1 { 2, 3 { 4, 5 } }, 6: local and external routes from a compound to
    /// its descendants, and local routes that cannot be local.
    static let localAndExternalRoutes = HandWrittenChart(
        name: "local and external routes",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 3]), .compound(3, [4, 5], initial: 5)],
            routeGroups: [
                .route(0, 1, 4, isLocal: true), .route(1, 1, 2), .route(2, 1, 1, isLocal: true),
                .route(3, 2, 3, isLocal: true), .route(0, 3, 1, isLocal: true),
            ],
            events: [0, 1, 0, 2, 3, 0, 0]))

    /// 1 { 2, 3 }: the exact event before any event on one state, a deeper
    /// state before its ancestor, guards that refuse, any state last.
    static let selectionOrder = HandWrittenChart(
        name: "selection order",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 3])],
            routeGroups: [
                .route(0, nil, 4), .route(nil, 2, 3), .route(0, 1, 5), .route(1, 2, 4, condition: .refuses),
                .route(1, 2, 5, condition: .allows), .route(0, 4, 1), .route(2, 5, 1),
            ],
            events: [1, 2, 2, 0, 0, 0, 0, 2, 0, 3]))
}

extension HandWrittenChart {
    /// 1, 2, 3, 4 with no nesting: a flat machine walks as a nested chart
    /// does, any event from the state before the exact event from any state.
    static let flatSelectionOrder = HandWrittenChart(
        name: "flat selection order",
        blueprint: Blueprint(
            initialState: 1,
            parents: [],
            routeGroups: [
                .route(nil, 1, 2), .route(0, nil, 3), .route(nil, nil, 1), .route(1, 3, 4, condition: .refuses),
                .route(1, nil, 2), .route(2, 2, nil), .route(2, nil, 4),
            ],
            events: [0, 1, 2, 1, 0, 2, 3, 0]))
}

extension HandWrittenChart {
    /// 1 parallel { 2 { 4, 5* }, 3 { 6, 7* } }, 8: a region's completion, then
    /// the parallel state's once both regions are in final states.
    static let parallelCompletion = HandWrittenChart(
        name: "parallel completion",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.parallel(1, [2, 3]), .compound(2, [4, 5]), .compound(3, [6, 7])],
            routeGroups: [.route(0, 4, 5), .route(1, 6, 7), .route(2, 8, 1), .route(3, 5, 4)],
            events: [0, 1, 2, 1, 0, 3, 0, 1],
            finalStates: [5, 7],
            doneRoutes: [.route(2, nil, condition: .internalStepsBelow(3)), .route(1, 8)]))

    /// 1 parallel { 2 { 5, 6* }, 3 parallel { 7 { 9, 10* }, 8 { 11, 12* } } },
    /// 4: entering a final state checks its grandparent only, so 1 is done
    /// when 6 is entered last, and not when 12 is.
    static let completionOneLevelUp = HandWrittenChart(
        name: "completion one level up",
        blueprint: Blueprint(
            initialState: 1,
            parents: [
                .parallel(1, [2, 3]), .compound(2, [5, 6]), .parallel(3, [7, 8]), .compound(7, [9, 10]),
                .compound(8, [11, 12]),
            ],
            routeGroups: [.route(0, 5, 6), .route(1, 9, 10), .route(2, 11, 12), .route(3, 4, 1)],
            events: [1, 2, 0, 3, 0, 1, 2, 3],
            finalStates: [6, 10, 12],
            doneRoutes: [.route(1, 4), .route(3, nil)]))

    /// 1 { 2, 3, 4 }, 5: eventless routes chain after an event's step, the
    /// deepest source first, until their conditions stop holding.
    static let eventlessChain = HandWrittenChart(
        name: "eventless chain",
        blueprint: Blueprint(
            initialState: 5,
            parents: [.compound(1, [2, 3, 4])],
            routeGroups: [.route(0, 5, 1), .route(1, 4, 2), .route(2, 5, 3)],
            events: [0, 1, 2, 0, 2],
            eventlessRoutes: [
                .route(2, 3, condition: .internalStepsBelow(2)), .route(3, 4),
                .route(1, 5, condition: .internalStepsBelow(3, whileActive: 4)),
                .route(nil, nil, condition: .internalStepsBelow(1)),
            ]))

    /// 1 { 2, 3* }, 4, 9*: the first done route refuses, the second enters
    /// the top-level final state 9, and the machine finishes.
    static let finishing = HandWrittenChart(
        name: "finishing",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 3])],
            routeGroups: [.route(0, 2, 3), .route(1, 9, 1)],
            events: [1, 0, 1, 0],
            finalStates: [3, 9],
            doneRoutes: [.route(1, 4, condition: .refuses), .route(1, 9)]))

    /// 1 { 2*, 3 }, 4*, 5: starting completes 1 at once; an eventless route
    /// then finishes the machine before any request.
    static let startingInAFinalChild = HandWrittenChart(
        name: "starting in a final child",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 3])],
            routeGroups: [.route(0, 2, 3)],
            events: [0, 1],
            finalStates: [2, 4],
            doneRoutes: [.route(1, 5)],
            eventlessRoutes: [.route(5, 4, condition: .internalStepsBelow(2))]))

    /// 1 { 2, 3 }, 4: eventless routes whose conditions always hold are cut
    /// at the limit, and the request fails; the next one is decided as usual.
    static let unsettledCycle = HandWrittenChart(
        name: "unsettled cycle",
        blueprint: Blueprint(
            initialState: 4,
            parents: [.compound(1, [2, 3])],
            routeGroups: [.route(0, 4, 1), .route(1, 1, 4)],
            events: [0, 1, 0],
            eventlessRoutes: [.route(2, 3, condition: .allows), .route(3, 2, condition: .allows)]))
}

extension HandWrittenChart {
    /// 0 { 1 parallel { 2 { 4, 5 }, 3 parallel { 6 { 8, 9 }, 7 { 10, 11 } } }, 12 }:
    /// several targets from outside, from inside a region, from the parallel
    /// state itself (never a local domain), and locally from the compound 0,
    /// with the regions no target names entered by default.
    static let severalTargets = HandWrittenChart(
        name: "several targets",
        blueprint: Blueprint(
            initialState: 0,
            parents: [
                .compound(0, [1, 12], initial: 12), .parallel(1, [2, 3]), .compound(2, [4, 5]), .parallel(3, [6, 7]),
                .compound(6, [8, 9]), .compound(7, [10, 11]),
            ],
            routeGroups: [
                .route(0, Blueprint.Arrow(source: 12, target: 5, otherTargets: [9])),
                .route(0, Blueprint.Arrow(source: 9, target: 10, otherTargets: [8])),
                .route(1, Blueprint.Arrow(source: 1, target: 4, isLocal: true, otherTargets: [11])),
                .route(2, Blueprint.Arrow(source: 0, target: 5, isLocal: true, otherTargets: [8, 10])),
                .route(3, Blueprint.Arrow(source: 5, target: 4, otherTargets: [6])),
                .route(3, 4, 12),
            ],
            events: [0, 0, 1, 2, 3, 3, 2, 0, 4]))

    /// 1 parallel { 2 { 4, 5* }, 3 { 6, 7* } }, 8: the actions of one step
    /// run in the order their routes were added, not the regions' order; a
    /// done route's and an eventless route's actions run too.
    static let actionsInRegistrationOrder = HandWrittenChart(
        name: "actions in registration order",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.parallel(1, [2, 3]), .compound(2, [4, 5]), .compound(3, [6, 7])],
            routeGroups: [
                .route(0, Blueprint.Arrow(source: 6, target: 7), action: 1),
                .route(0, Blueprint.Arrow(source: 4, target: 5), action: 2),
                .route(1, Blueprint.Arrow(source: 8, target: 1), action: 3),
                .route(2, Blueprint.Arrow(source: 5, target: 4), action: 4),
                .route(nil, Blueprint.Arrow(source: 1, target: 8), action: 5),
            ],
            events: [0, 1, 2, 0, 2, 3, 4],
            finalStates: [5, 7],
            doneRoutes: [
                Blueprint.InternalRoute(arrow: Blueprint.Arrow(source: 1, target: 8), action: 6),
                Blueprint.InternalRoute(arrow: Blueprint.Arrow(source: 2, target: nil), action: 7),
            ],
            eventlessRoutes: [
                Blueprint.InternalRoute(
                    arrow: Blueprint.Arrow(source: 8, target: 1), condition: .internalStepsBelow(1), action: 8)
            ]))

    /// 1 deep (default 6) { 2, 3 parallel { 4 { 6, 7 }, 5 { 8, 9 } } },
    /// 10 parallel, deep (default 13) { 11 shallow { 12, 13 }, 14 { 15, 16 } },
    /// 17 shallow (default 19) { 18, 19 }, 20: history defaults (at start
    /// too), a parallel state's deep history, and routes ignoring history,
    /// inside which 11 still uses its own.
    static let historyDefaultsAndIgnoringHistory = HandWrittenChart(
        name: "history defaults and ignoring history",
        blueprint: Blueprint(
            initialState: 1,
            parents: [
                .compound(1, [2, 3], history: .deep, historyDefault: 6), .parallel(3, [4, 5]), .compound(4, [6, 7]),
                .compound(5, [8, 9]), .parallel(10, [11, 14], history: .deep, historyDefault: 13),
                .compound(11, [12, 13], history: .shallow), .compound(14, [15, 16]),
                .compound(17, [18, 19], history: .shallow, historyDefault: 19),
            ],
            routeGroups: [
                .route(0, 20, 10), .route(0, 13, 12), .route(1, 10, 20), .route(1, 20, 17),
                .route(2, Blueprint.Arrow(source: 20, target: 10, ignoresHistory: true)), .route(2, 15, 16),
                .route(2, 17, 20), .route(3, 1, 20),
                .route(3, Blueprint.Arrow(source: 20, target: 1, ignoresHistory: true)),
            ],
            events: [3, 3, 3, 0, 0, 2, 1, 2, 1, 0, 1, 1, 2, 1, 3]))
}

extension HandWrittenChart {
    /// 1 { 2, 3* }, 4, 5, 6*: the entry handler of the final state 3 asks
    /// for e1, which leaves 1 for 4 before 1's completion, queued after it,
    /// is offered (then to nothing: 1 is no longer active); the entry
    /// handler of 6 asks for e2 as the machine finishes, and is refused.
    static let requestBeforeCompletion = HandWrittenChart(
        name: "request before completion",
        blueprint: Blueprint(
            initialState: 1,
            parents: [.compound(1, [2, 3])],
            routeGroups: [.route(0, 2, 3), .route(1, 1, 4), .route(2, 4, 1), .route(3, 4, 6)],
            events: [0, 2, 1, 0, 3, 0],
            finalStates: [3, 6],
            doneRoutes: [.route(1, 5)],
            raisingEntries: [.init(state: 3, event: 1), .init(state: 6, event: 2)]))
}

// MARK: - Declaring a blueprint

/// The machine's side of the reference's data-model counter: eventless and
/// done steps taken since the last step for an event.
private final class InternalStepCounter {
    var count = 0
}

/// The machine's side of the reference's ``ReferenceStatechart/raiseBudget``:
/// how many more requests the raising entry handlers of a run may make.
private final class RaiseBudget {
    var remaining: Int

    init(remaining: Int = Blueprint.raiseBudget) {
        self.remaining = remaining
    }
}

extension Blueprint {
    /// The chart declared on the reference interpreter.
    func makeReference() -> ReferenceStatechart {
        var reference = ReferenceStatechart(initialState: initialState)
        for parent in parents {
            if parent.isParallel {
                reference.addRegions(parent.children, to: parent.state)
            } else {
                reference.addChildren(parent.children, to: parent.state, initial: parent.initial)
            }
        }
        // After the whole tree: a history's default may lie deeper than the
        // children declared with it.
        for parent in parents {
            if let history = parent.history {
                reference.addHistory(history, to: parent.state, default: parent.historyDefault)
            }
        }
        for state in finalStates {
            reference.addFinalState(state)
        }
        for group in routeGroups {
            let trigger: ReferenceStatechart.Trigger = group.event.map { .event($0) } ?? .anyEvent
            for arrow in group.arrows {
                reference.addRoute(referenceRoute(trigger, arrow, group.condition, action: group.action))
            }
        }
        for route in doneRoutes {
            reference.addRoute(referenceRoute(.done, route.arrow, route.condition, action: route.action))
        }
        for route in eventlessRoutes {
            reference.addRoute(referenceRoute(.eventless, route.arrow, route.condition, action: route.action))
        }
        for raising in raisingEntries {
            reference.addRaise(of: raising.event, onEntryTo: raising.state)
        }
        reference.raiseBudget = Self.raiseBudget
        return reference
    }

    private func referenceRoute(
        _ trigger: ReferenceStatechart.Trigger, _ arrow: Arrow, _ condition: Guard, action: Int?
    ) -> ReferenceStatechart.Route {
        let referenceCondition: ReferenceStatechart.Condition =
            switch condition {
            case .none, .allows: .always
            case .refuses: .never
            case .internalStepsBelow(let bound, let state):
                ReferenceStatechart.Condition(internalStepsBelow: bound, whileActive: state)
            }
        return ReferenceStatechart.Route(
            trigger: trigger, source: arrow.source ?? ReferenceStatechart.root, target: arrow.target,
            isLocal: arrow.isLocal, condition: referenceCondition, otherTargets: arrow.otherTargets,
            ignoresHistory: arrow.ignoresHistory, action: action)
    }

    /// The chart declared on a `Machine` whose handlers write to `log` the
    /// calls the reference describes; `states` are every state of the chart.
    /// `declaringHistoryLast` declares the histories after everything else
    /// and a read of the configuration, which the machine must not have
    /// kept from before them. The raising entry handlers spend `budget`.
    func makeMachine(
        loggingTo log: Log, states: [Int], declaringHistoryLast: Bool = false, raising budget: RaiseBudget
    ) -> Machine<Node, Ev> {
        let machine = Machine<Node, Ev>(state: Node(id: initialState))
        let internalSteps = InternalStepCounter()
        for parent in parents {
            declare(parent, on: machine)
        }
        if !declaringHistoryLast {
            for parent in parents {
                declareHistory(of: parent, on: machine)
            }
        }
        for state in finalStates {
            machine.addFinalState(Node(id: state))
        }
        for group in routeGroups {
            declare(group, on: machine, logging: log)
        }
        for route in doneRoutes {
            machine.addDoneRoute(
                transition(route.arrow), condition: condition(route.condition, on: machine, counting: internalSteps),
                action: route.action.map { action($0, logging: log) })
        }
        for route in eventlessRoutes {
            machine.addEventlessRoute(
                transition(route.arrow), condition: condition(route.condition, on: machine, counting: internalSteps),
                action: route.action.map { action($0, logging: log) })
        }
        if declaringHistoryLast {
            _ = machine.configuration
            for parent in parents {
                declareHistory(of: parent, on: machine)
            }
        }
        for state in states {
            machine.addEntryHandler(Node(id: state)) { _ in log(Call.entry(state).description) }
            machine.addExitHandler(Node(id: state)) { _ in log(Call.exit(state).description) }
        }
        // After the logging ones; `unowned`: the machine holds its handlers.
        for raising in raisingEntries {
            let event = Ev(id: raising.event)
            machine.addEntryHandler(Node(id: raising.state)) { [unowned machine] _ in
                guard budget.remaining > 0 else { return }
                budget.remaining -= 1
                machine <-! event
            }
        }
        // Hears the eventless and done steps too, which have no event.
        machine.addAnyHandler(.any => .any) { context in
            internalSteps.count = context.event == nil ? internalSteps.count + 1 : 0
            let call = Call.transition(event: context.event?.id, from: context.fromState.id, to: context.toState.id)
            log(call.description)
        }
        machine.addErrorHandler { context in
            let call = Call.error(event: context.event?.id, state: context.fromState.id).description
            log(context.toState == context.fromState ? call : "\(call), but toState \(context.toState)")
        }
        return machine
    }

    /// The machine's condition for `condition`: what the reference's
    /// ``ReferenceStatechart/Condition`` reads, read from the machine.
    private func condition(
        _ condition: Guard, on machine: Machine<Node, Ev>, counting internalSteps: InternalStepCounter
    ) -> Machine<Node, Ev>.Condition? {
        switch condition {
        case .none: nil
        case .allows: { _ in true }
        case .refuses: { _ in false }
        case .internalStepsBelow(let bound, let state):
            { [weak machine] _ in
                guard internalSteps.count < bound else { return false }
                guard let state else { return true }
                return machine?.isActive(Node(id: state)) ?? false
            }
        }
    }

    private func declare(_ parent: Parent, on machine: Machine<Node, Ev>) {
        let state = Node(id: parent.state)
        let children = parent.children.map { Node(id: $0) }
        if parent.isParallel {
            machine.addRegions(children, to: state)
        } else if let initial = parent.initial {
            machine.addChildren(children, to: state, initial: Node(id: initial))
        } else {
            machine.addChildren(children, to: state)
        }
    }

    private func declareHistory(of parent: Parent, on machine: Machine<Node, Ev>) {
        let state = Node(id: parent.state)
        let fallback = parent.historyDefault.map { Node(id: $0) }
        switch parent.history {
        case .shallow: machine.addHistory(.shallow, to: state, default: fallback)
        case .deep: machine.addHistory(.deep, to: state, default: fallback)
        case nil: break
        }
    }

    /// An action that logs what the reference's ``ReferenceStatechart/Call/action(_:event:from:to:)`` describes.
    private func action(_ label: Int, logging log: Log) -> Machine<Node, Ev>.Handler {
        { context in
            log(
                Call.action(label, event: context.event?.id, from: context.fromState.id, to: context.toState.id)
                    .description)
        }
    }

    private func declare(_ group: RouteGroup, on machine: Machine<Node, Ev>, logging log: Log) {
        if let label = group.action {
            precondition(group.arrows.count == 1, "a route with an action has one transition")
            let event: Event<Ev> = group.event.map { .some(Ev(id: $0)) } ?? .any
            let condition: Machine<Node, Ev>.Condition? =
                switch group.condition {
                case .none: nil
                case let condition: { _ in condition == .allows }
                }
            machine.addRoute(
                event: event, transition(group.arrows[0]), condition: condition, action: action(label, logging: log))
            return
        }
        let transitions = group.arrows.map(transition)
        switch (group.event, group.condition) {
        case (let event?, .none): machine.addRoutes(event: Ev(id: event), transitions: transitions)
        case (nil, .none): machine.addRoutes(event: .any, transitions: transitions)
        case (let event?, let condition):
            machine.addRoutes(event: Ev(id: event), transitions: transitions) { _ in condition == .allows }
        case (nil, let condition):
            machine.addRoutes(event: .any, transitions: transitions) { _ in condition == .allows }
        }
    }

    /// `source => target`, with `.alsoEntering` its other targets,
    /// `.local` and `.ignoringHistory` if the arrow is.
    private func transition(_ arrow: Arrow) -> Transition<Node> {
        var transition: Transition<Node> =
            switch (arrow.source, arrow.target) {
            case (let source?, let target?): Node(id: source) => Node(id: target)
            case (let source?, nil): Node(id: source) => .any
            case (nil, let target?): .any => Node(id: target)
            case (nil, nil): .any => .any
            }
        for other in arrow.otherTargets {
            transition = transition.alsoEntering(Node(id: other))
        }
        if arrow.isLocal { transition = .local(transition) }
        if arrow.ignoresHistory { transition = .ignoringHistory(transition) }
        return transition
    }
}

// MARK: - Snapshots round-trip

/// Every snapshot a machine takes restores into a fresh machine of the same
/// chart: the same configuration and history come back, and the same events
/// afterwards give the same handler calls and outcomes on both.
///
/// Replay one seed: `SWITCHYARD_MODEL_SEED=17 swift test --filter SnapshotRoundTripTests`
/// (the seed is in every failure's message).
@Suite struct SnapshotRoundTripTests {
    static let seeds: [UInt64] = Array(1...1_200)

    @Test(arguments: seeds)
    func snapshotTakenAfterARandomRunRestoresAndRunsOnTheSame(seed: UInt64) {
        SnapshotRoundTrip(seed: seed).run()
    }

    @Test(.enabled(if: seedFromEnvironment != nil, "set SWITCHYARD_MODEL_SEED to replay one seed"))
    func snapshotRoundTripsForTheSeedInTheEnvironment() throws {
        SnapshotRoundTrip(seed: try #require(seedFromEnvironment)).run()
    }
}

private struct SnapshotRoundTrip {
    let seed: UInt64

    func run() {
        let blueprint = Blueprint(seed: seed)
        let states = blueprint.makeReference().states
        let originalLog = Log()
        let originalBudget = RaiseBudget()
        let original = blueprint.makeMachine(loggingTo: originalLog, states: states, raising: originalBudget)
        original.start()
        // Where the run is cut: anywhere from before the first event to after the last.
        var random = SplitMix64(seed: seed ^ 0x5A4B_5407_0000_0001)
        let cut = Int(random.next() % UInt64(blueprint.events.count + 1))
        for event in blueprint.events[..<cut] {
            original.tryEvent(Ev(id: event))
        }
        let snapshot = original.snapshot()
        let restoredLog = Log()
        // What is left of the budget goes with the snapshot: both raise alike.
        let restored = blueprint.makeMachine(
            loggingTo: restoredLog, states: states, raising: RaiseBudget(remaining: originalBudget.remaining))
        do {
            try restored.restore(snapshot)
        } catch {
            Issue.record("seed \(seed): the machine refused its own snapshot \(snapshot): \(error)")
            return
        }
        #expect(
            Set(restored.configuration) == Set(original.configuration),
            "seed \(seed): restored configuration differs")
        #expect(restored.snapshot() == snapshot, "seed \(seed): the restored machine's snapshot differs")
        for (index, event) in blueprint.events[cut...].enumerated() {
            originalLog.clear()
            restoredLog.clear()
            let expected = Outcome(original.attemptEvent(Ev(id: event)))
            let observed = Outcome(restored.attemptEvent(Ev(id: event)))
            guard observed == expected, restoredLog.lines == originalLog.lines,
                Set(restored.configuration) == Set(original.configuration)
            else {
                Issue.record(
                    """
                    seed \(seed), cut after \(cut) events, event \(index + 1) after it (e\(event)):
                    original: \(expected) \(originalLog.lines) \(original.configuration)
                    restored: \(observed) \(restoredLog.lines) \(restored.configuration)
                    snapshot: \(snapshot)
                    """)
                return
            }
        }
    }
}
