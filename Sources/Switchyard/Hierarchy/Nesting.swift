// Machines nested in other machines, run as one statechart; a statechart on
// one machine is the hierarchy with one member, the root.
//
// The trees of the nested machines are grafted into the root machine's
// statechart, each under the state it is nested in, so that the SCXML rules of
// a single statechart decide every step and no machine keeps a state of its
// own that could drift from the others'. The nodes of that statechart are the
// root's state codes: a nested state the root can name (through the enum cases
// the machines were nested as, `MainState.subMachine1(.subState1)`) is the
// root's code for that value; one it cannot name gets a code with no value.
//
// Every machine keeps its own routes and handlers, on its own codes. A node
// has a name in each machine that can name it; a step asks them innermost
// machine first, so an event is offered to the innermost machine first and
// bubbles outwards, and runs their handlers in SPEC 3.2's order.

/// The machines of a hierarchy, the names of its statechart's nodes, and the
/// per-step facts the root computes; kept by the root machine.
@usableFromInline
final class Nesting {
    /// One machine of the hierarchy.
    @usableFromInline
    struct Member {
        /// `nil` for the root, which runs its own routes and handlers.
        @usableFromInline let access: MemberAccess?
        /// The machine, kept alive by its root; `nil` for the root.
        var machine: AnyObject?
        /// The parent's code for the state it is nested in (for the root, `.any`).
        /// Its parent, depth and node are in ``Nesting/memberStates``.
        var host: SymbolCode
        /// By its codes, the node each names; 0 for none yet. Empty for the
        /// root, whose codes are the nodes.
        @usableFromInline var nodes: [SymbolCode] = []
        /// Codes up to this one have been given nodes where they name values.
        var synced = 0
        /// Nested through an enum case: by a transient code it handed back,
        /// the node it named (a code of the parent), kept for the next state
        /// the code names (see ``Nesting/releaseTransientCodes(of:chart:)``).
        var spareNodes: [SymbolCode: SymbolCode] = [:]
        /// Its own declarations, in its codes. The root's are the
        /// statechart's tree itself until a machine is nested in the
        /// hierarchy (there is nothing to compose till then); the first
        /// nesting copies them here, and from then on the statechart's tree is
        /// composed from every member's.
        var tree: StateTree
        /// The node its part of the chart enters by default: its state when
        /// it was nested.
        var initialNode: SymbolCode = .wildcard
        /// The members nested directly in it.
        var children: [Int] = []
        /// The history its parent declared for the state it is nested in,
        /// which is compound only in the composed tree.
        @usableFromInline var hostHistory: HistoryKind?
        /// ``Nesting/defaultState(of:chart:after:)``, worked out for the
        /// hierarchy's version `defaultVersion`, when entering the member by
        /// default passes no state that keeps history (then it depends on the
        /// tree and the names alone); `nil` when not known.
        @usableFromInline var defaultState: SymbolCode?
        @usableFromInline var defaultVersion: CacheVersion?

        init(access: MemberAccess?, machine: AnyObject?, host: SymbolCode, tree: StateTree) {
            self.access = access
            self.machine = machine
            self.host = host
            self.tree = tree
        }
    }

    @usableFromInline
    @exclusivity(unchecked) var members: [Member]
    /// By member: its closures, unretained (``members`` keeps them, and a
    /// member's access never changes once it is nested), so
    /// that a step calls them without a retain and a release per call.
    @usableFromInline
    @exclusivity(unchecked) var accesses: [Unretained<MemberAccess>?] = [nil]
    /// By node: its names outside the root, innermost machine first. The root
    /// names a node by the node's own code, when the code names a value.
    @usableFromInline
    @exclusivity(unchecked) var names: [[NodeName]] = [[]]
    /// Whether the statechart's tree must be composed again from every
    /// member's declarations (after a nesting or a declaration).
    @usableFromInline
    @exclusivity(unchecked) var needsRebuild = true
    /// Root codes up to this one have been offered to the machines nested
    /// through an enum case, which may claim them.
    @usableFromInline
    @exclusivity(unchecked) var syncedRoot = 0
    /// Whether some nested machine may have eventless routes, or done
    /// routes (the root's own are counted by its route table): set when a
    /// machine that has some is nested or a nested machine adds one
    /// (``noteMemberRoutes(reservedEvent:)``, the one place), never cleared.
    /// A hierarchy whose members never had any asks them nothing for a
    /// macrostep; one whose member disposed its last asks a member that
    /// answers at once.
    @usableFromInline
    @exclusivity(unchecked) var membersHaveEventlessRoutes = false
    @usableFromInline
    @exclusivity(unchecked) var membersHaveDoneRoutes = false
    /// History that nested machines recorded before they were nested, by node.
    @usableFromInline
    @exclusivity(unchecked) var carriedHistory: [(SymbolCode, [SymbolCode])] = []

