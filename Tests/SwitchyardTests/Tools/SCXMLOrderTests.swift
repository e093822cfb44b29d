import Switchyard
import Testing

// The SCXML export writes each state's transitions in the order its machine
// tries them (SPEC §2), so that an SCXML interpreter, which tries them in
// document order, chooses what the machine chooses: the routes of an exact
// event before those of any event, each in the order added; the routes from
// `.any` after the state's own; the moves of route mappings after every route.
// A state request may take an event route too, so each event route is written
// a second time as a request for its target (`event="to.b"`), in the order a
// request asks the routes.

private enum Spot: StateType, CaseIterable {
    case a, b, c, d, top, inner
}

private enum Signal: EventType, CaseIterable {
    case go, stop
}

/// The `<transition …>` elements directly inside the state `id`, in document
/// order, each as its attributes (`event="go" target="c"`).
private func transitions(of id: String, in document: String) -> [String] {
    let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let open = lines.firstIndex(where: { $0.contains("<state id=\"\(id)\"") }) else { return [] }
    let indent = String(lines[open].prefix { $0 == " " })
    let childIndent = indent + "    "
    var found: [String] = []
    for line in lines[(open + 1)...] {
        if line.hasPrefix(indent + "</state>") { break }
        guard line.hasPrefix(childIndent + "<transition") else { continue }
        let body = line.dropFirst(childIndent.count + "<transition ".count)
        found.append(String(body.prefix { $0 != "/" && $0 != ">" }).trimmingCharacters(in: .whitespaces))
    }
    return found
}

