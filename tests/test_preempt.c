/* test_preempt.c - every blocker of a node, DefaultPreemption's dry run
 * and choice, its messages and their effects on the timeline, FitError's
 * histogram, event truncation and the Priority admission. Expected values
 * are worked out by hand from upstream (each case says how). */
#include <stdlib.h>

#include "fixture.h"
#include "../model/fiterror.h"
#include "../model/preempt.h"
#include "../model/validate.h"

static const char *pod_name(const struct scenario *sc, uint32_t id)
{
	return intern_get(sc->cluster->in, sc->cluster->pods[id].name);
}

/* Runs the first step in full; the caller finis d and frees sc. */
static void first_step(const char *yaml, struct scenario **sc, struct timeline **t, struct decision *d)
{
	*sc = fixture_load(yaml);
	*t = timeline_new(*sc);
	assert_non_null(*t);
	memset(d, 0, sizeof(*d));
	assert_true(timeline_step(*t, d));
}

static void done(struct scenario *sc, struct timeline *t, struct decision *d)
{
	decision_fini(d);
	timeline_free(t);
	scenario_free(sc);
}

/* k2 is tainted, lacks the zone key and has too little cpu: three
 * blockers in filter order; TaintToleration and the missing key are
 * unresolvable, the cpu is not (500m <= allocatable 1). */
static void blockers_in_filter_order(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: k2, allocatable: {cpu: '1'}, taints: [{key: a, value: b, effect: NoSchedule}]}\n"
		   "  - {name: z1, labels: {zone: a}, allocatable: {cpu: '1'}}\n"
		   "pods:\n"
		   "  - {name: f, nodeName: k2, requests: {cpu: 800m}}\n"
		   "steps:\n"
		   "  - schedule:\n"
		   "      name: p\n"
		   "      labels: {app: x}\n"
		   "      requests: {cpu: 500m}\n"
		   "      topologySpreadConstraints:\n"
		   "        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
		   "           labelSelector: {matchLabels: {app: x}}}\n",
		   &sc, &t, &d);
	const struct node_rec *k2 = fixture_rec(sc, &d, "k2"), *z1 = fixture_rec(sc, &d, "z1");
	assert_int_equal(k2->fail, PL_TAINT_TOLERATION);
	assert_int_equal(k2->blockers, (1u << PL_TAINT_TOLERATION) | (1u << PL_NODE_RESOURCES_FIT) |
					       (1u << PL_POD_TOPOLOGY_SPREAD));
	assert_int_equal(k2->blockers_unres, (1u << PL_TAINT_TOLERATION) | (1u << PL_POD_TOPOLOGY_SPREAD));
	char buf[256];
	assert_string_equal(decision_reason_of(sc->cluster, &d, k2, PL_NODE_RESOURCES_FIT, buf, sizeof(buf)),
			    "Insufficient cpu");
	assert_string_equal(decision_reason_of(sc->cluster, &d, k2, PL_POD_TOPOLOGY_SPREAD, buf, sizeof(buf)),
			    "node(s) didn't match pod topology spread constraints (missing required label)");
	assert_true(z1->feasible);
	assert_int_equal(z1->blockers, 0);
	/* the spread verdicts: k2 has no zone; z1's zone a: 0 + 1 - 0 = 1 */
	struct spread_verdict v;
	assert_int_equal(d.nhard, 1);
	assert_true(decision_spread_verdict(&d, k2, 0, &v));
	assert_false(v.has_domain);
	assert_false(v.ok);
	assert_true(decision_spread_verdict(&d, z1, 0, &v));
	assert_true(v.has_domain);
	assert_string_equal(intern_get(sc->cluster->in, v.domain), "a");
	assert_int_equal(v.match, 0);
	assert_int_equal(v.self, 1);
	assert_int_equal(v.global_min, 0);
	assert_int_equal(v.skew, 1);
	assert_true(v.ok);
	done(sc, t, &d);
}

/* TestSelectBestCandidate-like: node1's victims have priority 10 + 10
 * (sum 20 + 2 * 2^31), node2's one victim priority 20 (highest 20):
 * lowest highest priority first picks node1 (10 < 20). */
