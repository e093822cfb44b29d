import Switchyard
import Testing

// A tree that cannot be a statechart stops the program with a message that
// names the problem, in every build (each case in a child process). A control
// case shows that a correct tree, declared in any order, does not stop.

private enum Tree: StateType {
    case a, b, c, d, e
}

@Suite struct StatechartMisuseTests {
    @Test func aStateWithTwoParentsStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.c], to: .a)
            machine.addChildren([.c], to: .b)
        }
        #expect(message(of: result).contains("c is already a child of a; a state has one parent"))
    }

    @Test func aCycleStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.b], to: .a)
            machine.addChildren([.c], to: .b)
            machine.addChildren([.a], to: .c)
        }
        #expect(message(of: result).contains("a is c's ancestor; adding it as a child would make a cycle"))
    }

    @Test func aStateAsItsOwnChildStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.a], to: .a)
        }
        #expect(message(of: result).contains("a cannot be its own child"))
    }

    @Test func anInitialChildThatIsNotAChildStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.b, .c], to: .a, initial: .d)
        }
        #expect(message(of: result).contains("the initial child d is not a child of a"))
    }

    @Test func aParallelStateWithoutRegionsStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addRegions([], to: .a)
        }
        #expect(message(of: result).contains("a needs at least one region"))
    }

    @Test func childrenAndRegionsOnOneStateStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addRegions([.b], to: .a)
            machine.addChildren([.c], to: .a)
        }
        #expect(message(of: result).contains("a already has regions; a state cannot have both"))
    }

    @Test func historyOnAStateWithoutChildrenStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addHistory(.deep, to: .b)
        }
        #expect(message(of: result).contains("b keeps no history"))
    }

    @Test func changingTheTreeUnderAnActiveStateOnceStartedStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.b], to: .a)
            machine.start()
            machine.addChildren([.c], to: .b)
        }
        #expect(message(of: result).contains("b is active: the tree under an active state cannot change"))
    }

    @Test func aCorrectTreeDeclaredInAnyOrderDoesNotStop() async {
        await #expect(processExitsWith: .success) {
            let machine = Machine<Tree, NoEvent>(state: .b)
            // Children first, their parent's parent later; the initial state a child.
            machine.addChildren([.c, .d], to: .b, initial: .d)
            machine.addChildren([.b], to: .a)
            machine.addHistory(.shallow, to: .b)
            machine.start()
            // Under an inactive state, the tree may still grow once started.
            machine.addChildren([.e], to: .c)
            precondition(machine.configuration == [.a, .b, .d])
        }
    }

    // MARK: The tree under the state a machine has moved to

    @Test func declaringChildrenUnderTheStateAFlatMachineMovedToStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a) { $0.addRoute(.a => .b) }
            machine <- .b
            machine.addChildren([.c, .d], to: .b)
        }
        #expect(message(of: result).contains("b is active: the tree under an active state cannot change"))
    }

    @Test func reparentingTheStateAFlatMachineMovedToStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a) { $0.addRoute(.a => .b) }
            machine <- .b
            machine.addChildren([.b], to: .e)
        }
        #expect(message(of: result).contains("b is active: the tree under an active state cannot change"))
    }

    @Test func declaringChildrenUnderTheStateAnUnstartedStatechartMovedToStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a) { machine in
                machine.addRoute(.a => .b)
                machine.addEntryHandler(.b) { _ in }
            }
            machine <- .b
            machine.addChildren([.c, .d], to: .b)
        }
        #expect(message(of: result).contains("b is active: the tree under an active state cannot change"))
    }

    @Test func aMachineThatMovedMayStillDeclareChildrenUnderInactiveStates() {
        let machine = Machine<Tree, NoEvent>(state: .a) { $0.addRoute(.a => .b) }
        machine <- .b
        machine.addChildren([.c, .d], to: .e)
        #expect(machine.state == .b)
        #expect(machine.configuration == [.b])
        machine.addRoute(.b => .e)
        #expect(machine.tryState(.e))
        #expect(machine.configuration == [.e, .c])
    }

    @Test func aMachineThatNeverMovedDeclaresChildrenUnderItsInitialState() {
        let machine = Machine<Tree, NoEvent>(state: .a)
        machine.addChildren([.c, .d], to: .a)
        #expect(machine.configuration == [.a, .c])
    }

    // MARK: History

    @Test func aSecondHistoryOfAnotherKindStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Tree, NoEvent>(state: .a)
            machine.addChildren([.b, .c], to: .a)
            machine.addHistory(.shallow, to: .a)
            machine.addHistory(.deep, to: .a)
        }
        #expect(message(of: result).contains("a already keeps shallow history; a state keeps one kind of history"))
    }

    @Test func declaringTheSameHistoryTwiceChangesNothing() {
        let machine = Machine<Tree, NoEvent>(state: .e) { machine in
            machine.addChildren([.b, .c], to: .a)
            machine.addHistory(.shallow, to: .a)
            machine.addHistory(.shallow, to: .a)
            machine.addRoute(.b => .c)
            machine.addRoute(.a => .e)
            machine.addRoute(.e => .a)
        }
        machine <- .a <- .c <- .e <- .a
        #expect(machine.configuration == [.a, .c])
    }
}

// MARK: - Statecharts II

private enum Shape: StateType {
    case job, working, done, p, r1, r1a, r1b, r2, r2a, idle
}

