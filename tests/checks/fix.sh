#!/usr/bin/env bash
# fix.sh - `skewer fix`: its bad input (exit 2 with a clear message), and
# on random scenarios every fix --json lists, applied to the scenario,
# schedules the pod on its node in the independent Python model, and every
# single-field change of the pod's own hard constraints that the model
# schedules is listed (tests/diff/fixcheck.py). Needs python3 for the
# second part; skipped without it.
set -euo pipefail
: "${SKEWER:?}"
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() { # RC PATTERN ARGS...
	local want=$1 pat=$2 out rc
	shift 2
	set +e
	out=$("$SKEWER" "$@" 2>&1)
	rc=$?
	set -e
	[ "$rc" -eq "$want" ] || fail "skewer $*: exit $rc, expected $want: $out"
	grep -qF -- "$pat" <<<"$out" || fail "skewer $*: no '$pat' in: $out"
}
expect_rc 2 "--step 9: steps count from 1 and the scenario has 7 steps" fix --step 9 scenarios/tour.yaml
expect_rc 2 "step 3 (cordon node-c) is not a pending pod" fix --step 3 scenarios/tour.yaml
expect_rc 2 "step 2 (schedule default/web-2) is not a pending pod: its outcome is scheduled" fix --step 2 scenarios/tour.yaml
expect_rc 2 "--limit needs a number" fix --limit 0 scenarios/tour.yaml
expect_rc 0 "uncordon node-c -> node-c" fix --step 4 scenarios/tour.yaml
expect_rc 0 "No pending pod." fix scenarios/docs-one-constraint.yaml
# the view: F lists the pending step's fixes (the tour's step 4: ten, the
# sixth is uncordon node-c), Enter applies the chosen one as a what-if
# (inserted before the step, which then schedules web-3 on node-c), u
# undoes it, Esc closes the list
screen=$("$SKEWER" tui --size 120x30 --keys "nnnF" --dump-screen - scenarios/tour.yaml)
grep -qF "Fixes for step 4: default/web-3 is pending" <<<"$screen" || fail "F: no list: $screen"
grep -qF "uncordon node-c: scheduled on node-c" <<<"$screen" || fail "F: no uncordon line: $screen"
grep -qF "! maxSkew 1 -> 2 on zone: scheduled on node-a" <<<"$screen" || fail "F: no warned maxSkew line: $screen"
screen=$("$SKEWER" tui --size 120x30 --keys "nnnFjjjjj<Enter>" --dump-screen - scenarios/tour.yaml)
grep -qF "fix 6/10 applied: uncordon node-c: scheduled on node-c (u: undo)" <<<"$screen" || fail "F Enter: not applied: $screen"
grep -qF "Step 5/8: schedule default/web-3" <<<"$screen" || fail "F: the pending step did not move after the uncordon: $screen"
grep -qF "scheduled on node-c" <<<"$screen" || fail "F: web-3 not scheduled on node-c: $screen"
screen=$("$SKEWER" tui --size 120x30 --keys "nnnF<Enter>u" --dump-screen - scenarios/tour.yaml)
grep -qF "undone (0 edits left)" <<<"$screen" || fail "F Enter then u: not undone: $screen"
screen=$("$SKEWER" tui --size 120x30 --keys "nnnF<Esc>" --dump-screen - scenarios/tour.yaml)
if grep -qF "Fixes for step" <<<"$screen"; then fail "F Esc: the list is still open: $screen"; fi
screen=$("$SKEWER" tui --size 120x30 --keys "nF" --dump-screen - scenarios/tour.yaml)
grep -qF "step 2's pod is not pending" <<<"$screen" || fail "F on a scheduled step: $screen"
# search: bad input, the Redis deadlock with its witness replayed, the fix
expect_rc 2 "--max-states 0 explores nothing" search --max-states 0 scenarios/redis-natural-order.yaml
expect_rc 2 "--choices takes ties or feasible" search --choices any scenarios/redis-natural-order.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in ties feasible; do
	expect_rc 1 "stuck: this run leaves default/pod2-1 pending" search --choices "$c" -o "$tmp/w-$c.yaml" scenarios/redis-natural-order.yaml
	expect_rc 0 "-> pending: 0/6 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 5 node(s) didn't match pod topology spread constraints." explain "$tmp/w-$c.yaml"
	expect_rc 0 "not stuck: no run leaves a pod pending (every run explored: complete)" search --choices "$c" scenarios/redis-search-relaxed.yaml
done
expect_rc 0 '"complete": true' search --json scenarios/redis-search-relaxed.yaml
expect_rc 0 "the search is not complete" search --max-states 2 scenarios/redis-search-relaxed.yaml
# Ctrl-C: a clean stop that says how far it got (exit 130)
set +e
"$SKEWER" search --choices feasible bench/search-3x4.yaml >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
sleep 0.3
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
set -e
if [ "$rc" -eq 130 ]; then
	grep -q "interrupted after" "$tmp/int.out" || fail "search interrupted: no report: $(cat "$tmp/int.out")"
elif [ "$rc" -ne 0 ]; then
	fail "search interrupted: exit $rc"
fi
# the same with timeout -s INT: the search of 3 StatefulSets x 4 pods takes
# seconds, so one second in it is stopped: exit 130, how far it got on
# standard output, one line on standard error
if command -v timeout >/dev/null 2>&1; then
	set +e
	timeout --preserve-status -s INT 1 "$SKEWER" search --choices feasible bench/search-3x4.yaml \
		>"$tmp/int2.out" 2>"$tmp/int2.err"
	rc=$?
	set -e
	[ "$rc" -eq 130 ] || fail "search under timeout -s INT: exit $rc, expected 130"
	grep -q "^interrupted after [0-9]* states (at step [0-9]*, deepest [0-9]*): no stuck run found so far; the search is not complete" \
		"$tmp/int2.out" || fail "search under timeout -s INT: no report: $(cat "$tmp/int2.out")"
	grep -q "^search: interrupted after [0-9]* states" "$tmp/int2.err" ||
		fail "search under timeout -s INT: no line on standard error: $(cat "$tmp/int2.err")"
fi
# each step of the full explain (which works out every pending step's
# best fix, trials and all) is what explain --step N prints: the trials
# leave no trace on the steps after them
for f in tests/autoscale/*.yaml scenarios/*preempt*.yaml scenarios/blockers-*.yaml; do
	"$SKEWER" explain "$f" >"$tmp/full" 2>&1 || continue
	n=$(grep -c "^Step [0-9]*/" "$tmp/full" || true)
	for ((k = 1; k <= n; k++)); do
		block='/^Step [0-9]+\//{split($2,p,"/"); on=(p[1]==k)} on'
		awk -v k="$k" "$block" "$tmp/full" >"$tmp/a"
		"$SKEWER" explain --step "$k" "$f" 2>&1 | awk -v k="$k" "$block" >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -10; fail "$f: step $k of the full explain differs from explain --step $k"; }
	done
done
if ! command -v python3 >/dev/null 2>&1; then
	echo "skipped the model check: no python3"
	exit 0
fi
SKEWER="$SKEWER" python3 tests/diff/fixcheck.py -n 150 -s 1
# fixes of the scheduler's defaultConstraints (schedulerPatch): a bundled
# scenario and a random one that has them
if python3 -c "import yaml" 2>/dev/null; then
	SKEWER="$SKEWER" python3 tests/diff/fixcheck.py --file scenarios/fix-default-constraints.yaml --file scenarios/tour.yaml
fi
SKEWER="$SKEWER" python3 tests/diff/fixcheck.py 1402
