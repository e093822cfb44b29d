// Saving and restoring a machine's configuration and recorded history.

extension Machine {
    /// The machine's configuration and recorded history, to restore later
    /// with ``restore(_:runningHandlers:)``.
    ///
    /// - Complexity: O(*n*) in the active states and recorded history.
    ///
    /// In a hierarchy of nested machines (see ``nest(_:under:as:)``), the
    /// root's snapshot holds every state the root can name: all of them when
    /// each machine is nested as an enum case. A nested machine's snapshot
    /// holds its own part, in its own states; only the root restores.
    public func snapshot() -> MachineSnapshot<S> {
        guard let chart else { return MachineSnapshot(activeStates: [currentState]) }
        if nestingLink != nil {
            return nestedMemberSnapshot()
        }
        prepareChart()
        let states = routes.storage.states
        var history: [S: [S]] = [:]
        for (code, recorded) in chart.configuration.recorded.enumerated()
        where !recorded.isEmpty && chart.tree.history(of: SymbolCode(code)) != nil {
            // The root of a hierarchy cannot name the states of a machine
            // nested under a state alone; their history stays out.
            guard let state = states.name(of: SymbolCode(code)) else { continue }
            let remembered = recorded.compactMap(states.name(of:))
            if remembered.count == recorded.count {
                history[state] = remembered
            }
        }
        return MachineSnapshot(activeStates: configuration, history: history, isFinished: chart.isFinished)
    }

    /// A nested machine's part of its hierarchy, in its own states.
    private func nestedMemberSnapshot() -> MachineSnapshot<S> {
        var history: [S: [S]] = [:]
        let states = routes.storage.states
        for index in 0..<states.count {
            guard let state = states.name(of: SymbolCode(index + 1)) else { continue }
            let recorded = recordedHistory(of: state)
            if !recorded.isEmpty {
                history[state] = recorded
            }
        }
        return MachineSnapshot(activeStates: configuration, history: history)
    }

    /// Puts the machine in the configuration, and gives it the recorded
    /// history, that `snapshot` holds.
    ///
    /// Nothing changes unless the whole snapshot is valid for this machine's
    /// tree: every state known, every active state's ancestors active, one
    /// active child for each active compound state, every region of an
    /// active parallel state active, history only where a state keeps it.
    /// A state named twice counts once.
    ///
    /// Restoring begins the machine, as a step does: ``start()`` then
    /// returns `false`. It is refused while the machine runs any of its
    /// handlers or decides a request (``SnapshotError/Reason-swift.struct/duringStep``).
    ///
    /// - Parameters:
    ///   - snapshot: What ``snapshot()`` made, here or on a machine built the same way.
    ///   - runningHandlers: Whether to run the exit handlers of the active
    ///     states the snapshot leaves out, innermost first, then the entry
    ///     handlers of the states it adds, outermost first, as a step would.
    ///     `false` (the default) runs no handler.
    ///
    /// In a hierarchy of nested machines, restore the root: it puts every
    /// machine of the hierarchy in its state at once, and with
    /// `runningHandlers` runs the exit and entry handlers of every machine
    /// in the order of a step. A nested machine refuses, with
    /// ``SnapshotError/Reason/nestedMachine``.
    ///
    /// - Throws: A ``SnapshotError`` that says what is wrong; the machine is unchanged.
    public func restore(_ snapshot: MachineSnapshot<S>, runningHandlers: Bool = false) throws(SnapshotError) {
        guard nestingLink == nil else {
            throw SnapshotError(
                reason: .nestedMachine,
                description: "a nested machine's state lives in its hierarchy; restore the root machine's snapshot")
        }
        // Handlers of every kind run inside a delivery, and handlers after
        // one that restored would be told of a state the machine left.
        guard !isStepping, decisionDepth == 0, deliveryDepth == 0, waiting.isEmpty else {
            throw SnapshotError(
                reason: .duringStep,
                description:
                    "a machine cannot restore a snapshot while it takes or decides a step, or runs its handlers")
        }
        // An observable model learns the restored state, as it would a step's.
        defer { watchers?.observe?() }
        guard chart != nil else {
            try restoreFlat(snapshot)
            return
        }
        prepareChart()
        let codes = try validatedCodes(of: snapshot)
        let history = try validatedHistory(of: snapshot)
        let entersFinal = codes.contains { chart!.tree.isFinal($0) && chart!.tree.parent(of: $0) == .wildcard }
        guard entersFinal == snapshot.isFinished else {
            throw SnapshotError(
                reason: .finishMismatch,
                description: snapshot.isFinished
                    ? "the snapshot says the machine had finished, but none of its active states is a top-level final state"
                    : "a top-level final state is active, but the snapshot says the machine had not finished")
        }
        var restored = Configuration()
        for code in codes {
            chart!.activate(code, in: &restored)
        }
        chart!.collectAtomics(of: &restored)
        for (code, recorded) in history {
            restored.grow(toHold: code)
            restored.recorded[Int(code)] = recorded
        }
        restoreHierarchy(to: restored, runningHandlers: runningHandlers)
    }

