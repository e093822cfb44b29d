/// The routes taken in one step, and the states it exits and enters: what
/// SCXML calls a microstep, computed as a value before anything runs.
///
/// Noncopyable, as its lists are (``ReusableList``): a machine keeps one
/// plan and fills it again at every step, and readers borrow it.
@usableFromInline
struct StepPlan: ~Copyable {
    /// One route taken in the step.
    @usableFromInline
    struct Move {
        /// The route or route mapping taken (and a definition's clause);
        /// ``TakenRoute/none`` for a move a state request made.
        @usableFromInline var taken = TakenRoute.none
        /// In a hierarchy of nested machines, the machine whose route it is
        /// (registrations are numbered per machine); 0 for the root.
        @usableFromInline var member: UInt32 = 0
        var source: SymbolCode
        /// ``SymbolCode/wildcard`` for a route without target (`.any`: stay).
        @usableFromInline var target: SymbolCode
        var isLocal: Bool
        /// Where the move exits and enters below; `nil` for a targetless one.
        /// ``SymbolCode/unknown`` while it is not worked out: a plan's first
        /// move has its domain worked out when a second is chosen or when
        /// the plan is completed (see ``Statechart/choose(_:into:)``).
        var domain: SymbolCode?
        /// What else the move does, at this index of ``StepPlan/extras``; -1
        /// for nothing else. Kept apart so that a move stays small to copy.
        var extras: Int16 = -1

        @usableFromInline
        init(source: SymbolCode, target: SymbolCode, isLocal: Bool) {
            self.source = source
            self.target = target
            self.isLocal = isLocal
            self.domain = nil
        }
    }

    @usableFromInline var moves = ReusableList<Move>()
    /// What moves do besides moving to one target (see ``Move/extras``).
    var extras = ReusableList<Extras>()
    /// The other targets the extras name.
    var otherTargets = ReusableList<SymbolCode>()
    /// Whether a move chosen has an action.
    @usableFromInline var hasActions = false
    /// For a step a statechart takes after another, what routes it takes;
    /// `nil` for a request's own step. Read only to inspect the step.
    var internalCause: InternalCause?
    /// For a microstep that no route takes (starting, restoring a snapshot,
    /// finishing), which it is; `nil` for a step of routes. Read by
    /// ``Statechart/apply(_:)`` and by the runner, which deliver it as a step.
    @usableFromInline var lifecycle: Lifecycle?
    /// For a restore, the configuration it puts in place (with its recorded
    /// history), swapped in when the plan is applied.
    var restored: Configuration?
    /// The states to exit, innermost first.
    @usableFromInline var exits: ReusableList<SymbolCode> {
        _read {
            assertListsAreHere()
            yield storedExits
        }
        _modify {
            assertListsAreHere()
            yield &storedExits
        }
    }
    /// The states to enter, outermost first.
    @usableFromInline var entries: ReusableList<SymbolCode> {
        _read {
            assertListsAreHere()
            yield storedEntries
        }
        _modify {
            assertListsAreHere()
            yield &storedEntries
        }
    }
    /// The atomic states active once the step is applied, in document order
    /// (see ``Statechart/planAtomics(of:)``).
    @usableFromInline var atomicsAfter: ReusableList<SymbolCode> {
        _read {
            assertListsAreHere()
            yield storedAtomicsAfter
        }
        _modify {
            assertListsAreHere()
            yield &storedAtomicsAfter
        }
    }
    var storedExits = ReusableList<SymbolCode>()
    var storedEntries = ReusableList<SymbolCode>()
    var storedAtomicsAfter = ReusableList<SymbolCode>()
    /// Whether ``exits``, ``entries`` and ``atomicsAfter`` are not in this
    /// plan but in the memo of steps, at ``memoMark``: a step recalled
    /// from the memo leaves them there, and ``Statechart/apply(_:)`` reads
    /// them in place (a copy of three lists cost a recalled step a fifth of
    /// its instructions). Whoever else reads them has the chart copy them
    /// first (``Statechart/copyRememberedLists(into:)``), which debug builds
    /// check at every read.
    @usableFromInline var listsAreInMemo = false
    /// The history the step records for the states it exits that keep one
    /// (see ``Statechart/planHistory(of:)``): each record's states are
    /// `historyCodes[start..<end]`.
    @usableFromInline var history = ReusableList<(state: SymbolCode, start: Int, end: Int)>()
    var historyCodes = ReusableList<SymbolCode>()
    /// The deepest state that contains ``atomicsAfter``, once worked out or
    /// recalled (see ``Statechart/innermostState(after:within:)``);
    /// ``SymbolCode/unknown`` until then.
    var innermostAfter = SymbolCode.unknown
    /// Where the chart's memo of steps holds this step, if it does (see ``StepMemo``).
    var memoMark = StepMemo.Mark.none
    /// Where the chart's memo of choices holds this plan's moves, recalled
    /// or just remembered, if it does (see ``ChoiceMemo/Entry/step``).
    var choiceMark = ChoiceMemo.Mark.none
    /// What is left to do to plan the entries (see
    /// ``Statechart/addEntries(_:to:)``), kept here so that planning them
    /// allocates nothing once it has grown; empty between calls, which is
    /// why ``reset()`` leaves it alone.
    var entryWork = ReusableList<EntryWork>()

