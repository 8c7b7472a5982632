/* test_autoscale.c - the autoscalers' simulations as the view runs them:
 * again and again, as dry runs over the same state (model/autoscale/). */
#include <stdlib.h>

#include "fixture.h"
#include "../model/autoscale/autoscale.h"
#include "../util/out.h"

/* Two node groups (one with an upcoming node and a DaemonSet pod its
 * template copies, one from a template in a zone of its own) and a
 * NodePool; six replicas, one per node (hostname spread), Pending. A CA
 * loop adds the upcoming node, two templates and five estimate nodes per
 * group (web-1 takes the upcoming node), ng-a's each with a copy of the
 * DaemonSet pod. */
static const char scenario[] =
	"nodeGroups:\n"
	"  - {name: ng-a, max: 10, size: 2, nodes: [a-1]}\n"
	"  - name: ng-b\n"
	"    max: 10\n"
	"    size: 0\n"
	"    template:\n"
	"      labels: {topology.kubernetes.io/zone: b}\n"
	"      allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}\n"
	"instanceTypes:\n"
	"  - {name: m, allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}, zones: [a, b], price: 0.1}\n"
	"nodePools:\n"
	"  - {name: kp}\n"
	"nodes:\n"
	"  - {name: a-1, labels: {kubernetes.io/hostname: a-1, topology.kubernetes.io/zone: a},"
	" allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n"
	"pods:\n"
	"  - {name: ds-a-1, namespace: kube-system, nodeName: a-1, labels: {app: ds},"
	" ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, controller: true}],"
	" requests: {cpu: 500m}}\n"
	"  - {name: filler, nodeName: a-1, requests: {cpu: \"3\"}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: web\n"
	"      labels: {app: web}\n"
	"      ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, controller: true}]\n"
	"      requests: {cpu: \"1\"}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,"
	" labelSelector: {matchLabels: {app: web}}}\n"
	"    replicas: 6\n"
	"  - scaleUp: {}\n"
	"  - retry: web-1\n";

/* One dry run of autoscaler k over the live cluster, as the view's
 * other_autoscaler makes it: its report as explain words it. */
static char *dry_run(struct timeline *t, enum as_kind k)
{
	struct as_step a;
	memset(&a, 0, sizeof(a));
	a.kind = k;
	a.dry = true;
	a.over.balance = a.over.force_ds = a.over.pref_ignore = -1;
	a.over.max_nodes_total = a.over.max_per_scaleup = -1;
	struct as_report *rep = NULL;
	struct as_changes ch;
	memset(&ch, 0, sizeof(ch));
	assert_true(as_scale_up(t->sched, t->sc, &a, &rep, &ch));
	assert_non_null(rep);
	assert_null(rep->error);
	assert_int_equal(ch.nnodes, 0);
	assert_int_equal(ch.npods, 0);
	struct out_buf b;
	memset(&b, 0, sizeof(b));
	as_report_text(&b, rep);
	as_report_free(rep);
	assert_false(b.oom);
	out_buf_add(&b, "", 1);
	return b.s;
}

/* A cycle's outcome for the named pod in words: every node's verdict. */
static char *verdicts(struct timeline *t, const char *name)
{
	struct cluster *c = t->c;
	int32_t pod = cluster_find_pod(c, c->sym_default, intern_find(c->in, name, strlen(name)));
	assert_true(pod >= 0);
	struct decision d;
	memset(&d, 0, sizeof(d));
	assert_true(sched_decide(t->sched, (uint32_t)pod, &d));
	size_t cap = 4096, o = 0;
	char *s = malloc(cap);
	assert_non_null(s);
	o += (size_t)snprintf(s + o, cap - o, "outcome %d chosen %d:", d.outcome, d.chosen);
	for (uint32_t i = 0; i < d.nnodes && o < cap; i++)
		o += (size_t)snprintf(s + o, cap - o, " %s=%d/%d", intern_get(c->in, c->nodes[d.nodes[i].node].name),
				      d.nodes[i].feasible, d.nodes[i].fail);
	decision_fini(&d);
	return s;
}

/* The dry runs the view repeats leave the cluster's node and pod slots
 * as they were (each template, upcoming and estimate node and its
 * DaemonSet pod copy gives its slot back), the same report every time,
 * and the scheduler's kept answers right for the nodes that come back
 * in the same slots. */
static void what_ifs_give_slots_back(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(scenario);
	struct timeline *t = timeline_new(sc);
	struct cluster *c = sc->cluster;
	assert_int_equal(timeline_len(t), 8);
	assert_true(timeline_goto(t, 6)); /* the six replicas Pending */
	uint32_t nnodes = c->nnodes, npods = c->npods, nalive = c->nalive_nodes;
	char *ca = dry_run(t, AS_CA), *kp = dry_run(t, AS_KARPENTER), *v = verdicts(t, "web-6");
	/* the loop did add its nodes: the upcoming one takes web-1, ng-a's
	 * estimate is five more */
	assert_non_null(strstr(ca, "ng-a"));
	assert_non_null(strstr(ca, "estimate 5 node(s)"));
	assert_int_equal(c->nnodes, nnodes);
	assert_int_equal(c->npods, npods);
	for (int i = 0; i < 40; i++) {
		char *x = dry_run(t, AS_CA);
		assert_string_equal(x, ca);
		free(x);
		x = verdicts(t, "web-6");
		assert_string_equal(x, v);
		free(x);
		x = dry_run(t, AS_KARPENTER);
		assert_string_equal(x, kp);
		free(x);
		assert_int_equal(c->nnodes, nnodes);
		assert_int_equal(c->npods, npods);
		assert_int_equal(c->nalive_nodes, nalive);
	}
	/* the applied scaleUp's nodes and pods keep their slots for the
	 * redo (timeline_prev marks them removed): counted once */
	assert_true(timeline_next(t));
	assert_int_equal(t->res[6].outcome, OUT_APPLIED);
	uint32_t after = c->nnodes, after_pods = c->npods;
	assert_true(after > nnodes);
	for (int i = 0; i < 5; i++) {
		assert_true(timeline_prev(t));
		char *x = dry_run(t, AS_CA);
		assert_string_equal(x, ca);
		free(x);
		assert_true(timeline_next(t));
		assert_int_equal(c->nnodes, after);
		assert_int_equal(c->npods, after_pods);
	}
	assert_true(timeline_next(t)); /* web-1 onto a node ng-a got */
	assert_int_equal(t->res[7].outcome, OUT_SCHEDULED);
	free(ca);
	free(kp);
	free(v);
	timeline_free(t);
	scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_ifs_give_slots_back),
	};
	return cmocka_run_group_tests_name("autoscale", tests, NULL, NULL);
}
