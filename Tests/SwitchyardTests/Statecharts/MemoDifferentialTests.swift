import Foundation
import Testing

@testable import Switchyard

// A statechart remembers steps, choices and default entries (`StepMemo`,
// `ChoiceMemo`, `DefaultEntries`); what it remembers must never change what it
// does. Each random chart of the model tests is declared twice, on a machine
// that remembers and on one that does not (`Statechart.remembers`), and both
// are driven by the same requests while the same changes are made to both
// between requests: event routes added (some guarded by a flag) and disposed,
// the flag flipped, entry and exit handlers added and disposed, and children,
// final states and history declared on inactive states. After each request
// both must have answered the same, be in the same configuration and have
// logged the same calls. A failure names its seed and step.
//
// Replay one seed, printing every step:
//     SWITCHYARD_MEMO_SEED=17 swift test --filter MemoDifferentialTests
// Try many more seeds than the fixed ones:
//     SWITCHYARD_MEMO_SEEDS=5000 swift test --filter MemoDifferentialTests

@Suite struct MemoDifferentialTests {
    static let fixedSeeds: [UInt64] = Array(1...200)

    @Test(arguments: fixedSeeds)
    func aChartDoesTheSameWithAndWithoutItsMemosWhileItChanges(seed: UInt64) {
        MemoDifferential(seed: seed).run()
    }

    @Test(.enabled(if: memoSeedFromEnvironment != nil, "set SWITCHYARD_MEMO_SEED to replay one seed"))
    func aChartDoesTheSameWithAndWithoutItsMemosForTheSeedInTheEnvironment() throws {
        let seed = try #require(memoSeedFromEnvironment)
        MemoDifferential(seed: seed, printsSteps: true).run()
    }

    @Test(.enabled(if: memoSeedCountFromEnvironment != nil, "set SWITCHYARD_MEMO_SEEDS to try many seeds"))
    func aChartDoesTheSameWithAndWithoutItsMemosForManySeeds() throws {
        let count = try #require(memoSeedCountFromEnvironment)
        for seed in 1_000..<(1_000 + count) {
            MemoDifferential(seed: seed).run()
        }
    }

    /// The pair is no pair if the memos are never used: on the charts of
    /// the fixed seeds, the machines that remember keep steps, choices and
    /// default entries, and the others hold none.
    @Test func theMachinesThatRememberKeepStepsChoicesAndEntriesAndTheOthersNothing() throws {
        var seedsKeeping = (steps: 0, choices: 0, entries: 0)
        for seed in Self.fixedSeeds.prefix(48) {
            let remembering = MemoDifferential.Side(seed: seed, remembers: true)
            let forgetting = MemoDifferential.Side(seed: seed, remembers: false)
            for side in [remembering, forgetting] {
                side.machine.start()
                for event in side.events {
                    _ = side.machine.attemptEvent(ModelEvent(id: event))
                }
            }
            let remembered = try #require(remembering.machine.chart, "seed \(seed)")
            let forgotten = try #require(forgetting.machine.chart, "seed \(seed)")
            seedsKeeping.steps += remembered.stepMemo.entries.length > 0 ? 1 : 0
            seedsKeeping.choices += remembered.choiceMemo.entries.length > 0 ? 1 : 0
            seedsKeeping.entries += remembered.defaultEntries.codes.isEmpty ? 0 : 1
            #expect(forgotten.stepMemo.entries.length == 0, "seed \(seed)")
            #expect(forgotten.choiceMemo.entries.length == 0, "seed \(seed)")
            #expect(forgotten.defaultEntries.codes.isEmpty, "seed \(seed)")
        }
        #expect(seedsKeeping.steps >= 12, "\(seedsKeeping)")
        #expect(seedsKeeping.choices >= 12, "\(seedsKeeping)")
        #expect(seedsKeeping.entries >= 12, "\(seedsKeeping)")
    }
}

private let memoSeedFromEnvironment = ProcessInfo.processInfo.environment["SWITCHYARD_MEMO_SEED"].flatMap {
    UInt64($0)
}
private let memoSeedCountFromEnvironment = ProcessInfo.processInfo.environment["SWITCHYARD_MEMO_SEEDS"].flatMap {
    UInt64($0)
}

/// What a route added between requests asks: one flag for both machines,
/// flipped only between requests.
private final class Flag {
    var isOn = true
}

private struct MemoDifferential {
    let seed: UInt64
    var printsSteps = false

