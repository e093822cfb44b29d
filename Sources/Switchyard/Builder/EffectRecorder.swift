/// Learns which clauses an ``EffectMachine``'s request took, and so what it emits.
///
/// The machine does not say which route it took. Most clauses need no help:
/// an unguarded clause from a state on an event is the first route its
/// machine tries for that pair, so when the machine moves from that state on
/// that event to that clause's target, the clause took it, unless a route
/// before it in the same chain leads to the same state (then it is not
/// trusted so). Those are looked up after the move, by the source's code:
/// no condition, no hash. Every other clause with effects says itself that it
/// was taken: its route has a condition that records its effects when it
/// allows the move (the machine takes the first route that allows it), and
/// the route mapping records the clause that answered. A statechart's step
/// may take several routes, and exits and enters states: there, a handler
/// reads the step the machine planned instead.
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
        /// A clause recorded the effects.
        @usableFromInline var isRecorded = false
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
    // Dynamic exclusivity checks are off, as in the machine: nothing here is
    // held across a call to user code, and the checks cost more than a record.
    @exclusivity(unchecked) @usableFromInline var slots: [Slot] = []
    /// The clause of each route registration, for statechart steps.
    @exclusivity(unchecked) @usableFromInline var routeClauses: [RegistrationID: Int] = [:]
    @exclusivity(unchecked) @usableFromInline var clauses: [Clause<S, E, Effect>] = []
    @exclusivity(unchecked) @usableFromInline var entryEffects: [S: [Effect]] = [:]
    @exclusivity(unchecked) @usableFromInline var exitEffects: [S: [Effect]] = [:]
    /// The unguarded clauses trusted to be the route their machine takes, by
    /// the code of the state they leave from.
    @exclusivity(unchecked) @usableFromInline var trustedClauses: [[TrustedClause]] = []
    /// Whether a request needs a slot: some clause records what it emits.
    @exclusivity(unchecked) @usableFromInline var recordsClauses = false
    /// Whether a statechart's handler settles each step.
    @exclusivity(unchecked) @usableFromInline var settlesSteps = false

    /// An unguarded clause from a state on an event, trusted to be the route
    /// taken when the machine makes its move.
    @usableFromInline
    struct TrustedClause {
        @usableFromInline var event: E
        /// The state the move ends in: the target, or the source for a stay.
        @usableFromInline var result: S
        @usableFromInline var effects: [Effect]

        @inlinable
        init(event: E, result: S, effects: [Effect]) {
            self.event = event
            self.result = result
            self.effects = effects
        }
    }

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
        let last = slots.count - 1
        guard last >= 0, machine.decisionDepth == 1, machine.deliveryDepth == slots[last].depth else { return nil }
        return last
    }

    /// A clause allowed the move: if the request's decision is being taken,
    /// its effects are the request's.
    @inlinable
    func record(_ effects: [Effect]) {
        if let slot = decidingSlot {
            slots[slot].effects = effects
            slots[slot].isRecorded = true
        }
    }

    /// A mapped clause covered the request and refused it.
    @inlinable
    func recordRefusal() {
        if let slot = decidingSlot {
            slots[slot].wasRefusedByClause = true
        }
    }

    /// Trusts `clause` (unguarded, from a state on an event) to be the route
    /// its machine takes from the state on the event; `code` is the state's.
    @usableFromInline
    func trust(_ clause: TrustedClause, from code: SymbolCode) {
        let index = Int(code)
        if trustedClauses.count <= index {
            trustedClauses.append(contentsOf: repeatElement([], count: index + 1 - trustedClauses.count))
        }
        trustedClauses[index].append(clause)
    }

    /// The effects of the trusted clause that made the move from the state
    /// of `code` on `event` to `result`; empty if none did.
    @inlinable
    func trustedEffects(from code: SymbolCode, on event: E, to result: S) -> [Effect] {
        let index = Int(code)
        guard index < trustedClauses.count else { return [] }
        for clause in trustedClauses[index] where clause.event == event && clause.result == result {
            return clause.effects
        }
        return []
    }

    /// During a statechart step's delivery: the effects of the exits, of the
    /// clauses of the routes taken, and of the entries, as planned.
    @usableFromInline
    func settleStep() {
        let last = slots.count - 1
        guard last >= 0, slots[last].depth == machine.deliveryDepth - 1, !slots[last].isSettled else { return }
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
        let last = slots.count - 1
        guard last >= 0, slots[last].depth == machine.deliveryDepth - 1, !slots[last].isSettled else { return }
        slots[last].effects = []
        slots[last].isSettled = true
    }
}
