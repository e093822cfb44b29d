import Switchyard
import Testing

// Final states, done clauses and eventless clauses in the DSL: each
// definition is checked against the same machine written with the operator
// API (the same handler calls, in order, and the same states), then what an
// effect machine and the pure function make of them.
//
//     job { working, done* }      p ‖ r1 { r1a, r1end* } ‖ r2 { r2a, r2end* }
//     idle     next     checking     over*
//
// (* final).

private enum Step: StateType, CaseIterable {
    case job, working, done, p, r1, r1a, r1end, r2, r2a, r2end, idle, next, checking, over
}

private enum Signal: EventType {
    case go, finish, split, end, stop
}

private typealias Chart = Machine<Step, Signal>

/// Flags the definitions' guards and the operator routes' conditions read.
private final class Flags {
    var isPaid = false
    var isFlagged = false
    var isOff = false
}

/// The definition of the chart, its routes written as clauses.
private func chartDefinition(_ flags: Flags) -> Definition<Step, Signal, String> {
    Definition(initialState: .idle) {
        From(.idle) {
            On(.go, transitionTo: .job)
            On(.split, transitionTo: .p)
            On(.stop, transitionTo: .over)
        }
        From(.job) {
            OnDone(transitionTo: .checking).guard { flags.isFlagged }
            OnDone(transitionTo: .next)
            From(.working) { On(.finish, transitionTo: .done) }
            Final(.done)
        }
        Parallel(.p) {
            OnDone(transitionTo: .over)
            From(.r1) {
                From(.r1a) { On(.end, transitionTo: .r1end) }
                Final(.r1end)
            }
            From(.r2) {
                From(.r2a) { On(.end, transitionTo: .r2end) }
                Final(.r2end)
            }
        }
        From(.checking) {
            Always(transitionTo: .next).guard { flags.isPaid }
            Always(transitionTo: .idle).guard { state in state == .checking && !flags.isPaid }
        }
        .disable { flags.isOff }
        From(.next) {
            Always(transitionTo: .idle).disable { flags.isOff }
        }
        Final(.over)
    }
}

/// The same chart with the operator API.
private func operatorChart(_ flags: Flags) -> Chart {
    let chart = Chart(state: .idle)
    chart.addChildren([.working, .done], to: .job)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1a, .r1end], to: .r1)
    chart.addChildren([.r2a, .r2end], to: .r2)
    for state in [Step.done, .r1end, .r2end, .over] {
        chart.addFinalState(state)
    }
    chart.addRoutes(event: .go, transitions: [.idle => .job])
    chart.addRoutes(event: .split, transitions: [.idle => .p])
    chart.addRoutes(event: .stop, transitions: [.idle => .over])
    chart.addRoutes(event: .finish, transitions: [.working => .done])
    chart.addRoutes(event: .end, transitions: [.r1a => .r1end, .r2a => .r2end])
    chart.addDoneRoute(.job => .checking) { _ in flags.isFlagged }
    chart.addDoneRoute(.job => .next)
    chart.addDoneRoute(.p => .over)
    chart.addEventlessRoute(.checking => .next) { _ in !flags.isOff && flags.isPaid }
    chart.addEventlessRoute(.checking => .idle) { context in
        !flags.isOff && context.fromState == .checking && !flags.isPaid
    }
    chart.addEventlessRoute(.next => .idle) { _ in !flags.isOff }
    return chart
}

/// `chart`, watched: "exit x", "enter x", "go: a => b" (the step's event, or
/// "state" for a step with none), "refused".
private func watch(_ chart: Chart, log: Log) {
    for state in Step.allCases {
        chart.addEntryHandler(state) { _ in log("enter \(state)") }
        chart.addExitHandler(state) { _ in log("exit \(state)") }
    }
    chart.addAnyHandler(.any => .any) { context in
        log("\(context.event.map { "\($0)" } ?? "state"): \(context.fromState) => \(context.toState)")
    }
    chart.addErrorHandler { _ in log("refused") }
}

/// The flag settings and event sequences the two machines are compared on.
private let scenarios: [(paid: Bool, flagged: Bool, off: Bool, events: [Signal])] = [
    (false, false, false, [.go, .finish, .go]),
    (true, true, false, [.go, .finish]),
    (false, true, false, [.go, .finish, .go]),
    (false, true, true, [.go, .finish, .go]),
    (false, false, true, [.go, .finish, .go]),
    (false, false, false, [.split, .end, .go]),
    (false, false, false, [.stop, .go]),
]

