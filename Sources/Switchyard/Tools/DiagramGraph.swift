/// What a diagram draws of one machine, its states' and events' names
/// written out: made from a ``MachineDescription`` and read by the writer of
/// each format, so that the formats agree on what they show.
///
/// Node ids are made of state codes (`s3`), unique within one machine; the
/// writers prefix those of a nested machine with its place (`m1_s3`).
struct DiagramGraph {
    enum Kind {
        case atomic, compound, parallel
    }

    struct Node {
        var id: String
        /// The state's description, whole: SCXML keeps it, and the writers
        /// of drawings shorten it (``DiagramGraph/shortened(_:)``) before
        /// adding their marks.
        var label: String
        var kind: Kind
        var isFinal = false
        var history: HistoryKind?
        /// What the history enters before it has recorded any, when declared.
        var historyDefault: Int?
        var children: [Int] = []
        var initialChild: Int?
        /// The machine nested in the state, by its index in ``DiagramGraph/nested``.
        var nested: Int?
        /// How many entry and exit handlers the state has.
        var entryHandlers = 0
        var exitHandlers = 0
    }

    /// One end of an edge: a node of this machine or, by the path of
    /// nested indices, of a machine nested in it. ``DiagramGraph/anyID``
    /// names `.any`.
    struct End {
        var path: [Int] = []
        var id: String
    }

    enum Style {
        /// A route.
        case route
        /// A target a route enters beside its first.
        case alsoEntering
        /// A move a route mapping allows.
        case mapped
        /// From a history to the default it enters before it has recorded any.
        case historyDefault
    }

    struct Edge {
        var from: End
        var to: End
        /// What the edge says, with the event's description already
        /// shortened, so that the notes after it are never cut.
        var label: String
        var style: Style
    }

    /// One route, or one listed move of a route mapping, as what it means
    /// rather than as lines to draw: what SCXML writes.
    struct Transition {
        enum Trigger {
            case event(String)
            case anyEvent
            /// Asking for the target.
            case state
            case eventless
            case timed
            case done
        }

        var trigger: Trigger
        /// The source; ``DiagramGraph/anyID`` for `.any`.
        var source: End
        /// The targets, all entered together; empty for a route that stays
        /// or, with ``Trigger/state``, one to whatever state is asked for.
        var targets: [End]
        var isConditional = false
        var hasAction = false
        var isLocal = false
        var ignoresHistory = false
        var isMapped = false
        /// Whether the target is one of a route's listed targets (`… => [.b, .c]`):
        /// such a route leads to `.any`, so a state request asks it after the
        /// routes to the state it asks for.
        var isListedTarget = false
    }

    static let anyID = "any"

    /// The id of `end` in a diagram where this machine's ids start with `prefix`.
    static func id(of end: End, prefix: String) -> String {
        // The common case, a machine's own node, makes no new string.
        guard !prefix.isEmpty || !end.path.isEmpty else { return end.id }
        return prefix + end.path.map { "m\($0)_" }.joined() + end.id
    }

    var nodes: [Node] = []
    var topLevel: [Int] = []
    /// The state the machine starts in: its own, or a nested machine's
    /// that it names through an enum case.
    var initial: End?
    /// Whether some edge starts or ends at `.any`.
    var usesAny = false
    /// How many route mappings could not be listed (their types are not `CaseIterable`).
    var unlistedMappings = 0
    var edges: [Edge] = []
    var transitions: [Transition] = []
    /// How many handlers no state or route carries: of events, of
    /// transitions, of errors.
    var unplacedHandlers = 0
    var nested: [DiagramGraph] = []