static void pick_lowest_highest_priority(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: node1, allocatable: {cpu: '1'}}\n"
		   "  - {name: node2, allocatable: {cpu: '1'}}\n"
		   "pods:\n"
		   "  - {name: a, nodeName: node1, priority: 10, requests: {cpu: 500m}}\n"
		   "  - {name: b, nodeName: node1, priority: 10, requests: {cpu: 500m}}\n"
		   "  - {name: c, nodeName: node2, priority: 20, requests: {cpu: '1'}}\n"
		   "steps:\n"
		   "  - schedule: {name: p, priority: 100, requests: {cpu: '1'}}\n",
		   &sc, &t, &d);
	assert_int_equal(d.outcome, OUT_PENDING);
	assert_int_equal(d.pre.outcome, PRE_NOMINATED);
	assert_int_equal(d.pre.nominated, fixture_node(sc, "node1"));
	assert_int_equal(d.pre.pick, PICK_HIGHEST_PRIORITY);
	assert_int_equal(d.pre.nvictims, 2);
	assert_string_equal(d.pre.message,
			    "preemption: found a potential placement for pod on node node1, preempting 2 victims");
	assert_string_equal(d.event, "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential "
				     "placement for pod on node node1, preempting 2 victims");
	/* the victims are gone, the pod nominated to node1 */
	const struct cluster *c = sc->cluster;
	assert_false(c->pods[d.pre.victims[0]].alive);
	assert_false(c->pods[d.pre.victims[1]].alive);
	assert_int_equal(c->nodes[fixture_node(sc, "node1")].npods, 0);
	assert_string_equal(intern_get(c->in, c->pods[d.pod].nominated), "node1");
	/* back: the victims are bound again where they were, in order */
	assert_true(timeline_prev(t));
	const struct node *n1 = &c->nodes[fixture_node(sc, "node1")];
	assert_int_equal(n1->npods, 2);
	assert_string_equal(pod_name(sc, n1->pods[0]), "a");
	assert_string_equal(pod_name(sc, n1->pods[1]), "b");
	/* and again without a new cycle (redo) */
	assert_true(timeline_next(t));
	assert_int_equal(n1->npods, 0);
	done(sc, t, &d);
}

/* Two victims before a pod that stays: undone, every pod is back at its
 * place (a, b, c), whatever order they went in. */
static void undo_keeps_pod_order(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: node1, allocatable: {cpu: '1'}}\n"
		   "pods:\n"
		   "  - {name: a, nodeName: node1, priority: 10, requests: {cpu: 400m}}\n"
		   "  - {name: b, nodeName: node1, priority: 10, requests: {cpu: 400m}}\n"
		   "  - {name: c, nodeName: node1, priority: 500, requests: {cpu: 200m}}\n"
		   "steps:\n"
		   "  - schedule: {name: p, priority: 100, requests: {cpu: 800m}}\n",
		   &sc, &t, &d);
	assert_int_equal(d.pre.outcome, PRE_NOMINATED);
	assert_int_equal(d.pre.nvictims, 2);
	const struct node *n1 = &sc->cluster->nodes[fixture_node(sc, "node1")];
	assert_int_equal(n1->npods, 1);
	assert_true(timeline_prev(t));
	assert_int_equal(n1->npods, 3);
	assert_string_equal(pod_name(sc, n1->pods[0]), "a");
	assert_string_equal(pod_name(sc, n1->pods[1]), "b");
	assert_string_equal(pod_name(sc, n1->pods[2]), "c");
	done(sc, t, &d);
}

/* Reprieve: node1 cpu 1, three victims 300m each (priorities 3, 2, 1);
 * the pod wants 500m. All removed: fits. Reprieved in importance order:
 * prio 3 back (300 + 500 <= 1000: stays), prio 2 back (600 + 500 > 1000:
 * victim), prio 1 back (600 + 500: victim). Victims [prio 2, prio 1]. */
