/// A state machine written as data: its initial state, and clauses that
/// read "from this state, on this event, go there (and emit this)".
///
/// ```swift
/// enum Matter: StateType { case solid, liquid, gas }
/// enum Change: EventType { case melt, freeze, vaporize, condense }
/// enum Log { case melted, froze, vaporized, condensed }
///
/// let matter = Definition<Matter, Change, Log>(initialState: .solid) {
///     From(.solid) {
///         On(.melt, transitionTo: .liquid, emit: .melted)
///     }
///     From(.liquid) {
///         On(.freeze, transitionTo: .solid, emit: .froze)
///         On(.vaporize, transitionTo: .gas, emit: .vaporized)
///     }
///     From(.gas) {
///         On(.condense, transitionTo: .liquid, emit: .condensed)
///     }
/// }
///
/// matter.transition(from: .solid, on: .melt)    // liquid, emitting [.melted]
/// matter.transition(from: .solid, on: .freeze)  // nil: no clause
///
/// let machine = EffectMachine(matter)
/// let melted = try machine.transition(.melt)    // the same answer, and the machine moves
/// ```
///
/// A definition is a value. It answers ``transition(from:on:)`` as a pure
/// function, builds a plain ``Machine`` with ``makeMachine(delivery:)`` (or adds
/// its routes to one with ``Machine/addDefinition(_:)``), and an
/// ``EffectMachine`` whose transitions hand back their effects. Effects are
/// values the library returns and never runs.
///
/// Its clauses become routes and a route mapping on the same engine as the
/// operator API: <doc:DefinitionDSL> gives the rules.
public struct Definition<S: StateType, E: EventType, Effect> {
    /// The state a machine made from the definition starts in.
    public private(set) var initialState: S

    /// Every clause, in the order written, with its state side and conditions resolved.
    let clauses: [Clause<S, E, Effect>]
    @usableFromInline let tree: DefinitionTree<S>
    @usableFromInline let entryEffects: [S: [Effect]]
    @usableFromInline let exitEffects: [S: [Effect]]
    /// Observers every ``EffectMachine`` made from the definition registers.
    @usableFromInline let observers: [EffectMachine<S, E, Effect>.Transition.Callback]
    /// The states written as ``Final``.
    @usableFromInline let finalStates: [S]
    /// The ``OnDone`` and ``Always`` clauses, in the order written.
    @usableFromInline let completions: [CompletionClause<S, Effect>]
    /// The tables the pure function decides with.
    @usableFromInline let core: DefinitionCore<S, E, Effect>

    /// A definition starting in `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: The state a machine made from the definition starts in.
    ///   - content: ``From``, ``Parallel``, ``Final`` and ``Transitions`` blocks.
    /// - Precondition: Nested states form a tree (one parent each, one
    ///   initial child each, children only under one state); a misuse stops
    ///   with a message that names it. ``Final`` states, ``OnDone`` and
    ///   ``Always`` clauses follow the rules of the operator API, and stop
    ///   with its messages.
    /// - Complexity: O(*n*) in the clauses and states.
    public init(
        initialState: S, @DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionBody<S, E, Effect>
    ) {
        self.init(initialState: initialState, components: content().components)
    }

    /// A definition of `components`, starting in `initialState`.
    init(initialState: S, components: [DefinitionComponent<S, E, Effect>]) {
        var flattener = DefinitionFlattener<S, E, Effect>()
        flattener.add(components, in: nil, disabled: nil)
        self.initialState = initialState
        self.clauses = flattener.clauses
        self.tree = flattener.tree
        self.entryEffects = flattener.entryEffects
        self.exitEffects = flattener.exitEffects
        self.observers = flattener.observers
        self.finalStates = flattener.finalStates
        self.completions = flattener.completions
        self.core = DefinitionCore(
            clauses: flattener.clauses, tree: flattener.tree, entryEffects: flattener.entryEffects,
            exitEffects: flattener.exitEffects, finalStates: flattener.finalStates, completions: flattener.completions)
        let hasSeveralTargets =
            clauses.contains { !$0.entering.otherTargets.isEmpty }
            || completions.contains { !$0.entering.otherTargets.isEmpty }
        if !finalStates.isEmpty || !completions.isEmpty || hasSeveralTargets {
            // Checked now, by the engine itself, so that a misuse stops with
            // the operator API's own message (a final state with children, a
            // done clause on an atomic state, an eventless clause that would
            // be taken forever, targets not in different regions of one
            // parallel state) whatever the definition is later used for.
            _ = makeMachine()
        }
    }

