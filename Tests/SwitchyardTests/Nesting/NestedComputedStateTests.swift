import Testing

@testable import Switchyard

// A nested machine whose route mapping computes a new state each step must
// not grow its own tables or its parent's, nor make each step cost more
// than the last (issue 35, item 8, in hierarchies): the codes of states only
// a step named are handed back once the hierarchy is not in them.

private enum Desk: StateType {
    case home, editor, away
    case counter(Count)
    case page(Int)
}

private enum Count: StateType {
    case idle
    case n(Int)
}

private enum Press: EventType {
    case tick
    case jump(Int)
    case edit, home, back, leave
}

/// A counter whose mapping counts up from `.n(k)` and jumps anywhere, with a
/// condition that reads the state's value and a log of its steps.
private func counter(log: Log) -> Machine<Count, Press> {
    Machine<Count, Press>(state: .idle) { counter in
        counter.addRouteMapping { event, from, _ in
            switch (event, from) {
            case (.tick?, .idle): .n(0)
            case (.tick?, .n(let k)): .n(k + 1)
            case (.jump(let k)?, _): .n(k)
            default: nil
            }
        }
        counter.addRoutes(event: .back, transitions: [.any => .idle])
        counter.addRoute(
            .any => .any,
            condition: { context in
                if case .n(let k) = context.toState { k % 5 != 4 } else { true }
            })
        counter.addAnyHandler(.any => .any) { context in
            log("\(context.event.map { "\($0)" } ?? "state"): \(context.fromState) => \(context.toState)")
        }
    }
}

/// A desk with `counter` nested in `.editor` (through `Desk.counter` if
/// `asCase`), whose own mapping counts pages up.
private func desk(
    nesting counter: Machine<Count, Press>, asCase: Bool, history: Bool = false, log: Log? = nil
) -> Machine<Desk, Press> {
    let desk = Machine<Desk, Press>(state: .home) { desk in
        desk.addRoutes(event: .edit, transitions: [.home => .editor, .away => .editor])
        desk.addRoutes(event: .home, transitions: [.editor => .home])
        desk.addRoutes(event: .leave, transitions: [.counter(.n(3)) => .away])
        desk.addRouteMapping { event, from, _ in
            switch (event, from) {
            case (.tick?, .home): .page(0)
            case (.tick?, .page(let k)): .page(k + 1)
            default: nil
            }
        }
        desk.addRoute(.any => .page(-1))
        desk.addRoute(.page(-1) => .any)
    }
    if asCase {
        desk.nest(counter, under: .editor, as: Desk.counter)
    } else {
        desk.nest(counter, under: .editor)
    }
    if history {
        desk.addHistory(.shallow, to: .editor)
    }
    if let log {
        desk.addAnyHandler(.any => .any) { context in
            log("desk \(context.event.map { "\($0)" } ?? "state"): \(context.fromState) => \(context.toState)")
        }
    }
    return desk
}

/// Entry handlers that do nothing, so that the states they name keep their
/// codes for the machines' whole lives.
private func pin(_ counter: Machine<Count, Press>, _ desk: Machine<Desk, Press>, asCase: Bool) {
    for k in 0..<40 {
        counter.addEntryHandler(.n(k)) { _ in }
        desk.addEntryHandler(.page(k)) { _ in }
        if asCase {
            desk.addEntryHandler(.counter(.n(k))) { _ in }
        }
    }
}

@Suite struct NestedComputedStateTests {
    @Test(arguments: [false, true]) func aNestedMappingThatCountsUpDoesNotGrowEitherMachinesTables(asCase: Bool) {
        let log = Log()
        let counter = counter(log: log)
        let desk = desk(nesting: counter, asCase: asCase)
        desk <-! .edit
        let named = (counter.routes.storage.states.count, desk.routes.storage.states.count)
        for index in 1...3_000 {
            counter <-! .jump(100 + 5 * index)
            #expect(counter.state == .n(100 + 5 * index))
            _ = counter.canTryState(.n(-index))
            counter <- .n(1_000_000 + 5 * index)
        }
        // A few codes are in use at once (the state a step leaves, the one
        // it enters); none of the 9,000 states named since is kept.
        #expect(counter.routes.storage.states.count <= named.0 + 3)
        #expect(desk.routes.storage.states.count <= named.1 + 3)
        log.clear()
        counter <-! .jump(40)
        counter <-! .tick
        counter <-! .tick
        #expect(!counter.tryState(.n(44)))  // refused by the condition
        #expect(counter.state == .n(42))
        #expect(log.lines == ["jump(40): n(1015000) => n(40)", "tick: n(40) => n(41)", "tick: n(41) => n(42)"])
        if asCase {
            #expect(desk.state == .counter(.n(42)))
            #expect(desk.configuration == [.editor, .counter(.n(42))])
        }
    }

    @Test func aStateTheParentNamesKeepsItsPlaceWhileComputedStatesComeAndGo() {
        let log = Log()
        let counter = counter(log: log)
        let desk = desk(nesting: counter, asCase: true)
        desk <-! .edit
        for k in [10, 11, 12, 3] {
            counter <-! .jump(k)
        }
        // The parent's route from `.counter(.n(3))` is taken from the state
        // the child computed.
        #expect(desk.tryEvent(.leave))
        #expect(desk.state == .away)
        desk <-! .edit
        counter <-! .jump(3)
        #expect(desk.state == .counter(.n(3)))
        counter <-! .jump(7)
        #expect(desk.configuration == [.editor, .counter(.n(7))])
        #expect(!desk.tryEvent(.leave))
        // The parent names the image of a computed state the child is in:
        // from then on the child keeps that state's code.
        counter <-! .jump(8)
        desk.addRoutes(event: .leave, transitions: [.counter(.n(8)) => .away])
        for k in 100..<110 {
            counter <-! .jump(k)
        }
        #expect(!desk.tryEvent(.leave))
        counter <-! .jump(8)
        #expect(desk.tryEvent(.leave))
        #expect(desk.state == .away)
    }

