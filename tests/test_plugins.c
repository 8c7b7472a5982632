/* test_plugins.c - the non-spread plugins against the worked examples of
 * other-plugins.md (hand-checked expected values). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../model/cluster.h"
#include "../model/decision.h"
#include "../model/plugins.h"

#define GI (1024LL * 1024 * 1024)
#define MI (1024LL * 1024)

static sym_t S(struct cluster *c, const char *s)
{
	sym_t x = intern_str(c->in, s);
	assert_true(x != SYM_NONE);
	return x;
}

static uint32_t add_node(struct cluster *c, const char *name, int64_t cpu, int64_t mem, int64_t pods)
{
	struct node n;
	memset(&n, 0, sizeof(n));
	n.name = S(c, name);
	n.alloc.cpu = cpu;
	n.alloc.mem = mem;
	n.alloc.pods = pods;
	assert_true(labels_set(&n.labels, c->sym_hostname, n.name));
	int32_t id = cluster_add_node(c, &n);
	assert_true(id >= 0);
	return (uint32_t)id;
}

static void node_label(struct cluster *c, uint32_t id, const char *k, const char *v)
{
	assert_true(labels_set(&c->nodes[id].labels, S(c, k), S(c, v)));
}

static void node_taint(struct cluster *c, uint32_t id, const char *k, const char *v, enum taint_effect e)
{
	struct node *n = &c->nodes[id];
	struct taint *t = realloc(n->taints, (n->ntaints + 1) * sizeof(*t));
	assert_non_null(t);
	n->taints = t;
	t[n->ntaints].key = S(c, k);
	t[n->ntaints].value = S(c, v);
	t[n->ntaints].effect = e;
	t[n->ntaints].effect_text = SYM_NONE;
	n->ntaints++;
}

/* A pod (not yet added) with requests; nz = actual or the 100m/200Mi defaults. */
static void pod_init(struct cluster *c, struct pod *p, const char *name, int64_t cpu, int64_t mem)
{
	memset(p, 0, sizeof(*p));
	p->name = S(c, name);
	p->ns = c->sym_default;
	p->created = INT64_MAX;
	p->node = -1;
	p->spec.req.cpu = cpu;
	p->spec.req.mem = mem;
	p->spec.nz_cpu = cpu ? cpu : 100;
	p->spec.nz_mem = mem ? mem : 200 * MI;
}

static void pod_label(struct cluster *c, struct pod *p, const char *k, const char *v)
{
	assert_true(labels_set(&p->labels, S(c, k), S(c, v)));
}

static uint32_t add_pod(struct cluster *c, struct pod *p)
{
	int32_t id = cluster_add_pod(c, p);
	assert_true(id >= 0);
	return (uint32_t)id;
}

static uint32_t bind_pod(struct cluster *c, struct pod *p, uint32_t node)
{
	uint32_t id = add_pod(c, p);
	cluster_bind(c, id, node);
	return id;
}

/* A decision whose recs cover every node, all feasible and scored for p. */
static void dec_init(struct decision *d, uint32_t nnodes, enum plugin_id pl, const int64_t *raw)
{
	memset(d, 0, sizeof(*d));
	d->nodes = calloc(nnodes, sizeof(*d->nodes));
	assert_non_null(d->nodes);
	d->nnodes = nnodes;
	for (uint32_t i = 0; i < nnodes; i++) {
		d->nodes[i].node = i;
		d->nodes[i].feasible = true;
		d->nodes[i].fail = PL_NONE;
		d->nodes[i].scored[pl] = true;
		d->nodes[i].raw[pl] = raw ? raw[i] : 0;
	}
}

static void dec_free(struct decision *d)
{
	free(d->nodes);
	free(d->ext_names);
	memset(d, 0, sizeof(*d));
}

/* ---- objects ---- */

static void test_names(void **state)
{
	(void)state;
	struct sched_config cfg;
	sched_config_defaults(&cfg);
	assert_int_equal(cfg.weights[PL_TAINT_TOLERATION], 3);
	assert_int_equal(cfg.weights[PL_NODE_AFFINITY], 2);
	assert_int_equal(cfg.weights[PL_NODE_RESOURCES_FIT], 1);
	assert_int_equal(cfg.weights[PL_POD_TOPOLOGY_SPREAD], 2);
	assert_int_equal(cfg.weights[PL_INTER_POD_AFFINITY], 2);
	assert_int_equal(cfg.weights[PL_BALANCED_ALLOCATION], 1);
	assert_int_equal(cfg.weights[PL_NODE_UNSCHEDULABLE], 0);
	assert_true(cfg.gates[GATE_MATCH_LABEL_KEYS_MERGE]);
	assert_int_equal(cfg.defaulting, DEFAULTING_SYSTEM);
	sched_config_fini(&cfg);
	assert_string_equal(plugin_name(PL_BALANCED_ALLOCATION), "NodeResourcesBalancedAllocation");
	assert_int_equal(plugin_from_name("InterPodAffinity"), PL_INTER_POD_AFFINITY);
	assert_int_equal(plugin_from_name("Nope"), PL_NONE);
	assert_string_equal(gate_name(GATE_MATCH_LABEL_KEYS_MERGE),
			    "MatchLabelKeysInPodTopologySpreadSelectorMerge");
	assert_string_equal(effect_name(EFFECT_PREFER_NO_SCHEDULE), "PreferNoSchedule");
}

/* The table is the default profile (apis/config/v1/default_plugins.go,
 * v1.37: MultiPoint order, the Filter plugins among them in that order,
 * DefaultPreemption the one PostFilter), every plugin's id its place
 * among those with records. */
