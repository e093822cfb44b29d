/// What a definition's pure function decides with: the definition's routes in
/// a route table of the engine, the same one a machine decides with (its
/// done and eventless routes included), and its mapped clauses. Made once,
/// with the definition.
@usableFromInline
final class DefinitionCore<S: StateType, E: EventType, Effect> {
    /// One route per route clause, then one per ``OnDone`` or ``Always``
    /// clause: a route clause's registration is its place in
    /// `routeClauses`, plus one; the others follow, in the order written.
    @usableFromInline let routes: RouteTable<S, E>
    /// The clause of each route.
    @usableFromInline let routeClauses: [Int]
    @usableFromInline let mapped: MappedClauses<S, E, Effect>
    /// The effects of the ``OnDone`` and ``Always`` clauses, in the order
    /// written: a machine takes their routes after an event's step, before
    /// it answers, so the pure function does too (see
    /// ``settlingOutcome(of:in:code:from:)``).
    @usableFromInline let completionEffects: [[Effect]]
    @usableFromInline let hasCompletions: Bool
    @usableFromInline let isNested: Bool
    /// The definition's statechart on `routes`' codes, the engine's own: it
    /// plans a move's exits and entries as a machine's does. Made when the
    /// definition nests states, emits on entries and exits, or has done or
    /// eventless clauses, and has no regions or history (the pure function
    /// answers for none of those). Its final states are marked.
    @usableFromInline let chart: Statechart?
    /// The code that stands, in `chart`, for every state the definition does
    /// not name (a computed target, a state no clause names): a top-level
    /// state without effects.
    @usableFromInline let unnamedCode: SymbolCode
    /// The entry and exit effects, by code in `routes`.
    @usableFromInline let lifecycleEffects: LifecycleEffects<Effect>
    /// By the code of a state: the code of the atomic state a machine
    /// started in it rests in, which the pure function decides from: the
    /// state itself if it is atomic, its initial descendant if it is
    /// compound (a machine started there has entered its initial children,
    /// and offers an event to the innermost first). Worked out once, by
    /// `chart`, when the definition is made; empty when no state nests.
    @usableFromInline let restingCodes: [SymbolCode]
    /// The codes of the top-level final states: entering one finishes a
    /// machine, which then refuses every request. Few, so searched in order.
    @usableFromInline let finishingCodes: [SymbolCode]
    /// The step `chart` plans, kept so that planning allocates nothing once it has grown.
    @usableFromInline
    @exclusivity(unchecked) var plan = StepPlan()
    /// By the code of a state: the outcomes of the route clauses with a
    /// fixed target that a request in that state can take and whose move
    /// joins exit or entry effects to the clause's, worked out once, when the
    /// definition is made (``settleOutcomes()``), so that the pure function
    /// looks them up and allocates nothing.
    @usableFromInline var settledOutcomes: [[(clause: Int, outcome: Definition<S, E, Effect>.Outcome)]] = []
    /// Where a macrostep is worked out (see ``MacrostepWorkspace``), kept
    /// between requests so that its lists are made once; `nil` while one
    /// is worked out in it, so that a guard that asks the pure function
    /// meanwhile gets a new one, and for a definition without done or
    /// eventless clauses.
    @usableFromInline
    @exclusivity(unchecked) var spareWorkspace: MacrostepWorkspace?

