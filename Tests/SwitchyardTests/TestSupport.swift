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
