import Switchyard
import Testing

private enum Light: StateType, CaseIterable {
    case off, on, dim, bright, broken, fixed
}

private enum Switch: EventType, CaseIterable {
    case toggle, brighten, dim, smash, repair, reset
}

private enum Phase: StateType, CaseIterable {
    case solid, liquid, gas
}

private enum Change: EventType, CaseIterable {
    case melt, freeze, vaporize, condense
}

private enum Work: StateType {
    case idle, running, cutting, sanding, finished, split, left, right
}

private enum Order: EventType {
    case start, cut, sand, stop, split
}

/// A state with a number, for machines with many states.
private struct Numbered: StateType {
    var number: Int
}

private enum Shop: StateType {
    case cart, fulfilment, payment, awaitingPayment, paid, packing, picking, packed, shipped, delivered
}

private enum ShopEvent: EventType {
    case checkout, pay, pack, rush, cancel, deliver
}

private enum Studio: StateType {
    case off, player, playing, paused, wizard, form, name, address, confirm
}

private enum StudioEvent: EventType {
    case play, pause, resume, stop, setup, back, previous, reset
}

private enum Text: StateType {
    case closed, editing, bold, boldOff, boldOn, italic, italicOff, italicOn
}

private enum TextEvent: EventType {
    case open, reopen, reset, toggleItalic, close
}

/// An event for one region of a machine with many.
private struct Flip: EventType {
    var region: Int
}

@Suite struct TestPathTests {
    /// Replays every path of `paths` on a fresh machine from `make`.
    private func expectReplays<S, E>(
        _ paths: TestPaths<S, E>, on make: () -> Machine<S, E>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for path in paths.paths {
            #expect(path.replay(on: make()), "\(path)", sourceLocation: sourceLocation)
            #expect(path.steps.count == path.states.count, sourceLocation: sourceLocation)
        }
    }

