import Switchyard
import Testing

// Several targets and ignoring history declared with the DSL (`alsoEntering:`
// and `ignoringHistory:` on `On`, `OnDone` and `Always`): each definition is
// run beside the same chart written with the operator API (the same handler
// calls, in order, and the same configuration), then through an effect
// machine, whose effects come in the order the operator chart's actions and
// lifecycle handlers run.
//
//     idle   p ‖ r1 { r1x, r1y } ‖ r2 { r2x, r2y }   a (H) { a1, a2 }
//     job { working, finished* }   checking
//
// (H: shallow history; *: final).

private enum Node: StateType, CaseIterable {
    case idle, p, r1, r1x, r1y, r2, r2x, r2y, a, a1, a2, job, working, finished, checking
}

private enum Go: EventType {
    case both, step, enter, restart, leave, finish, check
}

/// For a case pattern: `detail(_)`.
private enum Page: StateType {
    case list
    case detail(Int)
    case split, left, right
}

private typealias Chart = Machine<Node, Go>

/// The chart, its routes written as clauses.
private func definition() -> Definition<Node, Go, String> {
    Definition(initialState: .idle) {
        From(.idle) {
            On(.both, transitionTo: .r1y, alsoEntering: .r2y, emit: "both")
            On(.enter, transitionTo: .a, emit: "enter")
            On(.restart, transitionTo: .a, ignoringHistory: true, emit: "restart")
            On(.finish, transitionTo: .job)
            On(.check, transitionTo: .checking)
        }
        Parallel(.p) {
            OnEntry(emit: "enter p")
            OnExit(emit: "exit p")
            On(.leave, transitionTo: .idle)
            From(.r1) {
                From(.r1x) { On(.step, transitionTo: .r1y, emit: "r1") }
                From(.r1y) {}
            }
            From(.r2) {
                From(.r2x) { On(.step, transitionTo: .r2y, emit: "r2") }
                From(.r2y) {}
            }
        }
        From(.a, history: .shallow) {
            OnEntry(emit: "enter a")
            On(.leave, transitionTo: .idle)
            From(.a1) {
                OnEntry(emit: "enter a1")
                On(.step, transitionTo: .a2)
            }
            From(.a2) { OnEntry(emit: "enter a2") }
        }
        From(.job) {
            OnDone(transitionTo: .r1y, alsoEntering: .r2y, emit: "done")
            From(.working) { On(.step, transitionTo: .finished) }
            Final(.finished)
        }
        From(.checking) {
            Always(transitionTo: .a, ignoringHistory: true, emit: "checked")
        }
    }
}

/// The same chart with the operator API; each route's action, and the entry
/// and exit handlers of the states with effects, log what the definition emits.
private func operatorChart(effects: Log) -> Chart {
    let chart = Chart(state: .idle)
    chart.addRegions([.r1, .r2], to: .p)
    chart.addChildren([.r1x, .r1y], to: .r1)
    chart.addChildren([.r2x, .r2y], to: .r2)
    chart.addChildren([.a1, .a2], to: .a)
    chart.addHistory(.shallow, to: .a)
    chart.addChildren([.working, .finished], to: .job)
    chart.addFinalState(.finished)
    chart.addRoute(event: .both, (.idle => .r1y).alsoEntering(.r2y)) { _ in effects("both") }
    chart.addRoute(event: .enter, .idle => .a) { _ in effects("enter") }
    chart.addRoute(event: .restart, .ignoringHistory(.idle => .a)) { _ in effects("restart") }
    chart.addRoutes(event: .finish, transitions: [.idle => .job])
    chart.addRoutes(event: .check, transitions: [.idle => .checking])
    chart.addRoutes(event: .leave, transitions: [.p => .idle])
    chart.addRoute(event: .step, .r1x => .r1y) { _ in effects("r1") }
    chart.addRoute(event: .step, .r2x => .r2y) { _ in effects("r2") }
    chart.addRoutes(event: .leave, transitions: [.a => .idle])
    chart.addRoutes(event: .step, transitions: [.a1 => .a2, .working => .finished])
    chart.addDoneRoute((.job => .r1y).alsoEntering(.r2y), action: { _ in effects("done") })
    chart.addEventlessRoute(.ignoringHistory(.checking => .a), action: { _ in effects("checked") })
    chart.addEntryHandler(.p) { _ in effects("enter p") }
    chart.addExitHandler(.p) { _ in effects("exit p") }
    for state in [Node.a, .a1, .a2] {
        chart.addEntryHandler(state) { _ in effects("enter \(state)") }
    }
    return chart
}

