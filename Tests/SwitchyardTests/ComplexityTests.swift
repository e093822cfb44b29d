import Switchyard
import Testing

// Structural guards for the performance contract (SPEC section 4), with no
// timing: a decision asks the same number of conditions and hashes the same
// number of states and events whatever the number of routes and handlers
// elsewhere in the machine. Every test owns its counter, which the state and
// event values carry, so parallel tests never share one.

/// What a machine did while deciding and delivering one request.
private struct Work: Equatable, CustomStringConvertible {
    var hashes = 0
    var conditions = 0
    /// Calls of the handlers an event-driven `s0 => s1` concerns.
    var handlers = 0
    /// Calls of the one state-driven `.any => .any` handler.
    var stateHandlers = 0
    /// Calls of handlers that no request of these tests concerns; always 0.
    var unrelatedHandlers = 0

    var description: String {
        "hashes: \(hashes), conditions: \(conditions), handlers: \(handlers), "
            + "state handlers: \(stateHandlers), unrelated: \(unrelatedHandlers)"
    }
}

/// The counter one test's states, events, conditions and handlers write to.
private final class WorkCounter {
    var work = Work()
}

/// A state that counts its `hash(into:)` calls.
private struct CountedState: StateType, CustomStringConvertible {
    var id: Int
    var counter: WorkCounter

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    func hash(into hasher: inout Hasher) {
        counter.work.hashes += 1
        hasher.combine(id)
    }

    var description: String { "s\(id)" }
}

/// An event that counts its `hash(into:)` calls.
private struct CountedEvent: EventType, CustomStringConvertible {
    var id: Int
    var counter: WorkCounter

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    func hash(into hasher: inout Hasher) {
        counter.work.hashes += 1
        hasher.combine(id)
    }

    var description: String { "e\(id)" }
}

private typealias CountedMachine = Machine<CountedState, CountedEvent>

/// Builds machines whose work can be counted, and counts it.
private struct Workbench {
    let counter = WorkCounter()

    func state(_ id: Int) -> CountedState { CountedState(id: id, counter: counter) }
    func event(_ id: Int) -> CountedEvent { CountedEvent(id: id, counter: counter) }

    /// A condition that counts its calls.
    func condition(_ result: Bool = true) -> CountedMachine.Condition {
        { [counter] _ in
            counter.work.conditions += 1
            return result
        }
    }

    /// A handler that counts its calls in `field`.
    func handler(_ field: WritableKeyPath<Work, Int>) -> CountedMachine.Handler {
        { [counter] _ in counter.work[keyPath: field] += 1 }
    }

    /// A machine in `s0` where `e0` takes `s0 => s1` and `tryState(s2)` may take
    /// `s0 => s2`, plus `unrelated` routes (event routes from other states,
    /// routes of other events, event-less routes between other states), every
    /// one with a counting condition.
    func machine(unrelatedRoutes unrelated: Int) -> CountedMachine {
        CountedMachine(state: state(0)) { machine in
            machine.addRoutes(event: event(0), transitions: [state(0) => state(1)], condition: condition())
            machine.addRoute(state(0) => state(2), condition: condition())
            let third = unrelated / 3
            machine.addRoutes(
                event: event(0),
                transitions: (0..<third).map { state(100 + $0) => state(101 + $0) },
                condition: condition()
            )
            for index in 0..<third {
                machine.addRoutes(
                    event: event(1 + index % 50), transitions: [state(0) => state(3)], condition: condition())
            }
            for index in 0..<(unrelated - 2 * third) {
                machine.addRoute(state(100 + index) => state(102 + index), condition: condition())
            }
        }
    }

    /// Adds the handlers a request from `s0` to `s1` by `e0` concerns, and
    /// `unrelated` handlers for other events and other transitions.
    func addHandlers(to machine: CountedMachine, unrelated: Int) {
        machine.addHandler(event: event(0), handler: handler(\.handlers))
        machine.addHandler(event: .any, handler: handler(\.handlers))
        machine.addAnyHandler(.any => .any, handler: handler(\.handlers))
        machine.addAnyHandler(state(0) => state(1), handler: handler(\.handlers))
        machine.addHandler(.any => .any, handler: handler(\.stateHandlers))
        for index in 0..<unrelated {
            switch index % 4 {
            case 0: machine.addHandler(event: event(1 + index), handler: handler(\.unrelatedHandlers))
            case 1:
                machine.addAnyHandler(state(100 + index) => state(101 + index), handler: handler(\.unrelatedHandlers))
            case 2: machine.addHandler(state(0) => state(100 + index), handler: handler(\.unrelatedHandlers))
            default: machine.addAnyHandler(state(100 + index) => .any, handler: handler(\.unrelatedHandlers))
            }
        }
    }