    init<S, E>(_ description: MachineDescription<S, E>) {
        var index: [S: Int] = [:]
        index.reserveCapacity(description.states.count)
        for (position, state) in description.states.enumerated() {
            let code = description.stateCodes[position]
            index[state.state] = position
            nodes.append(
                Node(
                    id: "s\(code == .unknown ? 0 : code)", label: String(describing: state.state),
                    kind: state.kind == .atomic ? .atomic : state.kind == .compound ? .compound : .parallel,
                    isFinal: state.isFinal, history: state.history))
        }
        var aliases: [S: End] = [:]
        for (offset, machine) in description.nestedMachines.enumerated() {
            nested.append(machine.machine.graph)
            for (state, alias) in zip(machine.statesNamedHere, machine.aliases) {
                aliases[state] = End(path: [offset], id: "s\(alias.nestedCode)")
            }
        }
        /// The node of `state`, added if no route or declaration names it
        /// (a route mapping's target).
        func node(of state: S) -> Int {
            if let found = index[state] {
                return found
            }
            index[state] = nodes.count
            nodes.append(Node(id: "x\(nodes.count)", label: String(describing: state), kind: .atomic))
            topLevel.append(nodes.count - 1)
            return nodes.count - 1
        }
        func end(_ state: S?) -> End {
            guard let state else {
                usesAny = true
                return End(id: Self.anyID)
            }
            return aliases[state] ?? End(id: nodes[node(of: state)].id)
        }
        for (position, state) in description.states.enumerated() {
            nodes[position].children = state.children.map(node(of:))
            nodes[position].initialChild = state.initial.map(node(of:))
            nodes[position].historyDefault = state.historyDefault.map(node(of:))
            if state.parent == nil {
                topLevel.append(position)
            }
        }
        initial = end(description.initialState)
        for (offset, machine) in description.nestedMachines.enumerated() {
            if let host = machine.host {
                nodes[node(of: host)].nested = offset
            } else {
                nodes.append(
                    Node(
                        id: "n\(offset)", label: Self.caseName(of: machine.statesNamedHere), kind: .atomic,
                        nested: offset))
                topLevel.append(nodes.count - 1)
            }
        }
        for route in description.routes {
            let label = Self.label(of: route)
            let sources = route.listedSources.map { $0.map(Optional.some) } ?? [route.source]
            for source in sources {
                let from = end(source)
                // An event route to `.any` keeps the machine where it is.
                let stays = route.target == nil && route.trigger != .state && route.listedTargets == nil
                let targets = route.listedTargets.map { $0.map(Optional.some) } ?? [route.target]
                for target in targets {
                    edges.append(Edge(from: from, to: stays ? from : end(target), label: label, style: .route))
                }
                for target in route.alsoEntering {
                    edges.append(Edge(from: from, to: end(target), label: label, style: .alsoEntering))
                }
                // Listed targets are alternatives; the also-entered ones go together.
                for target in targets {
                    let entered = stays || target == nil ? [] : [end(target)] + route.alsoEntering.map(end)
                    transitions.append(
                        Transition(
                            trigger: Self.trigger(of: route), source: from, targets: entered,
                            isConditional: route.isConditional && !route.isTimed, hasAction: route.hasAction,
                            isLocal: route.isLocal, ignoresHistory: route.ignoresHistory,
                            isListedTarget: route.listedTargets != nil))
                }
            }
        }
        for handler in description.handlers {
            switch handler.kind {
            case .entry(let state): if let found = index[state] { nodes[found].entryHandlers += 1 }
            case .exit(let state): if let found = index[state] { nodes[found].exitHandlers += 1 }
            case .action: break
            case .event, .transition, .anyTransition, .error: unplacedHandlers += 1
            }
        }
        for mapping in description.routeMappings {
            guard let moves = mapping.moves else {
                unlistedMappings += 1
                continue
            }
            for move in moves {
                transitions.append(
                    Transition(
                        trigger: move.event.map { .event(String(describing: $0)) } ?? .state, source: end(move.source),
                        targets: [end(move.target)], isMapped: true))
                edges.append(
                    Edge(
                        from: end(move.source), to: end(move.target),
                        label: "\(move.event.map { Self.shortened(String(describing: $0)) } ?? "state") (mapped)",
                        style: .mapped))
            }
        }
    }

    static func trigger<S, E>(of route: MachineDescription<S, E>.Route) -> Transition.Trigger {
        switch route.trigger {
        case .event(let event): .event(String(describing: event))
        case .anyEvent: .anyEvent
        case .state: .state
        case .eventless: route.isTimed ? .timed : .eventless
        case .done: .done
        }
    }

    /// The name of the enum case a machine was nested as, read from a
    /// state that names one of its states (`editor(viewing)` gives
    /// `editor`); `nested machine` when no state names one.
    static func caseName<S>(of statesNamedHere: [S]) -> String {
        guard let state = statesNamedHere.first else { return "nested machine" }
        let description = String(describing: state)
        let name = description.prefix { $0 != "(" }
        return name.isEmpty ? "nested machine" : String(name)
    }

    /// What a route's edge says: its trigger, then what else it does.
    static func label<S, E>(of route: MachineDescription<S, E>.Route) -> String {
        var label: String
        switch route.trigger {
        case .event(let event): label = shortened(String(describing: event))
        case .anyEvent: label = "any event"
        case .state: label = ""
        case .eventless: label = route.isTimed ? "after delay" : "always"
        case .done: label = "done"
        }
        func add(_ note: String) {
            label += label.isEmpty ? note : " " + note
        }
        if route.isConditional && !route.isTimed { add("[condition]") }
        if route.hasAction { add("/ action") }
        if route.isLocal { add("(local)") }
        if route.ignoresHistory { add("(no history)") }
        return label
    }
}
