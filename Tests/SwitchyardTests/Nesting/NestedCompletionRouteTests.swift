import Switchyard
import Testing

// Eventless routes, done routes and final states of a machine nested in
// another (SPEC 3.2, "Final states and completion", "Eventless routes" and
// "Composition"): taken by the hierarchy's macrostep as the root's own are,
// whether declared before or after nesting. A shop machine runs a checkout
// machine in its `checkout` state:
//
//     browsing   checkout [ cart  paying  paid*  wrapping { choosing, wrapped* }
//                           gift ‖ r1 { card } ‖ r2 { note, sealed } ]   shipped
//
// (* final). Every handler and action logs, so each request's whole order is
// asserted: "exit x", "enter x", "e: a => b" (the step's event, or "state"
// for a step without one, and the machine's states before and after), and
// "action a => b" for a route's action.

private enum Shop: StateType, CaseIterable {
    case browsing, checkout, shipped
}

private enum Checkout: StateType, CaseIterable {
    case cart, paying, paid, wrapping, choosing, wrapped, gift, r1, card, r2, note, sealed
}

private enum Order: EventType {
    case buy, pay, choose, look
}

/// The two machines, watched; the checkout machine is nested under
/// `checkout` once `declare` has run on it (`nestFirst`: after).
private struct Store {
    let shop = Machine<Shop, Order>(state: .browsing)
    let checkout = Machine<Checkout, Order>(state: .cart)
    let log = Log()

    init(
        nestFirst: Bool = false,
        _ declare: (Machine<Shop, Order>, Machine<Checkout, Order>, Log) -> Void = { _, _, _ in }
    ) {
        shop.addRoutes(event: .buy, transitions: [.browsing => .checkout])
        shop.addRoutes(event: .look, transitions: [.checkout => .any])
        checkout.addChildren([.choosing, .wrapped], to: .wrapping)
        checkout.addRegions([.r1, .r2], to: .gift)
        checkout.addChildren([.card], to: .r1)
        checkout.addChildren([.note, .sealed], to: .r2)
        checkout.addFinalState(.wrapped)
        if nestFirst {
            shop.nest(checkout, under: .checkout)
        }
        declare(shop, checkout, log)
        if !nestFirst {
            shop.nest(checkout, under: .checkout)
        }
        logSteps(of: shop, to: log)
        logSteps(of: checkout, to: log)
        let log = log
        shop.addErrorHandler { _ in log("shop refused") }
        shop.start()
    }

    /// Runs `request`; expects it to move (or not) and to run exactly `lines`.
    func expect(
        _ request: () -> Bool, moves: Bool = true, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        log.clear()
        #expect(request() == moves, sourceLocation: sourceLocation)
        #expect(log.lines == lines, sourceLocation: sourceLocation)
    }
}

@Suite struct NestedCompletionRouteTests {
    @Test(arguments: [false, true])
    func aNestedMachinesEventlessRouteIsTakenAfterARootEvent(nestFirst: Bool) {
        let store = Store(nestFirst: nestFirst) { _, checkout, log in
            checkout.addEventlessRoute(.cart => .paying, condition: { _ in true }) { context in
                log("action \(context.fromState) => \(context.toState)")
            }
        }
        let (shop, checkout) = (store.shop, store.checkout)
        store.expect(
            { shop.tryEvent(.buy) },
            [
                "exit browsing", "buy: browsing => checkout", "enter checkout", "enter cart",
                // The macrostep, in the same request: the checkout machine's
                // eventless route, its action told the checkout's states.
                "exit cart", "action cart => paying", "state: cart => paying", "state: checkout => checkout",
                "enter paying",
            ])
        #expect(checkout.state == .paying)
        #expect(shop.configuration == [.checkout])
    }

    @Test func eventlessRoutesAddedAfterTheHierarchyBeganAreTaken() {
        let store = Store(nestFirst: true) { _, checkout, _ in
            checkout.addRoutes(event: .pay, transitions: [.cart => .paying])
        }
        let (shop, checkout) = (store.shop, store.checkout)
        shop <-! .buy
        let log = store.log
        checkout.addEventlessRoute(.paying => .paid, condition: { _ in true }) { context in
            log("action \(context.fromState) => \(context.toState)")
        }
        store.expect(
            { shop.tryEvent(.pay) },
            [
                "exit cart", "pay: cart => paying", "pay: checkout => checkout", "enter paying",
                "exit paying", "action paying => paid", "state: paying => paid", "state: checkout => checkout",
                "enter paid",
            ])
        #expect(checkout.state == .paid)
    }

    @Test func aNestedMachinesDoneRouteReactsToItsCompoundStateCompleting() {
        let store = Store(nestFirst: true) { _, checkout, _ in
            checkout.addRoutes(event: .buy, transitions: [.cart => .wrapping])
            checkout.addRoutes(event: .choose, transitions: [.choosing => .wrapped])
        }
        let (shop, checkout) = (store.shop, store.checkout)
        // Added after nesting, and after the hierarchy began.
        let log = store.log
        checkout.addDoneRoute(
            .wrapping => .paying,
            action: { context in log("action \(context.fromState) => \(context.toState)") })
        shop <-! .buy
        checkout <-! .buy
        #expect(checkout.state == .choosing)
        store.expect(
            { checkout.tryEvent(.choose) },
            [
                "exit choosing", "choose: choosing => wrapped", "choose: checkout => checkout", "enter wrapped",
                // The completion of `wrapping`, offered to the checkout machine's done route.
                "exit wrapped", "exit wrapping", "action wrapped => paying", "state: wrapped => paying",
                "state: checkout => checkout", "enter paying",
            ])
        #expect(checkout.state == .paying)
    }

