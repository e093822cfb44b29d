import Switchyard
import Testing

// Every `add…` returns a Disposable: disposing removes exactly what was added,
// at any time (before use, after use, twice, after the machine is gone, from
// inside a handler of the same machine); dropping it removes nothing.

@Suite struct DisposableTests {
    // MARK: ActionDisposable

    @Test func actionDisposableRunsItsActionOnceOnFirstDispose() {
        var runs = 0
        let disposable = ActionDisposable { runs += 1 }
        #expect(!disposable.disposed)
        #expect(runs == 0)

        disposable.dispose()
        #expect(disposable.disposed)
        #expect(runs == 1)

        disposable.dispose()
        #expect(disposable.disposed)
        #expect(runs == 1)
    }

    @Test func actionDisposableDisposedFromInsideItsOwnActionRunsOnce() {
        var runs = 0
        var disposable: ActionDisposable?
        disposable = ActionDisposable {
            runs += 1
            disposable?.dispose()
        }

        disposable?.dispose()

        #expect(runs == 1)
        #expect(disposable?.disposed == true)
    }

    @Test func actionDisposableWorksThroughTheProtocol() {
        var removed: [String] = []
        let disposables: [any Disposable] = [
            ActionDisposable { removed.append("a") }, ActionDisposable { removed.append("b") },
        ]

        for disposable in disposables { disposable.dispose() }
        for disposable in disposables { disposable.dispose() }

        #expect(removed == ["a", "b"])
        #expect(disposables.allSatisfy { $0.disposed })
    }

    // MARK: Every kind of registration

    @Test(arguments: Registration.allCases)
    private func registrationIsInEffectUntilDisposedAfterUse(registration: Registration) {
        let machine = makeMachine()
        let log = Log()
        let disposable = registration.add(to: machine, log: log)
        #expect(!disposable.disposed)
        #expect(registration.probe(machine, log: log) == registration.effects)
        #expect(registration.probe(machine, log: log) == registration.effects)

        disposable.dispose()

        #expect(disposable.disposed)
        #expect(registration.probe(machine, log: log).isEmpty)
        #expect(machine.state == .state0)
    }

    @Test(arguments: Registration.allCases)
    private func disposingBeforeUseRemovesTheRegistration(registration: Registration) {
        let machine = makeMachine()
        let log = Log()
        let disposable = registration.add(to: machine, log: log)

        disposable.dispose()

        #expect(disposable.disposed)
        #expect(registration.probe(machine, log: log).isEmpty)
    }

    @Test(arguments: Registration.allCases)
    private func disposingTwiceIsHarmless(registration: Registration) {
        let machine = makeMachine()
        let log = Log()
        let disposable = registration.add(to: machine, log: log)
        // A second registration of the same kind must survive both calls.
        let survivor = registration.add(to: machine, log: log)

        disposable.dispose()
        disposable.dispose()

        #expect(disposable.disposed)
        #expect(!survivor.disposed)
        #expect(registration.probe(machine, log: log) == registration.effects)
    }

    @Test(arguments: Registration.allCases)
    private func disposingAgainOrACopyAfterItsPlaceWasReusedLeavesTheNewRegistration(registration: Registration) {
        let machine = makeMachine()
        let log = Log()
        let disposable = registration.add(to: machine, log: log)
        let copy = disposable
        disposable.dispose()
        // Takes the place the first one left.
        let successor = registration.add(to: machine, log: log)

        disposable.dispose()
        copy.dispose()

        #expect(disposable.disposed && copy.disposed)
        #expect(!successor.disposed)
        #expect(registration.probe(machine, log: log) == registration.effects)
    }

    @Test(arguments: Registration.allCases)
    private func disposablesThatOutliveTheMachineKeepTheirOwnState(registration: Registration) {
        var machine: Machine<MyState, MyEvent>? = makeMachine()
        let log = Log()
        let disposedEarly = registration.add(to: machine!, log: log)
        let keptAlive = registration.add(to: machine!, log: log)
        disposedEarly.dispose()

        machine = nil

        #expect(disposedEarly.disposed)
        #expect(!keptAlive.disposed)
        keptAlive.dispose()
        #expect(keptAlive.disposed)
    }

    @Test(arguments: Registration.allCases)
    private func disposingAfterTheMachineIsReleasedDoesNothing(registration: Registration) {
        var machine: Machine<MyState, MyEvent>? = makeMachine()
        weak let released = machine
        let log = Log()
        let disposable = registration.add(to: machine!, log: log)
        _ = registration.probe(machine!, log: log)

        machine = nil

        #expect(released == nil)
        #expect(!disposable.disposed)
        disposable.dispose()
        disposable.dispose()
        #expect(disposable.disposed)
    }

