/* bench.c - timing probes over the public model API, for bench/run.sh.
 * Each mode prints one line of numbers (seconds unless named), nothing
 * else on stdout, so the script can take medians. Seconds are CPU seconds
 * of this (single-threaded) process, CLOCK_PROCESS_CPUTIME_ID: on a
 * shared machine wall time measures the neighbours too. Linked against
 * build-bench/libskewer.a, built with -O2.
 *
 *   bench load FILE                 seconds to load FILE and make its
 *                                   timeline (ready to step), maxrss KiB,
 *                                   the timeline's part of the seconds
 *   bench place FILE AT BATCH RUNS  seconds per placement with the whole
 *                                   decision recorded (every node's detail),
 *                                   medians of RUNS batch means: "first"
 *                                   (the step's first cycle) and "again"
 *                                   (step back, the same cycle once more:
 *                                   the selector's matcher now exists)
 *   bench verdicts FILE AT BATCH RUNS  the same for a lean decision: every
 *                                   node's verdict and total score, the
 *                                   choice (what stepping computes)
 *   bench replay FILE N JUMP RUNS   first pass of N steps (once), then the
 *                                   medians of RUNS rounds of goto 0, redo
 *                                   N, goto JUMP, goto 0 (seconds)
 *   bench firstpass FILE N          the first pass of N steps (seconds),
 *                                   then exits at once (for perf record;
 *                                   under callgrind the instrumentation
 *                                   is on only around the steps)
 *   bench one FILE AT WARM COUNT    COUNT placements with verdicts at step
 *                                   AT (WARM 1: after one unmeasured cycle
 *                                   of that step); under callgrind the
 *                                   instrumentation is on only around them
 *   bench one-verdicts FILE AT WARM COUNT  the same, lean decisions
 *   bench preempt FILE AT RUNS      seconds of one pending cycle with
 *                                   DefaultPreemption's dry run: at step AT
 *                                   a copy of that step's pod with priority
 *                                   1e9 asks for 1m more cpu than the most
 *                                   any node has free (Unschedulable on the
 *                                   nodes that have that much allocatable);
 *                                   median of RUNS, then the outcome, the
 *                                   nodes dry-run and the victims
 *   bench fix FILE AT RUNS          seconds of skewer fix's whole search for
 *                                   one pending pod (model/fix.c fix_find,
 *                                   every kind, at most 3 of each): at step
 *                                   AT a copy of that step's pod asks for 1m
 *                                   more cpu than any node has free; median
 *                                   of RUNS, then the fixes found and the
 *                                   cycles run to verify candidates
 *   bench search FILE CHOICES RUNS  seconds of skewer search (ties or
 *                                   feasible) to its end; median of RUNS,
 *                                   then the states, states per second,
 *                                   stuck and complete (0/1)
 *   bench scaleup FILE              seconds of FILE's last step, a scaleUp
 *                                   (model/autoscale/), after the steps
 *                                   before it (untimed); then the pending
 *                                   pods it considered, the options, the
 *                                   nodes added; under callgrind the
 *                                   instrumentation is on only around it
 *   bench has-callgrind             1 when built with valgrind/callgrind.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../model/sched.h"
#include "../load/load.h"
#include "../model/decision.h"
#include "../model/timeline.h"
#include "../model/fix.h"
#include "../model/search.h"
#include "../model/autoscale/autoscale.h"
#include "../model/steps/scale_up.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct scenario *load(const char *file)
{
	struct load_errors errs = {0};
	struct scenario *sc = NULL;
	const char *files[] = {file};
	if (!load_scenario(files, 1, NULL, &sc, &errs)) {
		for (uint32_t i = 0; i < errs.n; i++)
			fprintf(stderr, "%s:%u:%u: %s\n", errs.v[i].file ? errs.v[i].file : file,
				errs.v[i].line, errs.v[i].col, errs.v[i].msg);
		load_errors_fini(&errs);
		exit(2);
	}
	load_errors_fini(&errs);
	return sc;
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s failed\n", what);
	exit(2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int mode_load(const char *file)
{
	double t0 = now();
	struct scenario *sc = load(file);
	double t1 = now();
	/* ready to step: the timeline, which makes ahead what the steps'
	 * first cycles would make (sched_warm) */
	struct timeline *t = timeline_new(sc);
	if (!t)
		die("timeline_new");
	double t2 = now();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%.6f %ld %.6f\n", t2 - t0, ru.ru_maxrss, t2 - t1);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

