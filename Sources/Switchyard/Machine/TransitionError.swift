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
    /// Why a request was refused.
    ///
    /// A struct rather than an enum, so that later versions can add reasons
    /// without breaking code that switches over them: match the reasons you
    /// handle, and add a `default`.
    ///
    /// ```swift
    /// switch error.reason {
    /// case .conditionsRefused: showNotAllowed()
    /// default: showUnavailable()
    /// }
    /// ```
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case noRoute, conditionsRefused, unreachable, stateNotListed, reentrantRequest, queued, inactive
            case finished, unsettled
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// No route and no route mapping covers this event in this state.
        public static let noRoute = Reason(.noRoute)
        /// Routes cover the request, but the condition of every one refused it.
        public static let conditionsRefused = Reason(.conditionsRefused)
        /// No route or mapping leads from the current state to the requested one.
        public static let unreachable = Reason(.unreachable)
        /// The only routes that cover the request list their states
        /// (`[.a, .b] => .c` or `.a => [.b, .c]`), and the current state is not
        /// among their sources, or the target not among their targets.
        public static let stateNotListed = Reason(.stateNotListed)
        /// The request was made while the machine was deciding another one:
        /// from one of its own conditions or route mappings, which may ask
        /// questions but must not move the machine. Debug builds stop with an
        /// assertion that names the misuse.
        public static let reentrantRequest = Reason(.reentrantRequest)
        /// The request was made by a handler while a statechart's step (or
        /// refusal) was running, while a delivery of a machine created with
        /// ``DeliveryPolicy/runToCompletion`` was running, or while
        /// deliveries of machines were nested
        /// ``DeliveryPolicy/immediateNestingLimit`` deep on the thread: it
        /// waits, and is decided and delivered when that step or delivery
        /// ends (or that nesting unwinds). Its own refusal, if it comes to one, runs the
        /// error handlers then.
        public static let queued = Reason(.queued)
        /// The request was made to a machine nested in another (see
        /// ``Machine/nest(_:under:as:)``) while the state it is nested in is
        /// not active. Its error handlers run; nothing moves.
        public static let inactive = Reason(.inactive)
        /// The machine has finished: it entered a top-level final state (see
        /// ``Machine/addFinalState(_:)``), and refuses every later request.
        /// Its error handlers run; nothing moves.
        public static let finished = Reason(.finished)
        /// The request was taken, but the eventless and done routes it led
        /// to did not settle within ``Machine/internalStepLimit`` steps: a
        /// cycle of routes whose conditions never stop holding. The machine
        /// stopped where the last of those steps left it, and its error
        /// handlers ran.
        public static let unsettled = Reason(.unsettled)

        /// The reason for `refusal`, which says why routes refused a request
        /// (`nil`: none covered it), of an event or of a state request.
        init(_ refusal: Refusal?, isEvent: Bool) {
            switch refusal {
            case nil: self = isEvent ? .noRoute : .unreachable
            case .conditions: self = .conditionsRefused
            case .sourceNotListed, .targetNotListed: self = .stateNotListed
            case .reentrant: self = .reentrantRequest
            case .queued: self = .queued
            case .inactive: self = .inactive
            case .finished: self = .finished
            case .unsettled: self = .unsettled
            }
        }

        /// The reason's name, such as `noRoute`.
        public var description: String {
            kind.rawValue
        }
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

    /// The error for a refused event: `refusal` says why routes refused it,
    /// `nil` that none covered it.
    @usableFromInline
    init<S, E>(_ refusal: Refusal?, event: E, fromState: S) {
        let request = "event \(event) from \(fromState)"
        switch refusal {
        case nil:
            self.init(reason: .noRoute, description: "no route for \(request)")
        case .conditions:
            self.init(reason: .conditionsRefused, description: "the condition of every route refused \(request)")
        case .sourceNotListed:
            self.init(
                reason: .stateNotListed,
                description: "\(fromState) is not one of the states the routes of event \(event) leave from")
        case .targetNotListed:
            self.init(
                reason: .stateNotListed,
                description: "\(fromState) is not one of the states the routes of event \(event) lead to")
        case let refused?:
            self.init(refusedByMachine: refused, request: request)
        }
    }

    /// The error for a request the machine refused before asking its routes,
    /// `request` describing it: made while it decided another, waiting, or
    /// made to a nested machine that is not active.
    init(refusedByMachine refusal: Refusal, request: String) {
        switch refusal {
        case .reentrant:
            self.init(
                reason: .reentrantRequest,
                description: "\(request) was requested while the machine was deciding another request")
        case .queued:
            self.init(
                reason: .queued,
                description:
                    "\(request) waits for the step in progress to end (or for deliveries nested too deep to unwind)")
        case .finished:
            self.init(
                reason: .finished,
                description: "\(request) was refused: the machine has finished (it entered a top-level final state)")
        case .unsettled:
            self.init(
                reason: .unsettled,
                description:
                    "\(request) was taken, but the eventless and done routes it led to did not settle within \(internalStepLimitValue) steps; the machine stopped there"
            )
        default:
            assert(refusal == .inactive, "TransitionError(refusedByMachine:) was given a refusal of routes")
            self.init(
                reason: .inactive,
                description: "\(request) was refused: the machine is nested in a state that is not active")
        }
    }

    /// The error for a refused state request: `refusal` says why routes
    /// refused it, `nil` that none covered it.
    @usableFromInline
    init<S>(_ refusal: Refusal?, fromState: S, toState: S) {
        let request = "\(fromState) => \(toState)"
        switch refusal {
        case nil:
            self.init(reason: .unreachable, description: "no route leads \(request)")
        case .conditions:
            self.init(reason: .conditionsRefused, description: "the condition of every route refused \(request)")
        case .sourceNotListed:
            self.init(
                reason: .stateNotListed,
                description: "\(fromState) is not one of the states the routes to \(toState) leave from")
        case .targetNotListed:
            self.init(
                reason: .stateNotListed,
                description: "\(toState) is not one of the states the routes from \(fromState) lead to")
        case let refused?:
            self.init(refusedByMachine: refused, request: request)
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
    ///   ``TransitionError/Reason/noRoute``, ``TransitionError/Reason/conditionsRefused``,
    ///   ``TransitionError/Reason/stateNotListed`` or ``TransitionError/Reason/reentrantRequest``;
    ///   on a statechart also ``TransitionError/Reason/inactive`` (a nested machine whose
    ///   state is not active), ``TransitionError/Reason/finished`` or
    ///   ``TransitionError/Reason/unsettled``. A request that must wait (see
    ///   ``TransitionError/Reason/queued``) answers `.queued`, as ``tryEvent(_:userInfo:)``
    ///   answers `false`: its outcome is not known when the call returns.
    @inlinable
    @discardableResult
    public func attemptEvent(_ event: E, userInfo: Any? = nil) -> Result<S, TransitionError> {
        let fromState = state
        switch perform(event: event, userInfo: UserInfoBox.boxing(userInfo)) {
        case .move(let target, _, _):
            return .success(target)
        case .noRoute:
            return .failure(TransitionError(nil, event: event, fromState: fromState))
        case .refused(let refusal):
            return .failure(TransitionError(refusal, event: event, fromState: fromState))
        }
    }

    /// Asks for `toState` like ``tryState(_:userInfo:)`` and says why it was refused.
    ///
    /// - Parameters:
    ///   - toState: The state to go to.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: The new state, or why the request was refused:
    ///   ``TransitionError/Reason/unreachable``, ``TransitionError/Reason/conditionsRefused``,
    ///   ``TransitionError/Reason/stateNotListed`` or ``TransitionError/Reason/reentrantRequest``;
    ///   on a statechart also ``TransitionError/Reason/inactive``,
    ///   ``TransitionError/Reason/finished`` or ``TransitionError/Reason/unsettled``. A
    ///   request that must wait answers ``TransitionError/Reason/queued``, as
    ///   ``tryState(_:userInfo:)`` answers `false`.
    @inlinable
    @discardableResult
    public func attemptState(_ toState: S, userInfo: Any? = nil) -> Result<S, TransitionError> {
        let fromState = state
        switch perform(state: toState, userInfo: UserInfoBox.boxing(userInfo)) {
        case .move(let target, _, _):
            return .success(target)
        case .noRoute:
            return .failure(TransitionError(nil, fromState: fromState, toState: toState))
        case .refused(let refusal):
            return .failure(TransitionError(refusal, fromState: fromState, toState: toState))
        }
    }
}
