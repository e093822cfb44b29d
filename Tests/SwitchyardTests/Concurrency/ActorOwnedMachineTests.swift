import Switchyard
import Testing

private enum Track: StateType {
    case stopped, playing, paused
}

private enum TrackEvent: EventType {
    case play, pause, stop
}

/// An actor that owns its machine and declares its handlers in `init`.
private actor Player {
    private(set) var log: [String] = []
    var isLocked = false
    let machine: Machine<Track, TrackEvent>

    init() {
        // Configured through a local: once `self` is handed out, a
        // nonisolated init may not read its properties.
        let machine = Machine<Track, TrackEvent>(state: .stopped)
        self.machine = machine
        machine.addRoutes(event: .play, transitions: [.stopped => .playing, .paused => .playing])
        machine.addRoutes(
            event: .pause, transitions: [.playing => .paused],
            condition: machine.condition(isolatedTo: self) { player, _ in !player.isLocked })
        machine.addRoutes(event: .stop, transitions: [.any => .stopped])
        machine.addAnyHandler(
            .any => .any,
            handler: machine.handler(isolatedTo: self) { player, context in
                player.log.append("\(context.fromState) => \(context.toState)")
            })
    }

    func send(_ event: TrackEvent) -> Bool {
        machine.tryEvent(event)
    }

    func lock() {
        isLocked = true
    }

    var state: Track { machine.state }
}

@Suite struct ActorOwnedMachineTests {
    @Test func anActorDeclaresIsolatedHandlersInItsInit() async {
        let player = Player()
        #expect(await player.send(.play))
        #expect(await player.send(.pause))
        await player.lock()
        #expect(await player.send(.play))
        #expect(!(await player.send(.pause)))
        #expect(await player.state == .playing)
        #expect(await player.log == ["stopped => playing", "playing => paused", "paused => playing"])
    }

    @Test func theActorAndItsMachineAreReleasedWithoutBreakingACycle() async {
        var player: Player? = Player()
        weak let released = player
        _ = await player!.send(.play)
        player = nil
        #expect(released == nil)
    }
}
