import Foundation
import Switchyard
import Testing

// Golden files of the diagrams of the README's, the demo's and the tests'
// machines, compared exactly. `SWITCHYARD_UPDATE_GOLDEN=1 swift test` writes
// them again; CI renders every `.dot` one with Graphviz and checks that every
// `.scxml` one is well-formed XML.

/// Compares `text` with the golden file `name`, or writes it when asked to.
private func expectGolden(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
{
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
    if ProcessInfo.processInfo.environment["SWITCHYARD_UPDATE_GOLDEN"] == "1" {
        try text.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let golden = try? String(contentsOf: url, encoding: .utf8)
    #expect(
        golden == text, "\(name) differs from its golden file; SWITCHYARD_UPDATE_GOLDEN=1 swift test writes it again",
        sourceLocation: sourceLocation)
}

// MARK: - The machines

private enum Player: StateType, CaseIterable {
    case stopped, active, playing, paused
}

private enum PlayerEvent: EventType {
    case play, pause, stop
}

/// The media player of the README and the statechart tests.
private func makePlayer() -> Machine<Player, PlayerEvent> {
    Machine(state: .stopped) { player in
        player.addChildren([.playing, .paused], to: .active)
        player.addHistory(.shallow, to: .active)
        player.addRoutes(event: .play, transitions: [.stopped => .active, .paused => .playing])
        player.addRoutes(event: .pause, transitions: [.playing => .paused])
        player.addRoutes(event: .stop, transitions: [.active => .stopped])
        player.addEntryHandler(.active) { _ in }
    }
}

private enum App: StateType {
    case home
    case editor(Draft)
}

private enum Draft: StateType {
    case viewing, typing
}

/// The README's nested editor: a draft machine nested in an app as an enum case.
private func makeApp() -> (app: Machine<App, NoEvent>, draft: Machine<Draft, NoEvent>) {
    let draft = Machine<Draft, NoEvent>(state: .viewing) { draft in
        draft.addRoute(.viewing => .typing)
        draft.addExitHandler(.typing) { _ in }
    }
    let app = Machine<App, NoEvent>(state: .home) { app in
        app.addRoute(.home => .editor(.viewing))
        app.addRoute(.any => .home)
    }
    app.nest(draft, as: App.editor)
    return (app, draft)
}

private enum Phase: StateType, CaseIterable {
    case solid, liquid, gas
}

private enum Change: EventType, CaseIterable {
    case melt, freeze, vaporize, condense
}

/// The README's matter definition.
private func matter() -> Definition<Phase, Change, String> {
    Definition(initialState: .solid) {
        From(.solid) { On(.melt, transitionTo: .liquid, emit: "melted") }
        From(.liquid) {
            On(.freeze, transitionTo: .solid, emit: "froze")
            On(.vaporize, transitionTo: .gas, emit: "vaporized")
        }
        From(.gas) { On(.condense, transitionTo: .liquid, emit: "condensed") }
    }
}

/// The README's ticket table.
private struct TicketTable: MutableTransitionTable {
    enum State: StateType, CaseIterable { case open, inProgress, resolved, reopened, closed }

    static let stateTransitions: [State: Set<State>] = [
        .open: [.inProgress, .resolved, .closed],
        .inProgress: [.open, .resolved],
        .resolved: [.reopened, .closed],
        .reopened: [.inProgress, .resolved, .closed],
        .closed: [.reopened],
    ]

    var state = State.open
}

/// A state whose description holds what each diagram's syntax reads.
private struct Label: StateType, CustomStringConvertible {
    var description: String
}

/// States whose descriptions hold quotes, backslashes, line breaks, braces
/// and the rest, for Graphviz to render in CI.
private func makeTrickyLabels() -> Machine<Label, NoEvent> {
    let quoted = Label(description: "say \"hi\" \\ back")
    let lines = Label(description: "two\nlines {braces} <angles> |bar|")
    let punctuation = Label(description: "a;b:c#d [e] %f")
    return Machine(state: quoted) { machine in
        machine.addChildren([lines, punctuation], to: quoted)
        machine.addRoute(lines => punctuation)
        machine.addRoute(punctuation => .any)
    }
}

/// An event whose description is not an SCXML event name.
private struct Signal: EventType, CustomStringConvertible {
    var description: String
}

/// States whose descriptions are not XML names, or become the same one,
/// and an event that is not an SCXML event name, for the SCXML ids.
private func makeTrickyIDs() -> Machine<Label, Signal> {
    let digit = Label(description: "1st <step> & 'more'")
    let spaced = Label(description: "a b")
    let underscored = Label(description: "a_b")
    let dashes = Label(description: "x -- y-")
    return Machine(state: digit) { machine in
        machine.addChildren([spaced, underscored], to: digit)
        machine.addHistory(.shallow, to: digit)
        machine.addRoutes(event: Signal(description: "go & \"stop\""), transitions: [spaced => underscored])
        machine.addRoutes(event: Signal(description: "go"), transitions: [underscored => dashes])
        machine.addRoute(dashes => digit, condition: { _ in true })
        machine.addEntryHandler(dashes) { _ in }
    }
}

/// Routes out of final states, which SCXML cannot hold: from a final child
/// (with a condition, an action and an event with `--` in its name, which a
/// comment cannot hold either), from a top-level final state with an entry
/// handler, from a final state listed among other sources, and to a state
/// whose id has `--` in it.
private func makeFinalRoutes() -> Machine<Label, Signal> {
    let order = Label(description: "order")
    let packing = Label(description: "packing")
    let packed = Label(description: "packed")
    let shipped = Label(description: "shipped")
    let delivered = Label(description: "delivered--signed-")
    return Machine(state: order) { machine in
        machine.addChildren([packing, packed], to: order)
        machine.addFinalState(packed)
        machine.addFinalState(delivered)
        machine.addRoutes(event: Signal(description: "pack"), transitions: [packing => packed])
        machine.addRoute(
            event: Signal(description: "re--open"), packed => packing, condition: { _ in true }, action: { _ in })
        machine.addRoutes(event: Signal(description: "cancel"), routes: [[packing, packed] => shipped])
        machine.addRoutes(event: Signal(description: "skip"), transitions: [packed => delivered])
        machine.addDoneRoute(order => shipped)
        machine.addRoutes(event: Signal(description: "deliver"), transitions: [shipped => delivered])
        machine.addRoutes(event: Signal(description: "return"), transitions: [delivered => shipped])
        machine.addEntryHandler(delivered) { _ in }
    }
}

private enum Workshop: StateType, CaseIterable {
    case idle, running, cutting, sawing, sanding, polishing, sweeping, done, broken
}

private enum WorkshopEvent: EventType, CaseIterable {
    case start, finish, polish, jam
}

/// A statechart with every feature a diagram marks: parallel regions, deep
/// history with a default, a final state and a done route, an eventless
/// route, a route with an action, a local route, a route with two targets,
/// a conditional `.any` event route, and a route mapping listed move by move.
private func makeWorkshop() -> Machine<Workshop, WorkshopEvent> {
    Machine(state: .idle) { workshop in
        workshop.addRegions([.cutting, .sanding], to: .running)
        workshop.addChildren([.sawing], to: .cutting)
        workshop.addChildren([.polishing, .sweeping], to: .sanding)
        workshop.addHistory(.deep, to: .running, default: .sweeping)
        workshop.addFinalState(.done)
        workshop.addRoutes(event: .start, transitions: [.idle => .running])
        workshop.addRoute(event: .polish, .local(.sanding => .polishing), action: { _ in })
        workshop.addRoutes(event: .finish, transitions: [(.idle => .sawing).alsoEntering(.polishing)])
        workshop.addRoutes(event: .any, transitions: [.any => .broken], condition: { _ in false })
        workshop.addEventlessRoute(.sweeping => .done, condition: { _ in true })
        workshop.addDoneRoute(.running => .idle)
        workshop.addRouteMapping { event, state, _ in event == .jam && state == .sawing ? .broken : nil }
    }
}

private enum Factory: StateType {
    case closed, open
}

private enum Line: StateType {
    case stopped, moving
}

private enum Robot: StateType {
    case parked, welding
}

/// Three machines, each nested under a state of the one above.
private func makeFactory() -> Machine<Factory, NoEvent> {
    let robot = Machine<Robot, NoEvent>(state: .parked) { $0.addRoute(.parked => .welding) }
    let line = Machine<Line, NoEvent>(state: .stopped) { line in
        line.addRoute(.stopped => .moving)
        line.addRoute(.moving => .stopped)
    }
    line.nest(robot, under: .moving)
    let factory = Machine<Factory, NoEvent>(state: .closed) { $0.addRoute(.closed => .open) }
    factory.nest(line, under: .open)
    return factory
}

/// States and events whose descriptions hold what Graphviz, Mermaid or the
/// SVG they draw cannot take as written: NUL and other control characters,
/// a noncharacter, HTML entities, Unicode's line and paragraph separators,
/// and descriptions longer than a Graphviz quoted string may be, for
/// Graphviz and Mermaid to render in CI.
private func makeHostileLabels() -> Machine<Label, Signal> {
    let entities = Label(description: "&lt;b&gt; &amp; & <i>")
    let controls = Label(description: "nul\u{0} start\u{1} esc\u{1B}[1m del\u{7F} csi\u{9B} tab\t non\u{FFFE}")
    let separators = Label(description: "line\u{2028}paragraph\u{2029}next\u{85}crlf\r\nend")
    let long = Label(description: String(repeating: "long ", count: 4_000))
    let left = Label(description: "left")
    let right = Label(description: "right")
    return Machine(state: entities) { machine in
        machine.addChildren([controls, separators], to: entities)
        machine.addRegions([left, right], to: long)
        machine.addRoutes(
            event: Signal(description: "go\u{0}\u{1B} &amp;\u{2028}on"), transitions: [controls => separators])
        machine.addRoutes(
            event: Signal(description: String(repeating: "e", count: 20_000)), transitions: [separators => long],
            condition: { _ in true })
        machine.addRoute(left => controls)
    }
}

/// A machine of one state, `description`, to draw a label on its own.
private func makeOneState(_ description: String) -> MachineDescription<Label, NoEvent> {
    Machine<Label, NoEvent>(state: Label(description: description)).describe()
}

// MARK: - Golden files

@Suite struct DiagramExportTests {
    @Test func doorDiagrams() throws {
        let description = makeReadmeDoor().describe()
        try expectGolden(description.dot(), named: "door.dot")
        try expectGolden(description.mermaid(), named: "door.mmd")
        try expectGolden(description.scxml(), named: "door.scxml")
    }

    @Test func mediaPlayerDiagrams() throws {
        let description = makePlayer().describe()
        try expectGolden(description.dot(), named: "media-player.dot")
        try expectGolden(description.mermaid(), named: "media-player.mmd")
        try expectGolden(description.scxml(), named: "media-player.scxml")
    }

    @Test func nestedEditorDiagrams() throws {
        let description = makeApp().app.describe()
        try expectGolden(description.dot(), named: "nested-editor.dot")
        try expectGolden(description.mermaid(), named: "nested-editor.mmd")
        try expectGolden(description.scxml(), named: "nested-editor.scxml")
    }

    @Test func matterDiagrams() throws {
        let description = matter().describe()
        try expectGolden(description.dot(), named: "matter.dot")
        try expectGolden(description.mermaid(), named: "matter.mmd")
        try expectGolden(description.scxml(), named: "matter.scxml")
    }

    @Test func trickyLabelDiagrams() throws {
        let description = makeTrickyLabels().describe()
        try expectGolden(description.dot(), named: "tricky-labels.dot")
        try expectGolden(description.mermaid(), named: "tricky-labels.mmd")
        try expectGolden(description.scxml(), named: "tricky-labels.scxml")
    }

    @Test func workshopDiagrams() throws {
        let description = makeWorkshop().describe()
        try expectGolden(description.dot(), named: "workshop.dot")
        try expectGolden(description.mermaid(), named: "workshop.mmd")
        try expectGolden(description.scxml(), named: "workshop.scxml")
    }

    @Test func factoryDiagrams() throws {
        let description = makeFactory().describe()
        try expectGolden(description.dot(), named: "factory.dot")
        try expectGolden(description.mermaid(), named: "factory.mmd")
        try expectGolden(description.scxml(), named: "factory.scxml")
    }

    @Test func ticketTableDiagrams() throws {
        let description = TicketTable.describe(state: .open)
        try expectGolden(description.dot(), named: "ticket-table.dot")
        try expectGolden(description.mermaid(), named: "ticket-table.mmd")
        try expectGolden(description.scxml(), named: "ticket-table.scxml")
    }

    @Test func hostileLabelDiagrams() throws {
        let description = makeHostileLabels().describe()
        try expectGolden(description.dot(), named: "hostile-labels.dot")
        try expectGolden(description.mermaid(), named: "hostile-labels.mmd")
        try expectGolden(description.scxml(), named: "hostile-labels.scxml")
    }

    @Test func trickyIDDocument() throws {
        try expectGolden(makeTrickyIDs().describe().scxml(), named: "tricky-ids.scxml")
    }

    @Test func routesOutOfFinalStatesAreCommentsInTheirFinalElement() throws {
        let document = makeFinalRoutes().describe().scxml()
        try expectGolden(document, named: "final-routes.scxml")
        // The comment says what the route was, with the `--` of an event or
        // an id broken up: a comment cannot hold two dashes in a row.
        let note = "a route out of a final state, left out (SCXML's <final> holds no transition): "
        let comments = document.components(separatedBy: "<!--").dropFirst().map {
            $0.components(separatedBy: "-->")[0]
        }
        // A request may take an event route out of a final state too.
        let requests = " state requests, which may take event routes too "
        let request = "(a request for its target may take the route of"
        #expect(
            comments == [
                requests,
                " \(note)<transition event=\"re- -open\" cond=\"condition1\" target=\"packing\"><log label=\"action1\"/></transition> ",
                " \(note)<transition event=\"cancel\" target=\"shipped\"/> ",
                " \(note)<transition event=\"skip\" target=\"delivered- -signed-\"/> ",
                " \(note)<transition event=\"to.packing\" cond=\"condition1\" target=\"packing\"/> \(request) re- -open) ",
                " \(note)<transition event=\"to.shipped\" target=\"shipped\"/> \(request) cancel) ",
                " \(note)<transition event=\"to.delivered- -signed-\" target=\"delivered- -signed-\"/> \(request) skip) ",
                " \(note)<transition event=\"return\" target=\"shipped\"/> ",
                " \(note)<transition event=\"to.shipped\" target=\"shipped\"/> \(request) return) ",
                requests,
            ])
        for comment in comments {
            #expect(!comment.contains("--"), "a comment holds --: \(comment)")
        }
        // No transition is left inside a final element.
        var isInFinal = false
        for line in document.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("<final") {
                isInFinal = !line.hasSuffix("/>")
            } else if line == "</final>" {
                isInFinal = false
            }
            #expect(!(isInFinal && line.hasPrefix("<transition")), "a transition in a final element: \(line)")
        }
    }
}

