/* add_node.c - `addNode: NODE`: a node joins the cluster. Its id is kept
 * across undo and redo (the node is revived, not made again). */
#include "step.h"

#include <stdlib.h>
#include <string.h>

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	return r->node(r, v, "addNode", &s->new_node);
}

static void save(const struct step *s, struct step_writer *w)
{
	w->node(w, &s->new_node);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(t->c->in, t->sc->steps[i].new_node.name));
}

static int copy(struct step *dst, const struct step *src)
{
	return node_copy_def(&dst->new_node, &src->new_node);
}

static void fini(struct step *s)
{
	node_fini(&s->new_node);
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	const struct step *s = x->s;
	struct step_undo *u = x->u;
	if (cluster_find_node(c, s->new_node.name) >= 0)
		return step_error(x, "addNode: node %s already exists", intern_get(c->in, s->new_node.name));
	if (x->r->done && u->node >= 0) {
		cluster_revive_node(c, (uint32_t)u->node);
	} else {
		struct node nn;
		if (!node_copy_def(&nn, &s->new_node))
			return 0;
		int32_t id = cluster_add_node(c, &nn);
		if (id < 0) {
			node_fini(&nn);
			return 0;
		}
		u->node = id;
	}
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	if (x->u->applied)
		cluster_remove_node(x->c, (uint32_t)x->u->node);
}

const struct step_ops step_add_node = {
	.name = "addNode",
	.example = "addNode: {name: n4, labels: {zone: c}, allocatable: {cpu: 2, memory: 4Gi}}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = undo,
};

int step_add_node_like(struct step *dst, const struct node *like, sym_t name)
{
	memset(dst, 0, sizeof(*dst));
	dst->kind = STEP_ADD_NODE;
	if (!node_copy_def(&dst->new_node, like))
		return 0;
	/* a fresh node: no taints, schedulable, its own hostname */
	free(dst->new_node.taints);
	dst->new_node.taints = NULL;
	dst->new_node.ntaints = 0;
	dst->new_node.unschedulable = false;
	dst->new_node.name = name;
	dst->new_node.line = dst->new_node.col = 0;
	/* per-node labels (kubernetes.io/hostname, or any other whose value
	 * is the node's name, as node=node1) name the new node instead */
	for (uint32_t i = 0; i < dst->new_node.labels.n; i++) {
		if (dst->new_node.labels.v[i].val == like->name &&
		    !labels_set(&dst->new_node.labels, dst->new_node.labels.v[i].key, name)) {
			step_fini(dst);
			return 0;
		}
	}
	return 1;
}
