import Switchyard
import Testing

// Three charts from the issue, each with the exact sequence of every exit,
// entry and transition handler asserted: a media player (a compound state with
// shallow history), a three-level machine with deep history, and a keyboard
// with two parallel regions.

/// Adds an entry and an exit handler to each of `states`, and a handler for
/// every event, all writing to `log`: "exit x", "enter x", "event: a => b".
private func watch<S, E>(_ machine: Machine<S, E>, _ states: [S], log: Log) {
    for state in states {
        machine.addEntryHandler(state) { _ in log("enter \(state)") }
        machine.addExitHandler(state) { _ in log("exit \(state)") }
    }
    machine.addHandler(event: .any) { log("\($0.event.map { "\($0)" } ?? "?"): \($0.fromState) => \($0.toState)") }
    machine.addErrorHandler { log("refused \($0.event.map { "\($0)" } ?? "state") in \($0.fromState)") }
}

// MARK: - Media player

private enum Player: StateType, CaseIterable {
    case stopped, active, playing, paused
}

private enum PlayerEvent: EventType {
    case play, pause, stop
}

@Suite struct MediaPlayerTests {
    /// stopped / active { playing, paused }, active keeping shallow history.
    private func makePlayer(log: Log) -> Machine<Player, PlayerEvent> {
        Machine(state: .stopped) { player in
            player.addChildren([.playing, .paused], to: .active)
            player.addHistory(.shallow, to: .active)
            player.addRoutes(event: .play, transitions: [.stopped => .active, .paused => .playing])
            player.addRoutes(event: .pause, transitions: [.playing => .paused])
            player.addRoutes(event: .stop, transitions: [.active => .stopped])
            watch(player, Player.allCases, log: log)
        }
    }

    @Test func playPauseStopAndPlayAgainResumesWhereItWas() {
        let log = Log()
        let player = makePlayer(log: log)

        #expect(player.start())
        player <-! .play <-! .pause <-! .stop <-! .play <-! .play

        #expect(player.state == .playing)
        #expect(player.configuration == [.active, .playing])
        #expect(
            log.lines == [
                "enter stopped",
                "exit stopped", "play: stopped => playing", "enter active", "enter playing",
                "exit playing", "pause: playing => paused", "enter paused",
                "exit paused", "exit active", "stop: paused => stopped", "enter stopped",
                // Back into `active` through its history: paused, not the initial child.
                "exit stopped", "play: stopped => paused", "enter active", "enter paused",
                "exit paused", "play: paused => playing", "enter playing",
            ])
    }

    @Test func readingTheConfiguration() {
        let player = makePlayer(log: Log())
        #expect(player.state == .stopped)
        player <-! .play
        #expect(player.state == .playing)
        #expect(player.isActive(.active) && player.isActive(.playing))
        #expect(!player.isActive(.paused) && !player.isActive(.stopped))
        #expect(player.recordedHistory(of: .active).isEmpty)
        player <-! .pause <-! .stop
        #expect(player.recordedHistory(of: .active) == [.paused])
        #expect(player.recordedHistory(of: .stopped).isEmpty)
    }

    @Test func aRouteFromTheCompoundStateAppliesInEveryChild() {
        for child in [Player.playing, .paused] {
            let player = makePlayer(log: Log())
            player <-! .play
            if child == .paused { player <-! .pause }
            #expect(player.tryEvent(.stop))
            #expect(player.state == .stopped)
        }
    }

    @Test func refusedEventsRunOnlyTheErrorHandlers() {
        let log = Log()
        let player = makePlayer(log: log)
        player <-! .pause
        #expect(log.lines == ["refused pause in stopped"])
    }
}

// MARK: - Three levels, deep history

private enum Device: StateType, CaseIterable {
    case off, on
    case editing, typing, selecting
    case browsing, list, detail
}

private enum DeviceEvent: EventType {
    case power, select, browse, open
}

@Suite struct DeepHistoryTests {
    /// off / on { editing { typing, selecting }, browsing { list, detail } },
    /// `on` keeping `history` history.
    private func makeDevice(history: HistoryKind, log: Log) -> Machine<Device, DeviceEvent> {
        Machine(state: .off) { device in
            device.addChildren([.editing, .browsing], to: .on)
            device.addChildren([.typing, .selecting], to: .editing)
            device.addChildren([.list, .detail], to: .browsing)
            device.addHistory(history, to: .on)
            device.addRoutes(event: .power, transitions: [.off => .on, .on => .off])
            device.addRoutes(event: .select, transitions: [.typing => .selecting])
            device.addRoutes(event: .browse, transitions: [.editing => .browsing])
            device.addRoutes(event: .open, transitions: [.list => .detail])
            watch(device, Device.allCases, log: log)
        }
    }

