// How the root of a hierarchy takes the step it planned (see
// `Machine+Steps.swift`): exit handlers, innermost state first and, for one
// state, innermost machine first; the change; the handlers of the
// transition; entry handlers, outermost first; then the requests the
// handlers made, which waited for the step to end.

extension Machine {
    // MARK: Delivering

    /// Takes the step ``plan`` holds across the hierarchy (see
    /// ``deliverPlannedStep(_:plan:event:eventCode:userInfo:chart:nesting:handlers:)``),
    /// then what it leads to before any later request: eventless routes and
    /// done routes (``settle(chart:nesting:handlers:reading:)``). Then runs the
    /// requests its handlers made. `reading` is shown each step's complete
    /// plan before anything of it runs; `thread` is the current thread's
    /// deliveries.
    ///
    /// - Returns: `false` if eventless or done routes did not settle within
    ///   ``internalStepLimit`` steps.
    @inlinable
    func takeStep(
        kind: DeliveryKind, event: BorrowedEvent?, eventCode: SymbolCode, userInfo: UserInfoBox?, chart: Statechart,
        nesting: Nesting, thread: DeliveryThread, reading: StepReader
    ) -> Bool {
        chart.complete(&plan, leavingListsInMemo: true)
        show(&plan, to: reading, chart: chart)
        chart.hasBegun = true
        beginStepDelivery(on: thread)
        // Held for this step and those it leads to (see `refresh(_:)`).
        let isSettled = withHandlersHeldForSteps { handlers in
            // The step holds `userInfo` until its handlers have all run.
            withExtendedLifetime(userInfo) {
                deliverPlannedStep(
                    kind, plan: &plan, event: event, eventCode: eventCode, userInfo: userInfo, chart: chart,
                    nesting: nesting,
                    handlers: &handlers)
            }
            return mayContinue(after: chart, nesting: nesting)
                ? settle(chart: chart, nesting: nesting, handlers: &handlers, reading: reading) : true
        }
        endStep()
        return isSettled
    }

    /// Shows `reader` the step `plan` holds, with its lists, copied out of
    /// the memo of steps first if the plan left them there (see
    /// ``StepPlan/listsAreInMemo``) and a reader is waiting for steps (most
    /// requests pass one that reads nothing).
    @inlinable
    @inline(__always)
    func show(_ plan: inout StepPlan, to reader: StepReader, chart: Statechart) {
        if stepReaderCount > 0 {
            chart.copyRememberedLists(into: &plan)
        }
        reader(plan)
    }

    /// Calls `body` with the storage of the machine's handler table as it
    /// is now, held for the steps to read; the steps take it again as it
    /// changes (``refresh(_:)``).
    @inlinable
    func withHandlersHeldForSteps<Result>(
        _ body: (inout HandlerTable<S, E>.Storage) -> Result
    ) -> Result {
        var handlers = self.handlers.storage
        return body(&handlers)
    }

    /// Makes `handlers`, the handler table a request holds for all its
    /// steps, the machine's table as it is now.
    ///
    /// It cannot miss a change: while a request holds the storage, changing
    /// the machine's table gives it a new storage (copy on write), so the
    /// two are the same storage exactly as long as nothing changed it.
    @inlinable
    func refresh(_ handlers: inout HandlerTable<S, E>.Storage) {
        guard !isCurrent(handlers) else { return }
        handlers = self.handlers.storage
    }

    /// Whether `handlers` is the storage of the machine's handler table as
    /// it is now: `false` once a handler has changed the table.
    @inlinable
    func isCurrent(_ handlers: HandlerTable<S, E>.Storage) -> Bool {
        handlers === self.handlers.storage
    }

    /// Delivers the step `plan` holds, which is complete: exit handlers,
    /// innermost state first and, for one state, innermost machine first;
    /// the change; each machine's handlers of the transition, innermost
    /// machine first; entry handlers, outermost state first and, for one
    /// state, outermost machine first.
    ///
    /// The one runner of microsteps: a request's step, each step of the
    /// macrostep, and those no route takes (``StepPlan/lifecycle``): a
    /// start, a restore that runs handlers and a finish, which run their
    /// lifecycle handlers and no handler of a transition.
    ///
    /// `handlers` is the machine's handler table that the request holds
    /// for all its steps; the step first brings it up to date
    /// (``refresh(_:)``).
    @inlinable
    func deliverPlannedStep(
        _ kind: DeliveryKind, plan: inout StepPlan, event: BorrowedEvent?, eventCode: SymbolCode,
        userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting,
        handlers: inout HandlerTable<S, E>.Storage
    ) {
        // Letting go of a table that a handler replaced may release the last
        // hold on closures, whose captures' `deinit` is code of the user's: a
        // recalled step's lists come out of the memo of steps first (see the
        // step's own `deliverPlannedStep`).
        if plan.listsAreInMemo, !isCurrent(handlers) {
            chart.copyRememberedLists(into: &plan)
        }
        refresh(&handlers)
        deliverPlannedStep(
            kind, plan: &plan, event: event, eventCode: eventCode, userInfo: userInfo, chart: chart,
            nesting: nesting, handlers: handlers)
    }

