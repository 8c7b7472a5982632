/* p_cons.c - the constraint panel: every topology spread constraint in
 * force (hard and soft, the pod's or the defaults) with its fields, its
 * effective selector, and per domain the matching count (number and bar),
 * the skew a placement there would give and whether the domain is
 * eligible. All figures are the decision record's. */
#include "tui.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/controllers/ctl.h"
#include "../model/autoscale/autoscale.h"
#include "../model/steps/scale_up.h"

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
	pen_put(p, ROLE_LABEL, "DOMAIN");
	pen_pad(p, col_count);
	pen_put(p, ROLE_LABEL, " PODS");
	pen_pad(p, col_skew);
	bool hiding = tui_hiding(t);
	pen_put(p, ROLE_LABEL, hiding ? "" : k->hard ? "SKEW IF PLACED" : "SCORE TERM (lower wins)");
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
		pen_put(p, ROLE_NORMAL, *v ? v : "\"\"");
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
		if (!d->exists && hiding && d->why == INELIG_NOT_FEASIBLE) {
			/* predict mode: which nodes are feasible is the question */
		} else if (!d->exists) {
			pen_put(p, ROLE_LABEL, inelig_text(d->why));
		} else if (k->hard && hiding) {
			/* predict mode: the skew a placement gives is the question */
		} else if (k->hard) {
			bool over = d->skew > k->max_skew;
			pen_printf(p, over ? ROLE_OVER : ROLE_FEASIBLE, "%" PRId64, d->skew);
			if (over)
				pen_printf(p, ROLE_OVER, " > maxSkew %" PRId32 " %s", k->max_skew, t->g->bad);
			else
				pen_printf(p, ROLE_FEASIBLE, " %s", t->g->ok);
		} else if (hiding) {
			/* predict mode: the scores are the verdict */
		} else {
			/* the domain's share of a node's raw spread score, as
			 * decision_spread_terms: count x weight + (maxSkew - 1) */
			pen_printf(p, ROLE_NORMAL, "%" PRId64 " x %.2f + %d = %.2f", d->count, k->weight,
				   (int)k->max_skew - 1, (double)d->count * k->weight + (k->max_skew - 1));
		}
		if (d->is_min && k->hard)
			pen_put(p, ROLE_MIN, "  min");
		if (d->nineligible && d->exists)
			pen_printf(p, ROLE_LABEL, "  (+%u node%s not eligible)", d->nineligible,
				   d->nineligible == 1 ? "" : "s");
		pen_nl(p);
	}
}

/* A constraint on one line: the compact form of those not selected. */
static void constraint_line(struct pen *p, uint32_t i)
{
	const struct sim *s = p->t->sim;
	const struct constraint_rec *k = &s->dec.cons[i];
	p->x = 2;
	pen_printf(p, ROLE_NORMAL, "%u/%u %s ", i + 1, s->dec.ncons, k->hard ? "hard" : "soft");
	pen_put(p, ROLE_NORMAL, intern_get(s->sc->cluster->in, k->key));
	pen_printf(p, ROLE_NORMAL, "  maxSkew %" PRId32, k->max_skew);
	pen_put(p, ROLE_KEY, "  ([ ] selects)");
	pen_nl(p);
}

/* Starts a new line (indented under the fields) when the next field,
 * need columns, would be cut at the pane's edge; not in the compact form,
 * whose lines go to the domain table (a cut field there). */
static void field_room(struct pen *p, int need, bool compact)
{
	if (!compact && p->x > 4 && p->x + need > p->r.w) {
		pen_nl(p);
		p->x = 2; /* the field's own two spaces indent it by 4 */
	}
}

