// The three operators of the library, all in one place. Each body calls one
// documented method, so every operator has a spelled-out twin.

/// Builds transitions, chains and routes: `.a => .b`, `.a => .b => .c`, `[.a, .b] => .c`.
infix operator => : AdditionPrecedence

/// Asks a machine to go to a state: `machine <- .b`, the same as `tryState`.
infix operator <- : AdditionPrecedence

/// Fires an event at a machine: `machine <-! .go`, the same as `tryEvent`.
infix operator <-! : AdditionPrecedence

// MARK: - Transitions

/// Makes the transition `left` → `right`; the same as ``Transition/init(fromState:toState:)-(State<S>,State<S>)``.
@inlinable
public func => <S: StateType>(left: State<S>, right: State<S>) -> Transition<S> {
    Transition(fromState: left, toState: right)
}

/// Makes the transition `left` → `right`; the same as ``Transition/init(fromState:toState:)-(State<S>,S)``.
@inlinable
public func => <S: StateType>(left: State<S>, right: S) -> Transition<S> {
    Transition(fromState: left, toState: right)
}

/// Makes the transition `left` → `right`; the same as ``Transition/init(fromState:toState:)-(S,State<S>)``.
@inlinable
public func => <S: StateType>(left: S, right: State<S>) -> Transition<S> {
    Transition(fromState: left, toState: right)
}

/// Makes the transition `left` → `right`; the same as ``Transition/init(fromState:toState:)-(S,S)``.
@inlinable
public func => <S: StateType>(left: S, right: S) -> Transition<S> {
    Transition(fromState: left, toState: right)
}

// MARK: - Chains

/// Extends a transition into a chain: `(.a => .b) => .c`; the same as ``TransitionChain/appending(_:)``.
@inlinable
public func => <S: StateType>(left: Transition<S>, right: State<S>) -> TransitionChain<S> {
    TransitionChain(transition: left).appending(right)
}

/// Extends a transition into a chain: `(.a => .b) => .c`; the same as ``TransitionChain/appending(_:)``.
@inlinable
public func => <S: StateType>(left: Transition<S>, right: S) -> TransitionChain<S> {
    TransitionChain(transition: left).appending(.some(right))
}

/// Extends a chain by one state; the same as ``TransitionChain/appending(_:)``.
@inlinable
public func => <S: StateType>(left: TransitionChain<S>, right: State<S>) -> TransitionChain<S> {
    left.appending(right)
}

/// Extends a chain by one state; the same as ``TransitionChain/appending(_:)``.
@inlinable
public func => <S: StateType>(left: TransitionChain<S>, right: S) -> TransitionChain<S> {
    left.appending(.some(right))
}

/// Puts a state in front of a transition: `.a => (.b => .c)`; the same as ``TransitionChain/prepending(_:)``.
@inlinable
public func => <S: StateType>(left: State<S>, right: Transition<S>) -> TransitionChain<S> {
    TransitionChain(transition: right).prepending(left)
}

/// Puts a state in front of a transition: `.a => (.b => .c)`; the same as ``TransitionChain/prepending(_:)``.
@inlinable
public func => <S: StateType>(left: S, right: Transition<S>) -> TransitionChain<S> {
    TransitionChain(transition: right).prepending(.some(left))
}

/// Puts a state in front of a chain; the same as ``TransitionChain/prepending(_:)``.
@inlinable
public func => <S: StateType>(left: State<S>, right: TransitionChain<S>) -> TransitionChain<S> {
    right.prepending(left)
}

/// Puts a state in front of a chain; the same as ``TransitionChain/prepending(_:)``.
@inlinable
public func => <S: StateType>(left: S, right: TransitionChain<S>) -> TransitionChain<S> {
    right.prepending(.some(left))
}

// MARK: - Routes between sets of states

/// Allows every state of `left` to move to `right`; the same as ``Route/init(fromStates:toState:)``.
@inlinable
public func => <S: StateType, E: EventType>(left: [S], right: State<S>) -> Route<S, E> {
    Route(fromStates: left, toState: right)
}

/// Allows every state of `left` to move to `right`; the same as ``Route/init(fromStates:toState:)``.
@inlinable
public func => <S: StateType, E: EventType>(left: [S], right: S) -> Route<S, E> {
    Route(fromStates: left, toState: .some(right))
}

/// Allows `left` to move to every state of `right`; the same as ``Route/init(fromState:toStates:)``.
@inlinable
public func => <S: StateType, E: EventType>(left: State<S>, right: [S]) -> Route<S, E> {
    Route(fromState: left, toStates: right)
}

/// Allows `left` to move to every state of `right`; the same as ``Route/init(fromState:toStates:)``.
@inlinable
public func => <S: StateType, E: EventType>(left: S, right: [S]) -> Route<S, E> {
    Route(fromState: .some(left), toStates: right)
}

/// Allows every state of `left` to move to every state of `right`; the same as ``Route/init(fromStates:toStates:)``.
@inlinable
public func => <S: StateType, E: EventType>(left: [S], right: [S]) -> Route<S, E> {
    Route(fromStates: left, toStates: right)
}

// MARK: - Driving a machine

/// Asks `machine` to go to `state`; the same as ``Machine/tryState(_:userInfo:)``.
///
/// - Returns: `machine`, so that requests chain: `machine <- .a <- .b`.
@discardableResult
@inlinable
public func <- <S: StateType, E: EventType>(machine: Machine<S, E>, state: S) -> Machine<S, E> {
    machine.tryState(state)
    return machine
}

/// Asks `machine` to go to a state, passing `userInfo` along; the same as ``Machine/tryState(_:userInfo:)``.
///
/// - Returns: `machine`, so that requests chain.
@discardableResult
@inlinable
public func <- <S: StateType, E: EventType>(machine: Machine<S, E>, request: (S, Any?)) -> Machine<S, E> {
    machine.tryState(request.0, userInfo: request.1)
    return machine
}

/// Fires `event` at `machine`; the same as ``Machine/tryEvent(_:userInfo:)``.
///
/// - Returns: `machine`, so that events chain: `machine <-! .go <-! .stop`.
@discardableResult
@inlinable
public func <-! <S: StateType, E: EventType>(machine: Machine<S, E>, event: E) -> Machine<S, E> {
    machine.tryEvent(event)
    return machine
}

/// Fires an event at `machine`, passing `userInfo` along; the same as ``Machine/tryEvent(_:userInfo:)``.
///
/// - Returns: `machine`, so that events chain.
@discardableResult
@inlinable
public func <-! <S: StateType, E: EventType>(machine: Machine<S, E>, request: (E, Any?)) -> Machine<S, E> {
    machine.tryEvent(request.0, userInfo: request.1)
    return machine
}

// MARK: - Driving a sendable machine

/// Asks `machine` to go to `state`; the same as ``SendableMachine/tryState(_:userInfo:)``.
///
/// - Returns: `machine`, so that requests chain: `machine <- .a <- .b`.
@discardableResult
@inlinable
public func <- <S: StateType, E: EventType>(machine: SendableMachine<S, E>, state: S) -> SendableMachine<S, E> {
    machine.tryState(state)
    return machine
}

/// Fires `event` at `machine`; the same as ``SendableMachine/tryEvent(_:userInfo:)``.
///
/// - Returns: `machine`, so that events chain: `machine <-! .go <-! .stop`.
@discardableResult
@inlinable
public func <-! <S: StateType, E: EventType>(machine: SendableMachine<S, E>, event: E) -> SendableMachine<S, E> {
    machine.tryEvent(event)
    return machine
}
