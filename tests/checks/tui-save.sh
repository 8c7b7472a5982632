#!/usr/bin/env bash
# tui-save.sh - `w` writes the scenario so that it explains exactly as the
# input did (every bundled scenario round-trips, its expect: blocks still
# hold); an edit is written too, the expectations after it left out
# with what the edit changed there;
# an existing file is not replaced without a yes; a symbolic link's file is
# replaced, not the link, and a device is written in place; a failed write
# keeps the session and says why.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TERM=xterm NO_COLOR=1 LANG=C.UTF-8 LC_ALL=C.UTF-8 SKEWER_DATADIR=/nonexistent
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
write() { # FILE OUT [KEYS-BEFORE]
	"$SKEWER" tui --size 100x30 --keys "${3:-}w<C-u>$2<Enter>" --dump-screen "$tmp/screen" "$1"
}
# the bundled scenarios, and the autoscaler and controller tests (node
# capacity, scaleUp overrides and dryRun, nodePools, workloads)
for f in scenarios/*.yaml tests/autoscale/*.yaml tests/controllers/*.yaml; do
	out="$tmp/$(basename "$f")"
	write "$f" "$out"
	[ -f "$out" ] || fail "$f: nothing written: $(tail -1 "$tmp/screen")"
	# replicas are written one step each: only the "(copy i/n)" note differs
	"$SKEWER" explain "$f" 2>&1 | sed 's/ (copy [0-9]*\/[0-9]*)$//' >"$tmp/a" || true
	"$SKEWER" explain "$out" >"$tmp/b" 2>&1 || true
	cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -20; fail "$f does not round-trip"; }
	# the expect: blocks are written (but those of replicas) and still hold
	n=$(grep -c "^    expect:" "$out" || true)
	[ "$n" -ge "$(($(grep -c "^    expect:" "$f" || true) - $(grep -c "^    replicas:" "$f" || true)))" ] ||
		fail "$f: $n expect: blocks written"
	"$SKEWER" check "$out" >"$tmp/c" 2>&1 || { cat "$tmp/c"; fail "$f: written expect: blocks fail"; }
done
# after an edit (cordon node4 before step 1) the later steps' expect:
# blocks are left out, saying why; the notes stay
write scenarios/docs-one-constraint.yaml "$tmp/cordon.yaml" "g/node4<Enter>c"
[ "$(grep -c "# expect: left out: step 1, an edit, came first" "$tmp/cordon.yaml")" = 2 ] ||
	fail "expect: blocks after an edit not left out"
grep -q "resource score picks it" "$tmp/cordon.yaml" || fail "the author's note was dropped"
# ...and say what the edit did to each: mypod went to node4 when opened,
# now node3; mypod2 still goes to node1
grep -q "# expect: left out: step 1, an edit, came first; it was written for node4, now node3$" \
	"$tmp/cordon.yaml" || fail "the comment does not say mypod moved from node4 to node3"
grep -q "came first; still node1, other figures may differ$" "$tmp/cordon.yaml" ||
	fail "the comment does not say mypod2 still goes to node1"
"$SKEWER" check "$tmp/cordon.yaml" >/dev/null || fail "the edited file fails check"
# quantities are written as people write them: the 16Gi nodes of the docs
# example (16 x 2^30 bytes, the default allocatable) and whole cores
write scenarios/docs-one-constraint.yaml "$tmp/qty.yaml"
grep -q 'allocatable: {cpu: "4", memory: "16Gi", pods: "110"}' "$tmp/qty.yaml" ||
	fail "quantities not written as 4 cores and 16Gi: $(grep -m1 allocatable "$tmp/qty.yaml")"
# an edit (maxSkew 2 on step 2) is in the written file
write scenarios/tour.yaml "$tmp/edited.yaml" "n+"
grep -q "maxSkew: 2" "$tmp/edited.yaml" || fail "the edit was not written"
"$SKEWER" explain --step 2 "$tmp/edited.yaml" | grep -q "maxSkew 2" || fail "the edited file does not load"
# a version what-if (> at step 1) is written as a version step before it,
# and the written file decides api-1 under 1.32 as the view did
write scenarios/version-sidecar-scoring-v1.31.yaml "$tmp/version.yaml" "n>"
grep -q '^  - version: "1.32"$' "$tmp/version.yaml" || fail "the version what-if was not written"
"$SKEWER" explain "$tmp/version.yaml" | grep -q "scheduled on n2" || fail "the written version step does not hold"
# a pod with local storage (the descheduler's) and a claim: one volumes
# list with both, the emptyDir named apart from the claim called local
cat >"$tmp/vols.yaml" <<'EOF'
nodes: [{name: n1, allocatable: {cpu: 4, memory: 8Gi, pods: 10}}]
persistentVolumeClaims: [{name: data, storageClassName: std, volumeName: pv1, phase: Bound}]
persistentVolumes: [{name: pv1, storageClassName: std, capacity: 1Gi, claimRef: default/data}]
pods:
  - {name: a, nodeName: n1, volumes: [{name: tmp, emptyDir: {}}, {name: local, persistentVolumeClaim: {claimName: data}}]}
EOF
write "$tmp/vols.yaml" "$tmp/vols-out.yaml"
[ "$(grep -c "volumes:" "$tmp/vols-out.yaml")" = 1 ] || fail "volumes written twice: $(grep -n volumes: "$tmp/vols-out.yaml")"
grep -q -- '- {name: local-1, emptyDir: {}}' "$tmp/vols-out.yaml" || fail "local storage not written apart from the claim"
"$SKEWER" explain "$tmp/vols-out.yaml" >/dev/null || fail "the written volumes do not load"
# an existing file: no replaces it not, yes does
echo keep >"$tmp/exists.yaml"
"$SKEWER" tui --size 100x30 --keys "w<C-u>$tmp/exists.yaml<Enter>n" --dump-screen "$tmp/screen" scenarios/tour.yaml
[ "$(cat "$tmp/exists.yaml")" = keep ] || fail "replaced a file without asking"
grep -q "not written" "$tmp/screen" || fail "no 'not written' message"
"$SKEWER" tui --size 100x30 --keys "w<C-u>$tmp/exists.yaml<Enter>y" --dump-screen "$tmp/screen" scenarios/tour.yaml
grep -q "^name:" "$tmp/exists.yaml" || fail "yes did not replace the file"
# a symbolic link: the file it points to is replaced, the link kept
mkdir "$tmp/links"
echo keep >"$tmp/target.yaml"
ln -s ../target.yaml "$tmp/links/link.yaml"
"$SKEWER" tui --size 100x30 --keys "w<C-u>$tmp/links/link.yaml<Enter>y" --dump-screen "$tmp/screen" scenarios/tour.yaml
[ -L "$tmp/links/link.yaml" ] || fail "saving through a symbolic link replaced the link"
grep -q "^name:" "$tmp/target.yaml" || fail "saving through a symbolic link did not write the file it points to"
ls "$tmp"/links/*.tmp* "$tmp"/*.tmp* >/dev/null 2>&1 && fail "a temporary file was left behind"
# a device is written in place, never replaced by a file
"$SKEWER" tui --size 100x30 --keys "w<C-u>/dev/null<Enter>y" --dump-screen "$tmp/screen" scenarios/tour.yaml
[ -c /dev/null ] || fail "saving to /dev/null replaced the device"
grep -q "wrote /dev/null" "$tmp/screen" || { cat "$tmp/screen"; fail "saving to /dev/null failed"; }
# a directory that does not exist: the error shows and the session goes on
"$SKEWER" tui --size 100x30 --keys "w<C-u>$tmp/no/such/dir/x.yaml<Enter>" --dump-screen "$tmp/screen" scenarios/tour.yaml
grep -q "cannot write $tmp/no/such/dir/x.yaml: No such file or directory" "$tmp/screen" ||
	{ cat "$tmp/screen"; fail "no error message for a failed write"; }
ls "$tmp"/*.tmp* >/dev/null 2>&1 && fail "a temporary file was left behind"
echo ok
