// An SCXML interpreter for the round trip of the SCXML export. It must not
// import Switchyard or share code with it: it reads an exported document as
// any SCXML processor would, and runs it by the recommendation's rules, so
// that the machine the document came from is checked against what the
// document says.

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A statechart read from an SCXML document and run by the W3C algorithm
/// (SCXML 1.0, Recommendation of 2015-09-01, section 3.13 and Appendix D),
/// with no deviation: document order, conflicting transitions removed,
/// transition domains and exit sets, history pseudo-states with their
/// default transitions, `<initial>` elements, parallel states, `<final>`
/// states and their `done.state.ID` events on the internal queue, eventless
/// transitions, `type="internal"`, and event descriptors matched as SCXML
/// matches them (`*`, and token-wise prefixes: `to` matches `to.b`).
///
/// States, histories and events are plain strings, as in the document. The
/// functions keep the recommendation's names (`selectTransitions`,
/// `computeExitSet`, `addDescendantStatesToEnter`, …) so that each can be
/// read beside its pseudo-code; clarity comes before speed.
///
/// It reads the subset of SCXML that has no data model: `<scxml>`,
/// `<state>`, `<parallel>`, `<final>`, `<initial>`, `<history>`,
/// `<transition>` (`event`, `target`, `type`), and `<onentry>`, `<onexit>`
/// and `<transition>` content made of `<log>` elements, which it does not
/// run (it has nothing to log). Anything else is an error, `cond` included:
/// a condition needs a data model, and the round trip uses machines without
/// conditions.
///
/// ```swift
/// var chart = try SCXMLInterpreter(document: document)
/// chart.start()         // the initial configuration, then its macrostep
/// chart.send("to.b")    // one external event, and the macrostep it starts
/// chart.configuration   // ["a", "b"], in document order
/// ```
struct SCXMLInterpreter {
    /// Why a document cannot be read.
    struct ReadingError: Error, CustomStringConvertible {
        var description: String
    }

    /// One microstep: the states it exited, in exit order, and those it
    /// entered, in entry order.
    struct Microstep: Equatable, CustomStringConvertible {
        var exits: [String]
        var entries: [String]

        var description: String {
            "exits [\(exits.joined(separator: ", "))], entries [\(entries.joined(separator: ", "))]"
        }
    }

    /// What one external event (or the start) did: SCXML's macrostep.
    struct Macrostep: Equatable, CustomStringConvertible {
        /// Whether the event enabled a transition; the start always does.
        var isConsumed: Bool
        /// The event's microstep (the start's: the initial entry), then those
        /// of the eventless transitions and internal events that followed.
        var microsteps: [Microstep] = []
        /// The states `exitInterpreter` left, in exit order, if the macrostep
        /// entered a final child of `<scxml>`; `nil` otherwise.
        var finish: [String]?
        /// Whether the macrostep was cut after ``SCXMLInterpreter/microstepLimit``
        /// microsteps, where SCXML would go on for ever.
        var isCut = false

        var description: String {
            var parts = [isConsumed ? "consumed" : "not consumed"]
            parts += microsteps.map { "{\($0)}" }
            if let finish { parts.append("finish [\(finish.joined(separator: ", "))]") }
            if isCut { parts.append("cut") }
            return parts.joined(separator: " ")
        }
    }

    /// How many microsteps one macrostep may take before it is cut: the
    /// documents of the round trip settle long before.
    static let microstepLimit = 200

    // MARK: - The document

    private enum Kind: Equatable {
        /// The `<scxml>` element.
        case root
        case atomic, compound, parallel, final
        case history(isDeep: Bool)
    }

    private struct Node {
        var id: String
        var kind: Kind
        var parent: Int?
        /// `<state>`, `<parallel>` and `<final>` children, in document order.
        var children: [Int] = []
        /// `<history>` children, in document order.
        var histories: [Int] = []
        /// Own `<transition>` children, in document order.
        var transitions: [Int] = []
        /// The transition of the `<initial>` element or `initial` attribute,
        /// or the one made for the first child: a compound state's and the
        /// root's. A history's default transition.
        var initial: Int?
    }

