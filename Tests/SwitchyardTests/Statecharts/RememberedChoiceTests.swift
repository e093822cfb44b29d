import Switchyard
import Testing

// A statechart remembers which moves an event chose from a configuration
// (when no guarded route lies on the walks) and takes them again without
// walking the tree: these tests send the same events again and again, and
// change the routes between two of them.
//
//     pair ‖ left { l1, l2 } ‖ right { r1, r2 }     solo { s1, s2 }
//
// (solo's children are declared by the test that needs them.)

private enum Spot: StateType, CaseIterable {
    case pair, left, l1, l2, right, r1, r2, solo, s1, s2
}

private enum Nudge: EventType {
    case flip, leave, back
}

private typealias Chart = Machine<Spot, Nudge>

/// The chart in `pair`, with `flip` moving both regions, its steps logged
/// (see `logSteps(of:to:)`).
private func makeChart(log: Log) -> Chart {
    let chart = Chart(state: .pair)
    chart.addRegions([.left, .right], to: .pair)
    chart.addChildren([.l1, .l2], to: .left)
    chart.addChildren([.r1, .r2], to: .right)
    chart.addRoutes(event: .flip, transitions: [.l1 => .l2, .l2 => .l1, .r1 => .r2, .r2 => .r1])
    chart.addRoutes(event: .back, transitions: [.solo => .pair])
    logSteps(of: chart, to: log)
    return chart
}

/// `makeChart(log:)` with `leave` taking `pair => solo`, started, and taken
/// there and back once, so that the choice of `leave` from `pair` is
/// remembered; and the route's registration.
private func makeChartThatRemembersLeaving(log: Log) -> (chart: Chart, leave: Disposable) {
    let chart = makeChart(log: log)
    let leave = chart.addRoutes(event: .leave, transitions: [.pair => .solo])
    chart.start()
    #expect(chart.tryEvent(.leave))
    #expect(chart.tryEvent(.back))
    return (chart, leave)
}

