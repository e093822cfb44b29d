/// One machine's state in a hierarchy, and what the step in progress works
/// out for it.
@usableFromInline
struct MemberState {
    /// The member it is nested in; -1 for the root.
    @usableFromInline let parent: Int
    /// How many machines stand above it.
    @usableFromInline let depth: Int
    /// The node it is nested in; the statechart's root for the root.
    @usableFromInline var hostNode: SymbolCode = .wildcard
    /// Its state, in its codes: while it is not active, the state entering
    /// it by default would give it.
    @usableFromInline var current: SymbolCode
    /// Whether the step concerns it (see ``Nesting/planDelivery(of:chart:)``).
    @usableFromInline var touched = false
    /// Whether it is active before the step, and after it.
    @usableFromInline var wasActive: Bool
    @usableFromInline var willBeActive: Bool
    /// Its state before the step, and after it.
    @usableFromInline var before: SymbolCode
    @usableFromInline var after: SymbolCode

    @inlinable
    init(parent: Int, depth: Int, current: SymbolCode, isActive: Bool) {
        self.parent = parent
        self.depth = depth
        self.current = current
        self.wasActive = isActive
        self.willBeActive = isActive
        self.before = current
        self.after = current
    }
}
