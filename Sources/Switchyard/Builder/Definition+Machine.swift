// A definition as routes on a machine: the same engine, the same rules as
// routes written with the operator API.

extension Definition {
    /// A machine in the definition's initial state with its routes, its
    /// route mapping and its nested states: a plain ``Machine``, driven and
    /// observed with the operator API and handlers, to which more routes may
    /// be added.
    ///
    /// ```swift
    /// let machine = matter.makeMachine()
    /// machine.addHandler(event: .any) { context in print(context.toState) }
    /// machine <-! .melt  // prints "liquid"
    /// ```
    ///
    /// A plain machine knows nothing of effects; an ``EffectMachine`` hands
    /// them back with each transition.
    ///
    /// - Parameter delivery: When the handlers of a transition requested from
    ///   a handler run; ``DeliveryPolicy/runToCompletion`` by default, as
    ///   recommended for new code.
    /// - Returns: The machine.
    /// - Complexity: O(*n*) in the clauses and states.
    @inlinable
    public func makeMachine(delivery: DeliveryPolicy = .runToCompletion) -> Machine<S, E> {
        let machine = Machine<S, E>(state: initialState, delivery: delivery)
        _ = install(into: machine, recorder: nil)
        return machine
    }

    /// Adds the definition's tree, routes and route mapping to `machine`;
    /// with a `recorder`, the routes and the mapping tell it what they emit.
    ///
    /// - Returns: What removes the routes and the mapping.
    @inlinable
    func install(into machine: Machine<S, E>, recorder: EffectRecorder<S, E, Effect>?) -> [Disposable] {
        for declaration in tree.declarations {
            if declaration.isParallel {
                machine.addRegions(declaration.children, to: declaration.parent)
            } else {
                machine.addChildren(declaration.children, to: declaration.parent, initial: declaration.initial)
            }
            if let history = declaration.history {
                machine.addHistory(history, to: declaration.parent)
            }
        }
        // Each machine learns its patterns' cases on its own.
        let mapped = core.mapped.fresh()
        let trusted = recorder.map { _ in trustedRouteClauses(mapped.clauses) } ?? []
        var disposables: [Disposable] = []
        for (index, clause) in mapped.clauses.enumerated() where clause.isRoute {
            let (event, transition) = clause.route
            let isTrusted = trusted.contains(index)
            let registration = machine.addRoutes(
                event: event.map(Event.some) ?? .any, transitions: [transition],
                condition: routeCondition(of: clause, recorder: isTrusted ? nil : recorder))
            disposables.append(registration)
            if let recorder, let registration = registration as? Registration {
                recorder.routeClauses[registration.id] = index
            }
            if let recorder, isTrusted, case .value(let source) = clause.source, let event {
                recorder.trust(
                    EffectRecorder.TrustedClause(
                        event: event, result: transition.toState.rawValue ?? source, effects: clause.effects),
                    from: machine.routes.code(of: source))
            } else if recorder != nil, !clause.effects.isEmpty {
                recorder?.recordsClauses = true
            }
        }
        if !mapped.isEmpty {
            recorder?.recordsClauses = true
            // One object captured: calling the mapping then retains nothing.
            if recorder == nil, let dispatch = mapped.dispatch {
                // A plain machine over an enum asks the dispatch straight away.
                disposables.append(
                    machine.addRouteMapping { [dispatch] event, state, _ in
                        event.flatMap { dispatch.target(state, $0) }
                    })
            } else {
                let mapping = DefinitionMapping(mapped: mapped, recorder: recorder)
                disposables.append(
                    machine.addRouteMapping { [mapping] event, state, _ in mapping.target(on: event, in: state) })
            }
        }
        if let recorder {
            recorder.clauses = mapped.clauses
            recorder.entryEffects = entryEffects
            recorder.exitEffects = exitEffects
            if !tree.isEmpty || !entryEffects.isEmpty || !exitEffects.isEmpty {
                // Entries and exits, and several routes in one step: the
                // statechart's plan says what was taken.
                machine.ensureChart()
                recorder.settlesSteps = true
                recorder.recordsClauses = true
                // Strong captures: the machine may outlive its effect machine,
                // and the recorder points back to the machine unowned.
                machine.addHandler(event: .any, order: 0) { _ in recorder.settleStep() }
                machine.addErrorHandler(order: 0) { _ in recorder.settleRefusal() }
            }
        }
        return disposables
    }

