/// Writes a ``DiagramGraph`` as Graphviz DOT.
///
/// Compound states are clusters: an invisible point in each stands for the
/// state as an edge's end, clipped at the cluster's border through `lhead`
/// and `ltail`, and a visible point, with an edge to it, marks the initial
/// child (of a nested machine, its initial state); a parallel state's
/// regions are dashed clusters, or dashed boxes for atomic ones; history is an `H` or `H*` circle in its state,
/// with a dashed edge to its default when one is declared;
/// final states have a double border; `.any` is one dashed node; route
/// mappings' moves are dotted edges. An edge's label has a space at each
/// end, so that the labels of two opposite edges do not run together.
/// Every label is a quoted string with
/// its quotes, backslashes, line breaks and ampersands escaped, its control
/// characters spelled out and, past ``DiagramGraph/labelLimit``, shortened,
/// so a state's description cannot break the file and shows as written.
struct DOTWriter {
    private var out = ""
    /// By node id: the clusters it is inside, innermost last.
    private var clustersAround: [String: [String]] = [:]
    /// The ids of the nodes drawn as clusters.
    private var clusters: Set<String> = []

    static func write(_ graph: DiagramGraph) -> String {
        var writer = DOTWriter()
        writer.out += "digraph machine {\n"
        writer.out += "    compound=true;\n"
        writer.out += "    node [shape=box, style=rounded];\n"
        writer.out += "    start [shape=point, width=0.15];\n"
        writer.writeNodes(of: graph, prefix: "", around: [], indent: "    ")
        if let initial = graph.initial {
            writer.writeEdge(
                from: "start", to: DiagramGraph.id(of: initial, prefix: ""), indent: "    ")
        }
        writer.writeEdges(of: graph, prefix: "")
        writer.out += "}\n"
        return writer.out
    }

    /// `text` as a DOT quoted string.
    static func quoted(_ text: String) -> String {
        var result = ""
        appendQuoted(text, to: &result)
        return result
    }

