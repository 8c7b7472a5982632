/* p_cluster.c - the cluster view: domain boxes holding node columns that
 * hold their pods (or compact cells), drawn from the layout of clayout.c.
 * Only the cells inside the viewport are drawn, so 5,000 nodes cost what
 * one screen of them costs. */
#include "tui.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The verdict mark of a node: ✓/★ and its total, or ✗ and the filter
 * (✘ and "+N" when N more filters fail there too). */
static enum role verdict(const struct tui *t, uint32_t node, char *buf, size_t len,
			 const char **glyph)
{
	const struct sim *s = t->sim;
	const struct node_rec *r = sim_node_rec(s, node);
	enum guess gs = tui_hiding(t) ? sim_guess(s, node) : GUESS_NONE;
	buf[0] = '\0';
	*glyph = " ";
	if (tui_hiding(t)) {
		/* predict mode: the class's guess, no verdict */
		snprintf(buf, len, "%s", guess_text(gs, true));
		return ROLE_KEY;
	}
	if (!r)
		return ROLE_DIM;
	enum role role;
	if (!r->feasible) {
		int n = sim_nblockers(r);
		*glyph = n > 1 ? t->g->bad_multi : t->g->bad;
		if (n > 1)
			snprintf(buf, len, "%s+%d", tui_plugin_code(r->fail), n - 1);
		else
			snprintf(buf, len, "%s", tui_plugin_code(r->fail));
		role = ROLE_FILTERED;
	} else {
		bool chosen = s->ghost_node == (int32_t)node;
		*glyph = chosen ? t->g->chosen : t->g->ok;
		if (s->dec.scored)
			snprintf(buf, len, "%" PRId64, r->total);
		role = chosen ? ROLE_CHOSEN : ROLE_FEASIBLE;
	}
	return role;
}

static bool tainted(const struct cluster *c, const struct node *n)
{
	for (uint32_t i = 0; i < n->ntaints; i++)
		if (n->taints[i].key != c->sym_unsched_taint)
			return true;
	return false;
}

