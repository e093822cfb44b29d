// The pure transition function: `(state, event) -> (next state, effects)?`,
// answered from the definition alone, without a machine.

extension Definition {
    /// Where a transition leads, and what it emits.
    public struct Outcome {
        /// The state after the transition: for nested states, the innermost
        /// state the machine would then be in (the target's initial child, and
        /// so on down).
        public let toState: S
        /// What the transition emits, in order: the exit effects of the states
        /// it leaves, the effects of its clause, the entry effects of the
        /// states it enters.
        public let effects: [Effect]

        /// An outcome.
        ///
        /// - Parameters:
        ///   - toState: The state after the transition.
        ///   - effects: What the transition emits, in order.
        @inlinable
        public init(toState: S, effects: [Effect]) {
            self.toState = toState
            self.effects = effects
        }
    }

    /// What the definition does on `event` in `state`, as a pure function:
    /// the next state and the effects, or `nil` if no clause takes the event.
    ///
    /// ```swift
    /// let next = matter.transition(from: .solid, on: .melt)
    /// print(next?.toState, next?.effects)  // Optional(liquid) Optional([melted])
    /// ```
    ///
    /// It gives the same answer as a machine made from the definition, in
    /// that state, on that event: the same clause wins, guards and `disable`
    /// conditions are asked the same way, with the same state and event. It
    /// changes nothing, runs no handler and no observer; guards, `disable`
    /// conditions and closures are the only code it calls.
    ///
    /// - Parameters:
    ///   - state: The state to start from; for nested states, the innermost
    ///     active state.
    ///   - event: The event.
    /// - Returns: The outcome, or `nil` if the event would be refused.
    /// - Precondition: The definition has no ``Parallel`` state and keeps no
    ///   history: with those, one state does not say what the machine's
    ///   configuration is (use an ``EffectMachine``).
    /// - Complexity: Two hashes (the state and the event), then as many
    ///   integer look-ups as a machine's decision. For nested states, the
    ///   effects of a clause with a fixed target, joined to the exit and
    ///   entry effects of the states its move leaves and enters, are worked
    ///   out from every state when the definition is made, and looked up;
    ///   a computed target walks up the parents of the states left and
    ///   entered, and allocates the list that joins their effects. Nothing
    ///   else is allocated but what the clauses' closures allocate.
    @inlinable
    public func transition(from state: S, on event: E) -> Outcome? {
        guard case .success(let outcome) = attemptTransition(from: state, on: event) else { return nil }
        return outcome
    }

    /// What the definition does on `event` in `state`, or why it refuses, as
    /// ``EffectMachine/attemptTransition(_:userInfo:)`` would say it.
    ///
    /// - Parameters:
    ///   - state: The state to start from.
    ///   - event: The event.
    /// - Returns: The outcome, or an error whose reason is
    ///   ``TransitionError/Reason/noRoute`` (no clause for this state and event)
    ///   or ``TransitionError/Reason/conditionsRefused`` (every clause that
    ///   could take it refused: a guard, a `disable`, or a closure returning `nil`).
    /// - Precondition: As for ``transition(from:on:)``.
    @inlinable
    public func attemptTransition(from state: S, on event: E) -> Result<Outcome, TransitionError> {
        require(
            !tree.needsConfiguration,
            "The pure function answers from one state, but this definition has regions or history, "
                + "whose configuration one state does not give: ask an EffectMachine instead")
        switch core.decide(state, event) {
        case .taken(let clause, let source, let reaction, let stateCode):
            if let settled = core.settledOutcome(of: clause, in: stateCode) {
                return .success(settled)
            }
            return .success(outcome(from: state, source: source, reaction: reaction))
        case .refused(let refusal):
            return .failure(TransitionError(refusal, event: event, fromState: state))
        }
    }

    /// The outcome of a reaction taken in `state` from `source` (the route's
    /// state; the root for `.any` and for mapped clauses), with the exit and
    /// entry effects of the states it leaves and enters.
    @inlinable
    func outcome(from state: S, source: SymbolCode, reaction: Reaction<S, Effect>) -> Outcome {
        guard let target = reaction.toState else {
            return Outcome(toState: state, effects: reaction.effects)
        }
        if tree.isEmpty, entryEffects.isEmpty, exitEffects.isEmpty {
            return Outcome(toState: target, effects: reaction.effects)
        }
        let sourceState = source == .wildcard ? nil : core.routes.storage.states.value(of: source)
        return Outcome(
            toState: settledState(entering: target),
            effects: effects(from: state, leaving: sourceState, to: target, reaction: reaction))
    }

