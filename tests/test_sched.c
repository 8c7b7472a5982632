/* test_sched.c - the scheduling cycle and PodTopologySpread, on the worked
 * examples of shared/reference/podtopologyspread.md (values by hand). */
#include "fixture.h"

#include "../model/plugins.h"

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
	};
	return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
