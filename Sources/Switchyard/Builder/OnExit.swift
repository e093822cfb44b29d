/// Effects a state emits whenever it is exited: see ``OnEntry`` for the order
/// of a transition's effects.
public struct OnExit<Effect> {
    @usableFromInline var effects: [Effect]

    /// Effects emitted whenever the enclosing state is exited.
    ///
    /// - Parameter effects: The effects, in order.
    @inlinable
    public init(emit effects: Effect...) {
        self.effects = effects
    }
}
