/* test_timeline.c - moving through steps restores exactly the same state,
 * undo records cover every action, and a branch replaces the future. */
#include <stdlib.h>

#include "fixture.h"
#include "../load/save.h"
#include "../model/steps/step.h"

/* A text fingerprint of everything a step can change. */
static char *fingerprint(const struct cluster *c)
{
	size_t cap = 1 << 16, o = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		if (!n->alive)
			continue;
		o += (size_t)snprintf(buf + o, cap - o, "node %s u=%d cpu=%lld pods=%lld [",
				      intern_get(c->in, n->name), n->unschedulable,
				      (long long)n->used.cpu, (long long)n->used.pods);
		for (uint32_t k = 0; k < n->labels.n; k++)
			o += (size_t)snprintf(buf + o, cap - o, "%s=%s,", intern_get(c->in, n->labels.v[k].key),
					      intern_get(c->in, n->labels.v[k].val));
		o += (size_t)snprintf(buf + o, cap - o, "] taints:");
		for (uint32_t k = 0; k < n->ntaints; k++)
			o += (size_t)snprintf(buf + o, cap - o, "%s:%d,", intern_get(c->in, n->taints[k].key),
					      n->taints[k].effect);
		o += (size_t)snprintf(buf + o, cap - o, " pods:");
		for (uint32_t k = 0; k < n->npods; k++)
			o += (size_t)snprintf(buf + o, cap - o, "%s,", intern_get(c->in, c->pods[n->pods[k]].name));
		o += (size_t)snprintf(buf + o, cap - o, "\n");
	}
	for (uint32_t i = 0; i < c->npods; i++)
		if (c->pods[i].alive)
			o += (size_t)snprintf(buf + o, cap - o, "pod %s@%d nominated=%s gates=%u\n",
					      intern_get(c->in, c->pods[i].name), c->pods[i].node,
					      intern_get(c->in, c->pods[i].nominated), c->pods[i].spec.ngates);
	/* the release in force (a version step) */
	o += (size_t)snprintf(buf + o, cap - o, "version 1.%d.%d named=%d\n", c->cfg.version.minor,
			      c->cfg.version.patch, c->cfg.version_named);
	/* the storage objects, and the claims' bindings */
	o += (size_t)snprintf(buf + o, cap - o, "storage %u %u %u %u %u\n", c->st.nclasses, c->st.npvs,
			      c->st.npvcs, c->st.ncsinodes, c->st.ndrivers);
	for (uint32_t i = 0; i < c->st.npvcs; i++)
		o += (size_t)snprintf(buf + o, cap - o, "claim %s -> %s\n", intern_get(c->in, c->st.pvcs[i].name),
				      intern_get(c->in, c->st.pvcs[i].volume_name));
	/* the filter loop's free amounts follow every node */
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		int64_t pods = n->alloc.pods - (int64_t)n->npods;
		assert_int_equal(!!(c->nflag[i] & NF_ALIVE), n->alive);
		assert_true(c->nflag[i] & NF_EXACT);
		assert_int_equal(!!(c->nflag[i] & NF_ROOM), pods >= 1);
		assert_int_equal(c->free_cpu[i], n->alloc.cpu - n->used.cpu);
		assert_int_equal(c->free_mem[i], n->alloc.mem - n->used.mem);
		assert_int_equal(c->nstamp[i], n->res_stamp);
	}
	/* every matcher count must equal a fresh count */
	for (uint32_t m = 0; m < c->nmatchers; m++) {
		const struct matcher *mt = c->matchers[m];
		for (uint32_t i = 0; i < c->nnodes; i++) {
			uint32_t want = 0;
			for (uint32_t k = 0; k < c->nodes[i].npods; k++)
				want += matcher_matches_pod(c, mt, &c->pods[c->nodes[i].pods[k]]);
			assert_int_equal(mt->per_node[i], want);
		}
	}
	assert_true(o < cap);
	return buf;
}

