import Switchyard

// Part 3: a statechart. The player has two regions that run side by side:
// the transport (stopped, or active: playing, paused or ended) and the volume
// (normal or muted). `active` keeps shallow history, so pressing play after a
// stop resumes as it was: paused stays paused. Skipping past the last track
// enters `ended`, a final state: `active` is then done, and its done route
// stops the player without a button. (Its history then holds `ended`, so play
// would end the album again at once; the walk-through stops there.) Every
// exit, entry and transition is printed, in the order the machine runs them.

/// The states of the music player.
enum Music: StateType, CaseIterable {
    case player
    case transport, stopped, active, playing, paused, ended
    case volume, normal, muted
}

/// What the listener presses.
enum Button: EventType {
    case play, pause, stop, mute, skip
}

/// The music player's statechart, with handlers that print every entry and
/// exit. `swift run switchyard-demo --dot` prints its diagram, which
/// `Scripts/render-diagrams.sh` renders as the SVG the README and the Tools article show.
func makeMusicPlayer() -> Machine<Music, Button> {
    Machine<Music, Button>(state: .player, delivery: .runToCompletion) { music in
        music.addRegions([.transport, .volume], to: .player)
        music.addChildren([.stopped, .active], to: .transport)
        music.addChildren([.playing, .paused, .ended], to: .active)
        music.addHistory(.shallow, to: .active)
        // The album is over: entering `ended` makes `active` done.
        music.addFinalState(.ended)
        music.addChildren([.normal, .muted], to: .volume)

        music.addRoutes(event: .play, transitions: [.stopped => .active, .paused => .playing])
        music.addRoutes(event: .pause, transitions: [.playing => .paused])
        // From `active`, whichever of its children is active.
        music.addRoutes(event: .stop, transitions: [.active => .stopped])
        music.addRoutes(event: .mute, transitions: [.normal => .muted, .muted => .normal])
        // The album has one track left: skipping it ends the album.
        music.addRoutes(event: .skip, transitions: [.playing => .ended, .paused => .ended])
        // Taken, with no event, as soon as `active` is done.
        music.addDoneRoute(.active => .stopped)

        for state in Music.allCases {
            music.addEntryHandler(state) { _ in print("    enter \(state)") }
            music.addExitHandler(state) { _ in print("    exit  \(state)") }
        }
        music.addErrorHandler { context in print("    \(context.event!) does nothing now") }
    }
}

func runMusicPlayer() {
    printHeading("3. A music player, as a statechart")
    let music = makeMusicPlayer()
    // The same chart drawn as a picture is in the README and the Tools article.
    print("Its statechart, as Mermaid (`music.describe().mermaid()`, paste it into mermaid.live):")
    print(music.describe().mermaid())

    // With regions, a context's `fromState` and `toState` are the machine's
    // `state`, the deepest state holding every active one: `player`, before
    // and after every step. What a step changed is in the configuration, which
    // has changed by the time the transition's handlers run (between the exits
    // and the entries), so the handler compares it with the one before. A
    // handler for any transition hears the done route's step too, whose
    // context has no event.
    var before = music.configuration
    music.addAnyHandler(.any => .any) { [unowned music] context in
        let after = music.configuration
        let left = before.filter { !after.contains($0) }
        let entered = after.filter { !before.contains($0) }
        let cause = context.event.map { "\($0)" } ?? "done"
        print("    \(cause): \(names(left)) => \(names(entered))")
        before = after
    }

    /// Presses `button` and says what is active afterwards.
    func press(_ button: Button) {
        print("Press \(button):")
        music <-! button
        print("  -> \(names(music.configuration))")
    }

    print("Start: every region enters its initial state, outermost first:")
    music.start()
    print("  -> \(names(music.configuration))")
    press(.play)
    press(.mute)
    press(.pause)
    press(.pause)
    print("Stop from paused: the route from `active` applies to its children, exited innermost first.")
    press(.stop)
    print("Play again: `active` comes back through its history, so the music stays paused.")
    press(.play)
    press(.play)
    print("Skip the last track: `ended` is final, so `active` is done and its done route stops the player.")
    press(.skip)

    print()
    print("The player ends \(names(music.configuration)).")
}

/// `states`, as a list a reader scans: `active, playing`.
private func names(_ states: [Music]) -> String {
    states.map { "\($0)" }.joined(separator: ", ")
}
