//: [Previous: Handlers](@previous)
//:
//: # Route mappings
//:
//: States and events with associated values cannot all be written as arrows.
//: A route mapping is a closure instead: given the event, the current state
//: and the user info, it names the next state, or `nil` for "no route".
import Switchyard

enum Floor: StateType {
    case floor(Int)
    case outOfService
}

enum Call: EventType {
    case goTo(Int)
    case fault
    case repair
}

// Floors 0 to 8 for everyone; floor 9 only with a key passed as user info.
let call: Machine<Floor, Call>.RouteMapping = { event, fromState, userInfo in
    guard case .goTo(let number)? = event, case .floor = fromState else { return nil }
    let top = userInfo as? String == "key" ? 9 : 8
    return (0...top).contains(number) ? .floor(number) : nil
}

let elevator = Machine<Floor, Call>(state: .floor(0)) { elevator in
    // Arrow routes still work for the cases without values.
    elevator.addRoutes(event: .fault, transitions: [.any => .outOfService])
    elevator.addRoutes(event: .repair, transitions: [.outOfService => .floor(0)])
    // A mapping with a handler: it runs after every move the mapping allows.
    elevator.addRouteMapping(call, order: 50) { context in
        print("  ding: \(context.fromState) => \(context.toState)")
    }
}

print("go to 3:")
elevator <-! .goTo(3)
print("go to 9 without a key, refused:", elevator.tryEvent(.goTo(9)))
print("go to 9 with the key:")
elevator <-! (.goTo(9), "key")
assert(elevator.state == .floor(9))

//: A mapping that names the current state is a successful transition that
//: stays in place: its handler runs.
print("go to 9 again:")
elevator <-! (.goTo(9), "key")

print("fault, then a call, refused:")
elevator <-! .fault
print("  goTo(2) moved?", elevator.tryEvent(.goTo(2)), "- still", elevator.state)
elevator <-! .repair

//: ## State route mappings
//:
//: For machines driven by `<-`, a state route mapping lists the states the
//: machine may go to from here. Here: one floor up or down, by the stairs.
elevator.addStateRouteMapping { fromState, _ in
    guard case .floor(let number) = fromState else { return nil }
    return [.floor(number - 1), .floor(number + 1)]
}
elevator <- .floor(1)
print("by the stairs to 1:", elevator.state)
elevator <- .floor(5)
print("straight to 5 by the stairs is refused:", elevator.state)
assert(elevator.state == .floor(1))

//: [Next: Typed Results](@next)
