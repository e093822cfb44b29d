import Switchyard
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

private enum Music: StateType, CaseIterable {
    case player
    case transport, stopped, active, playing, paused, ended
    case volume, normal, muted
}

private enum Button: EventType {
    case play, pause, stop, mute, skip
}

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

@Suite struct ValidationTests {
    /// The demo's music player.
    private func makePlayer() -> Machine<Music, Button> {
        Machine(state: .player, delivery: .runToCompletion) { music in
            music.addRegions([.transport, .volume], to: .player)
            music.addChildren([.stopped, .active], to: .transport)
            music.addChildren([.playing, .paused, .ended], to: .active)
            music.addHistory(.shallow, to: .active)
            music.addFinalState(.ended)
            music.addChildren([.normal, .muted], to: .volume)
            music.addRoutes(event: .play, transitions: [.stopped => .active, .paused => .playing])
            music.addRoutes(event: .pause, transitions: [.playing => .paused])
            music.addRoutes(event: .stop, transitions: [.active => .stopped])
            music.addRoutes(event: .mute, transitions: [.normal => .muted, .muted => .normal])
            music.addRoutes(event: .skip, transitions: [.playing => .ended, .paused => .ended])
            music.addDoneRoute(.active => .stopped)
            for state in Music.allCases {
                music.addEntryHandler(state) { _ in }
                music.addExitHandler(state) { _ in }
            }
            music.addErrorHandler { _ in }
            music.addAnyHandler(.any => .any) { _ in }
        }
    }

    @Test func soundMachinesHaveNoDiagnostics() {
        #expect(makeReadmeDoor().validate() == [])
        #expect(makePlayer().validate() == [])
    }

