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
