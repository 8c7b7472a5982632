#!/usr/bin/env bash
# diff.sh - explain --json against the independent Python model of the same
# rules (tests/diff) on random scenarios. Needs python3; skipped without it.
set -euo pipefail
: "${SKEWER:?}"
if ! command -v python3 >/dev/null 2>&1; then
	echo "skipped: no python3"
	exit 0
fi
SKEWER="$SKEWER" python3 tests/diff/run.py -n 400 -s 1
# the ReplicaSet scale-down order against its own independent model
SKEWER="$SKEWER" python3 tests/diff/ctl_rank.py -n 200 -s 1
