/* defaultpreemption.c - DefaultPreemption's PostFilter: when no node is feasible,
 * the dry run over the nodes where removing lower-priority pods might
 * help, the victims of each, the candidate picked and the exact status
 * message (framework/preemption/preemption.go Evaluator.Preempt,
 * plugins/defaultpreemption/default_preemption.go). The dry run works on
 * a copy of each node and of the PreFilter state (probe.c), as upstream
 * works on a NodeInfo copy and a cycle state clone, and leaves the
 * cluster as it found it; deleting the victims is the timeline's work. */
#include "../preempt.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fiterror.h"
#include "../plugin.h"
#include "../probe.h"
#include "../sched.h"

#define NOT_HELPFUL "Preemption is not helpful for scheduling"
#define NO_VICTIMS "No preemption victims found for incoming pod"

/* util/utils.go GetPodStartTime: a pod without status.startTime counts as
 * started now, later than any time given (INT64_MAX). */
static int64_t start_of(const struct pod *p)
{
	return p->start_time;
}

/* A potential victim with what orders it. */
struct vict {
	uint32_t pod;
	uint32_t pos;             /* on the node; UINT32_MAX once reprieved */
	int32_t prio;
	int64_t start;
};

/* util/utils.go MoreImportantPod: higher priority, then earlier start;
 * upstream's sort is not stable, skewer keeps the node's pod order for
 * pods equal in both. */
static int vict_cmp(const void *a, const void *b)
{
	const struct vict *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* pkg/controller/disruption/disruption.go updatePdbStatus, when the input
 * gives no status.disruptionsAllowed: the matching pods (its namespace,
 * its selector; an empty selector matches every pod there) that are
 * bound and not terminating are the healthy ones, and the expected count
 * is the matching pods (skewer has no controller scale to read). */
static int32_t pdb_allowed(const struct cluster *c, const struct pdb *b)
{
	if (b->has_allowed)
		return b->allowed;
	int64_t expected = 0, healthy = 0;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (!p->alive || p->ns != b->ns || !b->has_selector || !selector_matches(c->in, &b->sel, &p->labels))
			continue;
		expected++;
		healthy += p->node >= 0 && !p->terminating;
	}
	int64_t desired = 0;
	if (!b->max_unavailable.set && !b->min_available.set)
		return 0; /* getExpectedPodCount: no expected pods */
	if (b->max_unavailable.set) {
		int64_t mu = b->max_unavailable.pct ? (b->max_unavailable.v * expected + 99) / 100
						    : b->max_unavailable.v;
		desired = expected - mu > 0 ? expected - mu : 0;
	} else if (b->min_available.set) {
		desired = b->min_available.pct ? (b->min_available.v * expected + 99) / 100 : b->min_available.v;
	}
	int64_t allowed = healthy - desired;
	if (expected <= 0 || allowed <= 0)
		allowed = 0;
	return (int32_t)(allowed > INT32_MAX ? INT32_MAX : allowed);
}

/* default_preemption.go filterPodsWithPDBViolation: the victims in
 * importance order use up each matching budget's allowance; violating[i]
 * when one goes below zero. A PDB with an empty or no selector protects
 * nothing here; a pod without labels matches none. */
static void pdb_split(const struct cluster *c, const struct vict *v, uint32_t n, const int32_t *base,
		      int32_t *allowed, bool *violating)
{
	/* each node starts from the status as read before the dry run */
	memcpy(allowed, base, c->npdbs * sizeof(*allowed));
	for (uint32_t i = 0; i < n; i++) {
		const struct pod *p = &c->pods[v[i].pod];
		violating[i] = false;
		/* a pod without labels matches no budget before 1.38; #141785
		 * dropped that shortcut with the empty-selector one */
		if (!p->labels.n && !c->cfg.sw.pdb_empty_all)
			continue;
		for (uint32_t k = 0; k < c->npdbs; k++) {
			const struct pdb *b = &c->pdbs[k];
			/* an empty selector covers nothing before 1.38 (#141785) */
			if (b->ns != p->ns || !b->has_selector ||
			    (selector_empty(&b->sel) && !c->cfg.sw.pdb_empty_all) ||
			    !selector_matches(c->in, &b->sel, &p->labels))
				continue;
			/* v1.37 (preemption/util.go FilterVictimsWithPDBViolation):
			 * the first budget the pod breaks ends its count */
			if (--allowed[k] < 0) {
				violating[i] = true;
				break;
			}
		}
	}
}