    @Test func aStateNoRouteReachesIsReported() {
        let machine = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open) { machine in
            machine.addRoutes(event: .close, transitions: [.open => .closed, .closed => .open])
            machine.addRoutes(event: .unlock, transitions: [.locked => .open])
        }
        #expect(machine.validate() == [.unreachableState(.locked)])
        #expect(
            machine.validate().map(\.description) == ["state locked is never reached from the initial configuration"])
    }

    @Test func reachabilityFollowsListedMappings() {
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state0])
            machine.addRoutes(event: .event1, transitions: [.state2 => .state0, .state3 => .state0])
            // Both types are CaseIterable: the mapping's moves are listed, and reach state2 only.
            machine.addRouteMapping { event, state, _ in event == .event2 && state == .state1 ? .state2 : nil }
        }
        #expect(machine.validate() == [.unreachableState(.state3)])
    }

    @Test func anUnlistedMappingMightReachAnyState() {
        // An unlisted mapping (the event type is not CaseIterable) might reach anything.
        let machine = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open) { machine in
            machine.addRoutes(event: .close, transitions: [.open => .closed, .closed => .open])
            machine.addRoutes(event: .unlock, transitions: [.locked => .open])
            machine.addRouteMapping { _, _, _ in nil }
        }
        #expect(machine.validate() == [])
    }

    @Test func aStateThatCannotBeLeftIsReported() {
        let machine = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open) { machine in
            machine.addRoutes(event: .close, transitions: [.open => .closed, .closed => .open])
            machine.addRoutes(event: .lock, transitions: [.closed => .locked])
            // Staying is not leaving.
            machine.addRoutes(event: .unlock, transitions: [.locked => .locked])
        }
        #expect(machine.validate() == [.inescapableState(.locked)])
        #expect(machine.validate().map(\.description) == ["state locked cannot be left and is not final"])
    }

    @Test func aRouteFromAnAncestorOrFromAnyLeavesAState() {
        let machine = Machine<Music, Button>(state: .active) { machine in
            machine.addChildren([.playing, .paused], to: .active)
            machine.addRoutes(event: .pause, transitions: [.playing => .paused])
            machine.addRoutes(event: .stop, transitions: [.active => .stopped])
            machine.addRoutes(event: .play, transitions: [.any => .active])
        }
        #expect(machine.validate() == [])
        let stuck = Machine<Music, Button>(state: .active) { machine in
            machine.addChildren([.playing, .paused], to: .active)
            machine.addRoutes(event: .pause, transitions: [.playing => .paused])
            // Into `paused` again: it is not left.
            machine.addRoutes(event: .play, transitions: [.active => .paused])
        }
        #expect(stuck.validate() == [.inescapableState(.paused)])
    }

    @Test func anUnconditionalRouteShadowsALaterOneWithTheSameTriggerAndSource() {
        let machine = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open) { machine in
            machine.addRoutes(event: .close, transitions: [.open => .closed, .closed => .open])
            machine.addRoutes(event: .close, transitions: [.open => .locked, .locked => .open])
            // Conditional, listed, or from `.any` while the other is exact: not shadowed.
            machine.addRoutes(event: .close, transitions: [.any => .closed])
            machine.addRoutes(event: .lock, transitions: [.closed => .locked]) { _ in true }
            machine.addRoutes(event: .lock, transitions: [.closed => .open])
            machine.addRoutes(event: .open, routes: [[.closed, .locked] => .open])
            machine.addRoutes(event: .open, routes: [[.closed, .locked] => .open])
            // A state request names its target: only the same target competes.
            machine.addRoute(.open => .closed)
            machine.addRoute(.open => .locked)
            machine.addRoute(.open => .closed)
        }
        #expect(
            machine.validate() == [
                .shadowedRoute(2, by: 0, source: .open), .shadowedRoute(11, by: 9, source: .open),
            ])
        #expect(
            machine.validate().first?.description
                == "route 2 from open is never taken: route 0, added before it with the same trigger and source, has no condition"
        )
    }

    @Test func aHandlerForATransitionNoRouteAllowsIsReported() throws {
        let machine = Machine<ReadmeDoor, ReadmeDoorEvent>(state: .open) { machine in
            machine.addRoutes(event: .close, transitions: [.open => .closed])
            machine.addRoute(.closed => .open)
            machine.addHandler(event: .close) { _ in }
            machine.addHandler(event: .lock) { _ in }
            machine.addHandler(event: .any) { _ in }
            machine.addHandler(.open => .closed) { _ in }
            machine.addHandler(.closed => .locked) { _ in }
            machine.addAnyHandler(.any => .open) { _ in }
            machine.addAnyHandler(.any => .locked) { _ in }
            machine.addAnyHandler(.closed => .any) { _ in }
            machine.addErrorHandler { _ in }
        }
        #expect(
            machine.validate() == [
                // States named only by handlers are states too.
                .unreachableState(.locked), .inescapableState(.locked),
                .unusedHandler(1, .event(.lock)), .unusedHandler(4, .transition(from: .closed, to: .locked)),
                .unusedHandler(6, .anyTransition(from: nil, to: .locked)),
            ])
        #expect(
            machine.validate().suffix(3).map(\.description) == [
                "handler 1 of event lock is registered for a transition no route allows",
                "handler 4 of closed => locked is registered for a transition no route allows",
                "handler 6 of any transition any => locked is registered for a transition no route allows",
            ])
        let handlers = machine.describe().handlers
        #expect(handlers.count == 9)
        #expect(handlers[3].kind == .transition(from: .open, to: .closed))
        #expect(handlers[3].order == 100)
    }

    @Test func handlersMatchStatesInsideTheRoutesStates() {
        let player = makePlayer()
        // `stop` leaves `active` from `playing` or `paused`; `play` enters `playing` inside `active`.
        player.addHandler(.playing => .stopped) { _ in }
        player.addHandler(.stopped => .playing) { _ in }
        player.addHandler(.transport => .active) { _ in }
        player.addHandler(.muted => .playing) { _ in }
        #expect(player.validate() == [.unusedHandler(25, .transition(from: .muted, to: .playing))])
    }

    @Test func aCycleOfUnconditionalEventlessRoutesIsReported() {
        let machine = Machine<Music, Button>(state: .stopped) { machine in
            machine.addChildren([.playing, .paused], to: .active)
            machine.addRoutes(event: .play, transitions: [.stopped => .active])
            machine.addEventlessRoute(.playing => .ended)
            machine.addEventlessRoute(.ended => .active)
            // A condition, or a route that an earlier conditional one may preempt, settles.
            machine.addEventlessRoute(.paused => .normal) { _ in true }
            machine.addEventlessRoute(.normal => .paused)
            machine.addRoutes(event: .stop, transitions: [.active => .stopped, .ended => .stopped])
            machine.addRoutes(event: .mute, transitions: [.stopped => .normal, .normal => .stopped])
        }
        #expect(machine.validate() == [.eventlessCycle(routes: [1, 2], states: [.playing, .ended])])
        #expect(
            machine.validate().map(\.description) == [
                "eventless routes 1, 2 have no condition and form a cycle: playing -> ended -> playing"
            ])
    }

    @Test func routesOutOfFinalStatesAreReportedForEachFinalSource() {
        let machine = Machine<Music, Button>(state: .active) { machine in
            machine.addChildren([.playing, .ended], to: .active)
            machine.addFinalState(.ended)
            machine.addFinalState(.stopped)
            machine.addRoutes(event: .skip, transitions: [.playing => .ended])
            machine.addRoutes(event: .play, transitions: [.ended => .playing])
            machine.addRoutes(event: .stop, routes: [[.playing, .ended] => .stopped])
            machine.addRoutes(event: .play, transitions: [.stopped => .active])
            // From `.any` or an ancestor, a final state is left as SCXML leaves it.
            machine.addRoutes(event: .mute, transitions: [.active => .stopped, .any => .active])
        }
        #expect(
            machine.validate() == [
                .routeFromFinalState(1, state: .ended), .routeFromFinalState(2, state: .ended),
                .routeFromFinalState(3, state: .stopped),
            ])
        #expect(
            machine.validate().first?.description
                == "route 1 leaves final state ended, which SCXML does not allow: it is left out of the SCXML export, and taken only while ended is active inside its parent, never once it has finished the machine"
        )
    }

    @Test func theEngineTakesARouteOutOfAFinalChildAsTheDiagnosticSays() {
        let machine = Machine<Music, Button>(state: .active) { machine in
            machine.addChildren([.playing, .ended], to: .active)
            machine.addFinalState(.ended)
            machine.addFinalState(.stopped)
            machine.addRoutes(event: .skip, transitions: [.playing => .ended, .active => .stopped])
            machine.addRoutes(event: .play, transitions: [.ended => .playing, .stopped => .active])
        }
        #expect(machine.tryEvent(.skip))
        #expect(machine.tryEvent(.play))
        #expect(machine.state == .playing)
        #expect(machine.tryEvent(.skip) && machine.tryEvent(.skip))
        #expect(machine.isFinished)
        #expect(!machine.tryEvent(.play))
    }

    @Test func aRingOfRoutesValidatesInLinearTime() {
        func ring(_ count: Int) -> MachineDescription<Numbered, ReadmeDoorEvent> {
            Machine<Numbered, ReadmeDoorEvent>(state: Numbered(number: 0)) { machine in
                for index in 0..<count {
                    machine.addRoutes(
                        event: .close,
                        transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
                }
            }.describe()
        }
        func threadCPUTime() -> Duration {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
        }
        let small = ring(10_000)
        let large = ring(100_000)
        var best = (small: Duration.seconds(1_000), large: Duration.seconds(1_000))
        for _ in 0..<3 {
            var start = threadCPUTime()
            #expect(small.validate() == [])
            best.small = min(best.small, threadCPUTime() - start)
            start = threadCPUTime()
            #expect(large.validate() == [])
            best.large = min(best.large, threadCPUTime() - start)
        }
        // Linear work takes about 10 times as long, quadratic 100 times.
        let ratio = best.large / best.small
        #expect(ratio < 30, "10 times as many routes took \(ratio) times as long to validate")
    }
}
