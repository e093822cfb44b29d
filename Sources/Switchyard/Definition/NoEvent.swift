/// The event type of a machine that is only driven by states.
///
/// `NoEvent` has no cases, so no event can ever be fired:
///
/// ```swift
/// let machine = StateMachine<Door, NoEvent>(state: .closed)
/// machine <- .open
/// ```
public enum NoEvent: EventType {}

extension NoEvent: Sendable {}
