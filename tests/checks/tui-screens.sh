#!/usr/bin/env bash
# tui-screens.sh - the interactive view, headless: each case types its keys
# into `skewer tui --size WxH --keys ... --dump-screen` and compares the
# final screen with tests/screens/NAME.txt. Locale, terminal, colour and
# the scenario directory are pinned. UPDATE=1 rewrites the goldens (read
# every one you bless).
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TERM=xterm NO_COLOR=1 SKEWER_DATADIR=/nonexistent
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# case NAME LOCALE SIZE KEYS [FILE...]
case_() {
	local name=$1 loc=$2 size=$3 keys=$4
	shift 4
	local out="$tmp/$name.txt" golden="tests/screens/$name.txt"
	LANG=$loc LC_ALL=$loc "$SKEWER" tui --size "$size" --keys "$keys" --dump-screen "$out" "$@"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$out" "$golden"
	elif ! cmp -s "$out" "$golden"; then
		echo "FAIL: screen $name differs from $golden:"
		diff -u "$golden" "$out" | head -40 || true
		fails=$((fails + 1))
	fi
}

U=C.UTF-8
T=scenarios/tour.yaml
case_ tour-start-80x24 $U 80x24 "" $T
case_ tour-pending-80x24 $U 80x24 "nnn" $T
case_ tour-pending-ascii-80x24 C 80x24 "nnn" $T
case_ tour-pending-200x60 $U 200x60 "nnn" $T
case_ tour-node-panel-80x24 $U 80x24 "n<Tab>" $T
case_ tour-step0-80x24 $U 80x24 "g" $T
case_ tour-goto-80x24 $U 80x24 ":6<Enter>" $T
case_ tour-maxskew-edit-80x24 $U 80x24 "n+" $T
case_ tour-place-80x24 $U 80x24 "nll<Enter>" $T
case_ tour-place-refused-80x24 $U 80x24 "n<Enter>" $T
# a click on node-c (column 40, row 9) moves the cursor there: the
# Constraints pane marks zone-c
case_ tour-click-node-80x24 $U 80x24 "n<Click 40,9>" $T
# a click outside the cluster grid changes nothing (same as tour-pending after one n)
case_ tour-click-outside-80x24 $U 80x24 "n<Click 40,0><Click 79,23>" $T
# a what-if at a step that schedules a pod goes before it: cordoning
# node-a at step 1 sends web-1 to node-b, on screen at once
case_ tour-cordon-whatif-120x40 $U 120x40 "c" $T
case_ tour-help-80x24 $U 80x24 "?" $T
# F lists the pending step's fixes, each with where the pod goes (! a fix
# that leaves web-1's own zone constraint violated); Enter applies the
# chosen one (the sixth, uncordon node-c) before the step: web-3 goes to
# node-c; u takes it back
case_ tour-fixes-list-80x24 $U 80x24 "nnnFjjjjj" $T
case_ tour-fixes-applied-80x24 $U 80x24 "nnnFjjjjj<Enter>" $T
case_ tour-fixes-undone-80x24 $U 80x24 "nnnFjjjjj<Enter>u" $T
case_ tour-too-small $U 80x24 "<Resize 50x12>" $T
case_ tour-resized-back $U 80x24 "<Resize 50x12>n<Resize 100x30>" $T
case_ picker-80x24 $U 80x24 ""
case_ picker-open-80x24 $U 80x24 "jj<Enter>"
# / in the list selects the next scenario whose name holds the text
case_ picker-search-80x24 $U 80x24 "/mindom<Enter>"
# / Enter with nothing typed repeats the last search: the second kep895
case_ picker-search-again-80x24 $U 80x24 "/kep<Enter>/<Enter>"
case_ mindomains-80x30 $U 80x30 "n" scenarios/docs-mindomains.yaml
# the release as a what-if, before the step on screen so that its pod is
# decided again: on 1.31 mesh-0's sidecar counts in LeastAllocated only as
# an init container (n1 457 beats n2 456); > makes it 1.32 (#127878): n1's
# non-zero requests grow to 1500m and 1.5Gi, LeastAllocated 68, total 449,
# and api-1 goes to n2 (456). u puts 1.31 and n1 back.
VS=scenarios/version-sidecar-scoring-v1.31.yaml
case_ version-next-sidecars-120x34 $U 120x34 "n>" $VS
case_ version-next-undo-120x34 $U 120x34 "n>u" $VS
# < goes back a minor: 1.30 has the same rule, n1 again
case_ version-prev-sidecars-120x34 $U 120x34 "n<lt>" $VS
# ~ types one, with a patch: 1.34.2 merges the two taint reasons (#135023)
case_ version-ask-taints-120x30 $U 120x30 "n~<BS><BS><BS><BS><BS><BS>1.34.2<Enter>" \
	scenarios/version-taint-reason-v1.34.1.yaml
