import Switchyard
import Testing

private enum Light: StateType, CaseIterable {
    case green, yellow, red, off
}

private enum LightEvent: EventType {
    case stop, go, switchOff
}

@MainActor
@Suite struct TimedRouteTests {
    private func light(clock: ManualClock, log: Log) -> Machine<Light, LightEvent> {
        let machine = Machine<Light, LightEvent>(state: .green) { machine in
            machine.addRoutes(event: .stop, transitions: [.green => .red])
            machine.addRoutes(event: .go, transitions: [.red => .green])
            machine.addRoutes(event: .switchOff, transitions: [.any => .off])
        }
        machine.addTimedRoute(after: .seconds(5), .green => .yellow, clock: clock)
        machine.addTimedRoute(after: .seconds(2), .yellow => .red, clock: clock)
        machine.addAnyHandler(.any => .any) { context in
            log("\(context.event.map { "\($0)" } ?? "timer"): \(context.fromState) => \(context.toState)")
        }
        return machine
    }

    @Test func aTimedRouteFiresAfterItsDurationAndNotBefore() async {
        let clock = ManualClock()
        let log = Log()
        let machine = light(clock: clock, log: log)
        machine.start()
        await clock.advance(by: .seconds(4))
        #expect(machine.state == .green)
        await clock.advance(by: .seconds(1))
        #expect(machine.state == .yellow)
        await clock.advance(by: .seconds(2))
        #expect(machine.state == .red)
        #expect(log.lines == ["timer: green => yellow", "timer: yellow => red"])
    }

    @Test func oneAdvanceFiresTimersInTheOrderOfTheirDeadlines() async {
        let clock = ManualClock()
        let log = Log()
        let machine = light(clock: clock, log: log)
        machine.start()
        // The yellow timer starts when green's fires, at 5 s, and ends at 7 s.
        await clock.advance(by: .seconds(8))
        #expect(machine.state == .red)
        #expect(log.lines == ["timer: green => yellow", "timer: yellow => red"])
        #expect(clock.now == ManualClock.Instant(offset: .seconds(8)))
    }

    @Test func leavingTheStateCancelsItsTimer() async {
        let clock = ManualClock()
        let log = Log()
        let machine = light(clock: clock, log: log)
        machine.start()
        await clock.advance(by: .seconds(3))
        machine <-! .stop
        await clock.advance(by: .seconds(10))
        #expect(machine.state == .red)
        #expect(clock.sleeperCount == 0)
        #expect(log.lines == ["stop: green => red"])
    }

    @Test func enteringTheStateAgainStartsTheCountAgain() async {
        let clock = ManualClock()
        let log = Log()
        let machine = light(clock: clock, log: log)
        machine.start()
        await clock.advance(by: .seconds(3))
        machine <-! .stop <-! .go
        await clock.advance(by: .seconds(3))
        #expect(machine.state == .green)
        await clock.advance(by: .seconds(2))
        #expect(machine.state == .yellow)
        #expect(log.lines == ["stop: green => red", "go: red => green", "timer: green => yellow"])
    }

    @Test func aConditionIsAskedOnceWhenTheCountEnds() async {
        let clock = ManualClock()
        var isAllowed = false
        let machine = Machine<Light, LightEvent>(state: .green)
        machine.addTimedRoute(after: .seconds(1), .green => .yellow, condition: { _ in isAllowed }, clock: clock)
        machine.addRoutes(event: .go, transitions: [.green => .green])
        await clock.advance(by: .seconds(1))
        #expect(machine.state == .green)
        isAllowed = true
        // Offered once: a later step does not take it.
        machine <-! .go
        await clock.advance(by: .milliseconds(500))
        #expect(machine.state == .green)
        // The self-transition entered green again: the count started over.
        await clock.advance(by: .milliseconds(500))
        #expect(machine.state == .yellow)
    }

