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
