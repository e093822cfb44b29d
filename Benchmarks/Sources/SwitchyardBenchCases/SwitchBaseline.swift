/// The small machines written as a `switch`: the informational baseline
/// (the fastest a hand-written machine gets; no table at all).
final class SwitchLightMachine {
    private(set) var state = Light.s0
    var handlers: [(Change<Light, LightEvent>) -> Void] = []
    var errorHandlers: [(Change<Light, LightEvent>) -> Void] = []

    func fire(_ event: LightEvent) -> Bool {
        let from = state
        let next: Light
        switch (from, event) {
        case (.s0, .next): next = .s1
        case (.s1, .next): next = .s2
        case (.s2, .next): next = .s3
        case (.s3, .reset): next = .s0
        default:
            let change = Change(event: event, from: from, to: from)
            for handler in errorHandlers { handler(change) }
            return false
        }
        return move(to: next, by: event)
    }

    /// The routes of the `any-routes` case.
    func fireWithWildcards(_ event: LightEvent) -> Bool {
        let next: Light
        switch (state, event) {
        case (_, .reset): next = .s0
        case (.s0, _): next = .s1
        case (.s1, _): next = .s2
        case (.s2, _): next = .s3
        case (.s3, _): next = .s3
        }
        return move(to: next, by: event)
    }

    func request(_ target: Light) -> Bool {
        switch (state, target) {
        case (.s0, .s1), (.s1, .s2), (.s2, .s3), (.s3, .s0): move(to: target, by: nil)
        default: false
        }
    }

    private func move(to next: Light, by event: LightEvent?) -> Bool {
        let change = Change(event: event, from: state, to: next)
        state = next
        for handler in handlers { handler(change) }
        return true
    }
}