    /// One machine of the pair: what it logs, and what the changes registered on it.
    final class Side {
        let log = Log()
        let machine: Machine<ModelNode, ModelEvent>
        let states: [Int]
        let events: [Int]
        var registrations: [Disposable] = []

        init(seed: UInt64, remembers: Bool) {
            (machine, states, events) = makeModelChart(seed: seed, loggingTo: log)
            machine.chart?.remembers = remembers
        }

        /// What a comparison reads after a request.
        func observation(answer: String) -> String {
            let configuration = machine.configuration.map(\.description).joined(separator: " ")
            return """
                answer: \(answer)
                state: \(machine.state), configuration: [\(configuration)], finished: \(machine.isFinished)
                calls: \(log.lines.joined(separator: "; "))
                """
        }
    }

    /// One change, made to both machines alike.
    enum Change: CustomStringConvertible {
        case addRoute(event: Int, source: Int?, target: Int, guarded: Bool)
        case dispose(Int)
        case flipFlag
        case addLifecycleHandler(state: Int, entering: Bool)
        case addChildren([Int], to: Int, finalLast: Bool)
        case addHistory(HistoryKind, to: Int)

        var description: String {
            switch self {
            case .addRoute(let event, let source, let target, let guarded):
                "add route e\(event): \(source.map(String.init) ?? "any") => \(target)\(guarded ? " if flag" : "")"
            case .dispose(let index): "dispose registration \(index)"
            case .flipFlag: "flip the flag"
            case .addLifecycleHandler(let state, let entering): "add \(entering ? "entry" : "exit") handler of \(state)"
            case .addChildren(let children, let parent, let finalLast):
                "add children \(children) to \(parent)\(finalLast ? ", the last final" : "")"
            case .addHistory(let kind, let state): "add \(kind) history to \(state)"
            }
        }
    }

    func run() {
        let remembering = Side(seed: seed, remembers: true)
        let forgetting = Side(seed: seed, remembers: false)
        // Every model chart has entry handlers, so a chart, whose memos the
        // flag has turned off from the start.
        guard forgetting.machine.chart != nil else {
            Issue.record("seed \(seed): the model chart made no statechart")
            return
        }
        // Not the chart's own draws: those made the chart from `seed`.
        var random = SplitMix64(seed: ~seed)
        let flag = Flag()
        var states = remembering.states
        var nextState = (states.max() ?? 0) + 1
        let eventIDs = Array(Set(remembering.events + [0, 1, 2])).sorted()
        var history: [String] = []
        // States active before the last requests: a step back into one is
        // likely remembered, and stale once the state gains children.
        var recentlyActive: [Int] = []

        let sides = [remembering, forgetting]
        var answers = sides.map { side in side.machine.start() ? "started" : "not started" }
        guard compare(sides, answers: answers, at: "start()", history: history) else { return }

        // The model tests' requests, four times: a configuration and an event met
        // before a change are more likely met again after it.
        for (index, event) in Array(repeating: remembering.events, count: 4).joined().enumerated() {
            if random.chance(percent: 45),
                let change = draw(
                    &random, states: states, eventIDs: eventIDs, upcoming: event, recentlyActive: recentlyActive,
                    next: &nextState, on: remembering)
            {
                history.append(change.description)
                trace(change.description)
                if case .flipFlag = change {
                    flag.isOn.toggle()
                }
                for side in sides {
                    make(change, on: side, flag: flag)
                }
                if case .addChildren(let children, _, _) = change {
                    states += children
                }
            }
            let active = remembering.machine.configuration.map(\.id)
            recentlyActive = Array((active + recentlyActive.filter { !active.contains($0) }).prefix(8))
            let stateRequest = random.chance(percent: 15) ? random.element(of: states) : nil
            let request = stateRequest.map { "tryState(\($0))" } ?? "e\(event)"
            history.append(request)
            answers = sides.map { side in
                side.log.clear()
                let result =
                    if let stateRequest {
                        side.machine.attemptState(ModelNode(id: stateRequest))
                    } else {
                        side.machine.attemptEvent(ModelEvent(id: event))
                    }
                return String(describing: result)
            }
            trace("\(request): \(answers[0])")
            guard compare(sides, answers: answers, at: "step \(index + 1)", history: history) else { return }
        }
    }

