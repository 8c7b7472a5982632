/* scale.c - `scale: {kind, name, namespace, replicas}`: a Deployment,
 * ReplicaSet or StatefulSet at a new size; its controller creates (and
 * the scheduler places) or deletes pods, each a sub-step
 * (model/controllers/). */
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../controllers/ctl.h"

struct arg {
	enum workload_kind kind;
	sym_t name, ns;
	int64_t replicas;
};

static const char *kind_text(enum workload_kind k)
{
	return k == WL_DEPLOYMENT ? "Deployment" : k == WL_STATEFULSET ? "StatefulSet" : "ReplicaSet";
}

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	struct arg *a = calloc(1, sizeof(*a));
	sym_t kind = SYM_NONE;
	if (!a)
		return r->oom(r);
	s->arg = a;
	if (!r->want_map(r, v, "scale"))
		return 0;
	const struct step_value *kv = r->get(v, "kind"), *nv = r->get(v, "name");
	const struct step_value *rv = r->get(v, "replicas");
	if (r->absent(kv) || r->absent(nv) || r->absent(rv)) {
		r->error(r, v, "scale step has no '%s' (expected {kind, name, namespace, replicas})",
			 r->absent(kv) ? "kind" : r->absent(nv) ? "name" : "replicas");
		return 0;
	}
	if (!r->scalar(r, kv, "kind", &kind) || !r->scalar(r, nv, "name", &a->name) ||
	    !r->str(r, r->get(v, "namespace"), "namespace", &a->ns) ||
	    !r->integer(r, rv, "replicas", INT32_MIN, INT32_MAX, &a->replicas))
		return 0;
	const char *k = intern_get(r->in, kind);
	if (!strcmp(k, "Deployment"))
		a->kind = WL_DEPLOYMENT;
	else if (!strcmp(k, "ReplicaSet"))
		a->kind = WL_REPLICASET;
	else if (!strcmp(k, "StatefulSet"))
		a->kind = WL_STATEFULSET;
	else {
		r->error(r, kv, "unknown kind '%s' to scale (expected Deployment, ReplicaSet or StatefulSet)", k);
		return 0;
	}
	return 1;
}

static void save(const struct step *s, struct step_writer *w)
{
	const struct arg *a = s->arg;
	char rep[32];
	snprintf(rep, sizeof(rep), "%lld", (long long)a->replicas);
	const char *keys[] = {"kind", "name", "namespace", "replicas"};
	const char *vals[] = {kind_text(a->kind), intern_get(w->in, a->name),
			      a->ns ? intern_get(w->in, a->ns) : "default", rep};
	const bool raw[] = {false, false, false, true};
	w->block(w, keys, vals, raw, 4, NULL, NULL);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct arg *a = t->sc->steps[i].arg;
	const struct intern *in = t->c->in;
	step_text_printf(b, " %s %s/%s to %lld", kind_text(a->kind), a->ns ? intern_get(in, a->ns) : "default",
			 intern_get(in, a->name), (long long)a->replicas);
}

static int copy(struct step *dst, const struct step *src)
{
	struct arg *a = malloc(sizeof(*a));
	if (!a)
		return 0;
	*a = *(const struct arg *)src->arg;
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
	struct cluster *c = x->c;
	const struct arg *a = x->s->arg;
	struct ctl_run *k = ctl_run_of(x);
	char ref[300];
	if (!k)
		return 0;
	if (k->recorded) {
		ctl_replay(x, k);
		return 1;
	}
	x->r->nsub = 0;
	sym_t ns = a->ns ? a->ns : c->sym_default;
	snprintf(ref, sizeof(ref), "%s %s/%s", kind_text(a->kind), intern_get(c->in, ns), intern_get(c->in, a->name));
	int32_t wi = ctl_find_workload(c, a->kind, ns, a->name);
	if (wi < 0)
		return step_error(x, "scale: no %s (expected a workload of the input)", ref);
	if (a->replicas < 0) {
		char neg[400];
		snprintf(neg, sizeof(neg), "%s: replicas %lld", ref, (long long)a->replicas);
		return step_error(x, "scale: %s: replicas must be 0 or more", neg);
	}
	if (a->replicas > CTL_MAX_REPLICAS)
		return step_error(x, "scale: %s: replicas above 100000 (expected at most 100000: each may be a pod to schedule)", ref);
	const struct workload *w = &c->workloads[wi];
	if (a->kind == WL_REPLICASET && w->owner_name && w->owner_kind &&
	    !strcmp(intern_get(c->in, w->owner_kind), "Deployment"))
		return step_error(x, "scale: %s belongs to a Deployment, which would undo the change (expected: scale the Deployment)", ref);
	if (!ctl_begin(x, k))
		return 0;
	sym_t key;
	const struct pod *tpl = w->tpl;
	int64_t before = ctl_skew(c, ns, tpl, &key);
	int32_t from = w->replicas;
	int ok;
	if (a->kind == WL_DEPLOYMENT) {
		ok = ctl_deploy_scale(x, k, (uint32_t)wi, (int32_t)a->replicas);
	} else {
		c->workloads[wi].replicas = (int32_t)a->replicas;
		ok = a->kind == WL_REPLICASET ? ctl_rs_sync(x, k, (uint32_t)wi) : ctl_sts_sync(x, k, (uint32_t)wi);
	}
	char what[400];
	snprintf(what, sizeof(what), "%s %d -> %lld", ref, from, (long long)a->replicas);
	tpl = c->workloads[wi].tpl;
	return ok &&
	       ctl_summarize(c, k, what, a->replicas < from ? "scale-down" : "scale-up", ns, tpl, before) &&
	       ctl_end(x, k);
}

int ctl_step_scale(struct step *st, enum workload_kind k, sym_t ns, sym_t name, int64_t replicas)
{
	memset(st, 0, sizeof(*st));
	st->kind = STEP_SCALE;
	st->pod.node = -1;
	struct arg *a = malloc(sizeof(*a));
	if (!a)
		return 0;
	*a = (struct arg){k, name, ns, replicas};
	st->arg = a;
	return 1;
}

const struct step_ops step_scale = {
	.name = "scale",
	.flags = STEP_F_EXPECT,
	.example = "scale: {kind: Deployment, name: web, namespace: default, replicas: 2}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = ctl_undo,
	.forget = ctl_forget,
};
