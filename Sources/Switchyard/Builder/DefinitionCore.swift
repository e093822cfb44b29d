/// What a definition's pure function decides with: the definition's routes in
/// a route table of the engine, the same one a machine decides with, and its
/// mapped clauses. Made once, with the definition.
@usableFromInline
final class DefinitionCore<S: StateType, E: EventType, Effect> {
    /// One route per route clause; a route's registration is its place in
    /// `routeClauses`, plus one.
    @usableFromInline let routes: RouteTable<S, E>
    /// The clause of each route.
    @usableFromInline let routeClauses: [Int]
    @usableFromInline let mapped: MappedClauses<S, E, Effect>
    /// Each nested state's parent, by code in `routes`; ``SymbolCode/wildcard`` for the root.
    @usableFromInline let parentCodes: [SymbolCode]
    @usableFromInline let isNested: Bool
    /// By the code of a state: the outcomes of the route clauses with a
    /// fixed target that a request in that state can take and whose move
    /// joins exit or entry effects to the clause's, worked out when the
    /// definition is made (``Definition/settledOutcomes()``), so that the pure
    /// function looks them up and allocates nothing. Set once, by the
    /// definition's initializer.
    @usableFromInline var settledOutcomes: [[(clause: Int, outcome: Definition<S, E, Effect>.Outcome)]] = []

    @usableFromInline
    init(clauses: [Clause<S, E, Effect>], tree: DefinitionTree<S>) {
        var routes = RouteTable<S, E>()
        var routeClauses: [Int] = []
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
        var parentCodes: [SymbolCode] = []
        for (child, parent) in tree.parents {
            let code = Int(routes.intern(child))
            if parentCodes.count <= code {
                parentCodes.append(contentsOf: repeatElement(.wildcard, count: code + 1 - parentCodes.count))
            }
            parentCodes[code] = routes.intern(parent)
        }
        self.routes = routes
        self.routeClauses = routeClauses
        self.mapped = MappedClauses(clauses: clauses, parents: tree.parents)
        self.parentCodes = parentCodes
        self.isNested = !tree.isEmpty
    }

    /// What the definition did with one request.
    @usableFromInline
    enum Decision {
        /// The clause taken, the state its move leaves from
        /// (``SymbolCode/wildcard`` for the root), its reaction, and the code
        /// of the state the request was made in (``SymbolCode/unknown`` if
        /// the definition names no such state).
        case taken(clause: Int, source: SymbolCode, reaction: Reaction<S, Effect>, state: SymbolCode)
        /// Why nothing was taken: `nil` when no clause covered the request.
        case refused(Refusal?)
    }

    /// What the definition does on `event` in `state`, or why it does nothing.
    @inlinable
    func decide(_ state: S, _ event: E) -> Decision {
        let routes = self.routes
        let eventCode = routes.code(of: event)
        let stateCode = routes.code(of: state)
        var code = stateCode
        var refusal: Refusal?
        if !isNested {
            if let route = routes.firstRouteInFlatOrder(
                event: event, code: eventCode, from: code, current: state, userInfo: nil, refusal: &refusal)
            {
                return taking(route, in: stateCode)
            }
        } else if code != .unknown {
            while true {
                if let route = routes.firstRoute(
                    event: event, code: eventCode, on: code, current: state, userInfo: nil, refusal: &refusal)
                {
                    return taking(route, in: stateCode)
                }
                guard code != .wildcard else { break }
                code = Int(code) < parentCodes.count ? parentCodes[Int(code)] : .wildcard
            }
        } else if let route = routes.firstRoute(
            event: event, code: eventCode, on: .wildcard, current: state, userInfo: nil, refusal: &refusal)
        {
            return taking(route, in: stateCode)
        }
        var refused = false
        if let (clause, reaction) = mapped.answer(state, event, refused: &refused) {
            // A mapping names its target, so a clause that stays names the
            // current state: a machine takes that as a move from the root.
            let named = Reaction(toState: reaction.toState ?? state, effects: reaction.effects)
            return .taken(clause: clause, source: .wildcard, reaction: named, state: stateCode)
        }
        if refused {
            refusal = .conditions
        }
        return .refused(refusal)
    }

    /// The clause of `route`, and its reaction, taken in the state of `stateCode`.
    @inlinable
    func taking(_ route: SelectedRoute<S>, in stateCode: SymbolCode) -> Decision {
        let index = routeClauses[Int(route.id.rawValue) - 1]
        return .taken(
            clause: index, source: route.source,
            reaction: Reaction(toState: route.target, effects: mapped.clauses[index].effects), state: stateCode)
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
        return (event, Transition(fromState: from, toState: to))
    }
}
