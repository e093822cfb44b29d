import Foundation
import Switchyard
import Testing

// The pure function against the effect machine on random definitions with
// nested states, final states (nested and top-level), `OnDone` and `Always`
// clauses (guards drawn from a fixed table, some reading the machine's
// state), entry and exit effects, clauses from `.any`, and computed targets
// (one of them outside the definition): from every state but a top-level
// final one (a compound state as a machine started in it, with its initial
// descendants active), on every event, both must give the same next state, the same
// effects in the same order (the event's step, then each done or eventless
// step, then a finish's exits), or the same refusal, `unsettled` included.
// A failure names its seed.
//
// Replay one seed, printing the definition:
//     SWITCHYARD_DSL_MACROSTEP_SEED=<seed> swift test --filter MacrostepDefinitionEquivalenceTests
// Try many more seeds than the fixed ones:
//     SWITCHYARD_MODEL_SEEDS=5000 swift test --filter MacrostepDefinitionEquivalenceTests

/// A state of a random definition.
private struct Spot: StateType, CustomStringConvertible {
    var id: Int
    var description: String { "s\(id)" }
}

/// An event of a random definition.
private struct Nudge: EventType, CustomStringConvertible {
    var id: Int
    var description: String { "n\(id)" }
}

/// The guards a clause may have, by index: some hold always or never, some
/// read the state the machine is in when the clause is asked.
private let guardTable: [(name: String, allows: @Sendable (Spot) -> Bool)] = [
    ("true", { _ in true }),
    ("false", { _ in false }),
    ("even", { $0.id.isMultiple(of: 2) }),
    ("not 3k", { !$0.id.isMultiple(of: 3) }),
    ("below 3", { $0.id < 3 }),
]

/// Where a computed clause goes, by the state it is asked in: `nil` refuses.
private func computedTarget(from spot: Spot, stateCount: Int) -> Spot? {
    switch spot.id % 4 {
    case 0: nil
    case 1: Spot(id: stateCount)  // a state the definition does not name
    default: Spot(id: (spot.id + 1) % stateCount)
    }
}

private struct EventClause: CustomStringConvertible {
    enum Target {
        case state(Int)
        case stay
        case computed
    }

    /// `nil` for `.any`.
    var source: Int?
    var event: Int
    var target: Target
    var guardIndex: Int?
    var index: Int

    var description: String {
        let target =
            switch self.target {
            case .state(let id): "s\(id)"
            case .stay: "stay"
            case .computed: "computed"
            }
        return "#\(index) \(source.map { "s\($0)" } ?? ".any") on n\(event) -> \(target)"
            + (guardIndex.map { " guard \(guardTable[$0].name)" } ?? "")
    }
}

private struct CompletionClause: CustomStringConvertible {
    var isDone: Bool
    /// `nil` for `.any` (eventless clauses only).
    var source: Int?
    var target: Int
    var guardIndex: Int?
    var index: Int

    var description: String {
        "#\(index) \(isDone ? "done" : "always") \(source.map { "s\($0)" } ?? ".any") -> s\(target)"
            + (guardIndex.map { " guard \(guardTable[$0].name)" } ?? "")
    }
}

