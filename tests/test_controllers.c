/* test_controllers.c - the controllers' rules one by one
 * (model/controllers/): ActivePodsWithRanks.Less rule by rule, the
 * logarithmic time buckets, the Deployment's fenceposts and rolling
 * arithmetic, and the loader's errors for the new fields. Expected values
 * are worked out from the upstream code (the comments give the sums). */
#include "fixture.h"

#include <stdlib.h>

#include "../model/controllers/ctl.h"
#include "../model/intern.h"

#define DAY 86400

static struct intern *in;

/* a bound, Running, Ready pod: the rules' neutral ground */
static struct pod mk(int32_t node)
{
	struct pod p;
	memset(&p, 0, sizeof(p));
	p.node = node;
	p.alive = true;
	p.created = INT64_MAX;
	p.life.phase = PHASE_RUNNING;
	p.life.ready = 1;
	p.life.ready_since = INT64_MAX;
	return p;
}

static bool less(const struct pod *a, int32_t ra, const struct pod *b, int32_t rb, int64_t now)
{
	return ctl_rs_less(in, a, ra, b, rb, now);
}

/* both directions: a strictly before b */
#define BEFORE(a, ra, b, rb, now)                              \
	do {                                                    \
		assert_true(less(&(a), (ra), &(b), (rb), (now)));  \
		assert_false(less(&(b), (rb), &(a), (ra), (now))); \
	} while (0)

static void logrank_buckets(void **state)
{
	(void)state;
	int64_t now = 1782864000; /* 2026-07-01T00:00:00Z */
	assert_int_equal(ctl_logrank(now, now), -1);        /* d <= 0 */
	assert_int_equal(ctl_logrank(now, now + 5), -1);
	/* 1 s = 1e9 ns: log2 = 29.897 */
	assert_int_equal(ctl_logrank(now, now - 1), 29);
	/* 2 s: 30.897 */
	assert_int_equal(ctl_logrank(now, now - 2), 30);
	/* 668 days (2024-09-01): 5.77152e16 ns, log2 55.68 */
	assert_int_equal(ctl_logrank(now, now - 668LL * DAY), 55);
	/* 5235 days (2012-03-01): 4.52304e17 ns, log2 58.65 */
	assert_int_equal(ctl_logrank(now, now - 5235LL * DAY), 58);
	/* beyond 292 years the span saturates at 2^63-1 ns, which float64
	 * rounds to 2^63: math.Log2 gives exactly 63 */
	assert_int_equal(ctl_logrank(now, now - 400LL * 365 * DAY), 63);
	/* 4 s and 7 s share bucket 31 (4e9: 31.897; 7e9: 32.70 -> 32) */
	assert_int_equal(ctl_logrank(now, now - 4), 31);
	assert_int_equal(ctl_logrank(now, now - 7), 32);
	/* 3 s: 31.48 -> 31, the same bucket as 4 s */
	assert_int_equal(ctl_logrank(now, now - 3), 31);
}

static void rule1_unassigned_first(void **state)
{
	(void)state;
	struct pod a = mk(-1), b = mk(0);
	a.life.phase = b.life.phase = PHASE_PENDING;
	BEFORE(a, 0, b, 0, 0);
}

static void rule2_phase(void **state)
{
	(void)state;
	struct pod pend = mk(0), unk = mk(0), run = mk(0);
	pend.life.phase = PHASE_PENDING;
	unk.life.phase = PHASE_UNKNOWN;
	BEFORE(pend, 0, unk, 0, 0);
	BEFORE(unk, 0, run, 0, 0);
	/* a bound pod without a phase is Running (contract) */
	struct pod none = mk(0);
	none.life.phase = PHASE_NONE;
	none.life.ready = -1;
	assert_int_equal(ctl_phase(&none), PHASE_RUNNING);
	assert_true(ctl_ready(&none));
	BEFORE(pend, 0, none, 0, 0);
}

static void rule3_not_ready_first(void **state)
{
	(void)state;
	struct pod a = mk(0), b = mk(0);
	a.life.ready = 0;
	/* readiness outranks the deletion cost */
	a.life.deletion_cost = 1000;
	BEFORE(a, 0, b, 0, 0);
}

