import Switchyard
import Testing

// A condition or route mapping runs while its machine decides. It may ask its
// machine questions, but a request it makes is refused: with a typed reason
// and the error handlers, and, in debug builds, a stop that names the misuse
// (checked in a child process). Release builds, where the request is refused
// and the outer one goes on, run the `#else` tests (`swift test -c release`).

private typealias ReentrantMachine = Machine<MyState, MyEvent>

/// `event0` takes state0 => state1 under a condition that first runs
/// `insideCondition`; `event1` takes state0 => state2; every handler and
/// error handler writes to standard output.
private func makeMachine(insideCondition: @escaping (ReentrantMachine) -> Void) -> ReentrantMachine {
    let machine = ReentrantMachine(state: .state0)
    machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { [unowned machine] _ in
        insideCondition(machine)
        return true
    }
    machine.addRoutes(event: .event1, transitions: [.state0 => .state2])
    machine.addRoute(.state0 => .state3)
    machine.addAnyHandler(.any => .any) { print("handler: \(describe($0))") }
    machine.addErrorHandler { print("error: \(describe($0))") }
    return machine
}

private func describe(_ context: ReentrantMachine.Context) -> String {
    "\(context.event.map { "\($0)" } ?? "nil") \(context.fromState) => \(context.toState)"
}

@Suite struct ReentrancyTests {
    @Test func conditionsMayAskTheirMachineQuestions() {
        var answers: [String] = []
        let machine = makeMachine { machine in
            answers.append("state \(machine.state)")
            answers.append("hasRoute \(machine.hasRoute(event: .event1, fromState: .state0, toState: .state2))")
            answers.append("canTryEvent \(String(describing: machine.canTryEvent(.event1)))")
            answers.append("canTryState \(machine.canTryState(.state3))")
            answers.append("hasRoute by state \(machine.hasRoute(fromState: .state0, toState: .state2))")
        }

        #expect(machine.tryEvent(.event0))

        #expect(machine.state == .state1)
        #expect(
            answers == [
                "state state0", "hasRoute true", "canTryEvent Optional(SwitchyardTests.MyState.state2)",
                "canTryState true", "hasRoute by state true",
            ])
    }

    @Test func aConditionCannotStartItsMachine() {
        var started: [Bool] = []
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addChildren([.state1], to: .state2)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state2]) { [unowned machine] _ in
            started.append(machine.start())
            return true
        }
        #expect(machine.tryEvent(.event0))
        #expect(started == [false])
        #expect(machine.state == .state1)
    }

    @Test func routeMappingsMayAskTheirMachineQuestions() {
        let machine = ReentrantMachine(state: .state0)
        machine.addRoutes(event: .event1, transitions: [.state0 => .state2])
        machine.addRouteMapping { [unowned machine] event, from, _ in
            event == .event0 && machine.canTryEvent(.event1) == .state2 ? .state3 : nil
        }
        #expect(machine.attemptEvent(.event0) == .success(.state3))
    }

    #if DEBUG
        @Test func aConditionThatFiresAnEventStopsDebugBuildsAfterTheErrorHandlers() async throws {
            let result = try await #require(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                let machine = makeMachine { machine in machine.tryEvent(.event1) }
                machine.tryEvent(.event0)
            }
            #expect(output(of: result) == "error: event1 state0 => state0\n")
            #expect(message(of: result).contains("tryEvent(event1) was requested while the machine was deciding"))
            #expect(message(of: result).contains("reentrantRequest"))
        }

        @Test func aConditionThatAsksForAStateStopsDebugBuildsAfterTheErrorHandlers() async throws {
            let result = try await #require(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                let machine = makeMachine { machine in machine.tryState(.state3) }
                machine.tryEvent(.event0)
            }
            #expect(output(of: result) == "error: nil state0 => state3\n")
            #expect(message(of: result).contains("tryState(state3) was requested while the machine was deciding"))
        }

        @Test func aMappingThatFiresAnEventStopsDebugBuilds() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = ReentrantMachine(state: .state0)
                machine.addRoutes(event: .event1, transitions: [.state0 => .state2])
                machine.addRouteMapping { [unowned machine] _, _, _ in
                    machine.tryEvent(.event1)
                    return nil
                }
                machine.tryEvent(.event0)
            }
            #expect(message(of: result).contains("route mappings"))
        }

        @Test func aConditionAskingAboutItsOwnRouteStopsDebugBuilds() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = makeMachine { machine in
                    _ = machine.hasRoute(event: .event0, fromState: .state0, toState: .state1)
                }
                machine.tryEvent(.event0)
            }
            #expect(message(of: result).contains("while that same question was being answered"))
        }

        @Test func questionsInsideQuestionsDoNotStop() async {
            await #expect(processExitsWith: .success) {
                let machine = makeMachine { machine in
                    _ = machine.canTryEvent(.event1)
                    _ = machine.hasRoute(fromState: .state0, toState: .state3)
                }
                machine.tryEvent(.event0)
                _ = machine.hasRoute(event: .event0, fromState: .state0, toState: .state1)
            }
        }
    #else
        @Test func aConditionThatFiresAnEventIsRefusedAndTheOuterRequestGoesOn() {
            var inner: Result<MyState, TransitionError>?
            let machine = makeMachine { machine in inner = machine.attemptEvent(.event1) }

            #expect(machine.attemptEvent(.event0) == .success(.state1))

            guard case .failure(let error) = inner else {
                Issue.record("the inner request was not refused: \(String(describing: inner))")
                return
            }
            #expect(error.reason == .reentrantRequest)
            #expect(machine.state == .state1)
        }

        @Test func aConditionThatAsksForAStateIsRefused() {
            var inner: Result<MyState, TransitionError>?
            let machine = makeMachine { machine in inner = machine.attemptState(.state3) }

            #expect(machine.tryEvent(.event0))

            #expect((try? inner?.get()) == nil)
            if case .failure(let error) = inner {
                #expect(error.reason == .reentrantRequest)
            }
            #expect(machine.state == .state1)
        }

        @Test func aConditionAskingAboutItsOwnRouteGetsFalseInsteadOfRecursing() {
            var answers: [Bool] = []
            let machine = makeMachine { machine in
                answers.append(machine.hasRoute(event: .event0, fromState: .state0, toState: .state1))
            }
            #expect(machine.tryEvent(.event0))
            // The inner question found its own condition asking it again.
            #expect(answers == [false, true])
        }
    #endif
}

/// What the child process wrote to standard output.
private func output(of result: ExitTest.Result) -> String {
    String(decoding: result.standardOutputContent, as: UTF8.self)
}
