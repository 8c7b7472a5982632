#!/usr/bin/env bash
# tui-themes.sh - the colour themes, read from `--dump-attrs` (a letter a
# cell: d dim, r reverse, b bold, u underline, c colour alone): at the
# tour's step 4 nothing a reader needs is dim in any theme (the legend,
# the field labels, the filtered node and its mark), light and contrast
# draw nothing dim at all, NO_COLOR drops the colours and keeps the
# attributes, and a bad theme name is refused.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export LANG=C LC_ALL=C SKEWER_DATADIR=/nonexistent
unset SKEWER_THEME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# attr ROW COL: the letter of a cell (both from 1)
attr() { sed -n "${1}p" "$tmp/a.txt" | cut -c"$2"; }
# not_dim WORD [NTH]: every cell of the first line holding WORD is not dim
not_dim() {
	local row line col
	row=$(grep -n -- "$1" "$tmp/s.txt" | head -1 | cut -d: -f1)
	[ -n "$row" ] || fail "$theme: no '$1' on the screen"
	line=$(sed -n "${row}p" "$tmp/s.txt")
	col=$(($(awk -v w="$1" '{ print index($0, w) }' <<<"$line")))
	for ((i = 0; i < ${#1}; i++)); do
		[ "$(attr "$row" $((col + i)))" != d ] ||
			fail "$theme (NO_COLOR=${NO_COLOR:-}): '$1' is dim at row $row"
	done
}

for nc in 1 ""; do
	for theme in dark light contrast; do
		NO_COLOR=$nc TERM=xterm-256color "$SKEWER" tui --size 80x24 --keys nnn --theme "$theme" \
			--dump-screen "$tmp/s.txt" --dump-attrs "$tmp/a.txt" scenarios/tour.yaml
		NO_COLOR=$nc not_dim "counted"
		NO_COLOR=$nc not_dim "not counted"
		NO_COLOR=$nc not_dim "topologyKey"
		NO_COLOR=$nc not_dim "selector"
		NO_COLOR=$nc not_dim "DOMAIN"
		NO_COLOR=$nc not_dim "node-a"
		NO_COLOR=$nc not_dim "xSpread"
		if [ "$theme" != dark ] && grep -q d "$tmp/a.txt"; then
			fail "$theme (NO_COLOR=$nc): dim cells: $(grep -n d "$tmp/a.txt" | head -3)"
		fi
		# the title bar: a colour pair alone with colours, reverse without
		title=$(attr 1 3)
		if [ -n "$nc" ] || [ "$theme" = contrast ]; then
			[ "$title" = r ] || fail "$theme (NO_COLOR=$nc): title bar is '$title', not reverse"
		elif [ "$theme" = dark ]; then
			[ "$title" = c ] || fail "$theme: title bar is '$title', not its colour pair"
		fi
	done
done
# SKEWER_THEME chooses the theme, --theme overrides it
SKEWER_THEME=contrast NO_COLOR= TERM=xterm-256color "$SKEWER" tui --size 80x24 \
	--dump-attrs "$tmp/a.txt" scenarios/tour.yaml
[ "$(attr 1 3)" = r ] || fail "SKEWER_THEME=contrast: title bar not reverse"
SKEWER_THEME=contrast NO_COLOR= TERM=xterm-256color "$SKEWER" tui --size 80x24 --theme dark \
	--dump-attrs "$tmp/a.txt" scenarios/tour.yaml
[ "$(attr 1 3)" = c ] || fail "--theme dark did not override SKEWER_THEME"
# C cycles the themes and says which one is on
out=$(NO_COLOR=1 TERM=xterm "$SKEWER" tui --size 80x24 --keys C --dump-screen - scenarios/tour.yaml)
grep -q "theme light" <<<"$out" || fail "C does not name the light theme: $(tail -1 <<<"$out")"
rc=0
"$SKEWER" tui --theme sepia --size 80x24 scenarios/tour.yaml 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "dark, light or contrast" "$tmp/err" || fail "--theme sepia: exit $rc"
rc=0
SKEWER_THEME=sepia "$SKEWER" tui --size 80x24 scenarios/tour.yaml 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "SKEWER_THEME" "$tmp/err" || fail "SKEWER_THEME=sepia: exit $rc"
echo ok
