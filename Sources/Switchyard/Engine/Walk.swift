/// The first answer `visit` gives on SPEC §3.2's walk, the one order in
/// which the states that may take a request are offered it: `state`, then
/// each of its ancestors, innermost first, as `parent` names them (`nil`
/// above a top-level state), then the root, visited as `nil`, where what
/// leaves from `.any` is kept. A `nil` `state` walks the root alone.
///
/// A flat machine is the walk of one state: its state, then the root. A
/// statechart walks its tree's codes (``Statechart/firstOnWalk(from:_:)``);
/// a definition's mapped clauses walk its states
/// (``MappedClauses/search(_:_:refused:answer:)``).
///
/// - Complexity: O(*d*) calls of `visit` for a state *d* deep.
@usableFromInline
func walkOutward<Node, Answer>(from state: Node?, parent: (Node) -> Node?, _ visit: (Node?) -> Answer?) -> Answer? {
    var node = state
    while let current = node {
        if let answer = visit(current) { return answer }
        node = parent(current)
    }
    return visit(nil)
}