case_ two-constraints-150x45 $U 150x45 "]" scenarios/docs-two-constraints.yaml
# soft constraints show each domain's share of a node's raw spread score,
# count x ln(size + 2) + (maxSkew - 1): node4 0 x 1.79 + 2 = 2.00 and
# zoneB 1 x 1.39 + 4 = 5.39, the lowest sum, so node4 is chosen
case_ soft-scores-200x60 $U 200x60 "" scenarios/docs-builtin-defaults.yaml
case_ find-node-120x40 $U 120x40 "/node4<Enter>" scenarios/docs-one-constraint.yaml
# every blocker: n1 fails four filters (✘Taint+3 in the grid, each ✗ with
# its reason in the Node pane), n4 two
case_ blockers-several-120x40 $U 120x40 "nn" scenarios/blockers-several-filters.yaml
# the docs' conflicting constraints: node3 passes the zone rule and fails
# the node rule, one verdict line each; preemption cannot help
case_ conflicting-verdicts-150x45 $U 150x45 "ll" scenarios/docs-conflicting-constraints.yaml
# preemption nominates node3 (☆) and evicts pod3 (✕ in its cell)
case_ nominated-150x45 $U 150x45 "nnnnll" scenarios/blockers-two-constraints.yaml
case_ nominated-ascii-100x30 C 100x30 "nnnnll" scenarios/blockers-two-constraints.yaml
# counted marks follow the constraint's counts: node1 lacks the zone key,
# so its two pods are drawn not counted (zoneA counts 1)
case_ missing-label-marks-120x30 $U 120x30 "" scenarios/docs-convention-missing-label.yaml
# pods on a tainted node (nodeTaintsPolicy Honor), on a node the pod's
# nodeSelector excludes and on a node without the key are not counted;
# I (nodeTaintsPolicy Ignore) counts the tainted node's pod again
M=tests/screens/inputs/marks-policies.yaml
case_ marks-policies-120x30 $U 120x30 "" $M
case_ marks-policies-ignore-120x30 $U 120x30 "I" $M
# predict mode draws the cluster before the step: pod3, which preemption
# will evict, is on node3 and counted there (zoneB counts 1)
case_ predict-evicted-150x45 $U 150x45 "Pnnnnll" scenarios/blockers-two-constraints.yaml
# after a what-if the author's notes of the later steps are marked as
# written before the edit, naming it and the outcome then and now:
# cordoning node4 before step 1 (from step 0, or at step 1 itself) sends
# mypod to node3 where it went to node4 when opened; step 3 still goes to
# node1
O=scenarios/docs-one-constraint.yaml
case_ stale-note-outcome-120x30 $U 120x30 "g/node4<Enter>cn" $O
case_ stale-note-120x30 $U 120x30 "/node4<Enter>cn" $O
# a step that changes the cluster has no placement to compare: its note
# may no longer hold (maxSkew 2 at step 4, then the uncordon step)
case_ stale-note-applied-80x24 $U 80x24 "nnn+n" $T
# the Node pane overflows: its hint and PgUp/PgDn share the title; the
# constraints fold to their compact form (the others one line each)
"$SKEWER" gen --nodes 60 --zones 3 --pods 600 --steps 5 --constraints 3 --seed 3 -o "$tmp/gen60.yaml"
case_ gen60-scroll-hints-200x40 $U 200x40 "n" "$tmp/gen60.yaml"
# projector sizes: the evidence fits without scrolling. The tour's fourth
# step shows node-a's verdict 1 + 1 - 0 = 2 at 80x24 and 100x30; f folds
# the note away
case_ tour-pending-node-80x24 $U 80x24 "nnn<Tab>" $T
case_ tour-pending-node-100x30 $U 100x30 "nnn<Tab>" $T
case_ tour-fold-80x24 $U 80x24 "f" $T
# ] selects the second constraint and brings its whole table into view
C=scenarios/docs-conflicting-constraints.yaml
case_ conflicting-80x24 $U 80x24 "" $C
case_ conflicting-select-80x24 $U 80x24 "]" $C
case_ conflicting-select-100x30 $U 100x30 "]" $C
# an edit of a replicas step changes every copy: m m m at copy 1 of foo,
# and copy 2 (step 3) runs with minDomains 3 too; 3 edits, one per key
case_ replicas-mindomains-120x40 $U 120x40 "nmmmn" scenarios/kep895-empty-cluster.yaml
# U redoes what u undid: maxSkew 2 again, one edit
case_ tour-redo-80x24 $U 80x24 "n+uU" $T
# a copied node's per-node label (node=node4) names the new node
case_ addnode-label-120x30 $U 120x30 "/node4<Enter>a/whatif<Enter>" $O
# the hostname label names the new node even where it is not the node's
# name (EKS): n1-whatif-1 is a domain of its own with 0 pods, web goes there
case_ addnode-hostname-120x30 $U 120x30 "a" tests/screens/inputs/hostname-differs.yaml
# N proposes the cursor node's domains but never its per-node label:
# node=node-new-1, not node=node1
case_ newnode-prompt-120x30 $U 120x30 "N" scenarios/docs-two-constraints.yaml
# eight zones at 80x24: every domain row and the global minimum
"$SKEWER" gen --nodes 16 --zones 8 --pods 40 --steps 3 --constraints 1 --seed 5 -o "$tmp/zones8.yaml"
case_ zones8-80x24 $U 80x24 "n" "$tmp/zones8.yaml"
case_ zones8-node-80x24 $U 80x24 "n<Tab>" "$tmp/zones8.yaml"
# the class's edits, at docs-one-constraint's step 1 (zoneA 2 pods, zoneB
# 1, mypod to node4); each checked by hand:
# e: selector app=none counts nothing, the pod does not match (+0): skew 0
case_ edit-selector-120x30 $U 120x30 "e<C-u>app=none<Enter>" $O
# A node: the docs' second constraint by node; only node4 passes both
case_ edit-add-cons-120x30 $U 120x30 "A<C-u>node<Enter>" $O
# D: no constraint left, every node feasible, the scores pick node4
case_ edit-remove-cons-120x30 $U 120x30 "D" $O
# L: labels foo=baz, so the pod no longer matches its selector: zoneA 2 + 0 - 1
case_ edit-pod-labels-120x30 $U 120x30 "L<C-u>foo=baz<Enter>" $O
# O: node4 tainted what-if (mypod would go to node3); tolerating it sends
# mypod back to node4
case_ edit-toleration-120x30 $U 120x30 "/node4<Enter>tO<Enter>" $O
# E: no matchLabelKeys: web-v1-a and web-v1-b count again (1, 1, 0)
case_ edit-match-keys-120x30 $U 120x30 "nE<C-u><Enter>" scenarios/docs-matchlabelkeys.yaml
# N: a node in a new zone, zoneC: the minimum drops to 0, only node5 passes
case_ edit-new-node-120x30 $U 120x30 "N<C-u>node5 zone=zoneC<Enter>" $O
# X: node4 removed: zoneB is node3 alone (1, the minimum), mypod to node3
case_ edit-remove-node-120x30 $U 120x30 "/node4<Enter>X" $O
# R: node4 relabelled zone=zoneC, a zone of its own with 0: mypod there
case_ edit-relabel-120x30 $U 120x30 "/node4<Enter>R<C-u>zone=zoneC<Enter>" $O
# y: one more replica after mypod: 2 and 2, every node passes, node1 first
case_ edit-replica-120x30 $U 120x30 "y" $O