    /// A flat machine's snapshot is its one state.
    private func restoreFlat(_ snapshot: MachineSnapshot<S>) throws(SnapshotError) {
        guard !snapshot.isFinished else {
            throw SnapshotError(
                reason: .finishMismatch,
                description: "the snapshot says the machine had finished, but this machine has no final state")
        }
        guard let state = snapshot.activeStates.first else {
            throw SnapshotError(reason: .noActiveState, description: "the snapshot names no active state")
        }
        // Naming the state again says nothing more, as in a statechart.
        guard snapshot.activeStates.allSatisfy({ $0 == state }) else {
            throw SnapshotError(
                reason: .twoActiveChildren,
                description: "a flat machine has one state; the snapshot names \(Set(snapshot.activeStates).count)")
        }
        guard snapshot.history.isEmpty else {
            throw SnapshotError(reason: .unexpectedHistory, description: "a flat machine keeps no history")
        }
        try requireKnown(state)
        currentState = state
        currentCode = routes.code(of: state)
        hasMoved = true
    }

    private func requireKnown(_ state: S) throws(SnapshotError) {
        // A machine with route mappings knows every state they may compute,
        // whether or not it was in it lately (a state only a step named has
        // a code only while the machine needs one).
        let mayCompute = !routes.storage.routeMappingChain.isEmpty
        guard routes.code(of: state).isConcrete || state == currentState || state == initialState || mayCompute
        else {
            throw SnapshotError(
                reason: .unknownState, description: "the snapshot names \(state), which this machine does not know")
        }
    }

    /// The codes of the snapshot's active states, checked to make a configuration.
    private func validatedCodes(of snapshot: MachineSnapshot<S>) throws(SnapshotError) -> [SymbolCode] {
        guard !snapshot.activeStates.isEmpty else {
            throw SnapshotError(reason: .noActiveState, description: "the snapshot names no active state")
        }
        var codes: [SymbolCode] = []
        for state in snapshot.activeStates {
            try requireKnown(state)
            let code = transientCode(of: state)
            if !codes.contains(code) {
                codes.append(code)
            }
        }
        if let nesting, nesting.hasNestedMachines {
            // Each code gets its node (a root's code is its node), and the
            // tree is laid out again if that placed new ones.
            for code in codes {
                _ = nesting.node(of: code, in: 0, chart: chart!)
            }
            prepareChart()
            // States the root cannot name (where a machine nested as an enum
            // case alone sits) are implied by their active descendants.
            for code in codes {
                var parent = chart!.tree.parent(of: code)
                while parent != .wildcard, !nesting.rootIsNamed(parent), !codes.contains(parent) {
                    codes.append(parent)
                    parent = chart!.tree.parent(of: parent)
                }
            }
        }
        let tree = chart!.tree
        let active = Set(codes)
        for code in codes {
            let parent = tree.parent(of: code)
            guard parent == .wildcard || active.contains(parent) else {
                throw SnapshotError(
                    reason: .missingAncestor,
                    description: "\(name(of: code)) is active but its parent \(name(of: parent)) is not")
            }
        }
        for parent in [.wildcard] + codes {
            let children =
                parent == .wildcard
                ? codes.filter { tree.parent(of: $0) == .wildcard } : tree.children(of: parent).filter(active.contains)
            switch tree.kind(of: parent) {
            case .atomic:
                continue
            case .compound:
                guard children.count <= 1 else {
                    throw SnapshotError(
                        reason: .twoActiveChildren,
                        description: "\(children.map(name(of:)).joined(separator: " and ")) are all active, "
                            + "but \(name(of: parent)) has one active child at a time")
                }
                guard !children.isEmpty else {
                    throw SnapshotError(
                        reason: .missingChild, description: "\(name(of: parent)) is active but none of its children is")
                }
            case .parallel:
                for region in tree.children(of: parent) where !active.contains(region) {
                    throw SnapshotError(
                        reason: .missingRegion,
                        description: "\(name(of: parent)) is active but its region \(name(of: region)) is not")
                }
            }
        }
        return codes
    }

