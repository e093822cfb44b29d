import Switchyard
import Testing

// The route and handler tables give states and events small codes when they
// are first named, chain routes and handlers in shared node arrays, and reuse
// the nodes of removed ones. These tests pin what users must not notice of
// that: order, release of captures, and states no route named when the
// machine reached them.

/// An object whose lifetime a test watches through a weak reference.
private final class Token {}

@Suite struct EngineTests {
    @Test func initialStateNamedOnlyLaterStillRoutes() {
        let machine = Machine<MyState, MyEvent>(state: .state3)
        #expect(!machine.tryEvent(.event0))
        machine.addRoutes(event: .event0, transitions: [.state3 => .state1])
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
    }

    @Test func stateReachedByAMappingKeepsItsConcreteHandlersAndRoutes() {
        let log = Log()
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRouteMapping { event, state, _ in
                event == .event0 && state == .state0 ? .state2 : nil
            }
            machine.addAnyHandler(.state0 => .state2) { _ in log("any 0 => 2") }
            machine.addRoutes(event: .event1, transitions: [.state2 => .state3])
            machine.addHandler(.state2 => .state3) { _ in log("state 2 => 3") }
            machine.addAnyHandler(.state2 => .any) { context in log("any 2 => \(context.toState)") }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.tryEvent(.event1))
        #expect(machine.state == .state3)
        // The state-driven handler does not hear the event-driven move.
        #expect(log.lines == ["any 0 => 2", "any 2 => state3"])
    }

    @Test func stateNamedOnlyAfterTheMachineGotThereStillRoutes() {
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRouteMapping { event, state, _ in event == .event2 && state == .state0 ? .state2 : nil }
        }
        // No route names .state2 when the mapping leads there.
        #expect(machine.tryEvent(.event2))
        machine.addRoutes(event: .event1, transitions: [.state2 => .state3])
        #expect(machine.tryEvent(.event1))
        #expect(machine.state == .state3)
    }

    @Test func routeAddedAfterADisposalKeepsRegistrationOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let first = machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event0, transitions: [.state0 => .state2])
        first.dispose()
        // Reuses the disposed route's storage, but comes after the .state2 route.
        machine.addRoutes(event: .event0, transitions: [.state0 => .state3])
        #expect(machine.canTryEvent(.event0) == .state2)
    }

    @Test func handlerAddedAfterADisposalKeepsItsPlace() {
        let log = Log()
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.any => .any])
        }
        let disposables = (0..<4).map { index in
            machine.addHandler(event: .event0) { _ in log("h\(index)") }
        }
        disposables[1].dispose()
        disposables[2].dispose()
        machine.addHandler(event: .event0) { _ in log("late") }
        machine.addHandler(event: .event0, order: 50) { _ in log("early") }
        machine.addHandler(event: .event0, order: 100) { _ in log("last") }
        #expect(machine.tryEvent(.event0))
        #expect(log.lines == ["early", "h0", "h3", "late", "last"])
    }

    @Test func disposingReleasesWhatTheClosuresCaptured() {
        weak var handlerToken: Token?
        weak var conditionToken: Token?
        weak var mappingToken: Token?
        let machine = Machine<MyState, MyEvent>(state: .state0)
        var disposables: [Disposable] = []
        do {
            let forHandler = Token()
            let forCondition = Token()
            let forMapping = Token()
            handlerToken = forHandler
            conditionToken = forCondition
            mappingToken = forMapping
            disposables.append(machine.addHandler(event: .event0) { _ in _ = forHandler })
            disposables.append(
                machine.addRoutes(
                    event: .event0, transitions: [.state0 => .state1],
                    condition: { _ in
                        _ = forCondition
                        return true
                    }))
            disposables.append(
                machine.addRouteMapping { _, _, _ in
                    _ = forMapping
                    return nil
                })
        }
        #expect(handlerToken != nil && conditionToken != nil && mappingToken != nil)
        for disposable in disposables {
            disposable.dispose()
        }
        #expect(handlerToken == nil)
        #expect(conditionToken == nil)
        #expect(mappingToken == nil)
        #expect(!machine.tryEvent(.event0))
    }

    @Test func disposingABatchRemovesEveryRouteOfItFromBothKindsOfRequest() {
        let count = 1_000
        let machine = Machine<Spot, Tick>(state: Spot(0))
        let ring = (0..<count).map { Spot($0) => Spot(($0 + 1) % count) }
        let batch = machine.addRoutes(event: Tick(0), transitions: ring)
        machine.addRoutes(event: Tick(1), transitions: [Spot(0) => Spot(2)])
        #expect(machine.hasRoute(fromState: Spot(5), toState: Spot(6)))
        batch.dispose()
        for index in 0..<count {
            #expect(!machine.hasRoute(event: Tick(0), fromState: Spot(index), toState: Spot((index + 1) % count)))
            #expect(!machine.hasRoute(fromState: Spot(index), toState: Spot((index + 1) % count)))
        }
        // Routes of the same states outside the batch stay.
        #expect(machine.hasRoute(fromState: Spot(0), toState: Spot(2)))
        #expect(machine.tryEvent(Tick(1)))
    }

    @Test func manyStatesAndEventsKeepTheirOwnRoutes() {
        // Enough keys to grow the indexes several times over.
        let count = 5_000
        let machine = Machine<Spot, Tick>(state: Spot(0)) { machine in
            for index in 0..<count {
                machine.addRoutes(event: Tick(index % 7), transitions: [Spot(index) => Spot(index + 1)])
                machine.addRoute(Spot(index) => Spot(index + 2))
            }
        }
        for index in 0..<count {
            #expect(machine.canTryEvent(Tick(index % 7)) == Spot(index + 1))
            #expect(machine.canTryEvent(Tick((index + 1) % 7)) == nil)
            #expect(machine.tryEvent(Tick(index % 7)))
        }
        #expect(machine.state == Spot(count))
        #expect(!machine.tryState(Spot(count + 2)))
        #expect(machine.hasRoute(fromState: Spot(count - 2), toState: Spot(count)))
    }

    // MARK: Event routes by transition, indexed on first use

    @Test func stateRequestsSeeEventRoutesAddedBeforeAndAfterTheFirstOne() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        #expect(machine.tryState(.state1))
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        #expect(machine.canTryState(.state2))
        #expect(machine.tryState(.state2))
    }

    @Test func eventRoutesDisposedBeforeOrAfterTheIndexIsBuiltAreGoneFromStateRequests() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let early = machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let late = machine.addRoutes(event: .event1, transitions: [.state0 => .state2])
        early.dispose()
        #expect(!machine.hasRoute(fromState: .state0, toState: .state1))
        #expect(machine.hasRoute(fromState: .state0, toState: .state2))
        late.dispose()
        #expect(!machine.tryState(.state2))
        let again = machine.addRoutes(event: .event1, transitions: [.state0 => .state3])
        #expect(machine.hasRoute(fromState: .state0, toState: .state3))
        again.dispose()
        #expect(!machine.tryState(.state3))
        #expect(machine.state == .state0)
    }

    @Test func stateRequestsAskEventRouteConditionsInRegistrationOrderAfterNodesAreReused() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        func refusing(_ name: String) -> Machine<MyState, MyEvent>.Condition {
            { _ in
                log(name)
                return false
            }
        }
        let first = machine.addRoutes(event: .event0, transitions: [.state0 => .state1], condition: refusing("x"))
        machine.addRoutes(event: .event1, transitions: [.state0 => .state1], condition: refusing("a"))
        first.dispose()
        // Reuses the node `first` left; registered after "a", so asked after it.
        machine.addRoutes(event: .event2, transitions: [.state0 => .state1], condition: refusing("b"))

        #expect(!machine.tryState(.state1))
        #expect(log.lines == ["a", "b"])
    }

    @Test func aConditionMayBuildTheIndexInsideADecision() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event1, transitions: [.state0 => .state2])
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { [unowned machine] _ in
            machine.hasRoute(fromState: .state0, toState: .state2)
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state1)
    }
}

/// A state among thousands.
private struct Spot: StateType {
    var index: Int
    init(_ index: Int) { self.index = index }
}

/// An event among a few.
private struct Tick: EventType {
    var index: Int
    init(_ index: Int) { self.index = index }
}
