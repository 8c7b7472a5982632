/* ca.c - one Cluster Autoscaler scale-up loop (kubernetes/autoscaler
 * cluster-autoscaler-release-1.37, StaticAutoscaler.RunOnce's scale-up
 * path) over the live cluster: filter-out-schedulable, the per-group
 * template checks, the binpacking estimate, the expanders, the resize
 * and its events. The snapshot is the cluster itself: every template,
 * upcoming node and simulated binding is made through cluster_* and
 * undone before returning, so the scheduler's own filters decide. */
#include "autoscale.h"
#include "../../util/out.h"

#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cluster.h"
#include "../decision.h"
#include "../scenario.h"
#include "../probe.h"
#include "../version.h"
#include "../sched.h"

#define HOSTNAME "kubernetes.io/hostname"
#define ZONE "topology.kubernetes.io/zone"
#define TEMPLATE_LABEL "cluster-autoscaler.kubernetes.io/template-node"


/* ---- the snapshot: temporary changes, undone in reverse ---- */

enum change_kind { CH_BIND, CH_NODE, CH_POD, CH_UNBIND };
struct change {
	enum change_kind kind;
	uint32_t id;
	uint32_t node, pos;         /* CH_UNBIND: where the pod was */
};

struct ca {
	struct scheduler *sch;
	struct cluster *c;
	const struct scenario *sc;
	const struct as_config *cfg;
	struct as_settings set;     /* effective */
	struct change *log;
	uint32_t nlog;
	uint32_t last_index;        /* LastIndexOrderMapping */
	uint32_t *order;            /* scratch: live node ids in order */
	uint32_t order_cap;
	/* the last pod's probe (its PreFilter over the snapshot), freed
	 * (drop_probe) before every change to the snapshot */
	struct probe *pr;
	uint32_t pr_pod;
	bool oom;
};

static const char *S(const struct ca *ca, sym_t s)
{
	return intern_get(ca->c->in, s);
}

static sym_t I(struct ca *ca, const char *s)
{
	sym_t x = intern_str(ca->c->in, s);
	if (!x)
		ca->oom = true;
	return x;
}

static void drop_probe(struct ca *ca)
{
	probe_free(ca->pr);
	ca->pr = NULL;
}

static uint32_t mark(const struct ca *ca)
{
	return ca->nlog;
}

static void rollback(struct ca *ca, uint32_t to)
{
	drop_probe(ca);
	while (ca->nlog > to) {
		struct change *ch = &ca->log[--ca->nlog];
		if (ch->kind == CH_NODE) {
			cluster_drop_node(ca->c, ch->id);
		} else if (ch->kind == CH_POD) {
			cluster_unbind(ca->c, ch->id);
			cluster_drop_pod(ca->c, ch->id);
		} else if (ch->kind == CH_UNBIND) {
			cluster_bind_at(ca->c, ch->id, ch->node, ch->pos);
		} else {
			cluster_unbind(ca->c, ch->id);
		}
	}
}

static void sim_bind(struct ca *ca, uint32_t pod, uint32_t node)
{
	if (!PUSH(ca->log, ca->nlog)) {
		ca->oom = true;
		return;
	}
	drop_probe(ca);
	cluster_bind(ca->c, pod, node);
	ca->log[ca->nlog - 1] = (struct change){CH_BIND, pod, 0, 0};
}

/* Takes bound pod off its node in the snapshot. */
static void sim_unbind(struct ca *ca, uint32_t pod)
{
	if (!PUSH(ca->log, ca->nlog)) {
		ca->oom = true;
		return;
	}
	drop_probe(ca);
	uint32_t node = (uint32_t)ca->c->pods[pod].node;
	ca->log[ca->nlog - 1] = (struct change){CH_UNBIND, pod, node, cluster_pod_pos(ca->c, pod)};
	cluster_unbind(ca->c, pod);
}

/* Adds node *n (taken) to the snapshot; -1 on failure. */
static int32_t sim_add_node(struct ca *ca, struct node *n)
{
	if (!PUSH(ca->log, ca->nlog)) {
		ca->oom = true;
		node_fini(n);
		return -1;
	}
	drop_probe(ca);
	int32_t id = cluster_add_node(ca->c, n);
	if (id < 0) {
		node_fini(n);
		ca->nlog--;
		ca->oom = true;
		return -1;
	}
	ca->log[ca->nlog - 1] = (struct change){CH_NODE, (uint32_t)id, 0, 0};
	return id;
}

/* --expendable-pods-priority-cutoff's default: pods of lower priority
 * are neither in the snapshot nor helped */
#define EXPENDABLE_CUTOFF (-10)

/* The snapshot's pods (core/static_autoscaler.go RunOnce: allocatedPods =
 * Scheduled + NominatedNode, less FilterOutExpendablePods): a bound pod
 * of priority < -10 leaves its node; a pending pod nominated to a node
 * that exists, not terminating and not expendable, runs there
 * (predicate_snapshot.go setClusterStatePods), for every check. */
static void snapshot_pods(struct ca *ca)
{
	struct cluster *c = ca->c;
	for (uint32_t p = 0; p < c->npods && !ca->oom; p++) {
		const struct pod *pp = &c->pods[p];
		if (!pp->alive)
			continue;
		if (pp->node >= 0) {
			if (pp->spec.priority < EXPENDABLE_CUTOFF)
				sim_unbind(ca, p);
			continue;
		}
		if (!pp->nominated || pp->terminating || pp->spec.priority < EXPENDABLE_CUTOFF)
			continue;
		int32_t at = cluster_find_node(c, pp->nominated);
		if (at >= 0)
			sim_bind(ca, p, (uint32_t)at);
	}
}

/* ---- node groups ---- */

