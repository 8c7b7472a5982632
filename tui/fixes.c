/* fixes.c - the fixes of the pending step on screen (skewer fix, model/
 * fix.c) as a list over the view: F opens it with every fix and where
 * the pod then goes (! marks a fix that leaves an earlier pod's hard
 * constraint violated), Up/Down (k/j) choose, Enter applies the chosen
 * one as a what-if on the timeline (u undoes it as any what-if), Esc
 * closes. While it is open it takes every key. */
#include "tui.h"
#include "../model/present.h"
#include "../model/fix.h"

#include <stdlib.h>
#include <string.h>

/* The open list: the report of the step it was made for (valid while
 * the list takes every key: nothing moves the timeline meanwhile). */
struct fix_list {
	struct fix_report r;
	uint32_t view;           /* the step on screen (1-based) */
	uint32_t sel, top;
};

static void list_close(struct tui *t)
{
	if (!t->fixes)
		return;
	fix_report_fini(&t->fixes->r);
	free(t->fixes);
	t->fixes = NULL;
}

void fixes_free(struct tui *t)
{
	list_close(t);
}

/* One line of the list: the change and its result, short: "the KEY
 * constraint" becomes the key's last part ("maxSkew 1 -> 2 on zone:
 * scheduled on node-c"); the violation is the ! mark and the footer. */
static void fix_text(struct out_buf *b, const struct sim *s, const struct fix_report *r, const struct fix *f)
{
	struct out_buf sum = { 0 };
	present_fix_summary(&sum, s->tl, r, f);
	const char *t = out_buf_str(&sum);
	const char *on = strstr(t, "the "), *end = on ? strstr(on, " constraint") : NULL;
	if (f->kind <= FIX_REMOVE_CONSTRAINT && on && end) {
		const char *key = on + 4, *slash = key;
		for (const char *q = key; q < end; q++)
			if (*q == '/')
				slash = q + 1;
		/* "remove the zone constraint" keeps its words */
		bool rm = f->kind == FIX_REMOVE_CONSTRAINT;
		out_buf_printf(b, "%.*s%s%.*s%s", (int)(on - t), t, rm ? "the " : "", (int)(end - slash), slash,
			       rm ? end : end + strlen(" constraint"));
	} else {
		out_buf_puts(b, t);
	}
	out_buf_fini(&sum);
	if (!f->nominated)
		out_buf_printf(b, ": scheduled on %s", intern_get(s->tl->c->in, f->node));
}

