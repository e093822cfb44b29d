/// A node's name in one machine of a hierarchy.
@usableFromInline
struct NodeName: Equatable {
    /// The machine: its index among the hierarchy's members (0 is the root).
    @usableFromInline var member: Int
    /// Its code for the node; ``SymbolCode/wildcard`` for the node a machine
    /// is nested in, which stands for the machine's `.any`.
    @usableFromInline var code: SymbolCode

    @inlinable
    init(member: Int, code: SymbolCode) {
        self.member = member
        self.code = code
    }
}
