/// A state whose children are regions, all active while it is: a ``From``
/// whose nested groups are declared with ``Machine/addRegions(_:to:)``.
///
/// ```swift
/// Parallel(.keyboard) {
///     On(.unplug, transitionTo: .unplugged)    // leaves both regions
///     From(.capsLock) {
///         From(.capsOff) { On(.caps, transitionTo: .capsOn) }
///         From(.capsOn) { On(.caps, transitionTo: .capsOff) }
///     }
///     From(.numLock) {
///         From(.numOff) { On(.num, transitionTo: .numOn) }
///         From(.numOn) { On(.num, transitionTo: .numOff) }
///     }
/// }
/// ```
///
/// An event is offered to every region, and may move several of them in one
/// step; the transition then carries the effects of every clause it took.
public struct Parallel<S: StateType, E: EventType, Effect> {
    @usableFromInline var draft: GroupDraft<S, E, Effect>

    /// The clauses the machine takes in `state`, and its regions.
    ///
    /// - Parameters:
    ///   - state: The parallel state.
    ///   - history: The history the state keeps: ``HistoryKind/deep``
    ///     records every region's atomic states; none if `nil`.
    ///   - historyDefault: What the history enters before it has recorded
    ///     anything (the other regions are entered by default); all the
    ///     regions by default if `nil`.
    ///   - content: Its clauses, its regions (each a `From` or `Parallel`),
    ///     and its entry and exit effects.
    @inlinable
    public init(
        _ state: S, history: HistoryKind? = nil, historyDefault: S? = nil,
        @ClauseBuilder<S, E, Effect, S> _ content: () -> DefinitionBody<S, E, Effect>
    ) {
        draft = GroupDraft(
            source: .values([state]), isParallel: true, initial: nil, history: history,
            historyDefault: historyDefault, content: content().components)
    }

    /// Turns every clause of the state and of its regions off while
    /// `disabled` returns `true`.
    ///
    /// - Parameter disabled: Whether the group is off now.
    /// - Returns: The group, with its switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> Parallel {
        var copy = self
        copy.draft.disabled = either(draft.disabled, disabled)
        return copy
    }
}
