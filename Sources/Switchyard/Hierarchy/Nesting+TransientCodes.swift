// Codes a hierarchy hands back: states only a step, a request or a
// question named (a route mapping's computed target, most often), which the
// hierarchy must not keep for ever (see `Symbols`). A nested machine's are
// released here with the nodes they named; the root's own, which it releases
// itself, are checked here against the machines nested in it
// (`isNamedByMember`) and named again (`nameAgain`).

extension Nesting {
    /// Hands back `member`'s transient codes that nothing in the chart
    /// holds: neither active nor recorded in a history. Each keeps the node
    /// it named, for the next state the code names: the node of a machine's
    /// top-level state that no declaration names sits under the node the
    /// machine is nested in, whatever state it stands for, so the tree does
    /// not change. Through an enum case, that node is the parent's code for
    /// the image, which the parent forgets till the code names a state again.
    ///
    /// A machine that others are nested in, or that is nested through an
    /// enum case in a machine that is itself nested, keeps its codes: others
    /// name its states.
    ///
    /// - Complexity: O(*t* · *d*) for *t* transient codes (a few) *d* deep.
    func releaseTransientCodes(of member: Int, chart: Statechart) {
        let naming = members[member].access!.naming
        let mayHandBack =
            members[member].children.isEmpty && (naming.nameInParent == nil || memberStates[member].parent == 0)
        for code in naming.transientCodes() {
            guard mayHandBack else {
                _ = naming.handBack(code, true, 0)
                continue
            }
            // Read in place: a copy of the array held past the write below
            // would be copied again, whole, for each code handed back.
            let node = Int(code) < members[member].nodes.count ? members[member].nodes[Int(code)] : 0
            if node != 0, isHeld(node, chart: chart) || memberStates[member].current == code {
                continue
            }
            let isImage = node != 0 && naming.nameInParent != nil
            if naming.handBack(code, false, isImage ? node : 0), isImage {
                members[member].nodes[Int(code)] = 0
                members[member].spareNodes[code] = node
            }
        }
    }

    /// Has the hierarchy take the root's `code`, handed back and now naming
    /// another state, as named by the root (what the node cache worked out
    /// while it named none no longer holds), and offers it to the machines
    /// nested in the root through an enum case, as ``syncRoot(chart:)``
    /// offers a new one.
    func nameAgain(_ code: SymbolCode, chart: Statechart) {
        if Int(code) < rootNames.count {
            rootNames[Int(code)] = true
        }
        if offer(code, of: 0, node: code, chart: chart), !needsRebuild {
            chart.tree.layOut()
        }
    }

    /// Whether a nested machine names the root's `code`.
    func isNamedByMember(_ code: SymbolCode) -> Bool {
        Int(code) < names.count && !names[Int(code)].isEmpty
    }

    /// Whether the chart holds `node`: it is active, or a history recorded it.
    func isHeld(_ node: SymbolCode, chart: Statechart) -> Bool {
        guard !chart.configuration.isActive(node) else { return true }
        var ancestor = chart.tree.parent(of: node)
        while true {
            if chart.configuration.recorded(by: ancestor).contains(node) {
                return true
            }
            guard ancestor != .wildcard else { return false }
            ancestor = chart.tree.parent(of: ancestor)
        }
    }

    /// The node `member`'s `code` named before the code was handed back,
    /// named again (in the parent) for the code's new state; `nil` if the
    /// code has no such node.
    @usableFromInline
    func reuseSpareNode(of code: SymbolCode, in member: Int, chart: Statechart) -> SymbolCode? {
        guard !members[member].spareNodes.isEmpty,
            let node = members[member].spareNodes.removeValue(forKey: code)
        else { return nil }
        // A name the parent gave since it last offered its codes may be
        // this state's image: then the code names that node instead.
        syncRoot(chart: chart)
        if Int(code) < members[member].nodes.count, members[member].nodes[Int(code)] != 0 {
            names[Int(node)].removeAll { $0 == NodeName(member: member, code: code) }
            return members[member].nodes[Int(code)]
        }
        members[member].access!.naming.renameInParent!(node, code)
        members[member].nodes[Int(code)] = node
        return node
    }
}
