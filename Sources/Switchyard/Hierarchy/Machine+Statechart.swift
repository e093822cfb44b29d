// Statecharts: states with children (compound) or regions (parallel), history,
// entry and exit handlers, and an explicit start. A machine that declares
// none of these stays flat and behaves as sections 1 and 2 of the SPEC say.

extension Machine {
    // MARK: Declaring the tree

    /// Makes `children` the children of `parent`: while `parent` is active,
    /// exactly one of them is.
    ///
    /// ```swift
    /// player.addChildren([.playing, .paused], to: .active)
    /// player.addRoutes(event: .stop, transitions: [.active => .stopped])  // from either child
    /// ```
    ///
    /// A route from `parent` applies whichever child is active; a route may
    /// lead to a state at any depth, which enters its ancestors too. Entering
    /// `parent` by default enters `initial` (or its history; see
    /// ``addHistory(_:to:default:)``). Declaring children again for the same parent
    /// adds to them.
    ///
    /// - Parameters:
    ///   - children: The new children, in the order that is their document
    ///     order; none may already have a parent.
    ///   - parent: The compound state. It may not have regions.
    ///   - initial: The child entered by default; the first child if `nil`.
    /// - Precondition: No child has a parent already or is `parent`'s
    ///   ancestor, `initial` is a child, and, once the machine has begun (see
    ///   ``start()``), neither `parent` nor a child is active. Each stops the
    ///   program with a message that names it.
    @inlinable
    public func addChildren(_ children: [S], to parent: S, initial: S? = nil) {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        declare(children, under: parent, as: .compound, initial: initial)
    }

    /// Makes `regions` the regions of `parent`: while `parent` is active, all
    /// of them are, each with its own active descendants.
    ///
    /// ```swift
    /// keyboard.addRegions([.capsLock, .numLock], to: .keyboard)
    /// keyboard.addChildren([.capsOff, .capsOn], to: .capsLock)
    /// keyboard.addChildren([.numOff, .numOn], to: .numLock)
    /// ```
    ///
    /// An event is offered to every region, in this order, and may move
    /// several of them in one step.
    ///
    /// - Parameters:
    ///   - regions: The regions, in the order that is their document order.
    ///   - parent: The parallel state. It may not have children already.
    /// - Precondition: As for ``addChildren(_:to:initial:)``.
    @inlinable
    public func addRegions(_ regions: [S], to parent: S) {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        declare(regions, under: parent, as: .parallel, initial: nil)
    }

    /// Makes `state` keep `kind` history: entering it by default enters
    /// what was active in it when it was last exited; before it has been
    /// exited, `fallback` if given, else its initial child (a parallel
    /// state: all its regions).
    ///
    /// ```swift
    /// player.addHistory(.deep, to: .active, default: .paused)
    /// ```
    ///
    /// A route to `state` enters it through its history (SCXML's transition
    /// to a history pseudo-state); ``Transition/ignoringHistory(_:)`` enters
    /// the state itself instead. A route that leads into `state` by naming
    /// one of its descendants enters that descendant, not the history.
    ///
    /// - Parameters:
    ///   - kind: ``HistoryKind/shallow`` (the active child, or a parallel
    ///     state's regions) or ``HistoryKind/deep`` (the active atomic
    ///     descendants, in every region).
    ///   - state: A state with children or regions, declared first, or one
    ///     that a machine is nested in (see ``nest(_:under:as:)``), nested first.
    ///   - fallback: What to enter before anything is recorded: any
    ///     descendant of `state` (its ancestors below `state` are entered
    ///     too, and the other regions of a parallel one by default).
    ///     `nil` for the initial child.
    @inlinable
    public func addHistory(_ kind: HistoryKind, to state: S, default fallback: S? = nil) {
        specialiseSteps()  // made in the app's build: why this declaration is inlinable
        declareHistory(kind, to: state, default: fallback)
    }

    /// ``addHistory(_:to:default:)``, once the steps are specialised.
    @usableFromInline
    func declareHistory(_ kind: HistoryKind, to state: S, default fallback: S?) {
        let code = internedCode(of: state)
        let fallbackCode = fallback.map(internedCode(of:))
        ensureChart()
        if let link = nestingLink {
            // A state with a machine nested in it has children only in the
            // hierarchy, which records its history.
            if chart!.tree.kind(of: code) != .atomic {
                chart!.tree.setHistory(kind, of: code, default: fallbackCode, names: name(of:))
            }
            link.setHistory(link.member, kind, code, fallbackCode)
            return
        }
        setNestedHistory(member: 0, kind: kind, code: code, default: fallbackCode)
    }

