import Switchyard
import Testing

// The Feedbacks DSL's example: states and events identified by the type
// their case carries, a target computed from the event, a fixed target, and
// `.disable { !isSuperUser }`.

private struct Loading: Hashable {
    var page: Int
}

private struct Loaded: Hashable {
    var page: Int
    var items: [String]
}

private struct Failed: Hashable {
    var page: Int
}

private enum Feed: StateType {
    case loading(Loading)
    case loaded(Loaded)
    case failed(Failed)
}

private struct LoadingSucceeded: Hashable {
    var items: [String]
}

private struct LoadingFailed: Hashable {}

private struct Refresh: Hashable {}

private enum FeedEvent: EventType {
    case loadingSucceeded(LoadingSucceeded)
    case loadingFailed(LoadingFailed)
    case refresh(Refresh)
}

/// Whether the user may refresh; the definition asks on every request.
private final class Session {
    var isSuperUser = false
}

private func feed(_ session: Session) -> Definition<Feed, FeedEvent, Never> {
    Definition(initialState: .loading(Loading(page: 0))) {
        From(Loading.self) {
            On(LoadingSucceeded.self) { loading, event in
                .loaded(Loaded(page: loading.page, items: event.items))
            }
            On(LoadingFailed.self) { loading, _ in .failed(Failed(page: loading.page)) }
        }
        From(Loaded.self) {
            On(Refresh.self, transitionTo: .loading(Loading(page: 0)))
        }
        .disable { !session.isSuperUser }
        From(Failed.self) {
            On(Refresh.self) { failed, _ in .loading(Loading(page: failed.page)) }
        }
    }
}

/// The same, each target written as the value its case carries, the case named once.
private func feedNamingCases(_ session: Session) -> Definition<Feed, FeedEvent, Never> {
    Definition(initialState: .loading(Loading(page: 0))) {
        From(Loading.self) {
            On(LoadingSucceeded.self, to: Feed.loaded) { loading, event in
                Loaded(page: loading.page, items: event.items)
            }
            On(LoadingFailed.self, to: Feed.failed) { loading, _ in Failed(page: loading.page) }
        }
        From(Loaded.self) {
            On(Refresh.self, to: Feed.loading) { _ in Loading(page: 0) }
        }
        .disable { !session.isSuperUser }
        From(Failed.self) {
            On(Refresh.self, to: Feed.loading) { failed, _ in Loading(page: failed.page) }
        }
    }
}

@Suite struct FeedbacksExampleTests {
    @Test func targetsWrittenAsTheValueTheirCaseCarriesDecideAlike() {
        let session = Session()
        let states: [Feed] = [
            .loading(Loading(page: 2)), .loaded(Loaded(page: 2, items: ["x"])), .failed(Failed(page: 2)),
        ]
        let events: [FeedEvent] = [
            .loadingSucceeded(LoadingSucceeded(items: ["y"])), .loadingFailed(LoadingFailed()), .refresh(Refresh()),
        ]
        for isSuperUser in [false, true] {
            session.isSuperUser = isSuperUser
            for state in states {
                for event in events {
                    #expect(
                        feedNamingCases(session).transition(from: state, on: event)
                            == feed(session).transition(from: state, on: event), "\(state) \(event)")
                }
            }
        }
    }

    @Test func aCaseIsMatchedByTheTypeItCarriesAndTheClosureGetsThatValue() throws {
        let session = Session()
        let machine = EffectMachine(feed(session))
        try machine.transition(.loadingSucceeded(LoadingSucceeded(items: ["a", "b"])))
        #expect(machine.state == .loaded(Loaded(page: 0, items: ["a", "b"])))
    }

    @Test func disableTurnsTheGroupOffWhileItsConditionHolds() throws {
        let session = Session()
        let definition = feed(session)
        let loaded = Feed.loaded(Loaded(page: 3, items: []))
        #expect(definition.attemptTransition(from: loaded, on: .refresh(Refresh())).failureReason == .conditionsRefused)

        session.isSuperUser = true
        #expect(
            definition.transition(from: loaded, on: .refresh(Refresh()))
                == .init(toState: .loading(Loading(page: 0)), effects: []))

        let machine = EffectMachine(definition)
        try machine.transition(.loadingSucceeded(LoadingSucceeded(items: [])))
        try machine.transition(.refresh(Refresh()))
        #expect(machine.state == .loading(Loading(page: 0)))
        session.isSuperUser = false
        try machine.transition(.loadingSucceeded(LoadingSucceeded(items: [])))
        #expect(machine.attemptTransition(.refresh(Refresh())).failureReason == .conditionsRefused)
    }

    @Test func everyStateCaseAndEventCaseThroughTheMachineAndThePureFunction() throws {
        let session = Session()
        session.isSuperUser = true
        let definition = feed(session)
        let states: [Feed] = [
            .loading(Loading(page: 2)), .loaded(Loaded(page: 2, items: ["x"])), .failed(Failed(page: 2)),
        ]
        let events: [FeedEvent] = [
            .loadingSucceeded(LoadingSucceeded(items: ["y"])), .loadingFailed(LoadingFailed()), .refresh(Refresh()),
        ]
        let expected: [Feed?] = [
            .loaded(Loaded(page: 2, items: ["y"])), .failed(Failed(page: 2)), nil,
            nil, nil, .loading(Loading(page: 0)),
            nil, nil, .loading(Loading(page: 2)),
        ]
        for (stateIndex, state) in states.enumerated() {
            for (eventIndex, event) in events.enumerated() {
                let target = expected[stateIndex * events.count + eventIndex]
                let pure = definition.attemptTransition(from: state, on: event)
                let plain = Machine<Feed, FeedEvent>(state: state)
                plain.addDefinition(definition)
                let moved = plain.attemptEvent(event)
                if let target {
                    #expect(try pure.get().toState == target, "\(state) \(event)")
                    #expect(try moved.get() == target, "\(state) \(event)")
                } else {
                    #expect(pure.failureReason == .noRoute, "\(state) \(event)")
                    #expect(moved.failureReason == .noRoute, "\(state) \(event)")
                }
            }
        }
    }
}
