/* shape.c - the answers of a scheduling cycle that depend only on the
 * pod's node-facing spec (nodeName, nodeSelector, node affinity,
 * tolerations) and on the nodes' names, labels, taints and cordons: the
 * verdicts of NodeUnschedulable, NodeName, TaintToleration and
 * NodeAffinity, PodTopologySpread's node inclusion, and the TaintToleration
 * and NodeAffinity raw scores. Pods of one workload arrive in runs and
 * share that spec, so the answers are kept across cycles for a few recent
 * specs, each under a canonical key, until the nodes change (label_gen,
 * taint_gen). */
#include "plugins.h"

#include <stdlib.h>
#include <string.h>

#define NSHAPES 32

struct node_shape {
	uint32_t *key;            /* canonical node-facing spec */
	uint32_t nkey;
	uint64_t label_gen, taint_gen;
	uint32_t nnodes;          /* node ids the arrays cover */
	uint64_t tick;            /* last use (LRU) */
	bool has_aff;
	uint8_t *stat;            /* per node id: 0 or failing plugin + 1 */
	int32_t *taint_ix;        /* per node id: first untolerated taint, -1 */
	uint8_t *taint_ok;        /* per node id: no untolerated NoSchedule/NoExecute */
	uint8_t *aff;             /* node_affinity_eval; NULL without one */
	uint8_t *both_ok;         /* aff & taint_ok, on first use */
	int64_t *tt_raw;          /* TaintToleration Score, on first use */
	int64_t *na_raw;          /* NodeAffinity Score, on first use */
	int16_t *tt16, *na16;     /* the same in 16 bits, NULL when one is wider */
	/* the live nodes where aff, taint_ok or both_ok is 0, on first use */
	uint32_t *zeros[3];
	uint32_t nzeros[3];
};

struct shape_cache {
	struct node_shape v[NSHAPES];
	uint64_t tick;
	struct key_buf { uint32_t *v; uint32_t n, cap; } kb;
};

static void shape_clear(struct node_shape *s)
{
	free(s->key);
	free(s->stat);
	free(s->taint_ix);
	free(s->taint_ok);
	free(s->aff);
	free(s->both_ok);
	free(s->tt_raw);
	free(s->na_raw);
	free(s->tt16);
	free(s->na16);
	for (int i = 0; i < 3; i++)
		free(s->zeros[i]);
	memset(s, 0, sizeof(*s));
}

void shape_cache_free(struct shape_cache *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < NSHAPES; i++)
		shape_clear(&sc->v[i]);
	free(sc->kb.v);
	free(sc);
}

static int put(struct key_buf *kb, uint32_t x)
{
	if (kb->n == kb->cap) {
		uint32_t nc = kb->cap ? kb->cap * 2 : 64;
		uint32_t *nv = realloc(kb->v, nc * sizeof(*nv));
		if (!nv)
			return 0;
		kb->v = nv;
		kb->cap = nc;
	}
	kb->v[kb->n++] = x;
	return 1;
}

static int put_req(struct key_buf *kb, const struct sel_req *r)
{
	int ok = put(kb, r->key) && put(kb, (uint32_t)r->op) && put(kb, r->nvals);
	for (uint32_t i = 0; ok && i < r->nvals; i++)
		ok = put(kb, r->vals[i]);
	return ok;
}

static int put_term(struct key_buf *kb, const struct ns_term *t)
{
	int ok = put(kb, t->invalid) && put(kb, t->nexprs);
	for (uint32_t i = 0; ok && i < t->nexprs; i++)
		ok = put_req(kb, &t->exprs[i]);
	ok = ok && put(kb, t->nfields);
	for (uint32_t i = 0; ok && i < t->nfields; i++)
		ok = put_req(kb, &t->fields[i]);
	return ok;
}