/* One placement with every node's verdict and total (lean), or with
 * the whole decision recorded, as explain and the interface ask for it. */
static bool lean;

static int step_decided(struct timeline *t)
{
	struct decision d;
	memset(&d, 0, sizeof(d));
	int ok = lean ? timeline_step_verdicts(t, &d) : timeline_step(t, &d);
	decision_fini(&d);
	return ok;
}

static double median_of(double *v, uint32_t n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return v[n / 2];
}

static int mode_place(const char *file, uint32_t at, uint32_t batch, uint32_t runs)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t)
		die("timeline_new");
	if (at + batch * runs > timeline_len(t))
		die("place: not enough steps");
	if (!timeline_goto(t, at))
		die("goto");
	double *first = calloc(runs, sizeof(double)), *again = calloc(runs, sizeof(double));
	if (!first || !again)
		die("calloc");
	for (uint32_t r = 0; r < runs; r++) {
		for (uint32_t i = 0; i < batch; i++) {
			double t0 = now();
			if (!step_decided(t))
				die("timeline_step");
			double t1 = now();
			if (!timeline_prev(t) || !step_decided(t))
				die("timeline_step again");
			first[r] += t1 - t0;
			again[r] += now() - t1;
		}
		first[r] /= batch;
		again[r] /= batch;
	}
	printf("%.9f %.9f\n", median_of(first, runs), median_of(again, runs));
	free(first);
	free(again);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

static int mode_replay(const char *file, uint32_t n, uint32_t jump, uint32_t runs)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t)
		die("timeline_new");
	if (n > timeline_len(t) || jump > n || !runs)
		die("replay: not enough steps");
	double t0 = now();
	for (uint32_t i = 0; i < n; i++)
		if (!timeline_next(t))
			die("timeline_next");
	double first = now() - t0;
	uint32_t placed = 0;
	for (uint32_t i = 0; i < n; i++)
		placed += t->res[i].outcome == OUT_SCHEDULED;
	double *v[4];
	for (int k = 0; k < 4; k++)
		if (!(v[k] = calloc(runs, sizeof(double))))
			die("calloc");
	for (uint32_t r = 0; r < runs; r++) {
		t0 = now();
		if (!timeline_goto(t, 0))
			die("goto 0");
		v[0][r] = now() - t0;
		t0 = now();
		for (uint32_t i = 0; i < n; i++)
			if (!timeline_next(t))
				die("timeline_next (redo)");
		v[1][r] = now() - t0;
		if (!timeline_goto(t, 0))
			die("goto 0");
		t0 = now();
		if (!timeline_goto(t, jump))
			die("goto jump");
		v[2][r] = now() - t0;
		t0 = now();
		if (!timeline_goto(t, 0))
			die("goto 0");
		v[3][r] = now() - t0;
		if (!timeline_goto(t, n))
			die("goto n");
	}
	printf("%.6f %.6f %.6f %.6f %.6f %u\n", first, median_of(v[0], runs), median_of(v[1], runs),
	       median_of(v[2], runs), median_of(v[3], runs), placed);
	for (int k = 0; k < 4; k++)
		free(v[k]);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

/* The first pass of a replay only, then exit without freeing: what a
 * profiler samples is the scheduling cycles and nothing else. */
static int mode_firstpass(const char *file, uint32_t n)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t || n > timeline_len(t))
		die("firstpass: not enough steps");
	fprintf(stderr, "bench: loaded\n");
	double t0 = now();
	CALLGRIND_START_INSTRUMENTATION;
	for (uint32_t i = 0; i < n; i++)
		if (!timeline_next(t))
			die("timeline_next");
	CALLGRIND_STOP_INSTRUMENTATION;
	printf("%.6f\n", now() - t0);
	fflush(stdout);
	_exit(0);
}

