/* test_fix.c - model/fix.c and model/search.c on small clusters whose
 * answers are worked out by hand: the fixes of a pending step (the kinds
 * found, their values, the node, the timeline left as it was), and the
 * search's witness, completeness and merged state counts. */
#include <stdlib.h>

#include "fixture.h"
#include "../model/fix.h"
#include "../model/search.h"

static const struct fix *find_kind(const struct fix_report *r, enum fix_kind k)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (r->v[i].kind == k)
			return &r->v[i];
	return NULL;
}

static const char *S(const struct scenario *sc, sym_t s)
{
	return intern_get(sc->cluster->in, s);
}

/* Two zones with a pod each, minDomains 3: fewer domains than minDomains
 * force the global minimum to 0, so 1 + 1 - 0 = 2 > 1 everywhere. The
 * number of domains, 2, is the minDomains that lifts it (then 1 + 1 - 1
 * = 1); maxSkew 2 works too; zone-b's node comes second in the tie. */
static const char *MIN_DOMAINS =
	"nodes:\n"
	"  - {name: a, labels: {zone: za}}\n"
	"  - {name: b, labels: {zone: zb}}\n"
	"pods:\n"
	"  - {name: p1, nodeName: a, labels: {app: w}}\n"
	"  - {name: p2, nodeName: b, labels: {app: w}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: p3\n"
	"      labels: {app: w}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, minDomains: 3, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: w}}}\n"
	"  - schedule: {name: q, labels: {app: other}}\n";

