/* p_node.c - the node under the cursor: its labels, taints and pods, every
 * filter's verdict in order with the reason and its arithmetic, and for a
 * feasible node every score plugin's normalized score, weight and
 * contribution, the soft spread terms and the total; the winner and ties. */
#include "tui.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void facts(struct pen *p, const struct node *n)
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
	for (uint32_t i = 0; i < n->labels.n; i++)
		out_buf_printf(&b, "%s%s=%s", i ? ", " : "", intern_get(c->in, n->labels.v[i].key),
			       intern_get(c->in, n->labels.v[i].val));
	p->x = 2;
	pen_put(p, ROLE_DIM, "labels ");
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
		pen_put(p, ROLE_DIM, " taints ");
		pen_wrap(p, ROLE_NORMAL, out_buf_str(&b));
		pen_nl(p);
	}
	out_buf_fini(&b);
}

static void filters(struct pen *p, const struct node_rec *r)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	char buf[1024];
	bool hard = false;
	for (uint32_t i = 0; i < s->dec.ncons; i++)
		hard |= s->dec.cons[i].hard;
	p->x = 0;
	pen_printf(p, ROLE_HEADING, "Filters (%d ran)", r->nran);
	if (r->prefilter_cut)
		pen_put(p, ROLE_DIM, "  NodeAffinity PreFilter left this node out");
	pen_nl(p);
	/* the filters run in plugin order; PodTopologySpread's PreFilter skips
	 * it without hard constraints, InterPodAffinity's without terms */
	int ran = 0;
	for (int f = 0; f < PL_BALANCED_ALLOCATION; f++) {
		bool earlier = !r->feasible && (int)r->fail < f;
		bool skipped = false;
		if (!earlier && f == PL_POD_TOPOLOGY_SPREAD)
			skipped = !hard;
		if (!earlier && f == PL_INTER_POD_AFFINITY)
			skipped = ran >= r->nran;
		bool failed = !r->feasible && r->fail == (enum plugin_id)f;
		bool did = !earlier && !skipped && !failed && !r->prefilter_cut &&
			   !s->dec.prefilter_conflict;
		p->x = 2;
		if (failed) {
			pen_raw(p, ROLE_OVER, t->g->bad);
		} else if (did) {
			pen_raw(p, ROLE_FEASIBLE, t->g->ok);
		} else {
			pen_put(p, ROLE_DIM, " ");
		}
		pen_put(p, ROLE_NORMAL, " ");
		pen_put(p, failed ? ROLE_OVER : did ? ROLE_NORMAL : ROLE_DIM,
			plugin_name((enum plugin_id)f));
		if (did || failed)
			ran++;
		if (failed) {
			pen_put(p, ROLE_NORMAL, ": ");
			pen_wrap(p, ROLE_NORMAL, decision_reason(c, &s->dec, r, buf, sizeof(buf)));
			const char *det = decision_detail(c, &s->dec, r, buf, sizeof(buf));
			if (det && det[0]) {
				pen_nl(p);
				p->x = 6;
				pen_wrap(p, ROLE_MARK, det);
			}
			if (r->unresolvable) {
				pen_nl(p);
				p->x = 6;
				pen_put(p, ROLE_DIM, "(unresolvable: preemption would not help)");
			}
		} else if (!did) {
			pen_put(p, ROLE_DIM, skipped ? "  skipped (nothing to check)" : "  not run");
		}
		pen_nl(p);
	}
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
	pen_put(p, ROLE_DIM, "score x weight");
	pen_nl(p);
	for (int pl = 0; pl < PL__COUNT; pl++) {
		if (pl == PL_NODE_UNSCHEDULABLE || pl == PL_NODE_NAME)
			continue;
		p->x = 2;
		pen_put(p, ROLE_NORMAL, plugin_name((enum plugin_id)pl));
		pen_pad(p, 34);
		if (!r->scored[pl] || s->dec.plugin_skipped[pl])
			pen_put(p, ROLE_DIM, c->cfg.weights[pl] ? "skipped" : "weight 0");
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
		pen_put(p, ROLE_DIM, "spread ");
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
		out_buf_printf(&b, "%s%s", i ? ", " : "", cli_node_name(c, s->dec.tied[i]));
	out_buf_puts(&b, c->cfg.tie_random ? ": picked at random (seed)"
					  : ": the first in node order wins");
	p->x = 2;
	pen_wrap(p, ROLE_NORMAL, out_buf_str(&b));
	pen_nl(p);
	out_buf_fini(&b);
}

/* The pane's lines; true when they run past its bottom. */
static bool body(struct tui *t, const struct rect *r)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	struct pen p = {t, {r->y + 1, r->x, r->h - 1, r->w}, 0, s->node_scroll, 0, 0};
	if (s->cursor < 0) {
		pen_put(&p, ROLE_DIM, "No node.");
		return false;
	}
	facts(&p, &c->nodes[s->cursor]);
	const struct node_rec *rec = sim_node_rec(s, (uint32_t)s->cursor);
	if (!rec) {
		pen_put(&p, ROLE_DIM, s->has_dec ? "Not in this step's decision (added later)."
						 : "No scheduling cycle at this step.");
		return false;
	}
	if (rec->feasible) {
		pen_put(&p, ROLE_FEASIBLE, "feasible: passed every filter");
		pen_nl(&p);
	}
	filters(&p, rec);
	if (rec->feasible && s->dec.scored)
		scores(&p, rec);
	if (rec->feasible)
		ties(&p);
	return p.line > p.r.h;
}

static void draw(struct tui *t, const struct rect *r)
{
	bool scrolls = body(t, r);
	draw_title(t, r, "Node", t->cols >= 110 ? "Enter places the pod here" : "", scrolls);
}

const struct panel_ops panel_node = {"node", draw};
