/* interpodaffinity.c - InterPodAffinity: PreFilter counts, Filter, PreScore,
 * Score and its min-max NormalizeScore.
 *
 * Upstream keeps maps keyed by (topologyKey, value). Here each distinct
 * topology key gets an array indexed by the value's sym (syms are dense),
 * and the incoming pod's terms are counted through cluster matchers (per
 * node counts kept by cluster.c), so no decision scans every pod. Existing
 * pods' own terms are read from c->affinity_pods only. */
#include "../plugins.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One topology key and an amount per value of the key, indexed like the
 * cluster's key index (cluster_key_index), so a node's amount is read
 * with two loads. */
struct keyvals {
	sym_t key;
	const int32_t *kdom;  /* node id -> value index, -1 without the key */
	const int64_t *vs;    /* per value index: own, or a matcher's sums */
	int64_t *own;         /* the amounts when added here; NULL while vs
			       * reads one matcher's sums (add_matcher_counts) */
	uint32_t nvals;
};

struct keymap {
	struct keyvals *kv;
	uint32_t n;
	bool any;     /* an entry was ever recorded (upstream map non-empty) */
};

struct ipa_state {
	bool skip;            /* PreFilter Skip */
	/* 1. incoming required affinity: pods matching ALL terms, per key */
	struct keymap aff;
	bool self_match;      /* the pod matches all of its own affinity terms */
	/* 2. incoming required anti-affinity: per key, summed over terms */
	struct keymap anti;
	/* 3. existing pods' required anti-affinity matching the pod */
	struct keymap existing;
	/* PreScore: topologyKey -> value -> score */
	struct keymap score;
	bool scored;
	const struct pod *pod;
	struct scheduler *sch; /* whose term_ns index PreScore reads */
	/* the filter's maps per required term, looked up once (PreFilter
	 * creates one for every term's key; NULL would read as no count) */
	const struct keyvals **aff_kv, **anti_kv;
};

static void keymap_fini(struct keymap *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		free(m->kv[i].own);
	free(m->kv);
	memset(m, 0, sizeof(*m));
}

/* A new entry for key reading sums (NULL: created zero, owned); NULL on
 * OOM. */
static struct keyvals *keymap_new(struct keymap *m, const struct key_index *ki, sym_t key, const int64_t *sums)
{
	struct keyvals *nk = realloc(m->kv, (m->n + 1) * sizeof(*nk));
	if (!nk)
		return NULL;
	m->kv = nk;
	struct keyvals *kv = &nk[m->n];
	*kv = (struct keyvals){ .key = key, .kdom = ki->dom, .vs = sums, .nvals = ki->nvals };
	if (!sums && !(kv->vs = kv->own = calloc(ki->nvals + 1, sizeof(*kv->own))))
		return NULL;
	m->n++;
	return kv;
}

/* The map of key to add to, created empty when absent (a map reading a
 * matcher's sums takes a copy of them first); NULL on OOM. */
static struct keyvals *keymap_get(struct cluster *c, struct keymap *m, sym_t key)
{
	for (uint32_t i = 0; i < m->n; i++) {
		struct keyvals *kv = &m->kv[i];
		if (kv->key != key)
			continue;
		if (!kv->own) {
			if (!(kv->own = malloc((kv->nvals + 1) * sizeof(*kv->own))))
				return NULL;
			memcpy(kv->own, kv->vs, kv->nvals * sizeof(*kv->own));
			kv->vs = kv->own;
		}
		return kv;
	}
	const struct key_index *ki = cluster_key_index(c, key);
	return ki ? keymap_new(m, ki, key, NULL) : NULL;
}

static const struct keyvals *keymap_find(const struct keymap *m, sym_t key)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->kv[i].key == key)
			return &m->kv[i];
	return NULL;
}

/* Adds amount at (key, value of node id for key) when the node has the
 * key. Returns 1, 0 on OOM. */
