/// Writes a ``DiagramGraph`` as a W3C SCXML 1.0 document.
///
/// States are `<state>`, `<parallel>` and `<final>` elements whose ids are
/// their descriptions made into unique XML names without dots (a comment
/// keeps a description that had to change), so that the document's own
/// events for a state (`to.ID`, `done.state.ID`) name no other; history is
/// a `<history>` with its default transition; routes are `<transition>`
/// elements in their source. A compound state with history is entered by
/// default through it, as Switchyard enters it: its `<initial>` targets its
/// `<history>`. Events are named by the same rule as states, outside the
/// names the document gives its own events (`to.…`, `done.…`), so that no
/// event takes another's transitions (see ``eventName(_:)``).
/// What SCXML cannot hold is a named placeholder: conditions are
/// `cond="condition1"`, actions and entry and exit handlers
/// `<log label="action1"/>`. A route out of a final state cannot be written
/// at all (`<final>` holds only `<onentry>`, `<onexit>` and `<donedata>`), so
/// it is a comment in its `<final>` that says so and holds the transition it
/// would be. Every attribute value is escaped and every comment made safe,
/// whatever a description contains.
struct SCXMLWriter {
    /// Names made of descriptions, each given out once: the one rule that
    /// makes state ids, and event names, unique.
    private struct UniqueNames {
        private var used: Set<String> = []

        /// `base` if it was not given out before, else the first of
        /// `base_2`, `base_3`… that was not.
        mutating func claim(_ base: String) -> String {
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            return candidate
        }
    }

    /// Where a transition's event is named and its placeholders numbered.
    private struct Placed {
        var transition: DiagramGraph.Transition
        var prefix: String
        /// The name of the event that takes it, if one does.
        var event: String?
        var condition: String?
        var action: String?
        /// Whether this is the state request an event route also takes
        /// (`event="to.ID"`): a request may take any route to the state it
        /// asks for, without its action.
        var isRequest = false
    }

    private var out = ""
    /// SCXML ids by diagram id (with its machine's prefix).
    private var ids: [String: String] = [:]
    /// The SCXML ids of histories, by the diagram id of their state.
    private var historyIDs: [String: String] = [:]
    /// The diagram id of each state's parent: the state it is a child of,
    /// or that its machine is nested in. Top-level states have none.
    private var parents: [String: String] = [:]
    /// For a state entered by default through its history (written with an
    /// `<initial>` to it), the diagram id of its initial child: what a route
    /// that ignores history enters.
    private var initialsBehindHistory: [String: String] = [:]
    /// Descriptions that had to change to become ids, by diagram id.
    private var originals: [String: String] = [:]
    private var stateIDs = UniqueNames()
    /// Event names by the event's description, given in route order.
    private var eventNames: [String: String] = [:]
    private var usedEventNames = UniqueNames()
    /// Transitions by the diagram id of their source (`.any` included).
    private var transitionsFrom: [String: [Placed]] = [:]
    private var conditions = 0
    private var actions = 0

    static func write(_ graph: DiagramGraph) -> String {
        var writer = SCXMLWriter()
        writer.assignIDs(of: graph, prefix: "", parent: nil)
        writer.place(graph, prefix: "")
        writer.out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        writer.out += "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\""
        if let initial = graph.initial, let id = writer.ids[DiagramGraph.id(of: initial, prefix: "")] {
            writer.out += " initial=\(attribute(id))"
        }
        writer.out += ">\n"
        writer.writeNotes(of: graph, indent: "    ")
        writer.writeStates(of: graph, prefix: "", indent: "    ", anyHost: nil)
        writer.out += "</scxml>\n"
        return writer.out
    }

    // MARK: - Escaping

    /// `text` as a quoted XML attribute value.
    static func attribute(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\r", "\t": result += "&#\(scalar.value);"
            default:
                if isAllowedInXML(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    /// `text` as an XML comment: no `--`, no `-` at the end, one line, and
    /// no character XML forbids.
    static func comment(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": body += "\\n"
            case "\r": break
            case "-" where body.hasSuffix("-"): body += " -"
            default:
                if isAllowedInXML(scalar) { body.unicodeScalars.append(scalar) }
            }
        }
        return "<!-- \(body) -->"
    }

