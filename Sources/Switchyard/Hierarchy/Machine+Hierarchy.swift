// The parts of a hierarchy (one machine, or machines nested in one another)
// that are not a step: reading its members' states, declaring its tree,
// starting it, and bringing it up to date (see `Nesting.swift`).

extension Machine {
    // MARK: Reading

    /// `member`'s active states, in document order, in its codes.
    @inlinable
    func activeCodes(of member: Int) -> [SymbolCode] {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        guard nesting.isActive(member, in: chart) else { return [] }
        return chart.activeNodes(within: nesting.memberStates[member].hostNode).compactMap { node in
            let code = nesting.code(of: node, in: member)
            return code.isConcrete ? code : nil
        }
    }

    /// What `code`, a state of `member`, recorded as its history, in the member's codes.
    @inlinable
    func recordedHistory(of code: SymbolCode, in member: Int) -> [SymbolCode] {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        let node = nesting.node(of: code, in: member, chart: chart)
        guard node != .unknown, chart.tree.history(of: node) != nil else { return [] }
        return chart.configuration.recorded(by: node).map { nesting.code(of: $0, in: member) }.filter(\.isConcrete)
    }

    // MARK: Declaring

    /// Declares children or regions in `member`'s tree.
    @inlinable
    func declareNested(
        member: Int, children: [SymbolCode], parent: SymbolCode, kind: StateTree.Kind, initial: SymbolCode?
    ) {
        // Brought up to date only where this declaration reads it: the
        // configuration once begun, a composition pending that would drop
        // it. Preparing before every declaration laid out and entered the
        // tree again each time: cubic in the depth of a chain.
        if uncheckedChart.hasBegun || uncheckedNesting.needsRebuild {
            prepareChart()
        }
        let nesting = self.nesting!
        let access = nesting.members[member].access
        let describe: (SymbolCode) -> String = { access?.naming.describe($0) ?? self.name(of: $0) }
        require(
            !nesting.hosts(parent, in: member),
            "\(describe(parent)) has a machine nested in it; a state with a nested machine cannot have children or regions"
        )
        requireInactive([parent] + children, of: member, describe: describe)
        changeDeclaredTree(of: member) {
            $0.add(children, to: parent, kind: kind, initial: initial, names: describe)
        }
    }

    /// Gives a state of `member` history.
    @inlinable
    func setNestedHistory(member: Int, kind: HistoryKind, code: SymbolCode, default fallback: SymbolCode?) {
        let nesting = self.nesting!
        if let hosted = nesting.member(nestedIn: code, of: member) {
            require(
                fallback == nil,
                "\(nesting.describe(code, of: member)) has a machine nested in it, whose own initial state its history enters by default"
            )
            StateTree.requireOneHistory(
                nesting.members[hosted].hostHistory, kind, of: nesting.describe(code, of: member))
            nesting.members[hosted].hostHistory = kind
            nesting.needsRebuild = true
            chart!.tree.isLaidOut = false
        } else {
            let access = nesting.members[member].access
            changeDeclaredTree(of: member) {
                $0.setHistory(kind, of: code, default: fallback) { access?.naming.describe($0) ?? self.name(of: $0) }
            }
        }
    }

    /// Makes `member`'s state `code` final.
    @usableFromInline
    func declareFinal(_ code: SymbolCode, of member: Int) {
        // Composed first, so that a composition pending does not drop the mark.
        prepareChart()
        let nesting = uncheckedNesting
        let access = nesting.members[member].access
        let describe: (SymbolCode) -> String = { access?.naming.describe($0) ?? self.name(of: $0) }
        require(
            !nesting.hosts(code, in: member),
            "\(describe(code)) has a machine nested in it; a final state has no children")
        requireInactive([code], of: member, describe: describe)
        changeDeclaredTree(of: member) { $0.setFinal(code, names: describe) }
    }

