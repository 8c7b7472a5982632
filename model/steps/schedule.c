/* schedule.c - `schedule: POD`: creates the pod and runs a scheduling
 * cycle for it. The first apply decides; moving forward again rebinds to
 * the recorded node without a cycle (redo), unless a decision is asked
 * for. */
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate.h"

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	int rc = r->pod(r, v, "schedule", &s->pod);
	if (rc == 2) {
		r->error(r, v, "schedule pod has status.phase Succeeded or Failed (expected a pod to schedule)");
		return 0;
	}
	return rc;
}

static void save(const struct step *s, struct step_writer *w)
{
	w->pod(w, &s->pod);
}

static bool pod(const struct step *s, sym_t *ns, sym_t *name)
{
	*ns = s->pod.ns;
	*name = s->pod.name;
	return s->pod.name != SYM_NONE;
}

static int copy(struct step *dst, const struct step *src)
{
	return pod_copy(&dst->pod, &src->pod);
}

static void fini(struct step *s)
{
	pod_fini(&s->pod);
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	struct step_result *r = x->r;
	struct step_undo *u = x->u;
	struct decision local, *d = x->d;
	char buf[600];
	memset(&local, 0, sizeof(local));
	/* nobody reads the records of a cycle made only to move on */
	local.lean = true;
	if (!d)
		d = &local;
	d->chosen = -1;

	if (r->done && u->pod >= 0 && !d->nodes && d == &local) {
		/* redo: the recorded outcome, no new cycle */
		if (r->outcome == OUT_ERROR)
			return 1;
		cluster_revive_pod(c, (uint32_t)u->pod);
		u->created = true;
		if (r->node >= 0) {
			cluster_bind(c, (uint32_t)u->pod, (uint32_t)r->node);
			u->node = r->node;
			u->applied = true;
			if (!timeline_claims_bind(x, (uint32_t)u->pod))
				return 0;
		}
		timeline_preemption_redo(x, (uint32_t)u->pod);
		return 1;
	}
	if (r->done && u->pod >= 0) {
		/* explain of an applied-before step: same pod id, fresh cycle */
		cluster_revive_pod(c, (uint32_t)u->pod);
		u->created = true;
		d->pod = (uint32_t)u->pod;
		int rc = timeline_cycle(x, (uint32_t)u->pod, d);
		if (rc == 2) {
			cluster_kill_pod(c, (uint32_t)u->pod);
			u->created = false;
		}
		decision_fini(&local);
		return rc != 0;
	}
	if (r->done) {
		/* invalid or duplicate the first time: the same again */
		d->outcome = r->outcome;
		d->message = r->message ? strdup(r->message) : NULL;
		decision_fini(&local);
		return 1;
	}
	struct pod p;
	if (!pod_copy(&p, &x->s->pod))
		return 0;
	if (!admit_pod(c, &p)) {
		pod_fini(&p);
		return 0;
	}
	char *err = timeline_admit(c, &p);
	if (!err)
		err = validate_pod(c, &p);
	if (err) {
		d->outcome = OUT_INVALID;
		d->message = err;
		pod_fini(&p);
		int ok = timeline_set_result(r, OUT_INVALID, -1, err);
		decision_fini(&local);
		return ok;
	}
	if (cluster_find_pod(c, p.ns, p.name) >= 0) {
		snprintf(buf, sizeof(buf), "schedule: pod %s/%s already exists",
			 intern_get(c->in, p.ns), intern_get(c->in, p.name));
		pod_fini(&p);
		d->outcome = OUT_ERROR;
		d->message = strdup(buf);
		int ok = d->message && timeline_set_result(r, OUT_ERROR, -1, buf);
		decision_fini(&local);
		return ok;
	}
	int32_t id = cluster_add_pod(c, &p);
	if (id < 0) {
		pod_fini(&p);
		return 0;
	}
	u->pod = id;
	u->created = true;
	r->pod = (uint32_t)id;
	r->has_pod = true;
	int rc = timeline_cycle(x, (uint32_t)id, d);
	if (rc == 2) {
		cluster_kill_pod(c, (uint32_t)id); /* an error step changes nothing */
		u->created = false;
	}
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
	if (u->pod >= 0 && (u->created || u->applied))
		timeline_preemption_undo(x, (uint32_t)u->pod);
	if (u->created)
		cluster_kill_pod(x->c, (uint32_t)u->pod);
}

const struct step_ops step_schedule = {
	.name = "schedule",
	.flags = STEP_F_CYCLE | STEP_F_POD,
	.example = "schedule: {name: extra, labels: {app: web}}",
	.read = read,
	.save = save,
	.describe = step_describe_pod,
	.pod = pod,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = undo,
};
