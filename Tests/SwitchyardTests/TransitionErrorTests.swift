import Switchyard
import Testing

private typealias ErrorMachine = Machine<MyState, MyEvent>

/// The error of a failed attempt; records an issue if the attempt succeeded.
private func failure(
    _ result: Result<MyState, TransitionError>, sourceLocation: SourceLocation = #_sourceLocation
) throws -> TransitionError {
    switch result {
    case .success(let state):
        Issue.record("expected a refusal, the machine moved to \(state)", sourceLocation: sourceLocation)
        throw Refused.notRefused
    case .failure(let error):
        return error
    }
}

private enum Refused: Error {
    case notRefused
}

@Suite struct TransitionErrorTests {
    // MARK: attemptEvent

    /// Entry handlers make a flat machine a statechart underneath; a refused
    /// state request must still say why, and ask each mapping once.
    @Test(arguments: [false, true])
    func attemptStateSaysWhyWithOrWithoutEntryHandlers(withEntryHandler: Bool) throws {
        let log = Log()
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { _ in false }
            machine.addStateRouteMapping { _, _ in
                log("state mapping")
                return nil
            }
            if withEntryHandler {
                machine.addEntryHandler(.state1) { _ in }
            }
        }
        #expect(try failure(machine.attemptState(.state1)).reason == .conditionsRefused)
        #expect(try failure(machine.attemptState(.state2)).reason == .unreachable)
        #expect(log.lines == ["state mapping", "state mapping"])
    }

    @Test func attemptEventReturnsTheNewState() {
        let log = Log()
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addHandler(event: .event0) { log("handler \($0.fromState) => \($0.toState)") }
        }
        #expect(machine.attemptEvent(.event0) == .success(.state1))
        #expect(machine.state == .state1)
        #expect(log.lines == ["handler state0 => state1"])
    }

    @Test func attemptEventAlongARouteToAnyReturnsTheCurrentState() {
        let machine = ErrorMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.any => .any])
        }
        #expect(machine.attemptEvent(.event0) == .success(.state2))
    }

    @Test func attemptEventPassesUserInfo() {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { $0.userInfo as? String == "key" }
        }
        #expect(machine.attemptEvent(.event0, userInfo: "key") == .success(.state1))
    }

    @Test func eventWithoutAnyRouteIsNoRoute() throws {
        let machine = ErrorMachine(state: .state0)
        #expect(try failure(machine.attemptEvent(.event0)).reason == .noRoute)
    }

    @Test func eventWithRoutesOnlyFromOtherStatesIsNoRoute() throws {
        let machine = ErrorMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .noRoute)
    }

    @Test func eventWithRoutesOnlyForOtherEventsIsNoRoute() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state1, .any => .state2])
            machine.addRoute(.state0 => .state3)
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .noRoute)
    }

    @Test func eventWhoseMappingsAllAnswerNilIsNoRoute() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRouteMapping { _, _, _ in nil }
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .noRoute)
    }

    @Test func eventWhoseOnlyRouteRefusesIsConditionsRefused() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in false }
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .conditionsRefused)
    }

    @Test func eventWhoseRoutesAllRefuseIsConditionsRefused() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state0 => .state2]) { _ in false }
            machine.addRoutes(event: .event0, transitions: [.any => .state3]) { _ in false }
            machine.addRoutes(event: .any, transitions: [.any => .any]) { _ in false }
            machine.addRouteMapping { _, _, _ in nil }
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .conditionsRefused)
    }

    @Test func eventWhoseAnyEventRouteRefusesIsConditionsRefused() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .any, transitions: [.state0 => .state1]) { $0.userInfo != nil }
        }
        #expect(try failure(machine.attemptEvent(.event2)).reason == .conditionsRefused)
        #expect(machine.attemptEvent(.event2, userInfo: 1) == .success(.state1))
    }

    @Test func refusedEventStillRunsTheErrorHandlers() {
        let log = Log()
        let machine = ErrorMachine(state: .state1) { machine in
            machine.addRoutes(event: .event0, transitions: [.state1 => .state2]) { _ in false }
            machine.addHandler(event: .any) { _ in log("handler") }
            machine.addErrorHandler { context in
                log(
                    "error \(String(describing: context.event)) \(context.fromState) => \(context.toState) \(String(describing: context.userInfo))"
                )
            }
        }
        _ = machine.attemptEvent(.event0, userInfo: "u")
        _ = machine.attemptEvent(.event1)
        #expect(machine.state == .state1)
        #expect(
            log.lines == [
                "error Optional(SwitchyardTests.MyEvent.event0) state1 => state1 Optional(\"u\")",
                "error Optional(SwitchyardTests.MyEvent.event1) state1 => state1 nil",
            ])
    }

    @Test func refusedEventDescriptionNamesTheEventAndTheState() throws {
        let machine = ErrorMachine(state: .state2) { machine in
            machine.addRoutes(event: .event1, transitions: [.state2 => .state3]) { _ in false }
        }
        let noRoute = try failure(machine.attemptEvent(.event0)).description
        let refused = try failure(machine.attemptEvent(.event1)).description
        #expect(noRoute.contains("event0"))
        #expect(noRoute.contains("state2"))
        #expect(refused.contains("event1"))
        #expect(refused.contains("state2"))
        #expect(noRoute != refused)
    }

    // MARK: attemptState

    @Test func attemptStateReturnsTheNewState() {
        let log = Log()
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state0 => .state3)
            machine.addHandler(.any => .any) { log("handler \($0.fromState) => \($0.toState)") }
        }
        #expect(machine.attemptState(.state3) == .success(.state3))
        #expect(machine.state == .state3)
        #expect(log.lines == ["handler state0 => state3"])
    }

    @Test func attemptStatePassesUserInfo() {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { $0.userInfo as? Int == 5 }
        }
        #expect(machine.attemptState(.state1, userInfo: 5) == .success(.state1))
    }

    @Test func stateWithoutAnyRouteIsUnreachable() throws {
        let machine = ErrorMachine(state: .state0)
        #expect(try failure(machine.attemptState(.state1)).reason == .unreachable)
        #expect(try failure(machine.attemptState(.state0)).reason == .unreachable)
    }

    @Test func stateWithRoutesElsewhereIsUnreachable() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state1 => .state2)
            machine.addRoute(.state0 => .state1)
            machine.addRoutes(event: .event0, transitions: [.state0 => .state3, .any => .state1])
            machine.addStateRouteMapping { _, _ in [.state1] }
            machine.addRouteMapping { _, _, _ in .state3 }
        }
        #expect(try failure(machine.attemptState(.state2)).reason == .unreachable)
        #expect(machine.state == .state0)
    }

    @Test func stateWhoseRouteRefusesIsConditionsRefused() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { _ in false }
            machine.addRoute(.any => .state1) { _ in false }
        }
        #expect(try failure(machine.attemptState(.state1)).reason == .conditionsRefused)
    }

    @Test func stateWhoseEventRouteRefusesIsConditionsRefused() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state2]) { _ in false }
        }
        #expect(try failure(machine.attemptState(.state2)).reason == .conditionsRefused)
    }

    @Test func refusedStateStillRunsTheErrorHandlers() {
        let log = Log()
        let machine = ErrorMachine(state: .state1) { machine in
            machine.addRoute(.state1 => .state2) { _ in false }
            machine.addHandler(.any => .any) { _ in log("handler") }
            machine.addErrorHandler { context in
                log(
                    "error \(String(describing: context.event)) \(context.fromState) => \(context.toState) \(String(describing: context.userInfo))"
                )
            }
        }
        _ = machine.attemptState(.state2, userInfo: 9)
        _ = machine.attemptState(.state3)
        #expect(machine.state == .state1)
        #expect(log.lines == ["error nil state1 => state2 Optional(9)", "error nil state1 => state3 nil"])
    }

    @Test func refusedStateDescriptionNamesBothStates() throws {
        let machine = ErrorMachine(state: .state1) { machine in
            machine.addRoute(.state1 => .state2) { _ in false }
        }
        let unreachable = try failure(machine.attemptState(.state3)).description
        let refused = try failure(machine.attemptState(.state2)).description
        #expect(unreachable.contains("state1"))
        #expect(unreachable.contains("state3"))
        #expect(refused.contains("state1"))
        #expect(refused.contains("state2"))
        #expect(unreachable != refused)
    }

    @Test func attemptsAgreeWithTheBooleanAPI() {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoute(.state1 => .state2)
        }
        for event in MyEvent.allCases {
            let canTry = machine.canTryEvent(event)
            let result = machine.attemptEvent(event)
            #expect((try? result.get()) == canTry)
        }
        for target in MyState.allCases {
            let canTry = machine.canTryState(target)
            let moved = (try? machine.attemptState(target).get()) != nil
            #expect(moved == canTry)
        }
    }

    // MARK: Routes that list their states

    @Test func eventFromAStateNotAmongTheListedSourcesIsStateNotListed() throws {
        let machine = ErrorMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, routes: [[.state0, .state1] => .state2])
        }
        let error = try failure(machine.attemptEvent(.event0))
        #expect(error.reason == .stateNotListed)
        #expect(error.description == "state3 is not one of the states the routes of event event0 leave from")
        #expect(!error.description.contains("condition"))
        #expect(machine.attemptEvent(.event0) != .success(.state2))
        machine.addRoute(.state3 => .state1)
        machine <- .state1
        #expect(machine.attemptEvent(.event0) == .success(.state2))
    }

    @Test func eventStayingOutsideTheListedTargetsIsStateNotListed() throws {
        // Taken by an event, `.state0 => [.state1]` means "stay", as in SwiftState,
        // so the state it would stay in must be listed.
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, routes: [.state0 => [.state1]])
        }
        let error = try failure(machine.attemptEvent(.event0))
        #expect(error.reason == .stateNotListed)
        #expect(error.description == "state0 is not one of the states the routes of event event0 lead to")
    }

    @Test func stateFromAStateNotAmongTheListedSourcesIsStateNotListed() throws {
        let machine = ErrorMachine(state: .state3) { machine in
            machine.addRoute([.state0, .state1] => .state2)
        }
        let error = try failure(machine.attemptState(.state2))
        #expect(error.reason == .stateNotListed)
        #expect(error.description == "state3 is not one of the states the routes to state2 leave from")
    }

    @Test func stateNotAmongTheListedTargetsIsStateNotListed() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute(.state0 => [.state1, .state2])
        }
        let error = try failure(machine.attemptState(.state3))
        #expect(error.reason == .stateNotListed)
        #expect(error.description == "state3 is not one of the states the routes from state0 lead to")
        #expect(machine.attemptState(.state2) == .success(.state2))
    }

    @Test func listsOnBothSidesNameTheSideThatFailed() throws {
        let machine = ErrorMachine(state: .state0) { machine in
            machine.addRoute([.state0, .state1] => [.state2])
        }
        #expect(try failure(machine.attemptState(.state3)).description.hasSuffix("lead to"))
        machine.addRoute(.state0 => .state3)
        machine <- .state3
        #expect(try failure(machine.attemptState(.state2)).description.hasSuffix("leave from"))
    }

    @Test func aRefusingConditionOutranksAListThatDoesNotHoldTheState() throws {
        let machine = ErrorMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, routes: [[.state0] => .state1])
            machine.addRoutes(event: .event0, transitions: [.state3 => .state2]) { _ in false }
        }
        #expect(try failure(machine.attemptEvent(.event0)).reason == .conditionsRefused)
    }

    @Test func listedRoutesKeepAConditionThatChecksTheirLists() {
        // SwiftState code may read a route's condition; it still answers.
        let route: Route<MyState, MyEvent> = [.state0, .state1] => .state2
        let context = { (from: MyState) in
            ErrorMachine.Context(event: nil, fromState: from, toState: .state2, userInfo: nil)
        }
        #expect(route.transition == (.any => .state2))
        #expect(route.condition?(context(.state1)) == true)
        #expect(route.condition?(context(.state3)) == false)
    }

    // MARK: TransitionError

    @Test func transitionErrorKeepsItsReasonAndDescription() {
        let error = TransitionError(reason: .unreachable, description: "no way")
        #expect(error.reason == .unreachable)
        #expect(error.description == "no way")
        #expect("\(error)" == "no way")
        #expect(error == TransitionError(reason: .unreachable, description: "no way"))
        #expect(error != TransitionError(reason: .noRoute, description: "no way"))
    }

    @Test func sameRefusalGivesEqualErrors() {
        let machine = ErrorMachine(state: .state0)
        #expect(machine.attemptEvent(.event0) == machine.attemptEvent(.event0))
        #expect(machine.attemptEvent(.event0) != machine.attemptEvent(.event1))
    }
}
