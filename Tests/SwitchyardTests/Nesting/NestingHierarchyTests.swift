import Foundation
import Switchyard
import Testing

// Three levels of nested machines: an app whose `running` state holds a
// screen machine, whose `settings` state holds a panel machine. The app keeps
// deep history of `running`, the screen shallow history of `settings`. Every
// handler of every machine logs, so each step's whole order is asserted.

private enum Nav: EventType {
    case open, next, back, leave, quit
}

private enum Panel: String, StateType, Codable {
    case general, privacy, advanced
}

private enum Screen: StateType, Codable, CustomStringConvertible {
    case home, settings
    case panel(Panel)

    var description: String {
        switch self {
        case .home: "home"
        case .settings: "settings"
        case .panel(let panel): panel.rawValue
        }
    }
}

private enum App: StateType, Codable, CustomStringConvertible {
    case launch, running
    case screen(Screen)

    var description: String {
        switch self {
        case .launch: "launch"
        case .running: "running"
        case .screen(let screen): screen.description
        }
    }
}

/// The three machines, nested bottom-up (the panel into the screen, then
/// the screen into the app) or top-down.
private struct Hierarchy {
    let app: Machine<App, Nav>
    let screen: Machine<Screen, Nav>
    let panel: Machine<Panel, Nav>
    let log = Log()

    init(bottomUp: Bool) {
        let log = self.log
        panel = Machine(state: .general) { panel in
            panel.addRoutes(event: .next, transitions: [.general => .privacy, .privacy => .advanced])
            panel.addRoutes(event: .back, transitions: [.privacy => .general, .advanced => .privacy])
            Self.logEverything(of: panel, as: "panel", states: [.general, .privacy, .advanced], to: log)
        }
        screen = Machine(state: .home) { screen in
            screen.addRoutes(event: .open, transitions: [.home => .settings])
            screen.addRoutes(event: .leave, transitions: [.settings => .home])
            screen.addRoutes(event: .back, transitions: [.settings => .home])
            Self.logEverything(of: screen, as: "screen", states: [.home, .settings], to: log)
        }
        app = Machine(state: .launch) { app in
            app.addRoutes(event: .open, transitions: [.launch => .running])
            app.addRoutes(event: .quit, transitions: [.running => .launch])
            Self.logEverything(of: app, as: "app", states: [.launch, .running], to: log)
        }
        if bottomUp {
            screen.nest(panel, under: .settings, as: Screen.panel)
            screen.addHistory(.shallow, to: .settings)
            app.nest(screen, under: .running, as: App.screen)
            app.addHistory(.deep, to: .running)
        } else {
            app.nest(screen, under: .running, as: App.screen)
            app.addHistory(.deep, to: .running)
            screen.nest(panel, under: .settings, as: Screen.panel)
            screen.addHistory(.shallow, to: .settings)
        }
    }

    private static func logEverything<S: StateType>(
        of machine: Machine<S, Nav>, as name: String, states: [S], to log: Log
    ) {
        machine.addAnyHandler(.any => .any) { log("\(name): \($0.fromState) => \($0.toState)") }
        machine.addErrorHandler { log("\(name) refused \($0.event.map { "\($0)" } ?? "\($0.toState)")") }
        for state in states {
            machine.addEntryHandler(state) { _ in log("\(name) enter \(state)") }
            machine.addExitHandler(state) { _ in log("\(name) exit \(state)") }
        }
    }

    /// Sends `event` to the app; expects it to move (or not) and to run
    /// exactly `lines`.
    func send(_ event: Nav, moves: Bool = true, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        log.clear()
        #expect(app.tryEvent(event) == moves, sourceLocation: sourceLocation)
        #expect(log.lines == lines, sourceLocation: sourceLocation)
    }

    /// Drives the hierarchy to the panel's privacy page, having quit once from
    /// its advanced page (so that both histories hold something).
    func driveToPrivacyWithHistory() {
        for event: Nav in [.open, .open, .next, .next, .quit, .open, .back] {
            app <-! event
        }
    }
}

