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
    /// Whether a move from a compound state to one of its descendants leaves
    /// the compound state active (local) instead of exiting and re-entering it
    /// (external, the default). See ``local(_:)``.
    public let isLocal: Bool

    /// Creates a transition between two wrapped states.
    ///
    /// - Parameters:
    ///   - fromState: Where the move starts, or `.any`.
    ///   - toState: Where the move ends, or `.any`.
    @inlinable
    public init(fromState: State<S>, toState: State<S>) {
        self.init(fromState: fromState, toState: toState, isLocal: false)
    }

    @inlinable
    init(fromState: State<S>, toState: State<S>, isLocal: Bool) {
        self.fromState = fromState
        self.toState = toState
        self.isLocal = isLocal
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
    /// The transition as written in code, such as `open => closed` or
    /// `any => closed`, with `(local)` after a local one.
    public var description: String {
        "\(fromState) => \(toState)" + (isLocal ? " (local)" : "")
    }
}

extension Transition {
    /// The same move, made local: taken from a compound state to one of its
    /// descendants, it exits and enters only states inside the compound state,
    /// which stays active.
    ///
    /// ```swift
    /// // Skips to the next track without leaving (and re-entering) `.active`.
    /// player.addRoutes(event: .next, transitions: [.local(.active => .loading)])
    /// ```
    ///
    /// A move is external by default, as in SCXML: the source is exited and
    /// entered again. `local` changes nothing for a move whose source is not a
    /// compound state, or whose target is not inside it.
    ///
    /// - Parameter transition: The move.
    /// - Returns: The move, marked local.
    @inlinable
    public static func local(_ transition: Transition<S>) -> Transition<S> {
        Transition(fromState: transition.fromState, toState: transition.toState, isLocal: true)
    }
}

extension Transition {
    /// Whether this transition, wildcards included, covers the move `from` → `to`.
    func matches(from: S, to: S) -> Bool {
        (fromState == .any || fromState == from) && (toState == .any || toState == to)
    }
}
