// Diagrams of a described machine, in the formats of Graphviz and Mermaid.

extension MachineDescription {
    /// The machine as a Graphviz DOT `digraph`, for `dot -Tsvg`.
    ///
    /// ```swift
    /// let dot = player.describe().dot()
    /// try dot.write(toFile: "player.dot", atomically: true, encoding: .utf8)
    /// // dot -Tsvg player.dot -o player.svg
    /// ```
    ///
    /// Compound states are clusters, each with a point that marks its
    /// initial child; a parallel state's label says so and its regions are
    /// dashed; history is an `H` (shallow) or `H*` (deep) circle in its
    /// state; final states have a double border; a nested machine is drawn
    /// inside the state it is nested under. Routes are edges labelled with
    /// their event (none for a route taken by asking for its target, `any
    /// event`, `always`, `after delay` or `done` otherwise), then
    /// `[condition]`, `/ action`, `(local)` and `(no history)` as they apply.
    /// `.any` is one dashed node, `any state`; an event route to `.any`,
    /// which keeps the machine where it is, loops on its source. Route
    /// mappings' moves are dotted edges labelled `(mapped)` when they could
    /// be listed (see ``RouteMapping/moves``), and a note counts those that
    /// could not. A target entered beside a route's first is a dashed edge.
    ///
    /// Nodes and edges come in the order states were declared and routes
    /// added, so the same machine gives the same text every time. Labels are
    /// escaped, whatever a state's description contains.
    ///
    /// - Returns: The complete DOT text.
    /// - Complexity: O(*n*) in the states, routes and listed moves.
    public func dot() -> String {
        DOTWriter.write(DiagramGraph(self))
    }

    /// The machine as a Mermaid `stateDiagram-v2`.
    ///
    /// ```swift
    /// print(door.describe().mermaid())
    /// // stateDiagram-v2
    /// //     state "open" as s1
    /// //     …
    /// //     s1 --> s2 : close
    /// ```
    ///
    /// States are declared as `state "description" as s3`: the identifier is
    /// made of the state's code, the description is the label, with the
    /// characters Mermaid would read written as entity codes. Compound
    /// states and the states machines are nested in are composite states,
    /// a parallel state's regions are separated by `--`, history shows as
    /// `(H)` or `(H*)` in the label and final states have the `final`
    /// class. Edges are labelled as in ``dot()``.
    ///
    /// - Returns: The complete Mermaid text.
    /// - Complexity: O(*n*) in the states, routes and listed moves.
    public func mermaid() -> String {
        MermaidWriter.write(DiagramGraph(self))
    }
}