static void rule4_deletion_cost(void **state)
{
	(void)state;
	struct pod a = mk(0), b = mk(0);
	a.life.deletion_cost = -5;
	/* cost outranks the colocation rank */
	BEFORE(a, 1, b, 5, 0);
}

static void rule5_rank(void **state)
{
	(void)state;
	struct pod a = mk(0), b = mk(1);
	/* more related pods on its node first; rule 6 would say the other */
	a.life.ready_since = 100;
	b.life.ready_since = 200;
	BEFORE(a, 3, b, 2, 1000);
}

static void rule6_ready_time(void **state)
{
	(void)state;
	int64_t now = 1782864000;
	struct pod young = mk(0), old = mk(0);
	young.life.ready_since = now - 668LL * DAY;  /* bucket 55 */
	old.life.ready_since = now - 5235LL * DAY;   /* bucket 58 */
	BEFORE(young, 0, old, 0, now);
	/* same bucket (3 s and 4 s: 31), different times: the UID decides,
	 * not the time and not rule 7 */
	struct pod x = mk(0), y = mk(0);
	x.life.ready_since = now - 3;
	y.life.ready_since = now - 4;
	x.life.uid = intern_str(in, "b-uid");
	y.life.uid = intern_str(in, "a-uid");
	x.life.restarts = 9;
	BEFORE(y, 0, x, 0, now);
	/* a zero ready time counts as after any other */
	struct pod z = mk(0);
	BEFORE(z, 0, old, 0, now);
	/* equal times: rule 6 passes to rule 7 */
	struct pod r = mk(0), s = mk(0);
	r.life.ready_since = s.life.ready_since = now - 10;
	r.life.restarts = 1;
	BEFORE(r, 0, s, 0, now);
}

static void rule7_restarts(void **state)
{
	(void)state;
	struct pod a = mk(0), b = mk(0);
	a.life.restarts = 4;
	b.life.restarts = 4;
	a.life.sidecar_restarts = 6;
	BEFORE(a, 0, b, 0, 0);
	b.life.restarts = 5;
	BEFORE(b, 0, a, 0, 0); /* regular restarts before sidecars */
}

static void rule8_creation(void **state)
{
	(void)state;
	int64_t now = 1782864000;
	struct pod young = mk(0), old = mk(0), none = mk(0);
	young.created = now - 487LL * DAY; /* 4.20768e16 ns: 55 */
	old.created = now - 6025LL * DAY;  /* 5.2056e17 ns: 58 */
	BEFORE(young, 0, old, 0, now);
	BEFORE(none, 0, young, 0, now);
	/* same bucket: the smaller UID first */
	struct pod p = mk(0), q = mk(0);
	p.created = now - 3;
	q.created = now - 4;
	p.life.uid = intern_str(in, "00000000-0000-4000-8000-000000000002");
	q.life.uid = intern_str(in, "00000000-0000-4000-8000-000000000001");
	BEFORE(q, 0, p, 0, now);
	/* all equal: neither before the other */
	struct pod e1 = mk(0), e2 = mk(0);
	assert_false(less(&e1, 0, &e2, 0, now));
	assert_false(less(&e2, 0, &e1, 0, now));
}

static void fenceposts(void **state)
{
	(void)state;
	struct int_or_pct p25 = {true, true, 25}, p1 = {true, true, 1}, zero = {true, false, 0};
	struct int_or_pct one = {true, false, 1}, unset = {0};
	int32_t s, u;
	ctl_fenceposts(&p25, &p25, 10, &s, &u); /* ceil 2.5, floor 2.5 */
	assert_int_equal(s, 3);
	assert_int_equal(u, 2);
	ctl_fenceposts(&unset, &unset, 4, &s, &u); /* API default 25% */
	assert_int_equal(s, 1);
	assert_int_equal(u, 1);
	ctl_fenceposts(&p25, &p25, 3, &s, &u); /* ceil .75, floor .75 */
	assert_int_equal(s, 1);
	assert_int_equal(u, 0);
	ctl_fenceposts(&p1, &p1, 2, &s, &u); /* ceil .02, floor .02 */
	assert_int_equal(s, 1);
	assert_int_equal(u, 0);
	ctl_fenceposts(&zero, &p1, 2, &s, &u); /* 0/0: unavailable becomes 1 */
	assert_int_equal(s, 0);
	assert_int_equal(u, 1);
	ctl_fenceposts(&one, &zero, 3, &s, &u);
	assert_int_equal(s, 1);
	assert_int_equal(u, 0);
}

