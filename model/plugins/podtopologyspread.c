/* podtopologyspread.c - PodTopologySpread: PreFilter/Filter over the hard constraints,
 * PreScore/Score/NormalizeScore over the soft ones, recording every count
 * in the decision. Per-node matching counts come from cluster matchers
 * (kept incrementally), so a decision costs O(nodes x constraints). */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

struct spread_con {
	struct constraint_rec *rec;   /* in d->cons */
	struct matcher *m;            /* NULL with the empty-selector quirk */
	const int32_t *kdom;          /* key index: node id -> value index, -1 */
	uint32_t nvals;               /* values of the key index */
	bool all_keyed;               /* every live node carries the key */
	bool hostname;
};

struct spread_undo {
	uint32_t k, v;
	int64_t cnt;
};


struct spread_state {
	struct spread_con *hard, *soft;
	uint32_t nhard, nsoft;
	bool require_all;             /* PreScore requireAllTopologies */
	bool skip_filter;
	/* the pod's node-facing answers (shape.c): its required node
	 * affinity per node id (NULL when it has none), untolerated
	 * NoSchedule/NoExecute taints */
	const uint8_t *aff;
	struct node_shape *shape;
	struct scheduler *sch;        /* whose scratch counters it uses */
	/* per node id: carries every hard / soft key; NULL when all do */
	uint8_t *has_hard, *has_soft;
	uint32_t nnodes;
	double **contrib;             /* soft, not hostname: score term per value index */
	struct spread_hard_tbl *tbl;  /* hard: per value index, skew within maxSkew */
	/* spread_track / spread_move: each hard constraint's count per
	 * value index (0 for a value that is no domain) and its critical
	 * paths, kept as upstream's AddPod / RemovePod keep them; what
	 * spread_save and spread_restore need to go back */
	int64_t **cnt;
	uint8_t **isdom;              /* the values that are domains */
	struct crit_path (*paths)[2];
	struct spread_undo *log;      /* every move's old count, for rollback */
	uint32_t nlog, caplog;
	uint32_t ngmin;               /* moves that changed a global minimum */
};

static const struct tsc system_defaults[2] = {
	/* podtopologyspread/plugin.go systemDefaultConstraints */
	{ .max_skew = 3 },
	{ .max_skew = 5 },
};

/* The eligibility of every node id for constraint r as a byte array, or
 * NULL when every node is eligible (podtopologyspread/common.go
 * matchNodeInclusionPolicies). NULL with *oom set when out of memory. */
static const uint8_t *elig_of(struct spread_state *s, const struct constraint_rec *r, bool *oom)
{
	const uint8_t *aff = r->affinity_honor ? s->aff : NULL;
	if (!r->taints_honor)
		return aff;
	const uint8_t *el = aff ? node_shape_both_ok(s->shape) : node_shape_taint_ok(s->shape);
	if (!el)
		*oom = true;
	return el;
}

/* Why node id is not eligible for r (el[id] is 0). */
static enum inelig inelig_why(const struct spread_state *s, const struct constraint_rec *r, uint32_t id)
{
	return r->affinity_honor && s->aff && !s->aff[id] ? INELIG_AFFINITY : INELIG_TAINT;
}

/* helper/spread.go DefaultSelector */
static int default_selector(struct cluster *c, const struct pod *p, struct selector *out)
{
	struct labels set = { 0 };
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < c->nworkloads; i++) {
		const struct workload *w = &c->workloads[i];
		if (w->kind != WL_SERVICE || w->ns != p->ns || !w->has_selector)
			continue;
		if (!labels_contains(&p->labels, &w->set))
			continue;
		for (uint32_t j = 0; j < w->set.n; j++)
			if (!labels_set(&set, w->set.v[j].key, w->set.v[j].val))
				goto error;
	}
	/* metav1.GetControllerOf; conventions 14: no controller field counts */
	const struct owner_ref *own = NULL;
	for (uint32_t i = 0; i < p->nowners && !own; i++)
		if (p->owners[i].controller != 0)
			own = &p->owners[i];
	const char *kind = own ? intern_get(c->in, own->kind) : "";
	const char *api = own && own->api_version ? intern_get(c->in, own->api_version) : NULL;
	bool rc = strcmp(kind, "ReplicationController") == 0 && (!api || strcmp(api, "v1") == 0);
	bool rs = strcmp(kind, "ReplicaSet") == 0 && (!api || strcmp(api, "apps/v1") == 0);
	bool ss = strcmp(kind, "StatefulSet") == 0 && (!api || strcmp(api, "apps/v1") == 0);
	const struct workload *ow = NULL;
	for (uint32_t i = 0; own && i < c->nworkloads && !ow; i++) {
		const struct workload *w = &c->workloads[i];
		if (w->ns != p->ns || w->name != own->name)
			continue;
		if ((rc && w->kind == WL_RC) || (rs && w->kind == WL_REPLICASET) ||
		    (ss && w->kind == WL_STATEFULSET))
			ow = w;
	}
	if (ow && rc && ow->has_selector)
		for (uint32_t j = 0; j < ow->set.n; j++)
			if (!labels_set(&set, ow->set.v[j].key, ow->set.v[j].val))
				goto error;
	if (!selector_from_set(c->in, &set, out))
		goto error;
	if (ow && !rc && ow->sel.kind == SEL_REQS && !selector_and(c->in, out, &ow->sel))
		goto error;
	labels_fini(&set);
	return 1;
error:
	labels_fini(&set);
	selector_fini(out);
	return 0;
}

/* common.go filterTopologySpreadConstraints: the internal form of one
 * constraint; the selector gets the scheduler-side matchLabelKeys merge. */
