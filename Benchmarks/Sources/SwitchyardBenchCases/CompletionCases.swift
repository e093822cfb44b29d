import Switchyard

// What a statechart does after a step and before any later request: eventless
// routes and done routes (final states), against hand-written `switch`
// machines that check the same follow-ups after each event.
//
// - `eventless-3`: one event, then three eventless steps that bring the
//   machine back to where it started (s0 -next-> s1 -> s2 -> s3 -> s0); the
//   first eventless route has a condition.
// - `done-parallel`: one round of a parallel state with two regions: an event
//   moves each region to its final state, the second completes the parallel
//   state and its done route is taken, and a third event enters it again.
//
// Each side has one observer of every step (an `.any => .any` handler, as in
// `event-small`), so that the checksums show that both took the same steps,
// the eventless and done ones included.

extension BenchCase {
    static let eventless3 = BenchCase(
        name: "eventless-3",
        summary: "tryEvent s0 => s1, then eventless s1 => s2 (with a condition), s2 => s3, s3 => s0; one handler "
            + "for every step",
        switchyard: {
            let counter = Counter()
            let checks = Counter()
            let machine = Machine<Light, LightEvent>(state: .s0) { machine in
                machine.addRoutes(event: .next, transitions: [.s0 => .s1])
                machine.addEventlessRoute(.s1 => .s2) { _ in
                    checks.value &+= 1
                    return true
                }
                machine.addEventlessRoute(.s2 => .s3)
                machine.addEventlessRoute(.s3 => .s0)
                machine.addAnyHandler(.any => .any) { _ in counter.value &+= 1 }
            }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.tryEvent(.next) {
                    moved &+= 1
                }
                return moved &+ counter.value &+ checks.value
            }
        },
        dictionary: {
            let counter = Counter()
            let checks = Counter()
            let machine = EventlessSwitchMachine {
                checks.value &+= 1
                return true
            }
            machine.handlers.append { _ in counter.value &+= 1 }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations where machine.fire(.next) {
                    moved &+= 1
                }
                return moved &+ counter.value &+ checks.value
            }
        },
        handSwitch: nil
    )

    static let doneParallel = BenchCase(
        name: "done-parallel",
        summary: "one round of order ‖ payment { unpaid, paid* } ‖ packing { unpacked, packed* }: tryEvent pay, "
            + "tryEvent pack (then the done route order => shipped), tryEvent reorder; one handler for every step",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Order, OrderEvent>(state: .order) { machine in
                machine.addRegions([.payment, .packing], to: .order)
                machine.addChildren([.unpaid, .paid], to: .payment)
                machine.addChildren([.unpacked, .packed], to: .packing)
                machine.addFinalState(.paid)
                machine.addFinalState(.packed)
                machine.addRoutes(event: .pay, transitions: [.unpaid => .paid])
                machine.addRoutes(event: .pack, transitions: [.unpacked => .packed])
                machine.addDoneRoute(.order => .shipped)
                machine.addRoutes(event: .reorder, transitions: [.shipped => .order])
                machine.addAnyHandler(.any => .any) { _ in counter.value &+= 1 }
            }
            machine.start()
            counter.value = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(.pay) { moved &+= 1 }
                    if machine.tryEvent(.pack) { moved &+= 1 }
                    if machine.tryEvent(.reorder) { moved &+= 1 }
                }
                return moved &+ counter.value
            }
        },
        dictionary: {
            let counter = Counter()
            let machine = OrderSwitchMachine()
            machine.handlers.append { _ in counter.value &+= 1 }
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.fire(.pay) { moved &+= 1 }
                    if machine.fire(.pack) { moved &+= 1 }
                    if machine.fire(.reorder) { moved &+= 1 }
                }
                return moved &+ counter.value
            }
        },
        handSwitch: nil
    )
}

/// The states of the `done-parallel` chart:
/// order ‖ payment { unpaid, paid* } ‖ packing { unpacked, packed* }, and
/// shipped, where order's done route leads.
private enum Order: StateType {
    case order, payment, unpaid, paid, packing, unpacked, packed, shipped
}

/// The events of the `done-parallel` chart.
private enum OrderEvent: EventType {
    case pay, pack, reorder
}

/// The `eventless-3` machine by hand: `next` takes s0 => s1, and after it the
/// machine follows s1 => s2 (while its condition holds), s2 => s3 and
/// s3 => s0 until none applies, as Switchyard's eventless routes do.
private final class EventlessSwitchMachine {
    private(set) var state = Light.s0
    var handlers: [(Change<Light, LightEvent>) -> Void] = []
    /// The condition of s1 => s2.
    private let isReady: () -> Bool

    init(isReady: @escaping () -> Bool) {
        self.isReady = isReady
    }

    func fire(_ event: LightEvent) -> Bool {
        switch (state, event) {
        case (.s0, .next): move(to: .s1, on: event)
        default: return false
        }
        // Switchyard cuts a cycle of eventless routes at the same limit.
        var steps = 0
        while let next = eventlessTarget() {
            steps += 1
            precondition(steps <= 1_000, "the eventless routes of eventless-3 do not settle")
            move(to: next, on: nil)
        }
        return true
    }

    private func eventlessTarget() -> Light? {
        switch state {
        case .s0: nil
        case .s1: isReady() ? .s2 : nil
        case .s2: .s3
        case .s3: .s0
        }
    }

    private func move(to next: Light, on event: LightEvent?) {
        let change = Change(event: event, from: state, to: next)
        state = next
        for handler in handlers {
            handler(change)
        }
    }
}

/// The `done-parallel` chart by hand: a state for each region, and after
/// each event a check whether both are final, which takes order => shipped.
private final class OrderSwitchMachine {
    private enum Payment {
        case unpaid, paid
    }

    private enum Packing {
        case unpacked, packed
    }

    private var isShipped = false
    private var payment = Payment.unpaid
    private var packing = Packing.unpacked
    var handlers: [(Change<Order, OrderEvent>) -> Void] = []

    func fire(_ event: OrderEvent) -> Bool {
        switch event {
        case .pay:
            guard !isShipped, payment == .unpaid else { return false }
            payment = .paid
            run(Change(event: event, from: .order, to: .order))
        case .pack:
            guard !isShipped, packing == .unpacked else { return false }
            packing = .packed
            run(Change(event: event, from: .order, to: .order))
        case .reorder:
            guard isShipped else { return false }
            isShipped = false
            payment = .unpaid
            packing = .unpacked
            run(Change(event: event, from: .shipped, to: .order))
        }
        if !isShipped, payment == .paid, packing == .packed {
            isShipped = true
            run(Change(event: nil, from: .order, to: .shipped))
        }
        return true
    }

    private func run(_ change: Change<Order, OrderEvent>) {
        for handler in handlers {
            handler(change)
        }
    }
}
