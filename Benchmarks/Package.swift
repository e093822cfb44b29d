// swift-tools-version: 6.1
import PackageDescription

import class Foundation.ProcessInfo

// The benchmarks live in their own package so that a user of Switchyard never
// resolves the harness. Switchyard is used by path, exactly as an app uses it:
// a plain `import Switchyard`, across the module boundary, in a release build.
//
// `Scripts/bench.sh` sets SWITCHYARD_BENCH_RUNNER_ONLY to build only its
// runner: the ordo-one suite's build-tool plugin (and the tools it compiles)
// would otherwise double the time of a cold build.
let runnerOnly = ProcessInfo.processInfo.environment["SWITCHYARD_BENCH_RUNNER_ONLY"] != nil

var dependencies: [Package.Dependency] = [
    .package(name: "Switchyard", path: ".."),
    // The allocation counter the ordo-one harness itself uses, for the runner.
    .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.5.0"),
]

var targets: [Target] = [
    // Every case twice: through Switchyard, and as the hand-written baselines
    // (a dictionary machine, and a `switch`) it is compared with.
    .target(
        name: "SwitchyardBenchCases",
        dependencies: [.product(name: "Switchyard", package: "Switchyard")]
    ),
    // The runner behind `Scripts/bench.sh`: times both sides of every case in
    // one process and prints one `BENCH` line per case.
    .executableTarget(
        name: "switchyard-bench",
        dependencies: [
            "SwitchyardBenchCases",
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ]
    ),
]

if !runnerOnly {
    dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"])
    )
    // The ordo-one suite: `swift package benchmark`.
    targets.append(
        .executableTarget(
            name: "SwitchyardBenchmarks",
            dependencies: [
                "SwitchyardBenchCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SwitchyardBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}

let package = Package(
    name: "SwitchyardBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: dependencies,
    targets: targets,
    swiftLanguageModes: [.v6]
)
