import Switchyard
import Testing

// What each machine of a hierarchy hears, step by step, when a request moves
// a nested machine and then bubbles up to its parent: the `nested-machines`
// benchmark's chart, whose checksum depends on exactly these calls.
//
// The event type has one case, so its values have no stored bytes: lent to
// the nested machines by address, such an event once reached them as no
// event at all in optimised builds (the release test run catches that).

private enum Leaf: StateType {
    case a, b
}

private enum Shell: StateType {
    case one, two
    case first(Leaf)
    case second(Leaf)
}

private enum Flip: EventType {
    case flip
}

/// `state` as the test's log writes it: `first(a)`, not the type's full path.
private func name(_ state: Shell) -> String {
    switch state {
    case .one: "one"
    case .two: "two"
    case .first(let leaf): "first(\(leaf))"
    case .second(let leaf): "second(\(leaf))"
    }
}

@Suite struct NestedDeliveryTests {
    @Test func eachMachineHearsEachStepOnce() {
        let log = Log()
        func child(_ name: String) -> Machine<Leaf, Flip> {
            Machine<Leaf, Flip>(state: .a) { child in
                child.addRoutes(event: .flip, transitions: [.a => .b])
                for state in [Leaf.a, .b] {
                    child.addEntryHandler(state) { _ in log("\(name) enter \(state)") }
                    child.addExitHandler(state) { _ in log("\(name) exit \(state)") }
                }
            }
        }
        let parent = Machine<Shell, Flip>(state: .one) { parent in
            parent.addRoutes(event: .flip, transitions: [.one => .two, .two => .one])
            for state in [Shell.one, .two] {
                parent.addEntryHandler(state) { _ in log("enter \(state)") }
                parent.addExitHandler(state) { _ in log("exit \(state)") }
            }
            parent.addHandler(event: .flip) { context in
                log("flip \(name(context.fromState)) => \(name(context.toState))")
            }
        }
        parent.nest(child("1"), under: .one, as: Shell.first)
        parent.nest(child("2"), under: .two, as: Shell.second)
        for _ in 0..<4 {
            #expect(parent.tryEvent(.flip))
        }
        #expect(
            log.lines == [
                "1 exit a", "flip first(a) => first(b)", "1 enter b",
                "1 exit b", "exit one", "flip first(b) => second(a)", "enter two", "2 enter a",
                "2 exit a", "flip second(a) => second(b)", "2 enter b",
                "2 exit b", "exit two", "flip second(b) => first(a)", "enter one", "1 enter a",
            ])
    }

    @Test func aRootLetGoOfDuringANestedMachinesRequestLivesUntilTheRequestEnds() {
        var root: Machine<Shell, Flip>? = Machine<Shell, Flip>(state: .one)
        weak let watched = root
        let child = Machine<Leaf, Flip>(state: .a) { child in
            child.addRoutes(event: .flip, transitions: [.a => .b])
        }
        root?.nest(child, under: .one, as: Shell.first)
        // The last strong reference to the root goes in the middle of the
        // step the nested machine's request takes through it.
        child.addEntryHandler(.b) { _ in root = nil }
        #expect(child.tryEvent(.flip))
        #expect(watched == nil)
        #expect(child.state == .b)
    }
}