    @Test(arguments: Registration.allCases)
    private func droppingTheDisposableRemovesNothing(registration: Registration) {
        let machine = makeMachine()
        let log = Log()
        do {
            _ = registration.add(to: machine, log: log)
        }

        #expect(registration.probe(machine, log: log) == registration.effects)
    }

    @Test func disposingOneHandlerLeavesTheOthers() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addHandler(event: .event0) { _ in log("first") }
        let second = machine.addHandler(event: .event0) { _ in log("second") }
        machine.addHandler(event: .event0) { _ in log("third") }

        second.dispose()
        machine <-! .event0

        #expect(log.lines == ["first", "third"])
    }

    @Test func disposingOneRouteLeavesAnotherRouteOfTheSameTransition() {
        let machine = makeMachine()
        let first = machine.addRoute(.state0 => .state1)
        machine.addRoute(.state0 => .state1)

        first.dispose()

        #expect(machine.tryState(.state1))
    }

    // MARK: Disposing from inside a handler

    @Test func handlerDisposingItselfDoesNotRunAgain() {
        let machine = makeMachine()
        machine.addRoute(.state0 => .state1)
        let log = Log()
        var disposable: Disposable?
        disposable = machine.addHandler(.state0 => .state1) { _ in
            log("handler")
            disposable?.dispose()
        }

        machine <- .state1 <- .state0 <- .state1

        #expect(log.lines == ["handler"])
        #expect(disposable?.disposed == true)
    }

    /// A handler is called without a retain of its closure: what keeps its
    /// captures alive while it runs is the table being delivered, which its
    /// own disposal must not free.
    @Test(arguments: [false, true])
    func handlerDisposingItselfKeepsItsCapturesUntilItReturns(asStatechart: Bool) {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        if asStatechart {
            machine.addChildren([.state2], to: .state3)
        }
        let log = Log()
        let disposable = Shared<Disposable?>(nil)
        var hook: ReleaseHook? = ReleaseHook { log("captures released") }
        disposable.value = machine.addHandler(event: .event0) { [hook] _ in
            disposable.value?.dispose()
            withExtendedLifetime(hook) { log("handler ran on") }
        }
        hook = nil

        machine <-! .event0

        #expect(log.lines == ["handler ran on", "captures released"])
    }

    /// A handler's closure is boxed at its first call; a handler added in
    /// the place of a disposed one must be called, not the old box.
    @Test func handlerAddedWhereADeliveredHandlerWasDisposedIsTheOneCalled() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state0])
        let log = Log()
        let first = machine.addHandler(event: .event0) { _ in log("first") }
        machine <-! .event0
        first.dispose()

        machine.addHandler(event: .event0) { _ in log("second") }
        machine <-! .event0

        #expect(log.lines == ["first", "second"])
    }

    @Test func handlerDisposingALaterHandlerStopsItInTheSameDelivery() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        var later: Disposable?
        machine.addHandler(event: .event0, order: 1) { _ in
            log("earlier")
            later?.dispose()
        }
        later = machine.addHandler(event: .event0, order: 2) { _ in log("later") }
        machine.addHandler(event: .event0, order: 3) { _ in log("unaffected") }

        machine <-! .event0 <- .state0 <-! .event0

        #expect(log.lines == ["earlier", "unaffected", "earlier", "unaffected"])
    }

    @Test func handlerDisposingALaterHandlerOfAnotherKindStopsItInTheSameDelivery() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        var later: [Disposable] = []
        machine.addHandler(event: .any, order: 1) { _ in
            log("earlier")
            for disposable in later { disposable.dispose() }
        }
        later.append(machine.addAnyHandler(.any => .any, order: 2) { _ in log("any handler") })
        later.append(machine.addHandler(event: .event0, order: 2) { _ in log("event handler") })
        machine.addAnyHandler(.state0 => .state1, order: 3) { _ in log("unaffected") }

        machine <-! .event0

        #expect(log.lines == ["earlier", "unaffected"])
    }

    @Test func handlerDisposingAnEarlierHandlerStopsItFromTheNextDelivery() {
        let machine = makeMachine()
        machine.addRoute(.state0 => .state1)
        let log = Log()
        let earlier = machine.addHandler(.state0 => .state1, order: 1) { _ in log("earlier") }
        machine.addHandler(.state0 => .state1, order: 2) { _ in
            log("later")
            earlier.dispose()
        }

        machine <- .state1 <- .state0 <- .state1

        #expect(log.lines == ["earlier", "later", "later"])
    }

    @Test func errorHandlerDisposingItselfDoesNotRunAgain() {
        let machine = makeMachine()
        let log = Log()
        var disposable: Disposable?
        disposable = machine.addErrorHandler { _ in
            log("error handler")
            disposable?.dispose()
        }
        machine.addErrorHandler { _ in log("other error handler") }

        machine <-! .event2 <- .state3

        #expect(log.lines == ["error handler", "other error handler", "other error handler"])
    }

    @Test func errorHandlerDisposingALaterErrorHandlerStopsItInTheSameDelivery() {
        let machine = makeMachine()
        let log = Log()
        var later: Disposable?
        machine.addErrorHandler(order: 1) { _ in
            log("earlier")
            later?.dispose()
        }
        later = machine.addErrorHandler(order: 2) { _ in log("later") }
        machine.addErrorHandler(order: 3) { _ in log("unaffected") }

        machine <-! .event2 <- .state3

        #expect(log.lines == ["earlier", "unaffected", "earlier", "unaffected"])
    }

    @Test func handlerOfANestedTransitionDisposingALaterHandlerOfTheOuterDeliveryStopsIt() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        var outerLater: Disposable?
        machine.addHandler(event: .event0, order: 1) { [unowned machine] _ in
            log("outer earlier")
            machine <-! .event1
        }
        outerLater = machine.addHandler(event: .event0, order: 2) { _ in log("outer later") }
        machine.addHandler(event: .event1) { _ in
            log("nested")
            outerLater?.dispose()
        }

        machine <-! .event0

        #expect(machine.state == .state2)
        #expect(log.lines == ["outer earlier", "nested"])
    }

    @Test func chainHandlerDisposedByAnEarlierHandlerOfTheCompletingMoveDoesNotRun() {
        let machine = makeMachine()
        let log = Log()
        let chain = machine.addRouteChain(.state0 => .state1 => .state2) { _ in log("chain completed") }
        machine.addHandler(.state1 => .state2, order: 0) { _ in
            log("earlier")
            chain.dispose()
        }

        machine <- .state1 <- .state2

        #expect(machine.state == .state2)
        #expect(log.lines == ["earlier"])
        #expect(!machine.canTryState(.state1))
    }

    @Test func handlerDisposingARouteRefusesTheNextRequest() {
        let machine = makeMachine()
        let route = machine.addRoute(.state0 => .state1)
        machine.addHandler(.state0 => .state1) { _ in route.dispose() }

        #expect(machine.tryState(.state1))
        #expect(machine.tryState(.state0))
        #expect(!machine.tryState(.state1))
    }

    @Test func handlerDisposedDuringRunToCompletionMissesTheQueuedTransition() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        var observer: Disposable?
        machine.addHandler(event: .event0, order: 1) { [unowned machine] _ in
            machine <-! .event1
            observer?.dispose()
        }
        observer = machine.addAnyHandler(.any => .any, order: 2) { log(describe($0)) }

        machine <-! .event0

        #expect(machine.state == .state2)
        #expect(log.lines.isEmpty)
    }

    // MARK: Code that runs when a disposed registration lets go of its captures

    @Test func handlersAddedWhileADisposedHandlerLetsGoOfItsCapturesAllRun() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        let first = machine.addHandler(event: .event0) { _ in log("first") }
        let second = addHandler(to: machine, log: log, named: "second") { [unowned machine] in
            machine.addHandler(event: .event0) { _ in log("added on release") }
        }
        // Leaves a place free for the handler added on release.
        first.dispose()

        second.dispose()
        machine.addHandler(event: .event0) { _ in log("added after") }
        machine.addHandler(event: .event0) { _ in log("added last") }
        machine <-! .event0

        #expect(log.lines == ["added on release", "added after", "added last"])
    }

    @Test func handlerDisposedWhileADisposedHandlerLetsGoOfItsCapturesIsRemoved() {
        let machine = makeMachine()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        let third = Shared<Disposable?>(nil)
        let first = machine.addHandler(event: .event0) { _ in log("first") }
        let second = addHandler(to: machine, log: log, named: "second") { third.value?.dispose() }
        third.value = machine.addHandler(event: .event0) { _ in log("third") }
        machine.addHandler(event: .event0) { _ in log("fourth") }
        first.dispose()

        second.dispose()
        // Three places are free; each must be taken once.
        for name in ["fifth", "sixth", "seventh"] {
            machine.addHandler(event: .event0) { _ in log(name) }
        }
        machine <-! .event0

        #expect(third.value?.disposed == true)
        #expect(log.lines == ["fourth", "fifth", "sixth", "seventh"])
    }

    @Test func routeAddedWhileADisposedRouteLetsGoOfItsConditionIsTheOneTaken() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let guarded = addGuardedRoute(to: machine, .state0 => .state1) { [unowned machine] in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state2])
        }
        // Indexes the event routes for state requests too, which disposing updates.
        #expect(machine.canTryState(.state1))
        machine.addRoutes(event: .event1, transitions: [.state0 => .state3])

        guarded.dispose()

        #expect(!machine.canTryState(.state1))
        #expect(machine.canTryState(.state2))
        #expect(machine.canTryEvent(.event0) == .state2)
        #expect(machine.tryState(.state2))
    }

    @Test func disposingTheHandlerThatHeldTheLastReferenceToItsMachineReleasesTheMachine() {
        var machine: Machine<MyState, MyEvent>? = makeMachine()
        weak let released = machine
        let disposable = machine!.addHandler(event: .event0) { [machine] _ in _ = machine }
        machine = nil
        #expect(released != nil)

        disposable.dispose()

        #expect(released == nil)
        #expect(disposable.disposed)
        disposable.dispose()
        #expect(disposable.disposed)
    }
}

