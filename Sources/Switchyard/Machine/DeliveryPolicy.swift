/// When the handlers of a transition requested from inside a handler run.
///
/// Choose it when creating a machine with ``Machine/init(state:delivery:initClosure:)``.
public enum DeliveryPolicy: Hashable, Sendable {
    /// A nested request runs completely, handlers included, before the call
    /// returns, exactly as in SwiftState. The default, so that code written for
    /// SwiftState keeps its order.
    case immediate
    /// A request made by a handler, an action or an observer waits until
    /// every handler of the transition in progress has run; then it is
    /// decided against the state it finds, and delivered, in the order the
    /// requests were made. Its outcome is not known when the call returns, so
    /// `tryEvent` and `tryState` return `false` and the typed API answers
    /// ``TransitionError/Reason-swift.struct/queued`` — on a flat machine and
    /// on a statechart alike.
    ///
    /// Observers then see transitions in the order they happened, and a chain of
    /// handler-driven transitions never deepens the stack. Recommended for new code.
    case runToCompletion
}

extension DeliveryPolicy {
    /// How deeply `.immediate` nests deliveries before it defers them.
    ///
    /// A handler that makes a request runs that request's handlers inside its
    /// own call, as SwiftState does; a handler of those may make another, and
    /// so on. Nesting that real apps do (a few levels) keeps exactly that
    /// order. A request made by a handler already nested this deep is still
    /// decided at once (its `tryEvent` / `tryState` returns the true result and
    /// the state moves), but its handlers run right after the delivery in
    /// progress, as under ``runToCompletion``; so a chain of 100,000
    /// handler-driven steps runs in constant stack, even on a 512 KiB thread
    /// in a debug build. (A level costs about 4.5 KiB of stack in a debug
    /// build with trivial handlers, so 16 levels leave most of such a stack to
    /// the app's own frames.)
    ///
    /// The levels are counted per thread, over the deliveries of every
    /// machine, whatever its policy: a chain of requests through many
    /// machines, each one's handler asking the next, is held to this depth
    /// too. Past it, a flat machine's request is decided at once and
    /// delivered once the nesting unwinds below the limit; a statechart's
    /// request waits whole (``TransitionError/Reason-swift.struct/queued``).
    public static var immediateNestingLimit: Int { 16 }
}