    /// ``deliverPlannedStep(_:plan:event:eventCode:userInfo:chart:nesting:handlers:)``
    /// with the handler table it reads, up to date and held.
    @inlinable
    func deliverPlannedStep(
        _ kind: DeliveryKind, plan: inout StepPlan, event: BorrowedEvent?, eventCode: SymbolCode,
        userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting, handlers: HandlerTable<S, E>.Storage
    ) {
        // Most charts without nested machines have no entry or exit handlers.
        let hearsLifecycle = handlers.lifecycleHandlerCount > 0 || nesting.hasNestedMachines
        // A step recalled from the memo of steps leaves its lists there for
        // `apply` to read in place, unless something else reads them too, or
        // code of the user's runs before `apply` (it may make the memo forget).
        if plan.listsAreInMemo, hearsLifecycle || plan.hasActions || watchers != nil {
            chart.copyRememberedLists(into: &plan)
        }
        let afterCode = nesting.planDelivery(of: &plan, chart: chart)
        let beforeCode = currentCode
        let lifecycle = plan.lifecycle
        // A start or a finish tells its handlers the machine stays in its state.
        let staysInState = lifecycle == .start || lifecycle == .finish
        let context = Context(
            event: event?.load(as: E.self), fromState: currentState,
            toState: staysInState ? currentState : value(of: afterCode), userInfoBox: userInfo)
        if lifecycle == .finish {
            inspectFinish(plan)
        }
        // `handlers`, the machine's table as this step begins, is held:
        // handlers that add or dispose handlers change a copy.
        // The runner acts on the plan it is given, which its caller lends it
        // for the whole delivery: while the step runs, requests wait, so
        // nothing plans another step in the machine's `plan` meanwhile.
        // Most steps record no history.
        if !plan.history.isEmpty {
            chart.recordHistory(of: &plan)
        }
        if hearsLifecycle {
            for index in 0..<plan.exits.length {
                deliverLifecycle(
                    entering: false, of: plan.exits[index], handlers: handlers, context: context, event: event,
                    userInfo: userInfo, nesting: nesting)
            }
        }
        if plan.hasActions {
            deliverActions(
                of: plan, handlers: handlers, context: context, event: event, userInfo: userInfo, nesting: nesting)
        }
        chart.apply(&plan)
        if let lifecycle {
            // No route is taken: no handler of a transition runs, and the
            // watchers hear a start (and a finish, above) as such.
            nesting.commitLifecycleStates(of: plan)
            if lifecycle == .restore {
                currentState = context.toState
                currentCode = afterCode
            } else if lifecycle == .start {
                inspectStart(entering: plan.entries.elements, chart: chart, nesting: nesting)
            }
        } else {
            nesting.commitStates()
            currentState = context.toState
            currentCode = afterCode
            reportStep(kind, context, plan: plan)
            deliverNestedTransitions(
                kind, event: event, eventCode: eventCode, userInfo: userInfo, chart: chart, nesting: nesting)
            deliverTransition(
                kind, eventCode: eventCode, from: beforeCode, to: afterCode, chart: chart, handlers: handlers,
                context: context)
        }
        if hearsLifecycle {
            for index in 0..<plan.entries.length {
                let entry = plan.entries[index]
                deliverLifecycle(
                    entering: true, of: entry, handlers: handlers, context: context,
                    event: event, userInfo: userInfo, nesting: nesting)
                // What a final state completes waits behind the requests
                // its entry handlers (and those before them) made.
                if chart.tree.hasFinalStates, chart.tree.isFinal(entry) {
                    while let completed = chart.nextCompletion(notedByEntering: entry) {
                        waiting.append(request: .completion(completed))
                    }
                }
            }
        }
        if chart.hasNotedCompletions {
            queueNotedCompletions(chart: chart)
        }
    }