static void draw_cell_full(struct tui *t, const struct cl_cell *cell, int y, int x)
{
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct node *n = &c->nodes[cell->node];
	int w = s->lay.cellw;
	bool cur = s->cursor == (int32_t)cell->node;
	const struct node_rec *rec = sim_node_rec(s, cell->node);
	bool hiding = tui_hiding(t);
	bool filtered = rec && !rec->feasible && !hiding;
	enum role name_role = cur ? ROLE_CURSOR : filtered ? ROLE_FILTERED : ROLE_HEADING;
	if (cur)
		draw_fill(t, y, x, w, ROLE_CURSOR);
	const char *name = intern_get(c->in, n->name);
	draw_text(t, y, x, w, name_role, name);
	enum guess gs = t->predict && !hiding ? sim_guess(s, cell->node) : GUESS_NONE;
	if (gs != GUESS_NONE && text_width(name, t->utf8) + 6 <= w) {
		/* revealed: whether the class's guess was right (the story
		 * lists the wrong ones when the cell is too narrow) */
		bool right = sim_guess_right(s, cell->node, gs);
		draw_text(t, y, x + w - 5, 5, cur ? ROLE_CURSOR : right ? ROLE_FEASIBLE : ROLE_OVER,
			  right ? "right" : "wrong");
	}
	char buf[32];
	const char *g;
	enum role vr = verdict(t, cell->node, buf, sizeof(buf), &g);
	int vx = x + draw_raw(t, y + 1, x, vr, g);
	vx += draw_text(t, y + 1, vx, x + w - vx, vr, buf);
	if (n->unschedulable) {
		vx += draw_text(t, y + 1, vx, x + w - vx, ROLE_NORMAL, " ");
		vx += draw_raw(t, y + 1, vx, ROLE_MARK, t->g->cordon);
	}
	if (tainted(c, n)) {
		vx += draw_text(t, y + 1, vx, x + w - vx, ROLE_NORMAL, " ");
		vx += draw_raw(t, y + 1, vx, ROLE_MARK, t->g->taint);
	}
	if (sim_nominated(s) == (int32_t)cell->node && !hiding) {
		vx += draw_text(t, y + 1, vx, x + w - vx, ROLE_NORMAL, " ");
		draw_raw(t, y + 1, vx, ROLE_CHOSEN, t->g->nominated);
	}
	/* the node's pods, then the ones preemption evicted from it;
	 * predict mode shows the cluster before the step: no pod placed,
	 * none evicted yet */
	const uint32_t *ev;
	uint32_t nev = sim_evicted(s, cell->node, &ev);
	bool skip_ghost = hiding && s->ghost_node == (int32_t)cell->node && s->ghost_pod >= 0;
	uint32_t total = n->npods + nev - (skip_ghost ? 1 : 0);
	int rows = cell->pod_rows;
	if (total == 0) {
		draw_text(t, y + 2, x, w, ROLE_DIM, "(no pods)");
		return;
	}
	for (int i = 0; i < rows && (uint32_t)i < total; i++) {
		if (i == rows - 1 && total > (uint32_t)rows) {
			snprintf(buf, sizeof(buf), "+%u more", total - (uint32_t)rows + 1);
			draw_text(t, y + 2 + i, x, w, ROLE_DIM, buf);
			break;
		}
		uint32_t npods = n->npods - (skip_ghost ? 1 : 0);
		if ((uint32_t)i >= npods) {
			uint32_t vid = ev[(uint32_t)i - npods];
			if (hiding) {
				const char *pg;
				/* counted as it was there, before the step */
				enum role pr = sim_pod_role_on(s, vid, (int32_t)cell->node, &pg, t->g);
				int px = x + draw_raw(t, y + 2 + i, x, pr, pg);
				px += draw_text(t, y + 2 + i, px, 1, ROLE_NORMAL, " ");
				draw_text(t, y + 2 + i, px, x + w - px, pr, intern_get(c->in, c->pods[vid].name));
				continue;
			}
			int px = x + draw_raw(t, y + 2 + i, x, ROLE_TERMINATING, t->g->pod_term);
			px += draw_text(t, y + 2 + i, px, 1, ROLE_NORMAL, " ");
			draw_text(t, y + 2 + i, px, x + w - px, ROLE_TERMINATING,
				  intern_get(c->in, c->pods[vid].name));
			continue;
		}
		uint32_t pid = n->pods[i];
		if (skip_ghost) {
			/* the ghost is one of the node's pods: step over it */
			uint32_t k = 0, want = (uint32_t)i;
			for (uint32_t j = 0; j < n->npods; j++) {
				if ((int32_t)n->pods[j] == s->ghost_pod)
					continue;
				if (k++ == want) {
					pid = n->pods[j];
					break;
				}
			}
		}
		const char *pg;
		enum role pr = sim_pod_role(s, pid, &pg, t->g);
		int px = x + draw_raw(t, y + 2 + i, x, pr, pg);
		px += draw_text(t, y + 2 + i, px, 1, ROLE_NORMAL, " ");
		draw_text(t, y + 2 + i, px, x + w - px, pr == ROLE_GHOST ? ROLE_GHOST : pr,
			  intern_get(c->in, c->pods[pid].name));
	}
}

static void draw_cell_compact(struct tui *t, const struct cl_cell *cell, int y, int x)
{
	const struct sim *s = t->sim;
	const struct node *n = &s->sc->cluster->nodes[cell->node];
	bool cur = s->cursor == (int32_t)cell->node;
	char buf[32], num[8];
	const char *g;
	enum role vr = verdict(t, cell->node, buf, sizeof(buf), &g);
	bool hiding = tui_hiding(t);
	uint32_t npods = n->npods - (hiding && s->ghost_node == (int32_t)cell->node ? 1 : 0);
	if (hiding && buf[0])
		g = "?"; /* a guess */
	if (n->unschedulable && vr != ROLE_FILTERED)
		g = t->g->cordon;
	if (sim_nominated(s) == (int32_t)cell->node && !hiding) {
		g = t->g->nominated;
		vr = ROLE_CHOSEN;
	}
	if (npods > 999)
		snprintf(num, sizeof(num), "+++");
	else
		snprintf(num, sizeof(num), "%3u", npods);
	if (cur)
		draw_fill(t, y, x, s->lay.cellw, ROLE_CURSOR);
	draw_raw(t, y, x, cur ? ROLE_CURSOR : vr, g);
	draw_text(t, y, x + 1, 3, cur ? ROLE_CURSOR : ROLE_NORMAL,
		  num);
}

