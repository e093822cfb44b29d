/// A machine whose transitions hand back the effects they emit, and whose
/// observers hear every valid and invalid transition: what Tinder's
/// StateMachine is, on Switchyard's engine.
///
/// ```swift
/// let machine = EffectMachine(matter)
/// machine.onTransition { result in
///     guard case .success(let transition) = result else { return }
///     for effect in transition.effects { log(effect) }   // the app runs its effects
/// }
///
/// let melted = try machine.transition(.melt)
/// print(melted.toState, melted.effects)   // liquid [melted]
/// ```
///
/// The library never runs an effect: it returns it. The underlying
/// ``machine`` is a plain ``Machine``: add handlers, routes or route
/// mappings to it, and ask it questions. Transitions requested through
/// ``transition(_:userInfo:)`` or ``attemptTransition(_:userInfo:)`` carry
/// effects and reach the observers; a request made on ``machine`` directly is
/// an ordinary request, which the observers do not hear. Nested states and
/// regions belong in the definition: the effect machine reads what a step
/// emits from the states the definition declares.
public final class EffectMachine<S: StateType, E: EventType, Effect> {
    /// The results of a transition, named as Tinder's StateMachine names them.
    public enum Transition {
        /// What an observer is told: the valid transition, or why the request was refused.
        public typealias Result = Swift.Result<Valid, Invalid>
        /// An observer.
        public typealias Callback = (Result) -> Void
        /// A refused request, with its ``TransitionError/reason``.
        public typealias Invalid = TransitionError

        /// A transition that happened: where it started, on which event,
        /// where it ended, and what it emitted.
        public struct Valid {
            /// The machine's state before.
            public let fromState: S
            /// The event.
            public let event: E
            /// The machine's state after; `fromState` for a transition that stays.
            public let toState: S
            /// What the transition emitted, in order.
            public let effects: [Effect]

            /// A valid transition.
            ///
            /// - Parameters:
            ///   - fromState: The machine's state before.
            ///   - event: The event.
            ///   - toState: The machine's state after.
            ///   - effects: What the transition emitted, in order.
            @inlinable
            public init(fromState: S, event: E, toState: S, effects: [Effect]) {
                self.fromState = fromState
                self.event = event
                self.toState = toState
                self.effects = effects
            }

            /// A valid transition that emitted at most one effect, as Tinder writes it.
            ///
            /// - Parameters:
            ///   - fromState: The machine's state before.
            ///   - event: The event.
            ///   - toState: The machine's state after.
            ///   - sideEffect: The effect emitted, or `nil` for none.
            @inlinable
            public init(fromState: S, event: E, toState: S, sideEffect: Effect?) {
                self.init(fromState: fromState, event: event, toState: toState, effects: sideEffect.map { [$0] } ?? [])
            }

            /// Tinder's name for ``effects``.
            @inlinable
            public var sideEffects: [Effect] { effects }

            /// The first effect, or `nil`: Tinder's `sideEffect`.
            @inlinable
            public var sideEffect: Effect? { effects.first }
        }
    }

    /// The machine that decides and moves: a plain ``Machine``, for handlers,
    /// questions, and routes added with the operator API.
    public let machine: Machine<S, E>
    /// The definition the machine was made from.
    public let definition: Definition<S, E, Effect>

    /// How to find the clause a step took.
    @usableFromInline let installed: InstalledDefinition<S, E, Effect>
    /// The definition's entry and exit effects, by the machine's code of each state.
    @usableFromInline let lifecycleEffects: LifecycleEffects<Effect>
    /// The observers, in an object of their own: what removes one holds it
    /// weakly, and a weak reference to the effect machine itself would make
    /// every retain and release of it take the runtime's slow path.
    @usableFromInline let observers = ObserverList()
    // Dynamic exclusivity checks are off, as in the machine: nothing here is
    // held across a call to user code, and the checks cost more than the bookkeeping.
    /// The results of the requests made while another one was being decided,
    /// delivered or told, in the order they were made; `nil` for a request
    /// still being decided. Told after the request in progress.
    @usableFromInline
    @exclusivity(unchecked) var pendingResults: [Transition.Result?] = []
    /// The ticket of `pendingResults[0]`: tickets count every request that
    /// waited, so that one decided after its place was told is not taken
    /// for a later one's.
    @usableFromInline var firstTicket = 0
    @usableFromInline
    @exclusivity(unchecked) var isNotifying = false
    /// How many requests are being decided and delivered.
    @usableFromInline
    @exclusivity(unchecked) var requestDepth = 0