    /// A definition whose block names its initial state, as Feedbacks'
    /// `InitialState` and Tinder's `initialState(_:)` do.
    ///
    /// ```swift
    /// let light = Definition<Light, LightEvent, Never> {
    ///     InitialState(.red)
    ///     From(.red) { On(.timer, transitionTo: .green) }
    /// }
    /// ```
    ///
    /// - Parameter content: The initial state, then ``From``, ``Parallel`` and
    ///   ``Transitions`` blocks.
    public init(@DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionDraft<S, E, Effect>) {
        let draft = content()
        self.init(initialState: draft.initialState, components: draft.body.components)
    }

    /// The same definition, starting in `state`: to try a machine from any
    /// state without writing the definition again.
    ///
    /// ```swift
    /// let machine = EffectMachine(matter.starting(in: .gas))
    /// ```
    ///
    /// - Parameter state: The state a machine made from the copy starts in.
    /// - Returns: The definition with its initial state replaced.
    public func starting(in state: S) -> Definition {
        var copy = self
        copy.initialState = state
        return copy
    }

    /// A block without its initial state: not allowed.
    ///
    /// - Parameter content: A block that does not name the initial state.
    @available(*, unavailable, message: "a definition needs its initial state: add InitialState(_:) to the block")
    public init(@DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionBody<S, E, Effect>) {
        fatalError("unavailable")
    }

    /// An initial state given twice: not allowed.
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - content: A block that names the initial state again.
    @available(*, unavailable, message: "the initial state is given twice: drop the argument or the statement")
    public init(
        initialState: S, @DefinitionBuilder<S, E, Effect> _ content: () -> DefinitionDraft<S, E, Effect>
    ) {
        fatalError("unavailable")
    }
}

/// Turns the blocks of a definition into clauses, a tree and effect tables.
struct DefinitionFlattener<S: StateType, E: EventType, Effect> {
    /// The group whose block is being read.
    struct Context {
        var sides: [ClauseSide<S>]
        /// The group's state, when it names one: it may have children and effects.
        var state: S?
        var isParallel: Bool
        var written: String
    }

    var clauses: [Clause<S, E, Effect>] = []
    var tree = DefinitionTree<S>()
    var entryEffects: [S: [Effect]] = [:]
    var exitEffects: [S: [Effect]] = [:]
    var observers: [EffectMachine<S, E, Effect>.Transition.Callback] = []
    /// The states written as `Final`, in the order first written.
    var finalStates: [S] = []
    /// The `OnDone` and `Always` clauses, in the order written.
    var completions: [CompletionClause<S, Effect>] = []

    init() {}

    /// Reads `components`, written inside the group `context` (`nil` at the
    /// top), each turned off while `disabled` (or its own switch) says so.
    mutating func add(
        _ components: [DefinitionComponent<S, E, Effect>], in context: Context?, disabled: (() -> Bool)?
    ) {
        let groupCondition: ((S, E) -> Bool)? = disabled.map { disabled in { _, _ in !disabled() } }
        for component in components {
            switch component {
            case .clause(let draft):
                guard let context else { continue }
                for side in context.sides {
                    let clause = Clause(
                        source: side, event: draft.event, condition: both(groupCondition, draft.condition),
                        target: draft.target, entering: draft.entering, effects: draft.effects, order: clauses.count)
                    if !clause.entering.isPlain && !clause.isRoute {
                        requireFailure(
                            "On(\(draft.event.name), transitionTo: …\(draft.entering.written)) is written in "
                                + "\(context.written), a case pattern: such a clause is answered by the definition's route mapping, "
                                + "which enters one target, through its history; alsoEntering: and ignoringHistory: "
                                + "need a route, from a state or .any on an event or .any")
                    }
                    clauses.append(clause)
                }
            case .completion(let draft):
                guard let context else { continue }
                add(draft, in: context, disabled: disabled)
            case .group(let group):
                add(group, in: context, disabled: either(disabled, group.disabled))
            case .lifecycle(let entering, let effects):
                guard let context else { continue }
                guard let state = context.state else {
                    requireFailure(
                        "\(entering ? "OnEntry" : "OnExit") belongs to one state, but \(context.written) names "
                            + "\(context.sides.count == 1 ? "a pattern or .any" : "several states")")
                }
                if entering {
                    entryEffects[state, default: []] += effects
                } else {
                    exitEffects[state, default: []] += effects
                }
            case .section(let content, let sectionDisabled):
                add(content, in: context, disabled: either(disabled, sectionDisabled))
            case .observer(let callback):
                observers.append(callback)
            }
        }
    }

