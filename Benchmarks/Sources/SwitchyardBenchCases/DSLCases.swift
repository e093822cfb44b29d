import Switchyard

// The definition DSL, measured against the same hand-written baselines as
// the operator API's cases, so that their ratios compare the two APIs
// directly:
//
// - `dsl-event-small` and `dsl-mapping` drive the plain `Machine` a
//   definition builds, with one handler, exactly as `event-small` and
//   `mapping` drive theirs: the cost of deciding through the DSL's routes and
//   mapped clauses instead of routes and a route mapping written by hand.
// - `dsl-effects-event-small` and `dsl-effects-mapping` drive an
//   `EffectMachine` made from the same definitions, whose transitions come
//   back with their effects and reach an observer: the DSL's own runtime.
// - `dsl-pure` asks the definition's pure function the same questions as
//   `dsl-event-small`, without a machine.

/// What the clauses of the DSL cases emit.
public enum Tick: Sendable {
    case moved
}

extension BenchCase {
    /// `event-small`'s machine, built from a definition.
    static let dslEventSmall = BenchCase(
        name: "dsl-event-small",
        summary: "tryEvent round event-small's cycle on the Machine a definition builds, one handler for every event",
        switchyard: {
            let counter = Counter()
            let machine = makeLightDefinition().makeMachine(delivery: .immediate)
            machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        dictionary: eventSmall.dictionary,
        handSwitch: eventSmall.handSwitch
    )

    /// `mapping`'s machine, built from a definition whose clauses match the
    /// documents by case: `From(Document.draft)`.
    static let dslMapping = BenchCase(
        name: "dsl-mapping",
        summary: "tryEvent over Document(version:) states on the Machine a definition builds, clauses matching "
            + "them by case with computed targets; one handler",
        switchyard: {
            let counter = Counter()
            let machine = makeDocumentDefinition().makeMachine(delivery: .immediate)
            machine.addHandler(event: .any) { _ in counter.value &+= 1 }
            let cycle = documentCycle
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if machine.tryEvent(cycle[phase]) { moved &+= 1 }
                    phase = phase == 2 ? 0 : phase &+ 1
                }
                return moved &+ counter.value &+ machine.state.version
            }
        },
        dictionary: mapping.dictionary,
        handSwitch: nil
    )

    /// The 4-state cycle of `event-small`, written as a definition whose
    /// clauses emit an effect each, on an effect machine.
    static let dslEffectsEventSmall = BenchCase(
        name: "dsl-effects-event-small",
        summary: "EffectMachine.attemptTransition round event-small's cycle, each clause emitting one effect; "
            + "one observer",
        switchyard: {
            let counter = Counter()
            let machine = EffectMachine(makeLightDefinition())
            machine.onTransition { result in
                if case .success(let transition) = result {
                    counter.value &+= transition.effects.count
                }
            }
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if case .success = machine.attemptTransition(cycle[phase]) { moved &+= 1 }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ counter.value
            }
        },
        dictionary: eventSmall.dictionary,
        handSwitch: eventSmall.handSwitch
    )

    /// The documents of `mapping`, matched by case, on an effect machine.
    static let dslEffectsMapping = BenchCase(
        name: "dsl-effects-mapping",
        summary: "EffectMachine.attemptTransition over Document(version:) states, clauses matching them by case "
            + "with computed targets; one observer",
        switchyard: {
            let counter = Counter()
            let machine = EffectMachine(makeDocumentDefinition())
            machine.onTransition { result in
                if case .success = result {
                    counter.value &+= 1
                }
            }
            let cycle = documentCycle
            var phase = 0
            return { iterations in
                var moved = 0
                for _ in 0..<iterations {
                    if case .success = machine.attemptTransition(cycle[phase]) { moved &+= 1 }
                    phase = phase == 2 ? 0 : phase &+ 1
                }
                return moved &+ counter.value &+ machine.state.version
            }
        },
        dictionary: mapping.dictionary,
        handSwitch: nil
    )

    /// The pure function of `dsl-event-small`'s definition, walked round the
    /// same cycle: no machine, no observer; the effects are counted instead.
    static let dslPure = BenchCase(
        name: "dsl-pure",
        summary: "Definition.transition(from:on:) round event-small's cycle, counting the effects",
        switchyard: {
            let definition = makeLightDefinition()
            let cycle: [LightEvent] = [.next, .next, .next, .reset]
            var state = Light.s0
            var phase = 0
            return { iterations in
                var moved = 0
                var effects = 0
                for _ in 0..<iterations {
                    if let outcome = definition.transition(from: state, on: cycle[phase]) {
                        state = outcome.toState
                        effects &+= outcome.effects.count
                        moved &+= 1
                    }
                    phase = (phase &+ 1) & 3
                }
                return moved &+ effects
            }
        },
        dictionary: eventSmall.dictionary,
        handSwitch: eventSmall.handSwitch
    )
}

