/* present.c - the names and facts every output reads off the model's
 * records (present.h). */
#include "present.h"

#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "controllers/ctl.h"
#include "steps/step.h"

void present_pod_name(struct out_buf *b, const struct cluster *c, sym_t ns, sym_t name,
		      bool short_default)
{
	if (ns != SYM_NONE && !(short_default && ns == c->sym_default)) {
		out_buf_puts(b, intern_get(c->in, ns));
		out_buf_putc(b, '/');
	} else if (!short_default) {
		out_buf_puts(b, "default/");
	}
	out_buf_puts(b, intern_get(c->in, name));
}

bool present_step_pod(struct out_buf *b, const struct timeline *t, uint32_t i)
{
	sym_t ns, name;
	if (!step_pod_name(t, i, &ns, &name))
		return false;
	if (ns != SYM_NONE) {
		present_pod_name(b, t->c, ns, name, false);
	} else {
		/* a target written without its namespace, as written */
		out_buf_puts(b, intern_get(t->c->in, name));
	}
	return true;
}

void present_step_what(struct out_buf *b, const struct timeline *t, uint32_t i)
{
	char buf[256];
	size_t n = step_describe(t, i, buf, sizeof(buf));
	if (n < sizeof(buf)) {
		out_buf_puts(b, buf);
		return;
	}
	char *big = malloc(n + 1);
	if (!big) {
		out_buf_puts(b, buf); /* cut, as out_buf would be on OOM */
		return;
	}
	step_describe(t, i, big, n + 1);
	out_buf_puts(b, big);
	free(big);
}

const char *present_node_name(const struct cluster *c, int64_t id)
{
	if (id < 0 || (uint64_t)id >= c->nnodes)
		return "";
	return intern_get(c->in, c->nodes[id].name);
}

const char *present_outcome_name(enum outcome o)
{
	switch (o) {
	case OUT_SCHEDULED: return "scheduled";
	case OUT_PENDING: return "pending";
	case OUT_INVALID: return "invalid";
	case OUT_ERROR: return "error";
	case OUT_APPLIED: return "applied";
	}
	return "error";
}

const char *present_origin_name(enum constraint_origin o)
{
	switch (o) {
	case ORIGIN_POD: return "from the pod";
	case ORIGIN_DEFAULT_SYSTEM: return "system default";
	case ORIGIN_DEFAULT_LIST: return "cluster default";
	}
	return "";
}

bool present_decision_filled(const struct step *s, const struct decision *d)
{
	/* the model fills every decision it is given; only a scheduling cycle
	 * that ran has a verdict (an invalid pod or a duplicate name has none;
	 * a failed `choose` and a cluster without nodes do) */
	if (!step_runs_cycle(s))
		return false;
	return d->outcome == OUT_SCHEDULED || d->outcome == OUT_PENDING || d->nnodes > 0 ||
	       d->ncons > 0;
}

unsigned present_blockers(const struct node_rec *r)
{
	if (r->feasible)
		return 0;
	if (r->blockers)
		return r->blockers;
	return r->fail >= 0 && r->fail < PL__COUNT ? 1u << r->fail : 0;
}

bool present_blocker_unresolvable(const struct node_rec *r, enum plugin_id p)
{
	if (p < 0 || p >= PL__COUNT)
		return false;
	if (!r->blockers)
		return r->fail == (int8_t)p && r->unresolvable;
	return (r->blockers_unres >> p) & 1u;
}

bool present_postfilter_ran(const struct decision *d)
{
	/* a failed `choose` undoes the cycle's preemption: the step is an
	 * error and changed nothing */
	return d->outcome == OUT_PENDING && d->pre.outcome != PRE_NONE;
}

const char *present_event(const struct decision *d)
{
	return d->outcome == OUT_PENDING ? d->event : NULL;
}

int32_t present_nominated(const struct decision *d)
{
	/* the node is set only for a nomination (a zeroed record has 0) */
	if (!present_postfilter_ran(d) || d->pre.outcome != PRE_NOMINATED || d->pre.nominated < 0)
		return -1;
	return d->pre.nominated;
}

const char *present_preempt_outcome_name(enum preempt_outcome o)
{
	switch (o) {
	case PRE_NONE: return "none";
	case PRE_DISABLED: return "disabled";
	case PRE_NOT_ELIGIBLE: return "notEligible";
	case PRE_NO_CANDIDATE: return "noCandidate";
	case PRE_NOMINATED: return "nominated";
	}
	return "none";
}

const char *present_preempt_node_name(enum preempt_node_why w)
{
	switch (w) {
	case PN_NOT_HELPFUL: return "notHelpful";
	case PN_NO_VICTIMS: return "noVictims";
	case PN_STILL_UNFIT: return "stillUnfit";
	case PN_CANDIDATE: return "candidate";
	case PN_NOT_TRIED: return "notTried";
	}
	return "notHelpful";
}

const char *present_preempt_pick_name(enum preempt_pick p)
{
	switch (p) {
	case PICK_ONLY: return "onlyCandidate";
	case PICK_PDB_VIOLATIONS: return "fewestPDBViolations";
	case PICK_HIGHEST_PRIORITY: return "lowestHighestPriority";
	case PICK_PRIORITY_SUM: return "smallestPrioritySum";
	case PICK_VICTIM_COUNT: return "fewestVictims";
	case PICK_START_TIME: return "latestStartTime";
	case PICK_NODE_ORDER: return "nodeOrder";
	}
	return "onlyCandidate";
}

