/* fix.c - the fixes of a Pending pod (fix.h). Candidates come from the
 * pending cycle's full decision (which filter fails where, the domains
 * and skews); each one is verified by running the step again on the
 * changed state with the timeline's what-ifs and undoing them, so a fix
 * is listed only when the scheduler itself places the pod. */
#include "fix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"
#include "autoscale/autoscale.h"
#include "steps/scale_up.h"

static const char *const kind_names[FIX__COUNT] = {
	"maxSkew", "whenUnsatisfiable", "minDomains", "nodeAffinityPolicy", "nodeTaintsPolicy",
	"removeConstraint", "toleration", "uncordon", "untaint", "label", "delete", "addNode", "scaleUp", "priority",
};

const char *fix_kind_name(enum fix_kind k)
{
	return k < FIX__COUNT ? kind_names[k] : "?";
}

/* candidates tried per kind beyond the limit (each costs one cycle) */
#define EXTRA_TRIALS 5

struct fx {
	struct timeline *t;
	struct cluster *c;
	uint32_t i;               /* the pending step */
	uint32_t limit;
	struct decision d0;       /* its pending cycle, full */
	struct fix_report *out;
	bool oom;
	bool accept_nominated;  /* priority: a nomination counts */
	bool first;             /* fix_best: stop at the first clean fix */
	bool reran;             /* a scheduler trial ran the earlier steps again */
	bool preemption;        /* the scenario's PostFilter (off in the trials) */
	int32_t entry;          /* a retry: the schedule step that made its pod, else -1 */
};

struct trial {
	bool ok;
	int32_t node;
	bool nominated;
	uint32_t *victims;
	uint32_t nvictims;
	char *violation;
	uint32_t violator;
};

static void trial_fini(struct trial *tr)
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

/* Reads the pending step's outcome in d (pod pid) into tr. */
static int read_outcome(struct fx *x, const struct decision *d, uint32_t upto, struct trial *tr)
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
	x->reran = true;
	if (!timeline_goto(t, j))
		return 0;
	timeline_replace(t, j, s, &old);
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
			ok = read_outcome(x, &d, x->i, tr);
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
	x->c->cfg.preemption = x->preemption;
	if (!timeline_goto(t, x->i))
		ok = 0;
	x->c->cfg.preemption = pre;
	return ok;
}

/* Step i (a retry's: its entry) replaced by *s (taken over), run, and
 * put back. */
static int try_step(struct fx *x, struct step *s, struct trial *tr)
{
	struct timeline *t = x->t;
	struct step old, back;
	struct decision d;
	memset(tr, 0, sizeof(*tr));
	tr->node = -1;
	x->out->trials++;
	if (x->entry >= 0)
		return try_entry(x, s, tr);
	timeline_replace(t, x->i, s, &old);
	int ok = timeline_step_verdicts(t, &d);
	if (ok) {
		ok = read_outcome(x, &d, x->i, tr);
		decision_fini(&d);
		timeline_prev(t);
	}
	timeline_replace(t, x->i, &old, &back);
	step_fini(&back);
	return ok;
}

/* *e (copied) inserted before step i, both run, and taken out again. */
static int try_edit(struct fx *x, const struct step *e, struct trial *tr)
{
	struct timeline *t = x->t;
	struct step s, out;
	struct decision de, d;
	memset(tr, 0, sizeof(*tr));
	tr->node = -1;
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
				ok = read_outcome(x, &d, x->i, tr);
				decision_fini(&d);
				timeline_prev(t);
			}
		}
		timeline_prev(t);
	}
	timeline_remove(t, x->i, &out);
	step_fini(&out);
	return ok;
}