    /// Reads an `OnDone` or an `Always`, written inside the group `context`:
    /// one route per state the group names, as for an `On`.
    mutating func add(_ draft: CompletionDraft<S, Effect>, in context: Context, disabled: (() -> Bool)?) {
        var condition = draft.condition
        if let disabled {
            let own = condition
            condition = { state in !disabled() && (own?(state) ?? true) }
        }
        for side in context.sides {
            let source: State<S>
            switch side {
            case .value(let state): source = .some(state)
            case .any: source = .any
            case .pattern:
                let clause = CompletionClause<S, Effect>(
                    kind: draft.kind, source: .any, target: draft.target, entering: draft.entering, condition: nil,
                    effects: [])
                requireFailure(
                    "\(clause.written) is written inside \(context.written), a pattern: it becomes a route, "
                        + "which leaves from one state or .any")
            }
            completions.append(
                CompletionClause(
                    kind: draft.kind, source: source, target: draft.target, entering: draft.entering,
                    condition: condition, effects: draft.effects))
        }
    }

    /// Reads a `From`, `Parallel` or `Final`; inside another group, it declares a child.
    mutating func add(_ group: GroupDraft<S, E, Effect>, in parent: Context?, disabled: (() -> Bool)?) {
        let context = Self.context(of: group)
        if let parent {
            guard let parentState = parent.state else {
                requireFailure(
                    "\(context.written) is written inside \(parent.written), which declares it a child state; "
                        + "children need one parent state, not a pattern, .any or several states")
            }
            guard let state = context.state else {
                requireFailure(
                    "\(context.written) is written inside From(\(parentState)), which declares a child state; "
                        + "a child is one state, not a pattern, .any or several states")
            }
            tree.add(state, at: tree.declare(parentState, isParallel: parent.isParallel))
        }
        // Declared before the block is read, so that a parent comes before its children.
        var position: Int?
        require(
            group.historyDefault == nil || group.history != nil,
            "\(context.written) gives a history default but keeps no history: give history: too")
        if let state = context.state, group.isParallel || group.initial != nil || group.history != nil {
            position = tree.declare(state, isParallel: group.isParallel)
        }
        if group.isFinal, let state = context.state, !finalStates.contains(state) {
            finalStates.append(state)
        }
        add(group.content, in: context, disabled: disabled)
        if let state = context.state, let declared = position ?? tree.positions[state] {
            tree.configure(
                at: declared, initial: group.initial, history: group.history, historyDefault: group.historyDefault)
            let children = tree.declarations[declared].children
            require(
                !children.isEmpty,
                group.isParallel
                    ? "Parallel(\(state)) has no regions: write each region as a From inside it"
                    : "From(\(state)) gives an initial child or history but has no children: write them inside it")
            if let initial = group.initial {
                require(
                    children.contains(initial),
                    "From(\(state), initial: \(initial)) names an initial child that is not one of its children")
            }
        } else {
            require(
                group.initial == nil && group.history == nil,
                "\(context.written) gives an initial child or history, which need one state with children")
        }
    }

    /// How a group's clauses leave, and the state it names, if one.
    static func context(of group: GroupDraft<S, E, Effect>) -> Context {
        switch group.source {
        case .values(let states):
            require(!states.isEmpty, "From() needs at least one state")
            let kind = group.isFinal ? "Final" : group.isParallel ? "Parallel" : "From"
            let written = "\(kind)(\(states.map { "\($0)" }.joined(separator: ", ")))"
            return Context(
                sides: states.map { .value($0) }, state: states.count == 1 ? states[0] : nil,
                isParallel: group.isParallel, written: written)
        case .any:
            return Context(sides: [.any], state: nil, isParallel: false, written: "From(.any)")
        case .pattern(let pattern):
            return Context(sides: [.pattern(pattern)], state: nil, isParallel: false, written: "From(\(pattern.name))")
        }
    }
}

/// Stops the program with `message`, in every build: a misuse of the DSL.
func requireFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
