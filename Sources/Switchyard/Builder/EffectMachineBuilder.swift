/// The vocabulary of Tinder's StateMachine, for a type that names its
/// `State`, `Event` and `SideEffect` types: conform, and write definitions as
/// Tinder's README does.
///
/// ```swift
/// final class Matter: EffectMachineBuilder {
///     enum State: StateType { case solid, liquid, gas }
///     enum Event: EventType { case melt, freeze, vaporize, condense }
///     enum SideEffect { case logMelted, logFrozen, logVaporized, logCondensed }
///
///     static func makeStateMachine() -> EffectMachine<State, Event, SideEffect> {
///         EffectMachine {
///             initialState(.solid)
///             state(.solid) {
///                 on(.melt) {
///                     transition(to: .liquid, emit: .logMelted)
///                 }
///             }
///             state(.liquid) {
///                 on(.freeze) { transition(to: .solid, emit: .logFrozen) }
///             }
///             onTransition {
///                 guard case let .success(transition) = $0, let sideEffect = transition.sideEffect else { return }
///                 print(sideEffect)
///             }
///         }
///     }
/// }
/// ```
///
/// Each function makes what the native DSL makes: `state(_:_:)` is a
/// ``From``, `on(_:perform:)` an ``On`` whose closure returns a ``Reaction``
/// (Tinder's `Action`), asked on every request it could answer, as Tinder
/// asks it. <doc:DefinitionDSL> lists every difference from Tinder's API.
public protocol EffectMachineBuilder {
    /// The states.
    associatedtype State: StateType
    /// The events.
    associatedtype Event: EventType
    /// The effects transitions emit.
    associatedtype SideEffect
}

/// Tinder's name for ``EffectMachineBuilder``, refused with a fix-it.
///
/// A type written for Tinder's StateMachine adopts `StateMachineBuilder` and
/// names `StateMachine<State, Event, SideEffect>`. Here `StateMachine` is
/// SwiftState's two-parameter class, which a three-parameter name cannot sit
/// beside, so the message points at both new names.
@available(
    *, unavailable, renamed: "EffectMachineBuilder",
    message: "Tinder's StateMachine<State, Event, SideEffect> is EffectMachine<State, Event, SideEffect> here"
)
public typealias StateMachineBuilder = EffectMachineBuilder

extension EffectMachineBuilder {
    /// What an event's closure returns: Tinder's `Action`.
    public typealias Action = Reaction<State, SideEffect>

    /// The initial state, as the first statement of the definition.
    ///
    /// - Parameter state: The state the machine starts in.
    /// - Returns: The statement.
    @inlinable
    public static func initialState(_ state: State) -> InitialState<State> {
        InitialState(state)
    }

    /// The events the machine answers in `state`.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - content: `on(_:perform:)` clauses, and nested `state(_:_:)` groups for children.
    /// - Returns: The group.
    @inlinable
    public static func state(
        _ state: State,
        @ClauseBuilder<State, Event, SideEffect, State> _ content: () -> DefinitionBody<State, Event, SideEffect>
    ) -> From<State, Event, SideEffect, State> {
        From(
            GroupDraft(
                source: .values([state]), isParallel: false, initial: nil, history: nil, content: content().components))
    }

    /// The events the machine answers in every state of the case `embed`
    /// builds, whatever its associated values: what Tinder writes
    /// `state(.stateTwo)` with its `@StateMachineHashable` macro.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor, such as `State.loaded`.
    ///   - content: `on(_:perform:)` clauses.
    /// - Returns: The group.
    @inlinable
    public static func state<each Payload>(
        _ embed: @escaping (repeat each Payload) -> State,
        @ClauseBuilder<State, Event, SideEffect, State> _ content: () -> DefinitionBody<State, Event, SideEffect>
    ) -> From<State, Event, SideEffect, State> {
        From(
            GroupDraft(
                source: .pattern(.of(embed)), isParallel: false, initial: nil, history: nil,
                content: content().components))
    }

    /// On `event`, do what `perform` returns, given the state and the event;
    /// a thrown error refuses the event.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - perform: `transition(to:emit:)` or `dontTransition(emit:)`.
    /// - Returns: The clause.
    @inlinable
    public static func on(
        _ event: Event, perform: @escaping (State, Event) throws -> Action
    ) -> On<State, Event, SideEffect, State> {
        On(event) { state, event in try? perform(state, event) }
    }

    /// On `event`, do what `perform` returns, given the state.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - perform: `transition(to:emit:)` or `dontTransition(emit:)`.
    /// - Returns: The clause.
    @inlinable
    public static func on(_ event: Event, perform: @escaping (State) throws -> Action) -> On<
        State, Event, SideEffect, State
    > {
        On(event) { state, _ in try? perform(state) }
    }

    /// On `event`, do what `perform` returns.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - perform: `transition(to:emit:)` or `dontTransition(emit:)`.
    /// - Returns: The clause.
    @inlinable
    public static func on(_ event: Event, perform: @escaping () throws -> Action) -> On<
        State, Event, SideEffect, State
    > {
        On(event) { _, _ in try? perform() }
    }

    /// On any event of the case `embed` builds, whatever its associated
    /// values, do what `perform` returns.
    ///
    /// - Parameters:
    ///   - embed: The case's constructor, such as `Event.typed`.
    ///   - perform: `transition(to:emit:)` or `dontTransition(emit:)`.
    /// - Returns: The clause.
    @inlinable
    public static func on<each Payload>(
        _ embed: @escaping (repeat each Payload) -> Event, perform: @escaping (State, Event) throws -> Action
    ) -> On<State, Event, SideEffect, State> {
        On(embed) { state, event in try? perform(state, event) }
    }

    /// Goes to `state` and emits `sideEffects`.
    ///
    /// - Parameters:
    ///   - state: Where the machine goes.
    ///   - sideEffects: What the transition emits, in order; none by default.
    /// - Returns: The action.
    @inlinable
    public static func transition(to state: State, emit sideEffects: SideEffect...) -> Action {
        Reaction(toState: state, effects: sideEffects)
    }

    /// Stays, and emits `sideEffects`.
    ///
    /// - Parameter sideEffects: What the transition emits, in order; none by default.
    /// - Returns: The action.
    @inlinable
    public static func dontTransition(emit sideEffects: SideEffect...) -> Action {
        Reaction(toState: nil, effects: sideEffects)
    }

    /// An observer of every transition of the machines made from the definition.
    ///
    /// - Parameter callback: Called with each transition's result.
    /// - Returns: The statement.
    @inlinable
    public static func onTransition(
        _ callback: @escaping EffectMachine<State, Event, SideEffect>.Transition.Callback
    ) -> TransitionObserver<State, Event, SideEffect> {
        TransitionObserver(callback)
    }
}
