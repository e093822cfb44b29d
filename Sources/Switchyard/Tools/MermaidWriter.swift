/// Writes a ``DiagramGraph`` as a Mermaid `stateDiagram-v2`.
///
/// Every state is declared with an identifier made of its code (`s3`, `m0_s3`
/// in a nested machine) and its description as the label, whose characters
/// Mermaid would read (quotes, `#`, `;`, `:`, `%`, angle brackets, braces
/// and `&`) are written as Mermaid's entity codes (`#34;`), line breaks as
/// `<br>`, control characters spelled out, and a description past
/// ``DiagramGraph/labelLimit`` shortened. Compound states and the
/// states machines are nested in are composite states; a parallel state's
/// regions are separated by `--`. History is marked `(H)` or `(H*)` in the
/// label, with its declared default if any (`(H*, default sweeping)`),
/// final states by the `final` class.
struct MermaidWriter {
    private var out = ""
    private var finals: [String] = []

    static func write(_ graph: DiagramGraph) -> String {
        var writer = MermaidWriter()
        writer.out += "stateDiagram-v2\n"
        writer.writeNodes(of: graph, prefix: "", indent: "    ")
        if let initial = graph.initial {
            writer.out += "    [*] --> \(DiagramGraph.id(of: initial, prefix: ""))\n"
        }
        writer.writeEdges(of: graph, prefix: "")
        if !writer.finals.isEmpty {
            writer.out += "    classDef final stroke-width:3px\n"
            writer.out += "    class \(writer.finals.joined(separator: ",")) final\n"
        }
        return writer.out
    }

    /// What ``DiagramGraph/forEachShown(in:_:)`` shows of `text`, with every
    /// character Mermaid would read (`&` too: Mermaid reads HTML entities)
    /// written as an entity code and line breaks as `<br>`.
    static func escaped(_ text: String) -> String {
        var result = ""
        DiagramGraph.forEachShown(in: text) { shown in
            switch shown {
            case .lineBreak:
                result += "<br>"
            case .scalar(let scalar) where "\"#;:<>{}%&".unicodeScalars.contains(scalar):
                result += "#\(scalar.value);"
            case .scalar(let scalar):
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A state's description as its label shows it, before the marks added after it.
    private static func label(of node: DiagramGraph.Node) -> String {
        escaped(DiagramGraph.shortened(node.label))
    }

    private mutating func writeNodes(of graph: DiagramGraph, prefix: String, indent: String) {
        if graph.usesAny {
            out += "\(indent)state \"any state\" as \(prefix)\(DiagramGraph.anyID)\n"
        }
        if graph.unlistedMappings > 0 {
            let count = graph.unlistedMappings
            let label = "\(count) route mapping\(count == 1 ? "" : "s")#58; targets computed by a closure"
            out += "\(indent)state \"\(label)\" as \(prefix)mappings\n"
        }
        for node in graph.topLevel {
            writeNode(node, of: graph, prefix: prefix, indent: indent)
        }
    }

    private mutating func writeNode(_ index: Int, of graph: DiagramGraph, prefix: String, indent: String) {
        let node = graph.nodes[index]
        let id = prefix + node.id
        var label = Self.label(of: node)
        if let history = node.history {
            // Mermaid has no history pseudo-state to draw an edge from: the
            // declared default is named in the label.
            let mark = history == .deep ? "H*" : "H"
            let fallback = node.historyDefault.map { ", default " + Self.label(of: graph.nodes[$0]) } ?? ""
            label += " (\(mark)\(fallback))"
        }
        if node.kind == .parallel { label += " (parallel)" }
        out += "\(indent)state \"\(label)\" as \(id)\n"
        if node.isFinal { finals.append(id) }
        guard node.kind != .atomic || node.nested != nil else { return }
        let inner = indent + "    "
        out += "\(indent)state \(id) {\n"
        if let nested = node.nested {
            let nestedGraph = graph.nested[nested]
            let nestedPrefix = prefix + "m\(nested)_"
            writeNodes(of: nestedGraph, prefix: nestedPrefix, indent: inner)
            if let initial = nestedGraph.initial {
                out += "\(inner)[*] --> \(DiagramGraph.id(of: initial, prefix: nestedPrefix))\n"
            }
        }
        for (offset, child) in node.children.enumerated() {
            if node.kind == .parallel && offset > 0 {
                out += "\(inner)--\n"
            }
            writeNode(child, of: graph, prefix: prefix, indent: inner)
        }
        if node.kind == .compound, let initial = node.initialChild {
            out += "\(inner)[*] --> \(prefix)\(graph.nodes[initial].id)\n"
        }
        out += "\(indent)}\n"
    }

    private mutating func writeEdges(of graph: DiagramGraph, prefix: String) {
        func globalID(_ end: DiagramGraph.End) -> String {
            DiagramGraph.id(of: end, prefix: prefix)
        }
        for edge in graph.edges {
            var label = Self.escaped(edge.label)
            if edge.style == .alsoEntering { label += " (also entering)" }
            out += "    \(globalID(edge.from)) --> \(globalID(edge.to))"
            out += label.isEmpty ? "\n" : " : \(label)\n"
        }
        for (offset, nested) in graph.nested.enumerated() {
            writeEdges(of: nested, prefix: prefix + "m\(offset)_")
        }
    }
}
