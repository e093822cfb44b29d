//: [Previous: Nesting Machines](@previous)
//:
//: # Transition tables
//:
//: A value type with a `state` and a static table: for each state, the set
//: of states it may move to. The library reads the table to say whether a
//: move is allowed, makes the moves it allows, and refuses the others.
import Switchyard

struct Invoice: MutableTransitionTable {
    enum State: StateType, CaseIterable {
        case draft, sent, paid, overdue, void
    }

    static let stateTransitions: [State: Set<State>] = [
        .draft: [.sent, .void],
        .sent: [.paid, .overdue, .void],
        .overdue: [.paid, .void],
        // Final states: an empty set, so nothing leaves them.
        .paid: [],
        .void: [],
    ]

    var number: Int
    var state = State.draft
}

//: `state` is settable, so `transition(to:)` comes from the library.
//: A move the table does not allow would stop the program, naming both states.
var invoice = Invoice(number: 42)
assert(invoice.canTransition(to: .sent))
assert(!invoice.canTransition(to: .paid))
invoice.transition(to: .sent)
invoice.transition(to: .overdue)
assert(invoice.state == .overdue)

//: `tryTransition(to:)` throws instead, and leaves the state alone.
//: Its error is a `TableTransitionError`, typed, so no cast is needed.
do {
    try invoice.tryTransition(to: .draft)
} catch {
    assert(error.reason == .notAllowed)
    print(error)  // Invoice cannot move from overdue to draft: stateTransitions[overdue] does not list draft
}
assert(invoice.state == .overdue)

try invoice.tryTransition(to: .paid)
assert(invoice.state == .paid)

//: A table can be asked without a value, too.
assert(Invoice.canTransition(from: .draft, to: .void))
assert(!Invoice.canTransition(from: .void, to: .draft))

//: The same table builds a `Machine`, with one route per allowed move, for
//: when handlers are wanted.
let ledger = Invoice.makeMachine(state: .draft)
var log: [String] = []
ledger.addHandler(.any => .paid) { context in
    log.append("paid after \(context.fromState)")
}
ledger <- .sent <- .draft <- .paid
assert(ledger.state == .paid)
assert(log == ["paid after sent"])

//: The machine allows exactly what the table allows.
for from in Invoice.State.allCases {
    for to in Invoice.State.allCases {
        let machine = Invoice.makeMachine(state: from)
        assert(machine.canTryState(to) == Invoice.canTransition(from: from, to: to))
    }
}
print(ledger.state)

//: [Next: Definition DSL](@next)
