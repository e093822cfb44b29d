import Switchyard
import Testing

private typealias StateMachineUnderTest = Machine<MyState, MyEvent>

/// A value compared by identity, to prove `userInfo` is passed along untouched.
private final class Token {}

/// The places `tryState` looks for a way from one state to another, in the
/// order the lead engineer fixed: event-less routes, event routes of any event,
/// state route mappings, route mappings asked with a `nil` event.
private enum Source: CaseIterable, Hashable, Sendable {
    case eventlessRoute, eventRoute, stateRouteMapping, routeMapping
}

/// Adds a way from `.state0` to `.state1` through `source`; it logs the source
/// when asked and answers `allows`.
private func register(_ source: Source, on machine: StateMachineUnderTest, allows: Bool, log: Log) {
    let condition: StateMachineUnderTest.Condition = { _ in
        log("\(source)")
        return allows
    }
    switch source {
    case .eventlessRoute:
        machine.addRoute(.state0 => .state1, condition: condition)
    case .eventRoute:
        machine.addRoutes(event: .event2, transitions: [.state0 => .state1], condition: condition)
    case .stateRouteMapping:
        machine.addStateRouteMapping { _, _ in
            log("\(source)")
            return allows ? [.state1] : nil
        }
    case .routeMapping:
        machine.addRouteMapping { _, _, _ in
            log("\(source)")
            return allows ? .state1 : nil
        }
    }
}

@Suite struct MachineStateTests {
    // MARK: tryState

