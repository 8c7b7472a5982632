/* cons.c - the kinds that change one hard spread constraint of the pod:
 * maxSkew, whenUnsatisfiable, minDomains, nodeAffinityPolicy,
 * nodeTaintsPolicy, removeConstraint. The constraint is the pod's own, or
 * one of the scheduler's List defaultConstraints (sched: a schedulerPatch,
 * every step run again under the changed list). */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

enum cmod { CM_SKEW, CM_WHEN, CM_MIN_DOMAINS, CM_AFFINITY, CM_TAINTS, CM_REMOVE };

/* Changes constraint idx of the list v (*n long) by m (value val). */
static void change_cons(struct cluster *c, struct tsc *v, uint32_t *n, uint32_t idx, enum cmod m, int32_t val)
{
	struct tsc *k = &v[idx];
	switch (m) {
	case CM_SKEW:
		k->max_skew = val;
		break;
	case CM_WHEN:
		k->when = intern_str(c->in, "ScheduleAnyway");
		k->has_min_domains = false;
		break;
	case CM_MIN_DOMAINS:
		k->has_min_domains = val > 1;
		k->min_domains = val > 1 ? val : 0;
		break;
	case CM_AFFINITY:
		k->node_affinity_policy = intern_str(c->in, val ? "Honor" : "Ignore");
		break;
	case CM_TAINTS:
		k->node_taints_policy = intern_str(c->in, val ? "Honor" : "Ignore");
		break;
	case CM_REMOVE:
		tsc_fini(k);
		memmove(k, k + 1, (*n - idx - 1) * sizeof(*k));
		(*n)--;
		break;
	}
}

static void tscs_free(struct tsc *v, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		tsc_fini(&v[k]);
	free(v);
}

/* A copy of the scheduler's defaultConstraints with constraint idx
 * changed by m (value val). 1, 0 on OOM. */
static int changed_defaults(struct cluster *c, uint32_t idx, enum cmod m, int32_t val, struct tsc **out,
			    uint32_t *nout)
{
	const struct sched_config *cfg = &c->cfg;
	struct tsc *v = calloc(cfg->ndefault_tscs + 1, sizeof(*v));
	if (!v)
		return 0;
	for (uint32_t k = 0; k < cfg->ndefault_tscs; k++) {
		if (!tsc_copy(&v[k], &cfg->default_tscs[k])) {
			tscs_free(v, k);
			return 0;
		}
	}
	*nout = cfg->ndefault_tscs;
	if (idx < *nout)
		change_cons(c, v, nout, idx, m, val);
	*out = v;
	return 1;
}

/* The scheduler's defaultConstraints set to v (n long), and the steps
 * before i run again under them: the earlier pods place as that
 * scheduler places them. The old list is handed back in *v, *n. 1, 0 on
 * OOM (the timeline may then be anywhere). */
static int swap_defaults(struct fx *x, struct tsc **v, uint32_t *n)
{
	struct sched_config *cfg = &x->c->cfg;
	if (!timeline_goto(x->t, 0))
		return 0;
	struct tsc *ov = cfg->default_tscs;
	uint32_t on = cfg->ndefault_tscs;
	cfg->default_tscs = *v;
	cfg->ndefault_tscs = *n;
	*v = ov;
	*n = on;
	timeline_forget(x->t, 0);
	/* every step's pods and nodes, forgotten: made again below (the
	 * pending pods' slots too, which the steps may take) */
	fx_give_back(x->c, x->t->npods0, x->t->nnodes0);
	x->npend = 0;
	/* the earlier steps as the scenario runs them, PostFilter included */
	bool trial_pre = x->c->cfg.preemption;
	x->c->cfg.preemption = x->preemption;
	int ok = timeline_goto(x->t, x->i);
	x->c->cfg.preemption = trial_pre;
	return ok;
}

/* Tries default constraint idx changed by m (value val): the whole
 * timeline up to the pending step runs under the changed scheduler,
 * then under the old one again. */
static int try_sched(struct fx *x, uint32_t idx, enum cmod m, int32_t val, struct trial *tr)
{
	struct tsc *v;
	uint32_t n;
	struct decision d;
	memset(tr, 0, sizeof(*tr));
	tr->node = -1;
	if (!changed_defaults(x->c, idx, m, val, &v, &n))
		return -1;
	x->out->trials++;
	x->reran = true;
	int ok = swap_defaults(x, &v, &n);
	if (ok) {
		ok = timeline_step_verdicts(x->t, &d);
		if (ok) {
			ok = fx_read_outcome(x, &d, x->i, tr);
			decision_fini(&d);
		}
	}
	/* the old list back (swap_defaults hands the changed one back) */
	if (!swap_defaults(x, &v, &n))
		ok = 0;
	tscs_free(v, n);
	if (!ok)
		return -1;
	return tr->ok ? 1 : 0;
}