static int build_rec(struct cluster *c, const struct pod *p, const struct tsc *t, uint32_t idx,
		     enum constraint_origin origin, const struct selector *def_sel,
		     struct constraint_rec *r)
{
	const bool *g = c->cfg.gates;
	memset(r, 0, sizeof(*r));
	r->pod_index = idx;
	r->origin = origin;
	r->hard = strcmp(intern_get(c->in, t->when), "DoNotSchedule") == 0;
	r->max_skew = t->max_skew;
	r->key = t->topology_key;
	r->min_domains = g[GATE_MIN_DOMAINS] && t->has_min_domains ? t->min_domains : 1;
	r->affinity_honor = true;
	r->taints_honor = false;
	if (g[GATE_NODE_INCLUSION_POLICY]) {
		if (t->node_affinity_policy)
			r->affinity_honor = strcmp(intern_get(c->in, t->node_affinity_policy), "Ignore") != 0;
		if (t->node_taints_policy)
			r->taints_honor = strcmp(intern_get(c->in, t->node_taints_policy), "Honor") == 0;
	}
	if (def_sel) {
		if (!selector_copy(&r->sel, def_sel))
			return 0;
	} else {
		if (!selector_compile(c->in, &t->selector, &r->sel, NULL, 0))
			r->sel.kind = SEL_NOTHING; /* validation rejects such pods first */
		if (g[GATE_MATCH_LABEL_KEYS] && t->nmatch_label_keys) {
			struct labels set = { 0 };
			struct selector merged;
			for (uint32_t i = 0; i < t->nmatch_label_keys; i++) {
				sym_t v = labels_get(&p->labels, t->match_label_keys[i]);
				if (v && !labels_set(&set, t->match_label_keys[i], v)) {
					labels_fini(&set);
					return 0;
				}
			}
			if (set.n) {
				if (!selector_from_set(c->in, &set, &merged)) {
					labels_fini(&set);
					return 0;
				}
				if (!selector_and(c->in, &merged, &r->sel)) {
					selector_fini(&merged);
					labels_fini(&set);
					return 0;
				}
				if (r->sel.kind == SEL_NOTHING)
					merged.kind = SEL_NOTHING;
				selector_fini(&r->sel);
				r->sel = merged;
			}
			labels_fini(&set);
		}
	}
	r->sel_str = selector_string(c->in, &r->sel);
	if (!r->sel_str)
		return 0;
	r->self_match = selector_matches(c->in, &r->sel, &p->labels);
	/* common.go countPodsMatchSelector: selector.Empty() counts nothing */
	r->empty_quirk = selector_empty(&r->sel);
	return 1;
}

static int add_cons(struct decision *d, uint32_t *cap)
{
	if (d->ncons < *cap)
		return 1;
	uint32_t nc = *cap ? *cap * 2 : 4;
	struct constraint_rec *n = realloc(d->cons, nc * sizeof(*n));
	if (!n)
		return 0;
	d->cons = n;
	*cap = nc;
	return 1;
}

static int64_t node_count(const struct spread_con *sc, uint32_t id)
{
	return sc->m ? sc->m->per_node[id] : 0;
}

/* Fills sc->kdom from the cluster's key index. 0 on OOM. */
static int bind_key(struct cluster *c, struct spread_con *sc)
{
	const struct key_index *ki = cluster_key_index(c, sc->rec->key);
	if (!ki)
		return 0;
	sc->kdom = ki->dom;
	sc->nvals = ki->nvals;
	sc->all_keyed = key_on_every_node(c, ki);
	return 1;
}

/* The nodes that carry every key of cons[0..n), or NULL (*out) when every
 * live node does. 0 on OOM. */
static int mark_all_keys(struct cluster *c, const struct spread_con *cons, uint32_t n, uint8_t **out)
{
	bool all = true;
	for (uint32_t k = 0; k < n && all; k++) {
		const struct key_index *ki = cluster_key_index(c, cons[k].rec->key);
		if (!ki)
			return 0;
		all = key_on_every_node(c, ki);
	}
	*out = NULL;
	if (all)
		return 1;
	if (!(*out = malloc(c->nnodes + 1)))
		return 0;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		uint8_t has = (c->nflag[id] & NF_ALIVE) != 0;
		for (uint32_t k = 0; k < n && has; k++)
			has = cons[k].kdom[id] >= 0;
		(*out)[id] = has;
	}
	return 1;
}

/* Per-value counters for PreFilter (lean) and PreScore, kept across
 * cycles and all zero between uses: a cycle clears only the values it
 * touched. */
struct spread_scratch {
	uint8_t *seeded;
	uint32_t *nnodes;
	int64_t *cnt;
	uint32_t cap;
};

void spread_scratch_free(struct spread_scratch *x)
{
	if (!x)
		return;
	free(x->seeded);
	free(x->nnodes);
	free(x->cnt);
	free(x);
}

static struct spread_scratch *scratch_get(struct scheduler *sch, uint32_t n)
{
	struct spread_scratch *x = sch->spread_scratch;
	if (!x && !(x = sch->spread_scratch = calloc(1, sizeof(*x))))
		return NULL;
	if (x->cap >= n)
		return x;
	uint32_t cap = n + n / 4 + 16;
	uint8_t *s = realloc(x->seeded, cap);
	if (s)
		x->seeded = s;
	uint32_t *nn = realloc(x->nnodes, cap * sizeof(*nn));
	if (nn)
		x->nnodes = nn;
	int64_t *cn = realloc(x->cnt, cap * sizeof(*cn));
	if (cn)
		x->cnt = cn;
	if (!s || !nn || !cn)
		return NULL;
	memset(x->seeded + x->cap, 0, cap - x->cap);
	memset(x->nnodes + x->cap, 0, (cap - x->cap) * sizeof(*nn));
	memset(x->cnt + x->cap, 0, (cap - x->cap) * sizeof(*cn));
	x->cap = cap;
	return x;
}

/* Each value's eligible nodes (common.go matchNodeInclusionPolicies) and
 * matching pods when every live node has the constraint's key: the key
 * index's nodes per value and the matcher's sums per domain, less the
 * nodes zl[0..nz) (those the pod's shape makes ineligible: a few), for
 * the values v with only[v] (every value when only is NULL). 0 on OOM. */
