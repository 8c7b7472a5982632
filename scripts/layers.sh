#!/bin/sh
# layers.sh - checks that each directory includes only the layers below
# it (docs/architecture.md, "Layers"):
#
#   util/   the C library only: no skewer header of another layer, no
#           libyaml, no curses
#   model/  util/; no load/, cli/, gen/, tui/, libyaml or curses
#   load/   model/, util/, libyaml; no cli/, gen/, tui/ or curses
#   gen/    model/, load/, util/; no cli/, tui/ or curses
#   cli/    model/, load/, util/; no gen/, tui/ or curses
#   tui/    model/, load/, util/, curses; no cli/ or gen/
#   main.c  every layer: it holds the command table
#
# Prints each include that breaks a rule and exits 1; exits 0 when none.
cd "$(dirname "$0")/.." || exit 2
bad=0
# forbid DIR REGEX WHAT: no #include line under DIR matches REGEX
forbid() {
	[ -d "$1" ] || return 0
	hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" --include='*.c' --include='*.h')
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed "s|\$|   <- $1 must not include $3|"
		bad=1
	fi
}
curses='([^>"]*/)?n?curses[^>"]*\.h'
forbid util  "\.\./|$curses|yaml\.h" "another layer, libyaml or curses"
forbid model "(\.\./)+(load|cli|gen|tui)/|$curses|yaml\.h" "load/, cli/, gen/, tui/, libyaml or curses"
forbid load  "(\.\./)+(cli|gen|tui)/|$curses" "cli/, gen/, tui/ or curses"
forbid gen   "(\.\./)+(cli|tui)/|$curses" "cli/, tui/ or curses"
forbid cli   "(\.\./)+(gen|tui)/|$curses" "gen/, tui/ or curses"
forbid tui   "(\.\./)+(cli|gen)/" "cli/ or gen/"
exit $bad