static int keymap_add(struct cluster *c, struct keymap *m, uint32_t id, sym_t key, int64_t amount)
{
	struct keyvals *kv = keymap_get(c, m, key);
	if (!kv)
		return 0;
	int32_t v = kv->kdom[id];
	if (v < 0)
		return 1;
	kv->own[v] += amount;
	m->any = true;
	return 1;
}

/* The value recorded at (key, node id's value), 0 when absent; *has tells
 * whether the node carries the key. */
static int64_t kv_at(const struct keyvals *kv, uint32_t id, bool *has)
{
	int32_t v = kv->kdom[id];
	*has = v >= 0;
	return v >= 0 ? kv->vs[v] : 0;
}

/* framework/types.go newAffinityTerm for the incoming pod, with the
 * namespaceSelector kept as a selector over namespace labels (equivalent
 * to interpodaffinity mergeAffinityTermNamespacesIfNotEmpty). */
void ipa_term_matcher(const struct pod *owner, const struct pod_affinity_term *t, struct matcher_term *mt,
		      sym_t *own_ns)
{
	memset(mt, 0, sizeof(*mt));
	if (t->nnamespaces == 0 && !t->ns_sel_src.present) {
		*own_ns = owner->ns;
		mt->namespaces = own_ns;
		mt->nnamespaces = 1;
	} else {
		mt->namespaces = t->namespaces;
		mt->nnamespaces = t->nnamespaces;
		if (t->ns_sel_src.present) {
			if (t->ns_sel.kind == SEL_EVERYTHING)
				mt->all_namespaces = true;
			else {
				mt->has_ns_sel = true;
				mt->ns_sel = t->ns_sel;
			}
		}
	}
	mt->sel = t->sel;
}

/* Adds per-node counts of matcher m at each node's value for key. */
static int add_matcher_counts(struct cluster *c, struct keymap *km, struct matcher *m, sym_t key, int64_t mult)
{
	const struct key_index *ki = cluster_key_index(c, key);
	if (!ki)
		return 0;
	if (mult == 1 && !keymap_find(km, key) && key_on_every_node(c, ki)) {
		/* the first counts under key, every live node carrying it:
		 * the matcher's sums per value are these counts; the map
		 * reads them (kept exact by every bind) until something is
		 * added to it. A node with a count has the key, so the map
		 * records an entry when the matcher counts a pod. */
		const int64_t *sum = matcher_domain_sums(c, m, key);
		if (!sum || !(ki = cluster_key_index(c, key)) || !keymap_new(km, ki, key, sum))
			return 0;
		km->any |= m->total > 0;
		return 1;
	}
	if (!keymap_get(c, km, key))
		return 0;
	const uint32_t *pn = m->per_node;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!pn[id] || !(c->nflag[id] & NF_ALIVE))
			continue;
		if (!keymap_add(c, km, id, key, mult * (int64_t)m->per_node[id]))
			return 0;
	}
	return 1;
}

/* Adds, per node, weight x the bound pods carrying term class tc at the
 * node's value for the class's key; with skip_unlabelled, nodes without
 * any label are passed over (scoring.go processExistingPod). */
static int add_class_counts(struct cluster *c, struct keymap *km, const struct term_class *tc,
			    int64_t weight, bool skip_unlabelled)
{
	for (uint32_t i = 0; tc->node_keys && i <= tc->mask; i++) {
		if (!tc->node_keys[i] || !tc->node_counts[i])
			continue;
		uint32_t id = tc->node_keys[i] - 1;
		const struct node *n = &c->nodes[id];
		if (!n->alive || (skip_unlabelled && !n->labels.n))
			continue;
		if (!keymap_add(c, km, id, tc->topology_key, weight * (int64_t)tc->node_counts[i]))
			return 0;
	}
	return 1;
}

/* The term classes listed by namespace: most terms name their owner's
 * namespace only, so an incoming pod tests the classes of its namespace
 * and those that may reach any namespace (list 0). Classes are never
 * removed; the index takes in the new ones on each use. */
struct term_ent {
	uint32_t id;              /* class index */
	enum term_kind kind;
	/* the selector requires label akey = aval (matchLabels, or In of
	 * one value); akey SYM_NONE when it has no such requirement. A pod
	 * without that label value is passed over without reading the
	 * class (classes are many, and most select other workloads). */
	sym_t akey, aval;
};

