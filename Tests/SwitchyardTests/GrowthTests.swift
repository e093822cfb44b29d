import Switchyard
import Testing

// Operations an app repeats n times must cost O(n) in all (SPEC section 4).
// Each test times n and 8n repetitions: linear work takes about 8 times as
// long, quadratic work 64 times. The bound, 24, leaves room for cache effects
// and still catches quadratic growth.
//
// The timings are the CPU time of the test's own thread, not the wall clock:
// Swift Testing runs other tests in parallel, and on a loaded machine the wall
// clock also counts the time this thread waited for a core (a CI run measured a
// linear operation at 34 that way). Each size is timed five times, the two
// sizes alternating so that a slow moment hurts both, and the best of each is
// kept (`growth(size:factor:prepare:_:)`, in TestSupport.swift). Test paths
// have their own in Tools/TestPathGrowthTests.swift.

private typealias GrowthMachine = Machine<Numbered, MyEvent>

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

/// A ring of `count` states, `event0` going from each to the next.
private func ringDescription(_ count: Int) -> MachineDescription<Numbered, MyEvent> {
    Machine<Numbered, MyEvent>(state: Numbered(number: 0)) { machine in
        for index in 0..<count {
            machine.addRoutes(
                event: .event0, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
        }
    }
    .describe()
}

@Suite struct GrowthTests {
    static let bound = 24.0

    @Test func addingRoutesOneCallAtATimeIsLinear() {
        let ratio = growth(size: 8_000, prepare: { _ in () }) { count, _ in
            let machine = GrowthMachine(state: Numbered(number: 0))
            for index in 0..<count {
                machine.addRoutes(event: .event0, transitions: [Numbered(number: index) => Numbered(number: index + 1)])
            }
            #expect(machine.tryEvent(.event0))
        }
        #expect(ratio < Self.bound, "8 times as many addRoutes calls took \(ratio) times as long")
    }

    @Test func addingStateRoutesOneCallAtATimeIsLinear() {
        let ratio = growth(size: 8_000, prepare: { _ in () }) { count, _ in
            let machine = GrowthMachine(state: Numbered(number: 0))
            for index in 0..<count {
                machine.addRoute(Numbered(number: index) => Numbered(number: index + 1))
            }
            #expect(machine.tryState(Numbered(number: 1)))
        }
        #expect(ratio < Self.bound, "8 times as many addRoute calls took \(ratio) times as long")
    }

    @Test func disposingHandlersOfOneEventOneByOneIsLinear() {
        let ratio = growth(size: 2_000) { count in
            let machine = GrowthMachine(state: Numbered(number: 0))
            return (machine, (0..<count).map { _ in machine.addHandler(event: .event0) { _ in } })
        } _: { _, prepared in
            let (_, disposables) = prepared as! (GrowthMachine, [Disposable])
            for disposable in disposables {
                disposable.dispose()
            }
        }
        #expect(ratio < Self.bound, "disposing 8 times as many handlers took \(ratio) times as long")
    }

    @Test func disposingAnEffectMachinesObserversOneByOneIsLinear() {
        typealias Effects = EffectMachine<Numbered, MyEvent, Int>
        let ratio = growth(size: 2_000) { count in
            let machine = Effects(Definition(initialState: Numbered(number: 0)) {})
            return (machine, (0..<count).map { _ in machine.onTransition { _ in } })
        } _: { _, prepared in
            let (machine, disposables) = prepared as! (Effects, [Disposable])
            // The first observers first: a list searched from its start for each one is quadratic.
            for disposable in disposables.reversed() {
                disposable.dispose()
            }
            #expect(machine.attemptTransition(.event0).failureReason == .noRoute)
        }
        #expect(ratio < Self.bound, "disposing 8 times as many observers took \(ratio) times as long")
    }

    @Test func disposingRoutesOfOneEventAndStateOneByOneIsLinear() {
        let ratio = growth(size: 2_000) { count in
            let machine = GrowthMachine(state: Numbered(number: 0))
            let route = Numbered(number: 0) => Numbered(number: 1)
            let disposables = (0..<count).map { _ in machine.addRoutes(event: .event0, transitions: [route]) }
            return (machine, disposables)
        } _: { _, prepared in
            let (machine, disposables) = prepared as! (GrowthMachine, [Disposable])
            for disposable in disposables {
                disposable.dispose()
            }
            #expect(!machine.tryEvent(.event0))
        }
        #expect(ratio < Self.bound, "disposing 8 times as many routes took \(ratio) times as long")
    }

    @Test func disposingRouteMappingsOneByOneIsLinear() {
        let ratio = growth(size: 2_000) { count in
            let machine = GrowthMachine(state: Numbered(number: 0))
            let mappings = (0..<count).map { _ in machine.addRouteMapping { _, _, _ in nil } }
            let stateMappings = (0..<count).map { _ in machine.addStateRouteMapping { _, _ in nil } }
            return (machine, mappings + stateMappings)
        } _: { _, prepared in
            let (_, disposables) = prepared as! (GrowthMachine, [Disposable])
            for disposable in disposables {
                disposable.dispose()
            }
        }
        #expect(ratio < Self.bound, "disposing 8 times as many mappings took \(ratio) times as long")
    }

    @Test func declaringStartingAndSteppingThroughADeepChainIsAtMostQuadraticInItsDepth() {
        // A chain twice as deep: 2 times as long if linear, 4 if quadratic
        // (a step into the deepest state still looks for each ancestor among
        // those it enters), 8 if cubic, as it was when every declaration
        // entered the whole chain again.
        let ratio = growth(size: 200, factor: 2, prepare: { _ in () }) { depth, _ in
            let chain = Machine<Numbered, MyEvent>(state: Numbered(number: 0))
            for level in 0..<depth {
                chain.addChildren([Numbered(number: level + 1)], to: Numbered(number: level))
            }
            chain.addRoutes(event: .event0, transitions: [Numbered(number: depth) => Numbered(number: -1)])
            chain.addRoutes(event: .event1, transitions: [Numbered(number: -1) => Numbered(number: depth)])
            chain.start()
            #expect(chain.tryEvent(.event0))
            #expect(chain.tryEvent(.event1))
            #expect(chain.configuration.count == depth + 1)
        }
        #expect(ratio < 6, "a chain twice as deep took \(ratio) times as long")
    }

    @Test func steppingAStatechartThroughComputedStatesIsLinear() {
        let ratio = growth(size: 1_000, prepare: { _ in () }) { count, _ in
            let chart = Machine<Numbered, MyEvent>(state: Numbered(number: 0)) { chart in
                chart.addChildren([Numbered(number: -2), Numbered(number: -3)], to: Numbered(number: -1))
                chart.addRouteMapping { event, from, _ in event == .event0 ? Numbered(number: from.number + 1) : nil }
            }
            for _ in 0..<count {
                chart <-! .event0
            }
            #expect(chart.state == Numbered(number: count))
        }
        #expect(ratio < Self.bound, "8 times as many steps to computed states took \(ratio) times as long")
    }

    @Test func searchingTestPathsRoundARingIsLinear() {
        // One path covers a ring, so the search behind it is all this times.
        let ratio = growth(size: 1_000, prepare: ringDescription) { count, prepared in
            let covering = (prepared as! MachineDescription<Numbered, MyEvent>).routeCoveringPaths(maxLength: count)
            #expect(covering.paths.map(\.steps.count) == [count])
        }
        #expect(ratio < Self.bound, "a ring 8 times as large took \(ratio) times as long")
    }

    @Test func disposingInTheOrderOfRegistrationOrTheReverseKeepsTheRestInOrder() {
        let log = Log()
        let machine = GrowthMachine(state: Numbered(number: 0))
        machine.addRoutes(event: .event0, transitions: [.any => .any])
        let disposables = (0..<10).map { index in machine.addHandler(event: .event0) { _ in log("\(index)") } }
        for index in [0, 9, 4, 5] {
            disposables[index].dispose()
        }
        machine <-! .event0
        #expect(log.lines == ["1", "2", "3", "6", "7", "8"])
    }
}
