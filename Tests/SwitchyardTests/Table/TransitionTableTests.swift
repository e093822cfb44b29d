import Switchyard
import Testing

// MARK: The article's example

// The Jira ticket of Lukas Kukacka's "Simple State Machine in Swift"
// (https://blog.lukaskukacka.com/swift/2018/10/08/simple-state-machine-in-swift.html),
// with only the protocol's name changed: `StateMachine` there, `TransitionTable` here.

struct JiraTicket: TransitionTable {
    enum State {
        case open
        case inProgress
        case resolved
        case reopened
        case closed
    }

    private(set) var state: State = .open

    static let stateTransitions: [State: Set<State>] = [
        .open: [.inProgress, .resolved, .closed],
        .inProgress: [.open, .resolved],
        .resolved: [.reopened, .closed],
        .reopened: [.inProgress, .resolved, .closed],
        .closed: [.reopened],
    ]

    mutating func transition(to nextState: State) {
        precondition(self.canTransition(to: nextState), "Invalid state transition (\(self.state) -> \(nextState))!")
        self.state = nextState
    }
}

// What the tests add to the example, outside it: every state, and the
// conformance a `Machine` needs.
extension JiraTicket.State: CaseIterable, StateType {}

/// The moves the Jira workflow allows, written out pair by pair rather than
/// read from the table under test.
private let ticketMoves: Set<[JiraTicket.State]> = [
    [.open, .inProgress], [.open, .resolved], [.open, .closed],
    [.inProgress, .open], [.inProgress, .resolved],
    [.resolved, .reopened], [.resolved, .closed],
    [.reopened, .inProgress], [.reopened, .resolved], [.reopened, .closed],
    [.closed, .reopened],
]

/// A new ticket moved to `state` along allowed moves (a ticket starts open and
/// has no other way in).
private func ticket(in state: JiraTicket.State) -> JiraTicket {
    var ticket = JiraTicket()
    let path: [JiraTicket.State] =
        switch state {
        case .open: []
        case .inProgress: [.inProgress]
        case .resolved: [.resolved]
        case .reopened: [.resolved, .reopened]
        case .closed: [.closed]
        }
    for step in path {
        ticket.transition(to: step)
    }
    #expect(ticket.state == state)
    return ticket
}

// MARK: Tables of the tests' own

/// A table whose state is settable, so that `transition(to:)` is the library's;
/// `published` is final and `review` may move to itself.
private struct Article: MutableTransitionTable {
    enum State: StateType, CaseIterable {
        case draft, review, published
    }

    static let stateTransitions: [State: Set<State>] = [
        .draft: [.review],
        .review: [.draft, .review, .published],
        .published: [],
    ]

    var state: State
}

/// A table that forgot `middle`.
private struct Incomplete: MutableTransitionTable {
    enum State: StateType, CaseIterable {
        case start, middle, end
    }

    static let stateTransitions: [State: Set<State>] = [
        .start: [.middle],
        .end: [.start],
    ]

    var state: State
}

/// A table that writes `transition(to:)` itself and counts the moves.
private struct Counter: TransitionTable {
    enum State {
        case off, on
    }

    static let stateTransitions: [State: Set<State>] = [.off: [.on], .on: [.off]]

    private(set) var state = State.off
    private(set) var moves = 0

    mutating func transition(to nextState: State) {
        state = nextState
        moves += 1
    }
}

@Suite struct TransitionTableTests {
    // MARK: The ticket workflow

    @Test(arguments: JiraTicket.State.allCases)
    func ticketAllowsExactlyTheWorkflowsMoves(from state: JiraTicket.State) {
        let ticket = ticket(in: state)
        for nextState in JiraTicket.State.allCases {
            let allowed = ticketMoves.contains([state, nextState])
            #expect(ticket.canTransition(to: nextState) == allowed, "\(state) -> \(nextState)")
            #expect(JiraTicket.canTransition(from: state, to: nextState) == allowed, "\(state) -> \(nextState)")
        }
    }

    @Test(arguments: JiraTicket.State.allCases)
    func ticketTakesEveryAllowedMove(from state: JiraTicket.State) {
        for nextState in JiraTicket.State.allCases where ticketMoves.contains([state, nextState]) {
            var moved = ticket(in: state)
            moved.transition(to: nextState)
            #expect(moved.state == nextState)

            var tried = ticket(in: state)
            #expect(throws: Never.self) { try tried.tryTransition(to: nextState) }
            #expect(tried.state == nextState)
        }
    }