    /// The root's own closures.
    let rootCount: () -> Int
    @usableFromInline let rootIsNamed: (SymbolCode) -> Bool
    let reserveRootCode: () -> SymbolCode
    let rootDescribe: (SymbolCode) -> String

    /// By member: its place in the hierarchy, its state, and what the step in
    /// progress works out for it, read and written in place by a step: its
    /// indices are members' (``add(_:machine:parent:host:tree:initial:chart:)``
    /// grows it with ``members``).
    @usableFromInline
    @exclusivity(unchecked) var memberStates = ReusableList<MemberState>()
    /// The members a step concerns once planned, in the order in which their
    /// handlers of transitions run: deepest first, and in the order they were
    /// nested between members as deep. Room for every member is kept.
    @usableFromInline
    @exclusivity(unchecked) var touchedMembers = ReusableList<Int>()
    /// By member, then by the root's code of an event: the member's code
    /// of it, ``SymbolCode/unknown`` until it is first asked for.
    @usableFromInline
    @exclusivity(unchecked) var memberEventCodes: [[SymbolCode]] = [[]]
    @exclusivity(unchecked) var defaultEntry = StepPlan()
    /// By node: the member that declares it (see ``owner(of:tree:)``), and
    /// whether the root names it; worked out for the hierarchy's version
    /// `nodeCacheVersion` (`nil` before the first time).
    @usableFromInline
    @exclusivity(unchecked) var nodeOwners: [Int32] = []
    @usableFromInline
    @exclusivity(unchecked) var rootNames: [Bool] = []
    @usableFromInline
    @exclusivity(unchecked) var nodeCacheVersion: CacheVersion?
    /// How many times nodes were given names (or the root new codes): with
    /// the tree's layouts, the hierarchy's ``version(of:)``.
    @usableFromInline
    @exclusivity(unchecked) var namings: UInt32 = 0

    /// What every cache of a hierarchy is worked out from: the tree (laid out
    /// `layouts` times) and the nodes' names (given `namings` times). Each
    /// cache keeps the version it was worked out for, and is worked out again
    /// when the hierarchy's differs; nothing else invalidates one.
    @usableFromInline
    struct CacheVersion: Equatable {
        @usableFromInline var layouts: UInt32
        @usableFromInline var namings: UInt32

        @inlinable
        init(layouts: UInt32, namings: UInt32) {
            self.layouts = layouts
            self.namings = namings
        }
    }

    /// The hierarchy's version now, for its caches.
    @inlinable
    func version(of chart: Statechart) -> CacheVersion {
        CacheVersion(layouts: chart.tree.layouts, namings: namings)
    }

    @usableFromInline
    init(
        rootTree: StateTree, rootCount: @escaping () -> Int, rootIsNamed: @escaping (SymbolCode) -> Bool,
        reserveRootCode: @escaping () -> SymbolCode, rootDescribe: @escaping (SymbolCode) -> String
    ) {
        self.members = [Member(access: nil, machine: nil, host: .wildcard, tree: rootTree)]
        self.rootCount = rootCount
        self.rootIsNamed = rootIsNamed
        self.reserveRootCode = reserveRootCode
        self.rootDescribe = rootDescribe
        memberStates.append(MemberState(parent: -1, depth: 0, current: .wildcard, isActive: true))
        touchedMembers.reserveCapacity(memberStates.capacity)
    }

    /// Calls `body` with `member`'s closures (not the root's), unretained.
    @inlinable
    @inline(__always)
    func withAccess<Result>(of member: Int, _ body: (MemberAccess) -> Result) -> Result {
        accesses[member]!.withObject(body)
    }

    /// Whether some nested machine may have routes under the reserved code
    /// `eventCode` (eventless or done; see ``membersHaveEventlessRoutes``).
    @inlinable
    func membersMayHaveRoutes(reservedEvent eventCode: SymbolCode) -> Bool {
        eventCode == .eventless ? membersHaveEventlessRoutes : membersHaveDoneRoutes
    }

    /// Records that a nested machine has routes under the reserved code
    /// `eventCode` (eventless or done).
    @usableFromInline
    func noteMemberRoutes(reservedEvent eventCode: SymbolCode) {
        if eventCode == .eventless {
            membersHaveEventlessRoutes = true
        } else {
            membersHaveDoneRoutes = true
        }
    }

    // MARK: Names

    /// Whether `member`'s root (the node it is nested in) is active; the
    /// root machine always is.
    @inlinable
    func isActive(_ member: Int, in chart: Statechart) -> Bool {
        member == 0 || chart.configuration.isActive(memberStates[member].hostNode)
    }

    /// `member`'s code for `node`; ``SymbolCode/unknown`` if it cannot name
    /// it (and for the node it is nested in).
    @inlinable
    func code(of node: SymbolCode, in member: Int) -> SymbolCode {
        if member == 0 {
            return node == .wildcard ? .wildcard : isNamedByRoot(node) ? node : .unknown
        }
        guard Int(node) < names.count else { return .unknown }
        for name in names[Int(node)] where name.member == member && name.code != .wildcard {
            return name.code
        }
        return .unknown
    }

