/// A state, or the wildcard ``any`` that matches every state.
///
/// Routes and handlers are written with `State` on either side of `=>`, so that
/// `.any => .closed` means "from any state to `closed`". Plain `S` values convert
/// through the `=>` overloads, so you rarely write `.some(_)` yourself.
///
/// `.any` is not equal to any concrete state: `State.any == .some(x)` is `false`.
/// Matching a wildcard against a concrete state is the machine's job, not `==`'s.
public enum State<S: StateType> {
    /// One concrete state.
    case some(S)
    /// Every state.
    case any
}

extension State: Hashable {}

extension State: Sendable where S: Sendable {}

extension State: RawRepresentable {
    /// Wraps a concrete state, or makes ``any`` from `nil`.
    ///
    /// - Parameter rawValue: A state, or `nil` for the wildcard.
    @inlinable
    public init(rawValue: S?) {
        self = rawValue.map(State.some) ?? .any
    }

    /// The concrete state, or `nil` for ``any``.
    @inlinable
    public var rawValue: S? {
        switch self {
        case .some(let state): state
        case .any: nil
        }
    }
}

extension State: CustomStringConvertible {
    /// The wrapped state's own description, or `any` for the wildcard.
    public var description: String {
        switch self {
        case .some(let state): String(describing: state)
        case .any: "any"
        }
    }
}

extension State {
    /// Whether a wrapped state equals a plain state. `.any` equals no state.
    public static func == (lhs: State<S>, rhs: S) -> Bool {
        lhs.rawValue == rhs
    }

    /// Whether a plain state equals a wrapped state. `.any` equals no state.
    public static func == (lhs: S, rhs: State<S>) -> Bool {
        lhs == rhs.rawValue
    }
}