@Suite struct NestingHierarchyTests {
    @Test(arguments: [true, false])
    func threeLevelsWithHistoryRunEveryHandlerInOrder(bottomUp: Bool) {
        let hierarchy = Hierarchy(bottomUp: bottomUp)
        let (app, screen, panel) = (hierarchy.app, hierarchy.screen, hierarchy.panel)
        #expect(app.state == .launch)
        #expect(screen.state == .home)

        hierarchy.send(.open, ["app exit launch", "app: launch => home", "app enter running", "screen enter home"])
        #expect(app.state == .screen(.home))
        #expect(app.configuration == [.running, .screen(.home)])

        // The screen handles it: the panel is not active yet.
        hierarchy.send(
            .open,
            [
                "screen exit home", "screen: home => general", "app: home => general", "screen enter settings",
                "panel enter general",
            ])
        #expect(app.state == .screen(.panel(.general)))
        #expect(screen.state == .panel(.general))
        #expect(panel.state == .general)

        // Driving the innermost machine directly moves all three.
        hierarchy.log.clear()
        #expect(panel.tryEvent(.next))
        #expect(
            hierarchy.log.lines == [
                "panel exit general", "panel: general => privacy", "screen: general => privacy",
                "app: general => privacy", "panel enter privacy",
            ])
        #expect(app.state == .screen(.panel(.privacy)))

        hierarchy.send(
            .next,
            [
                "panel exit privacy", "panel: privacy => advanced", "screen: privacy => advanced",
                "app: privacy => advanced", "panel enter advanced",
            ])

        // Neither nested machine knows `quit`: it bubbles to the app, and
        // leaving `running` exits the innermost machine first.
        hierarchy.send(
            .quit,
            [
                "panel exit advanced", "screen exit settings", "app exit running", "app: advanced => launch",
                "app enter launch",
            ])
        #expect(app.recordedHistory(of: .running) == [.screen(.panel(.advanced))])
        #expect(screen.recordedHistory(of: .settings) == [.panel(.advanced)])
        // Inactive machines report what entering them would give: history.
        #expect(screen.state == .panel(.advanced))
        #expect(panel.state == .advanced)
        #expect(!panel.isActive(.advanced))

        // Deep history brings all three back.
        hierarchy.send(
            .open,
            [
                "app exit launch", "app: launch => advanced", "app enter running", "screen enter settings",
                "panel enter advanced",
            ])
        #expect(app.state == .screen(.panel(.advanced)))

        hierarchy.send(
            .back,
            [
                "panel exit advanced", "panel: advanced => privacy", "screen: advanced => privacy",
                "app: advanced => privacy", "panel enter privacy",
            ])

        // The panel knows no `leave`: the screen takes it.
        hierarchy.send(
            .leave,
            [
                "panel exit privacy", "screen exit settings", "screen: privacy => home", "app: privacy => home",
                "screen enter home",
            ])
        #expect(panel.state == .privacy)
        hierarchy.log.clear()
        #expect(panel.attemptEvent(.next).failureReason == .inactive)
        #expect(panel.canTryEvent(.next) == nil)
        #expect(hierarchy.log.lines == ["panel refused next"])
        #expect(app.state == .screen(.home))