static const char *scenario =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a}}\n"
	"  - {name: n2, labels: {zone: b}}\n"
	"pods:\n"
	"  - {name: x1, nodeName: n1, labels: {app: web}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: web\n"
	"      labels: {app: web}\n"
	"      requests: {cpu: 500m}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: web}}}\n"
	"    replicas: 3\n"
	"  - cordon: n2\n"
	"  - taint: {node: n1, key: k, value: v, effect: NoSchedule}\n"
	"  - label: {node: n1, key: disk, value: ssd}\n"
	"  - addNode: {name: n3, labels: {zone: c}}\n"
	"  - schedule: {name: late, labels: {app: web}, tolerations: [{operator: Exists}]}\n"
	"  - delete: web-1\n"
	"  - untaint: {node: n1, key: k}\n"
	"  - uncordon: n2\n"
	"  - removeNode: n1\n"
	"  - retry: late\n"
	"  - delete: nobody\n"
	"  - label: {node: n2, key: zone, value: null}\n";

static void back_and_forth_is_exact(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(scenario);
	struct timeline *t = timeline_new(sc);
	uint32_t n = timeline_len(t);
	assert_int_equal(n, 15);
	char **fp = calloc(n + 1, sizeof(*fp));
	assert_non_null(fp);
	fp[0] = fingerprint(sc->cluster);
	for (uint32_t i = 1; i <= n; i++) {
		assert_true(timeline_next(t));
		fp[i] = fingerprint(sc->cluster);
	}
	assert_int_equal(t->res[13].outcome, OUT_ERROR); /* delete: nobody */
	for (uint32_t i = n; i-- > 0;) {
		assert_true(timeline_prev(t));
		char *f = fingerprint(sc->cluster);
		assert_string_equal(f, fp[i]);
		free(f);
	}
	/* jumps in both directions */
	static const uint32_t jumps[] = { 9, 2, 15, 0, 7, 7, 14, 1 };
	for (size_t j = 0; j < sizeof(jumps) / sizeof(*jumps); j++) {
		assert_true(timeline_goto(t, jumps[j]));
		char *f = fingerprint(sc->cluster);
		assert_string_equal(f, fp[jumps[j]]);
		free(f);
	}
	for (uint32_t i = 0; i <= n; i++)
		free(fp[i]);
	free(fp);
	timeline_free(t);
	scenario_free(sc);
}

/* Explaining a past step recomputes the same decision and leaves the
 * position where it was. */
static void explain_past_step(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(scenario);
	struct timeline *t = timeline_new(sc);
	struct decision d, e;
	assert_true(timeline_goto(t, 1));
	assert_true(timeline_prev(t));
	assert_true(timeline_step(t, &d));
	assert_true(timeline_goto(t, 6));
	assert_true(timeline_explain(t, 0, &e));
	assert_int_equal(t->cur, 6);
	assert_int_equal(d.chosen, e.chosen);
	assert_int_equal(d.nfeasible, e.nfeasible);
	assert_int_equal(d.cons[0].doms[0].count, e.cons[0].doms[0].count);
	decision_fini(&d);
	decision_fini(&e);
	timeline_free(t);
	scenario_free(sc);
}

static void branch_replaces_future(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(scenario);
	struct timeline *t = timeline_new(sc);
	assert_true(timeline_goto(t, 3));
	struct step s;
	memset(&s, 0, sizeof(s));
	s.kind = STEP_CORDON;
	s.node = intern_str(sc->cluster->in, "n1");
	assert_true(timeline_branch(t, &s));
	assert_int_equal(timeline_len(t), 4);
	assert_int_equal(t->cur, 4);
	assert_true(sc->cluster->nodes[fixture_node(sc, "n1")].unschedulable);
	assert_true(timeline_prev(t));
	assert_false(sc->cluster->nodes[fixture_node(sc, "n1")].unschedulable);
	timeline_free(t);
	scenario_free(sc);
}

