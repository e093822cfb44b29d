import Switchyard
import Testing

// Machines over each kind of state and event type a user may choose: wide
// enums, raw values out of order, a single case, a type whose own `==` merges
// cases, an enum of the standard library, strings and enums with payloads.

/// Many cases, so that case indices go past one byte.
private enum Wide: Int, StateType, EventType, CaseIterable {
    case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19
    case c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38
    case c39, c40, c41, c42, c43, c44, c45, c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57
    case c58, c59, c60, c61, c62, c63, c64, c65, c66, c67, c68, c69, c70, c71, c72, c73, c74, c75, c76
    case c77, c78, c79, c80, c81, c82, c83, c84, c85, c86, c87, c88, c89, c90, c91, c92, c93, c94, c95
    case c96, c97, c98, c99, c100, c101, c102, c103, c104, c105, c106, c107, c108, c109, c110, c111
    case c112, c113, c114, c115, c116, c117, c118, c119, c120, c121, c122, c123, c124, c125, c126, c127
    case c128, c129, c130, c131, c132, c133, c134, c135, c136, c137, c138, c139, c140, c141, c142, c143
    case c144, c145, c146, c147, c148, c149, c150, c151, c152, c153, c154, c155, c156, c157, c158, c159
    case c160, c161, c162, c163, c164, c165, c166, c167, c168, c169, c170, c171, c172, c173, c174, c175
    case c176, c177, c178, c179, c180, c181, c182, c183, c184, c185, c186, c187, c188, c189, c190, c191
    case c192, c193, c194, c195, c196, c197, c198, c199, c200, c201, c202, c203, c204, c205, c206, c207
    case c208, c209, c210, c211, c212, c213, c214, c215, c216, c217, c218, c219, c220, c221, c222, c223
    case c224, c225, c226, c227, c228, c229, c230, c231, c232, c233, c234, c235, c236, c237, c238, c239
    case c240, c241, c242, c243, c244, c245, c246, c247, c248, c249, c250, c251, c252, c253, c254, c255
    case c256, c257, c258, c259, c260
}

/// Raw values out of declaration order: cases are still told apart by case.
private enum Priority: String, StateType, EventType {
    case urgent = "z"
    case normal = "a"
    case low = "m"
}

/// One case: a value of it has no bits at all.
private enum Only: StateType, EventType {
    case only
}

/// Its own `==` makes every `loud` and `quiet` equal: the type's word wins,
/// as a dictionary of its values would have it.
private enum Volume: StateType, EventType {
    case loud, quiet, off

    static func == (lhs: Volume, rhs: Volume) -> Bool {
        lhs.isOn == rhs.isOn
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(isOn)
    }

    var isOn: Bool {
        switch self {
        case .loud, .quiet: true
        case .off: false
        }
    }
}

extension FloatingPointRoundingRule: StateType, EventType {}

