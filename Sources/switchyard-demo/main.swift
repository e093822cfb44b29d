import Switchyard
enum MyState: StateType { case state0, state1, state2 }
enum MyEvent: EventType { case event0, event1 }
let machine = StateMachine<MyState, NoEvent>(state: .state0) { machine in
    machine.addRoute(.state0 => .state1)
    machine.addRoute(.any => .state2) { context in print("Any => 2, msg=\(String(describing: context.userInfo))") }
    machine.addRoute(.state2 => .any) { context in print("2 => Any, msg=\(String(describing: context.userInfo))") }
    machine.addHandler(.state0 => .state1) { context in print("0 => 1") }
    machine.addErrorHandler { context in print("[ERROR] \(context.fromState) => \(context.toState)") }
}
machine <- .state1
machine <- (.state2, "Hello")
machine <- (.state1, "Bye")
machine <- .state0
print(machine.state)
let m2 = Machine<MyState, MyEvent>(state: .state0) { m in
  m.addRoutes(event: .event0, transitions: [.state0 => .state1, .state1 => .state2])
  m.addHandler(event: .event0) { c in print(c) }
}
m2 <-! .event0 <-! .event0 <-! .event0
print(m2.state)
print((event: Optional(MyEvent.event0), fromState: MyState.state0, toState: MyState.state1, userInfo: Optional<Any>.none))