/// `event-small`'s routes as a definition.
func makeLightDefinition() -> Definition<Light, LightEvent, Tick> {
    Definition(initialState: .s0) {
        From(.s0) { On(.next, transitionTo: .s1, emit: .moved) }
        From(.s1) { On(.next, transitionTo: .s2, emit: .moved) }
        From(.s2) { On(.next, transitionTo: .s3, emit: .moved) }
        From(.s3) { On(.reset, transitionTo: .s0, emit: .moved) }
    }
}

/// `mapping`'s routing as a definition: `routeDocument`'s three cases, one
/// clause each.
func makeDocumentDefinition() -> Definition<Document, DocumentEvent, Tick> {
    Definition(initialState: .draft(version: 0)) {
        From(Document.draft) {
            On(.submit) { document, _ in .review(version: document.version) }
        }
        From(Document.review) {
            On(.approve) { document, _ in .published(version: document.version) }
        }
        From(Document.published) {
            On(.revise) { document, _ in .draft(version: document.version &+ 1) }
        }
    }
}

extension BenchCase {
    /// `nested-3`'s chart as a definition whose entries and exits emit
    /// effects, asked through the pure function: each step walks the tree
    /// and joins five effects (two exits, the clause's, two entries) into one
    /// list, the one allocation it makes.
    static let dslPureNested = BenchCase(
        name: "dsl-pure-nested",
        summary: "Definition.transition(from:on:) on nested-3's chart, its entries and exits emitting effects: "
            + "2 exits, the clause, 2 entries",
        switchyard: {
            let definition = makeNestedDefinition()
            var state = Nested.l1
            return { iterations in
                var effects = 0
                for _ in 0..<iterations {
                    if let outcome = definition.transition(from: state, on: .flip) {
                        state = outcome.toState
                        effects &+= outcome.effects.count
                    }
                }
                return effects
            }
        },
        dictionary: nested3.dictionary,
        handSwitch: nil
    )
}

/// `nested-3`'s chart: `top { left { l1, l2 }, right { r1, r2 } }`, `flip`
/// moving between `left` and `right`, and entry and exit effects where
/// `nested-3` has its handlers.
func makeNestedDefinition() -> Definition<Nested, Flip, Tick> {
    Definition(initialState: .top) {
        From(.top) {
            From(.left) {
                OnEntry(emit: .moved)
                OnExit(emit: .moved)
                On(.flip, transitionTo: .right, emit: .moved)
                From(.l1) {
                    OnEntry(emit: .moved)
                    OnExit(emit: .moved)
                }
                From(.l2) {}
            }
            From(.right) {
                OnEntry(emit: .moved)
                OnExit(emit: .moved)
                On(.flip, transitionTo: .left, emit: .moved)
                From(.r1) {
                    OnEntry(emit: .moved)
                    OnExit(emit: .moved)
                }
                From(.r2) {}
            }
        }
    }
}
