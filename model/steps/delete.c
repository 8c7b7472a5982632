/* delete.c - `delete: [NAMESPACE/]NAME`: the pod goes (unbound first);
 * undo puts it back at the same place in its node's list. */
#include "step.h"

#include <stdlib.h>

struct rec {
	uint32_t pos;           /* position in the node's pod list */
};

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	const struct step *s = x->s;
	struct step_undo *u = x->u;
	char ref[300];
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	u->node = -1;
	int32_t id = timeline_find_pod(c, s->target_ns, s->target);
	if (id < 0)
		return step_error(x, id == -2 ? "delete: pod name %s is in several namespaces: "
				  "write namespace/name" : "delete: no pod %s",
				  timeline_pod_ref(c, s->target_ns, s->target, ref, sizeof(ref)));
	u->pod = id;
	x->r->pod = (uint32_t)id;
	x->r->has_pod = true;
	u->node = c->pods[id].node;
	if (u->node >= 0) {
		k->pos = cluster_pod_pos(c, (uint32_t)id);
		cluster_unbind(c, (uint32_t)id);
	}
	cluster_kill_pod(c, (uint32_t)id);
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	const struct rec *k = u->rec;
	if (!u->applied)
		return;
	cluster_revive_pod(x->c, (uint32_t)u->pod);
	if (u->node >= 0)
		cluster_bind_at(x->c, (uint32_t)u->pod, (uint32_t)u->node, k->pos);
}

const struct step_ops step_delete = {
	.name = "delete",
	.flags = STEP_F_RESOLVES,
	.example = "delete: web-2",
	.read = step_read_target,
	.save = step_save_target,
	.describe = step_describe_pod,
	.pod = step_target_pod,
	.apply = apply,
	.undo = undo,
};
