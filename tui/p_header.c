/* p_header.c - the title bar (scenario, step i of N, edits) and the
 * timeline strip: one glyph per step's outcome, the current one in
 * brackets, the user's own steps marked. */
#include "tui.h"

#include <stdio.h>
#include <string.h>

static const char *step_glyph(const struct tui *t, const struct step_result *r)
{
	if (!r->done)
		return t->g->st_unknown;
	switch (r->outcome) {
	case OUT_SCHEDULED: return t->g->st_sched;
	case OUT_PENDING: return t->g->st_pending;
	case OUT_APPLIED: return t->g->st_applied;
	default: return t->g->st_error;
	}
}

static enum role step_role(const struct step *s, const struct step_result *r)
{
	if (!s->line && !s->col)
		return ROLE_EDITED; /* made in this session */
	if (!r->done)
		return ROLE_DIM;
	switch (r->outcome) {
	case OUT_SCHEDULED: return ROLE_FEASIBLE;
	case OUT_PENDING: return ROLE_FILTERED;
	case OUT_APPLIED: return ROLE_NORMAL;
	default: return ROLE_ERROR;
	}
}

static void draw_strip(struct tui *t, const struct rect *r)
{
	const struct sim *s = t->sim;
	uint32_t n = timeline_len(s->tl), items = n + 1;
	int y = r->y + 1;
	int x = r->x + draw_text(t, y, r->x, r->w, ROLE_HEADING, "Timeline ");
	int visible = (r->x + r->w - x - 2) / 3;
	if (visible < 1)
		return;
	uint32_t first = 0;
	if (items > (uint32_t)visible) {
		first = s->view > (uint32_t)visible / 2 ? s->view - (uint32_t)visible / 2 : 0;
		if (first + (uint32_t)visible > items)
			first = items - (uint32_t)visible;
	}
	x += draw_raw(t, y, x, ROLE_DIM, first > 0 ? t->g->more : " ");
	for (uint32_t i = first; i < items && i < first + (uint32_t)visible; i++) {
		bool cur = i == s->view;
		const char *g = "0";
		enum role role = ROLE_DIM;
		if (i > 0) {
			g = step_glyph(t, &s->tl->res[i - 1]);
			role = step_role(&s->sc->steps[i - 1], &s->tl->res[i - 1]);
		}
		draw_raw(t, y, x, cur ? ROLE_CURSOR : ROLE_NORMAL, cur ? "[" : " ");
		draw_raw(t, y, x + 1, cur ? ROLE_CURSOR : role, g);
		draw_raw(t, y, x + 2, cur ? ROLE_CURSOR : ROLE_NORMAL, cur ? "]" : " ");
		x += 3;
	}
	if (first + (uint32_t)visible < items)
		draw_raw(t, y, x, ROLE_DIM, t->g->more);
}

static void draw(struct tui *t, const struct rect *r)
{
	const struct sim *s = t->sim;
	char buf[256];
	draw_fill(t, r->y, r->x, r->w, ROLE_TITLE);
	int x = r->x + draw_text(t, r->y, r->x, r->w, ROLE_TITLE, " skewer ");
	x += draw_text(t, r->y, x, r->x + r->w - x, ROLE_TITLE, t->g->v);
	x += draw_text(t, r->y, x, r->x + r->w - x, ROLE_TITLE, " ");
	x += draw_text(t, r->y, x, r->x + r->w - x - 30, ROLE_TITLE, s->sc->name ? s->sc->name : "");
	snprintf(buf, sizeof(buf), "  step %u of %u", s->view, timeline_len(s->tl));
	x += draw_text(t, r->y, x, r->x + r->w - x, ROLE_TITLE, buf);
	if (s->nedits) {
		snprintf(buf, sizeof(buf), "  %u edit%s (u undoes)", s->nedits, s->nedits == 1 ? "" : "s");
		x += draw_text(t, r->y, x, r->x + r->w - x, ROLE_TITLE, buf);
	}
	const char *right = "? help  q quit ";
	int rw = (int)strlen(right);
	if (r->x + r->w - rw > x + 1)
		draw_text(t, r->y, r->x + r->w - rw, rw, ROLE_TITLE, right);
	if (r->h > 1)
		draw_strip(t, r);
}

const struct panel_ops panel_header = {.name = "header", .draw = draw, .slot = SLOT_TOP, .lines = 2};