struct idvec {
	struct term_ent *v;
	uint32_t n, cap;
};

struct term_ns_index {
	uint32_t nbuilt;          /* classes indexed so far */
	sym_t *ns;                /* open addressing: namespace, 0 = empty */
	uint32_t *list;           /* its list index */
	uint32_t mask, nused;
	struct idvec *lists;      /* [0]: any namespace */
	uint32_t nlists;
};

void term_ns_index_free(struct term_ns_index *x)
{
	if (!x)
		return;
	for (uint32_t i = 0; i < x->nlists; i++)
		free(x->lists[i].v);
	free(x->lists);
	free(x->ns);
	free(x->list);
	free(x);
}

static int idvec_push(struct idvec *v, const struct term_class *tc, uint32_t id)
{
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 8;
		struct term_ent *nv = realloc(v->v, cap * sizeof(*nv));
		if (!nv)
			return 0;
		v->v = nv;
		v->cap = cap;
	}
	struct term_ent *e = &v->v[v->n++];
	*e = (struct term_ent){ .id = id, .kind = tc->kind };
	const struct selector *sel = &tc->term.sel;
	for (uint32_t r = 0; sel->kind == SEL_REQS && r < sel->n && !e->akey; r++) {
		const struct sel_req *rq = &sel->reqs[r];
		if ((rq->op == SEL_EQ || rq->op == SEL_IN) && rq->nvals == 1) {
			e->akey = rq->key;
			e->aval = rq->vals[0];
		}
	}
	return 1;
}

/* The class of e may match a pod with these labels (its anchor holds). */
static inline bool ent_may_match(const struct term_ent *e, const struct labels *labels)
{
	return !e->akey || labels_get(labels, e->akey) == e->aval;
}

static uint32_t ns_slot(const struct term_ns_index *x, sym_t ns)
{
	uint32_t i = (ns * 2654435761u) & x->mask;
	while (x->ns[i] && x->ns[i] != ns)
		i = (i + 1) & x->mask;
	return i;
}

static int ns_grow(struct term_ns_index *x)
{
	uint32_t cap = x->ns ? (x->mask + 1) * 2 : 64;
	struct term_ns_index nx = *x;
	nx.ns = calloc(cap, sizeof(*nx.ns));
	nx.list = malloc(cap * sizeof(*nx.list));
	nx.mask = cap - 1;
	if (!nx.ns || !nx.list) {
		free(nx.ns);
		free(nx.list);
		return 0;
	}
	for (uint32_t i = 0; x->ns && i <= x->mask; i++) {
		if (!x->ns[i])
			continue;
		uint32_t j = ns_slot(&nx, x->ns[i]);
		nx.ns[j] = x->ns[i];
		nx.list[j] = x->list[i];
	}
	free(x->ns);
	free(x->list);
	*x = nx;
	return 1;
}

/* The list of namespace ns (0 for "any"), created when create; NULL when
 * absent or on OOM. */
static struct idvec *ns_list(struct term_ns_index *x, sym_t ns, bool create)
{
	if (ns == SYM_NONE)
		return &x->lists[0];
	uint32_t i = ns_slot(x, ns);
	if (x->ns[i])
		return &x->lists[x->list[i]];
	if (!create)
		return NULL;
	if ((x->nused + 1) * 2 > x->mask + 1) {
		if (!ns_grow(x))
			return NULL;
		i = ns_slot(x, ns);
	}
	struct idvec *nl = realloc(x->lists, (x->nlists + 1) * sizeof(*nl));
	if (!nl)
		return NULL;
	x->lists = nl;
	memset(&nl[x->nlists], 0, sizeof(*nl));
	x->ns[i] = ns;
	x->list[i] = x->nlists;
	x->nused++;
	return &nl[x->nlists++];
}

/* The classes that may hold terms reaching namespace ns: *own (ns's) and
 * *any. 0 on OOM. */
