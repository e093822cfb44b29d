/// What a condition, handler or error handler is told about one transition.
///
/// A machine names this type `Machine.Context`. Its public initializer lets you
/// test conditions and handlers on their own:
///
/// ```swift
/// let context = Machine<Door, DoorEvent>.Context(
///     event: .pull, fromState: .closed, toState: .open, userInfo: nil)
/// #expect(isAllowed(context))
/// ```
///
/// It prints exactly as SwiftState's context did, so logs keep their shape:
/// `Context(event: Optional(Door.pull), fromState: Door.closed, toState: Door.open, userInfo: nil)`.
public struct TransitionContext<S: StateType, E: EventType> {
    /// The event that was fired, or `nil` for a transition asked by state (`tryState`).
    public var event: E?
    /// The state the machine was in.
    public var fromState: S
    /// The state the machine moves to. For a failed event this is `fromState`.
    public var toState: S
    /// The value passed with the request, untouched; never stored by the machine.
    public var userInfo: Any? {
        get { userInfoBox?.value }
        set { userInfoBox = UserInfoBox.boxing(newValue) }
    }

    /// `userInfo`, boxed once per request and shared by every context of it:
    /// a `nil` reference costs nothing to copy or destroy, where an `Any?`
    /// goes through its type's value witnesses each time.
    @usableFromInline var userInfoBox: UserInfoBox?

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - event: The fired event, or `nil` for a state-driven transition.
    ///   - fromState: The state the machine was in.
    ///   - toState: The state the machine moves to.
    ///   - userInfo: Anything the caller passed along.
    @inlinable
    public init(event: E?, fromState: S, toState: S, userInfo: Any?) {
        self.init(event: event, fromState: fromState, toState: toState, userInfoBox: UserInfoBox.boxing(userInfo))
    }

    /// Creates a context that shares the request's boxed `userInfo`.
    @inlinable
    init(event: E?, fromState: S, toState: S, userInfoBox: UserInfoBox?) {
        self.event = event
        self.fromState = fromState
        self.toState = toState
        self.userInfoBox = userInfoBox
    }
}

extension TransitionContext: CustomReflectable {
    /// The four fields SwiftState's context has, in its order (`dump` shows
    /// them rather than the box that holds `userInfo`).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["event": event as Any, "fromState": fromState, "toState": toState, "userInfo": userInfo as Any],
            displayStyle: .struct)
    }
}

extension TransitionContext: CustomStringConvertible {
    /// `Context(event: …, fromState: …, toState: …, userInfo: …)`, each value
    /// printed as SwiftState's tuple context printed it.
    public var description: String {
        "Context(event: \(String(reflecting: event)), fromState: \(String(reflecting: fromState)), "
            + "toState: \(String(reflecting: toState)), userInfo: \(String(reflecting: userInfo)))"
    }
}