    @Test func aRouteAddedWhileItsSourceIsActiveCountsAtOnceAndDisposingStopsIt() async {
        let clock = ManualClock()
        let machine = Machine<Light, LightEvent>(state: .green)
        let route = machine.addTimedRoute(after: .seconds(1), .green => .yellow, clock: clock)
        await clock.advance(by: .zero)
        #expect(clock.sleeperCount == 1)
        route.dispose()
        await clock.advance(by: .seconds(2))
        #expect(clock.sleeperCount == 0)
        #expect(machine.state == .green)
    }

    @Test func timersInRegionsFireEachInTheirOwnRegion() async {
        let clock = ManualClock()
        let log = Log()
        let machine = Machine<Dashboard, LightEvent>(state: .dashboard) { machine in
            machine.addRegions([.clock, .weather], to: .dashboard)
            machine.addChildren([.time, .date], to: .clock)
            machine.addChildren([.today, .week], to: .weather)
        }
        machine.addTimedRoute(after: .seconds(3), .time => .date, clock: clock)
        machine.addTimedRoute(after: .seconds(2), .date => .time, clock: clock)
        machine.addTimedRoute(after: .seconds(4), .today => .week, clock: clock)
        logSteps(of: machine, to: log)
        machine.start()
        log.clear()
        await clock.advance(by: .seconds(8))
        // At 8 s, date's timer (armed at 8 s) still has 2 s to go.
        #expect(machine.configuration == [.dashboard, .clock, .date, .weather, .week])
        #expect(
            log.lines == [
                "exit time", "state: dashboard => dashboard", "enter date",  // 3 s
                "exit today", "state: dashboard => dashboard", "enter week",  // 4 s
                "exit date", "state: dashboard => dashboard", "enter time",  // 5 s
                "exit time", "state: dashboard => dashboard", "enter date",  // 8 s
            ])
    }

    @Test func aTimerInANestedMachineFires() async {
        let clock = ManualClock()
        let player = Machine<Light, LightEvent>(state: .green)
        let screen = Machine<Dashboard, NoEvent>(state: .time)
        screen.addTimedRoute(after: .seconds(1), .time => .date, clock: clock)
        player.nest(screen, under: .green)
        player.start()
        await clock.advance(by: .seconds(1))
        #expect(screen.state == .date)
        #expect(player.configuration == [.green])
    }

    @Test func aReleasedMachineCancelsItsTimers() async {
        let clock = ManualClock()
        var machine: Machine<Light, LightEvent>? = light(clock: clock, log: Log())
        weak let released = machine
        machine!.start()
        await clock.advance(by: .zero)
        #expect(clock.sleeperCount == 1)
        machine = nil
        await clock.advance(by: .zero)
        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTimedRouteWithARealClockFires() async {
        let machine = Machine<Light, LightEvent>(state: .green)
        let steps = machine.transitions()
        machine.addTimedRoute(after: .milliseconds(10), .green => .yellow)
        var iterator = steps.makeAsyncIterator()
        let step = await iterator.next()
        #expect(step?.toState == .yellow)
    }

    @Test func aSendableMachinesTimerFiresFromItsTask() async {
        let clock = ManualClock()
        let machine = SendableMachine<Light, LightEvent>(state: .green)
        let steps = machine.transitions()
        machine.addTimedRoute(after: .seconds(5), .green => .yellow, clock: clock)
        await clock.advance(by: .seconds(5))
        var iterator = steps.makeAsyncIterator()
        let step = await iterator.next()
        #expect(step == TransitionRecord(event: nil, fromState: .green, toState: .yellow))
        #expect(machine.state == .yellow)
    }

    @Test func aTimedRouteAddedOutsideAnyActorIsRefusedWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Light, LightEvent>(state: .green)
            machine.addTimedRoute(after: .seconds(1), .green => .yellow)
        }
        #expect(message(of: result).contains("outside any actor"))
    }
}

private enum Dashboard: StateType, CaseIterable {
    case dashboard, clock, time, date, weather, today, week
}
