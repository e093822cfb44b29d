// Nesting machines: a machine built on its own runs under a state of another,
// as one statechart with one configuration (see `Nesting.swift` for how).

extension Machine {
    // MARK: Nesting

    /// Nests `child` in this machine: under `state`, as the enum case `embed`, or both.
    ///
    /// ```swift
    /// enum Main: StateType { case idle, sub1(Sub), sub2(Sub) }
    /// enum Sub: StateType { case s0, s1 }
    ///
    /// let sub1 = Machine<Sub, NoEvent>(state: .s0) { $0.addRoute(.s0 => .s1) }
    /// let main = Machine<Main, NoEvent>(state: .idle) { main in
    ///     main.addRoute(.idle => .sub1(.s0))
    /// }
    /// main.nest(sub1, as: Main.sub1)
    ///
    /// main <- .sub1(.s0)
    /// sub1 <- .s1
    /// print(main.state)  // sub1(Sub.s1)
    /// ```
    ///
    /// From then on the two machines are parts of one statechart, whose root
    /// is the outermost machine: `child`'s states are states inside `state`
    /// (or inside the cases `embed` makes), and there is one configuration
    /// for the whole hierarchy, so no machine's state can drift from
    /// another's. Each machine keeps its routes and handlers:
    ///
    /// - An event sent to any machine of the hierarchy is offered to the
    ///   innermost active machine first and bubbles outwards: `child`'s routes
    ///   from its state, from its ancestors, from its `.any`, then this
    ///   machine's routes from the state `child` is nested in, and so on up.
    /// - Sending an event to, or asking a state of, `child` moves the whole
    ///   hierarchy. While the state `child` is nested in is not active, the
    ///   request is refused (``TransitionError/Reason/inactive``) and `child`'s
    ///   error handlers run.
    /// - Entering the state enters `child` at its state at the time it was
    ///   nested (or at its history, if the state keeps one); leaving it exits
    ///   `child`'s states first. Exit handlers run innermost machine first,
    ///   entry handlers outermost machine first; each machine's handlers are
    ///   told its own states.
    /// - While it is not active, `child` reports as its `state` the state that
    ///   entering it would give it.
    ///
    /// With `embed`, this machine names each of `child`'s states as
    /// `embed(state)`: its `state` reads `.sub1(.s1)`, and its own routes may
    /// lead to `.sub1(.s1)` directly.
    ///
    /// Nest a machine before the hierarchy begins (see ``start()``), or under
    /// a state that is not active.
    ///
    /// - Parameters:
    ///   - child: A machine whose event type is this machine's or ``NoEvent``.
    ///     It must not be nested already, contain this machine, or be
    ///     deciding or taking a statechart step (from a condition or handler
    ///     that its step runs).
    ///   - host: The state to nest `child` under. It may not have declared
    ///     children or regions, or another nested machine. Without it, the
    ///     cases of `embed` are nested under a state of their own that only
    ///     the hierarchy can see.
    ///   - embed: The enum case with an associated value of `child`'s state
    ///     type, such as `Main.sub1`, that names `child`'s states here.
    /// - Precondition: Each rule above; a broken one stops the program with a
    ///   message that names it.
    @inlinable
    public func nest<C: StateType, CE: EventType>(
        _ child: Machine<C, CE>, under host: S? = nil, as embed: ((C) -> S)? = nil
    ) {
        require(
            host != nil || embed != nil,
            "nest(_:under:as:) needs the state to nest the machine under, the enum case to nest it as, or both")
        require(
            CE.self == E.self || CE.self == NoEvent.self,
            "a nested machine's events must be its parent's (\(E.self)) or NoEvent; this one's are \(CE.self)")
        require(child !== self, "a machine cannot be nested in itself")
        require(
            child.nestingLink == nil,
            "this Machine<\(C.self), \(CE.self)> is already nested in another machine; a machine can be nested in one place only"
        )
        // A statechart's step uses its chart and hierarchy unretained until
        // it ends; a flat machine's request lends neither.
        require(
            child.chart == nil || (!child.isStepping && child.decisionDepth == 0),
            "a machine cannot be nested while it, or a machine nested in it, decides or takes a step (from code the step runs); nest it once the request has returned"
        )
        require(
            rootIdentity != ObjectIdentifier(child),
            "cannot nest a machine in a machine nested inside it: the hierarchy would be a cycle")
        if let host {
            require(
                routes.code(of: host) == .unknown || declaredTree.kind(of: routes.code(of: host)) == .atomic,
                "\(host) has declared children or regions; a machine can only be nested under a state without them")
        }
        if let embed {
            requireEmbedding(embed, of: child)
        }
        let current = self.state
        if let embed, let payload = Self.payload(of: current, as: C.self), embed(payload) == current {
            require(
                !hierarchyHasBegun,
                "this machine is in \(current), a state of the machine being nested; once the hierarchy has begun, nest a machine only while its states are not active"
            )
            require(
                payload == child.state,
                "this machine is in \(current), but the machine being nested is in \(child.state); nest it in the state it is in"
            )
        }
        ensureChart()
        // Codes handed out for computed states are kept from now on: the
        // hierarchy gives them nodes, and may offer them to nested machines.
        routes.keepTransientCodes()
        let hostCode = host.map(internedCode(of:)) ?? routes.uniqueStorage.states.reserveAnonymousCode()
        // The closures the hierarchy reaches the two machines through are
        // made here, specialised for their types: made inside the library,
        // they ran unspecialised, and `nested-machines` cost 23,842
        // instructions per step instead of 3,560.
        let access = child.makeMemberAccess(parent: self, embed: embed)
        let nested = child.prepareForNesting(member: memberIndex, host: hostCode, access: access)
        if let link = nestingLink {
            _ = link.addMember(nested)
        } else {
            _ = addNestedMember(nested, linking: makeLink(member:))
        }
    }

