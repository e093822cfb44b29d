/// "Once this state is done, go there": a clause of a ``From`` with children
/// or of a ``Parallel``, taken when a ``Final`` child of the state is entered,
/// or, for a parallel state, when every region is done (SCXML's
/// `done.state.ID`, which a typed event enum has no case for).
///
/// ```swift
/// From(.fulfilment) {
///     OnDone(transitionTo: .shipping, emit: .printLabel)
///     OnDone(transitionTo: .review).guard { isFlagged }   // written first, tried first
///     From(.packing) { On(.packed, transitionTo: .packed) }
///     Final(.packed)
/// }
/// ```
///
/// It adds exactly the route ``Machine/addDoneRoute(_:condition:action:)``
/// adds, `.fulfilment => .shipping`: its guards and the `disable` conditions
/// of its groups are the route's condition. The completion is offered after
/// the step that caused it and before any later request; the state's done
/// clauses are tried in the order written.
///
/// An ``EffectMachine`` reports the clause's effects, with the exits and
/// entries of its step, as part of the transition of the request that
/// completed the state, and the pure function
/// (``Definition/transition(from:on:)``) likewise.
public struct OnDone<S: StateType, Effect> {
    @usableFromInline var draft: CompletionDraft<S, Effect>

    @inlinable
    init(_ draft: CompletionDraft<S, Effect>) {
        self.draft = draft
    }

    /// A clause taken when the enclosing state is done.
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
    /// - Precondition: The enclosing `From` names one state with children or
    ///   regions; the misuse stops with ``Machine/addDoneRoute(_:condition:action:)``'s
    ///   message.
    ///   The targets lie in different regions of one ``Parallel`` state;
    ///   the misuse stops with ``Transition/alsoEntering(_:)``'s message.
    @inlinable
    public init(
        transitionTo target: S, alsoEntering otherTargets: S..., ignoringHistory: Bool = false, emit effects: Effect...
    ) {
        self.init(
            CompletionDraft(
                kind: .done, target: target,
                entering: Entering(otherTargets: otherTargets, ignoresHistory: ignoringHistory), effects: effects))
    }

    /// Takes the clause only when `condition` holds, given the machine's
    /// state; otherwise a later done clause may answer.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping (S) -> Bool) -> OnDone {
        OnDone(draft.adding(condition))
    }

    /// Takes the clause only when `condition` holds.
    ///
    /// - Parameter condition: Whether the clause may be taken.
    /// - Returns: The guarded clause.
    @inlinable
    public func `guard`(_ condition: @escaping () -> Bool) -> OnDone {
        OnDone(draft.adding { _ in condition() })
    }

    /// Turns the clause off while `disabled` returns `true`.
    ///
    /// - Parameter disabled: Whether the clause is off now.
    /// - Returns: The clause, with its switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> OnDone {
        OnDone(draft.adding { _ in !disabled() })
    }
}