    private struct Transition {
        var source: Int
        /// The event descriptors; none for an eventless transition.
        var events: [String]
        var targets: [Int]
        var isInternal: Bool
    }

    /// Every node, the root first, in document order: an index is a node's
    /// place in document order.
    private var nodes: [Node] = []
    /// Every transition, in document order.
    private var transitions: [Transition] = []
    private static let root = 0

    // MARK: - The interpreter's state

    /// The active states, by index.
    private var active: Set<Int> = []
    private var historyValue: [Int: [Int]] = [:]
    private var internalQueue: [String] = []
    private var hasStarted = false
    /// SCXML's `running`.
    private(set) var isRunning = false

    /// The active states, in document order. After the document finished,
    /// the configuration it finished in (SCXML empties it as it exits).
    var configuration: [String] {
        active.sorted().map { nodes[$0].id }
    }

    /// Whether the document reached a final child of `<scxml>`.
    var isFinished: Bool {
        hasStarted && !isRunning
    }

    // MARK: - Running

    /// Enters the initial configuration (SCXML's `interpret`), then runs
    /// the macrostep that follows, up to the first external event.
    @discardableResult
    mutating func start() -> Macrostep {
        precondition(!hasStarted, "start() comes once, before any event")
        hasStarted = true
        isRunning = true
        var macrostep = Macrostep(isConsumed: true)
        macrostep.microsteps.append(Microstep(exits: [], entries: enterStates([nodes[Self.root].initial!])))
        completeMacrostep(&macrostep)
        return macrostep
    }

    /// Takes the external event `event` (SCXML's `mainEventLoop` for one
    /// event from the external queue), then the macrostep that follows.
    @discardableResult
    mutating func send(_ event: String) -> Macrostep {
        precondition(hasStarted, "send(_:) comes after start()")
        guard isRunning else { return Macrostep(isConsumed: false) }
        let enabledTransitions = selectTransitions(event: event)
        guard !enabledTransitions.isEmpty else { return Macrostep(isConsumed: false) }
        var macrostep = Macrostep(isConsumed: true, microsteps: [microstep(enabledTransitions)])
        completeMacrostep(&macrostep)
        return macrostep
    }

    /// The inner loop of `mainEventLoop`: eventless transitions until none is
    /// enabled, then the next internal event, until both are exhausted; then
    /// `exitInterpreter` if a final child of `<scxml>` was entered.
    private mutating func completeMacrostep(_ macrostep: inout Macrostep) {
        while isRunning {
            var enabledTransitions = selectEventlessTransitions()
            if enabledTransitions.isEmpty {
                guard !internalQueue.isEmpty else { break }
                enabledTransitions = selectTransitions(event: internalQueue.removeFirst())
            }
            guard !enabledTransitions.isEmpty else { continue }
            guard macrostep.microsteps.count < Self.microstepLimit else {
                macrostep.isCut = true
                return
            }
            macrostep.microsteps.append(microstep(enabledTransitions))
        }
        if !isRunning {
            macrostep.finish = exitInterpreter()
        }
    }

    /// SCXML's `exitInterpreter`: every active state, in exit order. The
    /// configuration is kept for reading.
    private func exitInterpreter() -> [String] {
        exitOrder(Array(active)).map { nodes[$0].id }
    }

    /// SCXML's `microstep`: exits, the transitions' content (none to run
    /// here), entries.
    private mutating func microstep(_ enabledTransitions: [Int]) -> Microstep {
        let exits = exitStates(enabledTransitions)
        return Microstep(exits: exits, entries: enterStates(enabledTransitions))
    }

    // MARK: - Selecting transitions

