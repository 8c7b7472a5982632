/* p_node.c - the node under the cursor: its labels, taints and pods, every
 * filter's verdict in order with the reason and its arithmetic (every
 * failing one, not only the first), each hard constraint's verdict, what
 * preemption made of the node when nothing fit, and for a feasible node
 * every score plugin's normalized score, weight and contribution, the
 * soft spread terms and the total; the winner and ties. */
#include "tui.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Whether label key k is a topology key of this step's constraints. */
static bool cons_key(const struct sim *s, sym_t k)
{
	for (uint32_t i = 0; s->has_dec && i < s->dec.ncons; i++)
		if (s->dec.cons[i].key == k)
			return true;
	return false;
}

/* compact: only the labels of the constraints' keys, and how many others */
static void facts(struct pen *p, const struct node *n, bool compact)
{
	struct tui *t = p->t;
	const struct cluster *c = t->sim->sc->cluster;
	char buf[64];
	pen_put(p, ROLE_HEADING, intern_get(c->in, n->name));
	snprintf(buf, sizeof(buf), "  %u pod%s", n->npods, n->npods == 1 ? "" : "s");
	pen_put(p, ROLE_NORMAL, buf);
	if (n->unschedulable) {
		pen_put(p, ROLE_NORMAL, "  ");
		pen_raw(p, ROLE_MARK, t->g->cordon);
		pen_put(p, ROLE_MARK, " cordoned");
	}
	pen_nl(p);
	struct out_buf b = {0};
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n->labels.n; i++) {
		if (compact && !cons_key(t->sim, n->labels.v[i].key))
			continue;
		out_buf_printf(&b, "%s%s=%s", shown++ ? ", " : "", intern_get(c->in, n->labels.v[i].key),
			       intern_get(c->in, n->labels.v[i].val));
	}
	if (shown < n->labels.n)
		out_buf_printf(&b, "%s+%u more", shown ? ", " : "", n->labels.n - shown);
	p->x = 2;
	pen_put(p, ROLE_LABEL, "labels ");
	pen_wrap(p, ROLE_NORMAL, n->labels.n ? out_buf_str(&b) : "(none)");
	pen_nl(p);
	if (n->ntaints) {
		out_buf_reset(&b);
		for (uint32_t i = 0; i < n->ntaints; i++) {
			const struct taint *tt = &n->taints[i];
			out_buf_printf(&b, "%s%s", i ? ", " : "", intern_get(c->in, tt->key));
			if (intern_len(c->in, tt->value))
				out_buf_printf(&b, "=%s", intern_get(c->in, tt->value));
			out_buf_printf(&b, ":%s", tt->effect == EFFECT_INVALID
							  ? intern_get(c->in, tt->effect_text)
							  : effect_name(tt->effect));
		}
		p->x = 2;
		pen_raw(p, ROLE_MARK, t->g->taint);
		pen_put(p, ROLE_LABEL, " taints ");
		pen_wrap(p, ROLE_NORMAL, out_buf_str(&b));
		pen_nl(p);
	}
	out_buf_fini(&b);
}

/* Whether InterPodAffinity's Filter ran in this cycle: 1 yes, 0 skipped
 * by its PreFilter (no affinity terms anywhere), -1 when no node tells. */
static int ipa_ran(const struct decision *d, bool hard)
{
	/* the filters before it, and PodTopologySpread when it has hard
	 * constraints */
	int before = PL_INTER_POD_AFFINITY - (hard ? 0 : 1);
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (present_blockers(r) & (1u << PL_INTER_POD_AFFINITY))
			return 1;
		if (r->feasible && !r->prefilter_cut)
			return r->nran > before;
	}
	return -1;
}

/* One line per hard constraint: the node's domain and the skew a pod
 * there would give, "✗ zone=zoneB: 2 + 1 - 1 = 2 > maxSkew 1". */