static void test_plugin_table(void **state)
{
	(void)state;
	static const char *const profile[] = {
		"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit",
		"PodTopologySpread", "InterPodAffinity", "DefaultPreemption", "NodeResourcesBalancedAllocation",
	};
	static const char *const filters[] = {
		"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
		"NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
	};
	assert_int_equal(plugin_table_len, sizeof(profile) / sizeof(profile[0]));
	uint32_t nf = 0, nrec = 0, npost = 0;
	for (uint32_t i = 0; i < plugin_table_len; i++) {
		const struct plugin *p = &plugin_table[i];
		assert_string_equal(p->name, profile[i]);
		assert_string_equal(plugin_name(p->id), profile[i]);
		assert_ptr_equal(plugin_get(p->id), p);
		const struct plugin_ops *op = p->ops;
		bool rec = op->filter || op->score;
		if (rec) {
			assert_int_equal(p->id, nrec++);
			assert_int_equal(plugin_from_name(p->name), p->id);
		} else {
			assert_int_equal(plugin_from_name(p->name), PL_NONE);
		}
		if (op->filter) {
			assert_true(nf < sizeof(filters) / sizeof(filters[0]));
			assert_string_equal(p->name, filters[nf++]);
			assert_non_null(op->reason);
			assert_true(plugin_filters(p->id));
		}
		assert_true(plugin_scores(p->id) == (op->score != NULL));
		npost += op->postfilter != NULL;
	}
	assert_int_equal(nf, sizeof(filters) / sizeof(filters[0]));
	assert_int_equal(nrec, PL__COUNT);
	assert_int_equal(npost, 1);
	assert_non_null(plugin_get(PL_DEFAULT_PREEMPTION)->ops->postfilter);
	/* the Score plugins and their weights */
	assert_int_equal(plugin_get(PL_TAINT_TOLERATION)->weight, 3);
	assert_int_equal(plugin_get(PL_NODE_AFFINITY)->weight, 2);
	assert_int_equal(plugin_get(PL_NODE_RESOURCES_FIT)->weight, 1);
	assert_int_equal(plugin_get(PL_POD_TOPOLOGY_SPREAD)->weight, 2);
	assert_int_equal(plugin_get(PL_INTER_POD_AFFINITY)->weight, 2);
	assert_int_equal(plugin_get(PL_BALANCED_ALLOCATION)->weight, 1);
	assert_false(plugin_scores(PL_NODE_NAME));
	assert_string_equal(plugin_code(PL_NODE_RESOURCES_FIT), "Fit");
	assert_string_equal(plugin_code(PL_NONE), "?");
}

static void test_pod_copy(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p, q;
	pod_init(c, &p, "a", 100, 0);
	pod_label(c, &p, "app", "web");
	p.spec.tscs = calloc(1, sizeof(*p.spec.tscs));
	p.spec.ntscs = 1;
	p.spec.tscs[0].match_label_keys = malloc(sizeof(sym_t));
	p.spec.tscs[0].match_label_keys[0] = S(c, "app");
	p.spec.tscs[0].nmatch_label_keys = 1;
	p.spec.tscs[0].selector.present = true;
	assert_true(labels_set(&p.spec.tscs[0].selector.match_labels, S(c, "app"), S(c, "web")));
	p.spec.admission_errors = calloc(1, sizeof(char *));
	p.spec.admission_errors[0] = strdup("x: Invalid value");
	p.spec.nadmission_errors = 1;
	assert_true(pod_copy(&q, &p));
	assert_ptr_not_equal(q.spec.tscs, p.spec.tscs);
	assert_int_equal(q.spec.tscs[0].match_label_keys[0], S(c, "app"));
	assert_string_equal(q.spec.admission_errors[0], "x: Invalid value");
	assert_int_equal(labels_get(&q.labels, S(c, "app")), S(c, "web"));
	pod_fini(&p);
	pod_fini(&q);
	cluster_free(c);
}

/* ---- TaintToleration / NodeUnschedulable / NodeName ---- */

static void test_taint_score_example(void **state)
{
	(void)state;
	/* other-plugins §4.3: raw 0, 1, 3 -> 100, 67, 0 */
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n1 = add_node(c, "n1", 4000, 16 * GI, 110);
	uint32_t n2 = add_node(c, "n2", 4000, 16 * GI, 110);
	uint32_t n3 = add_node(c, "n3", 4000, 16 * GI, 110);
	node_taint(c, n2, "a", "x", EFFECT_PREFER_NO_SCHEDULE);
	node_taint(c, n3, "a", "x", EFFECT_PREFER_NO_SCHEDULE);
	node_taint(c, n3, "b", "x", EFFECT_PREFER_NO_SCHEDULE);
	node_taint(c, n3, "c", "x", EFFECT_PREFER_NO_SCHEDULE);
	node_taint(c, n3, "d", "x", EFFECT_NO_SCHEDULE); /* not scored */
	struct pod p;
	pod_init(c, &p, "p", 0, 0);
	uint32_t pid = add_pod(c, &p);
	const struct pod *pp = &c->pods[pid];
	int64_t raw[3];
	raw[0] = score_taint_toleration(c, pp, &c->nodes[n1]);
	raw[1] = score_taint_toleration(c, pp, &c->nodes[n2]);
	raw[2] = score_taint_toleration(c, pp, &c->nodes[n3]);
	assert_int_equal(raw[0], 0);
	assert_int_equal(raw[1], 1);
	assert_int_equal(raw[2], 3);
	struct decision d;
	dec_init(&d, 3, PL_TAINT_TOLERATION, raw);
	normalize_default(&d, PL_TAINT_TOLERATION, true);
	assert_int_equal(d.nodes[0].norm[PL_TAINT_TOLERATION], 100);
	assert_int_equal(d.nodes[1].norm[PL_TAINT_TOLERATION], 67);
	assert_int_equal(d.nodes[2].norm[PL_TAINT_TOLERATION], 0);
	/* all zero, reversed: every node 100 */
	d.nodes[1].raw[PL_TAINT_TOLERATION] = 0;
	d.nodes[2].raw[PL_TAINT_TOLERATION] = 0;
	normalize_default(&d, PL_TAINT_TOLERATION, true);
	assert_int_equal(d.nodes[2].norm[PL_TAINT_TOLERATION], 100);
	dec_free(&d);
	cluster_free(c);
}