    /// The node `member`'s `code` names (its root for `.any`), giving nodes
    /// to the codes it handed out since the last time; ``SymbolCode/unknown``
    /// for an unknown code.
    @inlinable
    func node(of code: SymbolCode, in member: Int, chart: Statechart) -> SymbolCode {
        if code == .wildcard {
            return memberStates[member].hostNode
        }
        guard code != .unknown else { return .unknown }
        if member == 0 {
            if Int(code) > syncedRoot {
                syncRoot(chart: chart)
            }
            return code
        }
        if Int(code) < members[member].nodes.count, members[member].nodes[Int(code)] != 0 {
            return members[member].nodes[Int(code)]
        }
        if let node = reuseSpareNode(of: code, in: member, chart: chart) {
            return node
        }
        sync(member, chart: chart)
        return Int(code) < members[member].nodes.count && members[member].nodes[Int(code)] != 0
            ? members[member].nodes[Int(code)] : .unknown
    }

    /// The nearest node, from `node` up, that `member` can name, and its
    /// code there (``SymbolCode/wildcard`` at the member's root).
    @inlinable
    func nearestName(from node: SymbolCode, in member: Int, chart: Statechart) -> SymbolCode {
        let root = memberStates[member].hostNode
        var current = node
        while current != root, current != .wildcard {
            let code = code(of: current, in: member)
            if code != .unknown {
                return code
            }
            current = chart.tree.parent(of: current)
        }
        return .wildcard
    }

    /// Whether machines are nested in the root: without them, the
    /// hierarchy is one machine's statechart, whose nodes are its codes.
    @inlinable
    var hasNestedMachines: Bool {
        members.count > 1
    }

    /// Whether the root names `node` (a code of the root that is not anonymous).
    @inlinable
    func isNamedByRoot(_ node: SymbolCode) -> Bool {
        guard hasNestedMachines else { return true }
        return Int(node) < rootNames.count ? rootNames[Int(node)] : rootIsNamed(node)
    }

    /// Works out ``nodeOwners`` and ``rootNames`` again if the tree or the
    /// names changed since they were.
    @inlinable
    @inline(__always)
    func refreshNodeCache(chart: Statechart) {
        guard nodeCacheVersion != version(of: chart) || nodeOwners.count != chart.tree.nodes.count else {
            return
        }
        rebuildNodeCache(chart: chart)
    }

    /// - Complexity: O(*n* · *d*) for *n* nodes *d* deep, once after each change.
    @usableFromInline
    func rebuildNodeCache(chart: Statechart) {
        let tree = chart.tree
        rootNames = (0..<tree.nodes.count).map { $0 != 0 && rootIsNamed(SymbolCode($0)) }
        nodeOwners = (0..<tree.nodes.count).map { Int32(owner(of: SymbolCode($0), tree: tree)) }
        nodeCacheVersion = version(of: chart)
    }

    /// The member that declares `node` (a node of the tree the cache was
    /// worked out for), from the cache.
    @inlinable
    func cachedOwner(of node: SymbolCode) -> Int {
        Int(nodeOwners[Int(node)])
    }

    /// The member that declares `node`, or whose root it is nested under.
    @inlinable
    func owner(of node: SymbolCode, tree: StateTree) -> Int {
        var current = node
        while current != .wildcard {
            if Int(current) < names.count {
                for name in names[Int(current)] where name.code != .wildcard {
                    return name.member
                }
            }
            if isNamedByRoot(current) {
                return 0
            }
            current = tree.parent(of: current)
        }
        return 0
    }

    /// The code of `event` in `member`'s tables, given the root's code for
    /// it (``SymbolCode/unknown`` if the root has none): hashed the first
    /// time, then read from a table by the root's code, since no machine
    /// ever takes a code back.
    @inlinable
    func eventCode(in member: Int, event: BorrowedEvent, rootCode: SymbolCode) -> SymbolCode {
        let index = Int(rootCode)
        if rootCode.isConcrete, index < memberEventCodes[member].count {
            let cached = memberEventCodes[member][index]
            if cached != .unknown {
                return cached
            }
        }
        return learnEventCode(in: member, event: event, rootCode: rootCode)
    }

    @usableFromInline
    func learnEventCode(in member: Int, event: BorrowedEvent, rootCode: SymbolCode) -> SymbolCode {
        let code = withAccess(of: member) { $0.routes.eventCode(event) }
        // An event the machine does not know yet may get a code later.
        guard rootCode.isConcrete, code != .unknown else { return code }
        let index = Int(rootCode)
        if memberEventCodes[member].count <= index {
            memberEventCodes[member].append(
                contentsOf: repeatElement(.unknown, count: index + 1 - memberEventCodes[member].count))
        }
        memberEventCodes[member][index] = code
        return code
    }
}
