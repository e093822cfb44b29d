/// Writes a ``DiagramGraph`` as Graphviz DOT.
///
/// Compound states are clusters holding a point that marks their initial
/// child (and stands for the state as an edge's end, through `lhead` and
/// `ltail`); a parallel state's regions are dashed clusters, or dashed
/// boxes for atomic ones; history is an `H` or `H*` circle in its state,
/// with a dashed edge to its default when one is declared;
/// final states have a double border; `.any` is one dashed node; route
/// mappings' moves are dotted edges. Every label is a quoted string with
/// its quotes, backslashes and line breaks escaped, so a state's
/// description cannot break the file.
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
                from: "start", to: DiagramGraph.id(of: initial, prefix: ""), attributes: [], indent: "    ")
        }
        writer.writeEdges(of: graph, prefix: "")
        writer.out += "}\n"
        return writer.out
    }

    /// `text` as a DOT quoted string.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": break
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private mutating func writeNodes(of graph: DiagramGraph, prefix: String, around: [String], indent: String) {
        if graph.usesAny {
            let id = prefix + DiagramGraph.anyID
            clustersAround[id] = around
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
        clustersAround[id] = around
        guard node.kind != .atomic || node.nested != nil else {
            var attributes = ["label=\(Self.quoted(node.label))"]
            if node.isFinal { attributes.append("peripheries=2") }
            if inRegion { attributes.append("style=\"dashed,rounded\"") }
            out += "\(indent)\(id) [\(attributes.joined(separator: ", "))];\n"
            return
        }
        clusters.insert(id)
        let inner = indent + "    "
        out += "\(indent)subgraph cluster_\(id) {\n"
        let label = node.kind == .parallel ? node.label + " (parallel)" : node.label
        out += "\(inner)label=\(Self.quoted(label));\n"
        out += "\(inner)style=\(inRegion ? "\"dashed,rounded\"" : "rounded");\n"
        // The point that stands for the state, and marks its initial child.
        out += "\(inner)\(id) [shape=point, width=0.1];\n"
        if let history = node.history {
            out += "\(inner)\(id)_history [shape=circle, label=\"\(history == .deep ? "H*" : "H")\"];\n"
        }
        let around = around + [id]
        if let nested = node.nested {
            let nestedGraph = graph.nested[nested]
            let nestedPrefix = prefix + "m\(nested)_"
            writeNodes(of: nestedGraph, prefix: nestedPrefix, around: around, indent: inner)
            if let initial = nestedGraph.initial {
                writeEdge(
                    from: id, to: DiagramGraph.id(of: initial, prefix: nestedPrefix), attributes: [], indent: inner)
            }
        }
        for child in node.children {
            writeNode(child, of: graph, prefix: prefix, around: around, inRegion: node.kind == .parallel, indent: inner)
        }
        if node.kind == .compound, let initial = node.initialChild {
            writeEdge(from: id, to: prefix + graph.nodes[initial].id, attributes: [], indent: inner)
        }
        if node.history != nil, let fallback = node.historyDefault {
            writeEdge(
                from: "\(id)_history", to: prefix + graph.nodes[fallback].id, attributes: ["style=dashed"],
                indent: inner)
        }
        out += "\(indent)}\n"
    }

    private mutating func writeEdges(of graph: DiagramGraph, prefix: String) {
        func globalID(_ end: DiagramGraph.End) -> String {
            DiagramGraph.id(of: end, prefix: prefix)
        }
        for edge in graph.edges {
            var attributes: [String] = []
            if !edge.label.isEmpty { attributes.append("label=\(Self.quoted(edge.label))") }
            switch edge.style {
            case .route: break
            case .alsoEntering: attributes.append("style=dashed")
            case .mapped: attributes.append("style=dotted")
            }
            writeEdge(from: globalID(edge.from), to: globalID(edge.to), attributes: attributes, indent: "    ")
        }
        for (offset, nested) in graph.nested.enumerated() {
            writeEdges(of: nested, prefix: prefix + "m\(offset)_")
        }
    }

    /// Writes an edge, clipped at the cluster of an end drawn as one (unless
    /// the other end is inside it, where Graphviz cannot clip).
    private mutating func writeEdge(from: String, to: String, attributes: [String], indent: String) {
        var attributes = attributes
        if clusters.contains(to), from != to, !(clustersAround[from] ?? []).contains(to) {
            attributes.append("lhead=cluster_\(to)")
        }
        if clusters.contains(from), from != to, !(clustersAround[to] ?? []).contains(from) {
            attributes.append("ltail=cluster_\(from)")
        }
        out += "\(indent)\(from) -> \(to)"
        out += attributes.isEmpty ? ";\n" : " [\(attributes.joined(separator: ", "))];\n"
    }
}
