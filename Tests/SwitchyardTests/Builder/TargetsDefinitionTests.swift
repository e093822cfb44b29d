import Switchyard
import Testing

// Several targets, ignoring history and the effects of several clauses in
// one step, declared with the DSL: each definition is run beside the same
// chart written with the operator API (the same handler calls, in order, and
// the same configuration), then through an effect machine.
//
//     idle     p ‖ r1 { r1x, r1y } ‖ r2 { r2x, r2y }     a (H) { a1, a2 }

private enum Node: StateType, CaseIterable {
    case idle, p, r1, r1x, r1y, r2, r2x, r2y, a, a1, a2
}

private enum Go: EventType {
    case both, step
}

private typealias Chart = Machine<Node, Go>

/// The tree, with the operator API.
private func operatorChart(in initial: Node) -> Chart {
    let chart = Chart(state: initial)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1x, .r1y], to: .r1)
    chart.addChildren([.r2x, .r2y], to: .r2)
    chart.addChildren([.a1, .a2], to: .a)
    chart.addHistory(.shallow, to: .a)
    return chart
}

@Suite struct TargetsDefinitionTests {
    // MARK: The effects of several clauses in one step

    @Test func theEffectsOfClausesTakenInOneStepComeInTheOrderWritten() throws {
        // r2's clause is written first, though its region comes second: as
        // the actions of routes run in the order the routes were added.
        let definition = Definition<Node, Go, String>(initialState: .p) {
            From(.r2x) { On(.step, transitionTo: .r2y, emit: "r2") }
            Parallel(.p) {
                From(.r1) {
                    From(.r1x) { On(.step, transitionTo: .r1y, emit: "r1") }
                    From(.r1y) {}
                }
                From(.r2) {
                    From(.r2x) {}
                    From(.r2y) {}
                }
            }
        }
        let written = Chart(state: .p)
        written.addRegions([.r1, .r2], to: .p)
        written.addChildren([.r1x, .r1y], to: .r1)
        written.addChildren([.r2x, .r2y], to: .r2)
        let log = Log()
        written.addRoute(event: .step, .r2x => .r2y) { _ in log("r2") }
        written.addRoute(event: .step, .r1x => .r1y) { _ in log("r1") }
        written <-! .step
        #expect(log.lines == ["r2", "r1"])

        let machine = EffectMachine(definition)
        let step = try machine.transition(.step)
        #expect(step.effects == log.lines)
        #expect(machine.machine.configuration == written.configuration)
    }
}
