import Switchyard
import Testing

private enum Job: StateType, CaseIterable {
    case idle, work, step1, step2, finished, after
    case player, left, left1, left2, right, right1, right2
    case outside
}

private enum JobEvent: EventType, CaseIterable {
    case go, next, reset, deep, jump
}

private enum Desk: StateType {
    case home, after
    case editor(Page)
}

private enum Page: StateType {
    case composing, writing, sent
}

private enum Tree: StateType, CaseIterable {
    case idle, outer, inner, innerA, innerA1, innerA2, innerB, innerB1, innerB2, plain, plain1, plain2, after
}

/// What `validate()` reaches and leaves: done routes that are never taken,
/// the regions a step into one region enters, and the states a listed
/// mapping leads to that no declaration names.
@Suite struct ValidationReachTests {
    @Test func aDoneRouteOfAStateWithoutAFinalChildIsReportedAndReachesNothing() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addChildren([.step1, .step2], to: .work)
            machine.addRoutes(event: .go, transitions: [.idle => .work])
            machine.addRoutes(event: .next, transitions: [.step1 => .step2, .step2 => .step1])
            machine.addDoneRoute(.work => .after)
            machine.addRoutes(event: .reset, transitions: [.after => .idle])
        }
        // Routes: 0 go, 1 and 2 next, 3 done, 4 reset.
        #expect(machine.validate() == [.unreachableState(.after), .doneRouteNeverTaken(3, state: .work)])
        #expect(
            machine.validate().last?.description
                == "done route 3 is never taken: work is never done, since it has no final child (or, parallel, a region without one)"
        )
    }

    @Test func aDoneRouteOfAStateWithAFinalChildIsTaken() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addChildren([.step1, .finished], to: .work)
            machine.addFinalState(.finished)
            machine.addRoutes(event: .go, transitions: [.idle => .work])
            machine.addRoutes(event: .next, transitions: [.step1 => .finished])
            machine.addDoneRoute(.work => .after)
            machine.addRoutes(event: .reset, transitions: [.after => .idle])
        }
        #expect(machine.validate() == [])
    }

    @Test func aParallelStateIsDoneOnlyWhenEveryRegionCanBe() {
        func player(rightHasFinal: Bool) -> Machine<Job, JobEvent> {
            Machine(state: .idle) { machine in
                machine.addRegions([.left, .right], to: .player)
                machine.addChildren([.left1, .left2], to: .left)
                machine.addChildren([.right1, .right2], to: .right)
                machine.addFinalState(.left2)
                if rightHasFinal {
                    machine.addFinalState(.right2)
                }
                machine.addRoutes(event: .go, transitions: [.idle => .player])
                machine.addRoutes(event: .next, transitions: [.left1 => .left2, .right1 => .right2])
                machine.addRoutes(event: .reset, transitions: [.right2 => .right1])
                machine.addDoneRoute(.player => .after)
                machine.addRoutes(event: .reset, transitions: [.after => .idle])
            }
        }
        #expect(player(rightHasFinal: true).validate() == [.routeFromFinalState(3, state: .right2)])
        // Routes: 0 go, 1 and 2 next, 3 reset, 4 done, 5 reset.
        #expect(
            player(rightHasFinal: false).validate() == [
                .unreachableState(.after), .doneRouteNeverTaken(4, state: .player),
            ])
    }

    @Test func aStepIntoOneRegionEntersTheOtherRegionsToo() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addRegions([.left, .right], to: .player)
            machine.addChildren([.left1, .left2], to: .left)
            machine.addChildren([.right1, .right2], to: .right)
            // Straight to left2: right is entered by default, and right1 with it.
            machine.addRoutes(event: .deep, transitions: [.idle => .left2])
            machine.addRoutes(event: .next, transitions: [.left2 => .left1, .right1 => .right2])
            machine.addRoutes(event: .reset, transitions: [.player => .idle])
        }
        #expect(machine.validate() == [])
        // The machine agrees.
        machine <-! .deep
        #expect(machine.configuration == [.player, .left, .left2, .right, .right1])
    }

    @Test func aStepIntoOneRegionDoesNotEnterItsOwnRegionByDefault() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addRegions([.left, .right], to: .player)
            machine.addChildren([.left1, .left2], to: .left)
            machine.addChildren([.right1, .right2], to: .right)
            // Only into left2: left1, left's initial child, is never entered.
            machine.addRoutes(event: .deep, transitions: [.idle => .left2])
            machine.addRoutes(event: .next, transitions: [.right1 => .right2, .right2 => .right1])
            machine.addRoutes(event: .reset, transitions: [.player => .idle])
        }
        #expect(machine.validate() == [.unreachableState(.left1)])
    }

    @Test func aStateOnlyAListedMappingLeadsToIsReportedWhenNothingLeavesIt() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addChildren([.step1, .step2], to: .work)
            machine.addRoutes(event: .go, transitions: [.idle => .work])
            machine.addRoutes(event: .next, transitions: [.step1 => .step2, .step2 => .idle])
            machine.addRouteMapping { event, state, _ in event == .jump && state == .step1 ? .outside : nil }
        }
        #expect(machine.validate() == [.inescapableState(.outside)])
        // The machine agrees: it goes there, and nothing takes it out.
        machine <-! .go
        machine <-! .jump
        #expect(machine.state == .outside)
        for event in JobEvent.allCases {
            machine <-! event
        }
        #expect(machine.state == .outside)
    }

    @Test func aStateOnlyAListedMappingLeadsToIsLeftByARouteFromAny() {
        let machine = Machine<Job, JobEvent>(state: .idle) { machine in
            machine.addRoutes(event: .go, transitions: [.idle => .work])
            machine.addRoutes(event: .reset, transitions: [.work => .idle])
            machine.addRouteMapping { event, state, _ in event == .jump && state == .work ? .outside : nil }
            machine.addRoutes(event: .reset, transitions: [.any => .idle])
        }
        #expect(machine.validate() == [])
    }

    @Test func aDoneRouteOfANestedMachinesStateNamedHereIsNotReported() {
        let page = Machine<Page, JobEvent>(state: .composing) { page in
            page.addChildren([.writing, .sent], to: .composing)
            page.addFinalState(.sent)
            page.addRoutes(event: .next, transitions: [.writing => .sent])
        }
        let desk = Machine<Desk, JobEvent>(state: .home) { desk in
            desk.addRoutes(event: .go, transitions: [.home => .editor(.composing)])
            desk.addRoutes(event: .reset, transitions: [.after => .home])
        }
        desk.nest(page, as: Desk.editor)
        desk.addDoneRoute(.editor(.composing) => .after)
        #expect(desk.validate() == [])
        // The machine takes it.
        desk <-! .go
        desk <-! .next
        #expect(desk.state == .after)
    }

    @Test func aParallelStateWhoseRegionsAreAllParallelIsNeverDone() {
        func chart(plainRegion: Bool) -> Machine<Tree, JobEvent> {
            Machine(state: .idle) { machine in
                machine.addRegions(plainRegion ? [.inner, .plain] : [.inner], to: .outer)
                machine.addRegions([.innerA, .innerB], to: .inner)
                machine.addChildren([.innerA1, .innerA2], to: .innerA)
                machine.addChildren([.innerB1, .innerB2], to: .innerB)
                machine.addFinalState(.innerA2)
                machine.addFinalState(.innerB2)
                if plainRegion {
                    machine.addChildren([.plain1, .plain2], to: .plain)
                    machine.addFinalState(.plain2)
                }
                machine.addRoutes(event: .go, transitions: [.idle => .outer])
                machine.addRoutes(
                    event: .next,
                    transitions: [.innerA1 => .innerA2, .innerB1 => .innerB2]
                        + (plainRegion ? [.plain1 => .plain2] : []))
                machine.addDoneRoute(.outer => .after)
                machine.addRoutes(event: .reset, transitions: [.after => .idle])
            }
        }
        // A final state entered inside `inner`'s regions completes `inner`,
        // and the engine asks no further up: `outer` is never done.
        let nested = chart(plainRegion: false)
        #expect(nested.validate() == [.unreachableState(.after), .doneRouteNeverTaken(3, state: .outer)])
        nested <-! .go
        nested <-! .next
        #expect(nested.state != .after)
        // With a region that is not parallel, entering its final state last asks `outer`.
        let mixed = chart(plainRegion: true)
        #expect(mixed.validate() == [])
        mixed <-! .go
        mixed <-! .next
        #expect(mixed.state == .after)
    }
}