@Suite struct StateAndEventTypesTests {
    @Test func everyCaseOfAWideEnumIsToldApart() {
        let machine = Machine<Wide, Wide>(state: .c0) { machine in
            for (from, to) in zip(Wide.allCases, Wide.allCases.dropFirst()) where from.rawValue % 2 == 0 {
                machine.addRoutes(event: from, transitions: [from => to])
            }
        }
        for state in Wide.allCases.dropLast() {
            let isEven = state.rawValue % 2 == 0
            #expect(
                machine.hasRoute(event: state, fromState: state, toState: Wide(rawValue: state.rawValue + 1)!) == isEven
            )
        }
        #expect(machine.tryEvent(.c0))
        #expect(machine.state == .c1)
        #expect(!machine.tryEvent(.c1), "c1 names no route")
        #expect(!machine.tryEvent(.c2), "c2's route leaves from c2 only")
        machine <- .c2
        #expect(machine.state == .c1, "no state route either")
        let far = Machine<Wide, NoEvent>(state: .c259) { $0.addRoute(.c259 => .c260) }
        #expect(far.tryState(.c260))
        #expect(!far.tryState(.c258))
    }

    @Test func casesAreToldApartWhateverTheirRawValues() {
        let machine = Machine<Priority, Priority>(state: .low) { machine in
            machine.addRoutes(event: .urgent, transitions: [.any => .urgent])
            machine.addRoutes(event: .normal, transitions: [.low => .normal])
        }
        #expect(machine.tryEvent(.normal))
        #expect(!machine.tryEvent(.low))
        #expect(machine.tryEvent(.urgent))
        #expect(machine.state == .urgent)
        #expect(!machine.tryEvent(.normal))
    }

    @Test func anEnumOfOneCaseWorks() {
        let machine = Machine<Only, Only>(state: .only) { $0.addRoutes(event: .only, transitions: [.only => .only]) }
        #expect(machine.tryEvent(.only))
        #expect(machine.canTryEvent(.only) == .only)
        let silent = Machine<Only, Only>(state: .only)
        #expect(!silent.tryEvent(.only))
    }

    @Test func aTypesOwnEqualityDecides() {
        // Routes name `loud`; `quiet` equals it by the type's `==`.
        let machine = Machine<Volume, Volume>(state: .off) { machine in
            machine.addRoutes(event: .loud, transitions: [.off => .loud])
            machine.addRoutes(event: .off, transitions: [.loud => .off])
        }
        #expect(machine.tryEvent(.quiet), "quiet == loud, so loud's route takes it")
        #expect(machine.state == .loud)
        #expect(machine.tryEvent(.off))
        #expect(machine.hasRoute(event: .quiet, fromState: .off, toState: .quiet))
        #expect(machine.tryState(.quiet), "a state request may take the event route off => loud")
        #expect(machine.state == .loud)
        let states = Machine<Volume, NoEvent>(state: .off) { $0.addRoute(.off => .quiet) }
        #expect(states.tryState(.loud), "loud == quiet")
    }

    @Test func anEnumOfTheStandardLibraryWorks() {
        let machine = Machine<FloatingPointRoundingRule, FloatingPointRoundingRule>(state: .up) { machine in
            machine.addRoutes(event: .down, transitions: [.up => .down])
            machine.addRoutes(event: .towardZero, transitions: [.down => .towardZero])
        }
        #expect(!machine.tryEvent(.towardZero))
        #expect(machine.tryEvent(.down))
        #expect(machine.tryEvent(.towardZero))
        #expect(machine.state == .towardZero)
        #expect(!machine.tryEvent(.toNearestOrEven))
    }

    @Test func typesThatAreNotPlainEnumsAreHashed() {
        let strings = Machine<String, String>(state: "idle") { machine in
            machine.addRoutes(event: "start", transitions: ["idle" => "running"])
        }
        #expect(!strings.tryEvent("stop"))
        #expect(strings.tryEvent("start"))
        #expect(strings.state == "running")

        let words = Machine<StrState, StrEvent>(state: .str("a")) { machine in
            machine.addRoutes(event: .str("go"), transitions: [.str("a") => .str("b")])
        }
        #expect(!words.tryEvent(.str("stop")))
        #expect(words.tryEvent(.str("go")))
        #expect(words.state == .str("b"))
    }
}

extension String: StateType, EventType {}

@Suite struct RepeatedEventTests {
    @Test(arguments: [false, true])
    func anEventRefusedBeforeItHasRoutesIsTakenOnceItHasThem(statechart: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            if statechart {
                machine.addChildren([.state0, .state1, .state2], to: .state3)
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1])
        }
        #expect(machine.tryEvent(.event0))
        #expect(!machine.tryEvent(.event1))
        #expect(!machine.tryEvent(.event1), "asked again, still refused")
        machine.addRoutes(event: .event1, transitions: [.state1 => .state2])
        #expect(machine.tryEvent(.event1))
        #expect(machine.state == .state2)
    }

    @Test(arguments: [false, true])
    func theSameEventAgainAndAnotherInBetweenEachFindTheirRoutes(statechart: Bool) {
        let machine = Machine<MyState, MyEvent>(state: .state0) { machine in
            if statechart {
                machine.addChildren([.state0, .state1, .state2], to: .state3)
            }
            machine.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
            machine.addRoutes(event: .event1, transitions: [.state2 => .state0])
        }
        var states: [MyState] = []
        for event in [MyEvent.event0, .event0, .event1, .event0, .event2, .event0, .event1, .event1] {
            machine <-! event
            states.append(machine.state)
        }
        #expect(states == [.state1, .state2, .state0, .state1, .state1, .state2, .state0, .state0])
    }
}
