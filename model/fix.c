/* fix.c - the fixes of a Pending pod (fix.h): the trials and the order.
 * Candidates come from the pending cycle's full decision (which filter
 * fails where, the domains and skews); each one is verified by running
 * the step again on the changed state with the timeline's what-ifs and
 * undoing them, so a fix is listed only when the scheduler itself places
 * the pod. The kinds are in model/fix/ (the table in fix/kinds.h, one
 * file per kind or family); this file runs them cheapest first. */
#include "fix.h"
#include "fix/fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"

#define KIND_OPS(id, name, ops) [FIX_##id] = &fix_kind_##ops,
static const struct fix_kind_ops *const kinds[FIX__COUNT] = { FIX_KINDS(KIND_OPS) };
#undef KIND_OPS
#define KIND_NAME(id, name, ops) [FIX_##id] = name,
static const char *const kind_names[FIX__COUNT] = { FIX_KINDS(KIND_NAME) };
#undef KIND_NAME

const char *fix_kind_name(enum fix_kind k)
{
	return k < FIX__COUNT ? kind_names[k] : "?";
}

static int find(struct timeline *t, uint32_t i, uint32_t limit, bool first, struct fix_report *out);

void fx_trial_fini(struct trial *tr)
{
	free(tr->victims);
	free(tr->violation);
	memset(tr, 0, sizeof(*tr));
}

/* ---- earlier pods' hard constraints ---- */

/* Does bound pod q's own hard constraint hold where it is? Its cycle's
 * PodTopologySpread PreFilter run with q taken off its node: the skew of
 * its domain is count + selfMatch - globalMin (filtering.go Filter).
 * Writes the first violation into *out (malloc'd). 0 on OOM. */
static int pod_violation(struct scheduler *sch, struct cluster *c, uint32_t q, char **out, uint32_t *who)
{
	struct pod *p = &c->pods[q];
	uint32_t node = (uint32_t)p->node;
	uint32_t pos = cluster_pod_pos(c, q);
	struct decision d;
	memset(&d, 0, sizeof(d));
	d.chosen = -1;
	int ok = 0;
	cluster_unbind(c, q);
	struct node_shape *sh = node_shape_get(sch, p);
	struct spread_state *ss = sh ? spread_prepare(sch, p, &d, sh) : NULL;
	if (!ss)
		goto done;
	ok = 1;
	for (uint32_t k = 0; k < d.ncons && !*out; k++) {
		const struct constraint_rec *r = &d.cons[k];
		if (!r->hard)
			continue;
		sym_t v = labels_get(&c->nodes[node].labels, r->key);
		for (uint32_t j = 0; v && j < r->ndoms; j++) {
			const struct domain_rec *dm = &r->doms[j];
			if (dm->value != v || !dm->exists || dm->skew <= r->max_skew)
				continue;
			char buf[1024];
			snprintf(buf, sizeof(buf), "%s/%s: %s=%s: %lld + %d - %lld = %lld > maxSkew %d",
				 intern_get(c->in, p->ns), intern_get(c->in, p->name), intern_get(c->in, r->key),
				 intern_get(c->in, v), (long long)dm->count, r->self_match ? 1 : 0,
				 (long long)r->global_min, (long long)dm->skew, r->max_skew);
			if (!(*out = strdup(buf)))
				ok = 0;
			*who = q;
			break;
		}
	}
done:
	spread_free(ss);
	decision_fini(&d);
	cluster_bind_at(c, q, node, pos);
	return ok;
}

/* The first pod bound by steps [0, upto), still where it was put, whose
 * hard constraint no longer holds. (The input's bound pods keep no
 * spread constraints: the loader drops what the scheduler never reads
 * of a bound pod.) */
static int earlier_violation(struct fx *x, uint32_t upto, char **out, uint32_t *who)
{
	struct timeline *t = x->t;
	for (uint32_t k = 0; k < upto && !*out; k++) {
		const struct step_result *r = &t->res[k];
		if (!r->done || r->outcome != OUT_SCHEDULED || !r->has_pod)
			continue;
		const struct pod *p = &x->c->pods[r->pod];
		if (!p->alive || p->node < 0)
			continue;
		if (!pod_violation(t->sched, x->c, r->pod, out, who))
			return 0;
	}
	return 1;
}