/* Everything of p the cached answers read, as a string of integers. */
static int build_key(struct key_buf *kb, const struct pod *p)
{
	const struct pod_spec *s = &p->spec;
	kb->n = 0;
	int ok = put(kb, s->node_name) && put(kb, s->ntols);
	for (uint32_t i = 0; ok && i < s->ntols; i++) {
		const struct toleration *t = &s->tols[i];
		ok = put(kb, t->key) && put(kb, (uint32_t)t->op) && put(kb, t->op_text) &&
		     put(kb, t->value) && put(kb, (uint32_t)t->effect) && put(kb, t->effect_text);
	}
	ok = ok && put(kb, s->node_selector.n);
	for (uint32_t i = 0; ok && i < s->node_selector.n; i++)
		ok = put(kb, s->node_selector.v[i].key) && put(kb, s->node_selector.v[i].val);
	const struct node_affinity *na = &s->affinity.node;
	bool aff = s->has_affinity;
	ok = ok && put(kb, aff) && put(kb, aff && na->has_required) && put(kb, aff ? na->nreq : 0) &&
	     put(kb, aff ? na->npref : 0);
	for (uint32_t i = 0; ok && aff && i < na->nreq; i++)
		ok = put_term(kb, &na->req[i]);
	for (uint32_t i = 0; ok && aff && i < na->npref; i++)
		ok = put(kb, (uint32_t)na->pref[i].weight) && put_term(kb, &na->pref[i].term);
	return ok;
}

/* The per-node verdicts of the four node-facing filters, in plugin
 * order (framework/runtime/framework.go RunFilterPlugins). */
static int shape_build(struct cluster *c, const struct pod *p, struct node_shape *s)
{
	uint32_t n = c->nnodes + 1;
	s->nnodes = c->nnodes;
	s->label_gen = c->label_gen;
	s->taint_gen = c->taint_gen;
	s->has_aff = pod_has_required_node_affinity(p);
	s->stat = malloc(n);
	s->taint_ix = malloc(n * sizeof(*s->taint_ix));
	s->taint_ok = malloc(n);
	if (!s->stat || !s->taint_ix || !s->taint_ok)
		return 0;
	if (s->has_aff && (!(s->aff = malloc(n)) || !node_affinity_eval(c, p, s->aff)))
		return 0;
	bool by_name = p->spec.node_name != SYM_NONE && p->spec.node_name != c->sym_empty;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		const struct node *nd = &c->nodes[id];
		struct node_rec r;
		int32_t ti = nd->ntaints ? taint_first_untolerated_in(c, nd, p->spec.tols, p->spec.ntols) : -1;
		s->taint_ix[id] = ti;
		s->taint_ok[id] = ti < 0;
		uint8_t st = 0;
		if (nd->unschedulable && !filter_node_unschedulable(c, p, nd, &r))
			st = PL_NODE_UNSCHEDULABLE + 1;
		else if (by_name && !filter_node_name(c, p, nd, &r))
			st = PL_NODE_NAME + 1;
		else if (ti >= 0)
			st = PL_TAINT_TOLERATION + 1;
		else if (s->aff && !s->aff[id])
			st = PL_NODE_AFFINITY + 1;
		s->stat[id] = st;
	}
	return 1;
}

struct node_shape *node_shape_get(struct scheduler *sch, const struct pod *p)
{
	struct cluster *c = sch->c;
	struct shape_cache *sc = sch->shape_cache;
	if (!sc && !(sc = sch->shape_cache = calloc(1, sizeof(*sc))))
		return NULL;
	if (!build_key(&sc->kb, p))
		return NULL;
	struct node_shape *lru = &sc->v[0];
	sc->tick++;
	for (int i = 0; i < NSHAPES; i++) {
		struct node_shape *s = &sc->v[i];
		if (s->key && s->nkey == sc->kb.n && !memcmp(s->key, sc->kb.v, sc->kb.n * sizeof(*s->key))) {
			if (s->label_gen == c->label_gen && s->taint_gen == c->taint_gen &&
			    s->nnodes == c->nnodes) {
				s->tick = sc->tick;
				return s;
			}
			lru = s; /* the same spec over changed nodes */
			break;
		}
		if (s->tick < lru->tick)
			lru = s;
	}
	shape_clear(lru);
	lru->tick = sc->tick;
	if (!(lru->key = malloc(sc->kb.n * sizeof(*lru->key) + 1)))
		return NULL;
	memcpy(lru->key, sc->kb.v, sc->kb.n * sizeof(*lru->key));
	lru->nkey = sc->kb.n;
	if (!shape_build(c, p, lru)) {
		shape_clear(lru);
		return NULL;
	}
	return lru;
}

const uint8_t *node_shape_stat(const struct node_shape *s)
{
	return s->stat;
}

