import Switchyard
import Testing

private typealias EventMachine = Machine<MyState, MyEvent>

/// A value compared by identity, to prove `userInfo` is passed along untouched.
private final class Token {}

/// The places a route for one event can be registered, most specific first,
/// as SPEC §2 "Deterministic choice" ranks them: the current state's routes
/// before those of `.any` (the root), on each the exact event before `.any`
/// event, as a statechart's walk ranks them.
private enum Bucket: CaseIterable, Hashable, Sendable {
    case exactEventExactState, anyEventExactState, exactEventAnyState, anyEventAnyState, routeMapping
}

/// A state per bucket, so that where the machine ends up names the route that won.
private enum Track: StateType {
    case start
    case reached(Bucket)
}

/// Adds one route (or mapping) for `.event0` from `.start` in `bucket`, leading
/// to `.reached(bucket)`; its condition logs the bucket and answers `allows`.
private func register(_ bucket: Bucket, on machine: Machine<Track, MyEvent>, allows: Bool, log: Log) {
    let target = Track.reached(bucket)
    let condition: Machine<Track, MyEvent>.Condition = { _ in
        log("\(bucket)")
        return allows
    }
    switch bucket {
    case .exactEventExactState:
        machine.addRoutes(event: .event0, transitions: [.start => target], condition: condition)
    case .exactEventAnyState:
        machine.addRoutes(event: .event0, transitions: [.any => target], condition: condition)
    case .anyEventExactState:
        machine.addRoutes(event: .any, transitions: [.start => target], condition: condition)
    case .anyEventAnyState:
        machine.addRoutes(event: .any, transitions: [.any => target], condition: condition)
    case .routeMapping:
        machine.addRouteMapping { _, _, _ in
            log("\(bucket)")
            return allows ? target : nil
        }
    }
}

/// Every non-empty combination of buckets.
private let bucketCombinations: [[Bucket]] = (1..<(1 << Bucket.allCases.count)).map { mask in
    Bucket.allCases.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
}

@Suite struct MachineEventTests {
    // MARK: tryEvent

