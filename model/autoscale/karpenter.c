/* karpenter.c - one Karpenter provisioning batch (kubernetes-sigs/karpenter
 * v1.14.1, pkg/controllers/provisioning: Provisioner.Schedule and
 * scheduling.Scheduler.Solve) over the live cluster: the pods in queue
 * order onto existing nodes, in-flight NodeClaims or new ones, with
 * Karpenter's own topology (scheduling/topology*.go), its errors and
 * events (spec/autoscalers.md 2.2). Existing nodes' resources, taints and
 * affinity are the scheduler's filters (one full cycle per try); the
 * spreading is Karpenter's. */
#include "autoscale.h"
#include "../../util/out.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cluster.h"
#include "../decision.h"
#include "../plugins.h"
#include "../scenario.h"
#include "../sched.h"
#include "../../util/hmap.h"

#define HOSTNAME "kubernetes.io/hostname"
#define ZONE "topology.kubernetes.io/zone"

int as_karpenter(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		 const struct as_settings *set, struct as_report *rep, struct as_changes *ch);


/* a pod's node affinity terms in force: the preferred term (NULL: none)
 * and the index of the first required nodeSelectorTerm left */
struct pview {
	const struct ns_term *pref;
	uint32_t req;
};

struct claim {
	uint32_t pool;
	sym_t zone;                 /* pinned, SYM_NONE when not */
	uint32_t *pods;
	uint32_t npods;
	/* per pod, the node terms in force when it joined */
	struct pview *pv;
	uint32_t npv;
	/* the NodePool's remaining resources when it was made, one per
	 * limit (NULL: no limits): its instance type options are those
	 * within (filterByRemainingResources) */
	int64_t *cap;
	/* the zones its pods' pod (anti-)affinity left it (has_zset), in
	 * the order of the domains */
	sym_t *zset;
	uint32_t nzset;
	bool has_zset;
	int64_t cpu, mem;
	char *name;
	uint32_t seq;
};

/* a set of zones: a NodeClaim's zone requirement once its pods' pod
 * (anti-)affinity narrowed it (has: narrowed at all) */
struct zset {
	sym_t *v;
	uint32_t n, cap;
	bool has;
};

struct kp {
	struct scheduler *sch;
	struct cluster *c;
	const struct as_config *cfg;
	const struct as_settings *set;
	uint32_t *pool_ord;         /* weight desc, name desc */
	uint32_t npools;
	bool *pool_tmpl;            /* has a compatible instance type */
	struct claim *claims;
	uint32_t nclaims;
	uint32_t *bound;            /* pods bound to existing nodes in the batch */
	uint32_t nbound;
	sym_t zone_key, host_key;
	const struct ns_term *pref; /* the preferred node term in force, or NULL */
	uint32_t req;               /* the required node term in force */
	bool tol_pns;               /* the pod tolerates PreferNoSchedule (relaxed) */
	bool pool_pns;              /* some NodePool taints PreferNoSchedule */
	/* scheduler.go remainingResources: per NodePool, per limit, the
	 * limit minus its nodes' and this batch's NodeClaims' capacity */
	int64_t **rem;
	const int64_t *cap;         /* the caps of the NodeClaim being made, or NULL */
	const struct zset *zs;      /* the zones left to the NodeClaim being made, or NULL */
	struct zset zbuf;
	struct cand *cd;            /* try_pod's constraints and groups */
	sym_t *vals;                /* scratch values (kp_vals) */
	uint32_t nvals;
	/* bound pods with required anti-affinity when the batch began
	 * (topology.go updateInverseAffinities) */
	uint32_t *anti_owners;
	uint32_t nanti_owners;
	sym_t r_cpu, r_mem, r_eph, r_pods, r_nodes;
	bool oom;
};

/* A pod's preferences still in force (preferences.go Relax): the
 * preferred node terms removed so far (heaviest first), the topology
 * spread constraints left after removeTopologySpreadScheduleAnyway's
 * swap-with-last removals, the PreferNoSchedule toleration added. */
#define MAXRX 64
enum rx_kind { RX_REQ_NODE, RX_POD_AFF, RX_POD_ANTI, RX_PREF_NODE, RX_TSC, RX_PNS };
/* one relaxation: which step, and the index as written of what it removed */
struct rxlog {
	uint8_t kind;
	uint32_t idx;
};
struct relax {
	uint32_t req_drop, pref_drop, aff_drop, anti_drop;
	uint32_t idx[MAXRX], n;
	bool tol_pns;
	struct rxlog log[4 * MAXRX];
	uint32_t nlog;
};

static bool zset_has(const sym_t *v, uint32_t n, sym_t z)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] == z)
			return true;
	return false;
}

static const char *S(const struct kp *k, sym_t s)
{
	return intern_get(k->c->in, s);
}

static const struct as_req *pool_req(const struct as_pool *p, sym_t key)
{
	for (uint32_t i = 0; i < p->nreqs; i++)
		if (p->reqs[i].key == key)
			return &p->reqs[i];
	return NULL;
}

static bool req_allows(const struct as_req *r, sym_t v)
{
	if (!r)
		return true;
	bool in = false;
	for (uint32_t i = 0; i < r->nvals; i++)
		in |= r->vals[i] == v;
	switch (r->op) {
	case REQ_IN:
		return in;
	case REQ_NOT_IN:
		return !in;
	case REQ_EXISTS:
		return v != SYM_NONE;
	case REQ_DOES_NOT_EXIST:
		return v == SYM_NONE;
	default:
		return true;
	}
}

/* A resource's quantity in r (cpu in millicores), 0 when r has none: a
 * node's capacity holds one "nodes" (statenode.go Capacity), an
 * instance type's none. */
static int64_t res_amount(const struct kp *k, const struct resources *r, sym_t res, bool node)
{
	if (res == k->r_cpu)
		return r->cpu;
	if (res == k->r_mem)
		return r->mem;
	if (res == k->r_eph)
		return r->eph;
	if (res == k->r_pods)
		return r->pods;
	if (res == k->r_nodes)
		return node;
	return resources_ext(r, res);
}

/* scheduler.go filterByRemainingResources: no resource of the instance
 * type's capacity above what is left of its limit (a resource it lacks
 * counts 0, so it only fails once the remainder is negative) */
static bool itype_within(const struct kp *k, const struct as_pool *pl, const struct as_itype *it, const int64_t *cap)
{
	for (uint32_t j = 0; cap && j < pl->nlimits; j++)
		if (res_amount(k, &it->alloc, pl->limits[j].res, false) > cap[j])
			return false;
	return true;
}

static bool pool_has_itype(const struct kp *k, const struct as_pool *p, uint32_t t)
{
	if (!p->has_itypes)
		return true;
	for (uint32_t i = 0; i < p->nitypes; i++)
		if (p->itypes[i] == k->cfg->itypes[t].name)
			return true;
	return false;
}

static bool pool_catalog_nonempty(const struct kp *k, const struct as_pool *p)
{
	return !p->has_itypes || (p->nitypes > 0 && k->cfg->nitypes > 0);
}

/* instance type t's labels against the pool's requirements (other than
 * the zone and capacity type, which are the offerings') */
static bool itype_labels_ok(const struct kp *k, const struct as_pool *p, const struct as_itype *t)
{
	sym_t ct = intern_find(k->c->in, "karpenter.sh/capacity-type", 26);
	for (uint32_t i = 0; i < p->nreqs; i++) {
		const struct as_req *r = &p->reqs[i];
		if (r->key == k->zone_key || r->key == ct)
			continue;
		sym_t v = labels_get(&t->labels, r->key);
		if (!v)
			v = labels_get(&p->labels, r->key);
		if (v && !req_allows(r, v))
			return false;
		if (!v && r->op == REQ_IN && r->key != k->host_key &&
		    strcmp(S(k, r->key), "node.kubernetes.io/instance-type"))
			continue;
		if (!v && r->key == intern_find(k->c->in, "node.kubernetes.io/instance-type", 32) &&
		    !req_allows(r, t->name))
			return false;
	}
	return true;
}

static bool offer_ok(const struct kp *k, const struct as_pool *p, const struct as_offering *o, sym_t zone)
{
	sym_t ct = intern_find(k->c->in, "karpenter.sh/capacity-type", 26);
	if (!o->available)
		return false;
	if (zone && o->zone != zone)
		return false;
	if (!req_allows(pool_req(p, k->zone_key), o->zone))
		return false;
	if (ct && !req_allows(pool_req(p, ct), o->capacity_type))
		return false;
	return true;
}

/* a domain of the universe: its value and whether an untainted source
 * (or one the pod tolerates) gave it */
struct dom {
	sym_t v;
	int64_t count;
	bool tainted_only;
	bool tolerated;
};

static bool pod_allows_with(const struct pod *p, const struct ns_term *pref, uint32_t req, sym_t key, sym_t v);

/* the domains of a group: as many as there are (a hostname group has one
 * per node), indexed by value; kept for reuse from pod to pod */
struct dset {
	struct dom *d;
	uint32_t n, cap;
	struct hmap ix;             /* value -> index in d */
	bool oom;
};

struct topo {
	const struct tsc *t;
	uint32_t cons;              /* index in the decision */
	bool host;
	bool self;
	int64_t min;
	struct dset ds;
};

static void dset_reset(struct dset *s)
{
	s->n = 0;
	s->oom = false;
	hmap_clear(&s->ix);
}

static void dset_fini(struct dset *s)
{
	free(s->d);
	hmap_fini(&s->ix);
	memset(s, 0, sizeof(*s));
}

/* the index again after the domains were reordered or filtered */
static void dset_reindex(struct dset *s)
{
	hmap_clear(&s->ix);
	for (uint32_t i = 0; i < s->n; i++)
		if (!hmap_put(&s->ix, s->d[i].v, i))
			s->oom = true;
}

static struct dom *dom_find(const struct dset *s, sym_t v)
{
	int64_t i = hmap_get(&s->ix, v);
	return i < 0 ? NULL : &s->d[i];
}

/* the domain of value v; with add, a new one when absent (NULL only when
 * out of memory, noted in s->oom) */
static struct dom *dom_in(struct dset *s, sym_t v, bool add)
{
	struct dom *dm = dom_find(s, v);
	if (dm || !add)
		return dm;
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 16;
		struct dom *nd = realloc(s->d, ncap * sizeof(*nd));
		if (!nd) {
			s->oom = true;
			return NULL;
		}
		s->d = nd;
		s->cap = ncap;
	}
	if (!hmap_put(&s->ix, v, s->n)) {
		s->oom = true;
		return NULL;
	}
	s->d[s->n] = (struct dom){v, 0, true, false};
	return &s->d[s->n++];
}

/* topologydomaingroup.go ForEachDomain under taints Honor: only the
 * domains a NodePool the pod tolerates gives */
static void dset_keep_tolerated(struct dset *s)
{
	uint32_t w = 0;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->d[i].tolerated)
			s->d[w++] = s->d[i];
	s->n = w;
	dset_reindex(s);
}

/* scheduling/taints.go Tolerates: PreferNoSchedule taints block too
 * until relaxation adds a toleration for them */
static bool pns_tolerated(const struct kp *k, const struct pod *p, const struct taint *t, uint32_t nt)
{
	for (uint32_t i = 0; i < nt && !k->tol_pns; i++)
		if (t[i].effect == EFFECT_PREFER_NO_SCHEDULE && !taint_tolerated(k->c, &t[i], p->spec.tols, p->spec.ntols))
			return false;
	return true;
}

static bool pod_tolerates_pool(const struct kp *k, const struct pod *p, const struct as_pool *pl)
{
	struct node fake;
	memset(&fake, 0, sizeof(fake));
	fake.taints = pl->taints;
	fake.ntaints = pl->ntaints;
	return taint_first_untolerated(&fake, p->spec.tols, p->spec.ntols) < 0 &&
	       pns_tolerated(k, p, pl->taints, pl->ntaints);
}

