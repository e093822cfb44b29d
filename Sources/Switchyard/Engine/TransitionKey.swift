/// A bucket key for routes and handlers registered on a transition: `nil` on a
/// side stands for `.any`.
@usableFromInline
struct TransitionKey<S: StateType>: BucketKey {
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

    // Only the concrete sides are hashed: keys of different shapes may then
    // share a hash, which costs at most one more comparison, and the hashing
    // on the transition path halves.
    @inlinable
    func hash(into hasher: inout Hasher) {
        if let from { hasher.combine(from) }
        if let to { hasher.combine(to) }
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to
    }

    /// How specific the key is: 0 for `from => to`, then `from => .any`,
    /// `.any => to`, and 3 for `.any => .any`. Also breaks ties between handlers.
    @inlinable
    var shape: Int {
        BucketShapes.shape(from != nil, to != nil)
    }
}

/// A bucket key for event routes: the event (`nil` for `.any`) and the state
/// the route starts in (`nil` for `.any`).
@usableFromInline
struct EventRouteKey<S: StateType, E: EventType>: BucketKey {
    @usableFromInline var event: E?
    @usableFromInline var from: S?

    @inlinable
    init(event: E?, from: S?) {
        self.event = event
        self.from = from
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        if let event { hasher.combine(event) }
        if let from { hasher.combine(from) }
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.event == rhs.event && lhs.from == rhs.from
    }

    @inlinable
    var shape: Int {
        BucketShapes.shape(event != nil, from != nil)
    }
}

extension Event: BucketKey {
    /// A concrete event is shape 0, `.any` shape 3.
    @inlinable
    var shape: Int {
        rawValue == nil ? 3 : 0
    }
}
