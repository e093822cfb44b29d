// How a statechart takes a step, in one machine or in a hierarchy of nested
// machines alike: a statechart on one machine is the hierarchy with one
// member (see `Nesting.swift`). The root of the hierarchy chooses routes,
// each node's routes asked of every machine that names the node, innermost
// machine first; plans what to exit and enter (``StepPlan``); then delivers
// in SPEC 3.2's order: exit handlers, innermost first; the state changes;
// the handlers of transitions; entry handlers, outermost first. A request
// made by any handler meanwhile waits until the step ends, so that steps
// never interleave. Requests to nested machines come here through their
// links, in their codes.

extension Machine {
    /// A request made by a handler during a step, decided after it: its
    /// machine's index among the hierarchy's members, and for a state, its
    /// code there.
    @usableFromInline
    enum QueuedRequest {
        case event(member: Int, E, userInfo: UserInfoBox?)
        case state(member: Int, SymbolCode, userInfo: UserInfoBox?)
        /// A request made to a flat machine during a delivery under
        /// run-to-completion, which names states by value, not by code.
        case flatEvent(E, userInfo: UserInfoBox?)
        case flatState(S, userInfo: UserInfoBox?)
        /// A request made through an ``EffectMachine`` on this machine,
        /// which decides it and keeps its result when the closure runs: it
        /// waits in this queue, in its turn among the machine's own.
        case throughEffectMachine(() -> Void)
        /// The completion of a state (SCXML's `done.state.ID`), queued once
        /// the entry handlers of the final state that completed it ran.
        case completion(SymbolCode)

        /// Whether this is a completion.
        @inlinable
        var isCompletion: Bool {
            if case .completion = self { true } else { false }
        }
    }

    // MARK: Preparing

    /// The code of `state`, handed out now if nothing named it yet.
    @inlinable
    func internedCode(of state: S) -> SymbolCode {
        routes.intern(state)
    }

    /// The code of `state`, which a request, a question or a route mapping
    /// names: if no declaration, route or handler names it, a transient code
    /// (see ``Symbols``) that ``releaseTransientCodes()`` hands back once the
    /// machine's hierarchy is idle and not in that state.
    @usableFromInline
    func transientCode(of state: S) -> SymbolCode {
        let known = routes.code(of: state)
        guard known == .unknown else { return known }
        let code = routes.internTransient(state)
        // A code handed back and taken again names a new state, which a
        // machine nested through an enum case may name.
        if let nesting, nesting.hasNestedMachines, Int(code) <= nesting.syncedRoot, let chart {
            nesting.nameAgain(code, chart: chart)
        }
        return code
    }

    /// Hands back the transient codes of states the machine is not in, once
    /// no step, decision or queued request can hold one; a nested machine
    /// has its root do it (see ``Nesting/releaseTransientCodes(of:chart:)``).
    /// In a hierarchy, the root keeps the codes a nested machine names (the
    /// images of its states, which it hands back itself) and those a history
    /// recorded.
    ///
    /// - Complexity: O(1) for each code handed back; few are in use at a time.
    @usableFromInline
    func releaseTransientCodes() {
        if let link = nestingLink {
            link.releaseTransientCodes(link.member)
            return
        }
        guard let chart, isIdle else { return }
        let nesting = nesting?.hasNestedMachines == true ? nesting : nil
        let transient = routes.storage.states.transient
        for code in transient where !chart.configuration.isActive(code) {
            if let nesting, nesting.isNamedByMember(code) || nesting.isHeld(code, chart: chart) {
                continue
            }
            routes.uniqueStorage.states.release(code)
        }
    }

    /// ``releaseTransientCodes()`` for the nested machine `member`, at the root.
    @usableFromInline
    func releaseTransientCodes(of member: Int) {
        guard let chart, let nesting, isIdle else { return }
        nesting.releaseTransientCodes(of: member, chart: chart)
    }

    /// Whether no step, decision or queued request is under way.
    var isIdle: Bool {
        !isStepping && !isRunningQueue && decisionDepth == 0 && !waiting.hasRequests
    }

