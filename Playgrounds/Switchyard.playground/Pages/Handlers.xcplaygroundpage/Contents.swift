//: [Previous: Events](@previous)
//:
//: # Handlers
//:
//: Handlers run after the state has changed. Each has an `order`
//: (100 unless you say otherwise); lower runs first.
import Switchyard

enum Door: StateType {
    case open, closed, locked
}

enum DoorEvent: EventType {
    case open, close, lock, unlock
}

let door = Machine<Door, DoorEvent>(state: .open) { door in
    door.addRoutes(event: .close, transitions: [.open => .closed])
    door.addRoutes(event: .open, transitions: [.closed => .open])
    door.addRoutes(event: .lock, transitions: [.closed => .locked])
    door.addRoutes(event: .unlock, transitions: [.locked => .closed])
}

door.addHandler(event: .any, order: 200) { context in
    print("  log (order 200): \(context)")
}
door.addAnyHandler(.any => .locked, order: 50) { _ in
    print("  locked (order 50)")
}
//: Handlers of equal order run most specific first: a handler for `.close`
//: runs before one for `.any` event, even when it was added later.
door.addHandler(event: .any) { context in
    print("  any event (order 100): \(context.fromState) => \(context.toState)")
}
door.addHandler(event: .close) { _ in
    print("  close (order 100)")
}
//: Error handlers hear of every refused request.
door.addErrorHandler { context in
    print("  refused: \(context.event.map { "\($0)" } ?? "request") while \(context.fromState)")
}

print("close:")
door <-! .close
print("lock:")
door <-! .lock
print("open:")
door <-! .open

//: ## Disposing
//:
//: Every `add…` returns a `Disposable`. Keep it to remove what you added;
//: dropping it removes nothing.
let chime = door.addHandler(event: .unlock) { _ in print("  chime") }
print("unlock:")
door <-! .unlock
chime.dispose()
print("lock and unlock, chime disposed:")
door <-! .lock <-! .unlock
assert(chime.disposed)

//: ## Requests made from inside a handler
//:
//: By default a handler's request runs completely, handlers included, before
//: the handler goes on, as in SwiftState. With `delivery: .runToCompletion`
//: it waits (the call returns `false`) and is decided and delivered once the
//: handlers of the transition in progress have run, so observers see
//: transitions in the order they happened.
func autoLock(_ delivery: DeliveryPolicy) {
    print("auto-lock, \(delivery):")
    let door = Machine<Door, DoorEvent>(state: .open, delivery: delivery) { door in
        door.addRoutes(event: .close, transitions: [.open => .closed])
        door.addRoutes(event: .lock, transitions: [.closed => .locked])
        door.addHandler(event: .close, order: 10) { [unowned door] _ in
            door <-! .lock
        }
        door.addHandler(event: .any) { context in
            print("  \(context.fromState) => \(context.toState)")
        }
    }
    door <-! .close
    assert(door.state == .locked)
}

autoLock(.immediate)
autoLock(.runToCompletion)

//: [Next: Route Mappings](@next)
