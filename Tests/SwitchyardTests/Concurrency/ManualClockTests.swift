import Switchyard
import Testing

@Suite struct ManualClockTests {
    @Test func sleepersWakeInTheOrderOfTheirDeadlines() async {
        let clock = ManualClock()
        let order = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try? await clock.sleep(until: ManualClock.Instant(offset: .seconds(seconds)))
                    order.withLock { $0.append(seconds) }
                }
            }
            while clock.sleeperCount < 3 {
                await Task.yield()
            }
            await clock.advance(by: .seconds(1))
            while order.value.count < 1 {
                await Task.yield()
            }
            #expect(order.value == [1])
            await clock.advance(by: .seconds(5))
        }
        #expect(order.value == [1, 2, 3])
        #expect(clock.now == ManualClock.Instant(offset: .seconds(6)))
    }

    @Test func aDeadlineThatHasPassedDoesNotWait() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(4)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperEndsItsSleepWithCancellationError() async {
        let clock = ManualClock()
        let sleeper = Task { () -> Bool in
            do {
                try await clock.sleep(for: .seconds(1))
                return false
            } catch {
                return error is CancellationError
            }
        }
        while clock.sleeperCount < 1 {
            await Task.yield()
        }
        sleeper.cancel()
        #expect(await sleeper.value)
        #expect(clock.sleeperCount == 0)
        // Cancelled before it sleeps: it does not wait at all.
        let early = Task { () -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await clock.sleep(for: .seconds(1))
                return false
            } catch {
                return error is CancellationError
            }
        }
        #expect(await early.value)
    }

    @Test func goingBackInTimeIsRefusedWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ManualClock().advance(by: .seconds(-1))
        }
        #expect(message(of: result).contains("back in time"))
    }
}
