// swift-tools-version: 6.2
import PackageDescription

// The manifest Swift 6.2 and later read: Package.swift's library and demo, and
// the tests, which need 6.2. Keep the two manifests' library targets the same.

let package = Package(
    name: "Switchyard",
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .executable(name: "switchyard-demo", targets: ["switchyard-demo"]),
    ],
    targets: [
        .target(name: "Switchyard"),
        .executableTarget(name: "switchyard-demo", dependencies: ["Switchyard"]),
        // The diagrams' golden files are read from the source tree, not bundled.
        .testTarget(name: "SwitchyardTests", dependencies: ["Switchyard"], exclude: ["Tools/Golden"]),
        // Compiles SwiftState-style app code the way a new app target builds it:
        // main-actor isolated by default, capturing its own mutable state.
        .testTarget(
            name: "SwitchyardMainActorTests",
            dependencies: ["Switchyard"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        // A package in the Swift 5 language mode that imports Switchyard gets
        // what the documentation says (trailing closures, above all).
        .testTarget(
            name: "SwitchyardSwift5Tests",
            dependencies: ["Switchyard"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