private struct RandomMacrostepDefinition: CustomStringConvertible {
    /// Each state's parent; `nil` for a top-level state.
    var parents: [Int?]
    var finals: Set<Int>
    var eventCount: Int
    var clauses: [EventClause]
    var completions: [CompletionClause]
    var entering: Set<Int>
    var exiting: Set<Int>

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let stateCount = random.int(in: 3...9)
        parents = [nil]
        for id in 1..<stateCount {
            parents.append(random.chance(percent: 60) ? random.int(in: 0...(id - 1)) : nil)
        }
        let parents = parents
        let leaves = (0..<stateCount).filter { id in !parents.contains(id) }
        finals = Set(leaves.filter { _ in random.chance(percent: 35) })
        let finals = finals
        let ordinary = (0..<stateCount).filter { !finals.contains($0) }
        let compounds = (0..<stateCount).filter { parents.contains($0) }
        eventCount = random.int(in: 1...3)
        func drawGuard(percent: Int) -> Int? {
            random.chance(percent: percent) ? random.int(in: 0...(guardTable.count - 1)) : nil
        }
        clauses = []
        for index in 0..<random.int(in: 1...10) {
            let source = random.chance(percent: 85) && !ordinary.isEmpty ? random.element(of: ordinary) : nil
            let target: EventClause.Target =
                switch random.int(in: 0...9) {
                case 0: .stay
                case 1: .computed
                default: .state(random.int(in: 0...(stateCount - 1)))
                }
            clauses.append(
                EventClause(
                    source: source, event: random.int(in: 0...(eventCount - 1)), target: target,
                    guardIndex: drawGuard(percent: 25), index: index))
        }
        completions = []
        for index in 0..<random.int(in: 1...4) {
            let isDone = !compounds.isEmpty && random.chance(percent: 50)
            let source: Int? =
                isDone
                ? random.element(of: compounds)
                : (random.chance(percent: 85) && !ordinary.isEmpty ? random.element(of: ordinary) : nil)
            let target = random.int(in: 0...(stateCount - 1))
            var guardIndex = drawGuard(percent: isDone ? 40 : 70)
            if !isDone, guardIndex == nil, source.map({ Self.isWithin(target, $0, parents: parents) }) ?? true {
                // Taken forever without a guard: the definition would stop.
                guardIndex = random.int(in: 0...(guardTable.count - 1))
            }
            completions.append(
                CompletionClause(
                    isDone: isDone, source: source, target: target, guardIndex: guardIndex,
                    index: clauses.count + index))
        }
        entering = Set((0..<stateCount).filter { _ in random.chance(percent: 40) })
        exiting = Set((0..<stateCount).filter { _ in random.chance(percent: 40) })
    }

    static func isWithin(_ state: Int, _ ancestor: Int, parents: [Int?]) -> Bool {
        var current: Int? = state
        while let id = current {
            if id == ancestor { return true }
            current = parents[id]
        }
        return false
    }

    /// Every state, compound ones included: a machine started in one rests
    /// in its initial atomic descendant.
    var spots: [Spot] { parents.indices.map(Spot.init) }
    var nudges: [Nudge] { (0..<eventCount).map(Nudge.init) }

    func isTopLevelFinal(_ spot: Spot) -> Bool {
        finals.contains(spot.id) && parents[spot.id] == nil
    }

    func children(of id: Int) -> [Int] {
        parents.indices.filter { parents[$0] == id }
    }

    func definition(initialState: Spot) -> Definition<Spot, Nudge, String> {
        Definition(initialState: initialState) {
            for id in parents.indices where parents[id] == nil {
                if finals.contains(id) {
                    final(id)
                } else {
                    group(id)
                }
            }
            From(.any) {
                for clause in clauses where clause.source == nil {
                    on(clause)
                }
                for clause in completions where clause.source == nil {
                    always(clause)
                }
            }
        }
    }

    /// The `Final` of `id`, with its effects.
    private func final(_ id: Int) -> Final<Spot, Nudge, String> {
        Final(Spot(id: id)) {
            if entering.contains(id) {
                OnEntry(emit: "enter s\(id)")
            }
            if exiting.contains(id) {
                OnExit(emit: "exit s\(id)")
            }
        }
    }

    /// The `From` of `id`: its clauses, its effects, and its children inside it.
    private func group(_ id: Int) -> From<Spot, Nudge, String, Spot> {
        From(Spot(id: id)) {
            if entering.contains(id) {
                OnEntry(emit: "enter s\(id)")
            }
            if exiting.contains(id) {
                OnExit(emit: "exit s\(id)")
            }
            for clause in clauses where clause.source == id {
                on(clause)
            }
            for clause in completions where clause.source == id {
                if clause.isDone {
                    done(clause)
                } else {
                    always(clause)
                }
            }
            for child in children(of: id) {
                if finals.contains(child) {
                    final(child)
                } else {
                    group(child)
                }
            }
        }
    }

    private func on(_ clause: EventClause) -> On<Spot, Nudge, String, Spot> {
        let event = Nudge(id: clause.event)
        let stateCount = parents.count
        let effect = "#\(clause.index)"
        var on: On<Spot, Nudge, String, Spot> =
            switch clause.target {
            case .state(let target): On(event, transitionTo: Spot(id: target), emit: effect)
            case .stay: On(event, stayAndEmit: effect)
            case .computed:
                On(event, emit: effect) { spot, _ in computedTarget(from: spot, stateCount: stateCount) }
            }
        if let guardIndex = clause.guardIndex {
            on = on.guard { spot, _ in guardTable[guardIndex].allows(spot) }
        }
        return on
    }

    private func done(_ clause: CompletionClause) -> OnDone<Spot, String> {
        let done = OnDone<Spot, String>(transitionTo: Spot(id: clause.target), emit: "#\(clause.index)")
        guard let guardIndex = clause.guardIndex else { return done }
        return done.guard { spot in guardTable[guardIndex].allows(spot) }
    }

    private func always(_ clause: CompletionClause) -> Always<Spot, String> {
        let always = Always<Spot, String>(transitionTo: Spot(id: clause.target), emit: "#\(clause.index)")
        guard let guardIndex = clause.guardIndex else { return always }
        return always.guard { spot in guardTable[guardIndex].allows(spot) }
    }

    var description: String {
        let tree = parents.enumerated().map {
            "s\($0.offset)\(finals.contains($0.offset) ? "*" : "") ⊂ \($0.element.map { "s\($0)" } ?? "root")"
        }
        return "tree: \(tree.joined(separator: ", ")); entry: \(entering.sorted()), exit: \(exiting.sorted())\n  "
            + (clauses.map(\.description) + completions.map(\.description)).joined(separator: "\n  ")
    }
}