@Suite struct CompletionDefinitionTests {
    // MARK: The same machine as the operator API

    @Test(arguments: scenarios.indices)
    func aDefinitionsMachineBehavesAsTheOperatorAPIsMachine(scenario: Int) {
        let (paid, flagged, off, events) = scenarios[scenario]
        let flags = (Flags(), Flags())
        for flag in [flags.0, flags.1] {
            (flag.isPaid, flag.isFlagged, flag.isOff) = (paid, flagged, off)
        }
        let logs = (Log(), Log())
        let machines = (chartDefinition(flags.0).makeMachine(), operatorChart(flags.1))
        watch(machines.0, log: logs.0)
        watch(machines.1, log: logs.1)
        for event in events {
            let results = (machines.0.tryEvent(event), machines.1.tryEvent(event))
            #expect(results.0 == results.1, "\(event)")
            #expect(machines.0.configuration == machines.1.configuration, "\(event)")
            #expect(machines.0.isFinished == machines.1.isFinished, "\(event)")
        }
        #expect(logs.0.lines == logs.1.lines)
        #expect(!logs.0.lines.isEmpty)
    }

    @Test func aDoneClauseIsTakenInTheRequestThatCompletesItsState() {
        let log = Log()
        let machine = chartDefinition(Flags()).makeMachine()
        watch(machine, log: log)
        machine <-! .go
        log.clear()
        #expect(machine.tryEvent(.finish))
        #expect(
            log.lines == [
                "exit working", "finish: working => done", "enter done",
                "exit done", "exit job", "state: done => next", "enter next",
                "exit next", "state: next => idle", "enter idle",
            ])
        #expect(machine.state == .idle)
    }

    @Test func aTopLevelFinalStateFinishesTheMachine() throws {
        let machine = chartDefinition(Flags()).makeMachine()
        #expect(machine.tryEvent(.stop))
        #expect(machine.isFinished)
        let result = machine.tryEvent(.go, userInfo: nil) as Bool
        #expect(!result)
    }

    @Test func addDefinitionAddsFinalStatesAndCompletionRoutesToAMachine() {
        let flags = Flags()
        let machine = Chart(state: .idle)
        machine.addDefinition(chartDefinition(flags))
        machine <-! .split <-! .end
        #expect(machine.state == .over)
        #expect(machine.isFinished)
    }

    @Test func theArticlesOrderIsHeldUnlessPaidAndFinishesOnDelivery() throws {
        enum Order: StateType { case fulfilment, packing, packed, checking, shipped, held, delivered }
        enum Warehouse: EventType { case pack, deliver }
        var isPaid = false
        let order = Definition<Order, Warehouse, String>(initialState: .fulfilment) {
            From(.fulfilment) {
                OnDone(transitionTo: .checking)
                From(.packing) { On(.pack, transitionTo: .packed) }
                Final(.packed)
            }
            From(.checking) {
                Always(transitionTo: .shipped).guard { isPaid }
                Always(transitionTo: .held).guard { !isPaid }
            }
            From(.shipped) { On(.deliver, transitionTo: .delivered) }
            Final(.delivered) { OnEntry(emit: "thank the customer") }
        }
        let held = order.makeMachine()
        held <-! .pack
        #expect(held.state == .held)
        #expect(order.transition(from: .packing, on: .pack)?.toState == .held)
        isPaid = true
        let paid = order.makeMachine()
        paid <-! .pack <-! .deliver
        #expect(paid.state == .delivered)
        #expect(paid.isFinished)
    }

    // MARK: Misuse, with the operator API's messages

    @Test func aFinalStateWithChildrenStopsWithTheEnginesMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Step, Signal, String>(initialState: .idle) {
                Final(.job)
                From(.job) { From(.working) {} }
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("job has children; a final state has none"))
    }

    @Test func aFinalRegionStopsWithTheEnginesMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Step, Signal, String>(initialState: .idle) {
                Parallel(.p) {
                    From(.r1) { From(.r1a) {} }
                    Final(.r2)
                }
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("a region cannot be final"))
    }

    @Test func aDoneClauseOnAnAtomicStateStopsWithTheEnginesMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Step, Signal, String>(initialState: .idle) {
                From(.idle) { OnDone(transitionTo: .next) }
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("idle has no children or regions, so it is never done"))
    }

    @Test func anUnguardedEventlessClauseBackIntoItsSourceStopsWithTheEnginesMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Step, Signal, String>(initialState: .idle) {
                From(.job) {
                    Always(transitionTo: .working)
                    From(.working) {}
                    Final(.done)
                }
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("leads back into its source and has no condition: it would be taken forever"))
    }

    @Test func anUnguardedEventlessClauseFromAnyStopsWithTheEnginesMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Step, Signal, String>(initialState: .idle) {
                From(.any) { Always(transitionTo: .idle) }
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("leaves from .any and has no condition: it would be taken forever"))
    }

    @Test func aGuardedEventlessClauseFromAnyIsAllowed() {
        var isReset = false
        let machine = Definition<Step, Signal, String>(initialState: .next) {
            From(.any) { Always(transitionTo: .idle).guard { state in isReset && state != .idle } }
            From(.next) { On(.go, transitionTo: .checking) }
        }
        .makeMachine()
        isReset = true
        #expect(machine.tryEvent(.go))
        #expect(machine.state == .idle)
    }

    // MARK: The effect machine

    @Test func anEffectMachineReportsTheEffectsOfTheDoneAndEventlessStepsOfARequest() throws {
        let flags = Flags()
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.go, transitionTo: .job, emit: "go") }
            From(.job) {
                OnEntry(emit: "enter job")
                OnExit(emit: "exit job")
                OnDone(transitionTo: .checking, emit: "job done")
                From(.working) { On(.finish, transitionTo: .done, emit: "finish") }
                Final(.done) { OnEntry(emit: "enter done") }
            }
            From(.checking) {
                OnEntry(emit: "enter checking")
                OnExit(emit: "exit checking")
                Always(transitionTo: .next, emit: "paid").guard { flags.isPaid }
            }
        }
        let machine = EffectMachine(definition)
        var heard: [[String]] = []
        machine.onTransition { result in
            if case .success(let transition) = result { heard.append(transition.effects) }
        }
        #expect(try machine.transition(.go).effects == ["go", "enter job"])
        flags.isPaid = true
        let finished = try machine.transition(.finish)
        #expect(finished.toState == .next)
        #expect(
            finished.effects == [
                "finish", "enter done",  // the request's own step
                "exit job", "job done", "enter checking",  // job's done route
                "exit checking", "paid",  // the eventless route
            ])
        #expect(heard == [["go", "enter job"], finished.effects])
    }

    @Test func anEffectMachineStartedIntoAnEventlessRouteReportsItsStep() {
        let definition = Definition<Step, Signal, String>(initialState: .checking) {
            From(.checking) {
                OnEntry(emit: "enter checking")
                OnExit(emit: "exit checking")
                Always(transitionTo: .next, emit: "skip").guard { true }
            }
            From(.next) { OnEntry(emit: "enter next") }
        }
        let machine = EffectMachine(definition)
        #expect(machine.start() == ["enter checking", "exit checking", "skip", "enter next"])
        #expect(machine.machine.state == .next)
    }

    @Test func anEffectMachineReportsTheStepsOfEventlessRoutesAddedToItsMachine() throws {
        let machine = EffectMachine(finishing())
        machine.machine.addEventlessRoute(.done => .idle) { _ in true }
        machine.start()
        let finished = try machine.transition(.finish)
        #expect(finished.toState == .idle)
        // The route is not the definition's: its step emits the exits only.
        #expect(finished.effects == ["exit working", "finish", "enter done", "exit done", "exit job"])
    }

    @Test func anEffectMachineReportsAFinalStatesEntryAndTheFinishsExits() throws {
        let machine = EffectMachine(finishing())
        #expect(machine.start() == ["enter job", "enter working"])
        let finished = try machine.transition(.finish)
        // The nested final state completes `job`, which nothing reacts to.
        #expect(finished.effects == ["exit working", "finish", "enter done"])
        #expect(!machine.machine.isFinished)
        let over = try machine.transition(.stop)
        #expect(over.toState == .over)
        #expect(over.effects == ["exit done", "exit job", "stop", "enter over", "exit over"])
        #expect(machine.machine.isFinished)
        #expect(machine.attemptTransition(.go).failureReason == .finished)
    }

    @Test func anEffectMachineStartedInATopLevelFinalStateFinishesAtOnce() {
        let machine = EffectMachine(finishing().starting(in: .over))
        #expect(machine.start() == ["enter over", "exit over"])
        #expect(machine.machine.isFinished)
    }

    // MARK: The pure function

    @Test func thePureFunctionEndsAMoveIntoATopLevelFinalStateWithItsExitEffects() {
        let definition = finishing()
        #expect(
            definition.transition(from: .done, on: .stop)?.effects == [
                "exit done", "exit job", "stop", "enter over", "exit over",
            ])
        #expect(
            definition.transition(from: .working, on: .finish)?.effects == ["exit working", "finish", "enter done"])
        #expect(definition.attemptTransition(from: .over, on: .go).failureReason == .finished)
    }

    @Test func thePureFunctionAgreesWithAFlatMachineThatFinishes() throws {
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.stop, transitionTo: .over, emit: "stop") }
            Final(.over) {
                OnEntry(emit: "enter over")
                OnExit(emit: "exit over")
            }
        }
        let machine = EffectMachine(definition)
        let outcome = try #require(definition.transition(from: .idle, on: .stop))
        let transition = try machine.transition(.stop)
        #expect(outcome.effects == ["stop", "enter over", "exit over"])
        #expect(transition.effects == outcome.effects)
        #expect(transition.toState == outcome.toState)
        #expect(machine.attemptTransition(.stop).failureReason == .finished)
    }

    @Test func thePureFunctionTakesAChainOfEventlessClausesAfterTheEvent() throws {
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.go, transitionTo: .checking, emit: "go") }
            From(.checking) {
                OnEntry(emit: "enter checking")
                OnExit(emit: "exit checking")
                Always(transitionTo: .next, emit: "checked").guard { state in state == .checking }
            }
            From(.next) {
                OnEntry(emit: "enter next")
                OnExit(emit: "exit next")
                Always(transitionTo: .over, emit: "next").guard { true }
            }
            From(.over) { OnEntry(emit: "enter over") }
        }
        let outcome = try #require(definition.transition(from: .idle, on: .go))
        #expect(outcome.toState == .over)
        #expect(
            outcome.effects == [
                "go", "enter checking",  // the event's step
                "exit checking", "checked", "enter next",  // the first eventless step
                "exit next", "next", "enter over",  // the second
            ])
        expectTheEffectMachinesAnswer(definition, from: .idle, on: .go)
    }

    @Test func thePureFunctionTakesADoneClauseOnceAFinalChildIsEntered() throws {
        let definition = Definition<Step, Signal, String>(initialState: .job) {
            From(.job) {
                OnExit(emit: "exit job")
                OnDone(transitionTo: .next, emit: "job done")
                From(.working) { On(.finish, transitionTo: .done, emit: "finish") }
                Final(.done) {
                    OnEntry(emit: "enter done")
                    OnExit(emit: "exit done")
                }
            }
            From(.next) { OnEntry(emit: "enter next") }
        }
        let outcome = try #require(definition.transition(from: .working, on: .finish))
        #expect(outcome.toState == .next)
        #expect(outcome.effects == ["finish", "enter done", "exit done", "exit job", "job done", "enter next"])
        expectTheEffectMachinesAnswer(definition, from: .working, on: .finish)
    }

    @Test func thePureFunctionStopsWhereAnEventlessClausesGuardRefuses() throws {
        let flags = Flags()
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.go, transitionTo: .checking, emit: "go") }
            From(.checking) { Always(transitionTo: .next, emit: "paid").guard { flags.isPaid } }
        }
        #expect(definition.transition(from: .idle, on: .go) == .init(toState: .checking, effects: ["go"]))
        expectTheEffectMachinesAnswer(definition, from: .idle, on: .go)
        flags.isPaid = true
        #expect(definition.transition(from: .idle, on: .go) == .init(toState: .next, effects: ["go", "paid"]))
        expectTheEffectMachinesAnswer(definition, from: .idle, on: .go)
    }

    @Test func thePureFunctionFinishesInATopLevelFinalStateReachedThroughAnEventlessClause() throws {
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.stop, transitionTo: .checking, emit: "stop") }
            From(.checking) {
                OnExit(emit: "exit checking")
                Always(transitionTo: .over, emit: "over").guard { true }
            }
            Final(.over) {
                OnEntry(emit: "enter over")
                OnExit(emit: "exit over")
            }
        }
        let outcome = try #require(definition.transition(from: .idle, on: .stop))
        #expect(outcome.toState == .over)
        #expect(outcome.effects == ["stop", "exit checking", "over", "enter over", "exit over"])
        expectTheEffectMachinesAnswer(definition, from: .idle, on: .stop)
        #expect(definition.attemptTransition(from: .over, on: .go).failureReason == .finished)
        let machine = EffectMachine(definition)
        try machine.transition(.stop)
        #expect(machine.machine.isFinished)
        #expect(machine.attemptTransition(.go).failureReason == .finished)
    }

    @Test func thePureFunctionReportsACycleOfEventlessClausesAsUnsettled() throws {
        let definition = Definition<Step, Signal, String>(initialState: .idle) {
            From(.idle) { On(.go, transitionTo: .checking) }
            From(.checking) { Always(transitionTo: .next).guard { true } }
            From(.next) { Always(transitionTo: .checking).guard { true } }
        }
        let result = definition.attemptTransition(from: .idle, on: .go)
        #expect(result.failureReason == .unsettled)
        #expect(definition.transition(from: .idle, on: .go) == nil)
        let machine = EffectMachine(definition)
        let moved = machine.attemptTransition(.go)
        #expect(moved.failureReason == .unsettled)
        if case .failure(let refusal) = result, case .failure(let error) = moved {
            #expect(refusal.description == error.description)
        }
    }

    @Test func aGuardMayAskThePureFunctionOfItsOwnDefinition() throws {
        var definition: Definition<Step, Signal, String>?
        // The guard holds the definition that holds the guard: a cycle to break.
        defer { definition = nil }
        var answers: [Definition<Step, Signal, String>.Outcome?] = []
        definition = Definition(initialState: .idle) {
            From(.idle) { On(.go, transitionTo: .checking, emit: "go") }
            From(.checking) {
                Always(transitionTo: .next, emit: "checked").guard {
                    // Asked while the outer request's macrostep is worked out.
                    answers.append(definition?.transition(from: .idle, on: .finish))
                    return true
                }
            }
            From(.next) { On(.finish, transitionTo: .checking, emit: "again") }
            From(.idle) { On(.finish, transitionTo: .next, emit: "finish") }
        }
        let outcome = try #require(definition?.transition(from: .idle, on: .go))
        #expect(outcome == .init(toState: .next, effects: ["go", "checked"]))
        #expect(answers == [.init(toState: .next, effects: ["finish"])])
    }
}

/// Expects the pure function of `definition` to answer `event` in `state`
/// as an effect machine made from it, in that state, does.
private func expectTheEffectMachinesAnswer(
    _ definition: Definition<Step, Signal, String>, from state: Step, on event: Signal,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let pure = definition.attemptTransition(from: state, on: event)
    let moved = EffectMachine(definition.starting(in: state)).attemptTransition(event)
    expectSameAnswer(machine: moved, pure: pure, "\(state) on \(event)", sourceLocation: sourceLocation)
}

/// A definition with final states and entry and exit effects, but no done
/// or eventless clause: what an effect machine and the pure function take.
private func finishing() -> Definition<Step, Signal, String> {
    Definition(initialState: .job) {
        From(.job) {
            OnEntry(emit: "enter job")
            OnExit(emit: "exit job")
            On(.stop, transitionTo: .over, emit: "stop")
            From(.working) {
                OnEntry(emit: "enter working")
                OnExit(emit: "exit working")
                On(.finish, transitionTo: .done, emit: "finish")
            }
            Final(.done) {
                OnEntry(emit: "enter done")
                OnExit(emit: "exit done")
            }
        }
        Final(.over) {
            OnEntry(emit: "enter over")
            OnExit(emit: "exit over")
        }
    }
}