static int term_lists(struct scheduler *sch, sym_t ns, const struct idvec **own, const struct idvec **any)
{
	const struct cluster *c = sch->c;
	struct term_ns_index *x = sch->term_ns;
	if (!x) {
		if (!(x = sch->term_ns = calloc(1, sizeof(*x))))
			return 0;
		if (!(x->lists = calloc(1, sizeof(*x->lists))) || !ns_grow(x)) {
			term_ns_index_free(x);
			sch->term_ns = NULL;
			return 0;
		}
		x->nlists = 1;
	}
	for (; x->nbuilt < c->nterms; x->nbuilt++) {
		const struct matcher_term *t = &c->terms[x->nbuilt].term;
		bool single = !t->all_namespaces && !t->has_ns_sel && t->nnamespaces == 1;
		struct idvec *l = ns_list(x, single ? t->namespaces[0] : SYM_NONE, true);
		if (!l || !idvec_push(l, &c->terms[x->nbuilt], x->nbuilt))
			return 0;
	}
	static const struct idvec none;
	const struct idvec *o = ns_list(x, ns, false);
	*own = o ? o : &none;
	*any = &x->lists[0];
	return 1;
}

static bool has_key(const struct keymap *m)
{
	return m->any;
}

/* interpodaffinity/filtering.go PreFilter */
struct ipa_state *ipa_prepare(struct scheduler *sch, const struct pod *p)
{
	assert(sch && p);
	struct cluster *c = sch->c;
	struct ipa_state *s = calloc(1, sizeof(*s));
	struct matcher_term *mts = NULL;
	sym_t *own = NULL;
	if (!s)
		return NULL;
	s->pod = p;
	s->sch = sch;
	const struct affinity *a = &p->spec.affinity;
	uint32_t naff = p->spec.has_affinity ? a->naff_req : 0;
	uint32_t nanti = p->spec.has_affinity ? a->nanti_req : 0;
	uint32_t nt = naff > nanti ? naff : nanti;
	struct matcher *all = NULL;
	struct matcher **anti = NULL;

	if (nt) {
		mts = calloc(nt, sizeof(*mts));
		own = calloc(nt, sizeof(*own));
		anti = calloc(nt, sizeof(*anti));
		if (!mts || !own || !anti)
			goto error;
	}
	/* matchers first: creating one may intern its key, so the value
	 * arrays are sized afterwards */
	if (naff) {
		for (uint32_t i = 0; i < naff; i++)
			ipa_term_matcher(p, &a->aff_req[i], &mts[i], &own[i]);
		all = cluster_matcher(c, mts, naff, false);
		if (!all)
			goto error;
		s->self_match = true;
		for (uint32_t i = 0; i < naff; i++)
			if (!matcher_term_matches(c, &mts[i], p->ns, &p->labels))
				s->self_match = false;
	}
	for (uint32_t i = 0; i < nanti; i++) {
		ipa_term_matcher(p, &a->anti_req[i], &mts[i], &own[i]);
		anti[i] = cluster_matcher(c, &mts[i], 1, false);
		if (!anti[i])
			goto error;
	}

	/* getIncomingAffinityAntiAffinityCounts */
	for (uint32_t i = 0; i < naff; i++) {
		bool dup = false;
		for (uint32_t j = 0; j < i; j++)
			dup |= a->aff_req[j].topology_key == a->aff_req[i].topology_key;
		if (!dup && !add_matcher_counts(c, &s->aff, all, a->aff_req[i].topology_key, 1))
			goto error;
	}
	for (uint32_t i = 0; i < nanti; i++)
		if (!add_matcher_counts(c, &s->anti, anti[i], a->anti_req[i].topology_key, 1))
			goto error;

