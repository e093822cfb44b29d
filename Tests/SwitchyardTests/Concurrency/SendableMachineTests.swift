import Dispatch
import Switchyard
import Synchronization
import Testing

/// A ring of states that every tick moves one step along.
private enum Ring: Int, StateType, CaseIterable {
    case r0, r1, r2, r3, r4, r5, r6, r7

    var next: Ring { Ring(rawValue: (rawValue + 1) % Ring.allCases.count)! }
}

/// A tick from one sender: its number and how many it sent before.
private enum Tick: EventType {
    case tick(sender: Int, index: Int)
}

/// What a handler heard: the tick and the move.
private struct Heard: Equatable {
    let sender: Int
    let index: Int
    let from: Ring
    let to: Ring
}

@Suite struct SendableMachineTests {
    private static let senders = 8
    private static let ticksPerSender = 10_000

    private func ring(log: Locked<[Heard]>) -> SendableMachine<Ring, Tick> {
        SendableMachine(state: .r0) { ring in
            ring.addRouteMapping { _, from, _ in from.next }
            ring.addHandler(event: .any) { context in
                guard case .tick(let sender, let index) = context.event else { return }
                log.withLock {
                    $0.append(Heard(sender: sender, index: index, from: context.fromState, to: context.toState))
                }
            }
        }
    }

    /// Every tick heard once, in one order in which each move starts where
    /// the one before ended, and each sender's ticks in the order it sent them.
    private func expectOneOrder(_ heard: [Heard]) {
        #expect(heard.count == Self.senders * Self.ticksPerSender)
        var state = Ring.r0
        var nextIndex = [Int](repeating: 0, count: Self.senders)
        for entry in heard {
            #expect(entry.from == state && entry.to == state.next)
            #expect(entry.index == nextIndex[entry.sender], "sender \(entry.sender)'s ticks out of order")
            nextIndex[entry.sender] += 1
            state = entry.to
        }
        #expect(nextIndex.allSatisfy { $0 == Self.ticksPerSender })
    }

