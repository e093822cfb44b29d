import Switchyard
import Testing

// The pattern SwiftState users write today for a machine with sub-machines:
// a main machine whose states embed the sub-machines' states, an `.any => .any`
// route that defers same-sub-machine moves to the sub-machine in charge, and a
// route mapping that switches between the main state and the sub-machines.

@Suite struct HierarchyPatternTests {
    @Test func startsInTheMainStateWithBothSubMachinesAtTheirFirstState() {
        let hierarchy = Hierarchy()

        #expect(hierarchy.main.state == .mainState0)
        #expect(hierarchy.sub1.state == .subState0)
        #expect(hierarchy.sub2.state == .subState0)
    }

    @Test func movesInsideASubMachineAreAllowedExactlyWhenTheSubMachineAllowsThem() {
        let hierarchy = Hierarchy()
        // Each sub-machine allows only subState0 => subState1.
        let subStates: [SubState] = [.subState0, .subState1, .subState2]

        for from in subStates {
            for to in subStates {
                let allowed = from == .subState0 && to == .subState1
                #expect(
                    hierarchy.main.hasRoute(.subMachine1(from) => .subMachine1(to)) == allowed, "sub1: \(from) => \(to)"
                )
                #expect(
                    hierarchy.main.hasRoute(.subMachine2(from) => .subMachine2(to)) == allowed, "sub2: \(from) => \(to)"
                )
                #expect(hierarchy.main.hasRoute(fromState: .subMachine1(from), toState: .subMachine1(to)) == allowed)
            }
        }
    }

    @Test func switchingMovesFollowTheRouteMappingOnly() {
        let hierarchy = Hierarchy()
        let allowed: [(MainState, MainState)] = [
            (.mainState0, .subMachine1(.subState0)),
            (.subMachine1(.subState1), .subMachine2(.subState0)),
            (.subMachine2(.subState1), .mainState0),
        ]
        var states: [MainState] = [.mainState0]
        for subState in [SubState.subState0, .subState1, .subState2] {
            states += [.subMachine1(subState), .subMachine2(subState)]
        }

        for from in states {
            for to in states where !from.isInTheSameSubMachine(as: to) {
                let expected = allowed.contains { $0 == (from, to) }
                #expect(hierarchy.main.hasRoute(from => to) == expected, "\(from) => \(to)")
            }
        }
    }

    @Test func switchingIntoASubMachineAsksWhereTheSubMachineIs() {
        let hierarchy = Hierarchy()
        #expect(hierarchy.main.hasRoute(.mainState0 => .subMachine1(.subState0)))

        hierarchy.sub1 <- .subState1

        #expect(!hierarchy.main.hasRoute(.mainState0 => .subMachine1(.subState0)))
        #expect(!hierarchy.main.hasRoute(.mainState0 => .subMachine1(.subState1)))
    }

    @Test func walkThroughBothSubMachinesAndBack() {
        let hierarchy = Hierarchy()
        let main = hierarchy.main
        let log = Log()
        main.addErrorHandler { log("refused \($0.fromState) => \($0.toState)") }

        func step(_ target: MainState, moves: Bool, to expected: MainState, sub1: SubState, sub2: SubState) {
            #expect(main.tryState(target) == moves, "to \(target)")
            #expect(main.state == expected, "to \(target)")
            #expect(hierarchy.sub1.state == sub1, "sub1 after \(target)")
            #expect(hierarchy.sub2.state == sub2, "sub2 after \(target)")
        }

        step(.subMachine1(.subState0), moves: true, to: .subMachine1(.subState0), sub1: .subState0, sub2: .subState0)
        step(.subMachine1(.subState1), moves: true, to: .subMachine1(.subState1), sub1: .subState1, sub2: .subState0)
        // sub1 has no route subState1 => subState2.
        step(.subMachine1(.subState2), moves: false, to: .subMachine1(.subState1), sub1: .subState1, sub2: .subState0)
        // Switching lands on sub2's subState0 only.
        step(.subMachine2(.subState2), moves: false, to: .subMachine1(.subState1), sub1: .subState1, sub2: .subState0)
        step(.subMachine2(.subState0), moves: true, to: .subMachine2(.subState0), sub1: .subState1, sub2: .subState0)
        // Back to the main state only from sub2's subState1.
        step(.mainState0, moves: false, to: .subMachine2(.subState0), sub1: .subState1, sub2: .subState0)
        step(.subMachine2(.subState1), moves: true, to: .subMachine2(.subState1), sub1: .subState1, sub2: .subState1)
        step(.mainState0, moves: true, to: .mainState0, sub1: .subState1, sub2: .subState1)
        // sub1 is no longer at subState0, so the way in is closed.
        step(.subMachine1(.subState0), moves: false, to: .mainState0, sub1: .subState1, sub2: .subState1)

        #expect(
            log.lines == [
                "refused sub1(1) => sub1(2)",
                "refused sub1(1) => sub2(2)",
                "refused sub2(0) => main0",
                "refused main0 => sub1(0)",
            ])
    }

    @Test func forwardedMovesRunTheSubMachinesOwnHandlers() {
        let hierarchy = Hierarchy()
        let log = Log()
        hierarchy.main.addHandler(.any => .any) { log("main \($0.fromState) => \($0.toState)") }
        hierarchy.sub1.addHandler(.any => .any) { log("sub1 \($0.fromState) => \($0.toState)") }
        hierarchy.sub2.addHandler(.any => .any) { log("sub2 \($0.fromState) => \($0.toState)") }

        hierarchy.main <- .subMachine1(.subState0) <- .subMachine1(.subState1)

        #expect(
            log.lines == [
                "main main0 => sub1(0)",
                "sub1 0 => 1",
                "main sub1(0) => sub1(1)",
            ])
    }
}

