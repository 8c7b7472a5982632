/* delete.c - one pod deleted. */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

static bool in_list(const uint32_t *v, uint32_t n, uint32_t x)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] == x)
			return true;
	return false;
}

/* A pod whose deletion may open node rec r: for a spreading failure a
 * pod its constraint counts in the node's domain (on the node itself
 * first), for resources the lowest-priority pod on the node that frees
 * what is missing. -1 when none. */
static int64_t delete_candidate(struct fx *x, const struct node_rec *r, const uint32_t *done, uint32_t ndone)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	const struct node *n = &c->nodes[r->node];
	if (r->fail == PL_POD_TOPOLOGY_SPREAD && r->why.spread.cons < d->ncons && r->why.spread.dom >= 0) {
		const struct constraint_rec *k = &d->cons[r->why.spread.cons];
		sym_t v = k->doms[r->why.spread.dom].value;
		for (int pass = 0; pass < 2; pass++) {
			for (uint32_t id = 0; id < c->nnodes; id++) {
				const struct node *m = &c->nodes[id];
				if (!m->alive || (pass == 0) != (id == r->node) || labels_get(&m->labels, k->key) != v)
					continue;
				for (uint32_t j = m->npods; j-- > 0;) {
					uint32_t q = m->pods[j];
					if (!in_list(done, ndone, q) && decision_counts_pod(c, d, r->why.spread.cons, &c->pods[q]))
						return q;
				}
			}
		}
		return -1;
	}
	if (r->fail == PL_NODE_RESOURCES_FIT) {
		const struct pod *p = &c->pods[x->out->pod];
		int64_t need_cpu = p->spec.req.cpu - r->why.fit.free_cpu;
		int64_t need_mem = p->spec.req.mem - r->why.fit.free_mem;
		int64_t best = -1;
		for (uint32_t j = 0; j < n->npods; j++) {
			const struct pod *q = &c->pods[n->pods[j]];
			if (in_list(done, ndone, n->pods[j]) || q->spec.req.cpu < need_cpu || q->spec.req.mem < need_mem)
				continue;
			if (best < 0 || q->spec.priority < c->pods[best].spec.priority)
				best = n->pods[j];
		}
		return best;
	}
	return -1;
}

static void fix_delete(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0, done[32], ndone = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (fx_kind_full(x, FIX_DELETE) || tries >= x->limit + EXTRA_TRIALS || ndone == 32)
			break;
		if (!fx_only(&d->nodes[ix[a]], BIT(PL_POD_TOPOLOGY_SPREAD) | BIT(PL_NODE_RESOURCES_FIT) |
						BIT(PL_INTER_POD_AFFINITY)))
			continue;
		int64_t q = delete_candidate(x, &d->nodes[ix[a]], done, ndone);
		if (q < 0)
			continue;
		done[ndone++] = (uint32_t)q;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_DELETE;
		e.target_ns = c->pods[q].ns;
		e.target = c->pods[q].name;
		fx_edit_kind(x, FIX_DELETE, &e, &tries);
	}
}

const struct fix_kind_ops fix_kind_delete = { 0, fix_delete };
