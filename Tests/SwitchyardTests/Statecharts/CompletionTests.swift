import Foundation
import Switchyard
import Testing

// Final states, done routes and eventless routes (SPEC 3.2, "Final states
// and completion" and "Eventless routes"), each rule on its own, on one chart:
//
//     job { working, done* }      p ‖ r1 { r1a, r1end* } ‖ r2 { r2a, r2end* }
//     idle     next     over*
//
// (* final). Each test asserts every handler call, in order.

private enum Step: StateType, CaseIterable {
    case job, working, done, p, r1, r1a, r1end, r2, r2a, r2end, idle, next, over
}

private enum Signal: EventType {
    case go, finish, other
}

private typealias Chart = Machine<Step, Signal>

/// The chart in `initial`, watched: "exit x", "enter x", "go: a => b" (the
/// step's event, or "state" for a step with none, and its states before and
/// after), "refused".
private func makeChart(in initial: Step, log: Log, routes: (Chart) -> Void = { _ in }) -> Chart {
    let chart = Chart(state: initial)
    chart.addChildren([.working, .done], to: .job)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1a, .r1end], to: .r1)
    chart.addChildren([.r2a, .r2end], to: .r2)
    for state in [Step.done, .r1end, .r2end, .over] {
        chart.addFinalState(state)
    }
    routes(chart)
    logSteps(of: chart, to: log)
    chart.addErrorHandler { _ in log("refused") }
    return chart
}

@Suite struct CompletionTests {
    // MARK: Routes disposed and added again