static void min_domains_and_max_skew(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(MIN_DOMAINS);
	struct timeline *t = timeline_new(sc);
	struct fix_report r;
	assert_int_equal(fix_find(t, 0, 3, &r), FIX_OK);
	assert_int_equal(t->cur, 0);
	assert_int_equal(timeline_len(t), 2);
	const struct fix *f = find_kind(&r, FIX_MAX_SKEW);
	assert_non_null(f);
	assert_int_equal(f->before, 1);
	assert_int_equal(f->after, 2);
	assert_string_equal(S(sc, f->node), "a");
	f = find_kind(&r, FIX_MIN_DOMAINS);
	assert_non_null(f);
	assert_int_equal(f->before, 3);
	assert_int_equal(f->after, 2);
	assert_string_equal(S(sc, f->node), "a");
	assert_null(f->violation);
	/* cheapest first: maxSkew before minDomains */
	assert_int_equal(r.v[0].kind, FIX_MAX_SKEW);
	fix_report_fini(&r);
	/* the scenario runs as before: p3 pending, q placed */
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_PENDING);
	decision_fini(&d);
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_SCHEDULED);
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* The pod's spreading comes from the scheduler's List defaults (a hard
 * zone constraint with the ReplicaSet's selector). Step 1 places w3 on b
 * (a: 2 + 1 - 0 = 3 > 1, b: 0 + 1 - 0 = 1), so w4 finds a: 3, b: 2 > 1
 * and c cordoned: pending. maxSkew 2 of the default: step 1 again b
 * (a: 3 > 2), then w4 on b (1 + 1 - 0 = 2). The fix is the scheduler's
 * (sched), the list after it has maxSkew 2, and afterwards the scheduler
 * has its own list back and the scenario runs as before. */
static const char *DEFAULTS =
	"scheduler:\n"
	"  defaultingType: List\n"
	"  defaultConstraints:\n"
	"    - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n"
	"workloads:\n"
	"  - {kind: ReplicaSet, name: w, namespace: default, selector: {matchLabels: {app: w}}}\n"
	"nodes:\n"
	"  - {name: a1, labels: {zone: a}}\n"
	"  - {name: a2, labels: {zone: a}}\n"
	"  - {name: b, labels: {zone: b}}\n"
	"  - {name: c, labels: {zone: c}, unschedulable: true}\n"
	"pods:\n"
	"  - {name: w1, nodeName: a1, labels: {app: w}, ownerReferences: [{kind: ReplicaSet, name: w}]}\n"
	"  - {name: w2, nodeName: a2, labels: {app: w}, ownerReferences: [{kind: ReplicaSet, name: w}]}\n"
	"steps:\n"
	"  - schedule: {name: w3, labels: {app: w}, ownerReferences: [{kind: ReplicaSet, name: w}]}\n"
	"  - schedule: {name: w4, labels: {app: w}, ownerReferences: [{kind: ReplicaSet, name: w}]}\n";

static void default_constraints(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(DEFAULTS);
	struct timeline *t = timeline_new(sc);
	assert_true(timeline_goto(t, 1));
	struct fix_report r;
	assert_int_equal(fix_find(t, 1, 3, &r), FIX_OK);
	assert_int_equal(t->cur, 1);
	const struct fix *f = find_kind(&r, FIX_MAX_SKEW);
	assert_non_null(f);
	assert_true(f->sched);
	assert_int_equal(f->before, 1);
	assert_int_equal(f->after, 2);
	assert_string_equal(S(sc, f->node), "b");
	struct tsc *v;
	uint32_t n;
	assert_true(fix_defaults(t, f, &v, &n));
	assert_int_equal(n, 1);
	assert_int_equal(v[0].max_skew, 2);
	fix_defaults_free(v, n);
	/* the view cannot make it a step */
	struct step st;
	assert_false(fix_step(t, &r, f, &st));
	f = find_kind(&r, FIX_REMOVE_CONSTRAINT);
	assert_non_null(f);
	assert_true(f->sched);
	assert_true(fix_defaults(t, f, &v, &n));
	assert_int_equal(n, 0);
	fix_defaults_free(v, n);
	fix_report_fini(&r);
	assert_int_equal(sc->cluster->cfg.ndefault_tscs, 1);
	assert_int_equal(sc->cluster->cfg.default_tscs[0].max_skew, 1);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_PENDING);
	decision_fini(&d);
	assert_true(timeline_goto(t, 0));
	assert_true(timeline_step(t, &d));
	assert_string_equal(S(sc, sc->cluster->nodes[d.chosen].name), "b");
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* A retry of a pod the first step left pending (zone a holds 2, b 0 and
 * b cordoned until nothing changes): its own maxSkew is changed at the
 * step that made it; with maxSkew 3 that step places it already (a: 2 +
 * 1 - 0 = 3), and the fix says a1. */
static const char *RETRY =
	"nodes:\n"
	"  - {name: a1, labels: {zone: a}}\n"
	"  - {name: b1, labels: {zone: b}, unschedulable: true}\n"
	"pods:\n"
	"  - {name: p1, nodeName: a1, labels: {app: w}}\n"
	"  - {name: p2, nodeName: a1, labels: {app: w}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: p3\n"
	"      labels: {app: w}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: w}}}\n"
	"  - retry: p3\n";

static void retry_entry(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(RETRY);
	struct timeline *t = timeline_new(sc);
	assert_true(timeline_goto(t, 1));
	struct fix_report r;
	assert_int_equal(fix_find(t, 1, 3, &r), FIX_OK);
	assert_true(r.retry);
	assert_int_equal(r.entry, 0);
	const struct fix *f = find_kind(&r, FIX_MAX_SKEW);
	assert_non_null(f);
	assert_int_equal(f->after, 3);
	assert_string_equal(S(sc, f->node), "a1");
	/* the change replaces the entry */
	struct step st;
	assert_true(fix_step(t, &r, f, &st));
	assert_int_equal(st.kind, STEP_SCHEDULE);
	assert_int_equal(st.pod.spec.tscs[0].max_skew, 3);
	step_fini(&st);
	fix_report_fini(&r);
	assert_int_equal(t->cur, 1);
	timeline_free(t);
	scenario_free(sc);
}

/* A pod too big for the one node, and a bigger priority than the pod on
 * it: the trials run the pending step again with changes (a copy of the
 * node added, the pod on it deleted, the priority raised), each with a
 * fresh pod and some with a fresh node. They give back what they made:
 * two searches in a row, and explain's way (the step applied, then
 * taken back for the search and applied again), leave the cluster as
 * many pod and node slots as it had. */
static const char *TRIALS =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a}, allocatable: {cpu: 2, memory: 4Gi}}\n"
	"pods:\n"
	"  - {name: big, nodeName: n1, requests: {cpu: 1500m}}\n"
	"steps:\n"
	"  - addNode: {name: n2, labels: {zone: b}, allocatable: {cpu: 1, memory: 4Gi}}\n"
	"  - schedule: {name: q0, requests: {cpu: 100m}}\n"
	"  - schedule: {name: p, requests: {cpu: 1500m}}\n"
	"  - schedule: {name: after, requests: {cpu: 100m}}\n";

static void trials_keep_slots(void **state)
{
	(void)state;
	const char *texts[] = { TRIALS, MIN_DOMAINS, DEFAULTS, RETRY };
	const uint32_t steps[] = { 2, 0, 1, 1 };
	for (unsigned k = 0; k < 4; k++) {
		struct scenario *sc = fixture_load(texts[k]);
		struct timeline *t = timeline_new(sc);
		struct cluster *c = sc->cluster;
		uint32_t i = steps[k];
		assert_true(timeline_goto(t, i));
		uint32_t npods = c->npods, nnodes = c->nnodes;
		struct fix_report r;
		for (int round = 0; round < 2; round++) {
			assert_int_equal(fix_find(t, i, 3, &r), FIX_OK);
			assert_true(r.n > 0);
			assert_true(r.trials > 1);
			fix_report_fini(&r);
			assert_int_equal(t->cur, i);
			assert_int_equal(c->npods, npods);
			assert_int_equal(c->nnodes, nnodes);
		}
		/* explain's way: the pending step applied, searched, applied */
		assert_true(timeline_next(t));
		uint32_t applied = c->npods;
		for (int round = 0; round < 2; round++) {
			assert_true(timeline_prev(t));
			assert_int_equal(fix_find(t, i, 3, &r), FIX_OK);
			fix_report_fini(&r);
			assert_true(timeline_next(t));
			assert_int_equal(c->npods, applied);
			assert_int_equal(c->nnodes, nnodes);
		}
		/* and the scenario still runs to its end */
		assert_true(timeline_goto(t, timeline_len(t)));
		timeline_free(t);
		scenario_free(sc);
	}
}

