/// The active states of a statechart, by state code, and the history its
/// compound states recorded.
///
/// The root (code 0) is always active, as is every ancestor of an active
/// state. A compound state has one active child while it is active; a parallel
/// state has all of its children active.
@usableFromInline
struct Configuration {
    /// By code: for the root and each active compound state, its active child
    /// (``SymbolCode/wildcard`` for none).
    @usableFromInline var activeChild: [SymbolCode] = [.wildcard]
    /// By code: whether the state is active.
    @usableFromInline var isActive: [Bool] = [true]
    /// The active atomic states, in document order.
    @usableFromInline var atomics = ReusableList<SymbolCode>()
    /// By code: what a state with history recorded when last exited.
    @usableFromInline var recorded: [[SymbolCode]] = [[]]

    @inlinable
    init() {}

    @inlinable
    func isActive(_ code: SymbolCode) -> Bool {
        Int(code) < isActive.count && isActive[Int(code)]
    }

    @inlinable
    func activeChild(of code: SymbolCode) -> SymbolCode {
        Int(code) < activeChild.count ? activeChild[Int(code)] : .wildcard
    }

    @inlinable
    func recorded(by code: SymbolCode) -> [SymbolCode] {
        Int(code) < recorded.count ? recorded[Int(code)] : []
    }

    @inlinable
    mutating func grow(toHold code: SymbolCode) {
        while activeChild.count <= Int(code) {
            activeChild.append(.wildcard)
            isActive.append(false)
            recorded.append([])
        }
    }

    /// Makes `code` active, and its parent's active child if the parent is compound.
    @inlinable
    mutating func activate(_ code: SymbolCode, in tree: StateTree) {
        grow(toHold: code)
        isActive[Int(code)] = true
        let parent = tree.parent(of: code)
        if tree.kind(of: parent) == .compound {
            grow(toHold: parent)
            activeChild[Int(parent)] = code
        }
    }

    /// Makes `code` inactive.
    @inlinable
    mutating func deactivate(_ code: SymbolCode, in tree: StateTree) {
        isActive[Int(code)] = false
        let parent = tree.parent(of: code)
        if activeChild(of: parent) == code {
            activeChild[Int(parent)] = .wildcard
        }
    }

    /// Appends the active proper descendants of `code` to `list`, innermost
    /// first and later siblings before earlier ones: reverse document order.
    @inlinable
    func appendActiveDescendants(of code: SymbolCode, in tree: StateTree, to list: inout ReusableList<SymbolCode>) {
        switch tree.kind(of: code) {
        case .atomic:
            return
        case .compound:
            let child = activeChild(of: code)
            guard child != .wildcard else { return }
            appendActiveDescendants(of: child, in: tree, to: &list)
            list.append(child)
        case .parallel:
            for child in tree.children(of: code).reversed() where isActive(child) {
                appendActiveDescendants(of: child, in: tree, to: &list)
                list.append(child)
            }
        }
    }

    /// Lists the active atomic states again, in document order.
    @inlinable
    mutating func collectAtomics(in tree: StateTree) {
        atomics.removeAll()
        func visit(_ code: SymbolCode) {
            switch tree.kind(of: code) {
            case .atomic:
                atomics.append(code)
            case .compound:
                let child = activeChild(of: code)
                if child != .wildcard {
                    visit(child)
                }
            case .parallel:
                for child in tree.children(of: code) where isActive(child) {
                    visit(child)
                }
            }
        }
        visit(.wildcard)
    }

    /// The deepest state that contains every active atomic state: the single
    /// active atomic state when no parallel state is active. The root when
    /// nothing is active.
    @inlinable
    func innermostState(in tree: StateTree) -> SymbolCode {
        guard var candidate = atomics.first else { return .wildcard }
        if atomics.count == 1 { return candidate }
        let last = atomics[atomics.count - 1]
        // Atomics are in document order, so a state containing the first and
        // the last contains all of them.
        while candidate != .wildcard, !tree.isDescendant(last, of: candidate) {
            candidate = tree.parent(of: candidate)
        }
        return candidate
    }
}

/// The routes taken in one step, and the states it exits and enters: what
/// SCXML calls a microstep, computed as a value before anything runs.
@usableFromInline
struct StepPlan {
    /// One route taken in the step.
    @usableFromInline
    struct Move {
        /// The route's registration; 0 for a move a mapping or a request made.
        @usableFromInline var id = RegistrationID(rawValue: 0)
        @usableFromInline var source: SymbolCode
        /// ``SymbolCode/wildcard`` for a route without target (`.any`: stay).
        @usableFromInline var target: SymbolCode
        @usableFromInline var isLocal: Bool
        /// Where the move exits and enters below; `nil` for a targetless one.
        @usableFromInline var domain: SymbolCode?

        @inlinable
        init(source: SymbolCode, target: SymbolCode, isLocal: Bool) {
            self.source = source
            self.target = target
            self.isLocal = isLocal
            self.domain = nil
        }
    }

    @usableFromInline var moves = ReusableList<Move>()
    /// The states to exit, innermost first.
    @usableFromInline var exits = ReusableList<SymbolCode>()
    /// The states to enter, outermost first.
    @usableFromInline var entries = ReusableList<SymbolCode>()

    @inlinable
    init() {}

    @inlinable
    mutating func reset() {
        moves.removeAll()
        exits.removeAll()
        entries.removeAll()
    }

    // MARK: Choosing moves

