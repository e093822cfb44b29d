/// A bucket key for routes and handlers registered on a transition: `nil` on a
/// side stands for `.any`.
struct TransitionKey<S: StateType>: Hashable {
    var from: S?
    var to: S?

    init(from: S?, to: S?) {
        self.from = from
        self.to = to
    }

    init(_ transition: Transition<S>) {
        self.init(from: transition.fromState.rawValue, to: transition.toState.rawValue)
    }

    /// How specific the key is: 0 for `from => to`, then `from => .any`,
    /// `.any => to`, and 3 for `.any => .any`. Used to break ties between handlers.
    var rank: UInt8 {
        switch (from, to) {
        case (.some, .some): 0
        case (.some, .none): 1
        case (.none, .some): 2
        case (.none, .none): 3
        }
    }

    /// The four buckets that can hold a route or handler for the move `from` → `to`,
    /// most specific first.
    static func candidates(from: S, to: S) -> (Self, Self, Self, Self) {
        (Self(from: from, to: to), Self(from: from, to: nil), Self(from: nil, to: to), Self(from: nil, to: nil))
    }
}

/// A bucket key for event routes: the event (`nil` for `.any`) and the state
/// the route starts in (`nil` for `.any`).
struct EventRouteKey<S: StateType, E: EventType>: Hashable {
    var event: E?
    var from: S?
}