    /// Declares `children` under `parent`, refusing a change under an active
    /// state once the machine has begun (see ``declareNested(member:children:parent:kind:initial:)``).
    @usableFromInline
    func declare(_ children: [S], under parent: S, as kind: StateTree.Kind, initial: S?) {
        let parentCode = internedCode(of: parent)
        let codes = children.map(internedCode(of:))
        let initialCode = initial.map(internedCode(of:))
        ensureChart()
        if let link = nestingLink {
            chart!.tree.add(codes, to: parentCode, kind: kind, initial: initialCode, names: name(of:))
            link.declare(link.member, codes, parentCode, kind, initialCode)
            return
        }
        declareNested(member: 0, children: codes, parent: parentCode, kind: kind, initial: initialCode)
    }

    /// Stops on a route whose targets are not in different regions of one
    /// parallel state (see ``Transition/alsoEntering(_:)``).
    func requireLegalTargets(of transition: Transition<S>) {
        guard let first = transition.toState.rawValue else {
            require(
                false, "the route \(transition) names other targets beside .any; several targets must all be states")
            return
        }
        ensureChart()
        let targets = [first] + transition.otherTargets
        let codes = targets.map(internedCode(of:))
        let nodes: [SymbolCode]
        if nestingLink != nil {
            // A nested machine's parallel states are its own declarations,
            // grafted whole into the hierarchy: checked there, in its codes.
            nodes = codes
        } else {
            prepareChart()
            let nesting = uncheckedNesting
            nodes = codes.map { nesting.node(of: $0, in: 0, chart: uncheckedChart) }
        }
        let chart = uncheckedChart
        chart.tree.layOutIfNeeded()
        let tree = chart.tree
        for (index, node) in nodes.enumerated() {
            for (otherIndex, other) in nodes.enumerated() where otherIndex > index {
                var common = tree.parent(of: node)
                while common != .wildcard, !tree.isDescendant(other, of: common) {
                    common = tree.parent(of: common)
                }
                require(
                    !tree.isWithin(node, other) && !tree.isWithin(other, node)
                        && tree.kind(of: common) == .parallel && common != .wildcard,
                    "the targets \(targets[index]) and \(targets[otherIndex]) of \(transition) are not in different regions of one parallel state; declare the regions first"
                )
            }
        }
    }

    /// Gives the machine a statechart, if it has none yet: the root of a
    /// hierarchy of one machine, until machines are nested in it.
    @inlinable
    func ensureChart() {
        if chart == nil {
            chart = Statechart()
            specialiseSteps()  // unless a public declaration did, in the app's build
            // A flat machine that already moved goes on from where it is, in
            // a chart that has begun: the tree under its state is fixed.
            initialState = currentState
            chart!.hasBegun = hasMoved
            beginNesting()
        }
    }

    /// The state of `code`, for messages.
    @usableFromInline
    func name(of code: SymbolCode) -> String {
        if code == .wildcard {
            return "the machine"
        }
        if let state = routes.storage.states.name(of: code) {
            return String(describing: state)
        }
        // A node of a hierarchy that no value of this machine names.
        return nesting?.describe(code) ?? "a state of a nested machine"
    }

    // MARK: Entry and exit

    /// Adds a handler that runs whenever `state` is entered: as a route's
    /// target, as an ancestor of one, or by default (an initial child, a
    /// region, history), and when ``start()`` enters the initial
    /// configuration.
    ///
    /// In one step, entry handlers run last, after the state has changed and
    /// after the handlers of the transition, outermost state first. The
    /// context is the step's: `fromState` and `toState` are the machine's
    /// `state` before and after it. A request a handler makes runs after the
    /// step.
    ///
    /// - Parameters:
    ///   - state: The state to watch. On a flat machine, any state.
    ///   - order: When the handler runs among `state`'s entry handlers; lower first.
    ///   - handler: Runs after `state` has been entered.
    /// - Returns: What removes the handler.
    @inlinable
    @discardableResult
    public func addEntryHandler(_ state: S, order: HandlerOrder = 100, handler: @escaping Handler) -> Disposable {
        ensureChart()
        return register(.entry(internedCode(of: state)), order: order, handler: handler)
    }