const uint8_t *node_shape_aff(const struct node_shape *s)
{
	return s->aff;
}

const uint8_t *node_shape_taint_ok(const struct node_shape *s)
{
	return s->taint_ok;
}

int32_t node_shape_taint_ix(const struct node_shape *s, uint32_t id)
{
	return s->taint_ix[id];
}

const uint8_t *node_shape_both_ok(struct node_shape *s)
{
	if (!s->aff)
		return s->taint_ok;
	if (!s->both_ok) {
		if (!(s->both_ok = malloc(s->nnodes + 1)))
			return NULL;
		for (uint32_t id = 0; id < s->nnodes; id++)
			s->both_ok[id] = s->aff[id] & s->taint_ok[id];
	}
	return s->both_ok;
}

/* v[0..n) in 16 bits; NULL when a value is wider (or on OOM) */
static int16_t *narrow16(const int64_t *v, uint32_t n)
{
	int16_t *w = malloc((n + 1) * sizeof(*w));
	for (uint32_t id = 0; w && id < n; id++) {
		if (v[id] > INT16_MAX || v[id] < INT16_MIN) {
			free(w);
			return NULL;
		}
		w[id] = (int16_t)v[id];
	}
	return w;
}

const int64_t *node_shape_tt_raw(struct cluster *c, const struct pod *p, struct node_shape *s)
{
	if (!s->tt_raw) {
		if (!(s->tt_raw = malloc((s->nnodes + 1) * sizeof(*s->tt_raw))))
			return NULL;
		for (uint32_t id = 0; id < s->nnodes; id++) {
			const struct node *n = &c->nodes[id];
			s->tt_raw[id] = n->ntaints ? score_taint_toleration(c, p, n) : 0;
		}
		s->tt16 = narrow16(s->tt_raw, s->nnodes);
	}
	return s->tt_raw;
}

/* node_affinity.go Score: the weights of the matching preferred terms,
 * each term evaluated for every node at once (ns_term_eval). */
const int64_t *node_shape_na_raw(struct cluster *c, const struct pod *p, struct node_shape *s)
{
	if (s->na_raw)
		return s->na_raw;
	const struct node_affinity *na = &p->spec.affinity.node;
	uint8_t *m = malloc(s->nnodes + 1);
	if (!m || !(s->na_raw = calloc(s->nnodes + 1, sizeof(*s->na_raw)))) {
		free(m);
		return NULL;
	}
	for (uint32_t i = 0; p->spec.has_affinity && i < na->npref; i++) {
		if (na->pref[i].weight == 0)
			continue;
		if (!ns_term_eval(c, &na->pref[i].term, m)) {
			free(m);
			free(s->na_raw);
			s->na_raw = NULL;
			return NULL;
		}
		for (uint32_t id = 0; id < s->nnodes; id++)
			s->na_raw[id] += m[id] ? na->pref[i].weight : 0;
	}
	free(m);
	s->na16 = narrow16(s->na_raw, s->nnodes);
	return s->na_raw;
}

const int16_t *node_shape_tt16(const struct node_shape *s)
{
	return s->tt16;
}

const int16_t *node_shape_na16(const struct node_shape *s)
{
	return s->na16;
}

const uint32_t *node_shape_zeros(struct cluster *c, struct node_shape *s, const uint8_t *arr, uint32_t *n)
{
	int k = arr == s->aff ? 0 : arr == s->taint_ok ? 1 : arr == s->both_ok ? 2 : -1;
	if (k < 0 || !arr)
		return NULL; /* not one of the shape's arrays */
	if (!s->zeros[k]) {
		uint32_t m = 0;
		if (!(s->zeros[k] = malloc((s->nnodes + 1) * sizeof(*s->zeros[k]))))
			return NULL;
		for (uint32_t id = 0; id < s->nnodes; id++)
			if (!arr[id] && (c->nflag[id] & NF_ALIVE))
				s->zeros[k][m++] = id;
		s->nzeros[k] = m;
		/* a shape keeps only its few */
		uint32_t *fit = realloc(s->zeros[k], (m + 1) * sizeof(*fit));
		if (fit)
			s->zeros[k] = fit;
	}
	*n = s->nzeros[k];
	return s->zeros[k];
}