/// Every route of the chart, several targets and ignoring history each by
/// event, done and eventless route (and a `step` no route takes, in `p`):
/// `a` is left in `a2` before each move that ignores its history.
private let events: [Go] = [
    .both, .step, .leave, .enter, .step, .leave, .enter, .leave, .restart, .step, .leave, .finish, .step, .leave,
    .enter, .leave, .check, .leave,
]

@Suite struct TargetsDefinitionTests {
    // MARK: Beside the operator API

    @Test func aMachineMadeFromTheDefinitionMatchesTheOperatorAPI() {
        let made = definition().makeMachine()
        let written = operatorChart(effects: Log())
        let madeLog = Log()
        let writtenLog = Log()
        logSteps(of: made, to: madeLog)
        logSteps(of: written, to: writtenLog)
        for event in events {
            #expect(made.tryEvent(event) == written.tryEvent(event), "\(event)")
            #expect(madeLog.lines == writtenLog.lines, "\(event)")
            #expect(made.configuration == written.configuration, "after \(event)")
            madeLog.clear()
            writtenLog.clear()
        }
    }

    @Test func severalTargetsEnterEachInItsRegionInOneStep() {
        let machine = definition().makeMachine()
        let log = Log()
        logSteps(of: machine, to: log)
        machine <-! .both
        #expect(
            log.lines == ["exit idle", "both: idle => p", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2y"])
        log.clear()
        machine <-! .leave <-! .finish <-! .step
        #expect(machine.configuration == [.p, .r1, .r1y, .r2, .r2y])
        #expect(
            log.lines.suffix(7) == [
                "exit job", "state: finished => p", "enter p", "enter r1", "enter r1y", "enter r2", "enter r2y",
            ])
    }

    @Test func ignoringHistoryEntersTheInitialChildNotWhatWasRecorded() {
        let machine = definition().makeMachine()
        machine <-! .enter <-! .step <-! .leave
        #expect(machine.recordedHistory(of: .a) == [.a2])
        machine <-! .enter
        #expect(machine.state == .a2)
        machine <-! .leave <-! .restart
        #expect(machine.state == .a1)
        machine <-! .step <-! .leave <-! .check
        #expect(machine.state == .a1)
    }

    // MARK: An effect machine

    @Test func anEffectMachineReportsTheEffectsInTheOrderTheOperatorChartRunsThem() {
        let machine = EffectMachine(definition())
        let log = Log()
        let written = operatorChart(effects: log)
        for event in events {
            let transition = try? machine.attemptTransition(event).get()
            #expect((transition != nil) == written.tryEvent(event), "\(event)")
            #expect((transition?.effects ?? []) == log.lines, "\(event)")
            #expect(machine.machine.configuration == written.configuration, "after \(event)")
            log.clear()
        }
    }

    @Test func anEffectMachineReportsSeveralTargetsAndIgnoredHistory() throws {
        let machine = EffectMachine(definition())
        #expect(try machine.transition(.both).effects == ["both", "enter p"])
        #expect(try machine.transition(.leave).effects == ["exit p"])
        #expect(try machine.transition(.enter).effects == ["enter", "enter a", "enter a1"])
        #expect(try machine.transition(.step).effects == ["enter a2"])
        #expect(try machine.transition(.leave).effects == [])
        #expect(try machine.transition(.restart).effects == ["restart", "enter a", "enter a1"])
        #expect(try machine.transition(.leave).effects == [])
        // The step, then the done route it enables, in one transition.
        #expect(try machine.transition(.finish).effects == [])
        #expect(try machine.transition(.step).effects == ["done", "enter p"])
        #expect(try machine.transition(.leave).effects == ["exit p"])
        #expect(try machine.transition(.check).effects == ["checked", "enter a", "enter a1"])
    }