    /// SCXML's `selectEventlessTransitions`.
    private func selectEventlessTransitions() -> [Int] {
        selectTransitions { $0.events.isEmpty }
    }

    /// SCXML's `selectTransitions` for an event named `event`.
    private func selectTransitions(event: String) -> [Int] {
        selectTransitions { !$0.events.isEmpty && Self.nameMatch($0.events, event) }
    }

    /// For each active atomic state in document order, the first transition
    /// in document order that `isEnabled`, on the state or its nearest
    /// ancestor that has one; then `removeConflictingTransitions`.
    private func selectTransitions(where isEnabled: (Transition) -> Bool) -> [Int] {
        var enabledTransitions: [Int] = []
        for state in active.sorted() where isAtomic(state) {
            search: for source in [state] + properAncestors(of: state, upTo: nil) {
                for transition in nodes[source].transitions where isEnabled(transitions[transition]) {
                    if !enabledTransitions.contains(transition) { enabledTransitions.append(transition) }
                    break search
                }
            }
        }
        return removeConflictingTransitions(enabledTransitions)
    }

    /// Whether one of `descriptors` matches the event `name` (section
    /// 3.12.1): `*` matches every event; otherwise a descriptor, without a
    /// trailing `.*` or `.`, matches a name whose tokens start with its own.
    static func nameMatch(_ descriptors: [String], _ name: String) -> Bool {
        let nameTokens = name.split(separator: ".", omittingEmptySubsequences: false)
        return descriptors.contains { descriptor in
            if descriptor == "*" { return true }
            var trimmed = Substring(descriptor)
            if trimmed.hasSuffix(".*") {
                trimmed = trimmed.dropLast(2)
            } else if trimmed.hasSuffix(".") {
                trimmed = trimmed.dropLast()
            }
            let tokens = trimmed.split(separator: ".", omittingEmptySubsequences: false)
            return tokens.count <= nameTokens.count && zip(tokens, nameTokens).allSatisfy { $0 == $1 }
        }
    }

    /// SCXML's `removeConflictingTransitions`: of two transitions whose exit
    /// sets intersect, the one whose source is a descendant of the other's
    /// wins, else the one selected first.
    private func removeConflictingTransitions(_ enabledTransitions: [Int]) -> [Int] {
        var filteredTransitions: [Int] = []
        for t1 in enabledTransitions {
            var t1Preempted = false
            var transitionsToRemove: [Int] = []
            for t2 in filteredTransitions where !computeExitSet([t1]).isDisjoint(with: computeExitSet([t2])) {
                if isDescendant(transitions[t1].source, of: transitions[t2].source) {
                    transitionsToRemove.append(t2)
                } else {
                    t1Preempted = true
                    break
                }
            }
            if !t1Preempted {
                filteredTransitions.removeAll { transitionsToRemove.contains($0) }
                filteredTransitions.append(t1)
            }
        }
        return filteredTransitions
    }

    // MARK: - Exiting

    /// SCXML's `exitStates`: records the history of every state it exits,
    /// then exits them in exit order; returns their ids in that order.
    private mutating func exitStates(_ enabledTransitions: [Int]) -> [String] {
        let statesToExit = exitOrder(Array(computeExitSet(enabledTransitions)))
        for state in statesToExit {
            for history in nodes[state].histories {
                let isDeep = nodes[history].kind == .history(isDeep: true)
                historyValue[history] = active.sorted().filter { candidate in
                    isDeep
                        ? isAtomic(candidate) && isDescendant(candidate, of: state) : nodes[candidate].parent == state
                }
            }
        }
        for state in statesToExit {
            active.remove(state)
        }
        return statesToExit.map { nodes[$0].id }
    }

