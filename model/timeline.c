/* timeline.c - steps applied with undo records. Moving one step costs what
 * that step changed; schedule steps re-run the scheduler only the first
 * time (redo rebinds to the recorded node). */
#include "timeline.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "preempt.h"
#include "priority.h"
#include "sched.h"
#include "steps/step.h"
#include "validate.h"

/* The Priority admission of a pod a step creates; a pod stored in the
 * API server (a dump's pending pod) was admitted there, and only takes
 * what its class gives where the input left spec.priority or
 * spec.preemptionPolicy out. */
static char *admit(struct cluster *c, struct pod *p)
{
	if (!p->stored)
		return admit_priority(c, p);
	struct pod_spec *s = &p->spec;
	const struct priority_class *pc = s->priority_class && intern_len(c->in, s->priority_class)
						  ? priority_class_find(c, s->priority_class)
						  : priority_class_default(c);
	if (!s->has_priority) {
		s->priority = priority_of_spec(c, s);
		s->has_priority = true;
	}
	/* scheduling/v1 SetDefaults_PriorityClass: PreemptLowerPriority */
	if (!s->preemption_policy && pc)
		s->preemption_policy = pc->preemption_policy ? pc->preemption_policy
							     : intern_str(c->in, "PreemptLowerPriority");
	return NULL;
}

static struct step_undo *U(const struct timeline *t)
{
	return t->undo;
}

/* At most this many bytes of per-node counts are made ahead (a matcher
 * holds 4 bytes a node): a scenario whose steps name thousands of
 * distinct selectors leaves the rest to the cycles that need them. */
#define WARM_BUDGET ((uint64_t)64 << 20)

/* sched_warm for the pods of the schedule steps, once per owner (the
 * pods of a workload share their constraints and terms): what a cycle
 * creates on a workload's first use is then made with the scenario, not
 * in the middle of stepping. Pods that fail admission or validation are
 * left to their step. Out of memory, or past WARM_BUDGET, it stops;
 * cycles create the rest. */
static void warm(struct timeline *t)
{
	struct cluster *c = t->c;
	uint32_t before = c->nmatchers, nsyms = intern_count(c->in);
	/* by the owner's name sym (syms are dense): the namespace + 1 of
	 * the last pod warmed for it. Owners of one name in two namespaces
	 * take turns and are warmed again (what exists is found); two of
	 * one name and namespace but another kind are warmed once, and the
	 * second's cycles make what it lacks. */
	sym_t *seen = calloc(nsyms, sizeof(*seen));
	if (!seen || !sched_warm_begin(t->sched)) {
		free(seen);
		return;
	}
	for (uint32_t i = 0; i < t->sc->nsteps; i++) {
		if ((uint64_t)(c->nmatchers - before) * c->node_cap * sizeof(uint32_t) > WARM_BUDGET)
			break;
		const struct step *s = &t->sc->steps[i];
		if (s->kind != STEP_SCHEDULE)
			continue;
		const struct pod *sp = &s->pod;
		if (sp->nowners && sp->owners[0].name < nsyms) {
			sym_t *o = &seen[sp->owners[0].name];
			if (*o == sp->ns + 1)
				continue;
			*o = sp->ns + 1;
		}
		struct pod p;
		if (!pod_copy(&p, sp))
			break;
		int ok = 1;
		if (admit_pod(c, &p)) {
			char *err = admit(c, &p);
			if (!err)
				err = validate_pod(c, &p);
			if (!err)
				ok = sched_warm(t->sched, &p);
			free(err);
		}
		pod_fini(&p);
		if (!ok)
			break;
	}
	free(seen);
}

struct timeline *timeline_new(struct scenario *sc)
{
	struct timeline *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->sc = sc;
	t->c = sc->cluster;
	t->npods0 = t->c->npods;
	t->nnodes0 = t->c->nnodes;
	t->res = calloc(sc->nsteps + 1, sizeof(*t->res));
	t->undo = calloc(sc->nsteps + 1, sizeof(struct step_undo));
	t->sched = scheduler_new(t->c);
	if (!t->res || !t->undo || !t->sched) {
		timeline_free(t);
		return NULL;
	}
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		t->res[i].node = -1;
		U(t)[i].pod = U(t)[i].node = -1;
	}
	warm(t);
	return t;
}

