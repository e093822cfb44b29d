/// Learns which clauses an ``EffectMachine``'s request took, and so what it emits.
///
/// The machine does not say which route it took, so the clauses say it
/// themselves: a route clause with effects has a condition that records
/// them when it allows the move (the machine takes the first route that
/// allows it, so the last one recorded is the one taken), and the route
/// mapping records the clause that answered. A statechart's step may take
/// several routes, and exits and enters states: there, a handler reads the
/// step the machine planned instead.
///
/// Each request of the effect machine opens a slot; only what its own
/// decision records goes there. A decision is the request's when the machine
/// is deciding one request (not answering a question asked from a condition)
/// at the delivery depth the request was made at (not a nested request made
/// by a handler).
@usableFromInline
final class EffectRecorder<S: StateType, E: EventType, Effect> {
    /// What one request has recorded.
    @usableFromInline
    struct Slot {
        /// The machine's delivery depth when the request was made.
        @usableFromInline var depth: Int
        @usableFromInline var effects: [Effect] = []
        /// A clause covered the request, but refused it.
        @usableFromInline var wasRefusedByClause = false
        /// A statechart's step (or refusal) has set the effects: later steps leave them.
        @usableFromInline var isSettled = false

        @inlinable
        init(depth: Int) {
            self.depth = depth
        }
    }

    // The machine owns the closures that own the recorder, so the recorder
    // never outlives the machine.
    @usableFromInline unowned(unsafe) let machine: Machine<S, E>
    @usableFromInline var slots: [Slot] = []
    /// The clause of each route registration, for statechart steps.
    @usableFromInline var routeClauses: [RegistrationID: Int] = [:]
    @usableFromInline var clauses: [Clause<S, E, Effect>] = []
    @usableFromInline var entryEffects: [S: [Effect]] = [:]
    @usableFromInline var exitEffects: [S: [Effect]] = [:]

    @usableFromInline
    init(machine: Machine<S, E>) {
        self.machine = machine
    }

    /// Opens a slot for a request made now.
    @inlinable
    func open() {
        slots.append(Slot(depth: machine.deliveryDepth))
    }

    /// Closes the innermost slot and hands back what it recorded.
    @inlinable
    func close() -> Slot {
        slots.removeLast()
    }

    /// The slot the decision being taken belongs to, if any.
    @inlinable
    var decidingSlot: Int? {
        guard let last = slots.indices.last, machine.decisionDepth == 1, machine.deliveryDepth == slots[last].depth
        else { return nil }
        return last
    }

    /// A clause allowed the move: if the request's decision is being taken,
    /// its effects are the request's.
    @inlinable
    func record(_ effects: [Effect]) {
        if let slot = decidingSlot {
            slots[slot].effects = effects
        }
    }

    /// A mapped clause covered the request and refused it.
    @inlinable
    func recordRefusal() {
        if let slot = decidingSlot {
            slots[slot].wasRefusedByClause = true
        }
    }

    /// During a statechart step's delivery: the effects of the exits, of the
    /// clauses of the routes taken, and of the entries, as planned.
    @usableFromInline
    func settleStep() {
        guard let last = slots.indices.last, slots[last].depth == machine.deliveryDepth - 1, !slots[last].isSettled
        else { return }
        let plan = machine.plan
        var effects: [Effect] = []
        for index in 0..<plan.exits.length {
            effects += exitEffects[machine.value(of: plan.exits.storage[index])] ?? []
        }
        for index in 0..<plan.moves.length {
            if let clause = routeClauses[plan.moves.storage[index].id] {
                effects += clauses[clause].effects
            } else if plan.moves.storage[index].id.rawValue == 0 {
                // A move made by the mapping, which recorded its clause's effects.
                effects += slots[last].effects
            }
        }
        for index in 0..<plan.entries.length {
            effects += entryEffects[machine.value(of: plan.entries.storage[index])] ?? []
        }
        slots[last].effects = effects
        slots[last].isSettled = true
    }

    /// During a statechart's refusal: nothing was emitted.
    @usableFromInline
    func settleRefusal() {
        guard let last = slots.indices.last, slots[last].depth == machine.deliveryDepth - 1, !slots[last].isSettled
        else { return }
        slots[last].effects = []
        slots[last].isSettled = true
    }
}
