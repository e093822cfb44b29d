import Foundation
import Switchyard
import Synchronization
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

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

/// Has `log` hear every step of `chart`: "exit x" and "enter x" for each
/// state, and "go: a => b" for each step (its event, or "state" for a step
/// without one, and the machine's state before and after it).
func logSteps<S: StateType & CaseIterable, E: EventType>(of chart: Machine<S, E>, to log: Log) {
    for state in S.allCases {
        chart.addEntryHandler(state) { _ in log("enter \(state)") }
        chart.addExitHandler(state) { _ in log("exit \(state)") }
    }
    chart.addAnyHandler(.any => .any) { context in
        log("\(context.event.map { "\($0)" } ?? "state"): \(context.fromState) => \(context.toState)")
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

// MARK: - A seeded generator

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose whole
/// state is its seed, so a chart is replayed from the seed alone. The helpers
/// draw from it directly, so a seed gives the same chart whatever the standard
/// library's own sampling does.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE5_E9B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `range`; the modulo bias is far too small to matter here.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(percent: Int) -> Bool {
        int(in: 0...99) < percent
    }

    mutating func element<Element>(of elements: [Element]) -> Element {
        elements[int(in: 0...(elements.count - 1))]
    }

    /// Fisher–Yates.
    mutating func shuffle<Element>(_ elements: inout [Element]) {
        for index in elements.indices.reversed() where index > 0 {
            elements.swapAt(index, int(in: 0...index))
        }
    }
}

/// What the process an exit test stopped wrote to standard error.
func message(of result: ExitTest.Result) -> String {
    String(decoding: result.standardErrorContent, as: UTF8.self)
}

/// A value behind a lock, which closures of any thread may share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value { mutex.withLock { $0 } }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}

/// What `stream` yields until it ends, each record as it prints.
func collect<S, E>(_ stream: AsyncStream<TransitionRecord<S, E>>) async -> [String] {
    var lines: [String] = []
    for await record in stream {
        lines.append("\(record)")
    }
    return lines
}

/// Expects an effect machine's answer to a request and the pure function's
/// to agree: the same state and effects, or a refusal for the same reason.
/// `context` says where, for the message.
func expectSameAnswer<S: StateType, E: EventType, Effect: Equatable>(
    machine moved: EffectMachine<S, E, Effect>.Transition.Result,
    pure: Result<Definition<S, E, Effect>.Outcome, TransitionError>, _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch (moved, pure) {
    case (.success(let transition), .success(let outcome)):
        #expect(transition.toState == outcome.toState, "next state, \(context)", sourceLocation: sourceLocation)
        #expect(transition.effects == outcome.effects, "effects, \(context)", sourceLocation: sourceLocation)
    case (.failure(let error), .failure(let refusal)):
        #expect(error.reason == refusal.reason, "reason, \(context)", sourceLocation: sourceLocation)
    default:
        Issue.record("machine \(moved) but pure function \(pure), \(context)", sourceLocation: sourceLocation)
    }
}

/// The number in the environment variable `name`: a seed to replay, or how
/// many seeds to try.
func environmentSeed(_ name: String) -> UInt64? {
    ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
}

/// The README's door: its states.
enum ReadmeDoor: StateType {
    case open, closed, locked
}

/// The README's door: its events.
enum ReadmeDoorEvent: EventType {
    case open, close, lock, unlock
}

/// The README's door, with its routes, its condition, an event handler and
/// an error handler, as the README declares them.
func makeReadmeDoor() -> Machine<ReadmeDoor, ReadmeDoorEvent> {
    Machine(state: .open) { door in
        door.addRoutes(event: .close, transitions: [.open => .closed])
        door.addRoutes(event: .open, transitions: [.closed => .open])
        door.addRoutes(event: .lock, transitions: [.closed => .locked])
        door.addRoutes(
            event: .unlock, transitions: [.locked => .closed],
            condition: { context in context.userInfo as? String == "key" })
        door.addHandler(event: .any) { _ in }
        door.addErrorHandler { _ in }
    }
}

/// Runs an action when the last reference to it goes: captured by a handler
/// or condition, it runs when the machine lets go of that closure.
final class ReleaseHook {
    private let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    deinit {
        action()
    }
}

// MARK: Growth

/// The CPU time the calling thread has used so far.
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
}

/// How much longer `size * factor` repetitions take than `size`.
func growth(
    size: Int, factor: Int = 8, prepare: (Int) -> some Any, _ work: (Int, Any) -> Void
) -> Double {
    var best = (small: Duration.seconds(1_000), large: Duration.seconds(1_000))
    func time(_ count: Int) -> Duration {
        let input = prepare(count)
        let start = threadCPUTime()
        work(count, input)
        return threadCPUTime() - start
    }
    for _ in 0..<5 {
        best.small = min(best.small, time(size))
        best.large = min(best.large, time(size * factor))
    }
    return best.large / best.small
}
