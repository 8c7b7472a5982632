#!/usr/bin/env bash
# fuzz.sh - a short, bounded libFuzzer pass over the loader and the whole
# explain path (fuzz/fuzz_explain.c), in the sanitized suite only (the
# fuzzer carries ASan and UBSan itself). First every committed input runs
# once (fuzz/regressions/, tests/hostile/, scenarios/), then the fuzzer
# mutates them for $FUZZ_SECONDS seconds (default 20). Skipped, with a
# message, when clang cannot build a libFuzzer target.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
case ${BUILD:-} in
*asan*) ;;
*) echo "skipped: the fuzz pass runs once, in the sanitized suite"; exit 0 ;;
esac
secs=${FUZZ_SECONDS:-20}
cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null; then
	echo "skipped: $cc not found (libFuzzer needs clang)"
	exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
	echo "skipped: $cc cannot link -fsanitize=fuzzer (no libFuzzer)"
	exit 0
fi
if ! make -s build/fuzz/fuzz_explain FUZZ_CC="$cc" >"$probe/build.log" 2>&1; then
	echo "FAIL: cannot build build/fuzz/fuzz_explain" >&2
	tail -n 30 "$probe/build.log" >&2
	exit 1
fi
fz=build/fuzz/fuzz_explain
mkdir -p build/fuzz/crashes
opts=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -dict=fuzz/yaml.dict
	-artifact_prefix=build/fuzz/crashes/)

# every committed input once
inputs=(fuzz/regressions/* tests/hostile/*.yaml tests/hostile/*.json scenarios/*.yaml)
if ! "$fz" "${opts[@]}" -runs=1 "${inputs[@]}" >"$probe/replay.log" 2>&1; then
	echo "FAIL: a committed input crashes the explain path" >&2
	grep -E 'Running:|ERROR|runtime error|SUMMARY' "$probe/replay.log" | tail -n 20 >&2
	exit 1
fi

# then a bounded mutation pass from those seeds
mkdir -p "$probe/corpus"
cp fuzz/regressions/* scenarios/*.yaml "$probe/corpus"/
for f in tests/hostile/*.yaml tests/hostile/*.json; do
	[ "$(wc -c <"$f")" -le 65536 ] && cp "$f" "$probe/corpus"/
done
if ! "$fz" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 "$probe/corpus" >"$probe/fuzz.log" 2>&1; then
	echo "FAIL: the fuzzer found a problem (artifact in build/fuzz/crashes/)" >&2
	grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$probe/fuzz.log" | tail -n 20 >&2
	exit 1
fi
runs=$(grep -m1 'stat::number_of_executed_units' "$probe/fuzz.log" | awk '{print $2}')
echo "ok: ${#inputs[@]} committed inputs replayed, ${runs:-?} fuzz runs in ${secs}s"
