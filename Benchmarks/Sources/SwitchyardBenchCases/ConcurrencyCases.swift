import Switchyard

// What sharing a machine costs (issue 20), against what an app would write by
// hand to share its own: the dictionary machine behind a lock, and an
// `AsyncStream` fed from its handler.
//
// - `sendable-event-small`: `event-small` on a `SendableMachine`, from one
//   thread (no contention: the price of the lock and of the `@Sendable`
//   closures); the baseline is `event-small`'s dictionary machine behind a
//   plain mutex.
// - `stream-event`: `event-small` on a `Machine` with one subscriber to
//   `transitions()`, a task that receives every record; the baseline's handler
//   yields the same facts to an `AsyncStream` of its own, read by the same
//   kind of task. The requests of a sample are made, then received (see
//   `StreamSubscriber`), so that both sides pay for each record and not for
//   how often the task was put to sleep and woken.
// - `contended-8`: eight threads at once driving one shared machine round a
//   ring with one event, so that every request is taken whatever the
//   interleaving; the same baseline as `sendable-event-small`. One operation
//   is 8,000 requests, a thousand from each thread.
//
// - `actor-event-small`: the other way to share a machine, measured to choose
//   between them: `event-small`'s `Machine` owned by an actor, each request
//   awaited by one task outside it; the baseline is the dictionary machine
//   owned by an actor the same way. Its ns/op, set beside
//   `sendable-event-small`'s, is what a request costs through an actor
//   rather than a lock.
//
// The last three are timed by the wall clock: their work runs on several
// threads.

extension BenchCase {
    static let sendableEventSmall = BenchCase(
        name: "sendable-event-small",
        summary: "tryEvent on a SendableMachine round event-small's cycle from one thread, one handler for every event",
        switchyard: {
            let counter = LockedCounter()
            let machine = SendableMachine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
                machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
                machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = LockedDictionaryMachine(lightCycleWith: counter)
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        handSwitch: nil
    )

    static let streamEvent = BenchCase(
        name: "stream-event",
        summary: "tryEvent round event-small's cycle on a Machine, each transition received by one task iterating "
            + "transitions()",
        switchyard: {
            let machine = Machine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
                machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
            }
            let subscriber = StreamSubscriber(machine.transitions())
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                subscriber.round(of: iterations) {
                    var moved = 0
                    for _ in 0..<iterations {
                        if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                        phase = (phase &+ 1) & 3
                    }
                    return moved
                }
            }
        },
        dictionary: {
            let machine = DictionaryMachine<Light, LightEvent>(state: .s0, routes: lightCycleRoutes)
            let (stream, continuation) = AsyncStream.makeStream(of: Moved<Light, LightEvent>.self)
            machine.handlers.append { change in
                continuation.yield(Moved(event: change.event, fromState: change.from, toState: change.to))
            }
            let subscriber = StreamSubscriber(stream)
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                subscriber.round(of: iterations) {
                    var moved = 0
                    for _ in 0..<iterations {
                        if machine.fire(cycle[phase]) { moved &+= 1 }
                        phase = (phase &+ 1) & 3
                    }
                    return moved
                }
            }
        },
        handSwitch: nil,
        isTimedByWallClock: true
    )

    static let contended8 = BenchCase(
        name: "contended-8",
        summary: "8,000 requests, 1,000 from each of eight threads at once, sending next round a 4-state ring "
            + "on one shared SendableMachine, one handler for every event",
        switchyard: {
            let counter = LockedCounter()
            let machine = SendableMachine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3, .s3 => .s0])
                machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            }
            let crew = ThreadCrew(count: 8)
            return { iterations in
                let moved = crew.run(operations: iterations &* requestsPerRound) { machine.tryEvent(.next) }
                // The crew's threads have reported back: their writes are seen.
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = LockedDictionaryMachine(
                ringWith: counter, routes: lightCycleRoutes.merging([RouteKey(state: .s3, event: .next): .s0]) { $1 })
            let crew = ThreadCrew(count: 8)
            return { iterations in
                let moved = crew.run(operations: iterations &* requestsPerRound) { machine.fire(.next) }
                return moved &+ counter.value
            }
        },
        handSwitch: nil,
        isTimedByWallClock: true
    )

    static let actorEventSmall = BenchCase(
        name: "actor-event-small",
        summary: "tryEvent round event-small's cycle on a Machine an actor owns, each request awaited by a task "
            + "outside the actor, one handler for every event",
        switchyard: {
            let owner = MachineOwner()
            return { iterations in
                awaitingTask { await owner.send(iterations) }
            }
        },
        dictionary: {
            let owner = DictionaryMachineOwner()
            return { iterations in
                awaitingTask { await owner.send(iterations) }
            }
        },
        handSwitch: nil,
        isTimedByWallClock: true
    )
}