    /// Stops the program unless `embed` names each state `child` knows as
    /// a case that carries that state, such as `Parent.child(state)`: the
    /// hierarchy tells the nested machine's states from this machine's own
    /// by that case, and an embedding such as `{ $0 }` would take this
    /// machine's own states for the nested machine's.
    @usableFromInline
    func requireEmbedding<C: StateType, CE: EventType>(_ embed: (C) -> S, of child: Machine<C, CE>) {
        let states = child.routes.storage.states
        // The stored state, not `state`: a check should change nothing, and
        // reading `state` prepares the child's chart. (Once, a machine
        // nested after that read lost its nested machines' history; see
        // `prepareForNesting`.)
        var known = [child.currentState, child.initialState]
        for index in 0..<states.count {
            if let state = states.name(of: SymbolCode(index + 1)) {
                known.append(state)
            }
        }
        for state in known {
            let named = embed(state)
            require(
                Self.payload(of: named, as: C.self) == state,
                "nest(_:under:as:) names the nested machine's state \(state) as \(named), which is not an enum case "
                    + "carrying \(state): the hierarchy could not tell this machine's own states from the nested one's. "
                    + "Pass an enum case with an associated value of \(C.self), such as `Parent.child`")
        }
    }

    /// The identity of the outermost machine of this machine's hierarchy:
    /// its own unless nested.
    @usableFromInline var rootIdentity: ObjectIdentifier {
        nestingLink?.root ?? ObjectIdentifier(self)
    }

    /// This machine's index among its root's members; 0 for a root.
    @usableFromInline var memberIndex: Int {
        nestingLink?.member ?? 0
    }

    /// Whether the hierarchy this machine belongs to has begun.
    @usableFromInline var hierarchyHasBegun: Bool {
        if let link = nestingLink {
            return link.hasBegun()
        }
        return chart?.hasBegun ?? false
    }

    /// The machine's own declarations: its statechart's tree, except for the
    /// root of a hierarchy, whose statechart holds the nested machines' too.
    @usableFromInline var declaredTree: StateTree {
        guard let nesting, nesting.hasNestedMachines else { return chart?.tree ?? StateTree() }
        return nesting.members[0].tree
    }

    /// The associated value of `value`, an enum case, if it is a `C`; for
    /// telling whether a parent's state is the image of a nested state.
    @inlinable
    static func payload<C>(of value: S, as type: C.Type) -> C? {
        guard let child = Mirror(reflecting: value).children.first else { return nil }
        if let payload = child.value as? C {
            return payload
        }
        // A labelled associated value, `case sub(state: Sub)`, reflects as a one-element tuple.
        let tuple = Mirror(reflecting: child.value)
        guard tuple.displayStyle == .tuple, tuple.children.count == 1 else { return nil }
        return tuple.children.first?.value as? C
    }

    /// Makes this machine, whose statechart is new, the root of a hierarchy
    /// of one machine.
    @inlinable
    func beginNesting() {
        // The machine keeps its hierarchy, which uses it unretained.
        let machine = Unretained(self)
        let nesting = Nesting(
            rootTree: StateTree(),
            rootCount: { machine.withObject { $0.routes.storage.states.count } },
            rootIsNamed: { code in machine.withObject { $0.routes.storage.states.name(of: code) != nil } },
            reserveRootCode: { machine.withObject { $0.routes.uniqueStorage.states.reserveAnonymousCode() } },
            rootDescribe: { code in machine.withObject { $0.name(of: code) } })
        nesting.memberStates[0].current = internedCode(of: currentState)
        self.nesting = nesting
    }