/* The dry run on one node (preemption.go SelectVictimsOnNode works on a
 * copy of the node's NodeInfo and of the cycle state): with the probe
 * and a pod that asks for no extended resource, a copy of the node whose
 * requests follow the victims (NodeInfo.RemovePod / AddPod) and the
 * probe's spreading counts with them, the cluster untouched; otherwise
 * the cluster itself, pods unbound and bound again, filtered with a
 * fresh state. */
/* default_preemption.go SelectVictimsOnNode for node pn->node, on the
 * probe's copy of the node and of the PreFilter state (put back after).
 * Returns 0 on OOM. */
static int select_victims(struct cluster *c, uint32_t pod, struct probe *pr, const int32_t *base,
			  struct preempt_node *pn)
{
	const struct pod *p = &c->pods[pod];
	const struct node *n = &c->nodes[pn->node];
	struct vict *v = NULL;
	int32_t *allowed = NULL;
	bool *viol = NULL;
	uint32_t nv = 0, nvict = 0;
	struct node_rec r;
	int ok = 0, f;
	pn->why = PN_NO_VICTIMS;
	/* every pod of strictly lower priority (isPreemptionAllowed) */
	for (uint32_t i = 0; i < n->npods; i++)
		nv += c->pods[n->pods[i]].spec.priority < p->spec.priority;
	if (!nv)
		return 1;
	v = malloc(nv * sizeof(*v));
	viol = calloc(nv + 1, sizeof(*viol));
	allowed = malloc((c->npdbs + 1) * sizeof(*allowed));
	if (!v || !viol || !allowed || !probe_node(pr, pn->node))
		goto done;
	nv = 0;
	for (uint32_t i = 0; i < n->npods; i++)
		if (c->pods[n->pods[i]].spec.priority < p->spec.priority)
			v[nv++] = (struct vict){ n->pods[i], i, c->pods[n->pods[i]].spec.priority,
						 start_of(&c->pods[n->pods[i]]) };
	for (uint32_t i = nv; i-- > 0;)
		if (!probe_move(pr, v[i].pod, -1))
			goto done;
	if ((f = probe_filter_nominated(pr, &r)) < 0)
		goto done;
	if (f == 0) {
		/* the filter's status as it is */
		pn->why = PN_STILL_UNFIT;
		pn->fail = r.fail;
		ok = (pn->reason = decision_reason_dup(c, probe_decision(pr), &r, r.fail)) != NULL;
		goto done;
	}
	qsort(v, nv, sizeof(*v), vict_cmp);
	pdb_split(c, v, nv, base, allowed, viol);
	/* reprieve the PDB-violating victims first, then the others, each
	 * group in importance order */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < nv; i++) {
			if (viol[i] != (pass == 0))
				continue;
			if (!probe_move(pr, v[i].pod, 1) || (f = probe_filter_nominated(pr, &r)) < 0)
				goto done;
			if (f) {
				v[i].pos = UINT32_MAX; /* stays on the node */
				continue;
			}
			if (!probe_move(pr, v[i].pod, -1))
				goto done;
			nvict++;
			pn->pdb_violations += viol[i];
		}
	}
	if (!nvict) {
		/* fits with every victim back: DryRunPreemption's error
		 * "expected at least one victim pod on node" (the node was
		 * not feasible, so only a state out of step gets here) */
		char buf[300];
		snprintf(buf, sizeof(buf), "expected at least one victim pod on node \"%s\"",
			 intern_get(c->in, c->nodes[pn->node].name));
		pn->why = PN_STILL_UNFIT;
		pn->fail = PL_NONE;
		ok = (pn->reason = strdup(buf)) != NULL;
		goto done;
	}
	if (!(pn->victims = malloc((nvict + 1) * sizeof(*pn->victims))))
		goto done;
	/* the victims in importance order (upstream sorts them again when
	 * both groups have some) */
	for (uint32_t i = 0; i < nv; i++)
		if (v[i].pos != UINT32_MAX)
			pn->victims[pn->nvictims++] = v[i].pod;
	pn->why = PN_CANDIDATE;
	/* pickOneNodeForPreemption's measures of this candidate */
	const struct pod *top = &c->pods[pn->victims[0]];
	pn->highest = top->spec.priority;
	pn->earliest = start_of(top);
	pn->prio_sum = 0;
	for (uint32_t i = 0; i < pn->nvictims; i++) {
		const struct pod *q = &c->pods[pn->victims[i]];
		pn->prio_sum += (int64_t)q->spec.priority + ((int64_t)INT32_MAX + 1);
		/* util/utils.go GetEarliestPodStartTime */
		if (q->spec.priority == pn->highest && start_of(q) < pn->earliest)
			pn->earliest = start_of(q);
	}
	ok = 1;
