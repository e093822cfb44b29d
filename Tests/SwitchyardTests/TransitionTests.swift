import Switchyard
import Testing

private typealias Context = Machine<MyState, MyEvent>.Context
private typealias MyRoute = Route<MyState, MyEvent>

/// A state-driven context from `from` to `to`, as a route's condition is given it.
private func context(_ from: MyState, _ to: MyState) -> Context {
    Context(event: nil, fromState: from, toState: to, userInfo: nil)
}

/// The pairs of states a route's condition accepts, over every pair of `MyState`.
private func acceptedPairs(of route: MyRoute) throws -> Set<[MyState]> {
    let condition = try #require(route.condition, "a route between sets of states needs a membership condition")
    var accepted: Set<[MyState]> = []
    for from in MyState.allCases {
        for to in MyState.allCases where condition(context(from, to)) {
            accepted.insert([from, to])
        }
    }
    return accepted
}

@Suite struct TransitionTests {
    // MARK: `=>` making transitions

    @Test func plainToPlainMakesATransition() {
        let transition: Transition<MyState> = .state0 => .state1
        #expect(transition.fromState == .some(.state0))
        #expect(transition.toState == .some(.state1))
    }

    @Test func wrappedToPlainMakesATransition() {
        let transition: Transition<MyState> = .any => .state1
        #expect(transition.fromState == .any)
        #expect(transition.toState == .some(.state1))
    }

    @Test func plainToWrappedMakesATransition() {
        let transition: Transition<MyState> = .state2 => .any
        #expect(transition.fromState == .some(.state2))
        #expect(transition.toState == .any)
    }

    @Test func wrappedToWrappedMakesATransition() {
        let anyToAny: Transition<MyState> = .any => .any
        #expect(anyToAny.fromState == .any)
        #expect(anyToAny.toState == .any)

        let from = State<MyState>.some(.state3)
        let to = State<MyState>.some(.state0)
        let concrete = from => to
        #expect(concrete.fromState == .some(.state3))
        #expect(concrete.toState == .some(.state0))
    }

    // MARK: Transition initialisers

