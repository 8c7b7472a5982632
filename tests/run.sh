#!/usr/bin/env bash
# run.sh - the checks of `make test`, in order, once make has built ./skewer,
# build-asan/skewer and every test program. One line per check (the output
# of a failing one follows it), then a summary line; exits 1 if any failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shopt -s nullglob

pass=0
fail=0
failed=()

# check NAME COMMAND...
check() {
	local name=$1 log
	shift
	log=$(mktemp)
	if "$@" >"$log" 2>&1; then
		pass=$((pass + 1))
		printf 'ok    %s\n' "$name"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL  %s\n' "$name"
		# drop the lines of passing cmocka tests, keep the rest
		grep -vE '^\[ +(RUN|OK) +\] ' "$log" | tail -n 80 | sed 's/^/      /'
	fi
	rm -f "$log"
}

# suite LABEL BUILD_DIR SKEWER: unit tests, then scenario files
suite() {
	local label=$1 dir=$2 bin=$3 src t
	for src in tests/test_*.c; do
		t=$(basename "$src" .c)
		check "$label $t" "$dir/tests/$t"
	done
	local scen=(scenarios/*.yaml) upstream=(../shared/conformance/upstream/*.yaml)
	if [ ${#scen[@]} -gt 0 ]; then
		check "$label skewer check scenarios/ (${#scen[@]} files)" "$bin" check "${scen[@]}"
	fi
	# CI has the shared conformance cases beside the clone
	if [ ${#upstream[@]} -gt 0 ]; then
		check "$label skewer check upstream conformance (${#upstream[@]} files)" \
			"$bin" check "${upstream[@]}"
	fi
	# the autoscaler cases: skewer's own, and the shared ones when present
	local as=(tests/autoscale/*.yaml)
	[ -d ../shared/conformance/v2/autoscalers ] && as+=(../shared/conformance/v2/autoscalers/*.yaml)
	check "$label skewer check autoscaler cases (${#as[@]} files)" "$bin" check "${as[@]}"
	# the controllers' cases: skewer's own (from the upstream unit tests),
	# and the shared ones when present
	local ctl=(tests/controllers/*.yaml)
	[ -d ../shared/conformance/v2/controllers ] && ctl+=(../shared/conformance/v2/controllers/*.yaml)
	check "$label skewer check controller cases (${#ctl[@]} files)" "$bin" check "${ctl[@]}"
	# further checks: each tests/checks/NAME.sh runs with $SKEWER set to
	# the binary under test and $BUILD to its build directory
	local script
	for script in tests/checks/*.sh; do
		check "$label $(basename "$script" .sh)" env SKEWER="$bin" BUILD="$dir" bash "$script"
	done
}

suite plain build ./skewer

# each layer includes only the layers below it: util/ nothing, model/
# no curses, libyaml, load/ or front end, tui/ no cli/ (scripts/layers.sh)
check "layers: util, model, load, gen, cli, tui include only what is below" \
	scripts/layers.sh

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
suite asan build-asan build-asan/skewer

if [ "$fail" -ne 0 ]; then
	printf 'failed: %s\n' "$(IFS=,; echo "${failed[*]}" | sed 's/,/, /g')"
fi
# the closing line CI reads: checks, plain and under ASan/UBSan
printf 'checks: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