static int counts_from_sums(struct cluster *c, const struct spread_con *sc, const uint32_t *zl, uint32_t nz,
			    const uint8_t *only, uint32_t *nnodes, int64_t *cnt)
{
	const int64_t *sum = NULL;
	if (sc->m && !(sum = matcher_domain_sums(c, sc->m, sc->rec->key)))
		return 0;
	const struct key_index *ki = cluster_key_index(c, sc->rec->key);
	if (!ki)
		return 0;
	const uint32_t *pn = sc->m ? sc->m->per_node : NULL;
	for (uint32_t v = 0; v < ki->nvals; v++) {
		if (only && !only[v])
			continue;
		nnodes[v] = ki->nper[v];
		cnt[v] = sum ? sum[v] : 0;
	}
	for (uint32_t j = 0; j < nz; j++) {
		int32_t v = sc->kdom[zl[j]];
		if (v < 0 || (only && !only[v]))
			continue;
		nnodes[v]--;
		cnt[v] -= pn ? pn[zl[j]] : 0;
	}
	return 1;
}

/* The first value of the smallest count below *mn among the domains:
 * sum[v] (0 without sums) less zc[v] (zc NULL: nothing less), over the
 * values with an eligible node (zn NULL: every value; else those with
 * nper[v] > zn[v]). No count is below 0, so the first 0 ends the search
 * (a hostname key has thousands of values). Returns nv when none is
 * below *mn, which it lowers to the count found. */
static uint32_t first_min(const int64_t *sum, const int64_t *zc, const uint32_t *nper, const uint32_t *zn,
			  uint32_t nv, int64_t *mn)
{
	uint32_t mv = nv;
	int64_t best = *mn;
	for (uint32_t v = 0; v < nv; v++) {
		if (zn && nper[v] == zn[v])
			continue;
		int64_t n = (sum ? sum[v] : 0) - (zc ? zc[v] : 0);
		if (n < best) {
			best = n;
			mv = v;
			if (n == 0)
				break;
		}
	}
	*mn = best;
	return mv;
}

/* calPreFilterState for one constraint of a lean decision: the global
 * minimum and the filter's table (ok per value) without the domain
 * records. 0 on OOM. */
static int prefilter_lean(struct cluster *c, struct spread_state *s, struct spread_con *sc,
			  struct spread_hard_tbl *tbl)
{
	struct constraint_rec *r = sc->rec;
	const struct key_index *ki = cluster_key_index(c, r->key);
	struct spread_scratch *x = ki ? scratch_get(s->sch, ki->nvals + 1) : NULL;
	uint8_t *ok = ki ? malloc(ki->nvals + 1 + SPREAD_TBL_PAD) : NULL;
	bool oom = false;
	const uint8_t *el = elig_of(s, r, &oom);
	tbl->kdom = sc->kdom;
	tbl->ok = ok ? ok + 1 : NULL;
	if (!ki || !x || !ok || oom)
		return 0;
	tbl->nvals = ki->nvals;
	/* ok[-1]: a node without the key fails */
	*ok++ = 0;
	uint32_t nv = ki->nvals;
	const uint8_t *hh = s->has_hard;
	const int32_t *kd = sc->kdom;
	const uint32_t *pn = sc->m ? sc->m->per_node : NULL;
	int64_t *cnt = x->cnt;
	uint8_t *ex = x->seeded;
	const int64_t *sum = NULL;
	const uint32_t *zl;
	uint32_t nz;
	r->raw_min = INT32_MAX;
	if (!el && !hh) {
		/* every node eligible, every value a domain */
		if (sc->m && !(sum = matcher_domain_sums(c, sc->m, r->key)))
			return 0;
		if (!(ki = cluster_key_index(c, r->key))) /* as the full path: may have moved */
			return 0;
		int64_t mn = r->raw_min;
		uint32_t mv = first_min(sum, NULL, NULL, NULL, nv, &mn);
		if (mv < nv) {
			r->raw_min = mn;
			r->min_value = ki->vals[mv];
		}
		r->nreal = nv;
	} else if (!hh && (zl = node_shape_zeros(c, s->shape, el, &nz))) {
		/* every node has the key: each value's sum less its few
		 * ineligible nodes (zl), gathered apart in zn and zc (zero
		 * between uses, cleared below); two passes over the values,
		 * however many (a hard hostname constraint has thousands) */
		if (sc->m && !(sum = matcher_domain_sums(c, sc->m, r->key)))
			return 0;
		if (!(ki = cluster_key_index(c, r->key)))
			return 0;
		uint32_t *zn = x->nnodes;
		int64_t *zc = cnt;
		uint32_t gone = 0; /* values all of whose nodes are left out */
		for (uint32_t j = 0; j < nz; j++) {
			int32_t v = kd[zl[j]];
			if (v < 0)
				continue;
			gone += ++zn[v] == ki->nper[v];
			zc[v] += pn ? pn[zl[j]] : 0;
		}
		/* a value with no eligible node is no domain */
		r->nreal = nv - gone;
		int64_t mn = r->raw_min;
		uint32_t mv = first_min(sum, zc, ki->nper, zn, nv, &mn);
		if (mv < nv) {
			r->raw_min = mn;
			r->min_value = ki->vals[mv];
		}
		r->min_forced_zero = r->nreal < (uint32_t)r->min_domains;
		r->global_min = r->min_forced_zero ? 0 : r->raw_min;
		/* a value that is no domain counts nothing (its sum is all
		 * in zc) */
		int64_t limit = r->max_skew - r->self_match + r->global_min;
		for (uint32_t v = 0; v < nv; v++)
			ok[v] = (sum ? sum[v] : 0) - zc[v] <= limit;
		for (uint32_t j = 0; j < nz; j++) {
			int32_t v = kd[zl[j]];
			if (v >= 0)
				zn[v] = 0, zc[v] = 0;
		}
		return 1;
	} else {
		/* without branches on the node's answers (they
		 * alternate from node to node): a node that does
		 * not count adds nothing, and a node without the key
		 * writes to the spare slot nv, cleared below */
		for (uint32_t id = 0; id < c->nnodes; id++) {
			int32_t di = kd[id];
			uint32_t v = di >= 0 ? (uint32_t)di : nv;
			uint8_t e = di >= 0;
			e &= hh ? hh[id] : 1;
			e &= el ? el[id] : 1;
			ex[v] |= e;
			cnt[v] += e && pn ? pn[id] : 0;
		}
		ex[nv] = 0;
		cnt[nv] = 0;
		for (uint32_t v = 0; v < nv; v++) {
			if (!ex[v])
				continue;
			r->nreal++;
			if (cnt[v] < r->raw_min) {
				r->raw_min = cnt[v];
				r->min_value = ki->vals[v];
			}
		}
	}
	r->min_forced_zero = r->nreal < (uint32_t)r->min_domains;
	r->global_min = r->min_forced_zero ? 0 : r->raw_min;
	/* a value no eligible node carries is an empty domain */
	int64_t limit = r->max_skew - r->self_match + r->global_min;
	if (sum) {
		for (uint32_t v = 0; v < nv; v++)
			ok[v] = sum[v] <= limit;
	} else {
		/* a value that is no domain counted nothing (cnt 0) */
		for (uint32_t v = 0; v < nv; v++)
			ok[v] = cnt[v] <= limit;
		memset(cnt, 0, nv * sizeof(*cnt));
		memset(ex, 0, nv);
	}
	return 1;
}