static bool is_added_name(const char *node, const char *group)
{
	size_t gl = strlen(group);
	if (strncmp(node, group, gl) || node[gl] != '-' || !node[gl + 1])
		return false;
	for (const char *p = node + gl + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static bool is_member(const struct ca *ca, const struct as_group *g, uint32_t id)
{
	const struct node *n = &ca->c->nodes[id];
	for (uint32_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i] == n->name)
			return true;
	if (g->has_selector && g->selector.n) {
		bool all = true;
		for (uint32_t i = 0; i < g->selector.n && all; i++)
			all = labels_get(&n->labels, g->selector.v[i].key) == g->selector.v[i].val;
		if (all)
			return true;
	}
	return is_added_name(S(ca, n->name), S(ca, g->name));
}

/* live node ids in node order into ca->order; their count */
static uint32_t node_order(struct ca *ca)
{
	if (ca->c->nnodes > ca->order_cap) {
		uint32_t *o = realloc(ca->order, (ca->c->nnodes + 256) * sizeof(*o));
		if (!o) {
			ca->oom = true;
			return 0;
		}
		ca->order = o;
		ca->order_cap = ca->c->nnodes + 256;
	}
	return cluster_node_order(ca->c, ca->order);
}

/* live members in node order */
static uint32_t members(struct ca *ca, const struct as_group *g, uint32_t *ids)
{
	uint32_t n = node_order(ca), k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (is_member(ca, g, ca->order[i]))
			ids[k++] = ca->order[i];
	return k;
}

static bool has_taint(const struct node *n, const struct cluster *c, const char *key)
{
	for (uint32_t i = 0; i < n->ntaints; i++)
		if (!strcmp(intern_get(c->in, n->taints[i].key), key))
			return true;
	return false;
}

/* taints.SanitizeTaints: drops CA's taints and the node-condition ones */
static void sanitize_taints(const struct ca *ca, struct node *n)
{
	/* utils/taints/taints.go SanitizeTaints: the CA taints,
	 * NodeConditionTaints, the startup and status taint prefixes */
	static const char *const drop[] = {
		"ToBeDeletedByClusterAutoscaler", "DeletionCandidateOfClusterAutoscaler",
		"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
		"node.kubernetes.io/unschedulable", "node.kubernetes.io/memory-pressure",
		"node.kubernetes.io/disk-pressure", "node.kubernetes.io/network-unavailable",
		"node.kubernetes.io/pid-pressure", "node.cloudprovider.kubernetes.io/uninitialized",
		"node.cloudprovider.kubernetes.io/shutdown", "cloud.google.com/impending-node-termination",
		"NodeWithImpairedVolumes",
	};
	static const char *const prefix[] = {
		"ignore-taint.cluster-autoscaler.kubernetes.io/",
		"startup-taint.cluster-autoscaler.kubernetes.io/",
		"status-taint.cluster-autoscaler.kubernetes.io/",
	};
	uint32_t k = 0;
	for (uint32_t i = 0; i < n->ntaints; i++) {
		const char *key = S(ca, n->taints[i].key);
		bool gone = false;
		for (size_t j = 0; j < sizeof(drop) / sizeof(drop[0]) && !gone; j++)
			gone = !strcmp(key, drop[j]);
		for (size_t j = 0; j < sizeof(prefix) / sizeof(prefix[0]) && !gone; j++)
			gone = !strncmp(key, prefix[j], strlen(prefix[j]));
		if (gone)
			continue;
		n->taints[k++] = n->taints[i];
	}
	n->ntaints = k;
}

struct tmpl {
	bool ok;
	struct node node;           /* named template-node-for-G */
	uint32_t *ds;               /* the example node's DaemonSet and mirror pods */
	uint32_t nds;
	char *from;                 /* "node a-1" or "template" */
	sym_t zone;
};

/* processors/nodeinfosprovider/mixed_nodeinfos_processor.go Process and
 * simulator/node_info_utils.go SanitizedTemplateNodeInfoFromNodeInfo */
static int build_template(struct ca *ca, const struct as_group *g, const char *suffix, struct tmpl *t)
{
	memset(t, 0, sizeof(*t));
	uint32_t *ids = malloc((ca->c->nnodes + 1) * sizeof(*ids));
	if (!ids)
		return 0;
	uint32_t nm = members(ca, g, ids);
	int32_t good = -1;
	for (uint32_t i = 0; i < nm && good < 0; i++) {
		const struct node *n = &ca->c->nodes[ids[i]];
		if (!n->unschedulable && !has_taint(n, ca->c, "ToBeDeletedByClusterAutoscaler"))
			good = (int32_t)ids[i];
	}
	const struct node *src = NULL;
	bool keep_unsched = false;
	if (good >= 0) {
		src = &ca->c->nodes[good];
	} else if (g->has_template) {
		src = &g->tmpl;
	} else if (nm > 0) {
		src = &ca->c->nodes[ids[0]];
		keep_unsched = true;
	}
	if (!src) {
		free(ids);
		return 1;
	}
	t->from = src == &g->tmpl ? strdup("template") : out_strf("node %s", S(ca, src->name));
	free(ids);
	if (src != &g->tmpl && src->npods) {
		/* SanitizedTemplateNodeInfoFromNodeInfo keeps only DaemonSet
		 * and mirror pods */
		t->ds = malloc(src->npods * sizeof(uint32_t));
		if (!t->ds)
			return 0;
		for (uint32_t i = 0; i < src->npods; i++) {
			const struct pod *p = &ca->c->pods[src->pods[i]];
			bool ds = false;
			for (uint32_t o = 0; o < p->nowners; o++) {
				const char *k = S(ca, p->owners[o].kind);
				ds |= !strcmp(k, "DaemonSet") || !strcmp(k, "Node");
			}
			if (ds)
				t->ds[t->nds++] = src->pods[i];
		}
	}
	if (!t->from || !node_copy_def(&t->node, src))
		return 0;
	char *name = out_strf("template-node-for-%s%s", S(ca, g->name), suffix);
	if (!name)
		return 0;
	t->node.name = I(ca, name);
	free(name);
	t->node.line = t->node.col = 0;
	if (!keep_unsched)
		t->node.unschedulable = false;
	sanitize_taints(ca, &t->node);
	sym_t zk = I(ca, ZONE);
	if (src == &g->tmpl && !labels_get(&t->node.labels, zk) && g->nzones &&
	    !labels_set(&t->node.labels, zk, g->zones[0]))
		return 0;
	if (!labels_set(&t->node.labels, I(ca, HOSTNAME), t->node.name) ||
	    !labels_set(&t->node.labels, I(ca, TEMPLATE_LABEL), I(ca, "true")))
		return 0;
	t->zone = labels_get(&t->node.labels, zk);
	t->ok = !ca->oom;
	return t->ok;
}

static void tmpl_fini(struct tmpl *t)
{
	free(t->ds);
	node_fini(&t->node);
	free(t->from);
	memset(t, 0, sizeof(*t));
}

/* Copies of the template's DaemonSet pods, named POD-NODE, bound to node
 * id; each logged (CH_POD) when ch is NULL, else recorded in ch. */
static int add_ds_pods(struct ca *ca, const struct tmpl *t, uint32_t node, struct as_changes *ch)
{
	drop_probe(ca);
	for (uint32_t i = 0; i < t->nds; i++) {
		struct pod np;
		if (!pod_copy(&np, &ca->c->pods[t->ds[i]])) {
			ca->oom = true;
			return 0;
		}
		char name[600];
		snprintf(name, sizeof(name), "%s-%s", S(ca, np.name), S(ca, ca->c->nodes[node].name));
		np.name = I(ca, name);
		np.node = -1;
		np.spec.node_name = SYM_NONE;
		np.nominated = SYM_NONE;
		int32_t id = cluster_add_pod(ca->c, &np);
		if (id < 0) {
			pod_fini(&np);
			ca->oom = true;
			return 0;
		}
		cluster_bind(ca->c, (uint32_t)id, node);
		if (ch) {
			if (!PUSH(ch->pods, ch->npods) || !(ch->pod_node = realloc(ch->pod_node, ch->npods * sizeof(uint32_t)))) {
				ca->oom = true;
				return 0;
			}
			ch->pods[ch->npods - 1] = (uint32_t)id;
			ch->pod_node[ch->npods - 1] = node;
		} else {
			if (!PUSH(ca->log, ca->nlog)) {
				cluster_unbind(ca->c, (uint32_t)id);
				cluster_drop_pod(ca->c, (uint32_t)id);
				ca->oom = true;
				return 0;
			}
			ca->log[ca->nlog - 1] = (struct change){CH_POD, (uint32_t)id, 0, 0};
		}
	}
	return 1;
}

/* A copy of the template named name, with its DaemonSet pods. */
static int32_t add_copy(struct ca *ca, const struct tmpl *t, const char *name)
{
	struct node n;
	if (!node_copy_def(&n, &t->node)) {
		ca->oom = true;
		return -1;
	}
	n.name = I(ca, name);
	if (!labels_set(&n.labels, I(ca, HOSTNAME), n.name)) {
		node_fini(&n);
		ca->oom = true;
		return -1;
	}
	int32_t id = sim_add_node(ca, &n);
	if (id >= 0 && !add_ds_pods(ca, t, (uint32_t)id, NULL))
		return -1;
	return id;
}

/* ---- running the scheduler's filters ---- */

static int decide_lean(struct ca *ca, uint32_t pod, struct decision *d, bool lean)
{
	drop_probe(ca); /* a cycle may move what the probe's state reads */
	memset(d, 0, sizeof(*d));
	d->lean = lean;
	d->verdicts_only = lean;
	if (!sched_decide(ca->sch, pod, d)) {
		ca->oom = true;
		return 0;
	}
	return 1;
}

/* node id's verdict in a lean or full decision: PL_NONE when feasible */
static int verdict_of(const struct decision *d, uint32_t id)
{
	if (d->lean)
		return d->verdict ? d->verdict[id] : VERDICT_GONE;
	const struct node_rec *r = decision_node(d, id);
	return r ? (r->feasible ? PL_NONE : r->fail) : VERDICT_GONE;
}

static int decide(struct ca *ca, uint32_t pod, struct decision *d)
{
	drop_probe(ca);
	memset(d, 0, sizeof(*d));
	if (!sched_decide(ca->sch, pod, d)) {
		ca->oom = true;
		return 0;
	}
	return 1;
}

/* SchedulePodOnAnyNodeMatching with LastIndexOrderMapping: the first
 * feasible node (ok(id)) from last_index on, wrapping; -1 when none. */
static int32_t place_any(struct ca *ca, uint32_t pod, bool (*ok)(struct ca *, uint32_t, const void *),
			 const void *arg)
{
	struct decision d;
	/* only the verdicts are read: a lean cycle */
	if (!decide_lean(ca, pod, &d, true))
		return -1;
	uint32_t n = node_order(ca);
	int32_t got = -1;
	for (uint32_t i = 0; i < n && got < 0; i++) {
		uint32_t ix = (ca->last_index + i) % n;
		uint32_t id = ca->order[ix];
		if (verdict_of(&d, id) == PL_NONE && (!ok || ok(ca, id, arg))) {
			got = (int32_t)id;
			ca->last_index = (ix + 1) % n;
		}
	}
	decision_fini(&d);
	if (got >= 0)
		sim_bind(ca, pod, (uint32_t)got);
	return got;
}

/* CheckPredicates on one node (PreFilter over the whole snapshot, the
 * filters on that node alone: plugin_runner.go RunFiltersOnNode, which
 * runs RunFilterPlugins, no nominated pods): 1 fits, 0 not, -1 on OOM. *spread_fail
 * (when asked): the reason was PodTopologySpread's
 * ErrReasonConstraintsNotMatch; *why (when asked): the reason when it
 * does not fit (malloc'd). A probe filters the one node where a cycle
 * would filter every node: the same verdict (model/probe.h). */
static int check_on(struct ca *ca, uint32_t pod, uint32_t node, bool *spread_fail, char **why)
{
	struct node_rec r;
	if (ca->pr && ca->pr_pod != pod)
		drop_probe(ca);
	if (!ca->pr) {
		ca->pr = probe_new(ca->sch, pod);
		ca->pr_pod = pod;
	}
	struct probe *pr = ca->pr;
	if (spread_fail)
		*spread_fail = false;
	if (why)
		*why = NULL;
	if (!pr || !probe_node(pr, node)) {
		drop_probe(ca);
		ca->oom = true;
		return -1;
	}
	int ok = probe_filter(pr, &r);
	if (ok == 0 && (why || (spread_fail && r.fail == PL_POD_TOPOLOGY_SPREAD))) {
		char buf[1024];
		const char *t = decision_reason(ca->c, probe_decision(pr), &r, buf, sizeof(buf));
		if (spread_fail)
			*spread_fail = r.fail == PL_POD_TOPOLOGY_SPREAD &&
				       !strcmp(t, "node(s) didn't match pod topology spread constraints");
		if (why && !(*why = strdup(t)))
			ok = -1;
	}
	/* the node and the cluster back as they were */
	if (!probe_done(pr))
		ok = -1;
	if (ok < 0)
		ca->oom = true;
	return ok;
}

static int fits_on(struct ca *ca, uint32_t pod, uint32_t node, bool *spread_fail)
{
	return check_on(ca, pod, node, spread_fail, NULL);
}

static int fits_why(struct ca *ca, uint32_t pod, uint32_t node, char **why)
{
	return check_on(ca, pod, node, NULL, why);
}

/* SchedulePodOnAnyNodeMatching over the few nodes ids[0..n) (the
 * estimate's new nodes, in the order they were added): as place_any,
 * filtering only those. They are the last n live nodes in node order
 * (an added node takes the next id), so the search from last_index,
 * wrapping, meets them in a rotation of their own order. */
static int32_t place_among(struct ca *ca, uint32_t pod, const uint32_t *ids, uint32_t n)
{
	const struct cluster *c = ca->c;
	uint32_t no = c->nalive_nodes;
	if (!n || !no)
		return -1;
	/* each of them live, in id order, nothing live after the first but
	 * them */
	uint32_t live = 0;
	for (uint32_t id = ids[0]; id < c->nnodes; id++)
		live += (c->nflag[id] & NF_ALIVE) != 0;
	for (uint32_t k = 1; k < n && live == n; k++)
		if (ids[k] <= ids[k - 1])
			live = 0;
	if (live != n || !(c->nflag[ids[0]] & NF_ALIVE)) {
		/* not expected: the whole node order */
		uint32_t nn = node_order(ca);
		for (uint32_t i = 0; i < nn && !ca->oom; i++) {
			uint32_t ix = (ca->last_index + i) % nn, id = ca->order[ix];
			bool in = false;
			for (uint32_t k = 0; k < n && !in; k++)
				in = ids[k] == id;
			if (in && fits_on(ca, pod, id, NULL) > 0) {
				ca->last_index = (ix + 1) % nn;
				sim_bind(ca, pod, id);
				return (int32_t)id;
			}
		}
		return -1;
	}
	uint32_t base = no - n, start = ca->last_index % no;
	uint32_t first = start <= base ? 0 : start - base;
	for (uint32_t j = 0; j < n && !ca->oom; j++) {
		uint32_t k = (first + j) % n;
		if (fits_on(ca, pod, ids[k], NULL) > 0) {
			ca->last_index = (base + k + 1) % no;
			sim_bind(ca, pod, ids[k]);
			return (int32_t)ids[k];
		}
	}
	return -1;
}

/* SchedulePod on one node: 1 placed, 0 not (*spread_fail: the reason was
 * PodTopologySpread's ErrReasonConstraintsNotMatch) */
static int place_on(struct ca *ca, uint32_t pod, uint32_t node, bool *spread_fail)
{
	int ok = fits_on(ca, pod, node, spread_fail);
	if (ok > 0)
		sim_bind(ca, pod, node);
	return ok > 0;
}

/* ---- pods ---- */

static char *pod_ref(const struct ca *ca, uint32_t p)
{
	return out_strf("%s/%s", S(ca, ca->c->pods[p].ns), S(ca, ca->c->pods[p].name));
}

static const struct owner_ref *controller_of(const struct pod *p)
{
	for (uint32_t i = 0; i < p->nowners; i++)
		if (p->owners[i].controller == 1)
			return &p->owners[i];
	return NULL;
}

/* core/scaleup/equivalence/groups.go match: same controller, labels and
 * spec (utils.PodSpecSemanticallyEqual; skewer compares every part of
 * the spec it reads: requests, selector, affinity, tolerations, spread
 * constraints, priority, volumes, host ports) */
static bool equivalent(const struct ca *ca, const struct pod *a, const struct pod *b)
{
	const struct owner_ref *oa = controller_of(a), *ob = controller_of(b);
	if (!oa || !ob || oa->kind != ob->kind || oa->name != ob->name || a->ns != b->ns)
		return false;
	/* a DaemonSet's pods are each their own group (IsDaemonSetPod) */
	if (oa->kind && !strcmp(S(ca, oa->kind), "DaemonSet"))
		return false;
	const struct pod_spec *x = &a->spec, *y = &b->spec;
	if (!labels_equal(&a->labels, &b->labels) || !labels_equal(&x->node_selector, &y->node_selector))
		return false;
	if (x->req.cpu != y->req.cpu || x->req.mem != y->req.mem || x->req.eph != y->req.eph ||
	    x->req.next != y->req.next || x->nz_cpu != y->nz_cpu || x->nz_mem != y->nz_mem ||
	    x->has_sidecars != y->has_sidecars || x->priority != y->priority ||
	    x->priority_class != y->priority_class || x->preemption_policy != y->preemption_policy ||
	    x->ntscs != y->ntscs || x->ntols != y->ntols || x->has_affinity != y->has_affinity ||
	    x->nvols != y->nvols || x->nports != y->nports)
		return false;
	for (uint32_t i = 0; i < x->req.next; i++)
		if (x->req.ext[i].name != y->req.ext[i].name || x->req.ext[i].v != y->req.ext[i].v)
			return false;
	if (x->has_sidecars && x->plain && y->plain && memcmp(x->plain, y->plain, sizeof(*x->plain)))
		return false;
	for (uint32_t i = 0; i < x->nvols; i++) {
		const struct pod_volume *u = &x->vols[i], *v = &y->vols[i];
		if (u->name != v->name || u->claim != v->claim || u->kind != v->kind ||
		    u->eph_class != v->eph_class || u->eph_modes != v->eph_modes ||
		    u->eph_request != v->eph_request)
			return false;
	}
	for (uint32_t i = 0; i < x->nports; i++) {
		const struct host_port *u = &x->ports[i], *v = &y->ports[i];
		if (u->host_port != v->host_port || u->container_port != v->container_port ||
		    u->protocol != v->protocol || u->host_ip != v->host_ip)
			return false;
	}
	return tolerations_equal(x->tols, y->tols, x->ntols) && tsc_list_equal(x->tscs, y->tscs, x->ntscs) &&
	       (!x->has_affinity || affinity_equal(&x->affinity, &y->affinity));
}

struct eqg {
	uint32_t *pods;
	uint32_t n;
};

/* ---- the loop ---- */

struct grp {
	const struct as_group *g;
	struct as_group_rep *rep;
	int64_t target, nmembers;
	bool valid;
	struct tmpl t;
	bool *pass;                 /* per eq group */
	char **why;                 /* per eq group: the template's reason */
	uint32_t *placed;           /* estimate: pods placed */
	uint32_t nplaced;
	int64_t estimate;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *render_doms(const struct ca *ca, const struct constraint_rec *cr)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[len++] = '{';
	bool first = true;
	for (uint32_t j = 0; j < cr->ndoms; j++) {
		const struct domain_rec *dm = &cr->doms[j];
		if (!(dm->exists && (cr->hard || cr->scored)))
			continue;
		char item[600];
		int n = snprintf(item, sizeof(item), "%s%s: %" PRId64, first ? "" : ", ", S(ca, dm->value),
				 dm->count);
		first = false;
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof(item))
			n = sizeof(item) - 1;
		if (len + (size_t)n + 2 > cap) {
			while (len + (size_t)n + 2 > cap)
				cap *= 2;
			char *ns = realloc(s, cap);
			if (!ns) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		memcpy(s + len, item, (size_t)n);
		len += (size_t)n;
	}
	s[len++] = '}';
	s[len] = 0;
	return s;
}

static void settings_merge(struct as_settings *dst, const struct as_settings *base,
			   const struct as_settings *over)
{
	*dst = *base;
	if (over->nexpander) {
		memcpy(dst->expander, over->expander, sizeof(dst->expander));
		dst->nexpander = over->nexpander;
	}
	if (over->has_prios) {
		dst->prios = over->prios;
		dst->nprios = over->nprios;
		dst->has_prios = true;
	}
	if (over->has_pod_price) {
		dst->pod_price_cpu = over->pod_price_cpu;
		dst->pod_price_mem = over->pod_price_mem;
		dst->has_pod_price = true;
	}
	if (over->balance >= 0)
		dst->balance = over->balance;
	if (over->nbalance_ignore) {
		dst->balance_ignore = over->balance_ignore;
		dst->nbalance_ignore = over->nbalance_ignore;
	}
	if (over->max_nodes_total >= 0)
		dst->max_nodes_total = over->max_nodes_total;
	if (over->max_per_scaleup >= 0)
		dst->max_per_scaleup = over->max_per_scaleup;
	if (over->force_ds >= 0)
		dst->force_ds = over->force_ds;
	if (over->pref_ignore >= 0)
		dst->pref_ignore = over->pref_ignore;
	if (over->sched_cfg)
		dst->sched_cfg = over->sched_cfg;
	if (!dst->sched_cfg)
		dst->sched_cfg = AS_SCHED_DEFAULT;
	if (!dst->nexpander) {
		dst->expander[0] = EXP_LEAST_WASTE;
		dst->nexpander = 1;
	}
	if (dst->max_per_scaleup < 0)
		dst->max_per_scaleup = 1000;
	if (dst->max_nodes_total < 0)
		dst->max_nodes_total = 0;
}

struct opt {
	uint32_t grp;
	int64_t nodes;
	uint32_t npods;
	int64_t pods_cpu, pods_mem;
};

static bool matches_regex(const char *re, const char *s)
{
	regex_t rx;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB))
		return false;
	bool m = regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return m;
}

