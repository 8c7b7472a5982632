/* screen.c - where each panel goes (the one place that knows the screen's
 * layout, recomputed on resize and on step changes), the drawing of all
 * panels in order, and the text dump of the screen for tests. */
#include "tui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MIN_ROWS 16
#define MIN_COLS 60
#define WIDE_COLS 150
#define SPLIT_COLS 110

/* The panels of the scenario view, in drawing order, with their pane. */
static const struct {
	const struct panel_ops *ops;
	int pane;
} panels[] = {
	{&panel_header, PANE_HEADER},   {&panel_story, PANE_STORY}, {&panel_cluster, PANE_CLUSTER},
	{&panel_cons, PANE_CONS},       {&panel_node, PANE_NODE},   {&panel_status, PANE_STATUS},
};

int screen_min_rows(void)
{
	return MIN_ROWS;
}

int screen_min_cols(void)
{
	return MIN_COLS;
}

void draw_title(struct tui *t, const struct rect *r, const char *title, const char *right, bool scrolls)
{
	draw_hline(t, r->y, r->x, r->w, ROLE_BORDER);
	int x = r->x + 1;
	x += draw_text(t, r->y, x, r->w - 2, ROLE_BORDER, " ");
	x += draw_text(t, r->y, x, r->x + r->w - x, ROLE_HEADING, title);
	draw_text(t, r->y, x, r->x + r->w - x, ROLE_BORDER, " ");
	/* the scroll hint wins when both do not fit */
	char both[128];
	const char *cand[2] = {right, NULL};
	if (scrolls) {
		snprintf(both, sizeof(both), "%s%sPgUp/PgDn", right ? right : "", right && *right ? "  " : "");
		cand[0] = both;
		cand[1] = "PgUp/PgDn";
	}
	for (int i = 0; i < 2 && cand[i] && *cand[i]; i++) {
		int w = text_width(cand[i], t->utf8);
		int rx = r->x + r->w - w - 2;
		if (rx > x + 2) {
			draw_text(t, r->y, rx - 1, 1, ROLE_BORDER, " ");
			draw_text(t, r->y, rx, w, ROLE_DIM, cand[i]);
			draw_text(t, r->y, rx + w, 1, ROLE_BORDER, " ");
			break;
		}
	}
}

/* Keeps the cursor's node inside the cluster pane. */
static void follow(struct tui *t)
{
	struct sim *s = t->sim;
	const struct cl_layout *l = &s->lay;
	int vh = t->panes[PANE_CLUSTER].h - 2;
	if (vh < 1)
		return;
	if (s->cursor >= 0 && (uint32_t)s->cursor < l->cell_of_n && l->cell_of[s->cursor] >= 0) {
		const struct cl_cell *c = &l->cells[l->cell_of[s->cursor]];
		int h = l->compact ? 1 : 2 + c->pod_rows;
		if (h > vh)
			h = vh;
		if (c->y < s->scroll)
			s->scroll = c->y;
		if (c->y + h > s->scroll + vh)
			s->scroll = c->y + h - vh;
		/* show the box title above the first row of cells too */
		if (s->scroll > 0 && c->y - s->scroll < 2 && c->y <= 2)
			s->scroll = 0;
	}
	if (s->scroll > l->h - vh)
		s->scroll = l->h - vh;
	if (s->scroll < 0)
		s->scroll = 0;
}