static void verdicts(struct pen *p, const struct node_rec *r)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	for (uint32_t k = 0; k < s->dec.nhard; k++) {
		struct spread_verdict v;
		if (!decision_spread_verdict(&s->dec, r, k, &v) || v.cons >= s->dec.ncons)
			break;
		const struct constraint_rec *cr = &s->dec.cons[v.cons];
		struct out_buf b = {0};
		out_buf_puts(&b, intern_get(c->in, cr->key));
		if (!v.has_domain)
			out_buf_puts(&b, ": node lacks the key");
		else
			out_buf_printf(&b, "=%s: %" PRId64 " + %" PRId64 " - %" PRId64 " = %" PRId64 "%s",
				       intern_get(c->in, v.domain), v.match, v.self, v.global_min, v.skew,
				       v.ok ? "" : " > maxSkew");
		if (v.has_domain && !v.ok)
			out_buf_printf(&b, " %" PRId32, cr->max_skew);
		p->x = 4;
		pen_raw(p, v.ok ? ROLE_FEASIBLE : ROLE_OVER, v.ok ? t->g->ok : t->g->bad);
		p->x = 6;
		pen_wrap(p, v.ok ? ROLE_NORMAL : ROLE_MARK, out_buf_str(&b));
		pen_nl(p);
		out_buf_fini(&b);
	}
}

/* Every filter in order: ✗ with the reason and its arithmetic on each one
 * that fails (the scheduler stops at the first; the later ones are
 * checked too), ✓ on the others; under PodTopologySpread each hard
 * constraint's verdict. */
/* compact: the filters that passed on one line; remark: the closing
 * remark on several failures */
