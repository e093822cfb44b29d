import Switchyard
import Testing

// SwiftState code compiles unchanged but for its import line. Its README writes
// handlers that take the context apart, `{ event, fromState, toState, userInfo
// in … }`, and some apps name its types through the module (`SwiftState.
// EventType`). Every method that takes a condition or a handler accepts both
// forms, and the one-parameter forms stay unambiguous.

private typealias SourceMachine = Machine<MyState, MyEvent>

/// What a destructuring closure saw, as one line.
private func line(_ event: MyEvent?, _ from: MyState, _ to: MyState, _ userInfo: Any?) -> String {
    "\(event.map { "\($0)" } ?? "nil") \(from) => \(to) \(userInfo.map { "\($0)" } ?? "nil")"
}

@Suite struct SwiftStateSourceTests {
    // SwiftState's README, first example: only `print` became `log` (and the
    // optional in a string is spelled out, which -warnings-as-errors asks for).
    @Test func readmeExampleCompilesAndRunsAsDocumented() {
        let log = Log()
        let machine = StateMachine<MyState, NoEvent>(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addRoute(.any => .state2) { context in log("Any => 2, msg=\(String(describing: context.userInfo))")
            }
            machine.addRoute(.state2 => .any) { context in log("2 => Any, msg=\(String(describing: context.userInfo))")
            }

            // add handler (`context = (event, fromState, toState, userInfo)`)
            machine.addHandler(.state0 => .state1) { context in
                log("0 => 1")
            }

            // add errorHandler
            machine.addErrorHandler { event, fromState, toState, userInfo in
                log("[ERROR] \(fromState) => \(toState)")
            }
        }

        #expect(machine.state == MyState.state0)
        machine <- .state1
        #expect(machine.state == MyState.state1)
        machine <- (.state2, "Hello")
        #expect(machine.state == MyState.state2)
        machine <- (.state1, "Bye")
        #expect(machine.state == MyState.state1)
        machine <- .state0  // fail: no 1 => 0
        #expect(machine.state == MyState.state1)

        #expect(
            log.lines == [
                "0 => 1", "Any => 2, msg=Optional(\"Hello\")", "2 => Any, msg=Optional(\"Bye\")",
                "[ERROR] state1 => state0",
            ])
    }

    // MARK: Destructured handlers

    @Test func eventHandlersTakeTheContextApart() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { event, from, to, info in
            log("routes+handler \(line(event, from, to, info))")
        }
        machine.addRoutes(event: .event1, routes: [[.state1] => .state2]) { event, from, to, info in
            log("routes(routes:)+handler \(line(event, from, to, info))")
        }
        machine.addRoutes(event: .any, transitions: [.state2 => .state3], condition: { _ in true }) { e, f, t, u in
            log("any-event routes+handler \(line(e, f, t, u))")
        }
        machine.addRoutes(event: Event.any, routes: [[.state3] => .state0]) { e, f, t, u in
            log("any-event routes(routes:)+handler \(line(e, f, t, u))")
        }
        machine.addHandler(event: .event0) { e, f, t, u in log("handler \(line(e, f, t, u))") }
        machine.addHandler(event: .any, order: 200) { e, f, t, u in log("any handler \(line(e, f, t, u))") }
        machine.addErrorHandler(order: 1) { e, f, t, u in log("error \(line(e, f, t, u))") }

        machine <-! (.event0, 7) <-! .event1 <-! .event2 <-! .event2 <-! .event2

        // A handler given with routes belongs to their event: those of `.any` hear every event.
        #expect(
            log.lines == [
                "routes+handler event0 state0 => state1 7", "handler event0 state0 => state1 7",
                "any-event routes+handler event0 state0 => state1 7",
                "any-event routes(routes:)+handler event0 state0 => state1 7",
                "any handler event0 state0 => state1 7",
                "routes(routes:)+handler event1 state1 => state2 nil",
                "any-event routes+handler event1 state1 => state2 nil",
                "any-event routes(routes:)+handler event1 state1 => state2 nil",
                "any handler event1 state1 => state2 nil",
                "any-event routes+handler event2 state2 => state3 nil",
                "any-event routes(routes:)+handler event2 state2 => state3 nil",
                "any handler event2 state2 => state3 nil",
                "any-event routes+handler event2 state3 => state0 nil",
                "any-event routes(routes:)+handler event2 state3 => state0 nil",
                "any handler event2 state3 => state0 nil",
                "error event2 state0 => state0 nil",
            ])
    }

    @Test func stateHandlersTakeTheContextApart() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        machine.addRoute(.state0 => .state1) { e, f, t, u in log("route+handler \(line(e, f, t, u))") }
        machine.addRoute([.state1] => .state2) { e, f, t, u in log("route(route:)+handler \(line(e, f, t, u))") }
        machine.addHandler(.any => .state2) { e, f, t, u in log("handler \(line(e, f, t, u))") }
        machine.addAnyHandler(.state2 => .any) { e, f, t, u in log("any handler \(line(e, f, t, u))") }
        machine.addStateRouteMapping({ from, _ in from == .state2 ? [.state3] : nil }) { e, f, t, u in
            log("state mapping+handler \(line(e, f, t, u))")
        }

        machine <- .state1 <- (.state2, "x") <- .state3

        #expect(
            log.lines == [
                "route+handler nil state0 => state1 nil", "route(route:)+handler nil state1 => state2 x",
                "handler nil state1 => state2 x", "any handler nil state2 => state3 nil",
                "state mapping+handler nil state2 => state3 nil",
            ])
    }

    @Test func routeMappingHandlersTakeTheContextApart() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        machine.addRouteMapping({ event, from, _ in event == .event0 && from == .state0 ? .state3 : nil }) {
            e, f, t, u in log("mapping+handler \(line(e, f, t, u))")
        }
        machine <-! .event0
        #expect(log.lines == ["mapping+handler event0 state0 => state3 nil"])
    }

    @Test func chainHandlersTakeTheContextApart() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRouteChain(chain) { e, f, t, u in log("route chain \(line(e, f, t, u))") }
        machine.addRouteChain(RouteChain(transitionChain: TransitionChain(transition: .state2 => .state3))) {
            e, f, t, u in
            log("route chain of routes \(line(e, f, t, u))")
        }
        machine.addChainHandler(chain, order: 200) { e, f, t, u in log("chain handler \(line(e, f, t, u))") }
        machine.addChainHandler(RouteChain(transitionChain: chain), order: 201) { e, f, t, u in
            log("route chain handler \(line(e, f, t, u))")
        }
        machine.addChainErrorHandler(chain) { e, f, t, u in log("chain error \(line(e, f, t, u))") }
        machine.addChainErrorHandler(RouteChain(transitionChain: chain)) { e, f, t, u in
            log("route chain error \(line(e, f, t, u))")
        }
        machine.addRoute(.state3 => .state0)
        machine.addRoute(.state1 => .state3)

        // A whole walk, then one that breaks off at state1 => state3.
        machine <- .state1 <- .state2 <- .state3 <- .state0 <- .state1 <- .state3

        #expect(
            log.lines == [
                "route chain nil state1 => state2 nil", "chain handler nil state1 => state2 nil",
                "route chain handler nil state1 => state2 nil",
                "route chain of routes nil state2 => state3 nil",
                "chain error nil state1 => state3 nil", "route chain error nil state1 => state3 nil",
            ])
    }

    // MARK: Destructured conditions

    @Test func conditionsTakeTheContextApart() {
        let machine = SourceMachine(state: .state0)
        let allowsKey: SourceMachine.DestructuredCondition = { _, _, _, userInfo in userInfo as? String == "key" }
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1], condition: allowsKey)
        machine.addRoutes(
            event: .any, transitions: [.state1 => .state2], condition: { event, _, _, _ in event == .event1 })
        machine.addRoute(.state2 => .state3, condition: { _, from, to, _ in from == .state2 && to == .state3 })
        machine.addRoutes(event: .event2, routes: [Route(transition: .state3 => .state0, condition: allowsKey)])

        #expect(!machine.tryEvent(.event0))
        #expect(machine.tryEvent(.event0, userInfo: "key"))
        #expect(!machine.tryEvent(.event2))
        #expect(machine.tryEvent(.event1))
        #expect(machine.tryState(.state3))
        #expect(!machine.tryEvent(.event2))
        #expect(machine.tryEvent(.event2, userInfo: "key"))
    }

    @Test func conditionAndHandlerMayEachTakeTheContextApartOrWhole() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1], condition: { e, _, _, _ in e != nil }) {
            context in log("1: \(context.toState)")
        }
        machine.addRoutes(event: .event0, transitions: [.state1 => .state2], condition: { _, _, _, _ in true }) {
            _, _, to, _ in log("2: \(to)")
        }
        machine.addRoutes(event: Event.any, transitions: [.state2 => .state3], condition: { _, _, _, _ in true }) {
            context in log("3: \(context.toState)")
        }
        machine.addRoutes(event: Event.any, transitions: [.state3 => .state0], condition: { _, _, _, _ in true }) {
            _, _, to, _ in log("4: \(to)")
        }
        machine.addRoute(.state0 => .state2, condition: { _, _, _, _ in true }) { context in
            log("5: \(context.toState)")
        }
        machine.addRoute(.state2 => .state1, condition: { _, _, _, _ in true }) { _, _, to, _ in log("6: \(to)") }
        machine.addRouteChain(TransitionChain(transition: .state1 => .state3), condition: { _, _, _, _ in true }) {
            context in
            log("7: \(context.toState)")
        }
        machine.addRouteChain(TransitionChain(transition: .state3 => .state2), condition: { _, _, _, _ in true }) {
            _, _, to, _ in log("8: \(to)")
        }
        let chain = RouteChain<MyState, MyEvent>(
            transitionChain: TransitionChain(transition: .state2 => .state0), condition: { _, _, _, _ in true })
        machine.addRouteChain(chain) { context in log("9: \(context.toState)") }

        machine <-! .event0
        machine <-! .event0
        machine <-! .event2
        machine <-! .event2
        machine <- .state2 <- .state1 <- .state3 <- .state2 <- .state0

        // Handlers 1 and 2 belong to event0, 3 and 4 to every event.
        #expect(
            log.lines == [
                "1: state1", "2: state1", "3: state1", "4: state1", "1: state2", "2: state2", "3: state2", "4: state2",
                "3: state3", "4: state3", "3: state0", "4: state0", "5: state2", "6: state1", "7: state3", "8: state2",
                "9: state0",
            ])
    }

    // MARK: The one-parameter forms stay unambiguous

    @Test func closuresTakingTheContextWholeStillResolve() {
        let log = Log()
        let machine = SourceMachine(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { context in
            log("context \(context.toState)")
        }
        machine.addHandler(event: .event0) { _ in log("ignored") }
        machine.addHandler(event: .event0) { log("anonymous \($0.toState)") }
        machine.addErrorHandler { print($0) }
        machine.addRoute(.any => .state2) { context in log("route handler \(context.toState)") }
        machine.addRoute(.state2 => .state3) { context in context.userInfo != nil }
        machine.addRoute(.state3 => .state0, condition: { $0.userInfo == nil })

        machine <-! .event0 <- .state2 <- .state3 <- (.state3, 1) <- .state0

        #expect(machine.state == .state0)
        #expect(log.lines == ["context state1", "ignored", "anonymous state1", "route handler state2"])
    }

    // MARK: Module-qualified names

    @Test func typesNamedThroughSwiftStatesModuleNameAreSwitchyards() {
        let machine: SwiftState.StateMachine<QualifiedState, QualifiedEvent> = .init(state: .idle) { machine in
            machine.addRoutes(event: .start, transitions: [QualifiedState.idle => .running])
        }
        let plain: StateMachine<QualifiedState, QualifiedEvent> = machine
        let transition: SwiftState.Transition<QualifiedState> = .idle => .running
        let wrapped: SwiftState.State<QualifiedState> = .any
        let event: SwiftState.Event<QualifiedEvent> = .any
        let disposable: SwiftState.Disposable = SwiftState.ActionDisposable {}
        let order: SwiftState.HandlerOrder = 100
        let chain: SwiftState.TransitionChain<QualifiedState> = .idle => .running => .idle
        let route: SwiftState.Route<QualifiedState, QualifiedEvent> = [.idle] => .running
        let routeChain = SwiftState.RouteChain<QualifiedState, QualifiedEvent>(transitionChain: chain)
        let stateless = SwiftState.Machine<QualifiedState, SwiftState.NoEvent>(state: .idle)

        #expect(plain <-! .start === machine)
        #expect(machine.state == .running)
        #expect(transition == (QualifiedState.idle => .running))
        #expect(wrapped.rawValue == nil && event.rawValue == nil && !disposable.disposed && order == 100)
        #expect(route.transition == (.any => .running) && routeChain.routes.count == 2)
        #expect(stateless.state == .idle)
    }
}

/// Conforms through SwiftState's module name.
private enum QualifiedState: SwiftState.StateType {
    case idle, running
}

/// Conforms through SwiftState's module name.
private enum QualifiedEvent: SwiftState.EventType {
    case start
}
