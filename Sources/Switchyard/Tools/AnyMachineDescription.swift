/// The description of a machine whose state and event types are not known
/// where it is read: a machine nested in another, whose types are its own.
///
/// ```swift
/// let nested = app.describe().nestedMachines[0].machine
/// if let draft = nested.base as? MachineDescription<Draft, NoEvent> {
///     print(draft.states.count)  // 2
/// }
/// print(nested.dot())
/// ```
public struct AnyMachineDescription {
    /// The typed description, a ``MachineDescription`` of the nested machine's types.
    public let base: Any
    /// What diagrams draw, with the states' and events' names written out.
    let graph: DiagramGraph

    /// Wraps a typed description.
    ///
    /// - Parameter description: The description to wrap.
    public init<S, E>(_ description: MachineDescription<S, E>) {
        base = description
        graph = DiagramGraph(description)
    }

    /// The description as Graphviz DOT; see ``MachineDescription/dot()``.
    ///
    /// - Returns: A complete `digraph`.
    public func dot() -> String {
        DOTWriter.write(graph)
    }

    /// The description as a Mermaid `stateDiagram-v2`; see ``MachineDescription/mermaid()``.
    ///
    /// - Returns: A complete diagram.
    public func mermaid() -> String {
        MermaidWriter.write(graph)
    }

    /// The description as a W3C SCXML document; see ``MachineDescription/scxml()``.
    ///
    /// - Returns: A complete document.
    public func scxml() -> String {
        SCXMLWriter.write(graph)
    }
}