// MARK: - Fixtures

/// Adds a handler of `.event0` that logs `name` and whose captures run
/// `onRelease` when the machine lets go of them.
private func addHandler(
    to machine: Machine<MyState, MyEvent>, log: Log, named name: String, onRelease: @escaping () -> Void
) -> Disposable {
    let hook = ReleaseHook(onRelease)
    return machine.addHandler(event: .event0) { _ in withExtendedLifetime(hook) { log(name) } }
}

/// A machine in state0 with one way back to state0, which probes use to reset.
private func makeMachine() -> Machine<MyState, MyEvent> {
    Machine(state: .state0) { machine in
        machine.addRoute(.any => .state0)
    }
}

private func describe(_ context: Machine<MyState, MyEvent>.Context) -> String {
    "\(context.event.map { "\($0)" } ?? "nil") \(context.fromState) => \(context.toState)"
}

/// One kind of registration: how to add it, and a probe that shows whether it
/// is in effect and leaves the machine back in state0.
private enum Registration: CaseIterable, Sendable {
    case stateRoute, stateRouteValue, eventRoutes, anyEventRoutes
    case eventHandler, anyEventHandler, transitionHandler, anyHandler, errorHandler
    case routeMapping, stateRouteMapping
    case transitionRouteChain, routeRouteChain, chainHandler, routeChainHandler, chainErrorHandler,
        routeChainErrorHandler
    case eventRoutesWithHandler, routeWithHandler, routeMappingWithHandler, stateRouteMappingWithHandler

