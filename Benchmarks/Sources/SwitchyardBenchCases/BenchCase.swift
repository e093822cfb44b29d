/// One measured operation, run `iterations` times in a row.
///
/// Returns a checksum of what the operations did, so that no optimiser can
/// drop the work and so that both sides of a case can be checked to agree.
public typealias Workload = (_ iterations: Int) -> Int

/// A benchmark case: the same job done through Switchyard and by hand.
///
/// Each side is a factory: it builds its machine (not measured) and returns the
/// workload to measure. Switchyard is called across the module boundary, the
/// way an app calls it; the baselines live in this module, the way an app's own
/// hand-written machine would.
public struct BenchCase: Sendable {
    /// The name printed on the `BENCH` line.
    public let name: String
    /// What one operation is.
    public let summary: String
    /// One operation through Switchyard.
    public let switchyard: @Sendable () -> Workload
    /// The same operation on a hand-written `[Key: nextState]` dictionary
    /// machine with handlers in a plain array of closures.
    public let dictionary: @Sendable () -> Workload
    /// The same operation as a hand-written `switch`, where that means
    /// something (informational only).
    public let handSwitch: (@Sendable () -> Workload)?
    /// Whether the case's work runs on several threads, so that its samples
    /// are timed by the wall clock whatever clock times the others.
    public var isTimedByWallClock = false
}

extension BenchCase {
    /// Every case, in the order they are reported.
    public static let all: [BenchCase] = [
        eventSmall, stateSmall, eventRing(states: 10), eventRing(states: 10_000), anyRoutes, mapping,
        handlers100, handlers100SameSlot, build(routes: 10_000), build(routes: 100_000),
        buildByCalls(routes: 10_000), buildByCalls(routes: 100_000), dispose10k, failed, nested3, parallel2,
        nestedMachines, nestedMachinesOneChart, dslEventSmall, dslMapping, dslEffectsEventSmall, dslEffectsMapping,
        dslPure, dslPureNested, chainRunToCompletion, chainChart, eventless3, doneParallel, sendableEventSmall,
        streamEvent, contended8, actorEventSmall, exportDOT(routes: 10_000), exportDOT(routes: 100_000),
        validate(routes: 10_000), validate(routes: 100_000),
    ]
}
