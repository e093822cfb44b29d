/// How much of its past a compound state keeps, to be entered through it.
public enum HistoryKind: Hashable, Sendable {
    /// The child that was active when the state was last exited.
    case shallow
    /// The atomic descendants that were active when the state was last exited.
    case deep
}

/// The tree of a machine's states, by state code.
///
/// Code 0 (``SymbolCode/wildcard``) stands for the root: the machine itself,
/// a compound state whose children are the top-level states, and the source
/// of routes from `.any`. A state that no declaration names is an atomic
/// child of the root. Only one top-level state is ever active, so their order
/// among themselves never matters and the root keeps no list of them.
///
/// Depth and document order are laid out again only when needed after a
/// declaration, so that declaring *n* states costs O(*n*) in all.
@usableFromInline
struct StateTree {
    /// What kind of state a node is.
    @usableFromInline
    enum Kind: UInt8 {
        /// No children.
        case atomic
        /// Children of which one is active while the state is.
        case compound
        /// Children (regions) that are all active while the state is.
        case parallel
    }

    @usableFromInline
    struct Node {
        var parent: SymbolCode = .wildcard
        var kind = Kind.atomic
        var history: HistoryKind?
        /// What a state that keeps history enters before it has recorded
        /// any: a descendant, or ``SymbolCode/wildcard`` for its initial child
        /// (a parallel state: its regions).
        var historyDefault: SymbolCode = .wildcard
        /// Whether entering the state completes its parent (SCXML's `<final>`).
        var isFinal = false
        /// The state a compound state enters first: a child, or deeper (a
        /// nested machine's initial state); ``SymbolCode/wildcard`` for its first child.
        var initial: SymbolCode = .wildcard
        /// Laid out: the number of ancestors below the root (1 for a top-level state).
        var depth: UInt16 = 1
        /// Laid out: the position in document order, and that of the last descendant.
        var order: UInt32 = 0
        var end: UInt32 = 0

        init() {}
    }

    /// By code; the root at 0. Codes past the end are undeclared atomic states.
    @usableFromInline var nodes: [Node] = [Node()]
    /// The children of each state, by code, in the order they were declared.
    var children: [[SymbolCode]] = [[]]
    /// Whether any state has children.
    @usableFromInline var hasChildren = false
    /// Whether `depth`, `order` and `end`, and what is worked out from the
    /// tree's shape, history and final states (``layouts``), are up to date:
    /// declaring children, history or a final state clears it.
    @usableFromInline var isLaidOut = true
    /// Whether some state is final: without, no step completes a state.
    @usableFromInline var hasFinalStates = false
    /// Whether a state has regions: without, a configuration has a single
    /// active atomic state, which lets a step skip some searches.
    @usableFromInline var hasParallel = false
    /// How many times the tree has been laid out: what was worked out from
    /// its shape, history and final states is current while this has not
    /// moved.
    @usableFromInline var layouts: UInt32 = 0

    @usableFromInline
    init() {
        nodes[0].depth = 0
        nodes[0].end = .max
    }

    // MARK: Reading

    /// The parent of `code`; the root for a top-level or undeclared state.
    @usableFromInline
    func parent(of code: SymbolCode) -> SymbolCode {
        Int(code) < nodes.count ? nodes[Int(code)].parent : .wildcard
    }

    @usableFromInline
    func kind(of code: SymbolCode) -> Kind {
        code == .wildcard ? .compound : Int(code) < nodes.count ? nodes[Int(code)].kind : .atomic
    }

    @usableFromInline
    func history(of code: SymbolCode) -> HistoryKind? {
        Int(code) < nodes.count ? nodes[Int(code)].history : nil
    }

    /// Whether `code` is a final state.
    @usableFromInline
    func isFinal(_ code: SymbolCode) -> Bool {
        Int(code) < nodes.count && nodes[Int(code)].isFinal
    }

    func children(of code: SymbolCode) -> [SymbolCode] {
        Int(code) < children.count ? children[Int(code)] : []
    }

    /// How many children (or regions) `code` has.
    func childCount(of code: SymbolCode) -> Int {
        Int(code) < children.count ? children[Int(code)].count : 0
    }

    /// The child (or region) of `code` at `position` in declaration order,
    /// read in place: a step's walks use it where ``children(of:)``, a copy
    /// of the list, would cost a retain and a release.
    func child(_ position: Int, of code: SymbolCode) -> SymbolCode {
        children[Int(code)][position]
    }