static void test_taint_filter(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n1 = add_node(c, "n1", 4000, 16 * GI, 110);
	node_taint(c, n1, "soft", "x", EFFECT_PREFER_NO_SCHEDULE);
	node_taint(c, n1, "k", "v", EFFECT_NO_EXECUTE);
	struct pod p;
	pod_init(c, &p, "p", 0, 0);
	/* {key: k, operator: Exists, effect: NoSchedule} does not tolerate k:NoExecute */
	p.spec.tols = calloc(2, sizeof(*p.spec.tols));
	p.spec.ntols = 1;
	p.spec.tols[0].key = S(c, "k");
	p.spec.tols[0].op = TOL_EXISTS;
	p.spec.tols[0].effect = EFFECT_NO_SCHEDULE;
	uint32_t pid = add_pod(c, &p);
	struct pod *pp = &c->pods[pid];
	struct node_rec r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_taint_toleration(c, pp, &c->nodes[n1], &r), 0);
	assert_int_equal(r.why.taint.taint, 1);
	assert_true(r.unresolvable);
	assert_int_equal(taint_first_untolerated(&c->nodes[n1], pp->spec.tols, pp->spec.ntols), 1);
	/* {operator: Exists} with the "" key tolerates everything */
	pp->spec.tols[1].key = c->sym_empty;
	pp->spec.tols[1].op = TOL_EXISTS;
	pp->spec.ntols = 2;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_taint_toleration(c, pp, &c->nodes[n1], &r), 1);
	assert_int_equal(taint_first_untolerated_in(c, &c->nodes[n1], pp->spec.tols, pp->spec.ntols), -1);
	assert_int_equal(score_taint_toleration(c, pp, &c->nodes[n1]), 0);
	/* Equal with the value: k=v */
	struct toleration t = { .key = S(c, "k"), .op = TOL_EQUAL, .value = S(c, "v"), .effect = EFFECT_NONE };
	assert_true(toleration_tolerates(&t, &c->nodes[n1].taints[1]));
	t.value = S(c, "w");
	assert_false(toleration_tolerates(&t, &c->nodes[n1].taints[1]));
	t.op = TOL_OTHER; /* Lt/Gt: gate off, never */
	assert_false(toleration_tolerates(&t, &c->nodes[n1].taints[1]));
	cluster_free(c);
}

static void test_unschedulable_and_name(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n1 = add_node(c, "n1", 4000, 16 * GI, 110);
	uint32_t n2 = add_node(c, "n2", 4000, 16 * GI, 110);
	c->nodes[n1].unschedulable = true;
	struct pod p;
	pod_init(c, &p, "p", 0, 0);
	p.spec.tols = calloc(1, sizeof(*p.spec.tols));
	p.spec.ntols = 1;
	p.spec.tols[0].key = c->sym_unsched_taint;
	p.spec.tols[0].op = TOL_EXISTS;
	p.spec.tols[0].effect = EFFECT_NO_EXECUTE;
	uint32_t pid = add_pod(c, &p);
	struct pod *pp = &c->pods[pid];
	struct node_rec r;
	memset(&r, 0, sizeof(r));
	/* effect NoExecute does not tolerate the NoSchedule synthetic taint */
	assert_int_equal(filter_node_unschedulable(c, pp, &c->nodes[n1], &r), 0);
	assert_true(r.unresolvable);
	assert_int_equal(filter_node_unschedulable(c, pp, &c->nodes[n2], &r), 1);
	pp->spec.tols[0].effect = EFFECT_NONE;
	assert_int_equal(filter_node_unschedulable(c, pp, &c->nodes[n1], &r), 1);
	/* operator Equal, value omitted: matches the empty value */
	pp->spec.tols[0].op = TOL_EQUAL;
	pp->spec.tols[0].value = SYM_NONE;
	assert_int_equal(filter_node_unschedulable(c, pp, &c->nodes[n1], &r), 1);

	assert_int_equal(filter_node_name(c, pp, &c->nodes[n1], &r), 1);
	pp->spec.node_name = S(c, "n2");
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_node_name(c, pp, &c->nodes[n1], &r), 0);
	assert_true(r.unresolvable);
	assert_int_equal(filter_node_name(c, pp, &c->nodes[n2], &r), 1);
	pp->spec.node_name = SYM_NONE;
	cluster_free(c);
}

/* ---- NodeAffinity ---- */

static struct sel_req req1(struct cluster *c, const char *key, enum sel_op op, const char *val)
{
	struct sel_req r;
	memset(&r, 0, sizeof(r));
	r.key = S(c, key);
	r.op = op;
	if (val) {
		r.vals = malloc(sizeof(sym_t));
		assert_non_null(r.vals);
		r.vals[0] = S(c, val);
		r.nvals = 1;
	}
	return r;
}

/* The cycle answers node affinity for all nodes at once (ns_term_eval,
 * through the key index); it must agree with the per-node matcher, whose
 * answers the tests below check by hand. */
static void term_agrees(struct cluster *c, const struct ns_term *t)
{
	uint8_t *out = malloc(c->nnodes + 1);
	assert_non_null(out);
	assert_int_equal(ns_term_eval(c, t, out), 1);
	for (uint32_t id = 0; id < c->nnodes; id++)
		assert_int_equal(out[id], ns_term_matches(c, t, &c->nodes[id]));
	free(out);
}

static void pod_agrees(struct cluster *c, const struct pod *p)
{
	uint8_t *ok = malloc(c->nnodes + 1);
	assert_non_null(ok);
	assert_int_equal(node_affinity_eval(c, p, ok), 1);
	for (uint32_t id = 0; id < c->nnodes; id++)
		assert_int_equal(ok[id], node_matches_pod_affinity(c, p, &c->nodes[id]));
	free(ok);
}