    @Test func deepHistoryRestoresTheAtomicStateThreeLevelsDown() {
        let log = Log()
        let device = makeDevice(history: .deep, log: log)

        device.start()
        device <-! .power <-! .select <-! .browse <-! .open <-! .power
        #expect(device.recordedHistory(of: .on) == [.detail])
        device <-! .power

        #expect(device.configuration == [.on, .browsing, .detail])
        #expect(
            log.lines == [
                "enter off",
                "exit off", "power: off => typing", "enter on", "enter editing", "enter typing",
                "exit typing", "select: typing => selecting", "enter selecting",
                "exit selecting", "exit editing", "browse: selecting => list", "enter browsing", "enter list",
                "exit list", "open: list => detail", "enter detail",
                "exit detail", "exit browsing", "exit on", "power: detail => off", "enter off",
                "exit off", "power: off => detail", "enter on", "enter browsing", "enter detail",
            ])
    }

    @Test func shallowHistoryRestoresOnlyTheChildAndEntersItByDefault() {
        let log = Log()
        let device = makeDevice(history: .shallow, log: log)
        device <-! .power <-! .browse <-! .open <-! .power
        #expect(device.recordedHistory(of: .on) == [.browsing])
        log.clear()

        device <-! .power

        #expect(device.configuration == [.on, .browsing, .list])
        #expect(log.lines == ["exit off", "power: off => list", "enter on", "enter browsing", "enter list"])
    }

    @Test func withoutHistoryTheInitialChildrenAreEntered() {
        let device = makeDevice(history: .deep, log: Log())
        #expect(device.recordedHistory(of: .on).isEmpty)
        device <-! .power
        #expect(device.configuration == [.on, .editing, .typing])
    }
}

// MARK: - Keyboard, two regions

private enum Keyboard: StateType, CaseIterable {
    case unplugged, keyboard
    case capsLock, capsOff, capsOn
    case numLock, numOff, numOn
}

private enum KeyboardEvent: EventType {
    case caps, num, reset, unplug, plug
}

@Suite struct KeyboardTests {
    private func makeKeyboard(log: Log) -> Machine<Keyboard, KeyboardEvent> {
        Machine(state: .keyboard) { keyboard in
            keyboard.addRegions([.capsLock, .numLock], to: .keyboard)
            keyboard.addChildren([.capsOff, .capsOn], to: .capsLock)
            keyboard.addChildren([.numOff, .numOn], to: .numLock)
            keyboard.addRoutes(event: .caps, transitions: [.capsOff => .capsOn, .capsOn => .capsOff])
            keyboard.addRoutes(event: .num, transitions: [.numOff => .numOn, .numOn => .numOff])
            // One event, a route in each region: both move, in one step.
            keyboard.addRoutes(event: .reset, transitions: [.capsOn => .capsOff, .numOn => .numOff])
            keyboard.addRoutes(event: .unplug, transitions: [.keyboard => .unplugged])
            keyboard.addRoutes(event: .plug, transitions: [.unplugged => .keyboard])
            watch(keyboard, Keyboard.allCases, log: log)
        }
    }

    @Test func startEntersBothRegionsInDeclarationOrder() {
        let log = Log()
        let keyboard = makeKeyboard(log: log)

        #expect(keyboard.start())
        #expect(!keyboard.start())

        #expect(keyboard.state == .keyboard)
        #expect(keyboard.configuration == [.keyboard, .capsLock, .capsOff, .numLock, .numOff])
        #expect(
            log.lines == ["enter keyboard", "enter capsLock", "enter capsOff", "enter numLock", "enter numOff"])
    }

    @Test func eachRegionMovesOnItsOwnAndOneEventMovesBoth() {
        let log = Log()
        let keyboard = makeKeyboard(log: log)

        keyboard <-! .caps <-! .num <-! .reset

        #expect(keyboard.configuration == [.keyboard, .capsLock, .capsOff, .numLock, .numOff])
        #expect(
            log.lines == [
                "exit capsOff", "caps: keyboard => keyboard", "enter capsOn",
                "exit numOff", "num: keyboard => keyboard", "enter numOn",
                // One step: later region's states exit first, entries in document order.
                "exit numOn", "exit capsOn", "reset: keyboard => keyboard", "enter capsOff", "enter numOff",
            ])
    }

    @Test func leavingTheParallelStateExitsEveryRegionInnermostFirstAndLaterRegionsFirst() {
        let log = Log()
        let keyboard = makeKeyboard(log: log)
        keyboard <-! .caps
        log.clear()

        keyboard <-! .unplug <-! .plug

        #expect(
            log.lines == [
                "exit numOff", "exit numLock", "exit capsOn", "exit capsLock", "exit keyboard",
                "unplug: keyboard => unplugged", "enter unplugged",
                "exit unplugged", "plug: unplugged => keyboard",
                "enter keyboard", "enter capsLock", "enter capsOff", "enter numLock", "enter numOff",
            ])
    }
}
