// Inspection: one observer hears every decision of a machine as a value.
// Built on the machine's watchers (see `TransitionWatchers`), so that a
// machine nobody inspects pays the one check it already pays for them; a
// statechart's step is read from its plan, where its delivery holds it.

extension Machine {
    /// Shows `observer` every decision this machine takes from now on, as an
    /// ``Inspection``: the request, whether it was taken or refused (and
    /// why), and for a statechart's step the states it exits, the routes it
    /// takes and the states it enters, in the order their actions run.
    ///
    /// ```swift
    /// let logging = player.inspect { print($0) }
    /// player.tryEvent(.play)  // prints "event(play): stopped => playing"
    /// logging.dispose()       // prints nothing more
    /// ```
    ///
    /// The observer is called in the machine's isolation domain, in the
    /// order the machine decides, before the handlers of each decision run
    /// (as ``transitions(includingRefusals:bufferingPolicy:)`` records them).
    /// A statechart's eventless and done steps are inspections of their own,
    /// after the step that led to them. Refusals are included.
    ///
    /// The observer also hears ``start()`` (``Inspection/Request/start``,
    /// with the states it enters, outermost first, before their entry
    /// handlers run), and the machine finishing after a step entered a
    /// top-level final state (``Inspection/Request/finish``, with the states
    /// it exits, innermost first, before their exit handlers run). A start
    /// that does nothing (the machine started or moved before) is not heard.
    ///
    /// On the root of a hierarchy of nested machines, the observer hears
    /// every step of the hierarchy and every refusal of its machines, with
    /// the states as the root names them (a nested machine's states the
    /// root has no value for are left out of exits, entries and routes; a
    /// nested machine's refused event or state request is shown as the
    /// root's `state`, unchanged). On a nested machine, it hears the steps
    /// that concern that machine, with its own states, as a flat decision,
    /// and its own start, with its own states, when the root's start finds
    /// it active (being entered later with the state it is nested in is not
    /// its start).
    ///
    /// A request the observer makes is taken as a handler's would be: it
    /// is decided after the decision the observer heard, never before, and
    /// is heard in its turn. In a statechart, and in a flat machine under
    /// ``DeliveryPolicy/runToCompletion``, it waits for the step's handlers;
    /// in a flat machine under ``DeliveryPolicy/immediate`` it is decided
    /// at once, so the observer hears it before it returns.
    ///
    /// - Parameter observer: Called with each decision.
    /// - Returns: What removes the observer.
    /// - Complexity: Each decision costs O(observers) while there are any,
    ///   and one check when there are none (the one it costs anyway).
    public func inspect(_ observer: @escaping (Inspection<S, E>) -> Void) -> Disposable {
        let watchers = ensureWatchers()
        let id = watchers.addInspector(observer)
        return ActionDisposable { [weak watchers] in watchers?.removeInspector(id) }
    }

    /// A flat decision as an inspection: no exits, routes or entries.
    func inspection(_ kind: DeliveryKind, _ context: Context, refusal: Refusal?) -> Inspection<S, E> {
        let request: Inspection<S, E>.Request = context.event.map { .event($0) } ?? .state(context.toState)
        return Inspection(
            request: request, fromState: context.fromState, toState: context.toState,
            refusal: kind == .error ? TransitionError.Reason(refusal, isEvent: context.event != nil) : nil,
            exits: [], routes: [], entries: [])
    }

    /// The statechart step `plan` holds as an inspection, once delivered
    /// up to its change of state: its exits, routes and entries named as
    /// this machine (the root) names them.
    func stepInspection(_ context: Context, plan: borrowing StepPlan) -> Inspection<S, E> {
        let states = routes.storage.states
        let request: Inspection<S, E>.Request =
            if let event = context.event {
                .event(event)
            } else {
                switch plan.internalCause {
                case .eventless: .eventless
                case .done: .done
                case nil: .state(context.toState)
                }
            }
        var routes: [Inspection<S, E>.Route] = []
        for index in 0..<plan.moves.length {
            let move = plan.moves[index]
            routes.append(Inspection.Route(source: states.name(of: move.source), target: states.name(of: move.target)))
        }
        return Inspection(
            request: request, fromState: context.fromState, toState: context.toState, refusal: nil,
            exits: names(of: plan.exits.elements), routes: routes, entries: names(of: plan.entries.elements))
    }

