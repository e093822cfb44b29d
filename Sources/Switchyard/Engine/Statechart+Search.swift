// A statechart's configuration as a value that can be put back: what a search
// over the configurations a machine can be in (the test paths of a
// description) keys its nodes by, and steps from with the engine's own step,
// so that the rules of a step live in one place.

extension Statechart {
    /// A configuration and the history recorded in it, as a value.
    ///
    /// The active atomic states determine the rest of a configuration (every
    /// ancestor of one is active, and a compound state's active child is the
    /// one on the way down to it), so they are all it keeps: two snapshots
    /// are equal when the charts they were taken of would take the same
    /// steps from then on.
    struct Snapshot: Hashable {
        /// The active atomic states, in document order.
        var atomics: [SymbolCode]
        /// What each state of the list the snapshot was taken with recorded
        /// when last exited, in that list's order; empty for nothing yet.
        var recorded: [[SymbolCode]]
    }

    /// The configuration as a value.
    ///
    /// - Parameter statesKeepingHistory: The states whose history it keeps:
    ///   ``StateTree/statesKeepingHistory()``, worked out once by the caller
    ///   so that a snapshot costs what is active, not the size of the tree.
    /// - Returns: The active atomic states, and what those states recorded.
    /// - Complexity: O(*k* + *h*) in the active atomic states and the states recorded.
    func snapshot(recordedBy statesKeepingHistory: [SymbolCode]) -> Snapshot {
        Snapshot(
            atomics: configuration.atomics.elements,
            recorded: statesKeepingHistory.map { configuration.recorded(by: $0) })
    }

    /// Makes `snapshot` the configuration, as if the chart had stepped there:
    /// nothing waits to be offered to done routes, and the chart is finished
    /// when a top-level final state is active. The states active before are
    /// made inactive one by one (``deactivateAll()``), so that
    /// nothing is allocated once the configuration has grown.
    ///
    /// - Parameters:
    ///   - snapshot: A snapshot of a configuration of this chart's tree.
    ///   - statesKeepingHistory: The list `snapshot` was taken with.
    /// - Complexity: O(*k* × *d* + *h*) for *k* atomic states *d* deep, before
    ///   and after, and the *h* states that keep history.
    func restore(_ snapshot: Snapshot, recordedBy statesKeepingHistory: [SymbolCode]) {
        tree.layOutIfNeeded()
        deactivateAll()
        configuration.atomics.removeAll()
        for atomic in snapshot.atomics {
            var code = atomic
            while code != .wildcard, !configuration.isActive(code) {
                activate(code, in: &configuration)
                code = tree.parent(of: code)
            }
            configuration.atomics.append(atomic)
        }
        isFinished = isFinished(snapshot)
        for (state, recorded) in zip(statesKeepingHistory, snapshot.recorded) {
            configuration.grow(toHold: state)
            configuration.recorded[Int(state)] = recorded
        }
        dropCompletions()
    }

    /// Whether a chart in `snapshot` has finished: a top-level final state
    /// is active, which only entering it makes so.
    ///
    /// - Complexity: O(*k*) in the active atomic states.
    func isFinished(_ snapshot: Snapshot) -> Bool {
        snapshot.atomics.contains { tree.parent(of: $0) == .wildcard && tree.isFinal($0) }
    }
}

extension StateTree {
    /// The states that keep history, in the order of their codes.
    ///
    /// - Complexity: O(*n*) in the states.
    func statesKeepingHistory() -> [SymbolCode] {
        nodes.indices.filter { nodes[$0].history != nil }.map { SymbolCode($0) }
    }
}