private func checkMacrostepEquivalence(seed: UInt64, printsDefinition: Bool = false) {
    let random = RandomMacrostepDefinition(seed: seed)
    if printsDefinition {
        print("seed \(seed): \(random)")
    }
    let location = "seed \(seed) (replay: SWITCHYARD_DSL_MACROSTEP_SEED=\(seed)); \(random)"
    let definition = random.definition(initialState: Spot(id: 0))
    for spot in random.spots {
        for nudge in random.nudges {
            let pure = definition.attemptTransition(from: spot, on: nudge)
            let context = "\(spot) on \(nudge), \(location)"
            guard !random.isTopLevelFinal(spot) else {
                // A machine in it has finished.
                #expect(pure.failureReason == .finished, "finished, \(context)")
                continue
            }
            let moved = EffectMachine(definition.starting(in: spot)).attemptTransition(nudge)
            expectSameAnswer(machine: moved, pure: pure, context)
        }
    }
}

private let seedFromEnvironment = environmentSeed("SWITCHYARD_DSL_MACROSTEP_SEED")
private let seedCountFromEnvironment = environmentSeed("SWITCHYARD_MODEL_SEEDS")

@Suite struct MacrostepDefinitionEquivalenceTests {
    @Test(arguments: Array(UInt64(1)...300))
    func thePureFunctionAndTheEffectMachineAgreeOnDoneAndEventlessClauses(seed: UInt64) {
        checkMacrostepEquivalence(seed: seed)
    }

    @Test(.enabled(if: seedFromEnvironment != nil, "set SWITCHYARD_DSL_MACROSTEP_SEED to replay one seed"))
    func theSeedInTheEnvironment() throws {
        checkMacrostepEquivalence(seed: try #require(seedFromEnvironment), printsDefinition: true)
    }

    @Test(.enabled(if: seedCountFromEnvironment != nil, "set SWITCHYARD_MODEL_SEEDS to try many seeds"))
    func manySeeds() throws {
        let count = try #require(seedCountFromEnvironment)
        for seed in 1_000..<(1_000 + count) {
            checkMacrostepEquivalence(seed: seed)
        }
    }
}