        // Shallow history of `settings` brings back the panel's page.
        hierarchy.send(
            .open,
            [
                "screen exit home", "screen: home => privacy", "app: home => privacy", "screen enter settings",
                "panel enter privacy",
            ])
        #expect(app.state == .screen(.panel(.privacy)))
    }

    @Test func theInnermostMachineWinsAndUnhandledEventsBubble() {
        let hierarchy = Hierarchy(bottomUp: true)
        let (app, panel) = (hierarchy.app, hierarchy.panel)
        hierarchy.driveToPrivacyWithHistory()
        #expect(app.state == .screen(.panel(.privacy)))

        // The screen has a `back` route from `settings`, but the panel,
        // inside it, has one from `privacy`: the panel's is taken.
        #expect(app.canTryEvent(.back) == .screen(.panel(.general)))
        #expect(app.hasRoute(event: .back, transition: .screen(.panel(.privacy)) => .screen(.panel(.general))))
        hierarchy.send(
            .back,
            [
                "panel exit privacy", "panel: privacy => general", "screen: privacy => general",
                "app: privacy => general", "panel enter general",
            ])

        // From `general` the panel has none: it bubbles to the screen.
        hierarchy.send(
            .back,
            [
                "panel exit general", "screen exit settings", "screen: general => home", "app: general => home",
                "screen enter home",
            ])
        #expect(panel.state == .general)

        // No machine of the hierarchy knows `back` from `home`: refused, and
        // only the error handlers of the machine asked run.
        hierarchy.send(.back, moves: false, ["app refused back"])
        #expect(app.attemptEvent(.back).failureReason == .noRoute)
        #expect(app.state == .screen(.home))
    }

    @Test(arguments: [nil, "token"])
    func userInfoReachesEveryHandlerOfANestedMachine(userInfo: String?) {
        let lamp = Machine<Lamp, Nav>(state: .off) { lamp in
            lamp.addRoutes(event: .next, transitions: [.off => .dim])
        }
        let room = Machine<Room, Nav>(state: .empty) { room in
            room.addRoutes(event: .open, transitions: [.empty => .occupied])
        }
        room.nest(lamp, under: .occupied, as: Room.lamp)
        var heard: [String] = []
        func record(_ name: String) -> (Machine<Lamp, Nav>.Context) -> Void {
            { heard.append("\(name) \($0.userInfo.map { "\($0)" } ?? "none")") }
        }
        lamp.addEntryHandler(.off, handler: record("enter off"))
        lamp.addExitHandler(.off, handler: record("exit off"))
        lamp.addHandler(event: .next, handler: record("next"))
        lamp.addAnyHandler(.off => .dim, handler: record("off => dim"))
        lamp.addErrorHandler(handler: record("refused"))

        room.tryEvent(.open, userInfo: userInfo)
        lamp.tryEvent(.next, userInfo: userInfo)
        lamp.tryEvent(.next, userInfo: userInfo)
        let expected = userInfo ?? "none"
        #expect(
            heard == [
                "enter off \(expected)", "exit off \(expected)", "next \(expected)", "off => dim \(expected)",
                "refused \(expected)",
            ])
    }

    @Test func aNestedMachineWithoutEventsIsDrivenByStatesAndEventsPassIt() {
        let lamp = Machine<Lamp, NoEvent>(state: .off) { lamp in
            lamp.addRoute(.off => .dim)
            lamp.addRoute(.dim => .bright)
        }
        let room = Machine<Room, Nav>(state: .empty) { room in
            room.addRoutes(event: .open, transitions: [.empty => .occupied])
            room.addRoutes(event: .quit, transitions: [.occupied => .empty])
        }
        room.nest(lamp, under: .occupied, as: Room.lamp)
        let log = Log()
        lamp.addHandler(.any => .any) { log("lamp: \($0.fromState) => \($0.toState)") }
        room.addAnyHandler(.any => .any) {
            log("room: \($0.fromState) => \($0.toState) on \($0.event.map { "\($0)" } ?? "-")")
        }

        room <-! .open
        lamp <- .dim
        room <- .lamp(.bright)
        #expect(lamp.state == .bright)
        #expect(room.configuration == [.occupied, .lamp(.bright)])
        // The lamp has no events: the room's `quit` is the room's to take.
        #expect(room.tryEvent(.quit))
        #expect(
            log.lines == [
                "room: empty => lamp off on open", "lamp: off => dim", "room: lamp off => lamp dim on -",
                "lamp: dim => bright", "room: lamp dim => lamp bright on -", "room: lamp bright => empty on quit",
            ])
        // Without history, the lamp starts again at its initial state, and
        // refuses to move while the room is empty.
        #expect(lamp.state == .off)
        #expect(lamp.attemptState(.dim).failureReason == .inactive)
        #expect(room.state == .empty)
    }
}

@Suite struct NestingSnapshotTests {
    @Test func theRootsSnapshotRoundTripsThroughJSONIntoAHierarchyBuiltTheOtherWay() throws {
        let original = Hierarchy(bottomUp: true)
        original.driveToPrivacyWithHistory()
        let snapshot = original.app.snapshot()
        #expect(snapshot.activeStates == [.running, .screen(.settings), .screen(.panel(.privacy))])
        #expect(
            snapshot.history == [
                .running: [.screen(.panel(.advanced))], .screen(.settings): [.screen(.panel(.advanced))],
            ])

        let data = try JSONEncoder().encode(snapshot)
        let copy = Hierarchy(bottomUp: false)
        try copy.app.restore(JSONDecoder().decode(MachineSnapshot<App>.self, from: data))
        #expect(copy.log.lines.isEmpty)
        #expect(copy.app.state == .screen(.panel(.privacy)))
        #expect(copy.screen.state == .panel(.privacy))
        #expect(copy.panel.state == .privacy)
        #expect(copy.app.configuration == original.app.configuration)
        #expect(copy.app.recordedHistory(of: .running) == [.screen(.panel(.advanced))])
        #expect(copy.screen.recordedHistory(of: .settings) == [.panel(.advanced)])

