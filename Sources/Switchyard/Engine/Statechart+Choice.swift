// A statechart's choice of moves: SPEC §3.2's walk from each active atomic
// state, the conflicts between the moves it finds, and the memo of choices.

extension Statechart {
    /// Fills `plan` with the moves of one step, SPEC 3.2's choice: each
    /// active atomic state (inside `host`, if given) is offered the request,
    /// then its ancestors up to the root, and the first node on that walk
    /// for which `firstMove` finds a route takes it; the moves chosen are
    /// kept or dropped by ``choose(_:into:)``, SCXML's conflict rule. Where a
    /// node's routes come from is the caller's: a machine asks each machine
    /// of its hierarchy that names the node, a definition's pure function
    /// its own routes. The caller resets `plan` first.
    ///
    /// A state request chooses the same way. Its moves all lead to the one
    /// state asked for, so any two conflict, and the rule keeps one: the
    /// first found, unless a later one leaves from inside its source.
    ///
    /// - Parameters:
    ///   - host: The state the request's machine is nested in, whose active
    ///     atomic states alone are offered it; `nil` for all of them.
    ///   - plan: The plan to fill; `firstMove` may add to its lists.
    ///   - firstMove: The move along the first route that takes the request
    ///     on a node, if one does.
    @usableFromInline
    func chooseMoves(
        inside host: SymbolCode?, into plan: inout StepPlan,
        firstMove: (_ node: SymbolCode, _ plan: inout StepPlan) -> StepPlan.Move?
    ) {
        var index = 0
        while index < configuration.atomics.length {
            let atomic = configuration.atomics[index]
            index += 1
            if let host, !tree.isDescendant(atomic, of: host) { continue }
            if let move = firstOnWalk(from: atomic, { firstMove($0, &plan) }) {
                // A route two regions reach through a common ancestor is
                // taken once (a state request's moves name no route: the
                // node they leave from tells them apart).
                if !plan.moves.contains(where: {
                    $0.taken == move.taken && $0.member == move.member && $0.source == move.source
                }) {
                    choose(move, into: &plan)
                }
            }
        }
    }

    /// The first answer `visit` gives on the walk from `state` outward:
    /// `state`, its ancestors, then the root (`.wildcard`, where routes
    /// from `.any` are kept), as ``walkOutward(from:parent:_:)`` walks. A
    /// step (``chooseMoves(inside:into:firstMove:)``), a state request, the
    /// questions about one move (`hasRoute`) and a definition's pure
    /// function each walk the tree through it.
    // Inlined, with its closure, into the walks that call it: out of line,
    // `nested-machines` cost 169 instructions more a step (3,472 → 3,641),
    // `eventless-3` 56.
    @usableFromInline
    func firstOnWalk<Answer>(from state: SymbolCode, _ visit: (SymbolCode) -> Answer?) -> Answer? {
        walkOutward(from: state == .wildcard ? nil : state) { node in
            let parent = tree.parent(of: node)
            return parent == .wildcard ? nil : parent
        } _: { node in
            visit(node ?? .wildcard)
        }
    }

    /// Fills `plan`, just reset, with the moves the event `eventCode` chose
    /// from this configuration, if the memo of choices holds them for the
    /// machine's event routes as of `routesVersion` (see ``ChoiceMemo``).
    /// The memo holds only choices offered to every active state: for one
    /// offered to the states inside `host`, it answers `false`. The plan's
    /// ``StepPlan/choiceMark`` says where the moves came from.
    ///
    /// - Returns: Whether it did.
    @usableFromInline
    func recallChoice(
        of eventCode: SymbolCode, inside host: SymbolCode?, routesVersion: UInt64, into plan: inout StepPlan
    ) -> Bool {
        guard host == nil, tree.isLaidOut,
            let index = choiceMemo.entry(
                hash: ChoiceMemo.hash(event: eventCode, atomics: configuration.atomics), event: eventCode,
                atomics: configuration.atomics, layout: tree.layouts, routesVersion: routesVersion)
        else { return false }
        let moves = choiceMemo.entries[Int(index)].moves
        plan.moves.append(contentsOf: choiceMemo.moves, at: Int(moves.lowerBound)..<Int(moves.upperBound))
        plan.choiceMark = ChoiceMemo.Mark(entry: index, generation: choiceMemo.generation)
        return true
    }