static int mode_one(const char *file, uint32_t at, uint32_t warm, uint32_t count)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t || !timeline_goto(t, at))
		die("goto");
	if (warm && (!step_decided(t) || !timeline_prev(t)))
		die("warm-up");
	fprintf(stderr, "bench: loaded\n");
	int ok = 1;
	CALLGRIND_START_INSTRUMENTATION;
	for (uint32_t i = 0; i < count && ok; i++)
		ok = step_decided(t);
	CALLGRIND_STOP_INSTRUMENTATION;
	if (!ok)
		die("timeline_step");
	timeline_free(t);
	scenario_free(sc);
	printf("ok\n");
	return 0;
}

static int mode_preempt(const char *file, uint32_t at, uint32_t runs)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t || at >= timeline_len(t) || !timeline_goto(t, at))
		die("goto");
	const struct cluster *c = sc->cluster;
	int64_t most = 0;
	for (uint32_t id = 0; id < c->nnodes; id++)
		if (c->nodes[id].alive && c->nodes[id].alloc.cpu - c->nodes[id].used.cpu > most)
			most = c->nodes[id].alloc.cpu - c->nodes[id].used.cpu;
	struct step st;
	memset(&st, 0, sizeof(st));
	st.kind = STEP_SCHEDULE;
	if (!pod_copy(&st.pod, &sc->steps[at].pod))
		die("pod_copy");
	st.pod.name = intern_str(c->in, "bench-preemptor");
	st.pod.spec.priority = 1000000000;
	st.pod.spec.has_priority = true;
	st.pod.spec.req.cpu = st.pod.spec.nz_cpu = most + 1;
	if (!timeline_insert(t, at, &st))
		die("timeline_insert");
	double *v = calloc(runs, sizeof(double));
	if (!v)
		die("calloc");
	uint32_t tried = 0, victims = 0;
	int outcome = 0;
	for (uint32_t r = 0; r < runs; r++) {
		struct decision d;
		memset(&d, 0, sizeof(d));
		double t0 = now();
		if (!timeline_step(t, &d))
			die("timeline_step");
		v[r] = now() - t0;
		outcome = d.pre.outcome;
		victims = d.pre.nvictims;
		tried = 0;
		for (uint32_t i = 0; i < d.pre.nnodes; i++)
			tried += d.pre.nodes[i].why != PN_NOT_HELPFUL && d.pre.nodes[i].why != PN_NOT_TRIED;
		decision_fini(&d);
		if (!timeline_prev(t))
			die("timeline_prev");
	}
	printf("%.9f %d %u %u\n", median_of(v, runs), outcome, tried, victims);
	free(v);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

static int mode_fix(const char *file, uint32_t at, uint32_t runs)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t || at >= timeline_len(t) || !timeline_goto(t, at))
		die("goto");
	const struct cluster *c = sc->cluster;
	int64_t most = 0;
	for (uint32_t id = 0; id < c->nnodes; id++)
		if (c->nodes[id].alive && c->nodes[id].alloc.cpu - c->nodes[id].used.cpu > most)
			most = c->nodes[id].alloc.cpu - c->nodes[id].used.cpu;
	struct step st;
	memset(&st, 0, sizeof(st));
	st.kind = STEP_SCHEDULE;
	if (!pod_copy(&st.pod, &sc->steps[at].pod))
		die("pod_copy");
	st.pod.name = intern_str(c->in, "bench-pending");
	st.pod.spec.req.cpu = st.pod.spec.nz_cpu = most + 1;
	if (!timeline_insert(t, at, &st))
		die("timeline_insert");
	double *v = calloc(runs, sizeof(double));
	if (!v)
		die("calloc");
	uint32_t nfix = 0, trials = 0;
	for (uint32_t r = 0; r < runs; r++) {
		struct fix_report rep;
		double t0 = now();
		if (fix_find(t, at, 3, &rep) != FIX_OK)
			die("fix_find");
		v[r] = now() - t0;
		nfix = rep.n;
		trials = rep.trials;
		if (r + 1 == runs) {
			/* what was found, for the reader (stdout keeps the numbers) */
			fprintf(stderr, "bench fix: step %u:", at + 1);
			for (uint32_t k = 0; k < rep.n; k++)
				fprintf(stderr, " %s", fix_kind_name(rep.v[k].kind));
			fputc('\n', stderr);
		}
		fix_report_fini(&rep);
	}
	printf("%.9f %u %u\n", median_of(v, runs), nfix, trials);
	free(v);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

