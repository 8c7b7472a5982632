#!/usr/bin/env bash
# anchors.sh - YAML anchors, aliases and merge keys (docs/scenario-format.md):
#  1. tests/anchors/web-anchors.yaml loads and checks exactly as its form
#     written out by hand, web-expanded.yaml: the same explanation (text and
#     JSON), the same `check` verdicts;
#  2. 100,000 aliases of one small node load quickly; an alias bomb is
#     refused at once, at the alias that passes the budget.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
a=tests/anchors/web-anchors.yaml
e=tests/anchors/web-expanded.yaml

"$SKEWER" check "$a" "$e" >"$tmp/check" 2>&1 || { cat "$tmp/check" >&2; fail "check of $a and $e"; }
"$SKEWER" explain "$a" >"$tmp/a.txt"
"$SKEWER" explain "$e" >"$tmp/e.txt"
diff -u "$tmp/e.txt" "$tmp/a.txt" >&2 || fail "explain $a differs from its expanded form"
"$SKEWER" explain --json "$a" | sed "s#$a#FILE#g" >"$tmp/a.json"
"$SKEWER" explain --json "$e" | sed "s#$e#FILE#g" >"$tmp/e.json"
diff -u "$tmp/e.json" "$tmp/a.json" >&2 || fail "explain --json $a differs from its expanded form"

# 100,000 aliases of one small mapping: 20,000 bound pods' labels and
# 80,000 entries of a field skewer skips; well within the budget
{
	echo 'nodes: [{name: n1, allocatable: {pods: "30000"}}]'
	echo 'x-labels: &l {app: web, tier: front}'
	echo 'x-many:'
	for ((i = 0; i < 80000; i += 8)); do echo '  - [*l, *l, *l, *l, *l, *l, *l, *l]'; done
	echo 'pods:'
	seq -f '  - {name: p%.0f, nodeName: n1, labels: *l}' 1 20000
} >"$tmp/many.yaml"
start=$(date +%s%N)
"$SKEWER" validate "$tmp/many.yaml" >"$tmp/out" 2>&1 || { head -5 "$tmp/out" >&2; fail "100,000 aliases were refused"; }
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 5000 ] || fail "100,000 aliases took $ms ms to load"

# a bomb stops at once, naming the alias that passed the budget
start=$(date +%s%N)
rc=0
"$SKEWER" validate tests/hostile/bad-alias-bomb.yaml >"$tmp/out" 2>&1 || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 2 ] || fail "the alias bomb exited $rc"
grep -q "bad-alias-bomb.yaml:4:17: alias '\*c' expands the document to" "$tmp/out" || { cat "$tmp/out" >&2; fail "the alias bomb's message"; }
[ "$ms" -lt 2000 ] || fail "the alias bomb took $ms ms"
echo "anchors: ok"