static void test_node_affinity_match(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	const char *vals[] = { "9", "10", "11", "abc", NULL };
	uint32_t ids[5];
	for (int i = 0; i < 5; i++) {
		char name[8];
		snprintf(name, sizeof(name), "n%d", i);
		ids[i] = add_node(c, name, 4000, 16 * GI, 110);
		if (vals[i])
			node_label(c, ids[i], "gen", vals[i]);
	}
	node_label(c, ids[0], "zone", "a");
	struct ns_term t;
	memset(&t, 0, sizeof(t));
	t.exprs = malloc(sizeof(*t.exprs));
	t.exprs[0] = req1(c, "gen", SEL_GT, "10");
	t.nexprs = 1;
	/* Gt 10: 9 no, 10 no, 11 yes, abc no, missing no */
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[0]]));
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[2]]));
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[3]]));
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[4]]));
	term_agrees(c, &t);
	t.exprs[0].op = SEL_LT;
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[0]]));
	term_agrees(c, &t);
	/* In [10]: only n1; Exists: n0..n3; DoesNotExist: n4 */
	t.exprs[0].op = SEL_IN;
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[0]]));
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	term_agrees(c, &t);
	t.exprs[0].op = SEL_EXISTS;
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[3]]));
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[4]]));
	term_agrees(c, &t);
	t.exprs[0].op = SEL_NOTEXISTS;
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[3]]));
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[4]]));
	term_agrees(c, &t);
	ns_term_fini(&t);
	/* NotIn matches a node without the label */
	t.exprs = malloc(sizeof(*t.exprs));
	t.exprs[0] = req1(c, "zone", SEL_NOTIN, "a");
	t.nexprs = 1;
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[0]]));
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	term_agrees(c, &t);
	/* a value no node carries: NotIn matches every node */
	t.exprs[0].vals[0] = S(c, "nowhere");
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[0]]));
	term_agrees(c, &t);
	t.invalid = true;
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	term_agrees(c, &t);
	ns_term_fini(&t);
	/* an empty term matches nothing */
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	term_agrees(c, &t);
	/* matchFields metadata.name In [n2] */
	t.fields = malloc(sizeof(*t.fields));
	t.fields[0] = req1(c, "metadata.name", SEL_IN, "n2");
	t.nfields = 1;
	assert_true(ns_term_matches(c, &t, &c->nodes[ids[2]]));
	assert_false(ns_term_matches(c, &t, &c->nodes[ids[1]]));
	term_agrees(c, &t);
	ns_term_fini(&t);
	cluster_free(c);
}

static void test_node_affinity_pod(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n1 = add_node(c, "n1", 4000, 16 * GI, 110);
	uint32_t n2 = add_node(c, "n2", 4000, 16 * GI, 110);
	uint32_t n3 = add_node(c, "n3", 4000, 16 * GI, 110);
	node_label(c, n1, "zone", "a");
	node_label(c, n1, "disk", "ssd");
	node_label(c, n2, "zone", "a");
	node_label(c, n3, "zone", "b");
	node_label(c, n3, "disk", "hdd");
	struct pod p;
	pod_init(c, &p, "p", 0, 0);
	p.spec.has_affinity = true;
	struct node_affinity *na = &p.spec.affinity.node;
	/* preferred: zone=a (80), disk=ssd (20) -> 100, 80, 0 */
	na->pref = calloc(2, sizeof(*na->pref));
	na->npref = 2;
	na->pref[0].weight = 80;
	na->pref[0].term.exprs = malloc(sizeof(struct sel_req));
	na->pref[0].term.exprs[0] = req1(c, "zone", SEL_IN, "a");
	na->pref[0].term.nexprs = 1;
	na->pref[1].weight = 20;
	na->pref[1].term.exprs = malloc(sizeof(struct sel_req));
	na->pref[1].term.exprs[0] = req1(c, "disk", SEL_IN, "ssd");
	na->pref[1].term.nexprs = 1;
	/* required: zone In [a] OR (zone In [b] AND disk In [ssd]) */
	na->has_required = true;
	na->req = calloc(2, sizeof(*na->req));
	na->nreq = 2;
	na->req[0].exprs = malloc(sizeof(struct sel_req));
	na->req[0].exprs[0] = req1(c, "zone", SEL_IN, "a");
	na->req[0].nexprs = 1;
	na->req[1].exprs = malloc(2 * sizeof(struct sel_req));
	na->req[1].exprs[0] = req1(c, "zone", SEL_IN, "b");
	na->req[1].exprs[1] = req1(c, "disk", SEL_IN, "ssd");
	na->req[1].nexprs = 2;
	uint32_t pid = add_pod(c, &p);
	struct pod *pp = &c->pods[pid];
	assert_true(pod_has_preferred_node_affinity(pp));
	int64_t raw[3] = { score_node_affinity(c, pp, &c->nodes[n1]), score_node_affinity(c, pp, &c->nodes[n2]),
			   score_node_affinity(c, pp, &c->nodes[n3]) };
	assert_int_equal(raw[0], 100);
	assert_int_equal(raw[1], 80);
	assert_int_equal(raw[2], 0);
	struct decision d;
	dec_init(&d, 3, PL_NODE_AFFINITY, raw);
	normalize_default(&d, PL_NODE_AFFINITY, false);
	assert_int_equal(d.nodes[0].norm[PL_NODE_AFFINITY], 100);
	assert_int_equal(d.nodes[1].norm[PL_NODE_AFFINITY], 80);
	assert_int_equal(d.nodes[2].norm[PL_NODE_AFFINITY], 0);
	d.nodes[0].raw[PL_NODE_AFFINITY] = 80;
	d.nodes[1].raw[PL_NODE_AFFINITY] = 20;
	normalize_default(&d, PL_NODE_AFFINITY, false);
	assert_int_equal(d.nodes[1].norm[PL_NODE_AFFINITY], 25);
	dec_free(&d);

	struct node_rec r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_node_affinity(c, pp, &c->nodes[n1], &r), 1);
	assert_int_equal(filter_node_affinity(c, pp, &c->nodes[n3], &r), 0); /* zone=b, disk=hdd */
	assert_true(r.unresolvable);
	pod_agrees(c, pp);
	/* nodeSelector ANDed */
	assert_true(labels_set(&pp->spec.node_selector, S(c, "disk"), S(c, "ssd")));
	assert_false(node_matches_pod_affinity(c, pp, &c->nodes[n2]));
	assert_true(node_matches_pod_affinity(c, pp, &c->nodes[n1]));
	pod_agrees(c, pp);
	/* required with zero terms matches nothing */
	labels_fini(&pp->spec.node_selector);
	uint32_t keep = pp->spec.affinity.node.nreq;
	pp->spec.affinity.node.nreq = 0;
	assert_false(node_matches_pod_affinity(c, pp, &c->nodes[n1]));
	pod_agrees(c, pp);
	pp->spec.affinity.node.nreq = keep;
	cluster_free(c);
}

