import Switchyard
import Testing

// Several targets, actions per route, and history completely (SPEC 3.2),
// each rule on its own, on one chart:
//
//     a { a1 { a11, a12 }, a2 }     p ‖ r1 { r1x, r1y } ‖ r2 { r2x, r2y }     z
//
// Each test asserts every handler call, in order.

private enum Node: StateType, CaseIterable {
    case a, a1, a11, a12, a2, p, r1, r1x, r1y, r2, r2x, r2y, z
}

private enum Go: EventType {
    case go, back, other
}

private typealias Chart = Machine<Node, Go>

private func makeChart(in initial: Node, log: Log, routes: (Chart) -> Void = { _ in }) -> Chart {
    let chart = Chart(state: initial)
    chart.addChildren([.a1, .a2], to: .a)
    chart.addChildren([.a11, .a12], to: .a1)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1x, .r1y], to: .r1)
    chart.addChildren([.r2x, .r2y], to: .r2)
    routes(chart)
    logSteps(of: chart, to: log)
    return chart
}

@Suite struct TargetsActionsHistoryTests {
    // MARK: Several targets

    @Test func aRouteWithSeveralTargetsEntersEachInItsRegion() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [(.z => .r1y).alsoEntering(.r2y)])
        }
        chart <-! .go
        #expect(log.lines == ["exit z", "go: z => p", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2y"])
        #expect(chart.configuration == [.p, .r1, .r1y, .r2, .r2y])
    }

    @Test func severalTargetsInsideAParallelSourceExitAndEnterIt() {
        // As in SCXML, only a compound source keeps a local move inside it:
        // the domain of a move from a parallel state is above it.
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.local((.p => .r1y).alsoEntering(.r2y))])
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2x", "exit r2", "exit r1x", "exit r1", "exit p", "go: p => p", "enter p", "enter r1",
                "enter r1y",
                "enter r2", "enter r2y",
            ])
    }

    // MARK: Actions per route

    @Test func anActionRunsAfterTheExitsAndBeforeTheChangeAndTheEntries() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log)
        // Unowned: the machine holds the action (a strong capture would be a cycle).
        chart.addRoute(event: .go, .a11 => .z) { [unowned chart] context in
            log("action \(context.fromState) => \(context.toState), state \(chart.state)")
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit a11", "exit a1", "exit a", "action a11 => z, state a11", "go: a11 => z", "enter z",
            ])
    }

    @Test func actionsOfOneStepRunInTransitionOrderWhateverTheOrderTheirRoutesWereAdded() {
        // SCXML's order: the routes as the active atomic states chose them,
        // in document order (r1x before r2x), not as they were added.
        let log = Log()
        let chart = makeChart(in: .p, log: log)
        chart.addRoute(event: .go, .r2x => .r2y) { _ in log("action r2") }
        chart.addRoute(event: .go, .r1x => .r1y) { _ in log("action r1") }
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2x", "exit r1x", "action r1", "action r2", "go: p => p", "enter r1y", "enter r2y",
            ])
    }

    @Test func anAncestorsRouteChosenByALaterRegionActsAfterAnEarlierRegionsOwn() {
        // r2x has no route for go; its walk reaches p's parent, the root,
        // whose route (from .any, targetless in effect: a stay) is chosen
        // after r1x's. Both act, in that order.
        let log = Log()
        let chart = makeChart(in: .p, log: log)
        chart.addRoute(event: .go, .any => .any) { _ in log("action any") }
        chart.addRoute(event: .go, .r1x => .r1y) { _ in log("action r1") }
        chart <-! .go
        #expect(Array(log.lines.filter { $0.hasPrefix("action") }) == ["action r1", "action any"])
    }

    @Test func anActionRunsOnlyForItsOwnRoute() {
        let log = Log()
        var actions = 0
        let chart = makeChart(in: .a11, log: log)
        chart.addRoute(event: .go, .a11 => .a12, condition: { _ in false }) { _ in actions += 1 }
        chart.addRoutes(event: .go, transitions: [.a11 => .a2])
        chart <-! .go
        #expect(actions == 0)
        #expect(chart.state == .a2)
    }

    @Test func disposingARouteRemovesItsAction() {
        let chart = makeChart(in: .a11, log: Log())
        var actions = 0
        let route = chart.addRoute(event: .go, .a11 => .a12) { _ in actions += 1 }
        route.dispose()
        #expect(!chart.tryEvent(.go))
        #expect(actions == 0)
        #expect(route.disposed)
    }

    @Test func eventlessAndDoneRoutesHaveActions() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addFinalState(.a12)
            chart.addRoutes(event: .go, transitions: [.z => .a11])
            chart.addEventlessRoute(.a11 => .a12, condition: { _ in true }) { _ in log("eventless action") }
            chart.addDoneRoute(.a1 => .a2, action: { _ in log("done action") })
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit z", "go: z => a11", "enter a", "enter a1", "enter a11",
                "exit a11", "eventless action", "state: a11 => a12", "enter a12",
                "exit a12", "exit a1", "done action", "state: a12 => a2", "enter a2",
            ])
    }

    @Test func anActionsRequestWaitsForTheStepToEnd() {
        let log = Log()
        let chart = makeChart(in: .a11, log: log) { chart in
            chart.addRoutes(event: .back, transitions: [.z => .a2])
        }
        chart.addRoute(event: .go, .a11 => .z) { [unowned chart] _ in
            log("action")
            chart <-! .back
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit a11", "exit a1", "exit a", "action", "go: a11 => z", "enter z",
                "exit z", "back: z => a2", "enter a", "enter a2",
            ])
    }

    // MARK: History

    @Test func historyAddedAfterAStateWasEnteredIsUsedWhenItIsEnteredAgain() {
        // The first entry of p works out what entering it by default enters;
        // history declared afterwards must change that.
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.z => .p])
            chart.addRoutes(event: .back, transitions: [.p => .z])
            chart.addRoutes(event: .other, transitions: [.r1x => .r1y])
        }
        chart <-! .go
        chart <-! .back
        chart.addHistory(.shallow, to: .r1)
        chart <-! .go
        chart <-! .other
        chart <-! .back
        log.clear()
        chart <-! .go
        #expect(chart.configuration == [.p, .r1, .r1y, .r2, .r2x])
        #expect(log.lines == ["exit z", "go: z => p", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2x"])
    }

    @Test func enteringAParallelStateByDefaultIsTheSameEachTime() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.z => .p])
            chart.addRoutes(event: .back, transitions: [.p => .z])
        }
        for _ in 0..<3 {
            log.clear()
            chart <-! .go
            #expect(chart.configuration == [.p, .r1, .r1x, .r2, .r2x])
            #expect(log.lines == ["exit z", "go: z => p", "enter p", "enter r1", "enter r1x", "enter r2", "enter r2x"])
            chart <-! .back
        }
    }

    @Test func aHistoryDefaultIsEnteredBeforeAnythingIsRecorded() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addHistory(.deep, to: .a, default: .a12)
            chart.addRoutes(event: .go, transitions: [.z => .a, .a => .z])
            chart.addRoutes(event: .other, transitions: [.a12 => .a2])
        }
        chart <-! .go
        #expect(log.lines == ["exit z", "go: z => a12", "enter a", "enter a1", "enter a12"])
        chart <-! .other
        chart <-! .go  // leaves a, recording a2
        log.clear()
        chart <-! .go
        #expect(log.lines == ["exit z", "go: z => a2", "enter a", "enter a2"])
    }

    @Test func ignoringHistoryEntersTheInitialChild() {
        let log = Log()
        let chart = makeChart(in: .a2, log: log) { chart in
            chart.addHistory(.shallow, to: .a)
            chart.addRoutes(event: .go, transitions: [.a => .z])
            chart.addRoutes(event: .back, transitions: [.z => .a])
            chart.addRoutes(event: .other, transitions: [.ignoringHistory(.z => .a)])
        }
        chart <-! .go
        chart <-! .back
        #expect(chart.state == .a2)
        chart <-! .go
        log.clear()
        chart <-! .other
        #expect(log.lines == ["exit z", "other: z => a11", "enter a", "enter a1", "enter a11"])
    }

    @Test func aStateRequestAlongARouteIgnoringHistoryStillEntersThroughTheHistory() {
        // A request asks for a state, not for the route's way of entering it
        // (Statecharts.md, "Choosing routes"; the SCXML export's `to.a`).
        let log = Log()
        let chart = makeChart(in: .a2, log: log) { chart in
            chart.addHistory(.shallow, to: .a)
            chart.addRoutes(event: .go, transitions: [.a => .z])
            chart.addRoute(.ignoringHistory(.z => .a))
        }
        chart <-! .go
        log.clear()
        #expect(chart.tryState(.a))
        #expect(log.lines == ["exit z", "state: z => a2", "enter a", "enter a2"])
    }

    @Test func aParallelStateKeepsDeepHistoryOfEveryRegion() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addHistory(.deep, to: .p)
            chart.addRoutes(event: .go, transitions: [.r1x => .r1y, .r2x => .r2y])
            chart.addRoutes(event: .back, transitions: [.p => .z, .z => .p])
        }
        chart <-! .go
        chart <-! .back
        #expect(chart.recordedHistory(of: .p) == [.r1y, .r2y])
        log.clear()
        chart <-! .back
        #expect(log.lines == ["exit z", "back: z => p", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2y"])
    }

    @Test func aParallelStatesHistoryDefaultEntersTheOtherRegionsByDefault() {
        let log = Log()
        let chart = makeChart(in: .z, log: log) { chart in
            chart.addHistory(.deep, to: .p, default: .r2y)
            chart.addRoutes(event: .go, transitions: [.z => .p])
        }
        chart <-! .go
        #expect(log.lines == ["exit z", "go: z => p", "enter p", "enter r1", "enter r1x", "enter r2", "enter r2y"])
    }
}