# controller steps: the Sub-steps pane lists each pod deleted or created
# with the zone counts after it, the outcome line the skew it left (each
# checked by hand in the scenario's comments): web 6 -> 4 deletes web-b1
# and web-b2 (rank 2, input order) 2/2/2 -> 2/1/2 -> 2/0/2
CS=scenarios/controllers-scale-down-skew.yaml
case_ ctl-scale-down-80x24 $U 80x24 "pn" $CS
# H at step 0 (cursor a1, web's pod): web 6 -> 5, web-b1 goes, 2/1/2
case_ ctl-whatif-shrink-80x24 $U 80x24 "gH" $CS
# the rollout: +n1 -o1 +n1 -o2 +n2 -o3 by hostname, 1/1/1 -> 2/1/0
case_ ctl-rollout-80x24 $U 80x24 "gn" scenarios/controllers-rollout-skew.yaml
# the descheduler evicts web-a3 (its 3/0), the scheduler (3/3 with the
# bare pods) puts web-1 back on n1: 3/3 -> 2/3 -> 3/3
case_ ctl-deschedule-100x30 $U 100x30 "gn" scenarios/controllers-descheduler-loop.yaml

# predict mode: P hides every verdict of the step (below the title and
# the timeline strip, whose past steps keep their marks) while the pod,
# its constraint and the counts before it show; x marks guesses, r
# reveals them; n carries on, hidden again
case_ predict-pending-80x24 $U 80x24 "Pnnn" $T
case_ predict-step1-80x24 $U 80x24 "P" $T
case_ predict-step1-reveal-80x24 $U 80x24 "Pr" $T
case_ predict-node-80x24 $U 80x24 "Pnnn<Tab>" $T
case_ predict-reveal-80x24 $U 80x24 "Pxllxxr" $T
case_ predict-next-80x24 $U 80x24 "Prn" $T
case_ predict-next-reveal-80x24 $U 80x24 "Prnr" $T
# S with node groups and NodePools: the step's autoscaler (CA) and
# Karpenter's dry run at the same moment, side by side when the pane is
# 100 wide, one above the other at 80 (zone a against zone c, worked out
# in the input's comment)
A=tests/screens/inputs/autoscalers-both.yaml
case_ autoscalers-both-100x40 $U 100x40 "nS" $A
case_ autoscalers-both-80x30 $U 80x30 "nS" $A
for f in autoscalers-both-100x40 autoscalers-both-80x30; do
	for want in "The autoscalers differ: Cluster Autoscaler adds 1 node in zone a" "Karpenter instead (dry run)" \
		"added ng-a-1 in zone a"; do
		grep -qF -- "$want" "tests/screens/$f.txt" ||
			{ echo "FAIL: screen $f does not show: $want"; fails=$((fails + 1)); }
	done