    @Test func tryStateMovesAlongARoute() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
        }
        #expect(machine.tryState(.state1))
        #expect(machine.state == .state1)
    }

    @Test func tryStateWithoutARouteFailsAndStays() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.state2 => .state3)
        }
        #expect(!machine.tryState(.state3))
        #expect(!machine.tryState(.state0), "asking for the current state needs a route too")
        #expect(machine.state == .state0)
    }

    @Test func routesOnlyGoOneWay() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
        }
        machine.tryState(.state1)
        #expect(!machine.tryState(.state0))
        #expect(machine.state == .state1)
    }

    // MARK: canTryState and hasRoute

    @Test func canTryStateAnswersWithoutMovingOrRunningHandlers() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addAnyHandler(.any => .any) { _ in log("handler") }
            machine.addErrorHandler { _ in log("error") }
        }
        #expect(machine.canTryState(.state1))
        #expect(!machine.canTryState(.state2))
        #expect(machine.state == .state0)
        #expect(log.lines.isEmpty)
    }

    @Test func tryStateAsksAStatesRoutesBeforeTheRootsWithOrWithoutAStatechart() {
        // One walk: the state's own routes (of any event) before a route
        // from `.any` without an event, on a flat machine as on a statechart.
        func asked(withStatechart: Bool) -> (tryState: [String], hasRoute: [String]) {
            let log = Log()
            let machine = StateMachineUnderTest(state: .state0)
            if withStatechart {
                machine.addEntryHandler(.state2) { _ in }
            }
            machine.addRoute(
                .any => .state1,
                condition: { _ in
                    log("from any, no event")
                    return false
                })
            machine.addRoutes(
                event: .event2, transitions: [.state0 => .state1],
                condition: { _ in
                    log("from state, of an event")
                    return false
                })
            #expect(!machine.tryState(.state1))
            let tried = log.lines
            log.clear()
            #expect(!machine.hasRoute(.state0 => .state1))
            return (tried, log.lines)
        }
        let order = ["from state, of an event", "from any, no event"]
        for withStatechart in [false, true] {
            let (tryState, hasRoute) = asked(withStatechart: withStatechart)
            #expect(tryState == order, "with a statechart: \(withStatechart)")
            #expect(hasRoute == order, "with a statechart: \(withStatechart)")
        }
    }

    @Test func canTryStateDependsOnTheCurrentState() {
        let machine = StateMachineUnderTest(state: .state2) { machine in
            machine.addRoute(.state0 => .state1)
        }
        #expect(!machine.canTryState(.state1))
    }

    @Test func hasRouteIgnoresTheCurrentState() {
        let machine = StateMachineUnderTest(state: .state3) { machine in
            machine.addRoute(.state0 => .state1)
        }
        #expect(machine.hasRoute(.state0 => .state1))
        #expect(machine.hasRoute(fromState: .state0, toState: .state1))
        #expect(!machine.hasRoute(.state1 => .state0))
        #expect(!machine.hasRoute(fromState: .state3, toState: .state1))
    }

    @Test func hasRouteAsksConditionsWithTheRequest() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state3) { machine in
            machine.addRoute(.state0 => .state1) { context in
                log("\(String(describing: context.event)) \(context.fromState) => \(context.toState)")
                return context.userInfo as? String == "ok"
            }
        }
        #expect(machine.hasRoute(.state0 => .state1, userInfo: "ok"))
        #expect(!machine.hasRoute(fromState: .state0, toState: .state1, userInfo: "no"))
        #expect(!machine.canTryState(.state1, userInfo: "ok"), "the machine is in state3")
        #expect(log.lines == ["nil state0 => state1", "nil state0 => state1"])
    }

    @Test func hasRouteCountsEveryKindOfRoute() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state1])
            machine.addStateRouteMapping { from, _ in from == .state1 ? [.state2] : nil }
            machine.addRouteMapping { event, from, _ in event == nil && from == .state2 ? .state3 : nil }
        }
        #expect(machine.hasRoute(.state0 => .state1))
        #expect(machine.hasRoute(.state1 => .state2))
        #expect(machine.hasRoute(.state2 => .state3))
        #expect(!machine.hasRoute(.state3 => .state0))
    }

    // MARK: addRoute

    @Test func addRouteConditionSeesTheRequest() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state2) { context in
                log(
                    "\(String(describing: context.event)) \(context.fromState) => \(context.toState) \(String(describing: context.userInfo))"
                )
                return context.userInfo as? Int == 1
            }
        }
        #expect(!machine.tryState(.state2, userInfo: 2))
        #expect(machine.tryState(.state2, userInfo: 1))
        #expect(machine.state == .state2)
        #expect(log.lines == ["nil state0 => state2 Optional(2)", "nil state0 => state2 Optional(1)"])
    }

    @Test func addRouteTakesARouteFromSeveralStates() {
        let route: Route<MyState, MyEvent> = [.state0, .state1] => .state2
        let machine = StateMachineUnderTest(state: .state3) { machine in
            machine.addRoute(route)
            machine.addRoute(.state0 => .state1)
        }
        #expect(!machine.tryState(.state2))
        #expect(machine.hasRoute(.state0 => .state2))
        #expect(machine.hasRoute(.state1 => .state2))
        #expect(!machine.hasRoute(.state0 => .state3))
    }

    @Test func addRouteTakesARouteToSeveralStates() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => [.state1, .state2])
        }
        #expect(!machine.canTryState(.state3))
        #expect(!machine.canTryState(.state0))
        #expect(machine.canTryState(.state1))
        #expect(machine.tryState(.state2))
        #expect(machine.state == .state2)
    }

    @Test func addRouteTakesARouteBetweenSetsOfStates() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute([.state0, .state1] => [.state2, .state3])
        }
        #expect(machine.hasRoute(.state1 => .state3))
        #expect(!machine.hasRoute(.state2 => .state3))
        #expect(!machine.hasRoute(.state0 => .state1))
        #expect(machine.tryState(.state3))
    }

    @Test func addRouteTakesARouteWithItsOwnCondition() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(Route(transition: .state0 => .state1) { $0.userInfo != nil })
        }
        #expect(!machine.tryState(.state1))
        #expect(machine.tryState(.state1, userInfo: true))
    }

    // MARK: `.any`

    @Test(arguments: MyState.allCases)
    func routeFromAnyReachesItsTargetFromEveryState(start: MyState) {
        let machine = StateMachineUnderTest(state: start) { machine in
            machine.addRoute(.any => .state2)
        }
        #expect(machine.tryState(.state2))
        #expect(machine.state == .state2)
        #expect(!machine.canTryState(.state1))
    }

    @Test(arguments: MyState.allCases)
    func routeToAnyReachesEveryStateFromItsSource(target: MyState) {
        let machine = StateMachineUnderTest(state: .state2) { machine in
            machine.addRoute(.state2 => .any)
        }
        #expect(machine.tryState(target))
        #expect(machine.state == target)
    }

    @Test func routeFromAnyToAnyReachesEverything() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.any => .any)
        }
        for target in [MyState.state3, .state3, .state1, .state0, .state2] {
            #expect(machine.tryState(target))
            #expect(machine.state == target)
        }
    }

    // MARK: `<-`

    @Test func goOperatorTriesTheStateAndReturnsTheMachine() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
        }
        let returned = machine <- .state1
        #expect(returned === machine)
        #expect(machine.state == .state1)
    }

    @Test func goOperatorPassesUserInfo() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { $0.userInfo as? String == "please" }
            machine.addHandler(.state0 => .state1) { log("handler \(String(describing: $0.userInfo))") }
        }
        machine <- (.state1, "now")
        #expect(machine.state == .state0)
        let returned = machine <- (.state1, "please")
        #expect(returned === machine)
        #expect(machine.state == .state1)
        #expect(log.lines == ["handler Optional(\"please\")"])
    }

    @Test func goOperatorChains() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.state1 => .state2)
            machine.addRoute(.state2 => .state3)
            machine.addHandler(.any => .any) {
                log("\($0.fromState) => \($0.toState) \(String(describing: $0.userInfo))")
            }
        }
        machine <- .state1 <- (.state2, 2) <- .state3
        #expect(machine.state == .state3)
        #expect(log.lines == ["state0 => state1 nil", "state1 => state2 Optional(2)", "state2 => state3 nil"])
    }

    @Test func goOperatorChainGoesOnPastAFailure() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.state1 => .state2)
        }
        machine <- .state2 <- .state1 <- .state2
        #expect(machine.state == .state2)
    }

    // MARK: Event routes count for tryState

    @Test func tryStateUsesEventRoutesOfAnyEvent() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state1])
            machine.addRoutes(event: .any, transitions: [.state1 => .state2])
        }
        #expect(machine.tryState(.state1))
        #expect(machine.tryState(.state2))
        #expect(machine.state == .state2)
    }

    @Test func eventRouteAskedByStateSeesNoEvent() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state1]) { context in
                log("condition \(String(describing: context.event))")
                return true
            }
            machine.addHandler(.any => .any) { log("handler \(String(describing: $0.event))") }
        }
        #expect(machine.tryState(.state1))
        #expect(log.lines == ["condition nil", "handler nil"])
    }

    @Test func eventRouteToAnyAllowsEveryTargetByState() {
        // SwiftState matches `from => .any` for tryState: `.any` is a wildcard
        // here, not the "stay" it means to an event.
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .any])
        }
        #expect(machine.tryState(.state3))
        #expect(machine.state == .state3)
    }

    @Test func refusedEventRouteRefusesTheState() {
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in false }
        }
        #expect(!machine.tryState(.state1))
        #expect(machine.state == .state0)
    }

    // MARK: Mappings

    @Test func routeMappingsAreAskedWithANilEvent() {
        var asked: [MyEvent?] = []
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRouteMapping { event, fromState, _ in
                asked.append(event)
                return event == nil && fromState == .state0 ? .state2 : nil
            }
        }
        #expect(!machine.tryState(.state1))
        #expect(machine.tryState(.state2))
        #expect(machine.state == .state2)
        #expect(asked == [nil, nil])
    }

    @Test func stateRouteMappingAllowsTheStatesItNames() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addStateRouteMapping { fromState, userInfo in
                log("\(fromState) \(String(describing: userInfo))")
                return fromState == .state0 ? [.state1, .state2] : nil
            }
        }
        #expect(!machine.canTryState(.state3))
        #expect(machine.tryState(.state2, userInfo: "x"))
        #expect(machine.state == .state2)
        #expect(!machine.tryState(.state1))
        #expect(log.lines == ["state0 nil", "state0 Optional(\"x\")", "state2 nil"])
    }

    @Test func everyStateRouteMappingIsAskedUntilOneAllows() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addStateRouteMapping { _, _ in
                log("first")
                return [.state1]
            }
            machine.addStateRouteMapping { _, _ in
                log("second")
                return [.state2]
            }
        }
        #expect(machine.tryState(.state2))
        #expect(log.lines == ["first", "second"])
    }

    @Test func routeMappingToTheCurrentStateIsASuccessfulSelfTransition() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state1) { machine in
            machine.addRouteMapping { _, fromState, _ in fromState }
            machine.addHandler(.state1 => .state1) { log("\($0.fromState) => \($0.toState)") }
            machine.addErrorHandler { _ in log("error") }
        }
        #expect(machine.canTryState(.state1))
        #expect(machine.tryState(.state1))
        #expect(machine.state == .state1)
        #expect(!machine.tryState(.state2))
        #expect(log.lines == ["state1 => state1", "error"])
    }

    @Test func stateRouteMappingToTheCurrentStateIsASuccessfulSelfTransition() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state3) { machine in
            machine.addStateRouteMapping { fromState, _ in [fromState] }
            machine.addHandler(.state3 => .state3) { log("\($0.fromState) => \($0.toState)") }
        }
        #expect(machine.tryState(.state3))
        #expect(log.lines == ["state3 => state3"])
    }

    // MARK: Where tryState looks, in order

    @Test func tryStateAsksEverySourceInOrderWhenAllRefuse() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0)
        for source in Source.allCases.reversed() {
            register(source, on: machine, allows: false, log: log)
        }
        #expect(!machine.tryState(.state1))
        #expect(machine.state == .state0)
        #expect(log.lines == Source.allCases.map { "\($0)" })
    }

    @Test(arguments: Source.allCases)
    fileprivate func tryStateStopsAtTheFirstSourceThatAllows(winner: Source) {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0)
        let winnerIndex = Source.allCases.firstIndex(of: winner)!
        for (index, source) in Source.allCases.enumerated().reversed() {
            register(source, on: machine, allows: index >= winnerIndex, log: log)
        }
        #expect(machine.tryState(.state1))
        #expect(machine.state == .state1)
        #expect(log.lines == Source.allCases[...winnerIndex].map { "\($0)" })
    }

    // MARK: userInfo

    @Test func userInfoReachesEverythingATryStateAsksUnchanged() {
        let token = Token()
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { context in
                log("route \(context.userInfo as? Token === token)")
                return false
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { context in
                log("event route \(context.userInfo as? Token === token)")
                return false
            }
            machine.addStateRouteMapping { _, userInfo in
                log("state mapping \(userInfo as? Token === token)")
                return nil
            }
            machine.addRouteMapping { _, _, userInfo in
                log("mapping \(userInfo as? Token === token)")
                return .state1
            }
            machine.addHandler(.any => .any) { log("handler \($0.userInfo as? Token === token)") }
        }
        #expect(machine.tryState(.state1, userInfo: token))
        #expect(log.lines == ["route true", "event route true", "state mapping true", "mapping true", "handler true"])
    }

    @Test func userInfoIsNotStored() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.any => .any)
            machine.addHandler(.any => .any) { log("\(String(describing: $0.userInfo))") }
        }
        machine <- (.state1, "first") <- .state2
        #expect(log.lines == ["Optional(\"first\")", "nil"])
    }

    // MARK: Failure

    @Test func failedTryStateReportsTheRequestedState() throws {
        var seen: [StateMachineUnderTest.Context] = []
        let machine = StateMachineUnderTest(state: .state1) { machine in
            machine.addRoute(.state0 => .state2)
            machine.addErrorHandler { seen.append($0) }
        }
        #expect(!machine.tryState(.state2, userInfo: 42))
        #expect(seen.count == 1)
        let context = try #require(seen.first)
        #expect(context.event == nil)
        #expect(context.fromState == .state1)
        #expect(context.toState == .state2)
        #expect(context.userInfo as? Int == 42)
    }

    @Test func failedTryStateAppliesNothing() {
        let log = Log()
        let machine = StateMachineUnderTest(state: .state0) { machine in
            machine.addRoute(.state0 => .state1) { $0.userInfo as? Bool == true }
            machine.addRoute(.state1 => .state2)
            machine.addHandler(.any => .any) { _ in log("handler") }
            machine.addAnyHandler(.any => .any) { _ in log("any handler") }
            machine.addHandler(event: .any) { _ in log("event handler") }
        }
        machine.addErrorHandler { [unowned machine] _ in log("error, now \(machine.state)") }
        #expect(!machine.tryState(.state1, userInfo: false))
        #expect(!machine.tryState(.state2))
        #expect(machine.state == .state0)
        #expect(log.lines == ["error, now state0", "error, now state0"])

        log.clear()
        #expect(machine.tryState(.state1, userInfo: true), "the failures left the machine as it was")
        #expect(machine.state == .state1)
        #expect(log.lines.sorted() == ["any handler", "handler"])
    }
}