static void filters(struct pen *p, const struct node_rec *r, bool compact, bool remark)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	char buf[1024];
	bool hard = s->dec.nhard > 0;
	for (uint32_t i = 0; i < s->dec.ncons; i++)
		hard |= s->dec.cons[i].hard;
	unsigned bits = present_blockers(r);
	int nb = sim_nblockers(r);
	int ipa = ipa_ran(&s->dec, hard);
	p->x = 0;
	pen_printf(p, ROLE_HEADING, "Filters (%d ran", r->nran);
	if (nb > 1)
		pen_printf(p, ROLE_HEADING, ", %d fail", nb);
	pen_put(p, ROLE_HEADING, ")");
	if (r->prefilter_cut)
		pen_put(p, ROLE_LABEL, "  NodeAffinity PreFilter left this node out");
	pen_nl(p);
	/* compact: the filters that passed (or were not run) on one line
	 * each, then the failing ones with their arithmetic */
	struct out_buf passed = {0}, idle = {0};
	/* the filters run in plugin order; PodTopologySpread's PreFilter skips
	 * it without hard constraints, InterPodAffinity's without terms */
	int last = 0;
	for (int f = 0; f < PL__COUNT; f++)
		last = plugin_filters((enum plugin_id)f) ? f : last;
	for (int pass = compact ? 0 : 1; pass < 2; pass++)
	for (int f = 0; f < PL__COUNT; f++) {
		if (!plugin_filters((enum plugin_id)f))
			continue;
		bool failed = bits & (1u << f);
		/* NodePorts and the volume plugins have nothing to check for
		 * a pod without host ports or claims: not listed */
		if (!failed && plugin_idle_for((enum plugin_id)f, c, &c->pods[s->dec.pod]))
			continue;
		/* a NodeAffinity PreFilter result or conflict: nothing before
		 * NodeAffinity ran, and with a conflict nothing after it */
		bool cut = (r->prefilter_cut || s->dec.prefilter_conflict) && f < PL_NODE_AFFINITY;
		cut |= s->dec.prefilter_conflict && f > PL_NODE_AFFINITY;
		bool skipped = (f == PL_POD_TOPOLOGY_SPREAD && !hard) ||
			       (f == PL_INTER_POD_AFFINITY && ipa == 0);
		/* after the first failure: checked for you, not by the scheduler */
		bool after = !r->feasible && r->fail >= 0 && f > r->fail;
		bool did = !failed && !cut && !skipped;
		bool spread = f == PL_POD_TOPOLOGY_SPREAD && s->dec.nhard > 0 && !cut;
		if (compact && pass == 0) {
			/* PodTopologySpread keeps its line for its verdicts */
			if (!failed && !spread) {
				struct out_buf *o = did ? &passed : &idle;
				out_buf_printf(o, "%s%s", o->len ? ", " : "",
					       plugin_name((enum plugin_id)f));
			}
			if (f == last) {
				if (passed.len) {
					p->x = 2;
					pen_raw(p, ROLE_FEASIBLE, t->g->ok);
					p->x = 4;
					pen_wrap(p, ROLE_NORMAL, out_buf_str(&passed));
					pen_nl(p);
				}
				if (idle.len) {
					p->x = 4;
					pen_put(p, ROLE_NORMAL, "not run or skipped: ");
					pen_wrap(p, ROLE_NORMAL, out_buf_str(&idle));
					pen_nl(p);
				}
			}
			continue;
		}
		if (compact && !failed && !spread)
			continue;
		p->x = 2;
		if (failed)
			pen_raw(p, ROLE_OVER, t->g->bad);
		else if (did)
			pen_raw(p, after ? ROLE_DIM : ROLE_FEASIBLE, t->g->ok);
		else
			pen_put(p, ROLE_DIM, " ");
		pen_put(p, ROLE_NORMAL, " ");
		pen_put(p, failed ? ROLE_OVER : did ? ROLE_NORMAL : ROLE_LABEL,
			plugin_name((enum plugin_id)f));
		if (failed) {
			enum plugin_id pl = (enum plugin_id)f;
			pen_put(p, ROLE_NORMAL, ": ");
			pen_wrap(p, ROLE_NORMAL, decision_reason_of(c, &s->dec, r, pl, buf, sizeof(buf)));
			const char *det = decision_detail_of(c, &s->dec, r, pl, buf, sizeof(buf));
			/* the verdict lines below carry the spread arithmetic */
			if (det && det[0] && !spread) {
				pen_nl(p);
				p->x = 6;
				pen_wrap(p, ROLE_MARK, det);
			}
			if (present_blocker_unresolvable(r, pl)) {
				pen_nl(p);
				p->x = 6;
				pen_put(p, ROLE_LABEL, "(unresolvable: preemption would not help)");
			}
		} else if (cut) {
			pen_put(p, ROLE_LABEL, "  not run");
		} else if (skipped) {
			pen_put(p, ROLE_LABEL, "  skipped (nothing to check)");
		}
		pen_nl(p);
		if (spread)
			verdicts(p, r);
	}
	out_buf_fini(&passed);
	out_buf_fini(&idle);
	if (nb > 1 && remark) {
		p->x = 2;
		pen_wrap(p, ROLE_LABEL, "the scheduler stops at the first failing filter and reports it alone");
		pen_nl(p);
	}
}

