/* deschedule.c - `deschedule: {constraints, topologyBalanceNodeFit,
 * recreate}`: the descheduler's RemovePodsViolatingTopologySpreadConstraint
 * once (model/controllers/desched.c); each eviction, and with recreate
 * each replacement its owner makes, is a sub-step. */
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../controllers/ctl.h"

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	struct desched_args *a = calloc(1, sizeof(*a));
	if (!a)
		return r->oom(r);
	s->arg = a;
	a->node_fit = true;
	if (r->absent(v)) {
		a->hard = true;
		return 1;
	}
	if (!r->want_map(r, v, "deschedule"))
		return 0;
	const struct step_value *cv = r->get(v, "constraints");
	sym_t *cons = NULL;
	uint32_t n = 0;
	if (!r->strs(r, cv, "constraints", &cons, &n))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *t = intern_get(r->in, cons[i]);
		if (!strcmp(t, "DoNotSchedule"))
			a->hard = true;
		else if (!strcmp(t, "ScheduleAnyway"))
			a->soft = true;
		else {
			r->error(r, cv, "unknown constraint action '%s' (expected DoNotSchedule or ScheduleAnyway)", t);
			free(cons);
			return 0;
		}
	}
	free(cons);
	if (!n)
		a->hard = true; /* defaults.go */
	const struct step_value *fv = r->get(v, "topologyBalanceNodeFit"), *rv = r->get(v, "recreate");
	if (!r->absent(fv) && !r->boolean(r, fv, "topologyBalanceNodeFit", &a->node_fit))
		return 0;
	if (!r->absent(rv) && !r->boolean(r, rv, "recreate", &a->recreate))
		return 0;
	return 1;
}

static void cons_text(const struct desched_args *a, char *buf, size_t len)
{
	snprintf(buf, len, "[%s%s%s]", a->hard ? "DoNotSchedule" : "", a->hard && a->soft ? ", " : "",
		 a->soft ? "ScheduleAnyway" : "");
}

static void save(const struct step *s, struct step_writer *w)
{
	const struct desched_args *a = s->arg;
	char cons[64];
	cons_text(a, cons, sizeof(cons));
	const char *keys[] = {"constraints", "topologyBalanceNodeFit", "recreate"};
	const char *vals[] = {cons, a->node_fit ? "true" : "false", a->recreate ? "true" : "false"};
	const bool raw[] = {true, true, true};
	w->block(w, keys, vals, raw, 3, NULL, NULL);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct desched_args *a = t->sc->steps[i].arg;
	char cons[64];
	cons_text(a, cons, sizeof(cons));
	step_text_printf(b, " %s%s%s", cons, a->node_fit ? " nodeFit" : "", a->recreate ? " recreate" : "");
}

static int copy(struct step *dst, const struct step *src)
{
	struct desched_args *a = malloc(sizeof(*a));
	if (!a)
		return 0;
	*a = *(const struct desched_args *)src->arg;
	dst->arg = a;
	return 1;
}

static void fini(struct step *s)
{
	free(s->arg);
	s->arg = NULL;
}

static int apply(struct step_ctx *x)
{
	struct ctl_run *k = ctl_run_of(x);
	if (!k)
		return 0;
	if (k->recorded) {
		ctl_replay(x, k);
		return 1;
	}
	if (!ctl_begin(x, k))
		return 0;
	/* the skew summary reads the first constraint of a pod it could move */
	struct cluster *c = x->c;
	int64_t id = -1, before = -1;
	sym_t key;
	for (uint32_t i = 0; i < c->npods && id < 0; i++)
		if (c->pods[i].alive && c->pods[i].node >= 0 && c->pods[i].nowners && c->pods[i].spec.ntscs)
			id = i;
	if (id >= 0)
		before = ctl_skew(c, c->pods[id].ns, &c->pods[id], &key);
	return ctl_deschedule(x, k, x->s->arg) &&
	       ctl_summarize(c, k, "descheduler", "the descheduler", id >= 0 ? c->pods[id].ns : SYM_NONE,
			     id >= 0 ? &c->pods[id] : NULL, before) &&
	       ctl_end(x, k);
}

int ctl_step_deschedule(struct step *st, bool recreate)
{
	memset(st, 0, sizeof(*st));
	st->kind = STEP_DESCHEDULE;
	st->pod.node = -1;
	struct desched_args *a = calloc(1, sizeof(*a));
	if (!a)
		return 0;
	a->hard = true;
	a->node_fit = true;
	a->recreate = recreate;
	st->arg = a;
	return 1;
}

const struct step_ops step_deschedule = {
	.name = "deschedule",
	.flags = STEP_F_EXPECT,
	.example = "deschedule: {constraints: [DoNotSchedule], topologyBalanceNodeFit: false, recreate: true}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = ctl_undo,
	.forget = ctl_forget,
};
