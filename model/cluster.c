/* cluster.c - live cluster state and its incremental indices. */
#include "cluster.h"
#include "ufmt.h"
#include "../util/hmap.h"
#include "version.h"

#include <assert.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A growable list of ids. */
struct idlist {
	uint32_t *v;
	uint32_t n, cap;
};

struct index {
	int32_t *node_by_name; /* name sym -> node id + 1 (0: none) */
	uint32_t node_by_name_len;
	struct hmap pods;       /* (namespace, name) -> pod id; a deleted pod keeps its key */
	int32_t *matcher_by_key; /* key sym -> matcher index + 1 */
	uint32_t matcher_by_key_len;
	/* label pair (key, value) -> list index, for the two lists below */
	struct hmap pair_ix;
	struct idlist *postings;  /* per pair: every pod ever added with it */
	struct idlist *anchored;  /* per pair: matchers anchored on it */
	uint32_t npairs, pair_cap;
	struct idlist unanchored; /* matchers with no equality to anchor on */
};

static int idlist_add(struct idlist *l, uint32_t id)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 4;
		uint32_t *nv = realloc(l->v, cap * sizeof(*nv));
		if (!nv)
			return 0;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = id;
	return 1;
}

static int grow_symmap(int32_t **map, uint32_t *len, uint32_t need)
{
	if (need < *len)
		return 1;
	uint32_t n = *len ? *len : 256;
	while (n <= need)
		n *= 2;
	int32_t *m = realloc(*map, n * sizeof(*m));
	if (!m)
		return 0;
	memset(m + *len, 0, (n - *len) * sizeof(*m));
	*map = m;
	*len = n;
	return 1;
}

struct cluster *cluster_new(void)
{
	struct cluster *c = calloc(1, sizeof(*c));
	struct index *ix = calloc(1, sizeof(*ix));
	if (!c || !ix || !(c->in = intern_new())) {
		free(ix);
		if (c)
			free(c);
		return NULL;
	}
	if (!(c->res_log = malloc(RES_LOG_LEN * sizeof(*c->res_log)))) {
		intern_free(c->in);
		free(ix);
		free(c);
		return NULL;
	}
	c->name_index = ix;
	sched_config_defaults(&c->cfg);
	c->sym_hostname = intern_str(c->in, "kubernetes.io/hostname");
	c->sym_zone = intern_str(c->in, "topology.kubernetes.io/zone");
	c->sym_ns_name_label = intern_str(c->in, "kubernetes.io/metadata.name");
	c->sym_default = intern_str(c->in, "default");
	c->sym_empty = intern_str(c->in, "");
	c->sym_unsched_taint = intern_str(c->in, "node.kubernetes.io/unschedulable");
	if (!c->sym_unsched_taint) {
		cluster_free(c);
		return NULL;
	}
	return c;
}

static void matcher_free(struct matcher *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nterms; i++) {
		free(m->terms[i].namespaces);
		selector_fini(&m->terms[i].ns_sel);
		selector_fini(&m->terms[i].sel);
	}
	free(m->terms);
	free(m->key);
	free(m->per_node);
	for (uint32_t i = 0; i < m->nmdoms; i++)
		free(m->mdoms[i].sum);
	free(m->mdoms);
	free(m);
}

/* ---- spec lists shared by bound pods ---- */

struct spec_ent {
	uint64_t hash;
	uint8_t what;              /* SPEC_SHARED_TOLS or SPEC_SHARED_TSCS */
	uint32_t n;
	void *v;
};
struct spec_pool {
	struct spec_ent *v;
	uint32_t n, cap;
	uint32_t *slots;           /* index + 1; 0 = empty */
	uint32_t mask;
};

static uint64_t hmix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 31);
}

static uint64_t tols_hash(const struct toleration *t, uint32_t n)
{
	uint64_t h = hmix(1, n);
	for (uint32_t i = 0; i < n; i++)
		h = hmix(hmix(hmix(h, t[i].key), (uint64_t)t[i].value << 8 | (uint64_t)t[i].op),
			 (uint64_t)t[i].effect_text << 8 | (uint64_t)t[i].effect);
	return h;
}

static uint64_t tscs_hash(const struct tsc *t, uint32_t n)
{
	uint64_t h = hmix(2, n);
	for (uint32_t i = 0; i < n; i++) {
		h = hmix(hmix(h, (uint64_t)(uint32_t)t[i].max_skew << 32 | t[i].topology_key), t[i].when);
		for (uint32_t j = 0; j < t[i].selector.match_labels.n; j++)
			h = hmix(h, (uint64_t)t[i].selector.match_labels.v[j].key << 32 |
					    t[i].selector.match_labels.v[j].val);
	}
	return h;
}

static uint64_t sel_src_hash(uint64_t h, const struct label_selector_src *s)
{
	h = hmix(h, (uint64_t)s->present << 32 | s->nexprs);
	for (uint32_t j = 0; j < s->match_labels.n; j++)
		h = hmix(h, (uint64_t)s->match_labels.v[j].key << 32 | s->match_labels.v[j].val);
	for (uint32_t j = 0; j < s->nexprs; j++) {
		h = hmix(h, (uint64_t)s->exprs[j].key << 32 | s->exprs[j].op);
		for (uint32_t k = 0; k < s->exprs[j].nvals; k++)
			h = hmix(h, s->exprs[j].vals[k]);
	}
	return h;
}

static uint64_t paterm_hash(uint64_t h, const struct pod_affinity_term *t, int32_t weight)
{
	h = hmix(h, (uint64_t)t->topology_key << 32 | (uint32_t)weight);
	return sel_src_hash(h, &t->sel_src);
}

static uint64_t sel_reqs_hash(uint64_t h, const struct sel_req *r, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		h = hmix(h, (uint64_t)r[j].key << 32 | (uint32_t)r[j].op);
		for (uint32_t k = 0; k < r[j].nvals; k++)
			h = hmix(h, r[j].vals[k]);
	}
	return h;
}

/* Every selector's labels and values: pods of different workloads
 * differ there, and equal hashes cost a deep affinity_equal each */
static uint64_t aff_hash(const struct affinity *a)
{
	uint64_t h = hmix(hmix(3, (uint64_t)a->node.nreq << 32 | a->node.npref),
			  (uint64_t)a->naff_req << 48 | (uint64_t)a->naff_pref << 32 |
				  (uint64_t)a->nanti_req << 16 | a->nanti_pref);
	for (uint32_t i = 0; i < a->naff_req; i++)
		h = paterm_hash(h, &a->aff_req[i], 0);
	for (uint32_t i = 0; i < a->nanti_req; i++)
		h = paterm_hash(h, &a->anti_req[i], 0);
	for (uint32_t i = 0; i < a->naff_pref; i++)
		h = paterm_hash(h, &a->aff_pref[i].term, a->aff_pref[i].weight);
	for (uint32_t i = 0; i < a->nanti_pref; i++)
		h = paterm_hash(h, &a->anti_pref[i].term, a->anti_pref[i].weight);
	for (uint32_t i = 0; i < a->node.nreq; i++) {
		h = sel_reqs_hash(h, a->node.req[i].exprs, a->node.req[i].nexprs);
		h = sel_reqs_hash(h, a->node.req[i].fields, a->node.req[i].nfields);
	}
	for (uint32_t i = 0; i < a->node.npref; i++) {
		h = hmix(h, (uint32_t)a->node.pref[i].weight);
		h = sel_reqs_hash(h, a->node.pref[i].term.exprs, a->node.pref[i].term.nexprs);
	}
	return h;
}