/* choose: an infeasible node is an error step that changes nothing. */
static void choose_infeasible(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodes:\n"
		"  - {name: n1, labels: {zone: a}}\n"
		"  - {name: n2, labels: {zone: b}, unschedulable: true}\n"
		"steps:\n"
		"  - schedule: {name: p}\n"
		"    choose: n2\n"
		"  - schedule: {name: p}\n"
		"    choose: n1\n");
	struct timeline *t = timeline_new(sc);
	struct decision d;
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_ERROR);
	assert_string_equal(d.message, "choose: node n2 is not feasible: NodeUnschedulable: "
				       "node(s) were unschedulable");
	decision_fini(&d);
	assert_true(timeline_step(t, &d));
	assert_int_equal(d.outcome, OUT_SCHEDULED);
	assert_int_equal(d.chosen, fixture_node(sc, "n1"));
	decision_fini(&d);
	assert_true(timeline_goto(t, 0));
	assert_true(timeline_goto(t, 2));
	assert_int_equal(t->res[1].node, fixture_node(sc, "n1"));
	timeline_free(t);
	scenario_free(sc);
}

/* The answers kept across cycles (shape.c per pod spec, rescache.c per node)
 * follow every node change: each decision equals the one computed with
 * those caches dropped, moving forward, back and forward again. */
static const char *cache_scenario =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a, disk: hdd}, allocatable: {cpu: '2', memory: 4Gi}}\n"
	"  - {name: n2, labels: {zone: b, disk: hdd}, allocatable: {cpu: '2', memory: 4Gi}}\n"
	"  - {name: n3, labels: {zone: a}, allocatable: {cpu: '4', memory: 2Gi},\n"
	"     taints: [{key: spot, value: 'true', effect: PreferNoSchedule}]}\n"
	"  - {name: n4, labels: {zone: b}, allocatable: {cpu: '1', memory: 8Gi}}\n"
	"steps:\n"
	"  - schedule: {name: web, labels: {app: web}, requests: {cpu: 300m, memory: 500Mi},\n"
	"      affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution:\n"
	"        [{weight: 10, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}]}},\n"
	"      topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
	"        nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: web}}}]}\n"
	"    replicas: 3\n"
	"  - taint: {node: n1, key: k, value: v, effect: NoSchedule}\n"
	"  - schedule: {name: web2, labels: {app: web}, requests: {cpu: 300m, memory: 500Mi},\n"
	"      affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution:\n"
	"        [{weight: 10, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}]}},\n"
	"      topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
	"        nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: web}}}]}\n"
	"    replicas: 2\n"
	"  - cordon: n2\n"
	"  - schedule: {name: web3, labels: {app: web}, requests: {cpu: 300m, memory: 500Mi}}\n"
	"  - label: {node: n4, key: disk, value: ssd}\n"
	"  - schedule: {name: db, labels: {app: db}, requests: {cpu: 300m, memory: 500Mi},\n"
	"      nodeSelector: {disk: ssd}}\n"
	"    replicas: 2\n"
	"  - untaint: {node: n1, key: k}\n"
	"  - uncordon: n2\n"
	"  - schedule: {name: web4, labels: {app: web}, requests: {cpu: 300m, memory: 500Mi}}\n"
	"    replicas: 2\n"
	"  - addNode: {name: n5, labels: {zone: c, disk: ssd}, allocatable: {cpu: '8', memory: 8Gi}}\n"
	"  - schedule: {name: db2, labels: {app: db}, requests: {cpu: 300m, memory: 500Mi},\n"
	"      nodeSelector: {disk: ssd}}\n"
	"    replicas: 2\n"
	"  - removeNode: n4\n"
	"  - schedule: {name: web5, labels: {app: web}, requests: {cpu: 300m, memory: 500Mi}}\n";

/* The timeline's cycles run on a new scheduler: nothing kept. */
static void drop_caches(struct timeline *t)
{
	scheduler_free(t->sched);
	t->sched = scheduler_new(t->c);
	assert_non_null(t->sched);
}

