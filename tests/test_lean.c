/* test_lean.c - a lean decision (every node's verdict and total, the
 * choice) agrees with the full record of the same cycle on every node of
 * every step, with the vector loops and without them, and a full decision
 * scored through the batched passes records the same raw and normalized
 * scores as the plain loop over the plugin table: the lean loops and the
 * batched scoring are the fast paths of the plain loops (framework.c)
 * that full decisions run. Without arguments: the bundled scenarios, the shared
 * conformance cases and the realistic inputs; with arguments, those files
 * (tests/checks/lean.sh passes generated and random clusters). */
#include <glob.h>
#include <stdlib.h>

#include "fixture.h"
#include "../model/cycle.h"

static char **files;
static uint32_t nfiles;

/* Compares the two decisions of one step; returns the feasible nodes. */
static uint32_t compare(const char *path, uint32_t step, const struct decision *a, const struct decision *b,
			uint32_t nnodes, const int32_t *weights)
{
	char where[512];
	snprintf(where, sizeof(where), "%s: step %u", path, step + 1);
	if (a->outcome != b->outcome || a->chosen != b->chosen)
		fail_msg("%s: lean outcome %d node %d, full %d node %d", where, a->outcome, a->chosen,
			 b->outcome, b->chosen);
	if ((a->message == NULL) != (b->message == NULL) || (a->message && strcmp(a->message, b->message)))
		fail_msg("%s: messages differ: %s | %s", where, a->message ? a->message : "(none)",
			 b->message ? b->message : "(none)");
	if (!a->verdict && !a->nodes) {
		/* no cycle ran (invalid, an error) */
		if (b->nodes)
			fail_msg("%s: no lean cycle, a full one", where);
		return 0;
	}
	if (!a->lean) {
		/* recorded in full (no feasible node, a conflict) */
		if (!a->nodes || a->verdict)
			fail_msg("%s: neither lean nor full", where);
		return 0;
	}
	if (a->nodes || !a->verdict)
		fail_msg("%s: lean without verdicts", where);
	if (a->nfeasible != b->nfeasible || a->nnodes != b->nnodes || a->ntied != b->ntied)
		fail_msg("%s: lean %u feasible of %u, %u tied; full %u of %u, %u tied", where, a->nfeasible,
			 a->nnodes, a->ntied, b->nfeasible, b->nnodes, b->ntied);
	uint32_t alive = 0;
	for (uint32_t id = 0; id < nnodes; id++)
		alive += a->verdict[id] != VERDICT_GONE;
	assert_int_equal(alive, b->nnodes);
	for (uint32_t i = 0; i < b->nnodes; i++) {
		const struct node_rec *r = &b->nodes[i];
		/* the total is the weighted sum of the normalized scores
		 * recorded (computed apart from the totals) */
		int64_t sum = 0;
		for (int pl = 0; r->feasible && pl < PL__COUNT; pl++)
			if (r->scored[pl])
				sum += (int64_t)r->norm[pl] * weights[pl];
		if (r->feasible && sum != r->total)
			fail_msg("%s: node %u: total %lld, weighted sum of the scores %lld", where, r->node,
				 (long long)r->total, (long long)sum);
		/* every blocker recorded, the first one the verdict */
		if (r->feasible ? r->blockers != 0
				: !(r->blockers & (1u << r->fail)) || (r->blockers & ((1u << r->fail) - 1)))
			fail_msg("%s: node %u: blockers %#x with verdict %d", where, r->node, r->blockers, r->fail);
		if (a->verdict[r->node] != r->fail)
			fail_msg("%s: node %u: lean verdict %d, full %d", where, r->node, a->verdict[r->node],
				 r->fail);
		if (r->feasible && a->totals[r->node] != r->total)
			fail_msg("%s: node %u: lean total %lld, full %lld", where, r->node,
				 (long long)a->totals[r->node], (long long)r->total);
	}
	for (uint32_t i = 0; i < b->ntied; i++)
		assert_int_equal(a->tied[i], b->tied[i]);
	/* the hard constraints' minimum, as the lean PreFilter finds it */
	if (a->ncons != b->ncons)
		fail_msg("%s: lean %u constraints, full %u", where, a->ncons, b->ncons);
	for (uint32_t k = 0; k < b->ncons; k++) {
		const struct constraint_rec *x = &a->cons[k], *y = &b->cons[k];
		if (!y->hard)
			continue;
		if (x->nreal != y->nreal || x->global_min != y->global_min ||
		    x->min_forced_zero != y->min_forced_zero ||
		    (y->nreal && (x->raw_min != y->raw_min || x->min_value != y->min_value)))
			fail_msg("%s: constraint %u: lean %u domains, min %lld at %u; full %u, min %lld at %u", where, k,
				 x->nreal, (long long)x->raw_min, x->min_value, y->nreal, (long long)y->raw_min,
				 y->min_value);
	}
	return b->nfeasible;
}