/* Whether admission leaves a bound pod's affinity as it is (no
 * matchLabelKeys to merge, validate.c admit_pa_term): else it is the
 * pod's own. */
static bool aff_fixed(const struct affinity *a)
{
	for (uint32_t i = 0; i < a->naff_req; i++)
		if (a->aff_req[i].nmlk || a->aff_req[i].nmmlk)
			return false;
	for (uint32_t i = 0; i < a->nanti_req; i++)
		if (a->anti_req[i].nmlk || a->anti_req[i].nmmlk)
			return false;
	for (uint32_t i = 0; i < a->naff_pref; i++)
		if (a->aff_pref[i].term.nmlk || a->aff_pref[i].term.nmmlk)
			return false;
	for (uint32_t i = 0; i < a->nanti_pref; i++)
		if (a->anti_pref[i].term.nmlk || a->anti_pref[i].term.nmmlk)
			return false;
	return true;
}

static uint64_t labels_hash(const struct labels *l)
{
	uint64_t h = hmix(4, l->n);
	for (uint32_t i = 0; i < l->n; i++)
		h = hmix(h, (uint64_t)l->v[i].key << 32 | l->v[i].val);
	return h;
}

static uint64_t owners_hash(const struct owner_ref *o, uint32_t n)
{
	uint64_t h = hmix(5, n);
	for (uint32_t i = 0; i < n; i++)
		h = hmix(hmix(h, (uint64_t)o[i].kind << 32 | o[i].name), (uint64_t)o[i].uid << 32 | o[i].api_version);
	return h;
}

static bool owners_equal(const struct owner_ref *a, const struct owner_ref *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].name != b[i].name || a[i].api_version != b[i].api_version ||
		    a[i].controller != b[i].controller || a[i].uid != b[i].uid)
			return false;
	return true;
}

static void spec_ent_free(struct spec_ent *e)
{
	if (e->what == SPEC_SHARED_AFF)
		affinity_fini(e->v);
	if (e->what == SPEC_SHARED_LABELS)
		labels_fini(e->v);
	if (e->what == SPEC_SHARED_TSCS)
		for (uint32_t i = 0; i < e->n; i++)
			tsc_fini(&((struct tsc *)e->v)[i]);
	free(e->v);
}

static void spec_pool_free(struct spec_pool *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->n; i++)
		spec_ent_free(&p->v[i]);
	free(p->v);
	free(p->slots);
	free(p);
}

static int spec_pool_grow(struct spec_pool *p)
{
	uint32_t ncap = p->cap ? p->cap * 2 : 64, nmask = ncap * 2 - 1;
	struct spec_ent *v = realloc(p->v, (size_t)ncap * sizeof(*v));
	uint32_t *slots;
	if (!v)
		return 0;
	p->v = v;
	if (!(slots = calloc((size_t)nmask + 1, sizeof(*slots))))
		return 0;
	for (uint32_t i = 0; i < p->n; i++) {
		uint32_t h = (uint32_t)p->v[i].hash & nmask;
		while (slots[h])
			h = (h + 1) & nmask;
		slots[h] = i + 1;
	}
	free(p->slots);
	p->slots = slots;
	p->mask = nmask;
	p->cap = ncap;
	return 1;
}

/* The pool's list equal to v (n entries of kind what), or v itself made
 * the pool's; NULL on OOM (v stays the caller's). */
static void *spec_pool_share(struct spec_pool *p, uint8_t what, void *v, uint32_t n)
{
	uint64_t hash = what == SPEC_SHARED_TOLS ? tols_hash(v, n) :
			what == SPEC_SHARED_TSCS ? tscs_hash(v, n) :
			what == SPEC_SHARED_LABELS ? labels_hash(v) :
			what == SPEC_SHARED_OWNERS ? owners_hash(v, n) : aff_hash(v);
	uint32_t h;
	if (p->slots)
		for (h = (uint32_t)hash & p->mask; p->slots[h]; h = (h + 1) & p->mask) {
			struct spec_ent *e = &p->v[p->slots[h] - 1];
			if (e->hash == hash && e->what == what && e->n == n &&
			    (what == SPEC_SHARED_TOLS ? tolerations_equal(e->v, v, n) :
			     what == SPEC_SHARED_TSCS ? tsc_list_equal(e->v, v, n) :
			     what == SPEC_SHARED_LABELS ? labels_equal(e->v, v) :
			     what == SPEC_SHARED_OWNERS ? owners_equal(e->v, v, n) : affinity_equal(e->v, v))) {
				struct spec_ent mine = {hash, what, n, v};
				spec_ent_free(&mine);
				return e->v;
			}
		}
	if (p->n == p->cap && !spec_pool_grow(p))
		return NULL;
	for (h = (uint32_t)hash & p->mask; p->slots[h]; h = (h + 1) & p->mask)
		;
	p->v[p->n] = (struct spec_ent){hash, what, n, v};
	p->slots[h] = ++p->n;
	return v;
}

void cluster_share_spec(struct cluster *c, struct pod_spec *sp)
{
	void *v;
	if (!c->spool && !(c->spool = calloc(1, sizeof(*c->spool))))
		return;
	if (sp->ntols && !(sp->shared & SPEC_SHARED_TOLS) &&
	    (v = spec_pool_share(c->spool, SPEC_SHARED_TOLS, sp->tols, sp->ntols))) {
		sp->tols = v;
		sp->shared |= SPEC_SHARED_TOLS;
	}
	/* the affinity by value in the pod, its lists shared: a copy of
	 * the struct is the pool's */
	if (sp->has_affinity && !(sp->shared & SPEC_SHARED_AFF) && aff_fixed(&sp->affinity)) {
		struct affinity *a = malloc(sizeof(*a));
		if (a) {
			*a = sp->affinity;
			if ((v = spec_pool_share(c->spool, SPEC_SHARED_AFF, a, 1))) {
				sp->affinity = *(struct affinity *)v;
				sp->shared |= SPEC_SHARED_AFF;
			} else {
				free(a);
			}
		}
	}
	if (sp->ntscs && !(sp->shared & SPEC_SHARED_TSCS) &&
	    (v = spec_pool_share(c->spool, SPEC_SHARED_TSCS, sp->tscs, sp->ntscs))) {
		sp->tscs = v;
		sp->shared |= SPEC_SHARED_TSCS;
	}
}

void cluster_share_pod(struct cluster *c, struct pod *p)
{
	void *v;
	if (!c->spool && !(c->spool = calloc(1, sizeof(*c->spool))))
		return;
	if (p->labels.n && !(p->spec.shared & SPEC_SHARED_LABELS)) {
		struct labels *l = malloc(sizeof(*l));
		if (l) {
			*l = p->labels;
			if ((v = spec_pool_share(c->spool, SPEC_SHARED_LABELS, l, 1))) {
				p->labels = *(struct labels *)v;
				p->spec.shared |= SPEC_SHARED_LABELS;
			} else {
				free(l);
			}
		}
	}
	if (p->nowners && !(p->spec.shared & SPEC_SHARED_OWNERS) &&
	    (v = spec_pool_share(c->spool, SPEC_SHARED_OWNERS, p->owners, p->nowners))) {
		p->owners = v;
		p->spec.shared |= SPEC_SHARED_OWNERS;
	}
	cluster_share_spec(c, &p->spec);
}