/* Forgets step k's undo record (the step is still in the scenario). */
static void undo_clear(struct timeline *t, uint32_t k)
{
	struct step_undo *u = &U(t)[k];
	const struct step_ops *o = step_ops_of(t->sc->steps[k].kind);
	if (u->rec && o && o->forget)
		o->forget(u);
	free(u->rec);
	if (u->vol)
		vol_undo_fini(u->vol);
	free(u->vol);
	u->vol = NULL;
	free(u->victims);
	free(u->cleared);
	memset(u, 0, sizeof(*u));
	u->pod = u->node = -1;
}

void timeline_free(struct timeline *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->res && t->undo && i < t->sc->nsteps; i++) {
		free(t->res[i].message);
		undo_clear(t, i);
	}
	free(t->res);
	free(t->undo);
	scheduler_free(t->sched);
	free(t);
}

uint32_t timeline_len(const struct timeline *t)
{
	return t->sc->nsteps;
}

static int set_result(struct step_result *r, enum outcome o, int32_t node, const char *msg)
{
	free(r->message);
	r->message = NULL;
	r->done = true;
	r->outcome = o;
	r->node = node;
	if (msg && !(r->message = strdup(msg)))
		return 0;
	return 1;
}

static int32_t find_pod(const struct cluster *c, sym_t ns, sym_t name)
{
	/* conventions 21: no namespace means default, else a unique pod of
	 * that name in any namespace */
	if (ns)
		return cluster_find_pod(c, ns, name);
	int32_t id = cluster_find_pod(c, c->sym_default, name);
	if (id >= 0)
		return id;
	int32_t found = -1;
	for (uint32_t i = 0; i < c->npods; i++) {
		if (c->pods[i].alive && c->pods[i].name == name) {
			if (found >= 0)
				return -2; /* ambiguous */
			found = (int32_t)i;
		}
	}
	return found;
}

static const char *pod_ref(const struct cluster *c, sym_t ns, sym_t name, char *buf, size_t len)
{
	if (ns)
		snprintf(buf, len, "%s/%s", intern_get(c->in, ns), intern_get(c->in, name));
	else
		snprintf(buf, len, "%s", intern_get(c->in, name));
	return buf;
}

/* Deletes the victims again and sets the nomination, as recorded (redo:
 * the state is the one they were recorded in, so are the positions). */
static void set_nominations(struct cluster *c, uint32_t pod, const struct step_undo *u)
{
	for (uint32_t k = 0; k < u->ncleared; k++)
		c->pods[u->cleared[k]].nominated = SYM_NONE;
	/* listed in c->nominated when first set (preemption_apply) */
	c->pods[pod].nominated = u->new_nom;
}

static void preemption_redo(struct cluster *c, uint32_t pod, struct step_undo *u)
{
	if (!u->nom_set)
		return;
	for (uint32_t k = 0; k < u->nvictims; k++) {
		cluster_unbind(c, u->victims[k].pod);
		cluster_kill_pod(c, u->victims[k].pod);
	}
	set_nominations(c, pod, u);
}

static void preemption_undo(struct cluster *c, uint32_t pod, struct step_undo *u)
{
	if (!u->nom_set)
		return;
	for (uint32_t k = u->nvictims; k-- > 0;) {
		cluster_revive_pod(c, u->victims[k].pod);
		cluster_bind_at(c, u->victims[k].pod, u->victims[k].node, u->victims[k].pos);
	}
	for (uint32_t k = 0; k < u->ncleared; k++)
		c->pods[u->cleared[k]].nominated = u->new_nom;
	c->pods[pod].nominated = u->old_nom;
}

/* What a pending cycle's PostFilter changes (schedule_one.go
 * handleSchedulingFailure): the victims are deleted at once (their grace
 * period is not simulated) and the pod's nominatedNodeName is set, or
 * cleared when preemption found no candidate, or kept when the pod may
 * not preempt. 0 on OOM. */