/* The plain loop records the plugins' own per-node functions' scores (the
 * ones the unit tests call; compare_batched then holds the batched ones,
 * shape.c's and rescache.c's, to them): every feasible node's recorded
 * raw score against them, with the cluster as the cycle saw it (the step
 * undone). Returns the scores compared. */
static uint32_t compare_plugin_scores(const char *path, uint32_t step, const struct cluster *c,
				      const struct decision *b)
{
	const struct pod *p = &c->pods[b->pod];
	uint32_t n = 0;
	for (uint32_t i = 0; b->nodes && i < b->nnodes; i++) {
		const struct node_rec *r = &b->nodes[i];
		const struct node *nd = &c->nodes[r->node];
		if (!r->feasible)
			continue;
		struct {
			enum plugin_id pl;
			int64_t want;
		} ref[] = {
			{ PL_TAINT_TOLERATION, score_taint_toleration(c, p, nd) },
			{ PL_NODE_AFFINITY, score_node_affinity(c, p, nd) },
			{ PL_NODE_RESOURCES_FIT, score_least_allocated(c, p, nd) },
			{ PL_BALANCED_ALLOCATION, score_balanced_allocation(c, p, nd) },
		};
		for (uint32_t k = 0; k < sizeof(ref) / sizeof(ref[0]); k++) {
			if (!r->scored[ref[k].pl])
				continue;
			n++;
			if (r->raw[ref[k].pl] != ref[k].want)
				fail_msg("%s: step %u: node %u: %s raw %lld, the plugin's function %lld", path, step + 1,
					 r->node, plugin_name(ref[k].pl), (long long)r->raw[ref[k].pl],
					 (long long)ref[k].want);
		}
	}
	return n;
}

/* The plain loop over the plugin table (b) and the batched passes (c)
 * record the same scores: every feasible node's raw and normalized score
 * of every plugin, which ran, the hostname count and the total, and the
 * same tied nodes and choice. Returns the scores compared. */
static uint32_t compare_batched(const char *path, uint32_t step, const struct decision *b, const struct decision *c)
{
	char where[512];
	uint32_t n = 0;
	snprintf(where, sizeof(where), "%s: step %u", path, step + 1);
	if (b->nnodes != c->nnodes || b->nfeasible != c->nfeasible || b->ntied != c->ntied || b->chosen != c->chosen ||
	    b->scored != c->scored)
		fail_msg("%s: plain %u of %u feasible, %u tied, node %d; batched %u of %u, %u tied, node %d", where,
			 b->nfeasible, b->nnodes, b->ntied, b->chosen, c->nfeasible, c->nnodes, c->ntied, c->chosen);
	for (uint32_t i = 0; i < b->ntied; i++)
		assert_int_equal(b->tied[i], c->tied[i]);
	for (int pl = 0; b->scored && pl < PL__COUNT; pl++)
		if (b->plugin_skipped[pl] != c->plugin_skipped[pl])
			fail_msg("%s: %s skipped: plain %d, batched %d", where, plugin_name((enum plugin_id)pl),
				 b->plugin_skipped[pl], c->plugin_skipped[pl]);
	for (uint32_t i = 0; b->nodes && i < b->nnodes; i++) {
		const struct node_rec *x = &b->nodes[i], *y = &c->nodes[i];
		if (!x->feasible)
			continue;
		if (x->total != y->total || x->host_count != y->host_count)
			fail_msg("%s: node %u: plain total %lld (count %u), batched %lld (count %u)", where, x->node,
				 (long long)x->total, x->host_count, (long long)y->total, y->host_count);
		for (int pl = 0; pl < PL__COUNT; pl++) {
			if (x->scored[pl] != y->scored[pl])
				fail_msg("%s: node %u: %s scored: plain %d, batched %d", where, x->node,
					 plugin_name((enum plugin_id)pl), x->scored[pl], y->scored[pl]);
			if (!x->scored[pl])
				continue;
			n++;
			if (x->raw[pl] != y->raw[pl] || x->norm[pl] != y->norm[pl])
				fail_msg("%s: node %u: %s plain raw %lld normalized %d, batched %lld %d", where, x->node,
					 plugin_name((enum plugin_id)pl), (long long)x->raw[pl], x->norm[pl],
					 (long long)y->raw[pl], y->norm[pl]);
		}
	}
	return n;
}

