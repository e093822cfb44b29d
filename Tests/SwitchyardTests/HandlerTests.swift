import Switchyard
import Testing

// Which handlers run, when, and in what order: event handlers, transition
// handlers, "any" handlers and error handlers, with `order:` and the
// most-specific-first rule for ties.

@Suite struct HandlerTests {
    // MARK: Handlers run after the state has changed

    @Test func eventHandlerRunsAfterTheStateHasChanged() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addHandler(event: .event0) { [unowned machine] context in
            log("\(describe(context)) now \(machine.state)")
        }

        #expect(machine.tryEvent(.event0))
        #expect(log.lines == ["event0 state0 => state1 now state1"])
    }

    @Test func transitionHandlerRunsAfterTheStateHasChanged() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.state0 => .state1)
        let log = Log()
        machine.addHandler(.state0 => .state1) { [unowned machine] context in
            log("\(describe(context)) now \(machine.state)")
        }

        #expect(machine.tryState(.state1))
        #expect(log.lines == ["nil state0 => state1 now state1"])
    }

    @Test func anyHandlerRunsAfterTheStateHasChangedForBothKinds() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoute(.state1 => .state2)
        let log = Log()
        machine.addAnyHandler(.any => .any) { [unowned machine] context in
            log("\(describe(context)) now \(machine.state)")
        }

        machine <-! .event0 <- .state2

        #expect(log.lines == ["event0 state0 => state1 now state1", "nil state1 => state2 now state2"])
    }

    // MARK: Which handlers hear which transitions

    @Test func eventHandlerHearsOnlyItsOwnEvent() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        machine.addHandler(event: .event0) { log("event0 handler: \(describe($0))") }
        machine.addHandler(event: .event1) { log("event1 handler: \(describe($0))") }

        machine <-! .event0

        #expect(log.lines == ["event0 handler: event0 state0 => state1"])
    }

    @Test func anyEventHandlerHearsEveryEvent() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        machine.addHandler(event: Event<MyEvent>.any) { log(describe($0)) }

        machine <-! .event0 <-! .event1

        #expect(log.lines == ["event0 state0 => state1", "event1 state1 => state2"])
    }

    @Test func eventHandlersNeverRunForTryStateEvenAlongAnEventRoute() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addHandler(event: .event0) { log("event0 handler: \(describe($0))") }
        machine.addHandler(event: .any) { log("any-event handler: \(describe($0))") }
        machine.addHandler(.state0 => .state1) { log("transition handler: \(describe($0))") }

        #expect(machine.tryState(.state1))
        #expect(machine.state == .state1)
        #expect(log.lines == ["transition handler: nil state0 => state1"])
    }

    @Test func transitionHandlersNeverRunForTryEvent() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addHandler(.state0 => .state1) { log("transition handler: \(describe($0))") }
        machine.addHandler(.any => .any) { log("any => any transition handler: \(describe($0))") }
        machine.addHandler(event: .event0) { log("event handler: \(describe($0))") }

        #expect(machine.tryEvent(.event0))
        #expect(log.lines == ["event handler: event0 state0 => state1"])
    }

    @Test(arguments: [
        (MyState.state0 => MyState.state1, true),
        (MyState.state0 => State<MyState>.any, true),
        (State<MyState>.any => MyState.state1, true),
        (State<MyState>.any => State<MyState>.any, true),
        (MyState.state0 => MyState.state2, false),
        (MyState.state2 => MyState.state1, false),
        (MyState.state2 => State<MyState>.any, false),
        (State<MyState>.any => MyState.state2, false),
    ])
    func transitionHandlerHearsTheMovesItsTransitionCovers(transition: Transition<MyState>, covers: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.state0 => .state1)
        let log = Log()
        machine.addHandler(transition) { log(describe($0)) }

        machine <- .state1

        #expect(log.lines == (covers ? ["nil state0 => state1"] : []))
    }

    @Test(arguments: [
        (MyState.state0 => MyState.state1, true),
        (MyState.state0 => State<MyState>.any, true),
        (State<MyState>.any => MyState.state1, true),
        (State<MyState>.any => State<MyState>.any, true),
        (MyState.state0 => MyState.state2, false),
        (MyState.state2 => State<MyState>.any, false),
        (State<MyState>.any => MyState.state2, false),
    ])
    func anyHandlerHearsTheMovesItsTransitionCoversOfBothKinds(transition: Transition<MyState>, covers: Bool) {
        let eventDriven = Machine<MyState, MyEvent>(state: .state0)
        eventDriven.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let stateDriven = Machine<MyState, MyEvent>(state: .state0)
        stateDriven.addRoute(.state0 => .state1)
        let log = Log()
        eventDriven.addAnyHandler(transition) { log(describe($0)) }
        stateDriven.addAnyHandler(transition) { log(describe($0)) }

        eventDriven <-! .event0
        stateDriven <- .state1

        #expect(log.lines == (covers ? ["event0 state0 => state1", "nil state0 => state1"] : []))
    }

    // MARK: Error handlers

    @Test func errorHandlerSeesAnEventWithoutRouteAsToStateEqualToFromState() {
        let machine = Machine<MyState, MyEvent>(state: .state1)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state2])
        let log = Log()
        machine.addErrorHandler { [unowned machine] context in
            log("\(describe(context)) now \(machine.state)")
        }

        #expect(!machine.tryEvent(.event0))
        #expect(machine.tryEvent(.event2) == false)
        #expect(log.lines == ["event0 state1 => state1 now state1", "event2 state1 => state1 now state1"])
    }

    @Test func errorHandlerSeesAnEventRefusedByConditionAsToStateEqualToFromState() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1], condition: { _ in false })
        let log = Log()
        machine.addErrorHandler { log(describe($0)) }

        #expect(!machine.tryEvent(.event0))
        #expect(machine.state == .state0)
        #expect(log.lines == ["event0 state0 => state0"])
    }

    @Test func errorHandlerSeesAFailedTryStateWithTheRequestedState() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.state0 => .state1, condition: { _ in false })
        let log = Log()
        machine.addErrorHandler { [unowned machine] context in
            log("\(describe(context)) now \(machine.state)")
        }

        #expect(!machine.tryState(.state1))
        #expect(!machine.tryState(.state3))
        #expect(log.lines == ["nil state0 => state1 now state0", "nil state0 => state3 now state0"])
    }

    @Test func errorHandlersDoNotRunOnSuccess() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoute(.state1 => .state2)
        let log = Log()
        machine.addErrorHandler { log("error: \(describe($0))") }

        machine <-! .event0 <- .state2

        #expect(machine.state == .state2)
        #expect(log.lines.isEmpty)
    }

    @Test func successHandlersDoNotRunOnFailure() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addHandler(event: .event0) { log("event handler: \(describe($0))") }
        machine.addHandler(event: .any) { log("any-event handler: \(describe($0))") }
        machine.addHandler(.any => .any) { log("transition handler: \(describe($0))") }
        machine.addAnyHandler(.any => .any) { log("any handler: \(describe($0))") }
        machine.addErrorHandler { log("error handler: \(describe($0))") }

        machine <-! .event0 <- .state1

        #expect(log.lines == ["error handler: event0 state0 => state0", "error handler: nil state0 => state1"])
    }

    // MARK: order

    @Test(arguments: HandlerKind.allCases)
    private func lowerOrderRunsFirstWithDefault100(kind: HandlerKind) {
        let machine = kind.makeMachine()
        let log = Log()
        kind.add(to: machine, order: 255) { _ in log("255") }
        kind.add(to: machine, order: 101) { _ in log("101") }
        kind.add(to: machine, order: nil) { _ in log("default") }
        kind.add(to: machine, order: 99) { _ in log("99") }
        kind.add(to: machine, order: 0) { _ in log("0") }

        kind.trigger(machine)

        #expect(log.lines == ["0", "99", "default", "101", "255"])
    }

    @Test(arguments: HandlerKind.allCases)
    private func equalOrderOfOneKindRunsInRegistrationOrder(kind: HandlerKind) {
        let machine = kind.makeMachine()
        let log = Log()
        kind.add(to: machine, order: 7) { _ in log("first") }
        kind.add(to: machine, order: 7) { _ in log("second") }
        kind.add(to: machine, order: 7) { _ in log("third") }

        kind.trigger(machine)

        #expect(log.lines == ["first", "second", "third"])
    }

    @Test func exactEventHandlerRunsBeforeAnyEventHandlerOfEqualOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        // Registered least specific first, to show that specificity beats registration order.
        machine.addHandler(event: .any) { _ in log("any event") }
        machine.addHandler(event: .event0) { _ in log("event0") }

        machine <-! .event0

        #expect(log.lines == ["event0", "any event"])
    }

    @Test(arguments: TransitionRegistration.allCases)
    private func transitionHandlersOfEqualOrderRunMostSpecificFirst(registration: TransitionRegistration) {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.state0 => .state1)
        let log = Log()
        // Registered least specific first, to show that specificity beats registration order.
        registration.add(.any => .any, on: machine, index: 0) { _ in log(".any => .any") }
        registration.add(.any => .state1, on: machine, index: 1) { _ in log(".any => state1") }
        registration.add(.state0 => .any, on: machine, index: 2) { _ in log("state0 => .any") }
        registration.add(.state0 => .state1, on: machine, index: 3) { _ in log("state0 => state1") }

        machine <- .state1

        #expect(log.lines == ["state0 => state1", "state0 => .any", ".any => state1", ".any => .any"])
    }

    @Test func anyHandlersOfEqualOrderRunMostSpecificFirstForEvents() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addAnyHandler(.any => .any) { _ in log(".any => .any") }
        machine.addAnyHandler(.any => .state1) { _ in log(".any => state1") }
        machine.addAnyHandler(.state0 => .any) { _ in log("state0 => .any") }
        machine.addAnyHandler(.state0 => .state1) { _ in log("state0 => state1") }

        machine <-! .event0

        #expect(log.lines == ["state0 => state1", "state0 => .any", ".any => state1", ".any => .any"])
    }

    @Test func equallySpecificHandlersOfEqualOrderRunInRegistrationOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.state0 => .state1)
        machine.addRoute(.state1 => .state0)
        let log = Log()
        machine.addAnyHandler(.state0 => .state1) { _ in log("any handler 1") }
        machine.addHandler(.state0 => .state1) { _ in log("transition handler 2") }
        machine.addAnyHandler(.state0 => .state1) { _ in log("any handler 3") }
        machine.addHandler(.state1 => .any) { _ in log("transition handler 4") }
        machine.addAnyHandler(.state1 => .any) { _ in log("any handler 5") }

        machine <- .state1 <- .state0

        #expect(
            log.lines == [
                "any handler 1", "transition handler 2", "any handler 3",
                "transition handler 4", "any handler 5",
            ])
    }

    @Test func eventAndAnyHandlersTieByOrderThenRankThenRegistration() {
        // Ranks: exact event 0, `.any` event 1; `from => to` 0, `.any => .any` 3.
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let log = Log()
        machine.addAnyHandler(.any => .any) { _ in log("any handler .any => .any") }
        machine.addHandler(event: .any) { _ in log("any-event handler") }
        machine.addAnyHandler(.state0 => .state1) { _ in log("any handler state0 => state1") }
        machine.addHandler(event: .event0) { _ in log("event0 handler") }
        machine.addHandler(event: .event0, order: 99) { _ in log("event0 handler, order 99") }

        machine <-! .event0

        #expect(
            log.lines == [
                "event0 handler, order 99",
                "any handler state0 => state1", "event0 handler",
                "any-event handler",
                "any handler .any => .any",
            ])
    }

    @Test func orderBeatsSpecificity() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoute(.state1 => .state2)
        let log = Log()
        machine.addHandler(event: .event0, order: 101) { _ in log("event0, order 101") }
        machine.addHandler(event: .any, order: 100) { _ in log("any event, order 100") }
        machine.addHandler(.state1 => .state2, order: 100) { _ in log("state1 => state2, order 100") }
        machine.addHandler(.any => .any, order: 99) { _ in log(".any => .any, order 99") }

        machine <-! .event0 <- .state2

        #expect(
            log.lines == [
                "any event, order 100", "event0, order 101",
                ".any => .any, order 99", "state1 => state2, order 100",
            ])
    }

    // MARK: Handlers given with routes

    @Test func handlerGivenWithEventRoutesBelongsToTheEvent() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { log("handler: \(describe($0))") }
        machine.addRoutes(event: .event0, transitions: [.state1 => .state2])
        machine.addRoutes(event: .event1, transitions: [.state2 => .state3])
        machine.addRoute(.state3 => .state0)

        machine <-! .event0 <-! .event0 <-! .event1 <- .state0

        #expect(machine.state == .state0)
        #expect(log.lines == ["handler: event0 state0 => state1", "handler: event0 state1 => state2"])
    }

    @Test func handlerGivenWithRoutesOfAnyEventHearsEveryEvent() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRoutes(event: .any, routes: [[.state0, .state1] => .state2]) { log("handler: \(describe($0))") }
        machine.addRoutes(event: .event1, transitions: [.state2 => .state3])
        machine.addRoute(.state3 => .state0)

        machine <-! .event0 <-! .event1 <- .state0

        #expect(machine.state == .state0)
        #expect(log.lines == ["handler: event0 state0 => state2", "handler: event1 state2 => state3"])
    }

    @Test func routeHandlerRunsForStateDrivenMovesItsTransitionCoversAndItsConditionAllows() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRoute(.any => .state2, condition: { $0.userInfo as? String == "allowed" }) {
            log("handler: \(describe($0)) \($0.userInfo ?? "nil")")
        }
        // Other routes to state2 that the handler's condition does not always allow.
        machine.addRoute(.state0 => .state2)
        machine.addRoutes(event: .event0, transitions: [.state2 => .state2])
        machine.addRoute(.state2 => .state0)

        machine <- (.state2, "refused")  // by the plain route; the handler's condition refuses
        machine <- .state0
        machine <- (.state2, "allowed")  // covered and allowed
        machine <-! (.event0, "allowed")  // event-driven: not the handler's business
        machine <- .state0

        #expect(log.lines == ["handler: nil state0 => state2 allowed"])
    }

    @Test func routeHandlerGivenWithARouteValueRunsOnlyForItsMembers() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRoute([.state0, .state1] => .state2) { log("handler: \(describe($0))") }
        machine.addRoute(.state3 => .state2)
        machine.addRoute(.state2 => .any)

        machine <- .state2 <- .state1 <- .state2 <- .state3 <- .state2

        #expect(machine.state == .state2)
        #expect(log.lines == ["handler: nil state0 => state2", "handler: nil state1 => state2"])
    }

    @Test func routeMappingHandlerRunsForEventsWhenTheMappingNamesTheNewStateAsInSwiftState() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRouteMapping({ event, fromState, _ in
            switch (event, fromState) {
            case (.event0?, .state0): .state1
            case (nil, .state1): .state2
            default: nil
            }
        }) { log("mapping handler: \(describe($0))") }
        // A move the mapping does not name: its handler stays silent.
        machine.addRoute(.state2 => .state0)

        machine <-! .event0 <- .state2 <- .state0

        // The mapping allowed `state1 => state2` by state, but, as in SwiftState,
        // a mapping's handler hears only event-driven transitions.
        #expect(machine.state == .state0)
        #expect(log.lines == ["mapping handler: event0 state0 => state1"])
    }

    @Test func routeMappingHandlerHonoursOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addAnyHandler(.state0 => .state1) { _ in log("any handler, default order") }
        machine.addRouteMapping({ _, fromState, _ in fromState == .state0 ? .state1 : nil }, order: 10) { _ in
            log("mapping handler, order 10")
        }
        machine.addHandler(event: .event0, order: 200) { _ in log("event handler, order 200") }

        machine <-! .event0

        #expect(log.lines == ["mapping handler, order 10", "any handler, default order", "event handler, order 200"])
    }

    @Test func stateRouteMappingHandlerHonoursOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addHandler(.state0 => .state1) { _ in log("transition handler, default order") }
        machine.addStateRouteMapping({ fromState, _ in fromState == .state0 ? [.state1] : nil }, order: 10) { _ in
            log("state mapping handler, order 10")
        }
        machine.addStateRouteMapping({ fromState, _ in fromState == .state0 ? [.state1] : nil }, order: 200) { _ in
            log("state mapping handler, order 200")
        }

        machine <- .state1

        #expect(
            log.lines == [
                "state mapping handler, order 10", "transition handler, default order",
                "state mapping handler, order 200",
            ])
    }
}