@Suite struct RememberedChoiceTests {
    @Test func anEventSentAgainTakesTheMovesOfBothRegionsInOrder() {
        let log = Log()
        let chart = makeChart(log: log)
        chart.start()
        var rounds: [[String]] = []
        for _ in 0..<3 {
            log.clear()
            #expect(chart.tryEvent(.flip))
            #expect(chart.tryEvent(.flip))
            rounds.append(log.lines)
        }
        #expect(
            rounds[0] == [
                "exit r1", "exit l1", "flip: pair => pair", "enter l2", "enter r2",
                "exit r2", "exit l2", "flip: pair => pair", "enter l1", "enter r1",
            ])
        #expect(rounds[1] == rounds[0])
        #expect(rounds[2] == rounds[0])
    }

    @Test func aDeeperRouteAddedAfterAChoiceWasRememberedWins() {
        let log = Log()
        let (chart, _) = makeChartThatRemembersLeaving(log: log)
        // l1 is deeper than pair: its route now beats pair's.
        chart.addRoutes(event: .leave, transitions: [.l1 => .l2])
        log.clear()
        #expect(chart.tryEvent(.leave))
        #expect(chart.state == .pair)
        #expect(chart.isActive(.l2))
        #expect(log.lines == ["exit l1", "leave: pair => pair", "enter l2"])
    }

    @Test func aRememberedRouteDisposedIsNotTakenAgain() {
        let log = Log()
        let (chart, leave) = makeChartThatRemembersLeaving(log: log)
        leave.dispose()
        #expect(!chart.tryEvent(.leave))
        #expect(chart.state == .pair)
    }

    @Test func aRouteAddedByAHandlerIsTakenByTheNextEvent() {
        let log = Log()
        let chart = makeChart(log: log)
        chart.addRoutes(event: .leave, transitions: [.pair => .solo])
        var added = false
        chart.addHandler(event: .back) { [unowned chart] _ in
            guard !added else { return }
            added = true
            chart.addRoutes(event: .leave, transitions: [.l1 => .l2])
        }
        chart.start()
        #expect(chart.tryEvent(.leave))
        #expect(chart.state == .solo)
        // Its handler adds a deeper route, after the choice of `back` was made.
        #expect(chart.tryEvent(.back))
        #expect(chart.tryEvent(.leave))
        #expect(chart.state == .pair)
        #expect(chart.isActive(.l2) && chart.isActive(.r1))
    }

    @Test func aConditionOnTheWalkIsAskedAtEveryEvent() {
        let log = Log()
        let chart = makeChart(log: log)
        var isOpen = false
        chart.addRoutes(event: .leave, transitions: [.r1 => .r2]) { _ in isOpen }
        chart.addRoutes(event: .leave, transitions: [.l1 => .l2])
        chart.addRoutes(event: .back, transitions: [.l2 => .l1, .r2 => .r1])
        chart.start()
        for round in 0..<4 {
            isOpen = round.isMultiple(of: 2)
            #expect(chart.tryEvent(.leave))
            #expect(chart.isActive(.l2))
            #expect(chart.isActive(.r2) == isOpen, "round \(round)")
            #expect(chart.tryEvent(.back))
            #expect(chart.isActive(.l1) && chart.isActive(.r1))
        }
    }

    @Test func aGuardedRouteFromAnyOnTheWalkIsAskedAtEveryEvent() {
        let log = Log()
        let chart = makeChart(log: log)
        var isOpen = false
        chart.addRoutes(event: .leave, transitions: [.pair => .solo])
        chart.addRoutes(event: .leave, transitions: [.any => .pair]) { _ in isOpen }
        chart.start()
        for round in 0..<4 {
            isOpen = round.isMultiple(of: 2)
            // Both regions' walks meet pair's route before the root's.
            #expect(chart.tryEvent(.leave))
            #expect(chart.state == .solo)
            // solo's walk reaches the root, whose route has a condition.
            #expect(chart.tryEvent(.leave) == isOpen, "round \(round)")
            #expect(chart.state == (isOpen ? .pair : .solo))
            if !isOpen {
                #expect(chart.tryEvent(.back))
            }
        }
    }

    @Test func removingAnUnguardedRouteKeepsAStatesGuardedRouteCounted() {
        let log = Log()
        let chart = makeChart(log: log)
        var isOpen = false
        let unguarded = chart.addRoutes(event: .back, transitions: [.r1 => .r2])
        chart.addRoutes(event: .leave, transitions: [.r1 => .r2]) { _ in isOpen }
        chart.addRoutes(event: .leave, transitions: [.l1 => .l2])
        unguarded.dispose()
        chart.addRoutes(event: .back, transitions: [.l2 => .l1, .r2 => .r1])
        chart.start()
        for round in 0..<4 {
            isOpen = round.isMultiple(of: 2)
            #expect(chart.tryEvent(.leave))
            #expect(chart.isActive(.r2) == isOpen, "round \(round)")
            #expect(chart.tryEvent(.back))
        }
    }

    @Test func aRoutesActionRunsEachTimeItIsTaken() {
        let log = Log()
        let chart = makeChart(log: log)
        chart.addRoute(event: .leave, .l1 => .l2, action: { _ in log("action") })
        chart.addRoutes(event: .back, transitions: [.l2 => .l1])
        chart.start()
        for _ in 0..<3 {
            log.clear()
            #expect(chart.tryEvent(.leave))
            #expect(log.lines == ["exit l1", "action", "leave: pair => pair", "enter l2"])
            #expect(chart.tryEvent(.back))
        }
    }

    @Test func anEventNoRouteNamesIsTakenByAnyEventRoutesUntilItsOwnIsAdded() {
        let log = Log()
        let chart = makeChart(log: log)
        chart.addRoutes(event: .any, transitions: [.l1 => .l2, .l2 => .l1])
        chart.start()
        // `leave` has no route of its own: `.any`'s move left alone.
        #expect(chart.tryEvent(.leave))
        #expect(chart.isActive(.l2) && chart.isActive(.r1))
        #expect(chart.tryEvent(.leave))
        #expect(chart.isActive(.l1) && chart.isActive(.r1))
        chart.addHandler(event: .leave) { _ in log("heard leave") }
        #expect(chart.tryEvent(.leave))
        #expect(chart.isActive(.l2) && chart.isActive(.r1))
        #expect(chart.tryEvent(.leave))
        // Its own route now moves the right region too.
        chart.addRoutes(event: .leave, transitions: [.r1 => .r2])
        #expect(chart.tryEvent(.leave))
        #expect(chart.isActive(.l2) && chart.isActive(.r2))
    }

    @Test func aChildAddedToAnInactiveStateIsEnteredWhenTheEventIsSentAgain() {
        let log = Log()
        let (chart, _) = makeChartThatRemembersLeaving(log: log)
        // The tree changes where no state is active: the walks are the same,
        // but solo is now compound.
        chart.addChildren([.s1, .s2], to: .solo)
        log.clear()
        #expect(chart.tryEvent(.leave))
        #expect(chart.state == .s1)
        #expect(log.lines.suffix(3) == ["leave: pair => s1", "enter solo", "enter s1"])
    }
}
