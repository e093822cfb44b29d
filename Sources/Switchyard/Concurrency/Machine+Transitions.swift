// The decisions of a machine as an async sequence: each subscriber gets its
// own stream, fed in the order the machine decides, before the handlers of
// each decision run.

extension Machine where S: Sendable, E: Sendable {
    /// The transitions this machine takes from now on, as an async sequence;
    /// with `includingRefusals`, the requests it refuses too.
    ///
    /// ```swift
    /// let log = Task { @MainActor in
    ///     for await record in player.transitions() {
    ///         print(record)  // "stopped => playing on play"
    ///     }
    /// }
    /// ```
    ///
    /// Every call makes a new subscriber, which hears every decision the
    /// machine takes after the call, in the order the machine takes them:
    /// a decision is recorded before its handlers run, so a request a handler
    /// makes comes after the transition it reacted to, under either
    /// ``DeliveryPolicy``. A statechart records each step, its eventless and
    /// done steps included; `fromState` and `toState` are its `state` before
    /// and after. The sequence ends when the machine is released, and a
    /// subscriber that stops iterating (its task cancelled, or the sequence
    /// dropped) is forgotten at the machine's next decision.
    ///
    /// The machine never waits for a subscriber: records wait in the
    /// subscriber's buffer, which `bufferingPolicy` bounds.
    ///
    /// - Parameters:
    ///   - includingRefusals: Whether refused requests are recorded too,
    ///     with their ``TransitionRecord/refusal``; `false` by default.
    ///   - bufferingPolicy: How many records wait for a slow subscriber:
    ///     all of them by default (`.unbounded`); `.bufferingNewest(n)` keeps the
    ///     latest `n`, `.bufferingOldest(n)` the first `n`.
    /// - Returns: A sequence that any task may iterate.
    /// - Complexity: Each decision costs O(subscribers) while there are any,
    ///   and one check when there are none.
    public func transitions(
        includingRefusals: Bool = false,
        bufferingPolicy: AsyncStream<TransitionRecord<S, E>>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<TransitionRecord<S, E>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransitionRecord<S, E>.self, bufferingPolicy: bufferingPolicy)
        ensureWatchers().subscribe(
            TransitionWatchers.Subscriber(
                yield: {
                    if case .terminated = continuation.yield($0) { false } else { true }
                },
                finish: { continuation.finish() }, hearsRefusals: includingRefusals))
        return stream
    }
}

extension Machine {
    /// The machine's watchers, made on first use.
    func ensureWatchers() -> TransitionWatchers<S, E> {
        if let watchers {
            return watchers
        }
        let watchers = TransitionWatchers<S, E>()
        self.watchers = watchers
        return watchers
    }

    /// Tells the watchers, if any, of a decision: a transition taken, or for
    /// `.error` a refusal (`refusal` says why; `nil`, that no route covered
    /// the request). Called before the decision's handlers run. Observers of
    /// ``inspect(_:)`` are shown it as a flat machine's decision, with no
    /// exits, routes or entries.
    // The watched path is out of line: inlined, it made `report` too big
    // to leave the unwatched path as it was (event-small cost 37
    // instructions more once inspections were added).
    @inlinable
    func report(_ kind: DeliveryKind, _ context: Context, refusal: Refusal?) {
        guard let watchers else { return }
        report(kind, context, refusal: refusal, to: watchers)
    }

    /// ``report(_:_:refusal:)`` once the machine is known to be watched.
    @usableFromInline
    @inline(never)
    func report(_ kind: DeliveryKind, _ context: Context, refusal: Refusal?, to watchers: TransitionWatchers<S, E>) {
        hear(kind, context, refusal: refusal, watchers: watchers)
        if watchers.hasInspectors {
            watchers.inspect(inspection(kind, context, refusal: refusal))
        }
    }

    /// Yields the record of a decision to the watchers' subscribers.
    func hear(_ kind: DeliveryKind, _ context: Context, refusal: Refusal?, watchers: TransitionWatchers<S, E>) {
        if kind != .error {
            watchers.hear(
                TransitionRecord(event: context.event, fromState: context.fromState, toState: context.toState))
        } else if watchers.hearRefusals {
            let reason = TransitionError.Reason(refusal, isEvent: context.event != nil)
            watchers.hear(
                TransitionRecord(
                    event: context.event, fromState: context.fromState, toState: context.toState, refusal: reason))
        }
    }
}
