#!/usr/bin/env bash
# Renders the diagrams the README shows, from the library's own export: the demo's music
# player statechart, as Graphviz DOT (`swift run switchyard-demo --dot`), drawn by `dot -Tsvg`
# into the DocC catalog's Resources/music-player.svg, which the Tools article and the README
# show.
#
#   bash Scripts/render-diagrams.sh           writes that SVG
#   bash Scripts/render-diagrams.sh --check   fails if the committed SVG is not what the
#                                             demo and this Graphviz draw now
#
# Graphviz writes its version and the file's name in comments; they are left out, so that the
# same Graphviz version gives the same file wherever it runs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

svg=Sources/Switchyard/Switchyard.docc/Resources/music-player.svg

# The SVG of the music player, without Graphviz's comments, on standard output. The demo is
# built with CI's flags, so that CI reuses its build instead of compiling again.
render() {
    if ! command -v dot >/dev/null; then
        echo "Graphviz's dot is missing: apt-get install -y graphviz" >&2
        return 1
    fi
    swift run --quiet -Xswiftc -warnings-as-errors switchyard-demo --dot | dot -Tsvg | perl -0pe 's/<!--.*?-->\n?//gs'
}

if [[ "${1:-}" == "--check" ]]; then
    fresh="$(mktemp)"
    trap 'rm -f "$fresh"' EXIT
    render >"$fresh"
    if ! diff -u "$svg" "$fresh"; then
        echo "$svg is out of date: the music player's statechart or Graphviz changed."
        echo "Run 'bash Scripts/render-diagrams.sh' and commit $svg."
        exit 1
    fi
    echo "$svg is current"
else
    mkdir -p "$(dirname "$svg")"
    render >"$svg"
    echo "wrote $svg"
fi
