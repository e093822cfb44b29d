import Switchyard
import Testing

// App code as a SwiftState user writes it in a main-actor app target: this
// target builds with `.defaultIsolation(MainActor.self)`, so every type and
// test here is main-actor isolated. Conditions and handlers are plain closures
// that capture the view model and local variables and mutate them; that this
// file compiles is half of the test.

@Suite struct SwiftStateStyleTests {
    @Test func viewModelDrivesItsMachineAndUpdatesItsOwnProperties() {
        let viewModel = PlayerViewModel()

        viewModel.load()
        #expect(viewModel.title == "Loading…")
        viewModel.finishLoading(duration: 90)
        viewModel.play()
        viewModel.pause()
        viewModel.play()

        #expect(viewModel.machine.state == .playing)
        #expect(viewModel.title == "Playing")
        #expect(viewModel.duration == 90)
        #expect(viewModel.playCount == 2)
        #expect(
            viewModel.history == [
                "load idle => loading", "loaded loading => ready", "play ready => playing",
                "pause playing => paused", "play paused => playing",
            ])
        #expect(viewModel.errorMessage == nil)
    }

    @Test func conditionReadsTheViewModelsStoredProperty() {
        let viewModel = PlayerViewModel()
        viewModel.isOnline = false

        viewModel.load()
        #expect(viewModel.machine.state == .idle)
        #expect(viewModel.errorMessage == "cannot load in idle")

        viewModel.isOnline = true
        viewModel.load()
        #expect(viewModel.machine.state == .loading)
    }

    @Test func closuresTakingTheContextApartCaptureMainActorState() {
        var refused: [String] = []
        var moves = 0
        let machine = StateMachine<PlayerState, PlayerEvent>(state: .idle) { machine in
            machine.addRoutes(event: .load, transitions: [.idle => .loading]) { event, fromState, toState, _ in
                moves += 1
            }
            machine.addRoute(.loading => .ready, condition: { _, _, _, userInfo in userInfo as? Bool == true })
            machine.addErrorHandler { event, fromState, toState, userInfo in
                refused.append("\(event.map { "\($0)" } ?? "state") \(fromState) => \(toState)")
            }
        }

        machine <-! .play <-! .load <- .ready <- (.ready, true)

        #expect(machine.state == .ready)
        #expect(moves == 1)
        #expect(refused == ["play idle => idle", "state loading => ready"])
    }

    @Test func errorHandlerRecordsRefusedEventsAndStates() {
        let viewModel = PlayerViewModel()

        viewModel.play()
        #expect(viewModel.errorMessage == "cannot play in idle")
        viewModel.machine <- .paused
        #expect(viewModel.errorMessage == "cannot go from idle to paused")

        #expect(viewModel.machine.state == .idle)
        #expect(viewModel.refusals == 2)
    }

    @Test func stopReturnsToIdleFromAnywhereByAskingForTheState() {
        let viewModel = PlayerViewModel()
        viewModel.load()
        viewModel.finishLoading(duration: 12)
        viewModel.play()

        viewModel.stop()

        #expect(viewModel.machine.state == .idle)
        #expect(viewModel.title == "Stopped after 1 play")
        #expect(viewModel.duration == 0)
    }

    @Test func tearingDownDisposesEveryKeptRegistration() {
        let viewModel = PlayerViewModel()
        viewModel.load()

        viewModel.tearDown()
        viewModel.finishLoading(duration: 5)
        viewModel.play()

        #expect(viewModel.machine.state == .loading)
        #expect(viewModel.history == ["load idle => loading"])
        #expect(viewModel.duration == 0)
        #expect(viewModel.refusals == 0)
    }

    @Test func lazyMachineConfiguredInItsInitClosureCapturesSelf() {
        let form = LoginForm()

        form.submit(password: "wrong")
        form.submit(password: "secret")
        form.logOut()

        #expect(form.machine.state == .loggedOut)
        #expect(form.attempts == 2)
        #expect(form.messages == ["wrong password", "welcome", "bye"])
    }

    @Test func handlersAndConditionsMutateLocalVariables() {
        var allowed = false
        var seen: [String] = []
        var failures = 0
        let machine = StateMachine<PlayerState, PlayerEvent>(state: .idle) { machine in
            machine.addRoute(.idle => .loading, condition: { _ in allowed })
            machine.addRoutes(event: .loaded, transitions: [.loading => .ready])
            machine.addAnyHandler(.any => .any) { context in
                seen.append("\(context.fromState) => \(context.toState)")
            }
            machine.addErrorHandler { _ in failures += 1 }
        }

        machine <- .loading
        allowed = true
        machine <- .loading <-! .loaded <-! .loaded

        #expect(machine.state == .ready)
        #expect(seen == ["idle => loading", "loading => ready"])
        #expect(failures == 2)
    }

    @Test func userInfoTravelsWithOperatorRequests() {
        var received: [String] = []
        let machine = StateMachine<PlayerState, PlayerEvent>(state: .idle)
        machine.addRoutes(event: .load, transitions: [.idle => .loading])
        machine.addRoute(.loading => .failed)
        machine.addAnyHandler(.any => .any) { context in
            received.append(context.userInfo as? String ?? "none")
        }

        machine <-! (.load, "from the play button") <- (.failed, "timed out")

        #expect(received == ["from the play button", "timed out"])
    }

    @Test func runToCompletionMachineWorksOnTheMainActorToo() {
        var order: [String] = []
        let machine = StateMachine<PlayerState, PlayerEvent>(state: .idle, delivery: .runToCompletion) { machine in
            machine.addRoutes(event: .load, transitions: [.idle => .loading])
            machine.addRoutes(event: .loaded, transitions: [.loading => .ready])
        }
        machine.addHandler(event: .load) { [unowned machine] _ in
            machine <-! .loaded  // waits for this handler
            order.append("load handler, now \(machine.state)")
        }
        machine.addHandler(event: .loaded) { _ in order.append("loaded handler") }

        machine <-! .load

        #expect(order == ["load handler, now loading", "loaded handler"])
        #expect(machine.state == .ready)
    }
}