    // MARK: The effects of several clauses in one step

    @Test func theEffectsOfClausesTakenInOneStepComeInTransitionOrder() throws {
        // r2's clause is written first, though its region comes second: its
        // effect comes second, as the actions of routes run in transition
        // order (the regions in document order), whatever the order written.
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
        #expect(log.lines == ["r1", "r2"])

        let machine = EffectMachine(definition)
        let step = try machine.transition(.step)
        #expect(step.effects == log.lines)
        #expect(machine.machine.configuration == written.configuration)
    }

    // MARK: The pure function

    @Test func thePureFunctionAnswersIgnoringHistoryWhereNoStateKeepsHistory() {
        // Without history, entering a state afresh is entering it: the same answer.
        let definition = Definition<Node, Go, String>(initialState: .idle) {
            From(.idle) {
                On(.enter, transitionTo: .a, emit: "enter")
                On(.restart, transitionTo: .a, ignoringHistory: true, emit: "restart")
            }
            From(.a) {
                OnEntry(emit: "enter a")
                From(.a1) {}
                From(.a2) {}
            }
        }
        let restarted = definition.transition(from: .idle, on: .restart)
        #expect(restarted == Definition.Outcome(toState: .a1, effects: ["restart", "enter a"]))
        #expect(definition.transition(from: .idle, on: .enter)?.toState == restarted?.toState)
        let machine = definition.makeMachine()
        machine <-! .restart
        #expect(machine.state == restarted?.toState)
    }

    @Test func thePureFunctionRefusesADefinitionWithSeveralTargets() async throws {
        // Several targets need regions, and ignoring history needs history:
        // one state does not say the configuration of either.
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = definition().transition(from: .idle, on: .both)
        }
        #expect(message(of: result).contains("has regions or history"))
    }

    // MARK: Misuse

    @Test func targetsInOneRegionStopWhenTheDefinitionIsMade() async throws {
        let onEvent = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Node, Go, String>(initialState: .idle) {
                From(.idle) { On(.both, transitionTo: .r1x, alsoEntering: .r1y) }
                Parallel(.p) {
                    From(.r1) {
                        From(.r1x) {}
                        From(.r1y) {}
                    }
                    From(.r2) {}
                }
            }
        }
        #expect(
            message(of: onEvent).contains(
                "the targets r1x and r1y of idle => r1x + r1y are not in different regions of one parallel state"))
        let outside = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Node, Go, String>(initialState: .idle) {
                From(.idle) { Always(transitionTo: .r1, alsoEntering: .a).guard { false } }
                Parallel(.p) {
                    From(.r1) {}
                    From(.r2) {}
                }
            }
        }
        #expect(
            message(of: outside).contains(
                "the targets r1 and a of idle => r1 + a are not in different regions of one parallel state"))
        let done = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Node, Go, String>(initialState: .idle) {
                From(.job) {
                    OnDone(transitionTo: .p, alsoEntering: .r2)
                    Final(.finished)
                }
                Parallel(.p) {
                    From(.r1) {}
                    From(.r2) {}
                }
            }
        }
        #expect(message(of: done).contains("are not in different regions of one parallel state"))
    }

    @Test func severalTargetsFromACasePatternStop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Page, Go, String>(initialState: .list) {
                From(Page.detail) { On(.both, transitionTo: .left, alsoEntering: .right) }
                Parallel(.split) {
                    From(.left) {}
                    From(.right) {}
                }
            }
        }
        #expect(
            message(of: result).contains("a case pattern: such a clause is answered by the definition's route mapping"))
    }
}