    /// Hands this machine, about to be nested in a machine whose member it
    /// becomes a part of, to its new root: `access`, the closures it is
    /// reached through, its declarations, its state and history, and the
    /// machines nested in it already.
    // Declaration-time work, not inlined into clients.
    @usableFromInline
    func prepareForNesting(member: Int, host: SymbolCode, access: MemberAccess) -> NestedMachine {
        let tree = declaredTree
        routes.keepTransientCodes()
        // Until it begins, a machine with a statechart is in its initial
        // state, whose default descendants `state` reports; nested, it enters
        // that state, with its history.
        let initial = internedCode(of: chart?.hasBegun == false ? initialState : state)
        // The machines nested in it already, if any, come along.
        let hierarchy = nesting.flatMap { $0.hasNestedMachines ? $0 : nil }
        var history: [(SymbolCode, [SymbolCode])] = []
        var chartHistory: [(SymbolCode, [SymbolCode])] = []
        if let chart {
            for (code, recorded) in chart.configuration.recorded.enumerated() where !recorded.isEmpty {
                if hierarchy == nil {
                    history.append((SymbolCode(code), recorded))
                } else {
                    chartHistory.append((SymbolCode(code), recorded))
                }
            }
        }
        // What each machine nested in it already enters by default once
        // carried: where it is if the hierarchy has begun and it is active,
        // as this machine is nested at its state; else where it was nested.
        // Not its state alone: until the hierarchy begins, that is the
        // default descendant a read of `state` laid out, and while the
        // machine is inactive, what its history gives now; entered directly,
        // either skips the history of the states above it for good.
        var carriedInitials: [SymbolCode] = []
        if let hierarchy, let chart {
            carriedInitials = hierarchy.members.indices.map { member in
                let current = hierarchy.memberStates[member].current
                guard !(chart.hasBegun && hierarchy.isActive(member, in: chart)) else { return current }
                return hierarchy.code(nameOf: hierarchy.members[member].initialNode, in: member) ?? current
            }
        }
        ensureChart()
        // A nested machine's own statechart keeps only its declarations; the
        // configuration is the root's, which `prepareChart` asks for, and the
        // hierarchy is the root's too.
        nesting = nil
        // Counted on from the chart's layouts, as a composed tree is (see
        // `Nesting.rebuild(chart:)`), so that what the chart worked out from the
        // tree it had (default entries, steps) is not taken for current.
        var ownTree = tree
        ownTree.layouts = chart!.tree.layouts
        ownTree.isLaidOut = false
        chart!.tree = ownTree
        chart!.initialConfigurationLayout = nil
        return NestedMachine(
            access: access, machine: self, parent: member, host: host,
            tree: tree, initial: initial, history: history, nesting: hierarchy, carriedInitials: carriedInitials,
            chartHistory: chartHistory)
    }

    // MARK: The root's side

    /// Adds a machine to this root's hierarchy, with the machines nested in
    /// it already, and returns its link; `newLink` makes each member's link
    /// (``makeLink(member:)``, specialised where the caller knows this
    /// machine's types).
    // Declaration-time work, not inlined into clients.
    @usableFromInline
    func addNestedMember(_ nested: NestedMachine, linking newLink: (Int) -> NestingLink) -> NestingLink {
        let nesting = self.nesting!
        let chart = self.chart!
        let index = nesting.add(
            nested.access, machine: nested.machine, parent: nested.parent, host: nested.host, tree: nested.tree,
            initial: nested.initial, chart: chart)
        let link = newLink(index)
        nested.access.relink(link)
        var carried: [(SymbolCode, [SymbolCode])] = []
        func node(_ code: SymbolCode, in member: Int) -> SymbolCode {
            nesting.node(of: code, in: member, chart: chart)
        }
        for (code, recorded) in nested.history {
            carried.append((node(code, in: index), recorded.map { node($0, in: index) }))
        }
        if let old = nested.nesting {
            // The machines nested in it come along, parents first.
            var newIndex = [index]
            for member in old.members.indices.dropFirst() {
                let taken = old.members[member]
                let state = old.memberStates[member]
                let added = nesting.add(
                    taken.access!, machine: taken.machine!, parent: newIndex[state.parent], host: taken.host,
                    tree: taken.tree, initial: nested.carriedInitials[member], chart: chart)
                nesting.members[added].hostHistory = taken.hostHistory
                newIndex.append(added)
                taken.access!.relink(newLink(added))
            }
            func translate(_ oldNode: SymbolCode) -> SymbolCode? {
                if nested.access.naming.isNamed(oldNode) {
                    return node(oldNode, in: index)
                }
                guard let owner = old.owner(of: oldNode), let code = old.code(nameOf: oldNode, in: owner) else {
                    return nil
                }
                return node(code, in: newIndex[owner])
            }
            for (oldNode, recorded) in nested.chartHistory {
                if let state = translate(oldNode) {
                    carried.append((state, recorded.compactMap(translate)))
                }
            }
        }
        nesting.carriedHistory += carried
        // Laid out again: before the hierarchy begins, its configuration is
        // built again with the new machine (see `needsInitialConfiguration`).
        chart.tree.isLaidOut = false
        if chart.hasBegun {
            prepareChart()
            nesting.apply(history: carried, to: chart)
        }
        return link
    }

