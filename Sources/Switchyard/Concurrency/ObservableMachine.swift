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
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public final class ObservableMachine<S: StateType, E: EventType>: Observable {
        private let registrar = ObservationRegistrar()
        private var currentState: S
        private var currentConfiguration: [S]
        private var currentlyFinished: Bool

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

        /// Takes the machine's values, notifying observers of each that changed.
        func update(state: S, configuration: [S], isFinished: Bool) {
            if state != currentState {
                registrar.withMutation(of: self, keyPath: \.state) { currentState = state }
            }
            if configuration != currentConfiguration {
                registrar.withMutation(of: self, keyPath: \.configuration) { currentConfiguration = configuration }
            }
            if isFinished != currentlyFinished {
                registrar.withMutation(of: self, keyPath: \.isFinished) { currentlyFinished = isFinished }
            }
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
                model.update(state: state, configuration: configuration, isFinished: isFinished)
            }
            return model
        }
    }
#endif
