// Machines nested in other machines, run as one statechart.
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

/// A node's name in one machine of a hierarchy.
@usableFromInline
struct NodeName: Equatable {
    /// The machine: its index among the hierarchy's members (0 is the root).
    @usableFromInline var member: Int
    /// Its code for the node; ``SymbolCode/wildcard`` for the node a machine
    /// is nested in, which stands for the machine's `.any`.
    @usableFromInline var code: SymbolCode

    @inlinable
    init(member: Int, code: SymbolCode) {
        self.member = member
        self.code = code
    }
}

/// A route of one machine of a hierarchy, as a step needs it.
@usableFromInline
struct MemberRoute {
    @usableFromInline var id: RegistrationID
    /// In the machine's codes; ``SymbolCode/wildcard`` for a route to `.any` (stay).
    @usableFromInline var target: SymbolCode
    @usableFromInline var isLocal: Bool

    @inlinable
    init(id: RegistrationID, target: SymbolCode, isLocal: Bool) {
        self.id = id
        self.target = target
        self.isLocal = isLocal
    }
}

/// What a nested machine's handlers are told of a step, in its own codes.
///
/// Plain values only: the step's `userInfo` is lent by address, so handing
/// the facts to each machine copies no existential (a copy of `Any?` costs
/// about a hundred instructions, even when it is `nil`).
@usableFromInline
struct StepFacts {
    /// The root's event, which a machine with the same event type reads.
    @usableFromInline var event: UnsafeRawPointer?
    /// The step's `userInfo`, which the step keeps alive while it is delivered.
    @usableFromInline unowned(unsafe) var userInfo: UserInfoBox?
    /// The machine's state before the step, and after it (for a refusal, the
    /// state asked for).
    @usableFromInline var before: SymbolCode
    @usableFromInline var after: SymbolCode

    @inlinable
    init(event: UnsafeRawPointer?, userInfo: UserInfoBox?, before: SymbolCode, after: SymbolCode) {
        self.event = event
        self.userInfo = userInfo
        self.before = before
        self.after = after
    }
}

/// What a nested machine does for the root that runs it, in the machine's
/// own codes: closures made, specialised for its types, when it was nested.
@usableFromInline
final class MemberAccess {
    /// How many codes the machine has handed out.
    @usableFromInline let count: () -> Int
    /// Whether a code names a value (anonymous codes name none).
    @usableFromInline let isNamed: (SymbolCode) -> Bool
    /// The parent's code for the value of a code, through the enum case the
    /// machine was nested as (interned in the parent); `nil` without one.
    @usableFromInline let nameInParent: ((SymbolCode) -> SymbolCode)?
    /// The machine's code (interned) for the state whose image a parent's
    /// code is, through that enum case; `nil` when it is not one.
    @usableFromInline let claim: ((SymbolCode) -> SymbolCode?)?
    /// A code no value names, for a state of a machine nested in this one.
    @usableFromInline let reserveCode: () -> SymbolCode
    /// Whether the machine's event type is the root's (rather than `NoEvent`).
    @usableFromInline let hasEvents: Bool
    /// The code of the root's event in the machine's tables.
    @usableFromInline let eventCode: (UnsafeRawPointer) -> SymbolCode
    /// The first route of the event on a code (conditions told the
    /// machine's state `current`).
    @usableFromInline let firstEventRoute:
        (
            _ event: UnsafeRawPointer, _ eventCode: SymbolCode, _ on: SymbolCode, _ current: SymbolCode,
            _ userInfo: UserInfoBox?, _ refusal: inout Refusal?
        ) -> MemberRoute?
    /// The first route from a code to a target.
    @usableFromInline let firstStateRoute:
        (
            _ on: SymbolCode, _ target: SymbolCode, _ current: SymbolCode, _ userInfo: UserInfoBox?,
            _ refusal: inout Refusal?
        ) ->
            MemberRoute?
    /// Whether a route of the event on a code leads to a target.
    @usableFromInline let someEventRoute:
        (
            _ event: UnsafeRawPointer, _ eventCode: SymbolCode, _ on: SymbolCode, _ current: SymbolCode,
            _ target: SymbolCode, _ userInfo: UserInfoBox?
        ) -> Bool
    /// The target a route mapping names for the event (`nil`: a state
    /// request) from a state, interned.
    @usableFromInline let mappedTarget:
        (_ event: UnsafeRawPointer?, _ from: SymbolCode, _ userInfo: UserInfoBox?) -> SymbolCode?
    /// Whether a mapping allows a move: for the event, some route mapping
    /// asked with it; for a state request (`nil`), a state route mapping or
    /// some route mapping asked with a `nil` event.
    @usableFromInline let mappingsAllow:
        (_ event: UnsafeRawPointer?, _ from: SymbolCode, _ to: SymbolCode, _ userInfo: UserInfoBox?) -> Bool
    /// Sets the state the machine reports.
    @usableFromInline let setCurrent: (SymbolCode) -> Void
    /// Runs its entry (`true`) or exit handlers of a code.
    @usableFromInline let deliverLifecycle: (_ entering: Bool, _ code: SymbolCode, _ facts: StepFacts) -> Void
    /// Whether it may have handlers of a transition of a kind (and event
    /// code) to run, and whether they match by state, so that they need the
    /// ancestries of ``deliverTransition``.
    @usableFromInline let transitionInterest:
        (_ kind: DeliveryKind, _ eventCode: SymbolCode) -> (hears: Bool, matchesStates: Bool)
    /// Runs its handlers of a transition, given the ancestries of its states
    /// before and after the step (its codes, innermost first, then `.any`).
    @usableFromInline let deliverTransition:
        (
            _ kind: DeliveryKind, _ eventCode: SymbolCode, _ before: ReusableList<SymbolCode>,
            _ after: ReusableList<SymbolCode>, _ facts: StepFacts
        ) -> Void
    /// Runs its error handlers.
    @usableFromInline let deliverError: (StepFacts) -> Void
    /// Names a code, for messages.
    @usableFromInline let describe: (SymbolCode) -> String
    /// Gives the machine its link to a new root.
    @usableFromInline let relink: (NestingLink) -> Void
    /// Makes the machine a machine of its own again, in its last state, with
    /// its own declarations.
    @usableFromInline let detach: (StateTree) -> Void

