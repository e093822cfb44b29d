import Switchyard

// The cases. Each side builds its machine outside the measurement, then
// returns a loop that repeats one operation; a phase kept by the loop makes
// consecutive calls continue the same cycle.

extension BenchCase {
    /// `tryEvent` round a 4-state cycle with two events and one handler.
    static let eventSmall = BenchCase(
        name: "event-small",
        summary: "tryEvent round a 4-state cycle (next, next, next, reset), one handler for every event",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
                machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
                machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = DictionaryMachine<Light, LightEvent>(
                state: .s0,
                routes: [
                    RouteKey(state: .s0, event: .next): .s1, RouteKey(state: .s1, event: .next): .s2,
                    RouteKey(state: .s2, event: .next): .s3, RouteKey(state: .s3, event: .reset): .s0,
                ]
            )
            machine.handlers.append { _ in counter.value &+= 1 }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        handSwitch: {
            let counter = Counter()
            let machine = SwitchLightMachine()
            machine.handlers.append { _ in counter.value &+= 1 }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        }
    )

    /// `tryState` round a 4-state cycle with one handler.
    static let stateSmall = BenchCase(
        name: "state-small",
        summary: "tryState round a 4-state cycle, one handler for every transition",
        switchyard: {
            let counter = Counter()
            let machine = StateMachine<Light, NoEvent>(state: .s0) { machine in
                machine.addRoute(.s0 => .s1)
                machine.addRoute(.s1 => .s2)
                machine.addRoute(.s2 => .s3)
                machine.addRoute(.s3 => .s0)
                machine.addHandler(.any => .any) { _ in counter.value &+= 1 }
            }
            let cycle: [Light] = [.s1, .s2, .s3, .s0]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryState(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = DictionaryStateMachine<Light>(
                state: .s0,
                routes: [
                    StatePair(from: .s0, to: .s1): true, StatePair(from: .s1, to: .s2): true,
                    StatePair(from: .s2, to: .s3): true, StatePair(from: .s3, to: .s0): true,
                ]
            )
            machine.handlers.append { _ in counter.value &+= 1 }
            let cycle: [Light] = [.s1, .s2, .s3, .s0]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.request(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        handSwitch: {
            let counter = Counter()
            let machine = SwitchLightMachine()
            machine.handlers.append { _ in counter.value &+= 1 }
            let cycle: [Light] = [.s1, .s2, .s3, .s0]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.request(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        }
    )

    /// `tryEvent` round a ring of `states` states: one event, one route per state.
    static func eventRing(states count: Int) -> BenchCase {
        BenchCase(
            name: count >= 1000 ? "event-ring-\(count / 1000)k" : "event-ring-\(count)",
            summary: "tryEvent round a ring of \(count) states (one event, \(count) routes), one handler",
            switchyard: {
                let counter = Counter()
                let machine = Machine<RingState, RingEvent>(state: RingState(index: 0)) { machine in
                    machine.addRoutes(event: .advance, transitions: ringTransitions(count))
                    machine.addHandler(event: .any) { _ in counter.value &+= 1 }
                }
                return { iterations in
                    var moved = 0
                    for _ in 0..<iterations where machine.tryEvent(.advance) {
                        moved &+= 1
                    }
                    return moved &+ counter.value
                }
            },
            dictionary: {
                let counter = Counter()
                let machine = DictionaryMachine(state: RingState(index: 0), routes: ringRoutes(count))
                machine.handlers.append { _ in counter.value &+= 1 }
                return { iterations in
                    var moved = 0
                    for _ in 0..<iterations where machine.fire(.advance) {
                        moved &+= 1
                    }
                    return moved &+ counter.value
                }
            },
            handSwitch: nil
        )
    }

    /// Wildcards doing the work: `.any`-event routes, a `.any` source, a
    /// `.any` target (stay), and handlers registered for `.any`.
    static let anyRoutes = BenchCase(
        name: "any-routes",
        summary: "tryEvent where .any-event routes, an .any => s0 route and an s3 => .any (stay) route decide; "
            + "an .any-event handler and an .any => .any handler",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .any, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3, .s3 => .any])
                machine.addRoutes(event: .reset, transitions: [.any => .s0])
                machine.addHandler(event: .any) { _ in counter.value &+= 1 }
                machine.addAnyHandler(.any => .any) { _ in counter.value &+= 2 }
            }
            let cycle: [LightEvent] = [.next, .next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = phase == 4 ? 0 : phase &+ 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            typealias Key = WildcardDictionaryMachine<Light, LightEvent>.Key
            let machine = WildcardDictionaryMachine<Light, LightEvent>(
                state: .s0,
                routes: [
                    Key(state: .s0, event: nil): .s1, Key(state: .s1, event: nil): .s2,
                    Key(state: .s2, event: nil): .s3, Key(state: .s3, event: nil): Light?.none,
                    Key(state: nil, event: .reset): .s0,
                ]
            )
            machine.handlers.append { _ in counter.value &+= 1 }
            machine.handlers.append { _ in counter.value &+= 2 }
            let cycle: [LightEvent] = [.next, .next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(cycle[phase]) { moved &+= 1 }
                    phase = phase == 4 ? 0 : phase &+ 1
                }
                return moved &+ counter.value
            }
        },
        handSwitch: {
            let counter = Counter()
            let machine = SwitchLightMachine()
            machine.handlers.append { _ in counter.value &+= 1 }
            machine.handlers.append { _ in counter.value &+= 2 }
            let cycle: [LightEvent] = [.next, .next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fireWithWildcards(cycle[phase]) { moved &+= 1 }
                    phase = phase == 4 ? 0 : phase &+ 1
                }
                return moved &+ counter.value
            }
        }
    )

    /// A route mapping over states and events with associated values.
    static let mapping = BenchCase(
        name: "mapping",
        summary: "tryEvent decided by a route mapping over Document(version:) states, one handler",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Document, DocumentEvent>(state: .draft(version: 0)) { machine in
                machine.addRouteMapping { event, state, _ in
                    guard let event else { return nil }
                    return routeDocument(event, from: state)
                }
                machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            }
            let cycle = documentCycle
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = phase == 2 ? 0 : phase &+ 1
                }
                return moved &+ counter.value &+ machine.state.version
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = MappingMachine<Document, DocumentEvent>(state: .draft(version: 0)) { event, state in
                routeDocument(event, from: state)
            }
            machine.handlers.append { _ in counter.value &+= 1 }
            let cycle = documentCycle
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(cycle[phase]) { moved &+= 1 }
                    phase = phase == 2 ? 0 : phase &+ 1
                }
                return moved &+ counter.value &+ machine.state.version
            }
        },
        handSwitch: nil
    )

    /// 100 handlers on one transition, registered the three ways that all
    /// hear an event-driven transition (so the machine merges three lists).
    static let handlers100 = BenchCase(
        name: "handlers-100",
        summary: "tryEvent firing 100 handlers: a third each for the event, for .any event, for .any => .any",
        switchyard: { handlersSwitchyard(sameSlot: false) },
        dictionary: handlersDictionary,
        handSwitch: nil
    )

    /// 100 handlers on one transition, all for the same event.
    static let handlers100SameSlot = BenchCase(
        name: "handlers-100-same-slot",
        summary: "tryEvent firing 100 handlers all added with addHandler(event: .next)",
        switchyard: { handlersSwitchyard(sameSlot: true) },
        dictionary: handlersDictionary,
        handSwitch: nil
    )

    private static func handlersSwitchyard(sameSlot: Bool) -> Workload {
        let counter = Counter()
        let machine = Machine<Light, LightEvent>(state: .s0) { machine in
            machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3, .s3 => .s0])
            for index in 0..<100 {
                let handler: (Machine<Light, LightEvent>.Context) -> Void = { _ in counter.value &+= 1 }
                switch sameSlot ? 0 : index % 3 {
                case 0: machine.addHandler(event: .next, handler: handler)
                case 1: machine.addHandler(event: .any, handler: handler)
                default: machine.addAnyHandler(.any => .any, handler: handler)
                }
            }
        }
        return { iterations in
            var moved = 0
            for _ in 0..<iterations where machine.tryEvent(.next) {
                moved &+= 1
            }
            return moved &+ counter.value
        }
    }

    private static func handlersDictionary() -> Workload {
        let counter = Counter()
        let machine = DictionaryMachine<Light, LightEvent>(
            state: .s0,
            routes: [
                RouteKey(state: .s0, event: .next): .s1, RouteKey(state: .s1, event: .next): .s2,
                RouteKey(state: .s2, event: .next): .s3, RouteKey(state: .s3, event: .next): .s0,
            ]
        )
        for _ in 0..<100 {
            machine.handlers.append { _ in counter.value &+= 1 }
        }
        return { iterations in
            var moved = 0
            for _ in 0..<iterations where machine.fire(.next) {
                moved &+= 1
            }
            return moved &+ counter.value
        }
    }

    /// Building a whole machine of `routes` routes (a ring) and one handler.
    static func build(routes count: Int) -> BenchCase {
        BenchCase(
            name: "build-\(count / 1000)k",
            summary: "building a machine: \(count) routes (a ring, one addRoutes call) and one handler",
            switchyard: {
                { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        let machine = Machine<RingState, RingEvent>(state: RingState(index: 0)) { machine in
                            machine.addRoutes(event: .advance, transitions: ringTransitions(count))
                            machine.addHandler(event: .any) { _ in }
                        }
                        checksum &+= machine.state.index &+ 1
                    }
                    return checksum
                }
            },
            dictionary: {
                { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        let machine = DictionaryMachine(state: RingState(index: 0), routes: ringRoutes(count))
                        machine.handlers.append { _ in }
                        checksum &+= machine.state.index &+ 1
                    }
                    return checksum
                }
            },
            handSwitch: nil
        )
    }

    /// A refused event (no route from this state) with one error handler.
    static let failed = BenchCase(
        name: "failed",
        summary: "tryEvent refused (no route for the event from this state), one error handler",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
                machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
                machine.addErrorHandler { _ in counter.value &+= 1 }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.tryEvent(.reset) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = DictionaryMachine<Light, LightEvent>(
                state: .s0,
                routes: [
                    RouteKey(state: .s0, event: .next): .s1, RouteKey(state: .s1, event: .next): .s2,
                    RouteKey(state: .s2, event: .next): .s3, RouteKey(state: .s3, event: .reset): .s0,
                ]
            )
            machine.errorHandlers.append { _ in counter.value &+= 1 }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.fire(.reset) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        handSwitch: {
            let counter = Counter()
            let machine = SwitchLightMachine()
            machine.errorHandlers.append { _ in counter.value &+= 1 }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.fire(.reset) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        }
    )
}

/// The routes of a ring of `count` states, as a Switchyard user writes them.
private func ringTransitions(_ count: Int) -> [Transition<RingState>] {
    (0..<count).map { RingState(index: $0) => RingState(index: ($0 &+ 1) % count) }
}

/// The routes of a ring of `count` states, as a hand-written table.
private func ringRoutes(_ count: Int) -> [RouteKey<RingState, RingEvent>: RingState] {
    var routes: [RouteKey<RingState, RingEvent>: RingState] = [:]
    for index in 0..<count {
        routes[RouteKey(state: RingState(index: index), event: .advance)] = RingState(index: (index &+ 1) % count)
    }
    return routes
}
