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

    /// The current state: for a statechart, the deepest state that contains
    /// every active atomic state (the single active atomic state when no
    /// parallel state is active).
    @inlinable
    public var state: S {
        if chart != nil {
            prepareChart()
        }
        return currentState
    }

    @usableFromInline
    @exclusivity(unchecked) var currentState: S
    /// The code of `currentState` in the route table, kept beside it so that a
    /// decision need not hash the state; ``SymbolCode/unknown`` until looked up
    /// (and while no route or handler names the state).
    @usableFromInline
    @exclusivity(unchecked) var currentCode = SymbolCode.unknown
    /// The codes of the events looked up last (see ``RecentEventCodes``).
    @usableFromInline
    @exclusivity(unchecked) var recentEvents = RecentEventCodes<E>()

    /// When the handlers of a nested request run.
    public let delivery: DeliveryPolicy

    // Dynamic exclusivity checks are off for these: the machine never holds an
    // access across a call to user code (it reads copy-on-write copies instead),
    // and the checks cost more than a whole transition.
    @usableFromInline
    @exclusivity(unchecked) var routes = RouteTable<S, E>()
    @usableFromInline
    @exclusivity(unchecked) var handlers = HandlerTable<S, E>()
    @usableFromInline
    @exclusivity(unchecked) var lastID: UInt64 = 0

    /// The work that waits: deliveries, under `.runToCompletion` for the one
    /// in progress and under either policy for the deliveries nested too deep
    /// on the thread; a statechart's requests, for the step in progress or
    /// for the thread's deliveries to unwind.
    @usableFromInline
    @exclusivity(unchecked) var waiting = WaitingQueue<Delivery, QueuedRequest>()
    /// How many deliveries are running (nested ones count under `.immediate`).
    @usableFromInline
    @exclusivity(unchecked) var deliveryDepth = 0
    /// Whether this machine's deliveries or requests wait for the deliveries
    /// nested on its thread to unwind (see ``DeliveryThread``).
    @usableFromInline
    @exclusivity(unchecked) var isWaitingOnThread = false
    /// The deliveries of the thread a statechart's step runs on, from its
    /// beginning to its end (looked up once).
    @usableFromInline
    @exclusivity(unchecked) var stepThread: DeliveryThread?
    /// How many decisions (requests or questions) are being taken: a request
    /// made while one is, from a condition or route mapping, is refused.
    @usableFromInline
    @exclusivity(unchecked) var decisionDepth = 0
    /// In debug builds, the thread that began the decision in progress (see
    /// ``noteDecidingThread()``); 0 in release builds.
    @usableFromInline
    @exclusivity(unchecked) var decidingThread: UInt = 0
    /// The questions being answered inside a decision, to catch a condition
    /// that asks about its own route (which would recurse forever).
    @exclusivity(unchecked) var openQuestions: [Question] = []
    /// The machine's statechart, once it declares children or regions or adds
    /// an entry or exit handler; `nil` keeps a flat machine on its fast path.
    @usableFromInline
    @exclusivity(unchecked) var chart: Statechart?
    /// How the machine takes a statechart's step: set with ``chart``.
    @usableFromInline var stepEntry: StepEntry<S, E>?
    /// The state the statechart's configuration starts from until it begins.
    @usableFromInline
    @exclusivity(unchecked) var initialState: S
    /// The step being planned or delivered, and the lists of ancestries, kept so that a
    /// step allocates nothing once they have grown.
    @usableFromInline
    @exclusivity(unchecked) var plan = StepPlan()
    /// How many readers of planned steps (see ``StepReader``) are waiting
    /// for steps: while one is, a step's lists are copied out of the memo of
    /// steps for it to read (``StepPlan/listsAreInMemo``).
    @usableFromInline
    @exclusivity(unchecked) var stepReaderCount = 0
    @usableFromInline
    @exclusivity(unchecked) var ancestryBefore = ReusableList<SymbolCode>()
    @usableFromInline
    @exclusivity(unchecked) var ancestryAfter = ReusableList<SymbolCode>()
    @usableFromInline
    @exclusivity(unchecked) var isStepping = false
    @usableFromInline
    @exclusivity(unchecked) var isRunningQueue = false
    @usableFromInline
    @exclusivity(unchecked) var hasStarted = false
    /// Whether a flat machine has taken a step or restored a snapshot: its
    /// state is then live, so a statechart it gains has begun in it.
    @usableFromInline
    @exclusivity(unchecked) var hasMoved = false
    /// For the root of a hierarchy of nested machines: the hierarchy.
    @usableFromInline
    @exclusivity(unchecked) var nesting: Nesting?
    /// For a machine nested in another: how it reaches the root of its hierarchy.
    @usableFromInline
    @exclusivity(unchecked) var nestingLink: NestingLink?

    /// What hears the machine's decisions outside its handlers (async
    /// sequences, an observable model); `nil` until one is asked for.
    @usableFromInline
    @exclusivity(unchecked) var watchers: TransitionWatchers<S, E>?

    /// The timers of the machine's timed routes, by registration; each
    /// cancels its task when the machine lets it go.
    @exclusivity(unchecked) var timers: [RegistrationID: RouteTimer] = [:]

    /// What the machine's registrations reach it through; cleared in `deinit`.
    var registrationOwner: RegistrationOwner
    /// Handlers disposed while a delivery that already listed them is running.
    @usableFromInline
    @exclusivity(unchecked) var disposedDuringDelivery: Set<RegistrationID> = []

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
        self.initialState = state
        self.delivery = delivery
        self.registrationOwner = RegistrationOwner { machine, registration, removing in
            machine.withObject(as: Machine.self) { $0.access(registration, removing: removing) }
        }
        registrationOwner.machine = Unretained(self)
        initClosure?(self)
    }

    deinit {
        // Registrations that outlive the machine learn which of them it still
        // held, so that their `disposed` stays false until they are disposed.
        if !isKnownUniquelyReferenced(&registrationOwner) {
            var held = Set<RegistrationID>()
            handlers.forEachRegistration { held.insert($0) }
            routes.forEachRegistration { held.insert($0) }
            registrationOwner.heldWhenReleased = held
        }
        registrationOwner.machine = nil
        watchers?.finish()
        // Machines nested in this one become machines of their own again.
        if let nesting {
            for member in nesting.members.dropFirst() {
                member.access!.detach(member.tree)
            }
        }
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
        @usableFromInline var codes: TransitionCodes
        /// Why a request was refused, for its watchers; `nil` for a move.
        @usableFromInline var refusal: Refusal?

        @inlinable
        init(kind: DeliveryKind, context: Context, codes: TransitionCodes, refusal: Refusal?) {
            self.kind = kind
            self.context = context
            self.codes = codes
            self.refusal = refusal
        }
    }

    /// The code of `event` in the route table: a few comparisons when it is
    /// one of the events looked up last, else one hash.
    @inlinable
    func code(of event: E, in routes: RouteTable<S, E>.Storage) -> SymbolCode {
        // Known when the machine is specialised: the other branch goes.
        guard _isPOD(E.self) else { return routes.events.code(of: event) }
        if let code = recentEvents.code(of: event) {
            return code
        }
        let code = routes.events.code(of: event)
        if code.isConcrete {
            recentEvents.remember(code, for: event)
        }
        return code
    }

    /// Calls `body` with the route table's storage as it is now, held: a
    /// condition or mapping that `body` runs and that changes the routes
    /// changes a copy (copy on write), as it would if `body` held a copy of
    /// the table.
    @inlinable
    @inline(__always)
    func withHeldRoutes<Result>(_ body: (RouteTable<S, E>.Storage) -> Result) -> Result {
        let storage = routes.storage
        return body(storage)
    }

    /// Calls `body` with the handler table's storage as it is now, held: a
    /// handler that `body` runs and that adds or disposes handlers changes a
    /// copy.
    @inlinable
    @inline(__always)
    func withHeldHandlers<Result>(_ body: (HandlerTable<S, E>.Storage) -> Result) -> Result {
        let storage = handlers.storage
        return body(storage)
    }

    /// The code of the current state, looked up (one hash) only if not yet known.
    @inlinable
    func currentStateCode(in routes: RouteTable<S, E>) -> SymbolCode {
        if currentCode == .unknown {
            currentCode = routes.code(of: currentState)
        }
        return currentCode
    }

    /// Moves to `target`, whose code the decision gave, looking it up if not.
    @inlinable
    func move(to target: S, code: SymbolCode, in routes: RouteTable<S, E>) -> SymbolCode {
        let code = code == .unknown ? routes.code(of: target) : code
        currentState = target
        currentCode = code
        hasMoved = true
        return code
    }

    /// Shown a statechart's step once it is planned, before anything runs.
    @usableFromInline
    typealias StepReader = (borrowing StepPlan) -> Void

    /// Decides, moves and delivers one event; the one path under every event API.
    // Not a call of `perform(event:userInfo:reading:)` with an empty reader:
    // written so, the reader is kept as a parameter through the statechart's
    // path, and `event-small` cost 37 instructions more, `nested-3` 45.
    @inlinable
    func perform(event: E, userInfo: consuming UserInfoBox?) -> Decision<S> {
        if chart != nil {
            return performStep(event: event, userInfo: userInfo, reading: { _ in })
        }
        return performFlat(.event(event), userInfo: userInfo)
    }

    /// Decides, moves and delivers one event. The decision names the route
    /// it took; a statechart's step, which may take several and exit and
    /// enter states, is shown to `reading` once planned, before any handler
    /// runs (its plan holds the routes taken and the states exited and
    /// entered, in order). So a client (an effect machine) learns what its
    /// own request took, whatever requests the handlers make afterwards.
    @inlinable
    func perform(event: E, userInfo: consuming UserInfoBox?, reading: StepReader) -> Decision<S> {
        if chart != nil {
            stepReaderCount += 1
            defer { stepReaderCount -= 1 }
            return performStep(event: event, userInfo: userInfo, reading: reading)
        }
        return performFlat(.event(event), userInfo: userInfo)
    }

    /// A request to a flat machine: an event, or a state.
    @usableFromInline
    enum FlatRequest {
        case event(E)
        case state(S)
    }

    /// Decides, moves and delivers one request to a flat machine: the one
    /// path under every event and state API of a machine without children.
    ///
    /// A request made while the machine decides (from a condition or a
    /// mapping) is refused; one that must wait (``queuesHandlerRequests``)
    /// is queued and answers ``Refusal/queued``.
    // Always inlined into its callers, each of which passes one kind of
    // request, so that the switches on it fold away: a flat request is the
    // fast path (`event-small`, `state-small`, `failed`).
    @inlinable
    @inline(__always)
    func performFlat(_ request: FlatRequest, userInfo: consuming UserInfoBox?) -> Decision<S> {
        let from = currentState
        // A local copy: conditions and mappings may add or dispose routes.
        let routes: RouteTable<S, E>
        let event: E?
        let target: S
        switch request {
        case .event(let requested):
            routes = self.routes
            (event, target) = (requested, from)
        case .state(let requested):
            routes = routesForStateRequests()
            (event, target) = (nil, requested)
        }
        let eventCode = event.map { routes.code(of: $0) } ?? .wildcard
        let fromCode = currentStateCode(in: routes)
        let targetCode = event == nil ? routes.code(of: target) : fromCode
        let refusedCodes = TransitionCodes(event: eventCode, from: fromCode, to: targetCode)
        guard decisionDepth == 0 else {
            deliver(
                .error, event: event, from: from, to: target, userInfo: consume userInfo, codes: refusedCodes,
                refusal: .reentrant)
            reportReentrantRequest(event.map { "tryEvent(\($0))" } ?? "tryState(\(target))")
            return .refused(.reentrant)
        }
        guard !queuesHandlerRequests else {
            switch request {
            case .event(let event): waiting.append(request: .flatEvent(event, userInfo: userInfo))
            case .state(let target): waiting.append(request: .flatState(target, userInfo: userInfo))
            }
            return .refused(.queued)
        }
        decisionDepth = 1
        assert(noteDecidingThread())
        let decision: Decision<S>
        switch request {
        case .event(let event):
            decision = routes.decide(event: event, code: eventCode, from: from, code: fromCode, userInfo: userInfo)
        case .state(let target):
            decision = routes.decide(from: from, code: fromCode, to: target, code: targetCode, userInfo: userInfo)
        }
        decisionDepth = 0
        switch decision {
        case .move(let reached, let code, _):
            let toCode = move(to: reached, code: code, in: routes)
            let codes = TransitionCodes(event: eventCode, from: fromCode, to: toCode)
            deliver(
                event == nil ? .state : .event, event: event, from: from, to: reached, userInfo: consume userInfo,
                codes: codes)
        case .noRoute, .refused:
            deliver(
                .error, event: event, from: from, to: target, userInfo: consume userInfo, codes: refusedCodes,
                refusal: decision.refusal)
        }
        return decision
    }

    /// The route table as state requests read it, copied: with its event
    /// routes indexed by transition, the one part of the table built lazily
    /// (on the first state request after event routes change).
    @inlinable
    func routesForStateRequests() -> RouteTable<S, E> {
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        return routes
    }

    /// Decides, moves and delivers one state request; the one path under every state API.
    @inlinable
    func perform(state target: S, userInfo: consuming UserInfoBox?) -> Decision<S> {
        if chart != nil {
            return performStep(toward: target, userInfo: userInfo)
        }
        return performFlat(.state(target), userInfo: userInfo)
    }

    /// Whether a request made now, by a handler, an action, an entry or
    /// exit handler or an observer of this machine, must wait in its queue
    /// until the delivery in progress ends (SPEC 3.2, "The internal queue"):
    /// on a statechart, while it delivers a step; under run-to-completion,
    /// while it delivers anything. The one rule every request path and the
    /// effect machine read; a statechart's request also waits while
    /// deliveries nest too deep (``mustQueueRequest(on:)``).
    // Not inlined: `event-small`, `state-small` and `failed` count the same
    // instructions either way (845, 873, 840).
    @usableFromInline var queuesHandlerRequests: Bool {
        isStepping || (delivery == .runToCompletion && deliveryDepth > 0)
    }

    /// Notes the thread that begins a decision, when it is the outermost
    /// one: called inside `assert`, so only debug builds pay for it.
    @inlinable
    func noteDecidingThread() -> Bool {
        if decisionDepth == 1 {
            decidingThread = currentThreadIdentity()
        }
        return true
    }

    /// Stops debug builds at a request made from a condition or route mapping,
    /// or from another thread while the machine decides; release builds have
    /// refused it and go on.
    @usableFromInline
    func reportReentrantRequest(_ request: String) {
        if decidingThread != 0, decidingThread != currentThreadIdentity() {
            assertionFailure(
                """
                Switchyard: \(request) was requested on one thread while the machine was deciding a request \
                on another. A Machine belongs to one isolation domain (the main actor, an actor, a task) and \
                does no locking: share a SendableMachine between threads and tasks instead.
                """)
            return
        }
        assertionFailure(
            """
            Switchyard: \(request) was requested while the machine was deciding another request, \
            from one of its conditions or route mappings. Conditions and mappings may ask questions \
            (state, hasRoute, canTryEvent, canTryState) but must not move the machine: the request is \
            refused (TransitionError.Reason.reentrantRequest). Make it from a handler instead.
            """)
    }

    /// Tells the watchers of one decision and runs its handlers, now or, when they must wait,
    /// after the delivery in progress: under `.runToCompletion`, whenever
    /// another delivery of this machine is running; under either policy, when
    /// deliveries of any machines are nested ``DeliveryPolicy/immediateNestingLimit``
    /// deep on this thread (see ``DeliveryThread``), or this machine's earlier
    /// deliveries wait for them.
    @inlinable
    func deliver(
        _ kind: DeliveryKind, event: E?, from: S, to: S, userInfo: consuming UserInfoBox?,
        codes: TransitionCodes, refusal: Refusal? = nil
    ) {
        let context = Context(event: event, fromState: from, toState: to, userInfoBox: userInfo)
        guard !(delivery == .runToCompletion && deliveryDepth > 0), !isWaitingOnThread else {
            waiting.append(delivery: Delivery(kind: kind, context: context, codes: codes, refusal: refusal))
            return
        }
        let thread = DeliveryThread.current
        guard !waitIfFull(thread) else {
            waiting.append(delivery: Delivery(kind: kind, context: context, codes: codes, refusal: refusal))
            return
        }
        run(kind, context, codes: codes, refusal: refusal, on: thread)
        if deliveryDepth == 0, !waiting.isEmpty {
            runWaitingAfterDelivery(on: thread)
        }
        thread.resumeWaitingIfUnwound()
    }

    /// Runs what waited for the outermost delivery to end: the deliveries
    /// decided meanwhile, then the requests its handlers queued.
    @usableFromInline
    func runWaitingAfterDelivery(on thread: DeliveryThread) {
        if waiting.hasDeliveries {
            runWaiting(.delivery, on: thread)
        }
        if waiting.hasRequests {
            runQueuedRequests()
        }
    }

    /// Runs the waiting work of `kind` in the order it was queued, including
    /// the work it queues, from the one frame that stands below it all, so
    /// that a long chain of it does not deepen the stack: deliveries' handlers,
    /// or a statechart's requests, each decided and taken now.
    ///
    /// Specialised in the app's build, or each item would be copied and
    /// matched through generic metadata (`chain-rtc`: 1,661 instructions a
    /// request, 32,095 compiled once in the library); never inlined, so that
    /// the request paths it stands on stay short.
    @inlinable @inline(never)
    func runWaiting(_ kind: WaitingQueue<Delivery, QueuedRequest>.Kind, on thread: DeliveryThread) {
        while let work = waiting.next(kind) {
            switch consume work {
            case .delivery(let delivery):
                run(delivery.kind, delivery.context, codes: delivery.codes, refusal: delivery.refusal, on: thread)
            case .request(.event(let member, let event, let userInfo)):
                _ = BorrowedEvent.lending(event) {
                    takeStep(member: member, .event($0), userInfo: userInfo)
                }
            case .request(.state(let member, let target, let userInfo)):
                _ = takeStep(member: member, .state(target), userInfo: userInfo)
            case .request(.completion(let state)):
                takeQueuedCompletion(of: state)
            case .request(.flatEvent(let event, let userInfo)):
                _ = perform(event: event, userInfo: userInfo)
            case .request(.flatState(let target, let userInfo)):
                _ = perform(state: target, userInfo: userInfo)
            case .request(.throughEffectMachine(let decide)):
                decide()
            }
        }
    }

    // Always inlined into the request paths: left to the optimiser, it stops
    // inlining this once a table's walk grows a little, and an out-of-line
    // call (the context passed in memory, registers saved) cost `event-small`
    // about 60 instructions of its 800.
    @inlinable @inline(__always)
    func run(
        _ kind: DeliveryKind, _ context: Context, codes: TransitionCodes, refusal: Refusal?, on thread: DeliveryThread
    ) {
        // A local copy: handlers may add or dispose handlers while we iterate.
        let handlers = self.handlers
        beginDelivery(on: thread)
        // The watchers hear the step as its delivery begins, before its
        // handlers: a request an observer makes (an inspector, the
        // observable model's `onChange`) is taken as a handler's would be,
        // waiting under run-to-completion or past the nesting limit.
        report(kind, context, refusal: refusal)
        defer { endDelivery(on: thread) }
        handlers.storage.forEachHandler(kind: kind, codes: codes) { invoke($0, context) }
    }

    /// Begins a delivery of this machine's handlers, on `thread` (the
    /// current thread's deliveries; `nil` for one its root delivers, which
    /// counts on the root's thread): the one account of "a delivery is
    /// running" that a flat delivery, a statechart's step
    /// (``beginStepDelivery(on:)``) and a nested machine's handlers
    /// (``delivering(_:)``) keep.
    @usableFromInline
    func beginDelivery(on thread: DeliveryThread?) {
        deliveryDepth += 1
        thread?.enter()
    }

    /// Ends a delivery begun with ``beginDelivery(on:)``: once the outermost
    /// ends, the handlers disposed during it are forgotten.
    @usableFromInline
    func endDelivery(on thread: DeliveryThread?) {
        thread?.leave()
        deliveryDepth -= 1
        if deliveryDepth == 0, !disposedDuringDelivery.isEmpty {
            disposedDuringDelivery.removeAll()
        }
    }

    /// Whether deliveries are nested too deep on `thread` to start another;
    /// if so, lists this machine (once) among those that wait for them to unwind.
    @inlinable
    func waitIfFull(_ thread: DeliveryThread) -> Bool {
        guard thread.isFull else { return false }
        if !isWaitingOnThread {
            isWaitingOnThread = true
            // No captures: the function allocates nothing.
            thread.wait(WaitingMachine(self) { ($0 as! Machine).resumeWaitingDeliveries() })
        }
        return true
    }
}

extension Machine {
    /// Runs the deliveries, and a statechart's requests, that waited for
    /// the thread's deliveries to unwind.
    @inlinable
    func resumeWaitingDeliveries() {
        isWaitingOnThread = false
        // Under run-to-completion, a delivery of this machine in progress
        // runs them when it ends; its requests wait for it as well.
        if waiting.hasDeliveries, delivery == .immediate || deliveryDepth == 0 {
            runWaiting(.delivery, on: DeliveryThread.current)
        }
        if waiting.hasRequests, !queuesHandlerRequests {
            runQueuedRequests()
        }
    }
}