static void same_decision(const struct decision *a, const struct decision *b)
{
	assert_int_equal(a->outcome, b->outcome);
	assert_int_equal(a->chosen, b->chosen);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_int_equal(a->nfeasible, b->nfeasible);
	for (uint32_t i = 0; i < a->nnodes; i++) {
		const struct node_rec *x = &a->nodes[i], *y = &b->nodes[i];
		assert_int_equal(x->node, y->node);
		assert_int_equal(x->fail, y->fail);
		assert_int_equal(x->nran, y->nran);
		assert_int_equal(x->feasible, y->feasible);
		assert_int_equal(x->unresolvable, y->unresolvable);
		if (x->fail == PL_TAINT_TOLERATION)
			assert_int_equal(x->why.taint.taint, y->why.taint.taint);
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

static void cached_answers_follow_changes(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(cache_scenario);
	struct timeline *t = timeline_new(sc);
	uint32_t n = timeline_len(t), checked = 0;
	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < n; i++) {
			struct decision warm, fresh;
			memset(&warm, 0, sizeof(warm));
			memset(&fresh, 0, sizeof(fresh));
			assert_true(timeline_step(t, &warm));
			if (warm.nodes) {
				assert_true(timeline_prev(t));
				drop_caches(t);
				assert_true(timeline_step(t, &fresh));
				same_decision(&warm, &fresh);
				checked++;
			}
			decision_fini(&warm);
			decision_fini(&fresh);
		}
		assert_true(timeline_goto(t, 0));
	}
	/* 13 schedule cycles a round */
	assert_int_equal(checked, 26);
	timeline_free(t);
	scenario_free(sc);
}

/* timeline_new makes ahead the matchers the schedule steps' cycles ask
 * for (sched_warm): once per owner, not for an invalid pod; the cycles
 * then create none, and every count stays exact. */
static const char *warm_scenario =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a}}\n"
	"  - {name: n2, labels: {zone: b}}\n"
	"pods:\n"
	"  - {name: x1, nodeName: n1, labels: {app: web}}\n"
	"  - {name: y1, nodeName: n2, labels: {app: db}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: web\n"
	"      labels: {app: web}\n"
	"      ownerReferences: [{kind: ReplicaSet, name: web}]\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: web}}}\n"
	"      affinity:\n"
	"        podAntiAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            - {labelSelector: {matchLabels: {app: db}}, topologyKey: zone}\n"
	"    replicas: 2\n"
	"  - schedule:\n"
	"      name: db\n"
	"      labels: {app: db}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway,\n"
	"           labelSelector: {matchLabels: {app: db}}}\n"
	"  - schedule:\n"
	"      name: bad\n"
	"      labels: {app: bad}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: bad}}}\n";

static void warm_makes_matchers_ahead(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(warm_scenario);
	struct cluster *c = sc->cluster;
	uint32_t before = c->nmatchers;
	struct timeline *t = timeline_new(sc);
	/* web: its spread selector and its anti-affinity term (app=db, all
	 * terminating pods counted: another matcher than db's spreading);
	 * db: its spread selector; bad (maxSkew 0) is invalid: none */
	assert_int_equal(c->nmatchers, before + 3);
	char *f = fingerprint(c); /* asserts every count */
	free(f);
	assert_true(timeline_goto(t, timeline_len(t)));
	assert_int_equal(c->nmatchers, before + 3);
	/* web: n1 fails the spread (zone a: 1 + 1 - 0 = 2 > 1), n2 the
	 * anti-affinity (db runs in zone b); db: n1, where no db runs */
	assert_int_equal(t->res[0].outcome, OUT_PENDING);
	assert_int_equal(t->res[1].outcome, OUT_PENDING);
	assert_int_equal(t->res[2].outcome, OUT_SCHEDULED);
	assert_int_equal(t->res[2].node, 0);
	assert_int_equal(t->res[3].outcome, OUT_INVALID);
	f = fingerprint(c);
	free(f);
	timeline_free(t);
	scenario_free(sc);
}

