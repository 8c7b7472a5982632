/* node.c - uncordon and untaint: one node changed, among the nodes that
 * fail only for that reason (and spreading), fewest blockers first. */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

static void fix_uncordon_untaint(struct fx *x, const uint32_t *ix, enum fix_kind kind)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (fx_kind_full(x, kind) || tries >= x->limit + EXTRA_TRIALS)
			break;
		const struct node_rec *r = &d->nodes[ix[a]];
		const struct node *n = &c->nodes[r->node];
		if (!fx_only(r, BIT(PL_TAINT_TOLERATION) | BIT(PL_NODE_UNSCHEDULABLE) | BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.node = n->name;
		if (kind == FIX_UNCORDON) {
			if (!n->unschedulable || !fx_has_blocker(r, PL_NODE_UNSCHEDULABLE))
				continue;
			e.kind = STEP_UNCORDON;
		} else {
			const struct taint *tn = fx_blocking_taint(x, r);
			if (!tn || (tn->key == c->sym_unsched_taint && n->unschedulable))
				continue;
			e.kind = STEP_UNTAINT;
			e.taint = *tn;
		}
		fx_edit_kind(x, kind, &e, &tries);
	}
}

static void run_uncordon(struct fx *x, const uint32_t *ix)
{
	fix_uncordon_untaint(x, ix, FIX_UNCORDON);
}

static void run_untaint(struct fx *x, const uint32_t *ix)
{
	fix_uncordon_untaint(x, ix, FIX_UNTAINT);
}

const struct fix_kind_ops fix_kind_uncordon = { 0, run_uncordon };
const struct fix_kind_ops fix_kind_untaint = { 0, run_untaint };
