/// Calls `body` isolated to `owner`, from code that runs on `owner`'s
/// executor without the compiler knowing it: a machine's handler, which the
/// machine calls synchronously from the actor that owns the machine.
///
/// The invariant, checked at run time: the caller is on `owner`'s executor
/// (`assumeIsolated` stops with a message otherwise). So `argument` and
/// `body`, which are not `Sendable`, never leave the calling thread, and the
/// `nonisolated(unsafe)` bindings below only tell the compiler what that
/// check guarantees.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
func callIsolated<Owner: Actor, Argument, Result: Sendable>(
    to owner: Owner, with argument: Argument, _ body: @escaping (isolated Owner, Argument) -> Result
) -> Result {
    nonisolated(unsafe) let argument = argument
    nonisolated(unsafe) let body = body
    return owner.assumeIsolated { body($0, argument) }
}