void cluster_free(struct cluster *c)
{
	if (!c)
		return;
	free(c->res_log);
	for (uint32_t i = 0; i < c->nnodes; i++)
		node_fini(&c->nodes[i]);
	free(c->nodes);
	for (uint32_t i = 0; i < c->npods; i++)
		pod_fini(&c->pods[i]);
	free(c->pods);
	for (uint32_t i = 0; i < c->nworkloads; i++)
		workload_fini(&c->workloads[i]);
	free(c->workloads);
	free(c->pclasses);
	free(c->nominated);
	for (uint32_t i = 0; i < c->npdbs; i++)
		pdb_fini(&c->pdbs[i]);
	free(c->pdbs);
	storage_fini(&c->st);
	spec_pool_free(c->spool);
	for (uint32_t i = 0; i < c->nmatchers; i++)
		matcher_free(c->matchers[i]);
	free(c->matchers);
	struct index *ix = c->name_index;
	if (ix) {
		free(ix->node_by_name);
		hmap_fini(&ix->pods);
		free(ix->matcher_by_key);
		for (uint32_t i = 0; i < ix->npairs; i++) {
			free(ix->postings[i].v);
			free(ix->anchored[i].v);
		}
		free(ix->postings);
		free(ix->anchored);
		hmap_fini(&ix->pair_ix);
		free(ix->unanchored.v);
		free(ix);
	}
	free(c->affinity_pods);
	free(c->free_cpu);
	free(c->free_mem);
	free(c->nflag);
	free(c->nstamp);
	for (uint32_t i = 0; i < c->nterms; i++) {
		free(c->terms[i].term.namespaces);
		selector_fini(&c->terms[i].term.ns_sel);
		selector_fini(&c->terms[i].term.sel);
		free(c->terms[i].node_keys);
		free(c->terms[i].node_counts);
	}
	free(c->terms);
	free(c->term_by_key);
	for (uint32_t i = 0; i < c->nkeys; i++) {
		free(c->keys[i].dom);
		free(c->keys[i].nper);
		free(c->keys[i].vals);
	}
	free(c->keys);
	sched_config_fini(&c->cfg);
	intern_free(c->in);
	free(c);
}

int32_t cluster_find_node(const struct cluster *c, sym_t name)
{
	const struct index *ix = c->name_index;
	if (name >= ix->node_by_name_len)
		return -1;
	return ix->node_by_name[name] - 1;
}

static int set_node_name(struct cluster *c, sym_t name, int32_t id)
{
	struct index *ix = c->name_index;
	if (!grow_symmap(&ix->node_by_name, &ix->node_by_name_len, name))
		return 0;
	ix->node_by_name[name] = id + 1;
	return 1;
}

/* A new stamp for node id's resources, remembered in the log */
static void res_stamp(struct cluster *c, struct node *n, uint32_t id)
{
	n->res_stamp = ++c->res_clock;
	c->res_log[(n->res_stamp - 1) % RES_LOG_LEN] = id;
}

/* Recomputes the free amounts and flags of node id from the node. */
static void free_sync(struct cluster *c, uint32_t id)
{
	const struct node *n = &c->nodes[id];
	int64_t pods;
	bool o = __builtin_sub_overflow(n->alloc.cpu, n->used.cpu, &c->free_cpu[id]);
	o |= __builtin_sub_overflow(n->alloc.mem, n->used.mem, &c->free_mem[id]);
	o |= __builtin_sub_overflow(n->alloc.pods, (int64_t)n->npods, &pods);
	c->nflag[id] = (uint8_t)((n->alive ? NF_ALIVE : 0) | (o ? 0 : NF_EXACT) | (pods >= 1 ? NF_ROOM : 0));
	c->nstamp[id] = n->res_stamp;
}

int32_t cluster_add_node(struct cluster *c, struct node *n)
{
	if (cluster_find_node(c, n->name) >= 0)
		return -1;
	if (c->nnodes == c->node_cap) {
		uint32_t cap = c->node_cap ? c->node_cap * 2 : 16;
		struct node *nn = realloc(c->nodes, cap * sizeof(*nn));
		if (!nn)
			return -1;
		c->nodes = nn;
		int64_t *fc = realloc(c->free_cpu, cap * sizeof(*fc));
		if (!fc)
			return -1;
		c->free_cpu = fc;
		int64_t *fm = realloc(c->free_mem, cap * sizeof(*fm));
		if (!fm)
			return -1;
		c->free_mem = fm;
		uint8_t *fl = realloc(c->nflag, cap);
		if (!fl)
			return -1;
		c->nflag = fl;
		uint64_t *st = realloc(c->nstamp, cap * sizeof(*st));
		if (!st)
			return -1;
		c->nstamp = st;
		for (uint32_t i = 0; i < c->nmatchers; i++) {
			uint32_t *pn = realloc(c->matchers[i]->per_node, cap * sizeof(*pn));
			if (!pn)
				return -1;
			memset(pn + c->node_cap, 0, (cap - c->node_cap) * sizeof(*pn));
			c->matchers[i]->per_node = pn;
		}
		c->node_cap = cap;
	}
	int32_t id = (int32_t)c->nnodes;
	if (!set_node_name(c, n->name, id))
		return -1;
	struct node *d = &c->nodes[c->nnodes++];
	*d = *n;
	memset(n, 0, sizeof(*n));
	d->alive = true;
	d->pods = NULL;
	d->npods = d->podcap = 0;
	memset(&d->used, 0, sizeof(d->used));
	d->nz_cpu = d->nz_mem = 0;
	res_stamp(c, d, (uint32_t)id);
	free_sync(c, (uint32_t)id);
	c->nalive_nodes++;
	c->label_gen++;
	return id;
}

void cluster_remove_node(struct cluster *c, uint32_t id)
{
	assert(id < c->nnodes && c->nodes[id].alive && c->nodes[id].npods == 0);
	c->nodes[id].alive = false;
	c->nflag[id] &= (uint8_t)~NF_ALIVE;
	c->nalive_nodes--;
	c->label_gen++;
	struct index *ix = c->name_index;
	if (c->nodes[id].name < ix->node_by_name_len)
		ix->node_by_name[c->nodes[id].name] = 0;
}

void cluster_drop_node(struct cluster *c, uint32_t id)
{
	if (c->nodes[id].alive)
		cluster_remove_node(c, id);
	if (id + 1 != c->nnodes)
		return;
	/* the last slot: free, and taken by the next node added (its
	 * matcher counts are 0, as it has no pods; the caches keyed by node
	 * id read only ids below nnodes, and a new node there gets a new
	 * resource stamp) */
	node_fini(&c->nodes[id]);
	memset(&c->nodes[id], 0, sizeof(c->nodes[id]));
	c->nflag[id] = 0;
	c->nnodes--;
}

void cluster_revive_node(struct cluster *c, uint32_t id)
{
	assert(id < c->nnodes && !c->nodes[id].alive);
	c->nodes[id].alive = true;
	c->nflag[id] |= NF_ALIVE;
	c->nalive_nodes++;
	c->label_gen++;
	set_node_name(c, c->nodes[id].name, (int32_t)id);
}

