import Switchyard
import Testing

// SwiftState's hierarchical example, written with `nest(_:under:as:)`: no
// route mapping or condition keeps the machines in step, because there is
// only one configuration.

private enum MainState: StateType, CustomStringConvertible {
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

private enum SubState: StateType, CustomStringConvertible {
    case subState0, subState1

    var description: String {
        self == .subState0 ? "0" : "1"
    }
}

/// The three machines of the example, each with handlers that log.
private struct SwiftStateHierarchy {
    let main: Machine<MainState, NoEvent>
    let sub1: Machine<SubState, NoEvent>
    let sub2: Machine<SubState, NoEvent>
    let log = Log()

    init() {
        let log = self.log
        func sub(_ name: String) -> Machine<SubState, NoEvent> {
            Machine(state: .subState0) { machine in
                machine.addRoute(.subState0 => .subState1)
                machine.addHandler(.any => .any) { log("\(name): \($0.fromState) => \($0.toState)") }
                machine.addErrorHandler { log("\(name) refused \($0.fromState) => \($0.toState)") }
                for state in [SubState.subState0, .subState1] {
                    machine.addEntryHandler(state) { _ in log("\(name) enter \(state)") }
                    machine.addExitHandler(state) { _ in log("\(name) exit \(state)") }
                }
            }
        }
        sub1 = sub("sub1")
        sub2 = sub("sub2")
        main = Machine(state: .mainState0) { main in
            main.addRoute(.mainState0 => .subMachine1(.subState0))
            main.addRoute(.subMachine1(.subState1) => .subMachine2(.subState0))
            main.addRoute(.subMachine2(.subState1) => .mainState0)
            main.addHandler(.any => .any) { log("main: \($0.fromState) => \($0.toState)") }
            main.addErrorHandler { log("main refused \($0.fromState) => \($0.toState)") }
            for state in [MainState.mainState0, .subMachine1(.subState0), .subMachine2(.subState1)] {
                main.addEntryHandler(state) { _ in log("main enter \(state)") }
                main.addExitHandler(state) { _ in log("main exit \(state)") }
            }
        }
        main.nest(sub1, as: MainState.subMachine1)
        main.nest(sub2, as: MainState.subMachine2)
    }
}

@Suite struct NestingExampleTests {
    @Test func swiftStateScenarioRunsEveryHandlerInSpecOrder() {
        let hierarchy = SwiftStateHierarchy()
        let (main, sub1, sub2, log) = (hierarchy.main, hierarchy.sub1, hierarchy.sub2, hierarchy.log)
        func step(_ move: () -> Bool, moves: Bool = true, to state: MainState, _ lines: [String]) {
            log.clear()
            #expect(move() == moves)
            #expect(main.state == state)
            #expect(log.lines == lines)
        }

        step(
            { main.tryState(.subMachine1(.subState0)) }, to: .subMachine1(.subState0),
            ["main exit main0", "main: main0 => sub1.0", "main enter sub1.0", "sub1 enter 0"])
        #expect(sub1.state == .subState0)

        // Driving the nested machine moves the whole hierarchy: exits innermost
        // machine first, each machine's transition handlers innermost first.
        step(
            { sub1.tryState(.subState1) }, to: .subMachine1(.subState1),
            ["sub1 exit 0", "main exit sub1.0", "sub1: 0 => 1", "main: sub1.0 => sub1.1", "sub1 enter 1"])
        #expect(sub1.state == .subState1)

        // sub2 is not active: refused, its error handlers run, nothing drifts.
        step({ sub2.tryState(.subState1) }, moves: false, to: .subMachine1(.subState1), ["sub2 refused 0 => 1"])
        #expect(sub2.attemptState(.subState1).failureReason == .inactive)
        #expect(sub2.state == .subState0)
        #expect(sub1.state == .subState1)
        #expect(main.configuration == [.subMachine1(.subState1)])

        step(
            { main.tryState(.subMachine2(.subState0)) }, to: .subMachine2(.subState0),
            ["sub1 exit 1", "main: sub1.1 => sub2.0", "sub2 enter 0"])
        step(
            { sub2.tryState(.subState1) }, to: .subMachine2(.subState1),
            ["sub2 exit 0", "sub2: 0 => 1", "main: sub2.0 => sub2.1", "main enter sub2.1", "sub2 enter 1"])
        step(
            { main.tryState(.mainState0) }, to: .mainState0,
            ["sub2 exit 1", "main exit sub2.1", "main: sub2.1 => main0", "main enter main0"])

        // A machine that is not active reports what entering it would give it.
        #expect(sub1.state == .subState0)
        #expect(sub2.state == .subState0)
        #expect(!sub1.isActive(.subState0))
        #expect(sub1.configuration == [])
    }

    @Test func theParentCanAskForANestedStateAndTheChildAnswersHasRoute() {
        let hierarchy = SwiftStateHierarchy()
        let (main, sub1) = (hierarchy.main, hierarchy.sub1)
        main <- .subMachine1(.subState0)
        // The child's route, asked through the parent's name for its states.
        #expect(main.canTryState(.subMachine1(.subState1)))
        #expect(main.hasRoute(.subMachine1(.subState0) => .subMachine1(.subState1)))
        #expect(!main.hasRoute(.subMachine1(.subState0) => .subMachine2(.subState0)))
        #expect(main.hasRoute(.subMachine1(.subState1) => .subMachine2(.subState0)))
        #expect(sub1.hasRoute(.subState0 => .subState1))
        #expect(!sub1.hasRoute(.subState1 => .subState0))
        main <- .subMachine1(.subState1)
        #expect(sub1.state == .subState1)
        #expect(sub1.configuration == [.subState1])
        #expect(main.attemptState(.subMachine1(.subState0)).failureReason == .unreachable)
    }
}