done:
	if (!probe_done(pr))
		ok = 0;
	free(v);
	free(viol);
	free(allowed);
	return ok;
}

/* One of pickOneNodeForPreemption's scores of candidate x: the higher
 * the better. */
static int64_t crit_score(const struct preempt_node *x, enum preempt_pick crit)
{
	switch (crit) {
	case PICK_PDB_VIOLATIONS:
		return -(int64_t)x->pdb_violations;
	case PICK_HIGHEST_PRIORITY:
		return -(int64_t)x->highest;
	case PICK_PRIORITY_SUM:
		return -x->prio_sum;
	case PICK_VICTIM_COUNT:
		return -(int64_t)x->nvictims;
	default:
		/* the latest of the earliest start times wins */
		return x->earliest;
	}
}

/* preemption.go pickOneNodeForPreemption over the candidates cand[0..n)
 * (indices into pre->nodes), each criterion keeping the best; the last
 * tie goes to the first in node order (upstream's order is a Go map's).
 * Returns the chosen index into pre->nodes; cand is reordered. */
static uint32_t pick_one(struct preemption *pre, uint32_t *cand, uint32_t n)
{
	pre->pick = PICK_ONLY;
	if (n == 1)
		return cand[0];
	for (int crit = PICK_PDB_VIOLATIONS; crit <= PICK_START_TIME; crit++) {
		int64_t best = INT64_MIN;
		for (uint32_t i = 0; i < n; i++) {
			int64_t sc = crit_score(&pre->nodes[cand[i]], (enum preempt_pick)crit);
			best = sc > best ? sc : best;
		}
		uint32_t m = 0;
		for (uint32_t i = 0; i < n; i++)
			if (crit_score(&pre->nodes[cand[i]], (enum preempt_pick)crit) == best)
				cand[m++] = cand[i];
		if (m == 1) {
			pre->pick = (enum preempt_pick)crit;
			return cand[0];
		}
		n = m;
	}
	uint32_t first = cand[0];
	for (uint32_t i = 1; i < n; i++)
		if (cand[i] < first)
			first = cand[i];
	pre->pick = PICK_NODE_ORDER;
	return first;
}

static int set_message(struct preemption *pre, const char *fmt, const char *a, uint32_t n)
{
	char buf[600];
	snprintf(buf, sizeof(buf), fmt, a, n);
	return (pre->message = strdup(buf)) != NULL;
}