    /// The state whose code is `code`.
    @inlinable
    func value(of code: SymbolCode) -> S {
        routes.storage.states.value(of: code)
    }

    /// The machine's statechart, on the paths that run only once it has one
    /// (after ``ensureChart()``); unwrapped without a check in release builds.
    @inlinable
    var uncheckedChart: Statechart {
        chart.unchecked("a statechart's path ran on a machine without a statechart")
    }

    /// The hierarchy of a statechart's root (every chart's root has one, from
    /// ``ensureChart()``), on the paths a root runs; unwrapped without a check
    /// in release builds.
    @inlinable
    var uncheckedNesting: Nesting {
        nesting.unchecked("a step ran on a machine that is not the root of its hierarchy")
    }

    /// Lays out the tree and, until the hierarchy begins, builds the
    /// configuration that entering its initial state makes; `state` follows.
    @inlinable
    func prepareChart() {
        let chart = uncheckedChart
        guard chart.needsInitialConfiguration || !chart.tree.isLaidOut else { return }
        prepareHierarchy()
    }

    // MARK: Requests

    /// Decides and takes the step `event`, sent to this machine, causes;
    /// `reading` is shown the step once it is planned, before any handler
    /// runs (see ``perform(event:userInfo:reading:)``).
    @inlinable
    func performStep(event: E, userInfo: UserInfoBox?, reading: StepReader) -> Decision<S> {
        let outcome = BorrowedEvent.lending(event) { lent in
            performStep(.event(lent), userInfo: userInfo, reading: reading)
        }
        return decision(after: outcome)
    }

    /// Decides and takes the step asking this machine for `target` causes.
    @inlinable
    func performStep(toward target: S, userInfo: UserInfoBox?) -> Decision<S> {
        decision(after: performStep(.state(transientCode(of: target)), userInfo: userInfo))
    }

