/* desched.c - the descheduler v0.36.0's
 * RemovePodsViolatingTopologySpreadConstraint (pkg/framework/plugins/
 * removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint.go)
 * run once with the DefaultEvictor's default arguments. Upstream's map
 * orders are fixed here: namespaces and constraints as first seen, pods
 * in input order, domains by size then value, evictions in the order
 * chosen. */
#include "ctl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

#define SYSTEM_CRITICAL 2000000000

/* defaultevictor.go Filter with the default protections */
static bool evictable(const struct cluster *c, const struct pod *p)
{
	if (p->life.protect & LIFE_EVICT)
		return true;
	if (p->life.protect & (LIFE_MIRROR | LIFE_STATIC | LIFE_LOCAL_STORAGE) || p->terminating)
		return false;
	if (p->spec.has_priority && p->spec.priority >= SYSTEM_CRITICAL)
		return false;
	if (!p->nowners) /* FailedBarePods */
		return false;
	for (uint32_t i = 0; i < p->nowners; i++)
		if (p->owners[i].kind && !strcmp(intern_get(c->in, p->owners[i].kind), "DaemonSet"))
			return false;
	return true;
}

/* one constraint as the plugin builds it (newTopologySpreadConstraint) */
struct dc {
	const struct pod *from;   /* the declaring pod */
	const struct tsc *t;
	struct selector sel;      /* labelSelector + matchLabelKeys values */
	bool aff_honor, taint_honor;
};

static bool policy_is(const struct intern *in, sym_t s, const char *v)
{
	return s && !strcmp(intern_get(in, s), v);
}

static int dc_make(struct cluster *c, const struct pod *p, const struct tsc *t, struct dc *out)
{
	memset(out, 0, sizeof(*out));
	out->from = p;
	out->t = t;
	out->aff_honor = !policy_is(c->in, t->node_affinity_policy, "Ignore");
	out->taint_honor = policy_is(c->in, t->node_taints_policy, "Honor");
	if (!selector_compile(c->in, &t->selector, &out->sel, NULL, 0)) {
		selector_fini(&out->sel);
		out->sel.kind = SEL_NOTHING;
		return 2; /* a bad selector: the constraint is skipped */
	}
	for (uint32_t i = 0; i < t->nmatch_label_keys; i++) {
		sym_t v = labels_get(&p->labels, t->match_label_keys[i]);
		if (!v)
			continue;
		struct labels one = {0};
		struct selector add;
		if (!labels_set(&one, t->match_label_keys[i], v) || !selector_from_set(c->in, &one, &add)) {
			labels_fini(&one);
			return 0;
		}
		labels_fini(&one);
		int ok = selector_and(c->in, &out->sel, &add);
		selector_fini(&add);
		if (!ok)
			return 0;
	}
	return 1;
}

static bool tols_equal(const struct pod *a, const struct pod *b)
{
	if (a->spec.ntols != b->spec.ntols)
		return false;
	for (uint32_t i = 0; i < a->spec.ntols; i++) {
		const struct toleration *x = &a->spec.tols[i], *y = &b->spec.tols[i];
		if (x->key != y->key || x->op != y->op || x->value != y->value || x->effect != y->effect)
			return false;
	}
	return true;
}

/* reflect.DeepEqual of two built constraints */
static bool dc_equal(const struct cluster *c, const struct dc *a, const struct dc *b)
{
	if (a->t->max_skew != b->t->max_skew || a->t->topology_key != b->t->topology_key ||
	    a->aff_honor != b->aff_honor || a->taint_honor != b->taint_honor)
		return false;
	char *x = selector_key(c->in, &a->sel), *y = selector_key(c->in, &b->sel);
	bool eq = x && y && !strcmp(x, y) && a->sel.kind == b->sel.kind;
	free(x);
	free(y);
	if (!eq)
		return false;
	if (a->aff_honor && (!labels_equal(&a->from->spec.node_selector, &b->from->spec.node_selector) ||
			     ((a->from->spec.has_affinity || b->from->spec.has_affinity) && a->from != b->from)))
		return false;
	if (a->taint_honor && !tols_equal(a->from, b->from))
		return false;
	return true;
}