    /// Appends `text` to `result` as a DOT quoted string that Graphviz shows
    /// as written: what ``DiagramGraph/forEachShown(in:_:)`` shows of it,
    /// with quotes and backslashes escaped, line breaks written `\n`, and
    /// `&` written `&amp;`, since Graphviz reads HTML entities in labels.
    static func appendQuoted(_ text: String, to result: inout String) {
        result += "\""
        DiagramGraph.forEachShown(in: text) { shown in
            switch shown {
            case .lineBreak: result += "\\n"
            case .scalar("\""): result += "\\\""
            case .scalar("\\"): result += "\\\\"
            case .scalar("&"): result += "&amp;"
            case .scalar(let scalar): result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
    }

    private mutating func writeNodes(of graph: DiagramGraph, prefix: String, around: [String], indent: String) {
        if graph.usesAny {
            let id = prefix + DiagramGraph.anyID
            if !around.isEmpty {
                clustersAround[id] = around
            }
            out += "\(indent)\(id) [label=\"any state\", style=\"dashed,rounded\"];\n"
        }
        if graph.unlistedMappings > 0 {
            let count = graph.unlistedMappings
            let label = "\(count) route mapping\(count == 1 ? "" : "s"): targets computed by a closure"
            out += "\(indent)\(prefix)mappings [shape=note, label=\(Self.quoted(label))];\n"
        }
        for node in graph.topLevel {
            writeNode(node, of: graph, prefix: prefix, around: around, inRegion: false, indent: indent)
        }
    }

    private mutating func writeNode(
        _ index: Int, of graph: DiagramGraph, prefix: String, around: [String], inRegion: Bool, indent: String
    ) {
        let node = graph.nodes[index]
        let id = prefix + node.id
        // A node outside every cluster is left out: no entry reads as none.
        if !around.isEmpty {
            clustersAround[id] = around
        }
        guard node.kind != .atomic || node.nested != nil else {
            out += "\(indent)\(id) [label="
            Self.appendQuoted(DiagramGraph.shortened(node.label), to: &out)
            if node.isFinal { out += ", peripheries=2" }
            if inRegion { out += ", style=\"dashed,rounded\"" }
            out += "];\n"
            return
        }
        clusters.insert(id)
        let inner = indent + "    "
        out += "\(indent)subgraph cluster_\(id) {\n"
        let shown = DiagramGraph.shortened(node.label)
        let label = node.kind == .parallel ? shown + " (parallel)" : shown
        out += "\(inner)label=\(Self.quoted(label));\n"
        out += "\(inner)style=\(inRegion ? "\"dashed,rounded\"" : "rounded");\n"
        // The point that stands for the state: unseen, so that a route of the
        // state is not read as its initial transition, nor a parallel state
        // given a stray dot.
        out += "\(inner)\(id) [shape=point, style=invis, width=0.01];\n"
        if let history = node.history {
            out += "\(inner)\(id)_history [shape=circle, label=\"\(history == .deep ? "H*" : "H")\"];\n"
        }
        let around = around + [id]
        if let nested = node.nested {
            let nestedGraph = graph.nested[nested]
            let nestedPrefix = prefix + "m\(nested)_"
            writeNodes(of: nestedGraph, prefix: nestedPrefix, around: around, indent: inner)
            if let initial = nestedGraph.initial {
                writeInitial(of: id, to: DiagramGraph.id(of: initial, prefix: nestedPrefix), indent: inner)
            }
        }
        for child in node.children {
            writeNode(child, of: graph, prefix: prefix, around: around, inRegion: node.kind == .parallel, indent: inner)
        }
        if node.kind == .compound, let initial = node.initialChild {
            writeInitial(of: id, to: prefix + graph.nodes[initial].id, indent: inner)
        }
        if node.history != nil, let fallback = node.historyDefault {
            writeEdge(
                from: "\(id)_history", to: prefix + graph.nodes[fallback].id, style: .historyDefault,
                indent: inner)
        }
        // Unseen edges that rank the state's point above what the cluster
        // holds, so that the state's routes meet the border at its top, each
        // apart, rather than beside a node outside it, on one spot.
        var below: [String] = []
        if node.nested.map({ graph.nested[$0].initial != nil }) ?? false
            || (node.kind == .compound && node.initialChild != nil)
        {
            below.append(id + "_initial")
        }
        if node.history != nil {
            below.append(id + "_history")
        }
        if node.kind == .parallel {
            below += node.children.map { prefix + graph.nodes[$0].id }
        }
        for other in below {
            out += "\(inner)\(id) -> \(other) [style=invis];\n"
        }
        out += "\(indent)}\n"
    }

    /// The point that marks the initial child of the state `id`, and its edge.
    private mutating func writeInitial(of id: String, to initial: String, indent: String) {
        clustersAround[id + "_initial"] = clustersAround[id, default: []] + [id]
        out += "\(indent)\(id)_initial [shape=point, width=0.1];\n"
        writeEdge(from: id + "_initial", to: initial, indent: indent)
    }

    private mutating func writeEdges(of graph: DiagramGraph, prefix: String) {
        for edge in graph.edges {
            writeEdge(
                from: DiagramGraph.id(of: edge.from, prefix: prefix), to: DiagramGraph.id(of: edge.to, prefix: prefix),
                label: edge.label, style: edge.style, indent: "    ")
        }
        for (offset, nested) in graph.nested.enumerated() {
            writeEdges(of: nested, prefix: prefix + "m\(offset)_")
        }
    }

    /// Writes an edge, clipped at the cluster of an end drawn as one (unless
    /// the other end is inside it, where Graphviz cannot clip). Written
    /// straight into the text, with no list of attributes made per edge.
    private mutating func writeEdge(
        from: String, to: String, label: String = "", style: DiagramGraph.Style = .route, indent: String
    ) {
        out += "\(indent)\(from) -> \(to)"
        var separator = " ["
        func attribute(_ text: String) {
            out += separator
            out += text
            separator = ", "
        }
        if !label.isEmpty {
            attribute("label=")
            Self.appendQuoted(" \(label) ", to: &out)
        }
        switch style {
        case .route: break
        case .alsoEntering, .historyDefault: attribute("style=dashed")
        case .mapped: attribute("style=dotted")
        }
        // A machine without clusters, the common case, skips both look-ups.
        if !clusters.isEmpty, from != to {
            if clusters.contains(to), !(clustersAround[from] ?? []).contains(to) {
                attribute("lhead=cluster_\(to)")
            }
            if clusters.contains(from), !(clustersAround[to] ?? []).contains(from) {
                attribute("ltail=cluster_\(from)")
            }
        }
        out += separator == ", " ? "];\n" : ";\n"
    }
}
