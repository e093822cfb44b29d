import Switchyard
import Testing

// The screen of issue 10: loading → saving on a successful load, saving →
// saved on a successful save, either → failed on a failure, failed → loading
// on refresh. Every state × event through the effect machine, the pure
// function and a plain machine made from the same definition.

enum SaveScreen: StateType, CaseIterable {
    case loading, saving, saved, failed
}

enum SaveScreenEvent: EventType, CaseIterable {
    case loadSucceeded, saveSucceeded, failed, refresh
}

enum SaveScreenEffect: Hashable {
    case save, showSaved, showError, reportFailure, load
}

private func screen(initialState: SaveScreen = .loading) -> Definition<SaveScreen, SaveScreenEvent, SaveScreenEffect> {
    Definition(initialState: initialState) {
        From(.loading) {
            On(.loadSucceeded, transitionTo: .saving, emit: .save)
        }
        From(.saving) {
            On(.saveSucceeded, transitionTo: .saved, emit: .showSaved)
        }
        From(.loading, .saving) {
            On(.failed, transitionTo: .failed, emit: .showError, .reportFailure)
        }
        From(.failed) {
            On(.refresh, transitionTo: .loading, emit: .load)
        }
    }
}

/// Every valid move: from, event, to, effects.
private let screenMoves: [(SaveScreen, SaveScreenEvent, SaveScreen, [SaveScreenEffect])] = [
    (.loading, .loadSucceeded, .saving, [.save]),
    (.saving, .saveSucceeded, .saved, [.showSaved]),
    (.loading, .failed, .failed, [.showError, .reportFailure]),
    (.saving, .failed, .failed, [.showError, .reportFailure]),
    (.failed, .refresh, .loading, [.load]),
]

@Suite struct ScreenExampleTests {
    @Test(arguments: SaveScreen.allCases)
    func everyEventThroughTheEffectMachineThePureFunctionAndAPlainMachine(from: SaveScreen) throws {
        for event in SaveScreenEvent.allCases {
            let expected = screenMoves.first { $0.0 == from && $0.1 == event }
            let definition = screen(initialState: from)
            let machine = EffectMachine(definition)
            var heard: [EffectMachine<SaveScreen, SaveScreenEvent, SaveScreenEffect>.Transition.Result] = []
            machine.onTransition { heard.append($0) }
            let plain = definition.makeMachine()

            let result = machine.attemptTransition(event)
            let pure = definition.attemptTransition(from: from, on: event)
            let plainResult = plain.attemptEvent(event)

            #expect(heard.count == 1, "\(from) \(event)")
            if let (_, _, to, effects) = expected {
                let valid = EffectMachine<SaveScreen, SaveScreenEvent, SaveScreenEffect>.Transition.Valid(
                    fromState: from, event: event, toState: to, effects: effects)
                #expect(try result.get() == valid, "\(from) \(event)")
                #expect(try heard.first?.get() == valid)
                #expect(machine.state == to)
                #expect(try pure.get() == .init(toState: to, effects: effects))
                #expect(definition.transition(from: from, on: event) == .init(toState: to, effects: effects))
                #expect(try plainResult.get() == to)
                #expect(plain.state == to)
            } else {
                #expect(result.failureReason == .noRoute, "\(from) \(event)")
                #expect(heard.first?.failureReason == .noRoute)
                #expect(machine.state == from)
                #expect(pure.failureReason == .noRoute)
                #expect(definition.transition(from: from, on: event) == nil)
                #expect(plainResult.failureReason == .noRoute)
                #expect(plain.state == from)
            }
        }
    }

    @Test func aRoundTripEmitsEachStepsEffectsInOrder() throws {
        let machine = EffectMachine(screen())
        var effects: [SaveScreenEffect] = []
        machine.onTransition { result in
            if case .success(let transition) = result { effects += transition.effects }
        }
        for event: SaveScreenEvent in [.loadSucceeded, .failed, .refresh, .loadSucceeded, .saveSucceeded] {
            try machine.transition(event)
        }
        #expect(machine.state == .saved)
        #expect(effects == [.save, .showError, .reportFailure, .load, .save, .showSaved])
    }

    @Test func theLibraryNeverRunsAnEffectItOnlyReturnsIt() throws {
        // Effects are plain values: closures stored as effects are not called.
        var ran = false
        let definition = Definition<SaveScreen, SaveScreenEvent, () -> Void>(initialState: .loading) {
            From(.loading) {
                On(.loadSucceeded, transitionTo: .saving, emit: { ran = true })
            }
        }
        let machine = EffectMachine(definition)
        let transition = try machine.transition(.loadSucceeded)
        #expect(!ran)
        #expect(transition.effects.count == 1)
        _ = definition.transition(from: .loading, on: .loadSucceeded)
        #expect(!ran)
        transition.effects.first?()
        #expect(ran)
    }
}
