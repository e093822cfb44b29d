#if canImport(Observation)
    import Observation
    import Switchyard
    import Testing

    /// Counts the notifications `withObservationTracking` gives for what
    /// `read` reads, tracking again after each one.
    private final class NotificationCounter: @unchecked Sendable {
        private(set) var count = 0
        private let read: () -> Void

        init(_ read: @escaping () -> Void) {
            self.read = read
            track()
        }

        /// The tracking stays installed until the next change, holding its
        /// `onChange`: holding the counter weakly there, so that a counter
        /// the test has let go of (and the model its `read` reads) is freed.
        private func track() {
            withObservationTracking(read) { [weak self] in
                guard let self else { return }
                count += 1
                // `onChange` runs before the change: track again after it.
                Task { @MainActor [weak self] in self?.track() }
            }
        }
    }

    private enum Draft: StateType {
        case viewing, typing
    }

    private enum Screen: StateType {
        case home
        case editor(Draft)
    }

    /// A state of a long chain.
    private struct Step: StateType {
        var number: Int
        init(_ number: Int) { self.number = number }
    }

    /// Tracks `machine`'s model; each change tracks again at once and asks
    /// for the next state, until `count`.
    private final class ObservedChain: @unchecked Sendable {
        private(set) var fires = 0
        private let machine: Machine<Step, NoEvent>
        private let model: ObservableMachine<Step, NoEvent>
        private let count: Int

        init(machine: Machine<Step, NoEvent>, count: Int) {
            self.machine = machine
            self.model = machine.observable
            self.count = count
            track()
        }

        private func track() {
            withObservationTracking {
                _ = model.state
            } onChange: { [weak self] in
                // Weakly: the last tracking stays installed, held by the model.
                guard let self else { return }
                fires += 1
                track()
                let next = machine.state.number + 1
                if next <= count {
                    machine <- Step(next)
                }
            }
        }
    }

    private enum Pane: StateType {
        case window, left, list, grid, right, closed, open
    }

    private enum PaneEvent: EventType {
        case toggle, refresh
    }

    @MainActor
    @Suite struct ObservationTests {
        @Test func aChangeNotifiesAndARefusalDoesNot() async {
            let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
                machine.addRoutes(event: .event1, transitions: [.any => .any])
            }
            let model = machine.observable
            let counter = NotificationCounter { _ = model.state }
            machine <-! .event2  // refused
            machine <-! .event1  // stays: nothing changes
            #expect(counter.count == 0)
            machine <-! .event0
            #expect(counter.count == 1)
            #expect(model.state == .state1)
            await Task.yield()
            machine <-! .event0  // refused
            #expect(counter.count == 1)
        }

        @Test func theConfigurationIsObservedWhereTheStateStaysTheSame() {
            let machine = Machine<Pane, PaneEvent>(state: .window) { machine in
                machine.addRegions([.left, .right], to: .window)
                machine.addChildren([.list, .grid], to: .left)
                machine.addChildren([.closed, .open], to: .right)
                machine.addRoutes(event: .toggle, transitions: [.closed => .open])
                machine.addRoutes(event: .refresh, transitions: [.list => .list])
            }
            #expect(machine.observable === machine.observable)
            let model = machine.observable
            #expect(model.configuration == [.window, .left, .list, .right, .closed])
            let states = NotificationCounter { _ = model.state }
            let configurations = NotificationCounter { _ = model.configuration }
            machine <-! .refresh  // exits and enters .list: the same configuration
            #expect(configurations.count == 0)
            machine <-! .toggle
            #expect(model.state == .window)
            #expect(model.configuration == [.window, .left, .list, .right, .open])
            #expect(states.count == 0)
            #expect(configurations.count == 1)
        }

        @Test func aHandlerReadsTheNewStateFromTheModel() {
            let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            }
            let model = machine.observable
            var seen: [MyState] = []
            machine.addHandler(event: .event0) { _ in seen.append(model.state) }
            machine <-! .event0
            #expect(seen == [.state1])
        }

        @Test func aRestoredSnapshotUpdatesTheModel() throws {
            let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            }
            let saved = machine.snapshot()
            machine <-! .event0
            let model = machine.observable
            #expect(model.state == .state1)
            try machine.restore(saved)
            #expect(model.state == .state0)
        }

        // MARK: What onChange may do

        @Test func aRequestMadeFromOnChangeIsHeardOnceByEachRegistration() {
            let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
                machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
            }
            let model = machine.observable
            let fires = Shared(0)
            let shared = Shared(machine)
            withObservationTracking {
                _ = (model.state, model.configuration)
            } onChange: {
                fires.value += 1
                shared.value <-! .event1
            }
            machine <-! .event0
            #expect(fires.value == 1)
            #expect(machine.state == .state2)
            #expect(model.state == .state2)
            #expect(model.configuration == [.state2])
        }

        @Test(arguments: [DeliveryPolicy.immediate, .runToCompletion])
        func aChainOfStepsRequestedFromOnChangeNotifiesOnceAStepOnAFlatStack(delivery: DeliveryPolicy) {
            let count = 2_000
            let seen = Shared((fires: 0, state: 0, modelState: 0))
            onThread(stackSize: 512 * 1024) {
                let machine = Machine<Step, NoEvent>(state: Step(0), delivery: delivery)
                machine.addRoute(.any => .any)
                let chain = ObservedChain(machine: machine, count: count)
                machine <- Step(1)
                seen.value = (chain.fires, machine.state.number, machine.observable.state.number)
            }
            #expect(seen.value.fires == count)
            #expect(seen.value.state == count)
            #expect(seen.value.modelState == count)
        }

        @Test func underRunToCompletionARequestFromOnChangeIsDeliveredAfterTheStepsHandlers() {
            let machine = Machine<MyState, MyEvent>(state: .state0, delivery: .runToCompletion) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
                machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
            }
            let log = Log()
            machine.addHandler(event: .any) { log("handler \($0.fromState) => \($0.toState)") }
            let model = machine.observable
            let shared = Shared(machine)
            withObservationTracking {
                _ = model.state
            } onChange: {
                shared.value <-! .event1
            }
            machine <-! .event0
            #expect(log.lines == ["handler state0 => state1", "handler state1 => state2"])
            #expect(model.state == .state2)
        }

        // MARK: Nested machines

        @Test func aNestedMachinesModelFollowsItsParentEnteringAndLeavingIt() {
            let draft = Machine<Draft, NoEvent>(state: .viewing) { draft in
                draft.addRoute(.viewing => .typing)
                draft.addRoute(.typing => .viewing)
            }
            let app = Machine<Screen, NoEvent>(state: .home) { app in
                app.addRoute(.home => .editor(.viewing))
                app.addRoute(.any => .home)
            }
            app.nest(draft, as: Screen.editor)
            let model = draft.observable
            #expect((model.state, model.configuration) == (draft.state, draft.configuration))
            let configurations = NotificationCounter { _ = model.configuration }

            app <- .editor(.viewing)
            #expect(draft.configuration == [.viewing])
            #expect((model.state, model.configuration) == (draft.state, draft.configuration))
            #expect(configurations.count == 1)

            draft <- .typing
            #expect((model.state, model.configuration) == (.typing, [.typing]))

            app <- .home
            #expect(draft.configuration == [])
            #expect((model.state, model.configuration) == (draft.state, draft.configuration))
        }

        @Test func restoringAHierarchyUpdatesItsNestedMachinesModels() throws {
            let draft = Machine<Draft, NoEvent>(state: .viewing) { draft in
                draft.addRoute(.viewing => .typing)
            }
            let app = Machine<Screen, NoEvent>(state: .home) { app in
                app.addRoute(.home => .editor(.viewing))
            }
            app.nest(draft, as: Screen.editor)
            let saved = app.snapshot()
            app <- .editor(.viewing)
            draft <- .typing
            let model = draft.observable
            #expect(model.configuration == [.typing])
            try app.restore(saved)
            #expect((model.state, model.configuration) == (draft.state, draft.configuration))
            #expect(model.configuration == [])
        }

        @Test func finishingIsObserved() {
            let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
                machine.addFinalState(.state1)
            }
            machine.start()
            let model = machine.observable
            let counter = NotificationCounter { _ = model.isFinished }
            machine <-! .event0
            #expect(model.isFinished)
            #expect(counter.count == 1)
        }
    }
#endif