    /// Runs the actions of the routes the step takes in transition order,
    /// the order the moves were chosen (SCXML's `executeTransitionContent`:
    /// the active atomic states in document order, each walking up), across
    /// the machines of a hierarchy. A nested machine's action is told its
    /// own states, as its handlers are.
    @inlinable
    func deliverActions(
        of plan: borrowing StepPlan, handlers: HandlerTable<S, E>.Storage, context: Context, event: BorrowedEvent?,
        userInfo: UserInfoBox?,
        nesting: Nesting
    ) {
        for index in 0..<plan.moves.length {
            let move = plan.moves[index]
            let extras = plan.extras(of: move)
            let (action, id) = (extras.action, extras.actionID)
            guard action >= 0 else { continue }
            if move.member == 0 {
                // A condition may have disposed the route, and its action with it.
                if handlers.holds(id, at: action) {
                    invoke(handlers[action], context)
                }
            } else {
                let member = Int(move.member)
                let facts = nesting.facts(of: member, event: event, userInfo: userInfo)
                nesting.withAccess(of: member) { $0.handlers.deliverAction(action, id, facts) }
            }
        }
    }

    /// Runs the handlers of the step's transition in each nested machine it
    /// concerns, innermost machine first; each is told its own states.
    @inlinable
    func deliverNestedTransitions(
        _ kind: DeliveryKind, event: BorrowedEvent?, eventCode: SymbolCode, userInfo: UserInfoBox?,
        chart: Statechart, nesting: Nesting
    ) {
        for index in 0..<nesting.touchedMembers.length {
            let member = nesting.touchedMembers[index]
            guard member != 0, nesting.hearsTransition(member) else { continue }
            let memberEvent =
                kind == .event && nesting.withAccess(of: member) { $0.routes.hasEvents }
                ? nesting.eventCode(in: member, event: event!, rootCode: eventCode) : .wildcard
            // No context is built for a machine without a handler to hear it.
            let interest = nesting.withAccess(of: member) { $0.handlers.transitionInterest(kind, memberEvent) }
            guard interest.hears else { continue }
            ancestryBefore.removeAll()
            ancestryAfter.removeAll()
            if interest.matchesStates {
                nesting.appendAncestry(
                    of: nesting.memberStates[member].before, in: member, to: &ancestryBefore, chart: chart)
                nesting.appendAncestry(
                    of: nesting.memberStates[member].after, in: member, to: &ancestryAfter, chart: chart)
            }
            let facts = nesting.facts(of: member, event: event, userInfo: userInfo)
            nesting.withAccess(of: member) {
                $0.handlers.deliverTransition(kind, memberEvent, ancestryBefore, ancestryAfter, facts)
            }
        }
    }

    /// Runs the root's handlers of sections 1–2 that a step from `before` to
    /// `after` concerns: a handler for `a => b` hears it when `before` is `a`
    /// or inside it and `after` is `b` or inside it.
    ///
    /// The caller's chart and handler table are passed in: reading either
    /// again here would cost a retain and a release.
    @inlinable
    func deliverTransition(
        _ kind: DeliveryKind, eventCode: SymbolCode, from before: SymbolCode, to after: SymbolCode,
        chart: Statechart, handlers: HandlerTable<S, E>.Storage, context: Context
    ) {
        // Two top-level states: each one's ancestry is itself and the root,
        // the four pairs a flat machine's look-up covers, with no lists built.
        if before.isConcrete, after.isConcrete, chart.tree.parent(of: before) == .wildcard,
            chart.tree.parent(of: after) == .wildcard
        {
            handlers.forEachHandler(kind: kind, codes: TransitionCodes(event: eventCode, from: before, to: after)) {
                invoke($0, context)
            }
            return
        }
        ancestryBefore.removeAll()
        ancestryAfter.removeAll()
        // Event handlers need no ancestries: the common case lists none;
        // `.any => .any` handlers need only the root.
        if handlers.matchesStates(of: kind) {
            if handlers.namesStates(of: kind) {
                chart.appendAncestry(of: before, to: &ancestryBefore)
                chart.appendAncestry(of: after, to: &ancestryAfter)
            } else {
                ancestryBefore.append(.wildcard)
                ancestryAfter.append(.wildcard)
            }
        }
        handlers.forEachHandler(kind: kind, event: eventCode, before: ancestryBefore, after: ancestryAfter) {
            invoke($0, context)
        }
    }

