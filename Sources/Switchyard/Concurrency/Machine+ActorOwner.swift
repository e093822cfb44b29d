// Handlers and conditions for a machine that an actor owns: they reach the
// actor weakly and run isolated to it, so that an actor declares them in its
// `init` and needs no cycle broken by hand.

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Machine {
    /// A handler that runs isolated to `owner`, the actor that owns this
    /// machine, and holds it weakly.
    ///
    /// ```swift
    /// actor Player {
    ///     private(set) var plays = 0
    ///     let machine = Machine<Track, TrackEvent>(state: .stopped)
    ///
    ///     init() {
    ///         machine.addRoutes(event: .play, transitions: [.stopped => .playing])
    ///         machine.addHandler(event: .play, handler: machine.handler(isolatedTo: self) { player, _ in
    ///             player.plays += 1
    ///         })
    ///     }
    ///
    ///     func play() -> Bool { machine.tryEvent(.play) }
    /// }
    /// ```
    ///
    /// A closure written in an actor's `init` is not isolated to it, and one
    /// that captures `self` strongly keeps the actor alive through its own
    /// machine. This one is given the actor as an `isolated` parameter, and
    /// does nothing once the actor is gone.
    ///
    /// - Parameters:
    ///   - owner: The actor that owns the machine and makes its requests.
    ///   - body: The handler, given the owner and the context.
    /// - Returns: A handler for any of the machine's `add…` methods.
    /// - Precondition: The machine runs the handler on `owner`'s executor:
    ///   requests are made from `owner`'s methods. Otherwise it stops with a message.
    public func handler<Owner: Actor>(
        isolatedTo owner: Owner, _ body: @escaping (_ owner: isolated Owner, _ context: Context) -> Void
    ) -> Handler {
        { [weak owner] context in
            guard let owner else { return }
            callIsolated(to: owner, with: context, body)
        }
    }

    /// A condition that runs isolated to `owner`, the actor that owns this
    /// machine, and holds it weakly; see ``handler(isolatedTo:_:)``.
    ///
    /// - Parameters:
    ///   - owner: The actor that owns the machine and makes its requests.
    ///   - body: The condition, given the owner and the context.
    /// - Returns: A condition that refuses once `owner` is gone.
    public func condition<Owner: Actor>(
        isolatedTo owner: Owner, _ body: @escaping (_ owner: isolated Owner, _ context: Context) -> Bool
    ) -> Condition {
        { [weak owner] context in
            guard let owner else { return false }
            return callIsolated(to: owner, with: context, body)
        }
    }
}
