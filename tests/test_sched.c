/* test_sched.c - the scheduling cycle and PodTopologySpread, on the worked
 * examples of shared/reference/podtopologyspread.md (values by hand). */
#include "fixture.h"

#include "../model/plugins.h"
#include "../model/validate.h"

static const char *three_zones =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a}}\n"
	"  - {name: n2, labels: {zone: b}}\n"
	"  - {name: n3, labels: {zone: c}}\n"
	"pods:\n"
	"  - {name: a1, nodeName: n1, labels: {app: web}}\n"
	"  - {name: a2, nodeName: n1, labels: {app: web}}\n"
	"  - {name: b1, nodeName: n2, labels: {app: web}}\n"
	"  - {name: c1, nodeName: n3, labels: {app: web}}\n"
	"  - {name: other, nodeName: n3, labels: {app: db}}\n"
	"  - {name: elsewhere, namespace: ns2, nodeName: n2, labels: {app: web}}\n"
	"  - {name: dying, nodeName: n2, terminating: true, labels: {app: web}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: p\n"
	"      labels: {app: web}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: web}}%s}\n";

static struct scenario *load_fmt(const char *fmt, const char *extra)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), fmt, extra);
	return fixture_load(buf);
}

/* §5.7: counts a=2, b=1, c=1 (other namespace, other labels and the
 * terminating pod never count); min 1; a: 2 + 1 - 1 = 2 > 1. */
static void filter_worked_example(void **state)
{
	(void)state;
	struct scenario *sc = load_fmt(three_zones, "");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	char buf[256];
	assert_non_null(t);
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.ncons, 1);
	const struct constraint_rec *r = &d.cons[0];
	assert_true(r->hard);
	assert_true(r->self_match);
	assert_int_equal(fixture_dom(sc, r, "a"), 2);
	assert_int_equal(fixture_dom(sc, r, "b"), 1);
	assert_int_equal(fixture_dom(sc, r, "c"), 1);
	assert_int_equal(r->global_min, 1);
	assert_string_equal(r->sel_str, "app=web");
	const struct node_rec *n1 = fixture_rec(sc, &d, "n1");
	assert_false(n1->feasible);
	assert_int_equal(n1->fail, PL_POD_TOPOLOGY_SPREAD);
	assert_string_equal(decision_reason(sc->cluster, &d, n1, buf, sizeof(buf)),
			    "node(s) didn't match pod topology spread constraints");
	assert_string_equal(decision_detail(sc->cluster, &d, n1, buf, sizeof(buf)),
			    "zone=a: 2 + 1 - 1 = 2 > maxSkew 1");
	assert_true(fixture_rec(sc, &d, "n2")->feasible);
	assert_true(fixture_rec(sc, &d, "n3")->feasible);
	assert_int_equal(d.outcome, OUT_SCHEDULED);
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* Same pod with minDomains 4: 3 domains < 4, min taken as 0, every skew
 * (3, 2, 2) exceeds 1. */
