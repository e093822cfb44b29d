import Switchyard
import Testing

@Suite struct StateTests {
    // MARK: State

    @Test(arguments: MyState.allCases)
    func stateWrapperEqualsItsPlainValueInBothOrders(state: MyState) {
        let wrapped = State<MyState>.some(state)
        #expect(wrapped == state)
        #expect(state == wrapped)
        for other in MyState.allCases where other != state {
            #expect(!(wrapped == other))
            #expect(!(other == wrapped))
        }
    }

    @Test(arguments: MyState.allCases)
    func anyStateEqualsNoConcreteState(state: MyState) {
        let any = State<MyState>.any
        #expect(!(any == state))
        #expect(!(state == any))
        #expect(any != State.some(state))
        #expect(State.some(state) != any)
    }

    @Test func stateWrappersCompareByValue() {
        #expect(State<MyState>.some(.state1) == State.some(.state1))
        #expect(State<MyState>.some(.state1) != State.some(.state2))
        #expect(State<MyState>.any == State<MyState>.any)
    }

    @Test func stateIsHashable() {
        let states: Set<State<MyState>> = [.some(.state0), .some(.state1), .any, .some(.state0), .any]
        #expect(states.count == 3)
        #expect(states.contains(.any))
        #expect(states.contains(.some(.state1)))
        #expect(!states.contains(.some(.state2)))
        #expect(State<MyState>.some(.state2).hashValue == State<MyState>.some(.state2).hashValue)
    }

    @Test(arguments: MyState.allCases)
    func stateRawValueIsTheWrappedState(state: MyState) {
        #expect(State.some(state).rawValue == state)
        #expect(State(rawValue: state) == .some(state))
        #expect(State(rawValue: State.some(state).rawValue) == .some(state))
    }

    @Test func stateRawValueNilIsAny() {
        #expect(State<MyState>.any.rawValue == nil)
        #expect(State<MyState>(rawValue: nil) == .any)
    }

    @Test func stateDescriptionNamesTheStateOrAny() {
        #expect("\(State<MyState>.some(.state2))" == "state2")
        #expect("\(State<MyState>.any)" == "any")
    }

    @Test func stateWithAssociatedValuesComparesThePayload() {
        let wrapped = State<StrState>.some(.str("a"))
        #expect(wrapped == StrState.str("a"))
        #expect(StrState.str("a") == wrapped)
        #expect(!(wrapped == StrState.str("b")))
        #expect(!(State<StrState>.any == StrState.str("a")))
    }

    // MARK: Event

    @Test(arguments: MyEvent.allCases)
    func eventWrapperEqualsItsPlainValueInBothOrders(event: MyEvent) {
        let wrapped = Event<MyEvent>.some(event)
        #expect(wrapped == event)
        #expect(event == wrapped)
        for other in MyEvent.allCases where other != event {
            #expect(!(wrapped == other))
            #expect(!(other == wrapped))
        }
    }

    @Test(arguments: MyEvent.allCases)
    func anyEventEqualsNoConcreteEvent(event: MyEvent) {
        let any = Event<MyEvent>.any
        #expect(!(any == event))
        #expect(!(event == any))
        #expect(any != Event.some(event))
        #expect(Event.some(event) != any)
    }

    @Test func eventWrappersCompareByValue() {
        #expect(Event<MyEvent>.some(.event1) == Event.some(.event1))
        #expect(Event<MyEvent>.some(.event1) != Event.some(.event2))
        #expect(Event<MyEvent>.any == Event<MyEvent>.any)
    }

    @Test func eventIsHashable() {
        let events: Set<Event<MyEvent>> = [.some(.event0), .any, .some(.event0), .some(.event2), .any]
        #expect(events.count == 3)
        #expect(events.contains(.any))
        #expect(events.contains(.some(.event2)))
        #expect(!events.contains(.some(.event1)))
        #expect(Event<MyEvent>.some(.event1).hashValue == Event<MyEvent>.some(.event1).hashValue)
    }

    @Test(arguments: MyEvent.allCases)
    func eventRawValueIsTheWrappedEvent(event: MyEvent) {
        #expect(Event.some(event).rawValue == event)
        #expect(Event(rawValue: event) == .some(event))
    }

    @Test func eventRawValueNilIsAny() {
        #expect(Event<MyEvent>.any.rawValue == nil)
        #expect(Event<MyEvent>(rawValue: nil) == .any)
    }

    @Test func eventDescriptionNamesTheEventOrAny() {
        #expect("\(Event<MyEvent>.some(.event1))" == "event1")
        #expect("\(Event<MyEvent>.any)" == "any")
    }

    // MARK: NoEvent

    @Test func noEventMakesAStateDrivenMachine() {
        let log = Log()
        let machine = StateMachine<MyState, NoEvent>(state: .state0) { machine in
            machine.addRoute(.state0 => .state1)
            machine.addAnyHandler(.any => .any) { context in
                // `NoEvent` has no cases: this switch only compiles while that stays true.
                if let event = context.event {
                    switch event {}
                }
                log("\(context.fromState) => \(context.toState)")
            }
        }
        let sameClass: Machine<MyState, NoEvent> = machine
        sameClass <- .state1
        #expect(machine.state == .state1)
        #expect(!machine.tryState(.state0))
        #expect(log.lines == ["state0 => state1"])
    }
}
