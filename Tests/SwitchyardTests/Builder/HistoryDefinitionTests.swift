import Switchyard
import Testing

// History defaults and history of parallel states declared with the DSL
// behave as the same declarations made with the operator API.

private enum Room: StateType, CaseIterable {
    case hall, player, playing, paused, seeking, stereo, left, volume, quiet, loud
}

private enum Press: EventType {
    case enter, leave, pause, seek, swap, louder
}

/// `player { playing, paused { seeking } }` with deep history defaulting to
/// `seeking`, and `stereo ‖ left ‖ volume { quiet, loud }` with deep
/// history defaulting to `loud`.
private func definition() -> Definition<Room, Press, String> {
    Definition(initialState: .hall) {
        From(.hall) {
            On(.enter, transitionTo: .player)
            On(.swap, transitionTo: .stereo)
        }
        From(.player, history: .deep, historyDefault: .seeking) {
            On(.leave, transitionTo: .hall)
            From(.playing) { On(.pause, transitionTo: .paused) }
            From(.paused) {
                From(.seeking) { On(.seek, transitionTo: .playing) }
            }
        }
        Parallel(.stereo, history: .deep, historyDefault: .loud) {
            On(.leave, transitionTo: .hall)
            From(.left) {}
            From(.volume) {
                From(.quiet) { On(.louder, transitionTo: .loud) }
                From(.loud) {}
            }
        }
    }
}

/// The same chart with the operator API.
private func operatorChart() -> Machine<Room, Press> {
    let chart = Machine<Room, Press>(state: .hall)
    chart.addChildren([.playing, .paused], to: .player)
    chart.addChildren([.seeking], to: .paused)
    chart.addRegions([.left, .volume], to: .stereo)
    chart.addChildren([.quiet, .loud], to: .volume)
    chart.addHistory(.deep, to: .player, default: .seeking)
    chart.addHistory(.deep, to: .stereo, default: .loud)
    chart.addRoutes(event: .enter, transitions: [.hall => .player])
    chart.addRoutes(event: .swap, transitions: [.hall => .stereo])
    chart.addRoutes(event: .leave, transitions: [.player => .hall, .stereo => .hall])
    chart.addRoutes(event: .pause, transitions: [.playing => .paused])
    chart.addRoutes(event: .seek, transitions: [.seeking => .playing])
    chart.addRoutes(event: .louder, transitions: [.quiet => .loud])
    return chart
}

@Suite struct HistoryDefinitionTests {
    @Test func historyDefaultsAndParallelHistoryMatchTheOperatorAPI() {
        let made = definition().makeMachine()
        let written = operatorChart()
        let events: [Press] = [.enter, .seek, .leave, .enter, .leave, .swap, .leave, .swap, .louder]
        for event in events {
            #expect(made.tryEvent(event) == written.tryEvent(event), "\(event)")
            #expect(made.configuration == written.configuration, "after \(event)")
        }
    }

    @Test func theHistoryDefaultIsEnteredBeforeAnythingIsRecorded() {
        let machine = definition().makeMachine()
        machine <-! .enter
        #expect(machine.configuration == [.player, .paused, .seeking])
        machine <-! .leave
        machine <-! .swap
        #expect(machine.configuration == [.stereo, .left, .volume, .loud])
    }

    @Test func aHistoryDefaultWithoutHistoryStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Definition<Room, Press, String>(initialState: .hall) {
                From(.player, historyDefault: .paused) {
                    From(.playing) {}
                    From(.paused) {}
                }
            }
        }
        #expect(message(of: result).contains("gives a history default but keeps no history"))
    }
}
