/// A bucket key for routes and handlers registered on a transition: `nil` on a
/// side stands for `.any`.
@usableFromInline
struct TransitionKey<S: StateType>: Hashable {
    @usableFromInline var from: S?
    @usableFromInline var to: S?

    @inlinable
    init(from: S?, to: S?) {
        self.from = from
        self.to = to
    }

    @inlinable
    init(_ transition: Transition<S>) {
        self.init(from: transition.fromState.rawValue, to: transition.toState.rawValue)
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(from)
        hasher.combine(to)
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to
    }

    /// How specific the key is: 0 for `from => to`, then `from => .any`,
    /// `.any => to`, and 3 for `.any => .any`. Used to break ties between handlers.
    @inlinable
    var rank: UInt8 {
        switch (from, to) {
        case (.some, .some): 0
        case (.some, .none): 1
        case (.none, .some): 2
        case (.none, .none): 3
        }
    }
}

/// A bucket key for event routes: the event (`nil` for `.any`) and the state
/// the route starts in (`nil` for `.any`).
@usableFromInline
struct EventRouteKey<S: StateType, E: EventType>: Hashable {
    @usableFromInline var event: E?
    @usableFromInline var from: S?

    @inlinable
    init(event: E?, from: S?) {
        self.event = event
        self.from = from
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(event)
        hasher.combine(from)
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.event == rhs.event && lhs.from == rhs.from
    }
}