/* filtering.go calPreFilterState */
static int prefilter(struct cluster *c, struct spread_state *s, bool lean)
{
	if (s->nhard && !(s->tbl = calloc(s->nhard, sizeof(*s->tbl))))
		return 0;
	for (uint32_t k = 0; k < s->nhard; k++) {
		struct spread_con *sc = &s->hard[k];
		struct constraint_rec *r = sc->rec;
		if (lean) {
			if (!prefilter_lean(c, s, sc, &s->tbl[k]))
				return 0;
			continue;
		}
		const struct key_index *ki = cluster_key_index(c, r->key);
		if (!ki)
			return 0;
		/* every value of the key is listed; the eligible ones exist */
		r->doms = malloc((ki->nvals + 1) * sizeof(*r->doms));
		if (!r->doms)
			return 0;
		r->ndoms = ki->nvals;
		for (uint32_t i = 0; i < ki->nvals; i++)
			r->doms[i] = (struct domain_rec){ .value = ki->vals[i] };
		bool oom = false;
		const uint8_t *el = elig_of(s, r, &oom);
		const uint8_t *hh = s->has_hard;
		const int32_t *kd = sc->kdom;
		const uint32_t *pn = sc->m ? sc->m->per_node : NULL;
		struct domain_rec *doms = r->doms;
		if (oom)
			return 0;
		if (!el && !hh) {
			/* every node eligible: the matcher's sums per domain */
			const int64_t *sum = sc->m ? matcher_domain_sums(c, sc->m, r->key) : NULL;
			if (sc->m && !sum)
				return 0;
			ki = cluster_key_index(c, r->key);
			for (uint32_t v = 0; v < r->ndoms; v++) {
				doms[v].exists = true;
				doms[v].nnodes = ki->nper[v];
				doms[v].count = sum ? sum[v] : 0;
			}
		}
		/* dom[id] is -1 for removed nodes and nodes without the key */
		for (uint32_t id = 0; (el || hh) && id < c->nnodes; id++) {
			int32_t di = kd[id];
			if (di < 0)
				continue;
			struct domain_rec *dr = &doms[di];
			if ((hh && !hh[id]) || (el && !el[id])) {
				enum inelig why = hh && !hh[id] ? INELIG_MISSING_OTHER_KEY : inelig_why(s, r, id);
				if (!dr->nineligible++ && !dr->exists)
					dr->why = why;
				continue;
			}
			dr->exists = true;
			dr->why = INELIG_NONE;
			dr->nnodes++;
			if (pn)
				dr->count += pn[id];
		}
		r->raw_min = INT32_MAX;
		for (uint32_t i = 0; i < r->ndoms; i++) {
			if (!r->doms[i].exists)
				continue;
			r->nreal++;
			if (r->doms[i].count < r->raw_min) {
				r->raw_min = r->doms[i].count;
				r->min_value = r->doms[i].value;
			}
		}
		r->min_forced_zero = r->nreal < (uint32_t)r->min_domains;
		r->global_min = r->min_forced_zero ? 0 : r->raw_min;
		uint8_t *ok = malloc(r->ndoms + 1 + SPREAD_TBL_PAD);
		if (!ok)
			return 0;
		/* ok[-1]: a node without the key fails */
		*ok++ = 0;
		s->tbl[k].kdom = sc->kdom;
		s->tbl[k].ok = ok;
		s->tbl[k].nvals = r->ndoms;
		for (uint32_t i = 0; i < r->ndoms; i++) {
			struct domain_rec *dr = &r->doms[i];
			dr->skew = (dr->exists ? dr->count : 0) + r->self_match - r->global_min;
			dr->is_min = dr->exists && !r->min_forced_zero && dr->count == r->raw_min;
			ok[i] = dr->skew <= r->max_skew;
		}
	}
	return 1;
}

/* Does constraint k take node id into account (PreFilter's
 * nodeLabelsMatchSpreadConstraints and matchNodeInclusionPolicies)? */
static bool node_counts(struct spread_state *s, uint32_t k, uint32_t id, bool *oom)
{
	const struct spread_con *sc = &s->hard[k];
	const uint8_t *el = elig_of(s, sc->rec, oom);
	return sc->kdom[id] >= 0 && (!s->has_hard || s->has_hard[id]) && (!el || el[id]);
}

/* filtering.go criticalPaths.update: the two smallest counts as upstream
 * keeps them, which is not always the smallest of all after updates */
static void path_update(struct crit_path *p, int32_t v, int64_t num)
{
	int i = v == p[0].v ? 0 : v == p[1].v ? 1 : -1;
	if (i >= 0) {
		p[i].num = num;
		if (p[0].num > p[1].num) {
			struct crit_path t = p[0];
			p[0] = p[1];
			p[1] = t;
		}
	} else if (num < p[0].num) {
		p[1] = p[0];
		p[0] = (struct crit_path){ v, num };
	} else if (num < p[1].num) {
		p[1] = (struct crit_path){ v, num };
	}
}