static bool honor(const struct kp *k, sym_t policy, bool def)
{
	if (!policy)
		return def;
	return !strcmp(S(k, policy), "Honor");
}

static int cmp_dom(const struct dom *a, const struct dom *b, const struct kp *k)
{
	return strcmp(S(k, a->v), S(k, b->v));
}

/* d[lo, hi) by value, through tmp (values are distinct: any sort is the
 * same order) */
static void msort_doms(const struct kp *k, struct dom *d, struct dom *tmp, uint32_t lo, uint32_t hi)
{
	if (hi - lo < 2)
		return;
	uint32_t mid = lo + (hi - lo) / 2, i = lo, j = mid, o = lo;
	msort_doms(k, d, tmp, lo, mid);
	msort_doms(k, d, tmp, mid, hi);
	while (i < mid && j < hi)
		tmp[o++] = cmp_dom(&d[j], &d[i], k) < 0 ? d[j++] : d[i++];
	while (i < mid)
		tmp[o++] = d[i++];
	while (j < hi)
		tmp[o++] = d[j++];
	memcpy(d + lo, tmp + lo, (hi - lo) * sizeof(*d));
}

/* the domains by value, and the index again */
static void dset_sort(const struct kp *k, struct dset *s)
{
	struct dom *tmp = s->n > 1 ? malloc(s->n * sizeof(*tmp)) : NULL;
	if (tmp)
		msort_doms(k, s->d, tmp, 0, s->n);
	else
		for (uint32_t i = 1; i < s->n; i++)
			for (uint32_t j = i; j > 0 && cmp_dom(&s->d[j - 1], &s->d[j], k) > 0; j--) {
				struct dom t = s->d[j];
				s->d[j] = s->d[j - 1];
				s->d[j - 1] = t;
			}
	free(tmp);
	dset_reindex(s);
}

/* topology.go buildDomainGroups: the domains of key the NodePools give
 * (NodePool x instance type, and every value of an In requirement), each
 * marked tolerated when a NodePool the pod tolerates gives it */
static void pool_domains(const struct kp *k, const struct pod *p, sym_t key, struct dset *s)
{
	for (uint32_t pi = 0; pi < k->cfg->npools; pi++) {
		const struct as_pool *pl = &k->cfg->pools[pi];
		if (!pool_catalog_nonempty(k, pl))
			continue;
		bool tol = pod_tolerates_pool(k, p, pl);
		bool untainted = pl->ntaints == 0;
		/* per instance type: the pool's requirements with the
		 * type's (zones from its offerings) */
		for (uint32_t ti = 0; ti < k->cfg->nitypes; ti++) {
			const struct as_itype *it = &k->cfg->itypes[ti];
			if (!pool_has_itype(k, pl, ti) || !itype_labels_ok(k, pl, it))
				continue;
			if (key == k->zone_key) {
				for (uint32_t o = 0; o < it->noffers; o++)
					if (offer_ok(k, pl, &it->offers[o], SYM_NONE)) {
						struct dom *dm = dom_in(s, it->offers[o].zone, true);
						if (dm) {
							dm->tainted_only &= !untainted;
							dm->tolerated |= tol;
						}
					}
			} else {
				sym_t v = labels_get(&it->labels, key);
				if (!v)
					v = labels_get(&pl->labels, key);
				if (v && req_allows(pool_req(pl, key), v)) {
					struct dom *dm = dom_in(s, v, true);
					if (dm) {
						dm->tainted_only &= !untainted;
						dm->tolerated |= tol;
					}
				}
			}
		}
		/* every value of every In requirement on the key */
		const struct as_req *r = pool_req(pl, key);
		for (uint32_t i = 0; r && r->op == REQ_IN && i < r->nvals; i++) {
			struct dom *dm = dom_in(s, r->vals[i], true);
			if (dm) {
				dm->tainted_only &= !untainted;
				dm->tolerated |= tol;
			}
		}
	}
}

/* topology.go buildDomainGroups + NewTopologyGroup + countDomains for
 * constraint tp of pod p (d: a cycle of p, for its selectors) */
static void build_topo(struct kp *k, const struct pod *p, const struct decision *d, struct topo *tp)
{
	const struct tsc *t = tp->t;
	sym_t key = t->topology_key;
	bool taints_honor = honor(k, t->node_taints_policy, false);
	bool aff_honor = honor(k, t->node_affinity_policy, true);
	tp->host = key == k->host_key;
	dset_reset(&tp->ds);
	if (!tp->host) {
		pool_domains(k, p, key, &tp->ds);
		/* topologydomaingroup.go ForEachDomain: taints only when Honor */
		if (taints_honor)
			dset_keep_tolerated(&tp->ds);
	}
	/* countDomains: existing nodes that pass the node filter */
	for (uint32_t id = 0; id < k->c->nnodes; id++) {
		const struct node *n = &k->c->nodes[id];
		if (!n->alive)
			continue;
		if (aff_honor && !node_matches_pod_affinity(k->c, p, n))
			continue;
		if (taints_honor && taint_first_untolerated(n, p->spec.tols, p->spec.ntols) >= 0)
			continue;
		sym_t v = labels_get(&n->labels, key);
		if (!v && tp->host)
			v = n->name;
		if (!v)
			continue;
		struct dom *dm = dom_in(&tp->ds, v, true);
		if (!dm)
			continue;
		for (uint32_t q = 0; q < n->npods; q++)
			if (decision_counts_pod(k->c, d, tp->cons, &k->c->pods[n->pods[q]]))
				dm->count++;
	}
	/* in-flight NodeClaims of this batch (Topology.Record) */
	for (uint32_t ci = 0; ci < k->nclaims; ci++) {
		const struct claim *cl = &k->claims[ci];
		sym_t v = tp->host ? intern_str(k->c->in, cl->name) : cl->zone;
		/* a NodeClaim its pods' affinity narrowed to one zone */
		if (!v && !tp->host && tp->t->topology_key == k->zone_key && cl->has_zset && cl->nzset == 1)
			v = cl->zset[0];
		if (!v)
			continue;
		int64_t cnt = 0;
		for (uint32_t q = 0; q < cl->npods; q++)
			cnt += decision_counts_pod(k->c, d, tp->cons, &k->c->pods[cl->pods[q]]);
		struct dom *dm = dom_in(&tp->ds, v, cnt > 0 || !tp->host);
		if (dm)
			dm->count += cnt;
	}
	dset_sort(k, &tp->ds);
	/* domainMinCount: hostname 0; else the min over the pod's domains,
	 * 0 when fewer than minDomains */
	int64_t min = INT64_MAX;
	uint32_t nd = 0;
	for (uint32_t i = 0; i < tp->ds.n; i++) {
		if (!pod_allows_with(p, NULL, k->req, key, tp->ds.d[i].v))
			continue;
		nd++;
		if (tp->ds.d[i].count < min)
			min = tp->ds.d[i].count;
	}
	if (tp->host || min == INT64_MAX || (t->has_min_domains && nd < (uint32_t)t->min_domains))
		min = 0;
	tp->min = min;
}

static char *counts_text_d(const struct kp *k, const struct dom *d, uint32_t nd)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = 0;
	/* pretty.Map(domains, 25): keys sorted, "k: v" joined ", " */
	for (uint32_t i = 0; i < nd && i < 25; i++) {
		char item[600];
		int n = snprintf(item, sizeof(item), "%s%s: %" PRId64, i ? ", " : "", S(k, d[i].v), d[i].count);
		if (n < 0 || (size_t)n >= sizeof(item))
			n = 0;
		while (len + (size_t)n + 32 > cap)
			cap *= 2;
		char *ns = realloc(s, cap);
		if (!ns) {
			free(s);
			return NULL;
		}
		s = ns;
		memcpy(s + len, item, (size_t)n + 1);
		len += (size_t)n;
	}
	if (nd > 25)
		sprintf(s + len, " and %u other(s)", nd - 25);
	return s;
}

static char *counts_text(const struct kp *k, const struct topo *tp)
{
	return counts_text_d(k, tp->ds.d, tp->ds.n);
}

/* Does one node selector term's expressions allow value v for key? */
static bool term_allows(const struct ns_term *t, sym_t key, sym_t v)
{
	for (uint32_t e = 0; t && e < t->nexprs; e++) {
		const struct sel_req *x = &t->exprs[e];
		if (x->key != key)
			continue;
		bool in = false;
		for (uint32_t j = 0; j < x->nvals; j++)
			in |= x->vals[j] == v;
		if (((x->op == SEL_IN || x->op == SEL_EQ) && !in) || (x->op == SEL_NOTIN && in) ||
		    x->op == SEL_NOTEXISTS)
			return false;
	}
	return true;
}

/* scheduling/requirements.go newPodRequirements: the pod's nodeSelector,
 * the expressions of the first required nodeSelectorTerm left (req: the
 * terms removed by relaxation) and, unless strict, the heaviest preferred
 * term still in force (pref). Does the pod allow value v for key? */
static bool pod_allows_with(const struct pod *p, const struct ns_term *pref, uint32_t req, sym_t key, sym_t v)
{
	sym_t sv = labels_get(&p->spec.node_selector, key);
	if (sv && sv != v)
		return false;
	if (!term_allows(pref, key, v))
		return false;
	const struct node_affinity *na = p->spec.has_affinity ? &p->spec.affinity.node : NULL;
	if (!na || !na->has_required || !na->nreq)
		return true;
	return term_allows(&na->req[req < na->nreq ? req : 0], key, v);
}

static bool pod_allows(const struct kp *k, const struct pod *p, sym_t key, sym_t v)
{
	return pod_allows_with(p, k->pref, k->req, key, v);
}

/* existingnode.go CanAdd: the node's labels against a node term's
 * expressions (In, NotIn, Exists, DoesNotExist; Gt/Lt not modelled) */
static bool node_allows_term(const struct ns_term *t, const struct node *n)
{
	for (uint32_t e = 0; t && e < t->nexprs; e++) {
		const struct sel_req *x = &t->exprs[e];
		sym_t have = labels_get(&n->labels, x->key);
		bool in = false;
		for (uint32_t j = 0; have && j < x->nvals; j++)
			in |= x->vals[j] == have;
		if (((x->op == SEL_IN || x->op == SEL_EQ) && !in) || (x->op == SEL_NOTIN && in) ||
		    (x->op == SEL_EXISTS && !have) || (x->op == SEL_NOTEXISTS && have))
			return false;
	}
	return true;
}

/* The pod's own requirement on key as a set of values (its nodeSelector
 * value or the first required term's In values it allows); 0 values and
 * false when it names none. */
static bool pod_in_values(const struct pod *p, uint32_t req, sym_t key, sym_t *out, uint32_t cap, uint32_t *n)
{
	*n = 0;
	sym_t sv = labels_get(&p->spec.node_selector, key);
	if (sv) {
		if (pod_allows_with(p, NULL, req, key, sv) && cap)
			out[(*n)++] = sv;
		return true;
	}
	const struct node_affinity *na = p->spec.has_affinity ? &p->spec.affinity.node : NULL;
	if (!na || !na->has_required || !na->nreq)
		return false;
	const struct ns_term *t = &na->req[req < na->nreq ? req : 0];
	bool named = false;
	for (uint32_t e = 0; e < t->nexprs; e++) {
		const struct sel_req *x = &t->exprs[e];
		if (x->key != key || (x->op != SEL_IN && x->op != SEL_EQ))
			continue;
		for (uint32_t j = 0; j < x->nvals; j++) {
			bool dup = false;
			for (uint32_t q = 0; q < *n; q++)
				dup |= out[q] == x->vals[j];
			if (!dup && *n < cap && pod_allows_with(p, NULL, req, key, x->vals[j]))
				out[(*n)++] = x->vals[j];
		}
		named = true;
	}
	return named;
}