static void lean_matches_full(void **state)
{
	(void)state;
	uint32_t loaded = 0, cycles = 0, lean = 0, feasible = 0, scores = 0, batched = 0;
	for (uint32_t f = 0; f < nfiles; f++) {
		const char *path = files[f];
		struct scenario *sc = NULL;
		struct load_errors errs;
		memset(&errs, 0, sizeof(errs));
		int ok = load_scenario((const char *const *)&files[f], 1, NULL, &sc, &errs);
		load_errors_fini(&errs);
		if (!ok)
			continue; /* inputs made to fail loading */
		loaded++;
		struct timeline *t = timeline_new(sc);
		assert_non_null(t);
		for (uint32_t i = 0; i < timeline_len(t); i++) {
			/* lean with and without the vector loops, full with
			 * the batched scoring, then full with the plain loop */
			struct decision a, s, b, bb;
			memset(&a, 0, sizeof(a));
			memset(&s, 0, sizeof(s));
			memset(&b, 0, sizeof(b));
			memset(&bb, 0, sizeof(bb));
			assert_true(timeline_step_verdicts(t, &a));
			assert_true(timeline_prev(t));
			sched_set_vector(false);
			assert_true(timeline_step_verdicts(t, &s));
			sched_set_vector(true);
			assert_true(timeline_prev(t));
			sched_set_batched(true);
			assert_true(timeline_step(t, &bb));
			sched_set_batched(false);
			assert_true(timeline_prev(t));
			assert_true(timeline_step(t, &b));
			if (sc->steps[i].kind == STEP_SCHEDULE || sc->steps[i].kind == STEP_RETRY) {
				cycles++;
				lean += a.lean;
				feasible += compare(path, i, &a, &b, sc->cluster->nnodes, sc->cluster->cfg.weights);
				/* the plugins' own functions, on the cluster the
				 * cycle saw */
				assert_true(timeline_prev(t));
				scores += compare_plugin_scores(path, i, sc->cluster, &b);
				assert_true(timeline_next(t));
				compare(path, i, &s, &b, sc->cluster->nnodes, sc->cluster->cfg.weights);
				batched += compare_batched(path, i, &b, &bb);
			}
			decision_fini(&a);
			decision_fini(&s);
			decision_fini(&b);
			decision_fini(&bb);
		}
		timeline_free(t);
		scenario_free(sc);
	}
	uint64_t vec = sched_vector_scored();
	printf("lean: %u files, %u cycles (%u lean, %llu scored with vector instructions), %u feasible nodes "
	       "compared, %u scores against the plugins' own functions, %u batched against the plain loop\n",
	       loaded, cycles, lean, (unsigned long long)vec, feasible, scores, batched);
	/* the comparison must have compared something */
	assert_true(loaded > 0 && scores > 0 && batched > 0);
	/* lean cycles, unless the table has a plugin the fast paths do
	 * not answer (every decision is then full) */
	assert_true(!lean_covers_table() || (lean > 0 && feasible > 0));
#if defined(__x86_64__) && defined(__GNUC__)
	/* and the vector scoring, where the processor has it and the
	 * inputs ask for it (LEAN_EXPECT_VECTOR, tests/checks/lean.sh) */
	__builtin_cpu_init();
	if (getenv("LEAN_EXPECT_VECTOR") && __builtin_cpu_supports("avx2") && !vec)
		fail_msg("no lean cycle was scored with vector instructions");
#endif
}

int main(int argc, char **argv)
{
	glob_t g;
	memset(&g, 0, sizeof(g));
	if (argc > 1) {
		files = argv + 1;
		nfiles = (uint32_t)(argc - 1);
	} else {
		glob("scenarios/*.yaml", 0, NULL, &g);
		glob("../shared/conformance/upstream/*.yaml", GLOB_APPEND, NULL, &g);
		glob("../shared/conformance/v2/*/*.yaml", GLOB_APPEND, NULL, &g);
		glob("tests/realistic/*.yaml", GLOB_APPEND, NULL, &g);
		files = g.gl_pathv;
		nfiles = (uint32_t)g.gl_pathc;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lean_matches_full),
	};
	int rc = cmocka_run_group_tests_name("lean", tests, NULL, NULL);
	globfree(&g);
	return rc;
}
