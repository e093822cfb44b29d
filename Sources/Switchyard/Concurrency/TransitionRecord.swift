/// One decision of a machine, as ``Machine/transitions(includingRefusals:bufferingPolicy:)``
/// delivers it: a transition it took or, if asked for, a request it refused.
///
/// ```swift
/// for await record in door.transitions() {
///     print(record)  // "closed => locked on lock"
/// }
/// ```
///
/// Unlike a handler's ``TransitionContext``, a record keeps no `userInfo`, so
/// that it is `Sendable` whenever the state and event types are.
public struct TransitionRecord<S: StateType, E: EventType>: Hashable {
    /// The event of the request, or `nil` for a state request and for the
    /// eventless and done routes of a statechart.
    public var event: E?
    /// The machine's `state` before the decision.
    public var fromState: S
    /// The machine's `state` after it; for a refused event, `fromState`, and
    /// for a refused state request, the state asked for (as error handlers
    /// are told).
    public var toState: S
    /// Why the request was refused, or `nil` for a transition taken.
    public var refusal: TransitionError.Reason?

    /// Creates a record; machines make these, tests may too.
    ///
    /// - Parameters:
    ///   - event: The event, or `nil` for a state request or an eventless step.
    ///   - fromState: The state before.
    ///   - toState: The state after, or the state asked for.
    ///   - refusal: Why the request was refused; `nil` for a transition taken.
    public init(event: E?, fromState: S, toState: S, refusal: TransitionError.Reason? = nil) {
        self.event = event
        self.fromState = fromState
        self.toState = toState
        self.refusal = refusal
    }

    /// Whether the machine took the transition (rather than refusing the request).
    public var isAccepted: Bool { refusal == nil }
}

extension TransitionRecord: Sendable where S: Sendable, E: Sendable {}

extension TransitionRecord: CustomStringConvertible {
    /// `from => to`, then the event (`on next`) and the refusal, if any:
    /// `closed => closed on lock, refused: noRoute`.
    public var description: String {
        var text = "\(fromState) => \(toState)"
        if let event {
            text += " on \(event)"
        }
        if let refusal {
            text += ", refused: \(refusal)"
        }
        return text
    }
}