static struct fix *add_fix(struct fx *x, enum fix_kind k, struct trial *tr)
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
	f->node = x->c->nodes[tr->node].name;
	f->nominated = tr->nominated;
	f->victims = tr->victims;
	f->nvictims = tr->nvictims;
	f->violation = tr->violation;
	if (f->violation) {
		f->vns = x->c->pods[tr->violator].ns;
		f->vname = x->c->pods[tr->violator].name;
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

static bool kind_full(const struct fx *x, enum fix_kind k)
{
	if (x->first)
		for (uint32_t j = 0; j < x->out->n; j++)
			if (!x->out->v[j].violation)
				return true;
	return count_kind(x, k) >= x->limit;
}

/* ---- the pod's own constraints ---- */

static bool some_node(const struct fx *x, unsigned lifts);

/* The step whose pod the pod kinds change: the pending one, or for a
 * retry the step that made its pod. */
static const struct step *pending_step(const struct fx *x)
{
	return &x->t->sc->steps[x->entry >= 0 ? (uint32_t)x->entry : x->i];
}

/* A copy of the pending step to change: no choose, no expect. */
static int step_for_trial(struct fx *x, struct step *s)
{
	if (!step_copy(s, pending_step(x))) {
		x->oom = true;
		return 0;
	}
	s->choose = SYM_NONE;
	expect_fini(&s->expect);
	s->has_expect = false;
	return 1;
}

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
			ok = read_outcome(x, &d, x->i, tr);
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
	if (!step_for_trial(x, &s))
		return -1;
	change_cons(x->c, s.pod.spec.tscs, &s.pod.spec.ntscs, r->pod_index, m, v);
	if (!try_step(x, &s, tr)) {
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
	struct fix *f = add_fix(x, kind, tr);
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
			trial_fini(&best);
			best = tr;
			best_v = (int32_t)vals[mid];
			hi = mid;
		} else {
			trial_fini(&tr);
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
	trial_fini(&best);
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
	trial_fini(&tr);
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

static void pod_kinds(struct fx *x)
{
	const struct decision *d = &x->d0;
	/* spreading changes lift PodTopologySpread only */
	if (!some_node(x, 1u << PL_POD_TOPOLOGY_SPREAD))
		return;
	const struct pod *sp = &pending_step(x)->pod;
	static const enum fix_kind order[] = { FIX_MAX_SKEW, FIX_WHEN, FIX_MIN_DOMAINS, FIX_AFFINITY_POLICY,
					       FIX_TAINTS_POLICY, FIX_REMOVE_CONSTRAINT };
	for (uint32_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		enum fix_kind kind = order[o];
		for (uint32_t k = 0; k < d->ncons && !x->oom && !kind_full(x, kind); k++) {
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
}

/* ---- node-facing candidates, from the blockers ---- */

static unsigned popcount16(unsigned v)
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
			if (popcount16(d->nodes[j].blockers) == b)
				ix[n++] = j;
	for (uint32_t j = n; j < d->nnodes; j++)
		ix[j] = UINT32_MAX;
	return ix;
}

static bool has_blocker(const struct node_rec *r, enum plugin_id p)
{
	return (r->blockers >> p) & 1u;
}

#define BIT(p) (1u << (p))

/* A change opens node r only if it lifts every filter failing there: the
 * filters in `lifts` (a change of that kind can lift nothing else). */
static bool only(const struct node_rec *r, unsigned lifts)
{
	return !r->feasible && (r->blockers & ~lifts) == 0;
}

/* Is there a node that a change lifting `lifts` could open? */
static bool some_node(const struct fx *x, unsigned lifts)
{
	for (uint32_t j = 0; j < x->d0.nnodes; j++)
		if (only(&x->d0.nodes[j], lifts))
			return true;
	return false;
}

static bool taint_eq(const struct taint *a, const struct taint *b)
{
	return a->key == b->key && a->value == b->value && a->effect == b->effect;
}

/* the node's first untolerated taint (the TaintToleration blocker) */
static const struct taint *blocking_taint(const struct fx *x, const struct node_rec *r)
{
	const struct node *n = &x->c->nodes[r->node];
	if (!has_blocker(r, PL_TAINT_TOLERATION) || r->why.taint.taint >= n->ntaints)
		return NULL;
	return &n->taints[r->why.taint.taint];
}

static void edit_kind(struct fx *x, enum fix_kind kind, struct step *e, uint32_t *tries)
{
	struct trial tr;
	(*tries)++;
	if (!try_edit(x, e, &tr)) {
		x->oom = true;
		step_fini(e);
		return;
	}
	if (tr.ok) {
		struct fix *f = add_fix(x, kind, &tr);
		if (f) {
			f->has_edit = true;
			f->edit = *e;
			memset(e, 0, sizeof(*e));
		}
	}
	trial_fini(&tr);
	step_fini(e);
}

static int add_toleration(struct pod_spec *sp, const struct toleration *tol)
{
	struct toleration *nt = realloc(sp->tols, (sp->ntols + 1) * sizeof(*nt));
	if (!nt)
		return 0;
	sp->tols = nt;
	nt[sp->ntols++] = *tol;
	return 1;
}

static void fix_toleration(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	struct taint seen[64];
	uint32_t nseen = 0, tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (kind_full(x, FIX_TOLERATION) || tries >= x->limit + EXTRA_TRIALS || nseen == 64)
			break;
		const struct taint *tn = blocking_taint(x, &d->nodes[ix[a]]);
		if (!tn || !only(&d->nodes[ix[a]], BIT(PL_TAINT_TOLERATION) | BIT(PL_NODE_UNSCHEDULABLE) |
							   BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		bool dup = false;
		for (uint32_t k = 0; k < nseen && !dup; k++)
			dup = taint_eq(&seen[k], tn);
		if (dup)
			continue;
		seen[nseen++] = *tn;
		struct step s;
		if (!step_for_trial(x, &s))
			return;
		struct toleration tol = { 0 };
		tol.key = tn->key;
		bool has_value = tn->value && intern_len(c->in, tn->value);
		tol.op = has_value ? TOL_EQUAL : TOL_EXISTS;
		tol.op_text = intern_str(c->in, has_value ? "Equal" : "Exists");
		tol.value = has_value ? tn->value : c->sym_empty;
		tol.effect = tn->effect;
		tol.effect_text = intern_str(c->in, effect_name(tn->effect));
		if (!add_toleration(&s.pod.spec, &tol)) {
			step_fini(&s);
			x->oom = true;
			return;
		}
		struct trial tr;
		tries++;
		if (!try_step(x, &s, &tr))
			x->oom = true;
		step_fini(&s);
		if (tr.ok) {
			struct fix *f = add_fix(x, FIX_TOLERATION, &tr);
			if (f)
				f->tol = tol;
		}
		trial_fini(&tr);
	}
}

static void fix_uncordon_untaint(struct fx *x, const uint32_t *ix, enum fix_kind kind)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (kind_full(x, kind) || tries >= x->limit + EXTRA_TRIALS)
			break;
		const struct node_rec *r = &d->nodes[ix[a]];
		const struct node *n = &c->nodes[r->node];
		if (!only(r, BIT(PL_TAINT_TOLERATION) | BIT(PL_NODE_UNSCHEDULABLE) | BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.node = n->name;
		if (kind == FIX_UNCORDON) {
			if (!n->unschedulable || !has_blocker(r, PL_NODE_UNSCHEDULABLE))
				continue;
			e.kind = STEP_UNCORDON;
		} else {
			const struct taint *tn = blocking_taint(x, r);
			if (!tn || (tn->key == c->sym_unsched_taint && n->unschedulable))
				continue;
			e.kind = STEP_UNTAINT;
			e.taint = *tn;
		}
		edit_kind(x, kind, &e, &tries);
	}
}

/* label: a node that fails only for a label: the pod's nodeSelector
 * (one pair missing) or a hard constraint's missing key (given the
 * value of the domain at the global minimum). */
static void fix_label(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (kind_full(x, FIX_LABEL) || tries >= x->limit + EXTRA_TRIALS)
			break;
		/* (each trial adds a pod: the array may move) */
		const struct pod *p = &c->pods[x->out->pod];
		const struct node_rec *r = &d->nodes[ix[a]];
		const struct node *n = &c->nodes[r->node];
		if (!only(r, BIT(PL_NODE_AFFINITY) | BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_LABEL;
		e.node = n->name;
		if (has_blocker(r, PL_NODE_AFFINITY)) {
			const struct labels *ns = &p->spec.node_selector;
			uint32_t miss = 0;
			for (uint32_t k = 0; k < ns->n; k++) {
				if (labels_get(&n->labels, ns->v[k].key) != ns->v[k].val) {
					miss++;
					e.label_key = ns->v[k].key;
					e.label_val = ns->v[k].val;
				}
			}
			if (miss != 1)
				continue;
		} else if (has_blocker(r, PL_POD_TOPOLOGY_SPREAD) && r->why.spread.dom < 0 &&
			   r->why.spread.cons < d->ncons) {
			const struct constraint_rec *k = &d->cons[r->why.spread.cons];
			if (!k->min_value)
				continue;
			e.label_key = k->key;
			e.label_val = k->min_value;
		} else {
			continue;
		}
		edit_kind(x, FIX_LABEL, &e, &tries);
	}
}

static bool in_list(const uint32_t *v, uint32_t n, uint32_t x)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] == x)
			return true;
	return false;
}

/* A pod whose deletion may open node rec r: for a spreading failure a
 * pod its constraint counts in the node's domain (on the node itself
 * first), for resources the lowest-priority pod on the node that frees
 * what is missing. -1 when none. */
static int64_t delete_candidate(struct fx *x, const struct node_rec *r, const uint32_t *done, uint32_t ndone)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	const struct node *n = &c->nodes[r->node];
	if (r->fail == PL_POD_TOPOLOGY_SPREAD && r->why.spread.cons < d->ncons && r->why.spread.dom >= 0) {
		const struct constraint_rec *k = &d->cons[r->why.spread.cons];
		sym_t v = k->doms[r->why.spread.dom].value;
		for (int pass = 0; pass < 2; pass++) {
			for (uint32_t id = 0; id < c->nnodes; id++) {
				const struct node *m = &c->nodes[id];
				if (!m->alive || (pass == 0) != (id == r->node) || labels_get(&m->labels, k->key) != v)
					continue;
				for (uint32_t j = m->npods; j-- > 0;) {
					uint32_t q = m->pods[j];
					if (!in_list(done, ndone, q) && decision_counts_pod(c, d, r->why.spread.cons, &c->pods[q]))
						return q;
				}
			}
		}
		return -1;
	}
	if (r->fail == PL_NODE_RESOURCES_FIT) {
		const struct pod *p = &c->pods[x->out->pod];
		int64_t need_cpu = p->spec.req.cpu - r->why.fit.free_cpu;
		int64_t need_mem = p->spec.req.mem - r->why.fit.free_mem;
		int64_t best = -1;
		for (uint32_t j = 0; j < n->npods; j++) {
			const struct pod *q = &c->pods[n->pods[j]];
			if (in_list(done, ndone, n->pods[j]) || q->spec.req.cpu < need_cpu || q->spec.req.mem < need_mem)
				continue;
			if (best < 0 || q->spec.priority < c->pods[best].spec.priority)
				best = n->pods[j];
		}
		return best;
	}
	return -1;
}

static void fix_delete(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	uint32_t tries = 0, done[32], ndone = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (kind_full(x, FIX_DELETE) || tries >= x->limit + EXTRA_TRIALS || ndone == 32)
			break;
		if (!only(&d->nodes[ix[a]], BIT(PL_POD_TOPOLOGY_SPREAD) | BIT(PL_NODE_RESOURCES_FIT) |
						BIT(PL_INTER_POD_AFFINITY)))
			continue;
		int64_t q = delete_candidate(x, &d->nodes[ix[a]], done, ndone);
		if (q < 0)
			continue;
		done[ndone++] = (uint32_t)q;
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_DELETE;
		e.target_ns = c->pods[q].ns;
		e.target = c->pods[q].name;
		edit_kind(x, FIX_DELETE, &e, &tries);
	}
}