static char *req_text(const struct kp *k, sym_t key, const struct as_req *r)
{
	if (!r || r->op == REQ_EXISTS || r->op != REQ_IN)
		return out_strf("%s Exists", S(k, key));
	const char **v = malloc((r->nvals + 1) * sizeof(char *));
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < r->nvals; i++)
		v[i] = S(k, r->vals[i]);
	for (uint32_t i = 1; i < r->nvals; i++)
		for (uint32_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			const char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	size_t len = strlen(S(k, key)) + 16;
	for (uint32_t i = 0; i < r->nvals; i++)
		len += strlen(v[i]) + 1;
	char *s = malloc(len + 32);
	if (s) {
		sprintf(s, "%s In [", S(k, key));
		for (uint32_t i = 0; i < r->nvals && i < 5; i++)
			sprintf(s + strlen(s), "%s%s", i ? " " : "", v[i]);
		if (r->nvals > 5)
			sprintf(s + strlen(s), " and %u others", r->nvals - 5);
		strcat(s, "]");
	}
	free(v);
	return s;
}

/* A pod (anti-)affinity term as Karpenter's topology group
 * (topologygroup.go TopologyTypePodAffinity / TopologyTypePodAntiAffinity;
 * topology.go newForAffinities: required terms, and preferred ones under
 * preferencePolicy Respect): no node filter, maxSkew MaxInt32. */
struct agrp {
	const struct pod_affinity_term *pt;   /* NULL: an inverse group */
	const struct pod *owner;              /* an inverse group's first owner */
	bool anti, host, self;
	sym_t key;
	struct matcher_term mt;
	sym_t own_ns;
	struct dset ds;                       /* last: add_inverse keeps it */
};

/* a pod's spread constraints and affinity groups as prepare builds them,
 * growing as needed and kept (with their domains) from pod to pod */
struct cand {
	struct topo *tp;
	uint32_t ntp, ctp;
	struct agrp *ag;
	uint32_t nag, cag;
	const struct pod_affinity_term **terms;
	uint32_t cterms;
};

static void cand_fini(struct cand *cd)
{
	if (!cd)
		return;
	for (uint32_t i = 0; i < cd->ctp; i++)
		dset_fini(&cd->tp[i].ds);
	for (uint32_t i = 0; i < cd->cag; i++)
		dset_fini(&cd->ag[i].ds);
	free(cd->tp);
	free(cd->ag);
	free(cd->terms);
	free(cd);
}

/* room for one more constraint or group (new ones zeroed); false when out
 * of memory */
static bool grow_room(void **a, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return true;
	uint32_t ncap = *cap ? *cap * 2 : 8;
	char *na = realloc(*a, ncap * size);
	if (!na)
		return false;
	memset(na + (size_t)*cap * size, 0, (size_t)(ncap - *cap) * size);
	*a = na;
	*cap = ncap;
	return true;
}

static struct topo *cand_tp(struct cand *cd)
{
	void *a = cd->tp;
	if (!grow_room(&a, cd->ntp, &cd->ctp, sizeof(*cd->tp)))
		return NULL;
	cd->tp = a;
	return &cd->tp[cd->ntp++];
}

static struct agrp *cand_ag(struct cand *cd)
{
	void *a = cd->ag;
	if (!grow_room(&a, cd->nag, &cd->cag, sizeof(*cd->ag)))
		return NULL;
	cd->ag = a;
	return &cd->ag[cd->nag++];
}

/* a scratch list of n values (NULL when out of memory) */
static sym_t *kp_vals(struct kp *k, uint32_t n)
{
	if (n > k->nvals) {
		sym_t *nv = realloc(k->vals, (size_t)n * sizeof(*nv));
		if (!nv) {
			k->oom = true;
			return NULL;
		}
		k->vals = nv;
		k->nvals = n;
	}
	return k->vals;
}

/* room for n zones in zs */
static bool zset_room(struct zset *zs, uint32_t n)
{
	if (n <= zs->cap)
		return true;
	sym_t *nv = realloc(zs->v, (size_t)n * sizeof(*nv));
	if (!nv)
		return false;
	zs->v = nv;
	zs->cap = n;
	return true;
}

static bool tsc_soft(const struct kp *k, const struct tsc *t)
{
	return !t->when || strcmp(S(k, t->when), "DoNotSchedule");
}

static void relax_init(const struct pod *p, struct relax *rx)
{
	memset(rx, 0, sizeof(*rx));
	for (uint32_t i = 0; i < p->spec.ntscs && i < MAXRX; i++)
		rx->idx[rx->n++] = i;
}

/* requirements.go newPodRequirements: the heaviest preferred node term
 * still in force (equal weights: the first written), none under
 * preferencePolicy Ignore (NewStrictPodRequirements) */
