/// The states a definition nests, as its `From` and `Parallel` blocks declare them.
@usableFromInline
struct DefinitionTree<S: StateType> {
    /// One state with children, as ``Machine/addChildren(_:to:initial:)`` or
    /// ``Machine/addRegions(_:to:)`` declares it.
    @usableFromInline
    struct Declaration {
        @usableFromInline var parent: S
        @usableFromInline var children: [S] = []
        @usableFromInline var isParallel: Bool
        @usableFromInline var initial: S?
        @usableFromInline var history: HistoryKind?
        @usableFromInline var historyDefault: S?

        init(parent: S, isParallel: Bool) {
            self.parent = parent
            self.isParallel = isParallel
        }
    }

    /// In the order the parents were first written: a parent before its children.
    @usableFromInline var declarations: [Declaration] = []
    /// Where each parent's declaration is.
    @usableFromInline var positions: [S: Int] = [:]
    /// Each child's parent.
    @usableFromInline var parents: [S: S] = [:]

    init() {}

    @inlinable
    var isEmpty: Bool { declarations.isEmpty }

    /// Whether a state has regions or keeps history: then a state alone does
    /// not say what the machine's configuration is.
    @inlinable
    var needsConfiguration: Bool {
        declarations.contains { $0.isParallel || $0.history != nil }
    }

    /// The declaration of `parent`, made now if it has none.
    mutating func declare(_ parent: S, isParallel: Bool) -> Int {
        if let position = positions[parent] {
            require(
                declarations[position].isParallel == isParallel,
                "\(parent) is declared both with Parallel and with From: a state has either regions or children")
            return position
        }
        positions[parent] = declarations.count
        declarations.append(Declaration(parent: parent, isParallel: isParallel))
        return declarations.count - 1
    }

    /// Makes `child` a child (or region) of the parent declared at `position`.
    mutating func add(_ child: S, at position: Int) {
        let parent = declarations[position].parent
        if let earlier = parents[child] {
            require(
                earlier == parent,
                "\(child) is declared inside both \(earlier) and \(parent): a state has one parent")
            return
        }
        require(child != parent, "\(child) is declared inside itself")
        parents[child] = parent
        declarations[position].children.append(child)
    }

    /// Records the initial child and the history of the parent at `position`.
    mutating func configure(at position: Int, initial: S?, history: HistoryKind?, historyDefault: S?) {
        if let initial {
            let earlier = declarations[position].initial
            require(
                earlier == nil || earlier == initial,
                "\(declarations[position].parent) is given two initial children, \(earlier!) and \(initial)")
            declarations[position].initial = initial
        }
        if let history {
            declarations[position].history = history
        }
        if let historyDefault {
            declarations[position].historyDefault = historyDefault
        }
    }

    /// `state` and its ancestors, innermost first.
    @inlinable
    func lineage(of state: S) -> [S] {
        var lineage = [state]
        var current = state
        while let parent = parents[current] {
            lineage.append(parent)
            current = parent
        }
        return lineage
    }

    /// The children of `state`, and whether they are regions; `nil` for an atomic state.
    @inlinable
    func children(of state: S) -> Declaration? {
        positions[state].map { declarations[$0] }
    }
}