    @Test func aDoneRouteDisposedIsNotTakenAndOneAddedAgainIs() {
        let log = Log()
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addRoutes(event: .other, transitions: [.done => .working])
        }
        chart.addDoneRoute(.job => .next).dispose()
        #expect(chart.tryEvent(.finish))
        #expect(chart.state == .done, "a disposed done route was taken")
        #expect(chart.tryEvent(.other))
        chart.addDoneRoute(.job => .next)
        #expect(chart.tryEvent(.finish))
        #expect(chart.state == .next)
    }

    @Test func anEventlessRouteDisposedIsNotTakenAndOneAddedAgainIs() {
        let log = Log()
        let chart = makeChart(in: .idle, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.idle => .job])
            chart.addRoutes(event: .other, transitions: [.working => .working])
        }
        chart.addEventlessRoute(.working => .done) { _ in true }.dispose()
        let never = chart.addEventlessRoute(.working => .idle) { _ in false }
        #expect(chart.tryEvent(.go))
        #expect(chart.state == .working, "a disposed eventless route was taken")
        never.dispose()
        chart.addEventlessRoute(.working => .done) { _ in true }
        #expect(chart.tryEvent(.other))
        #expect(chart.state == .done)
    }

    // MARK: Done routes

    @Test func enteringAFinalChildTakesTheParentsDoneRouteInTheSameRequest() {
        let log = Log()
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addDoneRoute(.job => .next)
        }
        #expect(chart.tryEvent(.finish))
        #expect(
            log.lines == [
                "exit working", "finish: working => done", "enter done",
                "exit done", "exit job", "state: done => next", "enter next",
            ])
        #expect(chart.state == .next)
    }

    @Test func aDoneRouteKeepsItsConditionAndOrder() {
        let log = Log()
        var allowed = false
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addDoneRoute(.job => .over) { _ in allowed }
            chart.addDoneRoute(.job => .next)
            chart.addDoneRoute(.job => .idle)
        }
        chart <-! .finish
        #expect(chart.state == .next)
        allowed = true
        let second = makeChart(in: .working, log: Log()) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addDoneRoute(.job => .idle) { _ in allowed }
            chart.addDoneRoute(.job => .next)
        }
        second <-! .finish
        #expect(second.state == .idle)
    }

    @Test func withoutADoneRouteTheCompletedStateStays() {
        let log = Log()
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
        }
        #expect(chart.tryEvent(.finish))
        #expect(chart.state == .done)
        #expect(chart.configuration == [.job, .done])
        #expect(!chart.isFinished)
    }

    @Test func aParallelStateIsDoneWhenEveryRegionIs() {
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.r1a => .r1end])
            chart.addRoutes(event: .finish, transitions: [.r2a => .r2end])
            chart.addDoneRoute(.p => .next)
            chart.addDoneRoute(.r1 => .any)
        }
        chart <-! .go
        #expect(log.lines == ["exit r1a", "go: p => p", "enter r1end", "state: p => p"])
        log.clear()
        chart <-! .finish
        #expect(
            log.lines == [
                "exit r2a", "finish: p => p", "enter r2end",
                "exit r2end", "exit r2", "exit r1end", "exit r1", "exit p", "state: p => next", "enter next",
            ])
    }

    @Test func regionsCompletingInOneStepCompleteTheirParallelStateOnce() {
        let log = Log()
        var dones = 0
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.r1a => .r1end, .r2a => .r2end])
            // Targetless: counts each time the completion is offered.
            chart.addDoneRoute(.p => .any) { _ in
                dones += 1
                return true
            }
        }
        chart <-! .go
        #expect(dones == 1)
        #expect(chart.configuration == [.p, .r1, .r1end, .r2, .r2end])
    }

    @Test func completionsAndRequestsAreOfferedInTheOrderTheyArose() {
        // SCXML's enterStates: r1end's entry queues r1's completion; r2end's
        // entry handler requests `other`, and then its entry queues r2's
        // completion and p's. One queue, in that order.
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.r1a => .r1end, .r2a => .r2end])
            chart.addDoneRoute(.r1 => .any) { _ in
                log("done r1")
                return false
            }
            chart.addDoneRoute(.r2 => .any) { _ in
                log("done r2")
                return false
            }
            chart.addDoneRoute(.p => .any) { _ in
                log("done p")
                return false
            }
        }
        // Unowned: the machine holds the handler (a strong capture would be a cycle).
        chart.addEntryHandler(.r2end) { [unowned chart] _ in chart <-! .other }
        chart.addHandler(event: .other) { _ in log("other") }
        chart.addRoutes(event: .other, transitions: [.any => .any])
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2a", "exit r1a", "go: p => p", "enter r1end", "enter r2end",
                "done r1", "other", "other: p => p", "done r2", "done p",
            ])
    }

    @Test func aRequestAFinalStatesEntryHandlerMakesGoesBeforeItsCompletion() {
        // W3C/SCION `done_after_onentry`: the final child's entry raises x,
        // and x is handled before done.state.job, which then finds job left.
        let log = Log()
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addRoutes(event: .other, transitions: [.job => .idle])
            chart.addDoneRoute(.job => .next)
        }
        // Unowned: the machine holds the handler (a strong capture would be a cycle).
        chart.addEntryHandler(.done) { [unowned chart] _ in chart <-! .other }
        #expect(chart.tryEvent(.finish))
        #expect(chart.state == .idle)
        #expect(
            log.lines == [
                "exit working", "finish: working => done", "enter done",
                "exit done", "exit job", "other: done => idle", "enter idle",
            ])
    }

    @Test func startingInAFinalChildWhoseEntryHandlerRequestsTakesTheRequestFirst() {
        let log = Log()
        let chart = makeChart(in: .done, log: log) { chart in
            chart.addRoutes(event: .other, transitions: [.job => .idle])
            chart.addDoneRoute(.job => .next)
        }
        chart.addEntryHandler(.done) { [unowned chart] _ in chart <-! .other }
        #expect(chart.start())
        #expect(chart.state == .idle)
        #expect(
            log.lines == [
                "enter job", "enter done", "exit done", "exit job", "other: done => idle", "enter idle",
            ])
    }

    @Test func aRequestMadeBeforeACompletionGoesFirstThoughItIsRefused() {
        // The request waits ahead of the completion; refused, it leaves the
        // completion its turn, in the same call.
        let log = Log()
        let chart = makeChart(in: .working, log: log) { chart in
            chart.addRoutes(event: .finish, transitions: [.working => .done])
            chart.addDoneRoute(.job => .next)
        }
        chart.addEntryHandler(.done) { [unowned chart] _ in chart <-! .go }
        #expect(chart.tryEvent(.finish))
        #expect(chart.state == .next)
        #expect(
            log.lines == [
                "exit working", "finish: working => done", "enter done",
                "refused", "exit done", "exit job", "state: done => next", "enter next",
            ])
    }

    @Test func aRequestAnEntryHandlerOfALaterRegionMakesGoesAfterAnEarlierRegionsCompletion() {
        // r1end is entered before r2a's sibling r2end would be; here r2
        // moves to r2a again, whose entry handler requests other: r1's
        // completion, noted first, goes first.
        let log = Log()
        let chart = makeChart(in: .p, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.r1a => .r1end, .r2a => .r2a])
            chart.addDoneRoute(.r1 => .any) { _ in
                log("done r1")
                return true
            }
            chart.addRoutes(event: .other, transitions: [.any => .any])
        }
        chart.addEntryHandler(.r2a) { [unowned chart] _ in chart <-! .other }
        chart <-! .go
        #expect(
            log.lines == [
                "exit r2a", "exit r1a", "go: p => p", "enter r1end", "enter r2a",
                "done r1", "state: p => p", "other: p => p",
            ])
    }

    @Test func startingInAFinalChildOffersItsCompletion() {
        let log = Log()
        let chart = makeChart(in: .done, log: log) { chart in
            chart.addDoneRoute(.job => .next)
        }
        #expect(chart.start())
        #expect(
            log.lines == [
                "enter job", "enter done", "exit done", "exit job", "state: done => next", "enter next",
            ])
    }

    // MARK: Finishing

    @Test func enteringATopLevelFinalStateFinishesTheMachine() throws {
        let log = Log()
        let chart = makeChart(in: .job, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.job => .over])
            chart.addRoutes(event: .other, transitions: [.any => .idle])
        }
        #expect(!chart.isFinished)
        chart <-! .go
        #expect(chart.isFinished)
        #expect(log.lines == ["exit working", "exit job", "go: working => over", "enter over", "exit over"])
        #expect(chart.state == .over)
        log.clear()

        let error = try #require(chart.attemptEvent(.other).failureValue)
        #expect(error.reason == .finished)
        #expect(error.description.contains("finished"))
        #expect(chart.attemptState(.idle).failureValue?.reason == .finished)
        #expect(log.lines == ["refused", "refused"])
        #expect(chart.state == .over)
    }

    @Test func aRequestStillWaitingWhenTheMachineFinishesIsRefusedInItsTurn() {
        let log = Log()
        let chart = makeChart(in: .job, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.job => .over])
            chart.addRoutes(event: .other, transitions: [.any => .idle])
        }
        var refusal: TransitionError.Reason?
        _ = chart.inspect { inspection in
            if inspection.request == .event(.other) {
                refusal = inspection.refusal
            }
        }
        // Made during the step that finishes the machine: it waits, then finds it finished.
        chart.addExitHandler(.working) { [unowned chart] _ in chart <-! .other }

        chart <-! .go

        #expect(chart.isFinished)
        #expect(
            log.lines == [
                "exit working", "exit job", "go: working => over", "enter over", "exit over", "refused",
            ])
        #expect(refusal == .finished)
        #expect(chart.state == .over)
    }

    @Test func aFlatMachineCanFinish() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
        machine.addFinalState(.state2)
        #expect(machine.tryEvent(.event0))
        #expect(!machine.isFinished)
        #expect(machine.tryEvent(.event0))
        #expect(machine.isFinished)
        #expect(!machine.tryEvent(.event0))
    }

    // MARK: Eventless routes

    @Test func eventlessRoutesRunUntilNoneApplies() {
        let log = Log()
        let chart = makeChart(in: .idle, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.idle => .working])
            chart.addEventlessRoute(.working => .done)
            chart.addEventlessRoute(.job => .next)
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit idle", "go: idle => working", "enter job", "enter working",
                // The deeper source first: working's route, then job's.
                "exit working", "state: working => done", "enter done",
                "exit done", "exit job", "state: done => next", "enter next",
            ])
    }

    @Test func aFlatMachinesEventlessRoutesTryItsStateThenAnyState() {
        // No children: the state's own eventless routes, in the order added,
        // then those from .any, the last a route from the root is tried.
        let log = Log()
        var isOpen = false
        let machine = Machine<Step, Signal>(state: .idle) { machine in
            machine.addRoutes(event: .go, transitions: [.idle => .working])
            machine.addEventlessRoute(.any => .over) { context in
                log("asked any")
                return isOpen && context.fromState != .over
            }
            machine.addEventlessRoute(.working => .next) { _ in
                log("asked working")
                return false
            }
            machine.addEventlessRoute(.working => .done)
            machine.addAnyHandler(.any => .any) { context in
                log("\(context.event.map { "\($0)" } ?? "eventless"): \(context.fromState) => \(context.toState)")
            }
        }
        machine <-! .go
        #expect(
            log.lines == [
                "go: idle => working", "asked working", "eventless: working => done", "asked any",
            ])
        log.clear()
        isOpen = true
        machine <- .idle
        #expect(log.lines.isEmpty, "no route leads to idle: refused")
        machine.addRoutes(event: .other, transitions: [.done => .idle])
        machine <-! .other
        #expect(log.lines == ["other: done => idle", "asked any", "eventless: idle => over", "asked any"])
        #expect(machine.state == .over)
    }

    @Test func eventlessRoutesComeBeforeTheCompletionTheyFollow() {
        let log = Log()
        let chart = makeChart(in: .idle, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.idle => .done])
            chart.addDoneRoute(.job => .next)
            chart.addEventlessRoute(.job => .over) { _ in
                log("asked")
                return false
            }
        }
        chart <-! .go
        #expect(
            log.lines == [
                "exit idle", "go: idle => done", "enter job", "enter done", "asked",
                "exit done", "exit job", "state: done => next", "enter next",
            ])
    }

    @Test func anEventlessRouteTakesItsConditionAndIgnoresEventHandlers() {
        let log = Log()
        var ready = false
        let chart = makeChart(in: .idle, log: log) { chart in
            chart.addEventlessRoute(.idle => .next) { context in
                #expect(context.event == nil)
                return ready
            }
            chart.addRoutes(event: .other, transitions: [.any => .any])
        }
        var heard = 0
        chart.addHandler(event: .other) { _ in heard += 1 }
        chart <-! .other
        #expect(chart.state == .idle)
        ready = true
        chart <-! .other
        #expect(chart.state == .next)
        #expect(heard == 2)
        #expect(log.lines.suffix(3) == ["exit idle", "state: idle => next", "enter next"])
    }

    @Test func anEventlessRouteIsNotAStateRoute() {
        let chart = makeChart(in: .idle, log: Log()) { chart in
            chart.addEventlessRoute(.idle => .next) { _ in false }
        }
        #expect(!chart.canTryState(.next))
        #expect(chart.attemptState(.next).failureValue?.reason == .unreachable)
    }

    @Test func aDisposedEventlessRouteIsNoLongerTaken() {
        let chart = makeChart(in: .idle, log: Log())
        chart.addRoutes(event: .go, transitions: [.idle => .next, .next => .idle])
        let route = chart.addEventlessRoute(.next => .over) { _ in true }
        route.dispose()
        chart <-! .go
        #expect(chart.state == .next)
    }

    @Test func aCycleOfEventlessRoutesStopsAtTheLimitWithATypedError() throws {
        let log = Log()
        let chart = makeChart(in: .idle, log: log) { chart in
            chart.addRoutes(event: .go, transitions: [.idle => .next])
            chart.addEventlessRoute(.next => .idle) { _ in true }
            chart.addEventlessRoute(.idle => .next) { _ in true }
        }
        let error = try #require(chart.attemptEvent(.go).failureValue)
        #expect(error.reason == .unsettled)
        #expect(error.description.contains("\(Chart.internalStepLimit) steps"))
        #expect(log.lines.last == "refused")
        #expect(
            log.lines.filter { $0 == "state: next => idle" || $0 == "state: idle => next" }.count
                == Chart.internalStepLimit)
    }
}

