/// Several groups kept together, so that one modifier applies to all of
/// them, or so that a part of a definition can live in its own property, as
/// Feedbacks' `Transitions` blocks do.
///
/// ```swift
/// let editing = Transitions<Screen, ScreenEvent, Never> {
///     From(.viewing) { On(.edit, transitionTo: .editing) }
///     From(.editing) { On(.save, transitionTo: .viewing) }
/// }
/// .disable { isReadOnly }
///
/// let screen = Definition<Screen, ScreenEvent, Never>(initialState: .viewing) {
///     editing
///     From(.any) { On(.close, transitionTo: .closed) }
/// }
/// ```
public struct Transitions<S: StateType, E: EventType, Effect> {
    @usableFromInline var content: [DefinitionComponent<S, E, Effect>]
    @usableFromInline var disabled: (() -> Bool)?

    /// The groups.
    ///
    /// - Parameter content: ``From``, ``Parallel`` and `Transitions` blocks.
    @inlinable
    public init(@DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionBody<S, E, Effect>) {
        self.content = content().components
        self.disabled = nil
    }

    /// Turns every clause of the groups off while `disabled` returns `true`.
    ///
    /// - Parameter disabled: Whether the groups are off now.
    /// - Returns: The groups, with their switch.
    @inlinable
    public func disable(_ disabled: @escaping () -> Bool) -> Transitions {
        var copy = self
        copy.disabled = either(self.disabled, disabled)
        return copy
    }
}