static const struct ns_term *pref_term(const struct kp *k, const struct pod *p, const struct relax *rx)
{
	const struct node_affinity *na = p->spec.has_affinity ? &p->spec.affinity.node : NULL;
	if (!na || k->set->pref_ignore == 1 || rx->pref_drop >= na->npref)
		return NULL;
	uint32_t ord[MAXRX], n = 0;
	for (uint32_t i = 0; i < na->npref && n < MAXRX; i++) {
		uint32_t j = n++;
		while (j > 0 && na->pref[ord[j - 1]].weight < na->pref[i].weight) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	return rx->pref_drop < n ? &na->pref[ord[rx->pref_drop]].term : NULL;
}

/* preferences.go removePreferredPodAffinityTerm and
 * removePreferredPodAntiAffinityTerm: the preferred pod (anti-)affinity
 * terms left after drop relaxations, each removing the heaviest
 * (sort.SliceStable by weight, descending) */
static uint32_t pref_pod_terms(const struct weighted_pod_affinity_term *w, uint32_t n, uint32_t drop,
			       const struct pod_affinity_term **out, uint32_t cap)
{
	uint32_t ord[MAXRX], m = 0, k = 0;
	for (uint32_t i = 0; i < n && m < MAXRX; i++) {
		uint32_t j = m++;
		while (j > 0 && w[ord[j - 1]].weight < w[i].weight) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	for (uint32_t i = drop; i < m && k < cap; i++)
		out[k++] = &w[ord[i]].term;
	return k;
}

/* the index as written of the drop-th heaviest of n weights (stable) */
static uint32_t nth_heaviest(const int32_t *w, size_t stride, uint32_t n, uint32_t drop)
{
	uint32_t ord[MAXRX], m = 0;
#define W(i) (*(const int32_t *)((const char *)w + (size_t)(i) * stride))
	for (uint32_t i = 0; i < n && m < MAXRX; i++) {
		uint32_t j = m++;
		while (j > 0 && W(ord[j - 1]) < W(i)) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
#undef W
	return drop < m ? ord[drop] : 0;
}

static void rx_note(struct relax *rx, enum rx_kind kind, uint32_t idx)
{
	if (rx->nlog < sizeof(rx->log) / sizeof(rx->log[0]))
		rx->log[rx->nlog++] = (struct rxlog){(uint8_t)kind, idx};
}

/* preferences.go Relax: one step, in upstream's order (noted in rx->log).
 * false when nothing is left to relax. */
static bool relax_step(const struct kp *k, const struct pod *p, struct relax *rx)
{
	const struct node_affinity *na = p->spec.has_affinity ? &p->spec.affinity.node : NULL;
	const struct affinity *af = p->spec.has_affinity ? &p->spec.affinity : NULL;
	/* removeRequiredNodeAffinityTerm: the first, while more than one */
	if (na && na->has_required && na->nreq > rx->req_drop + 1) {
		rx_note(rx, RX_REQ_NODE, rx->req_drop);
		rx->req_drop++;
		return true;
	}
	/* removePreferredPodAffinityTerm, removePreferredPodAntiAffinityTerm:
	 * the heaviest left */
	if (af && rx->aff_drop < af->naff_pref) {
		rx_note(rx, RX_POD_AFF, nth_heaviest(&af->aff_pref[0].weight, sizeof(af->aff_pref[0]), af->naff_pref,
						     rx->aff_drop));
		rx->aff_drop++;
		return true;
	}
	if (af && rx->anti_drop < af->nanti_pref) {
		rx_note(rx, RX_POD_ANTI, nth_heaviest(&af->anti_pref[0].weight, sizeof(af->anti_pref[0]),
						      af->nanti_pref, rx->anti_drop));
		rx->anti_drop++;
		return true;
	}
	/* removePreferredNodeAffinityTerm: the heaviest left */
	if (na && rx->pref_drop < na->npref) {
		rx_note(rx, RX_PREF_NODE, nth_heaviest(&na->pref[0].weight, sizeof(na->pref[0]), na->npref, rx->pref_drop));
		rx->pref_drop++;
		return true;
	}
	/* removeTopologySpreadScheduleAnyway: the first, swapped with the last */
	for (uint32_t i = 0; i < rx->n; i++)
		if (tsc_soft(k, &p->spec.tscs[rx->idx[i]])) {
			rx_note(rx, RX_TSC, rx->idx[i]);
			rx->idx[i] = rx->idx[--rx->n];
			return true;
		}
	/* toleratePreferNoSchedule: when a NodePool has such a taint */
	if (k->pool_pns && !rx->tol_pns) {
		rx_note(rx, RX_PNS, 0);
		rx->tol_pns = true;
		return true;
	}
	return false;
}

static void build_agrp(struct kp *k, const struct pod *p, struct agrp *g);
static void build_inverse(struct kp *k, const struct pod *p, struct cand *cd);

/* the pod's constraints as Karpenter treats them: DoNotSchedule, and
 * ScheduleAnyway too unless relaxed or preferencePolicy Ignore; its pod
 * (anti-)affinity terms, the preferred ones unless relaxed or Ignore */
static void prepare(struct kp *k, const struct pod *p, const struct decision *d, const struct relax *rx, struct cand *cd)
{
	cd->ntp = 0;
	for (uint32_t i = 0; i < p->spec.ntscs; i++) {
		const struct tsc *t = &p->spec.tscs[i];
		bool kept = i >= MAXRX;
		for (uint32_t j = 0; j < rx->n && !kept; j++)
			kept = rx->idx[j] == i;
		if (!kept || (tsc_soft(k, t) && k->set->pref_ignore == 1))
			continue;
		uint32_t ci = 0;
		for (; ci < d->ncons; ci++)
			if (d->cons[ci].origin == ORIGIN_POD && d->cons[ci].pod_index == i)
				break;
		if (ci == d->ncons)
			continue;
		struct topo *tp = cand_tp(cd);
		if (!tp) {
			k->oom = true;
			break;
		}
		tp->t = t;
		tp->cons = ci;
		tp->self = d->cons[ci].self_match;
		build_topo(k, p, d, tp);
	}
	cd->nag = 0;
	const struct affinity *af = p->spec.has_affinity ? &p->spec.affinity : NULL;
	for (int anti = 0; af && anti < 2; anti++) {
		uint32_t n = 0;
		const struct pod_affinity_term *req = anti ? af->anti_req : af->aff_req;
		uint32_t nreq = anti ? af->nanti_req : af->naff_req;
		uint32_t npref = anti ? af->nanti_pref : af->naff_pref;
		if (nreq + npref > cd->cterms) {
			const struct pod_affinity_term **nt = realloc(cd->terms, (nreq + npref) * sizeof(*nt));
			if (!nt) {
				k->oom = true;
				break;
			}
			cd->terms = nt;
			cd->cterms = nreq + npref;
		}
		const struct pod_affinity_term **terms = cd->terms;
		for (uint32_t i = 0; i < nreq; i++)
			terms[n++] = &req[i];
		if (k->set->pref_ignore != 1)
			n += pref_pod_terms(anti ? af->anti_pref : af->aff_pref, npref,
					    anti ? rx->anti_drop : rx->aff_drop, terms + n, npref);
		for (uint32_t i = 0; i < n; i++) {
			struct agrp *g = cand_ag(cd);
			if (!g) {
				k->oom = true;
				break;
			}
			g->pt = terms[i];
			g->owner = NULL;
			g->anti = anti;
			build_agrp(k, p, g);
		}
	}
	/* then the inverse groups (getMatchingTopologies' order) */
	build_inverse(k, p, cd);
	for (uint32_t i = 0; i < cd->ntp; i++)
		k->oom |= cd->tp[i].ds.oom;
	for (uint32_t i = 0; i < cd->nag; i++)
		k->oom |= cd->ag[i].ds.oom;
}

static bool value_ok(const struct topo *tp, sym_t v)
{
	const struct dom *dm = dom_find(&tp->ds, v);
	if (dm)
		return dm->count + tp->self - tp->min <= tp->t->max_skew;
	return tp->self - tp->min <= tp->t->max_skew;
}

/* nodeclaim.go Add: the NodeClaim's requirements hold every pod's; do
 * they allow zone v? */
static bool claim_allows_zone(const struct kp *k, const struct claim *cl, sym_t v)
{
	if (k->zs && k->zs->has && !zset_has(k->zs->v, k->zs->n, v))
		return false;
	if (cl && cl->has_zset && !zset_has(cl->zset, cl->nzset, v))
		return false;
	for (uint32_t q = 0; cl && q < cl->npods; q++)
		if (!pod_allows_with(&k->c->pods[cl->pods[q]], q < cl->npv ? cl->pv[q].pref : NULL,
				     q < cl->npv ? cl->pv[q].req : 0, k->zone_key, v))
			return false;
	return true;
}

/* The zones a NodeClaim of pool pl allows pod p (cl: in flight, NULL: a
 * new one): its requirements, the pool's and every pod's, before the
 * topology (nodeclaim.go CanAdd nodeClaimRequirements) */
static bool node_zone_allows(const struct kp *k, const struct as_pool *pl, const struct claim *cl,
			     const struct pod *p, sym_t v)
{
	if (cl && cl->zone)
		return v == cl->zone;
	return req_allows(pool_req(pl, k->zone_key), v) && pod_allows(k, p, k->zone_key, v) &&
	       claim_allows_zone(k, cl, v);
}

/* A NodeClaim's values for key, as Topology.Record sees its requirement:
 * *bounded false when it is Exists (no value recorded) */
static uint32_t claim_values(const struct kp *k, const struct claim *cl, const struct agrp *g, sym_t *out,
			     bool *bounded)
{
	const struct as_pool *pl = &k->cfg->pools[cl->pool];
	uint32_t n = 0;
	*bounded = true;
	if (g->key == k->zone_key) {
		if (cl->zone) {
			out[n++] = cl->zone;
			return n;
		}
		const struct as_req *r = pool_req(pl, k->zone_key);
		bool named = cl->has_zset || (r && r->op == REQ_IN);
		sym_t tmp[1];
		uint32_t nt;
		for (uint32_t q = 0; q < cl->npods && !named; q++)
			named = pod_in_values(&k->c->pods[cl->pods[q]], q < cl->npv ? cl->pv[q].req : 0, k->zone_key,
					      tmp, 0, &nt);
		*bounded = named;
		for (uint32_t i = 0; named && i < g->ds.n; i++)
			if (req_allows(r, g->ds.d[i].v) && claim_allows_zone(k, cl, g->ds.d[i].v))
				out[n++] = g->ds.d[i].v;
		return n;
	}
	sym_t v = labels_get(&pl->labels, g->key);
	const struct as_req *r = pool_req(pl, g->key);
	if (!v && r && r->op == REQ_IN && r->nvals == 1)
		v = r->vals[0];
	if (v)
		out[n++] = v;
	*bounded = v != SYM_NONE;
	return n;
}

/* the domains by value (the error text; a hostname group has none) */
static void sort_agrp(const struct kp *k, struct agrp *g)
{
	if (!g->host)
		dset_sort(k, &g->ds);
}

/* topology.go newForAffinities + NewTopologyGroup + countDomains + Record
 * for affinity term g->pt of pod p: the NodePools' domains of the key the
 * pod tolerates (ForEachDomain: an affinity group's zero node filter has
 * no Ignore taint policy), every existing node's value, and per domain the
 * pods the term selects, on nodes and on this batch's NodeClaims */
static void build_agrp(struct kp *k, const struct pod *p, struct agrp *g)
{
	struct cluster *c = k->c;
	g->key = g->pt->topology_key;
	g->host = g->key == k->host_key;
	dset_reset(&g->ds);
	ipa_term_matcher(p, g->pt, &g->mt, &g->own_ns);
	g->self = matcher_term_matches(c, &g->mt, p->ns, &p->labels);
	if (!g->host) {
		pool_domains(k, p, g->key, &g->ds);
		dset_keep_tolerated(&g->ds);
	}
	for (uint32_t id = 0; id < c->nnodes; id++) {
		const struct node *n = &c->nodes[id];
		if (!n->alive)
			continue;
		/* a hostname group needs only its domains that hold a pod
		 * (nextDomainAffinity and -AntiAffinity read no empty one) */
		sym_t v = labels_get(&n->labels, g->key);
		if (v && !g->host)
			dom_in(&g->ds, v, true);
		else if (!v && g->host)
			v = n->name;
		if (!v)
			continue;
		int64_t cnt = 0;
		for (uint32_t q = 0; q < n->npods; q++) {
			const struct pod *x = &c->pods[n->pods[q]];
			cnt += x->alive && !x->terminating && matcher_term_matches(c, &g->mt, x->ns, &x->labels);
		}
		struct dom *dm = dom_in(&g->ds, v, cnt > 0);
		if (dm)
			dm->count += cnt;
	}
	/* Record: a NodeClaim's pods count where its requirement is one
	 * value; for anti-affinity in every value it allows */
	for (uint32_t ci = 0; ci < k->nclaims; ci++) {
		const struct claim *cl = &k->claims[ci];
		int64_t cnt = 0;
		for (uint32_t q = 0; q < cl->npods; q++) {
			const struct pod *x = &c->pods[cl->pods[q]];
			cnt += matcher_term_matches(c, &g->mt, x->ns, &x->labels);
		}
		if (!cnt)
			continue;
		if (g->host) {
			struct dom *dm = dom_in(&g->ds, intern_str(c->in, cl->name), true);
			if (dm)
				dm->count += cnt;
			continue;
		}
		sym_t *vals = kp_vals(k, g->ds.n + 1);
		if (!vals)
			break;
		bool bounded;
		uint32_t nv = claim_values(k, cl, g, vals, &bounded);
		if (!bounded || (!g->anti && nv != 1))
			continue;
		for (uint32_t i = 0; i < nv; i++) {
			struct dom *dm = dom_in(&g->ds, vals[i], true);
			if (dm)
				dm->count += cnt;
		}
	}
	sort_agrp(k, g);
}

/* One owner o (a pod with required anti-affinity) and its term's key:
 * the inverse group for pod p, shared with the owners of the same key and
 * tolerations (the group's domains are those o tolerates); vals: where o
 * is (its node's value, or its NodeClaim's). */
static void add_inverse(struct kp *k, const struct pod *p, struct cand *cd, uint32_t first, const struct pod *o,
			sym_t key, const sym_t *vals, uint32_t nv)
{
	struct agrp *g = NULL;
	for (uint32_t i = first; i < cd->nag && !g; i++)
		if (cd->ag[i].key == key && cd->ag[i].owner->spec.ntols == o->spec.ntols &&
		    tolerations_equal(cd->ag[i].owner->spec.tols, o->spec.tols, o->spec.ntols))
			g = &cd->ag[i];
	if (!g) {
		if (!(g = cand_ag(cd))) {
			k->oom = true;
			return;
		}
		memset(g, 0, offsetof(struct agrp, ds));
		g->owner = o;
		g->anti = true;
		g->key = key;
		g->host = key == k->host_key;
		dset_reset(&g->ds);
		if (!g->host) {
			/* ForEachDomain with the owner's tolerations (taints.go
			 * counts PreferNoSchedule too: no relaxation of p's) */
			bool tol = k->tol_pns;
			k->tol_pns = false;
			pool_domains(k, o, key, &g->ds);
			k->tol_pns = tol;
			dset_keep_tolerated(&g->ds);
		}
	}
	(void)p;
	for (uint32_t i = 0; i < nv; i++) {
		struct dom *dm = dom_in(&g->ds, vals[i], true);
		if (dm)
			dm->count++;
	}
}

/* topology.go getMatchingTopologies: the inverse anti-affinity groups
 * that count pod p, from every required anti-affinity term of a bound pod
 * or of a pod on this batch's NodeClaims that selects p
 * (updateInverseAntiAffinity: preferred terms are not tracked) */
static void build_inverse(struct kp *k, const struct pod *p, struct cand *cd)
{
	struct cluster *c = k->c;
	uint32_t first = cd->nag;
	for (uint32_t s = 0; s < 2; s++) {
		uint32_t n = s ? k->nbound : k->nanti_owners;
		for (uint32_t i = 0; i < n; i++) {
			const struct pod *o = &c->pods[s ? k->bound[i] : k->anti_owners[i]];
			if (!o->alive || o->node < 0 || o->terminating || !o->spec.has_affinity || o == p)
				continue;
			const struct node *nd = &c->nodes[o->node];
			for (uint32_t t = 0; t < o->spec.affinity.nanti_req; t++) {
				const struct pod_affinity_term *pt = &o->spec.affinity.anti_req[t];
				struct matcher_term mt;
				sym_t own;
				ipa_term_matcher(o, pt, &mt, &own);
				if (!matcher_term_matches(c, &mt, p->ns, &p->labels))
					continue;
				sym_t v = labels_get(&nd->labels, pt->topology_key);
				add_inverse(k, p, cd, first, o, pt->topology_key, &v, v != SYM_NONE);
			}
		}
	}
	for (uint32_t ci = 0; ci < k->nclaims; ci++) {
		const struct claim *cl = &k->claims[ci];
		for (uint32_t q = 0; q < cl->npods; q++) {
			const struct pod *o = &c->pods[cl->pods[q]];
			if (!o->spec.has_affinity)
				continue;
			for (uint32_t t = 0; t < o->spec.affinity.nanti_req; t++) {
				const struct pod_affinity_term *pt = &o->spec.affinity.anti_req[t];
				struct matcher_term mt;
				sym_t own;
				ipa_term_matcher(o, pt, &mt, &own);
				if (!matcher_term_matches(c, &mt, p->ns, &p->labels))
					continue;
				/* Record: every value of the NodeClaim's requirement */
				sym_t *vals = NULL;
				uint32_t nv = 0;
				bool bounded = true;
				if (pt->topology_key == k->host_key) {
					if (!(vals = kp_vals(k, 1)))
						return;
					vals[nv++] = intern_str(c->in, cl->name);
				} else {
					struct agrp tmp;
					memset(&tmp, 0, sizeof(tmp));
					tmp.key = pt->topology_key;
					pool_domains(k, o, tmp.key, &tmp.ds);
					if (!(vals = kp_vals(k, tmp.ds.n + 1))) {
						dset_fini(&tmp.ds);
						return;
					}
					nv = claim_values(k, cl, &tmp, vals, &bounded);
					dset_fini(&tmp.ds);
				}
				add_inverse(k, p, cd, first, o, pt->topology_key, vals, bounded ? nv : 0);
			}
		}
	}
	for (uint32_t i = first; i < cd->nag; i++)
		sort_agrp(k, &cd->ag[i]);
}

static const struct dom *agrp_dom(const struct agrp *g, sym_t v)
{
	return dom_find(&g->ds, v);
}

/* podDomains: the pod's strict requirements (no preferred node term) */
static bool pod_strict(const struct kp *k, const struct pod *p, sym_t key, sym_t v)
{
	return pod_allows_with(p, NULL, k->req, key, v);
}

/* nextDomainAffinity's bootstrap: the pod selects itself and no domain
 * holds a selected pod, or none the pod allows does
 * (anyCompatiblePodDomain) */
static bool agrp_bootstrap(const struct kp *k, const struct pod *p, const struct agrp *g)
{
	if (!g->self)
		return false;
	for (uint32_t i = 0; i < g->ds.n; i++)
		if (g->ds.d[i].count > 0 && pod_strict(k, p, g->key, g->ds.d[i].v))
			return false;
	return true;
}

/* topologygroup.go Get on a node with one value v for the key (an
 * existing node, a NodeClaim's hostname or pinned zone; SYM_NONE: a new
 * NodeClaim's hostname, no pod there yet) */
static bool agrp_single_ok(const struct kp *k, const struct pod *p, const struct agrp *g, sym_t v)
{
	const struct dom *dm = v ? agrp_dom(g, v) : NULL;
	int64_t cnt = dm ? dm->count : 0;
	bool pa = !v || pod_strict(k, p, g->key, v);
	if (g->anti)
		/* nextDomainAntiAffinity: an empty domain (hostname: no count) */
		return g->host ? cnt == 0 : (dm && cnt == 0 && pa);
	/* nextDomainAffinity: a domain the pod allows that holds a selected
	 * pod, else the bootstrap; a zone must be a known domain */
	if (!pa || (!g->host && !dm))
		return false;
	return cnt > 0 || agrp_bootstrap(k, p, g);
}

static const char *agrp_type(const struct agrp *g)
{
	return g->anti ? "pod anti-affinity" : "pod affinity";
}

/* topology.go topologyError for a group on key over domains d: podDomains
 * the pod's requirement, nodeDomains the NodeClaim's (the pool's In with
 * the pod's added) */
static char *topo_error(const struct kp *k, const struct pod *p, const struct as_pool *pl, const char *type,
			sym_t key, const struct dom *d, uint32_t nd)
{
	const struct as_req *r = pool_req(pl, key);
	char *counts = counts_text_d(k, d, nd);
	sym_t pv[64], nv[64];
	uint32_t npv = 0, nnv = 0;
	bool named = pod_in_values(p, k->req, key, pv, 64, &npv);
	struct as_req preq = {key, REQ_IN, pv, npv};
	if (r && r->op == REQ_IN) {
		for (uint32_t j = 0; j < r->nvals && nnv < 64; j++)
			if (pod_allows(k, p, key, r->vals[j]))
				nv[nnv++] = r->vals[j];
	} else {
		memcpy(nv, pv, npv * sizeof(*pv));
		nnv = npv;
	}
	struct as_req nreq = {key, REQ_IN, nv, nnv};
	char *ndt = req_text(k, key, (r && r->op == REQ_IN) || named ? &nreq : r);
	char *pd = req_text(k, key, named ? &preq : NULL);
	char *e = out_strf("unsatisfiable topology constraint for %s, key=%s (counts = %s, podDomains = %s, nodeDomains = %s",
			 type, S(k, key), counts ? counts : "", pd ? pd : "", ndt ? ndt : "");
	free(counts);
	free(ndt);
	free(pd);
	return e;
}

/* topology.go AddRequirements for the pod's affinity groups on a NodeClaim
 * of pool pl (cl: in flight, NULL: new) whose spread constraints pinned
 * zone pin (SYM_NONE: none): each group computed against the NodeClaim's
 * requirements, their domains intersected into *zs; then nodeclaim.go's
 * Compatible check. NULL when it may take the pod, else the error. */
static char *agrp_claim(const struct kp *k, const struct pod *p, const struct cand *cd, const struct as_pool *pl,
			const struct claim *cl, sym_t pin, struct zset *zs)
{
	zs->has = false;
	zs->n = 0;
	for (uint32_t gi = 0; gi < cd->nag; gi++) {
		const struct agrp *g = &cd->ag[gi];
		if (g->host) {
			if (!agrp_single_ok(k, p, g, cl ? intern_find(k->c->in, cl->name, strlen(cl->name)) : SYM_NONE))
				return out_strf("unsatisfiable topology constraint for %s", agrp_type(g));
			continue;
		}
		if (g->key != k->zone_key) {
			/* other keys: the pool's one value, else any it allows
			 * (the NodeClaim keeps no narrowing of them here) */
			sym_t v = labels_get(&pl->labels, g->key);
			const struct as_req *r = pool_req(pl, g->key);
			if (!v && r && r->op == REQ_IN && r->nvals == 1)
				v = r->vals[0];
			bool ok = v ? agrp_single_ok(k, p, g, v) : false;
			for (uint32_t i = 0; !v && i < g->ds.n && !ok; i++)
				ok = req_allows(r, g->ds.d[i].v) && pod_allows(k, p, g->key, g->ds.d[i].v) &&
				     agrp_single_ok(k, p, g, g->ds.d[i].v);
			if (!ok)
				return topo_error(k, p, pl, agrp_type(g), g->key, g->ds.d, g->ds.n);
			continue;
		}
		if (cl && cl->zone) {
			if (!agrp_single_ok(k, p, g, cl->zone))
				return topo_error(k, p, pl, agrp_type(g), g->key, g->ds.d, g->ds.n);
			continue;
		}
		sym_t *opt = malloc((g->ds.n + 1) * sizeof(*opt));
		uint32_t no = 0;
		if (!opt || !zset_room(zs, g->ds.n)) {
			free(opt);
			return out_strf("out of memory while placing pod %s", S(k, p->name));
		}
		for (uint32_t i = 0; i < g->ds.n; i++) {
			sym_t v = g->ds.d[i].v;
			if ((g->anti ? g->ds.d[i].count == 0 : g->ds.d[i].count > 0) && pod_strict(k, p, g->key, v) &&
			    node_zone_allows(k, pl, cl, p, v))
				opt[no++] = v;
		}
		if (!no && !g->anti && agrp_bootstrap(k, p, g)) {
			/* a domain at random (here the first) within pod and node
			 * domains, and one within the pod's */
			for (uint32_t i = 0; i < g->ds.n && !no; i++)
				if (pod_strict(k, p, g->key, g->ds.d[i].v) && node_zone_allows(k, pl, cl, p, g->ds.d[i].v))
					opt[no++] = g->ds.d[i].v;
			for (uint32_t i = 0; i < g->ds.n; i++)
				if (pod_strict(k, p, g->key, g->ds.d[i].v)) {
					if (!zset_has(opt, no, g->ds.d[i].v))
						opt[no++] = g->ds.d[i].v;
					break;
				}
		}
		if (!no) {
			free(opt);
			return topo_error(k, p, pl, agrp_type(g), g->key, g->ds.d, g->ds.n);
		}
		if (!zs->has) {
			memcpy(zs->v, opt, no * sizeof(*opt));
			zs->n = no;
			zs->has = true;
		} else {
			uint32_t w = 0;
			for (uint32_t i = 0; i < zs->n; i++)
				if (zset_has(opt, no, zs->v[i]))
					zs->v[w++] = zs->v[i];
			zs->n = w;
		}
		free(opt);
	}
	if (!zs->has)
		return NULL;
	/* requirements.Add: the narrowing within the NodeClaim's own zones
	 * and the spread's pin; nothing left fails Compatible */
	uint32_t w = 0;
	for (uint32_t i = 0; i < zs->n; i++)
		if (node_zone_allows(k, pl, cl, p, zs->v[i]) && (!pin || zs->v[i] == pin))
			zs->v[w++] = zs->v[i];
	zs->n = w;
	if (w)
		return NULL;
	const struct as_req *r = pool_req(pl, k->zone_key);
	sym_t nv[64], pv[64];
	uint32_t nnv = 0, npv = 0;
	bool named = pod_in_values(p, k->req, k->zone_key, pv, 64, &npv);
	if (cl && cl->zone) {
		nv[nnv++] = cl->zone;
	} else if (r && r->op == REQ_IN) {
		for (uint32_t j = 0; j < r->nvals && nnv < 64; j++)
			if (pod_allows(k, p, k->zone_key, r->vals[j]))
				nv[nnv++] = r->vals[j];
	} else {
		memcpy(nv, pv, npv * sizeof(*pv));
		nnv = npv;
	}
	struct as_req nreq = {k->zone_key, REQ_IN, nv, nnv};
	char *ndt = req_text(k, k->zone_key, (cl && cl->zone) || (r && r->op == REQ_IN) || named ? &nreq : NULL);
	char *e = out_strf("key %s, %s DoesNotExist not in %s", ZONE, ZONE, ndt ? ndt : "");
	free(ndt);
	return e;
}

/* cheapest available offering of a type in the pool fitting cpu/mem/pods,
 * in zone (SYM_NONE: any allowed) that pod p and the pods already on
 * NodeClaim cl allow; -1 when none */
static int32_t pick_type_max(const struct kp *k, const struct as_pool *pl, sym_t zone, int64_t cpu, int64_t mem,
			     uint32_t npods, const struct pod *p, const struct claim *cl, uint32_t *offer, int64_t *max)
{
	int32_t best = -1;
	double bp = 0;
	const int64_t *cap = cl ? cl->cap : k->cap;
	for (uint32_t ti = 0; ti < k->cfg->nitypes; ti++) {
		const struct as_itype *it = &k->cfg->itypes[ti];
		if (!pool_has_itype(k, pl, ti) || !itype_labels_ok(k, pl, it))
			continue;
		/* scheduler.go filterByRemainingResources */
		if (!itype_within(k, pl, it, cap))
			continue;
		if (it->alloc.cpu < cpu || it->alloc.mem < mem || (it->alloc.pods && it->alloc.pods < npods))
			continue;
		bool sel_ok = true;
		for (uint32_t s = 0; p && s < p->spec.node_selector.n && sel_ok; s++) {
			sym_t key = p->spec.node_selector.v[s].key, v = p->spec.node_selector.v[s].val;
			sym_t have = labels_get(&it->labels, key);
			if (have)
				sel_ok = have == v;
		}
		if (!sel_ok)
			continue;
		for (uint32_t o = 0; o < it->noffers; o++) {
			if (!offer_ok(k, pl, &it->offers[o], zone) ||
			    (p && !pod_allows(k, p, k->zone_key, it->offers[o].zone)) ||
			    !claim_allows_zone(k, cl, it->offers[o].zone))
				continue;
			/* subtractMax: the largest of the instance type options */
			for (uint32_t j = 0; max && j < pl->nlimits; j++) {
				int64_t v = res_amount(k, &it->alloc, pl->limits[j].res, false);
				if (v > max[j])
					max[j] = v;
			}
			if (best < 0 || it->offers[o].price < bp) {
				best = (int32_t)ti;
				bp = it->offers[o].price;
				*offer = o;
			}
		}
	}
	return best;
}

static int32_t pick_type(const struct kp *k, const struct as_pool *pl, sym_t zone, int64_t cpu, int64_t mem,
			 uint32_t npods, const struct pod *p, const struct claim *cl, uint32_t *offer)
{
	return pick_type_max(k, pl, zone, cpu, mem, npods, p, cl, offer, NULL);
}

static bool pool_is_template(const struct kp *k, const struct as_pool *pl)
{
	if (!pool_catalog_nonempty(k, pl))
		return false;
	uint32_t o;
	return pick_type(k, pl, SYM_NONE, 0, 0, 0, NULL, NULL, &o) >= 0;
}

static int claim_name(struct kp *k, const struct as_pool *pl, char **out)
{
	for (uint32_t n = 1;; n++) {
		char *s = out_strf("%s-%u", S(k, pl->name), n);
		if (!s)
			return 0;
		bool used = cluster_find_node(k->c, intern_find(k->c->in, s, strlen(s))) >= 0 &&
			    intern_find(k->c->in, s, strlen(s));
		for (uint32_t i = 0; i < k->nclaims && !used; i++)
			used = k->claims[i].name && !strcmp(k->claims[i].name, s);
		if (!used) {
			*out = s;
			return 1;
		}
		free(s);
	}
}

/* One pod: existing nodes, in-flight NodeClaims, a new NodeClaim. 1
 * placed (*where set), 0 failed (*err: the new-NodeClaim errors). */
static int try_pod(struct kp *k, uint32_t pid, const struct relax *rx, char **err, char **event)
{
	struct pod *p = &k->c->pods[pid];
	struct decision d;
	memset(&d, 0, sizeof(d));
	if (!sched_decide(k->sch, pid, &d)) {
		k->oom = true;
		return 0;
	}
	/* one buffer for every try of the batch (it is large) */
	if (!k->cd && !(k->cd = calloc(1, sizeof(*k->cd)))) {
		decision_fini(&d);
		k->oom = true;
		return 0;
	}
	struct cand *cd = k->cd;
	k->pref = pref_term(k, p, rx);
	k->req = rx->req_drop;
	k->tol_pns = rx->tol_pns;
	prepare(k, p, &d, rx, cd);
	int placed = 0;
	/* existing nodes: initialized first, then name ascending */
	int32_t best = -1;
	for (uint32_t id = 0; id < k->c->nnodes; id++) {
		const struct node *n = &k->c->nodes[id];
		const struct node_rec *r = decision_node(&d, id);
		if (!n->alive || !r)
			continue;
		if (r->blockers & ~(1u << PL_POD_TOPOLOGY_SPREAD))
			continue;
		/* existingnode.go CanAdd: the preferences in force, taints */
		const struct node_affinity *na = p->spec.has_affinity ? &p->spec.affinity.node : NULL;
		if (!node_allows_term(k->pref, n) || !pns_tolerated(k, p, n->taints, n->ntaints) ||
		    (na && na->has_required && na->nreq > 1 && !node_allows_term(&na->req[k->req], n)))
			continue;
		bool ok = true;
		for (uint32_t i = 0; i < cd->ntp && ok; i++) {
			sym_t v = labels_get(&n->labels, cd->tp[i].t->topology_key);
			if (!v && cd->tp[i].host)
				v = n->name;
			ok = v && value_ok(&cd->tp[i], v);
		}
		/* the pod's affinity groups on the node's own domain */
		for (uint32_t i = 0; i < cd->nag && ok; i++) {
			const struct agrp *g = &cd->ag[i];
			sym_t v = labels_get(&n->labels, g->key);
			if (!v && g->host)
				v = n->name;
			ok = v ? agrp_single_ok(k, p, g, v) : g->anti;
		}
		if (ok && (best < 0 || strcmp(S(k, n->name), S(k, k->c->nodes[best].name)) < 0))
			best = (int32_t)id;
	}
	if (best >= 0) {
		cluster_bind(k->c, pid, (uint32_t)best);
		if (PUSH(k->bound, k->nbound))
			k->bound[k->nbound - 1] = pid;
		else
			k->oom = true;
		*event = out_strf("Pod should schedule on: node/%s", S(k, k->c->nodes[best].name));
		placed = 1;
		goto done;
	}
	/* in-flight NodeClaims, fewest pods first (ties: creation order) */
	uint32_t *ord = malloc((k->nclaims + 1) * sizeof(uint32_t));
	if (!ord) {
		k->oom = true;
		goto done;
	}
	for (uint32_t i = 0; i < k->nclaims; i++) {
		uint32_t j = i;
		while (j > 0 && k->claims[ord[j - 1]].npods > k->claims[i].npods) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	for (uint32_t oi = 0; oi < k->nclaims && !placed; oi++) {
		struct claim *cl = &k->claims[ord[oi]];
		const struct as_pool *pl = &k->cfg->pools[cl->pool];
		if (!pod_tolerates_pool(k, p, pl))
			continue;
		bool sel_ok = true;
		for (uint32_t q = 0; q < p->spec.node_selector.n && sel_ok; q++) {
			sym_t key = p->spec.node_selector.v[q].key, v = p->spec.node_selector.v[q].val;
			sym_t lv = labels_get(&pl->labels, key);
			sel_ok = (!lv || lv == v) && req_allows(pool_req(pl, key), v);
			if (key == k->zone_key && cl->zone)
				sel_ok &= cl->zone == v;
		}
		if (!sel_ok)
			continue;
		uint32_t off;
		if (pick_type(k, pl, cl->zone, cl->cpu + p->spec.req.cpu, cl->mem + p->spec.req.mem, cl->npods + 1, p,
			      cl, &off) < 0)
			continue;
		bool ok = true;
		sym_t pin = cl->zone;
		for (uint32_t i = 0; i < cd->ntp && ok; i++) {
			struct topo *tp = &cd->tp[i];
			if (tp->host) {
				sym_t v = intern_str(k->c->in, cl->name);
				ok = value_ok(tp, v);
			} else if (tp->t->topology_key == k->zone_key && cl->zone) {
				ok = value_ok(tp, cl->zone);
			} else if (tp->t->topology_key == k->zone_key) {
				/* pin to the valid domain with the smallest count */
				const struct as_req *r = pool_req(pl, k->zone_key);
				int32_t bi = -1;
				for (uint32_t j = 0; j < tp->ds.n; j++)
					if (req_allows(r, tp->ds.d[j].v) && pod_allows(k, p, k->zone_key, tp->ds.d[j].v) &&
					    claim_allows_zone(k, cl, tp->ds.d[j].v) &&
					    value_ok(tp, tp->ds.d[j].v) &&
					    (bi < 0 || tp->ds.d[j].count < tp->ds.d[bi].count))
						bi = (int32_t)j;
				ok = bi >= 0;
				if (ok)
					pin = tp->ds.d[bi].v;
			}
		}
		if (!ok)
			continue;
		struct zset *zs = &k->zbuf;
		char *ae = agrp_claim(k, p, cd, pl, cl, pin, zs);
		if (ae) {
			free(ae);
			continue;
		}
		if (zs->has) {
			/* the instance types left with the narrowed zones */
			k->zs = zs;
			ok = pick_type(k, pl, pin, cl->cpu + p->spec.req.cpu, cl->mem + p->spec.req.mem, cl->npods + 1,
				       p, cl, &off) >= 0;
			k->zs = NULL;
			if (!ok)
				continue;
			sym_t *nz = realloc(cl->zset, (zs->n + 1) * sizeof(sym_t));
			if (!nz) {
				k->oom = true;
				break;
			}
			memcpy(nz, zs->v, zs->n * sizeof(sym_t));
			cl->zset = nz;
			cl->nzset = zs->n;
			cl->has_zset = true;
		}
		cl->zone = pin;
		if (!PUSH(cl->pods, cl->npods) || !PUSH(cl->pv, cl->npv)) {
			k->oom = true;
			break;
		}
		cl->pods[cl->npods - 1] = pid;
		cl->pv[cl->npv - 1] = (struct pview){k->pref, k->req};
		cl->cpu += p->spec.req.cpu;
		cl->mem += p->spec.req.mem;
		*event = out_strf("Pod should schedule on: nodeclaim/%s", cl->name);
		placed = 1;
	}
	free(ord);
	if (placed)
		goto done;
	/* a new NodeClaim from the first template that takes it */
	size_t elen = 0;
	char *errs = NULL;
	for (uint32_t oi = 0; oi < k->npools && !placed; oi++) {
		uint32_t pi = k->pool_ord[oi];
		const struct as_pool *pl = &k->cfg->pools[pi];
		if (!k->pool_tmpl[pi])
			continue;
		char *e = NULL;
		sym_t pin = SYM_NONE;
		/* addToNewNodeClaim: the nodes limit first (it is exactly
		 * used up: existing nodes only, as a new NodeClaim's options
		 * hold no "nodes"), then the instance types within every limit */
		k->cap = pl->nlimits ? k->rem[pi] : NULL;
		k->zs = NULL;
		for (uint32_t j = 0; j < pl->nlimits; j++)
			if (pl->limits[j].res == k->r_nodes && k->cap[j] == 0)
				e = out_strf("node limits have been exhausted for nodepool \"%s\"", S(k, pl->name));
		if (!e && pl->nlimits) {
			bool any = false;
			for (uint32_t ti = 0; ti < k->cfg->nitypes && !any; ti++) {
				const struct as_itype *it = &k->cfg->itypes[ti];
				any = pool_has_itype(k, pl, ti) && itype_labels_ok(k, pl, it) && itype_within(k, pl, it, k->cap);
			}
			if (!any)
				e = out_strf("all available instance types exceed limits for nodepool \"%s\"", S(k, pl->name));
		}
		if (e) {
		} else if (!pod_tolerates_pool(k, p, pl)) {
			e = strdup("did not tolerate taint");
		} else {
			/* the pod's node selector against the pool's requirements */
			for (uint32_t s = 0; s < p->spec.node_selector.n && !e; s++) {
				const struct as_req *r = pool_req(pl, p->spec.node_selector.v[s].key);
				sym_t lv = labels_get(&pl->labels, p->spec.node_selector.v[s].key);
				if (lv && lv != p->spec.node_selector.v[s].val) {
					/* the template's labels are requirements too */
					e = out_strf("incompatible requirements, key %s, %s In [%s] not in %s In [%s]",
						 S(k, p->spec.node_selector.v[s].key), S(k, p->spec.node_selector.v[s].key),
						 S(k, p->spec.node_selector.v[s].val), S(k, p->spec.node_selector.v[s].key),
						 S(k, lv));
				} else if (r && !req_allows(r, p->spec.node_selector.v[s].val)) {
					char *rt = req_text(k, r->key, r);
					e = out_strf("incompatible requirements, key %s, %s In [%s] not in %s",
						 S(k, r->key), S(k, r->key), S(k, p->spec.node_selector.v[s].val),
						 rt ? rt : "?");
					free(rt);
				}
			}
			for (uint32_t i = 0; i < cd->ntp && !e; i++) {
				struct topo *tp = &cd->tp[i];
				if (tp->host) {
					if (tp->self > tp->t->max_skew)
						e = strdup("unsatisfiable topology constraint for topology spread");
					continue;
				}
				const struct as_req *r = pool_req(pl, tp->t->topology_key);
				int32_t bi = -1;
				for (uint32_t j = 0; j < tp->ds.n; j++) {
					if (!req_allows(r, tp->ds.d[j].v) || !pod_allows(k, p, tp->t->topology_key, tp->ds.d[j].v))
						continue;
					if (!value_ok(tp, tp->ds.d[j].v))
						continue;
					if (bi < 0 || tp->ds.d[j].count < tp->ds.d[bi].count)
						bi = (int32_t)j;
				}
				if (bi < 0) {
					char *counts = counts_text(k, tp);
					/* podDomains: the pod's requirement; nodeDomains: the
					 * NodeClaim's, the pool's with the pod's added */
					sym_t pv[64], nv[64];
					uint32_t npv = 0, nnv = 0;
					bool named = pod_in_values(p, k->req, tp->t->topology_key, pv, 64, &npv);
					struct as_req preq = {tp->t->topology_key, REQ_IN, pv, npv};
					if (r && r->op == REQ_IN) {
						for (uint32_t j = 0; j < r->nvals && nnv < 64; j++)
							if (pod_allows(k, p, tp->t->topology_key, r->vals[j]))
								nv[nnv++] = r->vals[j];
					} else {
						memcpy(nv, pv, npv * sizeof(*pv));
						nnv = npv;
					}
					struct as_req nreq = {tp->t->topology_key, REQ_IN, nv, nnv};
					char *nd = req_text(k, tp->t->topology_key, (r && r->op == REQ_IN) || named ? &nreq : r);
					char *pd = req_text(k, tp->t->topology_key, named ? &preq : NULL);
					e = out_strf("unsatisfiable topology constraint for topology spread, key=%s (counts = %s, podDomains = %s, nodeDomains = %s",
						 S(k, tp->t->topology_key), counts ? counts : "", pd ? pd : "", nd ? nd : "");
					free(counts);
					free(nd);
					free(pd);
				} else if (tp->t->topology_key == k->zone_key) {
					pin = tp->ds.d[bi].v;
				}
			}
			if (!e)
				e = agrp_claim(k, p, cd, pl, NULL, pin, &k->zbuf);
			if (!e) {
				uint32_t off;
				k->zs = k->zbuf.has ? &k->zbuf : NULL;
				if (pick_type(k, pl, pin, p->spec.req.cpu, p->spec.req.mem, 1, p, NULL, &off) < 0) {
					struct as_req zq = {k->zone_key, REQ_IN, k->zbuf.v, k->zbuf.n};
					char *zr = pin ? out_strf("%s In [%s]", ZONE, S(k, pin))
					       : k->zs ? req_text(k, k->zone_key, &zq) : strdup(ZONE " Exists");
					e = out_strf("no instance type met the scheduling requirements or had enough resources or had a required offering, requirements=karpenter.sh/nodepool In [%s], %s, resources={\"cpu\":\"%" PRId64 "m\",\"pods\":\"1\"}",
						 S(k, pl->name), zr ? zr : "", p->spec.req.cpu);
					free(zr);
				}
			}
		}
		if (!e) {
			if (!PUSH(k->claims, k->nclaims)) {
				k->oom = true;
				break;
			}
			struct claim *cl = &k->claims[k->nclaims - 1];
			cl->pool = pi;
			cl->zone = pin;
			cl->seq = k->nclaims - 1;
			if (!claim_name(k, pl, &cl->name) || !PUSH(cl->pods, cl->npods) || !PUSH(cl->pv, cl->npv)) {
				k->oom = true;
				break;
			}
			cl->pods[0] = pid;
			cl->pv[0] = (struct pview){k->pref, k->req};
			if (k->zs) {
				if (!(cl->zset = malloc((k->zs->n + 1) * sizeof(sym_t)))) {
					k->oom = true;
					break;
				}
				memcpy(cl->zset, k->zs->v, k->zs->n * sizeof(sym_t));
				cl->nzset = k->zs->n;
				cl->has_zset = true;
			}
			if (pl->nlimits) {
				cl->cap = malloc(pl->nlimits * sizeof(int64_t));
				int64_t *mx = calloc(pl->nlimits, sizeof(int64_t));
				if (!cl->cap || !mx) {
					free(mx);
					k->oom = true;
					break;
				}
				memcpy(cl->cap, k->cap, pl->nlimits * sizeof(int64_t));
				/* scheduler.go subtractMax over the NodeClaim's options */
				uint32_t off;
				pick_type_max(k, pl, pin, p->spec.req.cpu, p->spec.req.mem, 1, p, cl, &off, mx);
				for (uint32_t j = 0; j < pl->nlimits; j++)
					k->rem[pi][j] -= mx[j];
				free(mx);
			}
			cl->cpu = p->spec.req.cpu;
			cl->mem = p->spec.req.mem;
			*event = out_strf("Pod should schedule on: nodeclaim/%s", cl->name);
			placed = 1;
			break;
		}
		/* multierr: the templates' errors joined "; " */
		size_t el = strlen(e);
		char *ne = realloc(errs, elen + el + 3);
		if (!ne) {
			free(e);
			k->oom = true;
			break;
		}
		errs = ne;
		if (elen) {
			memcpy(errs + elen, "; ", 2);
			elen += 2;
		}
		memcpy(errs + elen, e, el + 1);
		elen += el;
		free(e);
	}
	k->cap = NULL;
	k->zs = NULL;
	if (!placed) {
		if (!errs)
			errs = strdup("nodepool requirements filtered out all available instance types");
		*err = errs;
	} else {
		free(errs);
	}
done:
	decision_fini(&d);
	k->zs = NULL;
	k->pref = NULL;
	k->req = 0;
	k->tol_pns = false;
	return placed;
}

/* preferences.go Relax's reason for one step: upstream's text with the
 * removed term summarised (upstream prints it as JSON) */
static char *rx_text(const struct kp *k, const struct pod *p, const struct rxlog *l)
{
	const struct affinity *af = &p->spec.affinity;
	const char *path = "podAffinity";
	const struct weighted_pod_affinity_term *w = af->aff_pref;
	switch (l->kind) {
	case RX_REQ_NODE:
		return out_strf("removing: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution[0] (nodeSelectorTerms[%u] as written)",
			      l->idx);
	case RX_POD_ANTI:
		path = "podAntiAffinity";
		w = af->anti_pref;
		/* fallthrough */
	case RX_POD_AFF:
		return out_strf("removing: spec.affinity.%s.preferredDuringSchedulingIgnoredDuringExecution[0] (term %u as written: weight %d, topologyKey %s)",
			      path, l->idx, w[l->idx].weight, S(k, w[l->idx].term.topology_key));
	case RX_PREF_NODE:
		return out_strf("removing: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0] (term %u as written: weight %d)",
			      l->idx, af->node.pref[l->idx].weight);
	case RX_TSC:
		return out_strf("removing: spec.topologySpreadConstraints (constraint %u as written: topologyKey %s, whenUnsatisfiable ScheduleAnyway)",
			      l->idx, S(k, p->spec.tscs[l->idx].topology_key));
	default:
		return strdup("adding: toleration for PreferNoSchedule taints");
	}
}

static char *pod_ref(const struct kp *k, uint32_t p)
{
	return out_strf("%s/%s", S(k, k->c->pods[p].ns), S(k, k->c->pods[p].name));
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

static char *render(const struct kp *k, const struct topo *tp)
{
	char *c = counts_text(k, tp);
	char *s = c ? out_strf("{%s}", c) : NULL;
	free(c);
	return s;
}

int as_karpenter(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		 const struct as_settings *set, struct as_report *rep, struct as_changes *ch)
{
	struct kp k = {.sch = sch, .c = sch->c, .cfg = sc->autoscale, .set = set, .npools = sc->autoscale->npools};
	struct cluster *c = k.c;
	k.zone_key = intern_str(c->in, ZONE);
	k.host_key = intern_str(c->in, HOSTNAME);
	uint32_t *pend = malloc((c->npods + 1) * sizeof(uint32_t)), npend = 0;
	char **errs = calloc(c->npods + 1, sizeof(char *));
	char **evs = calloc(c->npods + 1, sizeof(char *));
	bool *done = calloc(c->npods + 1, 1);
	/* per pod, the relaxations of its last try (preferences.go Relax) */
	struct rxlog **logs = calloc(c->npods + 1, sizeof(*logs));
	uint32_t *nlogs = calloc(c->npods + 1, sizeof(*nlogs));
	k.pool_ord = malloc((k.cfg->npools + 1) * sizeof(uint32_t));
	k.pool_tmpl = calloc(k.cfg->npools + 1, 1);
	k.rem = calloc(k.cfg->npools + 1, sizeof(int64_t *));
	k.r_cpu = intern_str(c->in, "cpu");
	k.r_mem = intern_str(c->in, "memory");
	k.r_eph = intern_str(c->in, "ephemeral-storage");
	k.r_pods = intern_str(c->in, "pods");
	k.r_nodes = intern_str(c->in, "nodes");
	int ret = 0;
	if (!pend || !errs || !evs || !done || !logs || !nlogs || !k.pool_ord || !k.pool_tmpl || !k.zone_key || !k.host_key ||
	    !k.rem || !k.r_cpu || !k.r_mem || !k.r_eph || !k.r_pods || !k.r_nodes)
		goto out;
	/* scheduler.go NewScheduler remainingResources: spec.limits, less
	 * updateRemainingResources per node of the NodePool (resources.Subtract
	 * of its capacity: the allocatable here, and one node) */
	sym_t npk = intern_str(c->in, "karpenter.sh/nodepool");
	for (uint32_t i = 0; i < k.cfg->npools; i++) {
		const struct as_pool *pl = &k.cfg->pools[i];
		if (!pl->nlimits)
			continue;
		if (!(k.rem[i] = malloc(pl->nlimits * sizeof(int64_t))))
			goto out;
		for (uint32_t j = 0; j < pl->nlimits; j++)
			k.rem[i][j] = pl->limits[j].v;
		for (uint32_t id = 0; npk && id < c->nnodes; id++) {
			const struct node *n = &c->nodes[id];
			if (!n->alive || labels_get(&n->labels, npk) != pl->name)
				continue;
			for (uint32_t j = 0; j < pl->nlimits; j++)
				k.rem[i][j] -= res_amount(&k, &n->alloc, pl->limits[j].res, true);
		}
	}
	/* updateInverseAffinities: the bound pods with required anti-affinity */
	k.anti_owners = malloc((c->npods + 1) * sizeof(uint32_t));
	if (!k.anti_owners)
		goto out;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *o = &c->pods[i];
		if (o->alive && o->node >= 0 && o->spec.has_affinity && o->spec.affinity.nanti_req)
			k.anti_owners[k.nanti_owners++] = i;
	}
	/* NodePools: weight desc, equal weight by name descending */
	for (uint32_t i = 0; i < k.cfg->npools; i++) {
		uint32_t j = i;
		const struct as_pool *pi = &k.cfg->pools[i];
		while (j > 0) {
			const struct as_pool *pj = &k.cfg->pools[k.pool_ord[j - 1]];
			if (pj->weight > pi->weight ||
			    (pj->weight == pi->weight && strcmp(S(&k, pj->name), S(&k, pi->name)) > 0))
				break;
			k.pool_ord[j] = k.pool_ord[j - 1];
			j--;
		}
		k.pool_ord[j] = i;
		k.pool_tmpl[i] = pool_is_template(&k, pi);
		for (uint32_t t = 0; t < pi->ntaints; t++)
			k.pool_pns |= pi->taints[t].effect == EFFECT_PREFER_NO_SCHEDULE;
	}
	/* IsProvisionable: pending, not nominated; queue.go: cpu desc, memory
	 * desc, creation, then the order they became pending */
	for (uint32_t p = 0; p < c->npods; p++) {
		const struct pod *pp = &c->pods[p];
		if (pp->alive && pp->node < 0 && !pp->nominated && !pp->terminating)
			pend[npend++] = p;
	}
	for (uint32_t i = 0; i < npend; i++)
		if (!PUSH(rep->pods, rep->npods) || !(rep->pods[rep->npods - 1] = pod_ref(&k, pend[i])))
			goto out;
	int32_t for_pod = npend ? (int32_t)pend[0] : -1;
	const struct as_val *fv = a->has_expect ? as_val_get(&a->expect, "for") : NULL;
	if (fv && fv->type == AV_STR)
		for (uint32_t i = 0; i < npend; i++)
			if (!strcmp(rep->pods[i], fv->s))
				for_pod = (int32_t)pend[i];
	if (for_pod >= 0) {
		if (!(rep->for_pod = pod_ref(&k, (uint32_t)for_pod)))
			goto out;
		struct decision d;
		memset(&d, 0, sizeof(d));
		if (!sched_decide(sch, (uint32_t)for_pod, &d))
			goto out;
		struct cand *cd = calloc(1, sizeof(*cd));
		if (!cd) {
			decision_fini(&d);
			goto out;
		}
		struct relax rx0;
		relax_init(&c->pods[for_pod], &rx0);
		k.pref = pref_term(&k, &c->pods[for_pod], &rx0);
		prepare(&k, &c->pods[for_pod], &d, &rx0, cd);
		k.pref = NULL;
		rep->has_kdomains = true;
		rep->kdomains = calloc(cd->ntp + 1, sizeof(char *));
		rep->kgmin = calloc(cd->ntp + 1, sizeof(int64_t));
		for (uint32_t i = 0; rep->kdomains && rep->kgmin && i < cd->ntp; i++) {
			rep->kdomains[i] = render(&k, &cd->tp[i]);
			rep->kgmin[i] = cd->tp[i].min;
			rep->nkdomains = i + 1;
		}
		cand_fini(cd);
		decision_fini(&d);
		if (!rep->kdomains || !rep->kgmin)
			goto out;
	}
	for (uint32_t i = 1; i < npend; i++) {
		uint32_t x = pend[i], j = i;
		const struct pod *px = &c->pods[x];
		while (j > 0) {
			const struct pod *py = &c->pods[pend[j - 1]];
			if (py->spec.req.cpu > px->spec.req.cpu ||
			    (py->spec.req.cpu == px->spec.req.cpu &&
			     (py->spec.req.mem > px->spec.req.mem ||
			      (py->spec.req.mem == px->spec.req.mem && py->created <= px->created))))
				break;
			pend[j] = pend[j - 1];
			j--;
		}
		pend[j] = x;
	}
	/* Solve: retry the failed pods while the queue makes progress */
	bool progress = true;
	while (progress && !k.oom) {
		progress = false;
		for (uint32_t i = 0; i < npend && !k.oom; i++) {
			uint32_t p = pend[i];
			if (done[p])
				continue;
			free(errs[p]);
			errs[p] = NULL;
			char *ev = NULL;
			/* scheduler.go trySchedule: relax one step per failure,
			 * from the pod as written on every pass (DeepCopy) */
			struct relax rx;
			relax_init(&c->pods[p], &rx);
			int ok = try_pod(&k, p, &rx, &errs[p], &ev);
			while (!ok && !k.oom && relax_step(&k, &c->pods[p], &rx)) {
				free(errs[p]);
				errs[p] = NULL;
				ok = try_pod(&k, p, &rx, &errs[p], &ev);
			}
			free(logs[p]);
			logs[p] = NULL;
			nlogs[p] = 0;
			if (rx.nlog) {
				if (!(logs[p] = malloc(rx.nlog * sizeof(*logs[p])))) {
					k.oom = true;
					break;
				}
				memcpy(logs[p], rx.log, rx.nlog * sizeof(*logs[p]));
				nlogs[p] = rx.nlog;
			}
			if (ok) {
				done[p] = true;
				evs[p] = ev;
				progress = true;
			}
		}
		bool left = false;
		for (uint32_t i = 0; i < npend; i++)
			left |= !done[pend[i]];
		if (!left)
			break;
	}
	if (k.oom)
		goto out;
	/* NodeClaims -> nodes (KWOK toNode): the cheapest offering that fits */
	sym_t np = intern_str(c->in, "karpenter.sh/nodepool"), itk = intern_str(c->in, "node.kubernetes.io/instance-type"),
	      ctk = intern_str(c->in, "karpenter.sh/capacity-type");
	for (uint32_t ci = 0; ci < k.nclaims; ci++) {
		struct claim *cl = &k.claims[ci];
		const struct as_pool *pl = &k.cfg->pools[cl->pool];
		uint32_t off = 0;
		int32_t ti = pick_type(&k, pl, cl->zone, cl->cpu, cl->mem, cl->npods, NULL, cl, &off);
		const struct as_itype *it = ti >= 0 ? &k.cfg->itypes[ti] : NULL;
		sym_t zone = it ? it->offers[off].zone : cl->zone;
		if (!PUSH(rep->claims, rep->nclaims) || !PUSH(rep->added, rep->nadded))
			goto out;
		struct as_claim *rc = &rep->claims[rep->nclaims - 1];
		rc->name = strdup(cl->name);
		rc->pool = strdup(S(&k, pl->name));
		rc->zone = zone ? strdup(S(&k, zone)) : NULL;
		rc->itype = it ? strdup(S(&k, it->name)) : NULL;
		rc->capacity = it ? strdup(S(&k, it->offers[off].capacity_type)) : NULL;
		rc->pods = calloc(cl->npods + 1, sizeof(char *));
		if (!rc->name || !rc->pool || !rc->pods)
			goto out;
		for (uint32_t q = 0; q < cl->npods; q++) {
			if (!(rc->pods[q] = pod_ref(&k, cl->pods[q])))
				goto out;
			rc->npods = q + 1;
		}
		struct as_added *ad = &rep->added[rep->nadded - 1];
		ad->name = strdup(cl->name);
		ad->group = strdup(S(&k, pl->name));
		ad->zone = zone ? strdup(S(&k, zone)) : NULL;
		ad->itype = it ? strdup(S(&k, it->name)) : NULL;
		if (!ad->name || !ad->group)
			goto out;
	}
	/* the batch's bindings on existing nodes are the scheduler's to make */
	for (uint32_t i = k.nbound; i-- > 0;)
		cluster_unbind(c, k.bound[i]);
	k.nbound = 0;
	if (!a->dry) {
		for (uint32_t ci = 0; ci < k.nclaims; ci++) {
			struct claim *cl = &k.claims[ci];
			const struct as_pool *pl = &k.cfg->pools[cl->pool];
			uint32_t off = 0;
			int32_t ti = pick_type(&k, pl, cl->zone, cl->cpu, cl->mem, cl->npods, NULL, cl, &off);
			const struct as_itype *it = ti >= 0 ? &k.cfg->itypes[ti] : NULL;
			struct node n;
			memset(&n, 0, sizeof(n));
			n.name = intern_str(c->in, cl->name);
			if (!labels_copy(&n.labels, &pl->labels))
				goto out;
			for (uint32_t r = 0; r < pl->nreqs; r++)
				if (pl->reqs[r].op == REQ_IN && pl->reqs[r].nvals == 1 &&
				    !labels_set(&n.labels, pl->reqs[r].key, pl->reqs[r].vals[0]))
					goto node_oom;
			for (uint32_t l = 0; it && l < it->labels.n; l++)
				if (!labels_set(&n.labels, it->labels.v[l].key, it->labels.v[l].val))
					goto node_oom;
			if (!labels_set(&n.labels, np, pl->name) || !labels_set(&n.labels, k.host_key, n.name) ||
			    (it && (!labels_set(&n.labels, itk, it->name) ||
				    !labels_set(&n.labels, k.zone_key, it->offers[off].zone) ||
				    !labels_set(&n.labels, ctk, it->offers[off].capacity_type))))
				goto node_oom;
			if (pl->ntaints) {
				n.taints = malloc(pl->ntaints * sizeof(struct taint));
				if (!n.taints)
					goto node_oom;
				memcpy(n.taints, pl->taints, pl->ntaints * sizeof(struct taint));
				n.ntaints = pl->ntaints;
			}
			/* the instance type's capacity, extended resources too */
			if (it && !resources_copy(&n.alloc, &it->alloc))
				goto node_oom;
			int32_t id = cluster_add_node(c, &n);
			if (id < 0)
				goto node_oom;
			if (!PUSH(ch->nodes, ch->nnodes)) {
				cluster_remove_node(c, (uint32_t)id);
				goto out;
			}
			ch->nodes[ch->nnodes - 1] = (uint32_t)id;
			continue;
node_oom:
			node_fini(&n);
			goto out;
		}
	}
	/* errors and events, in the order the pods became pending */
	for (uint32_t p = 0; p < c->npods; p++) {
		if (errs[p]) {
			if (!PUSH(rep->errors, rep->nerrors))
				goto out;
			rep->errors[rep->nerrors - 1].pod = pod_ref(&k, p);
			rep->errors[rep->nerrors - 1].error = strdup(errs[p]);
			if (!add_event(rep, pod_ref(&k, p), "FailedScheduling", out_strf("Failed to schedule pod, %s", errs[p])))
				goto out;
		} else if (evs[p]) {
			if (!add_event(rep, pod_ref(&k, p), "Nominated", strdup(evs[p])))
				goto out;
		}
	}
	/* placements: each considered pod's outcome and relaxations */
	for (uint32_t p = 0; p < c->npods; p++) {
		if (!errs[p] && !evs[p])
			continue;
		if (!PUSH(rep->places, rep->nplaces))
			goto out;
		struct as_place *pl = &rep->places[rep->nplaces - 1];
		static const char node_ev[] = "Pod should schedule on: node/", claim_ev[] = "Pod should schedule on: nodeclaim/";
		if (!(pl->pod = pod_ref(&k, p)))
			goto out;
		if (errs[p]) {
			pl->result = strdup("failed");
			pl->error = strdup(errs[p]);
		} else if (!strncmp(evs[p], node_ev, sizeof(node_ev) - 1)) {
			pl->result = strdup("existingNode");
			pl->node = strdup(evs[p] + sizeof(node_ev) - 1);
		} else if (!strncmp(evs[p], claim_ev, sizeof(claim_ev) - 1)) {
			pl->result = strdup("nodeClaim");
			pl->claim = strdup(evs[p] + sizeof(claim_ev) - 1);
			for (uint32_t ci = 0; pl->claim && ci < rep->nclaims; ci++)
				if (!strcmp(rep->claims[ci].name, pl->claim) && rep->claims[ci].zone)
					pl->zone = strdup(rep->claims[ci].zone);
		}
		if (!pl->result)
			goto out;
		if (nlogs[p] && !(pl->relaxed = calloc(nlogs[p], sizeof(char *))))
			goto out;
		for (uint32_t i = 0; i < nlogs[p]; i++) {
			if (!(pl->relaxed[i] = rx_text(&k, &c->pods[p], &logs[p][i])))
				goto out;
			pl->nrelaxed = i + 1;
		}
	}
	ret = 1;
out:
	for (uint32_t i = k.nbound; i-- > 0;)
		cluster_unbind(c, k.bound[i]);
	free(k.bound);
	for (uint32_t i = 0; i < k.nclaims; i++) {
		free(k.claims[i].pods);
		free(k.claims[i].pv);
		free(k.claims[i].name);
		free(k.claims[i].cap);
		free(k.claims[i].zset);
	}
	free(k.claims);
	cand_fini(k.cd);
	free(k.vals);
	free(k.zbuf.v);
	free(k.anti_owners);
	for (uint32_t i = 0; k.rem && i < k.cfg->npools; i++)
		free(k.rem[i]);
	free(k.rem);
	for (uint32_t i = 0; errs && i < c->npods; i++)
		free(errs[i]);
	for (uint32_t i = 0; evs && i < c->npods; i++)
		free(evs[i]);
	free(errs);
	free(evs);
	free(done);
	for (uint32_t i = 0; logs && i < c->npods; i++)
		free(logs[i]);
	free(logs);
	free(nlogs);
	free(pend);
	free(k.pool_ord);
	free(k.pool_tmpl);
	return ret;
}
