import Switchyard
import Testing

// The DSL's clauses and modifiers, each through the effect machine and the
// pure function, and a definition's routes on a plain machine beside routes
// written with the operator API.

private enum Door: StateType, CaseIterable {
    case open, closed, locked, broken
}

private enum DoorEvent: EventType, CaseIterable {
    case open, close, lock, unlock, knock, kick
}

private typealias DoorMachine = EffectMachine<Door, DoorEvent, String>

/// The outcome of `event` from `state` through a fresh effect machine and
/// through the pure function; records an issue if they disagree.
private func decide(
    _ definition: Definition<Door, DoorEvent, String>, from state: Door, on event: DoorEvent,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Result<Definition<Door, DoorEvent, String>.Outcome, TransitionError> {
    let machine = EffectMachine(definition.starting(in: state))
    let pure = definition.attemptTransition(from: state, on: event)
    let result = machine.attemptTransition(event)
    switch (result, pure) {
    case (.success(let valid), .success(let outcome)):
        #expect(valid.toState == outcome.toState, sourceLocation: sourceLocation)
        #expect(valid.effects == outcome.effects, sourceLocation: sourceLocation)
        #expect(machine.state == outcome.toState, sourceLocation: sourceLocation)
    case (.failure(let error), .failure(let refusal)):
        #expect(error.reason == refusal.reason, sourceLocation: sourceLocation)
        #expect(machine.state == state, sourceLocation: sourceLocation)
    default:
        Issue.record("machine \(result) but pure function \(pure)", sourceLocation: sourceLocation)
    }
    return pure
}

@Suite struct DefinitionDSLTests {
    @Test func aGuardRefusesAndALaterClauseMayAnswer() throws {
        var hasKey = false
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) {
                On(.lock, transitionTo: .locked, emit: "locked").guard { hasKey }
                On(.lock, stayAndEmit: "no key").guard { door, event in door == .closed && event == .lock }
                On(.open, transitionTo: .open).guard { _, _ in false }
            }
        }
        #expect(try decide(door, from: .closed, on: .lock).get() == .init(toState: .closed, effects: ["no key"]))
        #expect(decide(door, from: .closed, on: .open).failureReason == .conditionsRefused)
        hasKey = true
        #expect(try decide(door, from: .closed, on: .lock).get() == .init(toState: .locked, effects: ["locked"]))
    }

    @Test func stayingInPlaceStillEmitsAndIsHeard() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) { On(.knock, stayAndEmit: "who is there?", "footsteps") }
        }
        let machine = EffectMachine(door)
        var heard: [DoorMachine.Transition.Result] = []
        machine.onTransition { heard.append($0) }
        let transition = try machine.transition(.knock)
        #expect(
            transition
                == .init(fromState: .closed, event: .knock, toState: .closed, effects: ["who is there?", "footsteps"]))
        #expect(try heard.map { try $0.get() } == [transition])
        #expect(machine.state == .closed)
    }

    @Test func disableTurnsOffAClauseAGroupOrSeveralGroups() throws {
        var isJammed = false
        var isPowerCut = false
        var isNight = false
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) {
                On(.open, transitionTo: .open).disable { isJammed }
            }
            From(.open) {
                On(.close, transitionTo: .closed)
            }
            .disable { isPowerCut }
            Transitions {
                From(.closed) { On(.lock, transitionTo: .locked) }
                From(.locked) { On(.unlock, transitionTo: .closed) }
            }
            .disable { isNight }
        }
        #expect(decide(door, from: .closed, on: .open).isSuccess)
        #expect(decide(door, from: .open, on: .close).isSuccess)
        #expect(decide(door, from: .closed, on: .lock).isSuccess)
        isJammed = true
        isPowerCut = true
        isNight = true
        #expect(decide(door, from: .closed, on: .open).failureReason == .conditionsRefused)
        #expect(decide(door, from: .open, on: .close).failureReason == .conditionsRefused)
        #expect(decide(door, from: .closed, on: .lock).failureReason == .conditionsRefused)
        #expect(decide(door, from: .locked, on: .unlock).failureReason == .conditionsRefused)
    }

    @Test func anAnyGroupAnswersAfterTheCurrentStatesOwnClauses() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.any) {
                On(.kick, transitionTo: .broken, emit: "crash")
                On(.any, stayAndEmit: "ignored")
            }
            From(.locked) {
                On(.kick, stayAndEmit: "ouch")
            }
        }
        #expect(try decide(door, from: .locked, on: .kick).get() == .init(toState: .locked, effects: ["ouch"]))
        #expect(try decide(door, from: .open, on: .kick).get() == .init(toState: .broken, effects: ["crash"]))
        #expect(try decide(door, from: .open, on: .knock).get() == .init(toState: .open, effects: ["ignored"]))
    }

    /// Computed clauses (answered by the definition's route mapping) follow
    /// the routes' one order, flat or nested: the state's own clause of any
    /// event before an exact event's clause from `.any`. Before, a flat
    /// definition tried the event's clauses first, so declaring children of
    /// an unrelated state flipped the answer.
    @Test(arguments: [false, true])
    func computedClausesTakeTheStatesOwnBeforeTheRootsWhetherOrNotStatesNest(nests: Bool) throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.any) {
                On(.kick, emit: "root") { _ in .open }
            }
            From(.locked) {
                On(.any, emit: "own") { _, _ in .broken }
            }
            if nests {
                From(.closed) {
                    From(.open) {}
                }
            }
        }
        #expect(try decide(door, from: .locked, on: .kick).get() == .init(toState: .broken, effects: ["own"]))
        let machine = door.starting(in: .locked).makeMachine(delivery: .immediate)
        machine <-! .kick
        #expect(machine.state == .broken)
    }

    @Test(arguments: [false, true])
    func ifElseForAndOptionalClausesInTheBuilder(hasLock: Bool) throws {
        let knock: On<Door, DoorEvent, String, Door>? = hasLock ? nil : On(.knock, stayAndEmit: "knock")
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            if hasLock {
                From(.closed) { On(.lock, transitionTo: .locked) }
            } else {
                From(.closed) { On(.lock, stayAndEmit: "no lock") }
            }
            for state in [Door.open, .closed] {
                From(state) {
                    On(.kick, transitionTo: .broken, emit: "kicked \(state)")
                    if hasLock {
                        On(.unlock, stayAndEmit: "already unlocked")
                    }
                    knock
                }
            }
        }
        #expect(try decide(door, from: .closed, on: .lock).get().toState == (hasLock ? .locked : .closed))
        #expect(try decide(door, from: .open, on: .kick).get().effects == ["kicked open"])
        #expect(try decide(door, from: .closed, on: .kick).get().effects == ["kicked closed"])
        #expect(decide(door, from: .open, on: .unlock).isSuccess == hasLock)
        #expect(decide(door, from: .open, on: .knock).isSuccess == !hasLock)
    }

    @Test func aComputedTargetSeesTheStateAndTheEventAndMayRefuse() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.open, .closed) {
                On(.close) { door, _ in door == .open ? .closed : nil }
                On(.kick) { door, event in .transition(to: .broken, emit: "\(event) \(door)") }
            }
        }
        #expect(try decide(door, from: .open, on: .close).get() == .init(toState: .closed, effects: []))
        #expect(decide(door, from: .closed, on: .close).failureReason == .conditionsRefused)
        #expect(try decide(door, from: .closed, on: .kick).get().effects == ["kick closed"])
    }

    @Test func computedClausesFollowTheMachinesOrderForRoutesForAnyStateType() throws {
        struct Counter: StateType {
            var value: Int
        }
        let counter = Definition<Counter, DoorEvent, String>(initialState: Counter(value: 0)) {
            From(Counter(value: 0)) {
                On(.any) { _, _ in Counter(value: 1) }
            }
            From(.any) {
                On(.knock) { _, _ in Counter(value: 2) }
            }
        }
        // The same rules as routes: the state's own route of any event
        // beats an exact event's route from `.any` (SPEC §2's walk: the
        // state, then the root).
        let routes = Machine<Counter, DoorEvent>(state: Counter(value: 0)) { machine in
            machine.addRoutes(event: .any, transitions: [Counter(value: 0) => Counter(value: 1)])
            machine.addRoutes(event: .knock, transitions: [.any => Counter(value: 2)])
        }
        routes <-! .knock
        #expect(routes.state == Counter(value: 1))
        #expect(counter.transition(from: Counter(value: 0), on: .knock)?.toState == routes.state)
        #expect(counter.transition(from: Counter(value: 0), on: .kick)?.toState == Counter(value: 1))
        #expect(counter.transition(from: Counter(value: 3), on: .knock)?.toState == Counter(value: 2))
        let machine = counter.makeMachine()
        machine <-! .knock
        #expect(machine.state == routes.state)
    }

    @Test func nestedStatesEmitExitsTheClauseAndEntriesInOrder() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .broken) {
            From(.broken) { On(.close, transitionTo: .closed, emit: "repaired") }
            From(.closed) {
                OnEntry(emit: "enter closed")
                OnExit(emit: "exit closed")
                On(.kick, transitionTo: .broken, emit: "kicked")
                From(.locked) {
                    OnEntry(emit: "enter locked")
                    OnExit(emit: "exit locked")
                    On(.unlock, transitionTo: .open, emit: "unlocked")
                }
                From(.open) {
                    On(.lock, transitionTo: .locked, emit: "locked")
                }
            }
        }
        #expect(
            try decide(door, from: .broken, on: .close).get()
                == .init(toState: .locked, effects: ["repaired", "enter closed", "enter locked"]))
        #expect(
            try decide(door, from: .locked, on: .kick).get()
                == .init(toState: .broken, effects: ["exit locked", "exit closed", "kicked"]))
        #expect(
            try decide(door, from: .locked, on: .unlock).get()
                == .init(toState: .open, effects: ["exit locked", "unlocked"]))
        #expect(
            try decide(door, from: .open, on: .lock).get()
                == .init(toState: .locked, effects: ["locked", "enter locked"]))
    }

    @Test func thePureFunctionPlansAComputedTargetAndACompoundStateAsAMachineDoes() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .broken) {
            From(.broken) { On(.close) { _, _ in .transition(to: .closed, emit: "repaired") } }
            From(.closed) {
                OnEntry(emit: "enter closed")
                OnExit(emit: "exit closed")
                On(.kick) { _, _ in .transition(to: .broken, emit: "kicked") }
                From(.locked) {
                    OnEntry(emit: "enter locked")
                    OnExit(emit: "exit locked")
                }
                From(.open) {}
            }
        }
        // A computed target is entered through its initial child.
        #expect(
            try decide(door, from: .broken, on: .close).get()
                == .init(toState: .locked, effects: ["repaired", "enter closed", "enter locked"]))
        // A compound state stands for it and its initial child, as in a machine started there.
        #expect(
            try decide(door, from: .closed, on: .kick).get()
                == .init(toState: .broken, effects: ["exit locked", "exit closed", "kicked"]))
        #expect(
            try decide(door, from: .open, on: .kick).get()
                == .init(toState: .broken, effects: ["exit closed", "kicked"]))
    }

    @Test func fromACompoundStateTheInitialChildsClauseWinsAsInAMachineStartedThere() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .broken) {
            From(.broken) { On(.close, transitionTo: .closed, emit: "repaired") }
            From(.closed) {
                OnEntry(emit: "enter closed")
                OnExit(emit: "exit closed")
                On(.kick, transitionTo: .broken, emit: "kicked")
                On(.knock, stayAndEmit: "knocked")
                On(.unlock, transitionTo: .open, emit: "unlocked").guard { state, _ in state == .locked }
                From(.locked) {
                    OnEntry(emit: "enter locked")
                    OnExit(emit: "exit locked")
                    On(.kick, transitionTo: .open, emit: "sprung")
                }
                From(.open) {}
            }
        }
        // A machine started in `closed` has entered `locked`, which is offered the event first.
        let machine = EffectMachine(door.starting(in: .closed))
        #expect(machine.start() == ["enter closed", "enter locked"])
        #expect(machine.state == .locked)
        let moved = try machine.transition(.kick)
        let outcome = try #require(door.transition(from: .closed, on: .kick))
        // The child's clause and its exits; the start's entries are not the step's.
        #expect(outcome == .init(toState: .open, effects: ["exit locked", "sprung"]))
        #expect(moved.toState == outcome.toState)
        #expect(moved.effects == outcome.effects)
        // The parent's clauses answer what the child's do not: a stay names
        // the atomic state the machine is in, and a guard is told it.
        #expect(
            try decide(door, from: .closed, on: .knock).get() == .init(toState: .locked, effects: ["knocked"]))
        #expect(
            try decide(door, from: .closed, on: .unlock).get()
                == .init(toState: .open, effects: ["exit locked", "exit closed", "unlocked", "enter closed"]))
        // A refusal names the state a machine started there reports.
        guard case .failure(let refused) = EffectMachine(door.starting(in: .closed)).attemptTransition(.lock),
            case .failure(let refusal) = door.attemptTransition(from: .closed, on: .lock)
        else {
            Issue.record("both should refuse lock from closed")
            return
        }
        #expect(refusal.reason == .noRoute)
        #expect(refusal == refused)
        #expect(refusal.description.contains("from locked"))
    }

    @Test func eachStateGetsItsOwnExitsForAClauseOfAnAncestorOrOfAnyState() throws {
        // The pure function works out such moves when the definition is made,
        // from every state that can take them: each state's answer is its own.
        var allowsKick = true
        let door = Definition<Door, DoorEvent, String>(initialState: .locked) {
            From(.any) { On(.kick, transitionTo: .broken, emit: "kicked") }
            From(.closed) {
                OnExit(emit: "exit closed")
                On(.open, transitionTo: .open, emit: "opened")
                From(.locked) {
                    OnExit(emit: "exit locked")
                    On(.kick, transitionTo: .closed, emit: "rattled").guard { allowsKick }
                }
            }
            From(.open) {
                OnEntry(emit: "enter open")
                OnExit(emit: "exit open")
            }
            From(.broken) { OnEntry(emit: "enter broken") }
        }
        #expect(
            try decide(door, from: .locked, on: .kick).get()
                == .init(toState: .locked, effects: ["exit locked", "exit closed", "rattled"]))
        allowsKick = false
        #expect(
            try decide(door, from: .locked, on: .kick).get()
                == .init(toState: .broken, effects: ["exit locked", "exit closed", "kicked", "enter broken"]))
        #expect(
            try decide(door, from: .open, on: .kick).get()
                == .init(toState: .broken, effects: ["exit open", "kicked", "enter broken"]))
        #expect(
            try decide(door, from: .locked, on: .open).get()
                == .init(toState: .open, effects: ["exit locked", "exit closed", "opened", "enter open"]))
        #expect(
            try decide(door, from: .broken, on: .kick).get()
                == .init(toState: .broken, effects: ["kicked", "enter broken"]))
    }

    @Test func aDefinitionsMachineTakesOperatorRoutesAndHandlersBesideItsClauses() {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            From(.open) { On(.close, transitionTo: .closed) }
        }
        let machine = door.makeMachine()
        machine.addRoutes(event: .lock, transitions: [.closed => .locked])
        machine.addRoute(.locked => .closed)
        let log = Log()
        machine.addHandler(event: .any) { context in log("\(context.fromState) => \(context.toState)") }
        machine.addAnyHandler(.any => .any) { context in log("any \(context.toState)") }

        machine <-! .open <-! .close <-! .lock
        machine <- .closed
        #expect(machine.state == .closed)
        #expect(
            log.lines == [
                "closed => open", "any open",
                "open => closed", "any closed", "closed => locked", "any locked", "any closed",
            ])

        // The other way round: a machine written with operators adopts a definition.
        let plain = Machine<Door, DoorEvent>(state: .locked) { machine in
            machine.addRoutes(event: .unlock, transitions: [.locked => .closed])
        }
        plain.addDefinition(door)
        plain <-! .unlock <-! .open
        #expect(plain.state == .open)
    }

    @Test func anEffectMachinesObserverHearsValidAndInvalidTransitionsInRequestOrder() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            From(.open) { On(.close, transitionTo: .closed, emit: "slam") }
        }
        let machine = EffectMachine(door)
        var heard: [String] = []
        // Unowned: the machine keeps its observers, so a strong capture would be a cycle.
        machine.onTransition { [unowned machine] result in
            switch result {
            case .success(let transition):
                heard.append(
                    "\(transition.fromState) -\(transition.event)-> \(transition.toState) \(transition.effects)")
                if transition.toState == .open {
                    // A request made by an observer is heard after the one it answers.
                    machine.attemptTransition(.close)
                }
            case .failure(let error):
                heard.append("refused \(error.reason)")
            }
        }
        machine.attemptTransition(.close)
        machine.attemptTransition(.open)
        #expect(
            heard == [
                "refused noRoute", "closed -open-> open [\"creak\"]", "open -close-> closed [\"slam\"]",
            ])
    }
}