/* matchNodeInclusionPolicies */
static bool node_included(const struct cluster *c, const struct dc *k, const struct node *n)
{
	if (k->aff_honor && !node_matches_pod_affinity(c, k->from, n))
		return false;
	if (k->taint_honor && taint_first_untolerated(n, k->from->spec.tols, k->from->spec.ntols) >= 0)
		return false;
	return true;
}

struct domain {
	sym_t value;
	uint32_t *pods;
	uint32_t n, cap;
};

static int dom_push(struct domain *d, uint32_t pod)
{
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 8;
		uint32_t *v = realloc(d->pods, cap * sizeof(*v));
		if (!v)
			return 0;
		d->pods = v;
		d->cap = cap;
	}
	d->pods[d->n++] = pod;
	return 1;
}

static const struct cluster *sort_c;

static int dom_cmp(const void *a, const void *b)
{
	const struct domain *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return strcmp(intern_get(sort_c->in, x->value), intern_get(sort_c->in, y->value));
}

/* sortDomains' pod order, front to back: pods with a nodeSelector or
 * node affinity first, then by ascending priority, no priority first;
 * input order among equals (the plugin evicts from the back) */
static bool has_sel_or_aff(const struct pod *p)
{
	return p->spec.node_selector.n || (p->spec.has_affinity &&
					   (p->spec.affinity.node.has_required || p->spec.affinity.node.npref));
}

static bool pod_before(const struct pod *a, const struct pod *b)
{
	bool sa = has_sel_or_aff(a), sb = has_sel_or_aff(b);
	if (sa != sb)
		return sa;
	if (a->spec.has_priority != b->spec.has_priority)
		return !a->spec.has_priority;
	return a->spec.has_priority && a->spec.priority < b->spec.priority;
}