/* What preemption made of the node when no node was feasible. */
static void preemption(struct pen *p, const struct node_rec *r)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct preemption *pr = &s->dec.pre;
	if (!s->has_dec || !present_postfilter_ran(&s->dec))
		return;
	const struct preempt_node *pn = NULL;
	for (uint32_t i = 0; i < pr->nnodes && !pn; i++)
		if (pr->nodes[i].node == r->node)
			pn = &pr->nodes[i];
	struct out_buf b = {0};
	p->x = 0;
	pen_put(p, ROLE_HEADING, "Preemption");
	pen_nl(p);
	p->x = 2;
	bool nominated = sim_nominated(s) == (int32_t)r->node;
	if (nominated) {
		pen_raw(p, ROLE_CHOSEN, t->g->nominated);
		pen_put(p, ROLE_CHOSEN, " nominated");
		pen_put(p, ROLE_NORMAL, ": ");
	}
	int32_t prio = s->dec.pod < c->npods ? c->pods[s->dec.pod].spec.priority : 0;
	enum role role = ROLE_NORMAL;
	if (pr->outcome == PRE_DISABLED) {
		out_buf_puts(&b, "off (scheduler.preemption: false)");
	} else if (!pn) {
		out_buf_puts(&b, pr->message ? pr->message : "not run");
	} else {
		switch (pn->why) {
		case PN_NOT_HELPFUL:
			out_buf_puts(&b, "not helpful: the first failure is unresolvable");
			break;
		case PN_NO_VICTIMS:
			out_buf_printf(&b, "no victims: no pod of a priority below %" PRId32, prio);
			break;
		case PN_STILL_UNFIT:
			out_buf_printf(&b, "still unfit without its lower-priority pods: %s",
				       pn->reason ? pn->reason : "");
			break;
		case PN_NOT_TRIED:
			out_buf_puts(&b, "not tried: the dry run had enough candidates");
			break;
		case PN_CANDIDATE:
			out_buf_puts(&b, nominated ? "evicts " : "candidate: evicts ");
			for (uint32_t i = 0; i < pn->nvictims; i++) {
				const struct pod *v = &c->pods[pn->victims[i]];
				if (i)
					out_buf_puts(&b, ", ");
				present_pod_name(&b, c, v->ns, v->name, true);
			}
			out_buf_printf(&b, " (highest priority %" PRId32 ")", pn->highest);
			role = ROLE_MARK;
			break;
		}
	}
	pen_wrap(p, role, out_buf_str(&b));
	pen_nl(p);
	out_buf_fini(&b);
}

static void scores(struct pen *p, const struct node_rec *r)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	char buf[1024];
	p->x = 0;
	pen_put(p, ROLE_HEADING, "Scores");
	pen_pad(p, 34);
	pen_put(p, ROLE_LABEL, "score x weight");
	pen_nl(p);
	for (int pl = 0; pl < PL__COUNT; pl++) {
		/* the Score plugins, less VolumeBinding for a pod without claims */
		if (!plugin_scores((enum plugin_id)pl) || plugin_idle_for((enum plugin_id)pl, c, &c->pods[s->dec.pod]))
			continue;
		p->x = 2;
		pen_put(p, ROLE_NORMAL, plugin_name((enum plugin_id)pl));
		pen_pad(p, 34);
		if (!r->scored[pl] || s->dec.plugin_skipped[pl])
			pen_put(p, ROLE_LABEL, c->cfg.weights[pl] ? "skipped" : "weight 0");
		else
			pen_printf(p, ROLE_NORMAL, "%3" PRId64 " x %" PRId32 " = %" PRId64, (int64_t)r->norm[pl],
				   c->cfg.weights[pl], (int64_t)r->norm[pl] * c->cfg.weights[pl]);
		pen_nl(p);
	}
	p->x = 2;
	pen_printf(p, ROLE_HEADING, "total %" PRId64, r->total);
	bool chosen = s->ghost_node == (int32_t)r->node;
	if (chosen) {
		pen_put(p, ROLE_NORMAL, "  ");
		pen_raw(p, ROLE_CHOSEN, t->g->chosen);
		pen_put(p, ROLE_CHOSEN, " chosen");
	}
	pen_nl(p);
	bool soft = false;
	for (uint32_t i = 0; i < s->dec.ncons; i++)
		soft |= !s->dec.cons[i].hard && s->dec.cons[i].scored;
	if (soft && !s->dec.plugin_skipped[PL_POD_TOPOLOGY_SPREAD]) {
		p->x = 2;
		pen_put(p, ROLE_LABEL, "spread ");
		if (r->spread_ignored)
			pen_put(p, ROLE_NORMAL, "lacks a soft constraint's key (score 0)");
		else
			pen_wrap(p, ROLE_NORMAL, decision_spread_terms(c, &s->dec, r, buf, sizeof(buf)));
		pen_nl(p);
	}
}