/* expander/factory/chain.go: each strategy narrows; one left wins;
 * leftover ties -> random, which skewer resolves to the first */
/* a node's capacity (spec 1.2: status.capacity where given, else
 * allocatable) */
static int64_t cap_cpu(const struct node *n)
{
	return n->cap_cpu ? n->cap_cpu : n->alloc.cpu;
}

static int64_t cap_mem(const struct node *n)
{
	return n->cap_mem ? n->cap_mem : n->alloc.mem;
}

static uint32_t expand(struct ca *ca, struct grp *gs, struct opt *o, uint32_t n, char **why)
{
	uint32_t *keep = malloc(n * sizeof(*keep)), nk = n;
	char wb[256] = "";
	if (!keep) {
		ca->oom = true;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		keep[i] = i;
	if (n == 1)
		snprintf(wb, sizeof(wb), "only option");
	for (uint32_t e = 0; e < ca->set.nexpander && nk > 1; e++) {
		enum as_expander ex = ca->set.expander[e];
		double *score = malloc(nk * sizeof(double));
		if (!score) {
			ca->oom = true;
			break;
		}
		bool drop_none = false;
		for (uint32_t i = 0; i < nk; i++) {
			const struct opt *p = &o[keep[i]];
			const struct node *tn = &gs[p->grp].t.node;
			switch (ex) {
			case EXP_MOST_PODS:
				score[i] = -(double)p->npods;
				break;
			case EXP_LEAST_NODES:
				score[i] = (double)p->nodes;
				break;
			case EXP_LEAST_WASTE: {
				/* expander/waste/waste.go resourcesForNode: capacity */
				double cc = (double)cap_cpu(tn) * (double)p->nodes;
				double mc = (double)cap_mem(tn) * (double)p->nodes;
				double w = 0;
				if (cc > 0)
					w += (cc - (double)p->pods_cpu) / cc;
				if (mc > 0)
					w += (mc - (double)p->pods_mem) / mc;
				score[i] = w;
				gs[p->grp].rep->waste = w;
				gs[p->grp].rep->has_waste = true;
				break;
			}
			case EXP_PRIORITY: {
				/* expander/priority: the highest priority whose
				 * regex matches; none: dropped (unless no option
				 * matches, below) */
				double best = -1e300;
				bool any = false;
				for (uint32_t k = 0; k < ca->set.nprios; k++)
					for (uint32_t j = 0; j < ca->set.prios[k].n; j++)
						if (matches_regex(ca->set.prios[k].regex[j], S(ca, gs[p->grp].g->name)) &&
						    (!any || (double)ca->set.prios[k].prio > best)) {
							best = (double)ca->set.prios[k].prio;
							any = true;
						}
				score[i] = any ? -best : 1e300;
				break;
			}
			case EXP_PRICE: {
				/* expander/price/price.go BestOptions: node price
				 * against pod price, each plus the price of a
				 * 0.5 cpu / 500 MiB pod, times the suppressed
				 * unfitness against the preferred node
				 * (preferred.go: sized by the cluster's nodes) */
				double pc = ca->set.has_pod_price ? ca->set.pod_price_cpu : 0.033;
				double pm = ca->set.has_pod_price ? ca->set.pod_price_mem : 0.0045;
				const double gib = 1024.0 * 1024.0 * 1024.0;
				double stab = 0.5 * pc + (500.0 * 1024 * 1024 / gib) * pm;
				double node_price = gs[p->grp].g->has_price ? gs[p->grp].g->price : 0;
				double pods_price = (double)p->pods_cpu / 1000.0 * pc + (double)p->pods_mem / gib * pm;
				double sub = (node_price * (double)p->nodes + stab) / (pods_price + stab);
				uint32_t nn = 0;
				for (uint32_t q = 0; q < ca->c->nnodes; q++)
					nn += ca->c->nodes[q].alive;
				double pref = nn <= 2 ? 1 : nn <= 6 ? 2 : nn <= 20 ? 4 : nn <= 60 ? 8 : nn <= 200 ? 16 : 32;
				double cpu = (double)tn->alloc.cpu / 1000.0;
				double unfit = cpu > 0 ? (pref / cpu > cpu / pref ? pref / cpu : cpu / pref) : 1;
				double sup = (unfit - 1) * (1 - tanh((double)(p->nodes - 1) / 15.0)) + 1;
				score[i] = sup * sub;
				break;
			}
			case EXP_RANDOM:
			default:
				score[i] = 0;
				drop_none = true;
				break;
			}
		}
		if (!drop_none) {
			double best = score[0];
			for (uint32_t i = 1; i < nk; i++)
				if (score[i] < best)
					best = score[i];
			/* expander/priority/priority.go BestOptions: maxPrio
			 * starts at -1; no option at a priority >= -1: no
			 * options filtered */
			if (ex == EXP_PRIORITY && (best >= 1e300 || -best < -1)) {
				free(score);
				continue;
			}
			uint32_t k = 0;
			for (uint32_t i = 0; i < nk; i++)
				if (score[i] <= best + 1e-12)
					keep[k++] = keep[i];
			if (k < nk || k == 1) {
				if (ex == EXP_LEAST_WASTE)
					snprintf(wb, sizeof(wb), "least-waste %.2f", best);
				else
					snprintf(wb, sizeof(wb), "%s", as_expander_name(ex));
			}
			nk = k;
		} else {
			snprintf(wb, sizeof(wb), "random (skewer: the first)");
			nk = 1;
		}
		free(score);
	}
	if (nk > 1 && !wb[0])
		snprintf(wb, sizeof(wb), "tie: the first");
	uint32_t r = nk ? keep[0] : UINT32_MAX;
	free(keep);
	*why = strdup(wb);
	return r;
}

static int add_event(struct as_report *r, char *pod, const char *reason, char *msg)
{
	if (!pod || !msg || !PUSH(r->events, r->nevents)) {
		free(pod);
		free(msg);
		return 0;
	}
	struct as_event *e = &r->events[r->nevents - 1];
	e->pod = pod;
	e->message = msg;
	e->reason = strdup(reason);
	return e->reason != NULL;
}

/* The new nodes of a resized group: GROUP-K, the template's labels
 * (hostname = the name), taints and allocatable (spec 2.3). */
static int add_real_nodes(struct ca *ca, struct grp *gr, int64_t n, struct as_report *rep, bool dry,
			  struct as_changes *ch)
{
	const struct as_group *g = gr->g;
	uint32_t *ids = malloc((ca->c->nnodes + 1) * sizeof(*ids));
	if (!ids)
		return 0;
	uint32_t added = 0, nm = members(ca, g, ids);
	for (uint32_t i = 0; i < nm; i++)
		added += is_added_name(S(ca, ca->c->nodes[ids[i]].name), S(ca, g->name));
	sym_t zk = I(ca, ZONE), hk = I(ca, HOSTNAME), tk = I(ca, TEMPLATE_LABEL);
	uint32_t k = added;
	for (int64_t j = 0; j < n; j++) {
		char name[512];
		do
			snprintf(name, sizeof(name), "%s-%u", S(ca, g->name), ++k);
		while (cluster_find_node(ca->c, intern_find(ca->c->in, name, strlen(name))) >= 0 &&
		       intern_find(ca->c->in, name, strlen(name)));
		sym_t zone = gr->t.zone;
		if (g->nzones > 1) {
			/* the zone of `zones` with the fewest members, ties first */
			uint32_t nm2 = members(ca, g, ids);
			int64_t best = -1;
			for (uint32_t z = 0; z < g->nzones; z++) {
				int64_t cnt = 0;
				for (uint32_t i = 0; i < nm2; i++)
					cnt += labels_get(&ca->c->nodes[ids[i]].labels, zk) == g->zones[z];
				if (best < 0 || cnt < best) {
					best = cnt;
					zone = g->zones[z];
				}
			}
		}
		if (!PUSH(rep->added, rep->nadded))
			goto oom;
		struct as_added *a = &rep->added[rep->nadded - 1];
		a->name = strdup(name);
		a->group = strdup(S(ca, g->name));
		a->zone = zone ? strdup(S(ca, zone)) : NULL;
		if (!a->name || !a->group || (zone && !a->zone))
			goto oom;
		if (dry)
			continue;
		struct node nn;
		if (!node_copy_def(&nn, &gr->t.node))
			goto oom;
		nn.name = I(ca, name);
		uint32_t w = 0;
		for (uint32_t i = 0; i < nn.labels.n; i++)
			if (nn.labels.v[i].key != tk)
				nn.labels.v[w++] = nn.labels.v[i];
		nn.labels.n = w;
		if (!labels_set(&nn.labels, hk, nn.name) || (zone && !labels_set(&nn.labels, zk, zone))) {
			node_fini(&nn);
			goto oom;
		}
		drop_probe(ca);
		int32_t id = cluster_add_node(ca->c, &nn);
		if (id < 0) {
			node_fini(&nn);
			goto oom;
		}
		if (!PUSH(ch->nodes, ch->nnodes)) {
			cluster_drop_node(ca->c, (uint32_t)id);
			goto oom;
		}
		ch->nodes[ch->nnodes - 1] = (uint32_t)id;
		if (!add_ds_pods(ca, &gr->t, (uint32_t)id, ch))
			goto oom;
	}
	free(ids);
	return 1;
oom:
	free(ids);
	ca->oom = true;
	return 0;
}

struct newset {
	uint32_t *ids;
	uint32_t n;
	uint32_t exclude;
};

static bool not_excluded(struct ca *ca, uint32_t id, const void *arg)
{
	(void)ca;
	const struct newset *s = arg;
	return id != s->exclude;
}

static bool uses_hostname(const struct ca *ca, const struct pod *p)
{
	for (uint32_t i = 0; i < p->spec.ntscs; i++)
		if (!strcmp(S(ca, p->spec.tscs[i].topology_key), HOSTNAME))
			return true;
	return false;
}

/* estimator/binpacking_estimator.go Estimate for group gr over the eq
 * groups it passed; fills gr->estimate and gr->placed. */
static int estimate(struct ca *ca, struct grp *gr, struct eqg *eq, uint32_t neq, int64_t limit)
{
	uint32_t m0 = mark(ca);
	struct newset ns = {0};
	uint32_t *with_pods = NULL, nwith = 0;
	int32_t last = -1;
	uint32_t ncopies = 0;
	bool new_ok = true;
	/* DecreasingPodOrderer: cpu/alloc + mem/alloc of the exemplar, desc,
	 * stable */
	uint32_t *ord = malloc((neq + 1) * sizeof(*ord)), no = 0;
	if (!ord)
		return 0;
	for (uint32_t i = 0; i < neq; i++)
		if (gr->pass[i])
			ord[no++] = i;
	const struct node *tn = &gr->t.node;
	for (uint32_t i = 1; i < no; i++) {
		uint32_t x = ord[i], j = i;
		const struct pod *px = &ca->c->pods[eq[x].pods[0]];
		double sx = (tn->alloc.cpu ? (double)px->spec.req.cpu / (double)tn->alloc.cpu : 0) +
			    (tn->alloc.mem ? (double)px->spec.req.mem / (double)tn->alloc.mem : 0);
		while (j > 0) {
			const struct pod *py = &ca->c->pods[eq[ord[j - 1]].pods[0]];
			double sy = (tn->alloc.cpu ? (double)py->spec.req.cpu / (double)tn->alloc.cpu : 0) +
				    (tn->alloc.mem ? (double)py->spec.req.mem / (double)tn->alloc.mem : 0);
			if (sy >= sx)
				break;
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = x;
	}
	uint32_t cap = ca->c->nnodes + 1024;
	ns.ids = malloc(cap * sizeof(uint32_t));
	with_pods = malloc(cap * sizeof(uint32_t));
	if (!ns.ids || !with_pods)
		goto oom;
#define TRACK(node, pod)                                                        \
	do {                                                                    \
		bool seen_ = false;                                             \
		for (uint32_t q_ = 0; q_ < nwith; q_++)                         \
			seen_ |= with_pods[q_] == (node);                       \
		if (!seen_)                                                     \
			with_pods[nwith++] = (node);                            \
		if (!PUSH(gr->placed, gr->nplaced))                             \
			goto oom;                                               \
		gr->placed[gr->nplaced - 1] = (pod);                            \
	} while (0)
	for (uint32_t oi = 0; oi < no && !ca->oom; oi++) {
		struct eqg *e = &eq[ord[oi]];
		uint32_t k = 0;
		/* tryToScheduleOnExistingNodes: nodes of this estimate only */
		for (; k < e->n; k++) {
			if (!ns.n)
				break;
			int32_t at = place_among(ca, e->pods[k], ns.ids, ns.n);
			if (at < 0)
				break;
			TRACK((uint32_t)at, e->pods[k]);
		}
		/* tryToScheduleOnNewNodes, while the limiter has not said no
		 * (Estimate's newNodesAvailable) */
		for (; new_ok && k < e->n && !ca->oom; k++) {
			uint32_t pod = e->pods[k];
			bool found = false, spread_fail = false;
			if (last >= 0) {
				if (place_on(ca, pod, (uint32_t)last, &spread_fail)) {
					found = true;
					TRACK((uint32_t)last, pod);
				} else if (spread_fail && uses_hostname(ca, &ca->c->pods[pod])) {
					ns.exclude = (uint32_t)last;
					int32_t at = place_any(ca, pod, not_excluded, &ns);
					if (at >= 0) {
						found = true;
						TRACK((uint32_t)at, pod);
					}
				}
			}
			if (found)
				continue;
			if (last >= 0) {
				bool has = false;
				for (uint32_t q = 0; q < nwith; q++)
					has |= with_pods[q] == (uint32_t)last;
				if (!has)
					break;
			}
			if ((int64_t)ns.n >= limit) {
				new_ok = false;
				break;
			}
			char name[512];
			snprintf(name, sizeof(name), "%s-e-%u", S(ca, gr->t.node.name), ncopies++);
			int32_t id = add_copy(ca, &gr->t, name);
			if (id < 0)
				goto oom;
			if (ns.n + 1 >= cap)
				goto oom;
			ns.ids[ns.n++] = (uint32_t)id;
			last = id;
			if (!place_on(ca, pod, (uint32_t)id, NULL))
				break;
			TRACK((uint32_t)id, pod);
		}
	}
#undef TRACK
	gr->estimate = nwith;
	free(ord);
	free(ns.ids);
	free(with_pods);
	rollback(ca, m0);
	return !ca->oom;
oom:
	free(ord);
	free(ns.ids);
	free(with_pods);
	rollback(ca, m0);
	ca->oom = true;
	return 0;
}

/* processors/nodegroupset/compare_nodegroups.go IsCloudProviderNodeInfoSimilar
 * (capacity equal but memory within 1.5 %, allocatable within 5 %, labels
 * equal but the zone, region, hostname, EKS node group and ignored
 * ones) and the same schedulable pod groups (matchingSchedulablePodGroups) */
static bool within(int64_t a, int64_t b, double ratio)
{
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	return hi == 0 || (double)(hi - lo) <= ratio * (double)hi;
}

/* resourceListWithinTolerance: larger - smaller <= larger x ratio, for
 * values that may be negative (a free amount) */
static bool within_signed(int64_t a, int64_t b, double ratio)
{
	double hi = (double)(a > b ? a : b), lo = (double)(a > b ? b : a);
	return hi - lo <= hi * ratio;
}

static bool ignored_label(const struct ca *ca, sym_t key)
{
	const char *k = S(ca, key);
	static const char *const fixed[] = {HOSTNAME, ZONE, "topology.kubernetes.io/region",
		"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
		"eks.amazonaws.com/nodegroup", "beta.kubernetes.io/fluentd-ds-ready",
		"kops.k8s.io/instancegroup", TEMPLATE_LABEL, NULL};
	for (const char *const *p = fixed; *p; p++)
		if (!strcmp(k, *p))
			return true;
	for (uint32_t i = 0; i < ca->set.nbalance_ignore; i++)
		if (ca->set.balance_ignore[i] == key)
			return true;
	return false;
}

static bool labels_similar(const struct ca *ca, const struct labels *a, const struct labels *b)
{
	for (uint32_t i = 0; i < a->n; i++)
		if (!ignored_label(ca, a->v[i].key) && labels_get(b, a->v[i].key) != a->v[i].val)
			return false;
	for (uint32_t i = 0; i < b->n; i++)
		if (!ignored_label(ca, b->v[i].key) && labels_get(a, b->v[i].key) != b->v[i].val)
			return false;
	return true;
}

static bool similar(const struct ca *ca, const struct grp *a, const struct grp *b, uint32_t neq)
{
	if (!a->pass || !b->pass)
		return false;
	/* orchestrator.go matchingSchedulablePodGroups: each pod group a
	 * passes, b passes too */
	for (uint32_t e = 0; e < neq; e++)
		if (a->pass[e] && !b->pass[e])
			return false;
	const struct node *x = &a->t.node, *y = &b->t.node;
	/* capacity (cpu and memory: status.capacity where given, the rest
	 * the allocatable's): equal but memory within 1.5 %; allocatable
	 * within 5 %; extended resources equal */
	if (cap_cpu(x) != cap_cpu(y) || !within(cap_mem(x), cap_mem(y), 0.015) ||
	    !within(x->alloc.cpu, y->alloc.cpu, 0.05) || !within(x->alloc.mem, y->alloc.mem, 0.05) ||
	    x->alloc.pods != y->alloc.pods || x->alloc.eph != y->alloc.eph || x->alloc.next != y->alloc.next)
		return false;
	for (uint32_t i = 0; i < x->alloc.next; i++)
		if (x->alloc.ext[i].name != y->alloc.ext[i].name || x->alloc.ext[i].v != y->alloc.ext[i].v)
			return false;
	/* free = allocatable - the template's pods' requests (its DaemonSet
	 * pods; NodeInfo.Requested has no pod count), within 5 % each, in
	 * milli-units as resourceListWithinTolerance compares */
	struct resources ux = {0}, uy = {0};
	for (uint32_t i = 0; i < a->t.nds; i++) {
		const struct resources *r = &ca->c->pods[a->t.ds[i]].spec.req;
		ux.cpu += r->cpu, ux.mem += r->mem, ux.eph += r->eph;
	}
	for (uint32_t i = 0; i < b->t.nds; i++) {
		const struct resources *r = &ca->c->pods[b->t.ds[i]].spec.req;
		uy.cpu += r->cpu, uy.mem += r->mem, uy.eph += r->eph;
	}
	if (!within_signed(x->alloc.cpu - ux.cpu, y->alloc.cpu - uy.cpu, 0.05) ||
	    !within_signed(x->alloc.mem - ux.mem, y->alloc.mem - uy.mem, 0.05) ||
	    !within_signed(x->alloc.eph - ux.eph, y->alloc.eph - uy.eph, 0.05))
		return false;
	return labels_similar(ca, &x->labels, &y->labels);
}

static int ca_run(struct ca *ca, const struct as_step *a, struct as_report *rep, struct as_changes *ch)
{
	struct cluster *c = ca->c;
	const struct as_config *cfg = ca->cfg;
	uint32_t ng = cfg->ngroups;
	struct grp *gs = calloc(ng + 1, sizeof(*gs));
	uint32_t *pend = malloc((c->npods + 1) * sizeof(uint32_t)), npend = 0;
	uint32_t *ids = malloc((c->nnodes + 64) * sizeof(uint32_t));
	struct eqg *eq = NULL;
	uint32_t neq = 0;
	int ret = 0;
	if (!gs || !pend || !ids)
		goto out;
	rep->groups = calloc(ng + 1, sizeof(*rep->groups));
	if (!rep->groups)
		goto out;
	rep->ngroups = ng;
	memcpy(rep->expander, ca->set.expander, sizeof(rep->expander));
	rep->nexpander = ca->set.nexpander;

	/* 1. the pods: pending, not nominated, not expendable (the
	 * nominated ones are in the snapshot); upcoming nodes */
	for (uint32_t p = 0; p < c->npods; p++) {
		const struct pod *pp = &c->pods[p];
		if (pp->alive && pp->node < 0 && !pp->nominated && !pp->terminating &&
		    pp->spec.priority >= EXPENDABLE_CUTOFF)
			pend[npend++] = p;
	}
	snapshot_pods(ca);
	if (ca->oom)
		goto out;
	for (uint32_t i = 0; i < ng; i++) {
		gs[i].g = &cfg->groups[i];
		gs[i].rep = &rep->groups[i];
		if (!(gs[i].rep->name = strdup(S(ca, cfg->groups[i].name))))
			goto out;
		gs[i].nmembers = members(ca, gs[i].g, ids);
		gs[i].target = gs[i].g->has_size && gs[i].g->size > gs[i].nmembers ? gs[i].g->size : gs[i].nmembers;
	}
	uint32_t m_snap = mark(ca), real_nodes = 0;
	for (uint32_t k = 0; k < c->nnodes; k++)
		real_nodes += c->nodes[k].alive;
	for (uint32_t i = 0; i < ng && !ca->oom; i++) {
		if (gs[i].target <= gs[i].nmembers)
			continue;
		struct tmpl t;
		if (!build_template(ca, gs[i].g, "", &t)) {
			tmpl_fini(&t);
			goto out;
		}
		for (int64_t u = 0; t.ok && u < gs[i].target - gs[i].nmembers; u++) {
			char name[512];
			snprintf(name, sizeof(name), "%s-upcoming-%" PRId64, S(ca, t.node.name), u);
			if (add_copy(ca, &t, name) < 0)
				break;
		}
		tmpl_fini(&t);
	}
	/* 2. filterOutSchedulableByPacking: priority order (stable) */
	for (uint32_t i = 1; i < npend; i++) {
		uint32_t x = pend[i], j = i;
		while (j > 0 && c->pods[pend[j - 1]].spec.priority < c->pods[x].spec.priority) {
			pend[j] = pend[j - 1];
			j--;
		}
		pend[j] = x;
	}
	uint32_t nleft = 0;
	for (uint32_t i = 0; i < npend && !ca->oom; i++) {
		if (place_any(ca, pend[i], NULL, NULL) < 0)
			pend[nleft++] = pend[i];
	}
	if (ca->oom)
		goto out;
	/* podlistprocessor/filter_out_daemon_sets.go: then DaemonSet pods go */
	uint32_t nkept = 0;
	for (uint32_t i = 0; i < nleft; i++) {
		const struct owner_ref *o = controller_of(&c->pods[pend[i]]);
		if (!o || !o->kind || strcmp(S(ca, o->kind), "DaemonSet"))
			pend[nkept++] = pend[i];
	}
	nleft = nkept;
	/* back to the order the pods became pending */
	for (uint32_t i = 1; i < nleft; i++) {
		uint32_t x = pend[i], j = i;
		while (j > 0 && pend[j - 1] > x) {
			pend[j] = pend[j - 1];
			j--;
		}
		pend[j] = x;
	}
	for (uint32_t i = 0; i < nleft; i++) {
		if (!PUSH(rep->pods, rep->npods) || !(rep->pods[rep->npods - 1] = pod_ref(ca, pend[i])))
			goto out;
	}
	int32_t for_pod = nleft ? (int32_t)pend[0] : -1;
	const struct as_val *fv = a->has_expect ? as_val_get(&a->expect, "for") : NULL;
	if (fv && fv->type == AV_STR) {
		for (uint32_t i = 0; i < nleft; i++)
			if (!strcmp(rep->pods[i], fv->s))
				for_pod = (int32_t)pend[i];
	}
	if (for_pod >= 0 && !(rep->for_pod = pod_ref(ca, (uint32_t)for_pod)))
		goto out;
	/* core/static_autoscaler.go shouldScaleUp: ready nodes >= maxNodesTotal:
	 * no scale-up; each pod: "max total nodes in cluster reached" */
	if (nleft && ca->set.max_nodes_total > 0 && (int64_t)real_nodes >= ca->set.max_nodes_total) {
		for (uint32_t i = 0; i < nleft; i++)
			if (!add_event(rep, pod_ref(ca, pend[i]), "NotTriggerScaleUp",
				       strdup("pod didn't trigger scale-up: max total nodes in cluster reached")))
				goto out;
		for (uint32_t i = 0; i < ng; i++)
			if (!(gs[i].rep->reason = strdup("max total nodes in cluster reached")))
				goto out;
		ret = !ca->oom;
		goto out;
	}
	/* equivalence groups, in pending order of their first pod */
	for (uint32_t i = 0; i < nleft; i++) {
		uint32_t e = 0;
		for (; e < neq; e++)
			if (equivalent(ca, &c->pods[eq[e].pods[0]], &c->pods[pend[i]]))
				break;
		if (e == neq) {
			if (!PUSH(eq, neq) || !(eq[e].pods = malloc(nleft * sizeof(uint32_t))))
				goto out;
		}
		eq[e].pods[eq[e].n++] = pend[i];
	}
	/* 3. filterValidScaleUpNodeGroups and 4. SchedulablePodGroups */
	for (uint32_t i = 0; i < ng && !ca->oom; i++) {
		struct grp *gr = &gs[i];
		struct as_group_rep *gp = gr->rep;
		if (gr->target >= gr->g->max) {
			gp->status = "skipped";
			if (!(gp->reason = strdup("max node group size reached")))
				goto out;
			continue;
		}
		if (!build_template(ca, gr->g, "", &gr->t))
			goto out;
		if (!gr->t.ok) {
			gp->status = "skipped";
			if (!(gp->reason = strdup("not ready for scale-up")))
				goto out;
			continue;
		}
		gr->valid = true;
		gp->tmpl_from = strdup(gr->t.from);
		gp->tmpl_zone = gr->t.zone ? strdup(S(ca, gr->t.zone)) : NULL;
		gr->pass = calloc(neq + 1, sizeof(bool));
		gr->why = calloc(neq + 1, sizeof(char *));
		if (!gp->tmpl_from || !gr->pass || !gr->why)
			goto out;
		uint32_t m1 = mark(ca);
		struct tmpl copy;
		memset(&copy, 0, sizeof(copy));
		struct node tn;
		if (!node_copy_def(&tn, &gr->t.node))
			goto out;
		int32_t tid = sim_add_node(ca, &tn);
		if (tid < 0 || !add_ds_pods(ca, &gr->t, (uint32_t)tid, NULL))
			goto out;
		bool any = false;
		for (uint32_t e = 0; e < neq && !ca->oom; e++) {
			bool is_for = false;
			for (uint32_t q = 0; q < eq[e].n; q++)
				is_for |= (int32_t)eq[e].pods[q] == for_pod;
			/* the verdict on the template alone; a whole cycle only
			 * where the report shows its domains or arithmetic */
			char *why = NULL;
			int ok = fits_why(ca, eq[e].pods[0], (uint32_t)tid, &why);
			if (ok < 0)
				goto out;
			if (!is_for && (ok || gp->detail)) {
				if (ok) {
					gr->pass[e] = true;
					any = true;
				}
				gr->why[e] = why;
				continue;
			}
			free(why);
			struct decision d;
			if (!decide(ca, eq[e].pods[0], &d))
				goto out;
			const struct node_rec *r = decision_node(&d, (uint32_t)tid);
			if (is_for) {
				gp->has_domains = true;
				gp->domains = calloc(d.ncons + 1, sizeof(char *));
				gp->gmin = calloc(d.ncons + 1, sizeof(int64_t));
				if (!gp->domains || !gp->gmin) {
					decision_fini(&d);
					goto out;
				}
				for (uint32_t k = 0; k < d.ncons; k++) {
					if (!d.cons[k].hard)
						continue;
					if (!(gp->domains[gp->ndomains] = render_doms(ca, &d.cons[k]))) {
						decision_fini(&d);
						goto out;
					}
					gp->gmin[gp->ndomains++] = d.cons[k].global_min;
				}
			}
			if (r && r->feasible) {
				gr->pass[e] = true;
				any = true;
			} else if (r) {
				char buf[1024], det[1024];
				gr->why[e] = strdup(decision_reason(c, &d, r, buf, sizeof(buf)));
				if (is_for || !gp->detail) {
					free(gp->detail);
					free(gp->plugin);
					gp->detail = strdup(decision_detail(c, &d, r, det, sizeof(det)));
					gp->plugin = r->fail >= 0 ? strdup(plugin_name((enum plugin_id)r->fail)) : NULL;
				}
				if (!gr->why[e]) {
					decision_fini(&d);
					goto out;
				}
			}
			decision_fini(&d);
		}
		rollback(ca, m1);
		if (!any) {
			gp->status = "rejected";
			/* the distinct reasons of its eq groups, in order */
			char **u = calloc(neq + 1, sizeof(char *));
			uint32_t nu = 0;
			size_t len = 1;
			if (!u)
				goto out;
			for (uint32_t e = 0; e < neq; e++) {
				bool dup = false;
				for (uint32_t q = 0; q < nu; q++)
					dup |= gr->why[e] && !strcmp(u[q], gr->why[e]);
				if (gr->why[e] && !dup) {
					u[nu++] = gr->why[e];
					len += strlen(gr->why[e]) + 2;
				}
			}
			gp->reason = calloc(len, 1);
			if (!gp->reason) {
				free(u);
				goto out;
			}
			for (uint32_t q = 0; q < nu; q++) {
				if (q)
					strcat(gp->reason, ", ");
				strcat(gp->reason, u[q]);
			}
			free(u);
			continue;
		}
	}
	/* 5. the estimates, once every template was checked
	 * (orchestrator.go prepareScaleUp) */
	for (uint32_t i = 0; i < ng && !ca->oom; i++) {
		struct grp *gr = &gs[i];
		struct as_group_rep *gp = gr->rep;
		if (!gr->valid || gp->status)
			continue;
		int64_t total = 0;
		for (uint32_t k = 0; k < c->nnodes; k++)
			total += c->nodes[k].alive;
		/* estimator/threshold_based_limiter.go: a threshold of 0 is
		 * no limit (--max-nodes-per-scaleup 0, --max-nodes-total 0) */
		int64_t limit = ca->set.max_per_scaleup > 0 ? ca->set.max_per_scaleup : INT64_MAX;
		/* estimator/sng_capacity_threshold.go NodeLimit: this group's
		 * room plus its similar groups' when balancing */
		int64_t room = gr->g->max - gr->target;
		for (uint32_t j = 0; ca->set.balance == 1 && j < ng; j++)
			if (j != i && gs[j].valid && similar(ca, gr, &gs[j], neq) && gs[j].g->max > gs[j].target)
				room += gs[j].g->max - gs[j].target;
		if (room < limit)
			limit = room;
		if (ca->set.max_nodes_total > 0 && ca->set.max_nodes_total - total < limit)
			limit = ca->set.max_nodes_total - total;
		if (!estimate(ca, gr, eq, neq, limit))
			goto out;
		gp->estimate = gr->estimate;
		gp->status = gr->estimate > 0 && gr->nplaced > 0 ? "option" : "noPods";
		if (gr->nplaced) {
			gp->helped = calloc(gr->nplaced, sizeof(char *));
			if (!gp->helped)
				goto out;
			/* helped: the pods of the option, in pending order */
			for (uint32_t q = 0; q < nleft; q++)
				for (uint32_t z = 0; z < gr->nplaced; z++)
					if (gr->placed[z] == pend[q]) {
						if (!(gp->helped[gp->nhelped++] = pod_ref(ca, pend[q])))
							goto out;
						break;
					}
		}
	}
	rollback(ca, m_snap);
	/* 6. expanders */
	struct opt *opts = calloc(ng + 1, sizeof(*opts));
	uint32_t nopt = 0;
	if (!opts)
		goto out;
	for (uint32_t i = 0; i < ng; i++) {
		if (!gs[i].valid || !gs[i].rep->status || strcmp(gs[i].rep->status, "option"))
			continue;
		struct opt *o = &opts[nopt++];
		o->grp = i;
		o->nodes = gs[i].estimate;
		o->npods = gs[i].nplaced;
		for (uint32_t z = 0; z < gs[i].nplaced; z++) {
			o->pods_cpu += c->pods[gs[i].placed[z]].spec.req.cpu;
			o->pods_mem += c->pods[gs[i].placed[z]].spec.req.mem;
		}
	}
	uint32_t best = UINT32_MAX;
	if (nopt) {
		best = expand(ca, gs, opts, nopt, &rep->why);
		if (ca->oom)
			goto out_opts;
	}
	if (best != UINT32_MAX) {
		struct grp *gr = &gs[opts[best].grp];
		int64_t n = opts[best].nodes;
		int64_t total = 0;
		for (uint32_t k = 0; k < c->nnodes; k++)
			total += c->nodes[k].alive;
		/* GetCappedNewNodeCount */
		if (ca->set.max_nodes_total > 0 && total + n > ca->set.max_nodes_total)
			n = ca->set.max_nodes_total - total;
		if (!(rep->chosen = strdup(S(ca, gr->g->name))))
			goto out_opts;
		/* the groups that share the scale-up: the chosen one, and with
		 * balanceSimilarNodeGroups the similar ones that passed the same
		 * pod groups (processors/nodegroupset) */
		uint32_t *set = malloc((ng + 1) * sizeof(uint32_t)), nset = 0;
		if (!set)
			goto out_opts;
		set[nset++] = opts[best].grp;
		for (uint32_t i = 0; ca->set.balance == 1 && i < ng; i++)
			if (i != opts[best].grp && gs[i].valid && similar(ca, &gs[opts[best].grp], &gs[i], neq))
				set[nset++] = i;
		/* balancing_processor.go BalanceScaleUpBetweenGroups: one node
		 * at a time to the smallest group, capped at max (stable) */
		int64_t *cur = calloc(nset + 1, sizeof(int64_t)), *nw = calloc(nset + 1, sizeof(int64_t));
		if (!cur || !nw) {
			free(set);
			free(cur);
			free(nw);
			goto out_opts;
		}
		for (uint32_t i = 1; i < nset; i++)
			for (uint32_t j = i; j > 0 && gs[set[j - 1]].target > gs[set[j]].target; j--) {
				uint32_t t = set[j];
				set[j] = set[j - 1];
				set[j - 1] = t;
			}
		for (uint32_t i = 0; i < nset; i++)
			cur[i] = nw[i] = gs[set[i]].target;
		uint32_t start = 0, ci = 0;
		while (n > 0 && start < nset) {
			if (nw[ci] < gs[set[ci]].g->max) {
				nw[ci]++;
				n--;
			} else {
				uint32_t ts = set[start];
				int64_t tc = cur[start], tn = nw[start];
				set[start] = set[ci];
				cur[start] = cur[ci];
				nw[start] = nw[ci];
				set[ci] = ts;
				cur[ci] = tc;
				nw[ci] = tn;
				start++;
				if (start == nset)
					break;
			}
			if (ci + 1 < nset && nw[ci] > nw[ci + 1])
				ci++;
			else
				ci = start;
		}
		bool ok = true;
		for (uint32_t i = 0; i < nset && ok; i++) {
			if (nw[i] == cur[i])
				continue;
			struct grp *g2 = &gs[set[i]];
			ok = PUSH(rep->resized, rep->nresized);
			if (!ok)
				break;
			rep->resized[rep->nresized - 1].group = strdup(S(ca, g2->g->name));
			rep->resized[rep->nresized - 1].from = cur[i];
			rep->resized[rep->nresized - 1].to = nw[i];
			rep->resized[rep->nresized - 1].max = g2->g->max;
			ok = rep->resized[rep->nresized - 1].group && add_real_nodes(ca, g2, nw[i] - cur[i], rep, a->dry, ch);
		}
		free(set);
		free(cur);
		free(nw);
		if (!ok)
			goto out_opts;
	}
	/* 7. events */
	if (rep->nresized) {
		size_t len = 64;
		for (uint32_t k = 0; k < rep->nresized; k++)
			len += strlen(rep->resized[k].group) + 80;
		char *info = malloc(len);
		if (!info)
			goto out_opts;
		strcpy(info, "[");
		for (uint32_t k = 0; k < rep->nresized; k++)
			sprintf(info + strlen(info), "%s{%s %" PRId64 "->%" PRId64 " (max: %" PRId64 ")}",
				k ? " " : "", rep->resized[k].group, rep->resized[k].from, rep->resized[k].to,
				rep->resized[k].max);
		strcat(info, "]");
		struct grp *gr = &gs[opts[best].grp];
		for (uint32_t q = 0; q < nleft; q++)
			for (uint32_t z = 0; z < gr->nplaced; z++)
				if (gr->placed[z] == pend[q]) {
					if (!add_event(rep, pod_ref(ca, pend[q]), "TriggeredScaleUp",
						       out_strf("pod triggered scale-up: %s", info))) {
						free(info);
						goto out_opts;
					}
					break;
				}
		free(info);
	} else {
		/* NotTriggerScaleUp for each pod that passed no template:
		 * "%d %s" per reason over rejected and skipped groups */
		for (uint32_t q = 0; q < nleft; q++) {
			uint32_t e = 0;
			for (; e < neq; e++)
				for (uint32_t z = 0; z < eq[e].n; z++)
					if (eq[e].pods[z] == pend[q])
						goto found;
			continue;
found:;
			bool passed = false;
			char *rs[256];
			uint32_t cnt[256], nr = 0;
			for (uint32_t i = 0; i < ng; i++) {
				const char *why = NULL;
				if (!gs[i].valid)
					why = gs[i].rep->reason;
				else if (gs[i].pass && gs[i].pass[e])
					passed = true;
				else if (gs[i].why)
					why = gs[i].why[e];
				/* predicate/plugin_runner.go RunFiltersOnNode: a
				 * template outside the PreFilter's node names fails
				 * with no reasons, so it adds no part */
				if (!why || !strncmp(why, "node(s) didn't satisfy plugin(s) [", 34))
					continue;
				/* each reason of a group counts on its own
				 * (eventing_scale_up_processor.go ReasonsMessage over
				 * Reasons(): NodeResourcesFit's are joined by ", ") */
				for (const char *s = why; *s;) {
					const char *e2 = strstr(s, ", ");
					size_t l = e2 ? (size_t)(e2 - s) : strlen(s);
					uint32_t k = 0;
					for (; k < nr; k++)
						if (strlen(rs[k]) == l && !strncmp(rs[k], s, l))
							break;
					if (k == nr && nr < 256) {
						if (!(rs[nr] = strndup(s, l))) {
							for (uint32_t f = 0; f < nr; f++)
								free(rs[f]);
							goto out_opts;
						}
						cnt[nr++] = 0;
					}
					if (k < 256)
						cnt[k]++;
					s += l + (e2 ? 2 : 0);
				}
			}
			if (passed || !nr) {
				for (uint32_t f = 0; f < nr; f++)
					free(rs[f]);
				continue;
			}
			/* skewer orders the parts by reason text (upstream: Go
			 * map order) */
			for (uint32_t i = 1; i < nr; i++)
				for (uint32_t j = i; j > 0 && strcmp(rs[j - 1], rs[j]) > 0; j--) {
					char *t = rs[j];
					rs[j] = rs[j - 1];
					rs[j - 1] = t;
					uint32_t tc = cnt[j];
					cnt[j] = cnt[j - 1];
					cnt[j - 1] = tc;
				}
			size_t len = 64;
			for (uint32_t k = 0; k < nr; k++)
				len += strlen(rs[k]) + 24;
			char *msg = malloc(len);
			if (msg) {
				strcpy(msg, "pod didn't trigger scale-up: ");
				for (uint32_t k = 0; k < nr; k++)
					sprintf(msg + strlen(msg), "%s%u %s", k ? ", " : "", cnt[k], rs[k]);
			}
			for (uint32_t f = 0; f < nr; f++)
				free(rs[f]);
			if (!msg)
				goto out_opts;
			if (!add_event(rep, pod_ref(ca, pend[q]), "NotTriggerScaleUp", msg))
				goto out_opts;
		}
	}
	(void)cmp_str;
	ret = !ca->oom;
out_opts:
	free(opts);
out:
	rollback(ca, 0);
	for (uint32_t i = 0; gs && i < ng; i++) {
		tmpl_fini(&gs[i].t);
		free(gs[i].pass);
		for (uint32_t e = 0; gs[i].why && e < neq; e++)
			free(gs[i].why[e]);
		free(gs[i].why);
		free(gs[i].placed);
	}
	for (uint32_t e = 0; e < neq; e++)
		free(eq[e].pods);
	free(eq);
	free(gs);
	free(pend);
	free(ids);
	return ret;
}

int as_karpenter(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		 const struct as_settings *set, struct as_report *rep, struct as_changes *ch);

int as_scale_up(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		struct as_report **out, struct as_changes *ch)
{
	static const struct as_config none;
	struct as_report *rep = calloc(1, sizeof(*rep));
	*out = rep;
	if (!rep)
		return 0;
	const struct as_config *cfg = sc->autoscale ? sc->autoscale : &none;
	enum as_kind k = a->kind != AS_DEFAULT ? a->kind
			 : cfg->set.def != AS_DEFAULT ? cfg->set.def
			 : cfg->ngroups ? AS_CA : AS_KARPENTER;
	rep->kind = k;
	rep->dry = a->dry;
	struct ca ca = {.sch = sch, .c = sch->c, .sc = sc, .cfg = cfg};
	settings_merge(&ca.set, &cfg->set, &a->over);
	if (k == AS_CA && !cfg->ngroups) {
		rep->error = strdup("scaleUp: the cluster autoscaler has no nodeGroups (add 'nodeGroups' to the scenario)");
		return rep->error != NULL;
	}
	if (k == AS_KARPENTER && !cfg->npools) {
		rep->error = strdup("scaleUp: Karpenter has no NodePools (add 'nodePools' or a 'kind: NodePool' object)");
		return rep->error != NULL;
	}
	if (k == AS_KARPENTER)
		return as_karpenter(sch, sc, a, &ca.set, rep, ch);
	/* schedulerConfig default: CA without --scheduler-config-file runs
	 * kube-scheduler's default profile (System defaulting, no default
	 * constraints, the gates of its version), whatever the scenario's
	 * scheduler block says; the version stays (each CA minor vendors its
	 * scheduler). simulator/framework/handle.go NewHandle */
	struct sched_config saved = ca.c->cfg;
	if (ca.set.sched_cfg == AS_SCHED_DEFAULT) {
		struct sched_config d;
		sched_config_defaults(&d);
		d.version = saved.version;
		d.version_named = saved.version_named;
		version_apply(&d);
		d.preemption = saved.preemption;
		ca.c->cfg = d;
	}
	/* CA's scheduler framework has no nominator: every filter is
	 * RunFilterPlugins (simulator/clustersnapshot/predicate/plugin_runner.go).
	 * The nominated pods it keeps are in the snapshot (snapshot_pods);
	 * the others (terminating, expendable, nominated to a missing node)
	 * are nowhere, so the cycles' nominated-pods pass has none. */
	uint32_t nnominated = ca.c->nnominated;
	ca.c->nnominated = 0;
	int ok = ca_run(&ca, a, rep, ch);
	ca.c->nnominated = nnominated;
	drop_probe(&ca);
	ca.c->cfg = saved;
	free(ca.order);
	free(ca.log);
	return ok && !ca.oom;
}
