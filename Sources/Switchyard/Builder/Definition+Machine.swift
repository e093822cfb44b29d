// A definition as routes on a machine: the same engine, the same rules as
// routes written with the operator API.

extension Definition {
    /// A machine in the definition's initial state with its routes (done and
    /// eventless routes included), its route mapping, its nested states and
    /// its final states: a plain ``Machine``, driven and
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
        _ = install(into: machine, keepsReactions: false)
        return machine
    }

    /// Adds the definition's tree, final states, routes and route mapping to `machine`,
    /// and says which registration each route clause became, so that an
    /// effect machine finds the clause a step took by what the engine says
    /// it took.
    ///
    /// - Parameters:
    ///   - machine: The machine to add them to.
    ///   - keepsReactions: Whether the mapping keeps the effects of the
    ///     computed clause that answers last (an effect machine reads them).
    /// - Returns: What removes the routes and the mapping, and which clause each became.
    @inlinable
    func install(into machine: Machine<S, E>, keepsReactions: Bool) -> InstalledDefinition<S, E, Effect> {
        for declaration in tree.declarations {
            if declaration.isParallel {
                machine.addRegions(declaration.children, to: declaration.parent)
            } else {
                machine.addChildren(declaration.children, to: declaration.parent, initial: declaration.initial)
            }
        }
        // After the whole tree: a history's default may lie deeper than the children declared with it.
        for declaration in tree.declarations {
            if let history = declaration.history {
                machine.addHistory(history, to: declaration.parent, default: declaration.historyDefault)
            }
        }
        for state in finalStates {
            machine.addFinalState(state)
        }
        // Each machine learns its patterns' cases on its own.
        let mapped = core.mapped.fresh()
        var installed = InstalledDefinition<S, E, Effect>(clauses: mapped.clauses, completions: completions)
        for (index, clause) in mapped.clauses.enumerated() where clause.isRoute {
            let (event, transition) = clause.route
            let registration = machine.addRoutes(
                event: event.map(Event.some) ?? .any, transitions: [transition], condition: routeCondition(of: clause))
            installed.add(route: registration, clause: index)
        }
        if !mapped.isEmpty {
            // One object captured: calling the mapping then retains nothing.
            let mapping = DefinitionMapping(mapped: mapped, keepsReactions: keepsReactions)
            let registration = machine.addAnsweringRouteMapping { [mapping] event, state, _ in
                mapping.answer(on: event, in: state)
            }
            installed.add(mapping: mapping, registration: registration)
        }
        // After the tree and the final states, which the engine checks these routes against.
        for (index, clause) in completions.enumerated() {
            let condition = clause.condition.map { allows in
                { (context: TransitionContext<S, E>) in allows(context.fromState) }
            }
            let registration =
                switch clause.kind {
                case .done: machine.addDoneRoute(clause.transition, condition: condition)
                case .eventless: machine.addEventlessRoute(clause.transition, condition: condition)
                }
            installed.add(route: registration, clause: mapped.clauses.count + index)
        }
        return installed
    }

    /// The condition of a route clause's route: its guards and `disable`
    /// conditions, asked with the event (a request by state, which has none,
    /// is refused by a guarded clause).
    @inlinable
    func routeCondition(of clause: Clause<S, E, Effect>) -> ((TransitionContext<S, E>) -> Bool)? {
        guard let allows = clause.condition else { return nil }
        return { context in context.event.map { allows(context.fromState, $0) } ?? false }
    }
}

extension Machine {
    /// Adds a definition's routes (done and eventless routes included), route
    /// mapping, nested states and final states to this machine, beside the routes it already has: one machine may mix both.
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
    /// - Returns: What removes the routes and the mapping; the nested states
    ///   and final states stay.
    /// - Complexity: O(*n*) in the clauses and states.
    @inlinable
    @discardableResult
    public func addDefinition<Effect>(_ definition: Definition<S, E, Effect>) -> Disposable {
        combine(definition.install(into: self, keepsReactions: false).disposables)
    }
}

/// A definition's route mapping: its mapped clauses, asked as the engine
/// asks a mapping, answering with the clause that took the request.
@usableFromInline
final class DefinitionMapping<S: StateType, E: EventType, Effect> {
    @usableFromInline let mapped: MappedClauses<S, E, Effect>
    /// `mapped`'s dispatch, if it has one, held unretained (`mapped` keeps
    /// it), so that a call retains nothing.
    @usableFromInline let dispatch: Unretained<CaseDispatch<S, E, Effect>>?
    /// Whether the effects of a computed clause's reaction are kept.
    @usableFromInline let keepsReactions: Bool
    /// The effects of the reaction of the computed clause that answered
    /// last, for an effect machine: a computed clause's effects are made by
    /// its closure, so they cannot be looked up by the clause afterwards.
    /// The decision that takes the mapping's answer is the last to ask it
    /// (a question a closure asks meanwhile answers before it), so they are
    /// that decision's whenever the engine says it took this mapping.
    @usableFromInline
    @exclusivity(unchecked) var computedEffects: [Effect] = []