int spread_track(struct cluster *c, struct spread_state *s)
{
	if (s->cnt || !s->tbl)
		return 1;
	s->cnt = calloc(s->nhard, sizeof(*s->cnt));
	s->isdom = calloc(s->nhard, sizeof(*s->isdom));
	s->paths = calloc(s->nhard, sizeof(*s->paths));
	if (!s->cnt || !s->isdom || !s->paths)
		return 0;
	for (uint32_t k = 0; k < s->nhard; k++) {
		const struct spread_con *sc = &s->hard[k];
		bool oom = false;
		s->cnt[k] = calloc(s->tbl[k].nvals + 1, sizeof(**s->cnt));
		s->isdom[k] = calloc(s->tbl[k].nvals + 1, 1);
		if (!s->cnt[k] || !s->isdom[k])
			return 0;
		for (uint32_t id = 0; id < c->nnodes; id++) {
			if (!node_counts(s, k, id, &oom))
				continue;
			s->isdom[k][sc->kdom[id]] = 1;
			s->cnt[k][sc->kdom[id]] += sc->m ? sc->m->per_node[id] : 0;
		}
		if (oom)
			return 0;
		/* calPreFilterState: every domain's count through update (a
		 * map's order upstream; value order here) */
		struct crit_path *p = s->paths[k];
		p[0] = p[1] = (struct crit_path){ -1, INT32_MAX };
		for (uint32_t v = 0; v < s->tbl[k].nvals; v++)
			if (s->isdom[k][v])
				path_update(p, (int32_t)v, s->cnt[k][v]);
	}
	return 1;
}

int spread_move(struct cluster *c, struct spread_state *s, uint32_t node, const struct pod *p, const struct pod *q,
		int delta)
{
	assert(s->cnt || !s->tbl); /* spread_track first */
	/* filtering.go updateWithPod: the preemptor's namespace, a node with
	 * every key, no deletionTimestamp check, the selector as it is */
	if (!s->tbl || q->ns != p->ns)
		return 1;
	for (uint32_t k = 0; k < s->nhard; k++) {
		const struct spread_con *sc = &s->hard[k];
		struct constraint_rec *r = sc->rec;
		bool oom = false;
		if (!selector_matches(c->in, &r->sel, &q->labels) || !node_counts(s, k, node, &oom)) {
			if (oom)
				return 0;
			continue;
		}
		int64_t *cnt = s->cnt[k];
		uint8_t *ok = (uint8_t *)s->tbl[k].ok;
		uint32_t nv = s->tbl[k].nvals, v = (uint32_t)sc->kdom[node];
		if (s->nlog == s->caplog) {
			uint32_t cap = s->caplog ? s->caplog * 2 : 64;
			struct spread_undo *nl = realloc(s->log, cap * sizeof(*nl));
			if (!nl)
				return 0;
			s->log = nl;
			s->caplog = cap;
		}
		s->log[s->nlog++] = (struct spread_undo){ k, v, cnt[v] };
		cnt[v] += delta;
		path_update(s->paths[k], (int32_t)v, cnt[v]);
		r->raw_min = s->paths[k][0].num;
		int64_t gmin = r->min_forced_zero ? 0 : r->raw_min;
		int64_t limit = r->max_skew - r->self_match + gmin;
		if (gmin != r->global_min) {
			r->global_min = gmin;
			s->ngmin++;
			for (uint32_t i = 0; i < nv; i++)
				ok[i] = cnt[i] <= limit;
		} else {
			ok[v] = cnt[v] <= limit;
		}
	}
	return 1;
}

int spread_mark(struct spread_state *s, struct spread_mark *m)
{
	memset(m, 0, sizeof(*m));
	if (!s->tbl)
		return 1;
	m->nlog = s->nlog;
	m->ngmin = s->ngmin;
	if (!(m->saved = malloc(s->nhard * sizeof(*m->saved))))
		return 0;
	for (uint32_t k = 0; k < s->nhard; k++) {
		const struct constraint_rec *r = s->hard[k].rec;
		m->saved[k] = (struct spread_saved){ r->raw_min, r->global_min,
						     { s->paths ? s->paths[k][0] : (struct crit_path){ -1, 0 },
						       s->paths ? s->paths[k][1] : (struct crit_path){ -1, 0 } } };
	}
	return 1;
}

void spread_rollback(struct spread_state *s, struct spread_mark *m)
{
	if (!s->tbl || !m->saved)
		return;
	uint32_t from = s->nlog;
	for (uint32_t i = s->nlog; i-- > m->nlog;)
		s->cnt[s->log[i].k][s->log[i].v] = s->log[i].cnt;
	bool rebuild = s->ngmin != m->ngmin;
	for (uint32_t k = 0; k < s->nhard; k++) {
		struct constraint_rec *r = s->hard[k].rec;
		r->raw_min = m->saved[k].raw_min;
		r->global_min = m->saved[k].global_min;
		if (s->paths) {
			s->paths[k][0] = m->saved[k].paths[0];
			s->paths[k][1] = m->saved[k].paths[1];
		}
		int64_t limit = r->max_skew - r->self_match + r->global_min;
		uint8_t *ok = (uint8_t *)s->tbl[k].ok;
		for (uint32_t i = 0; rebuild && i < s->tbl[k].nvals; i++)
			ok[i] = s->cnt[k][i] <= limit;
	}
	/* only the values moved since the mark changed their answer */
	for (uint32_t i = m->nlog; !rebuild && i < from; i++) {
		const struct spread_undo *u = &s->log[i];
		const struct constraint_rec *r = s->hard[u->k].rec;
		((uint8_t *)s->tbl[u->k].ok)[u->v] = s->cnt[u->k][u->v] <= r->max_skew - r->self_match + r->global_min;
	}
	s->nlog = m->nlog;
	s->ngmin = m->ngmin;
	free(m->saved);
	m->saved = NULL;
}

/* The constraints PodTopologySpread takes for p (plugin.go
 * getConstraints): the pod's own, or the default ones with the default
 * selector in *def_sel (*have_def set). *n is 0 when there are none. */
