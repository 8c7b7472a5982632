#!/usr/bin/env bash
# tui-tutorial.sh - docs/tutorial.md is followed to the letter: each screen
# it shows is what skewer draws at the size it states (80x24) after the
# keys it asks for, typed in its order from the tour's start (the list
# below, one entry a screen of the file).
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TERM=xterm NO_COLOR=1 LANG=C.UTF-8 LC_ALL=C.UTF-8 SKEWER_DATADIR=/nonexistent
unset SKEWER_THEME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the keys typed since the start, one screen each, in the order the text
# asks for them (section 5 leaves the tour for docs-mindomains)
screens=(
	""
	"n<Tab>"
	"n<Tab><Tab>nn"
	"n<Tab><Tab>nn+"
	"n<Tab><Tab>nn+bb/mindom<Enter><Enter>n"
)
grep -q "Every screen is 80 columns by 24 rows" docs/tutorial.md ||
	{ echo "FAIL: docs/tutorial.md does not state its terminal size (80x24)"; exit 1; }
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
	keys=$s
	"$SKEWER" tui --size 80x24 --keys "$keys" --dump-screen "$tmp/got.$i" scenarios/tour.yaml
	sed -i 's/[[:space:]]*$//' "$tmp/doc.$i"
	if ! cmp -s "$tmp/doc.$i" "$tmp/got.$i"; then
		echo "FAIL: docs/tutorial.md screen $i (80x24, keys '$keys') is not what skewer draws:"
		diff -u "$tmp/doc.$i" "$tmp/got.$i" | head -20
		exit 1
	fi
done
echo ok