static void rolling_math(void **state)
{
	(void)state;
	/* R 3, surge 1: the new set's first size, with 3 old pods */
	assert_int_equal(ctl_new_rs_replicas(3, 1, 3, 0), 1);
	/* 4 pods already = R + surge: no growth */
	assert_int_equal(ctl_new_rs_replicas(3, 1, 4, 1), 1);
	/* after an old pod went: 3 < 4 -> +1, not beyond R */
	assert_int_equal(ctl_new_rs_replicas(3, 1, 3, 1), 2);
	assert_int_equal(ctl_new_rs_replicas(3, 5, 3, 2), 3);
	/* R 4, surge 1, unavailable 1, pass 1: 5 pods, new 1 of 0 available:
	 * 5 - 3 - 1 = 1 */
	assert_int_equal(ctl_max_scaled_down(5, 4, 1, 1, 0), 1);
	/* maxUnavailable 0, new pod not yet available: 4 - 3 - 1 = 0 */
	assert_int_equal(ctl_max_scaled_down(4, 3, 0, 1, 0), 0);
	assert_int_equal(ctl_max_scaled_down(4, 3, 0, 1, 1), 1);
	/* rolling_test.go TestDeploymentController_reconcileNewReplicaSet
	 * (R 10): surge 0, old 10, new 0: no scale; surge 2: 2; surge 2,
	 * old 5: 7; surge 2, old 10, new 2: no scale */
	assert_int_equal(ctl_new_rs_replicas(10, 0, 10, 0), 0);
	assert_int_equal(ctl_new_rs_replicas(10, 2, 10, 0), 2);
	assert_int_equal(ctl_new_rs_replicas(10, 2, 5, 0), 7);
	assert_int_equal(ctl_new_rs_replicas(10, 2, 12, 2), 2);
	/* TestDeploymentController_reconcileOldReplicaSets (R 10, surge 0):
	 * unavailable 0 resolves to 1 (fencepost): old 10 -> 9; unavailable
	 * 2: 10 -> 8; new 2 of 0 available: 10 - 8 - 2 = 0, no scale */
	struct int_or_pct zero = {true, false, 0}, two = {true, false, 2};
	int32_t su, un;
	ctl_fenceposts(&zero, &zero, 10, &su, &un);
	assert_int_equal(un, 1);
	assert_int_equal(ctl_max_scaled_down(10, 10, un, 0, 0), 1);
	ctl_fenceposts(&zero, &two, 10, &su, &un);
	assert_int_equal(ctl_max_scaled_down(10, 10, un, 0, 0), 2);
	assert_int_equal(ctl_max_scaled_down(10, 10, un, 2, 0), 0);
}

/* A rollout R=4, 25%/25% on empty nodes: +1 -1 +1 -2 +2 -1 (the
 * availability read at each pass's start). */