/* The cluster every step kind's example (step_ops.example) runs on. */
static const char *table_cluster =
	"nodes:\n"
	"  - {name: n1, labels: {zone: a, host: n1}, allocatable: {cpu: 4, memory: 8Gi}}\n"
	"  - {name: n2, labels: {zone: b, host: n2}, allocatable: {cpu: 4, memory: 8Gi}}\n"
	"  - {name: n3, labels: {zone: b, host: n3}, unschedulable: true, allocatable: {cpu: 4, memory: 8Gi},\n"
	"     taints: [{key: dedicated, value: x, effect: NoSchedule}]}\n"
	"workloads:\n"
	"  - {kind: Deployment, name: web, selector: {app: web}, replicas: 3, template: {labels: {app: web}}}\n"
	"  - {kind: ReplicaSet, name: web, owner: Deployment/web, selector: {app: web}, replicas: 3,\n"
	"     template: {labels: {app: web}}}\n"
	"pods:\n"
	"  - {name: web-1, nodeName: n1, labels: {app: web}, requests: {cpu: 1}, ownerReferences: [{kind: ReplicaSet, name: web}],\n"
	"     topologySpreadConstraints: [{maxSkew: 1, topologyKey: host, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]}\n"
	"  - {name: web-2, nodeName: n1, labels: {app: web}, ownerReferences: [{kind: ReplicaSet, name: web}]}\n"
	"  - {name: web-3, nodeName: n2, labels: {app: web}, ownerReferences: [{kind: ReplicaSet, name: web}]}\n"
	"  - {name: pending, requests: {cpu: 64}}\n"
	"  - {name: gated, requests: {cpu: 64}, schedulingGates: [{name: example.com/wait}]}\n"
	"nodeGroups:\n"
	"  - {name: big, max: 3, template: {allocatable: {cpu: 128, memory: 256Gi, pods: 110}}}\n"
	"steps:\n"
	"  - ";