/* The list index of label pair (key, val); created when create is set.
 * -1 when absent (or on OOM). */
static int64_t pair_index(struct cluster *c, sym_t key, sym_t val, bool create)
{
	struct index *ix = c->name_index;
	uint64_t k = ((uint64_t)key << 32) | val;
	int64_t i = hmap_get(&ix->pair_ix, k);
	if (i >= 0 || !create)
		return i;
	if (ix->npairs == ix->pair_cap) {
		uint32_t cap = ix->pair_cap ? ix->pair_cap * 2 : 64;
		struct idlist *np = realloc(ix->postings, cap * sizeof(*np));
		if (!np)
			return -1;
		ix->postings = np;
		struct idlist *na = realloc(ix->anchored, cap * sizeof(*na));
		if (!na)
			return -1;
		ix->anchored = na;
		ix->pair_cap = cap;
	}
	memset(&ix->postings[ix->npairs], 0, sizeof(struct idlist));
	memset(&ix->anchored[ix->npairs], 0, sizeof(struct idlist));
	if (!hmap_put(&ix->pair_ix, k, ix->npairs))
		return -1;
	return ix->npairs++;
}

static uint64_t pod_key(sym_t ns, sym_t name)
{
	return ((uint64_t)ns << 32) | name;
}

int32_t cluster_find_pod(const struct cluster *c, sym_t ns, sym_t name)
{
	const struct index *ix = c->name_index;
	int64_t id = hmap_get(&ix->pods, pod_key(ns, name));
	/* a key left by a pod whose slot was given back (cluster_drop_pod)
	 * may name an id past the end, or a later pod's */
	if (id < 0 || (uint64_t)id >= c->npods || !c->pods[id].alive || c->pods[id].ns != ns ||
	    c->pods[id].name != name)
		return -1;
	return (int32_t)id;
}

int cluster_reserve_pods(struct cluster *c, uint32_t n)
{
	if (n <= c->pod_cap)
		return 1;
	struct pod *np = realloc(c->pods, (size_t)n * sizeof(*np));
	if (!np)
		return 0;
	c->pods = np;
	c->pod_cap = n;
	return 1;
}

int32_t cluster_add_pod(struct cluster *c, struct pod *p)
{
	if (cluster_find_pod(c, p->ns, p->name) >= 0)
		return -1;
	if (c->npods == c->pod_cap) {
		uint32_t cap = c->pod_cap ? c->pod_cap * 2 : 64;
		struct pod *np = realloc(c->pods, cap * sizeof(*np));
		if (!np)
			return -1;
		c->pods = np;
		c->pod_cap = cap;
	}
	int32_t id = (int32_t)c->npods;
	struct index *ix = c->name_index;
	if (!hmap_put(&ix->pods, pod_key(p->ns, p->name), (uint32_t)id))
		return -1;
	/* label postings: append-only, a matcher's first count reads them */
	for (uint32_t i = 0; i < p->labels.n; i++) {
		int64_t pi = pair_index(c, p->labels.v[i].key, p->labels.v[i].val, true);
		if (pi < 0 || !idlist_add(&ix->postings[pi], (uint32_t)id))
			return -1;
	}
	sym_t nom = p->nominated;
	struct pod *d = &c->pods[c->npods++];
	*d = *p;
	memset(p, 0, sizeof(*p));
	d->node = -1;
	d->alive = true;
	/* out of memory, the pod keeps its nomination unlisted: other pods'
	 * cycles then leave it out */
	if (nom && !cluster_set_nominated(c, (uint32_t)id, nom))
		d->nominated = nom;
	return id;
}

int cluster_set_nominated(struct cluster *c, uint32_t pod, sym_t node_name)
{
	assert(pod < c->npods);
	bool listed = false;
	for (uint32_t i = 0; i < c->nnominated && !listed; i++)
		listed = c->nominated[i] == pod;
	if (!listed && node_name) {
		if (c->nnominated == c->nominated_cap) {
			uint32_t cap = c->nominated_cap ? c->nominated_cap * 2 : 8;
			uint32_t *v = realloc(c->nominated, cap * sizeof(*v));
			if (!v)
				return 0;
			c->nominated = v;
			c->nominated_cap = cap;
		}
		c->nominated[c->nnominated++] = pod;
	}
	c->pods[pod].nominated = node_name;
	return 1;
}

void cluster_kill_pod(struct cluster *c, uint32_t pod)
{
	assert(pod < c->npods && c->pods[pod].node < 0);
	c->pods[pod].alive = false;
}

void cluster_drop_pod(struct cluster *c, uint32_t pod)
{
	cluster_kill_pod(c, pod);
	if (pod + 1 != c->npods)
		return;
	struct pod *p = &c->pods[pod];
	struct index *ix = c->name_index;
	/* the last pod added: its postings end their lists */
	for (uint32_t i = 0; i < p->labels.n; i++) {
		int64_t pi = pair_index(c, p->labels.v[i].key, p->labels.v[i].val, false);
		struct idlist *l = pi < 0 ? NULL : &ix->postings[pi];
		if (l && l->n && l->v[l->n - 1] == pod)
			l->n--;
	}
	uint32_t w = 0;
	for (uint32_t i = 0; i < c->nnominated; i++)
		if (c->nominated[i] != pod)
			c->nominated[w++] = c->nominated[i];
	c->nnominated = w;
	pod_fini(p);
	memset(p, 0, sizeof(*p));
	c->npods--;
}

void cluster_revive_pod(struct cluster *c, uint32_t pod)
{
	assert(pod < c->npods && !c->pods[pod].alive);
	struct index *ix = c->name_index;
	c->pods[pod].alive = true;
	hmap_put(&ix->pods, pod_key(c->pods[pod].ns, c->pods[pod].name), pod);
}

/* Appends the object at x (size bytes) to the array *v of *n, taking it
 * over (x is zeroed). 0 on OOM, nothing changed. */
static int take_object(void **v, uint32_t *n, void *x, size_t size)
{
	char *nv = realloc(*v, (*n + 1) * size);
	if (!nv)
		return 0;
	memcpy(nv + (size_t)*n * size, x, size);
	memset(x, 0, size);
	*v = nv;
	(*n)++;
	return 1;
}

int cluster_add_workload(struct cluster *c, struct workload *w)
{
	return take_object((void **)&c->workloads, &c->nworkloads, w, sizeof(*w));
}

int cluster_add_priority_class(struct cluster *c, struct priority_class *x)
{
	return take_object((void **)&c->pclasses, &c->npclasses, x, sizeof(*x));
}

int cluster_add_pdb(struct cluster *c, struct pdb *x)
{
	return take_object((void **)&c->pdbs, &c->npdbs, x, sizeof(*x));
}

bool cluster_ns_selector_matches(const struct cluster *c, const struct selector *s, sym_t ns)
{
	struct label l = { c->sym_ns_name_label, ns };
	struct labels ls = { &l, 1, 1 };
	return selector_matches(c->in, s, &ls);
}

bool matcher_term_matches(const struct cluster *c, const struct matcher_term *t, sym_t ns,
			  const struct labels *labels)
{
	bool ns_ok = t->all_namespaces;
	for (uint32_t i = 0; !ns_ok && i < t->nnamespaces; i++)
		ns_ok = t->namespaces[i] == ns;
	if (!ns_ok && t->has_ns_sel)
		ns_ok = cluster_ns_selector_matches(c, &t->ns_sel, ns);
	return ns_ok && selector_matches(c->in, &t->sel, labels);
}

