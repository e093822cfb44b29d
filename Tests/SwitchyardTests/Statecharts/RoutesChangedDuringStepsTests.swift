import Switchyard
import Testing

// A statechart's step reads the machine's routes while conditions run, and a
// condition may add or dispose routes (SPEC 3.2 leaves the machine usable
// from them): the choice under way reads the routes as they were when it
// began; later choices, the eventless and done routes of the same macrostep
// included, read them as changed.

private enum Room: StateType, CaseIterable {
    case hall, kitchen, cellar, attic, done
}

private enum Walk: EventType {
    case go, up
}

private typealias House = Machine<Room, Walk>

/// `kitchen` and `cellar` inside `hall`, so that the machine is a statechart.
private func makeHouse() -> House {
    let house = House(state: .kitchen)
    house.addChildren([.kitchen, .cellar], to: .hall)
    return house
}

@Suite struct RoutesChangedDuringStepsTests {
    @Test func routesAConditionAddsAreTakenByLaterRequests() {
        let house = makeHouse()
        house.addRoutes(event: .go, transitions: [.kitchen => .cellar]) { [unowned house] _ in
            for _ in 0..<100 {
                house.addRoutes(event: .up, transitions: [.cellar => .attic])
            }
            return true
        }
        #expect(house.tryEvent(.go))
        #expect(house.state == .cellar)
        #expect(house.tryEvent(.up))
        #expect(house.state == .attic)
    }

    @Test func aConditionThatDisposesItsOwnRouteIsTakenThisTimeOnly() {
        let house = makeHouse()
        var route: Disposable?
        route = house.addRoutes(event: .go, transitions: [.kitchen => .cellar, .cellar => .kitchen]) { _ in
            route?.dispose()
            return true
        }
        #expect(house.tryEvent(.go))
        #expect(house.state == .cellar)
        #expect(!house.tryEvent(.go))
        #expect(house.state == .cellar)
    }

    @Test func anEventlessConditionThatAddsARouteIsFollowedInTheSameMacrostep() {
        let house = makeHouse()
        var added = false
        house.addRoutes(event: .go, transitions: [.kitchen => .cellar])
        house.addEventlessRoute(.cellar => .attic) { [unowned house] _ in
            if !added {
                added = true
                house.addEventlessRoute(.attic => .done)
            }
            return true
        }
        #expect(house.tryEvent(.go))
        #expect(house.state == .done)
    }

    @Test func aDoneConditionThatDisposesRoutesLeavesTheMacrostepWhole() {
        let house = makeHouse()
        house.addFinalState(.cellar)
        house.addRoutes(event: .go, transitions: [.kitchen => .cellar])
        var others: [Disposable] = []
        for _ in 0..<50 {
            others.append(house.addRoutes(event: .up, transitions: [.attic => .hall]))
        }
        house.addDoneRoute(.hall => .attic) { _ in
            for route in others { route.dispose() }
            return true
        }
        #expect(house.tryEvent(.go))
        #expect(house.state == .attic)
        #expect(!house.tryEvent(.up), "a route disposed by a done route's condition was still taken")
    }

    @Test func aNestedMachinesConditionMayChangeItsOwnRoutes() {
        let house = makeHouse()
        let attic = Machine<Room, Walk>(state: .hall)
        attic.addRoutes(event: .up, transitions: [.hall => .kitchen]) { [unowned attic] _ in
            attic.addRoutes(event: .go, transitions: [.kitchen => .done])
            return true
        }
        house.addRoutes(event: .up, transitions: [.kitchen => .attic])
        house.nest(attic, under: .attic)
        #expect(house.tryEvent(.up))
        #expect(house.state == .attic)
        #expect(attic.tryEvent(.up))
        #expect(attic.state == .kitchen)
        #expect(attic.tryEvent(.go))
        #expect(attic.state == .done)
    }

    @Test func anActionWhoseRouteItsConditionDisposedDoesNotRun() {
        // The condition disposes its route and the route's action, then adds
        // handlers, which may take the action's place in the table: the step
        // is taken, but no action, and none of the new handlers as one.
        let house = makeHouse()
        var log: [String] = []
        var route: Disposable?
        route = house.addRoute(
            event: .go, .kitchen => .cellar,
            condition: { [unowned house] _ in
                route?.dispose()
                for index in 0..<3 {
                    house.addHandler(event: .up) { _ in log.append("handler \(index)") }
                }
                return true
            },
            action: { _ in log.append("action") })
        #expect(house.tryEvent(.go))
        #expect(house.state == .cellar)
        #expect(log.isEmpty)
    }

    @Test func aNestedMachinesRouteItsConditionDisposedIsTakenWithoutItsAction() {
        // The route's action makes it one whose guard says more than its
        // target, read as the condition found it; the action, disposed with
        // the route, does not run.
        let house = makeHouse()
        let attic = Machine<Room, Walk>(state: .hall)
        var log: [String] = []
        var route: Disposable?
        route = attic.addRoute(
            event: .up, .hall => .kitchen,
            condition: { [unowned attic] _ in
                route?.dispose()
                attic.addRoutes(event: .go, transitions: [.kitchen => .cellar])
                return true
            },
            action: { _ in log.append("action") })
        house.addRoutes(event: .up, transitions: [.kitchen => .attic])
        house.nest(attic, under: .attic)
        #expect(house.tryEvent(.up))
        #expect(attic.tryEvent(.up))
        #expect(attic.state == .kitchen)
        #expect(log.isEmpty)
        #expect(attic.tryEvent(.go))
        #expect(attic.state == .cellar)
    }

    @Test func anEntryHandlerAddedDuringAStepHearsTheNextStepOnly() {
        // The machine has no entry handler when the step begins: the one a
        // transition handler adds is heard from the next step on.
        let house = makeHouse()
        var log: [String] = []
        var added = false
        house.addRoutes(event: .go, transitions: [.kitchen => .cellar, .cellar => .kitchen])
        house.addAnyHandler(.any => .any) { [unowned house] _ in
            guard !added else { return }
            added = true
            house.addEntryHandler(.cellar) { _ in log.append("enter cellar") }
            house.addEntryHandler(.kitchen) { _ in log.append("enter kitchen") }
        }
        #expect(house.tryEvent(.go))
        #expect(log.isEmpty)
        #expect(house.tryEvent(.go))
        #expect(log == ["enter kitchen"])
    }
}
