// How the root of a hierarchy of nested machines takes a step: the
// statechart's rules, with each node's routes and handlers asked of every
// machine that names the node, innermost machine first (see `Nesting.swift`).
// Requests to nested machines come here through their links, in their codes.

extension Machine {
    // MARK: Requests

    /// Decides and takes the step `event`, sent to this machine, causes in its hierarchy.
    @inlinable
    func performHierarchyStep(event: E, userInfo: UserInfoBox?) -> Decision<S> {
        let outcome = withUnsafePointer(to: event) { pointer in
            if let link = nestingLink {
                return link.requestEvent(link.member, UnsafeRawPointer(pointer), userInfo)
            }
            return requestNested(member: 0, event: UnsafeRawPointer(pointer), userInfo: userInfo)
        }
        return decision(after: outcome)
    }

    /// Decides and takes the step asking this machine for `target` causes in its hierarchy.
    @inlinable
    func performHierarchyStep(toward target: S, userInfo: UserInfoBox?) -> Decision<S> {
        let code = internedCode(of: target)
        if let link = nestingLink {
            return decision(after: link.requestState(link.member, code, userInfo))
        }
        return decision(after: requestNested(member: 0, target: code, userInfo: userInfo))
    }

    @inlinable
    func decision(after outcome: NestedOutcome) -> Decision<S> {
        switch outcome {
        case .moved: .move(to: currentState, code: currentCode)
        case .refused(let refusal): refusal.map(Decision.refused) ?? .noRoute
        }
    }