    init(
        clauses: [Clause<S, E, Effect>], tree: DefinitionTree<S>, entryEffects: [S: [Effect]],
        exitEffects: [S: [Effect]], finalStates: [S], completions: [CompletionClause<S, Effect>]
    ) {
        var routes = RouteTable<S, E>()
        // Named even when no clause names them, so that a move to one is known.
        finishingCodes = finalStates.filter { tree.parents[$0] == nil }.map { routes.intern($0) }
        var routeClauses: [Int] = []
        var completionEffects: [[Effect]] = []
        for (index, clause) in clauses.enumerated() where clause.isRoute {
            routeClauses.append(index)
            let (event, transition) = clause.route
            let condition = clause.condition.map { allows in
                { (context: TransitionContext<S, E>) in context.event.map { allows(context.fromState, $0) } ?? false }
            }
            _ = routes.addEventRoute(
                event: event, transition, guarded: .of(transition, condition: condition),
                id: RegistrationID(rawValue: UInt64(routeClauses.count)))
        }
        for clause in completions {
            let condition = clause.condition.map { allows in
                { (context: TransitionContext<S, E>) in allows(context.fromState) }
            }
            let transition = clause.transition
            _ = routes.addRoute(
                reservedEvent: clause.kind == .done ? .done : .eventless, transition,
                guarded: .of(transition, condition: condition),
                id: RegistrationID(rawValue: UInt64(routeClauses.count + 1 + completionEffects.count)))
            completionEffects.append(clause.effects)
        }
        self.completionEffects = completionEffects
        hasCompletions = !completions.isEmpty
        lifecycleEffects = LifecycleEffects(entries: entryEffects, exits: exitEffects) { routes.intern($0) }
        if (!tree.isEmpty || !lifecycleEffects.isEmpty || hasCompletions) && !tree.needsConfiguration {
            let chart = Statechart()
            for declaration in tree.declarations {
                chart.tree.add(
                    declaration.children.map { routes.intern($0) }, to: routes.intern(declaration.parent),
                    kind: .compound, initial: declaration.initial.map { routes.intern($0) }, names: { "\($0)" })
            }
            for state in finalStates {
                let code = routes.intern(state)
                // Named as a machine names them: a misuse stops here with its message.
                chart.tree.setFinal(code) { code in routes.storage.states.name(of: code).map { "\($0)" } ?? "\(code)" }
            }
            unnamedCode = routes.uniqueStorage.states.reserveAnonymousCode()
            chart.tree.grow(toHold: unnamedCode)
            chart.tree.layOutIfNeeded()
            restingCodes = tree.isEmpty ? [] : Self.restingCodes(on: chart, count: routes.storage.states.count)
            self.chart = chart
            if hasCompletions {
                spareWorkspace = MacrostepWorkspace(tree: chart.tree)
            }
        } else {
            unnamedCode = .unknown
            restingCodes = []
            chart = nil
        }
        self.routes = routes
        self.routeClauses = routeClauses
        self.mapped = MappedClauses(clauses: clauses, parents: tree.parents)
        self.isNested = !tree.isEmpty
        settledOutcomes = settleOutcomes()
    }

    /// What the definition did with one request.
    @usableFromInline
    enum Decision {
        /// The clause taken, the state its move leaves from
        /// (``SymbolCode/wildcard`` for the root), and its reaction.
        case taken(clause: Int, source: SymbolCode, reaction: Reaction<S, Effect>)
        /// Why nothing was taken: `nil` when no clause covered the request.
        case refused(Refusal?)
    }

    /// The atomic state a machine started in `state` rests in, and its
    /// code (``SymbolCode/unknown`` if the definition names no such state):
    /// `state` itself unless it is compound, whose initial descendant a
    /// machine has entered. A machine in either has the same configuration,
    /// reports the atomic one as its state, and asks guards with it.
    ///
    /// - Complexity: One hash, then one look-up.
    @inlinable
    @inline(__always)
    func restingState(of state: S) -> (state: S, code: SymbolCode) {
        // Always inlined: out of line, the call cost `dsl-pure` (a flat
        // definition, which keeps no table) some 35 instructions a request.
        let code = routes.code(of: state)
        guard Int(code) < restingCodes.count, code.isConcrete else { return (state, code) }
        let resting = restingCodes[Int(code)]
        return resting == code ? (state, code) : (routes.storage.states.value(of: resting), resting)
    }