extension DefinitionDSLTests {
    @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
    func aRequestFromAMachineHandlerIsHeardAfterTheOneInProgressWithItsOwnEffects(delivery: DeliveryPolicy) throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            From(.open) { On(.close, transitionTo: .closed, emit: "slam") }
        }
        let machine = EffectMachine(door, delivery: delivery)
        var heard: [String] = []
        machine.onTransition { result in
            if case .success(let transition) = result {
                heard.append("\(transition.toState) \(transition.effects)")
            }
        }
        var nested: EffectMachine<Door, DoorEvent, String>.Transition.Result?
        machine.machine.addHandler(event: .open) { [unowned machine] _ in
            nested = machine.attemptTransition(.close)
        }
        let opened = try machine.transition(.open)
        #expect(opened.effects == ["creak"])
        if delivery == .immediate {
            #expect(try nested?.get().effects == ["slam"])
        } else {
            // Queued behind the request in progress: decided after it, and heard.
            guard case .failure(let error) = nested else {
                Issue.record("expected the nested request to be queued, got \(String(describing: nested))")
                return
            }
            #expect(error.reason == .queued)
        }
        #expect(machine.state == .closed)
        #expect(heard == ["open [\"creak\"]", "closed [\"slam\"]"])
    }
}

extension DefinitionDSLTests {
    @Test func anEffectMachinesPlainMachineOutlivesIt() {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) {
                OnEntry(emit: "shut")
                On(.open) { _, _ in .open }  // answered by the route mapping
                From(.locked) { On(.unlock, transitionTo: .closed, emit: "click") }
            }
            From(.open) { On(.close, transitionTo: .closed, emit: "slam") }
        }
        var effectMachine: EffectMachine<Door, DoorEvent, String>? = EffectMachine(door)
        let machine = effectMachine!.machine
        effectMachine = nil
        machine <-! .open <-! .close <-! .open
        #expect(machine.state == .open)
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

