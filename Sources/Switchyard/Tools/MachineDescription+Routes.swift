extension MachineDescription {
    /// One route, as it was added.
    ///
    /// `[.a, .b] => .c` is one route from `.any` whose ``listedSources``
    /// are `a` and `b`; `.a => [.b, .c]` one route to `.any` whose
    /// ``listedTargets`` are `b` and `c`.
    public struct Route {
        /// What makes the machine take a route.
        public enum Trigger: Hashable {
            /// This event (`addRoutes(event:transitions:)`, `<-!`).
            case event(E)
            /// Any event (`addRoutes(event: .any, …)`).
            case anyEvent
            /// Asking for the target (`addRoute`, `<-`).
            case state
            /// Nothing: taken whenever its condition holds (an eventless or a
            /// timed route).
            case eventless
            /// Its source being done: a final child entered, or every region
            /// of a parallel state done.
            case done
        }

        /// What makes the machine take the route.
        public let trigger: Trigger
        /// The state the route starts in; `nil` for `.any`.
        public let source: S?
        /// The states the route may start in, for a route written `[.a, .b] => …`.
        public let listedSources: [S]?
        /// Where the route leads; `nil` for `.any` (an event route to `.any`
        /// keeps the machine where it is).
        public let target: S?
        /// The states the route may end in, for a route written `… => [.b, .c]`.
        public let listedTargets: [S]?
        /// The states entered with ``target``, in other regions of one
        /// parallel state (``Transition/alsoEntering(_:)``).
        public let alsoEntering: [S]
        /// Whether a condition decides whether the route is taken. A timed
        /// route's timer is a condition too.
        public let isConditional: Bool
        /// Whether the route has an action of its own.
        public let hasAction: Bool
        /// Whether the route is local: a compound source is not exited.
        public let isLocal: Bool
        /// Whether the route enters its target ignoring the target's history.
        public let ignoresHistory: Bool
        /// Whether the route is timed (``Machine/addTimedRoute(after:_:condition:clock:isolation:)``).
        public let isTimed: Bool
    }

    /// One route mapping: a closure that names the target itself.
    public struct RouteMapping {
        /// What a mapping is asked with.
        public enum Kind: Hashable, Sendable {
            /// An event (or `nil`, for a state request) and the current state
            /// (`addRouteMapping`, a definition's computed clauses).
            case event
            /// The current state only, answering with the states a state
            /// request may go to (`addStateRouteMapping`).
            case state
        }

        /// One move the mapping allows.
        public struct Move {
            /// The event it was asked with; `nil` for a state request.
            public let event: E?
            /// The state it was asked from.
            public let source: S
            /// The state it named.
            public let target: S
        }

        /// What the mapping is asked with.
        public let kind: Kind
        /// Every move the mapping allows, asked with every state and event
        /// (and with no event) when the state type, and for an event mapping
        /// the event type too, is `CaseIterable`; `nil` otherwise, since a
        /// closure cannot be listed.
        public let moves: [Move]?
    }
}

extension MachineDescription.Route {
    /// Where the route stands among its source's routes that a request for
    /// `target` may take, in the order the machine tries them (as
    /// `RouteTable.Storage.firstRoute(on:to:…)` does): routes without an
    /// event to `target` (0), then to any state (1; listed targets, which
    /// the machine keeps as routes to any state, included), then event
    /// routes to `target` (2), then to any state (3), each in the order
    /// added; `nil` if the request cannot take it. The tools that work from
    /// a description read this order here. (An event's order needs no such
    /// reading: its own routes before those of any event.)
    func standing(forStateRequest target: S) -> Int? {
        let offset: Int
        switch trigger {
        case .state: offset = 0
        case .event, .anyEvent: offset = 2
        case .eventless, .done: return nil
        }
        if let listed = listedTargets {
            return listed.contains(target) ? offset + 1 : nil
        }
        guard let own = self.target else { return offset + 1 }
        return own == target ? offset : nil
    }
}
