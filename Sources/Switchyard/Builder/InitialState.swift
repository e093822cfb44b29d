/// The state a definition starts in, written as a statement of its block,
/// as Feedbacks' `InitialState { … }` and Tinder's `initialState(_:)` write it.
///
/// ```swift
/// let screen = Definition<Screen, ScreenEvent, Never> {
///     InitialState(.loading(Loading(page: 0)))
///     From(Loading.self) { On(Failed.self, transitionTo: .failed) }
/// }
/// ```
///
/// A block names its initial state exactly once; see ``DefinitionBuilder``.
public struct InitialState<S: StateType> {
    @usableFromInline var state: S

    /// The initial state.
    ///
    /// - Parameter state: The state the definition starts in.
    @inlinable
    public init(_ state: S) {
        self.state = state
    }

    /// The initial state, as a closure returns it.
    ///
    /// - Parameter state: Returns the state the definition starts in.
    @inlinable
    public init(_ state: () -> S) {
        self.state = state()
    }
}