    /// Has the root of this machine's hierarchy (itself, unless it is nested)
    /// decide and take the step `request` causes; `reading` is shown the
    /// step if this machine is the root.
    @inlinable
    func performStep(_ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }) -> NestedOutcome {
        if let link = nestingLink {
            let outcome = link.request(link.member, request, userInfo)
            if !routes.storage.states.transient.isEmpty {
                releaseTransientCodes()
            }
            return outcome
        }
        return takeStep(member: 0, request, userInfo: userInfo, reading: reading)
    }

    /// ``requestStep(member:_:userInfo:reading:)`` through the machine's
    /// ``stepEntry``, the one way a request path reaches a statechart's step.
    @inlinable
    func takeStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }
    ) -> NestedOutcome {
        let entry = stepEntry.unchecked("a step was asked of a machine without a statechart")
        return entry.takeStep(self, member, request, userInfo, reading)
    }

    @inlinable
    func decision(after outcome: NestedOutcome) -> Decision<S> {
        switch outcome {
        case .moved: .move(to: currentState, code: currentCode, taken: .none)
        case .refused(let refusal): refusal.map(Decision.refused) ?? .noRoute
        }
    }

    /// Decides and takes the step `request`, made to `member`, causes;
    /// `reading` is shown the step once it is planned.
    @inlinable
    func requestStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, reading: StepReader = { _ in }
    ) -> NestedOutcome {
        // Read once for the request: a thread-specific read costs a call.
        let thread = DeliveryThread.current
        guard !mustQueueRequest(on: thread) else {
            waiting.append(request: queued(request, member: member, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        // Lent to the step without a retain: the machine keeps both, and
        // nothing replaces them while it decides or takes a step (`nest`
        // refuses such a machine, `restore` throws, `ensureChart` keeps an
        // existing chart). The machine itself is alive for the request: its
        // caller holds it, or the nested machine's link does (`makeLink`).
        let outcome = Unretained(uncheckedChart).withObject { chart in
            Unretained(uncheckedNesting).withObject { nesting in
                let outcome = decideAndTakeStep(
                    member: member, request, userInfo: userInfo, chart: chart, nesting: nesting, thread: thread,
                    reading: reading)
                assert(
                    self.chart === chart && self.nesting === nesting,
                    "Switchyard: a machine's statechart or hierarchy was replaced while it took a step")
                return outcome
            }
        }
        if !routes.storage.states.transient.isEmpty {
            releaseTransientCodes()
        }
        return outcome
    }

    /// ``requestStep(member:_:userInfo:reading:)`` once the request need
    /// not wait, with the root's chart and hierarchy, on `thread`.
    @inlinable
    func decideAndTakeStep(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting,
        thread: DeliveryThread, reading: StepReader
    ) -> NestedOutcome {
        guard decisionDepth == 0 else {
            refuse(member: member, request, userInfo: userInfo, refusal: .reentrant, thread: thread)
            reportReentrantRequest(describe(request, member: member))
            return .refused(.reentrant)
        }
        guard nesting.isActive(member, in: chart) else {
            refuse(member: member, request, userInfo: userInfo, refusal: .inactive, thread: thread)
            return .refused(.inactive)
        }
        guard !chart.isFinished else {
            refuse(member: member, request, userInfo: userInfo, refusal: .finished, thread: thread)
            return .refused(.finished)
        }
        let eventCode: SymbolCode
        var refusal: Refusal?
        switch request {
        case .event(let event):
            // Held for the event's code and the choice, let go before the
            // step: conditions and mappings may read and change the machines.
            (eventCode, refusal) = withHeldRoutes { routes in
                let eventCode = code(of: event.load(as: E.self), in: routes)
                let refusal = chooseMoves(
                    event: event, eventCode: eventCode, member: member, routes: routes, userInfo: userInfo,
                    chart: chart, nesting: nesting, into: &plan)
                return (eventCode, refusal)
            }
            if plan.moves.isEmpty {
                chooseMappedMove(
                    event: event, member: member, userInfo: userInfo, chart: chart, into: &plan, refusal: &refusal)
            }
        case .state(let target):
            eventCode = .wildcard
            refusal = chooseMove(
                toward: nesting.node(of: target, in: member, chart: chart), member: member, userInfo: userInfo,
                chart: chart, nesting: nesting, into: &plan)
        }
        guard !plan.moves.isEmpty else {
            refuse(member: member, request, userInfo: userInfo, refusal: refusal, thread: thread)
            return .refused(refusal)
        }
        let isSettled = takeStep(
            kind: request.kind, event: request.event, eventCode: eventCode, userInfo: userInfo, chart: chart,
            nesting: nesting, thread: thread, reading: reading)
        return isSettled ? .moved : .refused(.unsettled)
    }

    /// `request` to `member`, to be decided after the step in progress.
    @inlinable
    func queued(_ request: StepRequest, member: Int, userInfo: UserInfoBox?) -> QueuedRequest {
        switch request {
        case .event(let event): .event(member: member, event.load(as: E.self), userInfo: userInfo)
        case .state(let target): .state(member: member, target, userInfo: userInfo)
        }
    }

    /// `request` to `member`, as a call, for messages.
    @usableFromInline
    func describe(_ request: StepRequest, member: Int) -> String {
        switch request {
        case .event(let event):
            return "tryEvent(\(event.load(as: E.self)))"
        case .state(let target):
            let nesting = self.nesting!
            return "tryState(\(nesting.describe(nesting.node(of: target, in: member, chart: chart!))))"
        }
    }
}

extension StepPlan.Move {
    /// The move along a selected route; a route to `.any` stays. What else
    /// it does is the caller's to add (see ``Machine/rootMove(along:routes:chart:nesting:plan:)``).
    @inlinable
    init<S>(_ route: SelectedRoute<S>) {
        self.init(
            source: route.source, target: route.target == nil ? .wildcard : route.targetCode, isLocal: route.isLocal)
        self.taken = TakenRoute(id: route.id)
    }
}