static char *saved(const struct scenario *sc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_true(save_scenario(f, sc));
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Every kind of the step table, on its own example alone: read, save
 * and read again give the same step; a copy saves the same and frees
 * apart; applying it changes the cluster (a scheduling step may leave
 * it as it was) and undo, redo and undo again are exact. A new kind is
 * tested by its table line. */
static void every_step_kind(void **state)
{
	(void)state;
	for (int k = 0; k < STEP__COUNT; k++) {
		const struct step_ops *o = step_ops_of((enum step_kind)k);
		assert_non_null(o);
		assert_non_null(o->example);
		size_t len = strlen(table_cluster) + strlen(o->example) + 2;
		char *yaml = malloc(len);
		assert_non_null(yaml);
		snprintf(yaml, len, "%s%s\n", table_cluster, o->example);
		struct scenario *sc = fixture_load(yaml);
		uint32_t last = sc->nsteps - 1;
		/* the two queued pending pods first, then the example */
		assert_int_equal(sc->nsteps, 3);
		assert_int_equal(sc->steps[last].kind, k);

		/* read -> save -> read -> save: the same text */
		char *text = saved(sc);
		struct scenario *again = fixture_load(text);
		char *text2 = saved(again);
		assert_string_equal(text2, text);
		assert_int_equal(again->steps[again->nsteps - 1].kind, k);

		/* copy -> save -> fini: the same text, nothing shared */
		struct step cp, orig = sc->steps[last];
		assert_true(step_copy(&cp, &orig));
		sc->steps[last] = cp;
		char *text3 = saved(sc);
		assert_string_equal(text3, text);
		sc->steps[last] = orig;
		step_fini(&cp);

		/* describe: the same from both readings, "NAME ..." */
		struct timeline *t = timeline_new(sc), *t2 = timeline_new(again);
		assert_non_null(t);
		assert_non_null(t2);
		char what[256], what2[256];
		assert_true(step_describe(t, last, what, sizeof(what)) < sizeof(what));
		step_describe(t2, last, what2, sizeof(what2));
		assert_string_equal(what, what2);
		assert_memory_equal(what, o->name, strlen(o->name));

		/* apply -> undo -> redo -> undo */
		assert_true(timeline_goto(t, last));
		char *before = fingerprint(sc->cluster);
		assert_true(timeline_next(t));
		assert_int_not_equal(t->res[last].outcome, OUT_ERROR);
		assert_int_not_equal(t->res[last].outcome, OUT_INVALID);
		char *after = fingerprint(sc->cluster);
		if (!(o->flags & STEP_F_CYCLE))
			assert_string_not_equal(after, before);
		for (int round = 0; round < 2; round++) {
			assert_true(timeline_prev(t));
			char *f = fingerprint(sc->cluster);
			assert_string_equal(f, before);
			free(f);
			assert_true(timeline_next(t));
			f = fingerprint(sc->cluster);
			assert_string_equal(f, after);
			free(f);
		}
		free(before);
		free(after);
		timeline_free(t);
		timeline_free(t2);
		free(text);
		free(text2);
		free(text3);
		scenario_free(again);
		scenario_free(sc);
		free(yaml);
	}
}

/* scaleUp's undo and redo: the added nodes, their DaemonSet pod copies
 * (CA) and Karpenter's nodes come and go exactly, and the simulation's
 * temporary nodes and bindings leave nothing behind */
static void scale_up_back_and_forth(void **state)
{
	(void)state;
	struct scenario *sc = fixture_load(
		"nodeGroups:\n"
		"  - {name: ng, max: 3, nodes: [n1]}\n"
		"instanceTypes:\n"
		"  - {name: m, allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}, zones: [a], price: 0.1}\n"
		"nodePools:\n"
		"  - {name: kp}\n"
		"nodes:\n"
		"  - {name: n1, labels: {kubernetes.io/hostname: n1}, allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n"
		"pods:\n"
		"  - {name: ds-n1, namespace: kube-system, nodeName: n1, ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, controller: true}], requests: {cpu: \"1\"}}\n"
		"  - {name: filler, nodeName: n1, requests: {cpu: \"3\"}}\n"
		"  - {name: p, requests: {cpu: 3500m}}\n"
		"  - {name: q, requests: {cpu: \"3\"}}\n"
		"steps:\n"
		"  - scaleUp: {dryRun: true}\n"
		"  - scaleUp: {}\n"
		"  - retry: q\n"
		"  - scaleUp: {autoscaler: karpenter}\n"
		"  - retry: p\n");
	struct timeline *t = timeline_new(sc);
	uint32_t n = timeline_len(t);
	assert_int_equal(n, 7);
	char **fp = calloc(n + 1, sizeof(*fp));
	assert_non_null(fp);
	fp[0] = fingerprint(sc->cluster);
	for (uint32_t i = 1; i <= n; i++) {
		assert_true(timeline_next(t));
		assert_int_not_equal(t->res[i - 1].outcome, OUT_ERROR);
		fp[i] = fingerprint(sc->cluster);
	}
	/* the dry run changed nothing; CA added ng-1 with its DaemonSet copy;
	 * Karpenter kp-1 for p, which then runs there */
	assert_string_equal(fp[3], fp[2]);
	assert_non_null(strstr(fp[4], "node ng-1"));
	assert_non_null(strstr(fp[4], "ds-n1-ng-1@"));
	assert_non_null(strstr(fp[6], "node kp-1"));
	assert_int_equal(t->res[6].outcome, OUT_SCHEDULED);
	for (uint32_t i = n; i-- > 0;) {
		assert_true(timeline_prev(t));
		char *f = fingerprint(sc->cluster);
		assert_string_equal(f, fp[i]);
		free(f);
	}
	static const uint32_t jumps[] = {7, 0, 4, 2, 6, 3};
	for (size_t j = 0; j < sizeof(jumps) / sizeof(*jumps); j++) {
		assert_true(timeline_goto(t, jumps[j]));
		char *f = fingerprint(sc->cluster);
		assert_string_equal(f, fp[jumps[j]]);
		free(f);
	}
	for (uint32_t i = 0; i <= n; i++)
		free(fp[i]);
	free(fp);
	timeline_free(t);
	scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(back_and_forth_is_exact),
		cmocka_unit_test(explain_past_step),
		cmocka_unit_test(branch_replaces_future),
		cmocka_unit_test(choose_infeasible),
		cmocka_unit_test(cached_answers_follow_changes),
		cmocka_unit_test(warm_makes_matchers_ahead),
		cmocka_unit_test(every_step_kind),
		cmocka_unit_test(scale_up_back_and_forth),
	};
	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