    /// The kind of `member`'s state `code` in the hierarchy's tree, where a
    /// state with a machine nested in it has children.
    @usableFromInline
    func composedKind(of code: SymbolCode, in member: Int) -> StateTree.Kind {
        guard code.isConcrete else { return .atomic }
        prepareChart()
        let node = uncheckedNesting.node(of: code, in: member, chart: uncheckedChart)
        return node == .unknown ? .atomic : uncheckedChart.tree.kind(of: node)
    }

    /// Changes what `member` declares: the statechart's own tree while the
    /// hierarchy is one machine (see ``Nesting/Member/tree``), else the
    /// member's tree, which the hierarchy composes again before its next step.
    @usableFromInline
    func changeDeclaredTree(of member: Int, _ change: (inout StateTree) -> Void) {
        let nesting = uncheckedNesting
        let chart = uncheckedChart
        guard nesting.hasNestedMachines else {
            change(&chart.tree)
            return
        }
        change(&nesting.members[member].tree)
        nesting.needsRebuild = true
        chart.tree.isLaidOut = false
    }

    /// Stops if one of `codes`, states of `member`, is active once the
    /// hierarchy has begun: the tree under an active state is fixed then.
    @usableFromInline
    func requireInactive(_ codes: [SymbolCode], of member: Int, describe: (SymbolCode) -> String) {
        let chart = uncheckedChart
        guard chart.hasBegun else { return }
        for code in codes {
            let node = uncheckedNesting.node(of: code, in: member, chart: chart)
            require(
                node == .unknown || !chart.configuration.isActive(node),
                "\(describe(code)) is active: the tree under an active state cannot change once the machine has begun (started, taken a step or restored a snapshot)"
            )
        }
    }

    /// Enters the hierarchy's initial configuration, running the entry
    /// handlers of every machine, outermost state first and, for one state,
    /// outermost machine first: a microstep the chart plans
    /// (``Statechart/planStart(into:)``) and the one runner delivers, then
    /// the macrostep it leads to.
    @usableFromInline
    func startHierarchy(reading: ([SymbolCode]) -> Void, readingSteps: StepReader) -> Bool {
        guard !chart!.hasBegun, !isStepping else { return false }
        prepareChart()
        let chart = self.chart!
        let nesting = self.nesting!
        chart.hasBegun = true
        chart.planStart(into: &plan)
        reading(plan.entries.elements)
        beginStepDelivery()
        _ = withHandlersHeldForSteps { handlers in
            deliverPlannedStep(
                .state, plan: &plan, event: nil, eventCode: .wildcard, userInfo: nil, chart: chart, nesting: nesting,
                handlers: &handlers)
            return mayContinue(after: chart, nesting: nesting)
                ? settle(chart: chart, nesting: nesting, handlers: &handlers, reading: readingSteps) : true
        }
        endStep()
        return true
    }

    // MARK: Preparing

    /// Brings the hierarchy up to date: its tree composed again after a
    /// nesting or a declaration, and, until it begins, its configuration and
    /// every machine's state.
    @inlinable
    func prepareHierarchy() {
        if let link = nestingLink {
            link.prepare()
            return
        }
        let chart = self.chart!
        let nesting = self.nesting!
        let rebuilds = nesting.needsRebuild
        if rebuilds {
            nesting.rebuild(chart: chart)
        }
        chart.tree.layOutIfNeeded()
        if chart.needsInitialConfiguration {
            let anchor = nesting.node(of: internedCode(of: initialState), in: 0, chart: chart)
            chart.prepare(initial: anchor, plan: &plan)
            nesting.apply(history: nesting.carriedHistory, to: chart)
        } else if !rebuilds {
            return
        }
        for member in nesting.members.indices.dropFirst() {
            nesting.tell(member, nesting.state(of: member, chart: chart))
        }
        currentCode = nesting.nearestName(from: chart.innermostState(of: chart.configuration), in: 0, chart: chart)
        currentState = value(of: currentCode)
        nesting.tell(0, currentCode)
    }
}
