// Diagrams of a described machine, in the formats of Graphviz and Mermaid, and
// the machine as a W3C SCXML document.

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
    /// inside the state it is nested under (a machine nested as an enum
    /// case, in a cluster named after the case). Routes are edges labelled with
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
    /// added, so the same machine gives the same text every time. Labels
    /// show as written, whatever a description contains: escaped (`&` too,
    /// which Graphviz would read as the start of an entity), with control
    /// characters spelled out (`\u{1B}`), and descriptions longer than 1,000
    /// Unicode scalars shortened with `…`, since Graphviz refuses a quoted
    /// string longer than 16,384 bytes.
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
    /// characters Mermaid would read written as entity codes, control
    /// characters spelled out and overlong descriptions shortened, as in
    /// ``dot()``. Compound states and the states machines are nested in are
    /// composite states, a parallel state's regions are separated by `--`,
    /// history shows as `(H)` or `(H*)` in the label, with its declared
    /// default if any (`(H*, default sweeping)`), and final states have the
    /// `final` class. A machine nested as an enum case is drawn in a state named
    /// after the case. Edges are labelled as in ``dot()``.
    ///
    /// - Returns: The complete Mermaid text.
    /// - Complexity: O(*n*) in the states, routes and listed moves.
    public func mermaid() -> String {
        MermaidWriter.write(DiagramGraph(self))
    }

    /// The machine as a W3C SCXML 1.0 document, for statechart tools.
    ///
    /// ```swift
    /// print(player.describe().scxml())
    /// // <?xml version="1.0" encoding="UTF-8"?>
    /// // <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="stopped">
    /// //     <state id="stopped">
    /// //         <transition event="play" target="active_history"/>
    /// //     …
    /// ```
    ///
    /// Atomic and compound states are `<state>` elements (a compound one
    /// with an `initial` attribute), parallel states `<parallel>`, final
    /// states `<final>`; a history is a `<history type="shallow">` or
    /// `type="deep"` with a `<transition>` to its default (the declared
    /// one, else the initial child or every region). A compound state with
    /// history has an `<initial>` that targets it rather than an `initial`
    /// attribute, since Switchyard enters such a state through its history
    /// whenever it enters it by default. A nested machine's states are
    /// children of the state it is nested in.
    ///
    /// Each route is a `<transition>` in its source: `event="…"` for an
    /// event (its description made into a unique name without dots, and
    /// with `_` before `to`, `done` or `error`, so that no event takes
    /// another's transitions or the document's own), `event="*"` for any
    /// event, none for an eventless route, `event="done.state.ID"` for a
    /// done route, `event="to.ID"` for a route taken by asking for its
    /// target `ID`; several targets entered together are space-separated,
    /// and a local route has `type="internal"`. An event route is written
    /// again as the request for its target that may take it too
    /// (`event="to.ID"`, with its condition and without its action), the
    /// requests in the order the machine asks them. A route to a state
    /// that keeps history targets the history, as Switchyard enters it;
    /// from inside that state, the state itself, so that SCXML leaves it
    /// and enters it again through its `<initial>`, as Switchyard does; a
    /// route that ignores history targets the state's initial child. A
    /// route from `.any` is tried after every state's own, as a
    /// route from the root: it is written in every top-level state that is
    /// not final, after a comment `from any state` (in a nested machine,
    /// in the state it is nested in). A timed route is eventless, with a
    /// comment. A route out of a final state cannot be written, since
    /// `<final>` holds only `<onentry>`, `<onexit>` and `<donedata>`: it is
    /// a comment in its `<final>` that says it was left out and holds the
    /// `<transition>` it would be, so the document stays valid SCXML
    /// (``validate()`` reports such routes).
    ///
    /// Closures cannot be written, so they are named placeholders numbered
    /// in document order: a condition is `cond="condition1"` (a timed
    /// route's timer `cond="delay2"`), a route's action
    /// `<log label="action3"/>` in its transition, entry and exit handlers
    /// `<log label="entry4"/>` in `<onentry>` and `<onexit>`. Route
    /// mappings' moves are transitions, after a comment, when they could
    /// be listed (see ``RouteMapping/moves``); a comment counts those that
    /// could not, and the handlers of events, transitions and errors.
    ///
    /// A state's id is its description made into an XML name: letters,
    /// digits, `_`, `-` and `.` are kept, anything else becomes `_`, and
    /// `_2`, `_3`… make ids unique; when the id differs from the
    /// description, a comment before the element keeps the description.
    /// Attribute values are escaped and comments made safe, so the
    /// document is well-formed whatever a description contains. Elements
    /// come in the order states were declared and routes added.
    ///
    /// - Returns: The complete SCXML document.
    /// - Complexity: O(*n*) in the states, routes and listed moves.
    public func scxml() -> String {
        SCXMLWriter.write(DiagramGraph(self))
    }
}
