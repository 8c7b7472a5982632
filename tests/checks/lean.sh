#!/usr/bin/env bash
# lean.sh - lean decisions (what stepping computes) agree with full ones
# on generated clusters: every node's verdict and total at every step.
set -euo pipefail
: "${SKEWER:?}" "${BUILD:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SKEWER" gen --nodes 300 --zones 3 --regions 2 --pods 9000 --steps 150 --constraints 3 --seed 7 -o "$tmp/a.yaml"
"$SKEWER" gen --nodes 60 --zones 4 --pods 1500 --steps 200 --constraints 4 --seed 8 -o "$tmp/b.yaml"
# as make bench generates them (zones only: the vector scoring takes most
# cycles, InterPodAffinity and NodeAffinity scores among them)
"$SKEWER" gen --nodes 300 --zones 3 --pods 6000 --steps 300 --constraints 3 --seed 42 -o "$tmp/c.yaml"
# the vector scoring's corners (tests/lean/span.awk): hostname counts
# past its table among the last nodes and, with CROWD, inside the blocks
# of eight; a weight that makes it fall back to the scalar passes
awk -f tests/lean/span.awk >"$tmp/span.yaml"
awk -v N=324 -v CROWD=1 -f tests/lean/span.awk >"$tmp/wide.yaml"
awk -v W="NodeResourcesFit: 40000" -f tests/lean/span.awk >"$tmp/span-w.yaml"
# and hand-made ones: blocks of eight nodes with a removed node, full,
# cordoned and tainted nodes (the vector filter's fallbacks); nodes with
# many matching pods (the score table's per-node sums)
# and random scenarios of the differential test's generator (every
# feature family), where python3 is there
rand=()
if command -v python3 >/dev/null 2>&1; then
	for seed in $(seq 1 36); do
		python3 tests/diff/gen.py "$seed" "$tmp/r$seed.yaml" >/dev/null
		rand+=("$tmp/r$seed.yaml")
	done
fi
LEAN_EXPECT_VECTOR=1 "$BUILD/tests/test_lean" "$tmp/a.yaml" "$tmp/b.yaml" "$tmp/c.yaml" "$tmp/span.yaml" \
	"$tmp/wide.yaml" "$tmp/span-w.yaml" tests/lean/blocks.yaml tests/lean/crowded.yaml "${rand[@]}"
