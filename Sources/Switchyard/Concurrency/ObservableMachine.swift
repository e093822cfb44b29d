#if canImport(Observation)
    import Observation

    /// A machine's state, configuration and whether it has finished, as an
    /// `Observable` model: a SwiftUI view that reads them updates when they
    /// change. Ask a machine for its model with ``Machine/observable``.
    ///
    /// ```swift
    /// struct PlayerView: View {
    ///     let player: Machine<Player, PlayerEvent>
    ///
    ///     var body: some View {
    ///         Text("\(player.observable.state)")  // redrawn on each change
    ///         Button("Play") { player <-! .play }
    ///     }
    /// }
    /// ```
    ///
    /// The model changes when the machine does, before the handlers of the
    /// step run, and only then: a refused request, or a transition that ends
    /// where it began, notifies nobody. A machine that is never asked for its
    /// model pays nothing for it.
    ///
    /// The model is published once the step has moved the machine: its
    /// state, configuration and (in a hierarchy of nested machines) every
    /// machine's share of them agree. A `withObservationTracking` `onChange`
    /// runs before the model's value changes (Observation calls it from
    /// `willSet`); it may read the machine, track again and make requests.
    /// A request it makes is taken as a handler's would be (see
    /// ``DeliveryPolicy``), and the change it causes is published after the
    /// one in progress, so one registration hears one change, and a chain of
    /// such requests runs on a flat stack.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public final class ObservableMachine<S: StateType, E: EventType>: Observable {
        private let registrar = ObservationRegistrar()
        private var currentState: S
        private var currentConfiguration: [S]
        private var currentlyFinished: Bool
        /// Whether a change is being published, and whether one made while
        /// it was must be published after it (see ``publish(_:)``).
        private var isPublishing = false
        private var publishesAgain = false

        init(state: S, configuration: [S], isFinished: Bool) {
            self.currentState = state
            self.currentConfiguration = configuration
            self.currentlyFinished = isFinished
        }

        /// The machine's ``Machine/state``.
        public var state: S {
            registrar.access(self, keyPath: \.state)
            return currentState
        }

        /// The machine's ``Machine/configuration``: every active state.
        public var configuration: [S] {
            registrar.access(self, keyPath: \.configuration)
            return currentConfiguration
        }

        /// The machine's ``Machine/isFinished``.
        public var isFinished: Bool {
            registrar.access(self, keyPath: \.isFinished)
            return currentlyFinished
        }

        /// Takes the machine's values, as `read` reads them, notifying the
        /// observers of each that changed.
        ///
        /// Never nested: an observer's `onChange` runs inside a change (in
        /// its `willSet`), and a request it makes moves the machine again.
        /// That change is published when this one is done, by the loop
        /// below, so each registration hears one change at a time and a
        /// chain of such requests does not deepen the stack.
        func publish(_ read: () -> (state: S, configuration: [S], isFinished: Bool)) {
            guard !isPublishing else {
                publishesAgain = true
                return
            }
            isPublishing = true
            defer { isPublishing = false }
            repeat {
                publishesAgain = false
                let (state, configuration, isFinished) = read()
                if state != currentState {
                    registrar.withMutation(of: self, keyPath: \.state) { currentState = state }
                    if publishesAgain { continue }
                }
                if configuration != currentConfiguration {
                    registrar.withMutation(of: self, keyPath: \.configuration) {
                        currentConfiguration = configuration
                    }
                    if publishesAgain { continue }
                }
                if isFinished != currentlyFinished {
                    registrar.withMutation(of: self, keyPath: \.isFinished) { currentlyFinished = isFinished }
                }
            } while publishesAgain
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    extension Machine {
        /// The machine's state as an `Observable` model, for SwiftUI and
        /// `withObservationTracking` (see ``ObservableMachine``).
        ///
        /// The same model every time; made on first use. From then on, every
        /// step of the machine (and a restored snapshot, or ``start()``)
        /// updates it.
        public var observable: ObservableMachine<S, E> {
            let watchers = ensureWatchers()
            if let model = watchers.observable as? ObservableMachine<S, E> {
                return model
            }
            let model = ObservableMachine<S, E>(state: state, configuration: configuration, isFinished: isFinished)
            watchers.observable = model
            watchers.observe = { [unowned self, unowned model] in
                model.publish { (state, configuration, isFinished) }
            }
            return model
        }
    }
#endif
