//: [Previous: Transition Tables](@previous)
//:
//: # The definition DSL
//:
//: A machine written as data: from this state, on this event, go there and
//: emit this. The effects are values handed back with each transition; the
//: library never runs them.
import Switchyard

enum Screen: StateType {
    case loading, saving, saved, failed
}

enum ScreenEvent: EventType {
    case loadSucceeded, saveSucceeded, failed, refresh
}

enum ScreenEffect: Equatable {
    case save, showSaved, showError, load
}

var canRefresh = true

let screen = Definition<Screen, ScreenEvent, ScreenEffect>(initialState: .loading) {
    From(.loading) {
        On(.loadSucceeded, transitionTo: .saving, emit: .save)
    }
    From(.saving) {
        On(.saveSucceeded, transitionTo: .saved, emit: .showSaved)
    }
    From(.loading, .saving) {
        On(.failed, transitionTo: .failed, emit: .showError)
    }
    From(.failed) {
        On(.refresh, transitionTo: .loading, emit: .load)
            .disable { !canRefresh }
    }
}

//: The pure function: no machine, nothing changes. Test the logic as a function.
assert(screen.transition(from: .loading, on: .loadSucceeded) == .init(toState: .saving, effects: [.save]))
assert(screen.transition(from: .saved, on: .failed) == nil)

//: An effect machine moves, returns the effects, and tells its observers of
//: every valid and invalid transition.
let machine = EffectMachine(screen)
var heard: [String] = []
machine.onTransition { result in
    switch result {
    case .success(let transition):
        heard.append("\(transition.toState): \(transition.effects.map { "\($0)" }.joined(separator: ", "))")
    case .failure(let error): heard.append("refused \(error.reason)")
    }
}
machine.attemptTransition(.loadSucceeded)
machine.attemptTransition(.refresh)
machine.attemptTransition(.failed)
canRefresh = false
machine.attemptTransition(.refresh)
assert(machine.state == .failed)
assert(heard == ["saving: save", "refused noRoute", "failed: showError", "refused conditionsRefused"])

//: The same definition builds a plain machine: the operator API and handlers work on it.
let plain = screen.makeMachine()
plain.addRoutes(event: .refresh, transitions: [.saved => .loading])
plain <-! .loadSucceeded <-! .saveSucceeded <-! .refresh
assert(plain.state == .loading)
print(heard)

//: [Next: Concurrency](@next)
