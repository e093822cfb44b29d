import Switchyard
import Testing

// Re-entrancy: a transition requested from inside a handler. `.immediate`
// (SwiftState's order, the default) runs it completely before the call
// returns; `.runToCompletion` decides it at once but runs its handlers after
// every handler of the transition in progress.

@Suite struct DeliveryPolicyTests {
    @Test func immediateIsTheDefault() {
        #expect(Machine<MyState, MyEvent>(state: .state0).delivery == .immediate)
        #expect(Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion).delivery == .runToCompletion)
    }

    // MARK: .immediate

    @Test(arguments: NestedRequest.allCases)
    fileprivate func immediateRunsANestedRequestCompletelyBeforeTheCallReturns(request: NestedRequest) {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        addNestingHandlers(to: machine, log: log) { request.send(to: $0) }

        #expect(machine.tryEvent(.event0))

        #expect(machine.state == .state2)
        #expect(
            log.lines == [
                "first begin: event0 state0 => state1 now state1",
                "nested: \(request.described) now state2",
                "first end: returned true now state2",
                "second: event0 state0 => state1 now state2",
            ])
    }

    @Test func immediateRunsNestedErrorHandlersBeforeTheCallReturns() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        let log = Log()
        addNestingHandlers(to: machine, log: log) { machine in
            let refusedEvent = machine.tryEvent(.event2)
            let refusedState = machine.tryState(.state3)
            return refusedEvent || refusedState
        }

        machine <-! .event0

        #expect(machine.state == .state1)
        #expect(
            log.lines == [
                "first begin: event0 state0 => state1 now state1",
                "error: event2 state1 => state1 now state1",
                "error: nil state1 => state3 now state1",
                "first end: returned false now state1",
                "second: event0 state0 => state1 now state1",
            ])
    }

    // MARK: .runToCompletion

    // Each of these holds for a flat machine and for the same machine made a
    // statechart by an entry handler of a state it never enters: a handler's
    // request gets one answer on every kind of machine (SPEC §2).

    @Test(arguments: NestedRequest.allCases, [false, true])
    fileprivate func runToCompletionQueuesANestedRequestAndDecidesItAfterTheHandlers(
        request: NestedRequest, statechart: Bool
    ) {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        let log = Log()
        addNestingHandlers(to: machine, log: log) { request.send(to: $0) }
        if statechart {
            machine.addEntryHandler(.state3) { _ in }
        }

        #expect(machine.tryEvent(.event0))

        #expect(machine.state == .state2)
        #expect(
            log.lines == [
                "first begin: event0 state0 => state1 now state1",
                "first end: returned false now state1",
                "second: event0 state0 => state1 now state1",
                "nested: \(request.described) now state2",
            ])
    }

    @Test(arguments: [false, true])
    func runToCompletionAnswersAQueuedRequestAsQueued(statechart: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        if statechart {
            machine.addEntryHandler(.state3) { _ in }
        }
        var answer: Result<MyState, TransitionError>?
        machine.addHandler(event: .event0) { [unowned machine] _ in
            answer = machine.attemptEvent(.event1)
        }

        machine <-! .event0

        guard case .failure(let error) = answer else {
            Issue.record("expected the request to be queued, got \(String(describing: answer))")
            return
        }
        #expect(error.reason == .queued)
        #expect(machine.state == .state2)
    }

    @Test(arguments: [false, true])
    func runToCompletionDecidesEachQueuedRequestAgainstTheStateLeftByThePreviousOne(statechart: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        if statechart {
            machine.addEntryHandler(.state3) { _ in }  // does nothing: the machine is a statechart
        }
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        machine.addRoutes(event: .event2, transitions: [.state2 => .state3])
        let log = Log()
        machine.addHandler(event: .event0) { [unowned machine] _ in
            let first = machine.tryEvent(.event1)
            let second = machine.tryEvent(.event2)
            let third = machine.tryEvent(.event1)
            log("results \(first) \(second) \(third) now \(machine.state)")
        }
        machine.addAnyHandler(.any => .any) { [unowned machine] in log("observer: \(describe($0)) now \(machine.state)")
        }
        machine.addErrorHandler { log("error: \(describe($0))") }

        machine <-! .event0

        #expect(
            log.lines == [
                "results false false false now state1",
                "observer: event0 state0 => state1 now state1",
                "observer: event1 state1 => state2 now state2",
                "observer: event2 state2 => state3 now state3",
                "error: event1 state3 => state3",
            ])
    }

    @Test func runToCompletionDefersNestedErrorHandlersInOrder() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        let log = Log()
        addNestingHandlers(to: machine, log: log) { machine in
            let refusedEvent = machine.tryEvent(.event2)
            let refusedState = machine.tryState(.state3)
            return refusedEvent || refusedState
        }
        machine.addErrorHandler(order: 200) { log("late error: \(describe($0))") }

        machine <-! .event0

        #expect(machine.state == .state1)
        #expect(
            log.lines == [
                "first begin: event0 state0 => state1 now state1",
                "first end: returned false now state1",
                "second: event0 state0 => state1 now state1",
                "error: event2 state1 => state1 now state1",
                "late error: event2 state1 => state1",
                "error: nil state1 => state3 now state1",
                "late error: nil state1 => state3",
            ])
    }

    @Test(arguments: [
        (
            DeliveryPolicy.immediate,
            ["state2 => state3", "state1 => state2", "state0 => state1"]
        ),
        (
            DeliveryPolicy.runToCompletion,
            ["state0 => state1", "state1 => state2", "state2 => state3"]
        ),
    ])
    func lastHandlerSeesTransitionsInTheOrderThePolicyDelivers(delivery: DeliveryPolicy, expected: [String]) {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2, .state2 => .state3])
        machine.addHandler(event: .event0, order: 0) { [unowned machine] context in
            if context.toState != .state3 {
                machine <-! .event0
            }
        }
        let log = Log()
        machine.addHandler(event: .event0, order: 255) { log("\($0.fromState) => \($0.toState)") }

        machine <-! .event0

        #expect(machine.state == .state3)
        #expect(log.lines == expected)
    }

    @Test func runToCompletionRunsNestedRequestsOfNestedHandlersInTheOrderTheyHappened() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoute(.any => .any)
        let log = Log()
        // Two requests from the first transition's handler, and one from each of theirs.
        machine.addHandler(.state0 => .state1) { [unowned machine] _ in
            machine <- .state2 <- .state3
            log("handler of 0 => 1 done")
        }
        machine.addHandler(.state1 => .state2) { [unowned machine] _ in
            machine <- .state0
            log("handler of 1 => 2 done")
        }
        machine.addHandler(.state2 => .state3) { [unowned machine] _ in
            machine <- .state2
            log("handler of 2 => 3 done")
        }
        machine.addHandler(.any => .any, order: 255) { log("observer: \(describe($0))") }

        machine <- .state1

        #expect(machine.state == .state2)
        #expect(
            log.lines == [
                "handler of 0 => 1 done",
                "observer: nil state0 => state1",
                "handler of 1 => 2 done",
                "observer: nil state1 => state2",
                "handler of 2 => 3 done",
                "observer: nil state2 => state3",
                "observer: nil state3 => state0",
                "observer: nil state0 => state2",
            ])
    }

    @Test func runToCompletionTakes100000HandlerDrivenEventsWithoutDeepeningTheStack() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state0])
        var steps = 0
        machine.addHandler(event: .event0) { [unowned machine] _ in
            steps += 1
            if steps < 100_000 {
                machine <-! .event0
            }
        }

        #expect(machine.tryEvent(.event0))

        #expect(steps == 100_000)
        #expect(machine.state == .state0)
    }

    @Test func runToCompletionTakes100000HandlerDrivenStateRequestsWithoutDeepeningTheStack() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoute(.state0 => .state1)
        machine.addRoute(.state1 => .state2)
        machine.addRoute(.state2 => .state0)
        var steps = 0
        machine.addHandler(.any => .any) { [unowned machine] context in
            steps += 1
            if steps < 100_000 {
                let next: MyState =
                    switch context.toState {
                    case .state0: .state1
                    case .state1: .state2
                    default: .state0
                    }
                machine <- next
            }
        }

        #expect(machine.tryState(.state1))

        // 100,000 = 3 × 33,333 + 1: one step past a whole number of laps.
        #expect(steps == 100_000)
        #expect(machine.state == .state1)
    }

    @Test(arguments: [
        (
            DeliveryPolicy.immediate,
            [
                "error begin: event2 state0 => state0", "observer: event1 state0 => state3",
                "error end: now state3", "late error: event2 state0 => state0",
            ]
        ),
        (
            DeliveryPolicy.runToCompletion,
            [
                "error begin: event2 state0 => state0", "error end: now state0",
                "late error: event2 state0 => state0", "observer: event1 state0 => state3",
            ]
        ),
    ])
    func errorHandlerThatDrivesTheMachineFollowsThePolicy(delivery: DeliveryPolicy, expected: [String]) {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
        machine.addRoutes(event: .event1, transitions: [.any => .state3])
        let log = Log()
        machine.addErrorHandler(order: 1) { [unowned machine] context in
            log("error begin: \(describe(context))")
            machine <-! .event1
            log("error end: now \(machine.state)")
        }
        machine.addErrorHandler(order: 200) { log("late error: \(describe($0))") }
        machine.addAnyHandler(.any => .any) { log("observer: \(describe($0))") }

        #expect(!machine.tryEvent(.event2))

        #expect(machine.state == .state3)
        #expect(log.lines == expected)
    }

    // MARK: Deep nesting under .immediate

    /// A machine that goes round state0 => state1 => state0 on event0 (or by
    /// asking for the other state), whose handler requests the next step
    /// until `steps` handler calls have been made.
    private static func runHandlerDrivenChain(steps total: Int, byState: Bool) -> (steps: Int, refusals: Int) {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state0])
        var steps = 0
        var refusals = 0
        let step: Machine<MyState, MyEvent>.Handler = { [unowned machine] context in
            steps += 1
            guard steps < total else { return }
            let moved =
                byState ? machine.tryState(context.toState == .state0 ? .state1 : .state0) : machine.tryEvent(.event0)
            if !moved { refusals += 1 }
        }
        if byState {
            machine.addHandler(.any => .any, handler: step)
        } else {
            machine.addHandler(event: .event0, handler: step)
        }
        if byState { machine.tryState(.state1) } else { machine.tryEvent(.event0) }
        return (steps, refusals)
    }

    @Test(arguments: [false, true])
    func immediateTakes100000HandlerDrivenStepsOnA512KiBStack(byState: Bool) {
        let outcome = Shared((steps: 0, refusals: -1))
        onThread(stackSize: 512 * 1024) {
            outcome.value = Self.runHandlerDrivenChain(steps: 100_000, byState: byState)
        }
        #expect(outcome.value.steps == 100_000)
        #expect(outcome.value.refusals == 0)
    }

    @Test func immediateNestsUpToTheLimitInSwiftStatesOrderThenDefers() {
        let limit = DeliveryPolicy.immediateNestingLimit
        let machine = Machine<Step, MyEvent>(state: Step(0))
        machine.addRoutes(event: .event0, transitions: (0...limit + 2).map { Step($0) => Step($0 + 1) })
        let log = Log()
        machine.addHandler(event: .event0, order: 1) { [unowned machine] context in
            log("begin \(context.toState)")
            if context.toState.number <= limit + 2 {
                let moved = machine.tryEvent(.event0)
                log("end \(context.toState): returned \(moved) now \(machine.state)")
            }
        }
        machine.addHandler(event: .event0, order: 2) { log("after \($0.toState)") }

        machine <-! .event0

        #expect(machine.state == Step(limit + 3))
        // Deliveries 1 to `limit` nest, each inside the handler that asked for it.
        var expected = (1...limit).map { "begin \($0)" }
        // The request made at depth `limit` is decided at once, and its
        // handlers run after the delivery in progress; so do the ones they make.
        expected += ["end \(limit): returned true now \(limit + 1)", "after \(limit)"]
        expected += [
            "begin \(limit + 1)", "end \(limit + 1): returned true now \(limit + 2)", "after \(limit + 1)",
            "begin \(limit + 2)", "end \(limit + 2): returned true now \(limit + 3)", "after \(limit + 2)",
            "begin \(limit + 3)", "after \(limit + 3)",
        ]
        expected += (1..<limit).reversed().flatMap { ["end \($0): returned true now \(limit + 3)", "after \($0)"] }
        #expect(log.lines == expected)
    }

    // Three machines of an app driving each other four levels deep: a screen,
    // a network session and a player. The order is SwiftState's, exactly.
    @Test func immediateKeepsTheOrderOfRealisticNestingAcrossMachines() {
        let log = Log()
        let screen = Machine<MyState, MyEvent>(state: .state0)
        let session = Machine<MyState, MyEvent>(state: .state0)
        let player = Machine<MyState, MyEvent>(state: .state0)
        for machine in [screen, session, player] {
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        }
        screen.addHandler(event: .event0) { [unowned session] _ in
            log("screen appeared: connect")
            session <-! .event0
            log("screen appeared: done")
        }
        session.addHandler(event: .event0) { [unowned player] _ in
            log("session connected: load")
            player <-! .event0
            log("session connected: done")
        }
        player.addHandler(event: .event0) { [unowned screen] _ in
            log("player loaded: tell the screen")
            screen <-! .event1
            log("player loaded: done")
        }
        screen.addHandler(event: .event1) { [unowned session] _ in
            log("screen ready: start streaming")
            session <-! .event1
            log("screen ready: done")
        }
        session.addHandler(event: .event1) { _ in log("session streaming") }
        for (name, machine) in [("screen", screen), ("session", session), ("player", player)] {
            machine.addHandler(event: .any, order: 200) { log("\(name) observed \($0.fromState) => \($0.toState)") }
        }

        screen <-! .event0

        #expect(
            log.lines == [
                "screen appeared: connect",
                "session connected: load",
                "player loaded: tell the screen",
                "screen ready: start streaming",
                "session streaming",
                "session observed state1 => state2",
                "screen ready: done",
                "screen observed state1 => state2",
                "player loaded: done",
                "player observed state0 => state1",
                "session connected: done",
                "session observed state0 => state1",
                "screen appeared: done",
                "screen observed state0 => state1",
            ])
    }

    // MARK: Across machines

    // Under run-to-completion only the parent's nested transition waits: the
    // child is idle when the parent's handler drives it, so its handlers run at once.
    @Test(arguments: [
        (
            DeliveryPolicy.immediate,
            [
                "parent first begin: event0 state0 => state1",
                "child begin: event0 state0 => state1",
                "parent nested: event1 state1 => state2",
                "child end: parent returned true now state2",
                "parent first end: child returned true now state1",
                "parent second: event0 state0 => state1",
            ]
        ),
        (
            DeliveryPolicy.runToCompletion,
            [
                "parent first begin: event0 state0 => state1",
                "child begin: event0 state0 => state1",
                "child end: parent returned false now state1",
                "parent first end: child returned true now state1",
                "parent second: event0 state0 => state1",
                "parent nested: event1 state1 => state2",
            ]
        ),
    ])
    func parentAndChildDrivingEachOtherFollowThePolicy(delivery: DeliveryPolicy, expected: [String]) {
        let (parent, child, log) = makeParentAndChild(delivery: delivery)

        parent <-! .event0

        #expect(parent.state == .state2)
        #expect(child.state == .state1)
        #expect(log.lines == expected)
    }

    /// Machines in a row, each of whose handlers sends `.event0` to the next
    /// (an entry handler, for statecharts); returns how many handlers ran and
    /// how many machines ended in `state1`.
    private static func runChainThroughMachines(
        count: Int, delivery: DeliveryPolicy, statecharts: Bool
    ) -> (handlers: Int, moved: Int) {
        let machines = (0..<count).map { _ in
            Machine<MyState, MyEvent>(state: .state0, delivery: delivery) {
                $0.addRoutes(event: .event0, transitions: [.state0 => .state1])
            }
        }
        var handlers = 0
        for (index, machine) in machines.enumerated() {
            let next = index + 1 < count ? machines[index + 1] : nil
            let handler: Machine<MyState, MyEvent>.Handler = { [unowned next] _ in
                handlers += 1
                next?.tryEvent(.event0)
            }
            if statecharts {
                machine.addEntryHandler(.state1, handler: handler)
            } else {
                machine.addHandler(event: .event0, handler: handler)
            }
        }
        // The handlers reach the machines unowned: keep them alive throughout.
        defer { withExtendedLifetime(machines) {} }
        machines[0] <-! .event0
        return (handlers, machines.count { $0.state == .state1 })
    }

    @Test(arguments: [
        (DeliveryPolicy.immediate, false), (.immediate, true), (.runToCompletion, false), (.runToCompletion, true),
    ])
    func aChainOfRequestsThrough20000MachinesRunsOnA512KiBStack(delivery: DeliveryPolicy, statecharts: Bool) {
        let outcome = Shared((handlers: 0, moved: 0))
        onThread(stackSize: 512 * 1024) {
            outcome.value = Self.runChainThroughMachines(count: 20_000, delivery: delivery, statecharts: statecharts)
        }
        #expect(outcome.value.handlers == 20_000)
        #expect(outcome.value.moved == 20_000)
    }

    // Past the limit, each delivery waits for the frame below the limit, in
    // the order the requests were made; below it, SwiftState's order.
    @Test func aChainThroughMachinesNestsUpToTheLimitThenWaits() {
        let limit = DeliveryPolicy.immediateNestingLimit
        let count = limit + 3
        let log = Log()
        let machines = (0..<count).map { _ in
            Machine<MyState, MyEvent>(state: .state0) {
                $0.addRoutes(event: .event0, transitions: [.state0 => .state1])
            }
        }
        for (index, machine) in machines.enumerated() {
            let next = index + 1 < count ? machines[index + 1] : nil
            machine.addHandler(event: .event0) { [unowned next] _ in
                log("begin \(index)")
                if let next {
                    let moved = next.tryEvent(.event0)
                    log("end \(index): \(moved)")
                }
            }
        }

        // The handlers reach the machines unowned: keep them alive throughout.
        defer { withExtendedLifetime(machines) {} }
        machines[0] <-! .event0

        var expected = (0..<limit).map { "begin \($0)" }
        // The request made at the limit moves its machine at once; its
        // handlers run once the delivery that made it has returned.
        expected += ["end \(limit - 1): true", "begin \(limit)", "end \(limit): true"]
        expected += ["begin \(limit + 1)", "end \(limit + 1): true", "begin \(limit + 2)"]
        expected += (0..<limit - 1).reversed().map { "end \($0): true" }
        #expect(log.lines == expected)
    }

    @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
    func childDrivenFromAParentHandlerRunsItsHandlersAtOnce(delivery: DeliveryPolicy) {
        let parent = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
        let child = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
        parent.addRoute(.state0 => .state1)
        child.addRoute(.state0 => .state1)
        let log = Log()
        parent.addHandler(.state0 => .state1) { _ in
            log("parent begin")
            child <- .state1
            log("parent end: child now \(child.state)")
        }
        child.addHandler(.state0 => .state1) { _ in log("child handler") }

        parent <- .state1

        #expect(log.lines == ["parent begin", "child handler", "parent end: child now state1"])
    }

    // MARK: Deliveries and statechart requests waiting on one machine

    // Past the nesting limit a flat machine queues deliveries; under
    // run-to-completion, and once it has a statechart, it queues requests. A
    // machine that gains a statechart while deliveries wait has both, and
    // each kind runs at its own moment, in the order it was queued.

    /// event0 takes state0 => state1 and state3 => state0, event1 state1 =>
    /// state2, event2 state2 => state3; an observer logs every transition.
    private static func makeMachineThatGainsAChart(delivery: DeliveryPolicy, log: Log) -> Machine<MyState, MyEvent> {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state3 => .state0])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        machine.addRoutes(event: .event2, transitions: [.state2 => .state3])
        machine.addAnyHandler(.any => .any) { log("observer: \(describe($0))") }
        return machine
    }

    /// A flat machine of `MyState` whose handler sends event0 to itself
    /// until `depth` of its deliveries are nested, then runs `atDepth`.
    private static func makeRelay(depth: Int, atDepth: @escaping () -> Void) -> Machine<MyState, MyEvent> {
        let relay = Machine<MyState, MyEvent>(state: .state0)
        relay.addRoutes(event: .event0, transitions: [.state0 => .state0])
        var level = 0
        relay.addHandler(event: .event0) { [unowned relay] _ in
            level += 1
            defer { level -= 1 }
            if level < depth {
                relay <-! .event0
            } else {
                atDepth()
            }
        }
        return relay
    }

    @Test func requestsMadeWhileAMachineGainsAChartInAFlatDeliveryWaitInOneQueue() {
        let log = Log()
        let machine = Self.makeMachineThatGainsAChart(delivery: .runToCompletion, log: log)
        var isFirst = true
        machine.addHandler(event: .event0) { [unowned machine] _ in
            guard isFirst else { return }
            isFirst = false
            log("handler begin")
            // Waits for this delivery to end.
            machine <-! .event1
            machine.addEntryHandler(.state3) { [unowned machine] _ in
                log("entry state3")
                // Waits for the step to end.
                machine <-! .event0
            }
            // The machine is a statechart now, and the flat delivery still
            // runs: the request waits behind the first.
            machine <-! .event2
            log("handler end: now \(machine.state)")
        }

        machine <-! .event0

        #expect(
            log.lines == [
                "handler begin",
                "handler end: now state1",
                "observer: event0 state0 => state1",
                "observer: event1 state1 => state2",
                "observer: event2 state2 => state3", "entry state3",
                "observer: event0 state3 => state0",
            ])
        #expect(machine.state == .state0)
    }

    @Test func aMachineResumedByTheThreadRunsItsDeliveriesThenItsRequests() {
        let log = Log()
        let machine = Self.makeMachineThatGainsAChart(delivery: .immediate, log: log)
        let relay = Self.makeRelay(depth: DeliveryPolicy.immediateNestingLimit) { [unowned machine] in
            // Deliveries are nested as deep as they go: the delivery waits.
            machine <-! .event0
            machine.addEntryHandler(.state2) { _ in log("entry state2") }
            // So does the request, behind it.
            machine <-! .event1
            log("at the limit: now \(machine.state)")
        }

        relay <-! .event0

        #expect(
            log.lines == [
                "at the limit: now state1",
                "observer: event0 state0 => state1",
                "observer: event1 state1 => state2", "entry state2",
            ])
        #expect(machine.state == .state2)
    }

    @Test func aRequestMadeAtTheLimitDuringARunToCompletionDeliveryWaitsForThatDelivery() {
        let log = Log()
        let machine = Self.makeMachineThatGainsAChart(delivery: .runToCompletion, log: log)
        // The machine's handler is one delivery deep: the relay's go one deeper.
        let relay = Self.makeRelay(depth: DeliveryPolicy.immediateNestingLimit - 1) { [unowned machine] in
            if case .failure(let error) = machine.attemptEvent(.event2) {
                log("at the limit: \(error.reason)")
            }
        }
        var isFirst = true
        machine.addHandler(event: .event0) { [unowned machine] _ in
            guard isFirst else { return }
            isFirst = false
            log("handler begin")
            machine <-! .event1
            machine.addEntryHandler(.state3) { _ in log("entry state3") }
            // The request made at the limit waits for this delivery, not
            // only for the relay's deliveries to unwind.
            relay <-! .event0
            log("handler end: now \(machine.state)")
        }

        machine <-! .event0

        #expect(
            log.lines == [
                "handler begin",
                "at the limit: queued",
                "handler end: now state1",
                "observer: event0 state0 => state1",
                "observer: event1 state1 => state2",
                "observer: event2 state2 => state3", "entry state3",
            ])
        #expect(machine.state == .state3)
    }

    @Test(arguments: [false, true])
    func restoringWhileWorkWaitsForTheThreadIsRefused(statechart: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0) { $0.addRoute(.state0 => .state1) }
        if statechart {
            machine.addEntryHandler(.state1) { _ in }
        }
        var reason: SnapshotError.Reason?
        let relay = Self.makeRelay(depth: DeliveryPolicy.immediateNestingLimit) { [unowned machine] in
            // A flat machine's delivery waits, or a statechart's request.
            machine <- .state1
            do {
                try machine.restore(MachineSnapshot(activeStates: [MyState.state2]))
            } catch let error as SnapshotError {
                reason = error.reason
            } catch {
                Issue.record("restore threw \(error)")
            }
        }

        relay <-! .event0

        #expect(reason == .duringStep)
        #expect(machine.state == .state1)
    }
}

