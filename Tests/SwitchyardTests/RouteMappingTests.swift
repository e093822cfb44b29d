import Switchyard
import Testing

private typealias StrMachine = Machine<StrState, StrEvent>

/// The word a `StrState` or `StrEvent` carries.
private func word(_ state: StrState) -> String {
    switch state {
    case .str(let word): word
    }
}

private func word(_ event: StrEvent?) -> String {
    switch event {
    case .str(let word)?: word
    case nil: "nil"
    }
}

/// Appends the event's word to the state's: `("a", "b") -> "a+b"`. No route without an event.
private func appendingMapping(_ event: StrEvent?, _ fromState: StrState, _: Any?) -> StrState? {
    guard case .str(let suffix)? = event else { return nil }
    return .str(word(fromState) + "+" + suffix)
}

@Suite struct RouteMappingTests {
    // MARK: addRouteMapping with events

    @Test func mappingComputesTheTargetFromAssociatedValues() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping)
        }
        #expect(machine.tryEvent(.str("b")))
        #expect(machine.state == .str("a+b"))
        machine <-! .str("c")
        #expect(machine.state == .str("a+b+c"))
    }

    @Test func mappingIsGivenTheEventStateAndUserInfo() {
        let log = Log()
        let machine = StrMachine(state: .str("here")) { machine in
            machine.addRouteMapping { event, fromState, userInfo in
                log("\(word(event)) \(word(fromState)) \(String(describing: userInfo))")
                return nil
            }
        }
        machine.tryEvent(.str("go"), userInfo: 3)
        #expect(log.lines == ["go here Optional(3)"])
    }

    @Test func mappingReturningNilRefusesTheEvent() throws {
        var errors: [StrMachine.Context] = []
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping { event, _, _ in word(event) == "go" ? .str("b") : nil }
            machine.addErrorHandler { errors.append($0) }
        }
        #expect(machine.canTryEvent(.str("stop")) == nil)
        #expect(!machine.tryEvent(.str("stop")))
        #expect(machine.state == .str("a"))
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.event == .str("stop"))
        #expect(error.fromState == .str("a"))
        #expect(error.toState == .str("a"))
    }

    @Test func mappingToTheCurrentStateIsASuccessfulSelfTransition() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping { event, fromState, _ in word(event) == "stay" ? fromState : nil }
            machine.addHandler(event: .any) { log("\(word($0.fromState)) => \(word($0.toState))") }
            machine.addErrorHandler { _ in log("error") }
        }
        #expect(machine.canTryEvent(.str("stay")) == .str("a"))
        #expect(machine.tryEvent(.str("stay")))
        #expect(machine.state == .str("a"))
        #expect(log.lines == ["a => a"])
    }

    @Test func canTryEventAndHasRouteAskMappings() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping)
        }
        #expect(machine.canTryEvent(.str("x")) == .str("a+x"))
        #expect(machine.hasRoute(event: .str("x"), fromState: .str("q"), toState: .str("q+x")))
        #expect(!machine.hasRoute(event: .str("x"), fromState: .str("q"), toState: .str("q+y")))
        #expect(machine.state == .str("a"))
    }

    // MARK: Order

    @Test func mappingsAreAskedInRegistrationOrder() {
        let log = Log()
        let machine = StrMachine(state: .str("start")) { machine in
            machine.addRouteMapping { event, _, _ in
                log("first")
                return word(event) == "a" ? .str("first") : nil
            }
            machine.addRouteMapping { _, _, _ in
                log("second")
                return .str("second")
            }
            machine.addRouteMapping { _, _, _ in
                log("third")
                return .str("third")
            }
        }
        #expect(machine.canTryEvent(.str("a")) == .str("first"))
        #expect(machine.canTryEvent(.str("b")) == .str("second"))
        #expect(log.lines == ["first", "first", "second"])
    }

    @Test(arguments: [false, true])
    func earlierMappingWinsWhenBothAnswer(reversed: Bool) {
        let toLeft: StrMachine.RouteMapping = { _, _, _ in .str("left") }
        let toRight: StrMachine.RouteMapping = { _, _, _ in .str("right") }
        let machine = StrMachine(state: .str("start")) { machine in
            for mapping in reversed ? [toRight, toLeft] : [toLeft, toRight] {
                machine.addRouteMapping(mapping)
            }
        }
        machine <-! .str("go")
        #expect(machine.state == .str(reversed ? "right" : "left"))
    }

    @Test func arrowRoutesComeBeforeMappings() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping)
            machine.addRoutes(event: .str("x"), transitions: [.str("a") => .str("routed")])
        }
        #expect(machine.canTryEvent(.str("x")) == .str("routed"))
        #expect(machine.canTryEvent(.str("y")) == .str("a+y"))
    }

    // MARK: tryState and mappings

    @Test func tryStateAsksMappingsWithANilEvent() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping { event, fromState, userInfo in
                log("\(word(event)) \(word(fromState)) \(String(describing: userInfo))")
                return event == nil ? .str("by state") : .str("by event")
            }
        }
        #expect(!machine.tryState(.str("by event")))
        #expect(machine.tryState(.str("by state"), userInfo: "u"))
        #expect(machine.state == .str("by state"))
        #expect(log.lines == ["nil a nil", "nil a Optional(\"u\")"])
    }

    @Test func tryStateNeedsTheMappingToNameTheRequestedState() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping { event, fromState, _ in
                event == nil ? .str(word(fromState) + "!") : nil
            }
        }
        #expect(!machine.canTryState(.str("b")))
        #expect(machine.hasRoute(fromState: .str("b"), toState: .str("b!")))
        #expect(machine.tryState(.str("a!")))
        #expect(machine.tryState(.str("a!!")))
        #expect(machine.state == .str("a!!"))
    }

    /// SwiftState asks every mapping whether it leads to the requested state,
    /// not only the first that answers; a machine with entry handlers (a
    /// statechart underneath) must answer as a plain one does.
    @Test(arguments: [false, true])
    func anyMappingThatNamesTheStateAllowsIt(withEntryHandler: Bool) {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping { _, _, _ in .str("first") }
            machine.addRouteMapping { _, _, _ in .str("second") }
            if withEntryHandler {
                machine.addEntryHandler(.str("second")) { _ in }
            }
        }
        #expect(machine.hasRoute(event: .str("x"), fromState: .str("a"), toState: .str("second")))
        #expect(machine.hasRoute(fromState: .str("a"), toState: .str("second")))
        #expect(machine.canTryState(.str("second")))
        #expect(machine.tryState(.str("second")))
        #expect(machine.state == .str("second"))
        #expect(!machine.canTryState(.str("third")))
    }

    @Test func mappingWithoutAnEventCaseRefusesTryState() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping)
        }
        #expect(!machine.tryState(.str("a+b")))
        #expect(machine.state == .str("a"))
    }

    // MARK: addRouteMapping(_:order:handler:)

    @Test func mappingHandlerRunsAfterTheMappingsMove() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping) { [unowned machine] context in
                log(
                    "\(word(context.event)) \(word(context.fromState)) => \(word(context.toState)), now \(word(machine.state))"
                )
            }
        }
        machine <-! .str("b")
        #expect(log.lines == ["b a => a+b, now a+b"])
    }

    @Test func mappingHandlerIgnoresMovesTheMappingDoesNotName() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping({ event, _, _ in word(event) == "go" ? .str("gone") : nil }) { _ in
                log("go mapping")
            }
            machine.addRouteMapping({ event, _, _ in word(event) == "run" ? .str("ran") : nil }) { _ in
                log("run mapping")
            }
            machine.addRoutes(event: .str("jump"), transitions: [.any => .str("jumped")])
        }
        machine <-! .str("run") <-! .str("jump") <-! .str("go")
        #expect(machine.state == .str("gone"))
        #expect(log.lines == ["run mapping", "go mapping"])
    }

    @Test func mappingHandlerBelongsToTheMappingNotOnlyToItsMoves() {
        // SPEC §1: a handler given with routes belongs to what it was
        // registered for. A route that makes the move the mapping names
        // still runs the mapping's handler.
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRoutes(event: .str("b"), transitions: [.str("a") => .str("a+b")])
            machine.addRouteMapping(appendingMapping) { _ in log("mapping handler") }
        }
        machine <-! .str("b")
        #expect(machine.state == .str("a+b"))
        #expect(log.lines == ["mapping handler"])
    }

    @Test func mappingHandlersRunInTheirOrder() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping(appendingMapping, order: 200) { _ in log("order 200") }
            machine.addRouteMapping(appendingMapping, order: 50) { _ in log("order 50") }
            machine.addRouteMapping(appendingMapping) { _ in log("order 100") }
        }
        machine <-! .str("b")
        #expect(log.lines == ["order 50", "order 100", "order 200"])
    }

    @Test func mappingHandlerIgnoresStateRequestsAsSwiftStateDid() {
        // SwiftState registers a route mapping's handler as an event handler
        // (`_addHandler(event: .any)`), so `tryState` never runs it. SPEC §1:
        // code written for SwiftState behaves the same.
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addRouteMapping({ _, _, _ in .str("b") }) { _ in log("mapping handler") }
        }
        #expect(machine.tryState(.str("b")))
        #expect(log.lines.isEmpty)

        log.clear()
        machine <-! .str("again")
        #expect(log.lines == ["mapping handler"])
    }

    // MARK: Disposing from inside a mapping

    @Test func mappingDisposingItselfStillAnswersTheEventItWasAskedAbout() {
        let machine = StrMachine(state: .str("a"))
        var disposable: Disposable?
        // The mapping alone holds the log: disposing it must not free what it is still using.
        disposable = machine.addRouteMapping { [log = Log()] event, fromState, _ in
            disposable?.dispose()
            log(word(event))
            return .str(word(fromState) + "+" + log.lines.joined())
        }
        #expect(machine.tryEvent(.str("go")))
        #expect(machine.state == .str("a+go"))
        #expect(disposable?.disposed == true)
        #expect(!machine.tryEvent(.str("again")))
        #expect(machine.state == .str("a+go"))
    }

    @Test func stateRouteMappingDisposingItselfStillAllowsTheStateItWasAskedAbout() {
        let machine = StrMachine(state: .str("a"))
        var disposable: Disposable?
        disposable = machine.addStateRouteMapping { [log = Log()] fromState, _ in
            disposable?.dispose()
            log(word(fromState))
            return log.lines.map { .str($0 + "+") }
        }
        #expect(machine.tryState(.str("a+")))
        #expect(disposable?.disposed == true)
        #expect(!machine.tryState(.str("a++")))
        #expect(machine.state == .str("a+"))
    }

    // MARK: addStateRouteMapping

    @Test func stateRouteMappingRoutesStatesWithAssociatedValues() {
        let machine = StrMachine(state: .str("1")) { machine in
            machine.addStateRouteMapping { fromState, _ in
                guard let number = Int(word(fromState)) else { return nil }
                return [.str("\(number + 1)"), .str("\(number * 10)")]
            }
        }
        #expect(machine.tryState(.str("10")))
        #expect(machine.tryState(.str("11")))
        #expect(!machine.tryState(.str("13")))
        #expect(machine.state == .str("11"))
    }

    @Test func stateRouteMappingIsNeverUsedByEvents() {
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addStateRouteMapping { _, _ in [.str("b")] }
        }
        #expect(machine.canTryEvent(.str("b")) == nil)
        #expect(!machine.tryEvent(.str("b")))
        #expect(!machine.hasRoute(event: .str("b"), fromState: .str("a"), toState: .str("b")))
    }

    @Test func stateRouteMappingHandlerRunsForTheStatesItAllows() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addStateRouteMapping({ fromState, userInfo in
                word(fromState) == "a" ? [.str("b")] : nil
            }) { context in
                log(
                    "\(word(context.event)) \(word(context.fromState)) => \(word(context.toState)) \(String(describing: context.userInfo))"
                )
            }
            machine.addRoute(.str("b") => .str("c"))
        }
        machine <- (.str("b"), 1) <- .str("c")
        #expect(machine.state == .str("c"))
        #expect(log.lines == ["nil a => b Optional(1)"])
    }

    @Test func stateRouteMappingHandlerIgnoresEventDrivenMoves() {
        let log = Log()
        let machine = StrMachine(state: .str("a")) { machine in
            machine.addStateRouteMapping({ _, _ in [.str("b")] }) { _ in log("state mapping handler") }
            machine.addRoutes(event: .str("go"), transitions: [.str("a") => .str("b")])
        }
        #expect(machine.tryEvent(.str("go")))
        #expect(machine.state == .str("b"))
        #expect(log.lines.isEmpty)
    }
}
