import Switchyard

// Statechart steps: exits, the change and entries, planned and delivered by
// the engine, against a hand-written `switch` that knows what each move
// exits and enters.

extension BenchCase {
    /// A three-level chart whose event is handled by the middle level: each
    /// step exits two states and enters two, one handler each.
    static let nested3 = BenchCase(
        name: "nested-3",
        summary: "tryEvent on top { left { l1, l2 }, right { r1, r2 } }, handled by left/right: 2 exits, 2 entries",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Nested, Flip>(state: .top) { machine in
                machine.addChildren([.left, .right], to: .top)
                machine.addChildren([.l1, .l2], to: .left)
                machine.addChildren([.r1, .r2], to: .right)
                machine.addRoutes(event: .flip, transitions: [.left => .right, .right => .left])
                for state in [Nested.left, .l1, .right, .r1] {
                    machine.addEntryHandler(state) { _ in counter.value &+= 1 }
                    machine.addExitHandler(state) { _ in counter.value &+= 1 }
                }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.tryEvent(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = NestedSwitchMachine()
            for state in [Nested.left, .l1, .right, .r1] {
                machine.entryHandlers[state.rawValue].append { _ in counter.value &+= 1 }
                machine.exitHandlers[state.rawValue].append { _ in counter.value &+= 1 }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.fire(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        handSwitch: nil
    )

    /// Two regions that one event moves together: each step exits a state in
    /// each region and enters another, one handler each.
    static let parallel2 = BenchCase(
        name: "parallel-2",
        summary: "tryEvent on pair ‖ first { a, b } ‖ second { c, d }, one event moving both regions",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Pair, Flip>(state: .pair) { machine in
                machine.addRegions([.first, .second], to: .pair)
                machine.addChildren([.a, .b], to: .first)
                machine.addChildren([.c, .d], to: .second)
                machine.addRoutes(event: .flip, transitions: [.a => .b, .b => .a, .c => .d, .d => .c])
                for state in [Pair.a, .b, .c, .d] {
                    machine.addEntryHandler(state) { _ in counter.value &+= 1 }
                    machine.addExitHandler(state) { _ in counter.value &+= 1 }
                }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.tryEvent(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = PairSwitchMachine()
            for state in [Pair.a, .b, .c, .d] {
                machine.entryHandlers[state.rawValue].append { _ in counter.value &+= 1 }
                machine.exitHandlers[state.rawValue].append { _ in counter.value &+= 1 }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.fire(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        handSwitch: nil
    )
}
