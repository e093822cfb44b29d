import Switchyard
import Testing

/// A `userInfo` whose identity the tests can check: every closure must be
/// handed the caller's own object, never a copy or a wrapper around it.
private final class Token {}

/// Records, for each closure that ran, whether it was handed the token.
private final class Sightings {
    private(set) var lines: [String] = []
    let token = Token()

    func saw(_ closure: String, _ userInfo: Any?) {
        let isToken = (userInfo as? Token) === token
        lines.append("\(closure): \(isToken ? "token" : String(describing: userInfo))")
    }
}

@Suite struct UserInfoTests {
    /// A machine whose only move from state0 is allowed by a condition, whose
    /// move from state1 comes from a route mapping, whose state requests
    /// from state2 come from a state route mapping; every closure reports
    /// what it was handed.
    private func makeMachine(_ sightings: Sightings, statechart: Bool) -> Machine<MyState, MyEvent> {
        Machine(state: .state0) { machine in
            if statechart {
                // The same states, as children of a compound state.
                machine.addChildren([.state0, .state1, .state2], to: .state3)
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { context in
                sightings.saw("condition", context.userInfo)
                return true
            }
            machine.addRouteMapping { event, state, userInfo in
                guard event == .event1, state == .state1 else { return nil }
                sightings.saw("mapping", userInfo)
                return .state2
            }
            machine.addStateRouteMapping { state, userInfo in
                guard state == .state2 else { return nil }
                sightings.saw("state mapping", userInfo)
                return [.state0]
            }
            machine.addAnyHandler(.any => .any) { sightings.saw("handler", $0.userInfo) }
            machine.addErrorHandler { sightings.saw("error handler", $0.userInfo) }
        }
    }

    @Test(arguments: [false, true])
    func everyClosureIsHandedTheCallersOwnValue(statechart: Bool) {
        let sightings = Sightings()
        let machine = makeMachine(sightings, statechart: statechart)
        #expect(machine.tryEvent(.event0, userInfo: sightings.token))
        #expect(machine.tryEvent(.event1, userInfo: sightings.token))
        #expect(machine.tryState(.state0, userInfo: sightings.token))
        #expect(!machine.tryEvent(.event2, userInfo: sightings.token))
        #expect(
            sightings.lines == [
                "condition: token", "handler: token", "mapping: token", "handler: token", "state mapping: token",
                "handler: token", "error handler: token",
            ])
    }

    @Test(arguments: [false, true])
    func questionsAndTypedResultsHandTheValueOnToo(statechart: Bool) {
        let sightings = Sightings()
        let machine = makeMachine(sightings, statechart: statechart)
        #expect(machine.canTryEvent(.event0, userInfo: sightings.token) == .state1)
        #expect(machine.hasRoute(event: .event0, fromState: .state0, toState: .state1, userInfo: sightings.token))
        #expect(machine.hasRoute(fromState: .state2, toState: .state0, userInfo: sightings.token))
        #expect(throws: Never.self) { try machine.attemptEvent(.event0, userInfo: sightings.token).get() }
        #expect(machine.state == .state1)
        #expect(!sightings.lines.isEmpty)
        #expect(sightings.lines.allSatisfy { $0.hasSuffix(": token") }, "\(sightings.lines)")
    }

    @Test func withoutUserInfoEveryClosureIsHandedNil() {
        let sightings = Sightings()
        let machine = makeMachine(sightings, statechart: false)
        machine <-! .event0 <-! .event1
        #expect(
            sightings.lines == ["condition: nil", "handler: nil", "mapping: nil", "handler: nil"])
    }

    @Test func aContextKeepsWhatItIsGivenAndShowsItsFourFields() {
        let token = Token()
        var context = Machine<MyState, MyEvent>.Context(
            event: .event0, fromState: .state0, toState: .state1, userInfo: token)
        #expect((context.userInfo as? Token) === token)
        context.userInfo = 7
        #expect(context.userInfo as? Int == 7)
        context.userInfo = nil
        #expect(context.userInfo == nil)
        #expect(Mirror(reflecting: context).children.map(\.label) == ["event", "fromState", "toState", "userInfo"])
        #expect(
            "\(context)"
                == "Context(event: Optional(SwitchyardTests.MyEvent.event0), fromState: SwitchyardTests.MyState.state0, "
                + "toState: SwitchyardTests.MyState.state1, userInfo: nil)")
    }
}