/* Tries constraint idx of the pod (or of the scheduler's defaults)
 * changed by m (value v). 1 when it schedules (*tr filled), 0 when not,
 * -1 on OOM. */
static int try_cons(struct fx *x, const struct constraint_rec *r, enum cmod m, int32_t v, struct trial *tr)
{
	if (r->origin != ORIGIN_POD)
		return try_sched(x, r->pod_index, m, v, tr);
	struct step s;
	if (!fx_step_for_trial(x, &s))
		return -1;
	change_cons(x->c, s.pod.spec.tscs, &s.pod.spec.ntscs, r->pod_index, m, v);
	if (!fx_try_step(x, &s, tr)) {
		step_fini(&s);
		return -1;
	}
	step_fini(&s);
	return tr->ok ? 1 : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static struct fix *cons_fix(struct fx *x, enum fix_kind kind, const struct constraint_rec *r,
			    struct trial *tr)
{
	struct fix *f = fx_add_fix(x, kind, tr);
	if (f) {
		f->cons = r->pod_index;
		f->key = r->key;
		f->sched = r->origin != ORIGIN_POD;
	}
	return f;
}

/* maxSkew: the skews the domains would have are the only values that
 * change the filter's answer, and a larger maxSkew only lets more nodes
 * pass: the smallest one that schedules, by bisection. */
static void fix_max_skew(struct fx *x, const struct constraint_rec *r)
{
	int64_t *vals = malloc((r->ndoms + 1) * sizeof(*vals));
	uint32_t n = 0;
	if (!vals) {
		x->oom = true;
		return;
	}
	for (uint32_t j = 0; j < r->ndoms; j++)
		if (r->doms[j].exists && r->doms[j].skew > r->max_skew && r->doms[j].skew <= INT32_MAX)
			vals[n++] = r->doms[j].skew;
	qsort(vals, n, sizeof(*vals), cmp_i64);
	uint32_t u = 0;
	for (uint32_t j = 0; j < n; j++)
		if (!u || vals[u - 1] != vals[j])
			vals[u++] = vals[j];
	struct trial best = { 0 }, tr;
	int32_t best_v = 0;
	uint32_t lo = 0, hi = u; /* answer in [lo, hi); hi: none */
	while (lo < hi && !x->oom) {
		uint32_t mid = best_v ? lo + (hi - lo) / 2 : hi - 1; /* the largest first */
		int rc = try_cons(x, r, CM_SKEW, (int32_t)vals[mid], &tr);
		if (rc < 0) {
			x->oom = true;
			break;
		}
		if (rc) {
			fx_trial_fini(&best);
			best = tr;
			best_v = (int32_t)vals[mid];
			hi = mid;
		} else {
			fx_trial_fini(&tr);
			if (!best_v)
				break; /* not even the largest */
			lo = mid + 1;
		}
	}
	if (best_v) {
		struct fix *f = cons_fix(x, FIX_MAX_SKEW, r, &best);
		if (f) {
			f->before = r->max_skew;
			f->after = best_v;
		}
	}
	fx_trial_fini(&best);
	free(vals);
}

static void fix_one_cons(struct fx *x, enum fix_kind kind, const struct constraint_rec *r, enum cmod m,
			 int32_t v, int32_t before)
{
	struct trial tr;
	int rc = try_cons(x, r, m, v, &tr);
	if (rc < 0)
		x->oom = true;
	if (rc > 0) {
		struct fix *f = cons_fix(x, kind, r, &tr);
		if (f) {
			f->before = before;
			f->after = v;
		}
	}
	fx_trial_fini(&tr);
}

/* A hard constraint a pod kind may change: the pod's own (not at a
 * retry, whose pod was made by an earlier step) or one of the scheduler's
 * defaultConstraints (List defaulting; the System ones are soft). */
static bool own_cons(const struct fx *x, const struct constraint_rec *r, const struct pod *sp)
{
	if (r->origin == ORIGIN_POD)
		return (!x->out->retry || x->entry >= 0) && r->pod_index < sp->spec.ntscs;
	return r->origin == ORIGIN_DEFAULT_LIST && r->pod_index < x->c->cfg.ndefault_tscs;
}

/* One of the kinds over the pod's hard constraints, in their order. */
static void cons_kind(struct fx *x, enum fix_kind kind)
{
	const struct decision *d = &x->d0;
	/* spreading changes lift PodTopologySpread only */
	if (!fx_some_node(x, 1u << PL_POD_TOPOLOGY_SPREAD))
		return;
	const struct pod *sp = &fx_pending_step(x)->pod;
	for (uint32_t k = 0; k < d->ncons && !x->oom && !fx_kind_full(x, kind); k++) {
		const struct constraint_rec *r = &d->cons[k];
		if (!r->hard || !own_cons(x, r, sp))
			continue;
		switch (kind) {
		case FIX_MAX_SKEW:
			fix_max_skew(x, r);
			break;
		case FIX_WHEN:
			fix_one_cons(x, kind, r, CM_WHEN, 0, 0);
			break;
		case FIX_MIN_DOMAINS:
			/* only whether the domains reach minDomains
			 * matters: their number is the smallest change */
			if (r->min_domains > 1 && r->nreal < (uint32_t)r->min_domains && r->nreal >= 1)
				fix_one_cons(x, kind, r, CM_MIN_DOMAINS, (int32_t)r->nreal, r->min_domains);
			break;
		case FIX_AFFINITY_POLICY:
			fix_one_cons(x, kind, r, CM_AFFINITY, !r->affinity_honor, r->affinity_honor);
			break;
		case FIX_TAINTS_POLICY:
			fix_one_cons(x, kind, r, CM_TAINTS, !r->taints_honor, r->taints_honor);
			break;
		case FIX_REMOVE_CONSTRAINT:
			fix_one_cons(x, kind, r, CM_REMOVE, 0, 0);
			break;
		default:
			break;
		}
	}
}

static const enum cmod cm[] = {
	[FIX_MAX_SKEW] = CM_SKEW, [FIX_WHEN] = CM_WHEN, [FIX_MIN_DOMAINS] = CM_MIN_DOMAINS,
	[FIX_AFFINITY_POLICY] = CM_AFFINITY, [FIX_TAINTS_POLICY] = CM_TAINTS,
	[FIX_REMOVE_CONSTRAINT] = CM_REMOVE,
};

int fix_defaults(struct timeline *t, const struct fix *f, struct tsc **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!f->sched || f->kind > FIX_REMOVE_CONSTRAINT)
		return 0;
	return changed_defaults(t->c, f->cons, cm[f->kind], f->after, out, n);
}

