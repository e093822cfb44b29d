import Switchyard
import Testing

// `Machine.inspect(_:)`: each decision as a value, in the order the machine
// takes them, with a statechart step's exits, routes and entries.

private enum Node: StateType {
    case a, a1, a2, b, b1, p, r1, x1, x2, r2, y1, y2, job, working, done, next, idle
}

private enum Go: EventType {
    case go, finish, stray
}

private enum Pane: StateType {
    case list, detail
}

private enum Shell: StateType {
    case off, on
    case pane(Pane)
}

private enum Host: StateType {
    case idle, running, paused
    case node(Node)
    case pane(Pane)
}

/// A state of a long chain.
private struct Step: StateType {
    var number: Int
    init(_ number: Int) { self.number = number }
}

/// What an observer heard, described.
private final class Heard<S: StateType, E: EventType> {
    var inspections: [Inspection<S, E>] = []
    var lines: [String] { inspections.map(\.description) }
}

private func inspected<S, E>(_ machine: Machine<S, E>) -> (Heard<S, E>, Disposable) {
    let heard = Heard<S, E>()
    let disposable = machine.inspect { heard.inspections.append($0) }
    return (heard, disposable)
}

@Suite struct InspectionTests {
    // MARK: Requests an observer makes

    @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
    func aChainOfObserverDrivenStepsDoesNotDeepenTheStack(delivery: DeliveryPolicy) {
        let count = 10_000
        let steps = Shared(0)
        onThread(stackSize: 512 * 1024) {
            let machine = Machine<Step, NoEvent>(state: Step(0), delivery: delivery)
            machine.addRoute(.any => .any)
            let observer = machine.inspect { inspection in
                if inspection.toState.number < count {
                    machine <- Step(inspection.toState.number + 1)
                }
            }
            machine <- Step(1)
            steps.value = machine.state.number
            observer.dispose()
        }
        #expect(steps.value == count)
    }

