import Switchyard
import Testing

// Tinder StateMachine's README example, matter changing phase, written with
// the Tinder vocabulary (`EffectMachineBuilder`) as close to the README as
// Swift allows, and with the native DSL; every valid and invalid transition
// through the machine and through the pure function.

/// The README's `MyExample`: the type that conforms to the builder protocol
/// and names the three types.
final class Matter: EffectMachineBuilder {
    enum State: StateType, CaseIterable {
        case solid, liquid, gas
    }

    enum Event: EventType, CaseIterable {
        case melt, freeze, vaporize, condense
    }

    enum SideEffect: Hashable {
        case logMelted, logFrozen, logVaporized, logCondensed
    }

    typealias MatterStateMachine = EffectMachine<State, Event, SideEffect>
    typealias ValidTransition = MatterStateMachine.Transition.Valid
    typealias InvalidTransition = MatterStateMachine.Transition.Invalid

    enum Message {
        static let melted = "I melted"
        static let frozen = "I froze"
        static let vaporized = "I vaporized"
        static let condensed = "I condensed"
    }

    static func matterStateMachine(withInitialState initial: State, logger: Log) -> MatterStateMachine {
        MatterStateMachine {
            initialState(initial)
            state(.solid) {
                on(.melt) {
                    transition(to: .liquid, emit: .logMelted)
                }
            }
            state(.liquid) {
                on(.freeze) {
                    transition(to: .solid, emit: .logFrozen)
                }
                on(.vaporize) {
                    transition(to: .gas, emit: .logVaporized)
                }
            }
            state(.gas) {
                on(.condense) {
                    transition(to: .liquid, emit: .logCondensed)
                }
            }
            onTransition {
                guard case .success(let transition) = $0, let sideEffect = transition.sideEffect else { return }
                switch sideEffect {
                case .logMelted: logger(Message.melted)
                case .logFrozen: logger(Message.frozen)
                case .logVaporized: logger(Message.vaporized)
                case .logCondensed: logger(Message.condensed)
                }
            }
        }
    }
}

/// The same machine in the native DSL.
private func nativeMatter(
    initialState: Matter.State = .solid
) -> Definition<Matter.State, Matter.Event, Matter.SideEffect> {
    Definition(initialState: initialState) {
        From(.solid) {
            On(.melt, transitionTo: .liquid, emit: .logMelted)
        }
        From(.liquid) {
            On(.freeze, transitionTo: .solid, emit: .logFrozen)
            On(.vaporize, transitionTo: .gas, emit: .logVaporized)
        }
        From(.gas) {
            On(.condense, transitionTo: .liquid, emit: .logCondensed)
        }
    }
}

/// The README's matter example, in the native DSL, whose comments say what it prints.
private enum Readme {
    enum Matter: StateType { case solid, liquid, gas }
    enum Change: EventType { case melt, freeze, vaporize, condense }
    enum Log: String, CustomStringConvertible {
        case melted, froze, vaporized, condensed
        var description: String { rawValue }
    }

    // A function, not a `static let`: a definition is not `Sendable`.
    static func matter() -> Definition<Matter, Change, Log> {
        Definition(initialState: .solid) {
            From(.solid) { On(.melt, transitionTo: .liquid, emit: .melted) }
            From(.liquid) {
                On(.freeze, transitionTo: .solid, emit: .froze)
                On(.vaporize, transitionTo: .gas, emit: .vaporized)
            }
            From(.gas) { On(.condense, transitionTo: .liquid, emit: .condensed) }
        }
    }
}

/// Every valid transition of matter: from, event, to, effect.
private let validMoves: [(Matter.State, Matter.Event, Matter.State, Matter.SideEffect)] = [
    (.solid, .melt, .liquid, .logMelted),
    (.liquid, .freeze, .solid, .logFrozen),
    (.liquid, .vaporize, .gas, .logVaporized),
    (.gas, .condense, .liquid, .logCondensed),
]

@Suite struct MatterExampleTests {
    @Test func givenSolidWhenMeltedTransitionsToLiquidAndLogs() throws {
        let logger = Log()
        let stateMachine = Matter.matterStateMachine(withInitialState: .solid, logger: logger)
        #expect(stateMachine.state == .solid)

        let transition: Matter.ValidTransition = try stateMachine.transition(.melt)

        #expect(stateMachine.state == .liquid)
        #expect(
            transition
                == Matter.ValidTransition(fromState: .solid, event: .melt, toState: .liquid, sideEffect: .logMelted))
        #expect(logger.lines == [Matter.Message.melted])
    }

    @Test func readmeExamplePrintsWhatItsCommentsSay() throws {
        let matter = Readme.matter()
        #expect("\(matter.transition(from: .solid, on: .melt)!.effects)" == "[melted]")

        let phases = EffectMachine(matter)
        var printed: [String] = []
        phases.onTransition { result in printed.append("\(result)") }
        let melted = try phases.transition(.melt)
        #expect(printed == ["success(solid --melt--> liquid [melted])"])
        #expect("\(melted.toState) \(melted.effects)" == "liquid [melted]")
    }

    @Test func givenSolidWhenFrozenThrowsAnInvalidTransition() {
        let logger = Log()
        let stateMachine = Matter.matterStateMachine(withInitialState: .solid, logger: logger)
        #expect(throws: Matter.InvalidTransition.self) {
            try stateMachine.transition(.freeze)
        }
        #expect(stateMachine.state == .solid)
        #expect(logger.lines.isEmpty)
    }

    @Test(arguments: Matter.State.allCases)
    func everyStateAndEventThroughTheMachineAndThePureFunction(from: Matter.State) throws {
        for event in Matter.Event.allCases {
            let expected = validMoves.first { $0.0 == from && $0.1 == event }
            for style in ["tinder", "native"] {
                let logger = Log()
                let machine =
                    style == "tinder"
                    ? Matter.matterStateMachine(withInitialState: from, logger: logger)
                    : EffectMachine(nativeMatter(initialState: from))
                var heard: [Matter.MatterStateMachine.Transition.Result] = []
                machine.onTransition { heard.append($0) }
                let result = machine.attemptTransition(event)
                let pure = machine.definition.transition(from: from, on: event)
                if let (_, _, to, effect) = expected {
                    let valid = Matter.ValidTransition(fromState: from, event: event, toState: to, effects: [effect])
                    #expect(try result.get() == valid, "\(style) \(from) \(event)")
                    #expect(machine.state == to)
                    #expect(pure == .init(toState: to, effects: [effect]))
                    #expect(heard.count == 1)
                    #expect(try heard.first?.get() == valid)
                } else {
                    guard case .failure(let error) = result else {
                        Issue.record("\(style) \(from) \(event) should be refused")
                        continue
                    }
                    #expect(error.reason == .noRoute)
                    #expect(machine.state == from)
                    #expect(pure == nil)
                    #expect(heard.count == 1)
                    #expect(throws: Matter.InvalidTransition.self) { try heard.first?.get() }
                }
            }
        }
    }
}
