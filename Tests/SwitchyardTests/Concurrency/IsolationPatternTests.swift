import Switchyard
import Testing

// The two ways the Concurrency article tells apps to own a `Machine`: from a
// `@MainActor` view model and from an actor. Each type here is written as the
// article writes it; that this file compiles in Swift 6 mode is half of the
// test. The other half drives each owner through its API, and checks that
// dropping the owner releases it and its machine, with no cycle to break by hand.

// MARK: - A view model on the main actor

private enum Turnstile: StateType {
    case locked, unlocked
}

private enum TurnstileEvent: EventType {
    case coin, push
}

/// Owns its machine; the handlers update the model's own properties.
@MainActor
private final class TurnstileModel {
    private(set) var coins = 0
    private(set) var passages = 0
    private(set) var refusals: [String] = []
    private let machine = Machine<Turnstile, TurnstileEvent>(state: .locked, delivery: .runToCompletion)

    var state: Turnstile { machine.state }

    init() {
        machine.addRoutes(event: .coin, transitions: [.locked => .unlocked, .unlocked => .unlocked])
        machine.addRoutes(event: .push, transitions: [.unlocked => .locked])
        // `weak`: the model owns the machine, which owns these closures.
        machine.addHandler(event: .coin) { [weak self] _ in self?.coins += 1 }
        machine.addHandler(event: .push) { [weak self] _ in self?.passages += 1 }
        machine.addErrorHandler { [weak self] context in
            self?.refusals.append("\(context.event.map { "\($0)" } ?? "request") while \(context.fromState)")
        }
    }

    func insertCoin() {
        machine <-! .coin
    }

    @discardableResult
    func push() -> Bool {
        machine.tryEvent(.push)
    }

    func transitions() -> AsyncStream<TransitionRecord<Turnstile, TurnstileEvent>> {
        machine.transitions()
    }
}

// MARK: - An actor

private enum JobState: StateType {
    case idle, running, done
}

private enum JobEvent: EventType {
    case start, finish, reset
}

/// Owns its machine and declares its handlers in its init, isolated to the
/// actor and holding it weakly (`handler(isolatedTo:_:)`), so nothing is
/// captured `unowned` and no cycle is broken by hand.
private actor JobRunner {
    private(set) var started = 0
    private(set) var finished = 0
    private(set) var log: [String] = []
    private let machine: Machine<JobState, JobEvent>

    var state: JobState { machine.state }

    init() {
        let machine = Machine<JobState, JobEvent>(state: .idle, delivery: .runToCompletion)
        self.machine = machine
        machine.addRoutes(event: .start, transitions: [.idle => .running])
        machine.addRoutes(event: .finish, transitions: [.running => .done])
        machine.addRoutes(event: .reset, transitions: [.done => .idle])
        machine.addHandler(
            event: .start, handler: machine.handler(isolatedTo: self) { runner, _ in runner.started += 1 })
        machine.addHandler(
            event: .finish, handler: machine.handler(isolatedTo: self) { runner, _ in runner.finished += 1 })
        machine.addHandler(
            event: .any,
            handler: machine.handler(isolatedTo: self) { runner, context in
                runner.log.append("\(context.fromState) => \(context.toState)")
            })
    }

    /// Runs one job from start to finish and back, without a suspension: no
    /// other call to the actor can come in between.
    func runJob() -> Bool {
        machine.tryEvent(.start) && machine.tryEvent(.finish) && machine.tryEvent(.reset)
    }

    func finish() -> Bool {
        machine.tryEvent(.finish)
    }

    func transitions() -> AsyncStream<TransitionRecord<JobState, JobEvent>> {
        machine.transitions()
    }
}

// MARK: - Tests

@Suite struct IsolationPatternTests {
    @MainActor
    @Test func aMainActorModelsHandlersUpdateTheModel() {
        let model = TurnstileModel()
        model.push()
        model.insertCoin()
        model.insertCoin()
        #expect(model.push())
        #expect(!model.push())
        #expect(model.state == .locked)
        #expect(model.coins == 2)
        #expect(model.passages == 1)
        #expect(model.refusals == ["push while locked", "push while locked"])
    }

    @MainActor
    @Test func aDroppedMainActorModelIsReleasedAndEndsItsStream() async throws {
        var model: TurnstileModel? = TurnstileModel()
        weak let released = model
        let stream = model!.transitions()
        model!.insertCoin()
        model!.push()
        model = nil
        // Required: a model kept alive would keep the stream open forever.
        try #require(released == nil)
        #expect(await collect(stream) == ["locked => unlocked on coin", "unlocked => locked on push"])
    }

    @Test func anActorsHandlersUpdateTheActor() async {
        let runner = JobRunner()
        #expect(await runner.finish() == false)
        #expect(await runner.runJob())
        #expect(await runner.state == .idle)
        #expect(await runner.started == 1)
        #expect(await runner.finished == 1)
        #expect(await runner.log == ["idle => running", "running => done", "done => idle"])
    }

    @Test func tasksCallingAnActorRunItsJobsOneAtATime() async {
        let runner = JobRunner()
        let jobs = 50
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<jobs {
                group.addTask { await runner.runJob() }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == jobs)
        #expect(await runner.started == jobs)
        #expect(await runner.finished == jobs)
        #expect(await runner.log.count == 3 * jobs)
    }

    @Test func aDroppedActorIsReleasedAndEndsItsStream() async throws {
        var runner: JobRunner? = JobRunner()
        weak let released = runner
        let stream = await runner!.transitions()
        #expect(await runner!.runJob())
        runner = nil
        // Required: the stream ends when the machine goes, which goes with
        // the actor; an actor kept alive would keep the stream open forever.
        try #require(released == nil)
        #expect(
            await collect(stream) == [
                "idle => running on start", "running => done on finish", "done => idle on reset",
            ])
    }
}
