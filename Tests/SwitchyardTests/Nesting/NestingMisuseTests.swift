import Switchyard
import Testing

// A nesting that cannot make one hierarchy stops the program with a message
// that names the rule, in every build (each case in a child process). The
// control case shows that a correct nesting does not stop.

private enum Outer: StateType {
    case idle, busy, held
    case inner(Inner)
}

private enum Inner: StateType {
    case a, b
}

private enum Signal: EventType {
    case go
}

private enum OtherSignal: EventType {
    case other
}

@Suite struct NestingMisuseTests {
    @Test func aCorrectNestingDoesNotStop() async throws {
        await #expect(processExitsWith: .success) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy, as: Outer.inner)
            outer.nest(Machine<Inner, NoEvent>(state: .a), under: .held)
            outer <- .busy
        }
    }

    @Test func anEmbeddingThatMapsTheParentsOwnStatesStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let inner = Machine<Outer, Signal>(state: .idle)
            outer.nest(inner, under: .busy, as: { $0 })
        }
        #expect(message(of: result).contains("names the nested machine's state idle as idle"))
    }

    @Test func anEmbeddingOfAnotherCaseStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let inner = Machine<Inner, Signal>(state: .a)
            inner.addRoute(.a => .b)
            outer.nest(inner, as: { $0 == .a ? .inner(.a) : .held })
        }
        #expect(message(of: result).contains("names the nested machine's state b as held"))
    }

    @Test func aMachineNestedInItselfStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(outer, under: .busy)
        }
        #expect(message(of: result).contains("a machine cannot be nested in itself"))
    }

    @Test func aStatechartNestedFromItsOwnHandlerStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let inner = Machine<Inner, Signal>(state: .a)
            inner.addRoutes(event: .go, transitions: [.a => .b])
            // An entry handler makes it a statechart.
            inner.addEntryHandler(.b) { _ in outer.nest(inner, under: .held) }
            inner <-! .go
        }
        #expect(message(of: result).contains("a machine cannot be nested while it, or a machine nested in it,"))
    }

    @Test func aFlatMachineNestedFromItsOwnHandlerDoesNotStop() async throws {
        await #expect(processExitsWith: .success) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let inner = Machine<Inner, Signal>(state: .a)
            inner.addRoutes(event: .go, transitions: [.a => .b])
            // A flat machine's request lends no chart: nesting it from its
            // own handler is allowed.
            // Unowned: the machines hold the handler (and, once nested,
            // each other), so strong captures would leak them.
            inner.addHandler(event: .go) { [unowned outer, unowned inner] _ in outer.nest(inner, under: .held) }
            inner <-! .go
            outer <- .held
            precondition(inner.state == .b)
        }
    }

    @Test func aStatechartNestedFromItsOwnConditionStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let inner = Machine<Inner, Signal>(state: .a)
            inner.addEventlessRoute(.a => .b) { _ in
                outer.nest(inner, under: .held)
                return true
            }
            inner.start()
        }
        #expect(message(of: result).contains("a machine cannot be nested while it, or a machine nested in it,"))
    }

    @Test func aMachineNestedInItsOwnDescendantStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let middle = Machine<Outer, Signal>(state: .idle)
            outer.nest(middle, under: .busy)
            middle.nest(outer, under: .held)
        }
        #expect(message(of: result).contains("cannot nest a machine in a machine nested inside it"))
    }

    @Test func aMachineNestedTwiceStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let inner = Machine<Inner, Signal>(state: .a)
            let first = Machine<Outer, Signal>(state: .idle)
            first.nest(inner, under: .busy)
            Machine<Outer, Signal>(state: .idle).nest(inner, under: .busy)
            withExtendedLifetime(first) {}
        }
        #expect(
            message(of: result).contains(
                "is already nested in another machine; a machine can be nested in one place only"))
    }

    @Test func aMachineIsFreeToNestAgainOnceItsRootIsGone() {
        let inner = Machine<Inner, Signal>(state: .a) { $0.addRoute(.a => .b) }
        Machine<Outer, Signal>(state: .idle).nest(inner, under: .busy)
        // The root released, the machine stands alone again.
        #expect(inner.tryState(.b))
        let outer = Machine<Outer, Signal>(state: .busy)
        outer.nest(inner, under: .busy, as: Outer.inner)
        #expect(outer.state == .inner(.b))
    }

    @Test func aHostWithDeclaredChildrenStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.addChildren([.held], to: .busy)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy)
        }
        #expect(message(of: result).contains("busy has declared children or regions"))
    }

    @Test func aHostWithAMachineAlreadyStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy)
        }
        #expect(message(of: result).contains("busy already has a machine nested in it"))
    }

    @Test func anActiveHostStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .held)
            outer.addRoute(.idle => .busy)
            outer <- .busy
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy)
        }
        #expect(message(of: result).contains("busy is active; once the hierarchy has begun"))
    }

    @Test func aChildInAnotherStateThanItsParentSaysStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .inner(.a))
            outer.nest(Machine<Inner, Signal>(state: .b), as: Outer.inner)
        }
        #expect(message(of: result).contains("but the machine being nested is in b; nest it in the state it is in"))
    }

    @Test func aChildWithOtherEventsStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, OtherSignal>(state: .a), under: .busy)
        }
        #expect(message(of: result).contains("a nested machine's events must be its parent's"))
    }

    @Test func neitherAHostNorACaseStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Machine<Outer, Signal>(state: .idle).nest(Machine<Inner, Signal>(state: .a))
        }
        #expect(message(of: result).contains("nest(_:under:as:) needs the state to nest the machine under"))
    }

    @Test func twoMachinesNestedAsTheSameCaseStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), as: Outer.inner)
            outer.nest(Machine<Inner, Signal>(state: .b), as: Outer.inner)
        }
        #expect(message(of: result).contains("another machine is already nested as the enum case of inner("))
        #expect(message(of: result).contains("Inner.b); two machines nested in one machine need an enum case each"))
    }

    @Test func twoMachinesNestedAsTheSameCaseUnderTwoStatesStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy, as: Outer.inner)
            outer.nest(Machine<Inner, NoEvent>(state: .a), under: .held, as: Outer.inner)
        }
        #expect(message(of: result).contains("another machine is already nested as the enum case of inner("))
        #expect(message(of: result).contains("Inner.a); two machines nested in one machine need an enum case each"))
    }

    @Test func machinesNestedAsTheSameCaseInTwoMachinesDoNotStop() async throws {
        await #expect(processExitsWith: .success) {
            let outer = Machine<Outer, Signal>(state: .idle)
            let middle = Machine<Outer, Signal>(state: .idle)
            outer.nest(middle, under: .busy)
            outer.nest(Machine<Inner, Signal>(state: .a), as: Outer.inner)
            middle.nest(Machine<Inner, Signal>(state: .a), as: Outer.inner)
            outer <- .busy
        }
    }

    @Test func aSecondHistoryOfAnotherKindOnAHostStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = Machine<Outer, Signal>(state: .idle)
            outer.nest(Machine<Inner, Signal>(state: .a), under: .busy)
            outer.addHistory(.shallow, to: .busy)
            outer.addHistory(.deep, to: .busy)
        }
        #expect(message(of: result).contains("busy already keeps shallow history; a state keeps one kind of history"))
    }
}

@Suite struct NestingLateRouteTests {
    private enum Outer: StateType {
        case job, next
    }

    private enum Inner: StateType {
        case filling, full
    }

    private enum Signal: EventType {
        case go, leave
    }

    /// A route added to the root after the hierarchy has taken a step, to a
    /// state nothing named before, used to index past the composed tree.
    @Test func aRouteToANewStateAddedAfterTheHierarchyBeganIsTaken() {
        let parent = Machine<Outer, Signal>(state: .job)
        let child = Machine<Inner, Signal>(state: .filling)
        child.addRoutes(event: .go, transitions: [.filling => .full])
        parent.nest(child, under: .job)
        #expect(child.tryEvent(.go))
        parent.addRoutes(event: .leave, transitions: [.job => .next])
        #expect(parent.tryEvent(.leave))
        #expect(parent.state == .next)
        #expect(parent.configuration == [.next])
    }
}