    /// SCXML's `computeExitSet`: the active descendants of each targeted
    /// transition's domain.
    private func computeExitSet(_ enabledTransitions: [Int]) -> Set<Int> {
        var statesToExit: Set<Int> = []
        for transition in enabledTransitions where !transitions[transition].targets.isEmpty {
            guard let domain = transitionDomain(of: transition) else { continue }
            statesToExit.formUnion(active.filter { isDescendant($0, of: domain) })
        }
        return statesToExit
    }

    /// SCXML's `getTransitionDomain`: `nil` for a targetless transition; the
    /// source for an internal transition from a compound state whose
    /// effective targets all lie inside it; else the LCCA of the source and
    /// the effective targets. The root's initial transition's is the root.
    private func transitionDomain(of index: Int) -> Int? {
        let transition = transitions[index]
        let targetStates = effectiveTargetStates(of: index)
        if targetStates.isEmpty { return nil }
        if transition.source == Self.root { return Self.root }
        if transition.isInternal && nodes[transition.source].kind == .compound
            && targetStates.allSatisfy({ isDescendant($0, of: transition.source) })
        {
            return transition.source
        }
        return findLCCA([transition.source] + targetStates)
    }

    /// SCXML's `getEffectiveTargetStates`: the targets, a history standing
    /// for its recorded states or, before it recorded any, for the targets
    /// of its default transition.
    private func effectiveTargetStates(of transition: Int) -> [Int] {
        var targets: [Int] = []
        for state in transitions[transition].targets {
            let states: [Int] =
                if case .history = nodes[state].kind {
                    historyValue[state] ?? effectiveTargetStates(of: nodes[state].initial!)
                } else {
                    [state]
                }
            for state in states where !targets.contains(state) { targets.append(state) }
        }
        return targets
    }

    /// SCXML's `findLCCA`: the nearest proper ancestor of the first state
    /// that is compound (or the root) and has every other state as a
    /// descendant.
    private func findLCCA(_ states: [Int]) -> Int {
        let ancestors = properAncestors(of: states[0], upTo: nil).filter {
            nodes[$0].kind == .compound || nodes[$0].kind == .root
        }
        return ancestors.first { ancestor in states.dropFirst().allSatisfy { isDescendant($0, of: ancestor) } }!
    }

    // MARK: - Entering

    /// SCXML's `enterStates`: enters the entry set in entry order, queuing
    /// `done.state.ID` for the parent of each final state entered (and for
    /// its grandparent, a parallel state whose regions are then all in
    /// final states), or stopping the interpreter for a final child of
    /// `<scxml>`. Returns the ids entered, in that order.
    private mutating func enterStates(_ enabledTransitions: [Int]) -> [String] {
        let statesToEnter = entryOrder(computeEntrySet(enabledTransitions))
        for state in statesToEnter {
            active.insert(state)
            guard nodes[state].kind == .final else { continue }
            let parent = nodes[state].parent!
            if parent == Self.root {
                isRunning = false
                continue
            }
            internalQueue.append("done.state.\(nodes[parent].id)")
            let grandparent = nodes[parent].parent!
            if nodes[grandparent].kind == .parallel && nodes[grandparent].children.allSatisfy(isInFinalState) {
                internalQueue.append("done.state.\(nodes[grandparent].id)")
            }
        }
        return statesToEnter.map { nodes[$0].id }
    }

    /// SCXML's `computeEntrySet`.
    private func computeEntrySet(_ enabledTransitions: [Int]) -> [Int] {
        var statesToEnter: [Int] = []
        for transition in enabledTransitions {
            for state in transitions[transition].targets {
                addDescendantStatesToEnter(state, to: &statesToEnter)
            }
            let ancestor = transitionDomain(of: transition)
            for state in effectiveTargetStates(of: transition) {
                addAncestorStatesToEnter(state, below: ancestor, to: &statesToEnter)
            }
        }
        return statesToEnter
    }

