import Switchyard
import Testing

// A history and its default hold whatever the order of declarations and
// reads (SPEC 3.2), on one chart:
//
//     out     top { a, b { b1, b2 }, f (final) }
//
// A final state, a done route and a read of the configuration each prepare
// the chart, which enters its initial state before it begins. A history
// declared after them must still be how top is entered: at the start when
// top is the initial state, and on the first step into it otherwise.

private enum Node: StateType, CaseIterable {
    case out, top, a, b, b1, b2, f
}

private enum Go: EventType {
    case go, back, other
}

private enum Outer: StateType {
    case idle, host
    case inner(Node)
}

private typealias Chart = Machine<Node, Go>

/// What is declared, or read, before the history.
enum HistoryDeclarationOrder: CaseIterable, Sendable, CustomTestStringConvertible {
    /// The history first, then the rest: the control.
    case historyFirst
    case finalStateFirst
    case doneRouteFirst
    case configurationReadFirst

    var testDescription: String {
        switch self {
        case .historyFirst: "addHistory before the rest"
        case .finalStateFirst: "addFinalState before addHistory"
        case .doneRouteFirst: "addDoneRoute before addHistory"
        case .configurationReadFirst: "a read of configuration before addHistory"
        }
    }

    /// Declares `history` on `chart` in this order, with a final state and
    /// a done route for top, through `chart`'s declarations.
    fileprivate func declare<Declarer>(
        _ history: (Declarer) -> Void, on chart: Declarer, addFinalState: (Declarer) -> Void,
        addDoneRoute: (Declarer) -> Void, readConfiguration: (Declarer) -> Void
    ) {
        switch self {
        case .historyFirst:
            history(chart)
            addFinalState(chart)
            addDoneRoute(chart)
            readConfiguration(chart)
        case .finalStateFirst:
            addFinalState(chart)
            history(chart)
        case .doneRouteFirst:
            addDoneRoute(chart)
            history(chart)
        case .configurationReadFirst:
            readConfiguration(chart)
            history(chart)
        }
    }

    /// Declares `history` on `chart` in this order.
    fileprivate func declare(_ history: (Chart) -> Void, on chart: Chart) {
        declare(
            history, on: chart, addFinalState: { $0.addFinalState(.f) },
            addDoneRoute: { $0.addDoneRoute(.top => .out) }, readConfiguration: { _ = $0.configuration })
    }
}

/// The chart in `initial`, with routes from out into top (`go`) and back
/// (`back`), and `history` declared in `order`.
private func makeChart(
    in initial: Node, _ order: HistoryDeclarationOrder, log: Log, history: (Chart) -> Void
) -> Chart {
    let chart = Chart(state: initial)
    chart.addChildren([.a, .b, .f], to: .top)
    chart.addChildren([.b1, .b2], to: .b)
    chart.addRoutes(event: .go, transitions: [.out => .top])
    chart.addRoutes(event: .back, transitions: [.top => .out])
    order.declare(history, on: chart)
    logSteps(of: chart, to: log)
    return chart
}