    @Test(arguments: [false, true]) func aComputedStateRecordedInHistoryIsEnteredAgain(asCase: Bool) {
        let counter = counter(log: Log())
        let desk = desk(nesting: counter, asCase: asCase, history: true)
        desk <-! .edit
        counter <-! .jump(21)
        desk <-! .home
        // Computed states named while the parent is elsewhere do not take
        // the recorded one's code.
        for k in 50..<60 {
            _ = counter.canTryState(.n(k))
        }
        desk <-! .edit
        #expect(counter.state == .n(21))
        counter <-! .tick
        #expect(counter.state == .n(22))
    }

    @Test(arguments: [false, true]) func aRootMappingThatCountsUpDoesNotGrowTheHierarchysTables(asCase: Bool) {
        let counter = counter(log: Log())
        let desk = desk(nesting: counter, asCase: asCase)
        let named = (counter.routes.storage.states.count, desk.routes.storage.states.count)
        for index in 1...3_000 {
            desk <-! .tick
            #expect(desk.state == .page(index - 1))
            _ = desk.canTryState(.page(-index))
        }
        #expect(desk.routes.storage.states.count <= named.1 + 3)
        // The codes handed back name states of the nested machine again.
        desk <- .page(-1)
        if asCase {
            #expect(desk.tryState(.counter(.n(77))))
            #expect(counter.state == .n(77))
            #expect(desk.configuration == [.editor, .counter(.n(77))])
            counter <-! .jump(3)
            #expect(desk.tryEvent(.leave))
        } else {
            #expect(desk.tryState(.editor))
            counter <-! .jump(3)
            #expect(counter.state == .n(3))
        }
        desk <- .page(-1)
        #expect(desk.tryState(.page(12)))
        #expect(desk.configuration == [.page(12)])
        #expect(counter.routes.storage.states.count <= named.0 + 3)
    }

    /// The same requests, to a hierarchy whose computed states come and go
    /// and to one that names them all, must give the same logs, states and
    /// answers.
    @Test(arguments: 0..<120)
    func handingCodesBackInAHierarchyChangesNothingAUserSees(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let asCase = seed % 2 == 1
        let history = seed % 4 >= 2
        let (computedLog, pinnedLog) = (Log(), Log())
        let counters = (counter(log: computedLog), counter(log: pinnedLog))
        let computed = desk(nesting: counters.0, asCase: asCase, history: history, log: computedLog)
        let pinned = desk(nesting: counters.1, asCase: asCase, history: history, log: pinnedLog)
        pin(counters.1, pinned, asCase: asCase)
        for step in 0..<200 {
            let k = random.int(in: 0...39)
            let kind = random.int(in: 0...11)
            let before = computed.configuration
            let answers: [String] = [(counters.0, computed), (counters.1, pinned)].map { counter, desk in
                switch kind {
                case 0: "\(counter.tryEvent(.tick))"
                case 1: "\(counter.tryEvent(.jump(k)))"
                case 2: "\(counter.tryEvent(.back))"
                case 3: "\(counter.tryState(.n(k)))"
                case 4: "\(String(describing: counter.canTryEvent(.jump(k))))"
                case 5: "\(counter.canTryState(.n(k)))"
                case 6: "\(desk.tryEvent(.tick))"
                case 7: "\(desk.tryEvent([Press.edit, .home, .leave][k % 3]))"
                case 8: "\(desk.tryState(.page(k % 2 == 0 ? -1 : k)))"
                case 9: "\(desk.tryState(asCase ? .counter(.n(k)) : .editor))"
                case 10: "\(desk.canTryState(.page(k)))"
                default: "\(desk.tryState(.home))"
                }
            }
            let label = "seed \(seed), step \(step): request \(kind), \(k) from \(before)"
            #expect(answers[0] == answers[1], "\(label)")
            #expect(computed.configuration == pinned.configuration, "\(label)")
            #expect(counters.0.state == counters.1.state, "\(label)")
            if computedLog.lines != pinnedLog.lines {
                Issue.record("\(label): \(computedLog.lines.suffix(3)) ≠ \(pinnedLog.lines.suffix(3))")
                return
            }
        }
    }

    @Test(arguments: [false, true]) func steppingAHierarchyThroughComputedStatesIsLinear(asCase: Bool) {
        let ratio = growth(size: 500, prepare: { _ in () }) { count, _ in
            let counter = counter(log: Log())
            let desk = desk(nesting: counter, asCase: asCase)
            desk <-! .edit
            for index in 0..<count {
                counter <-! .jump(5 * index)
            }
            #expect(counter.state == .n(5 * (count - 1)))
            desk <-! .home
            for _ in 0..<count {
                desk <-! .tick
            }
            #expect(desk.state == .page(count - 1))
        }
        #expect(ratio < GrowthTests.bound, "8 times as many steps to computed states took \(ratio) times as long")
    }
}