    /// Adds a handler that runs whenever `state` is exited.
    ///
    /// In one step, exit handlers run first, before the state changes,
    /// innermost state first (later regions before earlier ones).
    ///
    /// - Parameters:
    ///   - state: The state to watch. On a flat machine, any state.
    ///   - order: When the handler runs among `state`'s exit handlers; lower first.
    ///   - handler: Runs before `state` is left.
    /// - Returns: What removes the handler.
    @inlinable
    @discardableResult
    public func addExitHandler(_ state: S, order: HandlerOrder = 100, handler: @escaping Handler) -> Disposable {
        ensureChart()
        return register(.exit(internedCode(of: state)), order: order, handler: handler)
    }

    /// Enters the initial configuration, running its entry handlers,
    /// outermost first; once.
    ///
    /// The initial configuration is what entering the machine's initial
    /// state makes: the state, its ancestors, and their default descendants.
    /// A machine that is never started is already in that configuration, but
    /// runs no entry handler for it. The observers of ``inspect(_:)`` hear a
    /// start as an ``Inspection/Request/start`` inspection, before its entry
    /// handlers run.
    ///
    /// - Returns: `true` the first time; `false`, doing nothing, if the
    ///   machine was started before, has already taken a step or has
    ///   restored a snapshot, or if a condition or route mapping calls it
    ///   while the machine decides a request (the machine may be started
    ///   later).
    @inlinable
    @discardableResult
    public func start() -> Bool {
        start(reading: { _ in })
    }

    /// ``start()``, showing `reading` the codes of the states it enters,
    /// outermost first, before any entry handler runs (whose requests may
    /// move the machine before `start` returns), and `readingSteps` each
    /// eventless or done step that follows, once it is planned.
    @inlinable
    func start(reading: ([SymbolCode]) -> Void, readingSteps: StepReader = { _ in }) -> Bool {
        // From a condition, starting would take steps over the one being decided.
        guard !hasStarted, nestingLink == nil, decisionDepth == 0 else { return false }
        hasStarted = true
        guard chart != nil else {
            // A flat machine enters its state, and runs nothing.
            guard !hasMoved else { return false }
            if let watchers, watchers.hasInspectors {
                inspectLifecycle(.start, states: [currentState], to: watchers)
            }
            return true
        }
        stepReaderCount += 1
        defer { stepReaderCount -= 1 }
        return startHierarchy(reading: reading, readingSteps: readingSteps)
    }

    // MARK: Reading

    /// Every active state, in document order: each state before its
    /// descendants, children and regions in the order they were declared.
    ///
    /// On a flat machine, `[state]`.
    public var configuration: [S] {
        guard chart != nil else { return [currentState] }
        if let link = nestingLink {
            return link.activeCodes(link.member).map(value(of:))
        }
        prepareChart()
        // The root of a hierarchy lists the states it can name.
        return names(of: activeCodes())
    }

    /// The codes of the active states, in document order.
    func activeCodes() -> [SymbolCode] {
        chart!.activeNodes(within: .wildcard)
    }

    /// Whether `state` is active: the machine's `state`, one of its
    /// ancestors, or any state of the configuration.
    ///
    /// - Complexity: One hash of `state`.
    public func isActive(_ state: S) -> Bool {
        guard chart != nil else { return state == currentState }
        if let link = nestingLink {
            let code = routes.code(of: state)
            return code.isConcrete && link.isActive(link.member, code)
        }
        prepareChart()
        let code = routes.code(of: state)
        return code.isConcrete && chart!.configuration.isActive(code)
    }

    /// What `state` recorded as its history when it was last exited: its
    /// active child (shallow) or its active atomic descendants (deep); empty
    /// if it keeps no history or has not been exited yet.
    public func recordedHistory(of state: S) -> [S] {
        guard chart != nil else { return [] }
        let code = routes.code(of: state)
        if let link = nestingLink {
            return code.isConcrete ? link.recordedHistory(link.member, code).map(value(of:)) : []
        }
        return code.isConcrete ? recordedHistory(of: code, in: 0).map(value(of:)) : []
    }
}
