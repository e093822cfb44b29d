// The hierarchy's tree: nodes given to the codes the machines hand out, and
// the statechart composed from every machine's declarations.

extension Nesting {
    // MARK: Giving codes their nodes

    /// Offers the root's new codes to the machines nested in it through an
    /// enum case: a code of `.subMachine1(x)` names `x`'s node.
    @usableFromInline
    func syncRoot(chart: Statechart) {
        let count = rootCount()
        guard syncedRoot < count else { return }
        let first = syncedRoot + 1
        syncedRoot = count
        namings &+= 1
        var placed = false
        for code in SymbolCode(first)...SymbolCode(count) where rootIsNamed(code) {
            placed = offer(code, of: 0, node: code, chart: chart) || placed
        }
        // The root's codes are nodes too: a state first named after the
        // tree was composed (by a route added later) needs its place.
        if chart.tree.nodes.count <= count {
            chart.tree.grow(toHold: SymbolCode(count))
            placed = true
        }
        if placed, !needsRebuild {
            chart.tree.layOut()
        }
    }

    /// Gives a node to each code `member` handed out since the last sync.
    @usableFromInline
    func sync(_ member: Int, chart: Statechart) {
        let access = members[member].access!
        let count = access.naming.count()
        guard members[member].synced < count else { return }
        let first = members[member].synced + 1
        members[member].synced = count
        var placed = false
        for code in SymbolCode(first)...SymbolCode(count) where access.naming.isNamed(code) {
            placed = assign(code, of: member, chart: chart) || placed
        }
        if placed, !needsRebuild {
            chart.tree.layOut()
        }
    }

    /// Gives `member`'s `code` its node: its parent's for its image through
    /// the enum case it was nested as, else a new anonymous one. Returns
    /// whether it placed a node in the chart's tree.
    @discardableResult
    func assign(_ code: SymbolCode, of member: Int, chart: Statechart) -> Bool {
        if Int(code) < members[member].nodes.count, members[member].nodes[Int(code)] != 0 {
            return false
        }
        let access = members[member].access!
        let node: SymbolCode
        if let nameInParent = access.naming.nameInParent {
            let parent = memberStates[member].parent
            node = self.node(of: nameInParent(code), in: parent, chart: chart)
            // The parent's sync may have had this machine claim the code.
            if Int(code) < members[member].nodes.count, members[member].nodes[Int(code)] != 0 {
                return false
            }
        } else {
            node = reserveRootCode()
        }
        return name(node, as: code, of: member, chart: chart)
    }

    /// Records that `member` names `node` with `code`, offers the code to the
    /// machines nested in the member through an enum case, and places the
    /// node in the tree if the member declares it (none of those claimed it)
    /// and its declared parent is placed.
    func name(_ node: SymbolCode, as code: SymbolCode, of member: Int, chart: Statechart) -> Bool {
        setNode(node, of: code, in: member)
        addName(NodeName(member: member, code: code), to: node)
        // Offered first: a machine nested through an enum case that claims
        // the code names the node more deeply, and so places it itself.
        let offered = offer(code, of: member, node: node, chart: chart)
        guard !needsRebuild, owner(of: node) == member, let parent = placedParent(of: code, in: member) else {
            return offered
        }
        placeSubtree(code, of: member, under: parent, in: &chart.tree)
        return true
    }

    /// The node `member`'s `code` goes under in the tree: the node of its
    /// declared parent, or the node the member is nested in for a top-level
    /// state; `nil` while its declared parent has no node yet (a parent
    /// declared after its child gets its code later), which then places it
    /// with itself.
    func placedParent(of code: SymbolCode, in member: Int) -> SymbolCode? {
        let declaredParent = members[member].tree.parent(of: code)
        guard declaredParent != .wildcard else { return memberStates[member].hostNode }
        let nodes = members[member].nodes
        guard Int(declaredParent) < nodes.count, nodes[Int(declaredParent)] != 0 else { return nil }
        return nodes[Int(declaredParent)]
    }

    /// Lets each machine nested in `member` through an enum case claim
    /// `code` when its value is that case's image of one of its states.
    func offer(_ code: SymbolCode, of member: Int, node: SymbolCode, chart: Statechart) -> Bool {
        var placed = false
        for child in members[member].children {
            guard let claim = members[child].access!.naming.claim, let childCode = claim(code) else {
                continue
            }
            if Int(childCode) < members[child].nodes.count, members[child].nodes[Int(childCode)] != 0 {
                continue
            }
            placed = name(node, as: childCode, of: child, chart: chart) || placed
        }
        return placed
    }

    /// The member whose declarations place `node`: the deepest that names it.
    func owner(of node: SymbolCode) -> Int? {
        guard Int(node) < names.count else { return nil }
        return names[Int(node)].first { $0.code != .wildcard }?.member
    }

    // MARK: Composing the tree