    /// Adds the registration (and whatever plain routes its probe needs, which
    /// the returned disposable does not cover).
    func add(to machine: Machine<MyState, MyEvent>, log: Log) -> Disposable {
        let handler: Machine<MyState, MyEvent>.Handler = { log("handler \(describe($0))") }
        switch self {
        case .stateRoute:
            return machine.addRoute(.state0 => .state1)
        case .stateRouteValue:
            return machine.addRoute([.state0] => .state1)
        case .eventRoutes:
            return machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        case .anyEventRoutes:
            return machine.addRoutes(event: .any, routes: [[.state0] => .state1])
        case .eventHandler:
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            return machine.addHandler(event: .event0, handler: handler)
        case .anyEventHandler:
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            return machine.addHandler(event: .any, handler: handler)
        case .transitionHandler:
            machine.addRoute(.state0 => .state1)
            return machine.addHandler(.state0 => .state1, handler: handler)
        case .anyHandler:
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            return machine.addAnyHandler(.any => .state1, handler: handler)
        case .errorHandler:
            return machine.addErrorHandler(handler: handler)
        case .routeMapping:
            return machine.addRouteMapping(Self.mapping)
        case .stateRouteMapping:
            return machine.addStateRouteMapping(Self.stateMapping)
        case .transitionRouteChain:
            return machine.addRouteChain(.state0 => .state1 => .state2, handler: handler)
        case .routeRouteChain:
            return machine.addRouteChain(RouteChain(transitionChain: .state0 => .state1 => .state2), handler: handler)
        case .chainHandler:
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.state1 => .state2)
            return machine.addChainHandler(.state0 => .state1 => .state2, handler: handler)
        case .routeChainHandler:
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.state1 => .state2)
            return machine.addChainHandler(RouteChain(transitionChain: .state0 => .state1 => .state2), handler: handler)
        case .chainErrorHandler:
            machine.addRoute(.state0 => .state1)
            return machine.addChainErrorHandler(.state0 => .state1 => .state2, handler: handler)
        case .routeChainErrorHandler:
            machine.addRoute(.state0 => .state1)
            return machine.addChainErrorHandler(
                RouteChain(transitionChain: .state0 => .state1 => .state2), handler: handler)
        case .eventRoutesWithHandler:
            return machine.addRoutes(event: .event0, transitions: [.state0 => .state1], handler: handler)
        case .routeWithHandler:
            return machine.addRoute(.state0 => .state1, handler: handler)
        case .routeMappingWithHandler:
            return machine.addRouteMapping(Self.mapping, handler: handler)
        case .stateRouteMappingWithHandler:
            return machine.addStateRouteMapping(Self.stateMapping, handler: handler)
        }
    }

    /// What the probe reports while the registration is in effect.
    var effects: [String] {
        switch self {
        case .stateRoute, .stateRouteValue, .stateRouteMapping: ["moved to state1"]
        case .eventRoutes, .anyEventRoutes, .routeMapping: ["moved to state1"]
        case .eventHandler, .anyEventHandler, .anyHandler: ["handler event0 state0 => state1"]
        case .transitionHandler: ["handler nil state0 => state1"]
        case .errorHandler: ["handler event2 state0 => state0"]
        case .transitionRouteChain, .routeRouteChain:
            ["moved to state1", "moved to state2", "handler nil state1 => state2"]
        case .chainHandler, .routeChainHandler: ["handler nil state1 => state2"]
        case .chainErrorHandler, .routeChainErrorHandler: ["handler nil state1 => state0"]
        case .eventRoutesWithHandler: ["moved to state1", "handler event0 state0 => state1"]
        case .routeWithHandler, .stateRouteMappingWithHandler: ["moved to state1", "handler nil state0 => state1"]
        case .routeMappingWithHandler: ["moved to state1", "handler event0 state0 => state1"]
        }
    }

    /// Drives the machine so that the registration shows, then returns it to state0.
    ///
    /// - Returns: The moves the registration allowed and the handler calls it made.
    func probe(_ machine: Machine<MyState, MyEvent>, log: Log) -> [String] {
        log.clear()
        var effects: [String] = []
        func record(_ moved: Bool, to state: MyState) {
            if moved {
                effects.append("moved to \(state)")
            }
            effects += log.lines
            log.clear()
        }
        switch self {
        case .stateRoute, .stateRouteValue, .stateRouteMapping, .routeWithHandler, .stateRouteMappingWithHandler:
            record(machine.tryState(.state1), to: .state1)
        case .eventRoutes, .anyEventRoutes, .routeMapping, .eventRoutesWithHandler, .routeMappingWithHandler:
            record(machine.tryEvent(.event0), to: .state1)
        case .eventHandler, .anyEventHandler, .anyHandler:
            machine.tryEvent(.event0)
            record(false, to: .state1)
        case .transitionHandler:
            machine.tryState(.state1)
            record(false, to: .state1)
        case .errorHandler:
            machine.tryEvent(.event2)
            record(false, to: .state0)
        case .transitionRouteChain, .routeRouteChain:
            record(machine.tryState(.state1), to: .state1)
            record(machine.tryState(.state2), to: .state2)
        case .chainHandler, .routeChainHandler:
            machine <- .state1 <- .state2
            record(false, to: .state2)
        case .chainErrorHandler, .routeChainErrorHandler:
            // Starts the walk; the reset below breaks it.
            machine <- .state1
        }
        machine <- .state0
        record(false, to: .state0)
        return effects
    }

    private static func mapping(_ event: MyEvent?, _ fromState: MyState, _ userInfo: Any?) -> MyState? {
        event == .event0 && fromState == .state0 ? .state1 : nil
    }

    private static func stateMapping(_ fromState: MyState, _ userInfo: Any?) -> [MyState]? {
        fromState == .state0 ? [.state1] : nil
    }
}

/// Adds a route of `.event0` whose condition always holds and whose captures
/// run `onRelease` when the machine lets go of them.
private func addGuardedRoute(
    to machine: Machine<MyState, MyEvent>, _ transition: Transition<MyState>, onRelease: @escaping () -> Void
) -> Disposable {
    let hook = ReleaseHook(onRelease)
    return machine.addRoutes(
        event: .event0, transitions: [transition], condition: { _ in withExtendedLifetime(hook) { true } })
}