static void rollout_passes(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes: [{name: n1}, {name: n2}]\n"
		"workloads:\n"
		"  - {kind: Deployment, name: d, selector: {app: d}, replicas: 4, template: {labels: {app: d}}}\n"
		"  - {kind: ReplicaSet, name: d-old, owner: Deployment/d, selector: {app: d, pod-template-hash: old},\n"
		"     replicas: 4, template: {labels: {app: d, pod-template-hash: old}}}\n"
		"pods:\n"
		"  - {name: o1, nodeName: n1, labels: {app: d, pod-template-hash: old}, ownerReferences: [{kind: ReplicaSet, name: d-old}]}\n"
		"  - {name: o2, nodeName: n1, labels: {app: d, pod-template-hash: old}, ownerReferences: [{kind: ReplicaSet, name: d-old}]}\n"
		"  - {name: o3, nodeName: n2, labels: {app: d, pod-template-hash: old}, ownerReferences: [{kind: ReplicaSet, name: d-old}]}\n"
		"  - {name: o4, nodeName: n2, labels: {app: d, pod-template-hash: old}, ownerReferences: [{kind: ReplicaSet, name: d-old}]}\n"
		"steps:\n"
		"  - rollout: {name: d, template: {labels: {app: d, v: \"2\"}}}\n");
	struct timeline *t = timeline_new(sc);
	assert_non_null(t);
	assert_true(timeline_next(t));
	const struct ctl_run *k = timeline_step_rec(t, 0);
	assert_non_null(k);
	const char *want = "CDCDDCCD";
	assert_int_equal(k->nsubs, strlen(want));
	for (uint32_t i = 0; i < k->nsubs; i++)
		assert_int_equal(k->subs[i].kind == CTL_CREATE ? 'C' : 'D', want[i]);
	/* undo puts every pod back, redo replays */
	uint32_t alive = 0;
	assert_true(timeline_prev(t));
	for (uint32_t i = 0; i < sc->cluster->npods; i++)
		alive += sc->cluster->pods[i].alive;
	assert_int_equal(alive, 4);
	assert_int_equal(sc->cluster->nworkloads, 2);
	assert_true(timeline_next(t));
	alive = 0;
	for (uint32_t i = 0; i < sc->cluster->npods; i++)
		alive += sc->cluster->pods[i].alive;
	assert_int_equal(alive, 4);
	assert_int_equal(sc->cluster->nworkloads, 3);
	timeline_free(t);
	scenario_free(sc);
}

/* A created pod's UID and times come from its sub-step's index. */
static void created_pod_identity(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"now: \"2026-07-01T00:00:00Z\"\n"
		"nodes: [{name: n1}]\n"
		"workloads: [{kind: ReplicaSet, name: rs, selector: {app: a}, replicas: 0, template: {labels: {app: a}}}]\n"
		"steps:\n"
		"  - cordon: n1\n"
		"  - uncordon: n1\n"
		"  - scale: {kind: ReplicaSet, name: rs, replicas: 2}\n");
	struct timeline *t = timeline_new(sc);
	assert_true(timeline_goto(t, 3));
	const struct cluster *c = sc->cluster;
	sym_t n = intern_find(c->in, "rs-2", 4);
	int32_t id = cluster_find_pod(c, c->sym_default, n);
	assert_true(id >= 0);
	/* step 3 is index 3; its sub-steps 4 and 5 */
	assert_string_equal(intern_get(c->in, c->pods[id].life.uid), "00000000-0000-4000-8000-000000000005");
	assert_int_equal(c->pods[id].created, c->now + 5);
	assert_int_equal(c->now, 1782864000);
	timeline_free(t);
	scenario_free(sc);
}

static int load_fails(const char *yaml, const char *want)
{
	struct scenario *sc = NULL;
	struct load_errors errs;
	memset(&errs, 0, sizeof(errs));
	int ok = load_scenario_mem("h.yaml", yaml, strlen(yaml), NULL, &sc, &errs);
	if (ok)
		scenario_free(sc);
	bool found = false;
	for (uint32_t i = 0; i < errs.n; i++)
		if (strstr(errs.v[i].msg, want) && errs.v[i].line > 0)
			found = true;
	if (!found)
		for (uint32_t i = 0; i < errs.n; i++)
			fprintf(stderr, "  got %u:%u: %s\n", errs.v[i].line, errs.v[i].col, errs.v[i].msg);
	load_errors_fini(&errs);
	return !ok && found;
}