// MARK: - Fixtures

private enum SubState: StateType, CustomStringConvertible {
    case subState0, subState1, subState2

    var description: String {
        switch self {
        case .subState0: "0"
        case .subState1: "1"
        case .subState2: "2"
        }
    }
}

private enum MainState: StateType, CustomStringConvertible {
    case mainState0
    case subMachine1(SubState)
    case subMachine2(SubState)

    var description: String {
        switch self {
        case .mainState0: "main0"
        case .subMachine1(let subState): "sub1(\(subState))"
        case .subMachine2(let subState): "sub2(\(subState))"
        }
    }

    func isInTheSameSubMachine(as other: MainState) -> Bool {
        switch (self, other) {
        case (.subMachine1, .subMachine1), (.subMachine2, .subMachine2): true
        default: false
        }
    }
}

/// A main machine and its two sub-machines, wired as SwiftState users do.
private struct Hierarchy {
    let main: StateMachine<MainState, NoEvent>
    let sub1: StateMachine<SubState, NoEvent>
    let sub2: StateMachine<SubState, NoEvent>

    init() {
        let sub1 = StateMachine<SubState, NoEvent>(state: .subState0) { machine in
            machine.addRoute(.subState0 => .subState1)
        }
        let sub2 = StateMachine<SubState, NoEvent>(state: .subState0) { machine in
            machine.addRoute(.subState0 => .subState1)
        }
        main = StateMachine<MainState, NoEvent>(state: .mainState0) { main in
            // A move inside one sub-machine is that sub-machine's decision;
            // when taken, the sub-machine makes it too.
            main.addRoute(
                .any => .any,
                condition: { context in
                    switch (context.fromState, context.toState) {
                    case (.subMachine1(let from), .subMachine1(let to)): sub1.hasRoute(fromState: from, toState: to)
                    case (.subMachine2(let from), .subMachine2(let to)): sub2.hasRoute(fromState: from, toState: to)
                    default: false
                    }
                }
            ) { context in
                switch context.toState {
                case .subMachine1(let subState): sub1 <- subState
                case .subMachine2(let subState): sub2 <- subState
                case .mainState0: break
                }
            }
            // Switching between the main state and the sub-machines looks at
            // where the sub-machine being entered is.
            main.addRouteMapping { _, fromState, _ in
                switch fromState {
                case .mainState0 where sub1.state == .subState0: .subMachine1(.subState0)
                case .subMachine1(.subState1) where sub2.state == .subState0: .subMachine2(.subState0)
                case .subMachine2(.subState1): .mainState0
                default: nil
                }
            }
        }
        self.sub1 = sub1
        self.sub2 = sub2
    }
}