/* compact: the policies' line only when one is not the default */
static void constraint(struct pen *p, uint32_t i, bool selected, bool compact)
{
	struct tui *t = p->t;
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct constraint_rec *k = &s->dec.cons[i];
	if (compact && !selected) {
		constraint_line(p, i);
		return;
	}
	p->x = 0;
	pen_put(p, selected ? ROLE_CURSOR : ROLE_NORMAL, selected ? ">" : " ");
	pen_printf(p, selected ? ROLE_HEADING : ROLE_NORMAL, " %u/%u %s (%s), %s", i + 1, s->dec.ncons,
		   k->hard ? "hard" : "soft", k->hard ? "DoNotSchedule" : "ScheduleAnyway",
		   present_origin_name(k->origin));
	pen_nl(p);
	p->x = 2;
	pen_put(p, ROLE_LABEL, "topologyKey ");
	pen_put(p, ROLE_NORMAL, intern_get(c->in, k->key));
	char num[24];
	snprintf(num, sizeof(num), "%" PRId32, k->max_skew);
	field_room(p, 10 + (int)strlen(num), compact);
	pen_printf(p, ROLE_LABEL, "  maxSkew ");
	pen_put(p, ROLE_NORMAL, num);
	snprintf(num, sizeof(num), "%" PRId32, k->min_domains);
	field_room(p, 13 + (int)strlen(num), compact);
	pen_printf(p, ROLE_LABEL, "  minDomains ");
	pen_put(p, ROLE_NORMAL, num);
	pen_nl(p);
	if (!compact || !k->affinity_honor || k->taints_honor) {
		p->x = 2;
		pen_printf(p, ROLE_LABEL, "nodeAffinityPolicy ");
		pen_put(p, ROLE_NORMAL, k->affinity_honor ? "Honor" : "Ignore");
		field_room(p, 24, compact);
		pen_printf(p, ROLE_LABEL, "  nodeTaintsPolicy ");
		pen_put(p, ROLE_NORMAL, k->taints_honor ? "Honor" : "Ignore");
		pen_nl(p);
	}
	p->x = 2;
	pen_put(p, ROLE_LABEL, "selector ");
	if (k->sel.kind == SEL_NOTHING)
		pen_put(p, ROLE_NORMAL, "(nil: matches nothing)");
	else if (k->sel.kind == SEL_EVERYTHING)
		pen_put(p, ROLE_NORMAL, "{} (everything)");
	else
		pen_put(p, ROLE_NORMAL, k->sel_str ? k->sel_str : "");
	const char *self = k->self_match ? "  (the pod matches: +1 where placed)"
					 : "  (the pod does not match: +0)";
	field_room(p, (int)strlen(self), compact);
	pen_put(p, ROLE_LABEL, self);
	pen_nl(p);
	if (k->empty_quirk) {
		p->x = 2;
		pen_put(p, ROLE_MARK, "labelSelector {} counts no existing pods (v1.37)");
		pen_nl(p);
	}
	if (!k->hard && !k->scored && tui_hiding(t)) {
		return;
	}
	if (!k->hard && !k->scored) {
		p->x = 2;
		pen_put(p, ROLE_LABEL, "not scored: no node passed the filters");
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
		pen_put(p, ROLE_LABEL, "no domains");
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
			pen_put(p, ROLE_LABEL, "(so every placement's skew is its count + 1)");
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

/* A controller sub-step in a few words into b: "delete web-b1 from b1",
 * "create web-1 -> b1" (without the namespace: the heading names it). */
static void sub_text(const struct cluster *c, const struct ctl_sub *s, struct out_buf *b)
{
	out_buf_reset(b);
	out_buf_puts(b, s->kind == CTL_CREATE ? "create " : s->evicted ? "evict " : "delete ");
	out_buf_puts(b, s->pod != UINT32_MAX ? intern_get(c->in, c->pods[s->pod].name) : "(none)");
	if (s->kind == CTL_CREATE) {
		out_buf_puts(b, " -> ");
		out_buf_puts(b, s->r.outcome == OUT_SCHEDULED ? present_node_name(c, s->node)
							      : present_outcome_name(s->r.outcome));
	} else if (s->node >= 0) {
		out_buf_puts(b, " from ");
		out_buf_puts(b, present_node_name(c, s->node));
	}
}

static int digits(int64_t v)
{
	int n = v < 0 ? 2 : 1;
	for (v = v < 0 ? -v : v; v >= 10; v /= 10)
		n++;
	return n;
}

/* A controller step (scale, rollout, deschedule): each sub-step with the
 * domain counts after it and their skew, the first row the counts
 * before. The domains are those of the first constraint of the
 * workload's template (the skew of the outcome line). */
static void ctl_table(struct pen *p, const struct ctl_run *k, uint32_t base)
{
	struct tui *t = p->t;
	const struct cluster *c = t->sim->sc->cluster;
	struct out_buf b = {0};
	p->x = 0;
	if (!k->nsubs) {
		pen_wrap(p, ROLE_LABEL, "No scheduling cycle at this step, and no pod created or deleted.");
		pen_nl(p);
		return;
	}
	if (!k->ndoms) {
		pen_wrap(p, ROLE_LABEL, "No scheduling cycle at this step; its sub-steps (the workload's template has no spread constraint to count by):");
		pen_nl(p);
	} else {
		out_buf_printf(&b, "Counts after each sub-step: %s pods matching %s by %s (the template's first constraint)",
			       intern_get(c->in, k->dom_ns),
			       k->dom_sel && *k->dom_sel ? k->dom_sel : "{}", intern_get(c->in, k->dom_key));
		pen_wrap(p, ROLE_LABEL, out_buf_str(&b));
		pen_nl(p);
	}
	int64_t *cnt = k->ndoms ? malloc(k->ndoms * sizeof(*cnt)) : NULL;
	int *dw = k->ndoms ? malloc(k->ndoms * sizeof(*dw)) : NULL;
	if (k->ndoms && (!cnt || !dw)) {
		free(cnt);
		free(dw);
		out_buf_fini(&b);
		pen_put(p, ROLE_ERROR, "out of memory");
		pen_nl(p);
		return;
	}
	/* the columns: the step's index, what it did, each domain's count
	 * (as wide as its value and its largest count), the skew */
	int sw = 1 + digits((int64_t)base + k->nsubs), ww = 6;
	if (sw < 4)
		sw = 4;
	for (uint32_t j = 0; j < k->ndoms; j++) {
		cnt[j] = k->dom_before[j];
		dw[j] = text_width(intern_get(c->in, k->dom_vals[j]), t->utf8);
		if (digits(cnt[j]) > dw[j])
			dw[j] = digits(cnt[j]);
	}
	for (uint32_t q = 0; q < k->nsubs; q++) {
		sub_text(c, &k->subs[q], &b);
		int w = text_width(out_buf_str(&b), t->utf8);
		ww = w > ww ? w : ww;
		if (!k->ndoms)
			continue;
		ctl_dom_apply(k, q, cnt);
		/* only the domains this sub-step changed can widen */
		for (uint32_t e = 0; e < k->subs[q].nd; e++) {
			uint32_t j = k->deltas[k->subs[q].d0 + e].dom;
			if (digits(cnt[j]) > dw[j])
				dw[j] = digits(cnt[j]);
		}
	}
	int w = p->r.w, x_what = 2 + sw + 2, room = w - x_what - 1 - 6;
	int need = 0;
	for (uint32_t j = 0; j < k->ndoms; j++)
		need += dw[j] + 2;
	if (ww > room - need)
		ww = room - need < 16 ? 16 : room - need;
	/* the domains that fit after the text */
	uint32_t shown = 0;
	int x_dom = x_what + ww + 1, x = x_dom;
	while (shown < k->ndoms && x + dw[shown] + 2 <= w - 6) {
		x += dw[shown] + 2;
		shown++;
	}
	int x_skew = x;
	/* the header */
	p->x = 2;
	pen_put(p, ROLE_LABEL, "STEP");
	pen_pad(p, x_what);
	pen_put(p, ROLE_LABEL, "WHAT");
	x = x_dom;
	for (uint32_t j = 0; j < shown; j++) {
		const char *v = intern_get(c->in, k->dom_vals[j]);
		pen_pad(p, x + 2 + dw[j] - text_width(v, t->utf8));
		pen_put(p, ROLE_LABEL, v);
		x += dw[j] + 2;
	}
	if (k->ndoms) {
		pen_pad(p, x_skew + 1);
		pen_put(p, ROLE_LABEL, " SKEW");
	}
	pen_nl(p);
	/* the rows: before, then each sub-step */
	for (uint32_t j = 0; j < k->ndoms; j++)
		cnt[j] = k->dom_before[j];
	/* without domains there are no counts before */
	for (uint32_t q = k->ndoms ? 0 : 1; q <= k->nsubs; q++) {
		if (q && k->ndoms)
			ctl_dom_apply(k, q - 1, cnt);
		if (!pen_visible(p)) {
			pen_nl(p);
			continue;
		}
		p->x = 2;
		if (q)
			pen_printf(p, ROLE_NORMAL, "#%u", base + q);
		pen_pad(p, x_what);
		if (q) {
			const struct ctl_sub *s = &k->subs[q - 1];
			sub_text(c, s, &b);
			struct rect full = p->r;
			if (p->r.w > x_what + ww)
				p->r.w = x_what + ww;
			pen_put(p, s->kind == CTL_CREATE && s->r.outcome != OUT_SCHEDULED ? ROLE_OVER : ROLE_NORMAL,
				out_buf_str(&b));
			p->r = full;
		} else {
			pen_put(p, ROLE_LABEL, "before");
		}
		x = x_dom;
		for (uint32_t j = 0; j < shown; j++) {
			pen_pad(p, x + 2 + dw[j] - digits(cnt[j]));
			pen_printf(p, ROLE_NORMAL, "%" PRId64, cnt[j]);
			x += dw[j] + 2;
		}
		if (k->ndoms) {
			int64_t sk = ctl_dom_skew(k, cnt);
			pen_pad(p, x_skew + 6 - digits(sk));
			pen_printf(p, ROLE_NORMAL, "%" PRId64, sk);
		}
		pen_nl(p);
	}
	if (shown < k->ndoms) {
		p->x = 2;
		pen_printf(p, ROLE_LABEL, "(%u more domain%s do not fit; SKEW counts them all)",
			   k->ndoms - shown, k->ndoms - shown == 1 ? "" : "s");
		pen_nl(p);
	}
	free(cnt);
	free(dw);
	out_buf_fini(&b);
}

/* ---- a scaleUp step: the autoscalers' answers ---- */

/* explain's text of report r, wrapped line by line with pen p (the
 * explain indent of two dropped, deeper ones kept). */
static void report_lines(struct pen *p, enum role role, const struct as_report *r)
{
	struct out_buf b = {0};
	as_report_text(&b, r);
	char *buf = b.oom ? NULL : b.s;
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		int ind = 0;
		while (line[ind] == ' ')
			ind++;
		p->x = ind > 2 ? ind - 2 : 0;
		pen_wrap(p, role, line + ind);
		pen_nl(p);
	}
	out_buf_fini(&b);
}

/* "1 node in zone c", "2 nodes in zones a, b", "no node" */
static void adds(char *out, size_t len, const struct as_report *r)
{
	if (!r || r->error || !r->nadded) {
		snprintf(out, len, "%s", r && r->error ? "an error" : "no node");
		return;
	}
	size_t n = (size_t)snprintf(out, len, "%u node%s in zone%s ", r->nadded, r->nadded == 1 ? "" : "s",
				    r->nadded == 1 ? "" : "s");
	for (uint32_t i = 0; i < r->nadded && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "",
				      r->added[i].zone ? r->added[i].zone : "?");
}

static int cmp_str(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	return strcmp(x ? x : "", y ? y : "");
}

/* Do both add as many nodes in the same zones? */
static bool same_adds(const struct as_report *a, const struct as_report *b)
{
	if (!a || !b || a->error || b->error || a->nadded != b->nadded)
		return false;
	uint32_t n = a->nadded;
	const char **x = calloc(2 * n + 1, sizeof(char *));
	if (!x)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		x[i] = a->added[i].zone;
		x[n + i] = b->added[i].zone;
	}
	qsort(x, n, sizeof(*x), cmp_str);
	qsort(x + n, n, sizeof(*x), cmp_str);
	bool same = true;
	for (uint32_t i = 0; i < n && same; i++)
		same = !cmp_str(&x[i], &x[n + i]);
	free(x);
	return same;
}

