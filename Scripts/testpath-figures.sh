#!/usr/bin/env bash
# What the test-path search costs on large machines (issue "tools that tell
# the truth", item 4): `shortestPaths` round rings of 10,000 and 100,000
# states, and `shortestPaths` and `routeCoveringPaths` on a statechart of a
# parallel state with 4 regions, each a complete binary tree of compound
# states 8 levels deep (2,046 states, 2,041 routes). Time and peak memory of
# each run, release build, from a package generated in a scratch directory
# that uses this checkout by path.
#
#   bash Scripts/testpath-figures.sh [--scratch DIR]
#
# The figures are reported, not enforced. The build takes about a minute.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${TMPDIR:-/tmp}/switchyard-testpaths"
while [[ $# -gt 0 ]]; do
    case "$1" in
    --scratch) scratch="$2"; shift 2 ;;
    *) echo "usage: $0 [--scratch DIR]" >&2; exit 2 ;;
    esac
done

package="$scratch/package"
mkdir -p "$package/Sources/testpaths"
cat > "$package/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "testpaths",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "testpaths", dependencies: [.product(name: "Switchyard", package: "$(basename "$root")")])
    ]
)
MANIFEST
cat > "$package/Sources/testpaths/main.swift" <<'SWIFT'
import Foundation
import Switchyard

struct Node: StateType, CustomStringConvertible {
    var id: Int
    var description: String { "n\(id)" }
}
struct Flip: EventType, CustomStringConvertible {
    var region: Int
    var depth: Int
    var description: String { "f\(region)_\(depth)" }
}

// 4 regions of a parallel state, each a complete binary tree of compound
// states, `levels` deep under the region (2^(levels+1) - 1 states a region);
// each child flips to its sibling on the event of its region and depth.
func chart(levels: Int) -> (Machine<Node, Flip>, Int) {
    var next = 0
    func make() -> Node { defer { next += 1 }; return Node(id: next) }
    let idle = make()
    let par = make()
    let machine = Machine<Node, Flip>(state: idle)
    machine.addRoutes(event: Flip(region: -1, depth: 0), transitions: [idle => par])
    var regions: [Node] = []
    var pending: [(Node, Int, Int)] = []
    for region in 0..<4 {
        let root = make()
        regions.append(root)
        pending.append((root, region, 0))
    }
    machine.addRegions(regions, to: par)
    while let (node, region, depth) = pending.popLast() {
        guard depth < levels else { continue }
        let (a, b) = (make(), make())
        machine.addChildren([a, b], to: node)
        let flip = Flip(region: region, depth: depth + 1)
        machine.addRoutes(event: flip, transitions: [a => b, b => a])
        pending.append((a, region, depth + 1))
        pending.append((b, region, depth + 1))
    }
    return (machine, next)
}

func ring(_ n: Int) -> Machine<Node, Flip> {
    Machine(state: Node(id: 0)) { machine in
        machine.addRoutes(
            event: Flip(region: 0, depth: 0), transitions: (0..<n).map { Node(id: $0) => Node(id: ($0 + 1) % n) })
    }
}

let arg = CommandLine.arguments.dropFirst().first ?? "chart"
let clock = ContinuousClock()
switch arg {
case "ring":
    let n = Int(CommandLine.arguments[2])!
    let description = ring(n).describe()
    var count = 0
    let elapsed = clock.measure {
        let paths = description.shortestPaths(maxLength: n)
        count = paths.paths.count
    }
    print("ring \(n): \(count) paths, shortestPaths \(elapsed)")
default:
    let levels = Int(CommandLine.arguments.dropFirst(2).first ?? "8")!
    let (machine, states) = chart(levels: levels)
    let description = machine.describe()
    var summary = ""
    let elapsed = clock.measure {
        let paths = description.shortestPaths()
        summary = "\(paths.paths.count) paths, \(paths.unreachedStates.count) unreached"
    }
    print("chart \(levels) levels x 4 regions, \(states) states, \(description.routes.count) routes: \(summary), shortestPaths \(elapsed)")
    var covering = ""
    let elapsed2 = clock.measure {
        let paths = description.routeCoveringPaths()
        covering = "\(paths.paths.count) paths, \(paths.uncoveredRoutes.count) uncovered"
    }
    print("  routeCoveringPaths: \(covering), \(elapsed2)")
}
SWIFT
swift build -c release --package-path "$package" --scratch-path "$scratch/build" >/dev/null
binary="$scratch/build/release/testpaths"
for run in "ring 10000" "ring 100000" "chart 8"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "  (%e s, peak %M KB)" "$binary" $run
done
