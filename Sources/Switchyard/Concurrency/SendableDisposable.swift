/// What removes a registration of a ``SendableMachine``, from any thread.
///
/// Disposing takes the machine's lock, so it waits for a transition in
/// progress on another thread (a handler disposing on its own thread goes
/// straight in). Like every ``Disposable``, it does not keep the machine
/// alive, and disposing after the machine is gone does nothing.
public final class SendableDisposable: Disposable, Sendable {
    let guarded: Guarded<any Disposable>

    init(_ guarded: Guarded<any Disposable>) {
        self.guarded = guarded
    }

    /// Whether the registration has been removed.
    public var disposed: Bool {
        guarded.withLock { $0.disposed }
    }

    /// Removes the registration; harmless if done before.
    public func dispose() {
        guarded.withLock { $0.dispose() }
    }
}