static const char *as_name(const struct as_report *r)
{
	return r->kind == AS_CA ? "Cluster Autoscaler" : "Karpenter";
}

/* The step's report and, with both autoscalers configured, the other's
 * at the same moment: side by side when the pane is wide, else one
 * above the other. */
static int scale_up_body(struct tui *t, struct pen *p, const struct as_report *r)
{
	const struct as_report *o = t->sim->as_other;
	if (!o) {
		report_lines(p, ROLE_NORMAL, r);
		return p->line;
	}
	char x[256], y[256], head[700];
	adds(x, sizeof(x), r);
	adds(y, sizeof(y), o);
	if (same_adds(r, o))
		snprintf(head, sizeof(head), "Both autoscalers add %s.", x);
	else
		snprintf(head, sizeof(head), "The autoscalers differ: %s adds %s, %s would add %s.", as_name(r), x,
			 as_name(o), y);
	pen_wrap(p, ROLE_LABEL, head);
	pen_nl(p);
	int w = p->r.w;
	if (w >= 100) {
		/* two columns from the same line on */
		int cw = (w - 3) / 2;
		struct pen a = *p, b = *p;
		a.r.w = cw;
		b.r.x = p->r.x + cw + 3;
		b.r.w = w - cw - 3;
		pen_printf(&a, ROLE_LABEL, "%s (this step)", as_name(r));
		pen_nl(&a);
		report_lines(&a, ROLE_NORMAL, r);
		pen_printf(&b, ROLE_LABEL, "%s instead (dry run)", as_name(o));
		pen_nl(&b);
		report_lines(&b, ROLE_NORMAL, o);
		p->line = a.line > b.line ? a.line : b.line;
		return p->line;
	}
	pen_printf(p, ROLE_LABEL, "%s (this step)", as_name(r));
	pen_nl(p);
	report_lines(p, ROLE_NORMAL, r);
	pen_printf(p, ROLE_LABEL, "%s instead (dry run)", as_name(o));
	pen_nl(p);
	report_lines(p, ROLE_NORMAL, o);
	return p->line;
}