    @usableFromInline
    init(
        count: @escaping () -> Int, isNamed: @escaping (SymbolCode) -> Bool,
        nameInParent: ((SymbolCode) -> SymbolCode)?, claim: ((SymbolCode) -> SymbolCode?)?,
        reserveCode: @escaping () -> SymbolCode, hasEvents: Bool,
        eventCode: @escaping (UnsafeRawPointer) -> SymbolCode,
        firstEventRoute:
            @escaping (
                UnsafeRawPointer, SymbolCode, SymbolCode, SymbolCode, UserInfoBox?, inout Refusal?
            ) -> MemberRoute?,
        firstStateRoute: @escaping (SymbolCode, SymbolCode, SymbolCode, UserInfoBox?, inout Refusal?) -> MemberRoute?,
        someEventRoute:
            @escaping (UnsafeRawPointer, SymbolCode, SymbolCode, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        mappedTarget: @escaping (UnsafeRawPointer?, SymbolCode, UserInfoBox?) -> SymbolCode?,
        mappingsAllow: @escaping (UnsafeRawPointer?, SymbolCode, SymbolCode, UserInfoBox?) -> Bool,
        setCurrent: @escaping (SymbolCode) -> Void,
        deliverLifecycle: @escaping (Bool, SymbolCode, StepFacts) -> Void,
        transitionInterest: @escaping (DeliveryKind, SymbolCode) -> (hears: Bool, matchesStates: Bool),
        deliverTransition:
            @escaping (
                DeliveryKind, SymbolCode, ReusableList<SymbolCode>, ReusableList<SymbolCode>, StepFacts
            ) -> Void,
        deliverError: @escaping (StepFacts) -> Void, describe: @escaping (SymbolCode) -> String,
        relink: @escaping (NestingLink) -> Void, detach: @escaping (StateTree) -> Void
    ) {
        self.count = count
        self.isNamed = isNamed
        self.nameInParent = nameInParent
        self.claim = claim
        self.reserveCode = reserveCode
        self.hasEvents = hasEvents
        self.eventCode = eventCode
        self.firstEventRoute = firstEventRoute
        self.firstStateRoute = firstStateRoute
        self.someEventRoute = someEventRoute
        self.mappedTarget = mappedTarget
        self.mappingsAllow = mappingsAllow
        self.setCurrent = setCurrent
        self.deliverLifecycle = deliverLifecycle
        self.transitionInterest = transitionInterest
        self.deliverTransition = deliverTransition
        self.deliverError = deliverError
        self.describe = describe
        self.relink = relink
        self.detach = detach
    }
}

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
        @usableFromInline var machine: AnyObject?
        /// The parent's code for the state it is nested in (for the root, `.any`).
        /// Its parent, depth and node are in ``Nesting/memberStates``.
        @usableFromInline var host: SymbolCode
        /// By its codes, the node each names; 0 for none yet. Empty for the
        /// root, whose codes are the nodes.
        @usableFromInline var nodes: [SymbolCode] = []
        /// Codes up to this one have been given nodes where they name values.
        @usableFromInline var synced = 0
        /// Its own declarations, in its codes.
        @usableFromInline var tree: StateTree
        /// The node its part of the chart enters by default: its state when
        /// it was nested.
        @usableFromInline var initialNode: SymbolCode = .wildcard
        /// The members nested directly in it.
        @usableFromInline var children: [Int] = []
        /// The history its parent declared for the state it is nested in,
        /// which is compound only in the composed tree.
        @usableFromInline var hostHistory: HistoryKind?
        /// ``Nesting/defaultState(of:chart:)`` for the tree laid out
        /// `defaultLayouts` times and the names given `defaultNamings` times,
        /// when entering the member by default passes no state that keeps
        /// history (then it depends on the tree and the names alone); `nil`
        /// when not known.
        @usableFromInline var defaultState: SymbolCode?
        @usableFromInline var defaultLayouts: UInt32 = 0
        @usableFromInline var defaultNamings: UInt32 = 0