extension Result {
    fileprivate var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

@Suite struct FinishedSnapshotTests {
    private static func machine() -> Machine<Step, Signal> {
        let machine = Machine<Step, Signal>(state: .idle)
        machine.addChildren([.working, .done], to: .job)
        machine.addFinalState(.over)
        machine.addRoutes(event: .go, transitions: [.idle => .over])
        return machine
    }

    @Test func aSnapshotKeepsWhetherTheMachineFinished() throws {
        let machine = Self.machine()
        #expect(machine.snapshot().isFinished == false)
        machine <-! .go
        let saved = machine.snapshot()
        #expect(saved == MachineSnapshot(activeStates: [.over], isFinished: true))

        let other = Self.machine()
        try other.restore(saved)
        #expect(other.isFinished)
        #expect(other.attemptEvent(.go).failureReason == .finished)

        try machine.restore(MachineSnapshot(activeStates: [.idle]))
        #expect(!machine.isFinished)
        #expect(machine.tryEvent(.go))
        #expect(machine.isFinished)
    }

    @Test func aSnapshotThatContradictsItsStatesIsRefused() {
        let machine = Self.machine()
        #expect(throws: SnapshotError.self) { try machine.restore(MachineSnapshot(activeStates: [.over])) }
        let error = #expect(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.idle], isFinished: true))
        }
        #expect(error?.reason == .finishMismatch)
        #expect(machine.state == .idle)
        let flat = Machine<Step, Signal>(state: .idle)
        #expect(throws: SnapshotError.self) {
            try flat.restore(MachineSnapshot(activeStates: [.idle], isFinished: true))
        }
    }

    @Test func aFinishedSnapshotDecodesAndOneSavedBeforeDecodesAsNotFinished() throws {
        let saved = MachineSnapshot<String>(activeStates: ["over"], isFinished: true)
        let data = try JSONEncoder().encode(saved)
        #expect(try JSONDecoder().decode(MachineSnapshot<String>.self, from: data) == saved)
        let older = Data(#"{"activeStates":["idle"],"history":{}}"#.utf8)
        #expect(try JSONDecoder().decode(MachineSnapshot<String>.self, from: older).isFinished == false)
    }
}

