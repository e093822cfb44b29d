import Switchyard
import Testing

// Every rule of SPEC section 3.2 on its own, on one chart:
//
//     a { a1 { a11, a12 }, a2 }     b { b1, b2 }     z
//     p ‖ r1 { r1x, r1y } ‖ r2 { r2x, r2y }
//
// Each test adds the routes it needs and asserts every handler call.

private enum Node: StateType, CaseIterable {
    case a, a1, a11, a12, a2, b, b1, b2, z, p, r1, r1x, r1y, r2, r2x, r2y
}

private enum Go: EventType {
    case go, other
}

private typealias Chart = Machine<Node, Go>

/// The chart in `initial`, watched: "exit x", "enter x", "go: a => b" (the
/// step's state before and after), "refused go".
private func makeChart(
    in initial: Node, delivery: DeliveryPolicy = .immediate, log: Log, routes: (Chart) -> Void = { _ in }
) -> Chart {
    let chart = Chart(state: initial, delivery: delivery)
    chart.addChildren([.a1, .a2], to: .a)
    chart.addChildren([.a11, .a12], to: .a1)
    chart.addChildren([.b1, .b2], to: .b)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1x, .r1y], to: .r1)
    chart.addChildren([.r2x, .r2y], to: .r2)
    routes(chart)
    logSteps(of: chart, to: log)
    chart.addErrorHandler { context in log("refused \(context.event.map { "\($0)" } ?? "state")") }
    return chart
}

/// A state of a chain as deep as a test wants.
private struct Level: StateType {
    var number: Int
}

/// Levels 0 to `depth`, each the only child of the one before, in level 0;
/// `go` leaves the deepest for level -1, beside the chain, and `other` comes
/// back straight into the deepest.
private func makeDeepChain(depth: Int) -> Machine<Level, Go> {
    let chart = Machine<Level, Go>(state: Level(number: 0))
    for level in 0..<depth {
        chart.addChildren([Level(number: level + 1)], to: Level(number: level))
    }
    chart.addRoutes(event: .go, transitions: [Level(number: depth) => Level(number: -1)])
    chart.addRoutes(event: .other, transitions: [Level(number: -1) => Level(number: depth)])
    return chart
}

@Suite struct StatechartRuleTests {
    // MARK: Choosing a route