// MARK: - Fixtures

/// A numbered state, for machines with many states.
private struct Step: StateType, CustomStringConvertible {
    var number: Int

    init(_ number: Int) {
        self.number = number
    }

    var description: String { "\(number)" }
}

private func describe(_ context: Machine<MyState, MyEvent>.Context) -> String {
    "\(context.event.map { "\($0)" } ?? "nil") \(context.fromState) => \(context.toState)"
}

/// The request a handler of event0 makes in the nesting tests: state1 => state2,
/// asked for as an event or as a state.
private enum NestedRequest: CaseIterable, Sendable {
    case event, state

    func send(to machine: Machine<MyState, MyEvent>) -> Bool {
        switch self {
        case .event: machine.tryEvent(.event1)
        case .state: machine.tryState(.state2)
        }
    }

    /// The nested transition as `describe(_:)` prints it: a state request has no event.
    var described: String {
        switch self {
        case .event: "event1 state1 => state2"
        case .state: "nil state1 => state2"
        }
    }
}

/// Routes event0: state0 => state1 and event1: state1 => state2; a first
/// handler of event0 that makes the nested `request`; a second handler of
/// event0; a handler for the nested transition of either kind; an error handler.
/// `request` is handed the machine, so that no handler holds it strongly.
private func addNestingHandlers(
    to machine: Machine<MyState, MyEvent>, log: Log, request: @escaping (Machine<MyState, MyEvent>) -> Bool
) {
    machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
    machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
    machine.addRoute(.state1 => .state2)
    machine.addHandler(event: .event0, order: 1) { [unowned machine] context in
        log("first begin: \(describe(context)) now \(machine.state)")
        let result = request(machine)
        log("first end: returned \(result) now \(machine.state)")
    }
    machine.addHandler(event: .event0, order: 2) { [unowned machine] context in
        log("second: \(describe(context)) now \(machine.state)")
    }
    machine.addAnyHandler(.state1 => .state2) { [unowned machine] context in
        log("nested: \(describe(context)) now \(machine.state)")
    }
    machine.addErrorHandler { [unowned machine] context in
        log("error: \(describe(context)) now \(machine.state)")
    }
}

