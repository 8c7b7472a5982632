#!/usr/bin/env bash
# tui-identity.sh - moving through time is exact: the screen of step k is
# the same whether reached forward from the start, by `:k`, or backward
# from the last step; and an edit undone gives back the same screen.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TERM=xterm NO_COLOR=1 LANG=C.UTF-8 LC_ALL=C.UTF-8 SKEWER_DATADIR=/nonexistent
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shot() { # OUT KEYS FILE
	"$SKEWER" tui --size 120x40 --keys "$2" --dump-screen "$1" "$3"
}
for f in scenarios/tour.yaml scenarios/docs-conflicting-constraints.yaml scenarios/docs-builtin-defaults.yaml; do
	n=$("$SKEWER" explain "$f" | sed -n 's/^Scenario .*, \([0-9]*\) steps\?$/\1/p')
	[ -n "$n" ] || { echo "FAIL: no step count for $f"; exit 1; }
	for ((k = 0; k <= n; k++)); do
		back=G
		for ((j = k; j < n; j++)); do back+=p; done
		shot "$tmp/goto" ":$k<Enter>" "$f"
		shot "$tmp/back" "$back" "$f"
		cmp -s "$tmp/goto" "$tmp/back" || { echo "FAIL: $f step $k differs going back"; diff "$tmp/goto" "$tmp/back" | head; exit 1; }
	done
done
# an edit and its undo
f=scenarios/tour.yaml
shot "$tmp/a" "n" "$f"
shot "$tmp/b" "n+-sKKimMcu<Enter>uuuuuuuuuuuuuu" "$f"
# the flash line differs; compare everything above it
head -n -1 "$tmp/a" >"$tmp/a1"
head -n -1 "$tmp/b" >"$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || { echo "FAIL: undo does not restore the screen"; diff "$tmp/a1" "$tmp/b1"; exit 1; }
echo ok