static void test_node_affinity_prefilter(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	add_node(c, "n1", 4000, 16 * GI, 110);
	add_node(c, "n2", 4000, 16 * GI, 110);
	add_node(c, "n3", 4000, 16 * GI, 110);
	struct pod p;
	pod_init(c, &p, "p", 0, 0);
	p.spec.has_affinity = true;
	struct node_affinity *na = &p.spec.affinity.node;
	na->has_required = true;
	na->req = calloc(2, sizeof(*na->req));
	na->nreq = 2;
	na->req[0].fields = malloc(sizeof(struct sel_req));
	na->req[0].fields[0] = req1(c, "metadata.name", SEL_IN, "n2");
	na->req[0].nfields = 1;
	na->req[1].fields = malloc(sizeof(struct sel_req));
	na->req[1].fields[0] = req1(c, "metadata.name", SEL_IN, "ghost");
	na->req[1].nfields = 1;
	uint32_t pid = add_pod(c, &p);
	struct pod *pp = &c->pods[pid];
	bool allowed[3];
	assert_int_equal(prefilter_node_affinity(c, pp, allowed), 1);
	assert_false(allowed[0]);
	assert_true(allowed[1]);
	assert_false(allowed[2]);
	/* conflicting requirements in the only terms: term 0 n2 AND n1 */
	struct sel_req *f = realloc(pp->spec.affinity.node.req[0].fields, 2 * sizeof(*f));
	assert_non_null(f);
	pp->spec.affinity.node.req[0].fields = f;
	f[1] = req1(c, "metadata.name", SEL_IN, "n1");
	pp->spec.affinity.node.req[0].nfields = 2;
	free(pp->spec.affinity.node.req[1].fields[0].vals);
	pp->spec.affinity.node.req[1].fields[0].nvals = 0;
	pp->spec.affinity.node.req[1].fields[0].vals = NULL;
	assert_int_equal(prefilter_node_affinity(c, pp, allowed), -1);
	/* a term without a name requirement: no narrowing */
	ns_term_fini(&pp->spec.affinity.node.req[1]);
	pp->spec.affinity.node.req[1].exprs = malloc(sizeof(struct sel_req));
	pp->spec.affinity.node.req[1].exprs[0] = req1(c, "zone", SEL_EXISTS, NULL);
	pp->spec.affinity.node.req[1].nexprs = 1;
	assert_int_equal(prefilter_node_affinity(c, pp, allowed), 0);
	cluster_free(c);
}

/* ---- NodeResourcesFit ---- */

static void test_least_allocated_example(void **state)
{
	(void)state;
	/* other-plugins §6.3: A = 60, B = 75 */
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t a = add_node(c, "A", 4000, 8 * GI, 110);
	uint32_t b = add_node(c, "B", 2000, 4 * GI, 110);
	struct pod p1, p2, in;
	pod_init(c, &p1, "p1", 1000, 2 * GI);
	pod_init(c, &p2, "p2", 0, 0); /* best effort: 100m / 200Mi for scoring */
	bind_pod(c, &p1, a);
	bind_pod(c, &p2, a);
	pod_init(c, &in, "in", 500, GI);
	uint32_t pid = add_pod(c, &in);
	assert_int_equal(score_least_allocated(c, &c->pods[pid], &c->nodes[a]), 60);
	assert_int_equal(score_least_allocated(c, &c->pods[pid], &c->nodes[b]), 75);
	cluster_free(c);
}

static void test_balanced_example(void **state)
{
	(void)state;
	/* other-plugins §7.2: A = 70, B = 79; the PR's test: 62 */
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t a = add_node(c, "A", 4000, 8 * GI, 110);
	uint32_t b = add_node(c, "B", 4000, 8 * GI, 110);
	uint32_t x = add_node(c, "X", 6000, 0, 110);
	struct pod pa, pb, px, in, in2, be;
	pod_init(c, &pa, "pa", 2000, GI);
	pod_init(c, &pb, "pb", 0, 3 * GI);
	pod_init(c, &px, "px", 3000, 0);
	bind_pod(c, &pa, a);
	bind_pod(c, &pb, b);
	bind_pod(c, &px, x);
	pod_init(c, &in, "in", 1000, 512 * MI);
	uint32_t pid = add_pod(c, &in);
	assert_true(pod_requests_cpu_or_mem(&c->pods[pid]));
	assert_int_equal(score_balanced_allocation(c, &c->pods[pid], &c->nodes[a]), 70);
	assert_int_equal(score_balanced_allocation(c, &c->pods[pid], &c->nodes[b]), 79);
	pod_init(c, &in2, "in2", 3000, 0);
	uint32_t pid2 = add_pod(c, &in2);
	/* one resource only (memory allocatable 0): balance 100 both ways -> 75 */
	assert_int_equal(score_balanced_allocation(c, &c->pods[pid2], &c->nodes[x]), 75);
	pod_init(c, &be, "be", 0, 0);
	uint32_t bid = add_pod(c, &be);
	assert_false(pod_requests_cpu_or_mem(&c->pods[bid]));
	cluster_free(c);
}

/* Requests whose sum passes 2^63 on one node: upstream's int64 sums wrap
 * (NodeInfo.update), and so do skewer's, exactly and reversibly, with no
 * undefined arithmetic on the way (this test runs under UBSan too). */
