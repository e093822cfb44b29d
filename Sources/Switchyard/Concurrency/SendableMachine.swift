/// A state machine that any thread or task may drive: the same routes,
/// handlers and statecharts as ``Machine``, taking `@Sendable` closures, with
/// one transition at a time.
///
/// ```swift
/// let door = SendableMachine<Door, DoorEvent>(state: .open) { door in
///     door.addRoutes(event: .close, transitions: [.open => .closed])
///     door.addRoutes(event: .lock, transitions: [.closed => .locked])
///     door.addHandler(event: .any) { context in print(context.toState) }
/// }
/// await withTaskGroup(of: Void.self) { group in
///     group.addTask { door <-! .close }
///     group.addTask { door <-! .lock }
/// }
/// ```
///
/// A request takes the machine's lock, is decided, and runs its handlers
/// before the lock is let go, so handlers hear one transition at a time, in
/// the order the machine took them, and a request returns the true answer.
/// A request a handler makes (on the handler's thread, which holds the lock)
/// waits until the handlers in progress have run, as under
/// ``DeliveryPolicy/runToCompletion``, and answers `false`
/// (``TransitionError/Reason-swift.struct/queued``): it never deadlocks and
/// never runs a handler inside another. Requests from other threads wait
/// for the lock.
///
/// So a handler must not block waiting for another thread that uses the
/// same machine: that thread waits for the handler's lock. Hand slow work to
/// a task instead.
///
/// Why a lock and not an actor: a request stays synchronous and returns its
/// answer as ``Machine``'s does, so synchronous code can make it and
/// SwiftState's API keeps its shape. Speed does not decide it: measured
/// (`Benchmarks/`, `sendable-event-small` and `actor-event-small`), an
/// uncontended request costs about the same through a lock as through an
/// idle actor. Use a ``Machine`` where one isolation domain (the main actor,
/// an actor) owns the machine: it needs no lock at all.
///
/// Nesting machines (``Machine/nest(_:under:as:)``) and the observable model
/// are ``Machine``'s only: a hierarchy of machines shares one isolation
/// domain, and SwiftUI observes on the main actor.
public final class SendableMachine<S: StateType & Sendable, E: EventType & Sendable>: Sendable {
    /// What conditions and handlers are told about a transition.
    public typealias Context = TransitionContext<S, E>
    /// Decides whether a route may be taken.
    public typealias Condition = @Sendable (Context) -> Bool
    /// Runs after a transition (or, for error handlers, after a refusal).
    public typealias Handler = @Sendable (Context) -> Void
    /// Routes by closure (see ``Machine/RouteMapping``).
    public typealias RouteMapping = @Sendable (_ event: E?, _ fromState: S, _ userInfo: Any?) -> S?
    /// Routes states by closure (see ``Machine/StateRouteMapping``).
    public typealias StateRouteMapping = @Sendable (_ fromState: S, _ userInfo: Any?) -> [S]?

    /// The machine that does the work, reached only under its lock.
    @usableFromInline let guarded: Guarded<Machine<S, E>>

    /// Creates a machine in `state` and lets `initClosure` add its routes and handlers.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - initClosure: Configures the new machine.
    @inlinable
    public init(state: S, initClosure: ((SendableMachine) -> Void)? = nil) {
        guarded = Guarded(Machine(state: state, delivery: .runToCompletion), lock: RecursiveLock())
        initClosure?(self)
    }

    /// Runs `closure` with this machine, to add routes and handlers in one place.
    ///
    /// - Parameter closure: Configures the machine.
    public func configure(_ closure: (SendableMachine) -> Void) {
        closure(self)
    }

    /// The current state (see ``Machine/state``).
    @inlinable
    public var state: S {
        guarded.withLock { $0.state }
    }

    /// Every active state (see ``Machine/configuration``).
    public var configuration: [S] {
        guarded.withLock { $0.configuration }
    }

    /// Whether `state` is active (see ``Machine/isActive(_:)``).
    public func isActive(_ state: S) -> Bool {
        guarded.withLock { $0.isActive(state) }
    }

    /// Whether the machine has entered a top-level final state (see ``Machine/isFinished``).
    public var isFinished: Bool {
        guarded.withLock { $0.isFinished }
    }

    /// What `state` recorded as its history (see ``Machine/recordedHistory(of:)``).
    public func recordedHistory(of state: S) -> [S] {
        guarded.withLock { $0.recordedHistory(of: state) }
    }
}

// MARK: - Requests