    /// SCXML's `addDescendantStatesToEnter`.
    private func addDescendantStatesToEnter(_ state: Int, to statesToEnter: inout [Int]) {
        if case .history = nodes[state].kind {
            let parent = nodes[state].parent!
            let states = historyValue[state] ?? transitions[nodes[state].initial!].targets
            for state in states {
                addDescendantStatesToEnter(state, to: &statesToEnter)
            }
            for state in states {
                addAncestorStatesToEnter(state, below: parent, to: &statesToEnter)
            }
            return
        }
        if !statesToEnter.contains(state) { statesToEnter.append(state) }
        switch nodes[state].kind {
        case .compound:
            let targets = transitions[nodes[state].initial!].targets
            for target in targets {
                addDescendantStatesToEnter(target, to: &statesToEnter)
            }
            for target in targets {
                addAncestorStatesToEnter(target, below: state, to: &statesToEnter)
            }
        case .parallel:
            addRegionsNotBeingEntered(of: state, to: &statesToEnter)
        default:
            break
        }
    }

    /// SCXML's `addAncestorStatesToEnter`: the proper ancestors of `state`
    /// below `ancestor`, and the regions of each parallel one that nothing
    /// is entering yet.
    private func addAncestorStatesToEnter(_ state: Int, below ancestor: Int?, to statesToEnter: inout [Int]) {
        for ancestorToEnter in properAncestors(of: state, upTo: ancestor) {
            if !statesToEnter.contains(ancestorToEnter) { statesToEnter.append(ancestorToEnter) }
            if nodes[ancestorToEnter].kind == .parallel {
                addRegionsNotBeingEntered(of: ancestorToEnter, to: &statesToEnter)
            }
        }
    }

    private func addRegionsNotBeingEntered(of parallel: Int, to statesToEnter: inout [Int]) {
        for child in nodes[parallel].children where !statesToEnter.contains(where: { isDescendant($0, of: child) }) {
            addDescendantStatesToEnter(child, to: &statesToEnter)
        }
    }

    /// SCXML's `isInFinalState`, on the configuration as it is so far.
    private func isInFinalState(_ state: Int) -> Bool {
        switch nodes[state].kind {
        case .compound: nodes[state].children.contains { nodes[$0].kind == .final && active.contains($0) }
        case .parallel: nodes[state].children.allSatisfy(isInFinalState)
        default: false
        }
    }

    // MARK: - The tree

    /// `<state>` without child states, or `<final>`.
    private func isAtomic(_ state: Int) -> Bool {
        nodes[state].kind == .atomic || nodes[state].kind == .final
    }

    /// Whether `state` is a proper descendant of `ancestor`.
    private func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var next = nodes[state].parent
        while let parent = next {
            if parent == ancestor { return true }
            next = nodes[parent].parent
        }
        return false
    }

    /// SCXML's `getProperAncestors`: the parent of `state`, its parent, and
    /// so on, stopping before `ancestor`, or after the root for `nil`.
    private func properAncestors(of state: Int, upTo ancestor: Int?) -> [Int] {
        var ancestors: [Int] = []
        var next = nodes[state].parent
        while let parent = next, parent != ancestor {
            ancestors.append(parent)
            next = nodes[parent].parent
        }
        return ancestors
    }

    /// Ancestors before descendants, earlier siblings before later ones.
    private func entryOrder(_ states: [Int]) -> [Int] {
        Array(Set(states)).sorted()
    }

    /// Descendants before ancestors, later siblings before earlier ones.
    private func exitOrder(_ states: [Int]) -> [Int] {
        Array(Set(states)).sorted(by: >)
    }
}

// MARK: - Reading a document

extension SCXMLInterpreter {
    /// Reads `document`.
    ///
    /// - Throws: ``ReadingError`` for a document that is not well-formed
    ///   XML, holds what this interpreter does not read (see the type's
    ///   notes), or names a target that no state or history has.
    init(document: String) throws {
        let root = try Self.elementTree(of: document)
        guard root.name == "scxml" else { throw ReadingError(description: "the root element is <\(root.name)>") }
        try Self.expect(root, attributes: ["xmlns", "version", "initial"])
        var reader = DocumentReader()
        try reader.read(root)
        nodes = reader.nodes
        transitions = reader.transitions
    }

