import Foundation
import Switchyard
import Testing

// Saving and restoring a configuration with its recorded history: JSON round
// trips, handlers only when asked, and every kind of bad snapshot refused with
// the machine unchanged.

private enum Song: String, StateType, Codable, CaseIterable {
    case off, on, editing, typing, selecting, browsing, list, detail
    case lights, kitchen, kitchenOff, kitchenOn, hall, hallOff, hallOn
}

private enum Key: EventType {
    case power, select, browse, open, kitchen, hall
}

/// off / on { editing { typing, selecting }, browsing { list, detail } } with
/// deep history on `on`; lights ‖ kitchen { off, on } ‖ hall { off, on }.
private func makeMachine(log: Log = Log()) -> Machine<Song, Key> {
    Machine(state: .off) { machine in
        machine.addChildren([.editing, .browsing], to: .on)
        machine.addChildren([.typing, .selecting], to: .editing)
        machine.addChildren([.list, .detail], to: .browsing)
        machine.addHistory(.deep, to: .on)
        machine.addHistory(.shallow, to: .editing)
        machine.addRegions([.kitchen, .hall], to: .lights)
        machine.addChildren([.kitchenOff, .kitchenOn], to: .kitchen)
        machine.addChildren([.hallOff, .hallOn], to: .hall)
        machine.addRoutes(event: .power, transitions: [.off => .on, .on => .off])
        machine.addRoutes(event: .select, transitions: [.typing => .selecting])
        machine.addRoutes(event: .browse, transitions: [.editing => .browsing, .browsing => .editing])
        machine.addRoutes(event: .open, transitions: [.list => .detail])
        machine.addRoutes(event: .kitchen, transitions: [.off => .lights, .kitchenOff => .kitchenOn])
        for state in Song.allCases {
            machine.addEntryHandler(state) { _ in log("enter \(state)") }
            machine.addExitHandler(state) { _ in log("exit \(state)") }
        }
    }
}

private enum Main: StateType {
    case idle
    case sub(Sub)
}

private enum Sub: StateType {
    case s0, s1
}

private enum Step: EventType {
    case go
}

/// Encodes and decodes through JSON.
private func roundTrip(_ snapshot: MachineSnapshot<Song>) throws -> MachineSnapshot<Song> {
    try JSONDecoder().decode(MachineSnapshot<Song>.self, from: JSONEncoder().encode(snapshot))
}

@Suite struct SnapshotTests {
    @Test func aSnapshotWithHistoryRoundTripsThroughJSONIntoAFreshMachine() throws {
        let original = makeMachine()
        original <-! .power <-! .select <-! .browse <-! .open <-! .power
        let saved = original.snapshot()
        #expect(saved.activeStates == [.off])
        #expect(saved.history == [.on: [.detail], .editing: [.selecting]])

        let log = Log()
        let copy = makeMachine(log: log)
        try copy.restore(try roundTrip(saved))

        #expect(log.lines.isEmpty)
        #expect(copy.configuration == original.configuration)
        #expect(copy.recordedHistory(of: .on) == [.detail])
        // The restored history is used: power enters on through it.
        copy <-! .power
        #expect(copy.configuration == [.on, .browsing, .detail])
        copy <-! .browse
        #expect(copy.configuration == [.on, .editing, .selecting])
    }

    @Test func aSnapshotOfRegionsRoundTrips() throws {
        let original = makeMachine()
        original <-! .kitchen <-! .kitchen
        let copy = makeMachine()
        try copy.restore(try roundTrip(original.snapshot()))
        #expect(copy.configuration == [.lights, .kitchen, .kitchenOn, .hall, .hallOff])
        #expect(copy.state == .lights)
    }

    @Test func restoringCanRunTheExitAndEntryHandlersOfTheMove() throws {
        let log = Log()
        let machine = makeMachine(log: log)
        machine <-! .power
        log.clear()

        try machine.restore(
            MachineSnapshot(activeStates: [.on, .browsing, .list]), runningHandlers: true)

        #expect(machine.state == .list)
        #expect(log.lines == ["exit typing", "exit editing", "enter browsing", "enter list"])
    }

