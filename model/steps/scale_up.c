/* scale_up.c - `scaleUp: {autoscaler: ..., dryRun: ...}`: the cluster
 * autoscaler (or Karpenter) runs once over the live cluster
 * (model/autoscale/, spec/autoscalers.md) and, unless dryRun, the nodes
 * it adds join the cluster. Its report is kept in the undo record
 * (scale_up_report). */
#include "step.h"
#include "scale_up.h"

#include <stdlib.h>
#include <string.h>

#include "../autoscale/autoscale.h"

struct rec {
	struct as_report *rep;
	struct as_changes ch;
};

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	struct as_step *a = calloc(1, sizeof(*a));
	if (!a)
		return r->oom(r);
	a->over.balance = a->over.force_ds = a->over.pref_ignore = -1;
	a->over.max_nodes_total = a->over.max_per_scaleup = -1;
	s->arg = a;
	if (r->absent(v))
		return 1;
	if (!r->want_map(r, v, "scaleUp"))
		return 0;
	const struct step_value *k = r->get(v, "autoscaler");
	if (!r->absent(k)) {
		const char *t;
		size_t n;
		if (!r->text(r, k, "autoscaler", &t, &n))
			return 0;
		if (n == 17 && !memcmp(t, "clusterAutoscaler", 17))
			a->kind = AS_CA;
		else if (n == 9 && !memcmp(t, "karpenter", 9))
			a->kind = AS_KARPENTER;
		else {
			r->error(r, k, "unknown autoscaler '%.*s' (expected clusterAutoscaler or karpenter)", (int)n, t);
			return 0;
		}
	}
	const struct step_value *d = r->get(v, "dryRun");
	if (!r->absent(d) && !r->boolean(r, d, "dryRun", &a->dry))
		return 0;
	return 1;
}

static void save(const struct step *s, struct step_writer *w)
{
	const struct as_step *a = s->arg;
	w->begin(w);
	if (a && a->kind != AS_DEFAULT) {
		w->key(w, "autoscaler");
		w->text(w, a->kind == AS_CA ? "clusterAutoscaler" : "karpenter");
	}
	if (a && a->dry) {
		w->key(w, "dryRun");
		w->raw(w, "true");
	}
	if (a && w->settings)
		w->settings(w, &a->over);
	w->end(w);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct as_step *a = t->sc->steps[i].arg;
	const struct as_report *r = scale_up_report(t, i);
	enum as_kind k = r ? r->kind : a ? a->kind : AS_DEFAULT;
	if (k == AS_CA)
		step_text_puts(b, " clusterAutoscaler");
	else if (k == AS_KARPENTER)
		step_text_puts(b, " karpenter");
	if (a && a->dry)
		step_text_puts(b, " (dry run)");
}

static int copy(struct step *dst, const struct step *src)
{
	struct as_step *a;
	if (!as_step_copy(&a, src->arg))
		return 0;
	dst->arg = a;
	return 1;
}

static void fini(struct step *s)
{
	as_step_free(s->arg);
	s->arg = NULL;
}

static void forget(struct step_undo *u)
{
	struct rec *k = u->rec;
	as_report_free(k->rep);
	free(k->ch.nodes);
	free(k->ch.pods);
	free(k->ch.pod_node);
	memset(k, 0, sizeof(*k));
}

static int apply(struct step_ctx *x)
{
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	const struct as_step *a = x->s->arg;
	static const struct as_step none = {.over = {.balance = -1, .force_ds = -1, .pref_ignore = -1,
						     .max_nodes_total = -1, .max_per_scaleup = -1}};
	if (!a)
		a = &none;
	if (x->r->done && k->rep) {
		/* redo: the same nodes come back */
		for (uint32_t i = 0; i < k->ch.nnodes; i++)
			cluster_revive_node(x->c, k->ch.nodes[i]);
		for (uint32_t i = 0; i < k->ch.npods; i++) {
			cluster_revive_pod(x->c, k->ch.pods[i]);
			cluster_bind(x->c, k->ch.pods[i], k->ch.pod_node[i]);
		}
	} else {
		forget(x->u);
		if (!as_scale_up(x->t->sched, x->t->sc, a, &k->rep, &k->ch))
			return 0;
	}
	if (k->rep->error)
		return step_error(x, "%s", k->rep->error);
	if (k->ch.nnodes || k->ch.npods)
		return step_done(x);
	if (x->d)
		x->d->outcome = OUT_APPLIED;
	return timeline_set_result(x->r, OUT_APPLIED, -1, NULL);
}

static void undo(struct step_ctx *x)
{
	struct rec *k = x->u->rec;
	if (!x->u->applied || !k)
		return;
	for (uint32_t i = k->ch.npods; i-- > 0;) {
		cluster_unbind(x->c, k->ch.pods[i]);
		cluster_kill_pod(x->c, k->ch.pods[i]);
	}
	for (uint32_t i = k->ch.nnodes; i-- > 0;)
		cluster_remove_node(x->c, k->ch.nodes[i]);
}

const struct as_report *scale_up_report(const struct timeline *t, uint32_t i)
{
	if (i >= t->sc->nsteps || t->sc->steps[i].kind != STEP_SCALE_UP)
		return NULL;
	const struct rec *k = timeline_step_rec(t, i);
	return k ? k->rep : NULL;
}

const struct step_ops step_scale_up = {
	.name = "scaleUp",
	.example = "scaleUp: {autoscaler: clusterAutoscaler}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};
