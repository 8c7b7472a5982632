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
# 324 nodes (not a multiple of eight) in three zones, node i holding i % 23
# matching pods when i < 60: the vector scoring with hostname counts of 16
# and more, which its table leaves to the per-node sum
awk 'BEGIN {
	print "name: lean-crowded-wide"
	print "nodes:"
	for (i = 0; i < 324; i++)
		printf "  - {name: n%d, labels: {zone: z%d, kubernetes.io/hostname: n%d}, allocatable: {cpu: 64, memory: 64Gi, pods: 200}}\n", i, i % 3, i
	print "pods:"
	for (i = 0; i < 60; i++)
		for (k = 0; k < i % 23; k++)
			printf "  - {name: p%d-%d, nodeName: n%d, labels: {app: web}}\n", i, k, i
	print "steps:"
	print "  - schedule:"
	print "      name: web"
	print "      labels: {app: web}"
	print "      topologySpreadConstraints:"
	print "        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "    replicas: 40"
}' >"$tmp/wide.yaml"
# the vector scoring's corners (tests/lean/span.awk), and a weight that
# makes it fall back to the scalar passes
awk -f tests/lean/span.awk >"$tmp/span.yaml"
awk -v W="NodeResourcesFit: 40000" -f tests/lean/span.awk >"$tmp/span-w.yaml"
# and hand-made ones: blocks of eight nodes with a removed node, full,
# cordoned and tainted nodes (the vector filter's fallbacks); nodes with
# many matching pods (the score table's per-node sums)
LEAN_EXPECT_VECTOR=1 "$BUILD/tests/test_lean" "$tmp/a.yaml" "$tmp/b.yaml" "$tmp/c.yaml" "$tmp/wide.yaml" "$tmp/span.yaml" \
	"$tmp/span-w.yaml" tests/lean/blocks.yaml \
	tests/lean/crowded.yaml
