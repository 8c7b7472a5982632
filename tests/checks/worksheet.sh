#!/usr/bin/env bash
# worksheet.sh - `skewer explain --worksheet`: the handouts of two bundled
# scenarios against goldens checked by hand (tests/worksheets/: the tour's
# answers follow its notes; docs-two-constraints' follow the Kubernetes
# docs, mypod can only go to node4), and every bundled scenario gives a
# handout with an answer key. UPDATE=1 rewrites the goldens (read them).
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
for name in tour docs-two-constraints; do
	"$SKEWER" explain --worksheet "scenarios/$name.yaml" >"$tmp/$name.txt"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$tmp/$name.txt" "tests/worksheets/$name.txt"
	elif ! cmp -s "$tmp/$name.txt" "tests/worksheets/$name.txt"; then
		echo "FAIL: worksheet $name differs:"
		diff -u "tests/worksheets/$name.txt" "$tmp/$name.txt" | head -40 || true
		fails=$((fails + 1))
	fi
done
# the questions come before the answers: no verdict above the key
head -n "$(grep -n '^Answer key$' "$tmp/tour.txt" | cut -d: -f1)" "$tmp/tour.txt" |
	grep -qE "It goes to|filtered out by|Feasible:" &&
	{ echo "FAIL: the tour's handout shows an answer before the key"; fails=$((fails + 1)); }
for f in scenarios/*.yaml; do
	out=$("$SKEWER" explain --worksheet "$f") || { echo "FAIL: $f: exit $?"; fails=$((fails + 1)); continue; }
	grep -q '^Answer key$' <<<"$out" || { echo "FAIL: $f: no answer key"; fails=$((fails + 1)); }
done
rc=0
"$SKEWER" explain --worksheet --json scenarios/tour.yaml >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: --worksheet --json exited $rc"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] || exit 1
echo ok