    @Test func doorPathsReachEveryStateAndReplay() {
        let paths = makeReadmeDoor().shortestPaths()
        #expect(paths.paths.map(\.target) == [.open, .closed, .locked])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2])
        #expect(paths.paths[2].steps == [.event(.close), .event(.lock)])
        #expect(paths.paths[2].states == [.closed, .locked])
        #expect(
            paths.paths.map(\.description) == [
                "open: open", "open -> event close: closed", "open -> event close -> event lock: locked",
            ])
        #expect(paths.unreachedStates.isEmpty)
        // Unlocking has a condition: no path claims it.
        #expect(paths.uncoveredRoutes == [3])
        expectReplays(paths, on: makeReadmeDoor)
    }

    @Test func ringPathsGoRoundInOrder() {
        func makeRing() -> Machine<Numbered, ReadmeDoorEvent> {
            Machine(state: Numbered(number: 0)) { ring in
                for index in 0..<5 {
                    ring.addRoutes(
                        event: .close, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % 5)])
                }
            }
        }
        let paths = makeRing().shortestPaths()
        #expect(paths.paths.map(\.target.number) == [0, 1, 2, 3, 4])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2, 3, 4])
        expectReplays(paths, on: makeRing)
        let covering = makeRing().routeCoveringPaths()
        #expect(covering.paths.count == 1)
        #expect(covering.paths[0].routes == [0, 1, 2, 3, 4])
        #expect(covering.uncoveredRoutes.isEmpty)
        expectReplays(covering, on: makeRing)
    }

    /// A light whose `on` state has children, `bright` the initial one.
    private func makeLight() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addChildren([.dim, .bright], to: .on, initial: .bright)
            light.addRoutes(event: .toggle, transitions: [.off => .on, .on => .off])
            light.addRoutes(event: .dim, transitions: [.bright => .dim])
            light.addRoutes(event: .brighten, transitions: [.dim => .bright])
            light.addRoutes(event: .smash, transitions: [.on => .broken])
            light.addRoute(.broken => .off)
        }
    }

    /// A state request takes the first route on the walk that allows it,
    /// an event's route too (SPEC §3.2, as `tryState` does): from `cutting`,
    /// its `stop` route to `finished` before `running`'s state route. A path
    /// claims the routes the machine takes, so the state route is covered
    /// only from `sanding`, which has no route to `finished` of its own; a
    /// machine that cannot reach `sanding` never takes it.
    @Test(arguments: [true, false])
    func aStateRequestTakesAChildsEventRouteBeforeItsParentsStateRoute(sands: Bool) {
        func make() -> Machine<Work, Order> {
            Machine(state: .idle) { machine in
                machine.addChildren([.cutting, .sanding], to: .running)
                machine.addRoutes(event: .start, transitions: [.idle => .running])
                machine.addRoutes(event: .stop, transitions: [.cutting => .finished])
                machine.addRoute(.running => .finished)
                if sands {
                    machine.addRoutes(event: .sand, transitions: [.cutting => .sanding])
                }
            }
        }
        let description = make().describe()
        let covering = description.routeCoveringPaths()
        for paths in [description.shortestPaths(), covering] {
            for path in paths.paths {
                let machine = make()
                var taken: [String] = []
                let inspection = machine.inspect { inspection in
                    taken += inspection.routes.map { "\($0.source.map { "\($0)" } ?? "any") => \($0.target!)" }
                }
                #expect(path.replay(on: machine), "\(path)")
                inspection.dispose()
                let claimed = path.routes.map { route in
                    let described = description.routes[route]
                    return "\(described.source.map { "\($0)" } ?? "any") => \(described.target!)"
                }
                #expect(taken == claimed, "\(path)")
            }
        }
        #expect(covering.uncoveredRoutes == (sands ? [] : [2]))
    }

    @Test func nestedStatechartPathsEnterInitialChildren() {
        let description = makeLight().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.on]?.finalState == .bright)
        #expect(byTarget[.on]?.steps.count == 1)
        #expect(byTarget[.dim]?.steps.count == 2)
        // The smash route leaves from `on`, taken from inside it.
        #expect(byTarget[.broken]?.steps.count == 2)
        #expect(byTarget[.broken]?.states == [.bright, .broken])
        #expect(paths.unreachedStates.isEmpty)
        expectReplays(paths, on: makeLight)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: makeLight)
    }

    /// `.any` routes and a mapping that lists its moves.
    private func makeMappedLight() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addRoutes(event: .toggle, transitions: [.off => .on, .on => .off])
            light.addRoutes(event: .smash, transitions: [.any => .broken])
            light.addRoutes(event: .any, transitions: [.broken => .fixed])
            light.addRoute(.any => .off)
            light.addRouteMapping { event, state, _ in
                switch (event, state) {
                case (.brighten?, .on): return .bright
                case (.dim?, .bright): return .dim
                default: return nil
                }
            }
        }
    }

    @Test func anyRoutesAndListedMappingsAreFollowed() {
        let description = makeMappedLight().describe()
        let paths = description.shortestPaths()
        #expect(paths.unreachedStates.isEmpty)
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.broken]?.steps.count == 1)
        #expect(byTarget[.fixed]?.steps.count == 2)
        #expect(byTarget[.dim]?.steps.count == 3)
        expectReplays(paths, on: makeMappedLight)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: makeMappedLight)
    }

    /// Eventless routes, with and without a condition.
    private func makeRelay() -> Machine<Light, Switch> {
        Machine(state: .off) { light in
            light.addRoutes(event: .toggle, transitions: [.off => .on])
            light.addEventlessRoute(.on => .bright)
            light.addRoutes(event: .smash, transitions: [.bright => .broken])
            light.addEventlessRoute(.broken => .fixed) { _ in true }
            light.addRoutes(event: .reset, transitions: [.bright => .off])
        }
    }

    @Test func eventlessRoutesAreTakenAfterTheStep() {
        let description = makeRelay().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        // `on` is left at once for `bright`: no path stays in it.
        #expect(byTarget[.on] == nil)
        #expect(byTarget[.bright]?.steps.count == 1)
        #expect(byTarget[.bright]?.routes == [0, 1])
        // Where `broken` settles depends on a condition: not claimed.
        #expect(paths.unreachedStates == [.on, .broken, .fixed])
        #expect(paths.uncoveredRoutes == [2, 3])
        expectReplays(paths, on: makeRelay)
        expectReplays(description.routeCoveringPaths(), on: makeRelay)
    }

    @Test func everyRouteIsTakenBySomeCoveringPath() {
        let description = makeReadmeDoor().describe()
        let covering = description.routeCoveringPaths()
        let taken = Set(covering.paths.flatMap(\.routes))
        #expect(taken.union(covering.uncoveredRoutes) == Set(description.routes.indices))
        #expect(covering.paths.count == 2)
        expectReplays(covering, on: makeReadmeDoor)
    }

    @Test func mappingOverIntegersIsBounded() {
        func makeCounter() -> Machine<Numbered, ReadmeDoorEvent> {
            Machine(state: Numbered(number: 0)) { counter in
                counter.addRoutes(
                    event: .open,
                    transitions: [
                        Numbered(number: 0) => Numbered(number: 1), Numbered(number: 1) => Numbered(number: 2),
                    ])
                // Over every integer: cannot be listed, so no path goes through it.
                counter.addRouteMapping { event, state, _ in
                    event == .close ? Numbered(number: state.number + 1) : nil
                }
            }
        }
        let paths = makeCounter().shortestPaths(maxLength: 8)
        #expect(paths.paths.map(\.target.number) == [0, 1, 2])
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        expectReplays(paths, on: makeCounter)
        // Shorter paths than some states need: those are left out.
        let short = makeCounter().shortestPaths(maxLength: 1)
        #expect(short.paths.map(\.target.number) == [0, 1])
        #expect(short.unreachedStates == [Numbered(number: 2)])
        #expect(short.uncoveredRoutes == [1])
    }

    @Test func tenThousandRouteRingIsQuick() {
        let count = 10_000
        let ring = Machine<Numbered, ReadmeDoorEvent>(state: Numbered(number: 0)) { machine in
            for index in 0..<count {
                machine.addRoutes(
                    event: .close, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
            }
        }
        let description = ring.describe()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            // Linear search; the paths to all 10,000 states would total 50 million steps.
            let paths = description.shortestPaths()
            #expect(paths.paths.count == 65)
            #expect(paths.unreachedStates.count == count - 65)
            let covering = description.routeCoveringPaths(maxLength: count)
            #expect(covering.paths.count == 1)
            #expect(covering.uncoveredRoutes.isEmpty)
        }
        #expect(elapsed < .seconds(20))
    }

    @Test func pathsToEveryStateOfALargeRingAreShortestAndReplay() {
        let count = 300
        func makeRing() -> Machine<Numbered, ReadmeDoorEvent> {
            Machine(state: Numbered(number: 0)) { machine in
                for index in 0..<count {
                    machine.addRoutes(
                        event: .close, transitions: [Numbered(number: index) => Numbered(number: (index + 1) % count)])
                }
            }
        }
        let paths = makeRing().shortestPaths(maxLength: count)
        #expect(paths.paths.map(\.target.number) == Array(0..<count))
        #expect(paths.paths.map(\.steps.count) == Array(0..<count))
        #expect(paths.paths.allSatisfy { $0.states.map(\.number) == Array(1..<($0.steps.count + 1)) })
        #expect(paths.unreachedStates.isEmpty)
        for path in paths.paths where path.target.number % 50 == 49 {
            #expect(path.replay(on: makeRing()), "\(path)")
        }
    }

    @Test func definitionPathsReplayOnItsMachines() {
        let matter = Definition<Phase, Change, String>(initialState: .solid) {
            From(.solid) { On(.melt, transitionTo: .liquid, emit: "melted") }
            From(.liquid) {
                On(.freeze, transitionTo: .solid, emit: "froze")
                On(.vaporize, transitionTo: .gas, emit: "vaporized")
            }
            From(.gas) { On(.condense, transitionTo: .liquid, emit: "condensed") }
        }
        let description = matter.describe()
        let paths = description.shortestPaths()
        #expect(paths.paths.map(\.target) == [.solid, .liquid, .gas])
        #expect(paths.paths.map(\.steps.count) == [0, 1, 2])
        expectReplays(paths, on: { matter.makeMachine() })
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(Set(covering.paths.flatMap(\.routes)) == Set(description.routes.indices))
        expectReplays(covering, on: { matter.makeMachine() })
    }

    /// A workshop: a compound state with a final child and a done route, a
    /// parallel state, and a compound state with history.
    private func makeWorkshop() -> Machine<Work, Order> {
        Machine(state: .idle) { workshop in
            workshop.addChildren([.cutting, .sanding, .finished], to: .running)
            workshop.addFinalState(.finished)
            workshop.addRegions([.left, .right], to: .split)
            workshop.addRoutes(event: .start, transitions: [.idle => .running])
            workshop.addRoutes(event: .sand, transitions: [.cutting => .sanding])
            workshop.addRoutes(event: .stop, transitions: [.sanding => .finished])
            workshop.addDoneRoute(.running => .idle)
            workshop.addRoutes(event: .split, transitions: [.idle => .split])
        }
    }

    @Test func doneRoutesAreTakenAndParallelStatesAreFollowed() throws {
        let description = makeWorkshop().describe()
        let paths = description.shortestPaths()
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        #expect(byTarget[.running]?.finalState == .cutting)
        #expect(byTarget[.sanding]?.steps.count == 2)
        // Entering `finished` completes `running`, whose done route leads back to `idle`.
        #expect(byTarget[.finished] == nil)
        // Both regions of `split` are active together.
        for state: Work in [.split, .left, .right] {
            #expect(byTarget[state]?.steps == [.event(.split)])
            #expect(byTarget[state]?.states == [.split])
            #expect(byTarget[state]?.configurations == [[.split, .left, .right]])
        }
        #expect(paths.unreachedStates == [.finished])
        expectReplays(paths, on: makeWorkshop)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        let stopping = try #require(covering.paths.first { $0.routes.contains(3) })
        let stop = try #require(stopping.steps.firstIndex(of: .event(.stop)))
        #expect(stopping.states[stop] == .idle)
        expectReplays(covering, on: makeWorkshop)
    }

    @Test func historyWithNothingRecordedEntersTheInitialChild() {
        func makeRemembering() -> Machine<Work, Order> {
            Machine(state: .idle) { workshop in
                workshop.addChildren([.cutting, .sanding], to: .running)
                workshop.addHistory(.shallow, to: .running)
                workshop.addRoutes(event: .start, transitions: [.idle => .running])
                workshop.addRoutes(event: .sand, transitions: [.cutting => .sanding])
                workshop.addRoutes(event: .stop, transitions: [.running => .idle])
            }
        }
        let paths = makeRemembering().shortestPaths()
        // Entering `running` goes through its history, which the search
        // follows: nothing is recorded on the way to its states.
        #expect(
            paths.paths.map(\.description) == [
                "idle -> event start: running", "idle -> event start: cutting",
                "idle -> event start -> event sand: sanding", "idle: idle",
            ])
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        expectReplays(paths, on: makeRemembering)
        expectReplays(makeRemembering().routeCoveringPaths(), on: makeRemembering)
    }

    @Test func anUnsettledStartGivesNoPaths() {
        let relay = Machine<Light, Switch>(state: .on) { light in
            light.addEventlessRoute(.on => .bright)
            light.addRoutes(event: .toggle, transitions: [.bright => .off])
        }
        // Whether a fresh machine has taken the eventless route yet is not modelled.
        let paths = relay.shortestPaths()
        #expect(paths.paths.isEmpty)
        #expect(paths.unreachedStates == [.on, .bright, .off])
        #expect(paths.uncoveredRoutes == [0, 1])
    }

    @Test func aParallelStateDoneAtTheStartIsNotCompletedByAFreshMachine() {
        // Both regions of `split` start in a final child, so `split` is done
        // from the start; a fresh machine takes its done route only once
        // started, which test paths do not do.
        func makeDoneAtStart() -> Machine<Work, Order> {
            Machine(state: .split) { workshop in
                workshop.addRegions([.left, .right], to: .split)
                workshop.addChildren([.cutting, .sanding], to: .left)
                workshop.addChildren([.finished], to: .right)
                workshop.addFinalState(.cutting)
                workshop.addFinalState(.finished)
                workshop.addRoutes(event: .sand, transitions: [.cutting => .sanding])
                workshop.addDoneRoute(.split => .idle)
            }
        }
        let paths = makeDoneAtStart().shortestPaths()
        #expect(paths.paths.map(\.target) == [.split, .left, .right, .cutting, .sanding, .finished])
        let sanding = paths.paths.first { $0.target == .sanding }
        #expect(sanding?.configurations == [[.split, .left, .sanding, .right, .finished]])
        #expect(paths.unreachedStates == [.idle])
        #expect(paths.uncoveredRoutes == [1])
        expectReplays(paths, on: makeDoneAtStart)
    }

    @Test func aCompoundStateDoneAtTheStartIsNotCompletedByAFreshMachine() {
        // `running` starts in its final child, so it is done from the start,
        // as `split` is above; a fresh machine offers that completion to
        // its done route only once started, which test paths do not do.
        func makeDoneAtStart() -> Machine<Work, Order> {
            Machine(state: .running) { workshop in
                workshop.addChildren([.finished, .cutting], to: .running)
                workshop.addFinalState(.finished)
                workshop.addRoutes(event: .cut, transitions: [.finished => .cutting])
                workshop.addDoneRoute(.running => .idle)
            }
        }
        let paths = makeDoneAtStart().shortestPaths()
        #expect(paths.paths.map(\.target) == [.running, .finished, .cutting])
        let cutting = paths.paths.first { $0.target == .cutting }
        #expect(cutting?.steps == [.event(.cut)])
        #expect(paths.unreachedStates == [.idle])
        #expect(paths.uncoveredRoutes == [1])
        expectReplays(paths, on: makeDoneAtStart)
        // Started, the machine does take it.
        let started = makeDoneAtStart()
        started.start()
        #expect(started.state == .idle)
    }

    @Test func routesFromStatesOfANestedMachineAreNotTakenFromElsewhere() {
        enum App: StateType {
            case home
            case editor(Draft)
        }
        enum Draft: StateType { case viewing, typing }
        func makeApp() -> Machine<App, NoEvent> {
            let app = Machine<App, NoEvent>(state: .home) { app in
                app.addRoute(.home => .editor(.viewing))
                app.addRoute(.editor(.typing) => .home)
            }
            app.nest(Machine<Draft, NoEvent>(state: .viewing) { $0.addRoute(.viewing => .typing) }, as: App.editor)
            return app
        }
        #expect(!makeApp().tryState(.home))
        // Where the nested machine goes is not modelled: the route into it is
        // uncertain, and the route out of it is never reached.
        let covering = makeApp().routeCoveringPaths()
        #expect(covering.paths.isEmpty)
        #expect(covering.uncoveredRoutes == [0, 1])
        expectReplays(covering, on: makeApp)
    }

    @Test func aFinishedMachineTakesNoFurtherSteps() {
        func makeOneShot() -> Machine<Light, Switch> {
            Machine(state: .off) { light in
                light.addFinalState(.broken)
                light.addRoutes(event: .smash, transitions: [.off => .broken])
                light.addRoutes(event: .repair, transitions: [.broken => .fixed])
            }
        }
        let paths = makeOneShot().shortestPaths()
        // The states come in the order they were named: `broken` by `addFinalState`.
        #expect(paths.paths.map(\.target) == [.broken, .off])
        #expect(paths.unreachedStates == [.fixed])
        #expect(paths.uncoveredRoutes == [1])
        expectReplays(paths, on: makeOneShot)
        let finished = makeOneShot()
        #expect(finished.tryEvent(.smash))
        #expect(!finished.tryEvent(.repair))
    }

    /// A shop: checking out enters a parallel state whose two regions are
    /// done once paid and packed; rushing does both at once.
    private func makeShop() -> Machine<Shop, ShopEvent> {
        Machine(state: .cart) { shop in
            shop.addRegions([.payment, .packing], to: .fulfilment)
            shop.addChildren([.awaitingPayment, .paid], to: .payment)
            shop.addChildren([.picking, .packed], to: .packing)
            shop.addFinalState(.paid)
            shop.addFinalState(.packed)
            shop.addFinalState(.delivered)
            shop.addRoutes(event: .checkout, transitions: [.cart => .fulfilment])
            shop.addRoutes(event: .pay, transitions: [.awaitingPayment => .paid])
            shop.addRoutes(event: .pack, transitions: [.picking => .packed])
            shop.addRoutes(event: .rush, transitions: [.awaitingPayment => .paid, .picking => .packed])
            // Both regions choose a route out of `fulfilment`: they conflict, and the first stays.
            shop.addRoutes(event: .cancel, transitions: [.awaitingPayment => .cart, .picking => .cart])
            shop.addDoneRoute(.fulfilment => .shipped)
            shop.addRoutes(event: .deliver, transitions: [.shipped => .delivered])
        }
    }

    /// A studio: `player` keeps shallow history; `wizard` deep history
    /// whose default is `confirm`.
    private func makeStudio() -> Machine<Studio, StudioEvent> {
        Machine(state: .off) { studio in
            studio.addChildren([.playing, .paused], to: .player)
            studio.addHistory(.shallow, to: .player)
            studio.addChildren([.form, .confirm], to: .wizard)
            studio.addChildren([.name, .address], to: .form)
            studio.addHistory(.deep, to: .wizard, default: .confirm)
            studio.addRoutes(event: .play, transitions: [.off => .player])
            studio.addRoutes(event: .pause, transitions: [.playing => .paused])
            studio.addRoutes(event: .resume, transitions: [.off => .player])
            studio.addRoutes(event: .stop, transitions: [.player => .off, .wizard => .off])
            studio.addRoutes(event: .setup, transitions: [.off => .wizard])
            studio.addRoutes(event: .back, transitions: [.confirm => .address])
            studio.addRoutes(event: .previous, transitions: [.address => .name])
            studio.addRoutes(event: .reset, transitions: [.ignoringHistory(.off => .wizard)])
        }
    }

    /// A text editor: a parallel state with deep history whose default is
    /// `boldOn`; it closes only from `italicOn`.
    private func makeText() -> Machine<Text, TextEvent> {
        Machine(state: .closed) { text in
            text.addRegions([.bold, .italic], to: .editing)
            text.addChildren([.boldOff, .boldOn], to: .bold)
            text.addChildren([.italicOff, .italicOn], to: .italic)
            text.addHistory(.deep, to: .editing, default: .boldOn)
            text.addRoutes(event: .open, transitions: [.closed => .editing])
            text.addRoutes(event: .reopen, transitions: [.closed => .editing])
            text.addRoutes(event: .reset, transitions: [.ignoringHistory(.closed => .editing)])
            text.addRoutes(event: .close, transitions: [.italicOn => .closed])
            text.addRoutes(event: .toggleItalic, transitions: [.italicOff => .italicOn, .italicOn => .italicOff])
        }
    }

    @Test func parallelStatesAreEnteredInEveryRegionAndCompleteWithTheirDoneRoute() {
        let description = makeShop().describe()
        let paths = description.shortestPaths()
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        #expect(!paths.isTruncated)
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        let entered: [Shop] = [.fulfilment, .payment, .awaitingPayment, .packing, .picking]
        for region in entered {
            #expect(byTarget[region]?.steps == [.event(.checkout)])
            #expect(byTarget[region]?.states == [.fulfilment])
            #expect(byTarget[region]?.configurations == [entered])
        }
        #expect(byTarget[.paid]?.steps == [.event(.checkout), .event(.pay)])
        #expect(byTarget[.paid]?.configurations.last == [.fulfilment, .payment, .paid, .packing, .picking])
        #expect(byTarget[.packed]?.configurations.last == [.fulfilment, .payment, .awaitingPayment, .packing, .packed])
        // Rushing takes a route in each region as one step; both regions
        // then are done, so `fulfilment` is, and its done route is taken.
        #expect(byTarget[.shipped]?.steps == [.event(.checkout), .event(.rush)])
        #expect(byTarget[.shipped]?.states == [.fulfilment, .shipped])
        #expect(byTarget[.shipped]?.routes == [0, 3, 4, 7])
        #expect(byTarget[.delivered]?.description == "cart -> event checkout -> event rush -> event deliver: delivered")
        #expect(byTarget[.delivered]?.configurations.last == [.delivered])
        expectReplays(paths, on: makeShop)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(
            covering.paths.map(\.description) == [
                "cart -> event checkout -> event pay -> event pack -> event deliver: delivered",
                "cart -> event checkout -> event rush: shipped",
                "cart -> event checkout -> event cancel: cart",
                "cart -> event checkout -> event pay -> event cancel: cart",
            ])
        #expect(covering.paths.map(\.routes) == [[0, 1, 2, 7, 8], [0, 3, 4, 7], [0, 5], [0, 1, 6]])
        expectReplays(covering, on: makeShop)
    }

    @Test func everyPathOfAChartWithRegionsListsEachStepStateAndConfiguration() {
        let paths = makeShop().shortestPaths().paths
        let entered: [Shop] = [.fulfilment, .payment, .awaitingPayment, .packing, .picking]
        let paid: [Shop] = [.fulfilment, .payment, .paid, .packing, .picking]
        let packed: [Shop] = [.fulfilment, .payment, .awaitingPayment, .packing, .packed]
        #expect(paths.allSatisfy { $0.start == .cart && $0.startConfiguration == [.cart] })
        #expect(
            paths.map(\.description) == [
                "cart -> event checkout: fulfilment", "cart -> event checkout: payment",
                "cart -> event checkout: packing", "cart: cart", "cart -> event checkout: awaitingPayment",
                "cart -> event checkout -> event pay: paid", "cart -> event checkout: picking",
                "cart -> event checkout -> event pack: packed",
                "cart -> event checkout -> event rush -> event deliver: delivered",
                "cart -> event checkout -> event rush: shipped",
            ])
        #expect(
            paths.map(\.states) == [
                [.fulfilment], [.fulfilment], [.fulfilment], [], [.fulfilment], [.fulfilment, .fulfilment],
                [.fulfilment], [.fulfilment, .fulfilment], [.fulfilment, .shipped, .delivered],
                [.fulfilment, .shipped],
            ])
        #expect(
            paths.map(\.configurations) == [
                [entered], [entered], [entered], [], [entered], [entered, paid], [entered], [entered, packed],
                [entered, [.shipped], [.delivered]], [entered, [.shipped]],
            ])
        #expect(
            paths.map(\.routes) == [[0], [0], [0], [], [0], [0, 1], [0], [0, 2], [0, 3, 4, 7, 8], [0, 3, 4, 7]])
        #expect(paths.map(\.finalState) == paths.map { $0.states.last ?? $0.start })
    }

    @Test func everyCoveringPathThroughHistoryListsEachStepStateAndConfiguration() {
        let paths = makeStudio().routeCoveringPaths().paths
        #expect(
            paths.map(\.description) == [
                "off -> event play -> event pause -> event stop -> event resume: paused",
                "off -> event setup -> event stop -> event reset: name",
                "off -> event setup -> event back -> event previous: name",
            ])
        #expect(
            paths.map(\.states) == [
                [.playing, .paused, .off, .paused], [.confirm, .off, .name], [.confirm, .address, .name],
            ])
        #expect(
            paths.map(\.configurations) == [
                [[.player, .playing], [.player, .paused], [.off], [.player, .paused]],
                [[.wizard, .confirm], [.off], [.wizard, .form, .name]],
                [[.wizard, .confirm], [.wizard, .form, .address], [.wizard, .form, .name]],
            ])
        #expect(paths.map(\.routes) == [[0, 1, 3, 2], [5, 4, 8], [5, 6, 7]])
        #expect(paths.map(\.finalState) == [.paused, .name, .name])
    }

    @Test func conflictingRoutesInRegionsKeepTheOneChosenFirst() {
        let covering = makeShop().routeCoveringPaths()
        // From `awaitingPayment` and `picking`, both cancel routes leave
        // `fulfilment`: the first region's is taken, the other dropped.
        let cancelling = covering.paths.filter { $0.steps.last == .event(.cancel) }
        #expect(cancelling.map(\.routes.last) == [5, 6])
        #expect(cancelling.map(\.finalState) == [.cart, .cart])
        expectReplays(covering, on: makeShop)
    }

    @Test func historyEntersWhatThePathRecordedOrItsDefault() {
        let description = makeStudio().describe()
        let paths = description.shortestPaths()
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        // Nothing recorded yet: shallow history enters the initial child,
        // deep history its default.
        #expect(byTarget[.playing]?.configurations == [[.player, .playing]])
        #expect(byTarget[.confirm]?.steps == [.event(.setup)])
        #expect(byTarget[.confirm]?.configurations == [[.wizard, .confirm]])
        // A route that ignores history enters the initial children, not the default.
        #expect(byTarget[.name]?.steps == [.event(.reset)])
        #expect(byTarget[.name]?.configurations == [[.wizard, .form, .name]])
        #expect(byTarget[.address]?.states == [.confirm, .address])
        expectReplays(paths, on: makeStudio)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        // Stopping in `paused` records it: resuming enters `paused` again.
        #expect(
            covering.paths.map(\.description) == [
                "off -> event play -> event pause -> event stop -> event resume: paused",
                "off -> event setup -> event stop -> event reset: name",
                "off -> event setup -> event back -> event previous: name",
            ])
        #expect(covering.paths[0].states == [.playing, .paused, .off, .paused])
        #expect(covering.paths[0].routes == [0, 1, 3, 2])
        expectReplays(covering, on: makeStudio)
    }

    @Test func parallelHistoryRestoresEveryRegion() {
        let description = makeText().describe()
        let paths = description.shortestPaths()
        #expect(paths.unreachedStates.isEmpty)
        #expect(paths.uncoveredRoutes.isEmpty)
        let byTarget = Dictionary(uniqueKeysWithValues: paths.paths.map { ($0.target, $0) })
        // The default in one region, the initial child in the other.
        #expect(byTarget[.boldOn]?.steps == [.event(.open)])
        #expect(byTarget[.boldOn]?.configurations == [[.editing, .bold, .boldOn, .italic, .italicOff]])
        #expect(byTarget[.boldOff]?.steps == [.event(.reset)])
        #expect(byTarget[.italicOn]?.steps == [.event(.open), .event(.toggleItalic)])
        expectReplays(paths, on: makeText)
        let covering = description.routeCoveringPaths()
        #expect(covering.uncoveredRoutes.isEmpty)
        #expect(
            covering.paths.map(\.description) == [
                "closed -> event open -> event toggleItalic -> event close -> event reopen -> event toggleItalic: editing",
                "closed -> event reset: editing",
            ])
        // Reopening restores both regions as they were closed: `italicOn`, not the default's `italicOff`.
        #expect(covering.paths[0].configurations[3] == [.editing, .bold, .boldOn, .italic, .italicOn])
        #expect(covering.paths[0].routes == [0, 4, 3, 1, 5])
        expectReplays(covering, on: makeText)
    }

    /// A parallel state with `count` regions, each flipped from its first
    /// child to its final second one by its own event; done, it moves on.
    private func makeFlips(_ count: Int) -> Machine<Numbered, Flip> {
        Machine(state: Numbered(number: 0)) { flips in
            let regions = (1...count).map { Numbered(number: $0) }
            flips.addRegions(regions, to: Numbered(number: 0))
            for region in 1...count {
                let off = Numbered(number: 100 + region * 2)
                let on = Numbered(number: 100 + region * 2 + 1)
                flips.addChildren([off, on], to: Numbered(number: region))
                flips.addFinalState(on)
                flips.addRoutes(event: Flip(region: region), transitions: [off => on])
            }
            flips.addDoneRoute(Numbered(number: 0) => Numbered(number: -1))
        }
    }

    @Test func configurationBoundCutsTheSearchAndSaysSo() {
        let full = makeFlips(3).shortestPaths()
        #expect(!full.isTruncated)
        #expect(full.unreachedStates.isEmpty)
        #expect(full.paths.last?.target == Numbered(number: -1))
        #expect(full.paths.last?.steps == [.event(Flip(region: 1)), .event(Flip(region: 2)), .event(Flip(region: 3))])
        #expect(full.paths.last?.routes == [0, 1, 2, 3])
        expectReplays(full, on: { makeFlips(3) })
        // The start and one flip in each region: the configurations with two
        // flips, and the done route after three, are past the bound.
        let cut = makeFlips(3).shortestPaths(maxConfigurations: 4)
        #expect(cut.isTruncated)
        #expect(cut.unreachedStates == [Numbered(number: -1)])
        #expect(cut.uncoveredRoutes == [3])
        expectReplays(cut, on: { makeFlips(3) })
    }

    @Test func manyRegionsStayWithinTheBound() {
        // 2^14 configurations: the bound stops the search. (Sized for the
        // sanitizers' builds too, where each request costs several times more.)
        let description = makeFlips(14).describe()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let paths = description.shortestPaths(maxConfigurations: 300)
            #expect(paths.isTruncated)
            #expect(paths.unreachedStates == [Numbered(number: -1)])
            expectReplays(paths, on: { makeFlips(14) })
        }
        #expect(elapsed < .seconds(20))
    }
}
