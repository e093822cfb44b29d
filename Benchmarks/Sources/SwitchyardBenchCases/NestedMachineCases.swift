import Switchyard

// Nested machines: a parent with two machines nested in it, one event that
// the active child handles or, when it has no route, bubbles to the parent.

extension BenchCase {
    /// one { first: a → b } → two { second: a → b } → one …: every other
    /// event is the child's, every other bubbles to the parent and moves
    /// it to its other state, leaving one child and entering the other.
    static let nestedMachines = BenchCase(
        name: "nested-machines",
        summary:
            "tryEvent on a parent { one ⊃ child1 { a, b }, two ⊃ child2 { a, b } }: child a => b, then b bubbles, one <=> two",
        switchyard: {
            let counter = Counter()
            func child() -> Machine<Leaf, Flip> {
                Machine<Leaf, Flip>(state: .a) { child in
                    child.addRoutes(event: .flip, transitions: [.a => .b])
                    for state in Leaf.allCases {
                        child.addEntryHandler(state) { _ in counter.value &+= 1 }
                        child.addExitHandler(state) { _ in counter.value &+= 1 }
                    }
                }
            }
            let parent = Machine<Shell, Flip>(state: .one) { parent in
                parent.addRoutes(event: .flip, transitions: [.one => .two, .two => .one])
                for state in [Shell.one, .two] {
                    parent.addEntryHandler(state) { _ in counter.value &+= 1 }
                    parent.addExitHandler(state) { _ in counter.value &+= 1 }
                }
                parent.addHandler(event: .flip) { _ in counter.value &+= 1 }
            }
            parent.nest(child(), under: .one, as: Shell.first)
            parent.nest(child(), under: .two, as: Shell.second)
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where parent.tryEvent(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = NestedMachinesSwitchMachine()
            for index in 0..<2 {
                for state in Leaf.allCases {
                    machine.childEntryHandlers[index][state.rawValue].append { _ in counter.value &+= 1 }
                    machine.childExitHandlers[index][state.rawValue].append { _ in counter.value &+= 1 }
                }
                machine.parentEntryHandlers[index].append { _ in counter.value &+= 1 }
                machine.parentExitHandlers[index].append { _ in counter.value &+= 1 }
            }
            machine.parentEventHandlers.append { _ in counter.value &+= 1 }
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
    /// `nested-machines`' chart declared on one machine: what the same step
    /// costs without nesting, the floor for the nested case.
    static let nestedMachinesOneChart = BenchCase(
        name: "nested-machines-one-chart",
        summary: "nested-machines' chart and handlers declared on one Machine<Shell, Flip> (no nesting)",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Shell, Flip>(state: .one) { machine in
                machine.addChildren([.first(.a), .first(.b)], to: .one)
                machine.addChildren([.second(.a), .second(.b)], to: .two)
                machine.addRoutes(event: .flip, transitions: [.first(.a) => .first(.b), .second(.a) => .second(.b)])
                machine.addRoutes(event: .flip, transitions: [.one => .two, .two => .one])
                for state in [Shell.one, .two, .first(.a), .first(.b), .second(.a), .second(.b)] {
                    machine.addEntryHandler(state) { _ in counter.value &+= 1 }
                    machine.addExitHandler(state) { _ in counter.value &+= 1 }
                }
                machine.addHandler(event: .flip) { _ in counter.value &+= 1 }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.tryEvent(.flip) {
                    moved &+= 1
                }
                return moved &+ counter.value
            }
        },
        dictionary: BenchCase.nestedMachines.dictionary,
        handSwitch: nil
    )
}

/// The `nested-machines` hierarchy by hand: the parent's state and each
/// child's, a `switch` that tries the active child first and then the
/// parent, and the handlers of each machine in arrays of closures.
final class NestedMachinesSwitchMachine {
    private(set) var parent = 0
    private(set) var leaves = [Leaf.a, Leaf.a]
    /// By child, then by `Leaf.rawValue`.
    var childEntryHandlers: [[[(Change<Leaf, Flip>) -> Void]]] = Array(repeating: [[], []], count: 2)
    var childExitHandlers: [[[(Change<Leaf, Flip>) -> Void]]] = Array(repeating: [[], []], count: 2)
    /// By the parent's state: one, two.
    var parentEntryHandlers: [[(Change<Shell, Flip>) -> Void]] = [[], []]
    var parentExitHandlers: [[(Change<Shell, Flip>) -> Void]] = [[], []]
    var parentEventHandlers: [(Change<Shell, Flip>) -> Void] = []

    func fire(_ event: Flip) -> Bool {
        let child = parent
        let leaf = leaves[child]
        if leaf == .a {
            // The child's route: a => b.
            let change = Change(event: event, from: Leaf.a, to: Leaf.b)
            run(childExitHandlers[child][Leaf.a.rawValue], change)
            leaves[child] = .b
            let parentChange = Change(event: event, from: shell(child, .a), to: shell(child, .b))
            run(parentEventHandlers, parentChange)
            run(childEntryHandlers[child][Leaf.b.rawValue], change)
            return true
        }
        // The child has no route from b: the parent's one <=> two, leaving
        // this child and entering the other at its initial state.
        let other = 1 - child
        let parentChange = Change(event: event, from: shell(child, leaf), to: shell(other, .a))
        run(childExitHandlers[child][leaf.rawValue], Change(event: event, from: leaf, to: leaf))
        run(parentExitHandlers[child], parentChange)
        parent = other
        leaves[child] = .a
        leaves[other] = .a
        run(parentEventHandlers, parentChange)
        run(parentEntryHandlers[other], parentChange)
        run(childEntryHandlers[other][Leaf.a.rawValue], Change(event: event, from: Leaf.a, to: Leaf.a))
        return true
    }

    private func shell(_ child: Int, _ leaf: Leaf) -> Shell {
        child == 0 ? .first(leaf) : .second(leaf)
    }

    private func run<S>(_ handlers: [(Change<S, Flip>) -> Void], _ change: Change<S, Flip>) {
        for handler in handlers {
            handler(change)
        }
    }
}