/* Writes the pane's lines with pen p (compact: the other constraints on
 * one line each, no blank lines between); returns their number, the
 * selected constraint's first line in *sel0 and the line after it in
 * *sel1. */
static int body(struct tui *t, struct pen *p, bool compact, int *sel0, int *sel1)
{
	struct sim *s = t->sim;
	*sel0 = *sel1 = 0;
	const struct ctl_run *k = s->view ? present_ctl_run(s->tl, s->view - 1) : NULL;
	if (!s->has_dec && k) {
		ctl_table(p, k, ctl_flat_index(s->tl, s->view - 1));
		return p->line;
	}
	const struct step *st = sim_step(s);
	const struct as_report *rep = st && st->kind == STEP_SCALE_UP ? scale_up_report(s->tl, s->view - 1) : NULL;
	if (!s->has_dec && rep && !rep->error)
		return scale_up_body(t, p, rep);
	if (!s->has_dec) {
		pen_wrap(p, ROLE_LABEL, s->view ? "No scheduling cycle at this step: it changes the cluster."
					       : "No step has run yet.");
		return p->line + 1;
	}
	if (!s->dec.ncons) {
		pen_wrap(p, ROLE_LABEL, "No topology spread constraint in force: the pod has none and no default applies.");
		return p->line + 1;
	}
	for (uint32_t i = 0; i < s->dec.ncons; i++) {
		if (i == s->cons)
			*sel0 = p->line;
		constraint(p, i, i == s->cons, compact);
		if (i == s->cons)
			*sel1 = p->line;
		if (i + 1 < s->dec.ncons && !compact)
			pen_nl(p);
	}
	return p->line;
}