static void reprieve_in_importance_order(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: node1, allocatable: {cpu: '1'}}\n"
		   "pods:\n"
		   "  - {name: v1, nodeName: node1, priority: 1, requests: {cpu: 300m}}\n"
		   "  - {name: v3, nodeName: node1, priority: 3, requests: {cpu: 300m}}\n"
		   "  - {name: v2, nodeName: node1, priority: 2, requests: {cpu: 300m}}\n"
		   "steps:\n"
		   "  - schedule: {name: p, priority: 100, requests: {cpu: 500m}}\n",
		   &sc, &t, &d);
	assert_int_equal(d.pre.outcome, PRE_NOMINATED);
	assert_int_equal(d.pre.nvictims, 2);
	assert_string_equal(pod_name(sc, d.pre.victims[0]), "v2");
	assert_string_equal(pod_name(sc, d.pre.victims[1]), "v1");
	assert_int_equal(d.pre.pick, PICK_ONLY);
	done(sc, t, &d);
}

/* No candidate: node1's pod has a higher priority (no victims), node2 is
 * cordoned (unresolvable: not helpful). FitError over the dry run, sorted
 * as strings ('N' < 'P'); the nomination stays unset. */
static void no_candidate_message(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: node1, allocatable: {pods: '1'}}\n"
		   "  - {name: node2, unschedulable: true}\n"
		   "pods:\n"
		   "  - {name: big, nodeName: node1, priority: 500}\n"
		   "steps:\n"
		   "  - schedule: {name: p, priority: 100}\n",
		   &sc, &t, &d);
	assert_int_equal(d.pre.outcome, PRE_NO_CANDIDATE);
	assert_string_equal(d.pre.message, "preemption: 0/2 nodes are available: 1 No preemption victims found for "
					   "incoming pod, 1 Preemption is not helpful for scheduling.");
	assert_int_equal(sc->cluster->pods[d.pod].nominated, SYM_NONE);
	done(sc, t, &d);
}

/* preemptionPolicy Never: not eligible, the text of
 * default_preemption.go PodEligibleToPreemptOthers. */
static void never_is_not_eligible(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("nodes:\n"
		   "  - {name: node1, allocatable: {pods: '1'}}\n"
		   "pods:\n"
		   "  - {name: low, nodeName: node1}\n"
		   "steps:\n"
		   "  - schedule: {name: p, priority: 100, preemptionPolicy: Never}\n",
		   &sc, &t, &d);
	assert_int_equal(d.pre.outcome, PRE_NOT_ELIGIBLE);
	assert_string_equal(d.event, "0/1 nodes are available: 1 Too many pods. preemption: not eligible due to "
				     "preemptionPolicy=Never.");
	done(sc, t, &d);
}

/* A pod nominated to node1 (priority 100) holds its place against a pod
 * of lower priority: with it counted node1 has no room (pods 1). */
static void nominated_pod_holds_its_node(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load("nodes:\n"
					   "  - {name: node1, allocatable: {pods: '1'}}\n"
					   "pods:\n"
					   "  - {name: low, nodeName: node1}\n"
					   "steps:\n"
					   "  - schedule: {name: p, priority: 100}\n"
					   "  - schedule: {name: q, priority: 50}\n"
					   "  - retry: p\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_next(t)); /* p preempts low */
	memset(&d, 0, sizeof(d));
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_PENDING);
	assert_string_equal(d.message, "0/1 nodes are available: 1 Too many pods.");
	/* q may not preempt p (nominated pods are no victims) */
	assert_int_equal(d.pre.outcome, PRE_NO_CANDIDATE);
	decision_fini(&d);
	memset(&d, 0, sizeof(d));
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_SCHEDULED);
	assert_int_equal(d.chosen, fixture_node(sc, "node1"));
	assert_true(d.pre.nominated_first);
	done(sc, t, &d);
}

/* A dump taken while a victim of an earlier preemption terminates on the
 * pod's nominated node (deletionTimestamp, DisruptionTarget True with
 * reason PreemptionByScheduler): PodEligibleToPreemptOthers says no, and
 * the nomination stays. n1 holds two pods of two allowed: Too many pods
 * (Unschedulable, so the terminating pod counts). */
