/// How the root of a hierarchy takes a step, as a value made where the
/// machine is given its statechart (see ``Machine/specialiseSteps()``).
///
/// The one door from a machine's request paths into a statechart's step.
/// Its closure is made inside generic code that an app specialises for its
/// own machine types only where it declares a chart (children, regions, an
/// entry or exit handler, a nested machine), so only those builds compile
/// the statechart's path, specialised; a flat machine's build sees a call
/// of an optional closure that stays `nil`. A protocol on `Machine` would
/// not do: the witnesses of a generic class run unspecialised code.
@usableFromInline
struct StepEntry<S: StateType, E: EventType> {
    /// ``Machine/requestStep(member:_:userInfo:reading:)`` of the machine passed.
    @usableFromInline let takeStep:
        (Machine<S, E>, _ member: Int, StepRequest, UserInfoBox?, Machine<S, E>.StepReader) -> NestedOutcome

    @inlinable
    init(
        takeStep: @escaping (Machine<S, E>, Int, StepRequest, UserInfoBox?, Machine<S, E>.StepReader) -> NestedOutcome
    ) {
        self.takeStep = takeStep
    }

    /// The entry of every machine with a statechart.
    // Inlinable: made in the app's build, where it is specialised (see above).
    @inlinable
    static var root: StepEntry {
        StepEntry { machine, member, request, userInfo, reading in
            machine.requestStep(member: member, request, userInfo: userInfo, reading: reading)
        }
    }
}

extension Machine {
    /// Gives the machine its statechart's entry (``StepEntry``) as the app's
    /// build specialises it, unless it has one. Every public declaration
    /// that gives a machine a statechart is inlinable and calls this (or
    /// ``ensureChart()``, which calls it) in the app's build; those whose
    /// work is compiled in the library call it first. Reached only from code
    /// compiled in the library, the entry takes the same steps, unspecialised.
    @inlinable
    func specialiseSteps() {
        if stepEntry == nil {
            stepEntry = .root
        }
    }
}