@Suite struct SCXMLOrderTests {
    @Test func anExactEventsRouteIsWrittenBeforeAnAnyEventRouteAddedEarlier() {
        let machine = Machine<Spot, Signal>(state: .a) { machine in
            machine.addRoutes(event: .any, transitions: [.a => .b])
            machine.addRoutes(event: .go, transitions: [.a => .c])
        }
        #expect(machine.tryEvent(.go))
        #expect(machine.state == .c)

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "a", in: document) == [
                "event=\"go\" target=\"c\"", "event=\"to.b\" target=\"b\"", "event=\"to.c\" target=\"c\"",
                "event=\"*\" target=\"b\"",
            ])
    }

    @Test func insideACompoundStateTheExactEventStillGoesFirst() {
        let machine = Machine<Spot, Signal>(state: .top) { machine in
            machine.addChildren([.a, .b, .c], to: .top)
            machine.addRoutes(event: .any, transitions: [.a => .b])
            machine.addRoutes(event: .go, transitions: [.a => .c])
        }
        let document = machine.describe().scxml()
        #expect(machine.tryEvent(.go))
        #expect(machine.state == .c)
        #expect(
            transitions(of: "a", in: document) == [
                "event=\"go\" target=\"c\"", "event=\"to.b\" target=\"b\"", "event=\"to.c\" target=\"c\"",
                "event=\"*\" target=\"b\"",
            ])
    }

    @Test func routesFromAnyAreCopiedInTheSameOrder() {
        let machine = Machine<Spot, Signal>(state: .a) { machine in
            machine.addRoutes(event: .any, transitions: [.any => .b])
            machine.addRoutes(event: .go, transitions: [.any => .c])
        }
        #expect(machine.tryEvent(.go))
        #expect(machine.state == .c)

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "a", in: document) == [
                "event=\"go\" target=\"c\"", "event=\"to.b\" target=\"b\"", "event=\"to.c\" target=\"c\"",
                "event=\"*\" target=\"b\"",
            ])
    }

    @Test func aListedMappingMoveIsWrittenAfterTheRoutesFromAny() {
        let machine = Machine<Spot, Signal>(state: .a) { machine in
            machine.addRoutes(event: .go, transitions: [.any => .c])
            machine.addRouteMapping { event, state, _ in event == .go && state == .a ? .b : nil }
        }
        #expect(machine.tryEvent(.go))
        #expect(machine.state == .c)

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "a", in: document) == [
                "event=\"go\" target=\"c\"", "event=\"to.c\" target=\"c\"", "event=\"go\" target=\"b\"",
            ])
    }

    @Test func aStateRequestThatTakesAnEventRouteIsWrittenAsARequestWithoutTheRoutesAction() {
        let log = Log()
        let machine = Machine<Spot, Signal>(state: .a) { machine in
            machine.addRoute(event: .go, .a => .b, action: { _ in log("action") })
        }
        #expect(machine.tryState(.b))
        #expect(machine.state == .b)
        #expect(log.lines.isEmpty)

        let document = machine.describe().scxml()
        #expect(transitions(of: "a", in: document) == ["event=\"go\" target=\"b\"", "event=\"to.b\" target=\"b\""])
        #expect(document.contains("<transition event=\"to.b\" target=\"b\"/>"))
    }

    @Test(arguments: [false, true])
    func aStateRequestAsksRoutesWithoutAnEventThenToAnyStateThenEventRoutes(withStatechart: Bool) {
        let log = Log()
        func refusing(_ line: String) -> (TransitionContext<Spot, Signal>) -> Bool {
            { _ in
                log(line)
                return false
            }
        }
        let machine = Machine<Spot, Signal>(state: .a) { machine in
            if withStatechart {
                machine.addEntryHandler(.d) { _ in }
            }
            machine.addRoutes(event: .go, transitions: [.a => .b], condition: refusing("event route"))
            machine.addRoute(.a => .any, condition: refusing("to any state"))
            machine.addRoute(.a => .b, condition: refusing("without an event"))
            machine.addRoutes(event: .stop, transitions: [.any => .b]) { _ in
                log("from any")
                return true
            }
        }
        #expect(machine.tryState(.b))
        #expect(machine.state == .b)
        #expect(log.lines == ["without an event", "to any state", "event route", "from any"])

        // The placeholders are numbered in the order the routes were added.
        let document = machine.describe().scxml()
        #expect(
            transitions(of: "a", in: document) == [
                "event=\"go\" cond=\"condition1\" target=\"b\"",
                "event=\"to.b\" cond=\"condition3\" target=\"b\"",
                "event=\"to.*\" cond=\"condition2\"",
                "event=\"to.b\" cond=\"condition1\" target=\"b\"",
                "event=\"stop\" cond=\"condition4\" target=\"b\"",
                "event=\"to.b\" cond=\"condition4\" target=\"b\"",
            ])
    }

    @Test func aNestedStatesMappingMoveSaysTheExportCannotKeepTheMachinesOrder() {
        let machine = Machine<Spot, Signal>(state: .top) { machine in
            machine.addChildren([.a, .b], to: .top)
            machine.addRouteMapping { event, state, _ in event == .go && state == .a ? .b : nil }
        }
        let document = machine.describe().scxml()
        #expect(document.contains("route mappings: the machine asks them after the routes of every state"))
        #expect(transitions(of: "a", in: document) == ["event=\"go\" target=\"b\""])
    }
}

// A state with history is entered through it whenever Switchyard enters it by
// default, and a route from inside it to it leaves it and enters it again: its
// `<initial>` is its history, and such a route targets the state itself, so
// that an SCXML interpreter (W3C Appendix D) enters and leaves what the machine
// does.

/// The states of the machines with history here and in their SCXML round
/// trip (`SCXMLRoundTripMachines`).
enum Deck: StateType, CaseIterable {
    case idle, player, deck, playing, paused, radio, both, volume, loud, quiet
}

enum Knob: EventType, CaseIterable {
    case open, play, pause, back, tune, reset
}

/// `deck`, whose children `playing` and `paused` it keeps a shallow history
/// of, opened from `idle` and paused: what most machines with history here and
/// in `SCXMLRoundTripMachines` start from.
func declareDeckWithHistory(on machine: Machine<Deck, Knob>) {
    machine.addChildren([.playing, .paused], to: .deck)
    machine.addHistory(.shallow, to: .deck)
    machine.addRoutes(event: .open, transitions: [.idle => .deck])
    machine.addRoutes(event: .pause, transitions: [.playing => .paused])
}