	/* getExistingAntiAffinityCounts, one test per distinct term that can
	 * reach the pod's namespace */
	const struct idvec *lists[2];
	if (!term_lists(sch, p->ns, &lists[0], &lists[1]))
		goto error;
	for (int l = 0; l < 2; l++) {
		for (uint32_t j = 0; j < lists[l]->n; j++) {
			const struct term_ent *e = &lists[l]->v[j];
			if (e->kind != TERM_ANTI_REQ || !ent_may_match(e, &p->labels))
				continue;
			const struct term_class *tc = &c->terms[e->id];
			if (!tc->total ||
			    !matcher_term_matches(c, &tc->term, p->ns, &p->labels))
				continue;
			if (!add_class_counts(c, &s->existing, tc, 1, false))
				goto error;
		}
	}
	s->skip = !has_key(&s->existing) && naff == 0 && nanti == 0;
	/* the maps are complete: their entries no longer move */
	if ((naff && !(s->aff_kv = malloc(naff * sizeof(*s->aff_kv)))) ||
	    (nanti && !(s->anti_kv = malloc(nanti * sizeof(*s->anti_kv)))))
		goto error;
	for (uint32_t i = 0; i < naff; i++)
		s->aff_kv[i] = keymap_find(&s->aff, a->aff_req[i].topology_key);
	for (uint32_t i = 0; i < nanti; i++)
		s->anti_kv[i] = keymap_find(&s->anti, a->anti_req[i].topology_key);
	free(mts);
	free(own);
	free(anti);
	return s;
error:
	free(mts);
	free(own);
	free(anti);
	ipa_free(s);
	return NULL;
}

/* The sums per value add_matcher_counts reads for m's counts under key */
static int warm_sums(struct cluster *c, struct matcher *m, sym_t key)
{
	const struct key_index *ki = cluster_key_index(c, key);
	if (!ki)
		return 0;
	return !key_on_every_node(c, ki) || matcher_domain_sums(c, m, key);
}

int ipa_warm(struct cluster *c, const struct pod *p)
{
	if (!p->spec.has_affinity)
		return 1;
	const struct affinity *a = &p->spec.affinity;
	uint32_t nt = a->naff_req > 1 ? a->naff_req : 1;
	struct matcher_term *mts = calloc(nt, sizeof(*mts));
	sym_t *own = calloc(nt, sizeof(*own));
	int ok = mts && own;
	/* the matchers ipa_prepare and ipa_prescore ask for */
	for (uint32_t i = 0; ok && i < a->naff_req; i++)
		ipa_term_matcher(p, &a->aff_req[i], &mts[i], &own[i]);
	if (ok && a->naff_req) {
		struct matcher *all = cluster_matcher(c, mts, a->naff_req, false);
		ok = all != NULL;
		for (uint32_t i = 0; ok && i < a->naff_req; i++)
			ok = warm_sums(c, all, a->aff_req[i].topology_key);
	}
	for (uint32_t i = 0; ok && i < a->nanti_req; i++) {
		ipa_term_matcher(p, &a->anti_req[i], &mts[0], &own[0]);
		struct matcher *m = cluster_matcher(c, &mts[0], 1, false);
		ok = m && warm_sums(c, m, a->anti_req[i].topology_key);
	}
	for (uint32_t i = 0; ok && i < a->naff_pref; i++) {
		ipa_term_matcher(p, &a->aff_pref[i].term, &mts[0], &own[0]);
		ok = cluster_matcher(c, &mts[0], 1, false) != NULL;
	}
	for (uint32_t i = 0; ok && i < a->nanti_pref; i++) {
		ipa_term_matcher(p, &a->anti_pref[i].term, &mts[0], &own[0]);
		ok = cluster_matcher(c, &mts[0], 1, false) != NULL;
	}
	free(mts);
	free(own);
	return ok;
}

void ipa_free(struct ipa_state *s)
{
	if (!s)
		return;
	keymap_fini(&s->aff);
	keymap_fini(&s->anti);
	keymap_fini(&s->existing);
	keymap_fini(&s->score);
	free(s->aff_kv);
	free(s->anti_kv);
	free(s);
}

bool ipa_filter_skipped(const struct ipa_state *s)
{
	assert(s);
	return s->skip;
}

/* interpodaffinity/filtering.go satisfyPodAffinity; returns the failing
 * term index or -1. */
