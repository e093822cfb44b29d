import Switchyard
import Testing

// Clauses that name an enum case by its constructor (`From(Shape.square)`,
// `On(Input.typed)`) or by the type it carries (`From(Loading.self)`) match
// every value of that case and no other, for enums of every layout: the
// case index is read once per value and a verdict kept per case, so every
// value is checked, each case more than once and in an order that mixes them.

private final class Box: Hashable {
    let value: Int
    init(_ value: Int) { self.value = value }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// Payload cases with the same payload type, empty cases between them, a
/// class payload (spare bits), a tuple payload and an optional payload.
private enum Shape: StateType {
    case square(Int)
    case empty
    case circle(Int)
    case boxed(Box)
    case other(Box)
    case none
    case point(x: Int, y: Int)
    case maybe(Int?)
}

private indirect enum Tree: StateType {
    case leaf(Int)
    case node(Tree, Tree)
    case empty
    case labelled(String, Tree)
}

private enum Single: StateType {
    case only(Int)
}

private enum Pair<Value: Hashable>: StateType {
    case left(Value)
    case right(Value)
}

private enum Tap: EventType, CaseIterable {
    case tap
}

/// Whether a definition made of one `From(pattern) { On(.tap, stayAndEmit: 1) }`
/// answers `value`, through the pure function and a machine.
private func answers<S: StateType>(_ definition: Definition<S, Tap, Int>, _ value: S) -> Bool {
    let pure = definition.transition(from: value, on: .tap) != nil
    let machine = EffectMachine(definition.starting(in: value))
    let moved = (try? machine.attemptTransition(.tap).get()) != nil
    #expect(pure == moved, "\(value)")
    return pure
}

private func allShapes() -> [Shape] {
    [
        .square(1), .empty, .circle(1), .boxed(Box(1)), .other(Box(1)), .none, .point(x: 1, y: 2), .maybe(nil),
        .maybe(3), .square(2), .circle(2), .other(Box(2)), .boxed(Box(2)), .point(x: 0, y: 0), .empty, .none,
    ]
}

@Suite struct CasePatternTests {
    @Test func aPayloadCaseMatchesItsOwnValuesOnlyEvenBesideCasesWithTheSamePayloadType() {
        func definition<each Payload>(_ embed: @escaping (repeat each Payload) -> Shape) -> Definition<Shape, Tap, Int>
        {
            Definition(initialState: .empty) { From(embed) { On(.tap, stayAndEmit: 1) } }
        }
        let square = definition(Shape.square)
        let circle = definition(Shape.circle)
        let boxed = definition(Shape.boxed)
        let other = definition(Shape.other)
        let point = definition(Shape.point)
        let maybe = definition(Shape.maybe)
        for _ in 0..<2 {
            for shape in allShapes() {
                switch shape {
                case .square: #expect(answers(square, shape) && !answers(circle, shape) && !answers(point, shape))
                case .circle: #expect(answers(circle, shape) && !answers(square, shape) && !answers(maybe, shape))
                case .boxed: #expect(answers(boxed, shape) && !answers(other, shape))
                case .other: #expect(answers(other, shape) && !answers(boxed, shape))
                case .point: #expect(answers(point, shape) && !answers(square, shape))
                case .maybe: #expect(answers(maybe, shape) && !answers(circle, shape))
                case .empty, .none:
                    #expect(![square, circle, boxed, other, point, maybe].contains { answers($0, shape) })
                }
            }
        }
    }

    @Test func casesWithOneLabelledValueOfTheSameTypeMatchByCaseWithComputedTargets() throws {
        enum Document: StateType {
            case draft(version: Int)
            case review(version: Int)
            case published(version: Int)
        }
        enum DocumentEvent: EventType {
            case submit, approve, revise
        }
        let documents = Definition<Document, DocumentEvent, String>(initialState: .draft(version: 0)) {
            From(Document.draft) {
                On(.submit) { document, _ in
                    guard case .draft(let version) = document else { return nil }
                    return .review(version: version)
                }
            }
            From(Document.review) {
                On(.approve) { document, _ in
                    guard case .review(let version) = document else { return nil }
                    return .published(version: version)
                }
            }
            From(Document.published) {
                On(.revise) { document, _ in
                    guard case .published(let version) = document else { return nil }
                    return .draft(version: version + 1)
                }
            }
        }
        let machine = EffectMachine(documents)
        for _ in 0..<3 {
            for event: DocumentEvent in [.submit, .approve, .revise] {
                try machine.transition(event)
            }
            #expect(machine.attemptTransition(.approve).failureReason == .noRoute)
        }
        #expect(machine.state == .draft(version: 3))
        #expect(documents.transition(from: .review(version: 1), on: .submit) == nil)
        #expect(documents.transition(from: .review(version: 1), on: .approve)?.toState == .published(version: 1))

        // By the type the case carries: the closure is handed the version.
        let versions = Definition<Document, DocumentEvent, String>(initialState: .draft(version: 0)) {
            From(Int.self) { On(.revise) { version, _ in .transition(to: .draft(version: version + 1), emit: "kept") } }
        }
        #expect(
            versions.transition(from: .review(version: 2), on: .revise)
                == .init(toState: .draft(version: 3), effects: ["kept"]))
    }

