/* scale_up.c - the node an autoscaler would add (issue 23). */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"
#include "../autoscale/autoscale.h"
#include "../steps/scale_up.h"

/* scaleUp (autoscalers.md, issue 23): the node an autoscaler would add
 * that frees the pod. The pending step runs, then a scaleUp step of that
 * autoscaler right after it (its simulation over that state, the pod
 * pending among the considered pods); each node it adds, copied, is then
 * tried as an addNode edit before the pending step, as outside checks
 * apply it. The first that schedules the pod is the fix. */
static void scale_up_one(struct fx *x, enum as_kind kind)
{
	struct timeline *t = x->t;
	struct cluster *c = x->c;
	struct as_step *a = calloc(1, sizeof(*a));
	if (!a) {
		x->oom = true;
		return;
	}
	a->kind = kind;
	a->over.balance = a->over.force_ds = a->over.pref_ignore = -1;
	a->over.max_nodes_total = a->over.max_per_scaleup = -1;
	struct step su;
	memset(&su, 0, sizeof(su));
	su.kind = STEP_SCALE_UP;
	su.arg = a;
	su.pod.node = -1;
	uint32_t npods = c->npods, nnodes = c->nnodes;
	if (!timeline_insert(t, x->i + 1, &su)) {
		step_fini(&su);
		x->oom = true;
		return;
	}
	struct node *defs = NULL;
	sym_t *groups = NULL, *zones = NULL;
	uint32_t n = 0;
	/* the pending step runs here with PostFilter off, as in every trial:
	 * its records must not stand for the step, so the pending cycle runs
	 * again after this kind (refresh), with preemption as configured */
	x->reran = true;
	int ok = timeline_next(t);
	if (ok) {
		/* the pending step keeps its record (and pod): what the scaleUp
		 * step makes is what is given back */
		npods = c->npods;
		ok = timeline_next(t);
		const struct as_report *r = ok ? scale_up_report(t, x->i + 1) : NULL;
		uint32_t na = r && !r->error ? r->nadded : 0;
		if (na) {
			defs = calloc(na, sizeof(*defs));
			groups = calloc(na, sizeof(*groups));
			zones = calloc(na, sizeof(*zones));
			ok = defs && groups && zones;
		}
		for (uint32_t k = 0; ok && k < na; k++) {
			int32_t id = cluster_find_node(c, intern_str(c->in, r->added[k].name));
			if (id < 0)
				continue;
			if (!node_copy_def(&defs[n], &c->nodes[id])) {
				ok = 0;
				break;
			}
			groups[n] = r->added[k].group ? intern_str(c->in, r->added[k].group) : SYM_NONE;
			zones[n] = r->added[k].zone ? intern_str(c->in, r->added[k].zone) : SYM_NONE;
			n++;
		}
		if (t->cur == x->i + 2)
			timeline_prev(t);
		timeline_prev(t);
	}
	struct step out;
	timeline_remove(t, x->i + 1, &out);
	step_fini(&out);
	fx_give_back(c, npods, nnodes);
	if (!ok)
		x->oom = true;
	uint32_t tries = 0;
	bool found = false;
	for (uint32_t k = 0; k < n; k++) {
		if (found || x->oom || fx_kind_full(x, FIX_SCALE_UP)) {
			node_fini(&defs[k]);
			continue;
		}
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_ADD_NODE;
		e.new_node = defs[k];
		uint32_t before = x->out->n;
		fx_edit_kind(x, FIX_SCALE_UP, &e, &tries);
		if (x->out->n > before) {
			/* one node a run: the first that frees the pod */
			struct fix *f = &x->out->v[before];
			f->as_kind = kind;
			f->as_group = groups[k];
			f->as_zone = zones[k];
			found = true;
		}
	}
	free(defs);
	free(groups);
	free(zones);
}

static void fix_scale_up(struct fx *x)
{
	const struct as_config *ac = x->t->sc->autoscale;
	if (!ac)
		return;
	if (ac->ngroups && !x->oom)
		scale_up_one(x, AS_CA);
	if (ac->npools && !x->oom)
		scale_up_one(x, AS_KARPENTER);
}

static void run_scale_up(struct fx *x, const uint32_t *ix)
{
	(void)ix;
	fix_scale_up(x);
}

const struct fix_kind_ops fix_kind_scale_up = { 0, run_scale_up };