extension SendableMachine {
    /// Fires `event`; see ``Machine/tryEvent(_:userInfo:)``.
    ///
    /// - Parameters:
    ///   - event: The event to fire.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers,
    ///     which all run on the calling thread.
    /// - Returns: Whether the machine took a transition.
    @inlinable
    @discardableResult
    public func tryEvent(_ event: E, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.tryEvent(event, userInfo: userInfo) }
    }

    /// Asks for `toState`; see ``Machine/tryState(_:userInfo:)``.
    ///
    /// - Parameters:
    ///   - toState: The state to go to.
    ///   - userInfo: Passed, untouched, to conditions, mappings and handlers.
    /// - Returns: Whether the machine moved.
    @inlinable
    @discardableResult
    public func tryState(_ toState: S, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.tryState(toState, userInfo: userInfo) }
    }

    /// Fires `event` and says why it was refused; see ``Machine/attemptEvent(_:userInfo:)``.
    @inlinable
    @discardableResult
    public func attemptEvent(_ event: E, userInfo: Any? = nil) -> Result<S, TransitionError> {
        guarded.withLock { $0.attemptEvent(event, userInfo: userInfo) }
    }

    /// Asks for `toState` and says why it was refused; see ``Machine/attemptState(_:userInfo:)``.
    @inlinable
    @discardableResult
    public func attemptState(_ toState: S, userInfo: Any? = nil) -> Result<S, TransitionError> {
        guarded.withLock { $0.attemptState(toState, userInfo: userInfo) }
    }

    /// Enters the initial configuration, running its entry handlers; see ``Machine/start()``.
    @discardableResult
    public func start() -> Bool {
        guarded.withLock { $0.start() }
    }

    /// The machine's configuration and history, to restore later; see ``Machine/snapshot()``.
    public func snapshot() -> MachineSnapshot<S> {
        guarded.withLock { $0.snapshot() }
    }

    /// Restores a snapshot; see ``Machine/restore(_:runningHandlers:)``.
    ///
    /// - Throws: A ``SnapshotError`` that says what is wrong; the machine is unchanged.
    public func restore(_ snapshot: MachineSnapshot<S>, runningHandlers: Bool = false) throws(SnapshotError) {
        try guarded.withLock { (machine) throws(SnapshotError) in
            try machine.restore(snapshot, runningHandlers: runningHandlers)
        }
    }

    /// The transitions the machine takes from now on, as an async sequence;
    /// see ``Machine/transitions(includingRefusals:bufferingPolicy:)``.
    ///
    /// Records are yielded in the order the machine takes its transitions,
    /// whichever threads asked for them.
    public func transitions(
        includingRefusals: Bool = false,
        bufferingPolicy: AsyncStream<TransitionRecord<S, E>>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransitionRecord<S, E>> {
        guarded.withLock { $0.transitions(includingRefusals: includingRefusals, bufferingPolicy: bufferingPolicy) }
    }
}

// MARK: - Questions

extension SendableMachine {
    /// Whether an event route allows `transition`; see ``Machine/hasRoute(event:transition:userInfo:)``.
    public func hasRoute(event: E, transition: Transition<S>, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.hasRoute(event: event, transition: transition, userInfo: userInfo) }
    }

    /// Whether an event route allows the move; see ``Machine/hasRoute(event:fromState:toState:userInfo:)``.
    public func hasRoute(event: E, fromState: S, toState: S, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.hasRoute(event: event, fromState: fromState, toState: toState, userInfo: userInfo) }
    }

    /// Whether a route allows `transition`; see ``Machine/hasRoute(_:userInfo:)``.
    public func hasRoute(_ transition: Transition<S>, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.hasRoute(transition, userInfo: userInfo) }
    }

    /// Whether a route allows the move; see ``Machine/hasRoute(fromState:toState:userInfo:)``.
    public func hasRoute(fromState: S, toState: S, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.hasRoute(fromState: fromState, toState: toState, userInfo: userInfo) }
    }

    /// The state `event` would lead to, or `nil`; see ``Machine/canTryEvent(_:userInfo:)``.
    public func canTryEvent(_ event: E, userInfo: Any? = nil) -> S? {
        guarded.withLock { $0.canTryEvent(event, userInfo: userInfo) }
    }

    /// Whether asking for `toState` would move the machine; see ``Machine/canTryState(_:userInfo:)``.
    public func canTryState(_ toState: S, userInfo: Any? = nil) -> Bool {
        guarded.withLock { $0.canTryState(toState, userInfo: userInfo) }
    }
}
