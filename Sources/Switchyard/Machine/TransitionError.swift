/// Why a machine refused a request, from ``Machine/attemptEvent(_:userInfo:)``
/// or ``Machine/attemptState(_:userInfo:)``.
///
/// ```swift
/// switch machine.attemptEvent(.finish) {
/// case .success(let state): print("now \(state)")
/// case .failure(let error): print(error)  // "no route for event finish from draft"
/// }
/// ```
///
/// The error does not repeat the machine's state and event types, so that it is
/// `Sendable` (as every `Error` must be) whatever they are; the state is still
/// the machine's `state`, and ``description`` names both.
public struct TransitionError: Error, Hashable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Reason: Hashable, Sendable {
        /// No route and no route mapping covers this event in this state.
        case noRoute
        /// Routes cover the request, but the condition of every one refused it.
        case conditionsRefused
        /// No route or mapping leads from the current state to the requested one.
        case unreachable
    }

    /// Why the request was refused.
    public let reason: Reason
    /// A sentence naming the request and the reason, for logs.
    public let description: String

    /// Creates an error value; the machine makes these, tests may too.
    ///
    /// - Parameters:
    ///   - reason: Why the request was refused.
    ///   - description: A sentence naming the request and the reason.
    public init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }

    /// The error for a refused event.
    @usableFromInline
    init<S, E>(reason: Reason, event: E, fromState: S) {
        let request = "event \(event) from \(fromState)"
        switch reason {
        case .noRoute: self.init(reason: reason, description: "no route for \(request)")
        case .conditionsRefused, .unreachable:
            self.init(reason: reason, description: "the condition of every route refused \(request)")
        }
    }

    /// The error for a refused state request.
    @usableFromInline
    init<S>(reason: Reason, fromState: S, toState: S) {
        let request = "\(fromState) => \(toState)"
        switch reason {
        case .noRoute, .unreachable: self.init(reason: reason, description: "no route leads \(request)")
        case .conditionsRefused:
            self.init(reason: reason, description: "the condition of every route refused \(request)")
        }
    }
}

extension Machine {
    /// Fires `event` like ``tryEvent(_:userInfo:)`` and says why it was refused.
    ///
    /// The handlers, and on refusal the error handlers, run exactly as for `tryEvent`.
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: The new state, or why the event was refused:
    ///   ``TransitionError/Reason/noRoute`` or ``TransitionError/Reason/conditionsRefused``.
    @inlinable
    @discardableResult
    public func attemptEvent(_ event: E, userInfo: Any? = nil) -> Result<S, TransitionError> {
        let fromState = state
        switch perform(event: event, userInfo: userInfo) {
        case .move(let target, _):
            return .success(target)
        case .noRoute:
            return .failure(TransitionError(reason: .noRoute, event: event, fromState: fromState))
        case .refused:
            return .failure(TransitionError(reason: .conditionsRefused, event: event, fromState: fromState))
        }
    }

    /// Asks for `toState` like ``tryState(_:userInfo:)`` and says why it was refused.
    ///
    /// - Parameters:
    ///   - toState: The state to go to.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: The new state, or why the request was refused:
    ///   ``TransitionError/Reason/unreachable`` or ``TransitionError/Reason/conditionsRefused``.
    @inlinable
    @discardableResult
    public func attemptState(_ toState: S, userInfo: Any? = nil) -> Result<S, TransitionError> {
        let fromState = state
        switch perform(state: toState, userInfo: userInfo) {
        case .move(let target, _):
            return .success(target)
        case .noRoute:
            return .failure(TransitionError(reason: .unreachable, fromState: fromState, toState: toState))
        case .refused:
            return .failure(TransitionError(reason: .conditionsRefused, fromState: fromState, toState: toState))
        }
    }
}