    /// Decides and takes the step `event`, sent to `member`, causes.
    @inlinable
    func requestNested(member: Int, event: UnsafeRawPointer, userInfo: UserInfoBox?) -> NestedOutcome {
        let value = event.load(as: E.self)
        guard !mustQueueRequest() else {
            queuedRequests.append(.nestedEvent(member: member, value, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        // Held for the step, and lent to what it calls.
        let nesting = self.nesting.unsafelyUnwrapped
        let chart = self.chart.unsafelyUnwrapped
        guard decisionDepth == 0 else {
            refuseNested(member: member, event: event, target: nil, userInfo: userInfo)
            reportReentrantRequest("tryEvent(\(value))")
            return .refused(.reentrant)
        }
        guard nesting.isActive(member, in: chart) else {
            refuseNested(member: member, event: event, target: nil, userInfo: userInfo)
            return .refused(.inactive)
        }
        let eventCode = code(of: value, in: routes)
        let refusal = chooseNestedMoves(
            event: event, eventCode: eventCode, member: member, userInfo: userInfo, chart: chart, nesting: nesting,
            into: &plan)
        guard !plan.moves.isEmpty else {
            refuseNested(member: member, event: event, target: nil, userInfo: userInfo)
            return .refused(refusal)
        }
        takeNestedStep(
            kind: .event, event: event, eventCode: eventCode, userInfo: userInfo, chart: chart, nesting: nesting)
        return .moved
    }

    /// Decides and takes the step asking `member` for its state `target` causes.
    @inlinable
    func requestNested(member: Int, target: SymbolCode, userInfo: UserInfoBox?) -> NestedOutcome {
        guard !mustQueueRequest() else {
            queuedRequests.append(.nestedState(member: member, target, userInfo: userInfo))
            return .refused(.queued)
        }
        prepareChart()
        let nesting = self.nesting.unsafelyUnwrapped
        let chart = self.chart.unsafelyUnwrapped
        guard decisionDepth == 0 else {
            refuseNested(member: member, event: nil, target: target, userInfo: userInfo)
            reportReentrantRequest("tryState(\(nesting.describe(nesting.node(of: target, in: member, chart: chart))))")
            return .refused(.reentrant)
        }
        guard nesting.isActive(member, in: chart) else {
            refuseNested(member: member, event: nil, target: target, userInfo: userInfo)
            return .refused(.inactive)
        }
        let refusal = chooseNestedMove(
            toward: nesting.node(of: target, in: member, chart: chart), member: member, userInfo: userInfo,
            chart: chart, nesting: nesting, into: &plan)
        guard !plan.moves.isEmpty else {
            refuseNested(member: member, event: nil, target: target, userInfo: userInfo)
            return .refused(refusal)
        }
        takeNestedStep(
            kind: .state, event: nil, eventCode: .wildcard, userInfo: userInfo, chart: chart, nesting: nesting)
        return .moved
    }

    // MARK: Choosing

    /// Fills `plan` with the moves `event`, sent to `member`, takes: offered
    /// to each active atomic state inside the member, then up through its
    /// ancestors to the root, each node's machines asked innermost first;
    /// failing that, the member's route mappings. Returns why routes refused.
    @inlinable
    func chooseNestedMoves(
        event: UnsafeRawPointer, eventCode: SymbolCode, member: Int, userInfo: UserInfoBox?, chart: Statechart,
        nesting: Nesting, into plan: inout StepPlan
    ) -> Refusal? {
        // A local copy: conditions and mappings may read and change the machines.
        let routes = self.routes
        let value = event.load(as: E.self)
        let current = currentState
        let host = nesting.memberStates[member].hostNode
        var refusal: Refusal?
        plan.reset()
        decisionDepth += 1
        defer { decisionDepth -= 1 }
        func choose(_ move: StepPlan.Move, _ plan: inout StepPlan) {
            // A route two regions reach through a common ancestor is taken once.
            if !plan.moves.contains(where: { $0.id == move.id && $0.member == move.member }) {
                chart.choose(move, into: &plan)
            }
        }
        var chosen = 0
        // Lists read in place, by index, and closures called unretained: each
        // copy would cost a retain and a release.
        var atomicIndex = 0
        while atomicIndex < chart.configuration.atomics.length {
            let atomic = chart.configuration.atomics.storage[atomicIndex]
            atomicIndex += 1
            guard member == 0 || chart.tree.isDescendant(atomic, of: host) else { continue }
            var node = atomic
            search: while true {
                var position = 0
                while Int(node) < nesting.names.count, position < nesting.names[Int(node)].count {
                    let name = nesting.names[Int(node)][position]
                    position += 1
                    let route = nesting.withAccess(of: name.member) { access -> MemberRoute? in
                        guard access.hasEvents else { return nil }
                        return access.firstEventRoute(
                            event, nesting.eventCode(in: name.member, event: event, rootCode: eventCode), name.code,
                            nesting.memberStates[name.member].current, userInfo, &refusal)
                    }
                    guard let route else { continue }
                    let target =
                        route.target == .wildcard
                        ? .wildcard : nesting.node(of: route.target, in: name.member, chart: chart)
                    var move = StepPlan.Move(source: node, target: target, isLocal: route.isLocal)
                    move.id = route.id
                    move.member = UInt32(name.member)
                    choose(move, &plan)
                    chosen += 1
                    break search
                }
                let rootCode = node == .wildcard || routes.storage.states.name(of: node) != nil ? node : .unknown
                if rootCode != .unknown,
                    let route = routes.firstRoute(
                        event: value, code: eventCode, on: rootCode, current: current, userInfo: userInfo,
                        refusal: &refusal)
                {
                    var move = StepPlan.Move(route)
                    if route.target != nil {
                        move.target = nesting.node(of: route.targetCode, in: 0, chart: chart)
                    }
                    choose(move, &plan)
                    chosen += 1
                    break search
                }
                guard node != .wildcard else { break }
                node = chart.tree.parent(of: node)
            }
        }
        if chosen == 0, let target = mappedNode(event: event, member: member, userInfo: userInfo) {
            choose(StepPlan.Move(source: host, target: target, isLocal: member != 0), &plan)
        }
        return refusal
    }

    /// The node that `member`'s route mappings name for `event` (`nil`: a
    /// state request) from its state.
    @inlinable
    func mappedNode(event: UnsafeRawPointer?, member: Int, userInfo: UserInfoBox?) -> SymbolCode? {
        let nesting = self.nesting.unsafelyUnwrapped
        let chart = self.chart.unsafelyUnwrapped
        if member == 0 {
            let routes = self.routes
            guard
                let target = routes.mappedTarget(event: event?.load(as: E.self), from: currentState, userInfo: userInfo)
            else { return nil }
            return nesting.node(of: internedCode(of: target), in: 0, chart: chart)
        }
        let access = nesting.members[member].access.unsafelyUnwrapped
        guard let target = access.mappedTarget(event, nesting.memberStates[member].current, userInfo) else {
            return nil
        }
        return nesting.node(of: target, in: member, chart: chart)
    }

    /// Fills `plan` with the move a request to `member` for the node
    /// `target` takes: the first route, innermost machine first, on the walk
    /// up from each active atomic state inside the member, else the member's
    /// route mappings. Returns why routes refused.
    @inlinable
    func chooseNestedMove(
        toward target: SymbolCode, member: Int, userInfo: UserInfoBox?, chart: Statechart, nesting: Nesting,
        into plan: inout StepPlan
    ) -> Refusal? {
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        // A local copy: conditions and mappings may read and change the machines.
        let routes = self.routes
        let current = currentState
        let host = nesting.memberStates[member].hostNode
        var refusal: Refusal?
        plan.reset()
        guard target != .unknown else { return nil }
        decisionDepth += 1
        defer { decisionDepth -= 1 }
        func take(from source: SymbolCode, isLocal: Bool, _ plan: inout StepPlan) {
            chart.choose(StepPlan.Move(source: source, target: target, isLocal: isLocal), into: &plan)
        }
        let rootTarget = routes.storage.states.name(of: target)
        for atomic in chart.configuration.atomics where member == 0 || chart.tree.isDescendant(atomic, of: host) {
            var node = atomic
            while true {
                if Int(node) < nesting.names.count {
                    for name in nesting.names[Int(node)] {
                        let targetCode = nesting.code(of: target, in: name.member)
                        guard targetCode != .unknown else { continue }
                        let access = nesting.members[name.member].access.unsafelyUnwrapped
                        if let route = access.firstStateRoute(
                            name.code, targetCode, nesting.memberStates[name.member].current, userInfo, &refusal)
                        {
                            take(from: node, isLocal: route.isLocal, &plan)
                            return refusal
                        }
                    }
                }
                let rootCode = node == .wildcard || routes.storage.states.name(of: node) != nil ? node : .unknown
                if rootCode != .unknown, let rootTarget,
                    let route = routes.firstRoute(
                        on: rootCode, to: rootTarget, code: target, current: current, userInfo: userInfo,
                        refusal: &refusal)
                {
                    take(from: node, isLocal: route.isLocal, &plan)
                    return refusal
                }
                guard node != .wildcard else { break }
                node = chart.tree.parent(of: node)
            }
        }
        if mappingAllows(member: member, target: target, userInfo: userInfo) {
            take(from: host, isLocal: member != 0, &plan)
        }
        return refusal
    }

    /// Whether `member`'s route mappings allow a request for the node `target`.
    @inlinable
    func mappingAllows(member: Int, target: SymbolCode, userInfo: UserInfoBox?) -> Bool {
        let nesting = self.nesting.unsafelyUnwrapped
        let targetCode = nesting.code(of: target, in: member)
        guard targetCode != .unknown else { return false }
        if member == 0 {
            let routes = self.routes
            let value = value(of: targetCode)
            return routes.mappingsAllow(from: currentState, to: value, userInfo: userInfo)
        }
        let access = nesting.members[member].access.unsafelyUnwrapped
        return access.mappingsAllow(nil, nesting.memberStates[member].current, targetCode, userInfo)
    }

    // MARK: Delivering

    /// Takes the step ``plan`` holds across the hierarchy: exit handlers,
    /// innermost state first and, for one state, innermost machine first; the
    /// change; each machine's handlers of the transition, innermost machine
    /// first; entry handlers, outermost state first and, for one state,
    /// outermost machine first.
    @inlinable
    func takeNestedStep(
        kind: DeliveryKind, event: UnsafeRawPointer?, eventCode: SymbolCode, userInfo: UserInfoBox?, chart: Statechart,
        nesting: Nesting
    ) {
        chart.planExits(into: &plan)
        chart.recordHistory(of: &plan)
        chart.planEntries(into: &plan)
        nesting.planDelivery(of: &plan, chart: chart)
        let beforeCode = currentCode
        let afterCode = nesting.memberStates[0].after
        let context = Context(
            event: event?.load(as: E.self), fromState: currentState, toState: value(of: afterCode),
            userInfoBox: userInfo)
        let handlers = self.handlers
        chart.hasBegun = true
        beginStepDelivery()

        // The step holds `userInfo` until its handlers have all run.
        withExtendedLifetime(userInfo) {
            for index in 0..<plan.exits.length {
                deliverLifecycle(
                    entering: false, of: plan.exits.storage[index], handlers: handlers, context: context, event: event,
                    userInfo: userInfo, nesting: nesting)
            }
            chart.apply(&plan)
            nesting.commitStates()
            currentState = context.toState
            currentCode = afterCode
            for index in 0..<nesting.touchedCount {
                let member = nesting.touchedMembers[index]
                guard member != 0, nesting.hearsTransition(member) else { continue }
                let memberEvent =
                    kind == .event && nesting.withAccess(of: member) { $0.hasEvents }
                    ? nesting.eventCode(in: member, event: event.unsafelyUnwrapped, rootCode: eventCode) : .wildcard
                // No context is built for a machine without a handler to hear it.
                let interest = nesting.withAccess(of: member) { $0.transitionInterest(kind, memberEvent) }
                guard interest.hears else { continue }
                ancestryBefore.removeAll()
                ancestryAfter.removeAll()
                if interest.matchesStates {
                    nesting.appendAncestry(
                        of: nesting.memberStates[member].before, in: member, to: &ancestryBefore, chart: chart)
                    nesting.appendAncestry(
                        of: nesting.memberStates[member].after, in: member, to: &ancestryAfter, chart: chart)
                }
                let facts = nesting.facts(of: member, event: event, userInfo: userInfo)
                nesting.withAccess(of: member) {
                    $0.deliverTransition(kind, memberEvent, ancestryBefore, ancestryAfter, facts)
                }
            }
            deliverTransition(
                kind, eventCode: eventCode, from: beforeCode, to: afterCode, chart: chart, handlers: handlers,
                context: context)
            for index in 0..<plan.entries.length {
                deliverLifecycle(
                    entering: true, of: plan.entries.storage[index], handlers: handlers, context: context,
                    event: event, userInfo: userInfo, nesting: nesting)
            }
        }

        endStep()
    }

    /// Runs the exit or entry handlers of `node` of every machine that names
    /// it: on the way out the innermost machine's first and the root's last,
    /// on the way in the other way round. Each nested machine is told what
    /// ``Nesting/facts(of:event:userInfo:)`` holds for it.
    @inlinable
    func deliverLifecycle(
        entering: Bool, of node: SymbolCode, handlers: HandlerTable<S, E>, context: Context,
        event: UnsafeRawPointer?, userInfo: UserInfoBox?, nesting: Nesting
    ) {
        // The root's names never change once given, so even a cache laid out
        // before this step answers for the nodes it covers.
        let rootHears = nesting.isNamedByRoot(node) && handlers.hasLifecycleHandlers(entering: entering, of: node)
        if entering, rootHears {
            handlers.forEachLifecycleHandler(entering: true, of: node) { invoke($0, context) }
        }
        if Int(node) < nesting.names.count {
            // Read in place: a copy of the list would cost a retain.
            let count = nesting.names[Int(node)].count
            for offset in 0..<count {
                let name = nesting.names[Int(node)][entering ? count - 1 - offset : offset]
                guard name.code != .wildcard else { continue }
                let facts = nesting.facts(of: name.member, event: event, userInfo: userInfo)
                nesting.withAccess(of: name.member) { $0.deliverLifecycle(entering, name.code, facts) }
            }
        }
        if !entering, rootHears {
            handlers.forEachLifecycleHandler(entering: false, of: node) { invoke($0, context) }
        }
    }

    /// Runs the error handlers of `member` for a refused request (a state
    /// request's `target`, in its codes); requests they make wait until they
    /// have all run.
    @inlinable
    func refuseNested(member: Int, event: UnsafeRawPointer?, target: SymbolCode?, userInfo: UserInfoBox?) {
        let nesting = self.nesting.unsafelyUnwrapped
        if member == 0 {
            refuse(
                event: event?.load(as: E.self), target: target.map { value(of: $0) } ?? currentState,
                userInfo: userInfo)
            return
        }
        let current = nesting.memberStates[member].current
        beginStepDelivery()
        withExtendedLifetime(userInfo) {
            nesting.members[member].access.unsafelyUnwrapped.deliverError(
                StepFacts(event: event, userInfo: userInfo, before: current, after: target ?? current))
        }
        endStep()
    }

    // MARK: Questions

    /// `member`'s state after the step `event` would cause, in its codes, or
    /// `nil` if the event would be refused; nothing changes.
    @inlinable
    func nestedStateAfterStep(member: Int, event: UnsafeRawPointer, userInfo: UserInfoBox?) -> SymbolCode? {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        guard nesting.isActive(member, in: chart) else { return nil }
        var question = StepPlan()
        _ = chooseNestedMoves(
            event: event, eventCode: routes.code(of: event.load(as: E.self)), member: member, userInfo: userInfo,
            chart: chart, nesting: nesting, into: &question)
        guard !question.moves.isEmpty else { return nil }
        let recorded = chart.configuration.recorded
        defer { chart.configuration.recorded = recorded }
        chart.planExits(into: &question)
        chart.recordHistory(of: &question)
        chart.planEntries(into: &question)
        return nesting.state(of: member, after: &question, chart: chart)
    }

    /// Whether asking `member` for its state `target` would move the hierarchy now.
    @inlinable
    func nestedCanTakeStep(member: Int, target: SymbolCode, userInfo: UserInfoBox?) -> Bool {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        guard nesting.isActive(member, in: chart) else { return false }
        var question = StepPlan()
        _ = chooseNestedMove(
            toward: nesting.node(of: target, in: member, chart: chart), member: member, userInfo: userInfo,
            chart: chart, nesting: nesting, into: &question)
        return !question.moves.isEmpty
    }

    /// Whether `event` (`nil`: asking for the state) could take `member`
    /// from `from` (as the active state) to `to`, both in its codes, by a
    /// route of any machine on the walk up from `from`, or by the member's
    /// route mappings.
    @inlinable
    func nestedHasRoute(member: Int, event: UnsafeRawPointer?, from: SymbolCode, to: SymbolCode, userInfo: UserInfoBox?)
        -> Bool
    {
        prepareChart()
        if routes.needsEventRoutesByTransition {
            routes.indexEventRoutesByTransition()
        }
        let routes = self.routes
        let nesting = self.nesting!
        let chart = self.chart!
        let fromNode = nesting.node(of: from, in: member, chart: chart)
        let toNode = nesting.node(of: to, in: member, chart: chart)
        let eventCode = event.map { routes.code(of: $0.load(as: E.self)) } ?? .wildcard
        var refusal: Refusal?
        if fromNode != .unknown, toNode != .unknown {
            var node = fromNode
            while true {
                for name in node == .wildcard ? [] : nesting.names[Int(node)] {
                    let access = nesting.members[name.member].access!
                    let target = nesting.code(of: toNode, in: name.member)
                    guard target != .unknown else { continue }
                    let current = nesting.nearestName(from: fromNode, in: name.member, chart: chart)
                    if let event {
                        if access.hasEvents,
                            access.someEventRoute(
                                event, nesting.eventCode(in: name.member, event: event, rootCode: eventCode), name.code,
                                current, target, userInfo)
                        {
                            return true
                        }
                    } else if access.firstStateRoute(name.code, target, current, userInfo, &refusal) != nil {
                        return true
                    }
                }
                let rootCode = node == .wildcard || routes.storage.states.name(of: node) != nil ? node : .unknown
                if rootCode != .unknown, let target = routes.storage.states.name(of: toNode) {
                    let current = value(of: nesting.nearestName(from: fromNode, in: 0, chart: chart))
                    if let event {
                        let value = event.load(as: E.self)
                        if routes.someRoute(
                            event: value, code: eventCode, on: rootCode, current: current, to: target,
                            userInfo: userInfo)
                        {
                            return true
                        }
                    } else if routes.firstRoute(
                        on: rootCode, to: target, code: toNode, current: current, userInfo: userInfo,
                        refusal: &refusal) != nil
                    {
                        return true
                    }
                }
                guard node != .wildcard else { break }
                node = chart.tree.parent(of: node)
            }
        }
        guard from.isConcrete, to.isConcrete else { return false }
        if member == 0 {
            let fromState = value(of: from)
            let toState = value(of: to)
            if let event {
                return routes.someMapping(
                    event: event.load(as: E.self), from: fromState, leadsTo: toState, userInfo: userInfo)
            }
            return routes.mappingsAllow(from: fromState, to: toState, userInfo: userInfo)
        }
        return nesting.members[member].access.unsafelyUnwrapped.mappingsAllow(event, from, to, userInfo)
    }

    // MARK: Reading

    /// `member`'s active states, in document order, in its codes.
    @inlinable
    func activeCodes(of member: Int) -> [SymbolCode] {
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        var codes: [SymbolCode] = []
        func visit(_ node: SymbolCode) {
            let code = nesting.code(of: node, in: member)
            if code.isConcrete, node != nesting.memberStates[member].hostNode {
                codes.append(code)
            }
            switch chart.tree.kind(of: node) {
            case .atomic:
                return
            case .compound:
                let child = chart.configuration.activeChild(of: node)
                if child != .wildcard {
                    visit(child)
                }
            case .parallel:
                for child in chart.tree.children(of: node) where chart.configuration.isActive(child) {
                    visit(child)
                }
            }
        }
        if nesting.isActive(member, in: chart) {
            visit(nesting.memberStates[member].hostNode)
        }
        return codes
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
        prepareChart()
        let nesting = self.nesting!
        let chart = self.chart!
        let access = nesting.members[member].access
        let describe: (SymbolCode) -> String = { access?.describe($0) ?? self.name(of: $0) }
        require(
            !nesting.hosts(parent, in: member),
            "\(describe(parent)) has a machine nested in it; a state with a nested machine cannot have children or regions"
        )
        if chart.hasBegun {
            for code in [parent] + children {
                let node = nesting.node(of: code, in: member, chart: chart)
                require(
                    node == .unknown || !chart.configuration.isActive(node),
                    "\(describe(code)) is active: the tree under an active state cannot change once the machine has begun"
                )
            }
        }
        nesting.members[member].tree.add(children, to: parent, kind: kind, initial: initial, names: describe)
        nesting.needsRebuild = true
        chart.tree.isLaidOut = false
        if !chart.hasBegun {
            chart.needsInitialConfiguration = true
        }
    }

    /// Gives a state of `member` history.
    @inlinable
    func setNestedHistory(member: Int, kind: HistoryKind, code: SymbolCode) {
        let nesting = self.nesting!
        if let hosted = nesting.member(nestedIn: code, of: member) {
            StateTree.requireOneHistory(
                nesting.members[hosted].hostHistory, kind, of: nesting.describe(code, of: member))
            nesting.members[hosted].hostHistory = kind
        } else {
            let access = nesting.members[member].access
            nesting.members[member].tree.setHistory(kind, of: code) { access?.describe($0) ?? self.name(of: $0) }
        }
        nesting.needsRebuild = true
        chart!.tree.isLaidOut = false
    }

    /// Enters the hierarchy's initial configuration, running the entry
    /// handlers of every machine, outermost state first and, for one state,
    /// outermost machine first.
    @inlinable
    func startHierarchy() -> Bool {
        guard !chart!.hasBegun, !isStepping else { return false }
        prepareChart()
        let chart = self.chart!
        let nesting = self.nesting!
        chart.hasBegun = true
        let context = Context(event: nil, fromState: currentState, toState: currentState, userInfoBox: nil)
        let handlers = self.handlers
        let entries = activeCodes()
        beginStepDelivery()
        // Each machine is told it stays in its state.
        for member in nesting.members.indices {
            nesting.memberStates[member].before = nesting.memberStates[member].current
            nesting.memberStates[member].after = nesting.memberStates[member].current
        }
        for node in entries {
            deliverLifecycle(
                entering: true, of: node, handlers: handlers, context: context, event: nil, userInfo: nil,
                nesting: nesting)
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
            nesting.memberStates[member].current = nesting.state(of: member, chart: chart)
            nesting.members[member].access!.setCurrent(nesting.memberStates[member].current)
        }
        currentCode = nesting.nearestName(from: chart.innermostState(of: chart.configuration), in: 0, chart: chart)
        currentState = value(of: currentCode)
        nesting.memberStates[0].current = currentCode
    }
}