    /// The work `request` does on `machine`, counted from zero.
    func work(on machine: CountedMachine, _ request: (CountedMachine) -> Bool, expecting moved: Bool) -> Work {
        counter.work = Work()
        let didMove = request(machine)
        #expect(didMove == moved)
        return counter.work
    }
}

@Suite struct ComplexityTests {
    /// The requests whose cost must not depend on the number of routes.
    enum Request: String, CaseIterable, CustomStringConvertible {
        case eventTaken, eventWithoutRoute, eventRefusedByCondition, stateTaken, stateWithoutRoute, canTryEvent,
            hasRoute

        var description: String { rawValue }
    }

    private static func perform(_ request: Request, on machine: CountedMachine, in bench: Workbench) -> Bool {
        switch request {
        case .eventTaken: machine.tryEvent(bench.event(0))
        case .eventWithoutRoute: machine.tryEvent(bench.event(999))
        case .eventRefusedByCondition: machine.tryEvent(bench.event(1000))
        case .stateTaken: machine.tryState(bench.state(2))
        case .stateWithoutRoute: machine.tryState(bench.state(999))
        case .canTryEvent: machine.canTryEvent(bench.event(0)) != nil
        case .hasRoute: machine.hasRoute(fromState: bench.state(0), toState: bench.state(2))
        }
    }

    private static func expectsMove(_ request: Request) -> Bool {
        switch request {
        case .eventTaken, .stateTaken, .canTryEvent, .hasRoute: true
        case .eventWithoutRoute, .eventRefusedByCondition, .stateWithoutRoute: false
        }
    }

    private static func work(of request: Request, unrelatedRoutes: Int) -> Work {
        let bench = Workbench()
        let machine = bench.machine(unrelatedRoutes: unrelatedRoutes)
        // A route whose condition refuses, for `eventRefusedByCondition`.
        machine.addRoutes(
            event: bench.event(1000), transitions: [bench.state(0) => bench.state(5)], condition: bench.condition(false)
        )
        bench.addHandlers(to: machine, unrelated: 8)
        return bench.work(on: machine, { perform(request, on: $0, in: bench) }, expecting: expectsMove(request))
    }

    @Test(arguments: Request.allCases)
    func decisionWorkDoesNotGrowWithRoutes(_ request: Request) {
        let small = Self.work(of: request, unrelatedRoutes: 10)
        let large = Self.work(of: request, unrelatedRoutes: 10_000)
        #expect(small == large, "10 routes: \(small); 10,000 routes: \(large)")
        #expect(large.unrelatedHandlers == 0)
        #expect(large.hashes > 0, "the counting state type is not being hashed at all")
    }

    @Test func onlyTheTakenRoutesConditionIsAsked() {
        let takenByEvent = Self.work(of: .eventTaken, unrelatedRoutes: 10_000)
        #expect(takenByEvent.conditions == 1)
        let takenByState = Self.work(of: .stateTaken, unrelatedRoutes: 10_000)
        #expect(takenByState.conditions == 1)
        let refused = Self.work(of: .eventRefusedByCondition, unrelatedRoutes: 10_000)
        #expect(refused.conditions == 1)
    }

    /// The work of firing `e0` (or asking for `s2`) with `unrelated` handlers elsewhere.
    private static func deliveryWork(unrelatedHandlers unrelated: Int, byState: Bool) -> Work {
        let bench = Workbench()
        let machine = bench.machine(unrelatedRoutes: 30)
        bench.addHandlers(to: machine, unrelated: unrelated)
        if byState {
            return bench.work(on: machine, { $0.tryState(bench.state(2)) }, expecting: true)
        }
        return bench.work(on: machine, { $0.tryEvent(bench.event(0)) }, expecting: true)
    }

    @Test func eventDeliveryDoesNotDependOnUnrelatedHandlers() {
        let few = Self.deliveryWork(unrelatedHandlers: 10, byState: false)
        let many = Self.deliveryWork(unrelatedHandlers: 1_000, byState: false)
        #expect(few == many, "10 unrelated handlers: \(few); 1,000: \(many)")
        #expect(many.handlers == 4)
        #expect(many.stateHandlers == 0)
        #expect(many.unrelatedHandlers == 0)
    }

    @Test func stateDeliveryDoesNotDependOnUnrelatedHandlers() {
        let few = Self.deliveryWork(unrelatedHandlers: 10, byState: true)
        let many = Self.deliveryWork(unrelatedHandlers: 1_000, byState: true)
        #expect(few == many, "10 unrelated handlers: \(few); 1,000: \(many)")
        // `s0 => s2` by state: the `.any => .any` handlers of both kinds.
        #expect(many.handlers == 1)
        #expect(many.stateHandlers == 1)
        #expect(many.unrelatedHandlers == 0)
    }
}