    @Test(arguments: [false, true])
    func aNestedMachinesFinalTopLevelStateCompletesItsHostForTheRootsDoneRoute(nestFirst: Bool) {
        let store = Store(nestFirst: nestFirst) { _, checkout, _ in
            checkout.addRoutes(event: .pay, transitions: [.cart => .paid])
            // Declared through the nested machine when `nestFirst`.
            checkout.addFinalState(.paid)
        }
        let (shop, checkout) = (store.shop, store.checkout)
        // `checkout` has children once the machine is nested in it.
        shop.addDoneRoute(.checkout => .shipped)
        shop <-! .buy
        store.expect(
            { checkout.tryEvent(.pay) },
            [
                "exit cart", "pay: cart => paid", "pay: checkout => checkout", "enter paid",
                // `paid` completes `checkout`: the shop's done route leaves it.
                "exit paid", "exit checkout", "state: checkout => shipped", "enter shipped",
            ])
        #expect(shop.state == .shipped)
        #expect(!shop.isFinished)
        #expect(!checkout.isActive(.paid))
    }

    @Test func aNestedMachinesEventlessRouteReadsStateOutsideIt() {
        let gate = Gate()
        let store = Store(nestFirst: true) { shop, checkout, _ in
            checkout.addEventlessRoute(.cart => .paying) { [unowned shop] _ in gate.isOpen && shop.state == .checkout }
        }
        let (shop, checkout) = (store.shop, store.checkout)
        store.expect(
            { shop.tryEvent(.buy) }, ["exit browsing", "buy: browsing => checkout", "enter checkout", "enter cart"])
        gate.isOpen = true
        // Conditions are asked after a step, here the shop's step that stays.
        #expect(checkout.state == .cart)
        store.expect(
            { shop.tryEvent(.look) },
            [
                "look: checkout => checkout", "exit cart", "state: cart => paying", "state: checkout => checkout",
                "enter paying",
            ])
        #expect(checkout.state == .paying)
    }

    @Test func aNestedMachinesEventlessCycleStopsAtTheLimitAsUnsettled() throws {
        let store = Store(nestFirst: true) { _, checkout, _ in
            checkout.addEventlessRoute(.cart => .paying) { _ in true }
            checkout.addEventlessRoute(.paying => .cart) { _ in true }
        }
        let (shop, checkout) = (store.shop, store.checkout)
        store.log.clear()
        let result = shop.attemptEvent(.buy)
        guard case .failure(let error) = result else {
            Issue.record("the cycle settled: \(result)")
            return
        }
        #expect(error.reason == .unsettled)
        let lines = store.log.lines
        #expect(
            Array(lines.prefix(4)) == ["exit browsing", "buy: browsing => checkout", "enter checkout", "enter cart"])
        #expect(lines.last == "shop refused")
        let cycle = lines.filter { $0 == "state: cart => paying" || $0 == "state: paying => cart" }
        #expect(cycle.count == Machine<Checkout, Order>.internalStepLimit)
        // Where the last step of the cycle left it: the limit is even.
        #expect(checkout.state == .cart)
        #expect(shop.state == .checkout)
    }

    @Test func drivingTheNestedMachineDirectlySettlesToo() {
        let store = Store(nestFirst: true) { _, checkout, _ in
            checkout.addRoutes(event: .pay, transitions: [.cart => .paying])
            checkout.addEventlessRoute(.paying => .paid) { _ in true }
        }
        let (shop, checkout) = (store.shop, store.checkout)
        shop <-! .buy
        store.expect(
            { checkout.tryEvent(.pay) },
            [
                "exit cart", "pay: cart => paying", "pay: checkout => checkout", "enter paying",
                "exit paying", "state: paying => paid", "state: checkout => checkout", "enter paid",
            ])
        #expect(checkout.state == .paid)
    }

    @Test func aNestedMachinesEventlessRouteEntersSeveralRegions() {
        let store = Store { _, checkout, _ in
            // Declared before nesting: checked on the machine's own regions.
            checkout.addEventlessRoute((.cart => .card).alsoEntering(.sealed), condition: { _ in true })
        }
        let (shop, checkout) = (store.shop, store.checkout)
        store.expect(
            { shop.tryEvent(.buy) },
            [
                "exit browsing", "buy: browsing => checkout", "enter checkout", "enter cart",
                "exit cart", "state: cart => gift", "state: checkout => checkout", "enter gift", "enter r1",
                "enter card", "enter r2", "enter sealed",
            ])
        #expect(checkout.configuration == [.gift, .r1, .card, .r2, .sealed])
        // Added after nesting, it is checked on the same regions.
        checkout.addEventlessRoute((.paid => .card).alsoEntering(.note), condition: { _ in false })
    }

    @Test func aNestedMachinesEventRouteRunsItsAction() {
        let store = Store(nestFirst: true) { _, checkout, log in
            checkout.addRoute(event: .pay, .cart => .paying) { log("checkout action \($0.fromState) => \($0.toState)") }
        }
        let (shop, checkout) = (store.shop, store.checkout)
        shop <-! .buy
        store.expect(
            { checkout.tryEvent(.pay) },
            [
                "exit cart", "checkout action cart => paying", "pay: cart => paying", "pay: checkout => checkout",
                "enter paying",
            ])
    }
}

/// A condition's outside state.
private final class Gate {
    var isOpen = false
}