// MARK: - App code

private enum PlayerState: StateType {
    case idle, loading, ready, playing, paused, failed
}

private enum PlayerEvent: EventType {
    case load, loaded, play, pause, fail
}

/// A view model as apps write it: it owns the machine, keeps its disposables,
/// and lets handlers update its own properties.
private final class PlayerViewModel {
    let machine = StateMachine<PlayerState, PlayerEvent>(state: .idle)

    var isOnline = true
    private(set) var title = "Idle"
    private(set) var duration = 0
    private(set) var playCount = 0
    private(set) var history: [String] = []
    private(set) var errorMessage: String?
    private(set) var refusals = 0
    private var disposables: [Disposable] = []

    init() {
        disposables += [
            machine.addRoutes(
                event: .load, transitions: [.idle => .loading, .failed => .loading],
                condition: { [unowned self] _ in self.isOnline }
            ),
            machine.addRoutes(event: .loaded, transitions: [.loading => .ready]),
            machine.addRoutes(event: .play, transitions: [.ready => .playing, .paused => .playing]) {
                [unowned self] _ in
                self.playCount += 1
            },
            machine.addRoutes(event: .pause, transitions: [.playing => .paused]),
            machine.addRoutes(event: .fail, transitions: [.any => .failed]),
            machine.addRoute(.any => .idle),
            machine.addHandler(event: .loaded) { [unowned self] context in
                self.duration = context.userInfo as? Int ?? 0
            },
            machine.addHandler(event: .any) { [unowned self] context in
                self.history.append(
                    "\(context.event.map { "\($0)" } ?? "?") \(context.fromState) => \(context.toState)")
            },
            machine.addAnyHandler(.any => .any, order: 200) { [unowned self] context in
                self.title = self.title(for: context.toState)
                self.errorMessage = nil
            },
            machine.addHandler(.any => .idle, order: 250) { [unowned self] _ in
                self.title = "Stopped after \(self.playCount) play\(self.playCount == 1 ? "" : "s")"
                self.duration = 0
            },
            machine.addErrorHandler { [unowned self] context in
                self.refusals += 1
                if let event = context.event {
                    self.errorMessage = "cannot \(event) in \(context.fromState)"
                } else {
                    self.errorMessage = "cannot go from \(context.fromState) to \(context.toState)"
                }
            },
        ]
    }

    func load() { machine <-! .load }
    func finishLoading(duration: Int) { machine <-! (.loaded, duration) }
    func play() { machine <-! .play }
    func pause() { machine <-! .pause }
    func stop() { machine <- .idle }

    func tearDown() {
        for disposable in disposables { disposable.dispose() }
        disposables.removeAll()
    }

    private func title(for state: PlayerState) -> String {
        switch state {
        case .idle: "Idle"
        case .loading: "Loading…"
        case .ready: "Ready"
        case .playing: "Playing"
        case .paused: "Paused"
        case .failed: "Failed"
        }
    }
}

/// The SwiftState README style: a lazy machine whose init closure captures self.
private final class LoginForm {
    enum Step: StateType { case loggedOut, checking, loggedIn }
    enum Action: EventType { case submit, accept, reject, logOut }

    private(set) var attempts = 0
    private(set) var messages: [String] = []
    private var password = ""

    lazy var machine = StateMachine<Step, Action>(state: .loggedOut) { [unowned self] machine in
        machine.addRoutes(event: .submit, transitions: [.loggedOut => .checking])
        machine.addRoutes(
            event: .accept, transitions: [.checking => .loggedIn],
            condition: { _ in
                self.password == "secret"
            })
        machine.addRoutes(event: .reject, transitions: [.checking => .loggedOut])
        machine.addRoutes(event: .logOut, transitions: [.loggedIn => .loggedOut])
        machine.addHandler(event: .submit) { _ in self.attempts += 1 }
        machine.addHandler(event: .accept) { _ in self.messages.append("welcome") }
        machine.addHandler(event: .reject) { _ in self.messages.append("wrong password") }
        machine.addHandler(event: .logOut) { _ in self.messages.append("bye") }
    }

    func submit(password: String) {
        self.password = password
        machine <-! .submit
        if !machine.tryEvent(.accept) {
            machine <-! .reject
        }
    }

    func logOut() { machine <-! .logOut }
}