// What the engine says a request took is what its effects are looked up by.
extension DefinitionDSLTests {
    @Test func aPlainMachineSaysAClauseThatCoveredTheEventRefusedItAsThePureFunctionDoes() {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.open, .closed) {
                On(.close) { door, _ in door == .open ? .closed : nil }
                On(.kick) { _, _ in .broken }.guard { _, _ in false }
            }
        }
        for event in [DoorEvent.close, .kick] {
            let machine = door.makeMachine()
            #expect(door.attemptTransition(from: .closed, on: event).failureReason == .conditionsRefused)
            #expect(machine.attemptEvent(event).failureReason == .conditionsRefused, "\(event)")
            #expect(machine.state == .closed)
        }
        #expect(door.makeMachine().attemptEvent(.lock).failureReason == .noRoute)
    }

    @Test func anEffectMachineReportsTheEffectsOfItsOwnDefinitionOnly() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            From(.open) { On(.close) { _, _ in .transition(to: .closed, emit: "slam") } }
        }
        let other = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.open) { On(.kick, transitionTo: .broken, emit: "other's crash") }
            From(.closed) { On(.knock) { _, _ in .transition(to: .open, emit: "other's knock") } }
        }
        let machine = EffectMachine(door)
        machine.machine.addDefinition(other)
        machine.machine.addRoutes(event: .lock, transitions: [.closed => .locked])
        machine.machine.addRoute(.locked => .closed)
        #expect(try machine.transition(.knock).effects == [])
        #expect(try machine.transition(.close).effects == ["slam"])
        #expect(try machine.transition(.lock).effects == [])
        machine.machine <- .closed
        #expect(try machine.transition(.open).effects == ["creak"])
        #expect(try machine.transition(.kick).effects == [])
        #expect(machine.state == .broken)
    }

    @Test func aComputedClauseThatAsksItsMachineAQuestionStillEmitsItsOwnEffects() throws {
        var machine: EffectMachine<Door, DoorEvent, String>?
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) {
                On(.kick) { _, _ in
                    // Asks the same mapping another question before answering.
                    let opens = machine?.machine.canTryEvent(.knock) != nil
                    return .transition(to: .broken, emit: "kick", opens ? "knock would open" : "knock would not")
                }
                On(.knock) { _, _ in .transition(to: .open, emit: "knock") }
            }
        }
        machine = EffectMachine(door)
        // The definition's closure holds the machine that holds the definition.
        defer { machine = nil }
        #expect(try machine?.transition(.kick).effects == ["kick", "knock would open"])
    }

    @Test func aStatechartStepsEffectsAreItsOwnWhenItsHandlersMakeRequests() throws {
        let machine = EffectMachine(doorWithEntryAndExitEffects())
        // A request made by an entry handler waits for the step, then runs.
        machine.machine.addEntryHandler(.open) { [unowned machine] _ in
            machine.machine <-! .close
        }
        let opened = try machine.transition(.open)
        #expect(opened.effects == ["leave closed", "creak", "enter open"])
        #expect(machine.state == .closed)
    }
}