static int preemption_apply(struct cluster *c, uint32_t pod, const struct decision *d, struct step_undo *u)
{
	free(u->victims);
	free(u->cleared);
	u->victims = NULL;
	u->cleared = NULL;
	u->nvictims = u->ncleared = 0;
	u->nom_set = false;
	if (d->outcome != OUT_PENDING)
		return 1;
	const struct preemption *pre = &d->pre;
	struct pod *p = &c->pods[pod];
	u->old_nom = u->new_nom = p->nominated;
	if (pre->outcome == PRE_NOMINATED) {
		if (pre->nvictims && !(u->victims = malloc(pre->nvictims * sizeof(*u->victims))))
			return 0;
		u->new_nom = c->nodes[pre->nominated].name;
		/* preemption.go prepareCandidate: the pods nominated to
		 * that node with a lower priority lose their nomination */
		for (uint32_t k = 0; k < c->nnominated; k++) {
			if (c->nominated[k] == pod || cluster_pending_nomination(c, c->nominated[k]) != u->new_nom ||
			    c->pods[c->nominated[k]].spec.priority >= p->spec.priority)
				continue;
			uint32_t *v = realloc(u->cleared, (u->ncleared + 1) * sizeof(*v));
			if (!v)
				return 0;
			u->cleared = v;
			v[u->ncleared++] = c->nominated[k];
		}
		/* the pod listed in c->nominated before anything goes */
		if (!cluster_set_nominated(c, pod, u->new_nom))
			return 0;
		/* each position as it is when that victim goes, so that
		 * the undo, last first, puts every one back where it was */
		for (uint32_t k = 0; k < pre->nvictims; k++) {
			uint32_t v = pre->victims[k];
			u->victims[k] = (struct victim_undo){ v, (uint32_t)c->pods[v].node, cluster_pod_pos(c, v) };
			cluster_unbind(c, v);
			cluster_kill_pod(c, v);
		}
		u->nvictims = pre->nvictims;
	} else if (pre->outcome != PRE_NOT_ELIGIBLE) {
		u->new_nom = SYM_NONE;
	}
	u->nom_set = true;
	set_nominations(c, pod, u);
	return 1;
}

/* volume_binding.go Reserve and PreBind: the pod's delayed claims bound
 * on its node, recorded in u->vol for undo */
static int claims_bind(struct cluster *c, uint32_t pod, struct step_undo *u)
{
	if (!c->pods[pod].spec.nvols)
		return 1;
	if (!u->vol && !(u->vol = calloc(1, sizeof(*u->vol))))
		return 0;
	vol_undo_fini(u->vol);
	return vb_bind(c, pod, (uint32_t)c->pods[pod].node, u->vol);
}

static void claims_undo(struct cluster *c, struct step_undo *u)
{
	if (u->vol)
		vb_unbind(c, u->vol);
}

/* Schedules pod id (alive, unbound) for step s: decide, honour choose,
 * bind. */
static int run_cycle(struct timeline *t, const struct step *s, uint32_t pod, struct decision *d,
		     struct step_result *r, struct step_undo *u)
{
	struct cluster *c = t->c;
	char buf[600], *gated = NULL;
	/* PreEnqueue (SchedulingGates): a gated pod never reaches a cycle */
	int pre = run_preenqueue(c, &c->pods[pod], &gated);
	if (pre < 0)
		return 0;
	if (!pre) {
		d->outcome = OUT_PENDING;
		d->message = gated;
		d->gated = true;
		d->lean = true; /* no node records: no cycle ran */
		return set_result(r, OUT_PENDING, -1, gated);
	}
	if (s->choose)
		d->lean = false; /* choose reads the chosen node's record */
	if (!sched_decide(t->sched, pod, d) || !preemption_apply(c, pod, d, u))
		return 0;
	int32_t node = d->chosen;
	if (s->choose) {
		int32_t want = cluster_find_node(c, s->choose);
		const struct node_rec *nr = want >= 0 ? decision_node(d, (uint32_t)want) : NULL;
		char *msg = NULL;
		if (!nr) {
			snprintf(buf, sizeof(buf), "choose: no node %s", intern_get(c->in, s->choose));
			msg = strdup(buf);
			node = -2;
		} else if (!nr->feasible) {
			/* the reason whole, however many resources it names */
			char *why = decision_reason_dup(c, d, nr, nr->fail);
			size_t n = why ? strlen(why) + strlen(intern_get(c->in, s->choose)) + 64 : 0;
			if (why && (msg = malloc(n)))
				snprintf(msg, n, "choose: node %s is not feasible: %s: %s", intern_get(c->in, s->choose),
					 plugin_name(nr->fail), why);
			free(why);
			node = -2;
		} else {
			node = want;
		}
		if (node == -2) {
			/* an error step changes nothing */
			if (!msg)
				return 0;
			preemption_undo(c, pod, u);
			u->nom_set = false;
			preemption_fini(&d->pre);
			free(d->event);
			d->event = NULL;
			d->outcome = OUT_ERROR;
			free(d->message);
			d->message = msg;
			d->chosen = -1;
			return set_result(r, OUT_ERROR, -1, msg) ? 2 : 0;
		}
		d->chosen = node;
		d->outcome = OUT_SCHEDULED;
	}
	if (node >= 0) {
		cluster_bind(c, pod, (uint32_t)node);
		u->node = node;
		u->applied = true;
		if (!claims_bind(c, pod, u))
			return 0;
		if (u->vol && u->vol->note && !(d->volume_note = strdup(u->vol->note)))
			return 0;
	}
	return set_result(r, d->outcome, node, d->message);
}