    @Test func aFlatMachineSavesAndRestoresItsState() throws {
        let machine = Machine<MyState, MyEvent>(state: .state0) { $0.addRoute(.state0 => .state1) }
        machine <- .state1
        let saved = machine.snapshot()
        #expect(saved == MachineSnapshot(activeStates: [.state1]))
        machine.addRoute(.state1 => .state2)
        machine <- .state2
        try machine.restore(saved)
        #expect(machine.state == .state1)
        #expect(machine.tryState(.state2))
    }

    // MARK: Refused

    @Test(arguments: [
        (MachineSnapshot<Song>(activeStates: []), SnapshotError.Reason.noActiveState),
        (MachineSnapshot(activeStates: [.on, .editing, .typing, .list]), .missingAncestor),
        (MachineSnapshot(activeStates: [.on, .editing, .typing, .browsing, .list]), .twoActiveChildren),
        (MachineSnapshot(activeStates: [.off, .on, .editing, .typing]), .twoActiveChildren),
        (MachineSnapshot(activeStates: [.on, .editing]), .missingChild),
        (MachineSnapshot(activeStates: [.lights, .kitchen, .kitchenOn]), .missingRegion),
        (MachineSnapshot(activeStates: [.off], history: [.browsing: [.list]]), .unexpectedHistory),
        (MachineSnapshot(activeStates: [.off], history: [.editing: [.list]]), .unexpectedHistory),
        (MachineSnapshot(activeStates: [.off], history: [.editing: [.typing, .selecting]]), .unexpectedHistory),
        (MachineSnapshot(activeStates: [.off], history: [.on: [.browsing]]), .unexpectedHistory),
    ])
    fileprivate func anImpossibleSnapshotIsRefusedAndChangesNothing(
        snapshot: MachineSnapshot<Song>, reason: SnapshotError.Reason
    ) {
        let log = Log()
        let machine = makeMachine(log: log)
        machine <-! .power <-! .browse
        let before = (machine.configuration, machine.recordedHistory(of: .editing), machine.state)
        log.clear()

        #expect {
            try machine.restore(snapshot, runningHandlers: true)
        } throws: { error in
            (error as? SnapshotError)?.reason == reason
        }