    @Test(arguments: JiraTicket.State.allCases)
    func ticketRefusesEveryOtherMove(from state: JiraTicket.State) {
        for nextState in JiraTicket.State.allCases where !ticketMoves.contains([state, nextState]) {
            var ticket = ticket(in: state)
            let expected = TableTransitionError(
                reason: .notAllowed,
                description:
                    "JiraTicket cannot move from \(state) to \(nextState): stateTransitions[\(state)] does not list \(nextState)"
            )
            #expect(throws: expected) { try ticket.tryTransition(to: nextState) }
            #expect(ticket.state == state)
        }
    }

    @Test func ticketWalksTheWholeWorkflow() {
        var ticket = JiraTicket()
        for nextState: JiraTicket.State in [.inProgress, .open, .resolved, .reopened, .inProgress, .resolved, .closed] {
            ticket.transition(to: nextState)
        }
        #expect(ticket.state == .closed)
        #expect(ticket.canTransition(to: .reopened))
        #expect(!ticket.canTransition(to: .inProgress))
    }

    @Test func ticketsOwnCheckStopsAnInvalidMove() async {
        await #expect(processExitsWith: .failure) {
            var ticket = JiraTicket()
            ticket.transition(to: .reopened)
        }
    }

    // MARK: canTransition

    @Test func canTransitionReadsTheCurrentStatesEntry() {
        #expect(Article(state: .draft).canTransition(to: .review))
        #expect(!Article(state: .draft).canTransition(to: .published))
        #expect(!Article(state: .draft).canTransition(to: .draft))
        #expect(Article(state: .review).canTransition(to: .review))
        #expect(Article.canTransition(from: .review, to: .published))
        #expect(!Article.canTransition(from: .published, to: .draft))
    }

    @Test func canTransitionFromAStateMissingFromTheTableIsFalse() {
        for nextState in Incomplete.State.allCases {
            #expect(!Incomplete(state: .middle).canTransition(to: nextState))
            #expect(!Incomplete.canTransition(from: .middle, to: nextState))
        }
        // A move *into* a state without an entry is allowed: the table lists it.
        #expect(Incomplete(state: .start).canTransition(to: .middle))
    }

    // MARK: transition(to:)

    @Test func transitionMovesAlongTheTable() {
        var article = Article(state: .draft)
        article.transition(to: .review)
        article.transition(to: .review)
        article.transition(to: .draft)
        article.transition(to: .review)
        article.transition(to: .published)
        #expect(article.state == .published)
    }

    @Test func invalidTransitionStopsWithBothStates() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var article = Article(state: .draft)
            article.transition(to: .published)
        }
        let message = message(of: result)
        #expect(message.contains("Article cannot move from draft to published"))
        #expect(message.contains("stateTransitions[draft] does not list published"))
        #expect(message.contains("tryTransition(to:)"))
    }

    @Test func transitionFromAStateMissingFromTheTableStopsSayingSo() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var incomplete = Incomplete(state: .middle)
            incomplete.transition(to: .end)
        }
        let message = message(of: result)
        #expect(message.contains("Incomplete cannot move from middle to end"))
        #expect(message.contains("stateTransitions has no entry for middle"))
    }

    @Test func transitionFromAFinalStateStopsAsAnInvalidMove() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var article = Article(state: .published)
            article.transition(to: .draft)
        }
        let message = message(of: result)
        #expect(message.contains("Article cannot move from published to draft"))
        #expect(!message.contains("no entry"))
    }

    @Test func allowedTransitionsDoNotStop() async {
        await #expect(processExitsWith: .success) {
            var article = Article(state: .draft)
            article.transition(to: .review)
            article.transition(to: .published)
            var incomplete = Incomplete(state: .end)
            incomplete.transition(to: .start)
            incomplete.transition(to: .middle)
        }
    }

    // MARK: tryTransition(to:)

    @Test func tryTransitionMovesWhenAllowed() throws {
        var article = Article(state: .draft)
        try article.tryTransition(to: .review)
        try article.tryTransition(to: .published)
        #expect(article.state == .published)
    }

    @Test func tryTransitionRefusesAMoveTheEntryDoesNotList() {
        var article = Article(state: .draft)
        do {
            try article.tryTransition(to: .published)
            Issue.record("draft -> published was allowed")
        } catch {
            #expect(error.reason == .notAllowed)
            #expect(
                error.description
                    == "Article cannot move from draft to published: stateTransitions[draft] does not list published")
            #expect("\(error)" == error.description)
        }
        #expect(article.state == .draft)
    }

    @Test func tryTransitionRefusesAMoveFromAStateMissingFromTheTable() {
        var incomplete = Incomplete(state: .middle)
        do {
            try incomplete.tryTransition(to: .end)
            Issue.record("middle -> end was allowed")
        } catch {
            #expect(error.reason == .stateNotInTable)
            #expect(
                error.description
                    == "Incomplete cannot move from middle to end: stateTransitions has no entry for middle (give a final state an empty set)"
            )
        }
        #expect(incomplete.state == .middle)
    }

    @Test func tryTransitionMovesThroughTheTypesOwnTransition() throws {
        var counter = Counter()
        try counter.tryTransition(to: .on)
        try counter.tryTransition(to: .off)
        #expect(throws: TableTransitionError.self) { try counter.tryTransition(to: .off) }
        #expect(counter.state == .off)
        #expect(counter.moves == 2)
    }

    @Test func errorsAreSendableValues() throws {
        var article = Article(state: .published)
        let error = try #require(throws: TableTransitionError.self) { try article.tryTransition(to: .draft) }
        let sent: any Sendable = error
        #expect(sent as? TableTransitionError == error)
        #expect(error == TableTransitionError(reason: .notAllowed, description: error.description))
        #expect(error != TableTransitionError(reason: .stateNotInTable, description: error.description))
        #expect(TableTransitionError.Reason.notAllowed.description == "notAllowed")
        #expect(TableTransitionError.Reason.stateNotInTable.description == "stateNotInTable")
    }

    // MARK: Final states

    @Test func aStateWithAnEmptySetIsFinal() {
        var article = Article(state: .published)
        for nextState in Article.State.allCases {
            #expect(!article.canTransition(to: nextState))
            #expect(throws: TableTransitionError.self) { try article.tryTransition(to: nextState) }
            do {
                try article.tryTransition(to: nextState)
            } catch {
                #expect(error.reason == .notAllowed)
            }
        }
        let machine = Article.makeMachine(state: .published)
        for nextState in Article.State.allCases {
            #expect(!machine.canTryState(nextState))
        }
        #expect(article.state == .published)
    }

    // MARK: A Machine built from the table

    @Test func machineFromTheTicketsTableAgreesWithCanTransition() {
        for state in JiraTicket.State.allCases {
            for nextState in JiraTicket.State.allCases {
                let machine = JiraTicket.makeMachine(state: state)
                let allowed = ticket(in: state).canTransition(to: nextState)
                #expect(machine.canTryState(nextState) == allowed, "\(state) -> \(nextState)")
                #expect(machine.hasRoute(fromState: state, toState: nextState) == allowed, "\(state) -> \(nextState)")
                #expect(machine.tryState(nextState) == allowed, "\(state) -> \(nextState)")
                #expect(machine.state == (allowed ? nextState : state))
            }
        }
    }

    @Test func machinesFromTheTestTablesAgreeWithCanTransition() {
        for state in Article.State.allCases {
            for nextState in Article.State.allCases {
                let machine = Article.makeMachine(state: state)
                let allowed = Article(state: state).canTransition(to: nextState)
                #expect(machine.canTryState(nextState) == allowed, "\(state) -> \(nextState)")
                #expect((machine.attemptState(nextState) == .success(nextState)) == allowed)
            }
        }
        for state in Incomplete.State.allCases {
            for nextState in Incomplete.State.allCases {
                let machine = Incomplete.makeMachine(state: state)
                let allowed = Incomplete(state: state).canTransition(to: nextState)
                #expect(machine.canTryState(nextState) == allowed, "\(state) -> \(nextState)")
            }
        }
    }

    @Test func machineFollowsTheTableStepByStep() {
        let log = Log()
        let machine = JiraTicket.makeMachine(state: .open)
        machine.addHandler(.any => .any) { log("\($0.fromState) => \($0.toState)") }
        machine.addErrorHandler { log("refused \($0.fromState) => \($0.toState)") }
        machine <- .inProgress <- .closed <- .resolved <- .reopened
        #expect(machine.state == .reopened)
        #expect(
            log.lines == [
                "open => inProgress",
                "refused inProgress => closed",
                "inProgress => resolved",
                "resolved => reopened",
            ])
    }

    @Test func machineTakesTheDeliveryPolicy() {
        #expect(Article.makeMachine(state: .draft).delivery == .immediate)
        #expect(Article.makeMachine(state: .draft, delivery: .runToCompletion).delivery == .runToCompletion)
    }
}