static int constraint_list(struct cluster *c, const struct pod *p, struct tsc sys[2], const struct tsc **list,
			   uint32_t *n, enum constraint_origin *origin, struct selector *def_sel, bool *have_def)
{
	*list = p->spec.tscs;
	*n = p->spec.ntscs;
	*origin = ORIGIN_POD;
	*have_def = false;
	if (*n)
		return 1;
	if (c->cfg.defaulting == DEFAULTING_SYSTEM) {
		sys[0] = system_defaults[0];
		sys[0].topology_key = c->sym_hostname;
		sys[1] = system_defaults[1];
		sys[1].topology_key = c->sym_zone;
		sys[0].when = sys[1].when = intern_str(c->in, "ScheduleAnyway");
		*list = sys;
		*n = 2;
		*origin = ORIGIN_DEFAULT_SYSTEM;
	} else {
		*list = c->cfg.default_tscs;
		*n = c->cfg.ndefault_tscs;
		*origin = ORIGIN_DEFAULT_LIST;
	}
	if (*n) {
		if (!default_selector(c, p, def_sel))
			return 0;
		*have_def = true;
		if (selector_empty(def_sel))
			*n = 0; /* plugin.go buildDefaultConstraints: no selector, no defaults */
	}
	return 1;
}

/* whenUnsatisfiable is one of the two values (validation rejects others) */
static bool known_when(const struct cluster *c, sym_t when)
{
	const char *w = intern_get(c->in, when);
	return !strcmp(w, "DoNotSchedule") || !strcmp(w, "ScheduleAnyway");
}

int spread_warm(struct cluster *c, const struct pod *p)
{
	struct selector def_sel = { 0 };
	struct tsc sys[2];
	const struct tsc *list;
	uint32_t n;
	enum constraint_origin origin;
	bool have_def;
	int ok = constraint_list(c, p, sys, &list, &n, &origin, &def_sel, &have_def);
	for (uint32_t i = 0; ok && i < n; i++) {
		struct constraint_rec r;
		if (!known_when(c, list[i].when))
			continue;
		ok = build_rec(c, p, &list[i], i, origin, have_def ? &def_sel : NULL, &r);
		if (ok && !r.empty_quirk) {
			struct matcher *m = cluster_matcher_ns(c, p->ns, &r.sel, true);
			/* the sums per domain; per host only for a hard
			 * constraint (PreFilter reads them; the score reads the
			 * per-node counts) */
			ok = m && ((r.key == c->sym_hostname && !r.hard) || matcher_domain_sums(c, m, r.key));
		}
		selector_fini(&r.sel);
		free(r.sel_str);
	}
	selector_fini(&def_sel);
	return ok;
}

struct spread_state *spread_prepare(struct scheduler *sch, const struct pod *p, struct decision *d,
				    struct node_shape *shape)
{
	struct cluster *c = sch->c;
	struct spread_state *s = calloc(1, sizeof(*s));
	struct selector def_sel = { 0 };
	bool have_def = false;
	uint32_t cap = 0;
	if (!s)
		return NULL;
	s->nnodes = c->nnodes;
	s->shape = shape;
	s->sch = sch;
	s->aff = node_shape_aff(shape);

	const struct tsc *list;
	uint32_t n;
	enum constraint_origin origin;
	struct tsc sys[2];
	if (!constraint_list(c, p, sys, &list, &n, &origin, &def_sel, &have_def))
		goto error;
	/* requireAllTopologies: scoring.go initPreScoreState */
	s->require_all = origin != ORIGIN_DEFAULT_SYSTEM;
	for (uint32_t i = 0; i < n; i++) {
		if (!known_when(c, list[i].when))
			continue;
		if (!add_cons(d, &cap))
			goto error;
		if (!build_rec(c, p, &list[i], i, origin, have_def ? &def_sel : NULL, &d->cons[d->ncons])) {
			selector_fini(&d->cons[d->ncons].sel);
			free(d->cons[d->ncons].sel_str);
			goto error;
		}
		d->ncons++;
	}
	if (d->ncons) {
		s->hard = calloc(d->ncons, sizeof(*s->hard));
		s->soft = calloc(d->ncons, sizeof(*s->soft));
		if (!s->hard || !s->soft)
			goto error;
	}
	for (uint32_t i = 0; i < d->ncons; i++) {
		struct constraint_rec *r = &d->cons[i];
		struct spread_con *sc = r->hard ? &s->hard[s->nhard++] : &s->soft[s->nsoft++];
		sc->rec = r;
		sc->hostname = r->key == c->sym_hostname;
		if (!r->empty_quirk) {
			sc->m = cluster_matcher_ns(c, p->ns, &r->sel, true);
			if (!sc->m)
				goto error;
		}
	}
	for (uint32_t i = 0; i < s->nhard; i++)
		if (!bind_key(c, &s->hard[i]))
			goto error;
	for (uint32_t i = 0; i < s->nsoft; i++)
		if (!bind_key(c, &s->soft[i]))
			goto error;
	if (!mark_all_keys(c, s->hard, s->nhard, &s->has_hard) ||
	    !mark_all_keys(c, s->soft, s->nsoft, &s->has_soft))
		goto error;
	s->skip_filter = s->nhard == 0; /* filtering.go PreFilter: Skip */
	if (!prefilter(c, s, d->lean))
		goto error;
	selector_fini(&def_sel);
	return s;
error:
	selector_fini(&def_sel);
	spread_free(s);
	return NULL;
}

void spread_free(struct spread_state *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; s->contrib && i < s->nsoft; i++)
		if (s->contrib[i])
			free(s->contrib[i] - 1);
	free(s->contrib);
	for (uint32_t i = 0; s->tbl && i < s->nhard; i++)
		if (s->tbl[i].ok)
			free((void *)(s->tbl[i].ok - 1));
	free(s->tbl);
	for (uint32_t i = 0; s->cnt && i < s->nhard; i++) {
		free(s->cnt[i]);
		free(s->isdom[i]);
	}
	free(s->cnt);
	free(s->isdom);
	free(s->paths);
	free(s->log);
	free(s->hard);
	free(s->soft);
	free(s->has_hard);
	free(s->has_soft);
	free(s);
}