    @usableFromInline
    init() {}

    @usableFromInline
    mutating func reset() {
        moves.removeAll()
        extras.removeAll()
        otherTargets.removeAll()
        hasActions = false
        internalCause = nil
        // `restored` is left alone: only a restore's plan holds one, and
        // applying it lets it go (see `Statechart.applyLifecycle`).
        lifecycle = nil
        storedExits.removeAll()
        storedEntries.removeAll()
        storedAtomicsAfter.removeAll()
        listsAreInMemo = false
        history.removeAll()
        historyCodes.removeAll()
        innermostAfter = .unknown
        memoMark = .none
        choiceMark = .none
    }

    /// Stops, in debug builds, a read of the lists of a plan that left
    /// them in the memo of steps (see ``listsAreInMemo``).
    @inline(__always)
    func assertListsAreHere() {
        assert(!listsAreInMemo, "Switchyard: a step's lists were read while they were left in the memo of steps")
    }

    /// A microstep that no route takes.
    @usableFromInline
    enum Lifecycle {
        /// Entering the initial configuration, which is in place already
        /// (see ``Statechart/planStart(into:)``).
        case start
        /// Putting a snapshot's configuration in place (see
        /// ``Statechart/planRestore(to:into:)``).
        case restore
        /// Exiting every active state as the machine finishes; the
        /// configuration stays, for reading (see ``Statechart/planFinish(into:)``).
        case finish
    }

    /// What routes a step taken after another takes.
    enum InternalCause {
        case eventless
        case done
    }

    /// A piece of planning entries still to do: one call of SCXML's
    /// addDescendantStatesToEnter or addAncestorStatesToEnter.
    enum EntryWork {
        /// Enter the state and what entering it by default enters.
        case state(SymbolCode, ignoringHistory: Bool)
        /// Enter the proper ancestors of the first state below the second,
        /// with the uncovered regions of a parallel one.
        case ancestors(of: SymbolCode, below: SymbolCode)
        /// Enter the region by default, unless something entered by then lies in it.
        case region(SymbolCode)
    }

    /// What a move does besides moving to one target: what few routes do.
    @usableFromInline
    struct Extras {
        /// Whether the move enters its target by default even if it keeps history.
        var ignoresHistory = false
        /// The move's targets besides its own: ``StepPlan/otherTargets``
        /// from `otherTargets.start` up to `otherTargets.end`.
        var otherTargets: Range<Int> = 0..<0
        /// The node of the route's action in the machine's handler table; -1 for none.
        @usableFromInline var action: Int32 = -1
        /// The action's registration: a condition may have disposed it
        /// since the route was chosen, and another handler taken its node.
        @usableFromInline var actionID = RegistrationID(rawValue: 0)

        init() {}
    }

    /// What `move` does besides moving to one target.
    @usableFromInline
    func extras(of move: Move) -> Extras {
        move.extras < 0 ? Extras() : extras[Int(move.extras)]
    }

    /// The index of what the step records for `state`, if it records its history.
    func historyRecord(of state: SymbolCode) -> Int? {
        for index in 0..<history.length where history[index].state == state {
            return index
        }
        return nil
    }
}