        #expect(machine.configuration == before.0)
        #expect(machine.recordedHistory(of: .editing) == before.1)
        #expect(machine.state == before.2)
        #expect(log.lines.isEmpty)
    }

    @Test func aSnapshotNamingAStateTheMachineDoesNotKnowIsRefused() throws {
        let machine = Machine<MyState, MyEvent>(state: .state0) { $0.addChildren([.state1], to: .state0) }
        let error = try #require(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.state3]))
        }
        #expect(error.reason == .unknownState)
        #expect(error.description.contains("state3"))
        #expect(machine.configuration == [.state0, .state1])
    }

    @Test func aFlatMachineRefusesMoreThanOneStateOrHistory() {
        let machine = Machine<MyState, MyEvent>(state: .state0) { $0.addRoute(.state0 => .state1) }
        #expect(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.state0, .state1]))
        }
        #expect(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.state1], history: [.state0: [.state1]]))
        }
        #expect(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.state3]))
        }
        #expect(machine.state == .state0)
    }

    @Test func restoringDuringAStepIsRefused() {
        let machine = makeMachine()
        var reason: SnapshotError.Reason?
        machine.addEntryHandler(.on) { [unowned machine] _ in
            do {
                try machine.restore(MachineSnapshot(activeStates: [.off]))
            } catch let error as SnapshotError {
                reason = error.reason
            } catch {
                Issue.record("restore threw \(error)")
            }
        }
        machine <-! .power
        #expect(reason == .duringStep)
        #expect(machine.state == .typing)
    }

    @Test func aSnapshotNamingTwoStatesOfOneNestedMachineIsRefused() throws {
        let root = Machine<Main, Step>(state: .idle) { $0.addRoute(.idle => .sub(.s0)) }
        let sub = Machine<Sub, Step>(state: .s0) { $0.addRoute(.s0 => .s1) }
        root.nest(sub, as: Main.sub)
        root <- .sub(.s0)

        let error = try #require(throws: SnapshotError.self) {
            try root.restore(MachineSnapshot(activeStates: [.sub(.s0), .sub(.s1)]))
        }
        #expect(error.reason == .twoActiveChildren)
        #expect(error.description.contains("sub(") && error.description.contains("s0"))
        #expect(root.state == .sub(.s0))
        #expect(sub.state == .s0)
    }

    // MARK: During a step, in every kind of handler

    /// What a restore from a handler threw, recorded by the handler.
    private final class Attempt {
        var reasons: [SnapshotError.Reason?] = []

        func restore<S, E>(_ machine: Machine<S, E>, to state: S) {
            do {
                try machine.restore(MachineSnapshot(activeStates: [state]))
                reasons.append(nil)
            } catch {
                reasons.append(error.reason)
            }
        }
    }

    @Test func aFlatMachineRefusesToRestoreFromAnyOfItsHandlers() {
        let attempt = Attempt()
        let machine = Machine<MyState, MyEvent>(state: .state0)
        machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        machine.addHandler(event: .event0) { [unowned machine] context in
            attempt.restore(machine, to: .state0)
            // The handlers after it see the state they were told about.
            #expect(machine.state == context.toState)
        }
        machine.addHandler(.state2 => .state3) { [unowned machine] _ in attempt.restore(machine, to: .state0) }
        machine.addAnyHandler(.any => .any) { [unowned machine] _ in attempt.restore(machine, to: .state0) }
        machine.addErrorHandler { [unowned machine] _ in attempt.restore(machine, to: .state0) }
        machine.addRouteChain(.state1 => .state2 => .state3) { [unowned machine] _ in
            attempt.restore(machine, to: .state0)
        }

        machine <-! .event0  // event and any handlers
        machine <- .state2  // any handler
        machine <- .state3  // transition, any and chain handlers
        machine <-! .event1  // the error handler

        #expect(attempt.reasons.count == 7)
        #expect(attempt.reasons.allSatisfy { $0 == .duringStep })
        #expect(machine.state == .state3)
    }

    @Test func aStatechartRefusesToRestoreFromAnyOfItsHandlers() {
        let attempt = Attempt()
        let machine = makeMachine()
        machine.addEntryHandler(.on) { [unowned machine] _ in attempt.restore(machine, to: .off) }
        machine.addExitHandler(.off) { [unowned machine] _ in attempt.restore(machine, to: .off) }
        machine.addHandler(event: .power) { [unowned machine] _ in attempt.restore(machine, to: .off) }
        machine.addAnyHandler(.off => .any) { [unowned machine] _ in attempt.restore(machine, to: .off) }
        machine.addErrorHandler { [unowned machine] _ in attempt.restore(machine, to: .off) }

        machine <-! .power  // exit, event, any and entry handlers
        machine <-! .kitchen  // the error handler

        #expect(attempt.reasons.count == 5)
        #expect(attempt.reasons.allSatisfy { $0 == .duringStep })
        #expect(machine.state == .typing)
    }

    @Test func aHierarchyRefusesToRestoreFromTheHandlersOfAnyOfItsMachines() {
        let attempt = Attempt()
        let root = Machine<Main, Step>(state: .idle) { $0.addRoutes(event: .go, transitions: [.idle => .sub(.s0)]) }
        let sub = Machine<Sub, Step>(state: .s0) { $0.addRoutes(event: .go, transitions: [.s0 => .s1]) }
        root.nest(sub, as: Main.sub)
        sub.addEntryHandler(.s0) { [unowned root] _ in attempt.restore(root, to: .idle) }
        sub.addHandler(event: .go) { [unowned root] _ in attempt.restore(root, to: .idle) }
        root.addHandler(event: .go) { [unowned root] _ in attempt.restore(root, to: .idle) }

        root <-! .go  // the root's event handler, then sub's entry handler
        sub <-! .go  // sub's event handler, then the root's

        #expect(attempt.reasons.count >= 4)
        #expect(attempt.reasons.allSatisfy { $0 == .duringStep })
        #expect(root.state == .sub(.s1))
    }

    // MARK: Decisions

    @Test func aSnapshotNamingAStateTwiceIsTheSameAsNamingItOnce() throws {
        let machine = makeMachine()
        try machine.restore(MachineSnapshot(activeStates: [.on, .browsing, .list, .browsing, .list]))
        #expect(machine.configuration == [.on, .browsing, .list])

        let flat = Machine<MyState, MyEvent>(state: .state0) { $0.addRoute(.state0 => .state1) }
        try flat.restore(MachineSnapshot(activeStates: [.state1, .state1]))
        #expect(flat.state == .state1)
    }

    @Test func restoringBeforeStartBeginsTheMachineSoStartDoesNothing() throws {
        let log = Log()
        let machine = makeMachine(log: log)
        try machine.restore(MachineSnapshot(activeStates: [.on, .browsing, .detail]))
        #expect(log.lines.isEmpty)

        #expect(!machine.start())
        #expect(log.lines.isEmpty)
        #expect(machine.configuration == [.on, .browsing, .detail])
    }

    // MARK: History that names what cannot be active together

    @Test(arguments: [
        [Stereo.a1, .a2, .b1],
        [.a1, .a2],
        [.a1, .r1],
        [.r1, .r2],
        [.p, .a1],
    ])
    fileprivate func aDeepHistoryNamingWhatCannotBeActiveTogetherIsRefused(recorded: [Stereo]) throws {
        let machine = makeStereo()
        let error = try #require(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.x], history: [.p: recorded]))
        }
        #expect(error.reason == .unexpectedHistory)
        #expect(machine.configuration == [.x])
        #expect(machine.recordedHistory(of: .p).isEmpty)
        // The machine still works: in and out, through its own history.
        machine <-! .open
        #expect(Set(machine.configuration) == [.p, .r1, .a1, .r2, .b1])
        machine <-! .leave
        #expect(machine.configuration == [.y])
    }

    @Test func aDeepHistoryOfEveryRegionRestoresAndIsEnteredThrough() throws {
        let machine = makeStereo()
        try machine.restore(MachineSnapshot(activeStates: [.x], history: [.p: [.a2, .b2]]))
        machine <-! .open
        #expect(Set(machine.configuration) == [.p, .r1, .a2, .r2, .b2])
        machine <-! .leave
        #expect(machine.configuration == [.y])
    }

    @Test func aParallelStateWithShallowHistoryRestoresItsOwnSnapshot() throws {
        let machine = makeStereo(history: .shallow)
        machine <-! .open <-! .leave
        let snapshot = machine.snapshot()
        #expect(snapshot.history[.p] == [.r1, .r2])

        let fresh = makeStereo(history: .shallow)
        try fresh.restore(snapshot)
        #expect(fresh.snapshot() == snapshot)
        fresh <-! .back
        #expect(Set(fresh.configuration) == [.p, .r1, .a1, .r2, .b1])
    }

    @Test(arguments: [[Stereo.r1, .r1], [.a1], [.x]])
    fileprivate func aShallowHistoryOfAParallelStateNamesOnlyItsRegions(recorded: [Stereo]) throws {
        let machine = makeStereo(history: .shallow)
        let error = try #require(throws: SnapshotError.self) {
            try machine.restore(MachineSnapshot(activeStates: [.x], history: [.p: recorded]))
        }
        #expect(error.reason == .unexpectedHistory)
        #expect(machine.configuration == [.x])
    }
}

private enum Stereo: StateType {
    case x, p, r1, a1, a2, r2, b1, b2, y
}

private enum StereoEvent: EventType {
    case open, leave, back
}

/// x, y, and p with regions r1 { a1, a2 } ‖ r2 { b1, b2 }, keeping `history`.
private func makeStereo(history: HistoryKind = .deep) -> Machine<Stereo, StereoEvent> {
    Machine(state: .x) { machine in
        machine.addRegions([.r1, .r2], to: .p)
        machine.addChildren([.a1, .a2], to: .r1)
        machine.addChildren([.b1, .b2], to: .r2)
        machine.addHistory(history, to: .p)
        machine.addRoutes(event: .open, transitions: [.x => .p])
        machine.addRoutes(event: .leave, transitions: [.p => .y])
        machine.addRoutes(event: .back, transitions: [.y => .p])
    }
}
