/// A definition's entry and exit effects, by a machine's code of each state:
/// what an effect machine looks up for the states a step exits and enters,
/// with no hashing.
///
/// Codes are never withdrawn from a machine, so the tables stay true.
@usableFromInline
struct LifecycleEffects<Effect> {
    /// By code: the effects of entering, and of exiting, that state.
    @usableFromInline var entryEffects: [[Effect]] = []
    @usableFromInline var exitEffects: [[Effect]] = []

    /// The tables of `entries` and `exits`, each state's code given by `code`.
    @inlinable
    init<S>(entries: [S: [Effect]], exits: [S: [Effect]], code: (S) -> SymbolCode) {
        func table(_ effects: [S: [Effect]]) -> [[Effect]] {
            var table: [[Effect]] = []
            for (state, stateEffects) in effects {
                let index = Int(code(state))
                if table.count <= index {
                    table.append(contentsOf: repeatElement([], count: index + 1 - table.count))
                }
                table[index] = stateEffects
            }
            return table
        }
        entryEffects = table(entries)
        exitEffects = table(exits)
    }

    /// Whether no state has entry or exit effects.
    @inlinable
    var isEmpty: Bool { entryEffects.isEmpty && exitEffects.isEmpty }

    /// The effects of entering the state of `code`.
    @inlinable
    func entries(of code: SymbolCode) -> [Effect] {
        Int(code) < entryEffects.count ? entryEffects[Int(code)] : []
    }

    /// The effects of exiting the state of `code`.
    @inlinable
    func exits(of code: SymbolCode) -> [Effect] {
        Int(code) < exitEffects.count ? exitEffects[Int(code)] : []
    }

    /// What a planned step emits: the effects of the states it exits,
    /// innermost first; `routeEffects` of each route it takes, in transition
    /// order, as their actions run; the effects of the
    /// states it enters, outermost first.
    @inlinable
    func effects(of plan: borrowing StepPlan, taking routeEffects: (StepPlan.Move) -> [Effect]) -> [Effect] {
        var effects: [Effect] = []
        for index in 0..<plan.exits.length {
            effects += exits(of: plan.exits[index])
        }
        for index in 0..<plan.moves.length {
            effects += routeEffects(plan.moves[index])
        }
        for index in 0..<plan.entries.length {
            effects += entries(of: plan.entries[index])
        }
        return effects
    }
}
