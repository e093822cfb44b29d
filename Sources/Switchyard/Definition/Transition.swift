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
    /// The states the move enters besides `toState`, in other regions of a
    /// parallel state that contains them all (see ``alsoEntering(_:)``).
    public let otherTargets: [S]
    /// Whether the move enters its target by its initial child even if the
    /// target keeps history (see ``ignoringHistory(_:)``).
    public let ignoresHistory: Bool

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
    init(
        fromState: State<S>, toState: State<S>, isLocal: Bool, otherTargets: [S] = [], ignoresHistory: Bool = false
    ) {
        self.fromState = fromState
        self.toState = toState
        self.isLocal = isLocal
        self.otherTargets = otherTargets
        self.ignoresHistory = ignoresHistory
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
        let targets = ([toState.description] + otherTargets.map { "\($0)" }).joined(separator: " + ")
        return "\(fromState) => \(targets)" + (isLocal ? " (local)" : "")
            + (ignoresHistory ? " (ignoring history)" : "")
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
        Transition(
            fromState: transition.fromState, toState: transition.toState, isLocal: true,
            otherTargets: transition.otherTargets, ignoresHistory: transition.ignoresHistory)
    }

    /// The same move, entering its target itself (its initial child, or all
    /// its regions) even if the target keeps history, whose default is not
    /// used either.
    ///
    /// ```swift
    /// player.addHistory(.shallow, to: .active)
    /// player.addRoutes(event: .resume, transitions: [.stopped => .active])  // where it was
    /// player.addRoutes(event: .restart, transitions: [.ignoringHistory(.stopped => .active)])  // from the top
    /// ```
    ///
    /// A move to a state that keeps history enters it through that history,
    /// as SCXML's transition to a history pseudo-state does; this is the
    /// move to the state itself. It concerns the target only: states
    /// entered inside it by default still use their own history. It
    /// concerns events only, too: a state request (`machine <- .active`)
    /// that this route allows enters `.active` through its history, since a
    /// request asks for a state, not for a route's way of entering it (see
    /// Statecharts.md, "Exits and entries").
    ///
    /// - Parameter transition: The move.
    /// - Returns: The move, entering its target afresh.
    @inlinable
    public static func ignoringHistory(_ transition: Transition<S>) -> Transition<S> {
        Transition(
            fromState: transition.fromState, toState: transition.toState, isLocal: transition.isLocal,
            otherTargets: transition.otherTargets, ignoresHistory: true)
    }

    /// The same move, entering `states` too: targets in other regions of a
    /// parallel state that contains them all, entered in one step (SCXML's
    /// `target="a b"`).
    ///
    /// ```swift
    /// // Enters the editor with the bold and italic regions both on.
    /// editor.addRoutes(event: .paste, transitions: [(.idle => .boldOn).alsoEntering(.italicOn)])
    /// ```
    ///
    /// Each region the targets do not name is entered by default.
    ///
    /// - Parameter states: The other targets.
    /// - Returns: The move with several targets.
    /// - Precondition: When the route is added, the targets (with
    ///   `toState`, which may not be `.any`) lie in different regions of one
    ///   parallel state, already declared.
    public func alsoEntering(_ states: S...) -> Transition<S> {
        Transition(
            fromState: fromState, toState: toState, isLocal: isLocal, otherTargets: otherTargets + states,
            ignoresHistory: ignoresHistory)
    }
}

extension Transition {
    /// Whether the move enters and exits as a plain `from => to` does: not
    /// local, one target, its history used. Routes that move by default can
    /// share a guard.
    @inlinable
    var movesByDefault: Bool {
        !isLocal && otherTargets.isEmpty && !ignoresHistory
    }

    /// Whether this transition, wildcards included, covers the move `from` → `to`.
    func matches(from: S, to: S) -> Bool {
        (fromState == .any || fromState == from) && (toState == .any || toState == to)
    }
}