/* ---- running a candidate ---- */

void fx_give_back(struct cluster *c, uint32_t npods, uint32_t nnodes)
{
	while (c->npods > npods && !c->pods[c->npods - 1].alive && c->pods[c->npods - 1].node < 0)
		cluster_drop_pod(c, c->npods - 1);
	while (c->nnodes > nnodes && !c->nodes[c->nnodes - 1].alive && !c->nodes[c->nnodes - 1].npods)
		cluster_drop_node(c, c->nnodes - 1);
}

/* Reads the pending step's outcome in d (pod pid) into tr. */
int fx_read_outcome(struct fx *x, const struct decision *d, uint32_t upto, struct trial *tr)
{
	if (d->outcome == OUT_SCHEDULED && d->chosen >= 0) {
		tr->ok = true;
		tr->node = d->chosen;
	} else if (x->accept_nominated && d->outcome == OUT_PENDING && d->pre.outcome == PRE_NOMINATED) {
		tr->ok = true;
		tr->nominated = true;
		tr->node = d->pre.nominated;
		if (d->pre.nvictims) {
			if (!(tr->victims = malloc(d->pre.nvictims * sizeof(*tr->victims))))
				return 0;
			memcpy(tr->victims, d->pre.victims, d->pre.nvictims * sizeof(*tr->victims));
			tr->nvictims = d->pre.nvictims;
		}
	}
	if (tr->ok && !earlier_violation(x, upto, &tr->violation, &tr->violator))
		return 0;
	if (tr->ok)
		tr->node_name = x->c->nodes[tr->node].name;
	if (tr->violation) {
		tr->vns = x->c->pods[tr->violator].ns;
		tr->vname = x->c->pods[tr->violator].name;
	}
	return 1;
}

/* A retry's pod changed at its entry: the steps from the entry up to the
 * retry run again, PostFilter as the scenario has it, and the retry with
 * it off (as every trial). The pod may then be placed by its own step
 * already (the retry is an error: the pod is bound): that is where it
 * goes. *s is taken over. */
static int try_entry(struct fx *x, struct step *s, struct trial *tr)
{
	struct timeline *t = x->t;
	uint32_t j = (uint32_t)x->entry;
	struct step old, back;
	struct decision d;
	bool pre = x->c->cfg.preemption;
	/* the steps from the entry on made the pods from the entry's on
	 * (every earlier step's are below it): forgotten by the replace,
	 * their slots are the trial's, and then the replay's again */
	uint32_t npods = t->res[j].has_pod ? t->res[j].pod : x->c->npods, nnodes = x->c->nnodes;
	x->reran = true;
	if (!timeline_goto(t, j))
		return 0;
	timeline_replace(t, j, s, &old);
	fx_give_back(x->c, npods, nnodes);
	x->npend = 0;
	x->c->cfg.preemption = x->preemption;
	int ok = timeline_goto(t, x->i);
	x->c->cfg.preemption = pre;
	if (ok) {
		ok = timeline_step_verdicts(t, &d);
		if (ok) {
			const struct step_result *e = &t->res[j];
			if (d.outcome == OUT_ERROR && e->has_pod && x->c->pods[e->pod].node >= 0) {
				/* bound at its own step */
				d.outcome = OUT_SCHEDULED;
				d.chosen = x->c->pods[e->pod].node;
			}
			ok = fx_read_outcome(x, &d, x->i, tr);
			decision_fini(&d);
			timeline_prev(t);
		}
	}
	/* the entry as it was, and the steps up to the retry again */
	if (!timeline_goto(t, j)) {
		step_fini(&old);
		return 0;
	}
	timeline_replace(t, j, &old, &back);
	step_fini(&back);
	fx_give_back(x->c, npods, nnodes);
	x->c->cfg.preemption = x->preemption;
	if (!timeline_goto(t, x->i))
		ok = 0;
	x->c->cfg.preemption = pre;
	return ok;
}

/* Step i (a retry's: its entry) replaced by *s (taken over), run, and
 * put back. */
