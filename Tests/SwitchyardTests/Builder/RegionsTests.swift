import Switchyard
import Testing

// Regions in the DSL: a `Parallel` state whose regions all react to one
// event in one step, through an effect machine (the pure function answers
// from one state, which does not say what regions are in).

private enum Key: StateType {
    case off, keyboard, capsLock, capsOff, capsOn, numLock, numOff, numOn
}

private enum Press: EventType {
    case plug, unplug, caps, num, both
}

private func keyboard() -> Definition<Key, Press, String> {
    Definition(initialState: .off) {
        From(.off) { On(.plug, transitionTo: .keyboard, emit: "plugged") }
        Parallel(.keyboard) {
            OnEntry(emit: "enter keyboard")
            OnExit(emit: "exit keyboard")
            On(.unplug, transitionTo: .off, emit: "unplugged")
            From(.capsLock) {
                From(.capsOff) {
                    On(.caps, transitionTo: .capsOn, emit: "caps on")
                    On(.both, transitionTo: .capsOn, emit: "both: caps on")
                }
                From(.capsOn) { On(.caps, transitionTo: .capsOff, emit: "caps off") }
            }
            From(.numLock) {
                OnExit(emit: "exit num lock")
                From(.numOff) {
                    On(.num, transitionTo: .numOn, emit: "num on")
                    On(.both, transitionTo: .numOn, emit: "both: num on")
                }
                From(.numOn) { On(.num, transitionTo: .numOff, emit: "num off") }
            }
        }
    }
}

@Suite struct RegionsTests {
    @Test func oneEventMovesEveryRegionInOneStepWithEachClausesEffects() throws {
        let machine = EffectMachine(keyboard())
        var heard: [[String]] = []
        machine.onTransition { result in
            if case .success(let transition) = result { heard.append(transition.effects) }
        }
        #expect(machine.start().isEmpty)

        let plugged = try machine.transition(.plug)
        #expect(plugged.effects == ["plugged", "enter keyboard"])
        #expect(machine.machine.configuration == [.keyboard, .capsLock, .capsOff, .numLock, .numOff])

        let both = try machine.transition(.both)
        #expect(both.effects == ["both: caps on", "both: num on"])
        #expect(machine.machine.configuration == [.keyboard, .capsLock, .capsOn, .numLock, .numOn])

        #expect(try machine.transition(.caps).effects == ["caps off"])
        // Only the caps region has a clause for `both` now: the other stays.
        #expect(try machine.transition(.both).effects == ["both: caps on"])
        #expect(machine.attemptTransition(.plug).failureReason == .noRoute)

        let unplugged = try machine.transition(.unplug)
        #expect(unplugged.effects == ["exit num lock", "exit keyboard", "unplugged"])
        #expect(machine.state == .off)
        #expect(heard.count == 5)
    }

    @Test func thePureFunctionRefusesADefinitionWithRegions() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = keyboard().transition(from: .capsOff, on: .caps)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("ask an EffectMachine instead"))
    }
}