    @usableFromInline
    init(mapped: MappedClauses<S, E, Effect>, keepsReactions: Bool) {
        self.mapped = mapped
        self.keepsReactions = keepsReactions
        self.dispatch = mapped.dispatch.map { Unretained($0) }
    }

    /// What the mapped clauses answer `event` in `state`: the target of the
    /// first that takes it (`state` itself for a stay) and its place, a
    /// refusal when clauses cover it and refuse, or nothing (and for
    /// requests by state, which have no event).
    @inlinable
    func answer(on event: E?, in state: S) -> MappingAnswer<S> {
        guard let event else { return .none }
        let keeper = keepsReactions ? self : nil
        if let dispatch {
            return dispatch.withObject { $0.mappingAnswer(state, event, keepingEffectsIn: keeper) }
        }
        return mapped.mappingAnswer(state, event, keepingEffectsIn: keeper)
    }
}

/// A definition installed on a machine: what removes it, and how to find
/// the clause a route or the mapping took, for an effect machine.
@usableFromInline
struct InstalledDefinition<S: StateType, E: EventType, Effect> {
    @usableFromInline var disposables: [Disposable] = []
    /// By a clause's place: its own effects, and whether its closure makes
    /// more (a computed reaction's). The `OnDone` and `Always` clauses come
    /// after the others.
    @usableFromInline let clauseEffects: [[Effect]]
    @usableFromInline let isComputed: [Bool]
    /// The registration of the first route clause's route.
    @usableFromInline var firstRouteID: UInt64 = 0
    /// By a route's registration, counted from `firstRouteID`: the place of
    /// its clause, -1 between them.
    @usableFromInline var routeClauses: [Int32] = []
    @usableFromInline var mapping: DefinitionMapping<S, E, Effect>?
    @usableFromInline var mappingID = RegistrationID(rawValue: 0)

    @inlinable
    init(clauses: [Clause<S, E, Effect>], completions: [CompletionClause<S, Effect>]) {
        clauseEffects = clauses.map(\.effects) + completions.map(\.effects)
        isComputed =
            clauses.map {
                if case .computed = $0.target { return true }
                return false
            } + repeatElement(false, count: completions.count)
    }

    /// Notes that the route of the clause at `clause` was registered as `registration`.
    @inlinable
    mutating func add(route registration: Disposable, clause: Int) {
        disposables.append(registration)
        guard let id = (registration as? Registration)?.id.rawValue else { return }
        if routeClauses.isEmpty {
            firstRouteID = id
        }
        let offset = Int(id - firstRouteID)
        if offset >= routeClauses.count {
            routeClauses.append(contentsOf: repeatElement(-1, count: offset + 1 - routeClauses.count))
        }
        routeClauses[offset] = Int32(clause)
    }

    /// Notes that the mapping was registered as `registration`.
    @inlinable
    mutating func add(mapping: DefinitionMapping<S, E, Effect>, registration: Disposable) {
        disposables.append(registration)
        self.mapping = mapping
        mappingID = (registration as? Registration)?.id ?? RegistrationID(rawValue: 0)
    }

    /// What the route or mapping a decision took emitted: its clause's
    /// effects (a computed clause's, those its mapping kept when it
    /// answered); none for a route or mapping not of this definition.
    @inlinable
    func effects(of taken: TakenRoute) -> [Effect] {
        if taken.id == mappingID, taken.clause >= 0 {
            let clause = Int(taken.clause)
            if isComputed[clause], let mapping {
                return mapping.computedEffects
            }
            return clauseEffects[clause]
        }
        let offset = taken.id.rawValue &- firstRouteID
        guard offset < UInt64(routeClauses.count), case let clause = routeClauses[Int(offset)], clause >= 0 else {
            return []
        }
        return clauseEffects[Int(clause)]
    }
}

extension Definition {
    /// Describes the definition: its states, routes, route mapping and final
    /// states, as the ``Machine`` that ``makeMachine(delivery:)`` builds holds
    /// them, read from the same engine rather than from the clauses.
    ///
    /// ```swift
    /// print(matter.describe().dot())
    /// ```
    ///
    /// Clauses with a fixed target are routes; the others (computed
    /// targets, enum cases matched by constructor or type) answer through
    /// one route mapping, whose moves are listed when the state and event
    /// types are `CaseIterable` (see ``MachineDescription/RouteMapping/moves``).
    ///
    /// - Returns: The description.
    /// - Complexity: O(*n* log *n*) in the clauses and states, plus the
    ///   route mapping's calls.
    public func describe() -> MachineDescription<S, E> {
        makeMachine().describe()
    }
}
