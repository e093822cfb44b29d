// Adding machines to a hierarchy: each nested under a state of its parent,
// its codes given the nodes they name.

extension Nesting {
    // MARK: Adding members

    /// Adds a machine nested under `parent`'s state `host`, and returns its index.
    ///
    /// - Parameters:
    ///   - access: The machine's closures.
    ///   - machine: The machine, which the root keeps alive.
    ///   - parent: The member it is nested in.
    ///   - host: The parent's code for the state it is nested in; an
    ///     anonymous code of the parent for an enum case alone.
    ///   - tree: Its declarations, in its codes.
    ///   - initial: Its code for its state now: what it enters by default.
    ///   - chart: The root's statechart.
    /// - Returns: The new member's index.
    func add(
        _ access: MemberAccess, machine: AnyObject, parent: Int, host: SymbolCode, tree: StateTree,
        initial: SymbolCode, chart: Statechart
    ) -> Int {
        require(
            !hosts(host, in: parent),
            "\(describe(host, of: parent)) already has a machine nested in it"
        )
        if let nameInParent = access.naming.nameInParent {
            // The parent names the new machine's states through its enum case;
            // a machine nested beside it through the same case would name them too.
            let image = nameInParent(initial)
            for sibling in members[parent].children {
                guard let claim = members[sibling].access?.naming.claim else { continue }
                require(
                    claim(image) == nil,
                    "another machine is already nested as the enum case of \(describe(image, of: parent)); two machines nested in one machine need an enum case each"
                )
            }
        }
        let existingHost = node(of: host, in: parent, chart: chart)
        require(
            !(chart.hasBegun && existingHost != .unknown && chart.configuration.isActive(existingHost)),
            "\(describe(existingHost)) is active; once the hierarchy has begun, a machine can only be nested under a state that is not active"
        )
        if !hasNestedMachines {
            // The root's declarations so far are the statechart's tree; from
            // now on the tree is composed from each machine's.
            members[0].tree = chart.tree
        }
        needsRebuild = true
        let index = members.count
        members.append(Member(access: access, machine: machine, host: host, tree: tree))
        members[parent].children.append(index)
        accesses.append(Unretained(access))
        memberStates.append(
            MemberState(parent: parent, depth: memberStates[parent].depth + 1, current: initial, isActive: false))
        touchedMembers.reserveCapacity(memberStates.capacity)
        memberEventCodes.append([])
        // The node it is nested in: the parent's state, or a node of its own
        // for a parent's anonymous code.
        var hostNode = node(of: host, in: parent, chart: chart)
        if hostNode == .unknown {
            hostNode = reserveRootCode()
            setNode(hostNode, of: host, in: parent)
        }
        memberStates[index].hostNode = hostNode
        addName(NodeName(member: index, code: .wildcard), to: hostNode)
        // The parent's codes so far may be images of the new machine's states.
        if let claim = access.naming.claim {
            let known = parent == 0 ? syncedRoot : members[parent].synced
            for code in SymbolCode(1)..<SymbolCode(known + 1) {
                guard let childCode = claim(code) else { continue }
                _ = name(node(of: code, in: parent, chart: chart), as: childCode, of: index, chart: chart)
            }
        }
        members[index].initialNode = node(of: initial, in: index, chart: chart)
        for eventCode in [SymbolCode.eventless, .done] where access.routes.hasRoutes(eventCode) {
            noteMemberRoutes(reservedEvent: eventCode)
        }
        return index
    }

    /// Whether a machine is nested in `member`'s state `code`.
    @usableFromInline
    func hosts(_ code: SymbolCode, in member: Int) -> Bool {
        self.member(nestedIn: code, of: member) != nil
    }

    /// The member nested in `member`'s state `code`, if any.
    @usableFromInline
    func member(nestedIn code: SymbolCode, of member: Int) -> Int? {
        members[member].children.first { members[$0].host == code }
    }

    func setNode(_ node: SymbolCode, of code: SymbolCode, in member: Int) {
        while members[member].nodes.count <= Int(code) {
            members[member].nodes.append(0)
        }
        members[member].nodes[Int(code)] = node
    }

    /// Adds `name` to `node`'s names, after those of deeper machines.
    func addName(_ name: NodeName, to node: SymbolCode) {
        namings &+= 1
        while names.count <= Int(node) {
            names.append([])
        }
        let depth = memberStates[name.member].depth
        let position = names[Int(node)].firstIndex { memberStates[$0.member].depth < depth } ?? names[Int(node)].count
        names[Int(node)].insert(name, at: position)
    }
}
