// The statechart cases written by hand: a `switch` over the atomic states
// that knows which states each move exits and enters, and the entry and exit
// handlers of each state in plain arrays of closures.

/// The `nested-3` chart by hand: top { left { l1, l2 }, right { r1, r2 } },
/// `flip` taking left => right and right => left.
final class NestedSwitchMachine {
    enum Leaf {
        case l1, l2, r1, r2
    }

    private(set) var leaf = Leaf.l1
    /// By state: `Nested.allCases` order.
    var entryHandlers: [[(Change<Nested, Flip>) -> Void]] = Array(repeating: [], count: Nested.allCases.count)
    var exitHandlers: [[(Change<Nested, Flip>) -> Void]] = Array(repeating: [], count: Nested.allCases.count)

    func fire(_ event: Flip) -> Bool {
        let from = state(of: leaf)
        switch leaf {
        case .l1, .l2:
            let change = Change(event: event, from: from, to: Nested.r1)
            run(exitHandlers, from, change)
            run(exitHandlers, .left, change)
            leaf = .r1
            run(entryHandlers, .right, change)
            run(entryHandlers, .r1, change)
        case .r1, .r2:
            let change = Change(event: event, from: from, to: Nested.l1)
            run(exitHandlers, from, change)
            run(exitHandlers, .right, change)
            leaf = .l1
            run(entryHandlers, .left, change)
            run(entryHandlers, .l1, change)
        }
        return true
    }

    private func state(of leaf: Leaf) -> Nested {
        switch leaf {
        case .l1: .l1
        case .l2: .l2
        case .r1: .r1
        case .r2: .r2
        }
    }

    private func run(_ table: [[(Change<Nested, Flip>) -> Void]], _ state: Nested, _ change: Change<Nested, Flip>) {
        for handler in table[state.rawValue] {
            handler(change)
        }
    }
}

/// The `parallel-2` chart by hand: pair ‖ first { a, b } ‖ second { c, d },
/// `flip` moving both regions to their other state.
final class PairSwitchMachine {
    private(set) var first = Pair.a
    private(set) var second = Pair.c
    /// By state: `Pair.allCases` order.
    var entryHandlers: [[(Change<Pair, Flip>) -> Void]] = Array(repeating: [], count: Pair.allCases.count)
    var exitHandlers: [[(Change<Pair, Flip>) -> Void]] = Array(repeating: [], count: Pair.allCases.count)

    func fire(_ event: Flip) -> Bool {
        let nextFirst: Pair = first == .a ? .b : .a
        let nextSecond: Pair = second == .c ? .d : .c
        let change = Change(event: event, from: Pair.pair, to: Pair.pair)
        run(exitHandlers, second, change)
        run(exitHandlers, first, change)
        first = nextFirst
        second = nextSecond
        run(entryHandlers, first, change)
        run(entryHandlers, second, change)
        return true
    }

    private func run(_ table: [[(Change<Pair, Flip>) -> Void]], _ state: Pair, _ change: Change<Pair, Flip>) {
        for handler in table[state.rawValue] {
            handler(change)
        }
    }
}