int act_fix(struct tui *t)
{
	struct sim *s = t->sim;
	uint32_t view = s->view;
	if (!view || view > timeline_len(s->tl)) {
		tui_flash(t, true, "no step on screen: F lists the fixes of a pending step");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	uint32_t i = view - 1;
	const struct step *st = &s->sc->steps[i];
	if ((st->kind != STEP_SCHEDULE && st->kind != STEP_RETRY) || s->tl->res[i].outcome != OUT_PENDING) {
		tui_flash(t, true, "step %u's pod is not pending: F lists the fixes of a pending step", view);
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	struct fix_list *l = calloc(1, sizeof(*l));
	if (!l) {
		tui_flash(t, true, "out of memory");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	int rc = fix_find(s->tl, i, 3, &l->r);
	/* the timeline was moved: the screen's step again */
	if (rc != FIX_OK || !sim_goto(s, view)) {
		fix_report_fini(&l->r);
		free(l);
		tui_flash(t, true, "out of memory");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	if (!l->r.n) {
		fix_report_fini(&l->r);
		free(l);
		tui_flash(t, false, "no change of the kinds skewer fix tries schedules this pod");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	l->view = view;
	list_close(t);
	t->fixes = l;
	return TUI_R_DRAW;
}

/* Enter: the chosen fix as a what-if, the list closed. */
static int apply(struct tui *t)
{
	struct sim *s = t->sim;
	struct fix_list *l = t->fixes;
	const struct fix *f = &l->r.v[l->sel];
	uint32_t i = l->view - 1;
	struct out_buf b = { 0 };
	fix_text(&b, s, &l->r, f);
	if (f->sched) {
		tui_flash(t, true, "%s: a change of the scheduler's settings, not a step: skewer fix --json "
			  "gives its schedulerPatch", out_buf_str(&b));
		out_buf_fini(&b);
		list_close(t);
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	struct step ch;
	int ok = fix_step(s->tl, &l->r, f, &ch);
	if (ok)
		ok = f->has_edit ? sim_insert(s, i, &ch, l->view + 1)
				 : sim_replace(s, l->r.entry >= 0 ? (uint32_t)l->r.entry : i, &ch, l->view);
	if (!ok) {
		step_fini(&ch);
		tui_flash(t, true, "out of memory");
	} else {
		tui_flash(t, false, "fix %u/%u applied: %s (u: undo)", l->sel + 1, l->r.n, out_buf_str(&b));
	}
	out_buf_fini(&b);
	list_close(t);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int fixes_key(struct tui *t, int key)
{
	struct fix_list *l = t->fixes;
	switch (key) {
	case 27:
	case 'q':
	case 'F':
		list_close(t);
		return TUI_R_DRAW;
	case 'j':
	case KEY_DOWN:
		if (l->sel + 1 < l->r.n)
			l->sel++;
		return TUI_R_DRAW;
	case 'k':
	case KEY_UP:
		if (l->sel > 0)
			l->sel--;
		return TUI_R_DRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		return apply(t);
	case KEY_RESIZE:
		return TUI_R_LAYOUT | TUI_R_DRAW;
	default:
		return TUI_R_DRAW;
	}
}

/* The list as a box over the view, below the header. */
void fixes_draw(struct tui *t)
{
	struct fix_list *l = t->fixes;
	struct sim *s = t->sim;
	/* rows 2 .. rows - 2 (the status line stays): the borders, the
	 * fixes, a footer and the chosen fix's violation */
	int w = t->cols - 2, y = 2, x = 1;
	int avail = t->rows - 3 - 4;
	int shown = (int)l->r.n < avail ? (int)l->r.n : avail;
	if (shown < 1)
		shown = 1;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + (uint32_t)shown)
		l->top = l->sel - (uint32_t)shown + 1;
	int h = shown + 4;
	t->clip = (struct rect){ y, x, h, w };
	for (int r = 0; r < h; r++)
		draw_fill(t, y + r, x, w, ROLE_NORMAL);
	draw_box(t, y, x, h, w, ROLE_BORDER);
	struct out_buf b = { 0 };
	present_step_pod(&b, s->tl, l->view - 1);
	char title[256];
	snprintf(title, sizeof(title), " Fixes for step %u: %s is pending ", l->view, out_buf_str(&b));
	draw_text(t, y, x + 2, w - 4, ROLE_HEADING, title);
	for (int k = 0; k < shown && l->top + (uint32_t)k < l->r.n; k++) {
		uint32_t j = l->top + (uint32_t)k;
		const struct fix *f = &l->r.v[j];
		bool cur = j == l->sel;
		int cy = y + 1 + k;
		if (cur)
			draw_fill(t, cy, x + 1, w - 2, ROLE_CURSOR);
		draw_text(t, cy, x + 2, 1, cur ? ROLE_CURSOR : ROLE_ERROR, f->violation ? "!" : " ");
		out_buf_reset(&b);
		fix_text(&b, s, &l->r, f);
		draw_text(t, cy, x + 4, w - 6, cur ? ROLE_CURSOR : ROLE_NORMAL, out_buf_str(&b));
	}
	char foot[160];
	snprintf(foot, sizeof(foot), "%u/%u  Up/Down choose  Enter applies as a what-if (u undoes)  Esc closes",
		 l->sel + 1, l->r.n);
	draw_text(t, y + shown + 1, x + 2, w - 4, ROLE_LABEL, foot);
	if (l->r.n && l->r.v[l->sel].violation) {
		out_buf_reset(&b);
		out_buf_printf(&b, "! violates %s", l->r.v[l->sel].violation);
		draw_text(t, y + shown + 2, x + 2, w - 4, ROLE_ERROR, out_buf_str(&b));
	}
	out_buf_fini(&b);
}