void fix_defaults_free(struct tsc *v, uint32_t n)
{
	tscs_free(v, n);
}

int fx_cons_change(struct cluster *c, const struct fix *f, struct pod_spec *sp)
{
	if (f->kind > FIX_REMOVE_CONSTRAINT || f->sched || f->cons >= sp->ntscs)
		return 0;
	change_cons(c, sp->tscs, &sp->ntscs, f->cons, cm[f->kind], f->after);
	return 1;
}

#define CONS_KIND(fn, kind)                                  \
	static void fn(struct fx *x, const uint32_t *ix)     \
	{                                                    \
		(void)ix;                                    \
		cons_kind(x, kind);                          \
	}
CONS_KIND(run_max_skew, FIX_MAX_SKEW)
CONS_KIND(run_when, FIX_WHEN)
CONS_KIND(run_min_domains, FIX_MIN_DOMAINS)
CONS_KIND(run_affinity_policy, FIX_AFFINITY_POLICY)
CONS_KIND(run_taints_policy, FIX_TAINTS_POLICY)
CONS_KIND(run_remove_constraint, FIX_REMOVE_CONSTRAINT)
#undef CONS_KIND

const struct fix_kind_ops fix_kind_max_skew = { FXK_POD, run_max_skew };
const struct fix_kind_ops fix_kind_when = { FXK_POD, run_when };
const struct fix_kind_ops fix_kind_min_domains = { FXK_POD, run_min_domains };
const struct fix_kind_ops fix_kind_affinity_policy = { FXK_POD, run_affinity_policy };
const struct fix_kind_ops fix_kind_taints_policy = { FXK_POD, run_taints_policy };
const struct fix_kind_ops fix_kind_remove_constraint = { FXK_POD, run_remove_constraint };
