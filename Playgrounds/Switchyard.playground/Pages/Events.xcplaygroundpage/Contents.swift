//: [Previous: Routes](@previous)
//:
//: # Events
//:
//: Routes can belong to an event. Fire the event with `<-!` (the operator twin
//: of `tryEvent`) and the machine takes the first route that allows it.
import Switchyard

enum Player: StateType {
    case stopped, playing, paused
}

enum Control: EventType {
    case play, pause, stop, volumeUp
}

let player = Machine<Player, Control>(state: .stopped) { player in
    player.addRoutes(event: .play, transitions: [.stopped => .playing, .paused => .playing])
    player.addRoutes(event: .pause, transitions: [.playing => .paused])
    player.addRoutes(event: .stop, transitions: [.any => .stopped])
    // A route to `.any` taken by an event means "stay where you are": the
    // event succeeds, and its handlers run, but the state does not change.
    player.addRoutes(event: .volumeUp, transitions: [.any => .any])
}

player <-! .play
print("after play:", player.state)
assert(player.state == .playing)

//: `tryEvent` says whether the machine moved; `canTryEvent` says where it would go.
print("where would pause lead?", player.canTryEvent(.pause).map { "\($0)" } ?? "nowhere")
print("pause moved?", player.tryEvent(.pause))
print("volume up moved?", player.tryEvent(.volumeUp), "- still", player.state)
assert(player.state == .paused)

//: ## `.any` events and precedence
//:
//: A route for `Event.any` is taken by every event, but only after the fired
//: event's own routes: the exact event always wins, then the exact state.
//: Here any event without a route of its own stops a paused player.
player.addRoutes(event: .any, transitions: [.paused => .stopped])

player <-! .play
print("play while paused:", player.state)  // the `.play` route wins
player <-! .pause <-! .pause
print("pause twice:", player.state)  // the second pause has no route of its own
assert(player.state == .stopped)

//: Event routes count when you ask for a state, too.
player <- .playing
print("asked for playing:", player.state)

//: [Next: Handlers](@next)