// MARK: - Labels as written

/// The quoted strings of a DOT text, as written in it.
private func quotedStrings(in dot: String) -> [Substring] {
    var strings: [Substring] = []
    var start: String.Index?
    var index = dot.startIndex
    while index < dot.endIndex {
        let character = dot[index]
        if start != nil, character == "\\" {
            index = dot.index(after: index)
        } else if character == "\"" {
            if let opened = start {
                strings.append(dot[dot.index(after: opened)..<index])
                start = nil
            } else {
                start = index
            }
        }
        index = dot.index(after: index)
    }
    return strings
}

@Suite struct DiagramLabelTests {
    @Test func anAmpersandIsAnEntityInDOTSoGraphvizShowsEntitiesAsWritten() {
        #expect(makeOneState("&lt;b&gt;").dot().contains(#"[label="&amp;lt;b&amp;gt;"];"#))
    }

    @Test func anAmpersandIsAnEntityCodeInMermaidSoMermaidShowsEntitiesAsWritten() {
        #expect(makeOneState("&lt;b&gt;").mermaid().contains(##"state "#38;lt#59;b#38;gt#59;" as "##))
    }

    @Test(arguments: [
        ("\u{0}", "0"), ("\u{1}", "1"), ("\u{1B}", "1B"), ("\u{7F}", "7F"), ("\u{9B}", "9B"), ("\u{FFFE}", "FFFE"),
        ("\u{FFFF}", "FFFF"),
    ])
    func controlCharactersAreSpelledOutInEveryDiagram(character: String, hex: String) {
        let description = makeOneState("a\(character)b")
        #expect(description.dot().contains(#"[label="a\\u{\#(hex)}b"];"#))
        #expect(description.mermaid().contains(#"state "a\u#123;\#(hex)#125;b" as "#))
        #expect(!description.dot().unicodeScalars.contains { $0 == character.unicodeScalars.first })
        #expect(!description.mermaid().unicodeScalars.contains { $0 == character.unicodeScalars.first })
    }

