/* p_help.c - the help screen: every key of the key table by group, then
 * what the glyphs and filter codes mean. It scrolls; Esc, q or ? close. */
#include "tui.h"

#include <stdio.h>
#include <string.h>

struct help_ctx {
	struct pen *p;
};

static void line(void *ctx, const char *k, const char *v, bool heading)
{
	struct pen *p = ((struct help_ctx *)ctx)->p;
	if (heading) {
		if (p->line > 1)
			pen_nl(p);
		p->x = 1;
		pen_put(p, ROLE_HEADING, k);
		pen_nl(p);
		return;
	}
	p->x = 3;
	pen_put(p, ROLE_KEY, k);
	pen_pad(p, 22);
	if (p->x > 22)
		pen_put(p, ROLE_NORMAL, " ");
	pen_wrap(p, ROLE_NORMAL, v);
	pen_nl(p);
}

static void glyph(struct pen *p, const char *g, enum role r, const char *text)
{
	p->x = 3;
	pen_raw(p, r, g);
	pen_pad(p, 8);
	pen_wrap(p, ROLE_NORMAL, text);
	pen_nl(p);
}

/* Writes the help into body from line `scroll`; returns the lines it has
 * (a body of height 0 draws nothing and only counts). */
static int content(struct tui *t, struct rect body, int scroll)
{
	const struct glyphs *g = t->g;
	struct pen p = {t, body, 0, scroll, 0, 0};
	struct help_ctx ctx = {&p};
	keys_help_lines(t, line, &ctx);
	pen_nl(&p);
	p.x = 1;
	pen_put(&p, ROLE_HEADING, "What the cluster view shows");
	pen_nl(&p);
	glyph(&p, g->pod_counted, ROLE_MATCHING_POD,
	      "a pod the selected constraint counts (it matches the selector, on a node the constraint counts)");
	glyph(&p, g->pod_other, ROLE_OTHER_POD,
	      "a pod it does not count (no match, or its node is excluded: policies, a missing key)");
	glyph(&p, g->pod_ns, ROLE_OTHER_NS, "a pod of another namespace (never counted)");
	glyph(&p, g->pod_term, ROLE_TERMINATING,
	      "a terminating pod (never counted), or one evicted by preemption");
	glyph(&p, g->pod_ghost, ROLE_GHOST, "the pod this step scheduled, on the chosen node");
	glyph(&p, g->ok, ROLE_FEASIBLE, "a feasible node, with its total score");
	glyph(&p, g->chosen, ROLE_CHOSEN, "the chosen node");
	glyph(&p, g->bad, ROLE_FILTERED, "a filtered node (dimmed), with the filter that rejected it:");
	/* each filter's code and name, in plugin order, three a line */
	int nf = 0, shown = 0;
	for (int f = 0; f < PL__COUNT; f++)
		nf += plugin_filters((enum plugin_id)f);
	for (int f = 0; f < PL__COUNT; f++) {
		if (!plugin_filters((enum plugin_id)f))
			continue;
		char item[96];
		bool first = shown % 3 == 0;
		shown++;
		snprintf(item, sizeof(item), "%s%s %s%s", first ? "" : " ", tui_plugin_code((enum plugin_id)f),
			 plugin_name((enum plugin_id)f), shown < nf ? "," : "");
		if (first)
			p.x = 8;
		pen_put(&p, ROLE_LABEL, item);
		if (shown % 3 == 0 || shown == nf)
			pen_nl(&p);
	}
	glyph(&p, g->bad_multi, ROLE_FILTERED, "a node failing 2+ filters: the first one, +N more");
	glyph(&p, g->nominated, ROLE_CHOSEN,
	      "the node preemption nominated for the pod (it shows the evicted pods)");
	glyph(&p, g->cordon, ROLE_MARK, "a cordoned node (spec.unschedulable)");
	glyph(&p, g->taint, ROLE_MARK, "a tainted node (a taint other than the cordon's)");
	p.x = 2;
	pen_put(&p, ROLE_KEY, "fits? here? no?");
	pen_put(&p, ROLE_LABEL, "  predict mode: the guess marked with x on a node; after r the");
	pen_nl(&p);
	p.x = 8;
	pen_put(&p, ROLE_LABEL, "node's name line says right or wrong");
	pen_nl(&p);
	pen_nl(&p);
	p.x = 1;
	pen_put(&p, ROLE_HEADING, "The timeline strip");
	pen_nl(&p);
	glyph(&p, g->st_sched, ROLE_FEASIBLE, "scheduled");
	glyph(&p, g->st_pending, ROLE_FILTERED, "pending (no node fits)");
	glyph(&p, g->st_error, ROLE_ERROR, "invalid pod or step error");
	glyph(&p, g->st_applied, ROLE_NORMAL, "a change to the cluster (cordon, delete, ...)");
	glyph(&p, g->st_unknown, ROLE_DIM, "not run yet");
	glyph(&p, "[ ]", ROLE_CURSOR, "the step on screen; your own steps are underlined");
	return p.line;
}

static void draw(struct tui *t, const struct rect *r)
{
	draw_fill(t, r->y, r->x, r->w, ROLE_TITLE);
	draw_text(t, r->y, r->x, r->w, ROLE_TITLE,
		  " skewer keys   (Up/Down/PgUp/PgDn scroll; Esc, q or ? closes)");
	content(t, (struct rect){r->y + 1, r->x, r->h - 2, r->w}, t->help_scroll);
}

int help_key(struct tui *t, int key)
{
	switch (key) {
	case 27:
	case 'q':
	case '?':
	case KEY_F(1):
		t->help = false;
		break;
	case 'j':
	case KEY_DOWN:
		t->help_scroll++;
		break;
	case 'k':
	case KEY_UP:
		if (t->help_scroll > 0)
			t->help_scroll--;
		break;
	case ' ':
	case KEY_NPAGE:
		t->help_scroll += t->rows > 4 ? t->rows - 4 : 1;
		break;
	case KEY_PPAGE:
		t->help_scroll -= t->rows > 4 ? t->rows - 4 : 1;
		if (t->help_scroll < 0)
			t->help_scroll = 0;
		break;
	case 'g':
	case KEY_HOME:
		t->help_scroll = 0;
		break;
	default:
		break;
	}
	int body = t->rows - 2;
	int total = content(t, (struct rect){0, 0, 0, t->cols}, 0);
	if (t->help_scroll > total - body)
		t->help_scroll = total - body > 0 ? total - body : 0;
	return TUI_R_DRAW;
}

const struct panel_ops panel_help = {.name = "help", .draw = draw, .key = help_key};
