extension MachineDescription {
    /// One handler: what it was registered for, and when it runs among the
    /// others.
    ///
    /// ```swift
    /// door.addHandler(.closed => .locked) { _ in }
    /// print(door.describe().handlers.map(\.kind))  // [.transition(from: .closed, to: .locked)]
    /// ```
    public struct Handler: Hashable {
        /// What a handler was registered for; `nil` stands for `.any`.
        public enum Kind: Hashable {
            /// Event-driven transitions caused by this event (`addHandler(event:)`).
            case event(E?)
            /// State-driven transitions covered by this pair (`addHandler(_ transition:)`).
            case transition(from: S?, to: S?)
            /// Transitions of both kinds covered by this pair (`addAnyHandler`).
            case anyTransition(from: S?, to: S?)
            /// Failed requests (`addErrorHandler`).
            case error
            /// Entries into this state (`addEntryHandler`).
            case entry(S)
            /// Exits from this state (`addExitHandler`).
            case exit(S)
            /// The action of one route, run when that route is taken.
            case action
        }

        /// What the handler was registered for.
        public let kind: Kind
        /// Its `order:`; higher runs later.
        public let order: HandlerOrder
    }
}