extension DefinitionDSLTests {
    @Test func aStatechartHandlersRequestThroughTheEffectMachineIsQueuedAndHeardWithItsEffects() throws {
        let machine = EffectMachine(doorWithEntryAndExitEffects())
        var heard: [String] = []
        machine.onTransition { result in
            switch result {
            case .success(let transition): heard.append("\(transition.toState) \(transition.effects)")
            case .failure(let error): heard.append("refused \(error.reason)")
            }
        }
        var nested: EffectMachine<Door, DoorEvent, String>.Transition.Result?
        machine.machine.addEntryHandler(.open) { [unowned machine] _ in
            nested = machine.attemptTransition(.close)
        }

        let opened = try machine.transition(.open)

        #expect(opened.effects == ["leave closed", "creak", "enter open"])
        guard case .failure(let error) = nested else {
            Issue.record("expected the handler's request to be queued, got \(String(describing: nested))")
            return
        }
        #expect(error.reason == .queued)
        #expect(machine.state == .closed)
        #expect(heard == ["open [\"leave closed\", \"creak\", \"enter open\"]", "closed [\"leave open\", \"slam\"]"])
    }

    @Test func anEffectMachineWhoseMachineIsNestedInAnotherStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
                From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            }
            let effects = EffectMachine(door)
            let house = Machine<Door, DoorEvent>(state: .open)
            house.nest(effects.machine, under: .broken)
            house <- .broken
            _ = effects.attemptTransition(.open)
        }
        #expect(message(of: result).contains("An EffectMachine's machine was nested in another machine"))
    }
}

