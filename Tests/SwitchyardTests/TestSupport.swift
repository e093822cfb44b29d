import Foundation
import Switchyard

// Fixtures shared by every suite. Suites that need something special keep it
// `private` in their own file.

enum MyState: StateType, CaseIterable {
    case state0, state1, state2, state3
}

enum MyEvent: EventType, CaseIterable {
    case event0, event1, event2
}

/// A state with associated values, for route mappings.
enum StrState: StateType {
    case str(String)
}

/// An event with associated values, for route mappings.
enum StrEvent: EventType {
    case str(String)
}

/// Collects what handlers saw, in order.
final class Log {
    private(set) var lines: [String] = []

    func callAsFunction(_ line: String) {
        lines.append(line)
    }

    func clear() {
        lines.removeAll()
    }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and waits
/// for it: the stack of a secondary thread on Apple platforms is 512 KiB.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}

/// A value handed from one thread to another, under a lock.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension Result where Failure == TransitionError {
    /// The reason of a refusal; `nil` for a success.
    var failureReason: TransitionError.Reason? {
        if case .failure(let error) = self {
            return error.reason
        }
        return nil
    }
}