/* Hostile and wrong input for the new fields: each an error at a place. */
static void bad_fields(void **state)
{
	(void)state;
	assert_true(load_fails("workloads: [{kind: ReplicaSet, name: r, replicas: -1}]\n", "replicas"));
	assert_true(load_fails("workloads: [{kind: ReplicaSet, name: r, replicas: x}]\n", "replicas"));
	assert_true(load_fails("workloads: [{kind: Service, name: s, replicas: 2}]\n", "only on a Deployment"));
	assert_true(load_fails("workloads: [{kind: Deployment, name: d, strategy: {maxSurge: 0, maxUnavailable: 0}}]\n",
			       "both 0"));
	assert_true(load_fails("workloads: [{kind: Deployment, name: d, strategy: {maxSurge: \"x%\"}}]\n", "maxSurge"));
	assert_true(load_fails("workloads: [{kind: StatefulSet, name: s, podManagementPolicy: Sometimes}]\n",
			       "podManagementPolicy"));
	assert_true(load_fails("workloads: [{kind: ReplicaSet, name: r, template: {labels: {a: b}, nodeName: n1}}]\n",
			       "nodeName"));
	assert_true(load_fails("workloads: [{kind: ReplicaSet, name: r, owner: web}]\n", "KIND/NAME"));
	assert_true(load_fails("workloads: [{kind: ReplicaSet, name: r, owner: Deployment/none}]\n",
			       "does not exist"));
	assert_true(load_fails("nodes: [{name: n1}]\npods: [{name: p, nodeName: n1, phase: Asleep}]\n", "phase"));
	assert_true(load_fails("nodes: [{name: n1}]\npods: [{name: p, nodeName: n1, restarts: -2}]\n", "restarts"));
	assert_true(load_fails("nodes: [{name: n1}]\npods: [{name: p, nodeName: n1, readySince: yesterday}]\n",
			       "readySince"));
	assert_true(load_fails("now: soon\n", "invalid now"));
	assert_true(load_fails("nodes: [{name: n1}]\nsteps: [{scale: {kind: Pod, name: p, replicas: 1}}]\n",
			       "unknown kind 'Pod'"));
	assert_true(load_fails("nodes: [{name: n1}]\nsteps: [{scale: {kind: ReplicaSet, name: p}}]\n",
			       "no 'replicas'"));
	assert_true(load_fails("nodes: [{name: n1}]\nsteps: [{deschedule: {constraints: [Sometimes]}}]\n",
			       "unknown constraint action"));
	assert_true(load_fails("nodes: [{name: n1}]\nsteps: [{rollout: {name: d, maxSurge: \"-1\"}}]\n",
			       "maxSurge"));
	assert_true(load_fails("nodes: [{name: n1}]\nsteps: [{rollout: {name: d}, choose: n1}]\n", "choose"));
}

/* Step errors: the step's outcome error with a message, nothing changed. */
static void step_errors(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes: [{name: n1}]\n"
		"workloads:\n"
		"  - {kind: Deployment, name: d, selector: {app: d}, replicas: 1, template: {labels: {app: d}}}\n"
		"  - {kind: ReplicaSet, name: d-1, owner: Deployment/d, selector: {app: d}, replicas: 1, template: {labels: {app: d}}}\n"
		"steps:\n"
		"  - scale: {kind: ReplicaSet, name: nothing, replicas: 1}\n"
		"  - scale: {kind: Deployment, name: d, replicas: -3}\n"
		"  - scale: {kind: ReplicaSet, name: d-1, replicas: 3}\n"
		"  - rollout: {name: d, maxSurge: 0, maxUnavailable: 0, template: {labels: {app: d, v: x}}}\n"
		"  - rollout: {name: d, template: {labels: {other: x}}}\n");
	struct timeline *t = timeline_new(sc);
	const char *want[] = {"no ReplicaSet default/nothing", "replicas must be 0 or more", "belongs to a Deployment",
			      "both 0", "selector"};
	for (uint32_t i = 0; i < 5; i++) {
		assert_true(timeline_next(t));
		assert_int_equal(t->res[i].outcome, OUT_ERROR);
		assert_non_null(strstr(t->res[i].message, want[i]));
	}
	timeline_free(t);
	scenario_free(sc);
}

static int setup(void **state)
{
	(void)state;
	in = intern_new();
	return in ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	intern_free(in);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(logrank_buckets),
		cmocka_unit_test(rule1_unassigned_first),
		cmocka_unit_test(rule2_phase),
		cmocka_unit_test(rule3_not_ready_first),
		cmocka_unit_test(rule4_deletion_cost),
		cmocka_unit_test(rule5_rank),
		cmocka_unit_test(rule6_ready_time),
		cmocka_unit_test(rule7_restarts),
		cmocka_unit_test(rule8_creation),
		cmocka_unit_test(fenceposts),
		cmocka_unit_test(rolling_math),
		cmocka_unit_test(rollout_passes),
		cmocka_unit_test(created_pod_identity),
		cmocka_unit_test(bad_fields),
		cmocka_unit_test(step_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
