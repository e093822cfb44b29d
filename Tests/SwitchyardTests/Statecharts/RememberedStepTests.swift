import Switchyard
import Testing

// A statechart remembers the steps it plans (by configuration and move) and
// recalls a step it takes again: these tests take the same steps again and
// again, and change what a remembered step depends on between two takes.
// A recalled step leaves its lists in the memo unless something reads them
// or code of the user's runs before they are applied: the tests at the end
// take steps with neither, and with each of those.
//
//     order ‖ payment { unpaid, paid* } ‖ packing { unpacked, packed* }
//     shipped     x     group { g1, g2 }     end
//
// (* final).

private enum Stage: StateType, CaseIterable {
    case order, payment, unpaid, paid, packing, unpacked, packed, shipped, x, group, g1, g2, end
}

private enum Command: EventType {
    case pay, pack, reorder, enter, leave, swap
}

private typealias Chart = Machine<Stage, Command>

/// The chart in `initial`, its steps logged (see `logSteps(of:to:)`) if
/// `logged`.
private func makeChart(in initial: Stage, log: Log, logged: Bool = true) -> Chart {
    let chart = Chart(state: initial)
    chart.addRegions([.payment, .packing], to: .order)
    chart.addChildren([.unpaid, .paid], to: .payment)
    chart.addChildren([.unpacked, .packed], to: .packing)
    chart.addFinalState(.paid)
    chart.addFinalState(.packed)
    chart.addChildren([.g1, .g2], to: .group)
    chart.addRoutes(event: .pay, transitions: [.unpaid => .paid])
    chart.addRoutes(event: .pack, transitions: [.unpacked => .packed])
    chart.addDoneRoute(.order => .shipped)
    chart.addRoutes(event: .reorder, transitions: [.shipped => .order])
    chart.addRoutes(event: .enter, transitions: [.x => .group])
    chart.addRoutes(event: .leave, transitions: [.group => .x])
    chart.addRoutes(event: .swap, transitions: [.g1 => .g2, .g2 => .g1])
    if logged {
        logSteps(of: chart, to: log)
    }
    return chart
}