    @Test func tryEventMovesAlongTheEventsRoute() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state2)
    }

    @Test func tryEventWithoutARouteFromHereFailsAndStays() {
        let machine = EventMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoutes(event: .event1, transitions: [.state2 => .state3])
        }
        #expect(!machine.tryEvent(.event0))
        #expect(!machine.tryEvent(.event2))
        #expect(machine.state == .state2)
    }

    @Test func tryEventNeverUsesEventlessRoutes() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.any => .any)
            machine.addStateRouteMapping { _, _ in [.state2] }
            machine.addErrorHandler { log("error \($0.event.map { "\($0)" } ?? "nil")") }
        }
        #expect(machine.canTryEvent(.event0) == nil)
        #expect(!machine.hasRoute(event: .event0, fromState: .state0, toState: .state1))
        #expect(!machine.tryEvent(.event0))
        #expect(machine.state == .state0)
        #expect(log.lines == ["error event0"])
    }

    // MARK: canTryEvent

    @Test func canTryEventNamesTheTargetWithoutMovingOrRunningHandlers() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state3])
            machine.addHandler(event: .any) { _ in log("handler") }
            machine.addErrorHandler { _ in log("error") }
        }
        #expect(machine.canTryEvent(.event0) == .state3)
        #expect(machine.canTryEvent(.event1) == nil)
        #expect(machine.state == .state0)
        #expect(log.lines.isEmpty)
    }

    @Test func canTryEventAsksConditionsWithTheUserInfo() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { $0.userInfo as? Int == 7 }
        }
        #expect(machine.canTryEvent(.event0, userInfo: 7) == .state1)
        #expect(machine.canTryEvent(.event0, userInfo: 8) == nil)
        #expect(machine.canTryEvent(.event0) == nil)
    }

    // MARK: hasRoute(event:…)

    @Test func hasRouteForEventAndTransitionLooksAtThatEventsRoutes() {
        let machine = EventMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        }
        #expect(machine.hasRoute(event: .event0, transition: .state0 => .state1))
        #expect(!machine.hasRoute(event: .event1, transition: .state0 => .state1))
        #expect(!machine.hasRoute(event: .event0, transition: .state1 => .state0))
        #expect(!machine.hasRoute(event: .event0, transition: .state0 => .state2))
    }

    @Test func hasRouteForEventAndStatesIgnoresTheCurrentState() {
        let machine = EventMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state0 => .state2])
        }
        // Every route counts, not only the one tryEvent would choose.
        #expect(machine.hasRoute(event: .event0, fromState: .state0, toState: .state1))
        #expect(machine.hasRoute(event: .event0, fromState: .state0, toState: .state2))
        #expect(!machine.hasRoute(event: .event0, fromState: .state3, toState: .state1))
    }

    @Test func hasRouteForEventCoversWildcardRoutes() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .any, transitions: [.any => .state2])
        }
        for event in MyEvent.allCases {
            for from in MyState.allCases {
                #expect(machine.hasRoute(event: event, fromState: from, toState: .state2))
                #expect(!machine.hasRoute(event: event, fromState: from, toState: .state1))
            }
        }
    }

    @Test func hasRouteForEventTreatsARouteToAnyAsStaying() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state1 => .any])
        }
        #expect(machine.hasRoute(event: .event0, fromState: .state1, toState: .state1))
        #expect(machine.hasRoute(event: .event0, transition: .state1 => .state1))
        for to in MyState.allCases where to != .state1 {
            #expect(!machine.hasRoute(event: .event0, fromState: .state1, toState: to))
        }
    }

    @Test func hasRouteForEventAsksConditionsWithTheRequest() {
        let log = Log()
        let machine = EventMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { context in
                log("\(String(describing: context.event)) \(context.fromState) => \(context.toState)")
                return context.userInfo as? String == "ok"
            }
        }
        #expect(machine.hasRoute(event: .event0, fromState: .state0, toState: .state1, userInfo: "ok"))
        #expect(!machine.hasRoute(event: .event0, transition: .state0 => .state1, userInfo: "no"))
        #expect(
            log.lines == [
                "Optional(SwitchyardTests.MyEvent.event0) state0 => state1",
                "Optional(SwitchyardTests.MyEvent.event0) state0 => state1",
            ])
        #expect(machine.state == .state3)
    }

    @Test func hasRouteForEventCountsRouteMappings() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRouteMapping { event, fromState, _ in
                event == .event1 && fromState == .state2 ? .state3 : nil
            }
        }
        #expect(machine.hasRoute(event: .event1, fromState: .state2, toState: .state3))
        #expect(!machine.hasRoute(event: .event1, fromState: .state2, toState: .state0))
        #expect(!machine.hasRoute(event: .event0, fromState: .state2, toState: .state3))
    }

    // MARK: addRoutes

    @Test func addRoutesConditionSeesTheEventAndTheMove() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event1, transitions: [.state0 => .state2]) { context in
                log("\(String(describing: context.event)) \(context.fromState) => \(context.toState)")
                return true
            }
        }
        #expect(machine.tryEvent(.event1))
        #expect(log.lines == ["Optional(SwitchyardTests.MyEvent.event1) state0 => state2"])
    }

    @Test func addRoutesConditionCanRefuse() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in false }
        }
        #expect(!machine.tryEvent(.event0))
        #expect(machine.state == .state0)
    }

    @Test func addRoutesForAnyEventServesEveryEvent() {
        for event in MyEvent.allCases {
            let machine = EventMachine(state: .state0) { machine in
                machine.addRoutes(event: Event.any, transitions: [.state0 => .state1])
            }
            #expect(machine.tryEvent(event))
            #expect(machine.state == .state1)
        }
    }

    @Test func addRoutesForAWrappedEventServesOnlyThatEvent() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: Event.some(.event2), transitions: [.state0 => .state1])
        }
        #expect(!machine.tryEvent(.event0))
        #expect(machine.tryEvent(.event2))
        #expect(machine.state == .state1)
    }

    @Test func addRoutesWithRoutesChecksMembership() {
        let machine = EventMachine(state: .state3) { machine in
            machine.addRoutes(event: .event0, routes: [[.state0, .state1] => .state2])
        }
        #expect(!machine.tryEvent(.event0), "state3 is not one of the route's from-states")
        #expect(machine.hasRoute(event: .event0, fromState: .state1, toState: .state2))
        #expect(!machine.hasRoute(event: .event0, fromState: .state3, toState: .state2))

        let member = EventMachine(state: .state1) { machine in
            machine.addRoutes(event: .event0, routes: [[.state0, .state1] => .state2])
        }
        #expect(member.tryEvent(.event0))
        #expect(member.state == .state2)
    }

    @Test func eventTakesARouteToSeveralStatesAsStaying() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, routes: [.state0 => [.state1, .state2]])
        }
        // The route's transition is `.state0 => .any`; an event takes it as "stay",
        // and state0 is not one of the route's targets.
        #expect(machine.canTryEvent(.event0) == nil)
        #expect(!machine.hasRoute(event: .event0, fromState: .state0, toState: .state0))
    }

    @Test func addRoutesWithRoutesForAnyEventServesEveryEvent() {
        let routes: [Route<MyState, MyEvent>] = [
            Route(transition: .state0 => .state1) { $0.event == .event1 },
            Route(transition: .state0 => .state2, condition: nil),
        ]
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: Event.any, routes: routes)
        }
        #expect(machine.canTryEvent(.event0) == .state2)
        #expect(machine.canTryEvent(.event1) == .state1)
        #expect(machine.canTryEvent(.event2) == .state2)
    }

    @Test func addRoutesWithRoutesForAWrappedEventServesOnlyThatEvent() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(
                event: Event.some(.event1), routes: [Route(transition: .state0 => .state3, condition: nil)])
        }
        #expect(machine.canTryEvent(.event0) == nil)
        #expect(machine.canTryEvent(.event1) == .state3)
    }

    // MARK: Routes to `.any` mean "stay"

    @Test func routeToAnyTakenByAnEventStaysAndRunsHandlers() {
        let log = Log()
        let machine = EventMachine(state: .state1) { machine in
            machine.addRoutes(event: .event0, transitions: [.state1 => .any])
            machine.addHandler(event: .event0) { log("event0 \($0.fromState) => \($0.toState)") }
            machine.addAnyHandler(.state1 => .state1) { _ in log("any handler") }
            machine.addErrorHandler { _ in log("error") }
        }
        #expect(machine.canTryEvent(.event0) == .state1)
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
        #expect(log.lines == ["event0 state1 => state1", "any handler"])
    }

    @Test func wildcardRouteToAnyKeepsEveryStateForEveryEvent() {
        for state in MyState.allCases {
            let machine = EventMachine(state: state) { machine in
                machine.addRoutes(event: .any, transitions: [.any => .any])
            }
            for event in MyEvent.allCases {
                #expect(machine.tryEvent(event))
                #expect(machine.state == state)
            }
        }
    }

    @Test func routeToAnyConditionIsAskedWithTheCurrentStateAsTarget() {
        let log = Log()
        let machine = EventMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.any => .any]) { context in
                log("\(context.fromState) => \(context.toState)")
                return true
            }
        }
        machine.tryEvent(.event0)
        #expect(log.lines == ["state2 => state2"])
    }

    // MARK: Deterministic choice (SPEC §2)

    /// What a machine has besides its routes: nothing, a tree on an
    /// unrelated state, or an entry handler. None of it may change a choice.
    enum Unrelated: CaseIterable, Sendable {
        case nothing, childrenElsewhere, entryHandler

        /// Adds it to `machine`, on states no route of the tests names.
        fileprivate func add(to machine: Machine<Track, MyEvent>) {
            switch self {
            case .nothing: break
            case .childrenElsewhere:
                machine.addChildren([.reached(.routeMapping)], to: .reached(.exactEventExactState))
            case .entryHandler:
                machine.addEntryHandler(.reached(.routeMapping)) { _ in }
            }
        }
    }

    @Test(arguments: Unrelated.allCases)
    func aStatesOwnAnyEventRouteBeatsAnExactEventRouteFromAnyWhateverElseTheMachineHas(unrelated: Unrelated) {
        let machine = Machine<Track, MyEvent>(state: .start)
        machine.addRoutes(event: .any, transitions: [.start => .reached(.anyEventExactState)])
        machine.addRoutes(event: .event0, transitions: [.any => .reached(.exactEventAnyState)])
        unrelated.add(to: machine)
        #expect(machine.canTryEvent(.event0) == .reached(.anyEventExactState))
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .reached(.anyEventExactState))
    }

    @Test(arguments: Unrelated.allCases)
    func anExactEventRouteFromAnyBeatsAnAnyEventRouteFromAnyWhateverElseTheMachineHas(unrelated: Unrelated) {
        let machine = Machine<Track, MyEvent>(state: .start)
        machine.addRoutes(event: .any, transitions: [.any => .reached(.anyEventAnyState)])
        machine.addRoutes(event: .event0, transitions: [.any => .reached(.exactEventAnyState)])
        unrelated.add(to: machine)
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .reached(.exactEventAnyState))
    }

    @Test func hasRouteAsksConditionsInTheOrderTryEventTriesTheirRoutes() {
        // One question, one order: each route's condition says no and logs,
        // so every route is asked, by tryEvent and by hasRoute alike.
        let log = Log()
        let machine = Machine<Track, MyEvent>(state: .start)
        let target = Track.reached(.exactEventExactState)
        func refuse(_ name: String) -> Machine<Track, MyEvent>.Condition {
            { _ in
                log(name)
                return false
            }
        }
        machine.addRoutes(event: .any, transitions: [.any => target], condition: refuse("any, any"))
        machine.addRoutes(event: .event0, transitions: [.any => target], condition: refuse("event, any"))
        machine.addRoutes(event: .any, transitions: [.start => target], condition: refuse("any, state"))
        machine.addRoutes(event: .event0, transitions: [.start => target], condition: refuse("event, state"))
        #expect(!machine.tryEvent(.event0))
        let tried = log.lines
        log.clear()
        #expect(!machine.hasRoute(event: .event0, transition: .start => target))
        #expect(tried == ["event, state", "any, state", "event, any", "any, any"])
        #expect(log.lines == tried)
    }

    @Test func aFlatDefinitionChoosesAsAMachineDoes() {
        let definition = Definition<Track, MyEvent, String>(initialState: .start) {
            From(.start) {
                On(Event<MyEvent>.any, transitionTo: .reached(.anyEventExactState))
            }
            From(.any) {
                On(.event0, transitionTo: .reached(.exactEventAnyState))
            }
        }
        #expect(definition.transition(from: .start, on: .event0)?.toState == .reached(.anyEventExactState))
    }

    @Test(arguments: bucketCombinations)
    fileprivate func mostSpecificRouteWinsWhateverTheRegistrationOrder(present: [Bucket]) {
        let log = Log()
        let machine = Machine<Track, MyEvent>(state: .start)
        // Least specific first, so that registration order cannot explain the winner.
        for bucket in present.reversed() {
            register(bucket, on: machine, allows: true, log: log)
        }
        #expect(machine.canTryEvent(.event0) == .reached(present[0]))
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .reached(present[0]))
    }

    @Test(arguments: Bucket.allCases)
    fileprivate func refusedRoutesPassTheChoiceToTheNextBucket(winner: Bucket) {
        let log = Log()
        let machine = Machine<Track, MyEvent>(state: .start)
        let winnerIndex = Bucket.allCases.firstIndex(of: winner)!
        for (index, bucket) in Bucket.allCases.enumerated().reversed() {
            register(bucket, on: machine, allows: index >= winnerIndex, log: log)
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .reached(winner))
        #expect(
            log.lines == Bucket.allCases[...winnerIndex].map { "\($0)" }, "asked in precedence order, up to the winner")
    }

    @Test func everyBucketIsAskedInPrecedenceOrderWhenAllRefuse() {
        let log = Log()
        let machine = Machine<Track, MyEvent>(state: .start)
        for bucket in Bucket.allCases.reversed() {
            register(bucket, on: machine, allows: false, log: log)
        }
        #expect(!machine.tryEvent(.event0))
        #expect(machine.state == .start)
        #expect(log.lines == Bucket.allCases.map { "\($0)" })
    }

    @Test func anyEventRoutesAreTheOnlyRoutesOfAnotherEvent() {
        let log = Log()
        let machine = Machine<Track, MyEvent>(state: .start)
        for bucket in Bucket.allCases.reversed() {
            register(bucket, on: machine, allows: false, log: log)
        }
        #expect(!machine.tryEvent(.event1))
        #expect(log.lines == ["anyEventExactState", "anyEventAnyState", "routeMapping"])
    }

    @Test(arguments: [false, true])
    func registrationOrderDecidesWithinABucket(secondFirst: Bool) {
        let first: Transition<MyState> = .state0 => .state1
        let second: Transition<MyState> = .state0 => .state2
        let machine = EventMachine(state: .state0) { machine in
            for transition in secondFirst ? [second, first] : [first, second] {
                machine.addRoutes(event: .event0, transitions: [transition])
            }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == (secondFirst ? .state2 : .state1))
    }

    @Test func registrationOrderDecidesWithinOneCall() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(
                event: .event0, transitions: [.state0 => .state3, .state0 => .state1, .state0 => .state2])
        }
        #expect(machine.canTryEvent(.event0) == .state3)
    }

    @Test func routeToAnyCompetesByRegistrationOrderInItsBucket() {
        let stayFirst = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .any])
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        }
        #expect(stayFirst.tryEvent(.event0))
        #expect(stayFirst.state == .state0)

        let moveFirst = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoutes(event: .event0, transitions: [.state0 => .any])
        }
        #expect(moveFirst.tryEvent(.event0))
        #expect(moveFirst.state == .state1)
    }

    @Test func refusedRouteGivesWayToTheNextInItsBucket() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in
                log("first")
                return false
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state2]) { _ in
                log("second")
                return true
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state3]) { _ in
                log("third")
                return true
            }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state2)
        #expect(log.lines == ["first", "second"])
    }

    @Test func routesBeatRouteMappingsRegisteredEarlier() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRouteMapping { _, _, _ in .state3 }
            machine.addRoutes(event: .any, transitions: [.any => .state1])
        }
        #expect(machine.tryEvent(.event2))
        #expect(machine.state == .state1)
    }

    @Test func routeMappingsAreAskedInRegistrationOrder() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRouteMapping { event, _, _ in
                log("first")
                return event == .event0 ? .state1 : nil
            }
            machine.addRouteMapping { _, _, _ in
                log("second")
                return .state2
            }
            machine.addRouteMapping { _, _, _ in
                log("third")
                return .state3
            }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
        #expect(log.lines == ["first"])

        log.clear()
        #expect(machine.tryEvent(.event1))
        #expect(machine.state == .state2)
        #expect(log.lines == ["first", "second"])
    }

    @Test func refusedRoutesFallBackToRouteMappings() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in false }
            machine.addRouteMapping { _, _, _ in .state3 }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state3)
    }

    // MARK: `<-!`

    @Test func fireOperatorTriesTheEventAndReturnsTheMachine() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        }
        let returned = machine <-! .event0
        #expect(returned === machine)
        #expect(machine.state == .state1)
    }

    @Test func fireOperatorPassesUserInfo() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { $0.userInfo as? String == "go" }
            machine.addHandler(event: .event0) { log("handler \(String(describing: $0.userInfo))") }
        }
        machine <-! (.event0, "stop")
        #expect(machine.state == .state0)
        let returned = machine <-! (.event0, "go")
        #expect(returned === machine)
        #expect(machine.state == .state1)
        #expect(log.lines == ["handler Optional(\"go\")"])
    }

    @Test func fireOperatorChains() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
            machine.addRoutes(event: .event2, transitions: [.state2 => .state3])
            machine.addHandler(event: .any) { log("\($0.fromState) => \($0.toState)") }
        }
        machine <-! .event0 <-! .event1 <-! (.event2, nil)
        #expect(machine.state == .state3)
        #expect(log.lines == ["state0 => state1", "state1 => state2", "state2 => state3"])
    }

    @Test func fireOperatorChainGoesOnPastAFailure() {
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        }
        machine <-! .event1 <-! .event0 <-! .event1
        #expect(machine.state == .state2)
    }

    // MARK: userInfo

    @Test func userInfoReachesConditionsAndHandlersUnchanged() {
        let token = Token()
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { context in
                log("condition \(context.userInfo as? Token === token)")
                return true
            }
            machine.addHandler(event: .event0) { log("handler \($0.userInfo as? Token === token)") }
        }
        #expect(machine.tryEvent(.event0, userInfo: token))
        #expect(log.lines == ["condition true", "handler true"])
    }

    @Test func userInfoReachesRouteMappingsAndErrorHandlersUnchanged() {
        let token = Token()
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRouteMapping { _, _, userInfo in
                log("mapping \(userInfo as? Token === token)")
                return nil
            }
            machine.addErrorHandler { log("error \($0.userInfo as? Token === token)") }
        }
        #expect(!machine.tryEvent(.event0, userInfo: token))
        #expect(log.lines == ["mapping true", "error true"])
    }

    @Test func userInfoIsNotStored() {
        let log = Log()
        let machine = EventMachine(state: .state0) { machine in
            machine.addRoutes(event: .any, transitions: [.any => .any]) { context in
                log("condition \(String(describing: context.userInfo))")
                return true
            }
            machine.addHandler(event: .any) { log("handler \(String(describing: $0.userInfo))") }
        }
        machine.tryEvent(.event0, userInfo: 1)
        machine.tryEvent(.event1)
        #expect(log.lines == ["condition Optional(1)", "handler Optional(1)", "condition nil", "handler nil"])
    }

    // MARK: Failure

    @Test func failedEventReportsTheCurrentStateAsTarget() throws {
        var seen: [EventMachine.Context] = []
        let machine = EventMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addErrorHandler { seen.append($0) }
        }
        #expect(!machine.tryEvent(.event0, userInfo: "why"))
        #expect(seen.count == 1)
        let context = try #require(seen.first)
        #expect(context.event == .event0)
        #expect(context.fromState == .state2)
        #expect(context.toState == .state2)
        #expect(context.userInfo as? String == "why")
        #expect(machine.state == .state2)
    }

    @Test func failedEventRunsNoEventHandlers() {
        let log = Log()
        let machine = EventMachine(state: .state2) { machine in
            machine.addRoutes(event: .event0, transitions: [.state2 => .state3]) { _ in false }
            machine.addHandler(event: .event0) { _ in log("event handler") }
            machine.addAnyHandler(.any => .any) { _ in log("any handler") }
            machine.addErrorHandler { _ in log("error") }
        }
        machine <-! .event0
        #expect(log.lines == ["error"])
    }

    /// The machine remembers the codes of the last few events it looked up;
    /// more events than it remembers, in turns, must each still take their
    /// own route.
    @Test func manyEventsInTurnEachTakeTheirOwnRoute() {
        enum Step: EventType, CaseIterable {
            case a, b, c, d, e, f
        }
        enum Ring: StateType, CaseIterable {
            case r0, r1, r2, r3, r4, r5
        }
        let rings = Ring.allCases
        let machine = Machine<Ring, Step>(state: .r0) { machine in
            for (index, step) in Step.allCases.enumerated() {
                machine.addRoutes(event: step, transitions: [rings[index] => rings[(index + 1) % rings.count]])
            }
        }
        for round in 0..<3 {
            for (index, step) in Step.allCases.enumerated() {
                #expect(machine.canTryEvent(Step.allCases[(index + 1) % 6]) == nil, "round \(round), \(step)")
                #expect(machine.tryEvent(step), "round \(round), \(step)")
                #expect(machine.state == rings[(index + 1) % rings.count])
            }
        }
    }
}