    /// The link through which the machine nested as `member` reaches this root.
    ///
    /// The root outlives its links (see ``NestingLink``): they use it unretained.
    @inlinable
    func makeLink(member: Int) -> NestingLink {
        let root = Unretained(self)
        return NestingLink(
            member: member, root: ObjectIdentifier(self),
            request: { member, request, userInfo in
                // Held for the request, which lends the root's chart and
                // hierarchy to its step unretained: a handler of the step may
                // let go of the last other reference to the root.
                let root = root.withObject { $0 }
                return root.takeStep(member: member, request, userInfo: userInfo)
            },
            prepare: { root.withObject { $0.prepareChart() } },
            stateAfterEvent: { member, event, userInfo in
                root.withObject { root in
                    root.answer(
                        .nested(member: member, event: event.load(as: E.self), from: 0, to: .unknown),
                        unanswerable: nil
                    ) { root.stateAfterStep(member: member, event: event, userInfo: userInfo) }
                }
            },
            canTakeStep: { member, target, userInfo in
                root.withObject { root in
                    root.answer(.nested(member: member, event: nil, from: 0, to: target), unanswerable: false) {
                        root.canTakeStep(member: member, target: target, userInfo: userInfo)
                    }
                }
            },
            hasEventRoute: { member, event, from, to, userInfo in
                root.withObject { root in
                    root.answer(
                        .nested(member: member, event: event.load(as: E.self), from: from, to: to),
                        unanswerable: false
                    ) { root.hasRoute(member: member, event: event, from: from, to: to, userInfo: userInfo) }
                }
            },
            hasStateRoute: { member, from, to, userInfo in
                root.withObject { root in
                    root.answer(.nested(member: member, event: nil, from: from, to: to), unanswerable: false) {
                        root.hasRoute(member: member, event: nil, from: from, to: to, userInfo: userInfo)
                    }
                }
            },
            activeCodes: { member in root.withObject { $0.activeCodes(of: member) } },
            isActive: { member, code in root.withObject { $0.isActive(code, in: member) } },
            recordedHistory: { member, code in root.withObject { $0.recordedHistory(of: code, in: member) } },
            declare: { member, children, parent, kind, initial in
                root.withObject {
                    $0.declareNested(member: member, children: children, parent: parent, kind: kind, initial: initial)
                }
            },
            setHistory: { member, kind, code, fallback in
                root.withObject { $0.setNestedHistory(member: member, kind: kind, code: code, default: fallback) }
            },
            setFinal: { member, code in root.withObject { $0.declareFinal(code, of: member) } },
            kind: { member, code in root.withObject { $0.composedKind(of: code, in: member) } },
            noteRoutes: { eventCode in root.withObject { $0.nesting!.noteMemberRoutes(reservedEvent: eventCode) } },
            addMember: { nested in root.withObject { $0.addNestedMember(nested, linking: $0.makeLink(member:)) } },
            hasBegun: { root.withObject { $0.chart!.hasBegun } },
            isBusy: { root.withObject { $0.isStepping || $0.decisionDepth > 0 } },
            isFinished: { root.withObject { $0.chart!.isFinished } },
            takeEventlessSteps: { root.withObject { $0.takeEventlessSteps() } },
            nestedParts: { member in root.withObject { $0.nestedParts(of: member) } },
            releaseTransientCodes: { member in root.withObject { $0.releaseTransientCodes(of: member) } })
    }

    /// Whether `member`'s state `code` is active.
    @usableFromInline
    func isActive(_ code: SymbolCode, in member: Int) -> Bool {
        prepareChart()
        let node = nesting!.node(of: code, in: member, chart: chart!)
        return node != .unknown && chart!.configuration.isActive(node)
    }
}
