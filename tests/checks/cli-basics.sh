#!/usr/bin/env bash
# cli-basics.sh - exit codes and the usage contract of the commands.
set -euo pipefail
: "${SKEWER:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() { # RC CMD...
	local want=$1 rc=0
	shift
	"$@" >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want"
}
expect_rc 0 "$SKEWER" --help
expect_rc 0 "$SKEWER" --version
expect_rc 0 "$SKEWER" help gen
expect_rc 0 "$SKEWER" help help
expect_rc 2 "$SKEWER" help no-such-command
expect_rc 0 "$SKEWER" help --help
# every usage error has the same form: skewer: MESSAGE, then the hint
for args in "help no-such-command" "help help extra" "help explain --bogus" "help --bogus" "explain --no-such-option" "gen --no-such-option" \
	"tui --no-such-option" "render" "gen --kube-version 1.1"; do
	rc=0; err=$("$SKEWER" $args 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] || fail "'skewer $args' exited $rc, expected 2"
	[ "$(printf '%s\n' "$err" | head -1 | cut -c1-8)" = "skewer: " ] || fail "'skewer $args' said: $err"
	printf '%s\n' "$err" | tail -1 | grep -qx "Try 'skewer --help' for more information." ||
		fail "'skewer $args' gave no hint: $err"
done
"$SKEWER" help help | grep -q '^usage: skewer help \[COMMAND\]$' || fail "'skewer help help' does not print its usage"
expect_rc 2 "$SKEWER" --no-such-option
expect_rc 2 "$SKEWER" explain /nonexistent/file.yaml
expect_rc 0 "$SKEWER" explain scenarios/tour.yaml
expect_rc 0 "$SKEWER" explain --json scenarios/tour.yaml
expect_rc 0 "$SKEWER" render scenarios/tour.yaml
expect_rc 0 "$SKEWER" validate scenarios/tour.yaml
# an output that cannot be written is exit status 2 in every command
if [ -w /dev/full ]; then
	for cmd in explain render validate check; do
		rc=0; err=$("$SKEWER" $cmd scenarios/tour.yaml 2>&1 >/dev/full) || rc=$?
		[ "$rc" -eq 2 ] || fail "$cmd to a full device exited $rc, expected 2"
		grep -q "^skewer: $cmd: cannot write the output: No space left on device$" <<<"$err" ||
			fail "$cmd to a full device said: $err"
	done
	expect_rc 2 "$SKEWER" gen -o /dev/full
	expect_rc 2 "$SKEWER" tui --size 80x24 --keys q --dump-screen /dev/full scenarios/tour.yaml
	# help, the version, the key table and a screen on standard output
	# too, each with one message
	for args in "--help" "--version" "help explain" "explain --help" "tui --keys-markdown" \
		"gen --nodes 3 --pods 3 --steps 1" "tui --size 80x24 --keys q --dump-screen - scenarios/tour.yaml"; do
		rc=0; err=$("$SKEWER" $args 2>&1 >/dev/full) || rc=$?
		[ "$rc" -eq 2 ] || fail "'skewer $args' to a full device exited $rc, expected 2"
		[ "$(grep -c "cannot write" <<<"$err")" -eq 1 ] || fail "'skewer $args' to a full device said: $err"
	done
fi
# a wrong expectation makes check exit 1 and print the mismatch line
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed '0,/node: node-a /s//node: node-b /' scenarios/tour.yaml >"$tmp/wrong.yaml"
cmp -s scenarios/tour.yaml "$tmp/wrong.yaml" && fail "could not make a wrong expectation"
rc=0; out=$("$SKEWER" check "$tmp/wrong.yaml" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "check of a wrong expectation exited $rc"
grep -q "wrong.yaml: step 1: node: expected node-b, got node-a" <<<"$out" || fail "no mismatch line: $out"
grep -q "^0 passed, 1 failed$" <<<"$out" || fail "no summary line: $out"
# explain --json is valid JSON
command -v python3 >/dev/null && "$SKEWER" explain --json scenarios/tour.yaml | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["steps"][0]["index"] == 1'
# a pending pod of a 1.34+ dump is not admitted twice (no false invalid)
"$SKEWER" explain --json tests/hostile/ok-dump-pending-pod-merged.yaml | grep -q '"outcome": "scheduled"' ||
	fail "a stored pending pod was admitted twice"
# ... and stays so when the view writes it back (`admitted: true`)
cp tests/hostile/ok-dump-pending-pod-merged.yaml "$tmp/dump.yaml"
"$SKEWER" tui --size 100x30 --keys 'w<Enter>' --dump-screen "$tmp/screen.txt" "$tmp/dump.yaml"
[ -f "$tmp/dump-edited.yaml" ] || fail "the view did not write $tmp/dump-edited.yaml"
"$SKEWER" explain --json "$tmp/dump-edited.yaml" | grep -q '"outcome": "scheduled"' ||
	fail "a written-back stored pod was admitted twice"
echo ok