static int mode_search(const char *file, const char *choices, uint32_t runs)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	if (!t)
		die("timeline");
	struct search_opts o = { !strcmp(choices, "feasible") ? SEARCH_FEASIBLE : SEARCH_TIES, false, 1000000,
				 NULL, NULL, NULL };
	double *v = calloc(runs, sizeof(double));
	if (!v)
		die("calloc");
	struct search_result r;
	memset(&r, 0, sizeof(r));
	for (uint32_t k = 0; k < runs; k++) {
		search_result_fini(&r);
		double t0 = now();
		if (!search_run(t, &o, &r))
			die("search_run");
		v[k] = now() - t0;
	}
	double m = median_of(v, runs);
	printf("%.9f %llu %.0f %d %d\n", m, (unsigned long long)r.states, m > 0 ? (double)r.states / m : 0.0,
	       r.stuck, r.complete);
	search_result_fini(&r);
	free(v);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

static int mode_scaleup(const char *file)
{
	struct scenario *sc = load(file);
	struct timeline *t = timeline_new(sc);
	uint32_t last = t ? timeline_len(t) : 0;
	if (!t || !last || !timeline_goto(t, last - 1))
		die("goto");
	fprintf(stderr, "bench: loaded\n");
	double t0 = now();
	CALLGRIND_START_INSTRUMENTATION;
	int ok = timeline_next(t);
	CALLGRIND_STOP_INSTRUMENTATION;
	double el = now() - t0;
	const struct as_report *r = ok ? scale_up_report(t, last - 1) : NULL;
	if (!r || r->error)
		die("scaleUp");
	uint32_t nopt = 0;
	for (uint32_t i = 0; i < r->ngroups; i++)
		nopt += r->groups[i].status && !strcmp(r->groups[i].status, "option");
	printf("%.9f %u %u %u\n", el, r->npods, nopt, r->nadded);
	timeline_free(t);
	scenario_free(sc);
	return 0;
}

static uint32_t num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (end == s || *end)
		die("number");
	return (uint32_t)v;
}

int main(int argc, char **argv)
{
	sched_tune_memory();
	if (argc == 3 && !strcmp(argv[1], "load"))
		return mode_load(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "place"))
		return mode_place(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "verdicts")) {
		lean = true;
		return mode_place(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	}
	if (argc == 4 && !strcmp(argv[1], "firstpass"))
		return mode_firstpass(argv[2], num(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "one-verdicts")) {
		lean = true;
		return mode_one(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	}
	if (argc == 6 && !strcmp(argv[1], "replay"))
		return mode_replay(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "one"))
		return mode_one(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 5 && !strcmp(argv[1], "preempt"))
		return mode_preempt(argv[2], num(argv[3]), num(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "fix"))
		return mode_fix(argv[2], num(argv[3]), num(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "search"))
		return mode_search(argv[2], argv[3], num(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "scaleup"))
		return mode_scaleup(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "has-callgrind")) {
#ifdef HAVE_CALLGRIND
		printf("1\n");
#else
		printf("0\n");
#endif
		return 0;
	}
	fprintf(stderr, "usage: bench load FILE | place|verdicts FILE AT BATCH RUNS |\n"
			"       replay FILE N JUMP RUNS | one|one-verdicts FILE AT WARM COUNT |\n"
			"       preempt FILE AT RUNS | fix FILE AT RUNS | search FILE ties|feasible RUNS |\n"
			"       scaleup FILE |\n"
			"       has-callgrind\n");
	return 2;
}