static int32_t affinity_fails(const struct cluster *c, uint32_t id, const struct pod *p,
			      const struct ipa_state *s)
{
	const struct affinity *a = &p->spec.affinity;
	uint32_t naff = p->spec.has_affinity ? a->naff_req : 0;
	int32_t zero = -1;
	for (uint32_t i = 0; i < naff; i++) {
		bool has;
		int64_t cnt = 0;
		if (s->aff_kv[i])
			cnt = kv_at(s->aff_kv[i], id, &has);
		else
			has = labels_get(&c->nodes[id].labels, a->aff_req[i].topology_key) != SYM_NONE;
		if (!has)
			return (int32_t)i; /* every topology label must exist */
		if (cnt <= 0 && zero < 0)
			zero = (int32_t)i;
	}
	if (zero < 0)
		return -1;
	/* first-pod rule: nothing matches anywhere and the pod matches itself */
	if (!has_key(&s->aff) && s->self_match)
		return -1;
	return zero;
}

/* satisfyPodAntiAffinity: counts are keyed by (key, value) across terms */
static int32_t anti_fails(uint32_t id, const struct pod *p, const struct ipa_state *s)
{
	if (!has_key(&s->anti))
		return -1;
	const struct affinity *a = &p->spec.affinity;
	for (uint32_t i = 0; i < a->nanti_req; i++) {
		bool has;
		/* no map: nothing counted under the key, the term passes */
		if (s->anti_kv[i] && kv_at(s->anti_kv[i], id, &has) > 0)
			return (int32_t)i;
	}
	return -1;
}

/* satisfyExistingPodsAntiAffinity: any label of the node hits a marked pair */
static bool existing_anti_fails(uint32_t id, const struct ipa_state *s)
{
	if (!has_key(&s->existing))
		return false;
	for (uint32_t i = 0; i < s->existing.n; i++) {
		bool has;
		if (kv_at(&s->existing.kv[i], id, &has) > 0)
			return true;
	}
	return false;
}

/* fail[id] set for every node whose value of kv's key has a count */
static void mask_counted(const struct keyvals *kv, uint32_t n, uint8_t *fail)
{
	/* in locals: the byte stores may alias any field of *kv */
	const int32_t *kdom = kv->kdom;
	const int64_t *vs = kv->vs;
	for (uint32_t id = 0; id < n; id++) {
		int32_t v = kdom[id];
		fail[id] |= v >= 0 && vs[v] > 0;
	}
}

/* interpodaffinity/filtering.go Filter's answer for every node id at
 * once, term by term:
 * fail[id] is 1 when the node fails (satisfyPodAffinity,
 * satisfyPodAntiAffinity or satisfyExistingPodsAntiAffinity), the same
 * verdict as filter_inter_pod_affinity. */
void ipa_filter_mask(const struct cluster *c, const struct pod *p, const struct ipa_state *s, uint8_t *fail)
{
	uint32_t n = c->nnodes;
	memset(fail, 0, n);
	if (s->skip)
		return;
	const struct affinity *a = &p->spec.affinity;
	uint32_t naff = p->spec.has_affinity ? a->naff_req : 0;
	uint32_t nanti = p->spec.has_affinity ? a->nanti_req : 0;
	/* a zero count fails unless the first-pod rule lets the pod in */
	bool zero_fails = has_key(&s->aff) || !s->self_match;
	for (uint32_t i = 0; i < naff; i++) {
		const struct keyvals *kv = s->aff_kv[i];
		sym_t key = a->aff_req[i].topology_key;
		for (uint32_t id = 0; id < n; id++) {
			if (!(c->nflag[id] & NF_ALIVE))
				continue;
			bool has;
			int64_t cnt = 0;
			if (kv)
				cnt = kv_at(kv, id, &has);
			else
				has = labels_get(&c->nodes[id].labels, key) != SYM_NONE;
			fail[id] |= !has || (cnt <= 0 && zero_fails);
		}
	}
	for (uint32_t i = 0; i < nanti && has_key(&s->anti); i++)
		if (s->anti_kv[i])
			mask_counted(s->anti_kv[i], n, fail);
	for (uint32_t i = 0; i < s->existing.n && has_key(&s->existing); i++)
		mask_counted(&s->existing.kv[i], n, fail);
}

