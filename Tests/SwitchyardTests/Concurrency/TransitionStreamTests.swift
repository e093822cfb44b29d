import Testing

@testable import Switchyard

@Suite struct TransitionStreamTests {
    private func door(delivery: DeliveryPolicy = .immediate) -> Machine<MyState, MyEvent> {
        Machine(state: .state0, delivery: delivery) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
            machine.addRoutes(event: .event1, transitions: [.any => .state0]) { _ in false }
            machine.addRoute(.state2 => .state3)
        }
    }

    @Test func recordsEachTransitionInOrderAndEndsWithTheMachine() async {
        var machine: Machine<MyState, MyEvent>? = door()
        let stream = machine!.transitions()
        machine! <-! .event0 <-! .event0 <-! .event1 <- .state3 <- .state0
        machine = nil
        #expect(
            await collect(stream) == [
                "state0 => state1 on event0", "state1 => state2 on event0", "state2 => state3",
            ])
    }

    @Test func refusalsAreRecordedWithTheirReasonWhenAskedFor() async {
        var machine: Machine<MyState, MyEvent>? = door()
        let stream = machine!.transitions(includingRefusals: true)
        machine! <-! .event1 <-! .event2 <- .state3 <-! .event0
        machine = nil
        #expect(
            await collect(stream) == [
                "state0 => state0 on event1, refused: conditionsRefused",
                "state0 => state0 on event2, refused: noRoute",
                "state0 => state3, refused: unreachable",
                "state0 => state1 on event0",
            ])
    }

    @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
    func aRequestFromAHandlerIsRecordedAfterTheTransitionItReactedTo(delivery: DeliveryPolicy) async {
        var machine: Machine<MyState, MyEvent>? = door(delivery: delivery)
        let stream = machine!.transitions()
        // Ordered before the handler that requests, so that under `.immediate`
        // the nested transition's handlers run inside the first one's.
        machine!.addHandler(.state0 => .state1, order: 0) { _ in }
        machine!.addRoutes(event: .event2, transitions: [.state0 => .state1])
        machine!.addHandler(event: .event2) { [unowned machine = machine!] _ in machine <-! .event0 }
        machine! <-! .event2
        #expect(machine!.state == .state2)
        machine = nil
        #expect(await collect(stream) == ["state0 => state1 on event2", "state1 => state2 on event0"])
    }

    @Test func everySubscriberHearsEveryTransitionFromItsSubscriptionOn() async {
        var machine: Machine<MyState, MyEvent>? = door()
        let first = machine!.transitions()
        machine! <-! .event0
        let second = machine!.transitions()
        machine! <-! .event0
        machine = nil
        #expect(await collect(first) == ["state0 => state1 on event0", "state1 => state2 on event0"])
        #expect(await collect(second) == ["state1 => state2 on event0"])
    }

    @Test func aBoundedBufferKeepsTheNewestRecords() async {
        var machine: Machine<MyState, MyEvent>? = door()
        let stream = machine!.transitions(bufferingPolicy: .bufferingNewest(1))
        machine! <-! .event0 <-! .event0
        machine = nil
        #expect(await collect(stream) == ["state1 => state2 on event0"])
    }

    @Test func aStatechartRecordsItsEventlessAndDoneSteps() async {
        var machine: Machine<MyState, MyEvent>? = Machine(state: .state0) { machine in
            machine.addChildren([.state1, .state2], to: .state0)
            machine.addFinalState(.state2)
            machine.addRoutes(event: .event0, transitions: [.state1 => .state2])
            machine.addDoneRoute(.state0 => .state3)
            machine.addEventlessRoute(.state3 => .state0) { _ in false }
        }
        let stream = machine!.transitions(includingRefusals: true)
        machine!.start()
        machine! <-! .event0 <-! .event0
        machine = nil
        #expect(
            await collect(stream) == [
                "state1 => state2 on event0", "state2 => state3", "state3 => state3 on event0, refused: noRoute",
            ])
    }

    @Test func aSubscriberThatStopsListeningIsLetGoAtTheNextDecision() async {
        let machine = door()
        // Dropped without being iterated.
        _ = machine.transitions()
        // Iterated by a task that is cancelled.
        let stream = machine.transitions()
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        consumer.cancel()
        #expect(await consumer.value == 0)
        let kept = machine.transitions()
        #expect(machine.watchers?.subscriberCount == 3)
        machine <-! .event0
        #expect(machine.watchers?.subscriberCount == 1)
        _ = kept
    }
}

@Suite struct NestedTransitionStreamTests {
    @Test func aNestedMachineRecordsItsOwnStepsAndTheRequestsItRefuses() async {
        var root: Machine<MyState, MyEvent>? = Machine(state: .state0) { root in
            root.addRoutes(event: .event2, transitions: [.state0 => .state1])
        }
        var child: Machine<StrState, MyEvent>? = Machine(state: .str("a")) { child in
            child.addRoutes(event: .event0, transitions: [.str("a") => .str("b")])
        }
        let stream = child!.transitions(includingRefusals: true)
        root!.nest(child!, under: .state0)
        root!.start()
        // event1 is refused by the root, which it was sent to: the child hears nothing of it.
        root! <-! .event0 <-! .event1 <-! .event2
        // Its host left, the child refuses and is told its state as it will start again.
        child! <-! .event0
        root = nil
        child = nil
        let records = await collect(stream)
        #expect(
            records == [
                "str(\"a\") => str(\"b\") on event0",
                "str(\"a\") => str(\"a\") on event0, refused: inactive",
            ])
    }
}
