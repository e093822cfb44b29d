import Switchyard

// Part 1: a machine driven by events. Each request says who made it (the
// `userInfo`), and the typed API says why a refused request was refused.

/// Where a ticket is in its life.
enum TicketState: StateType {
    case open, inProgress, resolved, reopened, closed
}

/// What people do to a ticket.
enum TicketEvent: EventType, CaseIterable {
    case start, resolve, reopen, close, comment
}

/// Someone working on tickets, passed along with each event as its `userInfo`.
struct User: Equatable, CustomStringConvertible {
    var name: String

    var description: String { name }
}

func runTicketWorkflow() {
    printHeading("1. A ticket, driven by events")
    let ana = User(name: "ana")
    let bo = User(name: "bo")

    let ticket = Machine<TicketState, TicketEvent>(state: .open) { ticket in
        // Routes: which event moves the ticket from where to where.
        ticket.addRoutes(event: .start, transitions: [.open => .inProgress, .reopened => .inProgress])
        ticket.addRoutes(event: .reopen, transitions: [.resolved => .reopened, .closed => .reopened])
        // `[states] => state` is one route from any of those states.
        ticket.addRoutes(event: .close, routes: [[.open, .resolved, .reopened] => .closed])
        // A condition: only the assignee may resolve the ticket.
        ticket.addRoutes(
            event: .resolve,
            transitions: [.inProgress => .resolved],
            condition: { context in context.userInfo as? User == ana }
        )
        // A route to `.any` taken by an event keeps the ticket where it is,
        // and still counts as a transition: its handlers run.
        ticket.addRoutes(event: .comment, transitions: [.any => .any])

        // Handlers run after the state has changed, lowest `order` first.
        ticket.addHandler(event: .any, order: 10) { context in
            print("    audit:   \(context.fromState) => \(context.toState), by \(context.userInfo ?? "nobody")")
        }
        ticket.addHandler(event: .comment) { context in
            print("    comment: \(context.userInfo ?? "nobody") commented; the ticket stays \(context.toState)")
        }
        ticket.addAnyHandler(.any => .resolved, order: 200) { _ in
            print("    notify:  the reporter hears that the fix is ready")
        }
        ticket.addErrorHandler { context in
            let event = context.event.map { "\($0)" } ?? "request"
            print("    error:   \(event) refused while \(context.fromState)")
        }
    }

    /// Fires `event` on behalf of `user` and prints what came of it.
    func request(_ event: TicketEvent, by user: User) {
        print("\(user) asks to \(event):")
        switch ticket.attemptEvent(event, userInfo: user) {
        case .success(let state):
            print("  -> now \(state)")
        case .failure(let error):
            print("  -> refused (\(error.reason)): \(error)")
        }
    }

    let allowed = TicketEvent.allCases.filter { ticket.canTryEvent($0, userInfo: ana) != nil }
    print("The ticket is \(ticket.state); ana may: \(allowed.map { "\($0)" }.joined(separator: ", "))")
    print()

    request(.start, by: ana)
    request(.resolve, by: bo)
    request(.comment, by: bo)
    request(.resolve, by: ana)
    request(.start, by: bo)
    request(.reopen, by: bo)
    request(.start, by: ana)
    request(.resolve, by: ana)
    request(.close, by: bo)
    request(.close, by: bo)

    print()
    print("The ticket ends \(ticket.state).")
}

/// Prints a section title, underlined.
func printHeading(_ title: String) {
    print(title)
    print(String(repeating: "=", count: title.count))
}
