/// An event, or the wildcard ``any`` that matches every event.
///
/// Use `Event.any` to add routes or handlers that apply whatever event was
/// fired: `machine.addHandler(event: .any) { … }`.
///
/// `.any` is not equal to any concrete event: `Event.any == .some(e)` is `false`.
public enum Event<E: EventType> {
    /// One concrete event.
    case some(E)
    /// Every event.
    case any
}

extension Event: Hashable {}

extension Event: Sendable where E: Sendable {}

extension Event: RawRepresentable {
    /// Wraps a concrete event, or makes ``any`` from `nil`.
    ///
    /// - Parameter rawValue: An event, or `nil` for the wildcard.
    @inlinable
    public init(rawValue: E?) {
        self = rawValue.map(Event.some) ?? .any
    }

    /// The concrete event, or `nil` for ``any``.
    @inlinable
    public var rawValue: E? {
        switch self {
        case .some(let event): event
        case .any: nil
        }
    }
}

extension Event: CustomStringConvertible {
    /// The wrapped event's own description, or `any` for the wildcard.
    public var description: String {
        switch self {
        case .some(let event): String(describing: event)
        case .any: "any"
        }
    }
}

extension Event {
    /// Whether a wrapped event equals a plain event. `.any` equals no event.
    public static func == (lhs: Event<E>, rhs: E) -> Bool {
        lhs.rawValue == rhs
    }

    /// Whether a plain event equals a wrapped event. `.any` equals no event.
    public static func == (lhs: E, rhs: Event<E>) -> Bool {
        lhs == rhs.rawValue
    }
}