    @Test func aRouteFromADeeperStateBeatsOneFromAnAncestor() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.a => .b])
            chart.addRoutes(event: .go, transitions: [.a11 => .a12])
        }
        chart <-! .go
        #expect(log.lines == ["exit a11", "go: a11 => a12", "enter a12"])
    }

    @Test func anAncestorsRoutesCountAsTheyAreAddedAndDisposed() {
        // The walk up skips states that no event route leaves: it must see
        // an ancestor's routes come and go, of an event and of any event.
        let log = Log()
        let chart = makeChart(in: .a11, log: log)
        let first = chart.addRoutes(event: .go, transitions: [.a => .b])
        let second = chart.addRoutes(event: .any, transitions: [.a => .z])
        first.dispose()
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "exit a", "go: a11 => z", "enter z"])
        second.dispose()
        log.clear()
        chart <- .a11
        #expect(log.lines == ["refused state"], "no route is left to a11: the ones from a are gone")
        let again = chart.addRoutes(event: .go, transitions: [.z => .a])
        chart <-! .go
        again.dispose()
        log.clear()
        chart <-! .go
        #expect(log.lines == ["refused go"])
        chart.addRoutes(event: .go, transitions: [.a1 => .b])
        log.clear()
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "exit a", "go: a11 => b1", "enter b", "enter b1"])
    }

    @Test func aRouteFromAnAncestorAppliesInEveryDescendant() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.a => .b])
        }
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "exit a", "go: a11 => b1", "enter b", "enter b1"])
    }

    @Test func aRouteFromAnyIsTriedLastAndLeavesEverything() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.any => .z])
            chart.addRoutes(event: .go, transitions: [.a1 => .a2])
        }
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "go: a11 => a2", "enter a2"])
        log.clear()

        chart <-! .go  // a2 has no route of its own, nor has a: `.any => z` takes it

        #expect(log.lines == ["exit a2", "exit a", "go: a2 => z", "enter z"])
    }

    @Test func onOneStateTheExactEventBeatsAnyEventButADeeperStateBeatsBoth() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addRoutes(event: .any, transitions: [.a1 => .a2])
            chart.addRoutes(event: .go, transitions: [.a1 => .a12])
            chart.addRoutes(event: .go, transitions: [.a => .b])
        }
        chart <-! .go  // a1: the exact event's route, though added after the .any event's
        chart <-! .other  // a1: only the .any event's route
        #expect(
            log.lines == [
                "exit a11", "exit a1", "go: a11 => a12", "enter a1", "enter a12",
                "exit a12", "exit a1", "other: a12 => a2", "enter a2",
            ])
    }

    // MARK: External, local, self, stay

    @Test func aMoveFromACompoundStateToItsDescendantIsExternalByDefault() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { $0.addRoutes(event: .go, transitions: [.a => .a2]) }
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "exit a", "go: a11 => a2", "enter a", "enter a2"])
    }

    @Test func aLocalMoveLeavesTheCompoundStateActive() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { $0.addRoutes(event: .go, transitions: [.local(.a => .a2)]) }
        chart <-! .go
        #expect(log.lines == ["exit a11", "exit a1", "go: a11 => a2", "enter a2"])
    }

    @Test func localMakesNoDifferenceWhenTheTargetIsNotInsideTheSource() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) {
            $0.addRoutes(event: .go, transitions: [.local(.a1 => .a2), .local(.a11 => .a12)])
        }
        chart <-! .go  // a11's route: an atomic source exits itself anyway
        #expect(log.lines == ["exit a11", "go: a11 => a12", "enter a12"])
    }

    @Test(arguments: [Node.a11, .a1])
    fileprivate func aSelfTransitionExitsAndReentersItsState(state: Node) {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { $0.addRoutes(event: .go, transitions: [state => state]) }
        chart <-! .go
        #expect(
            log.lines
                == (state == .a11
                    ? ["exit a11", "go: a11 => a11", "enter a11"]
                    : ["exit a11", "exit a1", "go: a11 => a11", "enter a1", "enter a11"]))
    }

    @Test func aRouteToAnyStaysAndExitsNothing() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) {
            $0.addRoutes(event: .go, transitions: [.a1 => .any])
            $0.addRoutes(event: .other, transitions: [.any => .any])
        }
        #expect(chart.tryEvent(.go))
        #expect(chart.tryEvent(.other))
        #expect(chart.configuration == [.a, .a1, .a11])
        #expect(log.lines == ["go: a11 => a11", "other: a11 => a11"])
    }

    // MARK: Across levels

    @Test func movesAcrossLevelsExitUpToTheCommonAncestorAndEnterDown() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) {
            $0.addRoutes(event: .go, transitions: [.a11 => .b2, .b2 => .a12])
        }
        chart <-! .go <-! .go
        #expect(
            log.lines == [
                "exit a11", "exit a1", "exit a", "go: a11 => b2", "enter b", "enter b2",
                "exit b2", "exit b", "go: b2 => a12", "enter a", "enter a1", "enter a12",
            ])
    }

    @Test func aMoveToAnAncestorExitsAndReentersIt() {
        let log = Log()
        let chart = makeChart(in: .a12, log: log) { $0.addRoutes(event: .go, transitions: [.a12 => .a1]) }
        chart <-! .go
        #expect(log.lines == ["exit a12", "exit a1", "go: a12 => a11", "enter a1", "enter a11"])
    }

    @Test func enteringACompoundStateEntersItsInitialChildrenAllTheWayDown() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { $0.addRoutes(event: .go, transitions: [.z => .a]) }
        chart <-! .go
        #expect(log.lines == ["exit z", "go: z => a11", "enter a", "enter a1", "enter a11"])
    }

    @Test func theInitialChildCanBeChosen() {
        let machine = Machine<Node, Go>(state: .a) { chart in
            chart.addChildren([.a1, .a2], to: .a, initial: .a2)
        }
        #expect(machine.configuration == [.a, .a2])
    }

    // MARK: Regions

    @Test func enteringAParallelStateEntersEveryRegion() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { $0.addRoutes(event: .go, transitions: [.z => .p]) }
        chart <-! .go
        #expect(chart.state == .p)
        #expect(
            log.lines == [
                "exit z", "go: z => p", "enter p", "enter r1", "enter r1x", "enter r2", "enter r2x",
            ])
    }

    @Test func aTargetInOneRegionEntersTheOthersByDefault() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { $0.addRoutes(event: .go, transitions: [.z => .r2y]) }
        chart <-! .go
        #expect(
            log.lines == [
                "exit z", "go: z => p", "enter p", "enter r1", "enter r1x", "enter r2", "enter r2y",
            ])
    }

    @Test func routesInDifferentRegionsFireTogetherAsOneStep() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) {
            $0.addRoutes(event: .go, transitions: [.r1x => .r1y, .r2x => .r2y])
        }
        chart <-! .go
        #expect(
            log.lines == ["exit r2x", "exit r1x", "go: p => p", "enter r1y", "enter r2y"])
    }

    @Test func whenRoutesConflictTheOneChosenFirstWinsUnlessTheOtherIsDeeper() {
        // r1x's route leaves p; r2x's stays in r2. They exit the same states:
        // r1x's, chosen first (its region comes first), wins.
        let log = Log()
        let chart = makeChart(in: .p, log: log) {
            $0.addRoutes(event: .go, transitions: [.r1x => .z, .r2x => .r2y])
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2x", "exit r2", "exit r1x", "exit r1", "exit p", "go: p => z", "enter z",
            ])
    }

    @Test func aDeeperSourceWinsAConflictEvenWhenChosenLater() {
        // r1x has no route and walks up to p's; r2x has its own, deeper: it wins.
        let log = Log()
        let chart = makeChart(in: .p, log: log) {
            $0.addRoutes(event: .go, transitions: [.p => .z, .r2x => .r2y])
        }
        chart <-! .go
        #expect(log.lines == ["exit r2x", "go: p => p", "enter r2y"])
    }

    /// A state request is chosen as an event is: every walk is asked, and
    /// SCXML's conflict rule keeps the deeper source. Before, the first walk
    /// that found a route took it, so `p`'s route, found from `r1x`, won.
    @Test(arguments: [false, true])
    func aStateRequestsDeeperSourceWinsAConflictEvenWhenChosenLater(stateRouteFirst: Bool) {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            if stateRouteFirst {
                chart.addRoute(.p => .r2y)
                chart.addRoute(.r2x => .r2y)
            } else {
                chart.addRoute(.r2x => .r2y)
                chart.addRoute(.p => .r2y)
            }
        }
        chart <- .r2y
        #expect(log.lines == ["exit r2x", "state: p => p", "enter r2y"])
        #expect(Set(chart.configuration) == [.p, .r1, .r1x, .r2, .r2y])
    }

    /// The other way round: the deeper source is found first, and a
    /// shallower one found later does not replace it.
    @Test func aStateRequestsDeeperSourceFoundFirstStays() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoute(.p => .r2y)
            chart.addRoute(.r1x => .r2y)
        }
        chart <- .r2y
        #expect(
            log.lines == [
                "exit r2x", "exit r2", "exit r1x", "exit r1", "exit p", "state: p => p",
                "enter p", "enter r1", "enter r1x", "enter r2", "enter r2y",
            ])
    }

    @Test func aStateRequestThatBothRegionsReachThroughTheirParentIsTakenOnce() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { $0.addRoute(.p => .z) }
        chart <- .z
        #expect(
            log.lines == [
                "exit r2x", "exit r2", "exit r1x", "exit r1", "exit p", "state: p => z", "enter z",
            ])
    }

    @Test func aRouteBothRegionsReachThroughTheirParentIsTakenOnce() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { $0.addRoutes(event: .go, transitions: [.p => .z]) }
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2x", "exit r2", "exit r1x", "exit r1", "exit p", "go: p => z", "enter z",
            ])
    }

    // MARK: History

    @Test func aStateExitedAndEnteredInOneStepIsEnteredThroughWhatItJustRecorded() {
        // Found by the model test: a's history was read before this step recorded it.
        let log = Log()
        let chart = makeChart(in: .a12, log: log) { chart in
            chart.addHistory(.shallow, to: .a1)
            chart.addRoutes(event: .go, transitions: [.a1 => .a1])
        }
        chart <-! .go
        #expect(log.lines == ["exit a12", "exit a1", "go: a12 => a12", "enter a1", "enter a12"])
    }

    @Test func deepHistoryOverRegionsEntersEachRegionsRememberedStateAndNoOther() {
        // Found by the model test: the first remembered state's parallel
        // ancestor entered the other region by default before the second
        // remembered state was added.
        let log = Log()
        let chart = Chart(state: .z)
        chart.addChildren([.p], to: .b)
        chart.addRegions([.r1, .r2], to: .p)
        chart.addChildren([.r1x, .r1y], to: .r1)
        chart.addChildren([.r2x, .r2y], to: .r2)
        chart.addHistory(.deep, to: .b)
        chart.addRoutes(event: .go, transitions: [.z => .b, .r1x => .r1y, .r2x => .r2y])
        chart.addRoutes(event: .other, transitions: [.b => .z, .z => .b])
        chart <-! .go <-! .go <-! .other
        #expect(chart.recordedHistory(of: .b) == [.r1y, .r2y])
        for state in Node.allCases {
            chart.addEntryHandler(state) { _ in log("enter \(state)") }
        }

        chart <-! .other

        #expect(chart.configuration == [.b, .p, .r1, .r1y, .r2, .r2y])
        #expect(log.lines == ["enter b", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2y"])
    }

    // MARK: Asking for states

    @Test func tryStateNamesAStateAtAnyDepth() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) {
            $0.addRoute(.z => .a12)
            $0.addRoute(.a => .b2)
        }
        #expect(chart.tryState(.a12))
        #expect(chart.tryState(.b2))  // by a's route, from a12
        #expect(!chart.tryState(.a2))
        #expect(
            log.lines == [
                "exit z", "state: z => a12", "enter a", "enter a1", "enter a12",
                "exit a12", "exit a1", "exit a", "state: a12 => b2", "enter b", "enter b2",
                "refused state",
            ])
    }

    @Test func tryStateForACompoundStateEntersItByDefault() {
        let chart = makeChart(in: .z, log: Log()) { $0.addRoute(.z => .a) }
        #expect(chart.tryState(.a))
        #expect(chart.configuration == [.a, .a1, .a11])
        #expect(chart.state == .a11)
    }

    // MARK: Handlers

    @Test func transitionHandlersMatchTheStatesBeforeAndAfterAndTheirAncestors() {
        let log = Log()
        let chart = makeChart(in: .a11, log: Log()) { $0.addRoute(.a => .b) }
        chart.addHandler(.a => .b) { log("a => b: \($0.fromState) => \($0.toState)") }
        chart.addHandler(.a1 => .b1) { _ in log("a1 => b1") }
        chart.addHandler(.a2 => .any) { _ in log("a2 => any: never") }
        chart.addHandler(.any => .b2) { _ in log("any => b2: never") }
        chart.addAnyHandler(.a11 => .any) { _ in log("a11 => any") }

        chart <- .b

        #expect(log.lines == ["a => b: a11 => b1", "a1 => b1", "a11 => any"])
    }

    @Test func conditionsSeeTheStateBeforeAndTheRoutesTarget() {
        var seen: [String] = []
        let chart = makeChart(in: .a11, log: Log()) { chart in
            chart.addRoutes(event: .go, transitions: [.a => .b]) { context in
                seen.append("\(context.fromState) => \(context.toState)")
                return true
            }
        }
        chart <-! .go
        #expect(seen == ["a11 => b"])
        #expect(chart.state == .b1)
    }

    // MARK: Questions

    @Test func questionsAnswerThroughTheTreeAndChangeNothing() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addHistory(.shallow, to: .b)
            chart.addRoutes(event: .go, transitions: [.a => .b])
            chart.addRoute(.a1 => .z)
        }
        log.clear()

        #expect(chart.canTryEvent(.go) == .b1)
        #expect(chart.canTryEvent(.other) == nil)
        #expect(chart.canTryState(.z))
        #expect(!chart.canTryState(.b2))
        #expect(chart.hasRoute(event: .go, fromState: .a12, toState: .b))
        #expect(!chart.hasRoute(event: .go, fromState: .z, toState: .b))
        #expect(chart.hasRoute(fromState: .a11, toState: .z))
        #expect(!chart.hasRoute(fromState: .a2, toState: .z))

        #expect(log.lines.isEmpty)
        #expect(chart.configuration == [.a, .a1, .a11])
    }

    @Test func canTryEventForeseesHistory() {
        let chart = makeChart(in: .b2, log: Log()) { chart in
            chart.addHistory(.shallow, to: .b)
            chart.addRoutes(event: .go, transitions: [.b => .z, .z => .b])
        }
        chart <-! .go
        #expect(chart.canTryEvent(.go) == .b2)
        #expect(chart.recordedHistory(of: .b) == [.b2])
    }

    @Test func questionsAgreeWithRequestsInEveryState() {
        let routes: (Chart) -> Void = { chart in
            chart.addRoutes(event: .go, transitions: [.a11 => .a12, .a1 => .b2, .b => .p, .r1x => .r1y, .p => .z])
            chart.addRoutes(event: .other, transitions: [.any => .a, .a12 => .any])
            chart.addRoute(.a => .z)
            chart.addRoute(.z => .r2y)
        }
        for state in [Node.a11, .a12, .a2, .b1, .b2, .z, .p] {
            for event in [Go.go, .other] {
                let asked = makeChart(in: state, log: Log(), routes: routes)
                let answer = asked.canTryEvent(event)
                let moved = asked.attemptEvent(event)
                #expect((try? moved.get()) == answer, "\(event) from \(state)")
            }
            for target in Node.allCases {
                let asked = makeChart(in: state, log: Log(), routes: routes)
                let answer = asked.canTryState(target)
                #expect(asked.tryState(target) == answer, "\(state) => \(target)")
            }
        }
    }

    // MARK: Requests made during a step

    @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
    func requestsFromEntryExitAndTransitionHandlersWaitForTheStepToEnd(delivery: DeliveryPolicy) {
        let log = Log()
        var results: [String] = []
        let chart = makeChart(in: .a11, delivery: delivery, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.a11 => .b])
            chart.addRoutes(event: .other, transitions: [.b1 => .b2])
            chart.addRoute(.b2 => .z)
        }
        chart.addExitHandler(.a11) { [unowned chart] _ in
            results.append("from exit: \(chart.attemptEvent(.other))")
        }
        chart.addEntryHandler(.b1) { [unowned chart] _ in
            results.append("from entry: \(chart.tryState(.z)) while \(chart.state)")
        }
        log.clear()

        chart <-! .go

        #expect(chart.state == .z)
        #expect(
            log.lines == [
                "exit a11", "exit a1", "exit a", "go: a11 => b1", "enter b", "enter b1",
                "exit b1", "other: b1 => b2", "enter b2",
                "exit b2", "exit b", "state: b2 => z", "enter z",
            ])
        #expect(
            results == [
                "from exit: failure(event other from a11 waits for the step in progress to end (or for deliveries nested too deep to unwind))",
                "from entry: false while b1",
            ])
    }

    @Test func aChainOf100000HandlerDrivenStepsRunsOnA512KiBStack() {
        let steps = Shared(0)
        onThread(stackSize: 512 * 1024) {
            let chart = Machine<Node, Go>(state: .a1)
            chart.addChildren([.a11, .a12], to: .a1)
            chart.addRoutes(event: .go, transitions: [.a11 => .a12, .a12 => .a11])
            var count = 0
            for state in [Node.a11, .a12] {
                chart.addEntryHandler(state) { [unowned chart] _ in
                    count += 1
                    if count < 100_000 { chart <-! .go }
                }
            }
            chart <-! .go
            steps.value = count
        }
        #expect(steps.value == 100_000)
    }

    @Test func aChainOf2000NestedStatesIsDeclaredStartedAndSteppedOnA512KiBStack() {
        let depth = 2_000
        let seen = Shared<[String]>([])
        onThread(stackSize: 512 * 1024) {
            let chart = makeDeepChain(depth: depth)
            var lines = ["\(chart.state.number) \(chart.configuration.count)"]
            chart.start()
            chart <-! .go
            lines.append("\(chart.state.number) \(chart.configuration.count)")
            chart <-! .other
            lines.append("\(chart.state.number) \(chart.configuration.count)")
            seen.value = lines
        }
        // The deepest state and its every ancestor; then the state outside
        // the chain alone; then the whole chain again.
        #expect(seen.value == ["\(depth) \(depth + 1)", "-1 1", "\(depth) \(depth + 1)"])
    }

    // MARK: Start

    @Test func startEntersTheInitialConfigurationOnce() {
        let log = Log()
        let chart = makeChart(in: .a, log: log)
        #expect(chart.configuration == [.a, .a1, .a11])
        #expect(log.lines.isEmpty)
        #expect(chart.start())
        #expect(!chart.start())
        #expect(log.lines == ["enter a", "enter a1", "enter a11"])
    }

    @Test func startAfterTheFirstStepDoesNothing() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { $0.addRoutes(event: .go, transitions: [.a11 => .a12]) }
        chart <-! .go
        log.clear()
        #expect(!chart.start())
        #expect(log.lines.isEmpty)
    }

    // MARK: Typed results

    @Test func refusalsInAStatechartSayWhy() {
        let chart = makeChart(in: .a11, log: Log()) { chart in
            chart.addRoutes(event: .go, transitions: [.a => .b]) { _ in false }
        }
        guard case .failure(let refused) = chart.attemptEvent(.go),
            case .failure(let unrouted) = chart.attemptEvent(.other),
            case .failure(let unreachable) = chart.attemptState(.z)
        else {
            Issue.record("a request moved the machine")
            return
        }
        #expect(refused.reason == .conditionsRefused)
        #expect(unrouted.reason == .noRoute)
        #expect(unreachable.reason == .unreachable)
        #expect(chart.state == .a11)
    }
}