static void test_fit_wrapped_sums(void **state)
{
	(void)state;
	const int64_t EI = 1024LL * 1024 * 1024 * 1024 * 1024 * 1024;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n = add_node(c, "n", 4000, 4 * EI, 110);
	struct pod a, b, d3, in;
	pod_init(c, &a, "a", 0, 3 * EI);
	pod_init(c, &b, "b", 0, 3 * EI);
	pod_init(c, &d3, "c", 0, 3 * EI);
	uint32_t aid = bind_pod(c, &a, n);
	bind_pod(c, &b, n);
	bind_pod(c, &d3, n);
	/* 9Ei = 10376293541461622784 wraps to 10376293541461622784 - 2^64 */
	assert_true(c->nodes[n].used.mem == INT64_C(-8070450532247928832));
	assert_true(c->nodes[n].nz_mem == INT64_C(-8070450532247928832));
	assert_int_equal(c->nodes[n].nz_cpu, 300);
	pod_init(c, &in, "in", 0, EI);
	uint32_t pid = add_pod(c, &in);
	struct decision d;
	memset(&d, 0, sizeof(d));
	struct node_rec r;
	memset(&r, 0, sizeof(r));
	/* fit.go: 1Ei > 4Ei - used, which wraps to -5Ei: Insufficient memory,
	 * resolvable (1Ei <= 4Ei) */
	assert_int_equal(filter_fit(c, &c->pods[pid], &c->nodes[n], &d, &r), 0);
	assert_int_equal(r.why.fit.bits, FIT_MEM);
	assert_false(r.unresolvable);
	/* LeastAllocated: cpu (4000 - 400) * 100 / 4000 = 90, memory's sum
	 * below 0 scores 0: (90 + 0) / 2 */
	assert_int_equal(score_least_allocated(c, &c->pods[pid], &c->nodes[n]), 45);
	/* BalancedAllocation: memory fractions -1.75 without the pod and -1.5
	 * with it, cpu 0: std 0.875 -> 12, 0.75 -> 25; 50 + (50 + 25 - 12) / 2 */
	assert_int_equal(score_balanced_allocation(c, &c->pods[pid], &c->nodes[n]), 81);
	/* the sums come back exactly when a pod leaves */
	cluster_unbind(c, aid);
	assert_true(c->nodes[n].used.mem == 6 * EI);
	assert_true(c->nodes[n].nz_mem == 6 * EI);
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_fit(c, &c->pods[pid], &c->nodes[n], &d, &r), 0);
	assert_int_equal(r.why.fit.bits, FIT_MEM);
	dec_free(&d);
	cluster_free(c);
}

static void test_balanced_pr_case(void **state)
{
	(void)state;
	/* cpu 6000m and memory, 3000m used and memory at 50 %, pod 3000m:
	 * without (0.5, 0.5) -> 100, with (1, 0.5) -> 75: 50 + 25/2 = 62 */
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n = add_node(c, "n", 6000, 8 * GI, 110);
	struct pod e, in;
	pod_init(c, &e, "e", 3000, 4 * GI);
	bind_pod(c, &e, n);
	pod_init(c, &in, "in", 3000, 0);
	in.spec.nz_mem = 0;
	uint32_t pid = add_pod(c, &in);
	assert_int_equal(score_balanced_allocation(c, &c->pods[pid], &c->nodes[n]), 62);
	cluster_free(c);
}

static void test_fit_filter(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	uint32_t n1 = add_node(c, "n1", 1000, 2 * GI, 1);
	uint32_t n2 = add_node(c, "n2", 4000, 8 * GI, 110);
	struct pod e, in;
	pod_init(c, &e, "e", 800, GI);
	bind_pod(c, &e, n1);
	/* n1: one pod slot taken (Too many pods), cpu 500 > free 200 but
	 * <= allocatable 1000: resolvable */
	pod_init(c, &in, "in", 500, GI);
	in.spec.req.ext = calloc(2, sizeof(*in.spec.req.ext));
	in.spec.req.ext[0].name = S(c, "example.com/a");
	in.spec.req.ext[0].v = 1;
	in.spec.req.ext[1].name = S(c, "nvidia.com/gpu");
	in.spec.req.ext[1].v = 2;
	in.spec.req.next = 2;
	uint32_t pid = add_pod(c, &in);
	struct pod *pp = &c->pods[pid];
	struct decision d;
	memset(&d, 0, sizeof(d));
	struct node_rec r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_fit(c, pp, &c->nodes[n1], &d, &r), 0);
	assert_int_equal(r.why.fit.bits, FIT_TOO_MANY_PODS | FIT_CPU);
	assert_int_equal(d.next, 2);
	assert_int_equal(d.ext_names[0], S(c, "example.com/a"));
	assert_int_equal(d.ext_names[1], S(c, "nvidia.com/gpu"));
	assert_int_equal(r.why.fit.ext_bits, 3);
	assert_true(r.unresolvable); /* extended resource absent: request > allocatable 0 */
	/* n2 has the gpus but not example.com/a */
	struct ext_res *xr = calloc(1, sizeof(*xr));
	xr->name = S(c, "nvidia.com/gpu");
	xr->v = 4;
	c->nodes[n2].alloc.ext = xr;
	c->nodes[n2].alloc.next = 1;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_fit(c, pp, &c->nodes[n2], &d, &r), 0);
	assert_int_equal(r.why.fit.bits, 0);
	assert_int_equal(r.why.fit.ext_bits, 1);
	pp->spec.req.ext[0].v = 0;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_fit(c, pp, &c->nodes[n2], &d, &r), 1);
	/* cpu alone above allocatable: unresolvable */
	pp->spec.req.cpu = 5000;
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_fit(c, pp, &c->nodes[n2], &d, &r), 0);
	assert_int_equal(r.why.fit.bits, FIT_CPU);
	assert_true(r.unresolvable);
	/* a pod requesting nothing only meets "Too many pods", resolvable */
	struct pod z;
	pod_init(c, &z, "z", 0, 0);
	uint32_t zid = add_pod(c, &z);
	struct decision d2;
	memset(&d2, 0, sizeof(d2));
	memset(&r, 0, sizeof(r));
	c->nodes[n1].used.cpu = 99999;
	assert_int_equal(filter_fit(c, &c->pods[zid], &c->nodes[n1], &d2, &r), 0);
	assert_int_equal(r.why.fit.bits, FIT_TOO_MANY_PODS);
	assert_false(r.unresolvable);
	c->nodes[n1].used.cpu = 800;
	dec_free(&d);
	dec_free(&d2);
	cluster_free(c);
}

