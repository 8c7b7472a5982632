/* rollout.c - `rollout: {name, namespace, template, maxSurge,
 * maxUnavailable}`: a Deployment's rolling update to a new template, in
 * the controller's passes (model/controllers/deploy.c); each pod created
 * or deleted is a sub-step. */
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../controllers/ctl.h"

struct arg {
	sym_t name, ns;
	bool has_tpl;
	struct pod tpl;
	struct int_or_pct surge, unav;
};

/* an IntOrString: 3 or "25%" */
static int read_iop(struct step_reader *r, const struct step_value *v, const char *what, struct int_or_pct *out)
{
	const char *s;
	size_t len;
	memset(out, 0, sizeof(*out));
	if (r->absent(v))
		return 1;
	if (!r->text(r, v, what, &s, &len))
		return 0;
	bool pct = len > 1 && s[len - 1] == '%';
	int64_t n = 0;
	size_t end = pct ? len - 1 : len;
	for (size_t i = 0; i < end; i++) {
		if (s[i] < '0' || s[i] > '9' || n > 100000000) {
			r->error(r, v, "invalid %s '%.*s' (expected an integer >= 0 or a percentage such as 25%%)",
				 what, (int)len, s);
			return 0;
		}
		n = n * 10 + (s[i] - '0');
	}
	if (!end) {
		r->error(r, v, "invalid %s '' (expected an integer >= 0 or a percentage such as 25%%)", what);
		return 0;
	}
	out->set = true;
	out->pct = pct;
	out->v = (int32_t)n;
	return 1;
}

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	struct arg *a = calloc(1, sizeof(*a));
	if (!a)
		return r->oom(r);
	a->tpl.node = -1;
	s->arg = a;
	if (!r->want_map(r, v, "rollout"))
		return 0;
	const struct step_value *nv = r->get(v, "name"), *tv = r->get(v, "template");
	if (r->absent(nv)) {
		r->error(r, v, "rollout step has no 'name' (expected {name, namespace, template, maxSurge, maxUnavailable})");
		return 0;
	}
	if (!r->scalar(r, nv, "name", &a->name) || !r->str(r, r->get(v, "namespace"), "namespace", &a->ns) ||
	    !read_iop(r, r->get(v, "maxSurge"), "maxSurge", &a->surge) ||
	    !read_iop(r, r->get(v, "maxUnavailable"), "maxUnavailable", &a->unav))
		return 0;
	if (!r->absent(tv)) {
		int rc = r->tpl(r, tv, "template", &a->tpl);
		if (rc != 1) {
			if (rc == 2)
				r->error(r, tv, "template has status.phase Succeeded or Failed (expected a pod template)");
			memset(&a->tpl, 0, sizeof(a->tpl));
			return 0;
		}
		a->has_tpl = true;
	}
	return 1;
}

static void iop_text(const struct int_or_pct *v, char *buf, size_t len)
{
	snprintf(buf, len, v->pct ? "\"%d%%\"" : "%d", (int)v->v);
}

static void save(const struct step *s, struct step_writer *w)
{
	const struct arg *a = s->arg;
	char su[32], un[32];
	const char *keys[4], *vals[4];
	bool raw[4] = {false, false, true, true};
	uint32_t n = 0;
	keys[n] = "name";
	vals[n++] = intern_get(w->in, a->name);
	keys[n] = "namespace";
	vals[n++] = a->ns ? intern_get(w->in, a->ns) : "default";
	if (a->surge.set) {
		iop_text(&a->surge, su, sizeof(su));
		raw[n] = true;
		keys[n] = "maxSurge";
		vals[n++] = su;
	}
	if (a->unav.set) {
		iop_text(&a->unav, un, sizeof(un));
		raw[n] = true;
		keys[n] = "maxUnavailable";
		vals[n++] = un;
	}
	w->block(w, keys, vals, raw, n, "template", a->has_tpl ? &a->tpl : NULL);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct arg *a = t->sc->steps[i].arg;
	const struct intern *in = t->c->in;
	step_text_printf(b, " Deployment %s/%s", a->ns ? intern_get(in, a->ns) : "default", intern_get(in, a->name));
}