int fx_try_step(struct fx *x, struct step *s, struct trial *tr)
{
	struct timeline *t = x->t;
	struct step old, back;
	struct decision d;
	memset(tr, 0, sizeof(*tr));
	tr->node = -1;
	x->out->trials++;
	if (x->entry >= 0)
		return try_entry(x, s, tr);
	uint32_t npods = x->c->npods, nnodes = x->c->nnodes;
	timeline_replace(t, x->i, s, &old);
	int ok = timeline_step_verdicts(t, &d);
	if (ok) {
		ok = fx_read_outcome(x, &d, x->i, tr);
		decision_fini(&d);
		timeline_prev(t);
	}
	timeline_replace(t, x->i, &old, &back);
	step_fini(&back);
	fx_give_back(x->c, npods, nnodes);
	return ok;
}

/* *e (copied) inserted before step i, both run, and taken out again. */
int fx_try_edit(struct fx *x, const struct step *e, struct trial *tr)
{
	struct timeline *t = x->t;
	struct step s, out;
	struct decision de, d;
	memset(tr, 0, sizeof(*tr));
	tr->node = -1;
	uint32_t npods = x->c->npods, nnodes = x->c->nnodes;
	if (!step_copy(&s, e))
		return 0;
	if (!timeline_insert(t, x->i, &s)) {
		step_fini(&s);
		return 0;
	}
	x->out->trials++;
	int ok = timeline_step(t, &de);
	if (ok) {
		bool applied = de.outcome == OUT_APPLIED;
		decision_fini(&de);
		if (applied) {
			ok = timeline_step_verdicts(t, &d);
			if (ok) {
				ok = fx_read_outcome(x, &d, x->i, tr);
				decision_fini(&d);
				timeline_prev(t);
			}
		}
		timeline_prev(t);
	}
	timeline_remove(t, x->i, &out);
	step_fini(&out);
	fx_give_back(x->c, npods, nnodes);
	return ok;
}

