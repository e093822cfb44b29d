import Switchyard
import Testing

// Built in the Swift 5 language mode, where a trailing closure used to be
// matched from the last parameter backwards: the trailing closure of
// `addEventlessRoute` and `addDoneRoute` must still be the condition, as the
// documentation writes it and as Swift 6 reads it.

private enum Kettle: StateType {
    case idle, heating, boiling, work, step, shipped
}

private enum KettleEvent: EventType {
    case heat
}

@Suite struct TrailingClosureTests {
    @Test func theTrailingClosureOfAnEventlessRouteIsItsCondition() {
        nonisolated(unsafe) var temperature = 20
        let kettle = Machine<Kettle, KettleEvent>(state: .idle) { kettle in
            kettle.addRoutes(event: .heat, transitions: [.idle => .heating])
            kettle.addEventlessRoute(.heating => .boiling) { _ in temperature >= 100 }
        }
        kettle <-! .heat
        #expect(kettle.state == .heating)  // not boiling at 20°
        temperature = 100
        #expect(kettle.tryState(.boiling) == false)
    }

    @Test func theTrailingClosureOfADoneRouteIsItsCondition() {
        let machine = Machine<Kettle, KettleEvent>(state: .work) { machine in
            machine.addChildren([.step, .shipped], to: .work)
            machine.addFinalState(.shipped)
            machine.addRoutes(event: .heat, transitions: [.step => .shipped])
            machine.addDoneRoute(.work => .idle) { _ in false }
        }
        machine.start()
        machine <-! .heat
        #expect(machine.configuration == [.work, .shipped])
    }

    @Test func anActionIsStillGivenByItsLabel() {
        var actions = 0
        let machine = Machine<Kettle, KettleEvent>(state: .idle) { machine in
            machine.addRoutes(event: .heat, transitions: [.idle => .heating])
            machine.addEventlessRoute(.heating => .boiling, condition: { _ in true }) { _ in actions += 1 }
            machine.addEventlessRoute(.boiling => .idle, action: { _ in actions += 1 })
        }
        machine <-! .heat
        #expect(machine.state == .idle)
        #expect(actions == 2)
    }

    @Test func aSendableMachinesTrailingClosureIsTheConditionToo() {
        let machine = SendableMachine<Kettle, KettleEvent>(state: .idle)
        machine.addRoutes(event: .heat, transitions: [.idle => .heating])
        machine.addEventlessRoute(.heating => .boiling) { _ in false }
        machine <-! .heat
        #expect(machine.state == .heating)
    }
}