@Suite struct RememberedStepTests {
    @Test func aRoundTakenAgainExitsEntersAndCompletesAsTheFirstDid() {
        let log = Log()
        let chart = makeChart(in: .order, log: log)
        chart.start()
        var rounds: [[String]] = []
        for _ in 0..<3 {
            log.clear()
            #expect(chart.tryEvent(.pay))
            #expect(chart.tryEvent(.pack))
            #expect(chart.state == .shipped)
            #expect(chart.tryEvent(.reorder))
            rounds.append(log.lines)
        }
        #expect(
            rounds[0] == [
                "exit unpaid", "pay: order => order", "enter paid",
                "exit unpacked", "pack: order => order", "enter packed",
                "exit packed", "exit packing", "exit paid", "exit payment", "exit order",
                "state: order => shipped", "enter shipped",
                "exit shipped", "reorder: shipped => order",
                "enter order", "enter payment", "enter unpaid", "enter packing", "enter unpacked",
            ])
        #expect(rounds[1] == rounds[0])
        #expect(rounds[2] == rounds[0])
    }

    @Test func aFinalStateDeclaredAfterAStepWasTakenCompletesWhenItIsTakenAgain() {
        let log = Log()
        let chart = makeChart(in: .x, log: log)
        chart.addDoneRoute(.group => .end)
        #expect(chart.tryEvent(.enter))
        #expect(chart.state == .g1, "g1 is not final yet")
        #expect(chart.tryEvent(.leave))
        chart.addFinalState(.g1)
        log.clear()
        #expect(chart.tryEvent(.enter))
        #expect(chart.state == .end, "the step remembered before g1 was final completed nothing")
        #expect(
            log.lines == [
                "exit x", "enter: x => g1", "enter group", "enter g1",
                "exit g1", "exit group", "state: g1 => end", "enter end",
            ])
    }

    @Test func aStepThatEntersThroughHistoryFollowsWhatWasRecordedEachTime() {
        let log = Log()
        let chart = makeChart(in: .x, log: log)
        chart.addHistory(.shallow, to: .group)
        var entered: [Stage] = []
        for _ in 0..<4 {
            #expect(chart.tryEvent(.enter))
            entered.append(chart.state)
            #expect(chart.tryEvent(.swap))
            #expect(chart.tryEvent(.leave))
        }
        #expect(entered == [.g1, .g2, .g1, .g2])
    }

    @Test func whatARememberedStepCompletesIsOfferedEachTimeItIsTaken() {
        let log = Log()
        let chart = makeChart(in: .x, log: log)
        chart.addFinalState(.g1)
        chart.addDoneRoute(.group => .x)
        var rounds: [[String]] = []
        for _ in 0..<3 {
            log.clear()
            #expect(chart.tryEvent(.enter))
            #expect(chart.state == .x, "group's done route was not taken")
            rounds.append(log.lines)
        }
        #expect(
            rounds[0] == [
                "exit x", "enter: x => g1", "enter group", "enter g1",
                "exit g1", "exit group", "state: g1 => x", "enter x",
            ])
        #expect(rounds[1] == rounds[0])
        #expect(rounds[2] == rounds[0])
    }

    @Test func aRememberedStepIntoATopLevelFinalStateFinishesTheMachineEachTime() throws {
        let chart = makeChart(in: .x, log: Log())
        chart.addFinalState(.end)
        chart.addRoutes(event: .swap, transitions: [.x => .end])
        let before = chart.snapshot()
        for round in 0..<3 {
            #expect(chart.tryEvent(.swap))
            #expect(chart.isFinished, "round \(round)")
            #expect(!chart.tryEvent(.enter), "a finished machine took a request")
            try chart.restore(before)
            #expect(!chart.isFinished)
        }
    }

    @Test func aFinalStateDeclaredWhileAStepIsDeliveredCountsForThatStep() {
        let chart = makeChart(in: .x, log: Log())
        chart.addDoneRoute(.group => .end)
        #expect(chart.tryEvent(.enter))
        #expect(chart.tryEvent(.leave))
        // Declared by x's exit handler, after the step was planned from the
        // memo and before it is applied; the question plans a step of its own.
        var declares = true
        chart.addExitHandler(.x) { [unowned chart] _ in
            guard declares else { return }
            declares = false
            chart.addFinalState(.g1)
            _ = chart.canTryEvent(.leave)
        }
        #expect(chart.tryEvent(.enter))
        #expect(chart.state == .end, "g1, final once the step applied, did not complete group")
    }

    @Test func aRoundWithoutEntryOrExitHandlersMovesAsTheFirstDid() {
        let chart = makeChart(in: .order, log: Log(), logged: false)
        var seen: [[Stage]] = []
        chart.addAnyHandler(.any => .any) { [unowned chart] _ in seen.append(chart.configuration) }
        chart.start()
        var rounds: [[[Stage]]] = []
        for _ in 0..<3 {
            seen.removeAll()
            #expect(chart.tryEvent(.pay))
            #expect(chart.tryEvent(.pack))
            #expect(chart.tryEvent(.reorder))
            rounds.append(seen)
        }
        #expect(
            rounds[0] == [
                [.order, .payment, .paid, .packing, .unpacked],
                [.order, .payment, .paid, .packing, .packed],
                [.shipped],
                [.order, .payment, .unpaid, .packing, .unpacked],
            ])
        #expect(rounds[1] == rounds[0])
        #expect(rounds[2] == rounds[0])
    }

    /// The step is recalled; an exit handler then changes the tree, which
    /// makes the memo forget every step before the step is applied.
    @Test func anExitHandlerThatChangesTheTreeDuringARecalledStepLetsItMoveAsPlanned() {
        let chart = makeChart(in: .x, log: Log(), logged: false)
        var configurations: [[Stage]] = []
        chart.addAnyHandler(.any => .any) { [unowned chart] _ in configurations.append(chart.configuration) }
        func round() {
            #expect(chart.tryEvent(.enter))
            #expect(chart.tryEvent(.swap))
            #expect(chart.tryEvent(.swap))
            #expect(chart.tryEvent(.leave))
        }
        round()
        var exits = 0
        chart.addExitHandler(.g1) { [unowned chart] _ in
            exits += 1
            if exits == 1 {
                chart.addChildren([.end], to: .shipped)
            }
        }
        let first = configurations
        configurations.removeAll()

        round()

        #expect(exits == 2)
        #expect(configurations == first)
        #expect(first == [[.group, .g1], [.group, .g2], [.group, .g1], [.x]])
    }

    /// A handler disposes itself: the table it was delivered from is let go
    /// before the next step, and with it the last hold on the handler's
    /// captures, whose `deinit` changes the tree (the memo forgets) before
    /// that step, recalled from the memo, is applied.
    @Test func capturesReleasedBeforeARecalledStepMayChangeTheTree() {
        let chart = makeChart(in: .x, log: Log(), logged: false)
        #expect(chart.tryEvent(.enter))
        chart.addEventlessRoute(.x => .group)
        // group => x, then x => group without an event: remembered.
        #expect(chart.tryEvent(.leave))
        var token: ReleaseHook? = ReleaseHook { [unowned chart] in chart.addChildren([.end], to: .shipped) }
        let disposable = Shared<Disposable?>(nil)
        disposable.value = chart.addHandler(event: .leave) { [token] _ in
            withExtendedLifetime(token) { disposable.value?.dispose() }
        }
        token = nil

        #expect(chart.tryEvent(.leave))

        #expect(disposable.value?.disposed == true)
        #expect(chart.configuration == [.group, .g1])
        #expect(chart.tryEvent(.leave))
        #expect(chart.configuration == [.group, .g1])
    }

    @Test func anInspectorSeesTheExitsAndEntriesOfARecalledStep() {
        let chart = makeChart(in: .x, log: Log(), logged: false)
        var seen: [[Stage]] = []
        let inspection = chart.inspect { seen += [$0.exits, $0.entries] }
        for _ in 0..<3 {
            #expect(chart.tryEvent(.enter))
            #expect(chart.tryEvent(.leave))
        }
        inspection.dispose()
        #expect(seen == Array(repeating: [[.x], [.group, .g1], [.g1, .group], [.x]], count: 3).flatMap { $0 })
    }

    @Test func aChildDeclaredAfterAStepWasTakenIsEnteredWhenItIsTakenAgain() {
        let log = Log()
        let chart = makeChart(in: .x, log: log)
        #expect(chart.tryEvent(.enter))
        #expect(chart.tryEvent(.leave))
        chart.addChildren([.end], to: .g1)
        #expect(chart.tryEvent(.enter))
        #expect(chart.state == .end, "the step remembered before g1 had a child entered g1 alone")
    }
}