    /// The observers, in the order they were added.
    ///
    /// Kept in a chain whose nodes stay put, so that removing one unlinks
    /// it in O(1): disposing n observers one by one costs O(n) in all.
    @usableFromInline
    final class ObserverList {
        @usableFromInline
        @exclusivity(unchecked) var store = ChainStore<Observer>()
        @usableFromInline
        @exclusivity(unchecked) var chain = Chain()
        @exclusivity(unchecked) var lastID = 0

        init() {}

        /// Adds `callback` after the others and returns what removes it.
        func add(_ callback: @escaping Transition.Callback) -> Disposable {
            lastID += 1
            let id = lastID
            let node = store.append(Observer(id: id, callback: callback), to: &chain)
            return ActionDisposable { [weak self] in
                self?.remove(id, at: node)
            }
        }

        /// Removes the observer `id`, kept at `node`.
        func remove(_ id: Int, at node: Int32) {
            guard store.element(at: node)?.id == id else { return }
            // Let go of only once the list is whole again.
            _ = store.remove(node, from: &chain)
        }

        /// Tells each observer `result`, in the order they were added; an
        /// observer added or removed meanwhile counts from the next result.
        @inlinable
        func tell(_ result: Transition.Result) {
            // Copies: observers may add or remove observers.
            let (store, chain) = (self.store, self.chain)
            var node = chain.head
            while node >= 0 {
                store[node].callback(result)
                node = store.next(after: node)
            }
        }
    }

    /// An observer, and what removes it.
    @usableFromInline
    struct Observer {
        @usableFromInline var id: Int
        @usableFromInline var callback: Transition.Callback

        @inlinable
        init(id: Int, callback: @escaping Transition.Callback) {
            self.id = id
            self.callback = callback
        }
    }

    /// A machine made from `definition`, in its initial state; the
    /// definition's observers (Tinder's `onTransition`) are registered.
    ///
    /// - Parameters:
    ///   - definition: The definition.
    ///   - delivery: When the handlers of a transition requested from a
    ///     handler run; ``DeliveryPolicy/runToCompletion`` by default.
    @inlinable
    public init(_ definition: Definition<S, E, Effect>, delivery: DeliveryPolicy = .runToCompletion) {
        let machine = Machine<S, E>(state: definition.initialState, delivery: delivery)
        self.machine = machine
        self.definition = definition
        self.installed = definition.install(into: machine, keepsReactions: true)
        self.lifecycleEffects = LifecycleEffects(
            entries: definition.entryEffects, exits: definition.exitEffects, code: machine.internedCode(of:))
        if !lifecycleEffects.isEmpty {
            // Entries and exits are planned by a statechart, even without children.
            machine.ensureChart()
        }
        for observer in definition.observers {
            onTransition(observer)
        }
    }

    /// A machine made from the definition written in `content`, in the
    /// style of Tinder's StateMachine:
    ///
    /// ```swift
    /// let stateMachine = EffectMachine<State, Event, SideEffect> {
    ///     initialState(.solid)
    ///     state(.solid) {
    ///         on(.melt) { transition(to: .liquid, emit: .logMelted) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: When the handlers of a transition requested from a
    ///     handler run; ``DeliveryPolicy/runToCompletion`` by default.
    ///   - content: The initial state, then the groups and observers.
    @inlinable
    public convenience init(
        delivery: DeliveryPolicy = .runToCompletion,
        @DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionDraft<S, E, Effect>
    ) {
        self.init(Definition(content), delivery: delivery)
    }

    /// A block without its initial state: not allowed.
    ///
    /// - Parameters:
    ///   - delivery: When nested handlers run.
    ///   - content: A block that does not name the initial state.
    @available(*, unavailable, message: "a definition needs its initial state: begin the block with initialState(_:)")
    public convenience init(
        delivery: DeliveryPolicy = .runToCompletion,
        @DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionBody<S, E, Effect>
    ) {
        fatalError("unavailable")
    }

    /// The current state.
    @inlinable
    public var state: S {
        machine.state
    }

    // MARK: Transitions

