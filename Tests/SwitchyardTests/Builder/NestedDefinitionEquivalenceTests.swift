import Foundation
import Switchyard
import Testing

// The pure function against the effect machine on random nested definitions
// (compound states, entry and exit effects, clauses from states at any depth
// and from `.any`): from every state (a compound one as a machine started
// in it, with its initial descendants active), on every event, both must
// give the same next state, the same effects in the same order, or the same
// refusal. A failure names its seed.
//
// Replay one seed, printing the definition:
//     SWITCHYARD_DSL_NESTED_SEED=<seed> swift test --filter NestedDefinitionEquivalenceTests
// Try many more seeds than the fixed ones:
//     SWITCHYARD_MODEL_SEEDS=5000 swift test --filter NestedDefinitionEquivalenceTests

/// A state of a random nested definition.
private struct Room: StateType, CustomStringConvertible {
    var id: Int
    var description: String { "r\(id)" }
}

/// An event of a random nested definition.
private struct Knock: EventType, CustomStringConvertible {
    var id: Int
    var description: String { "k\(id)" }
}

private struct NestedClause: CustomStringConvertible {
    /// `nil` for `.any`.
    var source: Int?
    /// `nil` for `.any`.
    var event: Int?
    /// `nil` to stay.
    var target: Int?
    var isGuarded: Bool
    var index: Int

    func allows(_ room: Room, _ knock: Knock) -> Bool {
        !isGuarded || (room.id + knock.id).isMultiple(of: 2)
    }

    var description: String {
        let source = self.source.map { "r\($0)" } ?? ".any"
        let event = self.event.map { "k\($0)" } ?? ".any"
        let target = self.target.map { "r\($0)" } ?? "stay"
        return "#\(index) \(source) on \(event) -> \(target)\(isGuarded ? " guarded" : "")"
    }
}

private struct RandomNestedDefinition: CustomStringConvertible {
    /// Each state's parent; `nil` for a top-level state.
    var parents: [Int?]
    var eventCount: Int
    var clauses: [NestedClause]
    var entering: Set<Int>
    var exiting: Set<Int>

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let stateCount = random.int(in: 2...8)
        parents = [nil]
        for id in 1..<stateCount {
            parents.append(random.chance(percent: 60) ? random.int(in: 0...(id - 1)) : nil)
        }
        eventCount = random.int(in: 1...3)
        clauses = []
        for index in 0..<random.int(in: 1...12) {
            clauses.append(
                NestedClause(
                    source: random.chance(percent: 85) ? random.int(in: 0...(stateCount - 1)) : nil,
                    event: random.chance(percent: 80) ? random.int(in: 0...(eventCount - 1)) : nil,
                    target: random.chance(percent: 85) ? random.int(in: 0...(stateCount - 1)) : nil,
                    isGuarded: random.chance(percent: 25),
                    index: index))
        }
        entering = Set((0..<stateCount).filter { _ in random.chance(percent: 40) })
        exiting = Set((0..<stateCount).filter { _ in random.chance(percent: 40) })
    }

    var rooms: [Room] { parents.indices.map(Room.init) }
    var knocks: [Knock] { (0..<eventCount).map(Knock.init) }

    func children(of id: Int) -> [Int] {
        parents.indices.filter { parents[$0] == id }
    }

    func definition(initialState: Room) -> Definition<Room, Knock, String> {
        Definition(initialState: initialState) {
            for id in parents.indices where parents[id] == nil {
                group(id)
            }
            From(.any) {
                for clause in clauses where clause.source == nil {
                    on(clause)
                }
            }
        }
    }

    /// The `From` of `id`: its clauses, its effects, and its children inside it.
    private func group(_ id: Int) -> From<Room, Knock, String, Room> {
        From(Room(id: id)) {
            if entering.contains(id) {
                OnEntry(emit: "enter r\(id)")
            }
            if exiting.contains(id) {
                OnExit(emit: "exit r\(id)")
            }
            for clause in clauses where clause.source == id {
                on(clause)
            }
            for child in children(of: id) {
                group(child)
            }
        }
    }

    private func on(_ clause: NestedClause) -> On<Room, Knock, String, Room> {
        let event: Event<Knock> = clause.event.map { .some(Knock(id: $0)) } ?? .any
        var on: On<Room, Knock, String, Room> =
            if let target = clause.target {
                On(event, transitionTo: Room(id: target), emit: "#\(clause.index)")
            } else {
                On(event, stayAndEmit: "#\(clause.index)")
            }
        if clause.isGuarded {
            on = on.guard { room, knock in clause.allows(room, knock) }
        }
        return on
    }

    var description: String {
        let tree = parents.enumerated().map { "r\($0.offset) ⊂ \($0.element.map { "r\($0)" } ?? "root")" }
        return "tree: \(tree.joined(separator: ", ")); entry: \(entering.sorted()), exit: \(exiting.sorted())\n  "
            + clauses.map(\.description).joined(separator: "\n  ")
    }
}

private func checkNestedEquivalence(seed: UInt64, printsDefinition: Bool = false) {
    let random = RandomNestedDefinition(seed: seed)
    if printsDefinition {
        print("seed \(seed): \(random)")
    }
    let location = "seed \(seed) (replay: SWITCHYARD_DSL_NESTED_SEED=\(seed)); \(random)"
    for room in random.rooms {
        for knock in random.knocks {
            let definition = random.definition(initialState: room)
            let machine = EffectMachine(definition)
            let pure = definition.attemptTransition(from: room, on: knock)
            let moved = machine.attemptTransition(knock)
            let context = "\(room) on \(knock), \(location)"
            expectSameAnswer(machine: moved, pure: pure, context)
        }
    }
}

private let seedFromEnvironment = environmentSeed("SWITCHYARD_DSL_NESTED_SEED")
private let seedCountFromEnvironment = environmentSeed("SWITCHYARD_MODEL_SEEDS")

@Suite struct NestedDefinitionEquivalenceTests {
    @Test(arguments: Array(UInt64(1)...200))
    func thePureFunctionAndTheEffectMachineAgreeOnNestedStates(seed: UInt64) {
        checkNestedEquivalence(seed: seed)
    }

    @Test(.enabled(if: seedFromEnvironment != nil, "set SWITCHYARD_DSL_NESTED_SEED to replay one seed"))
    func theSeedInTheEnvironment() throws {
        checkNestedEquivalence(seed: try #require(seedFromEnvironment), printsDefinition: true)
    }

    @Test(.enabled(if: seedCountFromEnvironment != nil, "set SWITCHYARD_MODEL_SEEDS to try many seeds"))
    func manySeeds() throws {
        let count = try #require(seedCountFromEnvironment)
        for seed in 1_000..<(1_000 + count) {
            checkNestedEquivalence(seed: seed)
        }
    }
}
