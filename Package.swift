// swift-tools-version: 6.0
import PackageDescription

// The manifest for Swift 6.0 and 6.1: the library and its demo. The tests need
// Swift 6.2 (exit tests, and a target with main-actor default isolation), so
// they are declared in Package@swift-6.2.swift, which Swift 6.2 and later read
// instead of this file.
let package = Package(
    name: "Switchyard",
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .executable(name: "switchyard-demo", targets: ["switchyard-demo"]),
    ],
    targets: [
        .target(name: "Switchyard"),
        .executableTarget(name: "switchyard-demo", dependencies: ["Switchyard"]),
    ],
    swiftLanguageModes: [.v6]
)