static void ties(struct pen *p)
{
	const struct sim *s = p->t->sim;
	const struct cluster *c = s->sc->cluster;
	if (s->dec.ntied < 2)
		return;
	struct out_buf b = {0};
	out_buf_puts(&b, "tie between ");
	for (uint32_t i = 0; i < s->dec.ntied; i++)
		out_buf_printf(&b, "%s%s", i ? ", " : "", present_node_name(c, s->dec.tied[i]));
	out_buf_puts(&b, c->cfg.tie_random ? ": picked at random (seed)"
					  : ": the first in node order wins");
	p->x = 2;
	pen_wrap(p, ROLE_NORMAL, out_buf_str(&b));
	pen_nl(p);
	out_buf_fini(&b);
}

/* Writes the pane's lines with pen p (compact: the filters that passed
 * on one line; with_scores: all, else down to the verdicts only);
 * returns their number. */
static int body(struct tui *t, struct pen *p, bool compact, bool with_scores)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	if (s->cursor < 0) {
		pen_put(p, ROLE_LABEL, "No node.");
		return 1;
	}
	facts(p, &c->nodes[s->cursor], compact);
	const struct node_rec *rec = sim_node_rec(s, (uint32_t)s->cursor);
	enum guess g = t->predict ? sim_guess(s, (uint32_t)s->cursor) : GUESS_NONE;
	if (tui_hiding(t)) {
		p->x = 0;
		if (g != GUESS_NONE) {
			pen_put(p, ROLE_LABEL, "your guess: ");
			pen_put(p, ROLE_KEY, guess_text(g, false));
			pen_nl(p);
		}
		pen_wrap(p, ROLE_LABEL, "Predict mode: the verdicts wait for r. x marks a guess here "
					"(feasible, the pod goes here, filtered out).");
		pen_nl(p);
		return p->line;
	}
	if (rec && g != GUESS_NONE) {
		bool right = sim_guess_right(s, (uint32_t)s->cursor, g);
		p->x = 0;
		pen_put(p, ROLE_LABEL, "your guess: ");
		pen_put(p, ROLE_NORMAL, guess_text(g, false));
		pen_put(p, right ? ROLE_FEASIBLE : ROLE_OVER, right ? " - right" : " - wrong");
		pen_nl(p);
	}
	if (!rec) {
		pen_put(p, ROLE_LABEL, s->has_dec ? "Not in this step's decision (added later)."
						: "No scheduling cycle at this step.");
		return p->line + 1;
	}
	if (rec->feasible) {
		pen_put(p, ROLE_FEASIBLE, "feasible: passed every filter");
		pen_nl(p);
	}
	filters(p, rec, compact, with_scores);
	if (with_scores)
		preemption(p, rec);
	if (with_scores && rec->feasible && s->dec.scored)
		scores(p, rec);
	if (with_scores && rec->feasible)
		ties(p);
	return p->line;
}

static int measure(struct tui *t, int w, bool compact, bool with_scores)
{
	struct pen p = {t, {0, 0, 0, w}, 0, 0, 0, 0};
	return body(t, &p, compact, with_scores);
}

/* Wants the verdicts (the compact form down to the last filter's), with
 * the title. */
static int height(struct tui *t, int w, int *least)
{
	*least = 2;
	return 1 + measure(t, w, true, false);
}

static void draw(struct tui *t, const struct rect *r)
{
	int h = r->h - 1;
	/* the full form when its verdicts fit, else the compact one */
	bool compact = measure(t, r->w, false, false) > h;
	struct pen p = {t, {r->y + 1, r->x, h, r->w}, 0, t->sim->pane_scroll[PANE_NODE], 0, 0};
	bool scrolls = body(t, &p, compact, true) > h;
	draw_title(t, r, "Node", t->cols >= 110 ? "Enter places the pod here" : "", scrolls);
}

/* the rest of the wide layout's right column; a new node starts at its top */
const struct panel_ops panel_node = {.name = "node", .draw = draw, .slot = SLOT_DETAIL,
				     .height = height, .scrolls = true, .cursor_resets = true};