/* ---- InterPodAffinity ---- */

static void term_init(struct cluster *c, struct pod_affinity_term *t, const char *k, const char *v, sym_t topo)
{
	memset(t, 0, sizeof(*t));
	t->sel_src.present = true;
	assert_true(labels_set(&t->sel_src.match_labels, S(c, k), S(c, v)));
	assert_true(selector_from_set(c->in, &t->sel_src.match_labels, &t->sel));
	t->ns_sel.kind = SEL_NOTHING;
	t->topology_key = topo;
}

static void test_ipa_normalize_example(void **state)
{
	(void)state;
	/* other-plugins §8.3: 10, -5, 0 -> 100, 0, 33 */
	int64_t raw[3] = { 10, -5, 0 };
	struct decision d;
	dec_init(&d, 3, PL_INTER_POD_AFFINITY, raw);
	ipa_normalize(&d);
	assert_int_equal(d.nodes[0].norm[PL_INTER_POD_AFFINITY], 100);
	assert_int_equal(d.nodes[1].norm[PL_INTER_POD_AFFINITY], 0);
	assert_int_equal(d.nodes[2].norm[PL_INTER_POD_AFFINITY], 33);
	/* same sign: min/max start at +-inf (29 of 100 truncates to 28) */
	d.nodes[0].raw[PL_INTER_POD_AFFINITY] = 100;
	d.nodes[1].raw[PL_INTER_POD_AFFINITY] = 129;
	d.nodes[2].raw[PL_INTER_POD_AFFINITY] = 200;
	ipa_normalize(&d);
	assert_int_equal(d.nodes[0].norm[PL_INTER_POD_AFFINITY], 0);
	assert_int_equal(d.nodes[1].norm[PL_INTER_POD_AFFINITY], 28);
	assert_int_equal(d.nodes[2].norm[PL_INTER_POD_AFFINITY], 100);
	dec_free(&d);
}

static void test_ipa_filter(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct scheduler *sch = scheduler_new(c);
	assert_non_null(sch);
	uint32_t n[4];
	const char *zones[] = { "a", "a", "b", NULL };
	for (int i = 0; i < 4; i++) {
		char name[8];
		snprintf(name, sizeof(name), "n%d", i);
		n[i] = add_node(c, name, 4000, 16 * GI, 110);
		if (zones[i])
			node_label(c, n[i], "zone", zones[i]);
	}
	sym_t zone = S(c, "zone");
	/* first replica with required affinity to its own label */
	struct pod p;
	pod_init(c, &p, "web-1", 0, 0);
	pod_label(c, &p, "app", "web");
	p.spec.has_affinity = true;
	p.spec.affinity.aff_req = calloc(1, sizeof(struct pod_affinity_term));
	p.spec.affinity.naff_req = 1;
	term_init(c, &p.spec.affinity.aff_req[0], "app", "web", zone);
	uint32_t pid = add_pod(c, &p);
	struct ipa_state *s = ipa_prepare(sch, &c->pods[pid]);
	assert_non_null(s);
	assert_false(ipa_filter_skipped(s));
	struct node_rec r;
	for (int i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid], &c->nodes[n[i]], s, &r), 1);
	}
	/* the node must still carry the topology key */
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid], &c->nodes[n[3]], s, &r), 0);
	assert_int_equal(r.why.ipa.what, IPA_AFFINITY);
	assert_true(r.unresolvable);
	ipa_free(s);
	cluster_bind(c, pid, n[2]); /* zone b */

	/* second replica: only zone b passes */
	struct pod p2;
	pod_init(c, &p2, "web-2", 0, 0);
	pod_label(c, &p2, "app", "web");
	p2.spec.has_affinity = true;
	p2.spec.affinity.aff_req = calloc(1, sizeof(struct pod_affinity_term));
	p2.spec.affinity.naff_req = 1;
	term_init(c, &p2.spec.affinity.aff_req[0], "app", "web", zone);
	/* and anti-affinity to app=db per zone */
	p2.spec.affinity.anti_req = calloc(1, sizeof(struct pod_affinity_term));
	p2.spec.affinity.nanti_req = 1;
	term_init(c, &p2.spec.affinity.anti_req[0], "app", "db", zone);
	uint32_t pid2 = add_pod(c, &p2);
	s = ipa_prepare(sch, &c->pods[pid2]);
	assert_non_null(s);
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid2], &c->nodes[n[0]], s, &r), 0);
	assert_int_equal(r.why.ipa.what, IPA_AFFINITY);
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid2], &c->nodes[n[2]], s, &r), 1);
	ipa_free(s);

	/* a db pod in zone b: anti-affinity now rejects zone b (Unschedulable) */
	struct pod db;
	pod_init(c, &db, "db", 0, 0);
	pod_label(c, &db, "app", "db");
	bind_pod(c, &db, n[2]);
	s = ipa_prepare(sch, &c->pods[pid2]);
	assert_non_null(s);
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid2], &c->nodes[n[2]], s, &r), 0);
	assert_int_equal(r.why.ipa.what, IPA_ANTI);
	assert_false(r.unresolvable);
	ipa_free(s);

	/* an existing pod with anti-affinity to app=web in zone a rejects an
	 * incoming app=web pod without any affinity of its own */
	struct pod guard, w3;
	pod_init(c, &guard, "guard", 0, 0);
	guard.spec.has_affinity = true;
	guard.spec.affinity.anti_req = calloc(1, sizeof(struct pod_affinity_term));
	guard.spec.affinity.nanti_req = 1;
	term_init(c, &guard.spec.affinity.anti_req[0], "app", "web", zone);
	bind_pod(c, &guard, n[0]);
	pod_init(c, &w3, "web-3", 0, 0);
	pod_label(c, &w3, "app", "web");
	uint32_t pid3 = add_pod(c, &w3);
	s = ipa_prepare(sch, &c->pods[pid3]);
	assert_non_null(s);
	assert_false(ipa_filter_skipped(s));
	memset(&r, 0, sizeof(r));
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid3], &c->nodes[n[1]], s, &r), 0);
	assert_int_equal(r.why.ipa.what, IPA_EXISTING_ANTI);
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid3], &c->nodes[n[2]], s, &r), 1);
	assert_int_equal(filter_inter_pod_affinity(c, &c->pods[pid3], &c->nodes[n[3]], s, &r), 1);
	ipa_free(s);

	/* a pod nobody cares about: PreFilter skips */
	struct pod other;
	pod_init(c, &other, "other", 0, 0);
	uint32_t oid = add_pod(c, &other);
	s = ipa_prepare(sch, &c->pods[oid]);
	assert_non_null(s);
	assert_true(ipa_filter_skipped(s));
	ipa_free(s);
	scheduler_free(sch);
	cluster_free(c);
}

