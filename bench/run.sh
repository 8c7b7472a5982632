#!/usr/bin/env bash
# bench/run.sh - what `make bench` runs once it has built ./skewer and
# build-bench/ bench, yamlparse and yamlparse-yalloc. Generates the inputs
# into build-bench/ (cached by size and seed), runs each probe, takes medians
# and prints ONE markdown table with the machine's description; the table
# goes into docs/performance.md as is. Times are CPU time of the measured
# process (user + system), so other load on the machine disturbs them less.
#
# Environment: BENCH_RUNS (default 5) runs per row; BENCH_SEED (default 42);
# BENCH_CALLGRIND=0 skips the instruction count; BENCH_NODES, BENCH_PODS,
# BENCH_STEPS, BENCH_NODES_S, BENCH_PODS_S, BENCH_STEPS_S, BENCH_REPLAY and
# BENCH_JUMP change the sizes. BENCH_ROWS=debugging runs only the rows of
# skewer fix and skewer search (a minute; the table's header and those
# rows); BENCH_ROWS=autoscale only the row of a scaleUp (a minute). Takes ten to fifteen minutes on two cores, most
# of it generating and loading the 1 GB kubectl dump (once per run of the
# pair with its bare parse).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

B=build-bench
SK=./skewer
RUNS=${BENCH_RUNS:-5}
SEED=${BENCH_SEED:-42}
# sizes (overridable, e.g. for a quick smoke run)
NODES=${BENCH_NODES:-5000} ZONES=3 PODS=${BENCH_PODS:-150000} STEPS=${BENCH_STEPS:-10000} K=3
NODES_S=${BENCH_NODES_S:-500} PODS_S=${BENCH_PODS_S:-15000} STEPS_S=${BENCH_STEPS_S:-1000}
REPLAY=${BENCH_REPLAY:-10000} JUMP=${BENCH_JUMP:-9000}
AT=10            # placements are timed from this step on
mkdir -p "$B"

say() { printf '%s\n' "$*" >&2; }

# gen OUT ARGS...: generate once; the file name carries every parameter
gen() {
	local out=$1
	shift
	if [ ! -s "$out" ]; then
		say "bench: generating $out"
		"$SK" gen "$@" -o "$out.tmp"
		mv "$out.tmp" "$out"
	fi
}
BIG=$B/n$NODES-z$ZONES-p$PODS-s$STEPS-k$K-seed$SEED.yaml
BIGK=$B/n$NODES-z$ZONES-p$PODS-s$STEPS-k$K-seed$SEED-kubectl.yaml
SMALL=$B/n$NODES_S-z$ZONES-p$PODS_S-s$STEPS_S-k$K-seed$SEED.yaml
SMALLK=$B/n$NODES_S-z$ZONES-p$PODS_S-s$STEPS_S-k$K-seed$SEED-kubectl.yaml
# a dump small enough for callgrind: the loader's instructions against the
# bare parse's, a ratio that does not move with the machine
TINYK=$B/n100-z$ZONES-p3000-s300-k$K-seed$SEED-kubectl.yaml
common=(--zones "$ZONES" --constraints "$K" --seed "$SEED")
ONLY=${BENCH_ROWS:-all}
[ "$ONLY" = autoscale ] || gen "$BIG" --nodes $NODES --pods $PODS --steps $STEPS "${common[@]}"
if [ "$ONLY" = all ]; then
	gen "$BIGK" --nodes $NODES --pods $PODS --steps $STEPS "${common[@]}" --format kubectl
	gen "$SMALL" --nodes $NODES_S --pods $PODS_S --steps $STEPS_S "${common[@]}"
	gen "$SMALLK" --nodes $NODES_S --pods $PODS_S --steps $STEPS_S "${common[@]}" --format kubectl
	gen "$TINYK" --nodes 100 --pods 3000 --steps 300 "${common[@]}" --format kubectl
fi