    /// Keeps the moves `plan` holds, just chosen by the event `eventCode`
    /// from this configuration (offered to the states inside `host`, if
    /// given), in the memo of choices, unless it chose none or was offered
    /// to only some states; the caller has checked that the choice depends
    /// on nothing else (see ``ChoiceMemo``). The plan's
    /// ``StepPlan/choiceMark`` says where the memo keeps them.
    @usableFromInline
    func rememberChoice(
        of eventCode: SymbolCode, inside host: SymbolCode?, routesVersion: UInt64, plan: inout StepPlan
    ) {
        guard remembers, host == nil, tree.isLaidOut, !plan.moves.isEmpty else { return }
        assert(plan.extras.isEmpty, "a choice with a guarded route remembered")
        plan.choiceMark = choiceMemo.remember(
            hash: ChoiceMemo.hash(event: eventCode, atomics: configuration.atomics), event: eventCode,
            atomics: configuration.atomics, chosen: plan.moves, layout: tree.layouts, routesVersion: routesVersion)
    }

    /// The state below which `move` exits and enters: SCXML's transition domain.
    ///
    /// A local move from a compound state to one of its descendants stays
    /// inside the source; any other move's domain is the nearest compound
    /// proper ancestor of the source that contains the target (the root if
    /// none does, and for a move from the root).
    func domain(of move: StepPlan.Move, among otherTargets: borrowing ReusableList<SymbolCode>, _ others: Range<Int>)
        -> SymbolCode?
    {
        guard move.target != .wildcard else { return nil }
        // Without children, the root is every state's parent and contains
        // every target.
        guard tree.hasChildren else { return .wildcard }
        func holdsTargets(_ ancestor: SymbolCode) -> Bool {
            guard tree.isDescendant(move.target, of: ancestor) else { return false }
            for index in others where !tree.isDescendant(otherTargets[index], of: ancestor) {
                return false
            }
            return true
        }
        if move.isLocal, tree.kind(of: move.source) == .compound, holdsTargets(move.source) {
            return move.source
        }
        var ancestor = move.source == .wildcard ? .wildcard : tree.parent(of: move.source)
        while ancestor != .wildcard, !(tree.kind(of: ancestor) == .compound && holdsTargets(ancestor)) {
            ancestor = tree.parent(of: ancestor)
        }
        return ancestor
    }

    /// Adds `move` to `plan` unless it conflicts with one already chosen: two
    /// conflict when the states they exit overlap, which happens when one's
    /// domain is inside (or is) the other's. A move whose source is a proper
    /// descendant of the sources of all it conflicts with replaces them;
    /// otherwise the moves chosen first stay.
    ///
    /// A first move's domain is worked out only when a second is chosen or
    /// the step is completed (see ``StepPlan/Move/domain``): most steps take
    /// one move, whose plan may be remembered.
    @usableFromInline
    func choose(_ move: StepPlan.Move, into plan: inout StepPlan) {
        var move = move
        guard !plan.moves.isEmpty else {
            move.domain = move.target == .wildcard ? nil : .unknown
            plan.moves.append(move)
            return
        }
        workOutDomain(at: 0, in: &plan)
        move.domain = domain(of: move, in: plan)
        guard let domain = move.domain else {
            plan.moves.append(move)
            return
        }
        func conflicts(_ other: StepPlan.Move) -> Bool {
            guard let otherDomain = other.domain else { return false }
            return tree.isWithin(domain, otherDomain) || tree.isWithin(otherDomain, domain)
        }
        var replaces = false
        for index in 0..<plan.moves.length {
            let other = plan.moves[index]
            if conflicts(other) {
                guard tree.isDescendant(move.source, of: other.source) else { return }
                replaces = true
            }
        }
        if replaces {
            plan.moves.removeAll(where: conflicts)
        }
        plan.moves.append(move)
    }

    /// Works out the domain of the move at `index`, unless it is known.
    func workOutDomain(at index: Int, in plan: inout StepPlan) {
        guard plan.moves[index].domain == .unknown else { return }
        let domain = domain(of: plan.moves[index], in: plan)
        plan.moves[index].domain = domain
    }

    /// The domain of `move`, with the other targets `plan` lists for it.
    func domain(of move: StepPlan.Move, in plan: borrowing StepPlan) -> SymbolCode? {
        domain(of: move, among: plan.otherTargets, plan.extras(of: move).otherTargets)
    }
}