    /// Fires `event`: the machine moves if a clause (or a route) allows it,
    /// and the transition comes back with its effects; the observers hear it.
    ///
    /// ```swift
    /// let transition = try machine.transition(.melt)
    /// // Valid(fromState: solid, event: melt, toState: liquid, effects: [logMelted])
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - userInfo: Passed, untouched, to the machine's conditions, mappings
    ///     and handlers (the definition's guards and closures do not see it).
    /// - Returns: The transition.
    /// - Throws: A ``TransitionError`` saying why the request was refused, as
    ///   the observers hear it.
    @inlinable
    @discardableResult
    public func transition(_ event: E, userInfo: consuming Any? = nil) throws(TransitionError) -> Transition.Valid {
        try attemptTransition(event, userInfo: userInfo).get()
    }

    /// Fires `event` like ``transition(_:userInfo:)``, and returns the result
    /// instead of throwing.
    ///
    /// The machine's handlers run as for ``Machine/tryEvent(_:userInfo:)``; the
    /// observers then hear the result, after those of every request made
    /// before this one.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - userInfo: Passed, untouched, to the machine's conditions, mappings and handlers.
    /// - Returns: The valid transition, or why the request was refused:
    ///   ``TransitionError/Reason/noRoute`` (no clause or route for this state
    ///   and event), ``TransitionError/Reason/conditionsRefused`` (a guard, a
    ///   `disable` or a closure refused). A request a handler makes while
    ///   this machine's request is delivered — any handler of a statechart,
    ///   or of a flat machine under ``DeliveryPolicy/runToCompletion`` —
    ///   answers ``TransitionError/Reason/queued``: it is decided once the
    ///   request in progress has been, and the observers hear its result,
    ///   with its effects, in its turn. That holds whether the request in
    ///   progress came through this machine or straight to ``machine``, as
    ///   for the machine's own requests.
    /// - Complexity: That of ``Machine/tryEvent(_:userInfo:)``, and a call to each observer.
    @inlinable
    @discardableResult
    public func attemptTransition(_ event: E, userInfo: consuming Any? = nil) -> Transition.Result {
        // A request made while another is decided, delivered or told waits
        // for it: its place is kept, so that observers hear requests in the
        // order they were made.
        let isNested = isNotifying || requestDepth > 0
        let ticket = firstTicket + pendingResults.count
        if isNested {
            pendingResults.append(nil)
        }
        let box = UserInfoBox.boxing(userInfo)
        // A request the machine would queue (made by a handler, whether the
        // request in delivery came through this machine or straight to the
        // plain one): it waits in the machine's queue, in its turn among the
        // machine's own requests, and is decided here, so that its effects
        // are read and heard.
        if machine.queuesHandlerRequests {
            machine.waiting.append(
                request: .throughEffectMachine { [self] in
                    let result = decide(event, userInfo: box)
                    // A request made while none of this machine's was in
                    // progress kept no place: it is told as an outermost
                    // request is, before what its handlers asked meanwhile.
                    if isNested {
                        keep(result, ticket: ticket)
                    } else {
                        notify(result)
                    }
                })
            return .failure(TransitionError(.queued, event: event, fromState: machine.state))
        }
        let result: Transition.Result
        if machine.isRunningQueue {
            result = decide(event, userInfo: box)
        } else {
            // The requests its handlers queue wait until its result is read
            // (its state, before theirs move the machine), then run from
            // here, as the frame below them all (see `Machine.runQueuedRequests`).
            machine.isRunningQueue = true
            result = decide(event, userInfo: box)
            machine.isRunningQueue = false
            machine.runQueuedRequests()
            // The machine hands back the codes of computed states once idle,
            // which it was not while this request held its queue.
            if !machine.routes.storage.states.transient.isEmpty {
                machine.releaseTransientCodes()
            }
        }
        if isNested {
            keep(result, ticket: ticket)
        } else {
            notify(result)
        }
        return result
    }

    /// Keeps the result of the request holding `ticket` for the observers,
    /// or tells them at once if its place was told already (a request that
    /// waited past the one it was made in, for deliveries nested too deep).
    @usableFromInline
    func keep(_ result: Transition.Result, ticket: Int) {
        let index = ticket - firstTicket
        if index >= 0, index < pendingResults.count {
            pendingResults[index] = result
        } else {
            observers.tell(result)
        }
    }