/* interpodaffinity/filtering.go Filter */
int filter_inter_pod_affinity(const struct cluster *c, const struct pod *p, const struct node *n,
			      const struct ipa_state *s, struct node_rec *r)
{
	assert(c && p && n && s && r);
	if (s->skip)
		return 1;
	uint32_t id = (uint32_t)(n - c->nodes);
	int32_t t = affinity_fails(c, id, p, s);
	if (t >= 0) {
		r->why.ipa.what = IPA_AFFINITY;
		r->why.ipa.term = (uint32_t)t;
		r->unresolvable = true;
		return 0;
	}
	t = anti_fails(id, p, s);
	if (t >= 0) {
		r->why.ipa.what = IPA_ANTI;
		r->why.ipa.term = (uint32_t)t;
		r->unresolvable = false;
		return 0;
	}
	if (existing_anti_fails(id, s)) {
		r->why.ipa.what = IPA_EXISTING_ANTI;
		r->why.ipa.term = 0;
		r->unresolvable = false;
		return 0;
	}
	return 1;
}

/* Incoming preferred term (weight w, sign mult): matching pods per node. */
static int score_incoming_term(struct cluster *c, struct ipa_state *s, const struct pod *p,
			       const struct pod_affinity_term *t, int64_t w)
{
	struct matcher_term mt;
	sym_t own;
	ipa_term_matcher(p, t, &mt, &own);
	struct matcher *m = cluster_matcher(c, &mt, 1, false);
	if (!m)
		return 0;
	return add_matcher_counts(c, &s->score, m, t->topology_key, w);
}

/* interpodaffinity/scoring.go PreScore */
bool ipa_prescore(struct cluster *c, const struct pod *p, struct ipa_state *s)
{
	assert(c && p && s);
	keymap_fini(&s->score);
	s->scored = false;
	const struct affinity *a = &p->spec.affinity;
	bool has_pref = p->spec.has_affinity && (a->naff_pref || a->nanti_pref);
	if (has_pref) {
		for (uint32_t i = 0; i < a->naff_pref; i++)
			if (!score_incoming_term(c, s, p, &a->aff_pref[i].term, a->aff_pref[i].weight))
				goto oom;
		for (uint32_t i = 0; i < a->nanti_pref; i++)
			if (!score_incoming_term(c, s, p, &a->anti_pref[i].term, -(int64_t)a->anti_pref[i].weight))
				goto oom;
	}
	/* existing pods' terms that match the incoming pod, one test per
	 * distinct term; required affinity scores hardPodAffinityWeight (1) */
	const struct idvec *lists[2];
	if (!term_lists(s->sch, p->ns, &lists[0], &lists[1]))
		goto oom;
	for (int l = 0; l < 2; l++) {
		for (uint32_t j = 0; j < lists[l]->n; j++) {
			const struct term_ent *e = &lists[l]->v[j];
			if (e->kind == TERM_ANTI_REQ || !ent_may_match(e, &p->labels))
				continue;
			const struct term_class *tc = &c->terms[e->id];
			int64_t w;
			switch (tc->kind) {
			case TERM_AFF_REQ: w = 1; break;
			case TERM_AFF_PREF: w = tc->weight; break;
			case TERM_ANTI_PREF: w = -(int64_t)tc->weight; break;
			default: continue; /* required anti-affinity is not scored */
			}
			if (!tc->total || !matcher_term_matches(c, &tc->term, p->ns, &p->labels))
				continue;
			if (!add_class_counts(c, &s->score, tc, w, true))
				goto oom;
		}
	}
	s->scored = has_key(&s->score);
	return s->scored;
oom:
	/* without memory the scores cannot be exact: behave as Skip */
	keymap_fini(&s->score);
	return false;
}

/* interpodaffinity/scoring.go Score of node id: its values' amounts
 * under every topology key */
