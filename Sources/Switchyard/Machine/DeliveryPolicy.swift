/// When the handlers of a transition requested from inside a handler run.
///
/// Choose it when creating a machine with ``Machine/init(state:delivery:initClosure:)``.
public enum DeliveryPolicy: Hashable, Sendable {
    /// A nested request runs completely, handlers included, before the call
    /// returns, exactly as in SwiftState. The default, so that code written for
    /// SwiftState keeps its order.
    case immediate
    /// A nested request is decided at once against the current state (so
    /// `tryEvent` and `tryState` still return the true result), but its handlers
    /// run only after every handler of the transition in progress has run.
    ///
    /// Observers then see transitions in the order they happened, and a chain of
    /// handler-driven transitions never deepens the stack. Recommended for new code.
    case runToCompletion
}