static void sort_pods(const struct cluster *c, uint32_t *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && pod_before(&c->pods[v[j]], &c->pods[v[j - 1]]); j--) {
			uint32_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* node.go NodeFit's checks as PodFitsAnyOtherNode makes them */
static bool fits_node(const struct cluster *c, const struct pod *p, const struct node *n)
{
	if (n->unschedulable || !node_matches_pod_affinity(c, p, n))
		return false;
	if (taint_first_untolerated(n, p->spec.tols, p->spec.ntols) >= 0)
		return false;
	const struct resources *a = &n->alloc, *u = &n->used, *r = &p->spec.req;
	if (a->pods - u->pods <= 0)
		return false;
	if (r->cpu > a->cpu - u->cpu || r->mem > a->mem - u->mem || r->eph > a->eph - u->eph)
		return false;
	for (uint32_t i = 0; i < r->next; i++)
		if (r->ext[i].v > resources_ext(a, r->ext[i].name) - resources_ext(u, r->ext[i].name))
			return false;
	return true;
}

static bool fits_any_other(const struct cluster *c, const struct pod *p, const uint32_t *nodes, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if ((int32_t)nodes[i] != p->node && fits_node(c, p, &c->nodes[nodes[i]]))
			return true;
	return false;
}

struct picked {
	uint32_t *v;
	uint32_t n, cap;
	uint8_t *mark;          /* per pod */
};

static int pick(struct picked *k, uint32_t pod)
{
	if (k->mark[pod])
		return 1;
	if (k->n == k->cap) {
		uint32_t cap = k->cap ? k->cap * 2 : 8;
		uint32_t *v = realloc(k->v, cap * sizeof(*v));
		if (!v)
			return 0;
		k->v = v;
		k->cap = cap;
	}
	k->mark[pod] = 1;
	k->v[k->n++] = pod;
	return 1;
}

/* one constraint of one namespace: count, and balanceDomains */
static int balance(struct cluster *c, const struct dc *k, const uint32_t *pods, uint32_t npods,
		   const struct desched_args *a, struct picked *out)
{
	struct domain *dom = NULL;
	uint32_t ndom = 0;
	int ok = 0;
	uint32_t *below = NULL, nbelow = 0;
	sym_t key = k->t->topology_key;
	/* every node with the key (and included) makes a domain */
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		sym_t v = n->alive ? labels_get(&n->labels, key) : SYM_NONE;
		if (!v || !node_included(c, k, n))
			continue;
		uint32_t j;
		for (j = 0; j < ndom && dom[j].value != v; j++)
			;
		if (j == ndom) {
			struct domain *nd = realloc(dom, (ndom + 1) * sizeof(*nd));
			if (!nd)
				goto done;
			dom = nd;
			memset(&dom[ndom], 0, sizeof(*dom));
			dom[ndom++].value = v;
		}
	}
	double sum = 0;
	for (uint32_t i = 0; i < npods; i++) {
		const struct pod *p = &c->pods[pods[i]];
		if (p->terminating || !selector_matches(c->in, &k->sel, &p->labels) || p->node < 0)
			continue;
		sym_t v = labels_get(&c->nodes[p->node].labels, key);
		if (!v)
			continue;
		uint32_t j;
		for (j = 0; j < ndom && dom[j].value != v; j++)
			;
		if (j == ndom) {
			/* a pod on an excluded node still makes its domain */
			struct domain *nd = realloc(dom, (ndom + 1) * sizeof(*nd));
			if (!nd)
				goto done;
			dom = nd;
			memset(&dom[ndom], 0, sizeof(*dom));
			dom[ndom++].value = v;
		}
		if (!dom_push(&dom[j], pods[i]))
			goto done;
		sum++;
	}
	/* topologyIsBalanced (minDomains is not read) */
	uint32_t mn = UINT32_MAX, mx = 0;
	for (uint32_t j = 0; j < ndom; j++) {
		mn = dom[j].n < mn ? dom[j].n : mn;
		mx = dom[j].n > mx ? dom[j].n : mx;
	}
	if (ndom < 2 || (int64_t)mx - mn <= k->t->max_skew) {
		ok = 1;
		goto done;
	}
	/* sortDomains */
	for (uint32_t j = 0; j < ndom; j++)
		sort_pods(c, dom[j].pods, dom[j].n);
	sort_c = c;
	qsort(dom, ndom, sizeof(*dom), dom_cmp);
	sort_c = NULL;
	double avg = sum / ndom;
	/* filterNodesBelowIdealAvg over the included nodes */
	if (!(below = malloc(((size_t)c->nnodes + 1) * sizeof(*below))))
		goto done;
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		sym_t v = n->alive ? labels_get(&n->labels, key) : SYM_NONE;
		if (!v || !node_included(c, k, n))
			continue;
		for (uint32_t j = 0; j < ndom; j++)
			if (dom[j].value == v && (double)dom[j].n < avg)
				below[nbelow++] = i;
	}
	/* balanceDomains */
	uint32_t i = 0, j = ndom - 1;
	while (i < j) {
		if ((double)dom[j].n <= avg)
			j--;
		double skew = (double)dom[j].n - (double)dom[i].n;
		if ((int32_t)skew <= k->t->max_skew) {
			i++;
			continue;
		}
		double above_avg = ceil((double)dom[j].n - avg);
		double below_avg = ceil(avg - (double)dom[i].n);
		double smallest = fmin(above_avg, below_avg);
		double half = ceil((skew - k->t->max_skew) / 2);
		int move = (int)fmin(smallest, half);
		if (move <= 0) {
			i++;
			continue;
		}
		/* pods that fit below the average go to the back (stable) */
		uint32_t *v = dom[j].pods, n = dom[j].n, w = 0;
		uint32_t *tmp = malloc(n * sizeof(*tmp));
		if (!tmp)
			goto done;
		for (uint32_t q = 0; q < n; q++)
			if (!fits_any_other(c, &c->pods[v[q]], below, nbelow))
				tmp[w++] = v[q];
		for (uint32_t q = 0; q < n; q++)
			if (fits_any_other(c, &c->pods[v[q]], below, nbelow))
				tmp[w++] = v[q];
		memcpy(v, tmp, n * sizeof(*v));
		free(tmp);
		for (uint32_t q = n - (uint32_t)move; q < n; q++) {
			if (a->node_fit && !fits_any_other(c, &c->pods[v[q]], below, nbelow))
				continue; /* not evicted, still counted as moved */
			if (!pick(out, v[q]))
				goto done;
		}
		for (uint32_t q = n - (uint32_t)move; q < n; q++)
			if (!dom_push(&dom[i], v[q]))
				goto done;
		dom[j].n -= (uint32_t)move;
	}
	ok = 1;