static inline int64_t score_at(const struct ipa_state *s, uint32_t id)
{
	int64_t sum = 0;
	for (uint32_t i = 0; i < s->score.n; i++) {
		bool has;
		sum += kv_at(&s->score.kv[i], id, &has);
	}
	return sum;
}

int64_t score_inter_pod_affinity(const struct cluster *c, const struct node *n, const struct ipa_state *s)
{
	assert(c && n && s);
	return score_at(s, (uint32_t)(n - c->nodes));
}

void ipa_score_all(const struct ipa_state *s, const uint32_t *ids, uint32_t nf, int64_t *raw, bool by_id,
		   int64_t *lo, int64_t *hi)
{
	int64_t l = *lo, h = *hi;
	if (s->score.n == 1) {
		/* one topology key (the usual hostname): two loads a node */
		const int32_t *kd = s->score.kv[0].kdom;
		const int64_t *vs = s->score.kv[0].vs;
		for (uint32_t i = 0; i < nf; i++) {
			int32_t v = kd[ids[i]];
			int64_t sum = v >= 0 ? vs[v] : 0;
			raw[by_id ? ids[i] : i] = sum;
			l = sum < l ? sum : l;
			h = sum > h ? sum : h;
		}
	} else {
		for (uint32_t i = 0; i < nf; i++) {
			int64_t sum = score_at(s, ids[i]);
			raw[by_id ? ids[i] : i] = sum;
			l = sum < l ? sum : l;
			h = sum > h ? sum : h;
		}
	}
	*lo = l;
	*hi = h;
}

/* interpodaffinity/scoring.go NormalizeScore over the feasible, scored recs */
void ipa_normalize(struct decision *d)
{
	assert(d);
	const int p = PL_INTER_POD_AFFINITY;
	int64_t min = INT64_MAX, max = INT64_MIN;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (!r->feasible || !r->scored[p])
			continue;
		if (r->raw[p] > max)
			max = r->raw[p];
		if (r->raw[p] < min)
			min = r->raw[p];
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct node_rec *r = &d->nodes[i];
		if (r->feasible && r->scored[p])
			r->norm[p] = (int16_t)ipa_normalize_one(r->raw[p], min, max);
	}
}


static int prefilter(struct cycle_state *x)
{
	return (x->is = ipa_prepare(x->sch, x->p)) != NULL;
}

static void prefilter_fini(struct cycle_state *x)
{
	ipa_free(x->is);
	x->is = NULL;
}

/* PreFilter returns Skip without affinity terms of its own or of others */
static bool filter_skip(const struct cycle_state *x)
{
	return !x->is || ipa_filter_skipped(x->is);
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_inter_pod_affinity(x->c, x->p, &x->c->nodes[id], x->is, r);
}

static bool prescore(struct cycle_state *x, const uint32_t *ids, uint32_t nf)
{
	(void)ids, (void)nf;
	return ipa_prescore(x->c, x->p, x->is);
}

static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	return score_inter_pod_affinity(x->c, &x->c->nodes[id], x->is);
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d;
	snprintf(buf, len, "%s", r->why.ipa.what == IPA_AFFINITY ? "node(s) didn't match pod affinity rules" :
		 r->why.ipa.what == IPA_ANTI ? "node(s) didn't match pod anti-affinity rules" :
		 "node(s) didn't satisfy existing pods anti-affinity rules");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d;
	snprintf(buf, len, "%s", r->why.ipa.what == IPA_AFFINITY ?
		 "no pod matching the required affinity terms in this node's topology domain" :
		 r->why.ipa.what == IPA_ANTI ?
		 "a pod matching a required anti-affinity term runs in this node's topology domain" :
		 "an existing pod's required anti-affinity matches this pod in this domain");
}

const struct plugin_ops plugin_inter_pod_affinity = {
	.code = "PodAff",
	.prefilter = prefilter,
	.prefilter_fini = prefilter_fini,
	.filter_skip = filter_skip,
	.filter = filter,
	.prescore = prescore,
	.score = score,
	.normalize = ipa_normalize,
	.reason = reason,
	.detail = detail,
};
