/* noderesources_fit.c - NodeResourcesFit: Filter (fit.go fitsRequest)
 * and Score (the default LeastAllocated strategy), with the reason and
 * detail of its failures. */
#include "../plugins.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../quantity.h"

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

int64_t score_least_allocated(const struct cluster *c, const struct pod *p, const struct node *n)
{
	(void)c;
	return least2(wrap_add(n->nz_cpu, p->spec.nz_cpu), n->alloc.cpu,
		      wrap_add(n->nz_mem, p->spec.nz_mem), n->alloc.mem);
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_fit(x->c, x->p, x->over && id == x->over_id ? x->over : &x->c->nodes[id], x->d, r);
}

/* noderesources/least_allocated.go, the default scoring strategy */
static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	return score_least_allocated(x->c, x->p, &x->c->nodes[id]);
}

/* noderesources/fit.go fitsRequest order */
static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	size_t o = 0;
	const char *sep = "";
	static const struct {
		uint32_t bit;
		const char *what;
	} res[] = {
		{ FIT_TOO_MANY_PODS, "Too many pods" },
		{ FIT_CPU, "Insufficient cpu" },
		{ FIT_MEM, "Insufficient memory" },
		{ FIT_EPH, "Insufficient ephemeral-storage" },
	};
	for (uint32_t i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		if (!(r->why.fit.bits & res[i].bit))
			continue;
		fmt_append(buf, len, &o, sep);
		fmt_append(buf, len, &o, res[i].what);
		sep = ", ";
	}
	for (uint32_t i = 0; i < d->next && i < 64; i++) {
		if (!(r->why.fit.ext_bits & (1ull << i)))
			continue;
		fmt_append(buf, len, &o, sep);
		fmt_append(buf, len, &o, "Insufficient ");
		fmt_append(buf, len, &o, intern_get(c->in, d->ext_names[i]));
		sep = ", ";
	}
}

/* each request against what was free */
static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct node *n = &c->nodes[r->node];
	const struct pod *p = &c->pods[d->pod];
	char a[32], b[32], tmp[160];
	size_t o = 0;
	buf[0] = '\0';
	if (r->why.fit.bits & FIT_TOO_MANY_PODS) {
		snprintf(tmp, sizeof(tmp), "pods: %u bound of %" PRId64 " allowed", r->why.fit.bound, n->alloc.pods);
		fmt_append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_CPU) {
		quantity_format_milli(p->spec.req.cpu, a, sizeof(a));
		quantity_format_milli(r->why.fit.free_cpu, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%scpu: requests %s, free %s", o ? "; " : "", a, b);
		fmt_append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_MEM) {
		quantity_format_bytes(p->spec.req.mem, a, sizeof(a));
		quantity_format_bytes(r->why.fit.free_mem, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%smemory: requests %s, free %s", o ? "; " : "", a, b);
		fmt_append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_EPH) {
		quantity_format_bytes(p->spec.req.eph, a, sizeof(a));
		quantity_format_bytes(r->why.fit.free_eph, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%sephemeral-storage: requests %s, free %s", o ? "; " : "", a, b);
		fmt_append(buf, len, &o, tmp);
	}
	for (uint32_t i = 0; i < d->next && i < 64; i++) {
		if (!(r->why.fit.ext_bits & (1ull << i)))
			continue;
		sym_t name = d->ext_names[i];
		snprintf(tmp, sizeof(tmp), "%s%.80s: requests %" PRId64 ", free %" PRId64, o ? "; " : "",
			 intern_get(c->in, name), resources_ext(&p->spec.req, name),
			 wrap_sub(resources_ext(&n->alloc, name), resources_ext(&n->used, name)));
		fmt_append(buf, len, &o, tmp);
	}
}

const struct plugin_ops plugin_node_resources_fit = {
	.code = "Fit",
	.filter = filter,
	.score = score,
	.reason = reason,
	.detail = detail,
};