/// An actor that owns a machine and takes one request at a time.
private protocol RequestTaker: Actor {
    /// One request, and a checksum of what the machine has done so far.
    func fire() -> Int
}

extension RequestTaker {
    /// `count` requests, each awaited from outside the actor.
    nonisolated func send(_ count: Int) async -> Int {
        var checksum = 0
        for _ in 0..<count {
            checksum &+= await fire()
        }
        return checksum
    }
}

/// `event-small`'s machine, owned by an actor.
private actor MachineOwner: RequestTaker {
    private let counter: Counter
    private let machine: Machine<Light, LightEvent>
    private var phase = 0

    init() {
        let counter = Counter()
        self.counter = counter
        machine = Machine(state: .s0) { machine in
            machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
            machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
            machine.addHandler(event: .any) { _ in counter.value &+= 1 }
        }
    }

    func fire() -> Int {
        let moved = machine.tryEvent(lightCycle[phase]) ? 1 : 0
        phase = (phase &+ 1) & 3
        return moved &+ counter.value
    }
}

/// The dictionary machine of `event-small`, owned by an actor.
private actor DictionaryMachineOwner: RequestTaker {
    private let counter: Counter
    private let machine: DictionaryMachine<Light, LightEvent>
    private var phase = 0

    init() {
        let counter = Counter()
        self.counter = counter
        machine = DictionaryMachine(state: .s0, routes: lightCycleRoutes)
        machine.handlers.append { _ in counter.value &+= 1 }
    }

    func fire() -> Int {
        let moved = machine.fire(lightCycle[phase]) ? 1 : 0
        phase = (phase &+ 1) & 3
        return moved &+ counter.value
    }
}

/// `event-small`'s cycle of events.
private let lightCycle: [LightEvent] = [.next, .next, .next, .reset]

/// What one operation of `contended-8` is: the requests of one round, a
/// thousand from each of its eight threads (a round also hands the threads
/// their work and waits for them, which a single request would not outweigh).
private let requestsPerRound = 8_000

/// `event-small`'s routes for the hand-written dictionary machines.
let lightCycleRoutes: [RouteKey<Light, LightEvent>: Light] = [
    RouteKey(state: .s0, event: .next): .s1, RouteKey(state: .s1, event: .next): .s2,
    RouteKey(state: .s2, event: .next): .s3, RouteKey(state: .s3, event: .reset): .s0,
]

/// What the hand-written machine's stream carries: the facts of a transition,
/// `Sendable` as Switchyard's records are.
struct Moved<S: Sendable, E: Sendable>: Sendable {
    var event: E?
    var fromState: S
    var toState: S
}

/// A counter that a `SendableMachine`'s handlers change: they run one at a
/// time, under the machine's lock, so the count needs no lock of its own.
final class LockedCounter: @unchecked Sendable {
    var value = 0
}

/// The dictionary machine as an app would share it: every request under one
/// mutex, the handlers run while it is held.
final class LockedDictionaryMachine: @unchecked Sendable {
    private let lock = PlainLock()
    private let machine: DictionaryMachine<Light, LightEvent>

    /// `event-small`'s cycle, with a handler that counts into `counter`.
    init(lightCycleWith counter: Counter) {
        machine = DictionaryMachine(state: .s0, routes: lightCycleRoutes)
        machine.handlers.append { _ in counter.value &+= 1 }
    }

    /// A machine on `routes`, with a handler that counts into `counter`.
    init(ringWith counter: Counter, routes: [RouteKey<Light, LightEvent>: Light]) {
        machine = DictionaryMachine(state: .s0, routes: routes)
        machine.handlers.append { _ in counter.value &+= 1 }
    }

    func fire(_ event: LightEvent) -> Bool {
        lock.withLock { machine.fire(event) }
    }
}