bool matcher_matches_pod(const struct cluster *c, const struct matcher *m, const struct pod *p)
{
	if (m->skip_terminating && p->terminating)
		return false;
	for (uint32_t i = 0; i < m->nterms; i++)
		if (!matcher_term_matches(c, &m->terms[i], p->ns, &p->labels))
			return false;
	return true;
}

static char *matcher_key(const struct cluster *c, const struct matcher_term *t, uint32_t nt,
			 bool skip_terminating);

static bool pod_has_pod_affinity(const struct pod *p)
{
	const struct affinity *a = &p->spec.affinity;
	return p->spec.has_affinity &&
	       (a->naff_req || a->naff_pref || a->nanti_req || a->nanti_pref);
}

/* a + sign * x (sign 1 or -1) in Go's int64 */
static inline int64_t wrap_by(int64_t a, int sign, int64_t x)
{
	return sign > 0 ? wrap_add(a, x) : wrap_sub(a, x);
}

static void account(struct cluster *c, struct pod *p, struct node *n, uint32_t node_id, int sign)
{
	const struct resources *r = &p->spec.req;
	/* framework/types.go NodeInfo.update: int64 sums, which wrap */
	n->used.cpu = wrap_by(n->used.cpu, sign, r->cpu);
	n->used.mem = wrap_by(n->used.mem, sign, r->mem);
	n->used.eph = wrap_by(n->used.eph, sign, r->eph);
	n->used.pods += sign;
	/* framework/types.go calculateResource before 1.32 (#127878): a bound
	 * pod's sidecars count only as init containers in the non-zero sums */
	bool plain = p->spec.has_sidecars && p->spec.plain && !c->cfg.sw.nonzero_sidecars;
	n->nz_cpu = wrap_by(n->nz_cpu, sign, plain ? p->spec.plain->nz_cpu : p->spec.nz_cpu);
	n->nz_mem = wrap_by(n->nz_mem, sign, plain ? p->spec.plain->nz_mem : p->spec.nz_mem);
	res_stamp(c, n, node_id);
	free_sync(c, node_id);
	for (uint32_t i = 0; i < r->next; i++) {
		uint32_t j = 0;
		while (j < n->used.next && n->used.ext[j].name != r->ext[i].name)
			j++;
		if (j == n->used.next) {
			struct ext_res *ne = realloc(n->used.ext, (j + 1) * sizeof(*ne));
			if (!ne)
				continue; /* OOM: the amount is lost; fit stays conservative */
			n->used.ext = ne;
			ne[j].name = r->ext[i].name;
			ne[j].v = 0;
			n->used.next++;
		}
		n->used.ext[j].v = wrap_by(n->used.ext[j].v, sign, r->ext[i].v);
	}
	/* only the matchers that can match: those anchored on one of the
	 * pod's label pairs, and those with no anchor */
	const struct index *ix = c->name_index;
	for (uint32_t l = 0; l <= p->labels.n; l++) {
		const struct idlist *ml = &ix->unanchored;
		if (l < p->labels.n) {
			int64_t pi = pair_index(c, p->labels.v[l].key, p->labels.v[l].val, false);
			if (pi < 0)
				continue;
			ml = &ix->anchored[pi];
		}
		for (uint32_t i = 0; i < ml->n; i++) {
			struct matcher *m = c->matchers[ml->v[i]];
			if (matcher_matches_pod(c, m, p)) {
				m->per_node[node_id] += (uint32_t)sign;
				m->total += (uint64_t)(int64_t)sign;
				for (uint32_t k = 0; k < m->nmdoms; k++) {
					struct matcher_dom *md = &m->mdoms[k];
					if (md->gen == c->label_gen && md->dom[node_id] >= 0)
						md->sum[md->dom[node_id]] += sign;
				}
			}
		}
	}
}

static uint32_t tc_slot(const struct term_class *tc, uint32_t key)
{
	uint32_t i = (key * 2654435761u) & tc->mask;
	while (tc->node_keys[i] && tc->node_keys[i] != key)
		i = (i + 1) & tc->mask;
	return i;
}

int term_class_add(struct term_class *tc, uint32_t node, int32_t delta)
{
	uint32_t key = node + 1;
	if (!tc->node_keys || (tc->nslots_used + 1) * 2 > tc->mask + 1) {
		uint32_t cap = tc->node_keys ? (tc->mask + 1) * 2 : 8;
		uint32_t *nk = calloc(cap, sizeof(*nk)), *nv = malloc(cap * sizeof(*nv));
		if (!nk || !nv) {
			free(nk);
			free(nv);
			return 0;
		}
		struct term_class old = *tc;
		tc->node_keys = nk;
		tc->node_counts = nv;
		tc->mask = cap - 1;
		for (uint32_t i = 0; old.node_keys && i <= old.mask; i++) {
			if (!old.node_keys[i])
				continue;
			uint32_t j = tc_slot(tc, old.node_keys[i]);
			nk[j] = old.node_keys[i];
			nv[j] = old.node_counts[i];
		}
		free(old.node_keys);
		free(old.node_counts);
	}
	uint32_t i = tc_slot(tc, key);
	if (!tc->node_keys[i]) {
		tc->node_keys[i] = key;
		tc->node_counts[i] = 0;
		tc->nslots_used++;
	}
	tc->node_counts[i] += (uint32_t)delta;
	tc->total += (uint64_t)(int64_t)delta;
	return 1;
}

/* framework/types.go newAffinityTerm for a bound pod's term: no
 * namespaces and no namespaceSelector mean the pod's own namespace. */