    /// An element of the document, as the parser reported it.
    fileprivate struct Element {
        var name: String
        var attributes: [String: String]
        var children: [Element] = []
    }

    fileprivate static func expect(_ element: Element, attributes allowed: Set<String>) throws {
        for name in element.attributes.keys where !allowed.contains(name) {
            throw ReadingError(description: "<\(element.name)> has an attribute \(name) this interpreter does not read")
        }
    }

    /// The document's elements, comments and text left out.
    private static func elementTree(of document: String) throws -> Element {
        let parser = XMLParser(data: Data(document.utf8))
        let builder = ElementTreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.stack.first?.children.first else {
            let reason = parser.parserError.map { "\($0)" } ?? "no root element"
            throw ReadingError(description: "the document is not well-formed XML: \(reason)")
        }
        return root
    }

    /// Builds the element tree as the parser reports it.
    private final class ElementTreeBuilder: NSObject, XMLParserDelegate {
        /// The elements open so far, a document element at the bottom.
        var stack = [Element(name: "", attributes: [:])]

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            stack.append(Element(name: elementName, attributes: attributeDict))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            let element = stack.removeLast()
            stack[stack.count - 1].children.append(element)
        }
    }

    /// Turns the element tree into nodes and transitions, each in document
    /// order, and resolves the targets once every id is known.
    private struct DocumentReader {
        var nodes: [Node] = []
        var transitions: [Transition] = []
        /// The ids each transition names, by transition, resolved at the end.
        private var targetIDs: [[String]] = []

        mutating func read(_ root: Element) throws {
            nodes.append(Node(id: "", kind: .root))
            try readChildren(of: root, into: SCXMLInterpreter.root)
            try resolveTargets()
        }

        /// Reads the children of the element of node `index`.
        private mutating func readChildren(of element: Element, into index: Int) throws {
            var initialIDs: [String]? = element.attributes["initial"].map(Self.ids)
            var ownTransitions: [Element] = []
            for child in element.children {
                switch child.name {
                case "state", "parallel", "final":
                    try readState(child, parent: index)
                case "history" where nodes[index].kind != .root:
                    try readHistory(child, parent: index)
                case "transition" where nodes[index].kind != .root && nodes[index].kind != .final:
                    ownTransitions.append(child)
                case "initial" where element.name == "state":
                    guard initialIDs == nil, child.children.count == 1, child.children[0].name == "transition",
                        child.children[0].attributes.keys.sorted() == ["target"]
                    else {
                        throw ReadingError(description: "<initial> of \(nodes[index].id) is not one target")
                    }
                    initialIDs = Self.ids(child.children[0].attributes["target"]!)
                case "onentry" where nodes[index].kind != .root, "onexit" where nodes[index].kind != .root:
                    try SCXMLInterpreter.expect(child, attributes: [])
                    try Self.expectLogs(in: child)
                default:
                    throw ReadingError(description: "<\(child.name)> in <\(element.name)> is not read here")
                }
            }
            // Transitions after the children are read, so that their indices
            // stay in document order among the node's own.
            for transition in ownTransitions {
                try readTransition(transition, source: index)
            }
            let states = nodes[index].children
            switch element.name {
            case "state" where !states.isEmpty, "scxml":
                nodes[index].initial = addTransition(
                    source: index, targetIDs: initialIDs ?? states.prefix(1).map { nodes[$0].id })
            case "state":
                guard initialIDs == nil else {
                    throw ReadingError(description: "atomic state \(nodes[index].id) has an initial")
                }
            default:
                break
            }
        }

        private mutating func readState(_ element: Element, parent: Int) throws {
            let isFinal = element.name == "final"
            try SCXMLInterpreter.expect(
                element, attributes: isFinal || element.name == "parallel" ? ["id"] : ["id", "initial"])
            guard let id = element.attributes["id"] else {
                throw ReadingError(description: "a <\(element.name)> without an id")
            }
            let hasStates = element.children.contains { ["state", "parallel", "final"].contains($0.name) }
            let kind: Kind =
                switch element.name {
                case "final": .final
                case "parallel": .parallel
                default: hasStates ? .compound : .atomic
                }
            let index = nodes.count
            nodes.append(Node(id: id, kind: kind, parent: parent))
            nodes[parent].children.append(index)
            try readChildren(of: element, into: index)
        }

        private mutating func readHistory(_ element: Element, parent: Int) throws {
            try SCXMLInterpreter.expect(element, attributes: ["id", "type"])
            guard let id = element.attributes["id"] else {
                throw ReadingError(description: "a <history> without an id")
            }
            let type = element.attributes["type"] ?? "shallow"
            guard type == "shallow" || type == "deep" else {
                throw ReadingError(description: "history \(id) has type \(type)")
            }
            let index = nodes.count
            nodes.append(Node(id: id, kind: .history(isDeep: type == "deep"), parent: parent))
            nodes[parent].histories.append(index)
            guard element.children.count == 1, element.children[0].name == "transition",
                element.children[0].attributes.keys.sorted() == ["target"], element.children[0].children.isEmpty
            else {
                throw ReadingError(description: "history \(id) has no default transition with one target")
            }
            nodes[index].initial = addTransition(
                source: index, targetIDs: Self.ids(element.children[0].attributes["target"]!))
        }

        private mutating func readTransition(_ element: Element, source: Int) throws {
            if element.attributes["cond"] != nil {
                throw ReadingError(
                    description: "a transition of \(nodes[source].id) has a condition, which needs a data model")
            }
            try SCXMLInterpreter.expect(element, attributes: ["event", "target", "type"])
            try Self.expectLogs(in: element)
            let type = element.attributes["type"] ?? "external"
            guard type == "external" || type == "internal" else {
                throw ReadingError(description: "a transition of \(nodes[source].id) has type \(type)")
            }
            let index = addTransition(
                source: source, targetIDs: element.attributes["target"].map(Self.ids) ?? [],
                events: element.attributes["event"].map(Self.ids) ?? [], isInternal: type == "internal")
            if element.attributes["event"]?.isEmpty == true {
                throw ReadingError(description: "a transition of \(nodes[source].id) has an empty event")
            }
            nodes[source].transitions.append(index)
        }

        private mutating func addTransition(
            source: Int, targetIDs: [String], events: [String] = [], isInternal: Bool = false
        ) -> Int {
            transitions.append(Transition(source: source, events: events, targets: [], isInternal: isInternal))
            self.targetIDs.append(targetIDs)
            return transitions.count - 1
        }

        private mutating func resolveTargets() throws {
            var indices: [String: Int] = [:]
            for (index, node) in nodes.enumerated().dropFirst() {
                guard indices.updateValue(index, forKey: node.id) == nil else {
                    throw ReadingError(description: "two states or histories have the id \(node.id)")
                }
            }
            for (transition, ids) in targetIDs.enumerated() {
                transitions[transition].targets = try ids.map { id in
                    guard let index = indices[id] else { throw ReadingError(description: "no state has the id \(id)") }
                    return index
                }
            }
        }

        /// `<log>` elements only: placeholders this interpreter has nothing to do with.
        private static func expectLogs(in element: Element) throws {
            for child in element.children {
                guard child.name == "log", child.children.isEmpty else {
                    throw ReadingError(description: "<\(child.name)> in <\(element.name)> is not read here")
                }
                try SCXMLInterpreter.expect(child, attributes: ["label"])
            }
        }

        /// A space-separated list.
        private static func ids(_ list: String) -> [String] {
            list.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        }
    }
}