        // From here both hierarchies run the same handlers, histories included.
        for event: Nav in [.next, .leave, .open, .quit, .open, .back, .back] {
            original.log.clear()
            copy.log.clear()
            #expect(copy.app.tryEvent(event) == original.app.tryEvent(event))
            #expect(copy.log.lines == original.log.lines)
            #expect(copy.app.configuration == original.app.configuration)
            #expect(copy.panel.state == original.panel.state)
        }
    }

    @Test func aNestedMachinesSnapshotHoldsItsPartAndOnlyTheRootRestores() throws {
        let hierarchy = Hierarchy(bottomUp: true)
        hierarchy.driveToPrivacyWithHistory()
        let part = hierarchy.screen.snapshot()
        #expect(
            part
                == MachineSnapshot(
                    activeStates: [.settings, .panel(.privacy)], history: [.settings: [.panel(.advanced)]]))
        #expect(hierarchy.panel.snapshot() == MachineSnapshot(activeStates: [.privacy]))

        let error = #expect(throws: SnapshotError.self) {
            try hierarchy.screen.restore(MachineSnapshot(activeStates: [.home]))
        }
        #expect(error?.reason == .nestedMachine)
        #expect(hierarchy.app.state == .screen(.panel(.privacy)))
    }

    @Test func restoringWithHandlersRunsEveryMachinesExitsThenEntries() throws {
        let original = Hierarchy(bottomUp: true)
        original.driveToPrivacyWithHistory()
        let copy = Hierarchy(bottomUp: true)
        copy.app <-! .open
        copy.log.clear()
        try copy.app.restore(original.app.snapshot(), runningHandlers: true)
        #expect(copy.log.lines == ["screen exit home", "screen enter settings", "panel enter privacy"])
        #expect(copy.panel.state == .privacy)
        #expect(copy.screen.state == .panel(.privacy))
    }

    @Test func aSnapshotThatCannotBeAConfigurationChangesNothing() {
        let hierarchy = Hierarchy(bottomUp: true)
        hierarchy.driveToPrivacyWithHistory()
        hierarchy.log.clear()
        // The screen's `settings` is missing: the panel's page has no parent.
        let error = #expect(throws: SnapshotError.self) {
            try hierarchy.app.restore(MachineSnapshot(activeStates: [.running, .screen(.panel(.general))]))
        }
        #expect(error?.reason == .missingAncestor)
        #expect(hierarchy.app.state == .screen(.panel(.privacy)))
        #expect(hierarchy.panel.state == .privacy)
        #expect(hierarchy.log.lines.isEmpty)
    }

    @Test func statesTheRootCannotNameAreLeftOutAndTheirSnapshotRefused() throws {
        func build() -> (Machine<Room, Nav>, Machine<Lamp, NoEvent>) {
            let lamp = Machine<Lamp, NoEvent>(state: .off) { $0.addRoute(.off => .dim) }
            let room = Machine<Room, Nav>(state: .empty) { room in
                room.addRoutes(event: .open, transitions: [.empty => .occupied])
            }
            room.nest(lamp, under: .occupied)
            return (room, lamp)
        }
        let (room, lamp) = build()
        room <-! .open
        lamp <- .dim
        let snapshot = room.snapshot()
        #expect(snapshot.activeStates == [.occupied])

        let (copy, copiedLamp) = build()
        let error = #expect(throws: SnapshotError.self) { try copy.restore(snapshot) }
        #expect(error?.reason == .missingChild)
        #expect(copy.state == .empty)
        #expect(copiedLamp.state == .off)
    }

    @Test func statesOnlyTheHierarchyCanSeeAreImpliedByTheirDescendants() throws {
        func build() -> (Machine<Room, Nav>, Machine<Lamp, NoEvent>) {
            let lamp = Machine<Lamp, NoEvent>(state: .off) { $0.addRoute(.off => .dim) }
            let room = Machine<Room, Nav>(state: .empty) { room in
                room.addRoutes(event: .open, transitions: [.empty => .lamp(.off)])
            }
            // Nested as an enum case alone: the state holding the lamp's
            // states has no name in `Room`.
            room.nest(lamp, as: Room.lamp)
            return (room, lamp)
        }
        let (room, lamp) = build()
        room <-! .open
        lamp <- .dim
        let snapshot = room.snapshot()
        #expect(snapshot.activeStates == [.lamp(.dim)])

        let (copy, copiedLamp) = build()
        try copy.restore(snapshot)
        #expect(copy.state == .lamp(.dim))
        #expect(copiedLamp.state == .dim)
        #expect(copy.configuration == [.lamp(.dim)])
    }
}

private enum Lamp: String, StateType {
    case off, dim, bright
}

private enum Room: StateType, CustomStringConvertible {
    case empty, occupied
    case lamp(Lamp)

    var description: String {
        switch self {
        case .empty: "empty"
        case .occupied: "occupied"
        case .lamp(let lamp): "lamp \(lamp.rawValue)"
        }
    }
}

