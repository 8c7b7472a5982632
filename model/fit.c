/* fit.c - NodeResourcesFit (Filter, LeastAllocated score) and
 * NodeResourcesBalancedAllocation. */
#include "plugins.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fills d->ext_names with the pod's requested extended resources (non-zero
 * amounts) in name order, once per decision. 0 on OOM. */
static int ext_names_fill(const struct cluster *c, const struct pod *p, struct decision *d)
{
	const struct resources *rq = &p->spec.req;
	if (d->ext_names || rq->next == 0)
		return 1;
	sym_t *v = malloc(rq->next * sizeof(*v));
	if (!v)
		return 0;
	uint32_t n = 0;
	for (uint32_t i = 0; i < rq->next; i++) {
		if (rq->ext[i].v == 0)
			continue;
		/* insertion by text: the order of reasons inside a node */
		uint32_t j = n;
		const char *s = intern_get(c->in, rq->ext[i].name);
		while (j > 0 && strcmp(intern_get(c->in, v[j - 1]), s) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = rq->ext[i].name;
		n++;
	}
	if (n == 0) {
		free(v);
		return 1;
	}
	d->ext_names = v;
	d->next = n;
	return 1;
}

/* fit.go fitsRequest's Allocatable - Requested, in Go's int64: the two are
 * never negative unless the requests' sum wrapped */
static int64_t free_of(int64_t alloc, int64_t used)
{
	return wrap_sub(alloc, used);
}

/* noderesources/fit.go fitsRequest */
int filter_fit(const struct cluster *c, const struct pod *p, const struct node *n,
	       struct decision *d, struct node_rec *r)
{
	assert(c && p && n && d && r);
	const struct resources *rq = &p->spec.req;
	uint32_t bits = 0;
	uint64_t ext_bits = 0;
	bool unresolvable = false;
	bool any_fail = false;

	/* "Too many pods" never makes the node unresolvable */
	if ((int64_t)n->npods + 1 > n->alloc.pods)
		bits |= FIT_TOO_MANY_PODS;
	bool any_ext = false;
	for (uint32_t i = 0; i < rq->next; i++)
		if (rq->ext[i].v != 0)
			any_ext = true;
	if (rq->cpu == 0 && rq->mem == 0 && rq->eph == 0 && rq->next == 0)
		goto done;
	if (rq->cpu > 0 && rq->cpu > free_of(n->alloc.cpu, n->used.cpu)) {
		bits |= FIT_CPU;
		unresolvable |= rq->cpu > n->alloc.cpu;
	}
	if (rq->mem > 0 && rq->mem > free_of(n->alloc.mem, n->used.mem)) {
		bits |= FIT_MEM;
		unresolvable |= rq->mem > n->alloc.mem;
	}
	if (rq->eph > 0 && rq->eph > free_of(n->alloc.eph, n->used.eph)) {
		bits |= FIT_EPH;
		unresolvable |= rq->eph > n->alloc.eph;
	}
	if (any_ext) {
		/* on OOM the bits cannot name the resource, the verdict stands */
		bool named = ext_names_fill(c, p, d) && d->ext_names;
		uint32_t count = named ? d->next : rq->next;
		for (uint32_t i = 0; i < count; i++) {
			sym_t name = named ? d->ext_names[i] : rq->ext[i].name;
			int64_t want = resources_ext(rq, name);
			if (want == 0)
				continue;
			int64_t alloc = resources_ext(&n->alloc, name);
			int64_t used = resources_ext(&n->used, name);
			if (want > free_of(alloc, used)) {
				if (named && i < 64)
					ext_bits |= (uint64_t)1 << i;
				unresolvable |= want > alloc;
				any_fail = true;
			}
		}
	}
done:
	if (!bits && !ext_bits && !any_fail)
		return 1;
	r->why.fit.bits = bits;
	r->why.fit.ext_bits = ext_bits;
	r->why.fit.bound = n->npods;
	r->why.fit.free_cpu = free_of(n->alloc.cpu, n->used.cpu);
	r->why.fit.free_mem = free_of(n->alloc.mem, n->used.mem);
	r->why.fit.free_eph = free_of(n->alloc.eph, n->used.eph);
	r->unresolvable = unresolvable;
	return 0;
}

/* floor(x * 100 / alloc) for 0 <= x <= alloc, without int64 overflow */
static int64_t pct(int64_t x, int64_t alloc)
{
	/* a 32-bit division where it is exact (cpu in millicores) */
	if (x >= 0 && x <= UINT32_MAX / 100 && alloc <= UINT32_MAX)
		return (int64_t)((uint32_t)(x * 100) / (uint32_t)alloc);
	if (x <= INT64_MAX / 100)
		return x * 100 / alloc;
	int64_t q = x / alloc, rem = x % alloc;
	return q * 100 + (int64_t)((long double)rem * 100.0L / (long double)alloc);
}

/* noderesources/least_allocated.go leastResourceScorer (cpu, memory,
 * weight 1 each). A request below 0 is a sum that wrapped: upstream's
 * score is then out of [0, 100], which its framework refuses; it scores 0
 * here, as a request above the capacity does. */
static inline int64_t least2(int64_t rc, int64_t ac, int64_t rm, int64_t am)
{
	int64_t sum = 0, weights = 0;
	if (ac != 0) {
		sum += rc >= 0 && rc <= ac && ac > 0 ? pct(ac - rc, ac) : 0;
		weights++;
	}
	if (am != 0) {
		sum += rm >= 0 && rm <= am && am > 0 ? pct(am - rm, am) : 0;
		weights++;
	}
	/* weights is 0, 1 or 2: no division instruction for it */
	return weights == 2 ? sum / 2 : sum;
}

/* noderesources/balanced_allocation.go balancedResourceScorer for cpu and
 * memory: the standard deviation of two fractions is |f0 - f1| / 2 */
static inline int64_t balance2(int64_t rc, int64_t ac, int64_t rm, int64_t am)
{
	if (ac == 0 || am == 0)
		return 100; /* fewer than two fractions: std 0 */
	double f0 = (double)rc / (double)ac, f1 = (double)rm / (double)am;
	if (f0 > 1)
		f0 = 1;
	if (f1 > 1)
		f1 = 1;
	double std = fabs((f0 - f1) / 2);
	return (int64_t)((1 - std) * 100.0);
}

int64_t score_least_allocated(const struct cluster *c, const struct pod *p, const struct node *n)
{
	(void)c;
	return least2(wrap_add(n->nz_cpu, p->spec.nz_cpu), n->alloc.cpu,
		      wrap_add(n->nz_mem, p->spec.nz_mem), n->alloc.mem);
}

/* balanced_allocation.go Score after PR #135573 (conventions §1), given
 * wo, the node's score without the pod (balance_now) */
static inline int64_t balanced_with(const struct pod *p, const struct node *n, int64_t wo)
{
	int64_t w = balance2(wrap_add(n->used.cpu, p->spec.req.cpu), n->alloc.cpu,
			     wrap_add(n->used.mem, p->spec.req.mem), n->alloc.mem);
	return 50 + (50 + w - wo) / 2;
}

static inline int64_t balance_now(const struct node *n)
{
	return balance2(n->used.cpu, n->alloc.cpu, n->used.mem, n->alloc.mem);
}

static inline int64_t balanced_score(const struct pod *p, const struct node *n)
{
	return balanced_with(p, n, balance_now(n));
}

int64_t score_balanced_allocation(const struct cluster *c, const struct pod *p, const struct node *n)
{
	(void)c;
	return balanced_score(p, n);
}

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
		e->balanced = (int16_t)balanced_score(p, n);
		return;
	}
	/* the score without the pod, kept */
	now += id;
	if (now->stamp != c->nstamp[id]) {
		now->score = balance_now(n);
		now->stamp = c->nstamp[id];
	}
	e->balanced = (int16_t)balanced_with(p, n, now->score);
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
			fill_one(c, p, id, &w->v[id], now);
		}
	}
	w->valid = true;
	w->synced = clock;
	return w->v;
}

bool pod_requests_cpu_or_mem(const struct pod *p)
{
	assert(p);
	return p->spec.req.cpu != 0 || p->spec.req.mem != 0;
}
