/* p_cons.c - the constraint panel: every topology spread constraint in
 * force (hard and soft, the pod's or the defaults) with its fields, its
 * effective selector, and per domain the matching count (number and bar),
 * the skew a placement there would give and whether the domain is
 * eligible. All figures are the decision record's. */
#include "tui.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define BAR_W 10

static const char *inelig_text(enum inelig why)
{
	switch (why) {
	case INELIG_NONE: return "eligible";
	case INELIG_MISSING_KEY: return "not a domain: its nodes lack the key";
	case INELIG_MISSING_OTHER_KEY: return "not a domain: nodes lack another hard constraint's key";
	case INELIG_AFFINITY: return "not a domain: excluded by the pod's node affinity/selector (nodeAffinityPolicy Honor)";
	case INELIG_TAINT: return "not a domain: untolerated taint (nodeTaintsPolicy Honor)";
	case INELIG_NOT_FEASIBLE: return "not scored: no feasible node";
	}
	return "not a domain";
}

static const char *origin_text(enum constraint_origin o)
{
	switch (o) {
	case ORIGIN_POD: return "from the pod";
	case ORIGIN_DEFAULT_SYSTEM: return "system default";
	case ORIGIN_DEFAULT_LIST: return "cluster default";
	}
	return "";
}

static void domains(struct pen *p, const struct constraint_rec *k, uint32_t cursor_dom)
{
	struct tui *t = p->t;
	const struct cluster *c = t->sim->sc->cluster;
	int64_t maxc = 1;
	int vw = 6;
	for (uint32_t i = 0; i < k->ndoms; i++) {
		if (k->doms[i].count > maxc)
			maxc = k->doms[i].count;
		int w = text_width(intern_get(c->in, k->doms[i].value), t->utf8);
		if (w > vw)
			vw = w;
	}
	if (vw > 24)
		vw = 24;
	int col_count = 2 + vw + 1, col_bar = col_count + 6, col_skew = col_bar + BAR_W + 2;
	p->x = 2;
	pen_put(p, ROLE_DIM, "DOMAIN");
	pen_pad(p, col_count);
	pen_put(p, ROLE_DIM, " PODS");
	pen_pad(p, col_skew);
	pen_put(p, ROLE_DIM, k->hard ? "SKEW IF PLACED" : "");
	pen_nl(p);
	for (uint32_t i = 0; i < k->ndoms; i++) {
		/* one line a domain: at 5,000 domains most are off screen,
		 * and only need counting */
		if (!pen_visible(p)) {
			pen_nl(p);
			continue;
		}
		const struct domain_rec *d = &k->doms[i];
		bool here = i == cursor_dom;
		p->x = 0;
		pen_put(p, here ? ROLE_CURSOR : ROLE_NORMAL, here ? ">" : " ");
		p->x = 2;
		const char *v = intern_get(c->in, d->value);
		int x0 = p->x;
		/* a long value is cut at the column, not drawn under the count */
		struct rect full = p->r;
		if (p->r.w > x0 + vw)
			p->r.w = x0 + vw;
		pen_put(p, d->exists ? ROLE_NORMAL : ROLE_DIM, *v ? v : "\"\"");
		p->r = full;
		if (p->x > x0 + vw)
			p->x = x0 + vw;
		pen_pad(p, col_count);
		pen_printf(p, ROLE_NORMAL, "%5" PRId64, d->count);
		p->x = col_bar;
		int n = (int)(d->count * BAR_W / maxc);
		if (d->count > 0 && n == 0)
			n = 1;
		for (int j = 0; j < BAR_W; j++)
			pen_raw(p, j < n ? ROLE_BAR : ROLE_DIM, j < n ? t->g->bar : t->g->bar_empty);
		pen_pad(p, col_skew);
		if (!d->exists) {
			pen_put(p, ROLE_DIM, inelig_text(d->why));
		} else if (k->hard) {
			bool over = d->skew > k->max_skew;
			pen_printf(p, over ? ROLE_OVER : ROLE_FEASIBLE, "%" PRId64, d->skew);
			if (over)
				pen_printf(p, ROLE_OVER, " > maxSkew %" PRId32 " %s", k->max_skew, t->g->bad);
			else
				pen_printf(p, ROLE_FEASIBLE, " %s", t->g->ok);
		} else {
			pen_put(p, ROLE_DIM, "scored");
		}
		if (d->is_min && k->hard)
			pen_put(p, ROLE_MIN, "  min");
		if (d->nineligible && d->exists)
			pen_printf(p, ROLE_DIM, "  (+%u node%s not eligible)", d->nineligible,
				   d->nineligible == 1 ? "" : "s");
		pen_nl(p);
	}
}