    /// The route clauses an effect machine may trust to be the route taken
    /// whenever its machine makes their move: unguarded, with effects, from a
    /// state on an event (the first chain the machine tries), and with no
    /// route before them in that chain that leads to the same state.
    @usableFromInline
    func trustedRouteClauses(_ clauses: [Clause<S, E, Effect>]) -> Set<Int> {
        var results: [Pair: [S]] = [:]
        var trusted: Set<Int> = []
        for (index, clause) in clauses.enumerated() where clause.isRoute {
            guard case .value(let source) = clause.source, case .value(let event) = clause.event else { continue }
            let (_, transition) = clause.route
            let result = transition.toState.rawValue ?? source
            let pair = Pair(source: source, event: event)
            if clause.condition == nil, !clause.effects.isEmpty, results[pair]?.contains(result) != true {
                trusted.insert(index)
            }
            results[pair, default: []].append(result)
        }
        return trusted
    }

    /// A state and an event: the first chain a machine tries.
    @usableFromInline
    struct Pair: Hashable {
        @usableFromInline var source: S
        @usableFromInline var event: E
    }

    /// The condition of a route clause's route: its guards and `disable`
    /// conditions, asked with the event (a request by state, which has none,
    /// is refused by a guarded clause); and, for an effect machine, the
    /// recording of the clause's effects when it allows the move.
    @inlinable
    func routeCondition(of clause: Clause<S, E, Effect>, recorder: EffectRecorder<S, E, Effect>?)
        -> ((TransitionContext<S, E>) -> Bool)?
    {
        guard let recorder, !clause.effects.isEmpty else {
            guard let allows = clause.condition else { return nil }
            return { context in context.event.map { allows(context.fromState, $0) } ?? false }
        }
        let effects = clause.effects
        guard let allows = clause.condition else {
            return { context in
                recorder.record(effects)
                return true
            }
        }
        return { context in
            guard let event = context.event, allows(context.fromState, event) else { return false }
            recorder.record(effects)
            return true
        }
    }
}

extension Machine {
    /// Adds a definition's routes, route mapping and nested states to this
    /// machine, beside the routes it already has: one machine may mix both.
    ///
    /// ```swift
    /// let machine = Machine<Matter, Change>(state: .solid) { machine in
    ///     machine.addRoutes(event: .sublimate, transitions: [.solid => .gas])
    /// }
    /// machine.addDefinition(matter)
    /// ```
    ///
    /// The definition's initial state is not used: the machine keeps its own.
    /// Its routes join the machine's under the machine's rules (see
    /// <doc:DefinitionDSL>); its effects are not kept (an ``EffectMachine``
    /// hands them back).
    ///
    /// - Parameter definition: The definition.
    /// - Returns: What removes the routes and the mapping; the nested states stay.
    /// - Complexity: O(*n*) in the clauses and states.
    @inlinable
    @discardableResult
    public func addDefinition<Effect>(_ definition: Definition<S, E, Effect>) -> Disposable {
        let disposables = definition.install(into: self, recorder: nil)
        return combine(disposables)
    }
}

/// A definition's route mapping: its mapped clauses, and, for an effect
/// machine, the recorder that learns what they emit.
@usableFromInline
final class DefinitionMapping<S: StateType, E: EventType, Effect> {
    @usableFromInline let mapped: MappedClauses<S, E, Effect>
    /// Keeps the recorder as long as the machine that owns this mapping,
    /// which may outlive its effect machine (the recorder only points back
    /// to the machine unowned, so there is no cycle).
    @usableFromInline let recorderOwner: EffectRecorder<S, E, Effect>?
    /// The same recorder, read without retaining it on every request.
    @usableFromInline let recorder: Unretained<EffectRecorder<S, E, Effect>>?
    /// `mapped`'s dispatch, if it has one, held unretained (`mapped` keeps
    /// it), so that a call retains nothing.
    @usableFromInline let dispatch: Unretained<CaseDispatch<S, E, Effect>>?

    @usableFromInline
    init(mapped: MappedClauses<S, E, Effect>, recorder: EffectRecorder<S, E, Effect>?) {
        self.mapped = mapped
        self.recorderOwner = recorder
        self.recorder = recorder.map { Unretained($0) }
        self.dispatch = mapped.dispatch.map { Unretained($0) }
    }

    /// The state the mapped clauses send `event` to from `state`; `nil` if
    /// they refuse it or none covers it (and requests by state, which have no event).
    @inlinable
    func target(on event: E?, in state: S) -> S? {
        guard let event else { return nil }
        guard let recorder else {
            var refused = false
            return mapped.answer(state, event, refused: &refused).map { $0.reaction.toState ?? state }
        }
        return recorder.withObject { recorder in
            if let dispatch {
                return dispatch.withObject { $0.target(state, event, recording: recorder) }
            }
            var refused = false
            guard let (_, reaction) = mapped.answer(state, event, refused: &refused) else {
                if refused {
                    recorder.recordRefusal()
                }
                return nil
            }
            recorder.record(reaction.effects)
            return reaction.toState ?? state
        }
    }
}