    @Test func eightThreadsSendingTenThousandEventsEachAreHeardOnceInTheMachinesOrder() async {
        let log = Locked<[Heard]>([])
        var machine: SendableMachine<Ring, Tick>? = ring(log: log)
        let stream = machine!.transitions()
        let accepted = Atomic<Int>(0)
        do {
            let shared = machine!
            DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
                for index in 0..<Self.ticksPerSender where shared.tryEvent(.tick(sender: sender, index: index)) {
                    accepted.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(accepted.load(ordering: .relaxed) == Self.senders * Self.ticksPerSender)
        // Released, the machine ends the stream.
        machine = nil
        let heard = log.value
        expectOneOrder(heard)
        var recorded: [Heard] = []
        for await record in stream {
            guard case .tick(let sender, let index) = record.event else { continue }
            recorded.append(Heard(sender: sender, index: index, from: record.fromState, to: record.toState))
        }
        #expect(recorded == heard)
    }

    @Test func tasksSendingConcurrentlyAreHeardOnceInTheMachinesOrder() async {
        let log = Locked<[Heard]>([])
        let machine = ring(log: log)
        await withTaskGroup(of: Int.self) { group in
            for sender in 0..<Self.senders {
                group.addTask {
                    var accepted = 0
                    for index in 0..<Self.ticksPerSender where machine.tryEvent(.tick(sender: sender, index: index)) {
                        accepted += 1
                    }
                    return accepted
                }
            }
            var total = 0
            for await accepted in group {
                total += accepted
            }
            #expect(total == Self.senders * Self.ticksPerSender)
        }
        expectOneOrder(log.withLock { $0 })
    }
}

@Suite struct SendableMachineHandlerTests {
    @Test func aRequestFromAHandlerRunsAfterTheHandlersInProgress() {
        let log = Locked<[String]>([])
        let machine = SendableMachine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
        machine.addHandler(event: .event0) { [unowned machine] context in
            log.withLock { $0.append("first \(context.fromState) => \(context.toState)") }
            if context.toState == .state1 {
                // Queued: decided once these handlers have run, so `false` now.
                let moved = machine.tryEvent(.event0)
                log.withLock { $0.append("asked: \(moved), now \(machine.state)") }
            }
        }
        machine.addHandler(event: .event0) { context in
            log.withLock { $0.append("second \(context.fromState) => \(context.toState)") }
        }
        #expect(machine.tryEvent(.event0))
        #expect(
            log.withLock { $0 } == [
                "first state0 => state1", "asked: false, now state1", "second state0 => state1",
                "first state1 => state2", "second state1 => state2",
            ])
        #expect(machine.state == .state2)
    }

    @Test func aHandlerDisposesFromInsideAndAnotherThreadDisposesAfter() {
        let count = Atomic<Int>(0)
        let machine = SendableMachine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.any => .any])
        let holder = Locked<SendableDisposable?>(nil)
        let once = machine.addHandler(event: .event0) { _ in
            count.add(1, ordering: .relaxed)
            holder.withLock { $0?.dispose() }
        }
        holder.withLock { $0 = once }
        let other = machine.addHandler(event: .event0) { _ in count.add(10, ordering: .relaxed) }
        machine <-! .event0 <-! .event0
        #expect(once.disposed)
        #expect(count.load(ordering: .relaxed) == 21)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            other.dispose()
            done.signal()
        }
        done.wait()
        machine <-! .event0
        #expect(other.disposed)
        #expect(count.load(ordering: .relaxed) == 21)
    }

    @Test func aHandlerMayReleaseTheLastReferenceToItsMachine() {
        let holder = Locked<SendableMachine<MyState, MyEvent>?>(nil)
        let machine = SendableMachine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
            machine.addHandler(event: .event0) { _ in holder.withLock { $0 = nil } }
        }
        holder.withLock { $0 = machine }
        weak let released = machine
        let taken = holder.withLock { $0! }
        _ = consume machine
        #expect(taken.tryEvent(.event0))
        #expect(holder.withLock { $0 == nil })
        _ = consume taken
        #expect(released == nil)
    }

    @Test func aStatechartRunsItsLifecycleOneStepAtATime() {
        let log = Locked<[String]>([])
        let machine = SendableMachine<MyState, MyEvent>(state: .state0) { machine in
            machine.addChildren([.state1, .state2], to: .state0)
            machine.addFinalState(.state2)
            machine.addRoutes(event: .event0, transitions: [.state1 => .state2])
            machine.addDoneRoute(.state0 => .state3)
            for state in MyState.allCases {
                machine.addEntryHandler(state) { _ in log.withLock { $0.append("enter \(state)") } }
                machine.addExitHandler(state) { _ in log.withLock { $0.append("exit \(state)") } }
            }
        }
        machine.start()
        #expect(machine.configuration == [.state0, .state1])
        machine <-! .event0
        #expect(machine.state == .state3)
        #expect(machine.isActive(.state3))
        #expect(
            log.withLock { $0 } == [
                "enter state0", "enter state1", "exit state1", "enter state2", "exit state2", "exit state0",
                "enter state3",
            ])
    }

    @Test func aRouteWithAConditionOfItsOwnIsRefusedWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = SendableMachine<MyState, MyEvent>(state: .state0)
            var calls = 0
            machine.addRoute(
                Route(transition: .state0 => .state1) { _ in
                    calls += 1
                    return calls == 1
                })
        }
        #expect(message(of: result).contains("not @Sendable"))
    }

    @Test func listedRoutesAndTypedResultsWork() {
        let machine = SendableMachine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, routes: [[.state0, .state1] => .state2])
        #expect(machine.attemptEvent(.event1).failureReason == .noRoute)
        #expect(machine.canTryEvent(.event0) == .state2)
        #expect(machine.hasRoute(event: .event0, fromState: .state1, toState: .state2))
        #expect(machine.attemptEvent(.event0) == .success(.state2))
        #expect(machine.attemptEvent(.event0).failureReason == .stateNotListed)
    }
}

/// A machine shared between threads by mistake (`Machine` is not `Sendable`).
private final class Smuggled: @unchecked Sendable {
    let machine: Machine<MyState, MyEvent>

    init(_ machine: Machine<MyState, MyEvent>) {
        self.machine = machine
    }
}

@Suite struct MachineSharedByMistakeTests {
    // Debug builds stop with the message; release builds refuse the request.
    #if DEBUG
        @Test func aRequestFromAnotherThreadDuringADecisionNamesTheCause() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let deciding = DispatchSemaphore(value: 0)
                let requested = DispatchSemaphore(value: 0)
                let machine = Machine<MyState, MyEvent>(state: .state0)
                machine.addRoutes(event: .event0, transitions: [.state0 => .state1]) { _ in
                    deciding.signal()
                    requested.wait()
                    return true
                }
                let smuggled = Smuggled(machine)
                DispatchQueue.global().async {
                    deciding.wait()
                    smuggled.machine.tryEvent(.event1)
                    requested.signal()
                }
                machine.tryEvent(.event0)
            }
            #expect(message(of: result).contains("on another"))
            #expect(message(of: result).contains("SendableMachine"))
        }
    #endif
}
