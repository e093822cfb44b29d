#!/usr/bin/env bash
# What a client pays for Switchyard (SPEC §4, issue "one rule, once (II)"):
# the release compile time of an app file after an edit, and the stripped size
# of the app, for 1 and for 17 SwiftState-style machine types (5 routes and 3
# handlers each), against the same app written by hand with the benchmarks'
# dictionary machine. Both are built side by side in one run, from a package
# generated in a scratch directory that uses this checkout by path, as an app
# would.
#
#   bash Scripts/footprint.sh [--machines N] [--scratch DIR]
#
# Prints one `FOOTPRINT` line per app and a summary; the figures are reported,
# not enforced, but the script fails if the library's apps and the hand-written
# ones print different results. Release builds take minutes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
machines=17
scratch="${TMPDIR:-/tmp}/switchyard-footprint"
while [[ $# -gt 0 ]]; do
    case "$1" in
    --machines) machines="$2"; shift 2 ;;
    --scratch) scratch="$2"; shift 2 ;;
    *) echo "usage: $0 [--machines N] [--scratch DIR]" >&2; exit 2 ;;
    esac
done

package="$scratch/package"
rm -rf "$package/Sources"
mkdir -p "$package/Sources"

cat >"$package/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SwitchyardFootprint",
    dependencies: [.package(name: "Switchyard", path: "$root")],
    targets: [
        .executableTarget(name: "LibraryOne", dependencies: [.product(name: "Switchyard", package: "Switchyard")]),
        .executableTarget(name: "LibraryMany", dependencies: [.product(name: "Switchyard", package: "Switchyard")]),
        .executableTarget(name: "HandOne"),
        .executableTarget(name: "HandMany"),
    ]
)
EOF

# One machine type, written with the library: five routes, three handlers,
# driven round its cycle so that nothing is optimised away.
library_machine() {
    local i=$1
    cat <<EOF
enum State$i: StateType { case idle, loading, ready, failed, closed }
enum Event$i: EventType { case load, loaded, fail, retry, close }

func runMachine$i(_ log: inout Int) {
    let machine = StateMachine<State$i, Event$i>(state: .idle) { machine in
        machine.addRoutes(event: .load, transitions: [.idle => .loading])
        machine.addRoutes(event: .loaded, transitions: [.loading => .ready])
        machine.addRoutes(event: .fail, transitions: [.loading => .failed])
        machine.addRoutes(event: .retry, transitions: [.failed => .loading])
        machine.addRoutes(event: .close, transitions: [.any => .closed])
    }
    var count = 0
    machine.addHandler(event: .load) { _ in count += 1 }
    machine.addAnyHandler(.any => .ready) { context in count += context.fromState == .loading ? 2 : 3 }
    machine.addErrorHandler { _ in count += 5 }
    for event: Event$i in [.load, .fail, .retry, .loaded, .retry, .close] {
        machine <-! event
    }
    log &+= count &+ (machine.state == .closed ? 1 : 0)
}

EOF
}

# The same machine type by hand: a dictionary keyed by (state, event).
hand_machine() {
    local i=$1
    cat <<EOF
enum State$i: Hashable { case idle, loading, ready, failed, closed }
enum Event$i: Hashable { case load, loaded, fail, retry, close }

func runMachine$i(_ log: inout Int) {
    var routes: [RouteKey<State$i, Event$i>: State$i] = [
        RouteKey(state: .idle, event: .load): .loading,
        RouteKey(state: .loading, event: .loaded): .ready,
        RouteKey(state: .loading, event: .fail): .failed,
        RouteKey(state: .failed, event: .retry): .loading,
    ]
    for state: State$i in [.idle, .loading, .ready, .failed, .closed] {
        routes[RouteKey(state: state, event: .close)] = .closed
    }
    let machine = DictionaryMachine(state: State$i.idle, routes: routes)
    var count = 0
    machine.handlers.append { change in if change.event == .load { count += 1 } }
    machine.handlers.append { change in if change.to == .ready { count += change.from == .loading ? 2 : 3 } }
    machine.errorHandlers.append { _ in count += 5 }
    for event: Event$i in [.load, .fail, .retry, .loaded, .retry, .close] {
        _ = machine.fire(event)
    }
    log &+= count &+ (machine.state == .closed ? 1 : 0)
}

EOF
}

# COUNT machine types of either flavour, numbered from 1.
library_machines() { for ((i = 1; i <= $1; i++)); do library_machine "$i"; done; }
hand_machines() { for ((i = 1; i <= $1; i++)); do hand_machine "$i"; done; }

# The hand-written machines are the benchmarks' baselines, copied as they are.
hand_support() {
    cat "$root/Benchmarks/Sources/SwitchyardBenchCases/Baselines.swift"
    echo
}

# write TARGET FLAVOUR COUNT: the app's one file of machines, and its main.
write() {
    local target=$1 flavour=$2 count=$3
    mkdir -p "$package/Sources/$target"
    {
        if [[ $flavour == library ]]; then
            printf 'import Switchyard\n\ntypealias StateMachine = Machine\n\n'
            library_machines "$count"
        else
            hand_support
            hand_machines "$count"
        fi
    } >"$package/Sources/$target/Machines.swift"
    {
        echo "var log = 0"
        for ((i = 1; i <= count; i++)); do echo "runMachine$i(&log)"; done
        echo 'print("\(log)")'
    } >"$package/Sources/$target/main.swift"
}

write LibraryOne library 1
write LibraryMany library "$machines"
write HandOne hand 1
write HandMany hand "$machines"

cd "$package"
build=(swift build -c release --scratch-path "$scratch/build")
echo "footprint.sh: building the library and the four apps (release)..." >&2
"${build[@]}" >&2
bin="$("${build[@]}" --show-bin-path)"

declare -A seconds bytes outputs
for app in LibraryOne LibraryMany HandOne HandMany; do
    # An edit to the app's file of machines: only that module is compiled again.
    echo "// edited $(date +%s%N)" >>"Sources/$app/Machines.swift"
    start=$(date +%s%N)
    "${build[@]}" --product "$app" >/dev/null
    end=$(date +%s%N)
    seconds[$app]=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
    strip -o "$scratch/$app.stripped" "$bin/$app"
    bytes[$app]=$(stat -c %s "$scratch/$app.stripped")
    output=$("$bin/$app")
    outputs[$app]=$output
    echo "FOOTPRINT app=$app rebuild_s=${seconds[$app]} stripped_bytes=${bytes[$app]} output=$output"
done

# The two apps of one size must do the same: the comparison is void otherwise.
if [[ ${outputs[LibraryOne]} != "${outputs[HandOne]}" || ${outputs[LibraryMany]} != "${outputs[HandMany]}" ]]; then
    echo "footprint.sh: the apps written with the library and by hand disagree" >&2
    exit 1
fi

per_machine() { echo $(((bytes[$1] - bytes[$2]) / (machines - 1))); }
echo
echo "Switchyard: ${seconds[LibraryMany]} s to rebuild $machines machine types, ${bytes[LibraryOne]} bytes with one," \
    "$(per_machine LibraryMany LibraryOne) bytes per further machine type"
echo "By hand:    ${seconds[HandMany]} s to rebuild $machines machine types, ${bytes[HandOne]} bytes with one," \
    "$(per_machine HandMany HandOne) bytes per further machine type"