/* addNode: a copy of a node with a new name, in the copied node's
 * domains or moved into the domain at a hard constraint's global minimum
 * (the empty zone). Templates are tried from the nodes that fail for the
 * fewest reasons a copy would share (all but spreading, resources and pod
 * affinity, which see an empty new node), one per set of the hard
 * constraints' domains and shape. */
static bool same_shape(const struct fx *x, const struct node *m, const struct labels *ml, const struct node *n,
		       const struct labels *nl)
{
	const struct decision *d = &x->d0;
	bool same = m->ntaints == n->ntaints && m->alloc.cpu == n->alloc.cpu && m->alloc.mem == n->alloc.mem &&
		    m->alloc.pods == n->alloc.pods;
	for (uint32_t h = 0; h < d->ncons && same; h++)
		if (d->cons[h].hard && d->cons[h].key != x->c->sym_hostname)
			same = labels_get(ml, d->cons[h].key) == labels_get(nl, d->cons[h].key);
	return same;
}

#define MAX_TMPL 64

static void fix_add_node(struct fx *x)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	const unsigned fresh = (1u << PL_POD_TOPOLOGY_SPREAD) | (1u << PL_NODE_RESOURCES_FIT) |
			       (1u << PL_INTER_POD_AFFINITY) | (1u << PL_NODE_NAME);
	uint32_t tries = 0, ntmpl = 0;
	struct { uint32_t node; struct labels l; } tmpl[MAX_TMPL];
	for (unsigned b = 0; b <= PL__COUNT && !x->oom; b++) {
		for (uint32_t j = 0; j < d->nnodes && !x->oom; j++) {
			const struct node_rec *r = &d->nodes[j];
			if (popcount16(r->blockers & ~fresh) != b || c->nodes[r->node].unschedulable)
				continue;
			/* variant 0: as it is; variant 1 + h: hard constraint
			 * h's key set to its minimum domain */
			for (uint32_t var = 0; var <= d->ncons && !x->oom; var++) {
				if (kind_full(x, FIX_ADD_NODE) || tries >= x->limit + EXTRA_TRIALS || ntmpl == MAX_TMPL)
					goto out;
				/* (a trial adds a node: the array may move) */
				const struct node *n = &c->nodes[r->node];
				struct step e;
				memset(&e, 0, sizeof(e));
				e.kind = STEP_ADD_NODE;
				if (var) {
					const struct constraint_rec *k = &d->cons[var - 1];
					if (!k->hard || k->key == c->sym_hostname || !k->min_value ||
					    labels_get(&n->labels, k->key) == k->min_value)
						continue;
				}
				if (!node_copy_def(&e.new_node, n)) {
					x->oom = true;
					goto out;
				}
				e.new_node.unschedulable = false;
				if (var && !labels_set(&e.new_node.labels, d->cons[var - 1].key, d->cons[var - 1].min_value)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				bool dup = false;
				for (uint32_t k = 0; k < ntmpl && !dup; k++)
					dup = same_shape(x, &c->nodes[tmpl[k].node], &tmpl[k].l, n, &e.new_node.labels);
				if (dup) {
					step_fini(&e);
					continue;
				}
				tmpl[ntmpl].node = r->node;
				if (!labels_copy(&tmpl[ntmpl].l, &e.new_node.labels)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				ntmpl++;
				char name[300];
				const char *base = intern_get(c->in, n->name);
				snprintf(name, sizeof(name), "%.240s-copy", base);
				for (uint32_t k = 2; cluster_find_node(c, intern_str(c->in, name)) >= 0; k++)
					snprintf(name, sizeof(name), "%.240s-copy%u", base, k);
				e.new_node.name = intern_str(c->in, name);
				if (labels_get(&n->labels, c->sym_hostname) == n->name &&
				    !labels_set(&e.new_node.labels, c->sym_hostname, e.new_node.name)) {
					step_fini(&e);
					x->oom = true;
					goto out;
				}
				/* the domain it is in: the key moved, else the
				 * first hard constraint's other than the hostname */
				sym_t dk = SYM_NONE, dv = SYM_NONE;
				for (uint32_t h = 0; h < d->ncons && !dk; h++) {
					const struct constraint_rec *k = &d->cons[var ? var - 1 : h];
					if (k->hard && k->key != c->sym_hostname) {
						dk = k->key;
						dv = labels_get(&e.new_node.labels, dk);
					}
				}
				uint32_t before = x->out->n;
				edit_kind(x, FIX_ADD_NODE, &e, &tries);
				if (x->out->n > before) {
					x->out->v[before].tmpl = (int32_t)r->node;
					x->out->v[before].dom_key = dv ? dk : SYM_NONE;
					x->out->v[before].dom_val = dv;
				}
			}
		}
	}
out:
	for (uint32_t k = 0; k < ntmpl; k++)
		labels_fini(&tmpl[k].l);
}

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
	if (!timeline_insert(t, x->i + 1, &su)) {
		step_fini(&su);
		x->oom = true;
		return;
	}
	struct node *defs = NULL;
	sym_t *groups = NULL, *zones = NULL;
	uint32_t n = 0;
	int ok = timeline_next(t);
	if (ok) {
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
	if (!ok)
		x->oom = true;
	uint32_t tries = 0;
	bool found = false;
	for (uint32_t k = 0; k < n; k++) {
		if (found || x->oom || kind_full(x, FIX_SCALE_UP)) {
			node_fini(&defs[k]);
			continue;
		}
		struct step e;
		memset(&e, 0, sizeof(e));
		e.kind = STEP_ADD_NODE;
		e.new_node = defs[k];
		uint32_t before = x->out->n;
		edit_kind(x, FIX_SCALE_UP, &e, &tries);
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
	const struct step *ps = pending_step(x);
	if (!c->cfg.preemption || ps->kind != STEP_SCHEDULE || kind_full(x, FIX_PRIORITY))
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
		if (!step_for_trial(x, &s))
			break;
		s.pod.spec.priority = vals[mid];
		s.pod.spec.has_priority = true;
		s.pod.spec.priority_class = SYM_NONE;
		if (!try_step(x, &s, &tr))
			x->oom = true;
		step_fini(&s);
		if (tr.ok) {
			trial_fini(&best);
			best = tr;
			best_v = vals[mid];
			found = true;
			hi = mid;
		} else {
			trial_fini(&tr);
			if (!found)
				break;
			lo = mid + 1;
		}
	}
	x->accept_nominated = false;
	if (found) {
		struct fix *f = add_fix(x, FIX_PRIORITY, &best);
		if (f) {
			f->before = before;
			f->after = best_v;
			f->had_class = had_class;
		}
	}
	trial_fini(&best);
	free(vals);
}

static int find(struct timeline *t, uint32_t i, uint32_t limit, bool first, struct fix_report *out);

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
	x->c->cfg.preemption = false;
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
	pod_kinds(&x);
	refresh(&x);
	uint32_t *ix = x.oom ? NULL : recs_by_blockers(&x);
	if (ix && (!out->retry || x.entry >= 0)) {
		fix_toleration(&x, ix);
		if (x.reran) {
			refresh(&x);
			free(ix);
			ix = x.oom ? NULL : recs_by_blockers(&x);
		}
	}
	if (ix) {
		fix_uncordon_untaint(&x, ix, FIX_UNCORDON);
		fix_uncordon_untaint(&x, ix, FIX_UNTAINT);
		fix_label(&x, ix);
		fix_delete(&x, ix);
		if (!x.oom)
			fix_add_node(&x);
		if (!x.oom)
			fix_scale_up(&x);
		x.c->cfg.preemption = preemption;
		if (!x.oom && !out->retry)
			fix_priority(&x);
	}
	x.c->cfg.preemption = preemption;
	free(ix);
	decision_fini(&x.d0);
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
	switch (f->kind) {
	case FIX_MAX_SKEW:
	case FIX_WHEN:
	case FIX_MIN_DOMAINS:
	case FIX_AFFINITY_POLICY:
	case FIX_TAINTS_POLICY:
	case FIX_REMOVE_CONSTRAINT:
		if (f->sched || f->cons >= sp->ntscs)
			break;
		change_cons(t->c, sp->tscs, &sp->ntscs, f->cons, cm[f->kind], f->after);
		return 1;
	case FIX_TOLERATION:
		if (add_toleration(sp, &f->tol))
			return 1;
		break;
	case FIX_PRIORITY:
		sp->priority = f->after;
		sp->has_priority = true;
		sp->priority_class = SYM_NONE;
		return 1;
	default:
		break;
	}
	step_fini(out);
	return 0;
}