/* The lines of the body at width w, drawing nothing. */
static int measure(struct tui *t, int w, bool compact, int *sel0, int *sel1)
{
	struct pen p = {t, {0, 0, 0, w}, 0, 0, 0, 0};
	return body(t, &p, compact, sel0, sel1);
}

/* Wants the compact form whole, with its title. */
static int height(struct tui *t, int w, int *least)
{
	int a, b;
	*least = 2;
	return 1 + measure(t, w, true, &a, &b);
}

static void draw(struct tui *t, const struct rect *r)
{
	struct sim *s = t->sim;
	int h = r->h - 1, a, b;
	/* the full form when it fits, else the compact one */
	bool compact = measure(t, r->w, false, &a, &b) > h;
	int n = compact ? measure(t, r->w, true, &a, &b) : 0;
	int *scroll = &s->pane_scroll[PANE_CONS];
	if (s->cons_follow) {
		/* the selected constraint in view, from its first line */
		if (b - a >= h || a < *scroll)
			*scroll = a;
		else if (b > *scroll + h)
			*scroll = b - h;
		s->cons_follow = false;
	}
	struct pen p = {t, {r->y + 1, r->x, h, r->w}, 0, *scroll, 0, 0};
	n = body(t, &p, compact, &a, &b);
	const struct step *st = sim_step(s);
	bool as = !s->has_dec && st && st->kind == STEP_SCALE_UP && scale_up_report(s->tl, s->view - 1);
	bool subs = !s->has_dec && s->view && present_ctl_run(s->tl, s->view - 1);
	draw_title(t, r, as ? "Autoscalers" : subs ? "Sub-steps" : "Constraints",
		   s->has_dec && s->dec.ncons > 1 ? "[ ] select" : "", n > h);
}

/* 55% of the wide layout's right column; scrolls with PgUp/PgDn */
const struct panel_ops panel_cons = {.name = "constraints", .draw = draw, .slot = SLOT_DETAIL,
				     .height = height, .share = 55, .scrolls = true};
