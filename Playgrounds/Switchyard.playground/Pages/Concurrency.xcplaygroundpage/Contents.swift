//: [Previous: Definition DSL](@previous)
//:
//: # Concurrency
//:
//: A `Machine` lives in one isolation domain: the main actor, an actor or a
//: task. When several tasks must drive the same machine and none of them can
//: own it, use a `SendableMachine`: the same routes and handlers, with
//: `@Sendable` closures, and a lock that takes one request at a time.
import Switchyard

enum Garage: StateType {
    case open(spacesLeft: Int)
    case full
}

enum Car: EventType {
    case enter, leave
}

let capacity = 5
let garage = SendableMachine<Garage, Car>(state: .open(spacesLeft: capacity)) { garage in
    garage.addRouteMapping { event, state, _ in
        switch (event, state) {
        case (.enter, .open(let left)):
            return left > 1 ? .open(spacesLeft: left - 1) : .full
        case (.leave, .full):
            return .open(spacesLeft: 1)
        case (.leave, .open(let left)) where left < capacity:
            return .open(spacesLeft: left + 1)
        default:
            return nil
        }
    }
}

//: Ask for the transitions before driving the machine: a subscriber hears
//: the decisions taken after it subscribed, in the order the machine took
//: them, whichever task asked. With `includingRefusals`, refused requests too.
let records = garage.transitions(includingRefusals: true)

//: Eight cars try to enter at once, from eight tasks. Each request takes
//: the lock, so the garage never lets in a sixth car.
let parked = await withTaskGroup(of: Bool.self) { group in
    for _ in 1...8 {
        group.addTask { garage.tryEvent(.enter) }
    }
    var parked = 0
    for await entered in group where entered {
        parked += 1
    }
    return parked
}
print("parked \(parked) of 8 cars; the garage is \(garage.state)")
assert(parked == capacity && garage.state == .full)

//: Two cars leave, from two tasks.
async let first = garage.tryEvent(.leave)
async let second = garage.tryEvent(.leave)
let left = await [first, second]
assert(left == [true, true])
print("two cars left; the garage is \(garage.state)")

//: Read the ten decisions back. The machine never waits for a reader: the
//: records wait in the stream's buffer (unbounded unless you ask for
//: `.bufferingNewest(n)` or `.bufferingOldest(n)`).
var entered = 0
var turnedAway = 0
var departed = 0
for await record in records.prefix(10) {
    switch (record.event, record.isAccepted) {
    case (.enter, true): entered += 1
    case (.enter, false): turnedAway += 1
    default: departed += 1
    }
}
print("the stream saw \(entered) cars enter, \(turnedAway) turned away, \(departed) leave")
assert(entered == 5 && turnedAway == 3 && departed == 2)

//: Handlers run while the request holds the lock. A handler's own request
//: goes in at once and is delivered after the handlers in progress; but a
//: handler must never block waiting for another thread that uses the same
//: machine, since that thread is waiting for the handler's lock. Hand slow
//: work to a task instead:
garage.addAnyHandler(.any => .full) { _ in
    Task { print("the sign now says FULL") }
}

//: The stream ends when the machine is released, so a loop over it ends too;
//: cancelling the task that iterates it ends the loop sooner.
