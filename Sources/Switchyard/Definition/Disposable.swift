/// Something registered on a machine that can be removed again.
///
/// Every `add…` method of ``Machine`` returns one. Dropping it removes nothing;
/// call ``dispose()`` to remove the route, handler or mapping. Disposing twice,
/// or after the machine is gone, does nothing.
public protocol Disposable {
    /// Whether ``dispose()`` has been called.
    var disposed: Bool { get }
    /// Removes what this value stands for. Later calls do nothing.
    func dispose()
}

/// A ``Disposable`` that runs a closure the first time it is disposed.
///
/// ```swift
/// let disposable = ActionDisposable { print("removed") }
/// disposable.dispose()  // prints "removed"
/// disposable.dispose()  // prints nothing
/// ```
public final class ActionDisposable: Disposable {
    private var action: (() -> Void)?

    /// Creates a disposable that runs `action` once, on the first ``dispose()``.
    ///
    /// - Parameter action: The removal to perform.
    public init(action: @escaping () -> Void) {
        self.action = action
    }

    /// Whether ``dispose()`` has been called.
    public var disposed: Bool {
        action == nil
    }

    /// Runs the action if it has not run yet, then forgets it.
    public func dispose() {
        guard let action else { return }
        self.action = nil
        action()
    }
}