    /// The position of `code` in document order; undeclared states come after
    /// the declared ones. Needs ``layOut()``.
    func order(of code: SymbolCode) -> UInt32 {
        Int(code) < nodes.count ? nodes[Int(code)].order : UInt32(nodes.count) + code
    }

    /// Whether `code` is a proper descendant of `ancestor`. Needs ``layOut()``.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    func isDescendant(_ code: SymbolCode, of ancestor: SymbolCode) -> Bool {
        guard code != ancestor else { return false }
        if ancestor == .wildcard { return true }
        guard Int(ancestor) < nodes.count else { return false }
        let order = order(of: code)
        return nodes[Int(ancestor)].order < order && order <= nodes[Int(ancestor)].end
    }

    /// Whether `code` is `ancestor` or inside it. Needs ``layOut()``.
    @usableFromInline
    func isWithin(_ code: SymbolCode, _ ancestor: SymbolCode) -> Bool {
        code == ancestor || isDescendant(code, of: ancestor)
    }

    /// Two of `states` that cannot be active together, and the compound
    /// state (or the root) that would need both of them, or their ancestors,
    /// as its one active child; `nil` when every compound state has at most
    /// one child among `states` and their ancestors.
    ///
    /// - Complexity: O(*n* · *d*) in the states and the tree's depth, each
    ///   ancestor walked once.
    func twoExclusiveStates(
        among states: [SymbolCode]
    ) -> (first: SymbolCode, second: SymbolCode, parent: SymbolCode)? {
        // For each compound state met, the child of it on the way up from
        // the first state that reached it, and that state.
        var reached: [SymbolCode: (child: SymbolCode, from: SymbolCode)] = [:]
        for state in states {
            var child = state
            while child != .wildcard {
                let parent = parent(of: child)
                if kind(of: parent) == .compound {
                    if let earlier = reached[parent] {
                        if earlier.child != child {
                            return (earlier.from, state, parent)
                        }
                        break  // The rest of the way up was walked already.
                    }
                    reached[parent] = (child, state)
                }
                child = parent
            }
        }
        return nil
    }

    // MARK: Declaring

    /// Makes `children` the children (or, for a parallel state, the regions)
    /// of `parent`.
    ///
    /// - Precondition: Each child is new to the tree's structure (it has no
    ///   parent), none is `parent` or one of its ancestors, and `parent` is
    ///   not already of the other kind. `initial`, if given, is a child.
    @usableFromInline
    mutating func add(
        _ children: [SymbolCode], to parent: SymbolCode, kind: Kind, initial: SymbolCode?, names: (SymbolCode) -> String
    ) {
        grow(toHold: ([parent] + children).max() ?? parent)
        let existing = nodes[Int(parent)].kind
        require(
            existing == .atomic || existing == kind,
            "\(names(parent)) already has \(existing == .parallel ? "regions" : "children"); a state cannot have both")
        require(!children.isEmpty, "\(names(parent)) needs at least one \(kind == .parallel ? "region" : "child")")
        require(
            !nodes[Int(parent)].isFinal,
            "\(names(parent)) is a final state, which cannot have \(kind == .parallel ? "regions" : "children")")
        for child in children {
            require(child != parent, "\(names(parent)) cannot be its own \(kind == .parallel ? "region" : "child")")
            // A state without children is no state's ancestor: the walk up
            // from the parent is spared, which made declaring a chain
            // from the top quadratic.
            let makesCycle = !self.children[Int(child)].isEmpty && isAncestor(child, of: parent)
            require(
                nodes[Int(child)].parent == .wildcard && !self.children[Int(parent)].contains(child) && !makesCycle,
                nodes[Int(child)].parent != .wildcard
                    ? "\(names(child)) is already a child of \(names(nodes[Int(child)].parent)); a state has one parent"
                    : "\(names(child)) is \(names(parent))'s ancestor; adding it as a child would make a cycle")
            require(
                kind != .parallel || !nodes[Int(child)].isFinal,
                "\(names(child)) is a final state; a region cannot be final (SCXML's <final> is a child of a compound state)"
            )
            nodes[Int(child)].parent = parent
            self.children[Int(parent)].append(child)
        }
        require(
            Set(children).count == children.count,
            "\(names(parent)) lists a \(kind == .parallel ? "region" : "child") twice")
        nodes[Int(parent)].kind = kind
        if let initial {
            require(
                self.children[Int(parent)].contains(initial),
                "the initial child \(names(initial)) is not a child of \(names(parent))")
            nodes[Int(parent)].initial = initial
        }
        hasChildren = true
        isLaidOut = false
    }

    /// Whether `ancestor` is `code`'s ancestor, by parent links (no layout needed).
    func isAncestor(_ ancestor: SymbolCode, of code: SymbolCode) -> Bool {
        var current = code
        while current != .wildcard {
            if current == ancestor { return true }
            current = parent(of: current)
        }
        return false
    }

    /// Makes `code` keep `kind` history; `fallback`, if given, is what it
    /// enters before it has recorded any.
    @usableFromInline
    mutating func setHistory(
        _ kind: HistoryKind, of code: SymbolCode, default fallback: SymbolCode? = nil, names: (SymbolCode) -> String
    ) {
        require(
            self.kind(of: code) != .atomic && code != .wildcard,
            "\(names(code)) keeps no history: only a state with children or regions can; declare them first")
        Self.requireOneHistory(nodes[Int(code)].history, kind, of: names(code))
        if let fallback {
            require(
                fallback != code && isAncestor(code, of: fallback),
                "the history default \(names(fallback)) is not a descendant of \(names(code))")
            nodes[Int(code)].historyDefault = fallback
        }
        nodes[Int(code)].history = kind
        // Laid out again, though depth and order stay: what is worked out
        // from the tree's layout (a state's default entry) depends on history.
        isLaidOut = false
    }

    /// Makes `code` a final state: entering it completes its parent, or,
    /// for a top-level state, finishes the machine.
    mutating func setFinal(_ code: SymbolCode, names: (SymbolCode) -> String) {
        require(code != .wildcard, "the machine itself cannot be a final state")
        if Int(code) >= nodes.count {
            grow(toHold: code)
            isLaidOut = false
        }
        require(
            nodes[Int(code)].kind == .atomic,
            "\(names(code)) has \(nodes[Int(code)].kind == .parallel ? "regions" : "children"); a final state has none")
        require(
            kind(of: parent(of: code)) != .parallel,
            "\(names(code)) is a region of \(names(parent(of: code))); a region cannot be final (SCXML's <final> is a child of a compound state)"
        )
        nodes[Int(code)].isFinal = true
        hasFinalStates = true
        // What a step completes is remembered per layout (see `StepMemo`).
        isLaidOut = false
    }

    /// Stops at a second history of another kind for one state: declaring
    /// the same kind again changes nothing.
    @usableFromInline
    static func requireOneHistory(_ existing: HistoryKind?, _ kind: HistoryKind, of name: @autoclosure () -> String) {
        if let existing {
            require(existing == kind, "\(name()) already keeps \(existing) history; a state keeps one kind of history")
        }
    }

    mutating func grow(toHold code: SymbolCode) {
        while nodes.count <= Int(code) {
            nodes.append(Node())
            children.append([])
        }
    }

    // MARK: Layout

    /// Lays out depth and document order, if a declaration changed the tree
    /// (its shape, its history or its final states).
    ///
    /// - Complexity: O(*n*) in the declared states, once after declarations.
    @usableFromInline
    mutating func layOutIfNeeded() {
        if !isLaidOut {
            layOut()
        }
    }

    mutating func layOut() {
        var next: UInt32 = 1
        // Iterative preorder, so that a deep tree cannot overflow the stack.
        var stack: [(code: SymbolCode, depth: UInt16)] = []
        for code in 1..<SymbolCode(nodes.count) where nodes[Int(code)].parent == .wildcard {
            stack.append((code, 1))
            while let (current, depth) = stack.popLast() {
                nodes[Int(current)].depth = depth
                nodes[Int(current)].order = next
                next += 1
                for child in children[Int(current)].reversed() {
                    stack.append((child, depth + 1))
                }
            }
        }
        // Each state's last descendant: children after parents in preorder,
        // so going backwards sees every child before its parent.
        var byOrder = [SymbolCode](repeating: 0, count: nodes.count)
        for code in 1..<nodes.count {
            byOrder[Int(nodes[code].order)] = SymbolCode(code)
        }
        for code in 1..<nodes.count {
            nodes[code].end = nodes[code].order
        }
        for position in stride(from: nodes.count - 1, through: 1, by: -1) {
            let code = byOrder[position]
            let parent = nodes[Int(code)].parent
            if parent != .wildcard {
                nodes[Int(parent)].end = Swift.max(nodes[Int(parent)].end, nodes[Int(code)].end)
            }
        }
        hasParallel = nodes.contains { $0.kind == .parallel }
        layouts &+= 1
        isLaidOut = true
    }
}