extension DefinitionDSLTests {
    @Test func startReturnsTheEffectsOfTheStatesItEnteredWhenAnEntryHandlerMovesTheMachine() throws {
        let door = Definition<Door, DoorEvent, String>(initialState: .closed) {
            From(.closed) {
                OnEntry(emit: "enter closed")
                On(.open, transitionTo: .open, emit: "creak")
            }
            From(.open) { OnEntry(emit: "enter open") }
        }
        let machine = EffectMachine(door)
        machine.machine.addEntryHandler(.closed) { [unowned machine] _ in
            machine.machine <-! .open
        }
        #expect(machine.start() == ["enter closed"])
        #expect(machine.state == .open)
        #expect(machine.start() == [])
    }
}

/// A door whose states emit on entry and exit: a statechart's definition.
private func doorWithEntryAndExitEffects() -> Definition<Door, DoorEvent, String> {
    Definition(initialState: .closed) {
        From(.closed) {
            OnExit(emit: "leave closed")
            On(.open, transitionTo: .open, emit: "creak")
        }
        From(.open) {
            OnEntry(emit: "enter open")
            OnExit(emit: "leave open")
            On(.close, transitionTo: .closed, emit: "slam")
        }
    }
}

/// A door that opens and closes: with entry and exit effects (a statechart's
/// definition), or flat.
private func openingDoor(statechart: Bool) -> Definition<Door, DoorEvent, String> {
    statechart
        ? doorWithEntryAndExitEffects()
        : Definition(initialState: .closed) {
            From(.closed) { On(.open, transitionTo: .open, emit: "creak") }
            From(.open) { On(.close, transitionTo: .closed, emit: "slam") }
        }
}