static void terminating_victim_not_eligible(void **state)
{
	(void)state;
	struct scenario *sc;
	struct timeline *t;
	struct decision d;
	first_step("apiVersion: v1\nkind: List\nitems:\n"
		   "- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {pods: '2'}}}\n"
		   "- apiVersion: v1\n  kind: Pod\n"
		   "  metadata: {name: v, namespace: default, deletionTimestamp: '2026-11-20T09:00:00Z'}\n"
		   "  spec: {nodeName: n1, priority: 0, containers: [{name: c}]}\n"
		   "  status:\n    conditions:\n"
		   "    - {type: DisruptionTarget, status: 'True', reason: PreemptionByScheduler}\n"
		   "- {apiVersion: v1, kind: Pod, metadata: {name: w, namespace: default},\n"
		   "   spec: {nodeName: n1, priority: 0, containers: [{name: c}]}}\n"
		   "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: default}\n"
		   "  spec: {priority: 100, containers: [{name: c}]}\n"
		   "  status: {nominatedNodeName: n1}\n",
		   &sc, &t, &d);
	assert_int_equal(d.pre.outcome, PRE_NOT_ELIGIBLE);
	assert_string_equal(d.event, "0/1 nodes are available: 1 Too many pods. preemption: not eligible due to a "
				     "terminating pod on the nominated node.");
	assert_string_equal(intern_get(sc->cluster->in, sc->cluster->pods[d.pod].nominated), "n1");
	done(sc, t, &d);
}

/* FitError.Error sorts "COUNT REASON" as strings: "10 b" before "2 a". */
static void histogram_sorts_as_strings(void **state)
{
	(void)state;
	struct reason_hist h = { 0 };
	assert_true(reason_hist_add(&h, "b", 10));
	assert_true(reason_hist_add(&h, "a", 1));
	assert_true(reason_hist_add(&h, "a", 1));
	char *s = reason_hist_text(&h, 12);
	assert_string_equal(s, "0/12 nodes are available: 10 b, 2 a.");
	free(s);
	reason_hist_fini(&h);
}

/* schedule_one.go truncateMessage: 1,024 bytes stay, 1,025 become 1,020
 * and " ...". */
static void event_truncation(void **state)
{
	(void)state;
	char buf[1100];
	memset(buf, 'x', 1024);
	buf[1024] = '\0';
	event_truncate(buf);
	assert_int_equal(strlen(buf), 1024);
	assert_int_equal(buf[1023], 'x');
	memset(buf, 'x', 1025);
	buf[1025] = '\0';
	event_truncate(buf);
	assert_int_equal(strlen(buf), 1024);
	assert_string_equal(buf + 1020, " ...");
}

/* The Priority admission: the globalDefault class's value and policy;
 * a policy of the pod's own that differs is refused. */
static void admission_from_classes(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load("priorityClasses:\n"
					   "  - {name: low, value: 7, globalDefault: true, preemptionPolicy: Never}\n"
					   "nodes: [{name: n1}]\n"
					   "steps:\n"
					   "  - schedule: {name: a}\n"
					   "  - schedule: {name: b, preemptionPolicy: PreemptLowerPriority}\n");
	struct pod p;
	assert_true(pod_copy(&p, &sc->steps[0].pod));
	assert_null(admit_priority(sc->cluster, &p));
	assert_int_equal(p.spec.priority, 7);
	assert_string_equal(intern_get(sc->cluster->in, p.spec.preemption_policy), "Never");
	pod_fini(&p);
	assert_true(pod_copy(&p, &sc->steps[1].pod));
	char *err = admit_priority(sc->cluster, &p);
	assert_string_equal(err, "pods \"b\" is forbidden: the string value of PreemptionPolicy "
				 "(PreemptLowerPriority) must not be provided in pod spec; priority admission "
				 "controller computed Never from the given PriorityClass name");
	free(err);
	pod_fini(&p);
	scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blockers_in_filter_order),
		cmocka_unit_test(pick_lowest_highest_priority),
		cmocka_unit_test(reprieve_in_importance_order),
		cmocka_unit_test(undo_keeps_pod_order),
		cmocka_unit_test(no_candidate_message),
		cmocka_unit_test(never_is_not_eligible),
		cmocka_unit_test(nominated_pod_holds_its_node),
		cmocka_unit_test(terminating_victim_not_eligible),
		cmocka_unit_test(histogram_sorts_as_strings),
		cmocka_unit_test(event_truncation),
		cmocka_unit_test(admission_from_classes),
	};
	return cmocka_run_group_tests_name("preempt", tests, NULL, NULL);
}
