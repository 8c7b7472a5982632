/* balancedallocation.c - NodeResourcesBalancedAllocation: PreScore (Skip
 * without cpu or memory requests) and Score for cpu and memory. */
#include "../plugins.h"

#include <assert.h>
#include <math.h>

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

/* balanced_allocation.go Score after PR #135573 (conventions §1), given
 * wo, the node's score without the pod (balanced_allocation_now) */
int64_t balanced_allocation_with(const struct pod *p, const struct node *n, int64_t wo)
{
	int64_t w = balance2(wrap_add(n->used.cpu, p->spec.req.cpu), n->alloc.cpu,
			     wrap_add(n->used.mem, p->spec.req.mem), n->alloc.mem);
	return 50 + (50 + w - wo) / 2;
}

/* the node's score without the pod, which does not depend on the pod */
int64_t balanced_allocation_now(const struct node *n)
{
	return balance2(n->used.cpu, n->alloc.cpu, n->used.mem, n->alloc.mem);
}

/* balanced_allocation.go Score */
int64_t score_balanced_allocation(const struct cluster *c, const struct pod *p, const struct node *n)
{
	(void)c;
	return balanced_allocation_with(p, n, balanced_allocation_now(n));
}

bool pod_requests_cpu_or_mem(const struct pod *p)
{
	assert(p);
	return p->spec.req.cpu != 0 || p->spec.req.mem != 0;
}

/* balanced_allocation.go PreScore: Skip when the pod requests neither
 * cpu nor memory */
static bool prescore(struct cycle_state *x, const uint32_t *ids, uint32_t nf)
{
	(void)ids, (void)nf;
	return pod_requests_cpu_or_mem(x->p);
}

static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	return score_balanced_allocation(x->c, x->p, &x->c->nodes[id]);
}

const struct plugin_ops plugin_balanced_allocation = {
	.prescore = prescore,
	.score = score,
};