    /// The state below which `move` exits and enters: SCXML's transition domain.
    ///
    /// A local move from a compound state to one of its descendants stays
    /// inside the source; any other move's domain is the nearest compound
    /// proper ancestor of the source that contains the target (the root if
    /// none does, and for a move from the root).
    @inlinable
    static func domain(of move: Move, in tree: StateTree) -> SymbolCode? {
        guard move.target != .wildcard else { return nil }
        if move.isLocal, tree.kind(of: move.source) == .compound, tree.isDescendant(move.target, of: move.source) {
            return move.source
        }
        var ancestor = move.source == .wildcard ? .wildcard : tree.parent(of: move.source)
        while ancestor != .wildcard,
            !(tree.kind(of: ancestor) == .compound && tree.isDescendant(move.target, of: ancestor))
        {
            ancestor = tree.parent(of: ancestor)
        }
        return ancestor
    }

    /// Adds `move` unless it conflicts with one already chosen: two conflict
    /// when the states they exit overlap, which happens when one's domain is
    /// inside (or is) the other's. A move whose source is a proper descendant
    /// of the other's replaces it; otherwise the move chosen first stays.
    @inlinable
    mutating func choose(_ move: Move, in tree: StateTree) {
        var move = move
        move.domain = Self.domain(of: move, in: tree)
        guard let domain = move.domain else {
            moves.append(move)
            return
        }
        func conflicts(_ other: Move) -> Bool {
            guard let otherDomain = other.domain else { return false }
            return tree.isWithin(domain, otherDomain) || tree.isWithin(otherDomain, domain)
        }
        // Replaces the moves it conflicts with only if it preempts them all.
        for other in moves where conflicts(other) && !tree.isDescendant(move.source, of: other.source) {
            return
        }
        moves.removeAll(where: conflicts)
        moves.append(move)
    }

    // MARK: Exits

    /// Fills ``exits``: the active states below the domains of the chosen
    /// moves, in reverse document order.
    @inlinable
    mutating func planExits(in configuration: Configuration, tree: StateTree) {
        for move in moves {
            guard let domain = move.domain else { continue }
            let start = exits.count
            configuration.appendActiveDescendants(of: domain, in: tree, to: &exits)
            // Moves exit disjoint subtrees; keep the whole list in reverse
            // document order (a few moves, a few states: insertion sort).
            if start > 0 {
                exits.insertionSort { tree.order(of: $0) > tree.order(of: $1) }
            }
        }
    }

    // MARK: Entries

    /// Fills ``entries``: SCXML's entry set for the chosen moves, in document order.
    @inlinable
    mutating func planEntries(in configuration: Configuration, tree: StateTree) {
        for move in moves {
            guard let domain = move.domain else { continue }
            addWithDescendants(move.target, configuration: configuration, tree: tree)
            addAncestors(of: move.target, below: domain, configuration: configuration, tree: tree)
        }
        entries.insertionSort { tree.order(of: $0) < tree.order(of: $1) }
    }

    /// Fills ``entries`` with what entering `state` from outside the machine
    /// enters: the state, its ancestors, and its default descendants.
    @inlinable
    mutating func planInitialEntry(of state: SymbolCode, configuration: Configuration, tree: StateTree) {
        addWithDescendants(state, configuration: configuration, tree: tree)
        addAncestors(of: state, below: .wildcard, configuration: configuration, tree: tree)
        entries.insertionSort { tree.order(of: $0) < tree.order(of: $1) }
    }

    /// SCXML's addDescendantStatesToEnter: `state`, then what entering it by
    /// default enters: a compound state's recorded history if it keeps one,
    /// else its initial child; all of a parallel state's regions.
    @inlinable
    mutating func addWithDescendants(_ state: SymbolCode, configuration: Configuration, tree: StateTree) {
        add(state)
        switch tree.kind(of: state) {
        case .atomic:
            return
        case .compound:
            let recorded = tree.history(of: state) == nil ? [] : configuration.recorded(by: state)
            if recorded.isEmpty {
                addWithDescendants(tree.initialChild(of: state), configuration: configuration, tree: tree)
            } else {
                // All the remembered states first, then their ancestors: a
                // parallel ancestor then finds its regions covered by them.
                for remembered in recorded {
                    addWithDescendants(remembered, configuration: configuration, tree: tree)
                }
                for remembered in recorded {
                    addAncestors(of: remembered, below: state, configuration: configuration, tree: tree)
                }
            }
        case .parallel:
            addUncoveredRegions(of: state, configuration: configuration, tree: tree)
        }
    }

    /// SCXML's addAncestorStatesToEnter: the proper ancestors of `state`
    /// below `ancestor`, with the regions of a parallel one that nothing
    /// entered yet covers.
    @inlinable
    mutating func addAncestors(
        of state: SymbolCode, below ancestor: SymbolCode, configuration: Configuration, tree: StateTree
    ) {
        var current = tree.parent(of: state)
        while current != ancestor, current != .wildcard {
            add(current)
            if tree.kind(of: current) == .parallel {
                addUncoveredRegions(of: current, configuration: configuration, tree: tree)
            }
            current = tree.parent(of: current)
        }
    }

    @inlinable
    mutating func addUncoveredRegions(of state: SymbolCode, configuration: Configuration, tree: StateTree) {
        for region in tree.children(of: state) where !entries.contains(where: { tree.isWithin($0, region) }) {
            addWithDescendants(region, configuration: configuration, tree: tree)
        }
    }

    @inlinable
    mutating func add(_ state: SymbolCode) {
        if !entries.contains(state) {
            entries.append(state)
        }
    }
}