    /// By the code of each of the `count` states named on `chart`: the code
    /// of the atomic state entering it rests in, for ``restingCodes``.
    ///
    /// - Complexity: O(*n* · *d*) for *n* states *d* deep, once, when the
    ///   definition is made.
    static func restingCodes(on chart: Statechart, count: Int) -> [SymbolCode] {
        var plan = StepPlan()
        var resting = [SymbolCode](repeating: .wildcard, count: count + 1)
        for code in 1..<(count + 1) {
            chart.reenter(SymbolCode(code), plan: &plan)
            resting[code] = chart.innermostState(of: chart.configuration)
        }
        return resting
    }

    /// What the definition does on `event` in `state`, whose code is
    /// `stateCode`, or why it does nothing. `state` is one a machine can
    /// rest in (see ``restingState(of:)``): the walk up from it to the root
    /// is the one a machine makes.
    @inlinable
    func decide(_ state: S, code stateCode: SymbolCode, _ event: E) -> Decision {
        let routes = self.routes
        let eventCode = routes.code(of: event)
        if !finishingCodes.isEmpty, finishingCodes.contains(stateCode) {
            // A machine that entered it is finished.
            return .refused(.finished)
        }
        var refusal: Refusal?
        let route: SelectedRoute<S>?
        if isNested, let chart, stateCode != .unknown {
            // A step's walk (SPEC 3.2), from the resting atomic state out to the root.
            route = chart.firstOnWalk(from: stateCode) { node in
                routes.storage.firstRoute(
                    event: event, code: eventCode, on: node, current: state, userInfo: nil, refusal: &refusal)
            }
        } else {
            // Without a tree, or from a state it does not name: a flat
            // machine's walk, the state then the root.
            route = routes.storage.firstRouteWalking(
                event: event, code: eventCode, from: stateCode, current: state, userInfo: nil, refusal: &refusal)
        }
        if let route {
            return taking(route)
        }
        var refused = false
        if let (clause, reaction) = mapped.answer(state, event, refused: &refused) {
            // A mapping names its target, so a clause that stays names the
            // current state: a machine takes that as a move from the root.
            let named = Reaction(toState: reaction.toState ?? state, effects: reaction.effects)
            return .taken(clause: clause, source: .wildcard, reaction: named)
        }
        if refused {
            refusal = .conditions
        }
        return .refused(refusal)
    }

    /// The clause of `route`, and its reaction.
    @inlinable
    func taking(_ route: SelectedRoute<S>) -> Decision {
        let index = routeClauses[Int(route.id.rawValue) - 1]
        return .taken(
            clause: index, source: route.source,
            reaction: Reaction(toState: route.target, effects: mapped.clauses[index].effects))
    }

    /// The outcome of `clause` taken in the state of `stateCode`, if it was
    /// worked out when the definition was made.
    @inlinable
    func settledOutcome(of clause: Int, in stateCode: SymbolCode) -> Definition<S, E, Effect>.Outcome? {
        guard stateCode.isConcrete, Int(stateCode) < settledOutcomes.count else { return nil }
        for settled in settledOutcomes[Int(stateCode)] where settled.clause == clause {
            return settled.outcome
        }
        return nil
    }

    /// Plans in `plan`, on `chart`, the move of `reaction` along a route
    /// from `source` (``SymbolCode/wildcard`` for the root), from the
    /// configuration a machine in the state of `stateCode` has: the step a
    /// machine takes for the request, its exits and entries complete. A
    /// state the definition does not name is ``unnamedCode`` there.
    @inlinable
    func planMove(
        of reaction: Reaction<S, Effect>, in stateCode: SymbolCode, from source: SymbolCode, on chart: Statechart,
        into plan: inout StepPlan
    ) {
        var target = SymbolCode.wildcard
        if let toState = reaction.toState {
            let named = routes.code(of: toState)
            target = named.isConcrete ? named : unnamedCode
        }
        chart.reenter(stateCode.isConcrete ? stateCode : unnamedCode, plan: &plan)
        plan.reset()
        chart.choose(StepPlan.Move(source: source, target: target, isLocal: false), into: &plan)
        chart.complete(&plan)
    }