/// The lines of the element of the state `id`, its own indentation removed.
private func element(_ id: String, in document: String) -> [String] {
    let lines = document.split(separator: "\n").map(String.init)
    guard let open = lines.firstIndex(where: { $0.contains(" id=\"\(id)\"") }) else { return [] }
    let indent = lines[open].prefix { $0 == " " }
    var found = [String(lines[open].dropFirst(indent.count))]
    guard !lines[open].hasSuffix("/>") else { return found }
    for line in lines[(open + 1)...] {
        found.append(String(line.dropFirst(indent.count)))
        if line.hasPrefix(indent + "</") { break }
    }
    return found
}

@Suite struct SCXMLHistoryTests {
    @Test func aRouteFromInsideAStateWithHistoryToItTargetsTheStateSoItIsLeftAndEnteredThroughItsHistory() {
        let log = Log()
        let machine = Machine<Deck, Knob>(state: .idle) { machine in
            declareDeckWithHistory(on: machine)
            machine.addRoutes(event: .back, transitions: [.paused => .deck])
            machine.addEntryHandler(.deck) { _ in log("enter deck") }
            machine.addExitHandler(.deck) { _ in log("exit deck") }
        }
        #expect(machine.tryEvent(.open))
        #expect(machine.tryEvent(.pause))
        log.clear()
        #expect(machine.tryEvent(.back))
        #expect(machine.state == .paused)
        #expect(log.lines == ["exit deck", "enter deck"])
        // A request for deck from inside it likewise.
        log.clear()
        #expect(machine.tryState(.deck))
        #expect(machine.state == .paused)
        #expect(log.lines == ["exit deck", "enter deck"])

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "idle", in: document) == [
                "event=\"open\" target=\"deck_history\"", "event=\"to.deck\" target=\"deck_history\"",
            ])
        #expect(
            transitions(of: "paused", in: document) == [
                "event=\"back\" target=\"deck\"", "event=\"to.deck\" target=\"deck\"",
            ])
        #expect(document.contains("<!-- leaves deck, recording its history, and enters it again through it -->"))
        #expect(
            element("deck", in: document) == [
                "<state id=\"deck\">",
                "    <onentry>",
                "        <log label=\"entry1\"/>",
                "    </onentry>",
                "    <onexit>",
                "        <log label=\"exit2\"/>",
                "    </onexit>",
                "    <initial>",
                "        <transition target=\"deck_history\"/>",
                "    </initial>",
                "    <history id=\"deck_history\" type=\"shallow\">",
                "        <transition target=\"playing\"/>",
                "    </history>",
                "    <state id=\"playing\">",
                "        <transition event=\"pause\" target=\"paused\"/>",
                "        <!-- state requests, which may take event routes too -->",
                "        <transition event=\"to.paused\" target=\"paused\"/>",
                "    </state>",
                "    <state id=\"paused\">",
                "        <!-- leaves deck, recording its history, and enters it again through it -->",
                "        <transition event=\"back\" target=\"deck\"/>",
                "        <!-- state requests, which may take event routes too -->",
                "        <!-- leaves deck, recording its history, and enters it again through it -->",
                "        <transition event=\"to.deck\" target=\"deck\"/>",
                "    </state>",
                "</state>",
            ])
    }

    @Test func aRouteFromInsideAStateThatIgnoresItsHistorySaysTheDocumentDoesNotLeaveTheState() {
        let log = Log()
        let machine = Machine<Deck, Knob>(state: .paused) { machine in
            machine.addChildren([.playing, .paused], to: .deck)
            machine.addHistory(.shallow, to: .deck)
            machine.addRoutes(event: .reset, transitions: [.ignoringHistory(.paused => .deck)])
            machine.addExitHandler(.deck) { _ in log("exit deck") }
        }
        #expect(machine.tryEvent(.reset))
        #expect(machine.state == .playing)
        #expect(log.lines == ["exit deck"])

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "paused", in: document) == [
                "event=\"reset\" target=\"playing\"", "event=\"to.deck\" target=\"deck\"",
            ])
        #expect(
            document.contains(
                "<!-- ignores the history of deck: Switchyard leaves deck before it enters this child, SCXML does not -->"
            ))
    }

    @Test func anInitialChildWithHistoryIsEnteredThroughItAtStartAndAfterwards() {
        let machine = Machine<Deck, Knob>(state: .player) { machine in
            machine.addChildren([.deck, .radio], to: .player)
            machine.addChildren([.playing, .paused], to: .deck)
            machine.addHistory(.shallow, to: .deck, default: .paused)
            machine.addRoutes(event: .play, transitions: [.paused => .playing])
            machine.addRoutes(event: .pause, transitions: [.playing => .paused])
            machine.addRoutes(event: .tune, transitions: [.deck => .radio])
            machine.addRoutes(event: .back, transitions: [.radio => .player])
            machine.addRoutes(event: .reset, transitions: [.ignoringHistory(.radio => .deck)])
        }
        // The history's default, not the initial child, at start; what it
        // recorded when `player` is entered by default again.
        machine.start()
        #expect(machine.state == .paused)
        #expect(machine.tryEvent(.play))
        #expect(machine.tryEvent(.tune))
        #expect(machine.tryEvent(.back))
        #expect(machine.state == .playing)
        // Ignoring history: the initial child, not the recorded `paused`.
        #expect(machine.tryEvent(.pause))
        #expect(machine.tryEvent(.tune))
        #expect(machine.tryEvent(.reset))
        #expect(machine.state == .playing)
        // A request that takes that route enters through history.
        #expect(machine.tryEvent(.pause))
        #expect(machine.tryEvent(.tune))
        #expect(machine.tryState(.deck))
        #expect(machine.state == .paused)

        let document = machine.describe().scxml()
        #expect(document.contains(#"version="1.0" initial="player">"#))
        #expect(element("player", in: document).first == "<state id=\"player\" initial=\"deck\">")
        #expect(
            element("deck", in: document).prefix(10) == [
                "<state id=\"deck\">",
                "    <transition event=\"tune\" target=\"radio\"/>",
                "    <!-- state requests, which may take event routes too -->",
                "    <transition event=\"to.radio\" target=\"radio\"/>",
                "    <initial>",
                "        <transition target=\"deck_history\"/>",
                "    </initial>",
                "    <history id=\"deck_history\" type=\"shallow\">",
                "        <transition target=\"paused\"/>",
                "    </history>",
            ])
        // A request enters through history, whatever the route ignores.
        #expect(
            transitions(of: "radio", in: document) == [
                "event=\"back\" target=\"player\"", "event=\"reset\" target=\"playing\"",
                "event=\"to.player\" target=\"player\"", "event=\"to.deck\" target=\"deck_history\"",
            ])
    }

    @Test func aRegionWithHistoryIsEnteredThroughIt() {
        let machine = Machine<Deck, Knob>(state: .idle) { machine in
            machine.addRegions([.deck, .volume], to: .both)
            machine.addChildren([.playing, .paused], to: .deck)
            machine.addChildren([.quiet, .loud], to: .volume)
            machine.addHistory(.shallow, to: .deck, default: .paused)
            machine.addRoutes(event: .open, transitions: [.idle => .both])
        }
        #expect(machine.tryEvent(.open))
        #expect(machine.configuration == [.both, .deck, .paused, .volume, .quiet])

        let document = machine.describe().scxml()
        #expect(element("both", in: document).first == "<parallel id=\"both\">")
        #expect(
            element("deck", in: document).prefix(7) == [
                "<state id=\"deck\">",
                "    <initial>",
                "        <transition target=\"deck_history\"/>",
                "    </initial>",
                "    <history id=\"deck_history\" type=\"shallow\">",
                "        <transition target=\"paused\"/>",
                "    </history>",
            ])
        #expect(element("volume", in: document).first == "<state id=\"volume\" initial=\"quiet\">")
    }

    // The round trip of the SCXML export (SCXMLRoundTripTests) found these.

    @Test func aStateRouteThatIgnoresHistoryTargetsTheHistoryAsTheRequestThatTakesItEntersThrough() {
        let machine = Machine<Deck, Knob>(state: .idle) { machine in
            declareDeckWithHistory(on: machine)
            machine.addRoutes(event: .back, transitions: [.deck => .idle])
            machine.addRoute(.ignoringHistory(.idle => .deck))
        }
        #expect(machine.tryEvent(.open))
        #expect(machine.tryEvent(.pause))
        #expect(machine.tryEvent(.back))
        #expect(machine.tryState(.deck))
        #expect(machine.state == .paused)

        let document = machine.describe().scxml()
        #expect(
            transitions(of: "idle", in: document) == [
                "event=\"open\" target=\"deck_history\"", "event=\"to.deck\" target=\"deck_history\"",
                "event=\"to.deck\" target=\"deck_history\"",
            ])
    }

    @Test func aLocalRouteFromAStateWithHistoryToItselfLeavesIt() {
        let log = Log()
        let machine = Machine<Deck, Knob>(state: .idle) { machine in
            declareDeckWithHistory(on: machine)
            machine.addRoutes(event: .reset, transitions: [.local(.deck => .deck)])
            machine.addRoutes(event: .tune, transitions: [.local(.deck => .playing)])
            machine.addEntryHandler(.deck) { _ in log("enter deck") }
            machine.addExitHandler(.deck) { _ in log("exit deck") }
        }
        #expect(machine.tryEvent(.open))
        #expect(machine.tryEvent(.pause))
        log.clear()
        #expect(machine.tryEvent(.reset))
        #expect(machine.state == .paused)
        #expect(log.lines == ["exit deck", "enter deck"])
        log.clear()
        #expect(machine.tryEvent(.tune))
        #expect(log.lines.isEmpty)

        // SCXML's `type="internal"` would keep `deck`: its history enters
        // a state inside it. Only the route into a child is internal.
        let document = machine.describe().scxml()
        #expect(
            transitions(of: "deck", in: document) == [
                "event=\"reset\" target=\"deck_history\"", "event=\"tune\" target=\"playing\" type=\"internal\"",
                "event=\"to.deck\" target=\"deck_history\"",
                "event=\"to.playing\" target=\"playing\" type=\"internal\"",
            ])
    }

    @Test func aParallelStatesHistoryDefaultIsWrittenWithTheRegionsItIsNotIn() {
        let log = Log()
        let machine = Machine<Deck, Knob>(state: .idle) { machine in
            machine.addRegions([.deck, .volume], to: .both)
            machine.addChildren([.playing, .paused], to: .deck)
            machine.addChildren([.quiet, .loud], to: .volume)
            machine.addHistory(.deep, to: .both, default: .paused)
            machine.addRoutes(event: .open, transitions: [.idle => .playing])
            machine.addRoutes(event: .back, transitions: [.playing => .both])
            machine.addExitHandler(.both) { _ in log("exit both") }
        }
        #expect(machine.tryEvent(.open))
        // From inside, before the history recorded anything: the machine
        // leaves `both` and enters it again through its history.
        #expect(machine.tryEvent(.back))
        #expect(log.lines == ["exit both"])
        #expect(machine.configuration == [.both, .deck, .playing, .volume, .quiet])

        // SCXML takes the domain of `back` from what the history enters:
        // with `paused` alone, `deck`, which `back` would not leave.
        let document = machine.describe().scxml()
        let both = element("both", in: document)
        let history = both.firstIndex(of: "    <history id=\"both_history\" type=\"deep\">")
        #expect(history.map { both[$0 + 1] } == "        <transition target=\"paused volume\"/>")
    }
}