    /// Tells the watchers, if any, of a statechart's step, and shows its
    /// plan to the observers of ``inspect(_:)``. Called, as
    /// ``report(_:_:refusal:)`` is, before the step's handlers of the transition run.
    @inlinable
    func reportStep(_ kind: DeliveryKind, _ context: Context, plan: borrowing StepPlan) {
        guard let watchers else { return }
        reportStep(kind, context, plan: plan, to: watchers)
    }

    /// ``reportStep(_:_:plan:)`` once the machine is known to be watched; out of
    /// line, so that the unwatched path stays as small as it was.
    @usableFromInline
    @inline(never)
    func reportStep(
        _ kind: DeliveryKind, _ context: Context, plan: borrowing StepPlan, to watchers: TransitionWatchers<S, E>
    ) {
        hear(kind, context, refusal: nil, watchers: watchers)
        if watchers.hasInspectors {
            watchers.inspect(stepInspection(context, plan: plan))
        }
    }

    /// Shows the root's observers a request refused in the nested machine
    /// `member`, with the root's `state` as before and after.
    @usableFromInline
    func inspectNestedRefusal(_ request: StepRequest, refusal: Refusal?) {
        guard let watchers, watchers.hasInspectors else { return }
        let event = request.event?.load(as: E.self)
        watchers.inspect(
            Inspection(
                request: event.map { .event($0) } ?? .state(currentState), fromState: currentState,
                toState: currentState, refusal: TransitionError.Reason(refusal, isEvent: event != nil), exits: [],
                routes: [], entries: []))
    }

    // MARK: Start and finish

    /// Shows the observers of this machine, and of each nested machine it
    /// finds active, the start of the hierarchy: `entries`, the nodes it
    /// enters, outermost first. Called once the start's delivery has begun,
    /// before any entry handler runs.
    @inlinable
    func inspectStart(entering entries: [SymbolCode], chart: Statechart, nesting: Nesting) {
        if let watchers, watchers.hasInspectors {
            inspectLifecycle(.start, states: names(of: entries), to: watchers)
        }
        if nesting.hasNestedMachines {
            inspectNestedStart(chart: chart, nesting: nesting)
        }
    }

    /// Shows the observers of this machine the finish the plan holds (see
    /// ``Statechart/planFinish(into:)``): its exits, innermost first. Called
    /// before any exit handler runs. No nested machine is active then: a
    /// top-level final state has no children.
    @inlinable
    func inspectFinish(_ plan: borrowing StepPlan) {
        guard let watchers, watchers.hasInspectors else { return }
        inspectLifecycle(.finish, states: names(of: plan.exits.elements), to: watchers)
    }

    /// A start or a finish as an inspection: `states` are its entries for a
    /// start, its exits for a finish; the machine's `state` is before and
    /// after.
    @usableFromInline
    @inline(never)
    func inspectLifecycle(
        _ request: Inspection<S, E>.Request, states: [S], to watchers: TransitionWatchers<S, E>
    ) {
        let isStart = request == .start
        watchers.inspect(
            Inspection(
                request: request, fromState: currentState, toState: currentState, refusal: nil,
                exits: isStart ? [] : states, routes: [], entries: isStart ? states : []))
    }

    /// The states of `nodes` this machine (the root) names, in their order.
    @usableFromInline
    func names(of nodes: some Sequence<SymbolCode>) -> [S] {
        let states = routes.storage.states
        return nodes.compactMap { states.name(of: $0) }
    }

    /// Tells each nested machine that is active its start, outermost
    /// machine first, which it shows its own observers, if it has any.
    @usableFromInline
    func inspectNestedStart(chart: Statechart, nesting: Nesting) {
        let members = nesting.members.indices.dropFirst().filter { nesting.isActive($0, in: chart) }
        func depth(_ member: Int) -> Int { nesting.memberStates[member].depth }
        for member in members.sorted(by: { (depth($0), $0) < (depth($1), $1) }) {
            nesting.withAccess(of: member) { $0.handlers.inspectStart() }
        }
    }

    /// This machine's own start, as a nested machine shows it its
    /// observers: its active states, in its names, outermost first.
    @usableFromInline
    func inspectOwnStart() {
        guard let watchers, watchers.hasInspectors else { return }
        inspectLifecycle(.start, states: configuration, to: watchers)
    }
}
