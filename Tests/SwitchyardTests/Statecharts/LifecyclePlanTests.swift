import Testing

@testable import Switchyard

// Starting, restoring and finishing as microsteps the engine plans on its own
// (`Statechart.planStart`, `planRestore`, `planFinish`), without a machine:
// what each exits and enters, and what applying it does. The machine's
// delivery of them is tested through the public API (`SnapshotTests`,
// `CompletionTests`, the model tests).

/// A chart whose top-level states are 1, atomic, and 2, parallel, with the
/// regions 3 (children 5, final and initial, and 6) and 4 (children 7,
/// final and initial, and 8); its configuration is what entering 2 makes.
private func makeChart() -> Statechart {
    let chart = Statechart()
    let names: (SymbolCode) -> String = { "s\($0)" }
    chart.tree.grow(toHold: 1)
    chart.tree.add([3, 4], to: 2, kind: .parallel, initial: nil, names: names)
    chart.tree.add([5, 6], to: 3, kind: .compound, initial: 5, names: names)
    chart.tree.add([7, 8], to: 4, kind: .compound, initial: 7, names: names)
    chart.tree.setFinal(5, names: names)
    chart.tree.setFinal(7, names: names)
    var plan = StepPlan()
    chart.prepare(initial: 2, plan: &plan)
    return chart
}

/// Every completion `chart` noted, in order.
private func completions(of chart: Statechart) -> [SymbolCode] {
    var noted: [SymbolCode] = []
    while let state = chart.nextCompletion() {
        noted.append(state)
    }
    return noted
}

@Suite struct LifecyclePlanTests {
    @Test func aStartEntersTheInitialConfigurationOutermostFirstAndNotesWhatItsFinalStatesComplete() {
        let chart = makeChart()
        var plan = StepPlan()
        chart.planStart(into: &plan)
        #expect(plan.lifecycle == .start)
        #expect(plan.exits.elements.isEmpty)
        #expect(plan.entries.elements == [2, 3, 5, 4, 7])
        chart.apply(&plan)
        // The parallel state completes with its last region, not before.
        #expect(completions(of: chart) == [3, 4, 2])
        #expect(chart.activeNodes(within: .wildcard) == [2, 3, 5, 4, 7], "the configuration stays")
    }

    @Test func aRestoreExitsWhatTheSnapshotLacksAndEntersWhatItAdds() {
        let chart = makeChart()
        var plan = StepPlan()
        var restored = Configuration()
        for code: SymbolCode in [2, 3, 6, 4, 7] {
            chart.activate(code, in: &restored)
        }
        chart.collectAtomics(of: &restored)
        chart.planRestore(to: restored, into: &plan)
        #expect(plan.lifecycle == .restore)
        #expect(plan.exits.elements == [5])
        #expect(plan.entries.elements == [6])
        #expect(chart.activeNodes(within: .wildcard) == [2, 3, 5, 4, 7], "planning changes nothing")
        chart.apply(&plan)
        #expect(chart.activeNodes(within: .wildcard) == [2, 3, 6, 4, 7])
        #expect(chart.configuration.atomics.elements == [6, 7])
        #expect(completions(of: chart).isEmpty, "a restore notes no completion")
    }

    @Test func aRestoreToAnotherTopLevelStateExitsInnermostFirst() {
        let chart = makeChart()
        var plan = StepPlan()
        var restored = Configuration()
        chart.activate(1, in: &restored)
        chart.collectAtomics(of: &restored)
        chart.planRestore(to: restored, into: &plan)
        #expect(plan.exits.elements == [7, 4, 5, 3, 2])
        #expect(plan.entries.elements == [1])
        chart.apply(&plan)
        #expect(chart.activeNodes(within: .wildcard) == [1])
    }

    @Test func aFinishExitsEveryActiveStateInnermostFirstAndChangesNothing() {
        let chart = makeChart()
        var plan = StepPlan()
        chart.planFinish(into: &plan)
        #expect(plan.lifecycle == .finish)
        #expect(plan.exits.elements == [7, 4, 5, 3, 2])
        #expect(plan.entries.elements.isEmpty)
        chart.apply(&plan)
        #expect(chart.activeNodes(within: .wildcard) == [2, 3, 5, 4, 7])
    }
}