    /// Fires `event` on the machine; the effects are those of what the
    /// engine says the request took.
    @inlinable
    func decide(_ event: E, userInfo: UserInfoBox?) -> Transition.Result {
        let fromState = machine.state
        // A request made while the machine delivers a step waited for it.
        assert(!machine.isStepping, "a request through the effect machine was decided inside a statechart step")
        require(
            machine.nestingLink == nil,
            "An EffectMachine's machine was nested in another machine, whose steps it cannot read: "
                + "drive the root machine instead")
        // Set when the machine's statechart plans each step of the request
        // (its own, then the eventless and done steps that follow, and the
        // exits of a finish), before the step's handlers run.
        var stepEffects: [Effect]?
        requestDepth += 1
        let decision = machine.perform(event: event, userInfo: userInfo) { plan in
            stepEffects = (stepEffects ?? []) + effects(of: plan)
        }
        requestDepth -= 1
        switch decision {
        case .move(let toState, _, let taken):
            let effects = stepEffects ?? installed.effects(of: taken)
            return .success(Transition.Valid(fromState: fromState, event: event, toState: toState, effects: effects))
        case .noRoute:
            return .failure(TransitionError(nil, event: event, fromState: fromState))
        case .refused(let refusal):
            return .failure(TransitionError(refusal, event: event, fromState: fromState))
        }
    }

    /// What a statechart's step emits: the exits' effects, innermost first;
    /// the effects of each clause taken (of this machine's routes), in the
    /// order written, as the actions of routes run; the entries' effects,
    /// outermost first.
    @usableFromInline
    func effects(of plan: borrowing StepPlan) -> [Effect] {
        lifecycleEffects.effects(of: plan) { move in
            // A move of a machine nested in this one is not the definition's.
            move.member == 0 ? installed.effects(of: move.taken) : []
        }
    }

    /// Tells the observers `result`, then every result that waits, in order,
    /// including those of requests the observers make meanwhile.
    @inlinable
    func notify(_ result: Transition.Result) {
        isNotifying = true
        observers.tell(result)
        if !pendingResults.isEmpty {
            // Including those of requests the observers make meanwhile. A
            // place still empty is a request that waits for deliveries
            // nested too deep to unwind: it is told when decided (`keep`).
            var next = 0
            while next < pendingResults.count {
                if let waiting = pendingResults[next] {
                    observers.tell(waiting)
                }
                next += 1
            }
            firstTicket += pendingResults.count
            pendingResults.removeAll(keepingCapacity: true)
        }
        isNotifying = false
    }

    // MARK: Observers

    /// Adds an observer, which hears every transition requested through this
    /// machine, valid or not, with its effects: Tinder's `onTransition`.
    ///
    /// ```swift
    /// machine.onTransition { result in
    ///     switch result {
    ///     case .success(let transition): print(transition.effects)
    ///     case .failure(let error): print("refused:", error.reason)
    ///     }
    /// }
    /// ```
    ///
    /// Observers run after the machine's handlers, in the order they were
    /// added, and in the order the requests were made: a request an observer
    /// or handler makes is heard after the one being told.
    ///
    /// - Parameter callback: The observer.
    /// - Returns: What removes the observer.
    @discardableResult
    public func onTransition(_ callback: @escaping Transition.Callback) -> Disposable {
        observers.add(callback)
    }

    // MARK: Statecharts

    /// Starts a machine with nested states: enters the initial configuration
    /// and returns the entry effects of its states, outermost first (see
    /// ``Machine/start()``). If the initial state is a top-level ``Final``
    /// state, the machine finishes at once, and the exit effects of its
    /// states follow, innermost first.
    ///
    /// - Returns: The entry effects; none if the machine had started, or taken a step, before.
    @inlinable
    @discardableResult
    public func start() -> [Effect] {
        var effects: [Effect] = []
        let started = machine.start(
            reading: { entries in
                for code in entries {
                    effects += lifecycleEffects.entries(of: code)
                }
            },
            readingSteps: { plan in effects += self.effects(of: plan) })
        return started ? effects : []
    }
}

extension EffectMachine.Transition.Valid: Equatable where S: Equatable, E: Equatable, Effect: Equatable {}
extension EffectMachine.Transition.Valid: Hashable where S: Hashable, E: Hashable, Effect: Hashable {}
extension EffectMachine.Transition.Valid: Sendable where S: Sendable, E: Sendable, Effect: Sendable {}

extension EffectMachine.Transition.Valid: CustomStringConvertible {
    /// `solid --melt--> liquid [logMelted]`.
    public var description: String {
        "\(fromState) --\(event)--> \(toState) \(effects)"
    }
}