    @Test func eachOfManyCasesIsAnsweredByItsOwnClause() {
        // More cases than a machine gives call sites of their own (eight),
        // so that both kinds of case are asked; each clause names the case
        // after its own, so that a clause answering for another case shows.
        enum Ring: StateType {
            case c0(Int)
            case c1(Int)
            case c2(Int)
            case c3(Int)
            case c4(Int)
            case c5(Int)
            case c6(Int)
            case c7(Int)
            case c8(Int)
            case c9(Int)
            case idle
        }
        enum RingEvent: EventType {
            case step, rest
        }
        let ring = Definition<Ring, RingEvent, String>(initialState: .c0(0)) {
            From(Ring.c0) { On(.step) { _, _ in .c1(1) } }
            From(Ring.c1) { On(.step) { _, _ in .c2(2) } }
            From(Ring.c2) { On(.step) { _, _ in .c3(3) } }
            From(Ring.c3) {
                On(.step) { _, _ in .c4(4) }
                On(.rest, transitionTo: .idle)
            }
            From(Ring.c4) { On(.step) { _, _ in .c5(5) } }
            From(Ring.c5) { On(.step) { _, _ in .c6(6) } }
            From(Ring.c6) { On(.step) { _, _ in .c7(7) } }
            From(Ring.c7) { On(.step) { _, _ in .c8(8) } }
            From(Ring.c8) { On(.step) { _, _ in .c9(9) } }
            From(Ring.c9) {
                On(.step) { _, _ in .c0(10) }
                On(.rest, stayAndEmit: "resting")
            }
            From(.idle) { On(.step, transitionTo: .c0(0)) }
        }
        let plain = ring.makeMachine()
        let effects = EffectMachine(ring)
        let walk: [(RingEvent, Ring?)] = [
            (.step, .c1(1)), (.rest, nil), (.step, .c2(2)), (.step, .c3(3)), (.step, .c4(4)), (.step, .c5(5)),
            (.step, .c6(6)), (.step, .c7(7)), (.step, .c8(8)), (.step, .c9(9)), (.rest, .c9(9)), (.step, .c0(10)),
            (.step, .c1(1)), (.step, .c2(2)), (.step, .c3(3)), (.rest, .idle), (.rest, nil), (.step, .c0(0)),
        ]
        for (event, expected) in walk {
            let from = plain.state
            #expect(ring.transition(from: from, on: event)?.toState == expected, "\(event) from \(from)")
            #expect(plain.tryEvent(event) == (expected != nil), "\(event) from \(from)")
            #expect(plain.state == expected ?? from)
            _ = effects.attemptTransition(event)
            #expect(effects.state == plain.state)
        }
        #expect(ring.transition(from: .c9(9), on: .rest)?.effects == ["resting"])
    }

    @Test func clausesMatchingByCaseStopAnsweringOnceTheirDefinitionIsDisposed() {
        let tree = Definition<Tree, Tap, Int>(initialState: .empty) {
            From(Tree.leaf) { On(.tap) { _, _ in .empty } }
        }
        let machine = Machine<Tree, Tap>(state: .leaf(1))
        let disposable = machine.addDefinition(tree)
        #expect(machine.tryEvent(.tap))
        #expect(machine.state == .empty)

        machine.addRoutes(event: .tap, transitions: [.empty => .leaf(2)])
        disposable.dispose()
        #expect(machine.tryEvent(.tap))
        #expect(machine.state == .leaf(2))
        #expect(!machine.tryEvent(.tap))
        #expect(machine.state == .leaf(2))
    }

