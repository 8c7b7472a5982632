#!/usr/bin/env bash
# lean.sh - lean decisions (what stepping computes) agree with full ones
# on generated clusters: every node's verdict and total at every step.
set -euo pipefail
: "${SKEWER:?}" "${BUILD:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SKEWER" gen --nodes 300 --zones 3 --regions 2 --pods 9000 --steps 150 --constraints 3 --seed 7 -o "$tmp/a.yaml"
"$SKEWER" gen --nodes 60 --zones 4 --pods 1500 --steps 200 --constraints 4 --seed 8 -o "$tmp/b.yaml"
# and hand-made ones: blocks of eight nodes with a removed node, full,
# cordoned and tainted nodes (the vector filter's fallbacks); nodes with
# many matching pods (the score table's per-node sums)
"$BUILD/tests/test_lean" "$tmp/a.yaml" "$tmp/b.yaml" tests/lean/blocks.yaml tests/lean/crowded.yaml