uint32_t spread_hard_tables(const struct spread_state *s, const struct spread_hard_tbl **tbl)
{
	*tbl = s->tbl;
	return s->tbl ? s->nhard : 0;
}

const uint8_t *spread_ignore_mask(const struct spread_state *s)
{
	return s->nsoft && s->require_all ? s->has_soft : NULL;
}

bool spread_filter_skipped(const struct spread_state *s)
{
	return s->skip_filter;
}

/* filtering.go Filter, from the tables PreFilter made (a full or a lean
 * state): the first constraint the node fails names the failure. */
int filter_spread(uint32_t node_id, const struct spread_state *s, struct decision *d, struct node_rec *r)
{
	for (uint32_t k = 0; s->tbl && k < s->nhard; k++) {
		const struct spread_hard_tbl *t = &s->tbl[k];
		int32_t di = t->kdom[node_id];
		/* ok[-1] is 0: a node without the key fails; a value no
		 * eligible node registered is an empty domain (prefilter) */
		if (!t->ok[di]) {
			r->why.spread.cons = (uint32_t)(s->hard[k].rec - d->cons);
			r->why.spread.dom = di;
			r->unresolvable = di < 0;
			return 0;
		}
	}
	return 1;
}

/* scoring.go scoreForCount */
static inline double score_for_count(int64_t cnt, const struct constraint_rec *r)
{
	return (double)cnt * r->weight + (double)(r->max_skew - 1);
}

/* scoring.go initPreScoreState for one soft constraint: seeds the values
 * of the feasible, non-ignored nodes, then counts over all nodes. The
 * value index nvals stands for "" when no node has that value (nodes
 * lacking the key read "" under System defaulting). Fills *contrib with
 * scoreForCount per value index (not for hostname). */
static int prescore_con(struct cluster *c, struct spread_state *s, struct spread_con *sc,
			const uint32_t *ids, uint32_t nf, uint32_t scored_nodes, bool lean,
			double **contrib)
{
	struct constraint_rec *r = sc->rec;
	uint32_t nv = sc->nvals;
	const uint8_t *ign = spread_ignore_mask(s);
	r->scored = true;
	if (sc->hostname && lean) {
		/* the score needs only the size; the per-node counts are
		 * read when scoring */
		r->size = scored_nodes;
		r->weight = log((double)r->size + 2);
		*contrib = NULL;
		return 1;
	}
	const struct key_index *ki = cluster_key_index(c, r->key);
	struct spread_scratch *x = scratch_get(s->sch, nv + 1);
	if (!ki || !x)
		return 0;
	uint32_t empty = nv && intern_len(c->in, ki->vals[0]) == 0 ? 0 : nv;
	uint8_t *seeded = x->seeded;
	uint32_t *nnodes = x->nnodes;
	int64_t *cnt = x->cnt;
	uint32_t nseeded = 0;
	int ok = 1;
	if (sc->hostname) {
		/* no domain map upstream: per-node counts, shown by hostname */
		for (uint32_t i = 0; i < nf; i++) {
			uint32_t id = ids[i];
			int32_t vi = sc->kdom[id];
			if ((ign && !ign[id]) || vi < 0)
				continue;
			nseeded += !seeded[vi];
			seeded[vi] = 1;
			nnodes[vi]++;
			cnt[vi] += node_count(sc, id);
		}
		r->size = scored_nodes;
	} else {
		/* every value there can be: the key's values, and "" for
		 * nodes without the key; once all are seeded no node adds one */
		uint32_t all = empty == nv && ki->nhave < c->nalive_nodes ? nv + 1 : nv;
		for (uint32_t i = 0; i < nf && nseeded < all; i++) {
			uint32_t id = ids[i];
			if (ign && !ign[id])
				continue;
			int32_t vi = sc->kdom[id];
			uint32_t v = vi >= 0 ? (uint32_t)vi : empty;
			nseeded += !seeded[v];
			seeded[v] = 1;
		}
		r->size = nseeded;
		bool oom = false;
		const uint8_t *el = elig_of(s, r, &oom);
		const uint8_t *hs = s->require_all ? s->has_soft : NULL;
		const int32_t *kd = sc->kdom;
		const uint32_t *pn = sc->m ? sc->m->per_node : NULL;
		bool all_keyed = key_on_every_node(c, ki);
		const uint32_t *zl = NULL;
		uint32_t nz = 0;
		if (oom)
			ok = 0;
		else if (!hs && (all_keyed || !seeded[empty]) &&
			 (!el || (zl = node_shape_zeros(c, s->shape, el, &nz)))) {
			/* every node counted (the seeded values) */
			ok = counts_from_sums(c, sc, zl, nz, seeded, nnodes, cnt);
			ki = cluster_key_index(c, r->key);
			kd = NULL;
		}
		for (uint32_t id = 0; ok && kd && id < c->nnodes; id++) {
			int32_t vi = kd[id];
			/* removed nodes have no value (-1) */
			if (vi < 0 && !(c->nflag[id] & NF_ALIVE))
				continue;
			if (hs && !hs[id])
				continue;
			uint32_t v = vi >= 0 ? (uint32_t)vi : empty;
			if (!seeded[v] || (el && !el[id]))
				continue;
			nnodes[v]++;
			if (pn)
				cnt[v] += pn[id];
		}
	}
	r->weight = log((double)r->size + 2);
	r->doms = malloc((nseeded + 1) * sizeof(*r->doms));
	/* con[-1] = 0: a node without the key adds nothing (x + 0.0 is x
	 * for the non-negative sums here) */
	double *con = sc->hostname ? NULL : malloc((nv + 2) * sizeof(*con));
	if (con)
		*con++ = 0;
	if (!r->doms || (!sc->hostname && !con))
		ok = 0;
	/* the seeded values, in text order ("" first); the scratch is
	 * cleared on the way */
	r->ndoms = 0;
	for (uint32_t k = 0; k <= nv; k++) {
		uint32_t v = k == 0 ? nv : k - 1;
		if (con && v < nv)
			con[v] = score_for_count(cnt[v], r);
		if (!seeded[v])
			continue;
		if (ok)
			r->doms[r->ndoms++] = (struct domain_rec){
				.value = v == nv ? c->sym_empty : ki->vals[v],
				.nnodes = nnodes[v],
				.exists = true,
				.count = cnt[v],
			};
		seeded[v] = 0;
		nnodes[v] = 0;
		cnt[v] = 0;
	}
	*contrib = con;
	return ok;
}