done:
	for (uint32_t q = 0; q < ndom; q++)
		free(dom[q].pods);
	free(dom);
	free(below);
	return ok;
}

int ctl_deschedule(struct step_ctx *x, struct ctl_run *k, const struct desched_args *a)
{
	struct cluster *c = x->c;
	struct picked out = {0};
	uint32_t *pods = NULL, npods = 0;
	sym_t *nss = NULL;
	uint32_t nns = 0;
	struct dc *cons = NULL;
	uint32_t ncons = 0;
	int ok = 0;
	/* runProfiles: fewer than two nodes, nothing runs */
	if (c->nalive_nodes < 2)
		return 1;
	if (!(out.mark = calloc(c->npods ? c->npods : 1, 1)) ||
	    !(pods = malloc((c->npods ? c->npods : 1) * sizeof(*pods))))
		goto done;
	/* ListPodsOnNodes with the evictor's Filter: the others are not seen */
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (p->alive && p->node >= 0 && evictable(c, p))
			pods[npods++] = i;
	}
	for (uint32_t i = 0; i < npods; i++) {
		sym_t ns = c->pods[pods[i]].ns;
		uint32_t j;
		for (j = 0; j < nns && nss[j] != ns; j++)
			;
		if (j == nns) {
			sym_t *v = realloc(nss, (nns + 1) * sizeof(*v));
			if (!v)
				goto done;
			nss = v;
			nss[nns++] = ns;
		}
	}
	uint32_t *inns = malloc((npods ? npods : 1) * sizeof(*inns));
	if (!inns)
		goto done;
	for (uint32_t q = 0; q < nns; q++) {
		uint32_t n = 0;
		for (uint32_t i = 0; i < npods; i++)
			if (c->pods[pods[i]].ns == nss[q])
				inns[n++] = pods[i];
		/* the namespace's constraints, deduplicated */
		for (uint32_t i = 0; i < n; i++) {
			const struct pod *p = &c->pods[inns[i]];
			for (uint32_t t = 0; t < p->spec.ntscs; t++) {
				const struct tsc *ts = &p->spec.tscs[t];
				bool hard = policy_is(c->in, ts->when, "DoNotSchedule");
				bool soft = policy_is(c->in, ts->when, "ScheduleAnyway");
				if (!((hard && a->hard) || (soft && a->soft)))
					continue;
				struct dc *v = realloc(cons, (ncons + 1) * sizeof(*v));
				if (!v) {
					free(inns);
					goto done;
				}
				cons = v;
				int r = dc_make(c, p, ts, &cons[ncons]);
				if (r == 0) {
					selector_fini(&cons[ncons].sel);
					free(inns);
					goto done;
				}
				bool dup = r == 2;
				for (uint32_t e = 0; e < ncons && !dup; e++)
					dup = dc_equal(c, &cons[e], &cons[ncons]);
				if (dup)
					selector_fini(&cons[ncons].sel);
				else
					ncons++;
			}
		}
		for (uint32_t e = 0; e < ncons; e++)
			if (!balance(c, &cons[e], inns, n, a, &out)) {
				free(inns);
				goto done;
			}
		for (uint32_t e = 0; e < ncons; e++)
			selector_fini(&cons[e].sel);
		ncons = 0;
	}
	free(inns);
	/* evict in the order chosen, then the owners replace them */
	sym_t *rns = out.n ? malloc(out.n * sizeof(*rns)) : NULL;
	if (out.n && !rns)
		goto done;
	for (uint32_t i = 0; i < out.n; i++) {
		rns[i] = c->pods[out.v[i]].ns;
		if (!ctl_delete(x, k, out.v[i], -1, true)) {
			free(rns);
			goto done;
		}
	}
	for (uint32_t i = 0; a->recreate && i < out.n; i++) {
		int r = ctl_replace(x, k, rns[i], c->pods[out.v[i]].name, &c->pods[out.v[i]]);
		if (r == 0) {
			free(rns);
			goto done;
		}
		if (r == 2)
			k->unreplaced++;
	}
	free(rns);
	ok = 1;
done:
	for (uint32_t e = 0; e < ncons; e++)
		selector_fini(&cons[e].sel);
	free(cons);
	free(nss);
	free(pods);
	free(out.v);
	free(out.mark);
	return ok;
}
