import Switchyard
import Testing

// The places the Definition DSL article recommends for keeping a definition
// in a Swift 6 module, where a plain global `let` of a definition is refused
// (a definition is not `Sendable`). This file compiling, in a target built in
// Swift 6 mode without main-actor default isolation, is most of the test.

enum Kettle: StateType {
    case cold, boiling
}

enum KettleEvent: EventType {
    case switchOn, switchOff
}

enum KettleEffect: String, CustomStringConvertible {
    case whistle, click

    var description: String { rawValue }
}

/// Builds the kettle's definition: each call makes one that nothing else holds.
func kettleDefinition() -> Definition<Kettle, KettleEvent, KettleEffect> {
    Definition(initialState: .cold) {
        From(.cold) { On(.switchOn, transitionTo: .boiling, emit: .whistle) }
        From(.boiling) { On(.switchOff, transitionTo: .cold, emit: .click) }
    }
}

/// A global on the main actor.
@MainActor let mainActorKettle = kettleDefinition()

/// A `static let` in a main-actor type.
@MainActor
enum Kettles {
    static let definition = Definition<Kettle, KettleEvent, KettleEffect>(initialState: .cold) {
        From(.cold) { On(.switchOn, transitionTo: .boiling, emit: .whistle) }
        From(.boiling) { On(.switchOff, transitionTo: .cold, emit: .click) }
    }
}

/// A computed property that builds it, usable from any isolation domain.
enum KettleRules {
    static var definition: Definition<Kettle, KettleEvent, KettleEffect> {
        kettleDefinition()
    }
}

/// A stored property of the object that drives it.
final class KettleController {
    let definition = kettleDefinition()
    lazy var machine = EffectMachine(definition)
}

/// An actor that makes its own machine, or adopts a definition sent to it.
actor KettleActor {
    let machine = EffectMachine(kettleDefinition())

    func switchOn() throws -> [KettleEffect] {
        try machine.transition(.switchOn).effects
    }

    func answer(_ definition: sending Definition<Kettle, KettleEvent, KettleEffect>) -> Kettle? {
        definition.transition(from: .cold, on: .switchOn)?.toState
    }
}

@Suite struct DefinitionHoldingTests {
    @Test @MainActor func mainActorGlobalAndStaticLetAnswer() {
        #expect(mainActorKettle.transition(from: .cold, on: .switchOn) == .init(toState: .boiling, effects: [.whistle]))
        #expect(Kettles.definition.transition(from: .boiling, on: .switchOff)?.toState == .cold)
        #expect(Kettles.definition.transition(from: .cold, on: .switchOff) == nil)
    }

    @Test func computedPropertyBuildsOneForEachCaller() async {
        let built = KettleRules.definition
        #expect(built.transition(from: .cold, on: .switchOn)?.effects == [.whistle])
        #expect(await KettleActor().answer(KettleRules.definition) == .boiling)
    }

    @Test func storedPropertyDrivesItsMachine() throws {
        let controller = KettleController()
        let valid = try controller.machine.transition(.switchOn)
        #expect("\(valid)" == "cold --switchOn--> boiling [whistle]")
        #expect(controller.definition.transition(from: .boiling, on: .switchOff)?.effects == [.click])
    }

    @Test func actorKeepsItsOwnMachine() async throws {
        let kettle = KettleActor()
        #expect(try await kettle.switchOn() == [.whistle])
    }
}