// Two machines as deep as each other, nested in the two regions of a parallel
// state, both moved by one event sent to the parent: their handlers of the
// transition run in the order the machines were nested (not the regions'
// order), then the parent's.

private enum Bulb: StateType {
    case off, on
}

private enum Console: StateType {
    case panel, left, right
}

private enum Flick: EventType {
    case flip
}

@Suite struct NestingDeliveryOrderTests {
    @Test func machinesAsDeepHearAStepInTheOrderTheyWereNested() {
        let log = Log()
        func bulb(_ name: String) -> Machine<Bulb, Flick> {
            Machine(state: .off) { bulb in
                bulb.addRoutes(event: .flip, transitions: [.off => .on, .on => .off])
                bulb.addHandler(event: .flip) { log("\(name) \($0.fromState) => \($0.toState)") }
            }
        }
        let console = Machine<Console, Flick>(state: .panel) { console in
            console.addRegions([.left, .right], to: .panel)
            console.addHandler(event: .flip) { _ in log("console") }
        }
        let first = bulb("first")
        let second = bulb("second")
        console.nest(first, under: .right)
        console.nest(second, under: .left)

        #expect(console.tryEvent(.flip))
        #expect(log.lines == ["first off => on", "second off => on", "console"])
        log.clear()
        // Sent to one of them, the event moves that machine's part only.
        #expect(second.tryEvent(.flip))
        #expect(log.lines == ["second on => off", "console"])
        #expect(first.state == .on && second.state == .off)
    }
}

// A machine nested in a machine that is then nested in a third: the innermost
// keeps deep history of its initial state, which must bring back what it
// recorded however the middle machine was handled before it was nested
// (its state read, which lays out its hierarchy, or the machine started).

private enum Dial: StateType {
    case on, low, high
}

private enum Shed: StateType {
    case closed, open
}

private enum Yard: StateType {
    case away, home
}

private enum Visit: EventType {
    case arrive, leave, unlock, lock, turnUp
}

@Suite struct NestingHistoryTests {
    /// A dial nested under the shed's `open`, whose `on` keeps deep history.
    private static func dial() -> Machine<Dial, Visit> {
        Machine(state: .on) { dial in
            dial.addChildren([.low, .high], to: .on, initial: .low)
            dial.addHistory(.deep, to: .on)
            dial.addRoutes(event: .turnUp, transitions: [.low => .high])
        }
    }

    private static func yard() -> Machine<Yard, Visit> {
        Machine(state: .away) { yard in
            yard.addRoutes(event: .arrive, transitions: [.away => .home])
            yard.addRoutes(event: .leave, transitions: [.home => .away])
        }
    }

    @Test(arguments: [false, true])
    func deepHistoryTwoMachinesDownHoldsWhetherOrNotTheMiddleWasReadBeforeNesting(readsState: Bool) {
        let dial = Self.dial()
        let shed = Machine<Shed, Visit>(state: .open)
        shed.nest(dial, under: .open)
        if readsState {
            #expect(shed.state == .open)
            #expect(dial.state == .low)
        }
        let yard = Self.yard()
        yard.nest(shed, under: .home)

        #expect(yard.tryEvent(.arrive))
        #expect(dial.configuration == [.on, .low])
        #expect(yard.tryEvent(.turnUp))
        #expect(yard.tryEvent(.leave))
        #expect(dial.configuration.isEmpty)
        // Entered by default, the dial enters `on`, whose deep history holds `high`.
        #expect(yard.tryEvent(.arrive))
        #expect(dial.configuration == [.on, .high])
        #expect(dial.state == .high)
    }

    @Test func deepHistoryTwoMachinesDownHoldsWhenTheMiddleBeganBeforeNesting() {
        let dial = Self.dial()
        let shed = Machine<Shed, Visit>(state: .closed) { shed in
            shed.addRoutes(event: .unlock, transitions: [.closed => .open])
            shed.addRoutes(event: .lock, transitions: [.open => .closed])
        }
        shed.nest(dial, under: .open)
        #expect(shed.start())
        let yard = Self.yard()
        yard.nest(shed, under: .home)

        #expect(yard.tryEvent(.arrive))
        #expect(shed.state == .closed)
        #expect(yard.tryEvent(.unlock))
        #expect(dial.configuration == [.on, .low])
        #expect(yard.tryEvent(.turnUp))
        #expect(yard.tryEvent(.lock))
        #expect(yard.tryEvent(.unlock))
        #expect(dial.configuration == [.on, .high])
    }
}