    /// The snapshot's history by code, checked against the tree.
    private func validatedHistory(of snapshot: MachineSnapshot<S>) throws(SnapshotError) -> [(
        SymbolCode, [SymbolCode]
    )] {
        let tree = chart!.tree
        var history: [(SymbolCode, [SymbolCode])] = []
        for (state, recorded) in snapshot.history {
            try requireKnown(state)
            let code = internedCode(of: state)
            guard let kind = tree.history(of: code) else {
                throw SnapshotError(
                    reason: .unexpectedHistory, description: "the snapshot gives history to \(state), which keeps none")
            }
            var codes: [SymbolCode] = []
            for remembered in recorded {
                try requireKnown(remembered)
                let rememberedCode = internedCode(of: remembered)
                // What the machine itself records: a compound state's one
                // active child, a parallel state's regions, the active
                // atomic states inside a state with deep history.
                let fits =
                    kind == .shallow
                    ? tree.parent(of: rememberedCode) == code
                        && (tree.kind(of: code) == .parallel ? !codes.contains(rememberedCode) : recorded.count == 1)
                    : tree.isDescendant(rememberedCode, of: code) && tree.kind(of: rememberedCode) == .atomic
                guard fits else {
                    throw SnapshotError(
                        reason: .unexpectedHistory,
                        description: "\(state) keeps \(kind) history, which cannot record \(recorded)")
                }
                if !codes.contains(rememberedCode) {
                    codes.append(rememberedCode)
                }
            }
            if let (first, second, parent) = tree.twoExclusiveStates(among: codes) {
                throw SnapshotError(
                    reason: .unexpectedHistory,
                    description: "\(state)'s history names \(name(of: first)) and \(name(of: second)), "
                        + "which cannot be active together: \(name(of: parent)) has one active child at a time")
            }
            history.append((code, codes))
        }
        return history
    }
}

extension Machine {
    /// Puts the hierarchy this machine is the root of in `restored`, and
    /// tells every nested machine its state: a microstep the chart plans
    /// (``Statechart/planRestore(to:into:)``).
    ///
    /// With `runningHandlers`, the one runner delivers it: the exit handlers
    /// of what `restored` leaves out, innermost first (at each state, the
    /// innermost machine's first), then the entry handlers of what it adds,
    /// outermost first, as a step would; each machine's handlers are told
    /// its own states. Without, it is only applied.
    private func restoreHierarchy(to restored: consuming Configuration, runningHandlers: Bool) {
        let chart = self.chart!
        let nesting = self.nesting!
        chart.planRestore(to: restored, into: &plan)
        chart.hasBegun = true
        // The restored configuration stands: it is not built again from the initial state.
        chart.initialConfigurationLayout = chart.tree.layouts
        defer { plan.reset() }
        guard runningHandlers else {
            let afterCode = nesting.planDelivery(of: &plan, chart: chart)
            chart.apply(&plan)
            nesting.commitLifecycleStates(of: plan)
            currentCode = afterCode
            currentState = value(of: afterCode)
            return
        }
        beginStepDelivery()
        withHandlersHeldForSteps { handlers in
            deliverPlannedStep(
                .state, plan: &plan, event: nil, eventCode: .wildcard, userInfo: nil, chart: chart, nesting: nesting,
                handlers: &handlers)
        }
        endStep()
    }
}
