import Switchyard
import Testing

// Operations an app repeats n times must cost O(n) in all (SPEC section 4).
// Each test times n and 8n repetitions, best of three: linear work takes about
// 8 times as long, quadratic work 64 times. The bound, 24, leaves room for a
// noisy machine and still catches quadratic growth.

private typealias GrowthMachine = Machine<Numbered, MyEvent>

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

/// The best of three timings of `work`, each on fresh input from `prepare`.
private func bestTime<Input>(prepare: () -> Input, _ work: (Input) -> Void) -> Duration {
    var best = Duration.seconds(1_000)
    for _ in 0..<3 {
        let input = prepare()
        let clock = ContinuousClock()
        let start = clock.now
        work(input)
        best = min(best, clock.now - start)
    }
    return best
}

/// How much longer `size * 8` repetitions take than `size`.
private func growth(size: Int, prepare: (Int) -> some Any, _ work: (Int, Any) -> Void) -> Double {
    func time(_ count: Int) -> Duration {
        bestTime(prepare: { prepare(count) as Any }, { work(count, $0) })
    }
    return time(size * 8) / time(size)
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