        @usableFromInline
        init(access: MemberAccess?, machine: AnyObject?, host: SymbolCode, tree: StateTree) {
            self.access = access
            self.machine = machine
            self.host = host
            self.tree = tree
        }
    }

    @exclusivity(unchecked) @usableFromInline var members: [Member]
    /// By member: its closures, unretained (``members`` keeps them, and a
    /// member's access never changes once it is nested), so
    /// that a step calls them without a retain and a release per call.
    @exclusivity(unchecked) @usableFromInline var accesses: [Unmanaged<MemberAccess>?] = [nil]
    /// By node: its names outside the root, innermost machine first. The root
    /// names a node by the node's own code, when the code names a value.
    @exclusivity(unchecked) @usableFromInline var names: [[NodeName]] = [[]]
    /// Whether the statechart's tree must be composed again from every
    /// member's declarations (after a nesting or a declaration).
    @exclusivity(unchecked) @usableFromInline var needsRebuild = true
    /// Root codes up to this one have been offered to the machines nested
    /// through an enum case, which may claim them.
    @exclusivity(unchecked) @usableFromInline var syncedRoot = 0
    /// History that nested machines recorded before they were nested, by node.
    @exclusivity(unchecked) @usableFromInline var carriedHistory: [(SymbolCode, [SymbolCode])] = []

    /// The root's own closures.
    @usableFromInline let rootCount: () -> Int
    @usableFromInline let rootIsNamed: (SymbolCode) -> Bool
    @usableFromInline let reserveRootCode: () -> SymbolCode
    @usableFromInline let rootDescribe: (SymbolCode) -> String

    /// By member: its place in the hierarchy, its state, and what the step in
    /// progress works out for it. Kept in storage of its own, which a step
    /// reads and writes without an array's uniqueness and bounds checks: its
    /// indices are members' (``add(_:machine:parent:host:tree:initial:chart:)``
    /// grows it with ``members``).
    @exclusivity(unchecked) @usableFromInline var memberStates: UnsafeMutablePointer<MemberState>
    @exclusivity(unchecked) @usableFromInline var memberCapacity: Int
    /// The members a step concerns once planned, in the order in which their
    /// handlers of transitions run: deepest first, and in the order they were
    /// nested between members as deep. The first `touchedCount` of storage as
    /// large as ``memberStates``'.
    @exclusivity(unchecked) @usableFromInline var touchedMembers: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) @usableFromInline var touchedCount = 0
    /// By member, then by the root's code of an event: the member's code
    /// of it, ``SymbolCode/unknown`` until it is first asked for.
    @exclusivity(unchecked) @usableFromInline var memberEventCodes: [[SymbolCode]] = [[]]
    @exclusivity(unchecked) @usableFromInline var defaultEntry = StepPlan()
    /// By node: the member that declares it (see ``owner(of:tree:)``), and
    /// whether the root names it; worked out for the tree laid out
    /// `cachedLayouts` times, and again when a name is added.
    @exclusivity(unchecked) @usableFromInline var nodeOwners: [Int32] = []
    @exclusivity(unchecked) @usableFromInline var rootNames: [Bool] = []
    @exclusivity(unchecked) @usableFromInline var cachedLayouts: UInt32 = 0
    @exclusivity(unchecked) @usableFromInline var nodeCacheIsValid = false
    /// How many names were given to nodes: a version of ``names``.
    @exclusivity(unchecked) @usableFromInline var namings: UInt32 = 0

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
        memberCapacity = 4
        memberStates = .allocate(capacity: memberCapacity)
        memberStates.initialize(to: MemberState(parent: -1, depth: 0, current: .wildcard, isActive: true))
        touchedMembers = .allocate(capacity: memberCapacity)
    }

    deinit {
        memberStates.deinitialize(count: members.count)
        memberStates.deallocate()
        touchedMembers.deallocate()
    }

    /// Calls `body` with `member`'s closures (not the root's), unretained.
    @inlinable
    @inline(__always)
    func withAccess<Result>(of member: Int, _ body: (MemberAccess) -> Result) -> Result {
        accesses[member].unsafelyUnwrapped._withUnsafeGuaranteedRef(body)
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
        guard
            !nodeCacheIsValid || cachedLayouts != chart.tree.layouts || nodeOwners.count != chart.tree.nodes.count
        else {
            return
        }
        rebuildNodeCache(tree: chart.tree)
    }

    /// - Complexity: O(*n* · *d*) for *n* nodes *d* deep, once after each change.
    @usableFromInline
    func rebuildNodeCache(tree: StateTree) {
        nodeCacheIsValid = false
        rootNames = (0..<tree.nodes.count).map { $0 != 0 && rootIsNamed(SymbolCode($0)) }
        nodeOwners = (0..<tree.nodes.count).map { Int32(owner(of: SymbolCode($0), tree: tree)) }
        cachedLayouts = tree.layouts
        nodeCacheIsValid = true
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

    /// Whether `member` is `ancestor` or nested, at any depth, inside it.
    @inlinable
    func isMember(_ member: Int, within ancestor: Int) -> Bool {
        var current = member
        while current >= 0 {
            if current == ancestor { return true }
            current = memberStates[current].parent
        }
        return false
    }

    /// The code of `event` in `member`'s tables, given the root's code for
    /// it (``SymbolCode/unknown`` if the root has none): hashed the first
    /// time, then read from a table by the root's code, since no machine
    /// ever takes a code back.
    @inlinable
    func eventCode(in member: Int, event: UnsafeRawPointer, rootCode: SymbolCode) -> SymbolCode {
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
    func learnEventCode(in member: Int, event: UnsafeRawPointer, rootCode: SymbolCode) -> SymbolCode {
        let code = withAccess(of: member) { $0.eventCode(event) }
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
    @usableFromInline
    func add(
        _ access: MemberAccess, machine: AnyObject, parent: Int, host: SymbolCode, tree: StateTree,
        initial: SymbolCode, chart: Statechart
    ) -> Int {
        require(
            !hosts(host, in: parent),
            "\(describe(host, of: parent)) already has a machine nested in it"
        )
        if let nameInParent = access.nameInParent {
            // The parent names the new machine's states through its enum case;
            // a machine nested beside it through the same case would name them too.
            let image = nameInParent(initial)
            for sibling in members[parent].children {
                guard let claim = members[sibling].access?.claim else { continue }
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
        needsRebuild = true
        let index = members.count
        members.append(Member(access: access, machine: machine, host: host, tree: tree))
        members[parent].children.append(index)
        accesses.append(Unmanaged.passUnretained(access))
        if index == memberCapacity {
            memberCapacity *= 2
            memberStates = Self.move(memberStates, count: index, toCapacity: memberCapacity)
            touchedMembers = Self.move(touchedMembers, count: touchedCount, toCapacity: memberCapacity)
        }
        (memberStates + index).initialize(
            to: MemberState(
                parent: parent, depth: memberStates[parent].depth + 1, current: initial, isActive: false))
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
        if let claim = access.claim {
            let known = parent == 0 ? syncedRoot : members[parent].synced
            for code in SymbolCode(1)..<SymbolCode(known + 1) {
                guard let childCode = claim(code) else { continue }
                _ = name(node(of: code, in: parent, chart: chart), as: childCode, of: index, chart: chart)
            }
        }
        members[index].initialNode = node(of: initial, in: index, chart: chart)
        return index
    }

    /// Moves `count` elements into new storage of `capacity`, and frees the old.
    @usableFromInline
    static func move<Element>(
        _ storage: UnsafeMutablePointer<Element>, count: Int, toCapacity capacity: Int
    ) -> UnsafeMutablePointer<Element> {
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        return moved
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

    @usableFromInline
    func setNode(_ node: SymbolCode, of code: SymbolCode, in member: Int) {
        while members[member].nodes.count <= Int(code) {
            members[member].nodes.append(0)
        }
        members[member].nodes[Int(code)] = node
    }

    /// Adds `name` to `node`'s names, after those of deeper machines.
    @usableFromInline
    func addName(_ name: NodeName, to node: SymbolCode) {
        nodeCacheIsValid = false
        namings &+= 1
        while names.count <= Int(node) {
            names.append([])
        }
        let depth = memberStates[name.member].depth
        let position = names[Int(node)].firstIndex { memberStates[$0.member].depth < depth } ?? names[Int(node)].count
        names[Int(node)].insert(name, at: position)
    }

    // MARK: A step

    /// Works out, for the step `plan` holds, which members it concerns (those
    /// whose part of the chart it exits or enters, or whose routes it takes,
    /// and the members they are nested in), and their states before and after.
    @inlinable
    func planDelivery(of plan: inout StepPlan, chart: Statechart) {
        guard hasNestedMachines else {
            // One machine, which the step concerns: its state after it is
            // the innermost state the step leaves active.
            touchedMembers[0] = 0
            touchedCount = 1
            memberStates[0].touched = true
            memberStates[0].before = memberStates[0].current
            memberStates[0].after = chart.innermostState(after: &plan)
            return
        }
        refreshNodeCache(chart: chart)
        for index in 0..<touchedCount {
            memberStates[touchedMembers[index]].touched = false
        }
        touchedCount = 0
        markTouched(0)
        for index in 0..<plan.exits.length {
            markTouched(cachedOwner(of: plan.exits.storage[index]))
        }
        for index in 0..<plan.entries.length {
            markTouched(cachedOwner(of: plan.entries.storage[index]))
        }
        for index in 0..<plan.moves.length {
            markTouched(Int(plan.moves.storage[index].member))
        }
        // The order in which their transition handlers run: deepest first,
        // then in the order they were nested (by index).
        for index in 1..<touchedCount {
            let member = touchedMembers[index]
            let depth = memberStates[member].depth
            var position = index
            while position > 0,
                memberStates[touchedMembers[position - 1]].depth < depth
                    || (memberStates[touchedMembers[position - 1]].depth == depth
                        && touchedMembers[position - 1] > member)
            {
                touchedMembers[position] = touchedMembers[position - 1]
                position -= 1
            }
            touchedMembers[position] = member
        }
        // Without regions, one atomic state is active after the step: the
        // innermost state of each member is found from it.
        let atomicAfter = chart.tree.hasParallel || plan.atomicsAfter.isEmpty ? .unknown : plan.atomicsAfter[0]
        for index in 0..<touchedCount {
            let member = touchedMembers[index]
            let host = memberStates[member].hostNode
            // Without regions, the states active after the step are the
            // one atomic state's ancestors.
            let willBeActive =
                member == 0 || atomicAfter != .unknown
                ? chart.tree.isWithin(atomicAfter, host) : isActive(member, after: &plan, chart: chart)
            memberStates[member].wasActive = isActive(member, in: chart)
            memberStates[member].willBeActive = willBeActive
            memberStates[member].before = memberStates[member].current
            if !willBeActive {
                memberStates[member].after = defaultState(of: member, chart: chart)
            } else if atomicAfter != .unknown {
                let innermost = member == 0 || chart.tree.isDescendant(atomicAfter, of: host) ? atomicAfter : host
                memberStates[member].after = nearestName(from: innermost, in: member, chart: chart)
            } else {
                memberStates[member].after = state(of: member, after: &plan, chart: chart)
            }
        }
    }

    @inlinable
    @inline(__always)
    func markTouched(_ member: Int) {
        var member = member
        while member >= 0, !memberStates[member].touched {
            memberStates[member].touched = true
            touchedMembers[touchedCount] = member
            touchedCount += 1
            member = memberStates[member].parent
        }
    }

    /// Whether `member` will be active once `plan` is applied.
    @inlinable
    func isActive(_ member: Int, after plan: inout StepPlan, chart: Statechart) -> Bool {
        guard member != 0 else { return true }
        let host = memberStates[member].hostNode
        return plan.entries.contains(host) || (chart.configuration.isActive(host) && !plan.exits.contains(host))
    }

    /// Whether a planned step runs `member`'s handlers of transitions: it
    /// concerns the member, which is active before and after it.
    @inlinable
    func hearsTransition(_ member: Int) -> Bool {
        let state = memberStates[member]
        return state.touched && state.wasActive && state.willBeActive
    }

    /// What `member`'s handlers are told of the planned step.
    @inlinable
    func facts(of member: Int, event: UnsafeRawPointer?, userInfo: UserInfoBox?) -> StepFacts {
        StepFacts(
            event: event, userInfo: userInfo, before: memberStates[member].before, after: memberStates[member].after)
    }

    /// Records the states of the members the step concerned, once applied.
    @inlinable
    func commitStates() {
        for index in 0..<touchedCount {
            let member = touchedMembers[index]
            let state = memberStates[member].after
            // The machine reports its state already when it stays in it.
            guard state != memberStates[member].current else { continue }
            memberStates[member].current = state
            if member != 0 {
                withAccess(of: member) { $0.setCurrent(state) }
            }
        }
    }

    /// `member`'s state once `plan` is applied, in its codes.
    @inlinable
    func state(of member: Int, after plan: inout StepPlan, chart: Statechart) -> SymbolCode {
        guard isActive(member, after: &plan, chart: chart) else {
            return defaultState(of: member, chart: chart)
        }
        let host = memberStates[member].hostNode
        let innermost = chart.innermostState(after: &plan, within: host)
        return nearestName(from: innermost, in: member, chart: chart)
    }

    /// `member`'s state now, in its codes.
    @usableFromInline
    func state(of member: Int, chart: Statechart) -> SymbolCode {
        guard isActive(member, in: chart) else {
            return defaultState(of: member, chart: chart)
        }
        let innermost = chart.innermostActiveState(within: memberStates[member].hostNode)
        return nearestName(from: innermost, in: member, chart: chart)
    }

    /// The state entering `member` by default would give it: its initial
    /// state, or what its history recorded.
    @inlinable
    func defaultState(of member: Int, chart: Statechart) -> SymbolCode {
        if let known = members[member].defaultState, members[member].defaultLayouts == chart.tree.layouts,
            members[member].defaultNamings == namings
        {
            return known
        }
        return workOutDefaultState(of: member, chart: chart)
    }

    @usableFromInline
    func workOutDefaultState(of member: Int, chart: Statechart) -> SymbolCode {
        defaultEntry.reset()
        chart.addWithDescendants(memberStates[member].hostNode, to: &defaultEntry)
        var innermost = SymbolCode.unknown
        var keepsHistory = false
        for index in 0..<defaultEntry.entries.length {
            let entry = defaultEntry.entries.storage[index]
            keepsHistory = keepsHistory || chart.tree.history(of: entry) != nil
            guard chart.tree.kind(of: entry) == .atomic else { continue }
            if innermost == .unknown {
                innermost = entry
            } else {
                while !chart.tree.isWithin(entry, innermost) {
                    innermost = chart.tree.parent(of: innermost)
                }
            }
        }
        let state = nearestName(from: innermost, in: member, chart: chart)
        members[member].defaultState = keepsHistory ? nil : state
        members[member].defaultLayouts = chart.tree.layouts
        members[member].defaultNamings = namings
        return state
    }

    /// `code`, a state of `member`, and its ancestors inside the member,
    /// innermost first, then `.any`: what its handlers of transitions match.
    @inlinable
    func appendAncestry(
        of code: SymbolCode, in member: Int, to list: inout ReusableList<SymbolCode>, chart: Statechart
    ) {
        list.removeAll()
        let host = memberStates[member].hostNode
        var node = self.node(of: code, in: member, chart: chart)
        while node != host, node != .wildcard, node != .unknown {
            let name = self.code(of: node, in: member)
            if name != .unknown {
                list.append(name)
            }
            node = chart.tree.parent(of: node)
        }
        list.append(.wildcard)
    }

    // MARK: Giving codes their nodes

    /// Offers the root's new codes to the machines nested in it through an
    /// enum case: a code of `.subMachine1(x)` names `x`'s node.
    @usableFromInline
    func syncRoot(chart: Statechart) {
        let count = rootCount()
        guard syncedRoot < count else { return }
        let first = syncedRoot + 1
        syncedRoot = count
        nodeCacheIsValid = false
        var placed = false
        for code in SymbolCode(first)...SymbolCode(count) where rootIsNamed(code) {
            placed = offer(code, of: 0, node: code, chart: chart) || placed
        }
        if placed, !needsRebuild {
            chart.tree.layOut()
        }
    }

    /// Gives a node to each code `member` handed out since the last sync.
    @usableFromInline
    func sync(_ member: Int, chart: Statechart) {
        let access = members[member].access.unsafelyUnwrapped
        let count = access.count()
        guard members[member].synced < count else { return }
        let first = members[member].synced + 1
        members[member].synced = count
        var placed = false
        for code in SymbolCode(first)...SymbolCode(count) where access.isNamed(code) {
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
    @usableFromInline
    func assign(_ code: SymbolCode, of member: Int, chart: Statechart) -> Bool {
        if Int(code) < members[member].nodes.count, members[member].nodes[Int(code)] != 0 {
            return false
        }
        let access = members[member].access.unsafelyUnwrapped
        let node: SymbolCode
        if let nameInParent = access.nameInParent {
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

    /// Records that `member` names `node` with `code`, places the node in
    /// the tree if the member declares it, and offers the code to the
    /// machines nested in the member through an enum case.
    @usableFromInline
    func name(_ node: SymbolCode, as code: SymbolCode, of member: Int, chart: Statechart) -> Bool {
        setNode(node, of: code, in: member)
        addName(NodeName(member: member, code: code), to: node)
        var placed = false
        if !needsRebuild, owner(of: node) == member {
            placeSubtree(code, of: member, under: memberStates[member].hostNode, in: &chart.tree)
            placed = true
        }
        return offer(code, of: member, node: node, chart: chart) || placed
    }

    /// Lets each machine nested in `member` through an enum case claim
    /// `code` when its value is that case's image of one of its states.
    @usableFromInline
    func offer(_ code: SymbolCode, of member: Int, node: SymbolCode, chart: Statechart) -> Bool {
        var placed = false
        for child in members[member].children {
            guard let claim = members[child].access.unsafelyUnwrapped.claim, let childCode = claim(code) else {
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
    @usableFromInline
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
    @usableFromInline
    func placeSubtree(_ code: SymbolCode, of member: Int, under parent: SymbolCode, in tree: inout StateTree) {
        let node = members[member].nodes[Int(code)]
        let isHost = members[member].access?.isNamed(code) == false
        guard isHost || owner(of: node) == member else { return }
        attach(node, to: parent, in: &tree, describe: { self.describe(node) })
        guard !isHost else { return }
        let declared = members[member].tree
        let kind = declared.kind(of: code)
        guard kind != .atomic else { return }
        tree.nodes[Int(node)].kind = kind
        tree.nodes[Int(node)].history = declared.history(of: code)
        let initial = declared.nodes[Int(code)].initial
        if initial != .wildcard {
            tree.nodes[Int(node)].initial = members[member].nodes[Int(initial)]
        }
        for child in declared.children(of: code) where members[member].nodes[Int(child)] != 0 {
            placeSubtree(child, of: member, under: node, in: &tree)
        }
    }

    /// Makes `node` a child of `parent`.
    @usableFromInline
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
    @usableFromInline
    func code(nameOf node: SymbolCode, in member: Int) -> SymbolCode? {
        guard Int(node) < names.count else { return nil }
        return names[Int(node)].first { $0.member == member && $0.code != .wildcard }?.code
    }

    /// `member`'s state `code`, for messages.
    @usableFromInline
    func describe(_ code: SymbolCode, of member: Int) -> String {
        member == 0 ? rootDescribe(code) : members[member].access!.describe(code)
    }

    /// A node's name, for messages: in the innermost machine that names it.
    @usableFromInline
    func describe(_ node: SymbolCode) -> String {
        if Int(node) < names.count, let name = names[Int(node)].first(where: { $0.code != .wildcard }) {
            return members[name.member].access.unsafelyUnwrapped.describe(name.code)
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
