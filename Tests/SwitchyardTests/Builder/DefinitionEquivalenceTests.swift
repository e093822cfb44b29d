import Foundation
import Switchyard
import Testing

// Equivalence: a random list of clauses, written once with the DSL and once
// as the same routes with the operator API, must make the same decision for
// every state × event; the DSL's effect machine and its pure function must
// agree with each other on the effects too. A failure names its seed.
//
// Replay one seed: SWITCHYARD_DSL_SEED=<seed> swift test --filter DefinitionEquivalenceTests

/// A state of a random definition.
private struct Spot: StateType, CustomStringConvertible {
    var id: Int
    var description: String { "s\(id)" }
}

/// An event of a random definition.
private struct Signal: EventType, CustomStringConvertible {
    var id: Int
    var description: String { "e\(id)" }
}

/// One clause, as both styles write it.
private struct ClauseSpec: CustomStringConvertible {
    /// `nil` for `.any`.
    var source: Int?
    /// `nil` for `.any`.
    var event: Int?
    /// `nil` to stay.
    var target: Int?
    /// `nil` for none; else the guard allows when `(state * 3 + event + guardKey) % 3 != 0`.
    var guardKey: Int?
    var isDisabled: Bool
    var index: Int

    func allows(_ state: Spot, _ event: Signal) -> Bool {
        guard let guardKey else { return true }
        return (state.id * 3 + event.id + guardKey) % 3 != 0
    }

    var description: String {
        let source = self.source.map { "s\($0)" } ?? ".any"
        let event = self.event.map { "e\($0)" } ?? ".any"
        let target = self.target.map { "s\($0)" } ?? "stay"
        let guardText = guardKey.map { " guard \($0)" } ?? ""
        return "#\(index) \(source) on \(event) -> \(target)\(guardText)\(isDisabled ? " disabled" : "")"
    }
}

/// A random definition: its states, events and clauses, drawn from a seed.
private struct RandomDefinition {
    var stateCount: Int
    var eventCount: Int
    var clauses: [ClauseSpec]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        stateCount = random.int(in: 2...6)
        eventCount = random.int(in: 1...4)
        clauses = []
        for index in 0..<random.int(in: 0...16) {
            clauses.append(
                ClauseSpec(
                    source: random.chance(percent: 80) ? random.int(in: 0...(stateCount - 1)) : nil,
                    event: random.chance(percent: 80) ? random.int(in: 0...(eventCount - 1)) : nil,
                    target: random.chance(percent: 75) ? random.int(in: 0...(stateCount - 1)) : nil,
                    guardKey: random.chance(percent: 30) ? random.int(in: 0...2) : nil,
                    isDisabled: random.chance(percent: 10),
                    index: index))
        }
    }

    var states: [Spot] { (0..<stateCount).map(Spot.init) }
    var events: [Signal] { (0..<eventCount).map(Signal.init) }

    /// The clauses in the DSL; each emits its index.
    func definition(initialState: Spot) -> Definition<Spot, Signal, Int> {
        Definition(initialState: initialState) {
            for clause in clauses {
                From(clause.source.map { .some(Spot(id: $0)) } ?? .any) {
                    on(clause)
                }
            }
        }
    }

    private func on(_ clause: ClauseSpec) -> On<Spot, Signal, Int, Spot> {
        let event: Event<Signal> = clause.event.map { .some(Signal(id: $0)) } ?? .any
        var on: On<Spot, Signal, Int, Spot> =
            if let target = clause.target {
                On(event, transitionTo: Spot(id: target), emit: clause.index)
            } else {
                On(event, stayAndEmit: clause.index)
            }
        if clause.guardKey != nil {
            on = on.guard { state, event in clause.allows(state, event) }
        }
        if clause.isDisabled {
            on = on.disable { true }
        }
        return on
    }

    /// The same clauses as routes written with the operator API.
    func operatorMachine(initialState: Spot) -> Machine<Spot, Signal> {
        Machine(state: initialState) { machine in
            for clause in clauses {
                let from: State<Spot> = clause.source.map { .some(Spot(id: $0)) } ?? .any
                let to: State<Spot> = clause.target.map { .some(Spot(id: $0)) } ?? .any
                let event: Event<Signal> = clause.event.map { .some(Signal(id: $0)) } ?? .any
                if clause.guardKey == nil, !clause.isDisabled {
                    machine.addRoutes(event: event, transitions: [from => to])
                } else {
                    machine.addRoutes(event: event, transitions: [from => to]) { context in
                        !clause.isDisabled && context.event.map { clause.allows(context.fromState, $0) } == true
                    }
                }
            }
        }
    }
}

/// Checks one random definition; names the seed in every issue.
private func checkEquivalence(seed: UInt64, printsClauses: Bool = false) {
    let random = RandomDefinition(seed: seed)
    let written = random.clauses.map(\.description).joined(separator: "\n  ")
    if printsClauses {
        print("seed \(seed):\n  \(written)")
    }
    let location = "seed \(seed) (replay: SWITCHYARD_DSL_SEED=\(seed)); clauses:\n  \(written)"
    for state in random.states {
        for event in random.events {
            let definition = random.definition(initialState: state)
            let operators = random.operatorMachine(initialState: state)
            let dsl = definition.makeMachine(delivery: .immediate)
            let effects = EffectMachine(definition)

            let expected = operators.attemptEvent(event)
            let plain = dsl.attemptEvent(event)
            let pure = definition.attemptTransition(from: state, on: event)
            let effected = effects.attemptTransition(event)
            let context = "\(state) on \(event), \(location)"

            #expect((try? plain.get()) == (try? expected.get()), "plain machine, \(context)")
            #expect(plain.failureReason == expected.failureReason, "plain machine's reason, \(context)")
            #expect(dsl.state == operators.state, "plain machine's state, \(context)")
            #expect((try? pure.get().toState) == (try? expected.get()), "pure function, \(context)")
            #expect(pure.failureReason == expected.failureReason, "pure function's reason, \(context)")
            #expect((try? effected.get().toState) == (try? expected.get()), "effect machine, \(context)")
            #expect(effected.failureReason == expected.failureReason, "effect machine's reason, \(context)")
            #expect(effects.state == operators.state, "effect machine's state, \(context)")
            #expect((try? effected.get().effects) == (try? pure.get().effects), "effects, \(context)")
            if case .success(let outcome) = pure {
                // One clause answered: it emits its index, and is the first
                // one the operator API's precedence would take.
                #expect(outcome.effects.count == 1, "one clause's effects, \(context)")
            }
        }
    }
}

private let seedFromEnvironment = ProcessInfo.processInfo.environment["SWITCHYARD_DSL_SEED"].flatMap { UInt64($0) }

@Suite struct DefinitionEquivalenceTests {
    @Test(arguments: Array(UInt64(1)...200))
    func theDSLAndTheOperatorAPIDecideAlike(seed: UInt64) {
        checkEquivalence(seed: seed)
    }

    @Test(.enabled(if: seedFromEnvironment != nil, "set SWITCHYARD_DSL_SEED to replay one seed"))
    func theSeedInTheEnvironment() throws {
        checkEquivalence(seed: try #require(seedFromEnvironment), printsClauses: true)
    }
}
