// The pure function of a definition with done and eventless clauses: after
// the event's step, the steps a machine takes before it answers (SCXML's
// macrostep), chosen by the engine's statechart as a machine's are, with the
// routes of the definition's own table.

/// A statechart and a step plan in which the pure function works out one
/// macrostep: the configuration it moves through must stay as it is while
/// the clauses' guards run, and a guard may ask the pure function again.
@usableFromInline
final class MacrostepWorkspace {
    @usableFromInline let chart = Statechart()
    @usableFromInline
    @exclusivity(unchecked) var plan = StepPlan()

    /// A workspace on a copy of `tree`.
    @usableFromInline
    init(tree: StateTree) {
        chart.tree = tree
    }
}

extension DefinitionCore {
    /// The outcome of `reaction`, taken in `state` (whose code is
    /// `stateCode`) along a route from `source` (``SymbolCode/wildcard``
    /// for the root), and of the done and eventless steps it leads to, as a
    /// machine in `state` takes them before it answers: the state it settles
    /// in, and what each step emits in turn (exits, clause, entries), then
    /// the exits of a finish if one step entered a top-level final state.
    ///
    /// - Returns: The outcome, or `nil` if the steps did not settle within
    ///   ``Machine/internalStepLimit`` steps, where a machine stops them.
    /// - Complexity: O(*d*) in the depth of the states each step leaves and
    ///   enters, for each step; the list of effects is allocated.
    @inlinable
    func settlingOutcome(
        of reaction: Reaction<S, Effect>, in state: S, code stateCode: SymbolCode, from source: SymbolCode
    ) -> Definition<S, E, Effect>.Outcome? {
        guard let tree = self.chart?.tree else { return nil }
        let workspace = spareWorkspace ?? MacrostepWorkspace(tree: tree)
        spareWorkspace = nil
        defer { spareWorkspace = workspace }
        let chart = workspace.chart
        // The state `unnamedCode` stands for once the event's step is taken:
        // the other steps' targets are all named.
        var unnamed = state
        if let toState = reaction.toState, !routes.code(of: toState).isConcrete {
            unnamed = toState
        }
        func value(of code: SymbolCode) -> S {
            code == unnamedCode ? unnamed : routes.storage.states.value(of: code)
        }

        planMove(of: reaction, in: stateCode, from: source, on: chart, into: &workspace.plan)
        // Nothing waits, as in a machine at rest in `state`.
        chart.dropCompletions()
        chart.isFinished = false
        var effects = lifecycleEffects.effects(of: workspace.plan) { _ in reaction.effects }
        var current = value(of: chart.innermostState(after: &workspace.plan))
        chart.apply(&workspace.plan)

        let end = chart.takeMacrostep(
            into: &workspace.plan,
            chooseEventless: { plan in
                plan.reset()
                guard routes.hasRoutes(reservedEvent: .eventless) else { return }
                chart.chooseMoves(inside: nil, into: &plan) { node, _ in
                    firstMove(of: .eventless, on: node, current: current)
                }
            },
            firstDoneMove: { state, _ in firstMove(of: .done, on: state, current: current) },
            take: { plan in
                effects += lifecycleEffects.effects(of: plan) { move in
                    completionEffects[Int(move.taken.id.rawValue) - routeClauses.count - 1]
                }
                current = value(of: chart.innermostState(after: &plan))
                chart.apply(&plan)
                return true
            })
        switch end {
        case .settled, .stopped:
            break
        case .cutAtLimit:
            return nil
        case .finished:
            chart.planFinish(into: &workspace.plan)
            effects += lifecycleEffects.effects(of: workspace.plan) { _ in [] }
        }
        return Definition.Outcome(toState: current, effects: effects)
    }

    /// The move along the first route kept under the reserved code
    /// `eventCode` (done or eventless) on `node` whose guards hold, asked
    /// with the machine's state `current`, as a machine's root asks its own.
    /// Such a clause has one target, and no history to ignore: the pure
    /// function answers for no definition with regions or history.
    @inlinable
    func firstMove(of eventCode: SymbolCode, on node: SymbolCode, current: S) -> StepPlan.Move? {
        var refusal: Refusal?
        guard
            let route = routes.storage.firstRoute(
                in: eventCode, node, event: nil, current: current, userInfo: nil, refusal: &refusal)
        else { return nil }
        return StepPlan.Move(route)
    }
}
