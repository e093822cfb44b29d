//: [Previous: Statecharts](@previous)
//:
//: # Nesting Machines
//:
//: A machine built on its own can be nested under a state of another. The
//: machines then share one configuration: driving either moves both, each
//: keeps its own routes and handlers, and a machine whose states are not
//: active refuses to move instead of drifting.
import Switchyard

enum MainState: StateType, CustomStringConvertible {
    case mainState0
    case subMachine1(SubState)
    case subMachine2(SubState)

    var description: String {
        switch self {
        case .mainState0: "main0"
        case .subMachine1(let state): "sub1.\(state)"
        case .subMachine2(let state): "sub2.\(state)"
        }
    }
}

enum SubState: StateType, CustomStringConvertible {
    case subState0, subState1

    var description: String { self == .subState0 ? "0" : "1" }
}

var steps: [String] = []

@MainActor func makeSubMachine(_ name: String) -> Machine<SubState, NoEvent> {
    Machine(state: .subState0) { machine in
        machine.addRoute(.subState0 => .subState1)
        machine.addHandler(.any => .any) { steps.append("\(name): \($0.fromState) => \($0.toState)") }
        machine.addErrorHandler { steps.append("\(name) refused \($0.fromState) => \($0.toState)") }
        for state in [SubState.subState0, .subState1] {
            machine.addEntryHandler(state) { _ in steps.append("\(name) enter \(state)") }
            machine.addExitHandler(state) { _ in steps.append("\(name) exit \(state)") }
        }
    }
}

let subMachine1 = makeSubMachine("sub1")
let subMachine2 = makeSubMachine("sub2")

// The main machine knows only its own moves; no condition or route mapping
// keeps the sub-machines in step, because there is nothing to keep in step.
let mainMachine = Machine<MainState, NoEvent>(state: .mainState0) { machine in
    machine.addRoute(.mainState0 => .subMachine1(.subState0))
    machine.addRoute(.subMachine1(.subState1) => .subMachine2(.subState0))
    machine.addRoute(.subMachine2(.subState1) => .mainState0)
    machine.addHandler(.any => .any) { steps.append("main: \($0.fromState) => \($0.toState)") }
    for state in [MainState.mainState0, .subMachine1(.subState0), .subMachine2(.subState1)] {
        machine.addEntryHandler(state) { _ in steps.append("main enter \(state)") }
        machine.addExitHandler(state) { _ in steps.append("main exit \(state)") }
    }
}

// `.subMachine1(x)` in the main machine is `x` in subMachine1.
mainMachine.nest(subMachine1, as: MainState.subMachine1)
mainMachine.nest(subMachine2, as: MainState.subMachine2)

mainMachine <- .subMachine1(.subState0)
//: Entries run outermost machine first: the main machine's handler of
//: `.subMachine1(.subState0)`, then subMachine1's of `.subState0`, the same state.
assert(steps == ["main exit main0", "main: main0 => sub1.0", "main enter sub1.0", "sub1 enter 0"])

steps.removeAll()
subMachine1 <- .subState1
//: Driving the sub-machine moved the main machine too. Exits run innermost
//: machine first, and so do the handlers of the transition.
print(steps)
assert(steps == ["sub1 exit 0", "main exit sub1.0", "sub1: 0 => 1", "main: sub1.0 => sub1.1", "sub1 enter 1"])
assert(mainMachine.state == .subMachine1(.subState1))

steps.removeAll()
subMachine2 <- .subState1
//: subMachine2 is not active: the request is refused, its error handlers run,
//: and nothing drifts.
assert(steps == ["sub2 refused 0 => 1"])
assert(mainMachine.state == .subMachine1(.subState1))
switch subMachine2.attemptState(.subState1) {
case .success: assertionFailure("a machine that is not active cannot move")
case .failure(let error): assert(error.reason == .inactive)
}

steps.removeAll()
mainMachine <- .subMachine2(.subState0)
subMachine2 <- .subState1
mainMachine <- .mainState0
//: A sub-machine that the step enters or leaves hears its entry or exit
//: handlers, not its handlers of transitions.
print(steps)
assert(
    steps == [
        "sub1 exit 1", "main: sub1.1 => sub2.0", "sub2 enter 0",
        "sub2 exit 0", "sub2: 0 => 1", "main: sub2.0 => sub2.1", "main enter sub2.1", "sub2 enter 1",
        "sub2 exit 1", "main exit sub2.1", "main: sub2.1 => main0", "main enter main0",
    ]
)

//: An inactive sub-machine reads the state that entering it would give it.
assert(subMachine1.state == .subState0 && subMachine1.configuration.isEmpty)
//: The main machine answers with the sub-machines' routes, under its own names.
assert(mainMachine.hasRoute(.subMachine1(.subState0) => .subMachine1(.subState1)))
print(mainMachine.state)

//: [Next: Transition Tables](@next)
