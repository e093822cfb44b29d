import Switchyard
import Testing

// Route chains: `.a => .b => .c` added at once, and handlers told when the
// machine has walked a whole chain in a row by asking for states, or broke
// off a walk it had started.

@Suite struct RouteChainTests {
    // MARK: addRouteChain

    @Test func transitionChainAddsARouteForEachStep() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRouteChain(.state0 => .state1 => .state2) { _ in }

        #expect(machine.hasRoute(.state0 => .state1))
        #expect(machine.hasRoute(.state1 => .state2))
        #expect(!machine.hasRoute(.state0 => .state2))
        #expect(!machine.hasRoute(.state2 => .state0))
    }

    @Test func completedTransitionChainRunsTheHandlerOnce() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addHandler(.any => .any) { log("moved \(describe($0))") }
        machine.addRouteChain(.state0 => .state1 => .state2) { [unowned machine] context in
            log("chain \(describe(context)) now \(machine.state)")
        }

        machine <- .state1
        #expect(log.lines == ["moved nil state0 => state1"])
        machine <- .state2

        #expect(
            log.lines == [
                "moved nil state0 => state1", "moved nil state1 => state2", "chain nil state1 => state2 now state2",
            ])
    }

    @Test func transitionChainConditionGuardsEveryStep() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRouteChain(.state0 => .state1 => .state2, condition: { $0.userInfo as? String == "go" }) {
            log("chain \(describe($0))")
        }

        #expect(!machine.tryState(.state1))
        #expect(machine.tryState(.state1, userInfo: "go"))
        #expect(!machine.tryState(.state2, userInfo: "stop"))
        #expect(machine.state == .state1)
        #expect(log.lines.isEmpty)
        #expect(machine.tryState(.state2, userInfo: "go"))

        #expect(log.lines == ["chain nil state1 => state2"])
    }

    @Test func routeChainUsesEachRoutesOwnCondition() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = RouteChain<MyState, MyEvent>(routes: [
            Route(transition: .state0 => .state1, condition: nil),
            Route(transition: .state1 => .state2, condition: { $0.userInfo as? Int == 2 }),
        ])
        machine.addRouteChain(chain) { log("chain \(describe($0)) \($0.userInfo ?? "nil")") }

        #expect(machine.tryState(.state1))
        #expect(!machine.tryState(.state2))
        #expect(!machine.tryState(.state2, userInfo: 1))
        #expect(machine.tryState(.state2, userInfo: 2))

        #expect(log.lines == ["chain nil state1 => state2 2"])
    }

    @Test func chainCanBeWalkedAgainLater() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRouteChain(.state0 => .state1 => .state2) { log("chain \(describe($0))") }
        machine.addRoute(.state2 => .state0)

        machine <- .state1 <- .state2 <- .state0
        #expect(log.lines == ["chain nil state1 => state2"])
        machine <- .state1 <- .state2

        #expect(log.lines == ["chain nil state1 => state2", "chain nil state1 => state2"])
    }

    @Test func chainThatEndsWhereItStartsCompletesOnEachLap() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addRouteChain(.state0 => .state1 => .state0) { log("chain \(describe($0))") }

        machine <- .state1 <- .state0 <- .state1 <- .state0

        #expect(log.lines == ["chain nil state1 => state0", "chain nil state1 => state0"])
    }

    // MARK: Broken chains

    @Test func brokenChainRunsTheErrorHandlerNotTheHandler() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRouteChain(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { [unowned machine] context in
            log("broken \(describe(context)) now \(machine.state)")
        }
        machine.addRoute(.state1 => .state3)

        machine <- .state1 <- .state3

        #expect(machine.state == .state3)
        #expect(log.lines == ["broken nil state1 => state3 now state3"])
    }

    @Test func brokenRouteChainRunsTheErrorHandlerNotTheHandler() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = RouteChain<MyState, MyEvent>(transitionChain: .state0 => .state1 => .state2 => .state3)
        machine.addRouteChain(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { log("broken \(describe($0))") }
        machine.addRoute(.state2 => .state0)

        machine <- .state1 <- .state2 <- .state0

        #expect(log.lines == ["broken nil state2 => state0"])
    }

    // The sequence and the calls are those SwiftState 6.0.1 makes: once broken,
    // every state-driven move reports the break again, until the chain's first
    // step is taken again.
    @Test func brokenChainIsReportedAtEveryMoveUntilItsFirstStepIsTakenAgain() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRoute(.any => .any)
        machine.addChainHandler(chain) { log("completed \($0.fromState) => \($0.toState)") }
        machine.addChainErrorHandler(chain) { log("broken \($0.fromState) => \($0.toState)") }

        for state in [
            MyState.state1, .state0, .state2, .state3, .state1, .state0, .state1, .state2, .state3, .state0, .state2,
        ] {
            machine <- state
        }

        #expect(
            log.lines == [
                "broken state1 => state0", "broken state0 => state2", "broken state2 => state3",
                "broken state3 => state1", "broken state1 => state0", "completed state1 => state2",
            ])
    }

    @Test func eventDrivenMovesNeitherBreakNorRepairAChain() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRoute(.any => .any)
        machine.addRoutes(event: .event0, transitions: [.any => .state0])
        machine.addChainErrorHandler(chain) { log("broken \($0.fromState) => \($0.toState)") }

        machine <- .state1 <- .state3
        machine <-! .event0
        machine <- .state2

        #expect(log.lines == ["broken state1 => state3", "broken state0 => state2"])
    }

    @Test func movesThatNeverStartTheChainDoNotBreakIt() {
        let machine = Machine<MyState, MyEvent>(state: .state3)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addChainHandler(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { log("broken \(describe($0))") }
        machine.addRoute(.any => .any)

        machine <- .state2 <- .state3 <- .state1 <- .state0

        #expect(log.lines.isEmpty)
    }

    @Test func chainCanBeWalkedAfterABreak() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRouteChain(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { log("broken \(describe($0))") }
        machine.addRoute(.state1 => .state0)

        machine <- .state1 <- .state0 <- .state1 <- .state2

        #expect(log.lines == ["broken nil state1 => state0", "completed nil state1 => state2"])
    }

    @Test func refusedRequestDoesNotBreakAStartedWalk() {
        // As in SwiftState: a refused request runs the error handlers only.
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addRouteChain(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { log("broken \(describe($0))") }

        #expect(machine.tryState(.state1))
        #expect(!machine.tryState(.state3))
        #expect(machine.tryState(.state2))

        #expect(log.lines == ["completed nil state1 => state2"])
    }

    // MARK: Chain handlers

    @Test func chainHandlerForATransitionChainRunsOnceForTheWholeWalk() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.any => .any)
        let log = Log()
        machine.addChainHandler(.state0 => .state1 => .state2 => .state3) { log("completed \(describe($0))") }

        machine <- .state1 <- .state2
        #expect(log.lines.isEmpty)
        machine <- .state3

        #expect(log.lines == ["completed nil state2 => state3"])
    }

    @Test func chainHandlerForARouteChainUsesItsConditions() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.any => .any)
        let log = Log()
        let chain = RouteChain<MyState, MyEvent>(routes: [
            Route(transition: .state0 => .state1, condition: { $0.userInfo as? String == "on chain" }),
            Route(transition: .state1 => .state2, condition: nil),
        ])
        machine.addChainHandler(chain) { log("completed \(describe($0))") }
        machine.addChainErrorHandler(chain) { log("broken \(describe($0))") }

        machine <- .state1 <- .state2  // the first step's condition refuses: the walk never starts
        #expect(log.lines.isEmpty)
        machine <- .state0 <- (.state1, "on chain") <- .state2

        #expect(log.lines == ["completed nil state1 => state2"])
    }

    @Test func chainHandlerHearsOnlyStateDrivenTransitions() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        machine.addChainHandler(.state0 => .state1 => .state2) { log("completed \(describe($0))") }

        machine <-! .event0 <-! .event1

        #expect(machine.state == .state2)
        #expect(log.lines.isEmpty)
    }

    @Test func chainHandlersOfBothChainTypesRunForTheSameWalk() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.any => .any)
        let log = Log()
        let chain = TransitionChain(transition: MyState.state0 => MyState.state1)
        machine.addChainHandler(chain) { _ in log("transition chain") }
        machine.addChainHandler(RouteChain<MyState, MyEvent>(transitionChain: chain)) { _ in log("route chain") }

        machine <- .state1

        #expect(log.lines == ["transition chain", "route chain"])
    }

    @Test func chainHandlerHonoursOrderAmongTheLastStepsHandlers() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.any => .any)
        let log = Log()
        machine.addHandler(.state1 => .state2, order: 200) { _ in log("transition handler 200") }
        machine.addAnyHandler(.state1 => .state2) { _ in log("any handler 100") }
        machine.addHandler(.state1 => .state2, order: 10) { _ in log("transition handler 10") }
        machine.addChainHandler(.state0 => .state1 => .state2, order: 150) { _ in log("chain handler 150") }
        machine.addChainHandler(RouteChain(transitionChain: .state0 => .state1 => .state2), order: 0) { _ in
            log("route chain handler 0")
        }

        machine <- .state1 <- .state2

        #expect(
            log.lines == [
                "route chain handler 0", "transition handler 10", "any handler 100", "chain handler 150",
                "transition handler 200",
            ])
    }

    @Test func chainErrorHandlerHonoursOrderAmongTheBreakingMovesHandlers() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoute(.any => .any)
        let log = Log()
        let chain = MyState.state0 => MyState.state1 => MyState.state2
        machine.addHandler(.state1 => .state3, order: 255) { _ in log("transition handler 255") }
        machine.addHandler(.state1 => .state3, order: 50) { _ in log("transition handler 50") }
        machine.addChainErrorHandler(chain, order: 60) { _ in log("chain error handler 60") }
        machine.addChainErrorHandler(RouteChain(transitionChain: chain), order: 1) { _ in
            log("route chain error handler 1")
        }

        machine <- .state1 <- .state3

        #expect(
            log.lines == [
                "route chain error handler 1", "transition handler 50", "chain error handler 60",
                "transition handler 255",
            ])
    }

    @Test func chainHandlerGivenWithAddRouteChainRunsAtTheDefaultOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        machine.addHandler(.state1 => .state2, order: 101) { _ in log("101") }
        machine.addRouteChain(.state0 => .state1 => .state2) { _ in log("chain") }
        machine.addHandler(.state1 => .state2, order: 99) { _ in log("99") }

        machine <- .state1 <- .state2

        #expect(log.lines == ["99", "chain", "101"])
    }
}

// MARK: - Fixtures

private func describe(_ context: Machine<MyState, MyEvent>.Context) -> String {
    "\(context.event.map { "\($0)" } ?? "nil") \(context.fromState) => \(context.toState)"
}