    /// Runs the exit or entry handlers of `node` of every machine that names
    /// it: on the way out the innermost machine's first and the root's last,
    /// on the way in the other way round. Each nested machine is told what
    /// ``Nesting/facts(of:event:userInfo:)`` holds for it.
    @inlinable
    func deliverLifecycle(
        entering: Bool, of node: SymbolCode, handlers: HandlerTable<S, E>.Storage, context: Context,
        event: BorrowedEvent?, userInfo: UserInfoBox?, nesting: Nesting
    ) {
        // The root's names never change once given, so even a cache laid out
        // before this step answers for the nodes it covers.
        let rootHears = nesting.isNamedByRoot(node) && handlers.hasLifecycleHandlers(entering: entering, of: node)
        if entering, rootHears {
            handlers.forEachLifecycleHandler(entering: true, of: node) { invoke($0, context) }
        }
        if Int(node) < nesting.names.count {
            // Read in place: a copy of the list would cost a retain.
            let count = nesting.names[Int(node)].count
            for offset in 0..<count {
                let name = nesting.names[Int(node)][entering ? count - 1 - offset : offset]
                guard name.code != .wildcard else { continue }
                let facts = nesting.facts(of: name.member, event: event, userInfo: userInfo)
                nesting.withAccess(of: name.member) { $0.handlers.deliverLifecycle(entering, name.code, facts) }
            }
        }
        if !entering, rootHears {
            handlers.forEachLifecycleHandler(entering: false, of: node) { invoke($0, context) }
        }
    }

    /// Runs the error handlers of `member` for a refused request, which
    /// tell a state request's target as the state after, on `thread`;
    /// requests they make wait until they have all run.
    @inlinable
    func refuse(
        member: Int, _ request: StepRequest, userInfo: UserInfoBox?, refusal: Refusal?, thread: DeliveryThread
    ) {
        let nesting = uncheckedNesting
        let (event, target) = (request.event, request.target)
        beginStepDelivery(on: thread)
        if member == 0 {
            deliverErrorHandlers(
                Context(
                    event: event?.load(as: E.self), fromState: currentState,
                    toState: target.map(value(of:)) ?? currentState,
                    userInfoBox: userInfo),
                refusal: refusal)
        } else {
            inspectNestedRefusal(request, refusal: refusal)
            let current = nesting.memberStates[member].current
            withExtendedLifetime(userInfo) {
                nesting.withAccess(of: member) {
                    $0.handlers.deliverError(
                        StepFacts(event: event, userInfo: userInfo, before: current, after: target ?? current), refusal)
                }
            }
        }
        endStep()
    }

    /// Runs this machine's error handlers with `context`, for a request
    /// refused for `refusal` (`nil`: no route covered it).
    @inlinable
    func deliverErrorHandlers(_ context: Context, refusal: Refusal?) {
        report(.error, context, refusal: refusal)
        let handlers = self.handlers
        handlers.storage.forEachHandler(
            kind: .error, codes: TransitionCodes(event: .wildcard, from: .wildcard, to: .wildcard)
        ) { invoke($0, context) }
    }

    /// Begins a step's delivery on `thread`, the current thread's
    /// deliveries: requests made meanwhile wait for its end.
    @inlinable
    func beginStepDelivery(on thread: DeliveryThread = .current) {
        isStepping = true
        beginDelivery(on: thread)
        stepThread = thread
    }

    /// Ends a step's delivery and runs the requests it queued.
    @inlinable
    func endStep() {
        // The step began on this thread, and a step does not change threads.
        let thread = stepThread!
        endDelivery(on: thread)
        isStepping = false
        // Checked here: most steps queue nothing.
        if waiting.hasRequests {
            runQueuedRequests()
        }
        thread.resumeWaitingIfUnwound()
    }

    /// Whether a request must wait, queued: while a step runs, for its end;
    /// while deliveries are nested too deep on `thread`, the current
    /// thread's deliveries (or this machine's earlier requests wait for
    /// them), for them to unwind.
    @inlinable
    func mustQueueRequest(on thread: DeliveryThread) -> Bool {
        queuesHandlerRequests || isWaitingOnThread || waitIfFull(thread)
    }

    /// Calls one handler, unless it was disposed during the delivery.
    @inlinable
    func invoke(_ record: HandlerRecord<S, E>, _ context: Context) {
        if disposedDuringDelivery.isEmpty || !disposedDuringDelivery.contains(record.id) {
            record.call(context)
        }
    }

    /// Decides and delivers the queued requests in the order they were made,
    /// including those their handlers queue (see ``runWaiting(_:on:)``),
    /// unless a frame below is running them already.
    ///
    /// Specialised in the app's build, as the drain it calls is.
    @inlinable
    func runQueuedRequests() {
        guard !isRunningQueue, waiting.hasRequests else { return }
        // Run while deliveries nest too deep, they would only be queued again.
        let thread = DeliveryThread.current
        guard !waitIfFull(thread) else { return }
        isRunningQueue = true
        defer { isRunningQueue = false }
        runWaiting(.request, on: thread)
    }
}