@Suite struct HistoryDeclarationOrderTests {
    // MARK: The initial state

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func anInitialStateIsEnteredByItsShallowHistoryDefaultWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let log = Log()
        let chart = makeChart(in: .top, order, log: log) { $0.addHistory(.shallow, to: .top, default: .b) }
        #expect(chart.configuration == [.top, .b, .b1])
        #expect(chart.state == .b1)
        #expect(chart.start())
        #expect(log.lines == ["enter top", "enter b", "enter b1"])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func anInitialStateIsEnteredByItsDeepHistoryDefaultWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let log = Log()
        let chart = makeChart(in: .top, order, log: log) { $0.addHistory(.deep, to: .top, default: .b2) }
        #expect(chart.configuration == [.top, .b, .b2])
        #expect(chart.start())
        #expect(log.lines == ["enter top", "enter b", "enter b2"])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func anInitialStateFirstLeftByAnEventIsEnteredByItsHistoryDefault(_ order: HistoryDeclarationOrder) {
        // Without start(): the first step leaves what entering top made.
        let log = Log()
        let chart = makeChart(in: .top, order, log: log) { $0.addHistory(.shallow, to: .top, default: .b) }
        chart <-! .back
        #expect(log.lines == ["exit b1", "exit b", "exit top", "back: b1 => out", "enter out"])
        #expect(chart.recordedHistory(of: .top) == [.b])
    }

    @Test func aHistoryDefaultGivenAfterARead() {
        // The kind first, the default later: the default still holds.
        let log = Log()
        let chart = makeChart(in: .top, .historyFirst, log: log) { $0.addHistory(.shallow, to: .top) }
        #expect(chart.configuration == [.top, .a])
        chart.addHistory(.shallow, to: .top, default: .b)
        #expect(chart.configuration == [.top, .b, .b1])
        #expect(chart.start())
        #expect(log.lines == ["enter top", "enter b", "enter b1"])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func aSendableMachineEntersItsHistoryDefaultWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let chart = SendableMachine<Node, Go>(state: .top)
        chart.addChildren([.a, .b, .f], to: .top)
        chart.addChildren([.b1, .b2], to: .b)
        order.declare(
            { $0.addHistory(.shallow, to: .top, default: .b) }, on: chart, addFinalState: { $0.addFinalState(.f) },
            addDoneRoute: { $0.addDoneRoute(.top => .out) }, readConfiguration: { _ = $0.configuration })
        #expect(chart.configuration == [.top, .b, .b1])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func aNestedMachineEntersItsHistoryDefaultWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        // Declared on the nested machine, after nesting: its root prepared
        // the hierarchy for each declaration or read before the history.
        let parent = Machine<Outer, Go>(state: .host)
        let child = Chart(state: .top)
        child.addChildren([.a, .b, .f], to: .top)
        child.addChildren([.b1, .b2], to: .b)
        parent.nest(child, under: .host, as: Outer.inner)
        order.declare({ $0.addHistory(.shallow, to: .top, default: .b) }, on: child)
        #expect(parent.configuration == [.host, .inner(.top), .inner(.b), .inner(.b1)])
        #expect(child.configuration == [.top, .b, .b1])
        #expect(child.state == .b1)
    }

    // MARK: Entering from outside

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func aShallowHistoryDefaultIsEnteredFirstWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let log = Log()
        let chart = makeChart(in: .out, order, log: log) { $0.addHistory(.shallow, to: .top, default: .b) }
        chart <-! .go
        #expect(chart.configuration == [.top, .b, .b1])
        #expect(log.lines == ["exit out", "go: out => b1", "enter top", "enter b", "enter b1"])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func aDeepHistoryDefaultIsEnteredFirstWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let log = Log()
        let chart = makeChart(in: .out, order, log: log) { $0.addHistory(.deep, to: .top, default: .b2) }
        chart <-! .go
        #expect(chart.configuration == [.top, .b, .b2])
        #expect(log.lines == ["exit out", "go: out => b2", "enter top", "enter b", "enter b2"])
    }

    @Test(arguments: HistoryDeclarationOrder.allCases)
    func whatAHistoryRecordedBeatsItsDefaultWhateverTheOrder(_ order: HistoryDeclarationOrder) {
        let log = Log()
        let chart = makeChart(in: .out, order, log: log) { $0.addHistory(.shallow, to: .top, default: .b) }
        chart.addRoutes(event: .other, transitions: [.b1 => .a])
        chart <-! .go
        chart <-! .other
        chart <-! .back
        #expect(chart.recordedHistory(of: .top) == [.a])
        log.clear()
        chart <-! .go
        #expect(log.lines == ["exit out", "go: out => a", "enter top", "enter a"])
    }

    // MARK: After steps

    @Test func aHistoryDeclaredAfterItsStateWasLeftEntersItsDefault() {
        // Top kept no history when it was left, so it recorded nothing:
        // entering it through the history declared since enters the default,
        // as SCXML does while a history has no value.
        let log = Log()
        let chart = makeChart(in: .out, .configurationReadFirst, log: log) { _ in }
        chart <-! .go
        chart <-! .back
        #expect(chart.recordedHistory(of: .top).isEmpty)
        chart.addHistory(.shallow, to: .top, default: .b)
        log.clear()
        chart <-! .go
        #expect(chart.configuration == [.top, .b, .b1])
        #expect(log.lines == ["exit out", "go: out => b1", "enter top", "enter b", "enter b1"])
    }

    @Test func aHistoryDefaultGivenAfterAStepIsEnteredBeforeAnythingIsRecorded() {
        let log = Log()
        let chart = makeChart(in: .out, .historyFirst, log: log) { $0.addHistory(.shallow, to: .top) }
        chart.addRoutes(event: .other, transitions: [.out => .out])
        chart <-! .other
        chart.addHistory(.shallow, to: .top, default: .b)
        log.clear()
        chart <-! .go
        #expect(chart.configuration == [.top, .b, .b1])
        #expect(log.lines == ["exit out", "go: out => b1", "enter top", "enter b", "enter b1"])
    }

    @Test func aHistoryDefaultGivenAfterTheStateWasLeftGivesWayToWhatItRecorded() {
        // The default is what the history enters only while it records nothing.
        let log = Log()
        let chart = makeChart(in: .out, .historyFirst, log: log) { $0.addHistory(.shallow, to: .top) }
        chart <-! .go
        chart <-! .back
        #expect(chart.recordedHistory(of: .top) == [.a])
        chart.addHistory(.shallow, to: .top, default: .b)
        log.clear()
        chart <-! .go
        #expect(chart.configuration == [.top, .a])
        #expect(log.lines == ["exit out", "go: out => a", "enter top", "enter a"])
    }
}