    @Test(arguments: ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"])
    func everyLineBreakIsALineBreakInEveryDiagram(lineBreak: String) {
        let description = makeOneState("a\(lineBreak)b")
        #expect(description.dot().contains(#"[label="a\nb"];"#))
        #expect(description.mermaid().contains(#"state "a<br>b" as "#))
    }

    @Test func anOverlongLabelIsShortenedWithAnEllipsis() {
        let description = makeOneState(String(repeating: "x", count: 20_000))
        let shown = String(repeating: "x", count: 999) + "…"
        #expect(description.dot().contains("[label=\"\(shown)\"];"))
        #expect(description.mermaid().contains("state \"\(shown)\" as "))
    }

    @Test func shorteningKeepsWholeCharacters() {
        // 999 letters and a flag of two scalars: the flag does not fit.
        let description = makeOneState(String(repeating: "x", count: 999) + "🇫🇷" + "tail")
        #expect(description.dot().contains("[label=\"\(String(repeating: "x", count: 999))…\"];"))
    }

    @Test func whatADiagramAddsAfterAShortenedLabelStays() {
        let dot = makeHostileLabels().describe().dot()
        #expect(dot.contains("… (parallel)\";"))
        #expect(dot.contains("… [condition] \""))
    }

    @Test func everyQuotedStringOfAHostileDiagramIsOneGraphvizCanScan() {
        let dot = makeHostileLabels().describe().dot()
        for string in quotedStrings(in: dot) {
            #expect(string.utf8.count < 16_384)
        }
        for text in [dot, makeHostileLabels().describe().mermaid()] {
            let unexpected = text.unicodeScalars.filter {
                $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
                    || $0.properties.isNoncharacterCodePoint || $0 == "\u{2028}" || $0 == "\u{2029}"
            }
            #expect(unexpected.isEmpty, "characters a diagram cannot carry: \(unexpected.map(\.value))")
        }
    }
}

// MARK: - SCXML event names

/// The values of the `event` attributes of a document's transitions,
/// commented-out ones included, in document order; without the requests
/// for a state that event routes take too (`to.b`), unless asked.
private func eventNames(in document: String, withRequests: Bool = false) -> [String] {
    document.components(separatedBy: "<transition event=\"").dropFirst().map {
        String($0.prefix { $0 != "\"" })
    }
    .filter { withRequests || !$0.hasPrefix("to.") }
}

/// Whether a transition whose `event` is `descriptor` takes the event
/// `name` in SCXML: the same name, or one that goes on after a dot.
private func matches(_ descriptor: String, _ name: String) -> Bool {
    name == descriptor || name.hasPrefix(descriptor + ".")
}

@Suite struct SCXMLEventNameTests {
    @Test func eventsWhoseDescriptionsMakeTheSameNameGetDistinctNames() {
        let one = Label(description: "one")
        let two = Label(description: "two")
        let machine = Machine<Label, Signal>(state: one) { machine in
            machine.addRoutes(event: Signal(description: "a b"), transitions: [one => two])
            machine.addRoutes(event: Signal(description: "a_b"), transitions: [two => one])
            machine.addRoutes(event: Signal(description: "a.b"), transitions: [two => one])
            machine.addRoutes(event: Signal(description: "a b"), transitions: [two => two])
        }
        #expect(eventNames(in: machine.describe().scxml()) == ["a_b", "a_b_2", "a_b_3", "a_b"])
    }

