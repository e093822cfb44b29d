#!/usr/bin/env bash
# Builds the benchmark runner in release and runs every case, printing one line
# per case on stdout:
#
#   BENCH case=<name> ns_per_op=<n> baseline_ns_per_op=<n> ratio=<n> mallocs_per_op=<n>
#
# `ratio` is Switchyard's time over the hand-written dictionary baseline's,
# both measured in this one run (medians of interleaved samples). Build output
# and per-case details go to stderr. Extra arguments go to the runner
# (`--filter <text>`, `--samples <n>`, `--sample-ms <ms>`).
#
# The full ordo-one suite is `swift package benchmark`, from Benchmarks/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/Benchmarks"
start=$SECONDS

# Only the runner: its own scratch directory, so that this manifest (without
# the ordo-one suite) and the full one never invalidate each other's builds.
export SWITCHYARD_BENCH_RUNNER_ONLY=1
# SwiftPM keeps the root package's file list in its build description and does not
# notice a source file added to Switchyard (the build then fails with "cannot find
# type"); dropping the description makes it plan again, which costs a second or two.
rm -f .build/runner/release.yaml .build/runner/build.db .build/runner/release/description.json
build=(swift build -c release --scratch-path .build/runner --product switchyard-bench)
"${build[@]}" >&2
bin="$("${build[@]}" --show-bin-path)"
echo "bench.sh: built in $((SECONDS - start))s" >&2

# The runner counts mallocs with the interposer; preload it so it sees every
# allocation (the runner checks that it does, and fails otherwise).
case "$(uname -s)" in
Darwin) export DYLD_INSERT_LIBRARIES="$bin/libMallocInterposerSwift.dylib" ;;
*) export LD_PRELOAD="$bin/libMallocInterposerSwift.so" ;;
esac
"$bin/switchyard-bench" "$@"
echo "bench.sh: done in $((SECONDS - start))s" >&2
