// The ordo-one suite: `swift package benchmark` (from `Benchmarks/`).
//
// Every case is registered twice, `<case>` through Switchyard and
// `<case> (baseline)` on the hand-written dictionary machine, so one run shows
// both. The cases themselves live in SwitchyardBenchCases, shared with the
// runner behind `Scripts/bench.sh`.

import Benchmark
import SwitchyardBenchCases

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions, .retainCount, .releaseCount],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 10_000
    )
    for benchCase in BenchCase.all {
        let isWholeMachine = ["build", "export", "validate"].contains { benchCase.name.hasPrefix($0) }
        var configuration = Benchmark.defaultConfiguration
        if isWholeMachine {
            // One operation is a whole machine: no inner loop.
            configuration.scalingFactor = .one
            configuration.timeUnits = .microseconds
            configuration.warmupIterations = 1
            configuration.maxIterations = 50
        }
        for (suffix, side) in [("", benchCase.switchyard), (" (baseline)", benchCase.dictionary)] {
            Benchmark(benchCase.name + suffix, configuration: configuration) { benchmark, workload in
                benchmark.startMeasurement()
                blackHole(workload(benchmark.scaledIterations.count))
                benchmark.stopMeasurement()
            } setup: {
                side()
            }
        }
    }
}
