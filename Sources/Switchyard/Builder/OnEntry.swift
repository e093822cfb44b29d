/// Effects a state emits whenever it is entered: as a transition's target,
/// as an ancestor of one, or by default (an initial child, a region).
///
/// ```swift
/// From(.playing) {
///     OnEntry(emit: .startTimer)
///     OnExit(emit: .stopTimer)
///     On(.pause, transitionTo: .paused)
/// }
/// ```
///
/// A transition's effects are, in order: the exit effects of the states it
/// leaves (innermost first), the effects of its clauses, and the entry effects
/// of the states it enters (outermost first), as the machine runs exit and
/// entry handlers. A transition that stays exits and enters nothing. A state
/// with entry or exit effects makes the machine a statechart (see <doc:Statecharts>).
public struct OnEntry<Effect> {
    @usableFromInline var effects: [Effect]

    /// Effects emitted whenever the enclosing state is entered.
    ///
    /// - Parameter effects: The effects, in order.
    @inlinable
    public init(emit effects: Effect...) {
        self.effects = effects
    }
}
