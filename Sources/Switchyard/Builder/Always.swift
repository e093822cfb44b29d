/// "Whenever this holds, go there": a clause with no event, taken as soon as
/// the enclosing state is active and its guard holds (SCXML's eventless
/// transition, which XState calls `always`).
///
/// ```swift
/// From(.checking) {
///     Always(transitionTo: .approved, emit: .ship).guard { order.isPaid }
///     Always(transitionTo: .rejected)              // when no earlier one applies
/// }
/// ```
///
/// It adds exactly the route ``Machine/addEventlessRoute(_:condition:action:)``
/// adds: after each step, before any later request, the machine takes the
/// eventless routes that are enabled, selected as an event's routes are,
/// until none is. A clause without guard or `disable` must not lead back into
/// its source (nor leave from `.any`): it would be taken forever, and the
/// definition stops with the operator API's message. A cycle of guarded
/// clauses that keep holding is cut after ``Machine/internalStepLimit``
/// steps, and the request fails with ``TransitionError/Reason/unsettled``.
///
/// The name is XState's: `On` names an event, and this clause has none.
/// An ``EffectMachine`` reports the clause's effects, with the exits and
/// entries of its step, as part of the transition of the request that led
/// to it, and the pure function (``Definition/transition(from:on:)``) likewise.
public struct Always<S: StateType, Effect> {
    @usableFromInline var draft: CompletionDraft<S, Effect>

    @inlinable
    init(_ draft: CompletionDraft<S, Effect>) {
        self.draft = draft
    }

    /// A clause taken whenever the enclosing state is active and its guards hold.
    ///
    /// - Parameters:
    ///   - target: Where the machine goes.
    ///   - otherTargets: Targets in other regions of the parallel state that
    ///     holds `target`, entered in the same step; none by default. See
    ///     ``Transition/alsoEntering(_:)``.
    ///   - ignoringHistory: Whether `target` is entered by its initial child
    ///     (or all its regions) even if it keeps history; `false` by default.
    ///     See ``Transition/ignoringHistory(_:)``.
    ///   - effects: What the transition emits, in order; none by default.
    /// - Precondition: Without a guard or `disable`, `target` is not the
    ///   enclosing state nor inside it, and the enclosing group is not
    ///   `From(.any)`; the misuse stops with
    ///   ``Machine/addEventlessRoute(_:condition:action:)``'s message.
    ///   The targets lie in different regions of one ``Parallel`` state;
    ///   the misuse stops with ``Transition/alsoEntering(_:)``'s message.
    @inlinable
    public init(
        transitionTo target: S, alsoEntering otherTargets: S..., ignoringHistory: Bool = false, emit effects: Effect...
    ) {
        self.init(
            CompletionDraft(
                kind: .eventless, target: target,
                entering: Entering(otherTargets: otherTargets, ignoresHistory: ignoringHistory), effects: effects))
    }

    /// Takes the clause only when `condition` holds, given the machine's
    /// state; otherwise a later eventless clause may answer.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping (S) -> Bool) -> Always {
        Always(draft.adding(condition))
    }

    /// Takes the clause only when `condition` holds.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping () -> Bool) -> Always {
        Always(draft.adding { _ in condition() })
    }

    /// Turns the clause off while `disabled` returns `true`.
    ///
    /// - Parameter disabled: Whether the clause is off now.
    /// - Returns: The clause, with its switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> Always {
        Always(draft.adding { _ in !disabled() })
    }
}
