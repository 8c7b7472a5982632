/* label.c - one node labelled. */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

/* label: a node that fails only for a label: the pod's nodeSelector
 * (one pair missing) or a hard constraint's missing key (given the
 * value of the domain at the global minimum). */
static void fix_label(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (fx_kind_full(x, FIX_LABEL) || tries >= x->limit + EXTRA_TRIALS)
			break;
		/* (each trial adds a pod: the array may move) */
		const struct pod *p = &c->pods[x->out->pod];
		const struct node_rec *r = &d->nodes[ix[a]];
		const struct node *n = &c->nodes[r->node];
		if (!fx_only(r, BIT(PL_NODE_AFFINITY) | BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_LABEL;
		e.node = n->name;
		if (fx_has_blocker(r, PL_NODE_AFFINITY)) {
			const struct labels *ns = &p->spec.node_selector;
			uint32_t miss = 0;
			for (uint32_t k = 0; k < ns->n; k++) {
				if (labels_get(&n->labels, ns->v[k].key) != ns->v[k].val) {
					miss++;
					e.label_key = ns->v[k].key;
					e.label_val = ns->v[k].val;
				}
			}
			if (miss != 1)
				continue;
		} else if (fx_has_blocker(r, PL_POD_TOPOLOGY_SPREAD) && r->why.spread.dom < 0 &&
			   r->why.spread.cons < d->ncons) {
			const struct constraint_rec *k = &d->cons[r->why.spread.cons];
			if (!k->min_value)
				continue;
			e.label_key = k->key;
			e.label_val = k->min_value;
		} else {
			continue;
		}
		fx_edit_kind(x, FIX_LABEL, &e, &tries);
	}
}

const struct fix_kind_ops fix_kind_label = { 0, fix_label };
