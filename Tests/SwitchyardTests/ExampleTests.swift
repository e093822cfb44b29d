import Switchyard
import Testing

// The project's worked examples, with their output captured instead of printed.

// MARK: - An issue tracker's ticket

/// The life of a ticket.
///
/// | event     | from                 | to           | condition                      |
/// |-----------|----------------------|--------------|--------------------------------|
/// | `start`   | `open`, `reopened`   | `inProgress` |                                |
/// | `resolve` | `inProgress`         | `resolved`   |                                |
/// | `close`   | `resolved`           | `closed`     |                                |
/// | `close`   | `open`               | `closed`     | a reason is given (duplicate…) |
/// | `reopen`  | `resolved`, `closed` | `reopened`   |                                |
///
/// Everything else is refused: work cannot be resolved before it starts, a
/// ticket in progress cannot be closed without resolving it, and so on.
private enum Ticket: StateType, CaseIterable {
    case open, inProgress, resolved, reopened, closed
}

private enum TicketEvent: EventType, CaseIterable {
    case start, resolve, reopen, close
}

private func makeTicket(_ state: Ticket, log: Log) -> Machine<Ticket, TicketEvent> {
    Machine(state: state) { ticket in
        ticket.addRoutes(event: .start, transitions: [.open => .inProgress, .reopened => .inProgress])
        ticket.addRoutes(event: .resolve, transitions: [.inProgress => .resolved])
        ticket.addRoutes(event: .close, transitions: [.resolved => .closed])
        ticket.addRoutes(event: .close, transitions: [.open => .closed]) { context in
            (context.userInfo as? String).map { !$0.isEmpty } ?? false
        }
        ticket.addRoutes(event: .reopen, transitions: [.resolved => .reopened, .closed => .reopened])
        ticket.addHandler(event: .any) { context in
            log("\(context.event.map { "\($0)" } ?? "-"): \(context.fromState) => \(context.toState)")
        }
        ticket.addErrorHandler { context in
            log("[ERROR] \(context.event.map { "\($0)" } ?? "-") refused in \(context.fromState)")
        }
    }
}

/// A move the ticket must refuse, and why.
private struct RefusedMove: Sendable, CustomTestStringConvertible {
    var state: Ticket
    var event: TicketEvent
    var reason: String?
    var expected: TransitionError.Reason

    var testDescription: String {
        "\(event) in \(state)\(reason.map { " (\($0))" } ?? "") is \(expected)"
    }
}

extension RefusedMove {
    fileprivate init(state: Ticket, event: TicketEvent, expected: TransitionError.Reason) {
        self.init(state: state, event: event, reason: nil, expected: expected)
    }
}

private let refusedMoves: [RefusedMove] = [
    RefusedMove(state: .open, event: .resolve, expected: .noRoute),
    RefusedMove(state: .open, event: .reopen, expected: .noRoute),
    RefusedMove(state: .open, event: .close, expected: .conditionsRefused),
    RefusedMove(state: .open, event: .close, reason: "", expected: .conditionsRefused),
    RefusedMove(state: .inProgress, event: .start, expected: .noRoute),
    RefusedMove(state: .inProgress, event: .close, reason: "done", expected: .noRoute),
    RefusedMove(state: .inProgress, event: .reopen, expected: .noRoute),
    RefusedMove(state: .resolved, event: .start, expected: .noRoute),
    RefusedMove(state: .resolved, event: .resolve, expected: .noRoute),
    RefusedMove(state: .reopened, event: .resolve, expected: .noRoute),
    RefusedMove(state: .reopened, event: .close, reason: "stale", expected: .noRoute),
    RefusedMove(state: .reopened, event: .reopen, expected: .noRoute),
    RefusedMove(state: .closed, event: .start, expected: .noRoute),
    RefusedMove(state: .closed, event: .close, expected: .noRoute),
]

// MARK: - Context printing

/// `userInfo` values to print, each as SwiftState's tuple would have.
private enum UserInfoSample: Sendable, CaseIterable, CustomTestStringConvertible {
    case none, string, int, array, optionalNone, structure

    var value: Any? {
        switch self {
        case .none: nil
        case .string: "Hello"
        case .int: 42
        case .array: [1, 2]
        case .optionalNone: Int?.none as Any
        case .structure: Point(x: 1, y: -2)
        }
    }

    var testDescription: String { "\(self)" }
}

private struct Point {
    var x: Int
    var y: Int
}

/// How SwiftState printed its context, a labelled tuple, after `Context`.
private func swiftStateDescription<S, E>(event: E?, fromState: S, toState: S, userInfo: Any?) -> String {
    "Context" + "\((event: event, fromState: fromState, toState: toState, userInfo: userInfo))"
}