/* ---- what the step kinds share (steps/step.h) ---- */

char *timeline_admit(struct cluster *c, struct pod *p)
{
	return admit(c, p);
}

int timeline_set_result(struct step_result *r, enum outcome o, int32_t node, const char *msg)
{
	return set_result(r, o, node, msg);
}

int32_t timeline_find_pod(const struct cluster *c, sym_t ns, sym_t name)
{
	return find_pod(c, ns, name);
}

const char *timeline_pod_ref(const struct cluster *c, sym_t ns, sym_t name, char *buf, size_t len)
{
	return pod_ref(c, ns, name, buf, len);
}

int timeline_cycle(struct step_ctx *x, uint32_t pod, struct decision *d)
{
	return run_cycle(x->t, x->s, pod, d, x->r, x->u);
}

int timeline_claims_bind(struct step_ctx *x, uint32_t pod)
{
	return claims_bind(x->c, pod, x->u);
}

void timeline_claims_undo(struct step_ctx *x)
{
	claims_undo(x->c, x->u);
}

void timeline_preemption_redo(struct step_ctx *x, uint32_t pod)
{
	preemption_redo(x->c, pod, x->u);
}

void timeline_preemption_undo(struct step_ctx *x, uint32_t pod)
{
	preemption_undo(x->c, pod, x->u);
}

int step_error(struct step_ctx *x, const char *fmt, const char *a)
{
	char buf[600];
	snprintf(buf, sizeof(buf), fmt, a);
	if (x->d) {
		x->d->outcome = OUT_ERROR;
		if (!(x->d->message = strdup(buf)))
			return 0;
	}
	return set_result(x->r, OUT_ERROR, -1, buf);
}

int step_done(struct step_ctx *x)
{
	x->u->applied = true;
	if (x->d)
		x->d->outcome = OUT_APPLIED;
	return set_result(x->r, OUT_APPLIED, -1, NULL);
}

static struct step_ctx ctx_of(struct timeline *t, uint32_t i, struct decision *d)
{
	return (struct step_ctx){t, t->c, i, &t->sc->steps[i], &t->res[i], &U(t)[i], d};
}

static int apply(struct timeline *t, uint32_t i, struct decision *d, bool lean)
{
	struct step_undo *u = &U(t)[i];
	if (d) {
		memset(d, 0, sizeof(*d));
		d->lean = lean;
		d->chosen = -1;
	}
	/* keep the pod id (redo) but forget what the last apply changed */
	u->applied = false;
	u->created = false;
	struct step_ctx x = ctx_of(t, i, d);
	return step_ops_of(x.s->kind)->apply(&x);
}

static void unapply(struct timeline *t, uint32_t i)
{
	struct step_ctx x = ctx_of(t, i, NULL);
	step_ops_of(x.s->kind)->undo(&x);
	x.u->applied = false;
	x.u->created = false;
}

static int step(struct timeline *t, struct decision *d, bool lean)
{
	if (t->cur >= t->sc->nsteps)
		return 0;
	if (!apply(t, t->cur, d, lean))
		return 0;
	t->cur++;
	return 1;
}

int timeline_step(struct timeline *t, struct decision *d)
{
	return step(t, d, false);
}

int timeline_step_verdicts(struct timeline *t, struct decision *d)
{
	return step(t, d, true);
}

int timeline_next(struct timeline *t)
{
	return timeline_step(t, NULL);
}

int timeline_prev(struct timeline *t)
{
	if (!t->cur)
		return 0;
	unapply(t, --t->cur);
	return 1;
}

int timeline_goto(struct timeline *t, uint32_t n)
{
	if (n > t->sc->nsteps)
		n = t->sc->nsteps;
	while (t->cur > n)
		timeline_prev(t);
	while (t->cur < n)
		if (!timeline_next(t))
			return 0;
	return 1;
}

