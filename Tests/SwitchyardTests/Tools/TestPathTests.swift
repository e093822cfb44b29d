import Switchyard
import Testing

private enum Light: StateType, CaseIterable {
    case off, on, dim, bright, broken, fixed
}

private enum Switch: EventType, CaseIterable {
    case toggle, brighten, dim, smash, repair, reset
}

private enum Phase: StateType, CaseIterable {
    case solid, liquid, gas
}

private enum Change: EventType, CaseIterable {
    case melt, freeze, vaporize, condense
}

private enum Work: StateType {
    case idle, running, cutting, sanding, finished, split, left, right
}

private enum Order: EventType {
    case start, cut, sand, stop, split
}

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

@Suite struct TestPathTests {
    /// Replays every path of `paths` on a fresh machine from `make`.
    private func expectReplays<S, E>(
        _ paths: TestPaths<S, E>, on make: () -> Machine<S, E>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for path in paths.paths {
            #expect(path.replay(on: make()), "\(path)", sourceLocation: sourceLocation)
            #expect(path.steps.count == path.states.count, sourceLocation: sourceLocation)
        }
    }

    @Test func doorPathsReachEveryStateAndReplay() {
        let paths = makeReadmeDoor().shortestPaths()
        #expect(paths.paths.map(\.target) == [.open, .closed, .locked])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2])
        #expect(paths.paths[2].steps == [.event(.close), .event(.lock)])
        #expect(paths.paths[2].states == [.closed, .locked])
        #expect(
            paths.paths.map(\.description) == [
                "open: open", "open -> event close: closed", "open -> event close -> event lock: locked",
            ])
        #expect(paths.unreachedStates.isEmpty)
        // Unlocking has a condition: no path claims it.
        #expect(paths.uncoveredRoutes == [3])
        expectReplays(paths, on: makeReadmeDoor)
    }

    @Test func ringPathsGoRoundInOrder() {
        func makeRing() -> Machine<Numbered, ReadmeDoorEvent> {
            Machine(state: Numbered(number: 0)) { ring in
                for index in 0..<5 {
                    ring.addRoutes(
                        event: .close, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % 5)])
                }
            }
        }
        let paths = makeRing().shortestPaths()
        #expect(paths.paths.map(\.target.number) == [0, 1, 2, 3, 4])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2, 3, 4])
        expectReplays(paths, on: makeRing)
        let covering = makeRing().routeCoveringPaths()
        #expect(covering.paths.count == 1)
        #expect(covering.paths[0].routes == [0, 1, 2, 3, 4])
        #expect(covering.uncoveredRoutes.isEmpty)
        expectReplays(covering, on: makeRing)
    }

    /// A light whose `on` state has children, `bright` the initial one.
    private func makeLight() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addChildren([.dim, .bright], to: .on, initial: .bright)
            light.addRoutes(event: .toggle, transitions: [.off => .on, .on => .off])
            light.addRoutes(event: .dim, transitions: [.bright => .dim])
            light.addRoutes(event: .brighten, transitions: [.dim => .bright])
            light.addRoutes(event: .smash, transitions: [.on => .broken])
            light.addRoute(.broken => .off)
        }
    }

    @Test func nestedStatechartPathsEnterInitialChildren() {
        let description = makeLight().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.on]?.finalState == .bright)
        #expect(byTarget[.on]?.steps.count == 1)
        #expect(byTarget[.dim]?.steps.count == 2)
        // The smash route leaves from `on`, taken from inside it.
        #expect(byTarget[.broken]?.steps.count == 2)
        #expect(byTarget[.broken]?.states == [.bright, .broken])
        #expect(paths.unreachedStates.isEmpty)
        expectReplays(paths, on: makeLight)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: makeLight)
    }

    /// `.any` routes and a mapping that lists its moves.
    private func makeMappedLight() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addRoutes(event: .toggle, transitions: [.off => .on, .on => .off])
            light.addRoutes(event: .smash, transitions: [.any => .broken])
            light.addRoutes(event: .any, transitions: [.broken => .fixed])
            light.addRoute(.any => .off)
            light.addRouteMapping { event, state, _ in
                switch (event, state) {
                case (.brighten?, .on): return .bright
                case (.dim?, .bright): return .dim
                default: return nil
                }
            }
        }
    }

    @Test func anyRoutesAndListedMappingsAreFollowed() {
        let description = makeMappedLight().describe()
        let paths = description.shortestPaths()
        #expect(paths.unreachedStates.isEmpty)
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.broken]?.steps.count == 1)
        #expect(byTarget[.fixed]?.steps.count == 2)
        #expect(byTarget[.dim]?.steps.count == 3)
        expectReplays(paths, on: makeMappedLight)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: makeMappedLight)
    }

    /// Eventless routes, with and without a condition.
    private func makeRelay() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addRoutes(event: .toggle, transitions: [.off => .on])
            light.addEventlessRoute(.on => .bright)
            light.addRoutes(event: .smash, transitions: [.bright => .broken])
            light.addEventlessRoute(.broken => .fixed) { _ in true }
            light.addRoutes(event: .reset, transitions: [.bright => .off])
        }
    }

    @Test func eventlessRoutesAreTakenAfterTheStep() {
        let description = makeRelay().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        // `on` is left at once for `bright`: no path stays in it.
        #expect(byTarget[.on] == nil)
        #expect(byTarget[.bright]?.steps.count == 1)
        #expect(byTarget[.bright]?.routes == [0, 1])
        // Where `broken` settles depends on a condition: not claimed.
        #expect(paths.unreachedStates == [.on, .broken, .fixed])
        #expect(paths.uncoveredRoutes == [2, 3])
        expectReplays(paths, on: makeRelay)
        expectReplays(description.routeCoveringPaths(), on: makeRelay)
    }

    @Test func everyRouteIsTakenBySomeCoveringPath() {
        let description = makeReadmeDoor().describe()
        let covering = description.routeCoveringPaths()
        let taken = Set(covering.paths.flatMap(\.routes))
        #expect(taken.union(covering.uncoveredRoutes) == Set(description.routes.indices))
        #expect(covering.paths.count == 2)
        expectReplays(covering, on: makeReadmeDoor)
    }

    @Test func mappingOverIntegersIsBounded() {
        func makeCounter() -> Machine<Numbered, ReadmeDoorEvent> {
            Machine(state: Numbered(number: 0)) { counter in
                counter.addRoutes(
                    event: .open,
                    transitions: [
                        Numbered(number: 0) => Numbered(number: 1), Numbered(number: 1) => Numbered(number: 2),
                    ])
                // Over every integer: cannot be listed, so no path goes through it.
                counter.addRouteMapping { event, state, _ in
                    event == .close ? Numbered(number: state.number + 1) : nil
                }
            }
        }
        let paths = makeCounter().shortestPaths(maxLength: 8)
        #expect(paths.paths.map(\.target.number) == [0, 1, 2])
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        expectReplays(paths, on: makeCounter)
        // Shorter paths than some states need: those are left out.
        let short = makeCounter().shortestPaths(maxLength: 1)
        #expect(short.paths.map(\.target.number) == [0, 1])
        #expect(short.unreachedStates == [Numbered(number: 2)])
        #expect(short.uncoveredRoutes == [1])
    }

    @Test func tenThousandRouteRingIsQuick() {
        let count = 10_000
        let ring = Machine<Numbered, ReadmeDoorEvent>(state: Numbered(number: 0)) { machine in
            for index in 0..<count {
                machine.addRoutes(
                    event: .close, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
            }
        }
        let description = ring.describe()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            // Linear search; the paths to all 10,000 states would total 50 million steps.
            let paths = description.shortestPaths()
            #expect(paths.paths.count == 65)
            #expect(paths.unreachedStates.count == count - 65)
            let covering = description.routeCoveringPaths(maxLength: count)
            #expect(covering.paths.count == 1)
            #expect(covering.uncoveredRoutes.isEmpty)
        }
        #expect(elapsed < .seconds(20))
    }

    @Test func definitionPathsReplayOnItsMachines() {
        let matter = Definition<Phase, Change, String>(initialState: .solid) {
            From(.solid) { On(.melt, transitionTo: .liquid, emit: "melted") }
            From(.liquid) {
                On(.freeze, transitionTo: .solid, emit: "froze")
                On(.vaporize, transitionTo: .gas, emit: "vaporized")
            }
            From(.gas) { On(.condense, transitionTo: .liquid, emit: "condensed") }
        }
        let description = matter.describe()
        let paths = description.shortestPaths()
        #expect(paths.paths.map(\.target) == [.solid, .liquid, .gas])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2])
        expectReplays(paths, on: { matter.makeMachine() })
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: { matter.makeMachine() })
    }

    /// A workshop: a compound state with a final child and a done route, a
    /// parallel state, and a compound state with history.
    private func makeWorkshop() -> Machine<Work, Order> {
        Machine(state: .idle) { workshop in
            workshop.addChildren([.cutting, .sanding, .finished], to: .running)
            workshop.addFinalState(.finished)
            workshop.addRegions([.left, .right], to: .split)
            workshop.addRoutes(event: .start, transitions: [.idle => .running])
            workshop.addRoutes(event: .sand, transitions: [.cutting => .sanding])
            workshop.addRoutes(event: .stop, transitions: [.sanding => .finished])
            workshop.addDoneRoute(.running => .idle)
            workshop.addRoutes(event: .split, transitions: [.idle => .split])
        }
    }

    @Test func doneRoutesAreTakenAndParallelStatesAreLeftOut() throws {
        let description = makeWorkshop().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.running]?.finalState == .cutting)
        #expect(byTarget[.sanding]?.steps.count == 2)
        // Entering `finished` completes `running`, whose done route leads back to `idle`.
        #expect(byTarget[.finished] == nil)
        // Several atomic states are active inside `split`: not modelled.
        #expect(paths.unreachedStates == [.finished, .split, .left, .right])
        expectReplays(paths, on: makeWorkshop)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes == [4])
        let stopping = try #require(covering.paths.first { $0.routes.contains(3) })
        #expect(stopping.finalState == .idle)
        expectReplays(covering, on: makeWorkshop)
    }

    @Test func historyIsNotGuessed() {
        func makeRemembering() -> Machine<Work, Order> {
            Machine(state: .idle) { workshop in
                workshop.addChildren([.cutting, .sanding], to: .running)
                workshop.addHistory(.shallow, to: .running)
                workshop.addRoutes(event: .start, transitions: [.idle => .running])
                workshop.addRoutes(event: .sand, transitions: [.cutting => .sanding])
                workshop.addRoutes(event: .stop, transitions: [.running => .idle])
            }
        }
        let paths = makeRemembering().shortestPaths()
        // Entering `running` goes through its history, which depends on the past.
        #expect(paths.paths.map(\.target) == [.idle])
        #expect(paths.unreachedStates == [.running, .cutting, .sanding])
        #expect(paths.uncoveredRoutes == [0, 1, 2])
    }

    @Test func anUnsettledStartGivesNoPaths() {
        let relay = Machine<Light, Switch>(state: .on) { light in
            light.addEventlessRoute(.on => .bright)
            light.addRoutes(event: .toggle, transitions: [.bright => .off])
        }
        // Whether a fresh machine has taken the eventless route yet is not modelled.
        let paths = relay.shortestPaths()
        #expect(paths.paths.isEmpty)
        #expect(paths.unreachedStates == [.on, .bright, .off])
        #expect(paths.uncoveredRoutes == [0, 1])
    }

    @Test func aFinishedMachineTakesNoFurtherSteps() {
        func makeOneShot() -> Machine<Light, Switch> {
            Machine(state: .off) { light in
                light.addFinalState(.broken)
                light.addRoutes(event: .smash, transitions: [.off => .broken])
                light.addRoutes(event: .repair, transitions: [.broken => .fixed])
            }
        }
        let paths = makeOneShot().shortestPaths()
        // The states come in the order they were named: `broken` by `addFinalState`.
        #expect(paths.paths.map(\.target) == [.broken, .off])
        #expect(paths.unreachedStates == [.fixed])
        #expect(paths.uncoveredRoutes == [1])
        expectReplays(paths, on: makeOneShot)
        let finished = makeOneShot()
        #expect(finished.tryEvent(.smash))
        #expect(!finished.tryEvent(.repair))
    }
}