    @Test func indirectCasesMatchByCase() {
        let node = Definition<Tree, Tap, Int>(initialState: .empty) { From(Tree.node) { On(.tap, stayAndEmit: 1) } }
        let leaf = Definition<Tree, Tap, Int>(initialState: .empty) { From(Tree.leaf) { On(.tap, stayAndEmit: 1) } }
        let labelled = Definition<Tree, Tap, Int>(initialState: .empty) {
            From(Tree.labelled) { On(.tap, stayAndEmit: 1) }
        }
        let trees: [Tree] = [
            .leaf(1), .node(.leaf(1), .empty), .empty, .labelled("a", .leaf(2)), .node(.empty, .empty), .leaf(2),
        ]
        for _ in 0..<2 {
            for tree in trees {
                switch tree {
                case .leaf: #expect(answers(leaf, tree) && !answers(node, tree) && !answers(labelled, tree))
                case .node: #expect(answers(node, tree) && !answers(leaf, tree) && !answers(labelled, tree))
                case .labelled: #expect(answers(labelled, tree) && !answers(leaf, tree) && !answers(node, tree))
                case .empty: #expect(!answers(leaf, tree) && !answers(node, tree) && !answers(labelled, tree))
                }
            }
        }
    }

    @Test func aSingleCaseEnumAndAGenericEnumMatchByCase() {
        let only = Definition<Single, Tap, Int>(initialState: .only(0)) {
            From(Single.only) { On(.tap, stayAndEmit: 1) }
        }
        #expect(answers(only, .only(1)) && answers(only, .only(2)))

        let left = Definition<Pair<Int>, Tap, Int>(initialState: .left(0)) {
            From(Pair<Int>.left) { On(.tap, stayAndEmit: 1) }
        }
        for value in [Pair.left(1), .right(1), .left(2), .right(2)] {
            if case .left = value {
                #expect(answers(left, value))
            } else {
                #expect(!answers(left, value))
            }
        }
    }

    @Test func aCaseMatchesByTheTypeItCarries() {
        let boxes = Definition<Shape, Tap, Int>(initialState: .empty) { From(Box.self) { On(.tap, stayAndEmit: 1) } }
        for _ in 0..<2 {
            for shape in allShapes() {
                switch shape {
                case .boxed, .other: #expect(answers(boxes, shape))
                default: #expect(!answers(boxes, shape))
                }
            }
        }
    }

    @Test func aCaseCarryingAClassIsJudgedValueByValueForAPatternBySubclass() {
        class Person: Hashable {
            static func == (lhs: Person, rhs: Person) -> Bool { lhs === rhs }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        final class Admin: Person {}
        enum Visitor: StateType {
            case signedIn(Person)
            case guest
        }
        let admins = Definition<Visitor, Tap, Int>(initialState: .guest) {
            From(Admin.self) { On(.tap, stayAndEmit: 1) }
        }
        let people = Definition<Visitor, Tap, Int>(initialState: .guest) {
            From(Person.self) { On(.tap, stayAndEmit: 1) }
        }
        for _ in 0..<2 {
            #expect(!answers(admins, .signedIn(Person())))
            #expect(answers(admins, .signedIn(Admin())))
            #expect(!answers(admins, .guest))
            #expect(answers(people, .signedIn(Admin())))
            #expect(answers(people, .signedIn(Person())))
        }
        // One machine, whose learned lists see both kinds of value.
        let machine = EffectMachine(admins.starting(in: .signedIn(Person())))
        #expect(machine.attemptTransition(.tap).failureReason == .noRoute)
        machine.machine.addRoute(.any => .any)
        machine.machine <- .signedIn(Admin())
        #expect((try? machine.attemptTransition(.tap).get())?.effects == [1])
    }

    @Test func eventCasesMatchByCaseAndByTheTypeTheyCarry() {
        enum Input: EventType {
            case typed(String)
            case deleted(Int)
            case pasted(String)
            case cleared
        }
        let editor = Definition<Single, Input, String>(initialState: .only(0)) {
            From(Single.only) {
                On(Input.typed, stayAndEmit: "typed")
                On(Int.self, stayAndEmit: "deleted")
                On(String.self, stayAndEmit: "pasted")
            }
        }
        let inputs: [Input] = [.typed("a"), .deleted(1), .pasted("b"), .cleared, .typed("c"), .pasted("d")]
        let heard = inputs.map { editor.transition(from: .only(0), on: $0)?.effects.first }
        #expect(heard == ["typed", "deleted", "pasted", nil, "typed", "pasted"])
    }

    @Test func aCasePatternOnATypeThatIsNotAnEnumStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Point: StateType {
                var x: Int
            }
            let definition = Definition<Point, Tap, Int>(initialState: Point(x: 0)) {
                From(Point.init) { On(.tap, stayAndEmit: 1) }
            }
            _ = definition.transition(from: Point(x: 1), on: .tap)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("matches enum cases, but Point is not an enum"))
    }
}
