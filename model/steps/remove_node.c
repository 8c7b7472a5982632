/* remove_node.c - `removeNode: NODE`: the node goes with the pods bound
 * to it (they are deleted, as the node lifecycle controller's eviction
 * would end them); undo brings both back. */
#include "step.h"

#include <stdlib.h>
#include <string.h>

struct rec {
	uint32_t *pods;         /* the pods unbound, in order */
	uint32_t npods;
};

static void save(const struct step *s, struct step_writer *w)
{
	w->str(w, s->node);
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	struct node *n = step_node(x);
	if (!n)
		return step_error(x, "no node %s", intern_get(c->in, x->s->node));
	uint32_t nid = (uint32_t)x->u->node;
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	free(k->pods);
	k->npods = n->npods;
	k->pods = NULL;
	if (n->npods) {
		if (!(k->pods = malloc(n->npods * sizeof(*k->pods))))
			return 0;
		memcpy(k->pods, n->pods, n->npods * sizeof(*k->pods));
	}
	for (uint32_t i = k->npods; i-- > 0;) {
		cluster_unbind(c, k->pods[i]);
		cluster_kill_pod(c, k->pods[i]);
	}
	cluster_remove_node(c, nid);
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	const struct rec *k = u->rec;
	if (!u->applied)
		return;
	cluster_revive_node(x->c, (uint32_t)u->node);
	for (uint32_t i = 0; i < k->npods; i++) {
		cluster_revive_pod(x->c, k->pods[i]);
		cluster_bind(x->c, k->pods[i], (uint32_t)u->node);
	}
}

static void forget(struct step_undo *u)
{
	struct rec *k = u->rec;
	free(k->pods);
}

const struct step_ops step_remove_node = {
	.name = "removeNode",
	.example = "removeNode: n1",
	.read = step_read_node_name,
	.save = save,
	.describe = step_describe_node,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};