/* A nodeSelector no node matches but for one label: labelling that node
 * is the fix, and the step that is not pending is refused. */
static const char *LABEL =
	"nodes:\n"
	"  - {name: a, labels: {disk: hdd}}\n"
	"  - {name: b, labels: {}}\n"
	"steps:\n"
	"  - schedule: {name: p, nodeSelector: {disk: ssd}}\n"
	"  - schedule: {name: q}\n";

static void label_and_not_pending(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(LABEL);
	struct timeline *t = timeline_new(sc);
	struct fix_report r;
	assert_int_equal(fix_find(t, 0, 3, &r), FIX_OK);
	const struct fix *f = find_kind(&r, FIX_LABEL);
	assert_non_null(f);
	assert_true(f->has_edit);
	assert_int_equal(f->edit.kind, STEP_LABEL);
	assert_string_equal(S(sc, f->edit.node), "a");
	assert_string_equal(S(sc, f->edit.label_key), "disk");
	assert_string_equal(S(sc, f->edit.label_val), "ssd");
	assert_string_equal(S(sc, f->node), "a");
	/* two nodes fail for the label alone: both are listed */
	uint32_t nlabel = 0;
	for (uint32_t i = 0; i < r.n; i++)
		nlabel += r.v[i].kind == FIX_LABEL;
	assert_int_equal(nlabel, 2);
	fix_report_fini(&r);
	assert_int_equal(fix_find(t, 1, 3, &r), FIX_NOT_PENDING);
	fix_report_fini(&r);
	timeline_free(t);
	scenario_free(sc);
}

/* Pod a goes anywhere (two empty nodes tie); b needs disk=ssd (node n1)
 * and refuses to share a node with a. When a takes n1, b is stuck. */
static const char *STUCK =
	"nodes:\n"
	"  - {name: n1, labels: {kubernetes.io/hostname: n1, disk: ssd}}\n"
	"  - {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
	"steps:\n"
	"  - schedule: {name: a, labels: {app: a}}\n"
	"  - schedule:\n"
	"      name: b\n"
	"      nodeSelector: {disk: ssd}\n"
	"      affinity:\n"
	"        podAntiAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: a}}}\n";

static void search_finds_witness(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(STUCK);
	struct timeline *t = timeline_new(sc);
	struct search_opts o = { SEARCH_TIES, false, 1000, NULL, NULL, NULL };
	struct search_result r;
	assert_true(search_run(t, &o, &r));
	assert_true(r.stuck);
	assert_true(r.complete);
	assert_int_equal(r.nwitness, 2);
	assert_string_equal(S(sc, r.witness[0].choose), "n1");
	assert_int_equal(r.witness[1].choose, SYM_NONE);
	assert_string_equal(S(sc, r.pod_name), "b");
	assert_non_null(r.message);
	assert_int_equal(t->cur, 0);
	search_result_fini(&r);
	/* the bound: one state, not complete */
	o.max_states = 1;
	assert_true(search_run(t, &o, &r));
	assert_false(r.stuck);
	assert_false(r.complete);
	assert_int_equal(r.states, 1);
	search_result_fini(&r);
	timeline_free(t);
	scenario_free(sc);
}

/* Three identical nodes, three identical pods: states are counted before
 * each step. Ties (the emptiest nodes): {} / {p} / {p}{p}: 3 states.
 * Feasible: {} / {p} / {pp} or {p}{p}: 4. Nothing gets stuck. */
static const char *SAME =
	"nodes:\n"
	"  - {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"  - {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
	"  - {name: n3, labels: {kubernetes.io/hostname: n3}}\n"
	"steps:\n"
	"  - schedule: {name: w, labels: {app: w}}\n"
	"    replicas: 3\n";

static void search_merges_states(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(SAME);
	struct timeline *t = timeline_new(sc);
	struct search_opts o = { SEARCH_TIES, false, 1000, NULL, NULL, NULL };
	struct search_result r;
	assert_true(search_run(t, &o, &r));
	assert_false(r.stuck);
	assert_true(r.complete);
	assert_int_equal(r.states, 3);
	search_result_fini(&r);
	o.choices = SEARCH_FEASIBLE;
	assert_true(search_run(t, &o, &r));
	assert_false(r.stuck);
	assert_true(r.complete);
	assert_int_equal(r.states, 4);
	search_result_fini(&r);
	timeline_free(t);
	scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(min_domains_and_max_skew),
		cmocka_unit_test(default_constraints),
		cmocka_unit_test(retry_entry),
		cmocka_unit_test(trials_keep_slots),
		cmocka_unit_test(label_and_not_pending),
		cmocka_unit_test(search_finds_witness),
		cmocka_unit_test(search_merges_states),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