extension DefinitionDSLTests {
    /// A handler's requests through the effect machine and through its plain
    /// machine wait in one queue: they are taken in the order they were made.
    @Test(arguments: [false, true])
    func aHandlersRequestsThroughBothMachinesAreTakenInTheOrderMade(statechart: Bool) throws {
        let machine = EffectMachine(openingDoor(statechart: statechart), delivery: .runToCompletion)
        var moves: [String] = []
        machine.machine.addAnyHandler(.any => .any) { moves.append("\($0.fromState) => \($0.toState)") }
        var first = true
        machine.machine.addHandler(event: .open) { [unowned machine] _ in
            guard first else { return }
            first = false
            _ = machine.attemptTransition(.close)
            machine.machine <-! .open
        }
        try machine.transition(.open)
        #expect(moves == ["closed => open", "open => closed", "closed => open"])
        #expect(machine.state == .open)
    }

    /// A handler of a request made straight to the plain machine asks the
    /// effect machine: the request waits as the machine's own would, and is
    /// decided, with its effects, and heard once the delivery is over.
    /// Before, a statechart refused it as re-entrant, and a flat machine
    /// under run-to-completion queued it where no observer heard it.
    @Test(arguments: [false, true])
    func aRequestThroughTheEffectMachineFromAPlainRequestsHandlerWaitsAndIsHeard(statechart: Bool) throws {
        let machine = EffectMachine(openingDoor(statechart: statechart), delivery: .runToCompletion)
        var heard: [String] = []
        machine.onTransition { result in
            switch result {
            case .success(let valid): heard.append("\(valid.event): \(valid.effects)")
            case .failure(let error): heard.append("refused \(error.reason)")
            }
        }
        var inner: EffectMachine<Door, DoorEvent, String>.Transition.Result?
        machine.machine.addHandler(event: .open) { [unowned machine] _ in
            inner = machine.attemptTransition(.close)
        }
        #expect(machine.machine.tryEvent(.open))
        guard case .failure(let error) = inner else {
            Issue.record("the inner request was not queued: \(String(describing: inner))")
            return
        }
        #expect(error.reason == .queued)
        #expect(machine.state == .closed)
        let slam = statechart ? ["leave open", "slam"] : ["slam"]
        #expect(heard == ["close: \(slam)"])
    }

    /// Such a request's own handlers ask the effect machine again: each
    /// result is heard once, in the order the requests were made. (A first
    /// version kept no place for the outer request, so the inner one took
    /// its place and neither was heard.)
    @Test(arguments: [false, true])
    func requestsThroughTheEffectMachineFromAPlainRequestsHandlersAreHeardInTurn(statechart: Bool) {
        let machine = EffectMachine(openingDoor(statechart: statechart), delivery: .runToCompletion)
        var heard: [String] = []
        machine.onTransition { result in
            switch result {
            case .success(let valid): heard.append("\(valid.event) -> \(valid.toState)")
            case .failure(let error): heard.append("refused \(error.reason)")
            }
        }
        var (closes, opens) = (1, 1)
        machine.machine.addHandler(event: .open) { [unowned machine] _ in
            guard closes > 0 else { return }
            closes -= 1
            _ = machine.attemptTransition(.close)
        }
        machine.machine.addHandler(event: .close) { [unowned machine] _ in
            guard opens > 0 else { return }
            opens -= 1
            _ = machine.attemptTransition(.open)
        }
        #expect(machine.machine.tryEvent(.open))
        #expect(heard == ["close -> closed", "open -> open"])
        #expect(machine.state == .open)
    }
}