    private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF || scalar == "\t"
    }

    /// `text` as an XML name without colons (an NCName) of ASCII letters,
    /// digits, `_`, `-` and `.`: everything else becomes `_`, and a name
    /// that would not start with a letter or `_` starts with `_`.
    static func name(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let isNameCharacter =
                scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-.".unicodeScalars.contains(scalar))
            result.unicodeScalars.append(isNameCharacter ? scalar : "_")
        }
        if let first = result.unicodeScalars.first, first == "_" || first.properties.isAlphabetic {
            return result
        }
        return "_" + result
    }

    /// The first words of the events a document names itself, or an SCXML
    /// interpreter raises: `to` (requests for a state), `done` and `error`.
    private static let reservedEventNames: Set<String> = ["to", "done", "error"]

    /// `text` as an SCXML event name: ``stateID(_:)``, and `_` before a name
    /// the document's own events start with (`to`, `done`, `error`).
    ///
    /// A transition's `event="a"` takes an event `a` and every `a.…` too:
    /// with no dots, no event of the machine takes another's transitions,
    /// and none takes a request (`to.c`) or a done event (`done.state.d`).
    static func eventName(_ text: String) -> String {
        let result = stateID(text)
        return reservedEventNames.contains(result) ? "_" + result : result
    }

    // MARK: - Ids and placeholders

    /// `text` as a state id: ``name(_:)`` with `_` for `.`.
    ///
    /// The document's own events name states (`to.ID`, `done.state.ID`),
    /// and SCXML's `event="to.a"` takes `to.a.b` too: with no dots, a
    /// request for one state, or a state being done, takes only its own
    /// transitions.
    static func stateID(_ text: String) -> String {
        String(name(text).map { $0 == "." ? "_" : $0 })
    }

    /// A unique id made of `text`.
    private mutating func uniqueID(_ text: String) -> String {
        stateIDs.claim(Self.stateID(text))
    }

    /// The unique name of the event described as `description`, the same
    /// for every route it takes.
    private mutating func eventName(of description: String) -> String {
        if let known = eventNames[description] {
            return known
        }
        let name = usedEventNames.claim(Self.eventName(description))
        eventNames[description] = name
        return name
    }

    /// Names every state, in the order the document lists them, and notes
    /// where each one sits.
    private mutating func assignIDs(of graph: DiagramGraph, prefix: String, parent: String?) {
        for node in graph.topLevel {
            assignID(node, of: graph, prefix: prefix, parent: parent)
        }
    }

    private mutating func assignID(_ index: Int, of graph: DiagramGraph, prefix: String, parent: String?) {
        let node = graph.nodes[index]
        let key = prefix + node.id
        let id = uniqueID(node.label)
        ids[key] = id
        parents[key] = parent
        if id != node.label {
            originals[key] = node.label
        }
        if node.history != nil {
            historyIDs[key] = uniqueID(id + "_history")
            // A `<parallel>` has no `<initial>`, and enters every region anyway.
            if node.kind != .parallel, let initial = Self.initialKey(of: node, in: graph, prefix: prefix) {
                initialsBehindHistory[key] = initial
            }
        }
        if let nested = node.nested {
            assignIDs(of: graph.nested[nested], prefix: prefix + "m\(nested)_", parent: key)
        }
        for child in node.children {
            assignID(child, of: graph, prefix: prefix, parent: key)
        }
    }

    /// The diagram id of the state `node` starts in: a compound state's
    /// initial child, or the initial state of the machine nested in it.
    private static func initialKey(of node: DiagramGraph.Node, in graph: DiagramGraph, prefix: String) -> String? {
        if node.kind == .compound, let initial = node.initialChild {
            return prefix + graph.nodes[initial].id
        }
        if let nested = node.nested, let initial = graph.nested[nested].initial {
            return DiagramGraph.id(of: initial, prefix: prefix + "m\(nested)_")
        }
        return nil
    }

    /// Whether the state `key` is a proper descendant of the state `ancestor`.
    private func isInside(_ key: String, _ ancestor: String) -> Bool {
        var next = parents[key]
        while let parent = next {
            if parent == ancestor { return true }
            next = parents[parent]
        }
        return false
    }

    /// Files every transition under its source, names its event and
    /// numbers its placeholders, machine by machine in route order: the
    /// event added first keeps the name its description makes.
    private mutating func place(_ graph: DiagramGraph, prefix: String) {
        for transition in graph.transitions {
            var placed = Placed(transition: transition, prefix: prefix)
            if case .event(let event) = transition.trigger {
                placed.event = eventName(of: event)
            }
            if transition.isConditional {
                conditions += 1
                placed.condition = "condition\(conditions)"
            }
            if case .timed = transition.trigger {
                conditions += 1
                placed.condition = "delay\(conditions)"
            }
            if transition.hasAction {
                actions += 1
                placed.action = "action\(actions)"
            }
            transitionsFrom[DiagramGraph.id(of: transition.source, prefix: prefix), default: []].append(placed)
        }
        for (offset, nested) in graph.nested.enumerated() {
            place(nested, prefix: prefix + "m\(offset)_")
        }
    }

    // MARK: - Writing

    /// Notes on what the document leaves out.
    private mutating func writeNotes(of graph: DiagramGraph, indent: String) {
        if graph.unlistedMappings > 0 {
            let count = graph.unlistedMappings
            out += "\(indent)<!-- \(count) route mapping\(count == 1 ? "" : "s") not shown: "
            out += "\(count == 1 ? "its targets are" : "their targets are") computed by a closure -->\n"
        }
        if graph.unplacedHandlers > 0 {
            let count = graph.unplacedHandlers
            out +=
                "\(indent)<!-- \(count) handler\(count == 1 ? "" : "s") of events, transitions or errors not shown -->\n"
        }
    }

    /// Writes a machine's top-level states. The routes from the machine's
    /// `.any` go on `anyHost`, the state it is nested in, or on every
    /// top-level state that is not final when it is the outermost machine.
    private mutating func writeStates(
        of graph: DiagramGraph, prefix: String, indent: String, anyHost: String?
    ) {
        let fromAny = transitionsFrom[prefix + DiagramGraph.anyID] ?? []
        for node in graph.topLevel {
            let copies = anyHost == nil && !graph.nodes[node].isFinal ? fromAny : []
            writeNode(node, of: graph, prefix: prefix, fromAny: copies, isOutermost: anyHost == nil, indent: indent)
        }
    }

    /// `transitions`, of one source, in the order the machine tries them
    /// (SPEC §2): the routes of an exact event (a named event, a done event,
    /// a state request) before those of any event, each in the order added;
    /// then the moves of route mappings, which the machine asks after every
    /// route.
    ///
    /// A state request for `X` may take any route of the source to `X`, an
    /// event's too, without its action; the machine asks its routes without
    /// an event to `X`, then to `.any`, then its event routes to `X`, then
    /// to `.any` (`RouteTable.Storage.firstRoute(on:to:…)`). So each event
    /// route is written a second time as a request (`event="to.X"`), and
    /// the requests that match every `to.…` (`to.*`, and listed targets,
    /// which the machine keeps as routes to `.any`) come after those of one
    /// state; all of them before the routes of any event, whose `*` would
    /// take a request too.
    private static func inChoiceOrder(_ transitions: [Placed]) -> (routes: [Placed], mapped: [Placed]) {
        var exact: [Placed] = []
        var requestsForAnyState: [Placed] = []
        var eventRequests: [Placed] = []
        var eventRequestsForAnyState: [Placed] = []
        var anyEvent: [Placed] = []
        var mapped: [Placed] = []
        for placed in transitions {
            let transition = placed.transition
            let leadsToOneState = !transition.targets.isEmpty && !transition.isListedTarget
            switch transition.trigger {
            case _ where transition.isMapped:
                mapped.append(placed)
            case .state where !leadsToOneState:
                requestsForAnyState.append(placed)
            case .event, .anyEvent:
                if leadsToOneState {
                    eventRequests.append(request(taking: placed))
                } else {
                    eventRequestsForAnyState.append(request(taking: placed))
                }
                if case .anyEvent = transition.trigger {
                    anyEvent.append(placed)
                } else {
                    exact.append(placed)
                }
            default:
                exact.append(placed)
            }
        }
        return (exact + requestsForAnyState + eventRequests + eventRequestsForAnyState + anyEvent, mapped)
    }

    /// The state request that may take the event route `placed`: to its
    /// first target, under its condition, without its action (a request's
    /// move runs none, enters no other target and enters through history).
    private static func request(taking placed: Placed) -> Placed {
        var request = placed
        request.isRequest = true
        request.action = nil
        return request
    }

    /// Writes one state; `isOutermost` when it is a top-level state of the
    /// outermost machine, which carries the copies of the routes from `.any`.
    private mutating func writeNode(
        _ index: Int, of graph: DiagramGraph, prefix: String, fromAny: [Placed], isOutermost: Bool, indent: String
    ) {
        let node = graph.nodes[index]
        let key = prefix + node.id
        let id = ids[key] ?? key
        if let original = originals[key] {
            out += "\(indent)\(Self.comment(original))\n"
        }
        let element = node.isFinal ? "final" : node.kind == .parallel ? "parallel" : "state"
        out += "\(indent)<\(element) id=\(Self.attribute(id))"
        // A state entered by default through its history says so in an
        // `<initial>` element instead.
        if initialsBehindHistory[key] == nil, let initial = Self.initialKey(of: node, in: graph, prefix: prefix),
            let initialID = ids[initial]
        {
            out += " initial=\(Self.attribute(initialID))"
        }
        let nestedAny = Self.inChoiceOrder(
            node.nested.map { transitionsFrom[prefix + "m\($0)_" + DiagramGraph.anyID] ?? [] } ?? [])
        let own = Self.inChoiceOrder(transitionsFrom[key] ?? [])
        let anyCopies = Self.inChoiceOrder(fromAny)
        let mapped = nestedAny.mapped + own.mapped + anyCopies.mapped
        let isEmpty =
            node.entryHandlers == 0 && node.exitHandlers == 0 && own.routes.isEmpty && mapped.isEmpty
            && fromAny.isEmpty && nestedAny.routes.isEmpty && node.history == nil && node.children.isEmpty
            && node.nested == nil
        guard !isEmpty else {
            out += "/>\n"
            return
        }
        out += ">\n"
        let inner = indent + "    "
        writeHandlers(node.entryHandlers, element: "onentry", label: "entry", indent: inner)
        writeHandlers(node.exitHandlers, element: "onexit", label: "exit", indent: inner)
        // A nested machine's routes from `.any` count as routes from its
        // root, the state it is nested in: tried before that state's own.
        if !nestedAny.routes.isEmpty {
            out += "\(inner)<!-- from any state of the nested machine -->\n"
        }
        writeRoutes(nestedAny.routes + own.routes, from: key, indent: inner, isOutOfFinal: node.isFinal)
        if !anyCopies.routes.isEmpty {
            out += "\(inner)<!-- from any state -->\n"
        }
        writeRoutes(anyCopies.routes, from: key, indent: inner, isOutOfFinal: false)
        // After every route of a flat machine's state; a nested state's are
        // tried here before its ancestors' routes, which SCXML cannot reorder.
        if !mapped.isEmpty, !isOutermost {
            out +=
                "\(inner)<!-- route mappings: the machine asks them after the routes of every state, "
                + "these before the routes of the states that contain this one -->\n"
        }
        for placed in mapped {
            writeTransition(placed, from: key, indent: inner, isOutOfFinal: node.isFinal)
        }
        if let history = node.history {
            if let historyID = historyIDs[key], initialsBehindHistory[key] != nil {
                writeInitial(historyID, indent: inner)
            }
            writeHistory(history, of: node, in: graph, prefix: prefix, indent: inner)
        }
        if let nested = node.nested {
            let nestedPrefix = prefix + "m\(nested)_"
            writeNotes(of: graph.nested[nested], indent: inner)
            writeStates(of: graph.nested[nested], prefix: nestedPrefix, indent: inner, anyHost: key)
        }
        for child in node.children {
            writeNode(child, of: graph, prefix: prefix, fromAny: [], isOutermost: false, indent: inner)
        }
        out += "\(indent)</\(element)>\n"
    }

    private mutating func writeHandlers(_ count: Int, element: String, label: String, indent: String) {
        guard count > 0 else { return }
        out += "\(indent)<\(element)>\n"
        for _ in 0..<count {
            actions += 1
            out += "\(indent)    <log label=\"\(label)\(actions)\"/>\n"
        }
        out += "\(indent)</\(element)>\n"
    }

    /// Writes an `<initial>` that enters its state through its history
    /// `historyID`: Switchyard enters a state that keeps history through it
    /// whenever it enters the state by default (at start, as its parent's
    /// initial child, as a region), where SCXML would enter the initial child.
    private mutating func writeInitial(_ historyID: String, indent: String) {
        out += "\(indent)<initial>\n"
        out += "\(indent)    <transition target=\(Self.attribute(historyID))/>\n"
        out += "\(indent)</initial>\n"
    }

    private mutating func writeHistory(
        _ history: HistoryKind, of node: DiagramGraph.Node, in graph: DiagramGraph, prefix: String, indent: String
    ) {
        let key = prefix + node.id
        let id = historyIDs[key] ?? key + "_history"
        out += "\(indent)<history id=\(Self.attribute(id)) type=\"\(history == .deep ? "deep" : "shallow")\">\n"
        // With no default declared, the history enters the initial child,
        // or every region of a parallel state. A parallel state's declared
        // default is written with the regions it is not in, which Switchyard
        // enters by default with it: SCXML takes a transition's domain from
        // what a history it targets enters, so a default in one region would
        // keep a route from inside that region to the state in the region,
        // where Switchyard leaves the state and enters it again.
        let defaults: [Int] =
            if let fallback = node.historyDefault, node.kind == .parallel {
                node.children.map { region in
                    let isInRegion =
                        fallback == region
                        || isInside(prefix + graph.nodes[fallback].id, prefix + graph.nodes[region].id)
                    return isInRegion ? fallback : region
                }
            } else if let fallback = node.historyDefault {
                [fallback]
            } else if node.kind == .parallel {
                node.children
            } else {
                node.initialChild.map { [$0] } ?? []
            }
        let targets = defaults.compactMap { ids[prefix + graph.nodes[$0].id] }
        out += "\(indent)    <transition target=\(Self.attribute(targets.joined(separator: " ")))/>\n"
        out += "\(indent)</history>\n"
    }

    /// Writes `routes` in the state `host`, with a comment before each run
    /// of the requests that event routes take too.
    private mutating func writeRoutes(_ routes: [Placed], from host: String, indent: String, isOutOfFinal: Bool) {
        var previousIsRequest = false
        for placed in routes {
            if placed.isRequest, !previousIsRequest, !isOutOfFinal {
                out += "\(indent)<!-- state requests, which may take event routes too -->\n"
            }
            previousIsRequest = placed.isRequest
            writeTransition(placed, from: host, indent: indent, isOutOfFinal: isOutOfFinal)
        }
    }

    /// The SCXML target that enters the state `key` as a route from the
    /// state `host` does.
    ///
    /// A state that keeps history is entered through its `<history>`. Not
    /// from inside it: there SCXML's transition domain would be the state,
    /// which the interpreter would not leave, where Switchyard leaves it,
    /// recording its history, and enters it again. Targeting the state
    /// itself leaves it as Switchyard does, and its `<initial>`, read after
    /// the history is recorded (W3C Appendix D `enterStates`), enters it
    /// through its history. Since that `<initial>` is its history, a route
    /// that ignores history targets its initial child, which from inside
    /// the state does not leave it (the document says so in a comment).
    private func targetID(of key: String, ignoringHistory: Bool, from host: String) -> String? {
        guard let history = historyIDs[key] else { return ids[key] }
        let initial = initialsBehindHistory[key]
        if ignoringHistory {
            return initial.flatMap { ids[$0] } ?? ids[key]
        }
        return initial != nil && isInside(host, key) ? ids[key] : history
    }

    /// Whether the local route `transition`, entering `entered`, stays in
    /// its source: only a state's, and only when every target lies inside
    /// it (``Transition/local(_:)``). SCXML's `type="internal"` stays in a
    /// compound source whenever what it enters lies inside it, and a target
    /// with history stands for what its history enters, which lies inside
    /// the source when the target is the source itself.
    private func staysInSource(
        _ transition: DiagramGraph.Transition, entering entered: [DiagramGraph.End], prefix: String
    ) -> Bool {
        guard transition.source.id != DiagramGraph.anyID, !entered.isEmpty else { return false }
        let source = DiagramGraph.id(of: transition.source, prefix: prefix)
        return entered.allSatisfy { isInside(DiagramGraph.id(of: $0, prefix: prefix), source) }
    }

    /// Writes a route as a `<transition>` in the state `host`, after
    /// comments for what it cannot say; a route out of a final state, which
    /// SCXML cannot hold, as one comment that holds them all.
    private mutating func writeTransition(
        _ placed: Placed, from host: String, indent: String, isOutOfFinal: Bool = false
    ) {
        let transition = placed.transition
        var attributes = ""
        var notes: [String] = []
        // In a state, a heading says it for a run of requests (see `writeRoutes`).
        if placed.isRequest, isOutOfFinal {
            switch transition.trigger {
            case .event(let event): notes.append("a request for its target may take the route of \(event)")
            default: notes.append("a request for its target may take the route of any event")
            }
        }
        switch placed.isRequest ? .state : transition.trigger {
        case .event(let event):
            let name = placed.event ?? Self.eventName(event)
            if name != event { notes.append("event: \(event)") }
            attributes += " event=\(Self.attribute(name))"
        case .anyEvent:
            attributes += " event=\"*\""
        case .state:
            // Asking for a state is written as an event that names it.
            let target = transition.targets.first.flatMap { ids[DiagramGraph.id(of: $0, prefix: placed.prefix)] }
            attributes += " event=\(Self.attribute("to.\(target ?? "*")"))"
            if target == nil {
                notes.append("a request for any state takes this route to that state, which SCXML cannot name")
            }
        case .eventless:
            break
        case .timed:
            notes.append("timed: taken after a delay in the state")
        case .done:
            let source = ids[DiagramGraph.id(of: transition.source, prefix: placed.prefix)]
            attributes += " event=\(Self.attribute("done.state.\(source ?? "")"))"
        }
        if let condition = placed.condition {
            attributes += " cond=\(Self.attribute(condition))"
        }
        // A request enters its one target, through its history, whatever
        // the route it takes ignores; a state route is taken by requests only.
        let entered = placed.isRequest ? Array(transition.targets.prefix(1)) : transition.targets
        let isStateRoute = if case .state = transition.trigger { true } else { false }
        let ignoresHistory = transition.ignoresHistory && !placed.isRequest && !isStateRoute
        let targets = entered.compactMap { target -> String? in
            let key = DiagramGraph.id(of: target, prefix: placed.prefix)
            if initialsBehindHistory[key] != nil, isInside(host, key) {
                let id = ids[key] ?? key
                notes.append(
                    ignoresHistory
                        ? "ignores the history of \(id): Switchyard leaves \(id) before it enters this child, "
                            + "SCXML does not"
                        : "leaves \(id), recording its history, and enters it again through it")
            }
            return targetID(of: key, ignoringHistory: ignoresHistory, from: host)
        }
        if !targets.isEmpty {
            attributes += " target=\(Self.attribute(targets.joined(separator: " ")))"
        }
        if transition.isLocal, staysInSource(transition, entering: entered, prefix: placed.prefix) {
            attributes += " type=\"internal\""
        }
        if transition.isMapped { notes.append("a move a route mapping allows") }
        if isOutOfFinal {
            let action = placed.action.map { "<log label=\(Self.attribute($0))/>" }
            let element = action.map { "<transition\(attributes)>\($0)</transition>" } ?? "<transition\(attributes)/>"
            let remarks = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
            out +=
                "\(indent)\(Self.comment("a route out of a final state, left out (SCXML's <final> holds no transition): \(element)\(remarks)"))\n"
            return
        }
        for note in notes {
            out += "\(indent)\(Self.comment(note))\n"
        }
        out += "\(indent)<transition\(attributes)"
        if let action = placed.action {
            out += ">\n\(indent)    <log label=\(Self.attribute(action))/>\n\(indent)</transition>\n"
        } else {
            out += "/>\n"
        }
    }
}