    /// The outcome of `reaction`, taken in `state` (whose code is
    /// `stateCode`) along a route from `source` (``SymbolCode/wildcard``
    /// for the root: `.any` and mapped clauses): the state it settles in and
    /// what it emits, the exits' effects and the entries' around the
    /// reaction's, as the engine plans the move for a machine.
    @inlinable
    func outcome(of reaction: Reaction<S, Effect>, in state: S, code stateCode: SymbolCode, from source: SymbolCode)
        -> Definition<S, E, Effect>.Outcome
    {
        guard let target = reaction.toState else {
            return Definition.Outcome(toState: state, effects: reaction.effects)
        }
        guard let chart else {
            return Definition.Outcome(toState: target, effects: reaction.effects)
        }
        planMove(of: reaction, in: stateCode, from: source, on: chart, into: &plan)
        let settled = chart.innermostState(after: &plan)
        var effects = lifecycleEffects.effects(of: plan) { _ in reaction.effects }
        if !finishingCodes.isEmpty, finishingCodes.contains(settled) {
            // The machine finishes, exiting its only active state: a
            // top-level one, atomic, as a final state is.
            effects += lifecycleEffects.exits(of: settled)
        }
        return Definition.Outcome(
            toState: settled == unnamedCode ? target : routes.storage.states.value(of: settled), effects: effects)
    }

    /// The outcomes of the route clauses with a fixed target, from each state
    /// that can take them, whose moves join exit or entry effects to the
    /// clause's: by the code of the state, for ``settledOutcomes``.
    ///
    /// - Complexity: O(*n* · *d* · *c*) for *n* states *d* deep with *c*
    ///   route clauses each, once, when the definition is made.
    func settleOutcomes() -> [[(clause: Int, outcome: Definition<S, E, Effect>.Outcome)]] {
        // With done or eventless clauses, a step's outcome depends on what follows it.
        guard let chart, !lifecycleEffects.isEmpty, !hasCompletions else { return [] }
        let states = routes.storage.states
        // The route clauses with a fixed target, by the code of their source
        // (``SymbolCode/wildcard`` for `.any`).
        var bySource = [[(clause: Int, target: S)]](repeating: [], count: states.count + 1)
        for index in routeClauses {
            let clause = mapped.clauses[index]
            guard case .fixed(let target?) = clause.target else { continue }
            switch clause.source {
            case .value(let source): bySource[Int(routes.code(of: source))].append((index, target))
            default: bySource[0].append((index, target))
            }
        }
        var settled = [[(clause: Int, outcome: Definition<S, E, Effect>.Outcome)]](
            repeating: [], count: states.count + 1)
        // A compound state is asked as its resting state, whose outcomes these are.
        for code in 1..<(states.count + 1) where restingCodes.isEmpty || restingCodes[code] == SymbolCode(code) {
            guard let state = states.name(of: SymbolCode(code)) else { continue }
            var node = SymbolCode(code)
            while true {
                for (clause, target) in bySource[Int(node)] {
                    let reaction = Reaction<S, Effect>(toState: target, effects: mapped.clauses[clause].effects)
                    let outcome = outcome(of: reaction, in: state, code: SymbolCode(code), from: node)
                    if outcome.effects.count != reaction.effects.count {
                        settled[code].append((clause, outcome))
                    }
                }
                guard node != .wildcard else { break }
                node = chart.tree.parent(of: node)
            }
        }
        return settled
    }
}

extension Clause {
    /// The route of a route clause: its event (`nil` for `.any`) and its move,
    /// from `.any` or a state, to `.any` (stay) or a state.
    @inlinable
    var route: (event: E?, transition: Transition<S>) {
        let event: E?
        switch self.event {
        case .value(let value): event = value
        default: event = nil
        }
        let from: State<S>
        switch source {
        case .value(let value): from = .some(value)
        default: from = .any
        }
        var to = State<S>.any
        if case .fixed(let target?) = target {
            to = .some(target)
        }
        return (event, entering.transition(from: from, to: to))
    }
}
