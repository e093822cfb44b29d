/// SwiftState's module name, standing for this one.
///
/// Code written for SwiftState sometimes names its types through the module,
/// to tell them from an app's own: `enum Step: SwiftState.StateType`,
/// `let machine: SwiftState.StateMachine<Step, NoEvent>`. After `import
/// SwiftState` becomes `import Switchyard`, those names resolve here, to the
/// same types as their unqualified forms.
///
/// ```swift
/// enum Light: SwiftState.StateType { case red, green }
/// let light = SwiftState.StateMachine<Light, SwiftState.NoEvent>(state: .red)
/// ```
public enum SwiftState {
    /// ``Switchyard/StateType``.
    public typealias StateType = Switchyard.StateType
    /// ``Switchyard/EventType``.
    public typealias EventType = Switchyard.EventType
    /// ``Switchyard/State``.
    public typealias State<S: StateType> = Switchyard.State<S>
    /// ``Switchyard/Event``.
    public typealias Event<E: EventType> = Switchyard.Event<E>
    /// ``Switchyard/NoEvent``.
    public typealias NoEvent = Switchyard.NoEvent
    /// ``Switchyard/Transition``.
    public typealias Transition<S: StateType> = Switchyard.Transition<S>
    /// ``Switchyard/TransitionChain``.
    public typealias TransitionChain<S: StateType> = Switchyard.TransitionChain<S>
    /// ``Switchyard/Route``.
    public typealias Route<S: StateType, E: EventType> = Switchyard.Route<S, E>
    /// ``Switchyard/RouteChain``.
    public typealias RouteChain<S: StateType, E: EventType> = Switchyard.RouteChain<S, E>
    /// ``Switchyard/Machine``.
    public typealias Machine<S: StateType, E: EventType> = Switchyard.Machine<S, E>
    /// ``Switchyard/Machine``, under the name SwiftState gave its state-driven machine.
    public typealias StateMachine<S: StateType, E: EventType> = Switchyard.Machine<S, E>
    /// ``Switchyard/Disposable``.
    public typealias Disposable = Switchyard.Disposable
    /// ``Switchyard/ActionDisposable``.
    public typealias ActionDisposable = Switchyard.ActionDisposable
    /// ``Switchyard/HandlerOrder``.
    public typealias HandlerOrder = Switchyard.HandlerOrder
}
