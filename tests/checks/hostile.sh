#!/usr/bin/env bash
# hostile.sh - broken and hostile input (docs/limits.md). Run by tests/run.sh
# with $SKEWER (plain and ASan/UBSan builds).
#
#  1. tests/hostile/EXPECTED: for every file, the exit status of
#     `skewer explain FILE` and the first line it writes on stderr
#     ("-" for none). Every command (explain, explain --json, validate,
#     render, check, `skewer FILE`) must end with 0, 1 or 2 (never a signal,
#     a sanitizer report or a hang), stay within a screenful of messages,
#     and write no raw control character, C1 control or bidi override.
#  2. Inputs too large to commit, made here: nesting 100,000 deep, a
#     100 MB scalar, more nodes than the limit, a directory, a missing
#     file, a binary, standard input.
#  3. invalid-*.yaml: pods the API server rejects are the step's outcome
#     (`skewer check` compares `expect: {invalid: ...}`), in every command.
#  4. skewer never writes to its input: part 1 and every command on the
#     scenarios run on a read-only copy whose checksums are compared.
#
# tests/checks/hostile.sh --update rewrites EXPECTED from the current
# build (review the diff before committing it).
set -uo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
dir=tests/hostile
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
bad() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

SCREEN=25  # lines of messages at most (LOAD_MAX_ERRORS + a summary line)

# Bytes that must never reach a terminal from input: C0 controls but
# newline, DEL, C1 controls (U+0080..U+009F), bidi embeddings/overrides/
# isolates and the line/paragraph separators.
unsafe() { # FILE
	LC_ALL=C grep -qaP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]' "$1"
}
# JSON output escapes them all as \uXXXX too (cli/out.c out_json_escape).
unsafe_json() { # FILE
	unsafe "$1"
}

# run NAME CMD...: runs one command with a time limit; sets $rc, leaves
# the output in $tmp/out and $tmp/err and checks the generic properties.
run() {
	local name=$1
	shift
	rc=0
	timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	if [ "$rc" -gt 2 ]; then
		bad "$name: '$*' exited $rc"
		sed -n '1,15p' "$tmp/err" >&2
	fi
	if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		bad "$name: '$*': sanitizer report"
		sed -n '1,15p' "$tmp/err" >&2
	fi
	if [ "$(wc -l <"$tmp/err")" -gt "$SCREEN" ]; then
		bad "$name: '$*' wrote $(wc -l <"$tmp/err") lines on stderr (more than a screenful)"
	fi
	local json=false a
	for a in "$@"; do [ "$a" = --json ] && json=true; done
	if { if $json; then unsafe_json "$tmp/out"; else unsafe "$tmp/out"; fi; } || unsafe "$tmp/err"; then
		bad "$name: '$*' wrote a raw control character"
	fi
}

first_line() {
	local l
	l=$(head -n 1 "$tmp/err")
	printf '%s' "${l:--}"
}