    @Test func transitionInitialisersAgreeWithTheOperator() {
        #expect(Transition<MyState>(fromState: MyState.state0, toState: MyState.state1) == (.state0 => .state1))
        #expect(Transition<MyState>(fromState: State.any, toState: MyState.state1) == (.any => .state1))
        #expect(Transition<MyState>(fromState: MyState.state0, toState: State.any) == (.state0 => .any))
        #expect(
            Transition<MyState>(fromState: State.some(.state2), toState: State.some(.state3)) == (.state2 => .state3))
    }

    @Test func transitionsCompareAndHashBySides() {
        let transitions: Set<Transition<MyState>> = [
            .state0 => .state1, .state0 => .state1, .state1 => .state0, .any => .state1,
        ]
        #expect(transitions.count == 3)
        #expect(transitions.contains(MyState.state1 => MyState.state0))
        #expect(!transitions.contains(MyState.state0 => State.any))
        #expect((MyState.state0 => MyState.state1) != (.state1 => .state0))
    }

    @Test func transitionDescriptionReadsAsWritten() {
        #expect("\(MyState.state0 => MyState.state1)" == "state0 => state1")
        #expect("\(State<MyState>.any => MyState.state2)" == "any => state2")
    }

    // MARK: `=>` making chains

    @Test func arrowIsLeftAssociativeAndMakesAThreeStateChain() {
        let chain: TransitionChain<MyState> = .state0 => .state1 => .state2
        #expect(chain.states == [.some(.state0), .some(.state1), .some(.state2)])
        #expect(chain.transitions == [.state0 => .state1, .state1 => .state2])
    }

    @Test func longChainKeepsEveryStateInOrder() {
        let chain: TransitionChain<MyState> = .state0 => .state1 => .any => .state3 => .state0
        #expect(chain.states == [.some(.state0), .some(.state1), .any, .some(.state3), .some(.state0)])
        #expect(chain.transitions.count == 4)
        #expect(chain.transitions[1] == (.state1 => .any))
        #expect(chain.transitions[2] == (.any => .state3))
    }

    @Test func transitionThenStateMakesAChain() {
        let transition: Transition<MyState> = .state0 => .state1
        let plain: TransitionChain<MyState> = transition => MyState.state2
        let wrapped: TransitionChain<MyState> = transition => State.any
        #expect(plain.states == [.some(.state0), .some(.state1), .some(.state2)])
        #expect(wrapped.states == [.some(.state0), .some(.state1), .any])
    }

    @Test func chainThenStateMakesALongerChain() {
        let chain: TransitionChain<MyState> = .state0 => .state1 => .state2
        let plain: TransitionChain<MyState> = chain => MyState.state3
        let wrapped: TransitionChain<MyState> = chain => State.any
        #expect(plain.states == [.some(.state0), .some(.state1), .some(.state2), .some(.state3)])
        #expect(wrapped.states == [.some(.state0), .some(.state1), .some(.state2), .any])
    }

    @Test func stateThenTransitionMakesAChain() {
        let transition: Transition<MyState> = .state1 => .state2
        let plain: TransitionChain<MyState> = MyState.state0 => transition
        let wrapped: TransitionChain<MyState> = State.any => transition
        #expect(plain.states == [.some(.state0), .some(.state1), .some(.state2)])
        #expect(wrapped.states == [.any, .some(.state1), .some(.state2)])
    }

    @Test func stateThenChainMakesALongerChain() {
        let chain: TransitionChain<MyState> = .state1 => .state2 => .state3
        let plain: TransitionChain<MyState> = MyState.state0 => chain
        let wrapped: TransitionChain<MyState> = State.any => chain
        #expect(plain.states == [.some(.state0), .some(.state1), .some(.state2), .some(.state3)])
        #expect(wrapped.states == [.any, .some(.state1), .some(.state2), .some(.state3)])
    }

    @Test func groupingOnTheRightGivesTheSameChain() {
        let leftGrouped: TransitionChain<MyState> = .state0 => .state1 => .state2
        let rightGrouped: TransitionChain<MyState> = MyState.state0 => (MyState.state1 => MyState.state2)
        #expect(leftGrouped == rightGrouped)
    }

    // MARK: TransitionChain

    @Test func chainFromStatesHasATransitionPerConsecutivePair() {
        let chain = TransitionChain<MyState>(states: [.some(.state0), .any, .some(.state2), .some(.state2)])
        #expect(chain.states == [.some(.state0), .any, .some(.state2), .some(.state2)])
        let expected: [Transition<MyState>] = [.state0 => .any, .any => .state2, .state2 => .state2]
        #expect(chain.transitions == expected)
    }

    @Test func chainFromATransitionHasItsTwoStates() {
        let chain = TransitionChain(transition: MyState.state3 => State.any)
        #expect(chain.states == [.some(.state3), .any])
        #expect(chain.transitions == [.state3 => .any])
    }

    @Test func chainOfFewerThanTwoStatesHasNoTransitions() {
        #expect(TransitionChain<MyState>(states: [.some(.state0)]).transitions.isEmpty)
        #expect(TransitionChain<MyState>(states: []).transitions.isEmpty)
    }

    @Test func appendingAndPrependingExtendTheChain() {
        let chain = TransitionChain(transition: MyState.state1 => MyState.state2)
        #expect(chain.appending(.some(.state3)).states == [.some(.state1), .some(.state2), .some(.state3)])
        #expect(chain.prepending(.any).states == [.any, .some(.state1), .some(.state2)])
        #expect(chain.states == [.some(.state1), .some(.state2)], "appending and prepending leave the original alone")
    }

    // MARK: `=>` making routes between sets of states

    @Test func statesToStateMakesARouteFromAnyWithMembership() throws {
        let route: MyRoute = [.state0, .state1] => .state2
        #expect(route.transition == (.any => .state2))
        let accepted = try acceptedPairs(of: route)
        #expect(accepted.contains([.state0, .state2]))
        #expect(accepted.contains([.state1, .state2]))
        #expect(!accepted.contains([.state3, .state2]))
        #expect(!accepted.contains([.state2, .state2]))
    }

    @Test func statesToWrappedStateMakesARouteFromAnyWithMembership() throws {
        let toAny: MyRoute = [.state0, .state3] => State.any
        #expect(toAny.transition == (.any => .any))
        #expect(try acceptedPairs(of: toAny) == Set(MyState.allCases.flatMap { [[.state0, $0], [.state3, $0]] }))

        let toOne: MyRoute = [.state1] => State.some(.state0)
        #expect(toOne.transition == (.any => .state0))
        let accepted = try acceptedPairs(of: toOne)
        #expect(accepted.contains([.state1, .state0]))
        #expect(!accepted.contains([.state2, .state0]))
    }

    @Test func stateToStatesMakesARouteToAnyWithMembership() throws {
        let route: MyRoute = .state0 => [.state1, .state2]
        #expect(route.transition == (.state0 => .any))
        let accepted = try acceptedPairs(of: route)
        #expect(accepted.contains([.state0, .state1]))
        #expect(accepted.contains([.state0, .state2]))
        #expect(!accepted.contains([.state0, .state3]))
        #expect(!accepted.contains([.state0, .state0]))
    }

    @Test func wrappedStateToStatesMakesARouteToAnyWithMembership() throws {
        let route: MyRoute = State.any => [.state3]
        #expect(route.transition == (.any => .any))
        #expect(try acceptedPairs(of: route) == Set(MyState.allCases.map { [$0, .state3] }))
    }

    @Test func statesToStatesMakesAnAnyRouteWithBothMemberships() throws {
        let route: MyRoute = [.state0, .state1] => [.state2, .state3]
        #expect(route.transition == (.any => .any))
        #expect(
            try acceptedPairs(of: route) == [
                [.state0, .state2], [.state0, .state3], [.state1, .state2], [.state1, .state3],
            ])
    }

    @Test func emptySetOfStatesAcceptsNothing() throws {
        let route: MyRoute = [] => .state1
        #expect(try acceptedPairs(of: route).isEmpty)
    }

    // MARK: Route and RouteChain

    @Test func routeKeepsItsTransitionAndCondition() throws {
        let route = MyRoute(transition: .state0 => .state1) { $0.userInfo as? String == "yes" }
        #expect(route.transition == (.state0 => .state1))
        let condition = try #require(route.condition)
        #expect(condition(Context(event: .event0, fromState: .state0, toState: .state1, userInfo: "yes")))
        #expect(!condition(Context(event: .event0, fromState: .state0, toState: .state1, userInfo: "no")))
        #expect(MyRoute(transition: .state0 => .state1, condition: nil).condition == nil)
    }

    @Test func routeChainKeepsItsRoutesInOrder() {
        let chain = RouteChain<MyState, MyEvent>(routes: [
            MyRoute(transition: .state0 => .state1, condition: nil),
            [.state1, .state3] => .state2,
        ])
        #expect(chain.routes.map(\.transition) == [.state0 => .state1, .any => .state2])
        #expect(chain.routes[0].condition == nil)
        #expect(chain.routes[1].condition?(context(.state3, .state2)) == true)
        #expect(chain.routes[1].condition?(context(.state0, .state2)) == false)
    }

    @Test func routeChainFromATransitionChainSharesOneCondition() {
        let log = Log()
        let chain = RouteChain<MyState, MyEvent>(transitionChain: .state0 => .state1 => .state2) { context in
            log("\(context.fromState) => \(context.toState)")
            return context.userInfo != nil
        }
        #expect(chain.routes.map(\.transition) == [.state0 => .state1, .state1 => .state2])
        for route in chain.routes {
            let from = route.transition.fromState.rawValue!
            let to = route.transition.toState.rawValue!
            #expect(route.condition?(Context(event: nil, fromState: from, toState: to, userInfo: 1)) == true)
            #expect(route.condition?(Context(event: nil, fromState: from, toState: to, userInfo: nil)) == false)
        }
        #expect(log.lines == ["state0 => state1", "state0 => state1", "state1 => state2", "state1 => state2"])
    }

    @Test func routeChainFromATransitionChainWithoutConditionAllowsEveryStep() {
        let chain = RouteChain<MyState, MyEvent>(transitionChain: .state3 => .state2 => .state1)
        #expect(chain.routes.map(\.transition) == [.state3 => .state2, .state2 => .state1])
        #expect(chain.routes.allSatisfy { $0.condition == nil })
    }
}
