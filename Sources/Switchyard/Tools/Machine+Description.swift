// Describing a machine: read from the engine's own tables (the route table,
// the handler table, the statechart's tree, the hierarchy), never from a
// model kept beside them.

extension Machine {
    /// Describes the machine's structure as it is now: its states and their
    /// tree, its events, routes, route mappings, handler counts and the
    /// machines nested in it.
    ///
    /// ```swift
    /// let description = player.describe()
    /// print(description.state(.active)?.initial == .playing)  // true
    /// print(description.mermaid())
    /// ```
    ///
    /// Route mappings are closures: when the state type (and, for a mapping
    /// of events, the event type) is `CaseIterable`, each is asked about
    /// every state and event, with no user info, to list the moves it allows
    /// (see ``MachineDescription/RouteMapping/moves``). A mapping asked so
    /// may not make requests of the machine: they are refused, as from inside
    /// a decision.
    ///
    /// - Returns: The description, a value that does not change when the machine does.
    /// - Precondition: Not called from a condition, route mapping or handler
    ///   while the machine is deciding or taking a step.
    /// - Complexity: O(*n* log *n*) in the routes, states and handlers (O(*n*)
    ///   when few routes were removed), plus, for `CaseIterable` types, one
    ///   call of each route mapping per state and event.
    public func describe() -> MachineDescription<S, E> {
        require(
            decisionDepth == 0 && !isStepping,
            "describe() was called while the machine was deciding or taking a step; describe it before or after")
        let parts = nestedParts()
        let tree = declaredTree
        let symbols = routes.storage.states
        var stateCodes: [SymbolCode] = []
        let aliased = Set(parts.flatMap { $0.aliases.map(\.code) })
        let initialCode = symbols.code(of: initialState)
        if initialCode == .unknown {
            stateCodes.append(.unknown)
        }
        for code in SymbolCode(1)..<SymbolCode(symbols.count + 1)
        where symbols.name(of: code) != nil && !aliased.contains(code) {
            stateCodes.append(code)
        }
        let states = stateCodes.map { code in
            code == .unknown
                ? MachineDescription.State(
                    state: initialState, kind: .atomic, parent: nil, children: [], initial: nil, history: nil,
                    historyDefault: nil, isFinal: false)
                : describeState(code, in: tree)
        }
        let nested = parts.map { part in
            // Every member of a hierarchy is a Machine, which is describable.
            guard let machine = part.machine as? any DescribableMachine else {
                preconditionFailure("Switchyard: a machine nested in \(Self.self) cannot be described")
            }
            return MachineDescription<S, E>.NestedMachine(
                host: symbols.name(of: part.host) ?? nil,
                statesNamedHere: part.aliases.map { value(of: $0.code) },
                machine: machine.erasedDescription(), aliases: part.aliases)
        }
        return MachineDescription(
            initialState: initialState, states: states, stateCodes: stateCodes,
            events: routes.storage.events.values.compactMap { $0 }, routes: describeRoutes(),
            routeMappings: describeRouteMappings(), handlerCounts: countHandlers(), handlers: describeHandlers(),
            nestedMachines: nested)
    }

    /// The description of the state of `code`, which names one, in `tree`.
    func describeState(_ code: SymbolCode, in tree: StateTree) -> MachineDescription<S, E>.State {
        let symbols = routes.storage.states
        func name(_ code: SymbolCode) -> S? {
            code == .wildcard ? nil : symbols.name(of: code) ?? nil
        }
        let kind: MachineDescription<S, E>.State.Kind
        switch tree.kind(of: code) {
        case .atomic: kind = .atomic
        case .compound: kind = .compound
        case .parallel: kind = .parallel
        }
        let children = tree.children(of: code)
        let declaredInitial = Int(code) < tree.nodes.count ? tree.nodes[Int(code)].initial : .wildcard
        let historyDefault = Int(code) < tree.nodes.count ? tree.nodes[Int(code)].historyDefault : .wildcard
        return MachineDescription.State(
            state: value(of: code), kind: kind, parent: name(tree.parent(of: code)),
            children: children.compactMap(name),
            initial: kind == .compound ? name(declaredInitial) ?? children.first.flatMap(name) : nil,
            history: tree.history(of: code), historyDefault: name(historyDefault), isFinal: tree.isFinal(code))
    }

