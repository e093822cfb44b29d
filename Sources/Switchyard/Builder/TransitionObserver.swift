/// An observer written in a definition, as Tinder's `onTransition { … }`
/// writes it: every ``EffectMachine`` made from the definition registers it,
/// so that it hears every valid and invalid transition requested through
/// that machine, with its effects.
///
/// Make one with ``EffectMachineBuilder/onTransition(_:)`` or with
/// ``init(_:)``. The pure function and ``Definition/makeMachine(delivery:)``
/// ignore it.
public struct TransitionObserver<S: StateType, E: EventType, Effect> {
    @usableFromInline var callback: EffectMachine<S, E, Effect>.Transition.Callback

    /// An observer.
    ///
    /// - Parameter callback: Called with each transition's result, after the
    ///   machine's handlers have run.
    @inlinable
    public init(_ callback: @escaping EffectMachine<S, E, Effect>.Transition.Callback) {
        self.callback = callback
    }
}