// MARK: - Flat machines with entry and exit handlers

private enum Lamp: StateType, CaseIterable {
    case off, on
}

@Suite struct FlatLifecycleTests {
    @Test func aFlatMachineExitsItsStateAndEntersTheNextOne() {
        let log = Log()
        let lamp = Machine<Lamp, Go>(state: .off) { lamp in
            lamp.addRoutes(event: .go, transitions: [.off => .on, .on => .off])
            lamp.addRoutes(event: .other, transitions: [.any => .any])
            lamp.addRoute(.on => .on)
            for state in Lamp.allCases {
                lamp.addEntryHandler(state) { _ in log("enter \(state)") }
                lamp.addExitHandler(state) { _ in log("exit \(state)") }
            }
            lamp.addAnyHandler(.any => .any) { log("\($0.fromState) => \($0.toState)") }
        }

        lamp.start()
        lamp <-! .go <-! .other <- .on

        #expect(
            log.lines == [
                "enter off", "exit off", "off => on", "enter on", "on => on", "exit on", "on => on", "enter on",
            ])
    }

    @Test func aFlatMachineWithLifecycleHandlersChoosesByTheWalk() {
        // `.any` event from this state beats the exact event from `.any`
        // (the root), as on every machine (SPEC section 2).
        let lamp = Machine<Lamp, Go>(state: .off) { lamp in
            lamp.addRoutes(event: .any, transitions: [.off => .off])
            lamp.addRoutes(event: .go, transitions: [.any => .on])
            lamp.addEntryHandler(.on) { _ in }
        }
        lamp <-! .go
        #expect(lamp.state == .off)
        lamp <-! .other
        #expect(lamp.state == .off)
    }
}