    /// Composes the statechart's tree: the root's declarations, and each
    /// nested machine's under the node it is nested in.
    ///
    /// - Complexity: O(*n*) in the states of all the machines.
    @usableFromInline
    func rebuild(chart: Statechart) {
        needsRebuild = true
        syncRoot(chart: chart)
        for member in members.indices.dropFirst() {
            sync(member, chart: chart)
        }
        var tree = members[0].tree
        tree.grow(toHold: SymbolCode(Swift.max(names.count, rootCount() + 1) - 1))
        for member in members.indices.dropFirst() {
            let host = memberStates[member].hostNode
            let nodes = members[member].nodes
            // Top-level states, declared or not, then what each declares inside.
            for code in nodes.indices.dropFirst()
            where nodes[code] != 0 && members[member].tree.parent(of: SymbolCode(code)) == .wildcard {
                placeSubtree(SymbolCode(code), of: member, under: host, in: &tree)
            }
            tree.nodes[Int(host)].initial = members[member].initialNode
            if let kind = members[member].hostHistory {
                tree.nodes[Int(host)].history = kind
            }
        }
        // Counted on from the old tree's layouts, so that what was worked out
        // from the old tree is not taken for current.
        tree.layouts = chart.tree.layouts
        tree.isLaidOut = false
        tree.layOut()
        chart.tree = tree
        needsRebuild = false
    }

    /// Places `member`'s `code` under `parent`, with its kind, history and
    /// initial state, then what the member declares inside it; a node a
    /// deeper machine names is that machine's to place.
    func placeSubtree(_ code: SymbolCode, of member: Int, under parent: SymbolCode, in tree: inout StateTree) {
        let node = members[member].nodes[Int(code)]
        let isHost = members[member].access?.naming.isNamed(code) == false
        guard isHost || owner(of: node) == member else { return }
        attach(node, to: parent, in: &tree, describe: { self.describe(node) })
        guard !isHost else { return }
        let declared = members[member].tree
        if declared.isFinal(code) {
            tree.nodes[Int(node)].isFinal = true
            tree.hasFinalStates = true
        }
        let kind = declared.kind(of: code)
        guard kind != .atomic else { return }
        tree.nodes[Int(node)].kind = kind
        tree.nodes[Int(node)].history = declared.history(of: code)
        let initial = declared.nodes[Int(code)].initial
        if initial != .wildcard {
            tree.nodes[Int(node)].initial = members[member].nodes[Int(initial)]
        }
        let fallback = declared.nodes[Int(code)].historyDefault
        if fallback != .wildcard {
            tree.nodes[Int(node)].historyDefault = members[member].nodes[Int(fallback)]
        }
        for child in declared.children(of: code) where members[member].nodes[Int(child)] != 0 {
            placeSubtree(child, of: member, under: node, in: &tree)
        }
    }

    /// Makes `node` a child of `parent`.
    func attach(_ node: SymbolCode, to parent: SymbolCode, in tree: inout StateTree, describe: () -> String) {
        tree.grow(toHold: Swift.max(node, parent))
        let existing = tree.nodes[Int(node)].parent
        guard existing != parent else { return }
        require(
            existing == .wildcard,
            "\(describe()) is a state of a nested machine, and the machine it is nested in declares it elsewhere in its tree; declare it in the nested machine only"
        )
        tree.nodes[Int(node)].parent = parent
        tree.children[Int(parent)].append(node)
        if tree.nodes[Int(parent)].kind == .atomic {
            tree.nodes[Int(parent)].kind = .compound
        }
        tree.hasChildren = true
        tree.isLaidOut = false
    }

    /// `member`'s code for `node`, if it names it.
    func code(nameOf node: SymbolCode, in member: Int) -> SymbolCode? {
        guard Int(node) < names.count else { return nil }
        return names[Int(node)].first { $0.member == member && $0.code != .wildcard }?.code
    }

    /// `member`'s state `code`, for messages.
    @usableFromInline
    func describe(_ code: SymbolCode, of member: Int) -> String {
        member == 0 ? rootDescribe(code) : members[member].access!.naming.describe(code)
    }

    /// A node's name, for messages: in the innermost machine that names it.
    func describe(_ node: SymbolCode) -> String {
        if Int(node) < names.count, let name = names[Int(node)].first(where: { $0.code != .wildcard }) {
            return members[name.member].access!.naming.describe(name.code)
        }
        if rootIsNamed(node) {
            return rootDescribe(node)
        }
        let hostsMachine = Int(node) < names.count && names[Int(node)].contains { $0.code == .wildcard }
        return hostsMachine ? "the state a nested machine runs in" : "a state of a nested machine"
    }

    /// Gives the states that nested machines recorded history for before
    /// they were nested that history again.
    @usableFromInline
    func apply(history: [(SymbolCode, [SymbolCode])], to chart: Statechart) {
        for (node, recorded) in history where chart.tree.history(of: node) != nil {
            chart.configuration.grow(toHold: node)
            chart.configuration.recorded[Int(node)] = recorded
        }
    }
}