static void min_domains_forces_zero(void **state)
{
	(void)state;
	struct scenario *sc = load_fmt(three_zones, ", minDomains: 4");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_true(d.cons[0].min_forced_zero);
	assert_int_equal(d.cons[0].global_min, 0);
	assert_int_equal(d.outcome, OUT_PENDING);
	assert_string_equal(d.message,
			    "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.");
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* §8.5 without the PostFilter part. */
static void pending_message_histogram(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes:\n"
		"  - {name: n1, labels: {zone: a}}\n"
		"  - {name: n2, labels: {zone: b}}\n"
		"  - {name: n3, labels: {zone: c}, taints: [{key: dedicated, value: infra, effect: NoSchedule}]}\n"
		"  - {name: n4}\n"
		"pods:\n"
		"  - {name: w1, nodeName: n1, labels: {app: web}}\n"
		"  - {name: w2, nodeName: n2, labels: {app: web}}\n"
		"steps:\n"
		"  - schedule:\n"
		"      name: p\n"
		"      labels: {app: web}\n"
		"      topologySpreadConstraints:\n"
		"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
		"           labelSelector: {matchLabels: {app: web}}}\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	char buf[256];
	assert_true(timeline_step(t, &d));
	assert_int_equal(fixture_dom(sc, &d.cons[0], "c"), 0); /* taints ignored by default */
	assert_int_equal(d.cons[0].global_min, 0);
	const struct node_rec *n3 = fixture_rec(sc, &d, "n3");
	assert_int_equal(n3->fail, PL_TAINT_TOLERATION);
	assert_string_equal(decision_detail(sc->cluster, &d, n3, buf, sizeof(buf)),
			    "untolerated taint dedicated=infra:NoSchedule");
	const struct node_rec *n4 = fixture_rec(sc, &d, "n4");
	assert_string_equal(decision_detail(sc->cluster, &d, n4, buf, sizeof(buf)), "missing label zone");
	assert_string_equal(d.message,
		"0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints "
		"(missing required label), 1 node(s) had untolerated taint(s), 2 node(s) didn't match "
		"pod topology spread constraints.");
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

static const char *soft_only =
	"scheduler: {scoreWeights: {TaintToleration: 0, NodeAffinity: 0, NodeResourcesFit: 0,\n"
	"            NodeResourcesBalancedAllocation: 0, InterPodAffinity: 0}}\n"
	"nodes:\n%s"
	"steps:\n"
	"  - schedule:\n"
	"      name: p\n"
	"      labels: {app: web}\n"
	"      topologySpreadConstraints:\n";

/* §5.5: a=3, b=1, c=0, w = ln 5: raw 5, 2, 0 -> 0, 60, 100. */
static void soft_worked_example_1(void **state)
{
	(void)state;
	char buf[2048];
	snprintf(buf, sizeof(buf), soft_only,
		 "  - {name: n1, labels: {zone: a}}\n"
		 "  - {name: n2, labels: {zone: b}}\n"
		 "  - {name: n3, labels: {zone: c}}\n"
		 "pods:\n"
		 "  - {name: x1, nodeName: n1, labels: {app: web}}\n"
		 "  - {name: x2, nodeName: n1, labels: {app: web}}\n"
		 "  - {name: x3, nodeName: n1, labels: {app: web}}\n"
		 "  - {name: y1, nodeName: n2, labels: {app: web}}\n");
	strcat(buf, "        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
		    "           labelSelector: {matchLabels: {app: web}}}\n");
	struct scenario *sc = fixture_load(buf);
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_false(d.cons[0].hard);
	assert_int_equal(d.cons[0].size, 3);
	assert_int_equal(fixture_rec(sc, &d, "n1")->raw[PL_POD_TOPOLOGY_SPREAD], 5);
	assert_int_equal(fixture_rec(sc, &d, "n2")->raw[PL_POD_TOPOLOGY_SPREAD], 2);
	assert_int_equal(fixture_rec(sc, &d, "n3")->raw[PL_POD_TOPOLOGY_SPREAD], 0);
	assert_int_equal(fixture_rec(sc, &d, "n1")->norm[PL_POD_TOPOLOGY_SPREAD], 0);
	assert_int_equal(fixture_rec(sc, &d, "n2")->norm[PL_POD_TOPOLOGY_SPREAD], 60);
	assert_int_equal(fixture_rec(sc, &d, "n3")->norm[PL_POD_TOPOLOGY_SPREAD], 100);
	assert_int_equal(fixture_rec(sc, &d, "n3")->total, 200);
	assert_int_equal(d.chosen, fixture_node(sc, "n3"));
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* §5.6: hostname (ln 6) + zone (ln 4, maxSkew 2): raw 7, 4, 4, 2 ->
 * 28, 71, 71, 100; n2 and n3 tie below n4. */
static void soft_worked_example_2(void **state)
{
	(void)state;
	char buf[3072];
	snprintf(buf, sizeof(buf), soft_only,
		 "  - {name: n1, labels: {zone: a, kubernetes.io/hostname: n1}}\n"
		 "  - {name: n2, labels: {zone: a, kubernetes.io/hostname: n2}}\n"
		 "  - {name: n3, labels: {zone: b, kubernetes.io/hostname: n3}}\n"
		 "  - {name: n4, labels: {zone: b, kubernetes.io/hostname: n4}}\n"
		 "pods:\n"
		 "  - {name: x1, nodeName: n1, labels: {app: web}}\n"
		 "  - {name: x2, nodeName: n1, labels: {app: web}}\n"
		 "  - {name: y1, nodeName: n3, labels: {app: web}}\n");
	strcat(buf, "        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway,\n"
		    "           labelSelector: {matchLabels: {app: web}}}\n"
		    "        - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
		    "           labelSelector: {matchLabels: {app: web}}}\n");
	struct scenario *sc = fixture_load(buf);
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	static const char *names[] = { "n1", "n2", "n3", "n4" };
	static const int64_t raw[] = { 7, 4, 4, 2 }, norm[] = { 28, 71, 71, 100 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(fixture_rec(sc, &d, names[i])->raw[PL_POD_TOPOLOGY_SPREAD], raw[i]);
		assert_int_equal(fixture_rec(sc, &d, names[i])->norm[PL_POD_TOPOLOGY_SPREAD], norm[i]);
	}
	assert_int_equal(fixture_dom(sc, &d.cons[1], "a"), 2);
	assert_int_equal(fixture_dom(sc, &d.cons[1], "b"), 1);
	assert_int_equal(d.chosen, fixture_node(sc, "n4"));
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* v1.37 quirk: labelSelector {} counts no existing pod; selfMatch 1. */
static void empty_selector_quirk(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes:\n"
		"  - {name: n1, labels: {zone: a}}\n"
		"  - {name: n2, labels: {zone: b}}\n"
		"pods:\n"
		"  - {name: x1, nodeName: n1, labels: {app: web}}\n"
		"  - {name: x2, nodeName: n1, labels: {app: web}}\n"
		"steps:\n"
		"  - schedule:\n"
		"      name: p\n"
		"      labels: {app: web}\n"
		"      topologySpreadConstraints:\n"
		"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_true(d.cons[0].empty_quirk);
	assert_int_equal(fixture_dom(sc, &d.cons[0], "a"), 0);
	assert_int_equal(d.nfeasible, 2);
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* nodeTaintsPolicy Honor drops the tainted zone from the domains. */
static void taints_policy_honor(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes:\n"
		"  - {name: n1, labels: {zone: a}}\n"
		"  - {name: n2, labels: {zone: b}}\n"
		"  - {name: n3, labels: {zone: c}, taints: [{key: k, value: v, effect: NoSchedule}]}\n"
		"pods:\n"
		"  - {name: x1, nodeName: n1, labels: {app: web}}\n"
		"  - {name: y1, nodeName: n2, labels: {app: web}}\n"
		"steps:\n"
		"  - schedule:\n"
		"      name: p\n"
		"      labels: {app: web}\n"
		"      topologySpreadConstraints:\n"
		"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
		"           nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: web}}}\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_int_equal(fixture_dom(sc, &d.cons[0], "c"), -1);
	assert_int_equal(d.cons[0].nreal, 2);
	assert_int_equal(d.cons[0].global_min, 1);
	assert_int_equal(d.nfeasible, 2); /* a, b: 1 + 1 - 1 = 1 */
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* System defaults apply only with a selecting Service/owner; a zone-less
 * node is still scored (requireAllTopologies false). */
static void system_defaults(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"workloads:\n"
		"  - {kind: Service, name: web, namespace: default, selector: {app: web}}\n"
		"nodes:\n"
		"  - {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}\n"
		"  - {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
		"steps:\n"
		"  - schedule: {name: p, labels: {app: web}}\n"
		"  - schedule: {name: q, labels: {app: other}}\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.ncons, 2);
	assert_int_equal(d.cons[0].origin, ORIGIN_DEFAULT_SYSTEM);
	assert_int_equal(d.cons[0].max_skew, 3);
	assert_int_equal(d.cons[1].max_skew, 5);
	assert_string_equal(d.cons[0].sel_str, "app=web");
	assert_false(fixture_rec(sc, &d, "n2")->spread_ignored);
	assert_int_equal(fixture_dom(sc, &d.cons[1], ""), 0);
	decision_fini(&d);
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.ncons, 0);
	decision_fini(&d);
	timeline_free(t);
	scenario_free(sc);
}

/* A scheduler keeps answers across cycles (node shapes, resource
 * scores, term classes by namespace, work arrays) and checks them
 * against the cluster's counters: after each change made through the
 * cluster's setters, two long-lived schedulers decide exactly as a new
 * one does, lean and full, and the change shows where it must. */
static const char *changing =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a}, allocatable: {cpu: '4', memory: 8Gi}}\n"
	"  - {name: n2, labels: {zone: a}, allocatable: {cpu: '4', memory: 8Gi}}\n"
	"  - {name: n3, labels: {zone: b}, allocatable: {cpu: '4', memory: 8Gi}}\n"
	"  - {name: n4, labels: {zone: b}, allocatable: {cpu: '4', memory: 8Gi}}\n"
	"pods:\n"
	"  - {name: w1, nodeName: n1, labels: {app: web}, requests: {cpu: '1', memory: 1Gi}}\n"
	"  - {name: w2, nodeName: n3, labels: {app: web}, requests: {cpu: 500m, memory: 1Gi}}\n"
	"  - {name: filler, requests: {cpu: '3', memory: 2Gi}}\n"
	"  - name: guard\n"
	"    labels: {app: guard}\n"
	"    affinity:\n"
	"      podAntiAffinity:\n"
	"        requiredDuringSchedulingIgnoredDuringExecution:\n"
	"          - {labelSelector: {matchLabels: {app: web}}, topologyKey: zone}\n"
	"  - name: p\n"
	"    labels: {app: web}\n"
	"    requests: {cpu: '1', memory: 1Gi}\n"
	"    topologySpreadConstraints:\n"
	"      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
	"         labelSelector: {matchLabels: {app: web}}}\n"
	"    affinity:\n"
	"      nodeAffinity:\n"
	"        preferredDuringSchedulingIgnoredDuringExecution:\n"
	"          - weight: 10\n"
	"            preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}\n"
	"      podAntiAffinity:\n"
	"        preferredDuringSchedulingIgnoredDuringExecution:\n"
	"          - weight: 5\n"
	"            podAffinityTerm: {labelSelector: {matchLabels: {app: db}}, topologyKey: zone}\n";

static void same_full(const struct decision *a, const struct decision *b)
{
	assert_false(a->lean);
	assert_false(b->lean);
	assert_int_equal(a->outcome, b->outcome);
	assert_int_equal(a->chosen, b->chosen);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_int_equal(a->nfeasible, b->nfeasible);
	assert_int_equal(a->pre.outcome, b->pre.outcome);
	for (uint32_t i = 0; i < a->nnodes; i++) {
		const struct node_rec *x = &a->nodes[i], *y = &b->nodes[i];
		assert_int_equal(x->node, y->node);
		assert_int_equal(x->fail, y->fail);
		assert_int_equal(x->blockers, y->blockers);
		assert_int_equal(x->feasible, y->feasible);
		if (!x->feasible)
			continue;
		assert_int_equal(x->total, y->total);
		for (int p = 0; p < PL__COUNT; p++) {
			assert_int_equal(x->scored[p], y->scored[p]);
			if (x->scored[p]) {
				assert_int_equal(x->raw[p], y->raw[p]);
				assert_int_equal(x->norm[p], y->norm[p]);
			}
		}
	}
}

static void same_lean(const struct cluster *c, const struct decision *a, const struct decision *b)
{
	assert_int_equal(a->lean, b->lean);
	if (!a->lean) {
		same_full(a, b);
		return;
	}
	assert_int_equal(a->outcome, b->outcome);
	assert_int_equal(a->chosen, b->chosen);
	for (uint32_t id = 0; id < c->nnodes; id++) {
		assert_int_equal(a->verdict[id], b->verdict[id]);
		if (a->verdict[id] == PL_NONE)
			assert_int_equal(a->totals[id], b->totals[id]);
	}
}

/* Decides pod with x and y (long-lived) and a new scheduler, lean and
 * full, checks that all three agree, and returns x's full decision. */
static void decide_all(struct scheduler *x, struct scheduler *y, uint32_t pod, struct decision *out)
{
	struct cluster *c = x->c;
	struct scheduler *fresh = scheduler_new(c);
	assert_non_null(fresh);
	for (int lean = 1; lean >= 0; lean--) {
		struct decision d[3];
		struct scheduler *s[3] = { x, y, fresh };
		for (int k = 0; k < 3; k++) {
			memset(&d[k], 0, sizeof(d[k]));
			d[k].lean = lean;
			assert_true(sched_decide(s[k], pod, &d[k]));
		}
		same_lean(c, &d[0], &d[2]);
		same_lean(c, &d[1], &d[2]);
		decision_fini(&d[1]);
		decision_fini(&d[2]);
		if (lean)
			decision_fini(&d[0]);
		else
			*out = d[0];
	}
	scheduler_free(fresh);
}

/* The pending input pod name (a schedule step) added to the cluster,
 * admitted and unbound, as the step would add it. */
static uint32_t pod_id(struct scenario *sc, const char *name)
{
	struct cluster *c = sc->cluster;
	sym_t n = intern_str(c->in, name);
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		if (sc->steps[i].kind != STEP_SCHEDULE || sc->steps[i].pod.name != n)
			continue;
		struct pod q;
		assert_true(pod_copy(&q, &sc->steps[i].pod));
		assert_true(admit_pod(c, &q));
		int32_t id = cluster_add_pod(c, &q);
		assert_true(id >= 0);
		return (uint32_t)id;
	}
	fail_msg("no pending pod %s", name);
	return 0;
}

static void scheduler_sees_cluster_changes(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(changing);
	struct cluster *c = sc->cluster;
	struct scheduler *x = scheduler_new(c), *y = scheduler_new(c);
	assert_non_null(x);
	assert_non_null(y);
	uint32_t p = pod_id(sc, "p"), filler = pod_id(sc, "filler"), guard = pod_id(sc, "guard");
	uint32_t n1 = (uint32_t)fixture_node(sc, "n1"), n2 = (uint32_t)fixture_node(sc, "n2");
	uint32_t n3 = (uint32_t)fixture_node(sc, "n3"), n4 = (uint32_t)fixture_node(sc, "n4");
	struct decision d;

	decide_all(x, y, p, &d);
	assert_int_equal(d.nfeasible, 4);
	/* n1: (4 - 1 - 1) / 4 cpu free, (8 - 1 - 1) / 8 memory: (50 + 75) / 2 */
	assert_int_equal(fixture_rec(sc, &d, "n1")->raw[PL_NODE_RESOURCES_FIT], 62);
	assert_int_equal(fixture_rec(sc, &d, "n2")->raw[PL_NODE_AFFINITY], 0);
	decision_fini(&d);

	/* a taint: n4 fails TaintToleration */
	struct taint t = { intern_str(c->in, "k"), c->sym_empty, EFFECT_NO_SCHEDULE, intern_str(c->in, "NoSchedule") };
	assert_true(cluster_add_taint(c, n4, &t));
	decide_all(x, y, p, &d);
	assert_int_equal(fixture_rec(sc, &d, "n4")->fail, PL_TAINT_TOLERATION);
	assert_int_equal(d.nfeasible, 3);
	decision_fini(&d);

	/* a label: n2 matches the preferred node affinity (weight 10) */
	assert_true(cluster_set_label(c, n2, intern_str(c->in, "disk"), intern_str(c->in, "ssd")));
	decide_all(x, y, p, &d);
	assert_int_equal(fixture_rec(sc, &d, "n2")->raw[PL_NODE_AFFINITY], 10);
	assert_int_equal(d.chosen, (int32_t)n2);
	decision_fini(&d);

	/* resources: filler (3 cpu, 2Gi) bound on n1 leaves 0 cpu for p */
	cluster_bind(c, filler, n1);
	decide_all(x, y, p, &d);
	assert_int_equal(fixture_rec(sc, &d, "n1")->fail, PL_NODE_RESOURCES_FIT);
	decision_fini(&d);
	cluster_unbind(c, filler);
	cluster_bind(c, filler, n3);
	decide_all(x, y, p, &d);
	/* n3: (4 - 0.5 - 3 - 1) < 0 cpu; n1 is back, scored as at first */
	assert_int_equal(fixture_rec(sc, &d, "n3")->fail, PL_NODE_RESOURCES_FIT);
	assert_int_equal(fixture_rec(sc, &d, "n1")->raw[PL_NODE_RESOURCES_FIT], 62);
	decision_fini(&d);
	cluster_unbind(c, filler);

	/* a cordon: n3 fails NodeUnschedulable */
	cluster_set_unschedulable(c, n3, true);
	decide_all(x, y, p, &d);
	assert_int_equal(fixture_rec(sc, &d, "n3")->fail, PL_NODE_UNSCHEDULABLE);
	decision_fini(&d);

	/* a bound pod's required anti-affinity (a new term class): guard in
	 * zone a keeps web pods out of n1 and n2; nothing fits */
	cluster_bind(c, guard, n2);
	decide_all(x, y, p, &d);
	assert_int_equal(fixture_rec(sc, &d, "n1")->fail, PL_INTER_POD_AFFINITY);
	assert_int_equal(fixture_rec(sc, &d, "n2")->fail, PL_INTER_POD_AFFINITY);
	assert_int_equal(d.outcome, OUT_PENDING);
	decision_fini(&d);

	/* every change undone: n4, then n3 too, fit again */
	assert_int_equal(cluster_remove_taints(c, n4, t.key, EFFECT_NONE), 1);
	decide_all(x, y, p, &d);
	assert_int_equal(d.chosen, (int32_t)n4);
	decision_fini(&d);
	cluster_set_unschedulable(c, n3, false);
	cluster_unbind(c, guard);
	assert_true(cluster_set_label(c, n2, intern_str(c->in, "disk"), SYM_NONE));
	decide_all(x, y, p, &d);
	assert_int_equal(d.nfeasible, 4);
	assert_int_equal(fixture_rec(sc, &d, "n2")->raw[PL_NODE_AFFINITY], 0);
	decision_fini(&d);

	scheduler_free(x);
	scheduler_free(y);
	scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(filter_worked_example),
		cmocka_unit_test(min_domains_forces_zero),
		cmocka_unit_test(pending_message_histogram),
		cmocka_unit_test(soft_worked_example_1),
		cmocka_unit_test(soft_worked_example_2),
		cmocka_unit_test(empty_selector_quirk),
		cmocka_unit_test(taints_policy_honor),
		cmocka_unit_test(system_defaults),
		cmocka_unit_test(scheduler_sees_cluster_changes),
	};
	return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
