/// A type whose values are the events that drive a ``Machine``.
///
/// ```swift
/// enum DoorEvent: EventType { case push, pull, lock }
/// ```
///
/// Nothing beyond `Hashable` is required. A machine without events uses
/// ``NoEvent``.
public protocol EventType: Hashable {}