static int copy(struct step *dst, const struct step *src)
{
	const struct arg *from = src->arg;
	struct arg *a = malloc(sizeof(*a));
	if (!a)
		return 0;
	*a = *from;
	dst->arg = a;
	if (from->has_tpl && !pod_copy(&a->tpl, &from->tpl)) {
		free(a);
		dst->arg = NULL;
		return 0;
	}
	return 1;
}

static void fini(struct step *s)
{
	struct arg *a = s->arg;
	if (a && a->has_tpl)
		pod_fini(&a->tpl);
	free(a);
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
	snprintf(ref, sizeof(ref), "Deployment %s/%s", intern_get(c->in, ns), intern_get(c->in, a->name));
	int32_t di = ctl_find_workload(c, WL_DEPLOYMENT, ns, a->name);
	if (di < 0)
		return step_error(x, "rollout: no %s (expected a Deployment of the input)", ref);
	struct workload *d = &c->workloads[di];
	if (d->replicas > CTL_MAX_REPLICAS)
		return step_error(x, "rollout: %s: replicas above 100000 (expected at most 100000: each may be a pod to schedule)", ref);
	if (!d->tpl && !a->has_tpl)
		return step_error(x, "rollout: %s has no template (expected one in the step or the Deployment)", ref);
	struct int_or_pct su = a->surge.set ? a->surge : d->max_surge;
	struct int_or_pct un = a->unav.set ? a->unav : d->max_unavailable;
	if (su.set && un.set && !su.v && !un.v)
		return step_error(x, "rollout: %s: maxSurge and maxUnavailable are both 0 (expected at least one above 0: the rollout could not progress)", ref);
	/* apps/validation ValidateRollingUpdateDeployment: IsNotMoreThan100Percent */
	if (un.set && un.pct && un.v > 100)
		return step_error(x, "rollout: %s: maxUnavailable is above 100%% (expected at most 100%%: the API server refuses it)", ref);
	if (a->has_tpl && d->has_selector && !selector_matches(c->in, &d->sel, &a->tpl.labels))
		return step_error(x, "rollout: %s: the template's labels do not match the Deployment's selector (the API server refuses it)", ref);
	if (!ctl_begin(x, k))
		return 0;
	sym_t key;
	int64_t before = ctl_skew(c, ns, d->tpl ? d->tpl : &a->tpl, &key);
	if (a->has_tpl) {
		struct pod *t = malloc(sizeof(*t));
		if (!t || !pod_copy(t, &a->tpl)) {
			free(t);
			return 0;
		}
		t->ns = ns;
		k->tpl_wl = di;
		k->tpl_other = d->tpl;
		d->tpl = t;
	}
	/* the step's strategy for this rollout only */
	struct int_or_pct keep_su = d->max_surge, keep_un = d->max_unavailable;
	d->max_surge = su;
	d->max_unavailable = un;
	int ok = ctl_deploy_rollout(x, k, (uint32_t)di);
	d = &c->workloads[di];
	d->max_surge = keep_su;
	d->max_unavailable = keep_un;
	char what[400];
	snprintf(what, sizeof(what), "%s rolled out", ref);
	return ok && ctl_summarize(c, k, what, "the rollout", ns, d->tpl, before) && ctl_end(x, k);
}

int ctl_step_rollout(struct step *st, sym_t ns, sym_t name, const struct pod *tpl)
{
	memset(st, 0, sizeof(*st));
	st->kind = STEP_ROLLOUT;
	st->pod.node = -1;
	struct arg *a = calloc(1, sizeof(*a));
	if (!a)
		return 0;
	a->name = name;
	a->ns = ns;
	st->arg = a;
	if (tpl) {
		if (!pod_copy(&a->tpl, tpl))
			return 0;
		a->has_tpl = true;
	}
	return 1;
}

const struct step_ops step_rollout = {
	.name = "rollout",
	.flags = STEP_F_EXPECT,
	.example = "rollout: {name: web, namespace: default, maxSurge: 1, maxUnavailable: 0, template: {labels: {app: web, v: \"2\"}}}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = ctl_undo,
	.forget = ctl_forget,
};
