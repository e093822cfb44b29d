// The runner behind `Scripts/bench.sh`.
//
// For every case it measures Switchyard and the hand-written baselines in
// this one process: each side is timed over a loop of many operations, the
// sides take turns sample after sample (so drift and noise hit them alike),
// and the median sample is reported. Allocations are counted with the same
// malloc interposer the ordo-one harness uses, over a separate run of the
// loop. Only `BENCH` lines go to stdout; details go to stderr.

import MallocInterposerSwift
import SwitchyardBenchCases

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

struct Options {
    /// Samples per side of a case (each side's median is reported).
    var samples = 41
    /// How long one sample should last, in nanoseconds.
    var sampleNanoseconds = 2_000_000.0
    /// Upper bound on the time spent sampling one case, in nanoseconds.
    var caseBudgetNanoseconds = 6_000_000_000.0
    /// Only cases whose name contains one of these (`--filter 'dsl-|mapping'`).
    var filter: [Substring]?
    /// Which clock times the samples.
    var clock = SampleClock.thread
    /// `--profile <case> <side> <iterations>`: run one side of one case, untimed,
    /// for a profiler (callgrind, perf).
    var profile: (name: String, side: String, iterations: Int)?

    init(arguments: [String]) {
        var remaining = arguments.dropFirst()
        while let argument = remaining.popFirst() {
            switch argument {
            case "--samples": samples = max(3, Int(remaining.popFirst() ?? "") ?? samples)
            case "--sample-ms": sampleNanoseconds = (Double(remaining.popFirst() ?? "") ?? 2) * 1e6
            case "--filter": filter = remaining.popFirst()?.split(separator: "|")
            case "--clock":
                guard let value = remaining.popFirst().flatMap(SampleClock.init(rawValue:)) else {
                    fail("--clock takes thread or wall")
                }
                clock = value
            case "--profile":
                guard let name = remaining.popFirst(), let side = remaining.popFirst(),
                    let iterations = remaining.popFirst().flatMap({ Int($0) })
                else { fail("--profile takes <case> <switchyard|dictionary|switch> <iterations>") }
                profile = (name, side, iterations)
            default:
                fail(
                    "unknown argument \(argument); use --samples N, --sample-ms MS, --filter TEXT, --clock thread|wall")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    printError("switchyard-bench: \(message)")
    exit(1)
}

func printError(_ message: String, terminator: String = "\n") {
    var standardError = StandardError()
    print(message, terminator: terminator, to: &standardError)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        writeToStandardError(string)
    }
}

func writeToStandardError(_ string: String) {
    let bytes = Array(string.utf8)
    _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}

/// What a sample's time is.
enum SampleClock: String {
    /// CPU time of this thread (`CLOCK_THREAD_CPUTIME_ID`): on a shared,
    /// oversubscribed machine, time spent descheduled is not counted against
    /// whichever side happened to be running.
    case thread
    /// Wall-clock time (`ContinuousClock`).
    case wall
}

/// Elapsed nanoseconds of `workload(iterations)` on `clock`, and its checksum.
func time(_ workload: Workload, _ iterations: Int, on clock: SampleClock) -> (nanoseconds: Double, checksum: Int) {
    switch clock {
    case .wall:
        let clock = ContinuousClock()
        let start = clock.now
        let checksum = workload(iterations)
        let elapsed = start.duration(to: clock.now).components
        return (Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9, checksum)
    case .thread:
        let start = threadCPUNanoseconds()
        let checksum = workload(iterations)
        return (threadCPUNanoseconds() - start, checksum)
    }
}

func threadCPUNanoseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// How many operations make one sample last about `target` nanoseconds.
/// Warms the workload up on the way. Each length is timed three times and
/// the fastest kept, so that one interruption (or, on the wall clock, one
/// late wake-up of another thread) does not leave a case with samples of a
/// single operation.
func calibrate(_ workload: Workload, target: Double, clock: SampleClock, sink: inout Int) -> (
    iterations: Int, nanosecondsPerOperation: Double
) {
    var iterations = 1
    while true {
        var elapsed = Double.infinity
        for _ in 0..<3 {
            let (nanoseconds, checksum) = time(workload, iterations, on: clock)
            sink &+= checksum
            elapsed = min(elapsed, nanoseconds)
        }
        if elapsed >= target / 4 || iterations >= 1 << 30 {
            let perOperation = elapsed / Double(iterations)
            return (max(1, Int(target / max(perOperation, 0.01))), perOperation)
        }
        iterations = elapsed < target / 1000 ? iterations * 16 : iterations * 2
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A plain decimal with at most `places` decimals, without trailing zeros.
func decimal(_ value: Double, places: Int) -> String {
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((value * Double(scale)).rounded())
    let whole = String(scaled / scale)
    var fraction = String(scaled % scale)
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? whole : "\(whole).\(fraction)"
}

/// Mallocs per operation of `workload`, counted by the interposer.
func mallocsPerOperation(_ workload: Workload, _ iterations: Int, sink: inout Int) -> Double {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    sink &+= workload(iterations)
    MallocInterposerSwift.unhook()
    return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(iterations)
}

/// Fails unless the interposer really sees this process's allocations (it
/// must be linked first or preloaded), so that a zero is a measured zero.
func checkMallocCounting() {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    var probe: [Int] = []
    probe.reserveCapacity(CommandLine.arguments.count + 64)
    MallocInterposerSwift.unhook()
    let counted = MallocInterposerSwift.getStatistics().mallocCount
    guard counted >= 1, probe.capacity >= 64 else {
        fail(
            "the malloc interposer counted \(counted) allocations for a probe that allocates; "
                + "run with LD_PRELOAD=<.build>/release/libMallocInterposerSwift.so")
    }
}

// MARK: - Run

let options = Options(arguments: CommandLine.arguments)
checkMallocCounting()
var sink = 0

if let profile = options.profile {
    guard let benchCase = BenchCase.all.first(where: { $0.name == profile.name }) else {
        fail("no case named \(profile.name)")
    }
    let factory: (@Sendable () -> Workload)? =
        switch profile.side {
        case "switchyard": benchCase.switchyard
        case "dictionary": benchCase.dictionary
        case "switch": benchCase.handSwitch
        default: nil
        }
    guard let factory else { fail("\(profile.name) has no side \(profile.side)") }
    let workload = factory()
    printError("(checksum \(workload(profile.iterations)))")
    exit(0)
}

/// One case being measured: its sides, their loop lengths, their samples.
struct Measurement {
    let benchCase: BenchCase
    /// The clock that times this case's samples.
    let clock: SampleClock
    var sides: [(label: String, workload: Workload)]
    var calibration: [(iterations: Int, nanosecondsPerOperation: Double)] = []
    var sampleCount = 0
    var samples: [[Double]] = []
}

var measurements: [Measurement] = []
for benchCase in BenchCase.all
where options.filter.map({ $0.contains { benchCase.name.contains($0) } }) ?? true {
    var sides: [(label: String, workload: Workload)] = [
        ("switchyard", benchCase.switchyard()), ("dictionary", benchCase.dictionary()),
    ]
    if let handSwitch = benchCase.handSwitch {
        sides.append(("switch", handSwitch()))
    }

    // Both sides must do the same work: fresh machines, same checksum. Cases
    // whose one operation handles a whole machine are checked twice, not 1,000 times.
    let isWholeMachine = ["build", "export", "validate"].contains { benchCase.name.hasPrefix($0) }
    let checkIterations = isWholeMachine ? 2 : 1000
    let checksums = [benchCase.switchyard(), benchCase.dictionary()].map { $0(checkIterations) }
    guard checksums[0] == checksums[1] else {
        fail("\(benchCase.name): Switchyard and the baseline disagree (checksums \(checksums))")
    }

    let clock = benchCase.isTimedByWallClock ? .wall : options.clock
    var measurement = Measurement(benchCase: benchCase, clock: clock, sides: sides)
    measurement.calibration = sides.map {
        calibrate($0.workload, target: options.sampleNanoseconds, clock: clock, sink: &sink)
    }
    let sampleCost = measurement.calibration.reduce(0.0) { total, side in
        total + Double(side.iterations) * side.nanosecondsPerOperation
    }
    measurement.sampleCount = max(5, min(options.samples, Int(options.caseBudgetNanoseconds / max(sampleCost, 1))))
    measurement.samples = Array(repeating: [], count: sides.count)
    measurements.append(measurement)
}

// Every round takes one sample of every side of every case, so that the sides
// of a case, and the cases compared with each other (`event-ring-10k` with
// `event-small`, `build-100k` with `build-10k`), meet the same machine load.
for round in 0..<(measurements.map(\.sampleCount).max() ?? 0) {
    for index in measurements.indices where round < measurements[index].sampleCount {
        let sides = measurements[index].sides
        // Take turns, starting with a different side each round.
        for offset in sides.indices {
            let side = (round + offset) % sides.count
            let iterations = measurements[index].calibration[side].iterations
            let (elapsed, checksum) = time(sides[side].workload, iterations, on: measurements[index].clock)
            sink &+= checksum
            measurements[index].samples[side].append(elapsed / Double(iterations))
        }
    }
}

var results: [String: (switchyard: Double, dictionary: Double)] = [:]
for measurement in measurements {
    let (benchCase, sides, calibration) = (measurement.benchCase, measurement.sides, measurement.calibration)
    let medians = measurement.samples.map(median)
    let mallocs = mallocsPerOperation(sides[0].workload, calibration[0].iterations, sink: &sink)
    let baselineMallocs = mallocsPerOperation(sides[1].workload, calibration[1].iterations, sink: &sink)
    results[benchCase.name] = (medians[0], medians[1])

    print(
        "BENCH case=\(benchCase.name) ns_per_op=\(decimal(medians[0], places: 2)) "
            + "baseline_ns_per_op=\(decimal(medians[1], places: 2)) ratio=\(decimal(medians[0] / medians[1], places: 3)) "
            + "mallocs_per_op=\(decimal(mallocs, places: 2))"
    )
    var detail = "  \(benchCase.name): \(benchCase.summary) [\(measurement.clock.rawValue) clock]\n"
    for (index, side) in sides.enumerated() {
        let sorted = measurement.samples[index].sorted()
        detail +=
            "    \(side.label): median \(decimal(medians[index], places: 2)) ns/op "
            + "(min \(decimal(sorted.first!, places: 2)), max \(decimal(sorted.last!, places: 2)); "
            + "\(measurement.sampleCount) samples x \(calibration[index].iterations) ops)"
        detail += index == 1 ? ", mallocs/op \(decimal(baselineMallocs, places: 2))\n" : "\n"
    }
    if sides.count > 2 {
        detail += "    switchyard / switch: \(decimal(medians[0] / medians[2], places: 3))\n"
    }
    printError(detail, terminator: "")
}

if let ring = results["event-ring-10k"], let small = results["event-small"] {
    printError(
        "CHECK event-ring-10k / event-small (Switchyard ns/op) = \(decimal(ring.switchyard / small.switchyard, places: 3))"
    )
}
if let ring = results["event-ring-10k"], let ring10 = results["event-ring-10"] {
    printError(
        "CHECK event-ring-10k / event-ring-10 (Switchyard ns/op) = \(decimal(ring.switchyard / ring10.switchyard, places: 3))"
    )
}
if let big = results["build-100k"], let small = results["build-10k"] {
    printError(
        "CHECK build-100k / build-10k (Switchyard ns/op) = \(decimal(big.switchyard / small.switchyard, places: 3))")
}
if let big = results["export-dot-100k"], let small = results["export-dot-10k"] {
    printError(
        "CHECK export-dot-100k / export-dot-10k (Switchyard ns/op) = \(decimal(big.switchyard / small.switchyard, places: 3))"
    )
}
if let big = results["validate-100k"], let small = results["validate-10k"] {
    printError(
        "CHECK validate-100k / validate-10k (Switchyard ns/op) = \(decimal(big.switchyard / small.switchyard, places: 3))"
    )
}
printError("(checksum \(sink))")