    /// A change that may be made now, or `nil` if the one drawn may not;
    /// drawn from what the machine that remembers shows (both show the same,
    /// as the comparison after each request checks).
    private func draw(
        _ random: inout SplitMix64, states: [Int], eventIDs: [Int], upcoming: Int, recentlyActive: [Int],
        next nextState: inout Int, on side: Side
    ) -> Change? {
        let machine = side.machine
        switch random.int(in: 0...9) {
        case 0...2:
            // Mostly routes that the next request may take instead of the
            // one a memo remembers: of its event, from an active atomic state.
            let event = random.chance(percent: 60) ? upcoming : random.element(of: eventIDs)
            let active = machine.configuration.map(\.id).filter { state in
                machine.chart?.tree.kind(of: machine.routes.code(of: ModelNode(id: state))) == .atomic
            }
            let source =
                random.chance(percent: 15)
                ? nil : random.element(of: random.chance(percent: 60) && !active.isEmpty ? active : states)
            return .addRoute(
                event: event, source: source, target: random.element(of: states), guarded: random.chance(percent: 40))
        case 3, 4:
            guard !side.registrations.isEmpty else { return nil }
            return .dispose(random.int(in: 0...(side.registrations.count - 1)))
        case 5:
            return .flipFlag
        case 6:
            return .addLifecycleHandler(state: random.element(of: states), entering: random.chance(percent: 50))
        case 7, 8:
            // Children of an inactive atomic state that is neither final nor
            // a region that must stay one.
            let prefersRecent = random.chance(percent: 60) && !recentlyActive.isEmpty
            let parent = random.element(of: prefersRecent ? recentlyActive : states)
            guard let chart = machine.chart, !machine.isActive(ModelNode(id: parent)) else { return nil }
            let code = machine.routes.code(of: ModelNode(id: parent))
            guard code != .unknown, chart.tree.kind(of: code) == .atomic, !chart.tree.isFinal(code) else { return nil }
            let children = [nextState, nextState + 1]
            nextState += 2
            return .addChildren(children, to: parent, finalLast: random.chance(percent: 30))
        default:
            let state = random.element(of: states)
            guard let chart = machine.chart, !machine.isActive(ModelNode(id: state)) else { return nil }
            let code = machine.routes.code(of: ModelNode(id: state))
            guard code != .unknown, chart.tree.kind(of: code) != .atomic, chart.tree.history(of: code) == nil else {
                return nil
            }
            return .addHistory(random.chance(percent: 50) ? .shallow : .deep, to: state)
        }
    }

    private func make(_ change: Change, on side: Side, flag: Flag) {
        let machine = side.machine
        let log = side.log
        switch change {
        case .addRoute(let event, let source, let target, let guarded):
            let transition: Transition<ModelNode> =
                source.map { ModelNode(id: $0) => ModelNode(id: target) } ?? (.any => ModelNode(id: target))
            side.registrations.append(
                machine.addRoutes(
                    event: ModelEvent(id: event), transitions: [transition],
                    condition: guarded ? { _ in flag.isOn } : nil))
        case .dispose(let index):
            side.registrations[index].dispose()
        case .flipFlag:
            break  // Both sides read the one flag, which `run()` flipped.
        case .addLifecycleHandler(let state, let entering):
            let node = ModelNode(id: state)
            side.registrations.append(
                entering
                    ? machine.addEntryHandler(node) { _ in log("entry' \(state)") }
                    : machine.addExitHandler(node) { _ in log("exit' \(state)") })
        case .addChildren(let children, let parent, let finalLast):
            machine.addChildren(children.map { ModelNode(id: $0) }, to: ModelNode(id: parent))
            if finalLast, let last = children.last {
                machine.addFinalState(ModelNode(id: last))
            }
        case .addHistory(let kind, let state):
            machine.addHistory(kind, to: ModelNode(id: state))
        }
    }

    /// Records an issue naming the seed and `moment` when the two sides
    /// disagree, and returns whether they agree.
    private func compare(_ sides: [Side], answers: [String], at moment: String, history: [String]) -> Bool {
        let remembering = sides[0].observation(answer: answers[0])
        let forgetting = sides[1].observation(answer: answers[1])
        #expect(
            remembering == forgetting,
            """
            seed \(seed), \(moment): the machine that remembers
            \(remembering)
            the machine that does not
            \(forgetting)
            after: \(history.joined(separator: ", "))
            """)
        return remembering == forgetting
    }

    private func trace(_ line: @autoclosure () -> String) {
        if printsSteps { print(line()) }
    }
}
