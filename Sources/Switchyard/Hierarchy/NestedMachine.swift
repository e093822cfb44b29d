/// A machine about to be nested, as the root of its new hierarchy takes it.
@usableFromInline
struct NestedMachine {
    @usableFromInline var access: MemberAccess
    @usableFromInline var machine: AnyObject
    /// The member it is nested in, and that member's code for the state.
    @usableFromInline var parent: Int
    @usableFromInline var host: SymbolCode
    /// Its own declarations, and its code for its state now.
    @usableFromInline var tree: StateTree
    @usableFromInline var initial: SymbolCode
    /// The history it recorded, in its codes.
    @usableFromInline var history: [(SymbolCode, [SymbolCode])]
    /// The hierarchy it is the root of, if machines are nested in it already.
    @usableFromInline var nesting: Nesting?
    /// By member of that hierarchy: the state it enters by default, in its codes.
    var carriedInitials: [SymbolCode]
    /// Its recorded history by node of that hierarchy, when it has one.
    @usableFromInline var chartHistory: [(SymbolCode, [SymbolCode])]

    @usableFromInline
    init(
        access: MemberAccess, machine: AnyObject, parent: Int, host: SymbolCode, tree: StateTree,
        initial: SymbolCode, history: [(SymbolCode, [SymbolCode])], nesting: Nesting?, carriedInitials: [SymbolCode],
        chartHistory: [(SymbolCode, [SymbolCode])]
    ) {
        self.access = access
        self.machine = machine
        self.parent = parent
        self.host = host
        self.tree = tree
        self.initial = initial
        self.history = history
        self.nesting = nesting
        self.carriedInitials = carriedInitials
        self.chartHistory = chartHistory
    }
}