static void constraint(struct pen *p, uint32_t i, bool selected)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct constraint_rec *k = &s->dec.cons[i];
	p->x = 0;
	pen_put(p, selected ? ROLE_CURSOR : ROLE_NORMAL, selected ? ">" : " ");
	pen_printf(p, selected ? ROLE_HEADING : ROLE_NORMAL, " %u/%u %s (%s), %s", i + 1, s->dec.ncons,
		   k->hard ? "hard" : "soft", k->hard ? "DoNotSchedule" : "ScheduleAnyway",
		   origin_text(k->origin));
	pen_nl(p);
	p->x = 2;
	pen_put(p, ROLE_DIM, "topologyKey ");
	pen_put(p, ROLE_NORMAL, intern_get(c->in, k->key));
	pen_printf(p, ROLE_DIM, "  maxSkew ");
	pen_printf(p, ROLE_NORMAL, "%" PRId32, k->max_skew);
	pen_printf(p, ROLE_DIM, "  minDomains ");
	pen_printf(p, ROLE_NORMAL, "%" PRId32, k->min_domains);
	pen_nl(p);
	p->x = 2;
	pen_printf(p, ROLE_DIM, "nodeAffinityPolicy ");
	pen_put(p, ROLE_NORMAL, k->affinity_honor ? "Honor" : "Ignore");
	pen_printf(p, ROLE_DIM, "  nodeTaintsPolicy ");
	pen_put(p, ROLE_NORMAL, k->taints_honor ? "Honor" : "Ignore");
	pen_nl(p);
	p->x = 2;
	pen_put(p, ROLE_DIM, "selector ");
	if (k->sel.kind == SEL_NOTHING)
		pen_put(p, ROLE_NORMAL, "(nil: matches nothing)");
	else if (k->sel.kind == SEL_EVERYTHING)
		pen_put(p, ROLE_NORMAL, "{} (everything)");
	else
		pen_put(p, ROLE_NORMAL, k->sel_str ? k->sel_str : "");
	pen_put(p, ROLE_DIM, k->self_match ? "  (the pod matches: +1 where placed)"
					   : "  (the pod does not match: +0)");
	pen_nl(p);
	if (k->empty_quirk) {
		p->x = 2;
		pen_put(p, ROLE_MARK, "labelSelector {} counts no existing pods (v1.37)");
		pen_nl(p);
	}
	if (!k->hard && !k->scored) {
		p->x = 2;
		pen_put(p, ROLE_DIM, "not scored: no node passed the filters");
		pen_nl(p);
		return;
	}
	/* the domain of the node under the cursor is marked */
	uint32_t cur = UINT32_MAX;
	if (s->cursor >= 0) {
		sym_t v = labels_get(&c->nodes[s->cursor].labels, k->key);
		for (uint32_t j = 0; v && j < k->ndoms; j++)
			if (k->doms[j].value == v)
				cur = j;
	}
	if (k->ndoms)
		domains(p, k, cur);
	p->x = 2;
	if (!k->ndoms) {
		pen_put(p, ROLE_DIM, "no domains");
		pen_nl(p);
		p->x = 2;
	}
	if (k->hard) {
		if (k->min_forced_zero) {
			pen_printf(p, ROLE_MARK,
				   "%u domain%s < minDomains %" PRId32
				   ": the global minimum is taken as 0",
				   k->nreal, k->nreal == 1 ? "" : "s", k->min_domains);
			pen_nl(p);
			p->x = 4;
			pen_put(p, ROLE_DIM, "(so every placement's skew is its count + 1)");
		} else if (k->nreal == 0) {
			pen_printf(p, ROLE_NORMAL, "global minimum %" PRId64 " (no domains)", k->global_min);
		} else {
			pen_printf(p, ROLE_NORMAL, "global minimum %" PRId64 " in ", k->global_min);
			pen_put(p, ROLE_MIN, intern_get(c->in, k->min_value));
		}
	} else {
		pen_printf(p, ROLE_NORMAL, "weight ln(%u + 2) = %.2f", k->size, k->weight);
	}
	pen_nl(p);
}

/* The pane's lines; true when they run past its bottom. */
static bool body(struct tui *t, const struct rect *r)
{
	struct sim *s = t->sim;
	struct pen p = {t, {r->y + 1, r->x, r->h - 1, r->w}, 0, s->pane_scroll[PANE_CONS], 0, 0};
	if (!s->has_dec) {
		pen_wrap(&p, ROLE_DIM, s->view ? "No scheduling cycle at this step: it changes the cluster."
					       : "No step has run yet.");
		return false;
	}
	if (!s->dec.ncons) {
		pen_wrap(&p, ROLE_DIM, "No topology spread constraint in force: the pod has none and no default applies.");
		return false;
	}
	for (uint32_t i = 0; i < s->dec.ncons; i++) {
		constraint(&p, i, i == s->cons);
		if (i + 1 < s->dec.ncons)
			pen_nl(&p);
	}
	return p.line > p.r.h;
}

static void draw(struct tui *t, const struct rect *r)
{
	struct sim *s = t->sim;
	bool scrolls = body(t, r);
	draw_title(t, r, "Constraints", s->has_dec && s->dec.ncons > 1 ? "[ ] select" : "", scrolls);
}

/* 55% of the wide layout's right column; scrolls with PgUp/PgDn */
const struct panel_ops panel_cons = {.name = "constraints", .draw = draw, .slot = SLOT_DETAIL,
				     .share = 55, .scrolls = true};