int preempt_run(struct scheduler *sch, uint32_t pod, struct decision *d)
{
	struct cluster *c = sch->c;
	struct preemption *pre = &d->pre;
	const struct pod *p = &c->pods[pod];
	struct reason_hist h = { 0 };
	uint32_t *cand = NULL;
	struct probe *probe = NULL;
	int32_t *base = NULL;
	int ok = 0;
	preemption_fini(pre);
	if (!c->cfg.preemption) {
		/* a profile without PostFilter plugins */
		pre->outcome = PRE_DISABLED;
		return 1;
	}
	pre->outcome = PRE_NOT_ELIGIBLE;
	/* default_preemption.go PodEligibleToPreemptOthers */
	if (p->spec.preemption_policy && !strcmp(intern_get(c->in, p->spec.preemption_policy), "Never"))
		return (pre->message = strdup("preemption: not eligible due to preemptionPolicy=Never.")) != NULL;
	/* a pod of lower priority terminating by preemption on the nominated
	 * node (a dump's: skewer's own victims go at once), unless the filters
	 * found that node UnschedulableAndUnresolvable */
	int32_t nom = p->nominated ? cluster_find_node(c, p->nominated) : -1;
	const struct node_rec *nr = nom >= 0 ? decision_node(d, (uint32_t)nom) : NULL;
	for (uint32_t i = 0; nr && !nr->unresolvable && i < c->nodes[nom].npods; i++) {
		const struct pod *q = &c->pods[c->nodes[nom].pods[i]];
		if (q->spec.priority < p->spec.priority && q->terminating && q->preempted)
			return (pre->message = strdup("preemption: not eligible due to a terminating pod on the "
						      "nominated node.")) != NULL;
	}
	pre->outcome = PRE_NO_CANDIDATE;
	if (!(pre->nodes = calloc(d->nnodes + 1, sizeof(*pre->nodes))) ||
	    !(cand = malloc((2 * d->nnodes + 2) * sizeof(*cand))))
		goto done;
	pre->nnodes = d->nnodes;
	/* findCandidates: the nodes whose filter status is Unschedulable */
	uint32_t npot = 0;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		pre->nodes[i].node = r->node;
		pre->nodes[i].why = PN_NOT_HELPFUL;
		if (!r->feasible && !r->unresolvable) {
			pre->nodes[i].why = PN_NOT_TRIED;
			npot++;
		}
	}
	/* default_preemption.go calculateNumCandidates (MinCandidateNodes
	 * Percentage 10, Absolute 100); the dry run starts at the first
	 * node, where upstream starts at a random offset */
	if (npot && !(probe = probe_new(sch, pod)))
		goto done;
	/* the budgets' status, as the PDB lister gives it to the dry run */
	if (!(base = malloc((c->npdbs + 1) * sizeof(*base))))
		goto done;
	for (uint32_t k = 0; k < c->npdbs; k++)
		base[k] = pdb_allowed(c, &c->pdbs[k]);
	uint32_t want = npot / 10 < 100 ? 100 : npot / 10;
	if (want > npot)
		want = npot;
	uint32_t nonviol = 0, viol = 0, *vl = cand + d->nnodes + 1, nvl = 0, ncand = 0;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct preempt_node *pn = &pre->nodes[i];
		if (pn->why != PN_NOT_TRIED)
			continue;
		if (nonviol > 0 && nonviol + viol >= want)
			break; /* DryRunPreemption's early stop */
		if (!select_victims(c, pod, probe, base, pn))
			goto done;
		if (pn->why != PN_CANDIDATE)
			continue;
		if (pn->pdb_violations == 0 && nonviol < want)
			cand[nonviol++] = i;
		else if (pn->pdb_violations > 0 && viol < want)
			vl[nvl++] = i, viol++;
	}
	/* non-violating candidates first, then the violating ones */
	for (uint32_t i = 0; i < nvl; i++)
		cand[nonviol + i] = vl[i];
	ncand = nonviol + nvl;
	if (ncand == 0) {
		/* preemption.go Preempt: a FitError over the dry run's
		 * statuses, every other node "not helpful" */
		for (uint32_t i = 0; i < pre->nnodes; i++) {
			const struct preempt_node *pn = &pre->nodes[i];
			int r = 1;
			if (pn->why == PN_NO_VICTIMS) {
				r = reason_hist_add(&h, NO_VICTIMS, 1);
			} else if (pn->why == PN_STILL_UNFIT) {
				r = reason_hist_add_status(&h, pn->reason, pn->fail == PL_NODE_RESOURCES_FIT);
			} else {
				r = reason_hist_add(&h, NOT_HELPFUL, 1);
			}
			if (!r)
				goto done;
		}
		char *fit = reason_hist_text(&h, pre->nnodes);
		if (!fit)
			goto done;
		ok = set_message(pre, "preemption: %s", fit, 0);
		free(fit);
		goto done;
	}
	/* the candidates in node order for the last tie-break */
	uint32_t best = pick_one(pre, cand, ncand);
	struct preempt_node *bn = &pre->nodes[best];
	pre->outcome = PRE_NOMINATED;
	pre->nominated = (int32_t)bn->node;
	if (!(pre->victims = malloc((bn->nvictims + 1) * sizeof(*pre->victims))))
		goto done;
	memcpy(pre->victims, bn->victims, bn->nvictims * sizeof(*pre->victims));
	pre->nvictims = bn->nvictims;
	/* PR #140180 (v1.37): Preempt's Success status has a message;
	 * before, none */
	ok = !c->cfg.sw.preempt_found_text ||
	     set_message(pre, "preemption: found a potential placement for pod on node %s, preempting %u victims",
			 intern_get(c->in, c->nodes[bn->node].name), bn->nvictims);
done:
	reason_hist_fini(&h);
	free(cand);
	free(base);
	probe_free(probe);
	return ok;
}

int preempt_event(struct decision *d)
{
	free(d->event);
	free(d->condition);
	d->event = d->condition = NULL;
	if (!d->message)
		return 1;
	size_t n = strlen(d->message) + (d->pre.message ? strlen(d->pre.message) + 1 : 0) + 1;
	if (!(d->condition = malloc(n)))
		return 0;
	/* FitError.Error: the PostFilter message after one space; the
	 * condition keeps it whole, the event is truncated */
	snprintf(d->condition, n, "%s%s%s", d->message, d->pre.message ? " " : "",
		 d->pre.message ? d->pre.message : "");
	if (!(d->event = strdup(d->condition)))
		return 0;
	event_truncate(d->event);
	return 1;
}

const struct plugin_ops plugin_default_preemption = {
	.postfilter = preempt_run,
};