    /// The routes, in registration order.
    func describeRoutes() -> [MachineDescription<S, E>.Route] {
        let storage = routes.storage
        var ids: [RegistrationID] = []
        var found: [MachineDescription<S, E>.Route] = []
        ids.reserveCapacity(storage.eventEntries.nodes.count + storage.stateEntries.nodes.count)
        found.reserveCapacity(ids.capacity)
        for (node, slot) in storage.eventEntries.nodes.enumerated() {
            guard let entry = slot.element else { continue }
            let keys = storage.eventNodeKeys[node]
            let trigger: MachineDescription<S, E>.Route.Trigger
            switch keys.event {
            case .wildcard: trigger = .anyEvent
            case .eventless: trigger = .eventless
            case .done: trigger = .done
            default: trigger = .event(storage.events.value(of: keys.event))
            }
            ids.append(entry.id)
            found.append(describeRoute(entry, trigger: trigger, sourceCode: keys.from))
        }
        for (node, slot) in storage.stateEntries.nodes.enumerated() {
            guard let entry = slot.element else { continue }
            ids.append(entry.id)
            found.append(describeRoute(entry, trigger: .state, sourceCode: storage.stateNodeSources[node]))
        }
        return inRegistrationOrder(found, ids: ids)
    }

    func describeRoute(
        _ entry: RouteTable<S, E>.Entry, trigger: MachineDescription<S, E>.Route.Trigger, sourceCode: SymbolCode
    ) -> MachineDescription<S, E>.Route {
        let symbols = routes.storage.states
        let guarded = entry.guarded
        return MachineDescription.Route(
            trigger: trigger, source: sourceCode == .wildcard ? nil : symbols.value(of: sourceCode),
            listedSources: guarded?.sources, target: entry.target, listedTargets: guarded?.targets,
            alsoEntering: guarded?.otherTargets.map { symbols.value(of: $0) } ?? [],
            isConditional: guarded?.hasCondition ?? false, hasAction: (guarded?.action ?? -1) >= 0,
            isLocal: guarded?.isLocal ?? false, ignoresHistory: guarded?.ignoresHistory ?? false,
            isTimed: timers[entry.id] != nil)
    }

    /// The route mappings, in registration order, with their moves listed
    /// when the types allow it.
    func describeRouteMappings() -> [MachineDescription<S, E>.RouteMapping] {
        let storage = routes.storage
        let allStates = Self.allCases(of: S.self)
        let allEvents = Self.allCases(of: E.self)
        // A mapping that makes a request is refused, as inside a decision.
        decisionDepth += 1
        defer { decisionDepth -= 1 }
        var mappings: [(id: RegistrationID, mapping: MachineDescription<S, E>.RouteMapping)] = []
        var node = storage.routeMappingChain.head
        while node >= 0 {
            let id = storage.routeMappings[node].id
            var moves: [MachineDescription<S, E>.RouteMapping.Move]?
            if let allStates, let allEvents {
                moves = []
                for source in allStates {
                    for event in allEvents.map(Optional.some) + [nil] {
                        if let target = storage.routeMappingTarget(at: node, event: event, from: source, userInfo: nil)
                        {
                            moves!.append(.init(event: event, source: source, target: target))
                        }
                    }
                }
            }
            mappings.append((id, .init(kind: .event, moves: moves)))
            node = storage.routeMappings.next(after: node)
        }
        node = storage.stateRouteMappingChain.head
        while node >= 0 {
            let id = storage.stateRouteMappings[node].id
            let moves = allStates.map { states in
                states.flatMap { source in
                    (storage.stateRouteMappingTargets(at: node, from: source, userInfo: nil) ?? []).map {
                        MachineDescription<S, E>.RouteMapping.Move(event: nil, source: source, target: $0)
                    }
                }
            }
            mappings.append((id, .init(kind: .state, moves: moves)))
            node = storage.stateRouteMappings.next(after: node)
        }
        mappings.sort { $0.id < $1.id }
        return mappings.map(\.mapping)
    }

