#!/usr/bin/env bash
# gen.sh - `skewer gen`: deterministic for a seed, both formats load, every
# generated pod is valid, and the scenario and kubectl forms of the same
# cluster give the same decisions (explain --json, step by step).
set -euo pipefail
: "${SKEWER:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=(--nodes 40 --zones 4 --regions 2 --pods 900 --constraints 4 --steps 40 --seed 7)
"$SKEWER" gen "${args[@]}" -o "$tmp/a.yaml"
"$SKEWER" gen "${args[@]}" >"$tmp/b.yaml"
cmp -s "$tmp/a.yaml" "$tmp/b.yaml" || fail "same seed, different output (-o vs stdout)"
"$SKEWER" gen "${args[@]}" --format kubectl -o "$tmp/k.yaml"
"$SKEWER" gen "${args[@]/7/8}" -o "$tmp/c.yaml"
cmp -s "$tmp/a.yaml" "$tmp/c.yaml" && fail "seeds 7 and 8 gave the same output"

# both load, every pod passes validation, no loader warning
for f in a k; do
	out=$("$SKEWER" validate "$tmp/$f.yaml" 2>"$tmp/$f.err") || fail "validate $f.yaml: $out $(cat "$tmp/$f.err")"
	[ "$out" = "ok: 40 nodes, 900 pods, 40 steps" ] || fail "validate $f.yaml said: $out"
	[ ! -s "$tmp/$f.err" ] || fail "warnings for $f.yaml: $(cat "$tmp/$f.err")"
done
grep -q '^kind: List$' "$tmp/k.yaml" || fail "kubectl form is not a List"
grep -q 'managedFields:' "$tmp/k.yaml" || fail "kubectl form has no managedFields"

# the same decisions from both forms: outcome and node of every step
"$SKEWER" explain --json "$tmp/a.yaml" >"$tmp/a.json"
"$SKEWER" explain --json "$tmp/k.yaml" >"$tmp/k.json"
steps() { # the step-level "outcome" and "node" fields, in order
	grep -oE '"(outcome|node)": *("[^"]*"|null)' "$1"
}
steps "$tmp/a.json" >"$tmp/a.steps"
steps "$tmp/k.json" >"$tmp/k.steps"
[ "$(grep -c '"outcome"' "$tmp/a.steps")" -eq 40 ] || fail "expected 40 steps in explain --json"
grep -q '"outcome": *"scheduled"' "$tmp/a.steps" || fail "no pod was scheduled"
grep -qE '"outcome": *"(invalid|error)"' "$tmp/a.steps" && fail "a generated pod was invalid or errored"
diff "$tmp/a.steps" "$tmp/k.steps" >/dev/null || fail "scenario and kubectl forms placed pods differently"
if command -v python3 >/dev/null; then
	# stronger: the whole per-step record (constraints, domains, every
	# node's verdict and scores) is the same
	python3 - "$tmp/a.json" "$tmp/k.json" <<'EOF' || fail "explain --json steps differ between the forms"
import json, sys
a, b = (json.load(open(p))["steps"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
fi

# bad options are usage errors
rc=0; "$SKEWER" gen --nodes 0 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "gen --nodes 0 exited $rc"
rc=0; "$SKEWER" gen --zones 5 --nodes 3 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "gen with more zones than nodes exited $rc"
rc=0; "$SKEWER" gen --format xml >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "gen --format xml exited $rc"
rc=0; "$SKEWER" gen --constraints 99 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "gen --constraints 99 exited $rc"
# --kube-version, as every command takes it: checked the same way, and
# recorded so that both forms load as that release; without it nothing
# of it is written
for v in 1.20 1.x ""; do
	rc=0; "$SKEWER" gen --kube-version "$v" >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "gen --kube-version '$v' exited $rc"
done
rc=0; "$SKEWER" gen --kube-version >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "gen --kube-version without a value exited $rc"
grep -q 'version' "$tmp/a.yaml" && fail "gen without --kube-version wrote a version"
for fmt in scenario kubectl; do
	"$SKEWER" gen --nodes 6 --pods 30 --steps 2 --kube-version 1.31 --format $fmt -o "$tmp/v.yaml"
	out=$("$SKEWER" explain "$tmp/v.yaml")
	grep -q '^Simulated: Kubernetes 1.31$' <<<"$out" ||
		fail "gen --kube-version 1.31 --format $fmt does not load as 1.31"
done
"$SKEWER" gen --nodes 6 --pods 30 --steps 2 --kube-version 1.34.1 -o "$tmp/v.yaml"
grep -q '^  version: "1.34.1"$' "$tmp/v.yaml" || fail "gen --kube-version 1.34.1: no scheduler.version"

# the extremes still give loadable files
"$SKEWER" gen --nodes 1 --zones 1 --pods 0 --steps 3 --constraints 10 -o "$tmp/tiny.yaml"
"$SKEWER" validate "$tmp/tiny.yaml" >/dev/null || fail "tiny cluster does not validate"
"$SKEWER" gen --nodes 5 --zones 2 --pods 50 --steps 0 --constraints 0 --format kubectl -o "$tmp/nosteps.yaml"
"$SKEWER" validate "$tmp/nosteps.yaml" >/dev/null || fail "cluster without steps does not validate"
echo ok