/* The title of a domain box: its value and, for the constraint's key, the
 * matching count and minimum from the decision record. */
void cluster_box_title(const struct sim *s, const struct cl_box *b, bool hiding,
		       struct out_buf *o)
{
	const struct cluster *c = s->sc->cluster;
	if (b->value)
		out_buf_puts(o, intern_get(c->in, b->value));
	else
		out_buf_printf(o, "(no %s)", intern_get(c->in, b->key));
	const struct constraint_rec *k = sim_cons(s);
	if (k && k->key == b->key && b->value) {
		for (uint32_t i = 0; i < k->ndoms; i++) {
			const struct domain_rec *d = &k->doms[i];
			if (d->value != b->value)
				continue;
			out_buf_printf(o, " (%" PRId64 ")", d->count);
			if (d->is_min && k->hard)
				out_buf_puts(o, " min");
			if (!d->exists)
				out_buf_puts(o, " ineligible");
			break;
		}
	}
	if (s->lay.compact && hiding)
		out_buf_printf(o, " - %u node%s", b->nnodes, b->nnodes == 1 ? "" : "s");
	else if (s->lay.compact)
		out_buf_printf(o, " - %u node%s, %u feasible", b->nnodes, b->nnodes == 1 ? "" : "s",
			       b->nfeasible);
}

/* Whether a node of this step's decision fails two or more filters. */
static bool any_multi(const struct sim *s)
{
	for (uint32_t i = 0; s->has_dec && i < s->dec.nnodes; i++)
		if (sim_nblockers(&s->dec.nodes[i]) > 1)
			return true;
	return false;
}

static void draw_legend(struct tui *t, int y, int x, int w)
{
	const struct glyphs *g = t->g;
	/* the marks of the debugging records only when the step has them */
	bool multi = any_multi(t->sim), nominated = sim_nominated(t->sim) >= 0;
	/* predict mode, or a step without a scheduling cycle: no verdict
	 * marks on screen, so none in the legend */
	bool v = !tui_hiding(t) && t->sim->has_dec;
	multi &= v;
	nominated &= v;
	/* no constraint (step 0, a step that changes the cluster): no pod
	 * is counted or not, ○ is just a pod */
	bool counts = sim_cons(t->sim) != NULL;
	const struct { const char *glyph; enum role r; const char *text; bool show; } items[] = {
		{g->pod_counted, ROLE_MATCHING_POD, "counted", counts},
		{g->pod_other, ROLE_OTHER_POD, counts ? "not counted" : "pod", true},
		{g->pod_ghost, ROLE_GHOST, "this pod", v}, {g->pod_ns, ROLE_OTHER_NS, "other ns", true},
		{g->pod_term, ROLE_TERMINATING, "terminating", true},
		{g->nominated, ROLE_CHOSEN, "nominated", nominated},
		{g->ok, ROLE_FEASIBLE, "feasible", v}, {g->chosen, ROLE_CHOSEN, "chosen", v},
		{g->bad, ROLE_FILTERED, "filtered", v}, {g->bad_multi, ROLE_FILTERED, "2+ filters", multi},
		{g->cordon, ROLE_MARK, "cordoned", true}, {g->taint, ROLE_MARK, "tainted", true},
	};
	int cx = x;
	for (size_t i = 0; i < sizeof(items) / sizeof(*items); i++) {
		if (!items[i].show)
			continue;
		int need = 2 + (int)strlen(items[i].text) + 2;
		if (cx + need > x + w)
			break;
		cx += draw_raw(t, y, cx, items[i].r, items[i].glyph);
		cx += draw_text(t, y, cx, x + w - cx, ROLE_LABEL, " ");
		cx += draw_text(t, y, cx, x + w - cx, ROLE_LABEL, items[i].text);
		cx += draw_text(t, y, cx, x + w - cx, ROLE_LABEL, "  ");
	}
}

