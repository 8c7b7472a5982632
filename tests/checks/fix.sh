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
expect_rc 0 "uncordon node-c  -> node-c" fix --step 4 scenarios/tour.yaml
expect_rc 0 "No pending pod." fix scenarios/docs-one-constraint.yaml
if ! command -v python3 >/dev/null 2>&1; then
	echo "skipped the model check: no python3"
	exit 0
fi
SKEWER="$SKEWER" python3 tests/diff/fixcheck.py -n 150 -s 1
