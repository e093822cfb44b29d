import Switchyard
import Testing

// The paths to every state of a ring of n are n²/2 steps long in all. They
// share the search's tree, so finding them costs the n configurations the
// search visits, and a path's steps cost its own length when read. Timed as
// in GrowthTests.swift: n and 8n, the best of five CPU times each.

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

private enum RingEvent: EventType {
    case next
}

/// A ring of `count` states, `next` going from each to the next.
private func ringDescription(_ count: Int) -> MachineDescription<Numbered, RingEvent> {
    Machine<Numbered, RingEvent>(state: Numbered(number: 0)) { machine in
        for index in 0..<count {
            machine.addRoutes(
                event: .next, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
        }
    }
    .describe()
}

@Suite struct TestPathGrowthTests {
    @Test func pathsToEveryStateOfARingCostLinearTimeUntilRead() {
        let ratio = growth(size: 500, prepare: ringDescription) { count, prepared in
            let paths = (prepared as! MachineDescription<Numbered, RingEvent>).shortestPaths(maxLength: count)
            #expect(paths.paths.count == count)
            #expect(paths.paths.last?.finalState == Numbered(number: count - 1))
        }
        #expect(ratio < GrowthTests.bound, "the paths round a ring 8 times as large took \(ratio) times as long")
    }

    @Test func aPathOfALargeRingListsItsOwnWalk() throws {
        let count = 4_000
        let paths = ringDescription(count).shortestPaths(maxLength: count)
        let path = try #require(paths.paths.first { $0.target == Numbered(number: 2_500) })
        #expect(path.start == Numbered(number: 0))
        #expect(path.startConfiguration == [Numbered(number: 0)])
        #expect(path.steps == Array(repeating: .event(.next), count: 2_500))
        #expect(path.states == (1...2_500).map { Numbered(number: $0) })
        #expect(path.configurations == (1...2_500).map { [Numbered(number: $0)] })
        #expect(path.routes == Array(0..<2_500))
        #expect(path.finalState == Numbered(number: 2_500))
        #expect(
            path.replay(
                on: Machine(state: Numbered(number: 0)) { ring in
                    for index in 0..<count {
                        ring.addRoutes(
                            event: .next,
                            transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
                    }
                }))
    }

    @Test func pathsOfTwoSearchesAreEqualWhereTheirListsAre() {
        let description = ringDescription(50)
        let first = description.shortestPaths().paths
        let second = description.shortestPaths().paths
        #expect(first == second)
        #expect(Set(first + second).count == 50)
        #expect(first[20] != first[21])
        #expect(Set(first).contains(second[20]))
    }

    @Test func pathsCanBeReadOnAnotherTask() async {
        let paths = ringDescription(50).shortestPaths()
        let steps = await Task.detached { paths.paths.map(\.steps.count) }.value
        #expect(steps == Array(0..<50))
    }
}