/* scoring.go PreScore */
bool spread_prescore(struct cluster *c, struct spread_state *s, const uint32_t *ids, uint32_t nf,
		     uint32_t nignored, bool lean)
{
	if (!s->nsoft || !c->nalive_nodes)
		return false;
	uint32_t scored_nodes = nf - nignored;
	/* scoreForCount per value, summed per node in constraint order
	 * (the same double additions as upstream) */
	if (!(s->contrib = calloc(s->nsoft, sizeof(*s->contrib))))
		return false;
	for (uint32_t k = 0; k < s->nsoft; k++)
		if (!prescore_con(c, s, &s->soft[k], ids, nf, scored_nodes, lean, &s->contrib[k]))
			return false;
	return true;
}

/* scoring.go Score reads these terms per node (sched.c adds them) */
uint32_t spread_soft_terms(const struct spread_state *s, struct soft_term *t, uint32_t max)
{
	if (s->nsoft > max)
		return s->nsoft;
	for (uint32_t k = 0; k < s->nsoft; k++) {
		const struct spread_con *sc = &s->soft[k];
		t[k] = (struct soft_term){
			.kd = sc->kdom,
			.con = sc->hostname ? NULL : s->contrib[k],
			.pn = sc->m ? sc->m->per_node : NULL,
			/* scoreForCount(cnt) = cnt * weight + (maxSkew - 1) */
			.w = sc->rec->weight,
			.off = (double)(sc->rec->max_skew - 1),
			.nvals = sc->nvals,
			.all_keyed = sc->all_keyed,
		};
	}
	return s->nsoft;
}

int64_t score_pod_topology_spread(const struct spread_state *s, uint32_t id, uint32_t *host)
{
	const uint8_t *ign = spread_ignore_mask(s);
	/* ignored nodes score 0 */
	if (ign && !ign[id])
		return 0;
	/* the terms added in constraint order, as upstream adds them */
	double a = 0;
	for (uint32_t k = 0; k < s->nsoft; k++) {
		const struct spread_con *sc = &s->soft[k];
		int32_t vi = sc->kdom[id];
		if (!sc->hostname) {
			a += s->contrib[k][vi];
		} else if (vi >= 0) {
			uint32_t cnt = sc->m ? sc->m->per_node[id] : 0;
			*host = cnt;
			a += (double)cnt * sc->rec->weight + (double)(sc->rec->max_skew - 1);
		}
	}
	return go_round(a);
}

void spread_normalize(struct decision *d)
{
	const int p = PL_POD_TOPOLOGY_SPREAD;
	int64_t min = INT64_MAX, max = 0;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (!r->feasible || !r->scored[p] || r->spread_ignored)
			continue;
		min = r->raw[p] < min ? r->raw[p] : min;
		max = r->raw[p] > max ? r->raw[p] : max;
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct node_rec *r = &d->nodes[i];
		if (r->feasible && r->scored[p])
			r->norm[p] = (int16_t)spread_normalize_one(r->spread_ignored, r->raw[p], min, max);
	}
}

static int pts_prefilter(struct cycle_state *x)
{
	return (x->ss = spread_prepare(x->sch, x->p, x->d, x->shape)) != NULL;
}

static void pts_prefilter_fini(struct cycle_state *x)
{
	spread_free(x->ss);
	x->ss = NULL;
}

/* PreFilter returns Skip without hard constraints */
static bool pts_filter_skip(const struct cycle_state *x)
{
	return !x->ss || spread_filter_skipped(x->ss);
}

static int pts_filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_spread(id, x->ss, x->d, r);
}

/* PodTopologySpread always runs PreScore so its domains are recorded */
static bool pts_prescore(struct cycle_state *x, const uint32_t *ids, uint32_t nf)
{
	return spread_prescore(x->c, x->ss, ids, nf, x->d->nignored, x->d->lean);
}

static int64_t pts_score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return score_pod_topology_spread(x->ss, id, &r->host_count);
}

static void pts_reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d;
	snprintf(buf, len, "%s", r->why.spread.dom < 0 ?
		 "node(s) didn't match pod topology spread constraints (missing required label)" :
		 "node(s) didn't match pod topology spread constraints");
}

static void pts_detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct constraint_rec *cr = &d->cons[r->why.spread.cons];
	if (r->with_nominated && r->why.spread.dom >= 0) {
		/* the domains recorded are counted without them */
		snprintf(buf, len, "%s: too many matching pods once the pods nominated to this node are counted",
			 intern_get(c->in, cr->key));
		return;
	}
	if (r->why.spread.dom < 0) {
		snprintf(buf, len, "missing label %s", intern_get(c->in, cr->key));
		return;
	}
	/* a value no eligible node registered is an empty domain */
	const struct domain_rec *dr = &cr->doms[r->why.spread.dom];
	int64_t match = dr->exists ? dr->count : 0;
	int64_t self = cr->self_match;
	snprintf(buf, len, "%s=%s: %" PRId64 " + %" PRId64 " - %" PRId64 " = %" PRId64 " > maxSkew %d",
		 intern_get(c->in, cr->key), intern_get(c->in, dr->value), match, self, cr->global_min, dr->skew,
		 cr->max_skew);
}

const struct plugin_ops plugin_pod_topology_spread = {
	.code = "Spread",
	.prefilter = pts_prefilter,
	.prefilter_fini = pts_prefilter_fini,
	.filter_skip = pts_filter_skip,
	.filter = pts_filter,
	.prescore = pts_prescore,
	.score = pts_score,
	.normalize = spread_normalize,
	.reason = pts_reason,
	.detail = pts_detail,
};