    /// The outcomes of the route clauses with a fixed target, from each state
    /// that can take them, whose moves join exit or entry effects to the
    /// clause's: by the code of the state, for ``DefinitionCore/settledOutcomes``.
    ///
    /// - Complexity: O(*n* · *d* · *c*) for *n* states *d* deep with *c*
    ///   route clauses each, once, when the definition is made.
    @usableFromInline
    func settledOutcomes() -> [[(clause: Int, outcome: Outcome)]] {
        guard !tree.isEmpty, !tree.needsConfiguration, !(entryEffects.isEmpty && exitEffects.isEmpty) else {
            return []
        }
        let states = core.routes.storage.states
        // The route clauses with a fixed target, by the code of their source
        // (``SymbolCode/wildcard`` for `.any`).
        var bySource = [[(clause: Int, target: S)]](repeating: [], count: states.count + 1)
        for index in core.routeClauses {
            let clause = core.mapped.clauses[index]
            guard case .fixed(let target?) = clause.target else { continue }
            switch clause.source {
            case .value(let source): bySource[Int(core.routes.code(of: source))].append((index, target))
            default: bySource[0].append((index, target))
            }
        }
        var settled = [[(clause: Int, outcome: Outcome)]](repeating: [], count: states.count + 1)
        for code in 1..<(states.count + 1) {
            guard let state = states.name(of: SymbolCode(code)) else { continue }
            var node = SymbolCode(code)
            while true {
                for (clause, target) in bySource[Int(node)] {
                    let reaction = Reaction<S, Effect>(toState: target, effects: core.mapped.clauses[clause].effects)
                    let outcome = outcome(from: state, source: node, reaction: reaction)
                    if outcome.effects.count != reaction.effects.count {
                        settled[code].append((clause, outcome))
                    }
                }
                guard node != .wildcard else { break }
                node = Int(node) < core.parentCodes.count ? core.parentCodes[Int(node)] : .wildcard
            }
        }
        return settled
    }

    /// The innermost state entering `state` by default leads to: its
    /// initial child (the first, unless another is named), and so on down.
    @inlinable
    func settledState(entering state: S) -> S {
        var state = state
        while let declaration = tree.children(of: state), let first = declaration.children.first {
            state = declaration.initial ?? first
        }
        return state
    }

    /// The effects of a move from `source` (`nil` for the root) to `target`
    /// made in `state`: exits innermost first, the clause's effects, entries
    /// outermost first; the domain is the nearest state that is a proper
    /// ancestor of both the source and the target, as for a machine.
    ///
    /// It walks the tree's parent links rather than building lists, so that
    /// it allocates nothing but the effects it returns (and nothing at all
    /// when no state on the way has entry or exit effects).
    ///
    /// - Complexity: O(*d*²) in the depth of the states involved.
    @inlinable
    func effects(from state: S, leaving source: S?, to target: S, reaction: Reaction<S, Effect>) -> [Effect] {
        let parents = tree.parents
        var domain: S?
        if let source {
            var candidate = parents[source]
            while let ancestor = candidate, !isProperAncestor(ancestor, of: target) {
                candidate = parents[ancestor]
            }
            domain = candidate
        }
        let entered = settledState(entering: target)
        // States entered, counted from the innermost one up to the domain.
        var depth = 0
        var walk: S? = entered
        while let current = walk, current != domain {
            depth += 1
            walk = parents[current]
        }
        let exitCount = lifecycleEffectCount(from: state, to: domain, in: exitEffects)
        let entryCount = lifecycleEffectCount(from: entered, to: domain, in: entryEffects)
        guard exitCount + entryCount > 0 else {
            return reaction.effects
        }
        var effects: [Effect] = []
        effects.reserveCapacity(exitCount + reaction.effects.count + entryCount)
        walk = state
        while let current = walk, current != domain {
            effects += exitEffects[current] ?? []
            walk = parents[current]
        }
        effects += reaction.effects
        // Outermost first: the state `level` steps above the innermost one entered.
        for level in stride(from: depth - 1, through: 0, by: -1) {
            var current = entered
            for _ in 0..<level {
                current = parents[current] ?? current
            }
            effects += entryEffects[current] ?? []
        }
        return effects
    }

    /// Whether `ancestor` contains `state` (and is not `state`).
    @inlinable
    func isProperAncestor(_ ancestor: S, of state: S) -> Bool {
        var current = tree.parents[state]
        while let parent = current {
            if parent == ancestor {
                return true
            }
            current = tree.parents[parent]
        }
        return false
    }

    /// How many effects `table` gives `state` and its ancestors below `domain`.
    @inlinable
    func lifecycleEffectCount(from state: S, to domain: S?, in table: [S: [Effect]]) -> Int {
        var count = 0
        var walk: S? = state
        while let current = walk, current != domain {
            count += table[current]?.count ?? 0
            walk = tree.parents[current]
        }
        return count
    }
}

extension Definition.Outcome: Equatable where S: Equatable, Effect: Equatable {}
extension Definition.Outcome: Hashable where S: Hashable, Effect: Hashable {}
extension Definition.Outcome: Sendable where S: Sendable, Effect: Sendable {}
