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
    /// With ``OnDone`` and ``Always`` clauses, the answer includes what a
    /// machine does after the event's step and before it answers (SCXML's
    /// macrostep): the done clauses of the states that step completed and
    /// the eventless clauses that apply, chosen as the machine chooses them,
    /// their guards told the state the machine is in by then, until none
    /// applies. The outcome is the state it settles in, and the effects of
    /// every step in turn: the event's step (exits, clause, entries), then
    /// each following step's, as an ``EffectMachine`` reports them.
    ///
    /// From a compound state, it answers as a machine started in that state
    /// does: such a machine has entered the state's initial child, and that
    /// child's, down to an atomic state, which is its ``Machine/state``. The
    /// event is offered to that atomic state first, then to each of its
    /// ancestors, so a child's clause wins over its parent's; guards are
    /// asked with the atomic state, a clause that stays gives it as
    /// ``Outcome/toState``, and the effects are the step's own (its exits
    /// start with the atomic state's), not the entry effects of the start.
    ///
    /// - Parameters:
    ///   - state: The state to start from; for nested states, the innermost
    ///     active state. A compound state stands for what a machine started
    ///     in it has active: it and its initial descendants, so the answer
    ///     is the one from its initial atomic descendant.
    ///   - event: The event.
    /// - Returns: The outcome, or `nil` if the event would be refused, or
    ///   if the done and eventless clauses it leads to do not settle (see
    ///   ``attemptTransition(from:on:)``).
    /// A move into a top-level ``Final`` state (the event's, or a done or
    /// eventless clause's) finishes the machine: its outcome ends with the
    /// final state's exit effects, as the machine runs its exit handlers
    /// then; from that state every event is refused with
    /// ``TransitionError/Reason/finished``. Entering a nested final state
    /// completes its parent, whose ``OnDone`` clauses react to it.
    ///
    /// - Precondition: The definition has no ``Parallel`` state and keeps no
    ///   history: with those, one state does not say what the machine's
    ///   configuration is (use an ``EffectMachine``). So no clause has
    ///   several targets (`alsoEntering:`), which need regions; a clause
    ///   with `ignoringHistory: true` enters its target as a plain one
    ///   does where no state keeps history, and answers as one.
    /// - Complexity: Two hashes (the state and the event), then as many
    ///   integer look-ups as a machine's decision. For nested states, the
    ///   effects of a clause with a fixed target, joined to the exit and
    ///   entry effects of the states its move leaves and enters, are worked
    ///   out from every state when the definition is made, and looked up;
    ///   for a computed target, the engine's statechart plans the move as it
    ///   does for a machine (O(*d*) in the depth of the states left and
    ///   entered), and the list that joins their effects is allocated.
    ///   Nothing else is allocated but what the clauses' closures allocate.
    ///   With ``OnDone`` or ``Always`` clauses, each following step is
    ///   planned as a machine plans it, O(*d*) in the depth of the states
    ///   left and entered, and the list of effects is allocated.
    @inlinable
    public func transition(from state: S, on event: E) -> Outcome? {
        guard case .success(let outcome) = attemptTransition(from: state, on: event) else { return nil }
        return outcome
    }

    /// What the definition does on `event` in `state`, or why it refuses, as
    /// ``EffectMachine/attemptTransition(_:userInfo:)`` would say it.
    ///
    /// - Parameters:
    ///   - state: The state to start from; a compound state stands for its
    ///     initial atomic descendant, as in ``transition(from:on:)``.
    ///   - event: The event.
    /// - Returns: The outcome, or an error whose ``TransitionError/description``
    ///   names the state a machine would: `state`, or its initial atomic
    ///   descendant if it is compound; its reason is
    ///   ``TransitionError/Reason/noRoute`` (no clause for this state and event),
    ///   ``TransitionError/Reason/conditionsRefused`` (every clause that
    ///   could take it refused: a guard, a `disable`, or a closure returning `nil`),
    ///   ``TransitionError/Reason/finished`` (`state` is a top-level ``Final`` state),
    ///   or ``TransitionError/Reason/unsettled`` (the done and eventless
    ///   clauses the event's step led to were still being taken after
    ///   ``Machine/internalStepLimit`` steps, where a machine stops them and
    ///   fails the request).
    /// - Precondition: As for ``transition(from:on:)``.
    @inlinable
    public func attemptTransition(from state: S, on event: E) -> Result<Outcome, TransitionError> {
        require(
            !tree.needsConfiguration,
            "The pure function answers from one state, but this definition has regions or history, "
                + "whose configuration one state does not give: ask an EffectMachine instead")
        // A machine started in a compound state has entered its initial
        // descendants and decides from the atomic one, which it reports as
        // its state: so does the pure function.
        let (state, stateCode) = core.restingState(of: state)
        switch core.decide(state, code: stateCode, event) {
        case .taken(let clause, let source, let reaction):
            if let settled = core.settledOutcome(of: clause, in: stateCode) {
                return .success(settled)
            }
            guard core.hasCompletions else {
                return .success(core.outcome(of: reaction, in: state, code: stateCode, from: source))
            }
            guard let outcome = core.settlingOutcome(of: reaction, in: state, code: stateCode, from: source) else {
                return .failure(TransitionError(.unsettled, event: event, fromState: state))
            }
            return .success(outcome)
        case .refused(let refusal):
            return .failure(TransitionError(refusal, event: event, fromState: state))
        }
    }
}

extension Definition.Outcome: Equatable where S: Equatable, Effect: Equatable {}
extension Definition.Outcome: Hashable where S: Hashable, Effect: Hashable {}
extension Definition.Outcome: Sendable where S: Sendable, Effect: Sendable {}