@Suite struct CompletionMisuseTests {
    /// The chart the cases below misuse: `job { working, done* }`,
    /// `p ‖ r1 { r1a, r1b } ‖ r2 { r2a }`, `idle`.
    private static func chart() -> Machine<Shape, NoEvent> {
        let machine = Machine<Shape, NoEvent>(state: .idle)
        machine.addChildren([.working, .done], to: .job)
        machine.addRegions([.r1, .r2], to: .p)
        machine.addChildren([.r1a, .r1b], to: .r1)
        machine.addChildren([.r2a], to: .r2)
        machine.addFinalState(.done)
        return machine
    }

    @Test func aFinalStateWithChildrenStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addFinalState(.job)
        }
        #expect(message(of: result).contains("job has children; a final state has none"))
        let later = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addChildren([.idle], to: .done)
        }
        #expect(message(of: later).contains("done is a final state, which cannot have children"))
    }

    @Test func aFinalRegionStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addFinalState(.r1)
        }
        #expect(message(of: result).contains("r1 has children"))
        let atomicRegion = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let machine = Machine<Shape, NoEvent>(state: .idle)
            machine.addRegions([.r1, .r2], to: .p)
            machine.addFinalState(.r2)
        }
        #expect(message(of: atomicRegion).contains("r2 is a region of p; a region cannot be final"))
    }

    @Test func aDoneRouteOnAnAtomicStateStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addDoneRoute(.idle => .job)
        }
        #expect(message(of: result).contains("idle has no children or regions, so it is never done"))
    }

    @Test func severalTargetsInOneRegionStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addEventlessRoute((.idle => .r1a).alsoEntering(.r1b)) { _ in true }
        }
        #expect(
            message(of: result).contains(
                "the targets r1a and r1b of idle => r1a + r1b are not in different regions of one parallel state"))
        let nested = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addEventlessRoute((.idle => .p).alsoEntering(.r2a)) { _ in true }
        }
        #expect(message(of: nested).contains("are not in different regions of one parallel state"))
        let outside = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addDoneRoute((.job => .r1a).alsoEntering(.idle))
        }
        #expect(message(of: outside).contains("are not in different regions of one parallel state"))
    }

    @Test func anEventlessRouteWithoutConditionThatLoopsStops() async throws {
        let back = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addEventlessRoute(.job => .working)
        }
        #expect(message(of: back).contains("leads back into its source and has no condition"))
        let stay = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addEventlessRoute(.idle => .any)
        }
        #expect(message(of: stay).contains("stays and has no condition"))
        let any = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addEventlessRoute(.any => .idle)
        }
        #expect(message(of: any).contains("leaves from .any and has no condition"))
    }

    @Test func aHistoryDefaultOutsideItsStateStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CompletionMisuseTests.chart().addHistory(.shallow, to: .job, default: .r1a)
        }
        #expect(message(of: result).contains("the history default r1a is not a descendant of job"))
    }

    @Test func aCorrectChartDoesNotStop() {
        let machine = CompletionMisuseTests.chart()
        machine.addDoneRoute(.job => .idle)
        machine.addEventlessRoute(.working => .done) { _ in false }
        machine.addEventlessRoute((.idle => .r1b).alsoEntering(.r2a)) { _ in false }
        machine.addHistory(.deep, to: .p, default: .r1b)
        #expect(machine.state == .idle)
    }
}

@Suite struct CompletionNestingMisuseTests {
    @Test func severalTargetsOfANestedMachinesRouteOutsideItsRegionsStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = Machine<Shape, NoEvent>(state: .idle)
            let child = Machine<Tree, NoEvent>(state: .a)
            child.addChildren([.c, .d], to: .b)
            parent.nest(child, under: .job)
            child.addEventlessRoute((.a => .c).alsoEntering(.d)) { _ in false }
        }
        #expect(
            message(of: result).contains(
                "the targets c and d of a => c + d are not in different regions of one parallel state"))
    }

    @Test func makingAnActiveStateOfANestedMachineFinalStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = Machine<Shape, NoEvent>(state: .job)
            let child = Machine<Tree, NoEvent>(state: .a)
            parent.nest(child, under: .job)
            parent.start()
            child.addFinalState(.a)
        }
        #expect(message(of: result).contains("a is active: the tree under an active state cannot change"))
    }

    @Test func makingAStateThatHostsAMachineFinalStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = Machine<Shape, NoEvent>(state: .idle)
            let child = Machine<Tree, NoEvent>(state: .a)
            let grandchild = Machine<Shape, NoEvent>(state: .idle)
            parent.nest(child, under: .job)
            child.nest(grandchild, under: .b)
            child.addFinalState(.b)
        }
        #expect(message(of: result).contains("b has a machine nested in it; a final state has no children"))
    }

    @Test func aDoneRouteOnANestedMachinesAtomicStateStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = Machine<Shape, NoEvent>(state: .idle)
            let child = Machine<Tree, NoEvent>(state: .a)
            parent.nest(child, under: .job)
            child.addDoneRoute(.a => .b)
        }
        #expect(message(of: result).contains("a has no children or regions, so it is never done"))
    }

    @Test func aNestedMachinesCompletionDeclarationsBeforeAndAfterNestingDoNotStop() {
        let parent = Machine<Shape, NoEvent>(state: .job)
        let child = Machine<Tree, NoEvent>(state: .a)
        child.addChildren([.c, .d], to: .b)
        child.addRegions([.e], to: .a)
        child.addFinalState(.d)
        child.addDoneRoute(.b => .a)
        child.addEventlessRoute(.a => .b) { _ in false }
        parent.nest(child, under: .job)
        parent.addDoneRoute(.job => .idle)
        parent.start()
        child.addFinalState(.c)
        child.addDoneRoute(.b => .e)
        child.addEventlessRoute(.e => .b) { _ in false }
        #expect(child.configuration == [.a, .e])
    }
}
