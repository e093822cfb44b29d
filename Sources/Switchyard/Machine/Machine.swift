/// The order in which handlers run: lower first. The default is 100.
///
/// Handlers of equal order run most specific first (an exact event before
/// `.any`; `from => to`, then `from => .any`, `.any => to`, `.any => .any`),
/// then in the order they were added.
public typealias HandlerOrder = UInt8

/// A state machine with routes written `.a => .b`, driven by events
/// (`machine <-! .go`) or by asking for states (`machine <- .b`).
///
/// ```swift
/// enum Door: StateType { case open, closed, locked }
/// enum DoorEvent: EventType { case close, lock }
///
/// let door = Machine<Door, DoorEvent>(state: .open) { door in
///     door.addRoutes(event: .close, transitions: [.open => .closed])
///     door.addRoutes(event: .lock, transitions: [.closed => .locked])
///     door.addHandler(event: .any) { context in print(context.toState) }
/// }
/// door <-! .close <-! .lock  // prints "closed", then "locked"
/// ```
///
/// A machine belongs to one isolation domain (the main actor, an actor, a task);
/// it does no locking. Handlers run after the state has changed.
public final class Machine<S: StateType, E: EventType> {
    /// What conditions and handlers are told about a transition.
    public typealias Context = TransitionContext<S, E>
    /// Decides whether a route may be taken.
    public typealias Condition = (Context) -> Bool
    /// Runs after a transition (or, for error handlers, after a refusal).
    public typealias Handler = (Context) -> Void
    /// Routes by closure: given the event (`nil` for `tryState`), the current
    /// state and the user info, the state to go to, or `nil` for no route.
    public typealias RouteMapping = (_ event: E?, _ fromState: S, _ userInfo: Any?) -> S?
    /// Routes states by closure: given the current state and the user info,
    /// the states `tryState` may go to, or `nil` for none.
    public typealias StateRouteMapping = (_ fromState: S, _ userInfo: Any?) -> [S]?

    /// The current state.
    @inlinable
    public var state: S {
        currentState
    }

    @usableFromInline var currentState: S

    /// When the handlers of a nested request run.
    public let delivery: DeliveryPolicy

    @usableFromInline var routes = RouteTable<S, E>()
    @usableFromInline var handlers = HandlerTable<S, E>()
    @usableFromInline var lastID: UInt64 = 0

    /// Deliveries waiting for the one in progress, under `.runToCompletion`.
    @usableFromInline var pending: [Delivery] = []
    @usableFromInline var isDelivering = false

    /// Creates a machine in `state` and lets `initClosure` add its routes and handlers.
    ///
    /// ```swift
    /// let machine = StateMachine<Door, NoEvent>(state: .open) { machine in
    ///     machine.addRoute(.open => .closed)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - delivery: When the handlers of a transition requested from inside a
    ///     handler run; ``DeliveryPolicy/immediate`` (SwiftState's behaviour) by default.
    ///   - initClosure: Configures the new machine.
    public init(state: S, delivery: DeliveryPolicy = .immediate, initClosure: ((Machine) -> Void)? = nil) {
        self.currentState = state
        self.delivery = delivery
        initClosure?(self)
    }

    /// Runs `closure` with this machine, to add routes and handlers in one place.
    ///
    /// - Parameter closure: Configures the machine.
    public func configure(_ closure: (Machine) -> Void) {
        closure(self)
    }

    @inlinable
    func makeID() -> RegistrationID {
        lastID += 1
        return RegistrationID(rawValue: lastID)
    }
}

/// The same class as ``Machine``: one class does both event-driven and
/// state-driven work. The name SwiftState used for the state-driven machine.
public typealias StateMachine<S: StateType, E: EventType> = Machine<S, E>

// MARK: - Performing transitions

extension Machine {
    /// A transition (or refusal) whose handlers are to run.
    @usableFromInline
    struct Delivery {
        @usableFromInline var kind: DeliveryKind
        @usableFromInline var context: Context

        @inlinable
        init(kind: DeliveryKind, context: Context) {
            self.kind = kind
            self.context = context
        }
    }

    /// Decides, moves and delivers one event; the one path under every event API.
    @inlinable
    func perform(event: E, userInfo: Any?) -> Decision<S> {
        let from = state
        // A local copy: conditions and mappings may add or dispose routes.
        let routes = self.routes
        let decision = routes.decide(event: event, from: from, userInfo: userInfo)
        switch decision {
        case .move(let target):
            currentState = target
            deliver(Delivery(kind: .event, context: Context(event: event, fromState: from, toState: target, userInfo: userInfo)))
        case .noRoute, .refused:
            deliver(Delivery(kind: .error, context: Context(event: event, fromState: from, toState: from, userInfo: userInfo)))
        }
        return decision
    }

    /// Decides, moves and delivers one state request; the one path under every state API.
    @inlinable
    func perform(state target: S, userInfo: Any?) -> Decision<S> {
        let from = state
        let routes = self.routes
        let decision = routes.decide(from: from, to: target, userInfo: userInfo)
        switch decision {
        case .move:
            currentState = target
            deliver(Delivery(kind: .state, context: Context(event: nil, fromState: from, toState: target, userInfo: userInfo)))
        case .noRoute, .refused:
            deliver(Delivery(kind: .error, context: Context(event: nil, fromState: from, toState: target, userInfo: userInfo)))
        }
        return decision
    }

    @inlinable
    func deliver(_ delivery: Delivery) {
        guard self.delivery == .runToCompletion else {
            run(delivery)
            return
        }
        guard !isDelivering else {
            pending.append(delivery)
            return
        }
        isDelivering = true
        defer { isDelivering = false }
        run(delivery)
        var next = 0
        while next < pending.count {
            let waiting = pending[next]
            next += 1
            run(waiting)
        }
        pending.removeAll(keepingCapacity: true)
    }

    @inlinable
    func run(_ delivery: Delivery) {
        // A local copy: handlers may add or dispose handlers while we iterate.
        let handlers = self.handlers
        let context = delivery.context
        handlers.forEachHandler(
            kind: delivery.kind, event: context.event, from: context.fromState, to: context.toState
        ) { record in
            if !record.isDisposed {
                record.body(context)
            }
        }
    }
}

// MARK: - Registering

extension Machine {
    /// Adds a handler to `slot` and returns what removes it.
    @inlinable
    func register(_ slot: HandlerSlot<S, E>, order: HandlerOrder, handler: @escaping Handler) -> Disposable {
        let record = HandlerRecord(order: order, rank: slot.rank, id: makeID(), body: handler)
        handlers.add(record, to: slot)
        return ActionDisposable { [weak self] in
            record.isDisposed = true
            self?.handlers.remove(record, from: slot)
        }
    }

    /// One disposable for several registrations.
    @usableFromInline
    func combine(_ disposables: [Disposable]) -> Disposable {
        ActionDisposable {
            for disposable in disposables {
                disposable.dispose()
            }
        }
    }
}