static int term_class_of(struct cluster *c, const struct pod *p, enum term_kind kind, int32_t weight,
			 const struct pod_affinity_term *t, uint32_t *out)
{
	struct matcher_term mt;
	sym_t own = p->ns;
	memset(&mt, 0, sizeof(mt));
	if (t->nnamespaces == 0 && !t->ns_sel_src.present) {
		mt.namespaces = &own;
		mt.nnamespaces = 1;
	} else {
		mt.namespaces = t->namespaces;
		mt.nnamespaces = t->nnamespaces;
		if (t->ns_sel_src.present) {
			if (t->ns_sel.kind == SEL_EVERYTHING)
				mt.all_namespaces = true;
			else {
				mt.has_ns_sel = true;
				mt.ns_sel = t->ns_sel;
			}
		}
	}
	mt.sel = t->sel;
	/* "K<kind>|<weight>|<topology key>|" then the matcher's key, written
	 * without printf: every bound pod's terms come here at load */
	char head[40];
	size_t h = 0;
	head[h++] = 'K';
	h += ufmt_u32(head + h, (uint32_t)kind);
	head[h++] = '|';
	/* the weight's 32 bits: the key only tells classes apart */
	h += ufmt_u32(head + h, (uint32_t)weight);
	head[h++] = '|';
	h += ufmt_u32(head + h, t->topology_key);
	head[h++] = '|';
	char *mk = matcher_key(c, &mt, 1, false);
	if (!mk)
		return 0;
	size_t mlen = strlen(mk);
	char *key = malloc(h + mlen + 1);
	if (!key) {
		free(mk);
		return 0;
	}
	memcpy(key, head, h);
	memcpy(key + h, mk, mlen + 1);
	free(mk);
	sym_t ks = intern_str(c->in, key);
	free(key);
	if (!ks)
		return 0;
	if (ks < c->term_by_key_len && c->term_by_key[ks]) {
		*out = (uint32_t)c->term_by_key[ks] - 1;
		return 1;
	}
	if (!grow_symmap(&c->term_by_key, &c->term_by_key_len, ks))
		return 0;
	if (c->nterms == c->term_cap) {
		uint32_t cap = c->term_cap ? c->term_cap * 2 : 16;
		struct term_class *nt = realloc(c->terms, cap * sizeof(*nt));
		if (!nt)
			return 0;
		c->terms = nt;
		c->term_cap = cap;
	}
	struct term_class *tc = &c->terms[c->nterms];
	memset(tc, 0, sizeof(*tc));
	tc->kind = kind;
	tc->weight = weight;
	tc->topology_key = t->topology_key;
	tc->term.all_namespaces = mt.all_namespaces;
	tc->term.has_ns_sel = mt.has_ns_sel;
	if (mt.nnamespaces)
		tc->term.namespaces = malloc(mt.nnamespaces * sizeof(sym_t));
	if ((mt.nnamespaces && !tc->term.namespaces) ||
	    !selector_copy(&tc->term.sel, &mt.sel) ||
	    (mt.has_ns_sel && !selector_copy(&tc->term.ns_sel, &mt.ns_sel))) {
		free(tc->term.namespaces);
		selector_fini(&tc->term.sel);
		return 0;
	}
	if (mt.nnamespaces)
		memcpy(tc->term.namespaces, mt.namespaces, mt.nnamespaces * sizeof(sym_t));
	tc->term.nnamespaces = mt.nnamespaces;
	c->term_by_key[ks] = (int32_t)c->nterms + 1;
	*out = c->nterms++;
	return 1;
}

/* Resolves p's affinity terms to term classes once (pods keep their spec). */
static int pod_term_classes(struct cluster *c, struct pod *p)
{
	const struct affinity *a = &p->spec.affinity;
	uint32_t n = a->naff_req + a->nanti_req + a->naff_pref + a->nanti_pref, k = 0;
	if (!n) {
		/* most pods have no terms: no allocation each (pod_fini) */
		p->term_classes = pod_no_term_classes;
		p->nterm_classes = 0;
		return 1;
	}
	uint32_t *v = malloc(n * sizeof(*v));
	if (!v)
		return 0;
	int ok = 1;
	for (uint32_t i = 0; ok && i < a->naff_req; i++)
		ok = term_class_of(c, p, TERM_AFF_REQ, 0, &a->aff_req[i], &v[k++]);
	for (uint32_t i = 0; ok && i < a->nanti_req; i++)
		ok = term_class_of(c, p, TERM_ANTI_REQ, 0, &a->anti_req[i], &v[k++]);
	for (uint32_t i = 0; ok && i < a->naff_pref; i++)
		ok = term_class_of(c, p, TERM_AFF_PREF, a->aff_pref[i].weight, &a->aff_pref[i].term, &v[k++]);
	for (uint32_t i = 0; ok && i < a->nanti_pref; i++)
		ok = term_class_of(c, p, TERM_ANTI_PREF, a->anti_pref[i].weight, &a->anti_pref[i].term, &v[k++]);
	if (!ok) {
		free(v);
		return 0;
	}
	p->term_classes = v;
	p->nterm_classes = n;
	return 1;
}

void cluster_bind(struct cluster *c, uint32_t pod, uint32_t node)
{
	cluster_bind_at(c, pod, node, c->nodes[node].npods);
}

uint32_t cluster_pod_pos(const struct cluster *c, uint32_t pod)
{
	assert(pod < c->npods && c->pods[pod].node >= 0);
	const struct node *n = &c->nodes[c->pods[pod].node];
	for (uint32_t i = n->npods; i-- > 0;)
		if (n->pods[i] == pod)
			return i;
	return n->npods;
}

void cluster_bind_at(struct cluster *c, uint32_t pod, uint32_t node, uint32_t pos)
{
	assert(pod < c->npods && node < c->nnodes && c->pods[pod].node < 0);
	struct pod *p = &c->pods[pod];
	struct node *n = &c->nodes[node];
	if (n->npods == n->podcap) {
		uint32_t cap = n->podcap ? n->podcap * 2 : 8;
		uint32_t *np = realloc(n->pods, cap * sizeof(*np));
		if (!np)
			abort(); /* cannot keep the indices exact without memory */
		n->pods = np;
		n->podcap = cap;
	}
	if (pos > n->npods)
		pos = n->npods;
	memmove(&n->pods[pos + 1], &n->pods[pos], (n->npods - pos) * sizeof(*n->pods));
	n->pods[pos] = pod;
	n->npods++;
	p->node = (int32_t)node;
	account(c, p, n, node, +1);
	if (pod_has_pod_affinity(p)) {
		if (!p->term_classes && !pod_term_classes(c, p))
			abort(); /* cannot keep the indices exact without memory */
		for (uint32_t i = 0; i < p->nterm_classes; i++)
			if (!term_class_add(&c->terms[p->term_classes[i]], node, +1))
				abort(); /* cannot keep the indices exact without memory */
		if (c->naffinity_pods == c->affinity_cap) {
			uint32_t cap = c->affinity_cap ? c->affinity_cap * 2 : 16;
			uint32_t *na = realloc(c->affinity_pods, cap * sizeof(*na));
			if (!na)
				abort();
			c->affinity_pods = na;
			c->affinity_cap = cap;
		}
		c->affinity_pods[c->naffinity_pods++] = pod;
	}
}

void cluster_unbind(struct cluster *c, uint32_t pod)
{
	assert(pod < c->npods && c->pods[pod].node >= 0);
	struct pod *p = &c->pods[pod];
	uint32_t node = (uint32_t)p->node;
	struct node *n = &c->nodes[node];
	/* keep bind order: the last bound pod is the usual one to undo */
	for (uint32_t i = n->npods; i-- > 0;) {
		if (n->pods[i] == pod) {
			memmove(&n->pods[i], &n->pods[i + 1], (n->npods - i - 1) * sizeof(*n->pods));
			n->npods--;
			break;
		}
	}
	account(c, p, n, node, -1);
	p->node = -1;
	if (pod_has_pod_affinity(p)) {
		for (uint32_t i = 0; i < p->nterm_classes; i++)
			term_class_add(&c->terms[p->term_classes[i]], node, -1);
		for (uint32_t i = c->naffinity_pods; i-- > 0;) {
			if (c->affinity_pods[i] == pod) {
				memmove(&c->affinity_pods[i], &c->affinity_pods[i + 1],
					(c->naffinity_pods - i - 1) * sizeof(uint32_t));
				c->naffinity_pods--;
				break;
			}
		}
	}
}

static int sym_cmp(const void *a, const void *b)
{
	sym_t x = *(const sym_t *)a, y = *(const sym_t *)b;
	return x < y ? -1 : x > y;
}