    /// Every value of `type`, in declaration order, if it is `CaseIterable`.
    static func allCases<T>(of type: T.Type) -> [T]? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        func cases<C: CaseIterable>(_ type: C.Type) -> [T] {
            type.allCases.map { $0 as! T }
        }
        return cases(iterable)
    }

    func countHandlers() -> MachineDescription<S, E>.HandlerCounts {
        var counts = [Int](repeating: 0, count: 7)
        handlers.storage.entries.forEachElement { entry in
            switch entry.slot {
            case .event: counts[0] += 1
            case .state: counts[1] += 1
            case .any: counts[2] += 1
            case .error: counts[3] += 1
            case .entry: counts[4] += 1
            case .exit: counts[5] += 1
            case .action: counts[6] += 1
            }
        }
        return .init(
            event: counts[0], state: counts[1], any: counts[2], error: counts[3], entry: counts[4], exit: counts[5],
            action: counts[6])
    }

    /// The handlers, in registration order, with the states and events they
    /// were registered for.
    func describeHandlers() -> [MachineDescription<S, E>.Handler] {
        let storage = routes.storage
        func state(_ code: SymbolCode) -> S? {
            code == .wildcard ? nil : storage.states.name(of: code) ?? nil
        }
        var ids: [RegistrationID] = []
        var found: [MachineDescription<S, E>.Handler] = []
        handlers.storage.entries.forEachElement { entry in
            let kind: MachineDescription<S, E>.Handler.Kind
            switch entry.slot {
            case .event(let code): kind = .event(code == .wildcard ? nil : storage.events.name(of: code) ?? nil)
            case .state(let from, let to): kind = .transition(from: state(from), to: state(to))
            case .any(let from, let to): kind = .anyTransition(from: state(from), to: state(to))
            case .error: kind = .error
            case .entry(let code): kind = .entry(value(of: code))
            case .exit(let code): kind = .exit(value(of: code))
            case .action: kind = .action
            }
            ids.append(entry.id)
            found.append(.init(kind: kind, order: HandlerOrder(truncatingIfNeeded: entry.sortKey >> 56)))
        }
        return inRegistrationOrder(found, ids: ids)
    }

    /// The machines nested directly in this one, asked of the root of its
    /// hierarchy, which keeps them.
    func nestedParts() -> [NestedPart] {
        if let link = nestingLink {
            return link.nestedParts(link.member)
        }
        return nestedParts(of: 0)
    }

    /// The machines nested directly in `member` of this root's hierarchy,
    /// and the states of `member` that name their states.
    @usableFromInline
    func nestedParts(of member: Int) -> [NestedPart] {
        guard let nesting, nesting.hasNestedMachines, let chart else { return [] }
        prepareChart()
        var parts: [NestedPart] = []
        var partOfMember: [Int: Int] = [:]
        for child in nesting.members[member].children {
            partOfMember[child] = parts.count
            parts.append(
                NestedPart(host: nesting.members[child].host, machine: nesting.members[child].machine!, aliases: []))
        }
        let count = member == 0 ? routes.storage.states.count : nesting.members[member].access!.naming.count()
        for code in SymbolCode(1)..<SymbolCode(count + 1) {
            let isNamed =
                member == 0
                ? routes.storage.states.name(of: code) != nil : nesting.members[member].access!.naming.isNamed(code)
            guard isNamed else { continue }
            let node = nesting.node(of: code, in: member, chart: chart)
            guard node != .unknown, let owner = nesting.owner(of: node), let part = partOfMember[owner],
                let nestedCode = nesting.code(nameOf: node, in: owner)
            else { continue }
            parts[part].aliases.append((code, nestedCode))
        }
        return parts
    }
}

/// `items` in the order of `ids`, one each, by position.
///
/// Table nodes are mostly in registration order already (removed ones are
/// reused), so this is usually one pass over the ids. Otherwise it sorts the
/// positions, not the items: this code is not specialised for the machine's
/// types, and moving their values in a sort costs far more than sorting integers.
func inRegistrationOrder<T>(_ items: [T], ids: [RegistrationID]) -> [T] {
    var isSorted = true
    for position in ids.indices.dropFirst() where ids[position - 1] > ids[position] {
        isSorted = false
        break
    }
    guard !isSorted else { return items }
    let order = ids.indices.sorted { ids[$0] < ids[$1] }
    var sorted: [T] = []
    sorted.reserveCapacity(items.count)
    for position in order {
        sorted.append(items[position])
    }
    return sorted
}

/// A machine nested directly in another, as the root of their hierarchy
/// sees it: the state it is nested under and the states of the machine it is
/// nested in that name its states, in those machines' codes.
@usableFromInline
struct NestedPart {
    var host: SymbolCode
    var machine: AnyObject
    var aliases: [(code: SymbolCode, nestedCode: SymbolCode)]
}

/// A machine whose description can be asked for without knowing its types:
/// how a machine describes the machines nested in it.
protocol DescribableMachine: AnyObject {
    func erasedDescription() -> AnyMachineDescription
}

extension Machine: DescribableMachine {
    func erasedDescription() -> AnyMachineDescription {
        AnyMachineDescription(describe())
    }
}
