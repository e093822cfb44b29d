//: [Previous: Typed Results](@previous)
//:
//: # Statecharts
//:
//: States can have children (one active at a time) and regions (all
//: active together). A route from a state applies to everything inside it,
//: entry and exit handlers say when a state is entered and left, and history
//: brings a compound state back to where it was.
import Switchyard

enum Car: StateType, CaseIterable {
    case parked, driving
    // driving has two regions: the gearbox and the radio.
    case gearbox, first, second
    case radio, radioOff, radioOn
}

enum CarEvent: EventType {
    case start, shift, radio, park
}

var steps: [String] = []

let car = Machine<Car, CarEvent>(state: .parked, delivery: .runToCompletion) { car in
    car.addRegions([.gearbox, .radio], to: .driving)
    car.addChildren([.first, .second], to: .gearbox)
    car.addChildren([.radioOff, .radioOn], to: .radio)
    // The radio comes back as it was left; the gearbox starts in first.
    car.addHistory(.shallow, to: .radio)

    car.addRoutes(event: .start, transitions: [.parked => .driving])
    car.addRoutes(event: .shift, transitions: [.first => .second, .second => .first])
    car.addRoutes(event: .radio, transitions: [.radioOff => .radioOn, .radioOn => .radioOff])
    // One route from `driving` applies whatever its regions are doing.
    car.addRoutes(event: .park, transitions: [.driving => .parked])

    for state in Car.allCases {
        car.addEntryHandler(state) { _ in steps.append("enter \(state)") }
        car.addExitHandler(state) { _ in steps.append("exit \(state)") }
    }
}

car.start()
car <-! .start
//: Entering `driving` entered both regions, each at its initial child.
print(steps)
assert(
    steps == [
        "enter parked", "exit parked", "enter driving", "enter gearbox", "enter first", "enter radio", "enter radioOff",
    ]
)
assert(car.state == .driving)
assert(car.configuration == [.driving, .gearbox, .first, .radio, .radioOff])

steps.removeAll()
car <-! .radio <-! .shift
//: Each region moves on its own: `state` stays `driving`, the region's states change.
assert(steps == ["exit radioOff", "enter radioOn", "exit first", "enter second"])
assert(car.isActive(.radioOn) && car.isActive(.second))

steps.removeAll()
car <-! .park
//: Leaving `driving` exits everything inside it, innermost first, later regions first.
assert(steps == ["exit radioOn", "exit radio", "exit second", "exit gearbox", "exit driving", "enter parked"])

steps.removeAll()
car <-! .start
//: The radio remembered it was on; the gearbox keeps no history and starts in first.
assert(car.configuration == [.driving, .gearbox, .first, .radio, .radioOn])
print(car.configuration)

//: [Next: Nesting Machines](@next)