/* Appends text to a growing buffer; returns 0 on OOM. */
static int cat(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	if (*len + n + 1 > *cap) {
		size_t nc = (*cap ? *cap * 2 : 128) + n;
		char *nb = realloc(*buf, nc);
		if (!nb)
			return 0;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 1;
}

static char *matcher_key(const struct cluster *c, const struct matcher_term *t, uint32_t nt,
			 bool skip_terminating)
{
	char *buf = NULL, num[16];
	size_t len = 0, cap = 0;
	int ok = cat(&buf, &len, &cap, skip_terminating ? "T" : "A");
	for (uint32_t i = 0; ok && i < nt; i++) {
		ok = cat(&buf, &len, &cap, t[i].all_namespaces ? "|*" : "|");
		for (uint32_t j = 0; ok && j < t[i].nnamespaces; j++) {
			unsigned n = ufmt_u32(num, t[i].namespaces[j]);
			num[n++] = ',';
			num[n] = '\0';
			ok = cat(&buf, &len, &cap, num);
		}
		if (ok && t[i].has_ns_sel) {
			char *k = selector_key(c->in, &t[i].ns_sel);
			ok = k && cat(&buf, &len, &cap, "#") && cat(&buf, &len, &cap, k);
			free(k);
		}
		if (ok) {
			char *k = selector_key(c->in, &t[i].sel);
			ok = k && cat(&buf, &len, &cap, "@") && cat(&buf, &len, &cap, k);
			free(k);
		}
	}
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct matcher *cluster_matcher(struct cluster *c, const struct matcher_term *terms, uint32_t nterms,
				bool skip_terminating)
{
	struct index *ix = c->name_index;
	struct matcher *m = NULL;
	char *key = matcher_key(c, terms, nterms, skip_terminating);
	if (!key)
		return NULL;
	sym_t ks = intern_str(c->in, key);
	if (!ks)
		goto error;
	if (ks < ix->matcher_by_key_len && ix->matcher_by_key[ks]) {
		free(key);
		return c->matchers[ix->matcher_by_key[ks] - 1];
	}
	if (!grow_symmap(&ix->matcher_by_key, &ix->matcher_by_key_len, ks))
		goto error;
	if (c->nmatchers == c->matcher_cap) {
		uint32_t cap = c->matcher_cap ? c->matcher_cap * 2 : 16;
		struct matcher **nm = realloc(c->matchers, cap * sizeof(*nm));
		if (!nm)
			goto error;
		c->matchers = nm;
		c->matcher_cap = cap;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto error;
	m->key = key;
	key = NULL;
	m->skip_terminating = skip_terminating;
	/* zeroed by hand, not by calloc: calloc leaves fresh pages
	 * untouched, and their faults would fall on the cycles that read
	 * the counts (most nodes have none) rather than here */
	uint32_t ncount = c->node_cap ? c->node_cap : 1;
	m->per_node = malloc(ncount * sizeof(*m->per_node));
	m->terms = calloc(nterms ? nterms : 1, sizeof(*m->terms));
	if (!m->per_node || !m->terms)
		goto error;
	memset(m->per_node, 0, ncount * sizeof(*m->per_node));
	for (uint32_t i = 0; i < nterms; i++) {
		struct matcher_term *d = &m->terms[i];
		const struct matcher_term *s = &terms[i];
		m->nterms++;
		d->all_namespaces = s->all_namespaces;
		d->has_ns_sel = s->has_ns_sel;
		if (s->nnamespaces) {
			d->namespaces = malloc(s->nnamespaces * sizeof(sym_t));
			if (!d->namespaces)
				goto error;
			memcpy(d->namespaces, s->namespaces, s->nnamespaces * sizeof(sym_t));
			d->nnamespaces = s->nnamespaces;
			qsort(d->namespaces, d->nnamespaces, sizeof(sym_t), sym_cmp);
		}
		if (!selector_copy(&d->sel, &s->sel) ||
		    (s->has_ns_sel && !selector_copy(&d->ns_sel, &s->ns_sel)))
			goto error;
	}
	/* Anchor: the equality / In requirement with the fewest pods. Every
	 * matching pod carries one of its pairs, so the first count reads only
	 * those postings and a bind tests only matchers anchored on its pairs. */
	const struct sel_req *anchor = NULL;
	uint64_t best = UINT64_MAX;
	for (uint32_t t = 0; t < m->nterms; t++) {
		const struct selector *sel = &m->terms[t].sel;
		if (sel->kind != SEL_REQS)
			continue;
		for (uint32_t r = 0; r < sel->n; r++) {
			const struct sel_req *rq = &sel->reqs[r];
			if (rq->op != SEL_EQ && rq->op != SEL_IN)
				continue;
			uint64_t cnt = 0;
			for (uint32_t v = 0; v < rq->nvals; v++) {
				int64_t pi = pair_index(c, rq->key, rq->vals[v], false);
				cnt += pi < 0 ? 0 : ix->postings[pi].n;
			}
			if (cnt < best) {
				best = cnt;
				anchor = rq;
			}
		}
	}
	uint32_t mid = c->nmatchers;
	if (anchor) {
		/* values are sorted: skip repeats, or a pod would count twice */
		for (uint32_t v = 0; v < anchor->nvals; v++) {
			if (v && anchor->vals[v] == anchor->vals[v - 1])
				continue;
			int64_t pi = pair_index(c, anchor->key, anchor->vals[v], false);
			if (pi < 0)
				continue;
			const struct idlist *pl = &ix->postings[pi];
			for (uint32_t i = 0; i < pl->n; i++) {
				const struct pod *q = &c->pods[pl->v[i]];
				if (q->alive && q->node >= 0 && matcher_matches_pod(c, m, q)) {
					m->per_node[q->node]++;
					m->total++;
				}
			}
		}
		for (uint32_t v = 0; v < anchor->nvals; v++) {
			if (v && anchor->vals[v] == anchor->vals[v - 1])
				continue;
			int64_t pi = pair_index(c, anchor->key, anchor->vals[v], true);
			if (pi < 0 || !idlist_add(&ix->anchored[pi], mid)) {
				/* undo the registrations made so far: they are last */
				for (uint32_t u = 0; u < v; u++) {
					int64_t pu = pair_index(c, anchor->key, anchor->vals[u], false);
					if (pu >= 0 && ix->anchored[pu].n && ix->anchored[pu].v[ix->anchored[pu].n - 1] == mid)
						ix->anchored[pu].n--;
				}
				goto error;
			}
		}
	} else {
		if (!idlist_add(&ix->unanchored, mid))
			goto error;
		/* one pass over the bound pods */
		for (uint32_t n = 0; n < c->nnodes; n++) {
			const struct node *node = &c->nodes[n];
			for (uint32_t i = 0; i < node->npods; i++) {
				if (matcher_matches_pod(c, m, &c->pods[node->pods[i]])) {
					m->per_node[n]++;
					m->total++;
				}
			}
		}
	}
	ix->matcher_by_key[ks] = (int32_t)c->nmatchers + 1;
	c->matchers[c->nmatchers++] = m;
	return m;
error:
	free(key);
	matcher_free(m);
	return NULL;
}

struct matcher *cluster_matcher_ns(struct cluster *c, sym_t ns, const struct selector *sel,
				   bool skip_terminating)
{
	struct matcher_term t;
	memset(&t, 0, sizeof(t));
	t.namespaces = &ns;
	t.nnamespaces = 1;
	t.sel = *sel;
	return cluster_matcher(c, &t, 1, skip_terminating);
}

uint32_t cluster_node_order(const struct cluster *c, uint32_t *ids)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->nnodes; i++)
		if (c->nflag[i] & NF_ALIVE)
			ids[n++] = i;
	return n;
}

int cluster_set_label(struct cluster *c, uint32_t node, sym_t key, sym_t val)
{
	struct labels *l = &c->nodes[node].labels;
	c->label_gen++;
	if (val == SYM_NONE) {
		labels_del(l, key);
		return 1;
	}
	return labels_set(l, key, val);
}

void cluster_set_version(struct cluster *c, const struct kube_version *v, bool named)
{
	bool was = c->cfg.sw.nonzero_sidecars;
	c->cfg.version = *v;
	c->cfg.version_named = named;
	version_apply(&c->cfg);
	if (was == c->cfg.sw.nonzero_sidecars)
		return;
	/* the new release's NodeInfo counts bound pods' sidecars its way */
	for (uint32_t id = 0; id < c->npods; id++) {
		const struct pod *p = &c->pods[id];
		if (!p->alive || p->node < 0 || !p->spec.has_sidecars)
			continue;
		struct node *n = &c->nodes[p->node];
		int sign = was ? -1 : 1;
		n->nz_cpu = wrap_by(n->nz_cpu, sign, p->spec.nz_cpu);
		n->nz_cpu = wrap_by(n->nz_cpu, -sign, p->spec.plain->nz_cpu);
		n->nz_mem = wrap_by(n->nz_mem, sign, p->spec.nz_mem);
		n->nz_mem = wrap_by(n->nz_mem, -sign, p->spec.plain->nz_mem);
		res_stamp(c, n, (uint32_t)p->node);
		free_sync(c, (uint32_t)p->node);
	}
}

void cluster_set_unschedulable(struct cluster *c, uint32_t node, bool on)
{
	c->nodes[node].unschedulable = on;
	c->taint_gen++;
}

int cluster_add_taint(struct cluster *c, uint32_t node, const struct taint *t)
{
	struct node *n = &c->nodes[node];
	c->taint_gen++;
	for (uint32_t i = 0; i < n->ntaints; i++) {
		if (n->taints[i].key == t->key && n->taints[i].effect == t->effect) {
			n->taints[i] = *t;
			return 1;
		}
	}
	struct taint *nt = realloc(n->taints, (n->ntaints + 1) * sizeof(*nt));
	if (!nt)
		return 0;
	n->taints = nt;
	nt[n->ntaints++] = *t;
	return 1;
}

uint32_t cluster_remove_taints(struct cluster *c, uint32_t node, sym_t key, enum taint_effect effect)
{
	struct node *n = &c->nodes[node];
	uint32_t o = 0, removed = 0;
	c->taint_gen++;
	for (uint32_t i = 0; i < n->ntaints; i++) {
		bool match = n->taints[i].key == key && (effect == EFFECT_NONE || n->taints[i].effect == effect);
		if (match)
			removed++;
		else
			n->taints[o++] = n->taints[i];
	}
	n->ntaints = o;
	return removed;
}

void cluster_put_taints(struct cluster *c, uint32_t node, struct taint *taints, uint32_t ntaints)
{
	struct node *n = &c->nodes[node];
	free(n->taints);
	n->taints = taints;
	n->ntaints = ntaints;
	c->taint_gen++;
}

struct val_text {
	const char *text;
	sym_t sym;
};

static int val_text_cmp(const void *a, const void *b)
{
	return strcmp(((const struct val_text *)a)->text, ((const struct val_text *)b)->text);
}

static int key_index_build(struct cluster *c, struct key_index *k)
{
	if (k->cap < c->nnodes + 1) {
		int32_t *nd = realloc(k->dom, (c->nnodes + 1) * sizeof(*nd));
		if (!nd)
			return 0;
		k->dom = nd;
		k->cap = c->nnodes + 1;
	}
	/* distinct values: slot_of[sym] marks seen ones (cleared afterwards) */
	struct val_text *vt = malloc((c->nalive_nodes + 1) * sizeof(*vt));
	if (!vt)
		return 0;
	uint32_t n = 0;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		k->dom[id] = -1;
		if (!c->nodes[id].alive)
			continue;
		sym_t v = labels_get(&c->nodes[id].labels, k->key);
		if (v)
			vt[n++] = (struct val_text){ intern_get(c->in, v), v };
	}
	qsort(vt, n, sizeof(*vt), val_text_cmp);
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!m || vt[i].sym != vt[m - 1].sym)
			vt[m++] = vt[i];
	sym_t *vals = malloc((m + 1) * sizeof(*vals));
	if (!vals) {
		free(vt);
		return 0;
	}
	for (uint32_t i = 0; i < m; i++)
		vals[i] = vt[i].sym;
	free(vt);
	free(k->vals);
	k->vals = vals;
	k->nvals = m;
	/* node -> index by binary search over the sorted texts */
	k->nhave = 0;
	uint32_t *nper = calloc(m + 1, sizeof(*nper));
	if (!nper)
		return 0;
	free(k->nper);
	k->nper = nper;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!c->nodes[id].alive)
			continue;
		sym_t v = labels_get(&c->nodes[id].labels, k->key);
		if (!v)
			continue;
		const char *t = intern_get(c->in, v);
		uint32_t lo = 0, hi = m;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (strcmp(intern_get(c->in, vals[mid]), t) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		k->dom[id] = (int32_t)lo;
		k->nper[lo]++;
		k->nhave++;
	}
	k->gen = c->label_gen;
	return 1;
}

