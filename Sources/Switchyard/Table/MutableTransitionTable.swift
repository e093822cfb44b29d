/// A ``TransitionTable`` whose `state` can be set, and which therefore gets
/// ``TransitionTable/transition(to:)`` for free.
///
/// ```swift
/// struct Order: MutableTransitionTable {
///     enum State { case cart, paid, shipped, cancelled }
///
///     static let stateTransitions: [State: Set<State>] = [
///         .cart: [.paid, .cancelled],
///         .paid: [.shipped, .cancelled],
///         .shipped: [],
///         .cancelled: [],
///     ]
///
///     var state: State = .cart
/// }
///
/// var order = Order()
/// order.transition(to: .paid)
/// order.transition(to: .cart)  // stops: "Order cannot move from paid to cart: …"
/// ```
///
/// This is a separate protocol, as `MutableCollection` is beside `Collection`,
/// because requiring a settable `state` of every transition table would turn
/// away types that keep the setter private and write `transition(to:)`
/// themselves.
public protocol MutableTransitionTable: TransitionTable {
    /// The current state; ``TransitionTable/transition(to:)`` sets it.
    var state: State { get set }
}

extension MutableTransitionTable {
    /// Moves to `nextState`, which the table must allow.
    ///
    /// A move the table does not allow is a programmer error: the program
    /// stops, in every build, with a message that names both states, or that
    /// says the table has no entry for the current state. Check first with
    /// ``TransitionTable/canTransition(to:)``, or call
    /// ``TransitionTable/tryTransition(to:)`` to get an error instead.
    ///
    /// - Parameter nextState: The state to move to.
    public mutating func transition(to nextState: State) {
        if let error = transitionError(to: nextState) {
            fatalError("transition(to:): \(error); check canTransition(to:) first, or call tryTransition(to:)")
        }
        state = nextState
    }
}