done
grep -qF "would add default-1 in zone c" tests/screens/autoscalers-both-100x40.txt ||
	{ echo "FAIL: screen autoscalers-both-100x40 does not show Karpenter's node in zone c"; fails=$((fails + 1)); }
for f in predict-pending-80x24 predict-step1-80x24 predict-node-80x24 predict-next-80x24; do
	body=$(tail -n +3 "tests/screens/$f.txt")
	for bad in ✓ ✗ ★ ✘ ☆ ◆ "scheduled on" "pending:" "SKEW IF PLACED" "> maxSkew" Filters; do
		if grep -qF -- "$bad" <<<"$body"; then
			echo "FAIL: predict screen $f shows a verdict: $bad"
			fails=$((fails + 1))
		fi
	done
	grep -qE "^Step [0-9]+/7: schedule default/web-" <<<"$body" ||
		{ echo "FAIL: predict screen $f does not show the pod"; fails=$((fails + 1)); }
	# the strip: this step and the later ones are ?, only earlier ones marked
	after=$(sed -n 2p "tests/screens/$f.txt" | sed 's/.*\[//')
	if ! grep -q '^?\]' <<<"$after" || grep -qE "✓|✗|•|!" <<<"$after"; then
		echo "FAIL: predict screen $f: the strip tells this step or a later one: $after"
		fails=$((fails + 1))
	fi
done
# at the first step nothing is known yet: the whole screen, strip too
if grep -qE "✓|✗|★" tests/screens/predict-step1-80x24.txt; then
	echo "FAIL: P at step 1 shows a verdict mark"
	fails=$((fails + 1))
fi
grep -q "scheduled on node-a" tests/screens/predict-step1-reveal-80x24.txt ||
	{ echo "FAIL: P r does not reveal"; fails=$((fails + 1)); }
grep -q "scheduled on node-b" tests/screens/predict-next-reveal-80x24.txt ||
	{ echo "FAIL: P r n r does not reveal step 2"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] || { echo "$fails screen(s) differ"; exit 1; }
echo ok
