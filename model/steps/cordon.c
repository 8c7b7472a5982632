/* cordon.c - `cordon: NODE` and `uncordon: NODE`, as kubectl does them:
 * spec.unschedulable and the node.kubernetes.io/unschedulable:NoSchedule
 * taint together. */
#include "step.h"

#include <stdlib.h>

struct rec {
	bool was_unsched;
	struct step_taints taints;
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
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	bool cordon = x->s->kind == STEP_CORDON;
	k->was_unsched = n->unschedulable;
	if (!step_taints_keep(&k->taints, n))
		return 0;
	struct taint tt = { c->sym_unsched_taint, c->sym_empty, EFFECT_NO_SCHEDULE,
			    intern_str(c->in, "NoSchedule") };
	uint32_t id = (uint32_t)x->u->node;
	cluster_set_unschedulable(c, id, cordon);
	if (cordon) {
		if (!cluster_add_taint(c, id, &tt))
			return 0;
	} else {
		cluster_remove_taints(c, id, c->sym_unsched_taint, EFFECT_NO_SCHEDULE);
	}
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	struct rec *k = u->rec;
	if (!u->applied)
		return;
	cluster_set_unschedulable(x->c, (uint32_t)u->node, k->was_unsched);
	step_taints_restore(x->c, (uint32_t)u->node, &k->taints);
}

static void forget(struct step_undo *u)
{
	struct rec *k = u->rec;
	free(k->taints.v);
}

const struct step_ops step_cordon = {
	.name = "cordon",
	.example = "cordon: n2",
	.read = step_read_node_name,
	.save = save,
	.describe = step_describe_node,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};

const struct step_ops step_uncordon = {
	.name = "uncordon",
	.example = "uncordon: n3",
	.read = step_read_node_name,
	.save = save,
	.describe = step_describe_node,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};