const struct ctl_run *present_ctl_run(const struct timeline *t, uint32_t i)
{
	const struct step *s = &t->sc->steps[i];
	if (!(step_ops_of(s->kind)->flags & STEP_F_EXPECT))
		return NULL;
	const struct ctl_run *k = timeline_step_rec(t, i);
	return k && k->recorded ? k : NULL;
}

static void taint_words(struct out_buf *b, const struct timeline *t, sym_t key, sym_t value,
			enum taint_effect e)
{
	out_buf_puts(b, intern_get(t->c->in, key));
	if (value != SYM_NONE && intern_len(t->c->in, value))
		out_buf_printf(b, "=%s", intern_get(t->c->in, value));
	if (e != EFFECT_NONE)
		out_buf_printf(b, ":%s", effect_name(e));
}

void present_fix_summary(struct out_buf *b, const struct timeline *t, const struct fix_report *r,
			 const struct fix *f)
{
	const struct cluster *c = t->c;
	(void)r;
	switch (f->kind) {
	case FIX_MAX_SKEW:
		out_buf_printf(b, "maxSkew %d -> %d on the %s constraint", f->before, f->after, intern_get(t->c->in, f->key));
		break;
	case FIX_WHEN:
		out_buf_printf(b, "whenUnsatisfiable ScheduleAnyway on the %s constraint", intern_get(t->c->in, f->key));
		break;
	case FIX_MIN_DOMAINS:
		if (f->after > 1)
			out_buf_printf(b, "minDomains %d -> %d on the %s constraint", f->before, f->after, intern_get(t->c->in, f->key));
		else
			out_buf_printf(b, "minDomains %d -> unset on the %s constraint", f->before, intern_get(t->c->in, f->key));
		break;
	case FIX_AFFINITY_POLICY:
	case FIX_TAINTS_POLICY:
		out_buf_printf(b, "%s %s on the %s constraint", fix_kind_name(f->kind), f->after ? "Honor" : "Ignore",
			       intern_get(t->c->in, f->key));
		break;
	case FIX_REMOVE_CONSTRAINT:
		out_buf_printf(b, "remove the %s constraint", intern_get(t->c->in, f->key));
		break;
	case FIX_TOLERATION:
		out_buf_puts(b, "tolerate the taint ");
		taint_words(b, t, f->tol.key, f->tol.value, f->tol.effect);
		break;
	case FIX_UNCORDON:
		out_buf_printf(b, "uncordon %s", intern_get(t->c->in, f->edit.node));
		break;
	case FIX_UNTAINT:
		out_buf_printf(b, "untaint %s ", intern_get(t->c->in, f->edit.node));
		taint_words(b, t, f->edit.taint.key, SYM_NONE, f->edit.taint.effect);
		break;
	case FIX_LABEL:
		out_buf_printf(b, "label %s %s=%s", intern_get(t->c->in, f->edit.node), intern_get(t->c->in, f->edit.label_key),
			       intern_get(t->c->in, f->edit.label_val));
		break;
	case FIX_DELETE:
		out_buf_puts(b, "delete pod ");
		present_pod_name(b, c, f->edit.target_ns, f->edit.target, false);
		break;
	case FIX_ADD_NODE: {
		out_buf_printf(b, "add node %s, a copy of %s", intern_get(t->c->in, f->edit.new_node.name),
			       f->tmpl >= 0 ? present_node_name(c, f->tmpl) : "?");
		if (f->dom_key != SYM_NONE)
			out_buf_printf(b, ", in %s=%s", intern_get(t->c->in, f->dom_key), intern_get(t->c->in, f->dom_val));
		break;
	}
	case FIX_SCALE_UP:
		out_buf_printf(b, "%s adds node %s", f->as_kind == 2 ? "Karpenter" : "the cluster autoscaler",
			       intern_get(t->c->in, f->edit.new_node.name));
		if (f->as_group != SYM_NONE)
			out_buf_printf(b, " (%s %s", f->as_kind == 2 ? "NodePool" : "group", intern_get(t->c->in, f->as_group));
		if (f->as_group != SYM_NONE && f->as_zone != SYM_NONE)
			out_buf_printf(b, ", zone %s", intern_get(t->c->in, f->as_zone));
		if (f->as_group != SYM_NONE)
			out_buf_putc(b, ')');
		break;
	case FIX_PRIORITY:
		out_buf_printf(b, "priority %d -> %d", f->before, f->after);
		if (f->nominated) {
			out_buf_printf(b, ": preemption nominates %s", intern_get(t->c->in, f->node));
			for (uint32_t k = 0; k < f->nvictims; k++) {
				out_buf_puts(b, k ? ", " : ", evicting ");
				const struct pod *p = &c->pods[f->victims[k]];
				present_pod_name(b, c, p->ns, p->name, false);
			}
		}
		break;
	default:
		break;
	}
	if (f->sched)
		out_buf_puts(b, " of the scheduler's defaultConstraints");
}

void present_fix_line(struct out_buf *b, const struct timeline *t, const struct fix_report *r,
		      const struct fix *f)
{
	present_fix_summary(b, t, r, f);
	if (!f->nominated)
		out_buf_printf(b, " -> %s", intern_get(t->c->in, f->node));
	if (f->violation) {
		out_buf_puts(b, " (violates ");
		present_pod_name(b, t->c, f->vns, f->vname, false);
		out_buf_putc(b, ')');
	}
}