static void test_ipa_score(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct scheduler *sch = scheduler_new(c);
	assert_non_null(sch);
	uint32_t n[3];
	const char *zones[] = { "a", "b", "c" };
	for (int i = 0; i < 3; i++) {
		char name[8];
		snprintf(name, sizeof(name), "n%d", i);
		n[i] = add_node(c, name, 4000, 16 * GI, 110);
		node_label(c, n[i], "zone", zones[i]);
	}
	sym_t zone = S(c, "zone");
	/* two cache pods in zone a, one db pod in zone b */
	struct pod c1, c2, db;
	pod_init(c, &c1, "cache-1", 0, 0);
	pod_label(c, &c1, "app", "cache");
	pod_init(c, &c2, "cache-2", 0, 0);
	pod_label(c, &c2, "app", "cache");
	pod_init(c, &db, "db", 0, 0);
	pod_label(c, &db, "app", "db");
	/* db requires affinity to app=web: +1 (hardPodAffinityWeight) in zone b */
	db.spec.has_affinity = true;
	db.spec.affinity.aff_req = calloc(1, sizeof(struct pod_affinity_term));
	db.spec.affinity.naff_req = 1;
	term_init(c, &db.spec.affinity.aff_req[0], "app", "web", zone);
	bind_pod(c, &c1, n[0]);
	bind_pod(c, &c2, n[0]);
	bind_pod(c, &db, n[1]);
	/* incoming web: prefers cache (w 5), avoids db (w 7) */
	struct pod w;
	pod_init(c, &w, "web", 0, 0);
	pod_label(c, &w, "app", "web");
	w.spec.has_affinity = true;
	w.spec.affinity.aff_pref = calloc(1, sizeof(struct weighted_pod_affinity_term));
	w.spec.affinity.naff_pref = 1;
	w.spec.affinity.aff_pref[0].weight = 5;
	term_init(c, &w.spec.affinity.aff_pref[0].term, "app", "cache", zone);
	w.spec.affinity.anti_pref = calloc(1, sizeof(struct weighted_pod_affinity_term));
	w.spec.affinity.nanti_pref = 1;
	w.spec.affinity.anti_pref[0].weight = 7;
	term_init(c, &w.spec.affinity.anti_pref[0].term, "app", "db", zone);
	uint32_t wid = add_pod(c, &w);
	struct ipa_state *s = ipa_prepare(sch, &c->pods[wid]);
	assert_non_null(s);
	assert_true(ipa_prescore(c, &c->pods[wid], s));
	int64_t raw[3];
	for (int i = 0; i < 3; i++)
		raw[i] = score_inter_pod_affinity(c, &c->nodes[n[i]], s);
	assert_int_equal(raw[0], 10);      /* 2 x 5 */
	assert_int_equal(raw[1], -7 + 1);  /* anti -7, db's required term +1 */
	assert_int_equal(raw[2], 0);
	struct decision d;
	dec_init(&d, 3, PL_INTER_POD_AFFINITY, raw);
	ipa_normalize(&d);
	assert_int_equal(d.nodes[0].norm[PL_INTER_POD_AFFINITY], 100);
	assert_int_equal(d.nodes[1].norm[PL_INTER_POD_AFFINITY], 0);
	assert_int_equal(d.nodes[2].norm[PL_INTER_POD_AFFINITY], 37); /* 100 * 6/16 */
	dec_free(&d);
	ipa_free(s);
	/* nothing recorded: PreScore skips */
	struct pod lone;
	pod_init(c, &lone, "lone", 0, 0);
	uint32_t lid = add_pod(c, &lone);
	s = ipa_prepare(sch, &c->pods[lid]);
	assert_non_null(s);
	assert_false(ipa_prescore(c, &c->pods[lid], s));
	ipa_free(s);
	scheduler_free(sch);
	cluster_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_plugin_table),
		cmocka_unit_test(test_pod_copy),
		cmocka_unit_test(test_taint_score_example),
		cmocka_unit_test(test_taint_filter),
		cmocka_unit_test(test_unschedulable_and_name),
		cmocka_unit_test(test_node_affinity_match),
		cmocka_unit_test(test_node_affinity_pod),
		cmocka_unit_test(test_node_affinity_prefilter),
		cmocka_unit_test(test_least_allocated_example),
		cmocka_unit_test(test_balanced_example),
		cmocka_unit_test(test_fit_wrapped_sums),
		cmocka_unit_test(test_balanced_pr_case),
		cmocka_unit_test(test_fit_filter),
		cmocka_unit_test(test_ipa_normalize_example),
		cmocka_unit_test(test_ipa_filter),
		cmocka_unit_test(test_ipa_score),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