# ---- 1. the committed corpus ----
if [ "${1:-}" = --update ]; then
	{
		echo "# tests/hostile/EXPECTED - written by tests/checks/hostile.sh --update, reviewed by hand."
		echo "# FILE<TAB>exit status of 'skewer explain FILE'<TAB>its first line on stderr (- for none)"
		for f in "$dir"/*.yaml "$dir"/*.json; do
			run "$f" "$SKEWER" explain "$f"
			printf '%s\t%s\t%s\n' "${f#"$dir"/}" "$rc" "$(first_line)"
		done
	} >"$dir/EXPECTED"
	echo "wrote $dir/EXPECTED"
	exit 0
fi

# Everything of this part runs on a read-only copy (part 4 compares the
# checksums), from its root so that the paths in EXPECTED hold.
# a private copy of the binary: a concurrent `make` may relink the original
skewer_abs=$tmp/skewer-under-test
cp "$(command -v "$SKEWER")" "$skewer_abs" || { echo "FAIL: cannot copy $SKEWER" >&2; exit 1; }
ro=$tmp/ro
mkdir -p "$ro/$dir" "$ro/scenarios" "$ro/tests/realistic"
cp "$dir"/* "$ro/$dir"/
cp scenarios/*.yaml "$ro/scenarios"/
cp tests/realistic/*.yaml tests/realistic/*.json "$ro/tests/realistic"/ 2>/dev/null
chmod -R a-w "$ro"
(cd "$ro" && find . -type f -exec sha256sum {} + | sort) >"$tmp/before"
here=$PWD
cd "$ro" || exit 1
# Under the sanitizers every run costs ~50 ms: validate, render and the
# default command then run only on the files that load.
full=true
case ${BUILD:-} in *asan*) full=false ;; esac

n=0
while IFS=$'\t' read -r name want_rc want_first; do
	case $name in '' | '#'*) continue ;; esac
	f=$dir/$name
	[ -f "$f" ] || { bad "$name: listed in EXPECTED but missing"; continue; }
	n=$((n + 1))
	run "$name" "$skewer_abs" explain "$f"
	[ "$rc" = "$want_rc" ] || bad "$name: explain exited $rc, expected $want_rc"
	got=$(first_line)
	[ "$got" = "$want_first" ] || bad "$name: first line
      got:      $got
      expected: $want_first"
	explain_rc=$rc
	run "$name" "$skewer_abs" explain --json "$f"
	[ "$rc" = "$explain_rc" ] || bad "$name: explain --json exited $rc, explain $explain_rc"
	$full || [ "$explain_rc" = 0 ] || continue
	run "$name" "$skewer_abs" render "$f"
	[ "$rc" = "$explain_rc" ] || bad "$name: render exited $rc, explain $explain_rc"
	run "$name" "$skewer_abs" validate "$f"
	# validate exits 2 for an invalid pod as well, so only a load error binds it
	if [ "$explain_rc" = 2 ] && [ "$rc" != 2 ]; then
		bad "$name: validate exited $rc on input explain refuses"
	fi
	# `skewer FILE` (the interactive interface on a terminal): a load
	# error is exit status 2 there too
	run "$name" "$skewer_abs" "$f"
	if [ "$explain_rc" = 2 ] && [ "$rc" != 2 ]; then
		bad "$name: 'skewer FILE' exited $rc on input explain refuses"
	fi
done <"$dir/EXPECTED"
# check loads each file on its own: one run over the whole corpus
run corpus "$skewer_abs" check "$dir"/*.yaml "$dir"/*.json
[ "$rc" != 0 ] || bad "check passed the whole hostile corpus"
# every command on the scenarios as well (read-only inputs)
for f in scenarios/*.yaml tests/realistic/*; do
	[ -f "$f" ] || continue
	for cmd in "explain" "explain --json" "validate" "render"; do
		# shellcheck disable=SC2086
		run "$f" "$skewer_abs" $cmd "$f"
	done
done
run scenarios "$skewer_abs" check scenarios/*.yaml
cd "$here" || exit 1
(cd "$ro" && find . -type f -exec sha256sum {} + | sort) >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad "an input file changed: $(diff "$tmp/before" "$tmp/after" | head -5)"
[ "$(cd "$ro" && find . | wc -l)" = "$(($(wc -l <"$tmp/before") + $(cd "$ro" && find . -type d | wc -l)))" ] ||
	bad "a file appeared beside the inputs"

# every file of the corpus is listed
for f in "$dir"/*.yaml "$dir"/*.json; do
	grep -q "^${f#"$dir"/}	" "$dir/EXPECTED" || bad "${f#"$dir"/}: not in $dir/EXPECTED"
done
[ "$n" -ge 100 ] || bad "only $n files in $dir/EXPECTED (expected at least 100)"

# ---- 2. made here ----
# expect_first NAME RC TEXT CMD...: exit status and a substring of line 1
expect_first() {
	local name=$1 want_rc=$2 text=$3
	shift 3
	run "$name" "$@"
	[ "$rc" = "$want_rc" ] || bad "$name: exited $rc, expected $want_rc"
	head -n 1 "$tmp/err" | grep -qF -- "$text" ||
		bad "$name: first line '$(head -n 1 "$tmp/err")' lacks '$text'"
}

printf 'x: ' >"$tmp/deep-flow.yaml"
head -c 100000 /dev/zero | tr '\0' '[' >>"$tmp/deep-flow.yaml"
head -c 100000 /dev/zero | tr '\0' ']' >>"$tmp/deep-flow.yaml"
expect_first deep-flow 2 "deep-flow.yaml:1:67: nesting deeper than 64 levels (expected at most 64)" \
	"$SKEWER" explain "$tmp/deep-flow.yaml"
head -c 200000 /dev/zero | sed 's/\x00\x00/- /g' >"$tmp/deep-block.yaml"
echo x >>"$tmp/deep-block.yaml"
expect_first deep-block 2 "nesting deeper than 64 levels" "$SKEWER" explain "$tmp/deep-block.yaml"
{
	printf 'kind: Pod\nmetadata:\n  name: p\n  annotations: '
	head -c 100000 /dev/zero | tr '\0' '{'
} >"$tmp/deep-skipped.yaml"
expect_first deep-skipped 2 "deep-skipped.yaml:4:78: nesting deeper than 64 levels" \
	"$SKEWER" explain "$tmp/deep-skipped.yaml"

{
	printf 'nodes:\n  - name: '
	head -c 100000000 /dev/zero | tr '\0' a
	printf '\n'
} >"$tmp/big-scalar.yaml"
expect_first big-scalar 2 "big-scalar.yaml:2:11: scalar of 100000000 bytes is too long (expected at most 1048576 bytes)" \
	"$SKEWER" explain "$tmp/big-scalar.yaml"
{
	printf 'kind: Pod\nmetadata:\n  name: p\n  annotations:\n    big: '
	head -c 2000000 /dev/zero | tr '\0' a
	printf '\n'
} >"$tmp/big-annotation.yaml"
# a field skewer does not read is skipped unstored: no scalar limit there
run big-annotation "$SKEWER" explain "$tmp/big-annotation.yaml"
[ "$rc" = 0 ] || bad "big-annotation: a 2 MB annotation made explain exit $rc"
rm -f "$tmp/big-scalar.yaml" "$tmp/big-annotation.yaml"

{
	echo 'nodes:'
	seq -f '  - {name: n%.0f}' 1 100001
} >"$tmp/many-nodes.yaml"
expect_first many-nodes 2 "many-nodes.yaml:100002:5: more than 100000 nodes (expected at most 100000)" \
	"$SKEWER" explain "$tmp/many-nodes.yaml"
rm -f "$tmp/many-nodes.yaml"

{
	printf 'nodes:\n  - name: n1\n    labels:\n'
	seq -f '      k%.0f: v' 1 50001
} >"$tmp/many-labels.yaml"
expect_first many-labels 2 "many-labels.yaml:4:7: more than 50000 entries in one mapping (expected at most 50000)" \
	"$SKEWER" explain "$tmp/many-labels.yaml"
{
	printf 'nodes:\n  - name: n1\n    taints:\n'
	seq -f '      - {key: k%.0f, effect: NoSchedule}' 1 15000
	printf 'steps:\n  - schedule:\n      name: p\n      tolerations:\n'
	seq -f '        - {key: k%.0f, operator: Exists}' 15000 -1 1
} >"$tmp/taints-tolerations.yaml"
run taints-tolerations "$SKEWER" explain "$tmp/taints-tolerations.yaml"
[ "$rc" = 0 ] || bad "15,000 taints and tolerations: explain exited $rc"
rm -f "$tmp/many-labels.yaml" "$tmp/taints-tolerations.yaml"

expect_first directory 2 "$dir: cannot read file: Is a directory (expected a file, not a directory)" \
	"$SKEWER" explain "$dir"
expect_first missing 2 "$tmp/nope.yaml: cannot read file: No such file or directory" \
	"$SKEWER" explain "$tmp/nope.yaml"
expect_first binary 2 "control characters are not allowed #7F at byte 0 (expected UTF-8 text)" \
	"$SKEWER" explain "$SKEWER"
expect_first dev-null 2 "/dev/null: file is empty" "$SKEWER" explain /dev/null
expect_first stdin 2 "<stdin>:2:1: tab character in indentation (expected spaces)" \
	bash -c 'printf "nodes:\n\t- x\n" | "$1" explain -' _ "$SKEWER"
# a JSON stream on a pipe, as `kubectl get -o json | jq -c '.items[]'` writes it
run stdin-json-stream bash -c 'cat "$1" | "$2" explain -' _ "$dir/ok-json-stream-lines.json" "$SKEWER"
[ "$rc" = 0 ] || bad "a JSON stream on standard input: explain exited $rc"
expect_first stdin-json-stream-dash 2 "<stdin>:3:1: '---' in a JSON stream" \
	bash -c 'cat "$1" | "$2" explain -' _ "$dir/bad-json-stream-dash.json" "$SKEWER"
if [ "$(id -u)" != 0 ]; then
	printf 'nodes: []\n' >"$tmp/unreadable.yaml"
	chmod 000 "$tmp/unreadable.yaml"
	expect_first unreadable 2 "unreadable.yaml: cannot read file: Permission denied (expected a readable file)" \
		"$SKEWER" explain "$tmp/unreadable.yaml"
fi
expect_first bad-selector 2 "--selector: invalid label filter 'a=b=c' (expected a selector such as app=web,tier!=db)" \
	"$SKEWER" explain -l 'a=b=c' scenarios/tour.yaml
# --kube-version on every command that loads a scenario: a bad value is a
# usage error (exit 2) that names the option and the range
for cmd in explain "explain --json" "explain --worksheet" check validate render fix search tui; do
	for v in 1.x 137 v1.37.0-rc.1 1.26 1.39 1.3; do
		# shellcheck disable=SC2086
		expect_first "kube-version-$cmd-$v" 2 "--kube-version: " "$SKEWER" $cmd --kube-version "$v" scenarios/tour.yaml
	done
	# shellcheck disable=SC2086
	expect_first "kube-version-$cmd-missing" 2 "--kube-version needs a version" "$SKEWER" $cmd --kube-version
done
expect_first kube-version-range 2 "Kubernetes version '1.39' is outside the simulated range (expected 1.27 to 1.38" \
	"$SKEWER" check --kube-version 1.39 scenarios/tour.yaml
expect_first kube-version-float 2 'did you mean "1.30"?' "$SKEWER" explain --kube-version 1.3 scenarios/tour.yaml
# several bad files: each one's problems, at most a screenful in all
expect_first several 2 "$dir/bad-dup-node.yaml:4:5: duplicate node 'n1'" \
	"$SKEWER" explain "$dir/bad-dup-node.yaml" "$dir/bad-alias-bomb.yaml" "$dir/bad-tab-indent.yaml"

# ---- 3. validation outcomes ----
run invalid "$SKEWER" check "$dir"/invalid-*.yaml
[ "$rc" = 0 ] || { bad "skewer check $dir/invalid-*.yaml exited $rc"; cat "$tmp/out" >&2; }
msg='spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'
q=$dir/invalid-queued-pod-object.yaml
for cmd in "explain" "explain --json" "validate"; do
	# shellcheck disable=SC2086
	run queued "$SKEWER" $cmd "$q"
	grep -qF "$msg" "$tmp/out" "$tmp/err" || bad "'$cmd $q' does not report: $msg"
done
run queued "$SKEWER" explain "$q"
grep -q 'Step 2/3: schedule shop/fine' "$tmp/out" && grep -q 'Step 3/3: schedule default/last' "$tmp/out" ||
	bad "the scenario does not go on after the invalid pod"

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)" >&2
	exit 1
fi
echo "ok: $n corpus files, generated inputs, validation outcomes, read-only inputs"