/// A parent whose event0 handler fires event0 at the child, and a child whose
/// event0 handler fires event1 at the parent.
private func makeParentAndChild(
    delivery: DeliveryPolicy
) -> (parent: Machine<MyState, MyEvent>, child: Machine<MyState, MyEvent>, log: Log) {
    let log = Log()
    let parent = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
    let child = Machine<MyState, MyEvent>(state: .state0, delivery: delivery)
    parent.addRoutes(event: .event0, transitions: [.state0 => .state1])
    parent.addRoutes(event: .event1, transitions: [.state1 => .state2])
    child.addRoutes(event: .event0, transitions: [.state0 => .state1])
    parent.addHandler(event: .event0, order: 1) { [unowned child] context in
        log("parent first begin: \(describe(context))")
        let result = child.tryEvent(.event0)
        log("parent first end: child returned \(result) now \(child.state)")
    }
    parent.addHandler(event: .event0, order: 2) { log("parent second: \(describe($0))") }
    parent.addHandler(event: .event1) { log("parent nested: \(describe($0))") }
    child.addHandler(event: .event0) { [unowned parent] context in
        log("child begin: \(describe(context))")
        let result = parent.tryEvent(.event1)
        log("child end: parent returned \(result) now \(parent.state)")
    }
    return (parent, child, log)
}