static void draw(struct tui *t, const struct rect *r)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct cl_layout *l = &s->lay;
	struct out_buf b = {0};
	/* title: how the view is grouped */
	out_buf_puts(&b, "Cluster");
	if (l->nkeys) {
		out_buf_puts(&b, " by ");
		for (int i = 0; i < l->nkeys; i++) {
			if (i)
				out_buf_puts(&b, " > ");
			out_buf_puts(&b, intern_get(c->in, l->keys[i]));
		}
	} else {
		out_buf_puts(&b, " (no grouping key on the nodes)");
	}
	if (s->zoomed)
		out_buf_printf(&b, " | zoomed into %s (z: out)",
			       s->zoom_value ? intern_get(c->in, s->zoom_value) : "(none)");
	draw_text(t, r->y, r->x, r->w, ROLE_HEADING, out_buf_str(&b));
	out_buf_fini(&b);
	int vy = r->y + 1, vh = r->h - 2;
	if (vh < 1)
		return;
	struct rect save = t->clip;
	t->clip = (struct rect){vy, r->x, vh, r->w};
	int top = s->scroll, bottom = s->scroll + vh;
	for (uint32_t i = 0; i < l->nboxes; i++) {
		const struct cl_box *bx = &l->boxes[i];
		if (bx->y >= bottom || bx->y + bx->h <= top)
			continue;
		int y = vy + bx->y - top, x = r->x + bx->x;
		draw_box(t, y, x, bx->h, bx->w, ROLE_BORDER);
		struct out_buf tb = {0};
		cluster_box_title(s, bx, tui_hiding(t), &tb);
		int tx = x + 2;
		tx += draw_text(t, y, tx, 1, ROLE_BORDER, " ");
		tx += draw_text(t, y, tx, x + bx->w - 3 - tx, ROLE_DOMAIN, out_buf_str(&tb));
		draw_text(t, y, tx, x + bx->w - 2 - tx, ROLE_BORDER, " ");
		out_buf_fini(&tb);
	}
	for (uint32_t i = 0; i < l->ncells; i++) {
		const struct cl_cell *cell = &l->cells[i];
		int h = l->compact ? 1 : 2 + cell->pod_rows;
		if (cell->y >= bottom || cell->y + h <= top)
			continue;
		if (l->compact)
			draw_cell_compact(t, cell, vy + cell->y - top, r->x + cell->x);
		else
			draw_cell_full(t, cell, vy + cell->y - top, r->x + cell->x);
	}
	t->clip = save;
	if (l->h > vh) {
		char buf[64];
		snprintf(buf, sizeof(buf), " lines %d-%d of %d ", top + 1,
			 bottom < l->h ? bottom : l->h, l->h);
		int bw = (int)strlen(buf);
		draw_text(t, r->y + r->h - 1, r->x + r->w - bw, bw, ROLE_DIM, buf);
		draw_legend(t, r->y + r->h - 1, r->x, r->w - bw - 1);
	} else {
		draw_legend(t, r->y + r->h - 1, r->x, r->w);
	}
}

/* Lays the cluster out for width w; wants its canvas and two lines (the
 * title and the legend). */
static int height(struct tui *t, int w, int *least)
{
	if (!clayout_build(t->sim, w))
		tui_flash(t, true, "out of memory");
	*least = 5; /* the title, three lines of the canvas and the legend */
	return t->sim->lay.h + 2;
}

const struct panel_ops panel_cluster = {.name = "cluster", .draw = draw, .slot = SLOT_MAIN,
					.height = height};

const char *tui_plugin_code(enum plugin_id p)
{
	/* the plugin table's code (model/framework.c) */
	return plugin_code(p);
}