@Suite struct NestedCompletionTests {
    private enum Inner: StateType {
        case filling, full
    }

    @Test func aNestedMachinesFinalStateCompletesItsHostState() {
        let log = Log()
        let parent = Machine<Step, Signal>(state: .job)
        let child = Machine<Inner, Signal>(state: .filling)
        child.addRoutes(event: .go, transitions: [.filling => .full])
        child.addFinalState(.full)
        parent.nest(child, under: .job)
        parent.addDoneRoute(.job => .next)
        parent.addEntryHandler(.next) { _ in log("enter next") }
        parent.addExitHandler(.job) { _ in log("exit job") }
        child.addEntryHandler(.full) { _ in log("enter full") }
        child.addExitHandler(.full) { _ in log("exit full") }

        #expect(child.tryEvent(.go))
        #expect(log.lines == ["enter full", "exit full", "exit job", "enter next"])
        #expect(parent.state == .next)
        #expect(!parent.isFinished)
    }

    @Test func aNestedMachinesTopLevelFinalStateDoesNotFinishTheRoot() {
        let parent = Machine<Step, Signal>(state: .job)
        let child = Machine<Inner, Signal>(state: .filling)
        child.addRoutes(event: .go, transitions: [.filling => .full])
        child.addFinalState(.full)
        parent.nest(child, under: .job)
        #expect(child.tryEvent(.go))
        #expect(!parent.isFinished)
        #expect(!child.isFinished)
        #expect(parent.tryEvent(.go) == false)
    }
}
