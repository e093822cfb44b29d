import Switchyard
import Testing

// Programmer errors stop the process with a message that names the misuse, in
// every build. Each case runs in a child process (an exit test). `hasRoute`
// with `.any` stops debug builds only (an assertion, as in SwiftState) and
// answers `false` in release builds. A control case per API shows that correct
// use does not stop, so the exit tests cannot pass by accident.

@Suite struct MisuseTests {
    // MARK: Empty chains

    @Test func addRouteChainWithAnEmptyTransitionChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addRouteChain(TransitionChain(states: [])) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addRouteChainWithAOneStateTransitionChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addRouteChain(TransitionChain(states: [.some(.state0)]), condition: { _ in true }) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addRouteChainWithAnEmptyRouteChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addRouteChain(RouteChain(routes: [])) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addChainHandlerWithAnEmptyTransitionChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addChainHandler(TransitionChain(states: [])) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addChainHandlerWithAnEmptyRouteChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addChainHandler(RouteChain(routes: []), order: 1) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addChainErrorHandlerWithAnEmptyChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addChainErrorHandler(TransitionChain(states: [])) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func addChainErrorHandlerWithAnEmptyRouteChainStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addChainErrorHandler(RouteChain(routes: [])) { _ in }
        }
        #expect(message(of: result).contains("chain"))
    }

    @Test func chainsOfOneStepDoNotStop() async {
        await #expect(processExitsWith: .success) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            let chain = TransitionChain(transition: MyState.state0 => MyState.state1)
            machine.addRouteChain(chain) { _ in }
            machine.addChainHandler(chain) { _ in }
            machine.addChainErrorHandler(RouteChain(transitionChain: chain)) { _ in }
        }
    }

    // MARK: `.any` where hasRoute needs a concrete state

    #if DEBUG
        @Test func hasRouteWithAnyAsFromStateStops() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = Machine<MyState, MyEvent>(state: .state0)
                _ = machine.hasRoute(.any => .state1)
            }
            #expect(message(of: result).contains("hasRoute"))
        }

        @Test func hasRouteWithAnyAsToStateStops() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = Machine<MyState, MyEvent>(state: .state0)
                machine.addRoute(.state0 => .any)
                _ = machine.hasRoute(.state0 => .any)
            }
            #expect(message(of: result).contains("hasRoute"))
        }

        @Test func hasRouteForAnEventWithAnyAsFromStateStops() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = Machine<MyState, MyEvent>(state: .state0)
                _ = machine.hasRoute(event: .event0, transition: .any => .state1)
            }
            #expect(message(of: result).contains("hasRoute"))
        }

        @Test func hasRouteForAnEventWithAnyAsToStateStops() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let machine = Machine<MyState, MyEvent>(state: .state0)
                machine.addRoutes(event: .event0, transitions: [.state0 => .any])
                _ = machine.hasRoute(event: .event0, transition: .state0 => .any)
            }
            #expect(message(of: result).contains("hasRoute"))
        }
    #else
        @Test func hasRouteWithAnyAnswersFalseInReleaseBuilds() {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addRoute(.any => .any)
            machine.addRoutes(event: .event0, transitions: [.any => .any])
            #expect(!machine.hasRoute(.any => .state1))
            #expect(!machine.hasRoute(.state0 => .any))
            #expect(!machine.hasRoute(event: .event0, transition: .any => .state1))
            #expect(!machine.hasRoute(event: .event0, transition: .state0 => .any))
        }
    #endif

    @Test func hasRouteWithConcreteStatesDoesNotStop() async {
        await #expect(processExitsWith: .success) {
            let machine = Machine<MyState, MyEvent>(state: .state0)
            machine.addRoutes(event: .event0, transitions: [.any => .any])
            _ = machine.hasRoute(.state0 => .state1)
            _ = machine.hasRoute(event: .event0, transition: .state0 => .state1)
        }
    }
}