struct fix *fx_add_fix(struct fx *x, enum fix_kind k, struct trial *tr)
{
	struct fix_report *r = x->out;
	struct fix *v = realloc(r->v, (r->n + 1) * sizeof(*v));
	if (!v) {
		x->oom = true;
		return NULL;
	}
	r->v = v;
	struct fix *f = &v[r->n++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->tmpl = -1;
	f->node = tr->node_name;
	f->nominated = tr->nominated;
	f->victims = tr->victims;
	f->nvictims = tr->nvictims;
	f->violation = tr->violation;
	if (f->violation) {
		f->vns = tr->vns;
		f->vname = tr->vname;
	}
	tr->victims = NULL;
	tr->violation = NULL;
	return f;
}

static uint32_t count_kind(const struct fx *x, enum fix_kind k)
{
	uint32_t n = 0;
	for (uint32_t j = 0; j < x->out->n; j++)
		n += x->out->v[j].kind == k;
	return n;
}

bool fx_kind_full(const struct fx *x, enum fix_kind k)
{
	if (x->first)
		for (uint32_t j = 0; j < x->out->n; j++)
			if (!x->out->v[j].violation)
				return true;
	return count_kind(x, k) >= x->limit;
}

/* The step whose pod the pod kinds change: the pending one, or for a
 * retry the step that made its pod. */
const struct step *fx_pending_step(const struct fx *x)
{
	return &x->t->sc->steps[x->entry >= 0 ? (uint32_t)x->entry : x->i];
}

/* A copy of the pending step to change: no choose, no expect. */
int fx_step_for_trial(struct fx *x, struct step *s)
{
	if (!step_copy(s, fx_pending_step(x))) {
		x->oom = true;
		return 0;
	}
	s->choose = SYM_NONE;
	expect_fini(&s->expect);
	s->has_expect = false;
	return 1;
}

/* ---- node-facing candidates, from the blockers ---- */

unsigned fx_popcount16(unsigned v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The pending decision's node records ordered by how many filters fail
 * on them (fewest first), then node order: the likeliest to open first. */
static uint32_t *recs_by_blockers(struct fx *x)
{
	const struct decision *d = &x->d0;
	uint32_t *ix = malloc((d->nnodes + 1) * sizeof(*ix));
	if (!ix) {
		x->oom = true;
		return NULL;
	}
	uint32_t n = 0;
	for (unsigned b = 1; b <= PL__COUNT; b++)
		for (uint32_t j = 0; j < d->nnodes; j++)
			if (fx_popcount16(d->nodes[j].blockers) == b)
				ix[n++] = j;
	for (uint32_t j = n; j < d->nnodes; j++)
		ix[j] = UINT32_MAX;
	return ix;
}

bool fx_has_blocker(const struct node_rec *r, enum plugin_id p)
{
	return (r->blockers >> p) & 1u;
}

/* A change opens node r only if it lifts every filter failing there: the
 * filters in `lifts` (a change of that kind can lift nothing else). */
bool fx_only(const struct node_rec *r, unsigned lifts)
{
	return !r->feasible && (r->blockers & ~lifts) == 0;
}

/* Is there a node that a change lifting `lifts` could open? */
bool fx_some_node(const struct fx *x, unsigned lifts)
{
	for (uint32_t j = 0; j < x->d0.nnodes; j++)
		if (fx_only(&x->d0.nodes[j], lifts))
			return true;
	return false;
}

/* the node's first untolerated taint (the TaintToleration blocker) */
const struct taint *fx_blocking_taint(const struct fx *x, const struct node_rec *r)
{
	const struct node *n = &x->c->nodes[r->node];
	if (!fx_has_blocker(r, PL_TAINT_TOLERATION) || r->why.taint.taint >= n->ntaints)
		return NULL;
	return &n->taints[r->why.taint.taint];
}

void fx_edit_kind(struct fx *x, enum fix_kind kind, struct step *e, uint32_t *tries)
{
	struct trial tr;
	(*tries)++;
	if (!fx_try_edit(x, e, &tr)) {
		x->oom = true;
		step_fini(e);
		return;
	}
	if (tr.ok) {
		struct fix *f = fx_add_fix(x, kind, &tr);
		if (f) {
			f->has_edit = true;
			f->edit = *e;
			memset(e, 0, sizeof(*e));
		}
	}
	fx_trial_fini(&tr);
	step_fini(e);
}

int fix_find(struct timeline *t, uint32_t i, uint32_t limit, struct fix_report *out)
{
	return find(t, i, limit, false, out);
}

int fix_best(struct timeline *t, uint32_t i, struct fix_report *out)
{
	return find(t, i, 1, true, out);
}

const struct fix *fix_report_best(const struct fix_report *r)
{
	for (uint32_t j = 0; j < r->n; j++)
		if (!r->v[j].violation)
			return &r->v[j];
	return r->n ? &r->v[0] : NULL;
}

/* After trials that ran earlier steps again (fresh pod and added node
 * ids): the pending cycle again, for the kinds that read it. */
static void refresh(struct fx *x)
{
	if (!x->reran || x->oom)
		return;
	x->reran = false;
	x->c->cfg.preemption = x->preemption;
	decision_fini(&x->d0);
	memset(&x->d0, 0, sizeof(x->d0));
	if (!timeline_step(x->t, &x->d0) || !timeline_prev(x->t))
		x->oom = true;
	x->out->pod = x->d0.pod;
	if (x->npend < FIX__COUNT + 1)
		x->pend[x->npend++] = x->d0.pod;
	x->c->cfg.preemption = false;
}

/* The pods the pending step made for the search (its cycle, refresh's),
 * when the trials forgot its record: the last ones first, while they are
 * the cluster's last, so that a search leaves npods as it found it. */
static void give_back_pending(struct fx *x)
{
	struct cluster *c = x->c;
	if (x->t->res[x->i].done)
		return;
	for (bool again = true; again;) {
		again = false;
		for (uint32_t k = 0; k < x->npend && c->npods; k++)
			if (x->pend[k] == c->npods - 1 && !c->pods[x->pend[k]].alive &&
			    c->pods[x->pend[k]].node < 0) {
				cluster_drop_pod(c, x->pend[k]);
				again = true;
			}
	}
}

static int find(struct timeline *t, uint32_t i, uint32_t limit, bool first, struct fix_report *out)
{
	memset(out, 0, sizeof(*out));
	out->entry = -1;
	out->step = i;
	if (i >= timeline_len(t))
		return FIX_NOT_SCHEDULING;
	const struct step *s = &t->sc->steps[i];
	if (s->kind != STEP_SCHEDULE && s->kind != STEP_RETRY)
		return FIX_NOT_SCHEDULING;
	struct fx x;
	memset(&x, 0, sizeof(x));
	x.t = t;
	x.c = t->c;
	x.i = i;
	x.limit = limit;
	x.first = first;
	x.out = out;
	if (!timeline_goto(t, i) || !timeline_step(t, &x.d0))
		return FIX_OOM;
	x.pend[x.npend++] = x.d0.pod;
	int rc = FIX_OK;
	if (x.d0.outcome != OUT_PENDING || !x.d0.nnodes) {
		rc = x.d0.outcome == OUT_PENDING ? FIX_OK : FIX_NOT_PENDING;
		timeline_prev(t);
		decision_fini(&x.d0);
		return rc;
	}
	out->pod = x.d0.pod;
	if (x.d0.message && !(out->message = strdup(x.d0.message)))
		x.oom = true;
	out->retry = s->kind == STEP_RETRY;
	x.entry = -1;
	for (uint32_t j = 0; out->retry && j < i && x.entry < 0; j++)
		if (t->sc->steps[j].kind == STEP_SCHEDULE && t->res[j].has_pod && t->res[j].pod == x.d0.pod)
			x.entry = (int32_t)j;
	out->entry = x.entry;
	timeline_prev(t);
	/* a cycle that leaves the pod pending schedules nothing, whatever
	 * preemption would nominate: PostFilter is off in the trials but the
	 * priority kind's, which asks for a nomination */
	bool preemption = x.c->cfg.preemption;
	x.preemption = preemption;
	x.c->cfg.preemption = false;
	uint32_t *ix = NULL;
	for (uint32_t k = 0; k < FIX__COUNT && !x.oom; k++) {
		const struct fix_kind_ops *o = kinds[k];
		/* a retry's pod is changed at its entry; none, no change */
		if ((o->flags & FXK_POD) && out->retry && x.entry < 0)
			continue;
		if ((o->flags & FXK_NOT_RETRY) && out->retry)
			continue;
		if (!ix && !(ix = recs_by_blockers(&x)))
			break;
		x.c->cfg.preemption = (o->flags & FXK_POSTFILTER) ? preemption : false;
		o->run(&x, ix);
		if (x.reran) {
			refresh(&x);
			free(ix);
			ix = NULL;
		}
	}
	x.c->cfg.preemption = preemption;
	free(ix);
	decision_fini(&x.d0);
	give_back_pending(&x);
	if (x.oom)
		return FIX_OOM;
	return rc;
}

void fix_report_fini(struct fix_report *r)
{
	for (uint32_t j = 0; j < r->n; j++) {
		struct fix *f = &r->v[j];
		step_fini(&f->edit);
		free(f->victims);
		free(f->violation);
	}
	free(r->v);
	free(r->message);
	memset(r, 0, sizeof(*r));
}

int fix_step(struct timeline *t, const struct fix_report *r, const struct fix *f, struct step *out)
{
	memset(out, 0, sizeof(*out));
	if (f->has_edit)
		return step_copy(out, &f->edit);
	uint32_t at = r->entry >= 0 ? (uint32_t)r->entry : r->step;
	if (at >= timeline_len(t) || !step_copy(out, &t->sc->steps[at]))
		return 0;
	out->choose = SYM_NONE;
	expect_fini(&out->expect);
	out->has_expect = false;
	struct pod_spec *sp = &out->pod.spec;
	if (f->kind == FIX_PRIORITY) {
		sp->priority = f->after;
		sp->has_priority = true;
		sp->priority_class = SYM_NONE;
		return 1;
	}
	if (f->kind == FIX_TOLERATION ? fx_add_toleration(sp, &f->tol) : fx_cons_change(t->c, f, sp))
		return 1;
	step_fini(out);
	return 0;
}
