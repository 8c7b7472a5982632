#!/usr/bin/env bash
# tui-keys.sh - docs/keys.md is the key table as the program prints it
# (regenerate with `make keys`), and the non-terminal paths say what to do.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
"$SKEWER" tui --keys-markdown | diff -u docs/keys.md - ||
	{ echo "FAIL: docs/keys.md is stale: run make keys"; exit 1; }
# without a terminal the view refuses clearly, pointing to explain
rc=0
out=$("$SKEWER" scenarios/tour.yaml </dev/null 2>&1 >/dev/null) || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: exit $rc without a terminal"; exit 1; }
grep -q "skewer explain" <<<"$out" || { echo "FAIL: no hint to use explain: $out"; exit 1; }
rc=0
"$SKEWER" tui --keys "<Bogus>" --dump-screen /dev/null scenarios/tour.yaml 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: a bad --keys token exited $rc"; exit 1; }
rc=0
"$SKEWER" tui --size 80x24 /nonexistent.yaml 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: a missing file exited $rc"; exit 1; }
echo ok