// MARK: - Fixtures

/// `event state => state`, with `nil` for a state-driven transition.
private func describe(_ context: Machine<MyState, MyEvent>.Context) -> String {
    "\(context.event.map { "\($0)" } ?? "nil") \(context.fromState) => \(context.toState)"
}

/// One way of adding a handler, with a machine and a request that it hears.
private enum HandlerKind: CaseIterable, Sendable {
    case exactEvent, anyEvent, transition, anyTransition, error

    func makeMachine() -> Machine<MyState, MyEvent> {
        Machine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoute(.state0 => .state2)
        }
    }

    /// Adds `handler` at `order`, or at the default order for `nil`.
    func add(
        to machine: Machine<MyState, MyEvent>, order: HandlerOrder?,
        handler: @escaping Machine<MyState, MyEvent>.Handler
    ) {
        switch (self, order) {
        case (.exactEvent, let order?): machine.addHandler(event: .event0, order: order, handler: handler)
        case (.exactEvent, nil): machine.addHandler(event: .event0, handler: handler)
        case (.anyEvent, let order?): machine.addHandler(event: .any, order: order, handler: handler)
        case (.anyEvent, nil): machine.addHandler(event: .any, handler: handler)
        case (.transition, let order?): machine.addHandler(.state0 => .state2, order: order, handler: handler)
        case (.transition, nil): machine.addHandler(.state0 => .state2, handler: handler)
        case (.anyTransition, let order?): machine.addAnyHandler(.state0 => .state2, order: order, handler: handler)
        case (.anyTransition, nil): machine.addAnyHandler(.state0 => .state2, handler: handler)
        case (.error, let order?): machine.addErrorHandler(order: order, handler: handler)
        case (.error, nil): machine.addErrorHandler(handler: handler)
        }
    }

    /// Makes one request that handlers of this kind hear.
    func trigger(_ machine: Machine<MyState, MyEvent>) {
        switch self {
        case .exactEvent, .anyEvent: machine <-! .event0
        case .transition, .anyTransition: machine <- .state2
        case .error: machine <-! .event2
        }
    }
}

/// Which method registers the handlers of the specificity test.
private enum TransitionRegistration: CaseIterable, Sendable {
    /// `addHandler(_:order:handler:)` for all four.
    case transitionHandlers
    /// `addAnyHandler(_:order:handler:)` for all four.
    case anyHandlers
    /// The two methods alternately.
    case mixed

    func add(
        _ transition: Transition<MyState>, on machine: Machine<MyState, MyEvent>, index: Int,
        handler: @escaping Machine<MyState, MyEvent>.Handler
    ) {
        let usesAnyHandler =
            switch self {
            case .transitionHandlers: false
            case .anyHandlers: true
            case .mixed: index.isMultiple(of: 2)
            }
        if usesAnyHandler {
            machine.addAnyHandler(transition, handler: handler)
        } else {
            machine.addHandler(transition, handler: handler)
        }
    }
}