    @Test func aDottedEventDoesNotTakeTheTransitionsOfTheEventBeforeItsDot() {
        let one = Label(description: "one")
        let two = Label(description: "two")
        let machine = Machine<Label, Signal>(state: one) { machine in
            machine.addRoutes(event: Signal(description: "door"), transitions: [one => two])
            machine.addRoutes(event: Signal(description: "door.open"), transitions: [two => one])
        }
        let names = eventNames(in: machine.describe().scxml())
        #expect(names.count == 2)
        #expect(!matches(names[0], names[1]) && !matches(names[1], names[0]), "\(names)")
    }

    @Test func userEventsStayOutOfTheNamesTheExportGivesRequestsAndDoneRoutes() {
        let c = Label(description: "c")
        let d = Label(description: "d")
        let inner = Label(description: "inner")
        let end = Label(description: "end")
        let user = ["to.c", "done.state.d", "to", "done", "error", "to_c"]
        let machine = Machine<Label, Signal>(state: c) { machine in
            machine.addChildren([inner, end], to: d)
            machine.addFinalState(end)
            machine.addRoute(inner => end)
            machine.addRoute(c => d)
            machine.addDoneRoute(d => c)
            for event in user {
                machine.addRoutes(event: Signal(description: event), transitions: [c => c])
            }
        }
        let document = machine.describe().scxml()
        let names = eventNames(in: document, withRequests: true)
        // `to.c` too: a request for `c` may take the user's events' routes.
        let exports = ["to.c", "to.d", "to.end", "done.state.d"]
        #expect(exports.allSatisfy(names.contains), "\(names)")
        let userNames = names.filter { !exports.contains($0) }
        #expect(userNames.count == user.count, "\(names)")
        #expect(Set(userNames).count == user.count, "\(names)")
        for name in userNames {
            for other in names where other != name {
                #expect(!matches(name, other) && !matches(other, name), "\(name) and \(other) take each other's events")
            }
            for platform in ["done.invoke.x", "error.execution", "to.c"] {
                #expect(!matches(name, platform), "\(name) takes \(platform)")
            }
        }
        // Each renamed event keeps its description in a comment.
        #expect(document.contains("<!-- event: to.c -->"))
        #expect(document.contains("<!-- event: done.state.d -->"))
    }
}