void screen_layout(struct tui *t)
{
	getmaxyx(stdscr, t->rows, t->cols);
	memset(t->panes, 0, sizeof(t->panes));
	t->too_small = t->rows < MIN_ROWS || t->cols < MIN_COLS;
	if (t->too_small || !t->sim)
		return;
	struct sim *s = t->sim;
	int rows = t->rows, cols = t->cols;
	t->panes[PANE_HEADER] = (struct rect){0, 0, 2, cols};
	t->panes[PANE_STATUS] = (struct rect){rows - 1, 0, 1, cols};
	int max_note = rows >= 48 ? 8 : rows >= 32 ? 5 : rows >= 24 ? 4 : 2;
	int sh = story_height(t, cols, max_note);
	t->panes[PANE_STORY] = (struct rect){2, 0, sh, cols};
	int top = 2 + sh, avail = rows - 1 - top;
	if (cols >= WIDE_COLS) {
		int rw = cols >= 190 ? 84 : 72, cw = cols - rw - 1;
		int ch = avail * 55 / 100;
		t->panes[PANE_CLUSTER] = (struct rect){top, 0, avail, cw};
		t->panes[PANE_CONS] = (struct rect){top, cw + 1, ch, rw};
		t->panes[PANE_NODE] = (struct rect){top + ch, cw + 1, avail - ch, rw};
		if (!clayout_build(s, cw))
			tui_flash(t, true, "out of memory");
	} else {
		if (!clayout_build(s, cols))
			tui_flash(t, true, "out of memory");
		int ch = s->lay.h + 2, most = avail * 55 / 100;
		if (ch > most)
			ch = most;
		if (ch < 5)
			ch = 5;
		int rest = avail - ch;
		t->panes[PANE_CLUSTER] = (struct rect){top, 0, ch, cols};
		if (cols >= SPLIT_COLS) {
			int lw = cols / 2;
			t->panes[PANE_CONS] = (struct rect){top + ch, 0, rest, lw};
			t->panes[PANE_NODE] = (struct rect){top + ch, lw + 1, rest, cols - lw - 1};
		} else {
			t->panes[s->details ? PANE_NODE : PANE_CONS] = (struct rect){top + ch, 0, rest, cols};
		}
	}
}

void screen_draw(struct tui *t)
{
	erase();
	t->clip = (struct rect){0, 0, t->rows, t->cols};
	if (t->too_small) {
		char buf[160];
		snprintf(buf, sizeof(buf), "terminal too small: %dx%d, skewer needs at least %dx%d",
			 t->cols, t->rows, MIN_COLS, MIN_ROWS);
		draw_wrapped(t, t->rows / 2 > 0 ? t->rows / 2 - 1 : 0, 1, t->cols - 2, 3, ROLE_ERROR, buf);
		draw_wrapped(t, t->rows / 2 + 1, 1, t->cols - 2, 2, ROLE_DIM, "enlarge it, or press q to quit");
	} else if (t->help) {
		panel_help.draw(t, &(struct rect){0, 0, t->rows, t->cols});
	} else if (!t->sim) {
		panel_picker.draw(t, &(struct rect){0, 0, t->rows - 1, t->cols});
		t->clip = (struct rect){t->rows - 1, 0, 1, t->cols};
		panel_status.draw(t, &t->clip);
	} else {
		follow(t);
		/* the narrow layout names the hidden detail panel */
		for (size_t i = 0; i < sizeof(panels) / sizeof(*panels); i++) {
			struct rect r = t->panes[panels[i].pane];
			if (r.h <= 0 || r.w <= 0)
				continue;
			t->clip = r;
			panels[i].ops->draw(t, &r);
		}
		if (t->cols < SPLIT_COLS && t->cols < WIDE_COLS) {
			struct rect r = t->panes[t->sim->details ? PANE_NODE : PANE_CONS];
			t->clip = r;
			const char *hint = t->sim->details ? " Tab: constraints " : " Tab: node ";
			int w = text_width(hint, t->utf8);
			draw_text(t, r.y, r.x + r.w - w - 1, w, ROLE_KEY, hint);
		}
	}
	if (!t->headless)
		refresh();
}

int screen_dump(struct tui *t, const char *path)
{
	errno = 0;
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return 0;
	for (int y = 0; y < t->rows; y++) {
		char line[8192];
		size_t len = 0, keep = 0;
		for (int x = 0; x < t->cols && len + 16 < sizeof(line); x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1] = {0};
			attr_t a;
			short pair;
			if (mvin_wch(y, x, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR ||
			    !wc[0])
				wc[0] = L' ';
			mbstate_t st;
			memset(&st, 0, sizeof(st));
			for (int i = 0; wc[i] && i < CCHARW_MAX; i++) {
				size_t n = wcrtomb(line + len, wc[i], &st);
				if (n == (size_t)-1)
					line[len++] = '?';
				else
					len += n;
			}
			if (wc[0] != L' ')
				keep = len;
			int w = wcwidth(wc[0]);
			if (w > 1)
				x += w - 1;
		}
		fwrite(line, 1, keep, f);
		fputc('\n', f);
	}
	int ok = fflush(f) == 0 && !ferror(f);
	if (f != stdout)
		ok = fclose(f) == 0 && ok;
	return ok;
}