@Suite struct ExampleTests {
    // MARK: (a) The four-state example

    @Test func fourStateExamplePrintsItsLog() {
        let log = Log()
        let machine = StateMachine<MyState, NoEvent>(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.any => .state2) { log("Any => 2, msg=\(String(describing: $0.userInfo))") }
            machine.addRoute(.state2 => .any) { log("2 => Any, msg=\(String(describing: $0.userInfo))") }
            machine.addHandler(.state0 => .state1) { _ in log("0 => 1") }
            machine.addErrorHandler { log("[ERROR] \($0.fromState) => \($0.toState)") }
        }
        #expect(machine.state == .state0)

        machine <- .state1
        #expect(machine.state == .state1)
        machine <- (.state2, "Hello")
        #expect(machine.state == .state2)
        machine <- (.state1, "Bye")
        #expect(machine.state == .state1)
        machine <- .state0  // fails: no route 1 => 0
        #expect(machine.state == .state1)

        #expect(
            log.lines == [
                "0 => 1",
                "Any => 2, msg=Optional(\"Hello\")",
                "2 => Any, msg=Optional(\"Bye\")",
                "[ERROR] state1 => state0",
            ])
    }

    // MARK: (b) The event example

    @Test func eventExampleWalksTwoStepsThenRefuses() {
        let log = Log()
        let machine = StateMachine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
            machine.addHandler(event: .event0) { log("event0 triggered: \($0.fromState) => \($0.toState)") }
        }
        #expect(machine.state == .state0)

        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
        machine <-! .event0
        #expect(machine.state == .state2)
        #expect(!machine.tryEvent(.event0), "event0 has no route out of state2")
        #expect(machine.state == .state2)

        #expect(log.lines == ["event0 triggered: state0 => state1", "event0 triggered: state1 => state2"])
    }

    // MARK: (c) The associated-value example

    @Test func associatedValueExampleFollowsItsMapping() {
        let log = Log()
        let machine = StateMachine<StrState, StrEvent>(state: .str("initial")) { machine in
            machine.addRouteMapping { event, fromState, _ -> StrState? in
                // No route without an event.
                guard let event else { return nil }
                switch (event, fromState) {
                case (.str("gogogo"), .str("initial")): return .str("Phase 1")
                case (.str("gogogo"), .str("Phase 1")): return .str("Phase 2")
                case (.str("finish"), .str("Phase 2")): return .str("end")
                default: return nil
                }
            }
            machine.addErrorHandler { _ in log("refused") }
        }
        #expect(machine.state == .str("initial"))

        machine <-! .str("go?")
        #expect(machine.state == .str("initial"), "no change")
        machine <-! .str("gogogo")
        #expect(machine.state == .str("Phase 1"))
        machine <-! .str("finish")
        #expect(machine.state == .str("Phase 1"), "no change")
        machine <-! .str("gogogo")
        #expect(machine.state == .str("Phase 2"))
        machine <-! .str("gogogo")
        #expect(machine.state == .str("Phase 2"), "no change")
        machine <-! .str("finish")
        #expect(machine.state == .str("end"))

        #expect(log.lines == ["refused", "refused", "refused"])
        #expect(!machine.tryState(.str("initial")), "the mapping gives no route without an event")
    }

    // MARK: (d) An issue tracker's ticket

    @Test func ticketLivesAFullLifeCycle() {
        let log = Log()
        let ticket = makeTicket(.open, log: log)
        let steps: [(TicketEvent, Ticket)] = [
            (.start, .inProgress), (.resolve, .resolved), (.reopen, .reopened), (.start, .inProgress),
            (.resolve, .resolved), (.close, .closed), (.reopen, .reopened), (.start, .inProgress),
            (.resolve, .resolved), (.close, .closed),
        ]
        for (event, expected) in steps {
            #expect(ticket.attemptEvent(event) == .success(expected))
        }
        #expect(ticket.state == .closed)
        #expect(
            log.lines == [
                "start: open => inProgress", "resolve: inProgress => resolved", "reopen: resolved => reopened",
                "start: reopened => inProgress", "resolve: inProgress => resolved", "close: resolved => closed",
                "reopen: closed => reopened", "start: reopened => inProgress", "resolve: inProgress => resolved",
                "close: resolved => closed",
            ])
    }

    @Test func ticketOpenedByMistakeClosesWithAReason() {
        let log = Log()
        let ticket = makeTicket(.open, log: log)
        #expect(ticket.attemptEvent(.close, userInfo: "duplicate of #12") == .success(.closed))
        #expect(log.lines == ["close: open => closed"])
    }

    @Test(arguments: refusedMoves)
    fileprivate func ticketRefusesMovesOutsideItsTable(move: RefusedMove) throws {
        let log = Log()
        let ticket = makeTicket(move.state, log: log)
        let result = ticket.attemptEvent(move.event, userInfo: move.reason)
        let error = try #require(result.failure)
        #expect(error.reason == move.expected)
        #expect(error.description.contains("\(move.event)"))
        #expect(ticket.state == move.state)
        #expect(log.lines == ["[ERROR] \(move.event) refused in \(move.state)"])
    }

    @Test func ticketCannotBeDraggedAcrossTheBoard() throws {
        // Asking for a state instead of firing an event follows the same table:
        // a ticket in progress cannot jump to closed.
        let log = Log()
        let ticket = makeTicket(.inProgress, log: log)
        let error = try #require(ticket.attemptState(.closed).failure)
        #expect(error.reason == .unreachable)
        #expect(ticket.state == .inProgress)
        #expect(log.lines == ["[ERROR] - refused in inProgress"])

        log.clear()
        #expect(ticket.attemptState(.resolved) == .success(.resolved), "the resolve route allows it by state")
        #expect(log.lines.isEmpty, "event handlers do not run for a state request")
    }

    @Test func ticketTableCoversEveryMove() {
        // The machine allows exactly the moves of the table in `Ticket`'s doc comment.
        let log = Log()
        var allowed: [String] = []
        for state in Ticket.allCases {
            for event in TicketEvent.allCases {
                if let target = makeTicket(state, log: log).canTryEvent(event, userInfo: "reason") {
                    allowed.append("\(event): \(state) => \(target)")
                }
            }
        }
        #expect(
            allowed == [
                "start: open => inProgress", "close: open => closed", "resolve: inProgress => resolved",
                "reopen: resolved => reopened", "close: resolved => closed", "start: reopened => inProgress",
                "reopen: closed => reopened",
            ])
    }

    // MARK: (e) Context prints as SwiftState's tuple did

    @Test(arguments: [MyEvent.event0, nil], UserInfoSample.allCases)
    fileprivate func contextPrintsLikeSwiftStatesTuple(event: MyEvent?, userInfo: UserInfoSample) {
        let context = Machine<MyState, MyEvent>.Context(
            event: event, fromState: .state1, toState: .state2, userInfo: userInfo.value)
        #expect(
            "\(context)"
                == swiftStateDescription(
                    event: event, fromState: MyState.state1, toState: .state2, userInfo: userInfo.value))
    }

    @Test func contextPrintsTheKnownShape() {
        let context = Machine<MyState, MyEvent>.Context(
            event: .event1, fromState: .state0, toState: .state3, userInfo: "Hi")
        #expect(
            "\(context)"
                == "Context(event: Optional(SwitchyardTests.MyEvent.event1), fromState: SwitchyardTests.MyState.state0, "
                + "toState: SwitchyardTests.MyState.state3, userInfo: Optional(\"Hi\"))"
        )
    }

    @Test func contextWithAssociatedValuesPrintsLikeSwiftStatesTuple() {
        let context = Machine<StrState, StrEvent>.Context(
            event: .str("go"), fromState: .str("a"), toState: .str("b"), userInfo: nil)
        let expected = swiftStateDescription(
            event: StrEvent.str("go"), fromState: StrState.str("a"), toState: .str("b"), userInfo: nil)
        #expect("\(context)" == expected)
    }

    @Test func contextOfANoEventMachinePrintsLikeSwiftStatesTuple() {
        let context = StateMachine<MyState, NoEvent>.Context(
            event: nil, fromState: .state0, toState: .state0, userInfo: 1.5)
        let expected = swiftStateDescription(
            event: NoEvent?.none, fromState: MyState.state0, toState: .state0, userInfo: 1.5)
        #expect("\(context)" == expected)
    }

    @Test func contextTheMachinePassesPrintsLikeSwiftStatesTuple() {
        var printed: [String] = []
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRoutes(event: .event2, transitions: [.state0 => .state1])
            machine.addHandler(event: .any) { printed.append("\($0)") }
            machine.addErrorHandler { printed.append("\($0)") }
        }
        machine <-! (.event2, "x") <-! .event2
        #expect(
            printed == [
                swiftStateDescription(
                    event: MyEvent.event2, fromState: MyState.state0, toState: .state1, userInfo: "x"),
                swiftStateDescription(
                    event: MyEvent.event2, fromState: MyState.state1, toState: .state1, userInfo: nil),
            ])
    }
}

extension Result {
    /// The error of a failure, or `nil` for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
