/// A machine about to be nested, as the root of its new hierarchy takes it.
@usableFromInline
struct NestedMachine {
    var access: MemberAccess
    var machine: AnyObject
    /// The member it is nested in, and that member's code for the state.
    var parent: Int
    var host: SymbolCode
    /// Its own declarations, and its code for its state now.
    var tree: StateTree
    var initial: SymbolCode
    /// The history it recorded, in its codes.
    var history: [(SymbolCode, [SymbolCode])]
    /// The hierarchy it is the root of, if machines are nested in it already.
    var nesting: Nesting?
    /// By member of that hierarchy: the state it enters by default, in its codes.
    var carriedInitials: [SymbolCode]
    /// Its recorded history by node of that hierarchy, when it has one.
    var chartHistory: [(SymbolCode, [SymbolCode])]
}
