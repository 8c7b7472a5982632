#!/usr/bin/env bash
# tui-tutorial.sh - docs/tutorial.md is followed to the letter: each screen
# it shows is what skewer draws at that size after those keys (the list
# below, in the order of the screens in the file).
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TERM=xterm NO_COLOR=1 LANG=C.UTF-8 LC_ALL=C.UTF-8 SKEWER_DATADIR=/nonexistent
unset SKEWER_THEME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# SIZE KEYS FILE, one screen each
screens=(
	"80x24||scenarios/tour.yaml"
	"100x32|n<Tab>|scenarios/tour.yaml"
	"80x24|nnn|scenarios/tour.yaml"
	"80x24|nnn+|scenarios/tour.yaml"
	"80x30|n|scenarios/docs-mindomains.yaml"
)
# the indented blocks that start with the title bar, without the indent
awk -v dir="$tmp" '
	/^     skewer │/ { n++; inb = 1 }
	inb && /^    / { print substr($0, 5) > (dir "/doc." n); next }
	inb { inb = 0 }
	END { print n > (dir "/count") }' docs/tutorial.md
[ "$(cat "$tmp/count")" = "${#screens[@]}" ] ||
	{ echo "FAIL: docs/tutorial.md shows $(cat "$tmp/count") screens, the list here ${#screens[@]}"; exit 1; }
i=0
for s in "${screens[@]}"; do
	i=$((i + 1))
	IFS='|' read -r size keys file <<<"$s"
	"$SKEWER" tui --size "$size" --keys "$keys" --dump-screen "$tmp/got.$i" "$file"
	sed -i 's/[[:space:]]*$//' "$tmp/doc.$i"
	if ! cmp -s "$tmp/doc.$i" "$tmp/got.$i"; then
		echo "FAIL: docs/tutorial.md screen $i ($size, keys '$keys') is not what skewer draws:"
		diff -u "$tmp/doc.$i" "$tmp/got.$i" | head -20
		exit 1
	fi
done
echo ok
