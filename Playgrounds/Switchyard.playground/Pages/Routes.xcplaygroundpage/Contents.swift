//: # Routes
//:
//: A machine holds routes written `from => to` and moves along them when you
//: ask it for a state with `<-` (the operator twin of `tryState`).
//: Open this playground from the Switchyard package so that `import Switchyard` resolves.
import Switchyard

enum Light: StateType {
    case off, dim, bright, broken
}

let lamp = StateMachine<Light, NoEvent>(state: .off) { lamp in
    lamp.addRoute(.off => .dim)
    lamp.addRoute(.dim => .bright)
    // `[states] => state`: one route from any of several states.
    lamp.addRoute([.dim, .bright] => .off)
    // `.any` stands for every state.
    lamp.addRoute(.any => .broken)
}

print("starts", lamp.state)

//: A request with no route is refused, and the machine stays where it is.
lamp <- .bright
print("after asking for bright:", lamp.state)
assert(lamp.state == .off)

//: `<-` returns the machine, so requests chain.
lamp <- .dim <- .bright
print("after dim, then bright:", lamp.state)
assert(lamp.state == .bright)

//: Ask without moving.
print("bright => dim allowed?", lamp.hasRoute(.bright => .dim))
print("may go off now?", lamp.canTryState(.off))

//: ## Conditions and user info
//:
//: A condition decides when the request is made. Whatever you pass as
//: `userInfo` reaches it untouched.
lamp <- .broken
lamp.addRoute(.broken => .off, condition: { context in context.userInfo as? String == "repaired" })

lamp <- .off
print("asked for off while broken:", lamp.state)
lamp <- (.off, "repaired")
print("asked again, repaired:", lamp.state)
assert(lamp.state == .off)

//: A condition is a plain closure over a `Context`, which has a public
//: initializer, so it can be checked on its own.
let isRepaired: StateMachine<Light, NoEvent>.Condition = { $0.userInfo as? String == "repaired" }
let context = StateMachine<Light, NoEvent>.Context(event: nil, fromState: .broken, toState: .off, userInfo: "repaired")
print("the condition holds for a repaired lamp:", isRepaired(context))

//: ## Transitions and chains are values
let step: Transition<Light> = .off => .dim
let chain: TransitionChain<Light> = .off => .dim => .bright
print(step, "|", chain.transitions)

//: [Next: Events](@next)
