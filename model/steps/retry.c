/* retry.c - `retry: [NAMESPACE/]NAME`: a new scheduling cycle for a pod
 * an earlier step left pending. */
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	const struct step *s = x->s;
	struct step_result *r = x->r;
	struct step_undo *u = x->u;
	struct decision local, *d = x->d;
	char buf[600], ref[300];
	memset(&local, 0, sizeof(local));
	/* nobody reads the records of a cycle made only to move on */
	local.lean = true;
	if (!d)
		d = &local;
	d->chosen = -1;
	int32_t id = timeline_find_pod(c, s->target_ns, s->target);
	if (id < 0 || c->pods[id].node >= 0) {
		snprintf(buf, sizeof(buf), id == -2 ? "retry: pod name %s is in several namespaces: "
			 "write namespace/name" : id < 0 ? "retry: no pod %s" : "retry: pod %s is already bound",
			 timeline_pod_ref(c, s->target_ns, s->target, ref, sizeof(ref)));
		d->outcome = OUT_ERROR;
		d->message = strdup(buf);
		int ok = d->message && timeline_set_result(r, OUT_ERROR, -1, buf);
		decision_fini(&local);
		return ok;
	}
	u->pod = id;
	r->pod = (uint32_t)id;
	r->has_pod = true;
	if (r->done && d == &local && r->outcome != OUT_ERROR) {
		if (r->node >= 0) {
			cluster_bind(c, (uint32_t)id, (uint32_t)r->node);
			u->node = r->node;
			u->applied = true;
			if (!timeline_claims_bind(x, (uint32_t)id))
				return 0;
		}
		timeline_preemption_redo(x, (uint32_t)id);
		return 1;
	}
	d->pod = (uint32_t)id;
	int rc = timeline_cycle(x, (uint32_t)id, d);
	decision_fini(&local);
	return rc != 0;
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	if (u->applied) {
		timeline_claims_undo(x);
		cluster_unbind(x->c, (uint32_t)u->pod);
	}
	if (u->pod >= 0)
		timeline_preemption_undo(x, (uint32_t)u->pod);
}

const struct step_ops step_retry = {
	.name = "retry",
	.flags = STEP_F_CYCLE | STEP_F_RESOLVES,
	.example = "retry: pending",
	.read = step_read_target,
	.save = step_save_target,
	.describe = step_describe_pod,
	.pod = step_target_pod,
	.apply = apply,
	.undo = undo,
};
