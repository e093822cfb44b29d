import Testing

@testable import Switchyard

// States that only a step names — a route mapping's computed target, the
// target of a state request or of a question — are not kept by a statechart
// once it has left them: a mapping that computes a new state each step must
// not grow the machine's tables (issue 35, item 8). A flat machine never
// gives such a state a code; a statechart gives it one while it is needed
// and hands the code back when the machine is idle and not in that state.

private enum Counter: StateType {
    case idle
    case n(Int)
    case box, inside, other
}

private enum Tick: EventType {
    case tick
    case jump(Int)
    case back, never
}

/// A statechart whose mapping counts up from `.n(k)`, with a compound
/// `box`, conditions that read the state's value, and a log of every step;
/// `pinning` names `.n(0..<pinning)` in entry handlers that do nothing, so
/// that those states keep their codes for the machine's whole life.
private func countingChart(log: Log, pinning: Int = 0) -> Machine<Counter, Tick> {
    Machine<Counter, Tick>(state: .idle) { machine in
        machine.addChildren([.inside, .other], to: .box)
        machine.addRouteMapping { event, from, _ in
            switch (event, from) {
            case (.tick?, .idle): .n(0)
            case (.tick?, .n(let k)): .n(k + 1)
            case (.jump(let k)?, _): .n(k)
            default: nil
            }
        }
        machine.addRoutes(event: .back, transitions: [.any => .idle])
        // An exact event beats the mapping, where the state's value allows.
        machine.addRoutes(
            event: .tick, transitions: [.any => .box],
            condition: { context in
                if case .n(let k) = context.fromState { k % 7 == 6 } else { false }
            })
        machine.addRoutes(event: .tick, transitions: [.inside => .other, .other => .idle])
        machine.addRoute(
            .any => .any,
            condition: { context in
                if case .n(let k) = context.toState { k % 3 != 2 } else { true }
            })
        for k in 0..<pinning {
            machine.addEntryHandler(.n(k)) { _ in }
        }
        machine.addAnyHandler(.any => .any) { context in
            log("\(context.event.map { "\($0)" } ?? "state"): \(context.fromState) => \(context.toState)")
        }
        machine.addEntryHandler(.box) { _ in log("enter box") }
        machine.addExitHandler(.box) { _ in log("exit box") }
        machine.addErrorHandler { context in log("refused \(context.toState)") }
    }
}

@Suite struct ComputedStateTests {
    @Test func aMappingThatCountsUpDoesNotGrowTheStatechartsTables() {
        let machine = countingChart(log: Log())
        let named = machine.routes.storage.states.count
        for index in 1...5_000 {
            machine <-! .jump(100 + 3 * index)
            _ = machine.canTryState(.n(-index))
            machine <- .n(1_000_000 + 3 * index)
        }
        // A few codes are in use at once (the state a step leaves, the one
        // it enters, a question's); none of the 15,000 states named since is kept.
        #expect(machine.routes.storage.states.count <= named + 3)
        // The machine still names where it is.
        machine <-! .jump(40)
        #expect(machine.state == .n(40))
        #expect(machine.configuration == [.n(40)])
        machine <-! .tick
        #expect(machine.state == .n(41))
    }

    @Test func aStateNamedLaterKeepsItsCode() {
        let log = Log()
        let machine = countingChart(log: log)
        machine <-! .jump(5)
        machine <-! .back
        // Declared after a step named it: its route must be kept.
        machine.addRoutes(event: .never, transitions: [.n(5) => .box])
        machine <-! .jump(6)
        machine <-! .jump(5)
        #expect(machine.tryEvent(.never))
        #expect(machine.state == .inside)
    }

    @Test func aSnapshotOfAComputedStateRestoresAfterTheMachineLeftIt() throws {
        let log = Log()
        let machine = countingChart(log: log)
        machine <-! .jump(4)
        let snapshot = machine.snapshot()
        machine <-! .tick
        machine <-! .jump(10)
        try machine.restore(snapshot)
        #expect(machine.state == .n(4))
        #expect(machine.configuration == [.n(4)])
        machine <-! .tick
        #expect(machine.state == .n(5))
        let fresh = countingChart(log: Log())
        try fresh.restore(snapshot)
        #expect(fresh.state == .n(4))
        // Without a mapping that could compute it, a state nothing names is unknown.
        let plain = Machine<Counter, Tick>(state: .idle) { $0.addChildren([.inside, .other], to: .box) }
        let error = try #require(throws: SnapshotError.self) { try plain.restore(snapshot) }
        #expect(error.reason == .unknownState)
    }

    @Test func anEffectMachineOverAStatechartHandsCodesBackToo() throws {
        let definition = Definition<Counter, Tick, String>(initialState: .idle) {
            From(.idle) { On(.tick, transitionTo: .n(0), emit: "start") }
            From(.box) {
                From(.inside) { On(.tick, transitionTo: .other, emit: "in") }
                From(.other) {}
            }
            From(Counter.n) {
                On(.tick, emit: "up") { state, _ in
                    if case .n(let k) = state { .n(k + 1) } else { nil }
                }
            }
        }
        let machine = EffectMachine(definition)
        try machine.transition(.tick)
        let named = machine.machine.routes.storage.states.count
        for _ in 0..<2_000 {
            #expect(try machine.transition(.tick).effects == ["up"])
        }
        #expect(machine.state == .n(2_000))
        #expect(machine.machine.routes.storage.states.count <= named + 2)
    }

    /// The same requests, to a chart whose computed states come and go and
    /// to one that names them all, must give the same log, state and answers.
    @Test(arguments: 0..<120)
    func handingCodesBackChangesNothingAUserSees(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let (computedLog, pinnedLog) = (Log(), Log())
        let computed = countingChart(log: computedLog)
        let pinned = countingChart(log: pinnedLog, pinning: 40)
        for step in 0..<200 {
            let k = random.int(in: 0...39)
            let answers: [String]
            let kind = random.int(in: 0...6)
            let before = computed.state
            switch kind {
            case 0, 1: answers = [computed, pinned].map { "\($0.tryEvent(.tick))" }
            case 2: answers = [computed, pinned].map { "\($0.tryEvent(.jump(k)))" }
            case 3: answers = [computed, pinned].map { "\($0.tryEvent(.back))" }
            case 4: answers = [computed, pinned].map { "\($0.tryState(.n(k)))" }
            case 5: answers = [computed, pinned].map { "\(String(describing: $0.canTryEvent(.jump(k))))" }
            default: answers = [computed, pinned].map { "\($0.canTryState(.n(k)))" }
            }
            #expect(answers[0] == answers[1], "seed \(seed), step \(step): request \(kind), \(k) from \(before)")
            #expect(computed.state == pinned.state, "seed \(seed), step \(step)")
            #expect(computed.configuration == pinned.configuration, "seed \(seed), step \(step)")
            if computedLog.lines != pinnedLog.lines {
                Issue.record(
                    "seed \(seed), step \(step): \(computedLog.lines.suffix(3)) ≠ \(pinnedLog.lines.suffix(3))")
                return
            }
        }
    }
}
