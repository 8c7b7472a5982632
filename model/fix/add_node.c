/* add_node.c - one node added, a copy of an existing one. */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

/* addNode: a copy of a node with a new name, in the copied node's
 * domains or moved into the domain at a hard constraint's global minimum
 * (the empty zone). Templates are tried from the nodes that fail for the
 * fewest reasons a copy would share (all but spreading, resources and pod
 * affinity, which see an empty new node), one per set of the hard
 * constraints' domains and shape. */
static bool same_shape(const struct fx *x, const struct node *m, const struct labels *ml, const struct node *n,
		       const struct labels *nl)
{
	const struct decision *d = &x->d0;
	bool same = m->ntaints == n->ntaints && m->alloc.cpu == n->alloc.cpu && m->alloc.mem == n->alloc.mem &&
		    m->alloc.pods == n->alloc.pods;
	for (uint32_t h = 0; h < d->ncons && same; h++)
		if (d->cons[h].hard && d->cons[h].key != x->c->sym_hostname)
			same = labels_get(ml, d->cons[h].key) == labels_get(nl, d->cons[h].key);
	return same;
}

#define MAX_TMPL 64

static void fix_add_node(struct fx *x)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	const unsigned fresh = (1u << PL_POD_TOPOLOGY_SPREAD) | (1u << PL_NODE_RESOURCES_FIT) |
			       (1u << PL_INTER_POD_AFFINITY) | (1u << PL_NODE_NAME);
	uint32_t tries = 0, ntmpl = 0;
	struct { uint32_t node; struct labels l; } tmpl[MAX_TMPL];
	for (unsigned b = 0; b <= PL__COUNT && !x->oom; b++) {
		for (uint32_t j = 0; j < d->nnodes && !x->oom; j++) {
			const struct node_rec *r = &d->nodes[j];
			if (fx_popcount16(r->blockers & ~fresh) != b || c->nodes[r->node].unschedulable)
				continue;
			/* variant 0: as it is; variant 1 + h: hard constraint
			 * h's key set to its minimum domain */
			for (uint32_t var = 0; var <= d->ncons && !x->oom; var++) {
				if (fx_kind_full(x, FIX_ADD_NODE) || tries >= x->limit + EXTRA_TRIALS || ntmpl == MAX_TMPL)
					goto out;
				/* (a trial adds a node: the array may move) */
				const struct node *n = &c->nodes[r->node];
				struct step e;
				memset(&e, 0, sizeof(e));
				e.kind = STEP_ADD_NODE;
				if (var) {
					const struct constraint_rec *k = &d->cons[var - 1];
					if (!k->hard || k->key == c->sym_hostname || !k->min_value ||
					    labels_get(&n->labels, k->key) == k->min_value)
						continue;
				}
				if (!node_copy_def(&e.new_node, n)) {
					x->oom = true;
					goto out;
				}
				e.new_node.unschedulable = false;
				if (var && !labels_set(&e.new_node.labels, d->cons[var - 1].key, d->cons[var - 1].min_value)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				bool dup = false;
				for (uint32_t k = 0; k < ntmpl && !dup; k++)
					dup = same_shape(x, &c->nodes[tmpl[k].node], &tmpl[k].l, n, &e.new_node.labels);
				if (dup) {
					step_fini(&e);
					continue;
				}
				tmpl[ntmpl].node = r->node;
				if (!labels_copy(&tmpl[ntmpl].l, &e.new_node.labels)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				ntmpl++;
				char name[300];
				const char *base = intern_get(c->in, n->name);
				snprintf(name, sizeof(name), "%.240s-copy", base);
				for (uint32_t k = 2; cluster_find_node(c, intern_str(c->in, name)) >= 0; k++)
					snprintf(name, sizeof(name), "%.240s-copy%u", base, k);
				e.new_node.name = intern_str(c->in, name);
				if (labels_get(&n->labels, c->sym_hostname) == n->name &&
				    !labels_set(&e.new_node.labels, c->sym_hostname, e.new_node.name)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				/* the domain it is in: the key moved, else the
				 * first hard constraint's other than the hostname */
				sym_t dk = SYM_NONE, dv = SYM_NONE;
				for (uint32_t h = 0; h < d->ncons && !dk; h++) {
					const struct constraint_rec *k = &d->cons[var ? var - 1 : h];
					if (k->hard && k->key != c->sym_hostname) {
						dk = k->key;
						dv = labels_get(&e.new_node.labels, dk);
					}
				}
				uint32_t before = x->out->n;
				fx_edit_kind(x, FIX_ADD_NODE, &e, &tries);
				if (x->out->n > before) {
					x->out->v[before].tmpl = (int32_t)r->node;
					x->out->v[before].dom_key = dv ? dk : SYM_NONE;
					x->out->v[before].dom_val = dv;
				}
			}
		}
	}
out:
	for (uint32_t k = 0; k < ntmpl; k++)
		labels_fini(&tmpl[k].l);
}

static void run_add_node(struct fx *x, const uint32_t *ix)
{
	(void)ix;
	fix_add_node(x);
}

const struct fix_kind_ops fix_kind_add_node = { 0, run_add_node };
