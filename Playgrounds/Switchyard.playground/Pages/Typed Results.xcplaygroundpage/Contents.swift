//: [Previous: Route Mappings](@previous)
//:
//: # Typed results
//:
//: `tryEvent` and `tryState` answer with a `Bool`. `attemptEvent` and
//: `attemptState` do the same work (handlers and error handlers included)
//: and return a `Result` whose error says why a request was refused.
import Switchyard

enum Order: StateType {
    case cart, paid, shipped, delivered, cancelled
}

enum OrderEvent: EventType {
    case pay, ship, deliver, cancel
}

let order = Machine<Order, OrderEvent>(state: .cart) { order in
    order.addRoutes(
        event: .pay,
        transitions: [.cart => .paid],
        condition: { context in (context.userInfo as? Int ?? 0) > 0 }
    )
    order.addRoutes(event: .ship, transitions: [.paid => .shipped])
    order.addRoutes(event: .deliver, transitions: [.shipped => .delivered])
    order.addRoutes(event: .cancel, routes: [[.cart, .paid] => .cancelled])
}

func report(_ request: String, _ result: Result<Order, TransitionError>) {
    switch result {
    case .success(let state):
        print("\(request): now \(state)")
    case .failure(let error):
        switch error.reason {
        case .noRoute:
            print("\(request): nothing handles that here (\(error))")
        case .conditionsRefused:
            print("\(request): a route exists but its condition said no (\(error))")
        case .unreachable:
            print("\(request): no way to get there from here (\(error))")
        case .stateNotListed:
            print("\(request): not from (or to) a state the route lists (\(error))")
        default:
            // Reason is a struct: later versions may add reasons.
            print("\(request): refused (\(error))")
        }
    }
}

report("ship", order.attemptEvent(.ship))
report("pay 0", order.attemptEvent(.pay, userInfo: 0))
report("pay 25", order.attemptEvent(.pay, userInfo: 25))
report("ask for delivered", order.attemptState(.delivered))
report("ship", order.attemptEvent(.ship))
report("cancel", order.attemptEvent(.cancel))

//: `Result.get()` turns a refusal into a thrown `TransitionError`, for code
//: that prefers `try`.
do {
    let state = try order.attemptEvent(.deliver).get()
    print("delivered:", state)
    _ = try order.attemptEvent(.deliver).get()
} catch {
    print("caught:", error.reason, "-", error)
}
assert(order.state == .delivered)

//: [Next: Statecharts](@next)