    @Test func underRunToCompletionAnObserversRequestIsDeliveredAfterTheStepItHeard() {
        let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        machine.addHandler(event: .any) { log("handler \($0.fromState) => \($0.toState)") }
        _ = machine.inspect { [weak machine] inspection in
            log("heard \(inspection.fromState) => \(inspection.toState)")
            if inspection.toState == .state1 {
                machine?.tryEvent(.event1)
            }
        }
        machine <-! .event0
        // Observers hear decisions in the order they are taken, the handlers
        // of each step run after those of the step before.
        #expect(log.lines.filter { $0.hasPrefix("heard") } == ["heard state0 => state1", "heard state1 => state2"])
        #expect(
            log.lines.filter { $0.hasPrefix("handler") } == ["handler state0 => state1", "handler state1 => state2"])
    }

    // MARK: Flat machines

    @Test func aFlatMachineShowsAcceptedRefusedAndStateRequests() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        _ = machine.addRoute(.state1 => .state2)
        let (heard, _) = inspected(machine)
        #expect(machine.tryEvent(.event0))
        #expect(!machine.tryEvent(.event1))
        #expect(machine.tryState(.state2))
        #expect(!machine.tryState(.state0))
        #expect(
            heard.inspections.map(\.request) == [.event(.event0), .event(.event1), .state(.state2), .state(.state0)])
        #expect(heard.inspections.map(\.refusal) == [nil, .noRoute, nil, .unreachable])
        #expect(heard.inspections.allSatisfy { $0.exits.isEmpty && $0.routes.isEmpty && $0.entries.isEmpty })
        #expect(heard.inspections[1].fromState == .state1 && heard.inspections[1].toState == .state1)
        #expect(heard.inspections[3].toState == .state0)
    }

    @Test func disposingTheObserverStopsIt() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state0])
        let (heard, disposable) = inspected(machine)
        let (other, _) = inspected(machine)
        #expect(machine.tryEvent(.event0))
        disposable.dispose()
        #expect(disposable.disposed)
        #expect(machine.tryEvent(.event0))
        #expect(heard.inspections.count == 1)
        #expect(other.inspections.count == 2)
    }

    // MARK: Statecharts

    @Test func aStatechartStepListsExitsRoutesAndEntriesInOrder() throws {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.a1, .a2], to: .a)
        chart.addChildren([.b1], to: .b)
        chart.addRoutes(event: .go, transitions: [.a1 => .b])
        let (heard, _) = inspected(chart)
        #expect(chart.tryEvent(.go))
        let step = try #require(heard.inspections.first)
        #expect(heard.inspections.count == 1)
        #expect(step.request == .event(.go))
        #expect(step.fromState == .a1)
        #expect(step.toState == .b1)
        #expect(step.isAccepted)
        #expect(step.exits == [.a1, .a])
        #expect(step.routes == [Inspection.Route(source: .a1, target: .b)])
        #expect(step.entries == [.b, .b1])
    }

    @Test func aParallelStepListsEachRegionsRoute() throws {
        let chart = Machine<Node, Go>(state: .p)
        chart.addRegions([.r1, .r2], to: .p)
        chart.addChildren([.x1, .x2], to: .r1)
        chart.addChildren([.y1, .y2], to: .r2)
        chart.addRoutes(event: .go, transitions: [.x1 => .x2])
        chart.addRoutes(event: .go, transitions: [.y1 => .y2])
        let (heard, _) = inspected(chart)
        #expect(chart.tryEvent(.go))
        let step = try #require(heard.inspections.first)
        #expect(
            step.routes == [Inspection.Route(source: .x1, target: .x2), Inspection.Route(source: .y1, target: .y2)])
        #expect(Set(step.exits) == [.x1, .y1])
        #expect(Set(step.entries) == [.x2, .y2])
        #expect(step.exits.count == 2 && step.entries.count == 2)
    }

    @Test func eventlessAndDoneStepsAreInspectionsOfTheirOwnInOrder() {
        let chart = Machine<Node, Go>(state: .working)
        chart.addChildren([.working, .done], to: .job)
        chart.addFinalState(.done)
        chart.addRoutes(event: .finish, transitions: [.working => .done])
        chart.addDoneRoute(.job => .next)
        chart.addEventlessRoute(.next => .idle)
        let (heard, _) = inspected(chart)
        #expect(chart.tryEvent(.finish))
        #expect(heard.inspections.map(\.request) == [.event(.finish), .done, .eventless])
        #expect(heard.inspections.map(\.fromState) == [.working, .done, .next])
        #expect(heard.inspections.map(\.toState) == [.done, .next, .idle])
        #expect(heard.inspections[1].exits == [.done, .job])
        #expect(heard.inspections[1].routes == [Inspection.Route(source: .job, target: .next)])
        #expect(heard.inspections[2].entries == [.idle])
    }

    @Test func aStatechartRefusalIsInspected() {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.a1, .a2], to: .a)
        let (heard, _) = inspected(chart)
        #expect(!chart.tryEvent(.stray))
        #expect(heard.inspections.map(\.refusal) == [.noRoute])
        #expect(heard.inspections.first?.request == .event(.stray))
    }

    // MARK: Nested machines

    @Test func theRootHearsANestedRefusalAndAStepAcrossMachines() {
        let shell = Machine<Shell, Go>(state: .off)
        let pane = Machine<Pane, Go>(state: .list)
        pane.addRoutes(event: .go, transitions: [.list => .detail])
        shell.nest(pane, under: .on, as: { .pane($0) })
        shell.addRoutes(event: .finish, transitions: [.off => .on, .on => .off])
        let (root, _) = inspected(shell)
        let (nested, _) = inspected(pane)
        #expect(shell.tryEvent(.finish))
        #expect(!pane.tryEvent(.stray))
        #expect(pane.tryEvent(.go))
        #expect(shell.tryEvent(.finish))
        #expect(root.inspections.map(\.request) == [.event(.finish), .event(.stray), .event(.go), .event(.finish)])
        #expect(root.inspections.map(\.refusal) == [nil, .noRoute, nil, nil])
        #expect(root.inspections[0].entries == [.on, .pane(.list)])
        #expect(root.inspections[1].fromState == .pane(.list))
        #expect(root.inspections[1].toState == .pane(.list))
        #expect(root.inspections[2].routes == [Inspection.Route(source: .pane(.list), target: .pane(.detail))])
        #expect(root.inspections[3].exits == [.pane(.detail), .on])
        #expect(root.inspections[3].toState == .off)
        // The nested machine hears its own refusal and step, in its own
        // states; being entered and exited with its host are not its steps.
        #expect(nested.inspections.map(\.refusal) == [.noRoute, nil])
        #expect(nested.inspections.map(\.request) == [.event(.stray), .event(.go)])
        #expect(nested.inspections[1].fromState == .list)
        #expect(nested.inspections[1].toState == .detail)
    }

    @Test func describedAsTheLoggerInToolsPrintsThem() {
        let player = Machine<Node, Go>(state: .idle)
        player.addChildren([.a1, .a2], to: .a)
        player.addRoutes(event: .go, transitions: [.idle => .a])
        player.addRoutes(event: .stray, transitions: [.a => .idle])
        let (heard, _) = inspected(player)
        player.start()
        player.tryEvent(.go)
        player.tryEvent(.go)
        player.tryEvent(.stray)
        #expect(
            heard.lines == [
                "start: idle => idle, entries [idle]",
                "event(go): idle => a1, exits [idle], routes [idle => a], entries [a, a1]",
                "event(go): a1 => a1, refused: noRoute",
                "event(stray): a1 => idle, exits [a1, a], routes [a => idle], entries [idle]",
            ])
    }

    // MARK: Start and finish

    @Test func aFlatMachinesStartEntersItsState() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        let (heard, _) = inspected(machine)
        #expect(machine.start())
        #expect(!machine.start())
        #expect(machine.tryEvent(.event0))
        #expect(heard.lines == ["start: state0 => state0, entries [state0]", "event(event0): state0 => state1"])
        let start = Inspection<MyState, MyEvent>(
            request: .start, fromState: .state0, toState: .state0, entries: [.state0])
        #expect(heard.inspections[0] == start)
    }

    @Test func aFlatMachineThatMovedBeforeStartingIsNotHeardStarting() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        #expect(machine.tryEvent(.event0))
        let (heard, _) = inspected(machine)
        #expect(!machine.start())
        #expect(heard.inspections.isEmpty)
    }

    @Test func aStatechartsStartListsCompoundAndParallelEntriesOutermostFirst() {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.p, .a2], to: .a)
        chart.addRegions([.r1, .r2], to: .p)
        chart.addChildren([.x1, .x2], to: .r1)
        chart.addChildren([.y1, .y2], to: .r2)
        let log = Log()
        for state in [Node.a, .p, .r1, .x1, .r2, .y1] {
            chart.addEntryHandler(state) { _ in log("enter \(state)") }
        }
        _ = chart.inspect { log("heard \($0)") }
        #expect(chart.start())
        #expect(
            log.lines == [
                "heard start: p => p, entries [a, p, r1, x1, r2, y1]",
                "enter a", "enter p", "enter r1", "enter x1", "enter r2", "enter y1",
            ])
    }

    @Test func aStartsEventlessStepIsAnInspectionOfItsOwnAfterIt() {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.a1, .a2], to: .a)
        chart.addEventlessRoute(.a1 => .b)
        let (heard, _) = inspected(chart)
        #expect(chart.start())
        #expect(chart.state == .b)
        #expect(
            heard.inspections == [
                Inspection(request: .start, fromState: .a1, toState: .a1, entries: [.a, .a1]),
                Inspection(
                    request: .eventless, fromState: .a1, toState: .b, exits: [.a1, .a],
                    routes: [Inspection.Route(source: .a1, target: .b)], entries: [.b]),
            ])
    }

    @Test func aMachineThatFinishesIsHeardFinishingAfterTheStepThatEnteredItsFinalState() {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.a1, .a2], to: .a)
        chart.addFinalState(.done)
        chart.addRoutes(event: .go, transitions: [.a1 => .done])
        let log = Log()
        chart.addExitHandler(.done) { _ in log("exit done") }
        _ = chart.inspect { log("heard \($0)") }
        #expect(chart.tryEvent(.go))
        #expect(!chart.tryEvent(.go))
        #expect(
            log.lines == [
                "heard event(go): a1 => done, exits [a1, a], routes [a1 => done], entries [done]",
                "heard finish: done => done, exits [done]", "exit done",
                "heard event(go): done => done, refused: finished",
            ])
    }

    @Test func aMachineStartedInAFinalStateStartsThenFinishes() {
        let chart = Machine<Node, Go>(state: .done)
        chart.addFinalState(.done)
        let (heard, _) = inspected(chart)
        #expect(chart.start())
        #expect(heard.lines == ["start: done => done, entries [done]", "finish: done => done, exits [done]"])
    }

    @Test func aHierarchysStartIsHeardByTheRootInItsNamesAndByEachActiveNestedMachineInItsOwn() {
        let host = Machine<Host, Go>(state: .running)
        let node = Machine<Node, Go>(state: .a)
        node.addChildren([.a1, .a2], to: .a)
        let pane = Machine<Pane, Go>(state: .list)
        let idlePane = Machine<Pane, Go>(state: .detail)
        host.addChildren([.running, .paused], to: .idle)
        host.nest(node, under: .running, as: { .node($0) })
        node.nest(pane, under: .a1)
        host.nest(idlePane, under: .paused, as: { .pane($0) })
        let log = Log()
        let (hostHeard, _) = inspected(host)
        let (nodeHeard, _) = inspected(node)
        let (paneHeard, _) = inspected(pane)
        let (idlePaneHeard, _) = inspected(idlePane)
        _ = host.inspect { _ in log("host") }
        _ = node.inspect { _ in log("node") }
        _ = pane.inspect { _ in log("pane") }
        host.addEntryHandler(.running) { _ in log("enter running") }
        #expect(host.start())
        // The states of a machine the root has no value for are left out.
        #expect(
            hostHeard.inspections == [
                Inspection(
                    request: .start, fromState: .node(.a1), toState: .node(.a1),
                    entries: [.idle, .running, .node(.a), .node(.a1)])
            ])
        #expect(nodeHeard.lines == ["start: a1 => a1, entries [a, a1]"])
        #expect(paneHeard.lines == ["start: list => list, entries [list]"])
        // Outermost machine first, before any entry handler.
        #expect(log.lines == ["host", "node", "pane", "enter running"])
        // The machine nested under a state that is not active is not
        // started, and being entered later with that state is not its start.
        host.addRoutes(event: .go, transitions: [.running => .paused])
        #expect(host.tryEvent(.go))
        #expect(host.state == .pane(.detail))
        #expect(idlePaneHeard.inspections.isEmpty)
    }

    // MARK: Requests from an observer

    @Test func aFlatObserversRequestIsHeardAfterTheDecisionItReactedTo() {
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        let log = Log()
        _ = machine.addAnyHandler(.any => .any) { context in log("handler \(context.fromState) => \(context.toState)") }
        // Unowned: the machine holds its observer.
        _ = machine.inspect { [unowned machine] inspection in
            log("heard \(inspection.fromState) => \(inspection.toState)")
            if inspection.toState == .state1 {
                _ = machine.tryEvent(.event1)
            }
        }
        #expect(machine.tryEvent(.event0))
        #expect(machine.state == .state2)
        // Under `.immediate`, decided at once, as a handler's request would be.
        #expect(
            log.lines == [
                "heard state0 => state1", "heard state1 => state2", "handler state1 => state2",
                "handler state0 => state1",
            ])
    }

    @Test func aStatechartObserversRequestWaitsForTheStepsHandlers() {
        let chart = Machine<Node, Go>(state: .a)
        chart.addChildren([.a1, .a2], to: .a)
        chart.addRoutes(event: .go, transitions: [.a1 => .a2])
        chart.addRoutes(event: .finish, transitions: [.a2 => .b])
        let log = Log()
        _ = chart.addAnyHandler(.any => .any) { context in log("handler \(context.fromState) => \(context.toState)") }
        // Unowned: the machine holds its observer.
        _ = chart.inspect { [unowned chart] inspection in
            log("heard \(inspection.fromState) => \(inspection.toState)")
            if inspection.toState == .a2 {
                _ = chart.tryEvent(.finish)
            }
        }
        #expect(chart.tryEvent(.go))
        #expect(chart.state == .b)
        #expect(log.lines == ["heard a1 => a2", "handler a1 => a2", "heard a2 => b", "handler a2 => b"])
    }
}
