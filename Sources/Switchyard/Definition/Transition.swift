/// A move from one state to another, written `from => to`.
///
/// Either side may be ``State/any``: `.any => .closed` is every move into
/// `closed`, `.open => .any` every move out of `open`.
///
/// ```swift
/// let close: Transition<Door> = .open => .closed
/// ```
public struct Transition<S: StateType>: Hashable {
    /// The state the move starts in, or ``State/any``.
    public let fromState: State<S>
    /// The state the move ends in, or ``State/any``.
    public let toState: State<S>

    /// Creates a transition between two wrapped states.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts, or `.any`.
    ///   - toState: Where the move ends, or `.any`.
    @inlinable
    public init(fromState: State<S>, toState: State<S>) {
        self.fromState = fromState
        self.toState = toState
    }

    /// Creates a transition from a concrete state.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts.
    ///   - toState: Where the move ends, or `.any`.
    @inlinable
    public init(fromState: S, toState: State<S>) {
        self.init(fromState: .some(fromState), toState: toState)
    }

    /// Creates a transition to a concrete state.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts, or `.any`.
    ///   - toState: Where the move ends.
    @inlinable
    public init(fromState: State<S>, toState: S) {
        self.init(fromState: fromState, toState: .some(toState))
    }

    /// Creates a transition between two concrete states.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts.
    ///   - toState: Where the move ends.
    @inlinable
    public init(fromState: S, toState: S) {
        self.init(fromState: .some(fromState), toState: .some(toState))
    }
}

extension Transition: Sendable where S: Sendable {}

extension Transition: CustomStringConvertible {
    /// The transition as written in code, such as `open => closed` or `any => closed`.
    public var description: String {
        "\(fromState) => \(toState)"
    }
}

extension Transition {
    /// Whether this transition, wildcards included, covers the move `from` → `to`.
    func matches(from: S, to: S) -> Bool {
        (fromState == .any || fromState == from) && (toState == .any || toState == to)
    }
}