int timeline_explain(struct timeline *t, uint32_t i, struct decision *d)
{
	if (i >= t->sc->nsteps)
		return 0;
	uint32_t back = t->cur;
	if (!timeline_goto(t, i) || !timeline_step(t, d))
		return 0;
	return timeline_goto(t, back);
}

int timeline_branch(struct timeline *t, struct step *s)
{
	struct scenario *sc = t->sc;
	for (uint32_t i = t->cur; i < sc->nsteps; i++) {
		free(t->res[i].message);
		undo_clear(t, i);
		step_fini(&sc->steps[i]);
		memset(&t->res[i], 0, sizeof(t->res[i]));
	}
	sc->nsteps = t->cur;
	struct step *ns = realloc(sc->steps, (sc->nsteps + 1) * sizeof(*ns));
	if (!ns)
		return 0;
	sc->steps = ns;
	struct step_result *nr = realloc(t->res, (sc->nsteps + 1) * sizeof(*nr));
	if (!nr)
		return 0;
	t->res = nr;
	struct step_undo *nu = realloc(t->undo, (sc->nsteps + 1) * sizeof(*nu));
	if (!nu)
		return 0;
	t->undo = nu;
	ns[sc->nsteps] = *s;
	memset(s, 0, sizeof(*s));
	memset(&nr[sc->nsteps], 0, sizeof(*nr));
	nr[sc->nsteps].node = -1;
	memset(&nu[sc->nsteps], 0, sizeof(*nu));
	nu[sc->nsteps].pod = nu[sc->nsteps].node = -1;
	sc->nsteps++;
	return timeline_next(t);
}

/* Drops what steps i.. recorded: they have not been applied since (cur <=
 * i), and the state they will see may differ, so their next apply runs
 * them as new (a fresh pod id, a fresh cycle). */
static void forget_from(struct timeline *t, uint32_t i)
{
	for (uint32_t k = i; k < t->sc->nsteps; k++) {
		free(t->res[k].message);
		memset(&t->res[k], 0, sizeof(t->res[k]));
		t->res[k].node = -1;
		undo_clear(t, k);
	}
}

void timeline_forget(struct timeline *t, uint32_t i)
{
	assert(t && i >= t->cur);
	forget_from(t, i);
}

int timeline_replace(struct timeline *t, uint32_t i, struct step *s, struct step *old)
{
	assert(t && s && old && i >= t->cur && i < t->sc->nsteps);
	forget_from(t, i);
	*old = t->sc->steps[i];
	t->sc->steps[i] = *s;
	memset(s, 0, sizeof(*s));
	return 1;
}

int timeline_insert(struct timeline *t, uint32_t i, struct step *s)
{
	struct scenario *sc = t->sc;
	assert(t && s && i >= t->cur && i <= sc->nsteps);
	struct step *ns = realloc(sc->steps, (sc->nsteps + 1) * sizeof(*ns));
	if (!ns)
		return 0;
	sc->steps = ns;
	struct step_result *nr = realloc(t->res, (sc->nsteps + 2) * sizeof(*nr));
	if (!nr)
		return 0;
	t->res = nr;
	struct step_undo *nu = realloc(t->undo, (sc->nsteps + 2) * sizeof(*nu));
	if (!nu)
		return 0;
	t->undo = nu;
	forget_from(t, i);
	memmove(&ns[i + 1], &ns[i], (sc->nsteps - i) * sizeof(*ns));
	ns[i] = *s;
	memset(s, 0, sizeof(*s));
	sc->nsteps++;
	/* the records of i.. are blank after forget_from: the new last one too */
	memset(&nr[sc->nsteps - 1], 0, sizeof(*nr));
	nr[sc->nsteps - 1].node = -1;
	memset(&nu[sc->nsteps - 1], 0, sizeof(*nu));
	nu[sc->nsteps - 1].pod = nu[sc->nsteps - 1].node = -1;
	return 1;
}

int timeline_remove(struct timeline *t, uint32_t i, struct step *out)
{
	struct scenario *sc = t->sc;
	assert(t && out && i >= t->cur && i < sc->nsteps);
	forget_from(t, i);
	*out = sc->steps[i];
	memmove(&sc->steps[i], &sc->steps[i + 1], (sc->nsteps - i - 1) * sizeof(*sc->steps));
	sc->nsteps--;
	return 1;
}

void *timeline_step_rec(const struct timeline *t, uint32_t i)
{
	return i < t->sc->nsteps ? U(t)[i].rec : NULL;
}