const struct key_index *cluster_key_index(struct cluster *c, sym_t key)
{
	struct key_index *k = NULL;
	for (uint32_t i = 0; i < c->nkeys && !k; i++)
		if (c->keys[i].key == key)
			k = &c->keys[i];
	if (!k) {
		struct key_index *nk = realloc(c->keys, (c->nkeys + 1) * sizeof(*nk));
		if (!nk)
			return NULL;
		c->keys = nk;
		k = &nk[c->nkeys++];
		memset(k, 0, sizeof(*k));
		k->key = key;
		k->gen = c->label_gen - 1;
	}
	if (k->gen != c->label_gen && !key_index_build(c, k))
		return NULL;
	return k;
}

const int64_t *matcher_domain_sums(struct cluster *c, struct matcher *m, sym_t key)
{
	const struct key_index *ki = cluster_key_index(c, key);
	if (!ki)
		return NULL;
	struct matcher_dom *md = NULL;
	for (uint32_t i = 0; i < m->nmdoms && !md; i++)
		if (m->mdoms[i].key == key)
			md = &m->mdoms[i];
	if (md && md->gen == c->label_gen)
		return md->sum;
	if (!md) {
		struct matcher_dom *nm = realloc(m->mdoms, (m->nmdoms + 1) * sizeof(*nm));
		if (!nm)
			return NULL;
		m->mdoms = nm;
		md = &nm[m->nmdoms++];
		memset(md, 0, sizeof(*md));
		md->key = key;
		md->gen = c->label_gen - 1;
	}
	int64_t *sum = calloc(ki->nvals + 1, sizeof(*sum));
	if (!sum)
		return NULL;
	for (uint32_t id = 0; id < c->nnodes; id++)
		if (ki->dom[id] >= 0)
			sum[ki->dom[id]] += m->per_node[id];
	free(md->sum);
	md->sum = sum;
	md->dom = ki->dom;
	md->gen = c->label_gen;
	return md->sum;
}
