/* priority.c - the pod's priority raised until preemption nominates a
 * node (its PostFilter on, unlike every other kind's trials). */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* priority: preemption evicts only pods of a lower priority, so the
 * values that change its answer are one above each bound pod's; a higher
 * priority only widens the choice: the smallest that nominates a node,
 * by bisection. */
static void fix_priority(struct fx *x)
{
	struct cluster *c = x->c;
	const struct pod *p = &c->pods[x->out->pod];
	const struct step *ps = fx_pending_step(x);
	if (!c->cfg.preemption || ps->kind != STEP_SCHEDULE || fx_kind_full(x, FIX_PRIORITY))
		return;
	const char *pol = p->spec.preemption_policy ? intern_get(c->in, p->spec.preemption_policy) : "";
	if (!strcmp(pol, "Never"))
		return;
	int32_t *vals = malloc((c->npods + 1) * sizeof(*vals));
	uint32_t n = 0;
	if (!vals) {
		x->oom = true;
		return;
	}
	for (uint32_t q = 0; q < c->npods; q++) {
		const struct pod *o = &c->pods[q];
		if (o->alive && o->node >= 0 && o->spec.priority >= p->spec.priority &&
		    o->spec.priority < INT32_MAX)
			vals[n++] = o->spec.priority + 1;
	}
	qsort(vals, n, sizeof(*vals), cmp_i32);
	uint32_t u = 0;
	for (uint32_t j = 0; j < n; j++)
		if (!u || vals[u - 1] != vals[j])
			vals[u++] = vals[j];
	/* a trial adds a pod (the pod array may move) */
	int32_t before = p->spec.priority;
	bool had_class = ps->pod.spec.priority_class != SYM_NONE;
	struct trial best = { 0 }, tr;
	bool found = false;
	x->accept_nominated = true;
	int32_t best_v = 0;
	uint32_t lo = 0, hi = u;
	while (lo < hi && !x->oom) {
		uint32_t mid = found ? lo + (hi - lo) / 2 : hi - 1;
		struct step s;
		if (!fx_step_for_trial(x, &s))
			break;
		s.pod.spec.priority = vals[mid];
		s.pod.spec.has_priority = true;
		s.pod.spec.priority_class = SYM_NONE;
		if (!fx_try_step(x, &s, &tr))
			x->oom = true;
		step_fini(&s);
		if (tr.ok) {
			fx_trial_fini(&best);
			best = tr;
			best_v = vals[mid];
			found = true;
			hi = mid;
		} else {
			fx_trial_fini(&tr);
			if (!found)
				break;
			lo = mid + 1;
		}
	}
	x->accept_nominated = false;
	if (found) {
		struct fix *f = fx_add_fix(x, FIX_PRIORITY, &best);
		if (f) {
			f->before = before;
			f->after = best_v;
			f->had_class = had_class;
		}
	}
	fx_trial_fini(&best);
	free(vals);
}

static void run_priority(struct fx *x, const uint32_t *ix)
{
	(void)ix;
	fix_priority(x);
}

const struct fix_kind_ops fix_kind_priority = { FXK_POSTFILTER | FXK_NOT_RETRY, run_priority };
