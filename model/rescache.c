/* rescache.c - an acceleration of NodeResourcesFit's and
 * BalancedAllocation's Score for the lean cycle (score.c): both raw
 * scores of every node kept for a few recent pod requests and brought up
 * to date with the nodes that changed. It computes them with the
 * plugins' own functions (model/plugins/noderesources_fit.c,
 * balancedallocation.c); tests/test_lean.c compares its scores with the
 * plain loop's on every node. */
#include "plugins.h"

#include <stdlib.h>
#include <string.h>

/* Every node's two scores for each of a few recent pod requests: a bind
 * changes one node, and pods of a workload, or of workloads sized alike,
 * recur. A way is brought up to date when read, from the cluster's log
 * of the nodes whose resources changed (res_log), so the loop that reads
 * it reads 4 bytes a node and checks nothing. */
#define RES_WAYS 64

struct res_way {
	int64_t key[4];           /* nz_cpu, nz_mem, req.cpu, req.mem */
	uint64_t tick;            /* last use; 0: unused */
	bool valid;               /* every entry below n was computed... */
	uint64_t synced;          /* ...with the changes up to this res_clock */
	struct res_score *v;      /* per node id */
	uint32_t n;
};

/* balanced_allocation.go's score of a node without the pod, which does
 * not depend on the pod: kept per node while its res_stamp stays */
struct bal_now {
	uint64_t stamp;
	int64_t score;
};

struct res_cache {
	struct res_way w[RES_WAYS];
	uint64_t tick;
	struct bal_now *now;      /* per node id, nnow of them */
	uint32_t nnow;
};

void res_cache_free(struct res_cache *rc)
{
	if (!rc)
		return;
	for (int i = 0; i < RES_WAYS; i++)
		free(rc->w[i].v);
	free(rc->now);
	free(rc);
}

/* The way for p's requests, sized for every node id (not yet brought up
 * to date); NULL on OOM (the caller computes without it). */
static struct res_way *res_cache_for(struct scheduler *sch, const struct pod *p)
{
	const struct cluster *c = sch->c;
	struct res_cache *rc = sch->res_cache;
	if (!rc && !(rc = sch->res_cache = calloc(1, sizeof(*rc))))
		return NULL;
	int64_t key[4] = { p->spec.nz_cpu, p->spec.nz_mem, p->spec.req.cpu, p->spec.req.mem };
	struct res_way *w = NULL, *lru = &rc->w[0];
	for (int i = 0; i < RES_WAYS && !w; i++) {
		if (rc->w[i].tick && !memcmp(rc->w[i].key, key, sizeof(key)))
			w = &rc->w[i];
		else if (rc->w[i].tick < lru->tick)
			lru = &rc->w[i];
	}
	if (!w) {
		w = lru;
		memcpy(w->key, key, sizeof(key));
		w->valid = false;
	}
	w->tick = ++rc->tick;
	if (w->n < c->nnodes) {
		uint32_t n = c->nnodes + c->nnodes / 4 + 16;
		struct res_score *v = realloc(w->v, n * sizeof(*v));
		if (!v) {
			w->tick = 0;
			return NULL;
		}
		/* every entry is computed before it is read (not valid) */
		w->v = v;
		w->n = n;
		w->valid = false;
	}
	return w;
}

static struct bal_now *bal_now_all(struct scheduler *sch);

int res_cache_reserve(struct scheduler *sch)
{
	const struct cluster *c = sch->c;
	struct res_cache *rc = sch->res_cache;
	if (!rc && !(rc = sch->res_cache = calloc(1, sizeof(*rc))))
		return 0;
	uint32_t n = c->nnodes + c->nnodes / 4 + 16;
	for (int i = 0; i < RES_WAYS; i++) {
		struct res_way *w = &rc->w[i];
		if (w->n >= c->nnodes)
			continue;
		/* written now, so that no cycle meets the faults of fresh
		 * pages */
		struct res_score *v = realloc(w->v, n * sizeof(*v));
		if (!v)
			return 0;
		memset(v, 0, n * sizeof(*v));
		w->v = v;
		w->n = n;
		w->tick = 0;
		w->valid = false;
	}
	return bal_now_all(sch) != NULL;
}

/* The kept scores without the pod, one per node id; NULL on OOM. */
static struct bal_now *bal_now_all(struct scheduler *sch)
{
	const struct cluster *c = sch->c;
	struct res_cache *rc = sch->res_cache;
	if (rc && rc->nnow < c->nnodes) {
		uint32_t cap = c->nnodes + c->nnodes / 4 + 16;
		struct bal_now *v = realloc(rc->now, cap * sizeof(*v));
		if (v) {
			memset(v + rc->nnow, 0, (cap - rc->nnow) * sizeof(*v));
			rc->now = v;
			rc->nnow = cap;
		}
	}
	return rc && rc->nnow >= c->nnodes ? rc->now : NULL;
}

static inline void fill_one(struct cluster *c, const struct pod *p, uint32_t id, struct res_score *e,
			    struct bal_now *now)
{
	const struct node *n = &c->nodes[id];
	e->least = (int16_t)score_least_allocated(c, p, n);
	if (!now) {
		e->balanced = (int16_t)score_balanced_allocation(c, p, n);
		return;
	}
	/* the score without the pod, kept */
	now += id;
	if (now->stamp != c->nstamp[id]) {
		now->score = balanced_allocation_now(n);
		now->stamp = c->nstamp[id];
	}
	e->balanced = (int16_t)balanced_allocation_with(p, n, now->score);
}

void res_score_fill(struct cluster *c, const struct pod *p, uint32_t id, struct res_score *e)
{
	/* the score without the pod computed, not kept: the same value */
	fill_one(c, p, id, e, NULL);
}

struct res_score *res_scores_for(struct scheduler *sch, const struct pod *p)
{
	struct cluster *c = sch->c;
	struct res_way *w = res_cache_for(sch, p);
	if (!w)
		return NULL;
	struct bal_now *now = bal_now_all(sch);
	uint64_t clock = c->res_clock;
	if (!w->valid || clock - w->synced >= RES_LOG_LEN || clock - w->synced >= c->nnodes) {
		/* every node id, removed ones too (a node revived keeps its
		 * stamp) */
		for (uint32_t id = 0; id < c->nnodes; id++)
			fill_one(c, p, id, &w->v[id], now);
	} else {
		/* the nodes stamped since: stamps synced + 1 .. clock */
		for (uint64_t k = w->synced; k < clock; k++) {
			uint32_t id = c->res_log[k % RES_LOG_LEN];
			if (id < c->nnodes) /* not a slot given back since */
				fill_one(c, p, id, &w->v[id], now);
		}
	}
	w->valid = true;
	w->synced = clock;
	return w->v;
}