# median of the numbers on stdin (one per line)
median() { sort -g | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "nan"}'; }
# col N: field N of each line on stdin
col() { awk -v n="$1" '{print $n}'; }
calc() { awk "BEGIN {printf \"$1\", $2}"; }
us() { calc '%.1f' "$1 * 1e6"; }
ms() { calc '%.2f' "$1 * 1e3"; }
mib() { calc '%.0f' "$1 / 1024"; }
# grp N: N with thousands separators (the C.UTF-8 locale has none for %'d)
grp() { printf '%s\n' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN {print (v <= t) ? "met" : "MISSED"}'; }
# ir_of OUT: the instruction total of a callgrind output file
ir_of() { awk '/^totals:/ {t = $2} /^summary:/ {s = $2} END {print (t != "") ? t : s}' "$1"; }

# skewer fix and skewer search (debugging contract sections 3-4): all the
# fixes of one pending pod at $NODES nodes (bench.c mode_fix: a copy of
# step AT's pod that asks for more cpu than any node has free), the Redis
# note's search in both choice modes, and the complete search over 3
# StatefulSets x 4 pods on 3 zones x 4 nodes (bench/search-3x4.yaml).
debugging_rows() {
	say "bench: skewer fix at $NODES nodes"
	local fx sr sf s34 i
	fx=$(for ((i = 0; i < RUNS; i++)); do "$B/bench" fix "$BIG" $AT 3; done)
	local fx_t fx_n fx_c
	fx_t=$(echo "$fx" | col 1 | median)
	read -r _ fx_n fx_c < <(echo "$fx" | tail -1)
	say "bench: skewer search"
	sr=$("$B/bench" search scenarios/redis-natural-order.yaml ties "$RUNS")
	sf=$("$B/bench" search scenarios/redis-natural-order.yaml feasible "$RUNS")
	s34=$("$B/bench" search bench/search-3x4.yaml feasible "$RUNS")
	local sr_t sr_n sf_t sf_n s34_t s34_n s34_r s34_c worst
	read -r sr_t sr_n _ _ _ < <(echo "$sr")
	read -r sf_t sf_n _ _ _ < <(echo "$sf")
	read -r s34_t s34_n s34_r _ s34_c < <(echo "$s34")
	worst=$(awk -v a="$sr_t" -v b="$sf_t" 'BEGIN {print (a > b) ? a : b}')
	echo "| skewer fix: every fix of one pending pod (each kind, at most 3, each verified by a cycle), $NODES nodes, $PODS pods | $(ms "$fx_t") ms ($fx_n fixes, $fx_c cycles to verify) | <= 200 ms | $(verdict "$fx_t" 0.2) |"
	echo "| skewer search: the Redis note (3 zones x 2 nodes, 3 StatefulSets x 2 pods), to the deadlock | ties $(ms "$sr_t") ms ($sr_n states), feasible $(ms "$sf_t") ms ($sf_n states) | <= 0.1 s | $(verdict "$worst" 0.1) |"
	local nc=""
	[ "$s34_c" = 1 ] || nc=", NOT complete"
	echo "| skewer search --choices feasible: 3 StatefulSets x 4 pods on 3 zones x 4 nodes (bench/search-3x4.yaml), complete | $(calc '%.2f' "$s34_t") s, $(grp "$s34_n") states, $(grp "$s34_r") states/s$nc | <= 10 s | $(verdict "$s34_t" 10) |"
}
# the cluster autoscaler (issue 23): one scaleUp over 100 node groups
# (selector members, 50 nodes each, 4 sizes, 3 zones, 7 prices), 1,000
# pending pods of 10 ReplicaSets (1 or 2 cpu, a hard zone spread each)
# and $NODES nodes, every one full (a bound pod takes all its cpu);
# written by awk, no randomness. bench.c mode_scaleup times the step
# alone, after the 1,000 pending pods' own cycles; the instruction count
# (callgrind around the step only) does not move with the machine.
AS_GROUPS=100 AS_PODS=1000
as_gen() { # -> the scenario on stdout
	local tsc='topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: APP}}}]'
	echo "nodeGroups:"
	awk -v g="$AS_GROUPS" 'BEGIN {for (i = 0; i < g; i++) printf "  - {name: ng%d, max: 1000, selector: {pool: ng%d}, price: %.3f}\n", i, i, 0.1 + (i % 7) * 0.05}'
	echo "nodes:"
	awk -v n="$NODES" -v g="$AS_GROUPS" 'BEGIN {for (i = 0; i < n; i++) {k = i % g; printf "  - {name: n%d, labels: {kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d, pool: ng%d}, allocatable: {cpu: \"%d\", memory: %dGi, pods: \"110\"}}\n", i, i, k % 3, k, 4 * (1 + k % 4), 16 * (1 + k % 4)}}'
	echo "pods:"
	awk -v n="$NODES" -v g="$AS_GROUPS" 'BEGIN {for (i = 0; i < n; i++) {k = i % g; printf "  - {name: fill-%d, nodeName: n%d, requests: {cpu: \"%d\"}}\n", i, i, 4 * (1 + k % 4)}}'
	awk -v p="$AS_PODS" -v t="$tsc" 'BEGIN {for (i = 0; i < p; i++) {d = i % 10; s = t; sub("APP", "web" d, s); printf "  - {name: web%d-%d, labels: {app: web%d}, ownerReferences: [{kind: ReplicaSet, name: web%d}], requests: {cpu: \"%d\", memory: 1Gi}, %s}\n", d, i, d, d, 1 + d % 2, s}}'
	echo "steps:"
	echo "  - scaleUp: {}"
}
autoscale_row() {
	local f=$B/scaleup-g$AS_GROUPS-p$AS_PODS-n$NODES.yaml runs i
	[ -s "$f" ] || as_gen >"$f"
	say "bench: a scaleUp over $AS_GROUPS node groups, $AS_PODS pending pods, $NODES nodes"
	runs=$(for ((i = 0; i < RUNS; i++)); do "$B/bench" scaleup "$f" 2>/dev/null; done)
	local as_t as_p as_o as_a as_ir=""
	as_t=$(echo "$runs" | col 1 | median)
	read -r _ as_p as_o as_a < <(echo "$runs" | tail -1)
	if [ "${BENCH_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null && [ "$("$B/bench" has-callgrind)" = 1 ]; then
		say "bench: counting the scaleUp's instructions (callgrind)"
		if valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$B/callgrind-scaleup.out" \
			"$B/bench" scaleup "$f" >/dev/null 2>"$B/callgrind-scaleup.log"; then
			as_ir="; $(grp "$(ir_of "$B/callgrind-scaleup.out")") Ir"
		fi
	fi
	echo "| a scaleUp (Cluster Autoscaler): $AS_GROUPS node groups, $AS_PODS pending pods, $NODES nodes (the step alone) | $(calc '%.2f' "$as_t") s ($as_p pods considered, $as_o options, $as_a nodes added$as_ir) | <= 1 s | $(verdict "$as_t" 1) |"
}
if [ "$ONLY" = autoscale ]; then
	echo "skewer bench (BENCH_ROWS=autoscale), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "CPU time of the measuring process; medians of $RUNS runs"
	echo
	echo "| measure | result | target | verdict |"
	echo "|---|---|---|---|"
	autoscale_row
	exit 0
fi
if [ "$ONLY" = debugging ]; then
	echo "skewer bench (BENCH_ROWS=debugging), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "CPU time of the measuring process; medians of $RUNS runs"
	echo
	echo "| measure | result | target | verdict |"
	echo "|---|---|---|---|"
	debugging_rows
	exit 0
fi

# load rows: skewer's loader and the bare parse, RUNS times each, in
# pairs (a load, then a parse of the same file, read from the page
# cache). The ratio is the median of the pairs' ratios: the two of a pair
# run seconds apart, on the machine as it is then, where the medians of
# each may come from minutes apart on a shared machine.
#
# Each run also parses the file with libyaml on skewer's allocator
# (load/yalloc.c, as the loader runs libyaml): the load's ratio to that
# parse is the loader's own share, apart from the allocator's gain.
load_row() { # FILE -> "load_s rss_kib bare_s bare_rss_kib timeline_s ratio yalloc_s yalloc_ratio"
	local f=$1 i l=() y=() r=() a=() q=()
	for ((i = 0; i < RUNS; i++)); do
		say "bench: load $(basename "$f") run $((i + 1))/$RUNS"
		# the file into the page cache first, untimed: the loader runs
		# first in a pair and would otherwise pay alone for reading it
		# from the disk
		cat "$f" >/dev/null
		l+=("$("$B/bench" load "$f")")
		y+=("$("$B/yamlparse" "$f")")
		a+=("$("$B/yamlparse-yalloc" "$f")")
		r+=("$(calc '%.4f' "$(echo "${l[i]}" | col 1) / $(echo "${y[i]}" | col 1)")")
		q+=("$(calc '%.4f' "$(echo "${l[i]}" | col 1) / $(echo "${a[i]}" | col 1)")")
	done
	printf '%s %s %s %s %s %s %s %s\n' \
		"$(printf '%s\n' "${l[@]}" | col 1 | median)" "$(printf '%s\n' "${l[@]}" | col 2 | median)" \
		"$(printf '%s\n' "${y[@]}" | col 1 | median)" "$(printf '%s\n' "${y[@]}" | col 2 | median)" \
		"$(printf '%s\n' "${l[@]}" | col 3 | median)" "$(printf '%s\n' "${r[@]}" | median)" \
		"$(printf '%s\n' "${a[@]}" | col 1 | median)" "$(printf '%s\n' "${q[@]}" | median)"
}
read -r ls_t ls_m ys_t ys_m ls_w ls_r ls_at ls_ar < <(load_row "$BIG")
read -r lk_t lk_m yk_t yk_m lk_w lk_r lk_at lk_ar < <(load_row "$BIGK")
read -r lq_t lq_m yq_t yq_m lq_w lq_r lq_at lq_ar < <(load_row "$SMALLK")
size_s=$(stat -c %s "$BIG")
size_k=$(stat -c %s "$BIGK")
size_q=$(stat -c %s "$SMALLK")

# The instruction count does not depend on timing; it runs after the load
# rows and before the timed rows, alone: a second process on the
# machine's memory makes every timed row vary, the load rows too (their
# ratio to the bare parse moved with it).
CG=$B/callgrind
cg_pid=
if [ "${BENCH_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	(
		set -e
		# WARM 0: the step's first cycle; WARM 1: the same cycle again
		for warm in 0 1; do
			if [ "$("$B/bench" has-callgrind)" = 1 ]; then
				# instrumentation only around timeline_step (CALLGRIND macros)
				valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$CG-$warm.out" \
					"$B/bench" one-verdicts "$BIG" $AT $warm 1 >/dev/null 2>"$CG-$warm.log"
				ir_of "$CG-$warm.out" >"$CG-$warm.ir"
			else
				# no callgrind.h: two placements minus one
				for n in 1 2; do
					valgrind --tool=callgrind --callgrind-out-file="$CG-$warm.out.$n" \
						"$B/bench" one-verdicts "$BIG" $AT $warm $n >/dev/null 2>"$CG-$warm.log"
				done
				a=$(ir_of "$CG-$warm.out.1")
				b=$(ir_of "$CG-$warm.out.2")
				echo $((b - a)) >"$CG-$warm.ir"
				cp "$CG-$warm.out.2" "$CG-$warm.out"
			fi
			callgrind_annotate "$CG-$warm.out" >"$CG-$warm.txt" 2>/dev/null || true
			callgrind_annotate --inclusive=yes "$CG-$warm.out" >"$CG-$warm.incl.txt" 2>/dev/null || true
		done
		# the whole process: a load to a timeline ready to step, and a
		# bare parse of the same file
		valgrind --tool=callgrind --callgrind-out-file="$CG-load.out" \
			"$B/bench" load "$TINYK" >/dev/null 2>"$CG-load.log"
		ir_of "$CG-load.out" >"$CG-load.ir"
		valgrind --tool=callgrind --callgrind-out-file="$CG-parse.out" \
			"$B/yamlparse" "$TINYK" >/dev/null 2>"$CG-parse.log"
		ir_of "$CG-parse.out" >"$CG-parse.ir"
		valgrind --tool=callgrind --callgrind-out-file="$CG-yparse.out" \
			"$B/yamlparse-yalloc" "$TINYK" >/dev/null 2>"$CG-yparse.log"
		ir_of "$CG-yparse.out" >"$CG-yparse.ir"
	) &
	cg_a=$!
	(
		set -e
		# the mean over 100 consecutive first cycles, which vary with the
		# pod of each step more than one cycle shows; and the same with the
		# whole decision recorded (on the second core: nothing is timed
		# meanwhile)
		if [ "$("$B/bench" has-callgrind)" = 1 ]; then
			valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$CG-run.out" \
				"$B/bench" one-verdicts "$BIG" $AT 0 100 >/dev/null 2>"$CG-run.log"
			echo $(($(ir_of "$CG-run.out") / 100)) >"$CG-run.ir"
			valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$CG-full.out" \
				"$B/bench" one "$BIG" $AT 0 100 >/dev/null 2>"$CG-full.log"
			echo $(($(ir_of "$CG-full.out") / 100)) >"$CG-full.ir"
		fi
	) &
	cg_pid="$cg_a $!"
fi


cg_ok=
if [ -n "$cg_pid" ]; then
	say "bench: counting instructions (callgrind, two runs at a time)"
	cg_ok=1
	for p in $cg_pid; do
		wait "$p" || cg_ok=
	done
fi

# placements with every node's verdict and total (what a step computes):
# the medians of RUNS processes (a load each), each the median of RUNS
# batches. A process runs all its cycles alike, fast or slow: one run
# straight after the 1 GB load rows read every cycle about a fifth slower
# than the processes after it (docs/performance.md, eighth round).
verdicts_row() { # FILE BATCH -> "first again"
	local i runs
	runs=$(for ((i = 0; i < RUNS; i++)); do "$B/bench" verdicts "$1" $AT "$2" "$RUNS"; done)
	echo "$(echo "$runs" | col 1 | median) $(echo "$runs" | col 2 | median)"
}
# then with the whole decision recorded (what explain and the interface
# ask for): RUNS batches in one process (one load)
say "bench: placements at $NODES_S nodes"
read -r v5_t v5_a < <(verdicts_row "$SMALL" 100)
read -r p5_t p5_a < <("$B/bench" place "$SMALL" $AT 100 "$RUNS")
say "bench: placements at $NODES nodes"
read -r v50_t v50_a < <(verdicts_row "$BIG" 20)
read -r p50_t p50_a < <("$B/bench" place "$BIG" $AT 20 "$RUNS")
# a pending pod's cycle with DefaultPreemption's dry run: a copy of step
# AT's pod of the highest user priority asking for 1m more cpu than any
# node has free (bench.c mode_preempt); the median of RUNS processes
say "bench: preemption's dry run at $NODES nodes"
pre_runs=$(for ((i = 0; i < RUNS; i++)); do "$B/bench" preempt "$BIG" $AT "$RUNS"; done)
pre_t=$(echo "$pre_runs" | col 1 | median)
read -r _ pre_out pre_tried pre_victims < <(echo "$pre_runs" | tail -1)
pre_what="nominated a node, $pre_victims victims"
[ "$pre_out" = 4 ] || pre_what="no candidate"

# replay: the first pass (10,000 cycles), then RUNS rounds of undo, redo
# and jumps
say "bench: replay of $REPLAY placements at $NODES nodes, run 1/$RUNS"
read -r r_first r_back r_redo r_fwd r_bwd r_placed < <("$B/bench" replay "$BIG" $REPLAY $JUMP "$RUNS")
# a first pass happens once per timeline: the other runs are processes of
# their own (a load each)
firsts=("$r_first")
for ((i = 1; i < RUNS; i++)); do
	say "bench: replay of $REPLAY placements at $NODES nodes, run $((i + 1))/$RUNS"
	firsts+=("$("$B/bench" replay "$BIG" $REPLAY $JUMP 1 | col 1)")
done
r_first=$(printf '%s\n' "${firsts[@]}" | median)

# one full headless frame (relayout + redraw, 200x60), only when the
# interface exists: build-bench/frame drives tui/'s screen_draw directly,
# since `skewer tui --keys` draws once at the end whatever the keys
frame="n/a (no interface yet)"
frame_verdict="n/a"
if "$SK" help tui >/dev/null 2>&1 && [ -x "$B/frame" ]; then
	say "bench: headless frames at $NODES nodes"
	if fr=$("$B/frame" "$BIG" 200x60 20 "$RUNS"); then
		frame="$(calc '%.2f' "$fr * 1e3") ms CPU (200x60, relayout and full redraw)"
		frame_verdict=$(verdict "$fr" 0.002)
	else
		frame="n/a (build-bench/frame failed)"
	fi
fi

# the instruction counts
ir="n/a (valgrind not found)"
if [ -n "$cg_pid" ]; then
	if [ -n "$cg_ok" ] && [ -s "$CG-0.ir" ] && [ -s "$CG-1.ir" ]; then
		ir="first cycle $(grp "$(cat "$CG-0.ir")") Ir, again $(grp "$(cat "$CG-1.ir")") Ir"
		if [ -s "$CG-run.ir" ]; then
			ir="$ir; mean of 100 consecutive first cycles $(grp "$(cat "$CG-run.ir")") Ir"
		fi
		if [ -s "$CG-full.ir" ]; then
			ir="$ir; whole decision recorded, mean of 100 $(grp "$(cat "$CG-full.ir")") Ir"
		fi
	else
		ir="n/a (callgrind failed, see $CG-*.log)"
	fi
fi
ir_load="n/a (valgrind not found)"
if [ -n "$cg_pid" ]; then
	if [ -n "$cg_ok" ] && [ -s "$CG-load.ir" ] && [ -s "$CG-parse.ir" ]; then
		ir_load="loader $(grp "$(cat "$CG-load.ir")") Ir, bare libyaml $(grp "$(cat "$CG-parse.ir")") Ir: $(calc '%.3f' "$(cat "$CG-load.ir") / $(cat "$CG-parse.ir")")x"
		if [ -s "$CG-yparse.ir" ]; then
			ir_load="$ir_load; on skewer's allocator $(grp "$(cat "$CG-yparse.ir")") Ir: $(calc '%.3f' "$(cat "$CG-load.ir") / $(cat "$CG-yparse.ir")")x"
		fi
	else
		ir_load="n/a (callgrind failed, see $CG-*.log)"
	fi
fi

# the controllers (issue 22): a Deployment of 1,000 pods on $NODES nodes
# scaled down to 1 (ranked, in batches of 500) and rolled out (1,000
# creations, each scheduled, and 1,000 deletions); the CPU time of the
# whole `skewer check` process (load, timeline, the step)
ctl_gen() { # STEP -> the scenario on stdout
	local tsc='topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]'
	echo "nodes:"
	awk -v n="$NODES" 'BEGIN {for (i = 0; i < n; i++) printf "  - {name: n%d, labels: {kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d}}\n", i, i, i % 3}'
	echo "workloads:"
	echo "  - {kind: Deployment, name: web, selector: {app: web}, replicas: 1000, template: {labels: {app: web}, $tsc}}"
	echo "  - {kind: ReplicaSet, name: web-1, owner: Deployment/web, selector: {app: web, pod-template-hash: h1}, replicas: 1000, template: {labels: {app: web, pod-template-hash: h1}, $tsc}}"
	echo "pods:"
	awk -v n="$NODES" -v t="$tsc" 'BEGIN {for (i = 0; i < 1000; i++) printf "  - {name: p%d, nodeName: n%d, labels: {app: web, pod-template-hash: h1}, ownerReferences: [{kind: ReplicaSet, name: web-1}], %s}\n", i, (i * 7) % n, t}'
	echo "steps:"
	echo "  - $1"
}
ctl_row() { # FILE -> median CPU seconds
	local i
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f '%U %S' "$SK" check "$1" 2>&1 >/dev/null | awk 'END {print $1 + $2}'
	done | median
}
say "bench: controllers at $NODES nodes"
CTL_S=$B/ctl-scale-n$NODES.yaml CTL_R=$B/ctl-rollout-n$NODES.yaml
[ -s "$CTL_S" ] || ctl_gen "scale: {kind: Deployment, name: web, replicas: 1}" >"$CTL_S"
[ -s "$CTL_R" ] || ctl_gen "rollout: {name: web, template: {labels: {app: web, v: \"2\"}}}" >"$CTL_R"
ctl_s=$(ctl_row "$CTL_S")
ctl_r=$(ctl_row "$CTL_R")

# ---- the table ----

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git diff --quiet HEAD 2>/dev/null; then
	commit="$commit (with uncommitted changes)"
fi
cflags=$(awk -F'[?]= ' '/^CFLAGS/ {print $2; exit}' Makefile)

lk_ratio=$(calc '%.2f' "$lk_r")
lk_mem=$(calc '%.3f' "$lk_m * 1024 / $size_k")
lq_ratio=$(calc '%.2f' "$lq_r")
lq_mem=$(calc '%.3f' "$lq_m * 1024 / $size_q")
cat <<EOF
skewer bench, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit
machine: ${cpu:-unknown CPU}, $(nproc) cores, $mem, $(gcc --version | head -1), CFLAGS ${cflags:-?}
inputs (skewer gen, seed $SEED): $NODES nodes in $ZONES zones, $PODS bound pods, $STEPS pending pods with $K constraints each; the $NODES_S-node cluster has $PODS_S bound pods
CPU time of the measuring process; medians of $RUNS runs

| measure | result | target | verdict |
|---|---|---|---|
| load, scenario format ($(mib $((size_s / 1024))) MiB), to a timeline ready to step | $(calc '%.2f' "$ls_t") s (timeline $(ms "$ls_w") ms), peak $(mib "$ls_m") MiB; $(calc '%.2f' "$ls_r")x bare libyaml ($(calc '%.2f' "$ys_t") s), $(calc '%.2f' "$ls_ar")x on skewer's allocator ($(calc '%.2f' "$ls_at") s), peak $(calc '%.2f' "$ls_m * 1024 / $size_s")x file | (none) | |
| load, kubectl List, $NODES_S nodes ($(mib $((size_q / 1024))) MiB), to a timeline ready to step | $(calc '%.2f' "$lq_t") s (timeline $(ms "$lq_w") ms), peak $(mib "$lq_m") MiB; ${lq_ratio}x bare libyaml ($(calc '%.2f' "$yq_t") s), $(calc '%.2f' "$lq_ar")x on skewer's allocator ($(calc '%.2f' "$lq_at") s), peak ${lq_mem}x file | <= 1.2x parse, <= 0.2x file | $(verdict "$lq_ratio" 1.2) / $(verdict "$lq_mem" 0.2) |
| load, kubectl List, $NODES nodes ($(mib $((size_k / 1024))) MiB), to a timeline ready to step | $(calc '%.2f' "$lk_t") s (timeline $(ms "$lk_w") ms), peak $(mib "$lk_m") MiB; ${lk_ratio}x bare libyaml ($(calc '%.2f' "$yk_t") s), $(calc '%.2f' "$lk_ar")x on skewer's allocator ($(calc '%.2f' "$lk_at") s), peak ${lk_mem}x file | <= 1.2x parse, <= 0.2x file | $(verdict "$lk_ratio" 1.2) / $(verdict "$lk_mem" 0.2) |
| one placement, every node's verdict and total, $NODES_S nodes | first cycle $(us "$v5_t") us, again $(us "$v5_a") us | (none) | |
| one placement, every node's verdict and total, $NODES nodes | first cycle $(us "$v50_t") us, again $(us "$v50_a") us | <= 50 us | $(verdict "$(us "$v50_t")" 50) / $(verdict "$(us "$v50_a")" 50) |
| ratio $NODES / $NODES_S nodes | first $(calc '%.1f' "$v50_t / $v5_t")x, again $(calc '%.1f' "$v50_a / $v5_a")x | (10x = linear) | |
| one placement, whole decision recorded (every blocker and spread verdict: explain, interface), $NODES_S / $NODES nodes | first cycle $(us "$p5_t") / $(us "$p50_t") us, again $(us "$p5_a") / $(us "$p50_a") us | <= 2 ms at $NODES | $(verdict "$p50_t" 0.002) / $(verdict "$p50_a" 0.002) |
| a pending pod's cycle with preemption's dry run, $NODES nodes | $(ms "$pre_t") ms ($pre_tried nodes dry-run; $pre_what) | <= 10 ms | $(verdict "$pre_t" 0.01) |
| replay $REPLAY placements, first pass (timeline_next) | $(calc '%.2f' "$r_first") s ($(us "$r_first / $REPLAY") us each; $r_placed scheduled) | <= 0.5 s | $(verdict "$r_first" 0.5) |
| back to step 0 (undo $REPLAY) | $(ms "$r_back") ms | <= 20 ms | $(verdict "$r_back" 0.02) |
| replay $REPLAY again (redo) | $(ms "$r_redo") ms | <= 0.5 s | $(verdict "$r_redo" 0.5) |
| jump 0 -> $JUMP (timeline_goto) | $(ms "$r_fwd") ms | <= 20 ms | $(verdict "$r_fwd" 0.02) |
| jump $JUMP -> 0 | $(ms "$r_bwd") ms | <= 20 ms | $(verdict "$r_bwd" 0.02) |
| one headless frame, $NODES nodes | $frame | <= 2 ms CPU | $frame_verdict |
| scale a Deployment of 1,000 pods down to 1, $NODES nodes (whole process) | $(calc '%.2f' "$ctl_s") s | <= 1 s | $(verdict "$ctl_s" 1) |
| roll out a Deployment of 1,000 pods, $NODES nodes (whole process) | $(calc '%.2f' "$ctl_r") s | <= 1 s | $(verdict "$ctl_r" 1) |
| instructions, one placement (verdicts and totals) at $NODES nodes (step $AT) | $ir | | |
| instructions, kubectl load at 100 nodes ($(mib $(($(stat -c %s "$TINYK") / 1024))) MiB), whole process | $ir_load | | |
EOF
debugging_rows
autoscale_row
if [ -s "$CG-1.txt" ]; then
	say "bench: callgrind profiles: $CG-0.txt (first cycle), $CG-1.txt (again); *.incl.txt inclusive"
fi
