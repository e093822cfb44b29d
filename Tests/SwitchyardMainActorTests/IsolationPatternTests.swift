import Switchyard
import Testing

// The Concurrency article's two owners, compiled the way a new app target
// builds them: main-actor isolated by default. There a plain `enum` gets a
// main-actor isolated conformance to `StateType`, which cannot meet the
// `Sendable` requirement of `transitions()` or be used inside an actor
// ("main actor-isolated conformance of 'Signal' to 'StateType' cannot satisfy
// conformance requirement for a 'Sendable' type parameter"), so the state and
// event types are declared `nonisolated`, as the article says.

nonisolated private enum Signal: StateType {
    case red, green
}

nonisolated private enum SignalEvent: EventType {
    case next
}

/// Main-actor isolated without saying so: the target's default.
private final class SignalModel {
    private(set) var changes = 0
    private let machine = Machine<Signal, SignalEvent>(state: .red, delivery: .runToCompletion)

    var state: Signal { machine.state }

    init() {
        machine.addRoutes(event: .next, transitions: [.red => .green, .green => .red])
        machine.addHandler(event: .next) { [weak self] _ in self?.changes += 1 }
    }

    func next() {
        machine <-! .next
    }

    func transitions() -> AsyncStream<TransitionRecord<Signal, SignalEvent>> {
        machine.transitions()
    }
}

private actor SignalController {
    private(set) var changes = 0
    private let machine: Machine<Signal, SignalEvent>

    init() {
        let machine = Machine<Signal, SignalEvent>(state: .red, delivery: .runToCompletion)
        self.machine = machine
        machine.addRoutes(event: .next, transitions: [.red => .green, .green => .red])
        machine.addHandler(
            event: .next, handler: machine.handler(isolatedTo: self) { controller, _ in controller.changes += 1 })
    }

    func next() -> Signal {
        machine <-! .next
        return machine.state
    }
}

@Suite struct IsolationPatternTests {
    @Test func aViewModelInAMainActorTargetStreamsAndIsReleased() async throws {
        var model: SignalModel? = SignalModel()
        weak let released = model
        let stream = model!.transitions()
        model!.next()
        model!.next()
        #expect(model!.changes == 2)
        model = nil
        try #require(released == nil)
        var seen: [String] = []
        for await record in stream {
            seen.append("\(record)")
        }
        #expect(seen == ["red => green on next", "green => red on next"])
    }

    @Test func anActorInAMainActorTargetUpdatesItselfAndIsReleased() async {
        var controller: SignalController? = SignalController()
        weak let released = controller
        #expect(await controller!.next() == .green)
        #expect(await controller!.changes == 1)
        controller = nil
        #expect(released == nil)
    }
}
