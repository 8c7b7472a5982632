/* screen.c - the three layouts (wide, split, narrow, by width) that place
 * the panels of panels.h from their ops (slot, size hint, share),
 * recomputed on resize and on step changes; their scrolling; the drawing
 * of all panels in order; and the text dump of the screen for tests. */
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

/* The panels of the scenario view, in drawing order (panels.h). */
static const struct panel_ops *const panels[PANE__COUNT] = {
#define PANEL(P, n) [PANE_##P] = &panel_##n,
#include "panels.h"
#undef PANEL
};

const struct panel_ops *screen_owner(const struct tui *t)
{
	return t->help ? &panel_help : !t->sim ? &panel_picker : NULL;
}

int screen_min_rows(void)
{
	return MIN_ROWS;
}

int screen_min_cols(void)
{
	return MIN_COLS;
}

/* The panes of the SLOT_DETAIL panels in table order; returns how many. */
static int details(int *det)
{
	int n = 0;
	for (int i = 0; i < PANE__COUNT; i++)
		if (panels[i]->slot == SLOT_DETAIL)
			det[n++] = i;
	return n;
}

static bool narrow(const struct tui *t)
{
	return t->cols < SPLIT_COLS && t->cols < WIDE_COLS;
}

/* The narrow layout's " Tab: NAME " hint naming the next detail panel,
 * when r is the detail pane shown; else "". */
static const char *tab_hint(const struct tui *t, const struct rect *r, char *buf, size_t len)
{
	int det[PANE__COUNT], ndet = details(det);
	buf[0] = '\0';
	if (!t->sim || !narrow(t) || ndet < 2)
		return buf;
	int cur = t->sim->details % ndet;
	const struct rect *p = &t->panes[det[cur]];
	if (p->y == r->y && p->x == r->x && p->w == r->w && p->h == r->h)
		snprintf(buf, len, " Tab: %s ", panels[det[(cur + 1) % ndet]]->name);
	return buf;
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
	/* the narrow layout's Tab hint at the right end, the others before it */
	char tab[64];
	int tw = text_width(tab_hint(t, r, tab, sizeof(tab)), t->utf8);
	if (tw)
		draw_text(t, r->y, r->x + r->w - tw - 1, tw, ROLE_KEY, tab);
	for (int i = 0; i < 2 && cand[i] && *cand[i]; i++) {
		int w = text_width(cand[i], t->utf8);
		int rx = r->x + r->w - tw - w - 2;
		if (rx > x + 2) {
			draw_text(t, r->y, rx - 1, 1, ROLE_BORDER, " ");
			draw_text(t, r->y, rx, w, ROLE_LABEL, cand[i]);
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

static int want(struct tui *t, const struct panel_ops *o, int w, int *least)
{
	int l;
	int h = o->height ? o->height(t, w, &l) : (l = o->lines);
	if (least)
		*least = l < h ? l : h;
	return h;
}

void screen_layout(struct tui *t)
{
	getmaxyx(stdscr, t->rows, t->cols);
	memset(t->panes, 0, sizeof(t->panes));
	t->too_small = t->rows < MIN_ROWS || t->cols < MIN_COLS;
	if (t->too_small || !t->sim)
		return;
	struct sim *s = t->sim;
	int rows = t->rows, cols = t->cols, top = 0, bottom = rows, main = -1;
	int least[PANE__COUNT] = {0};
	for (int i = 0; i < PANE__COUNT; i++) {
		const struct panel_ops *o = panels[i];
		if (o->slot == SLOT_TOP) {
			int h = want(t, o, cols, &least[i]);
			t->panes[i] = (struct rect){top, 0, h, cols};
			top += h;
		} else if (o->slot == SLOT_MAIN) {
			main = i;
		}
	}
	for (int i = PANE__COUNT - 1; i >= 0; i--) {
		if (panels[i]->slot == SLOT_BOTTOM) {
			int h = want(t, panels[i], cols, NULL);
			bottom -= h;
			t->panes[i] = (struct rect){bottom, 0, h, cols};
		}
	}
	int det[PANE__COUNT], ndet = details(det), avail = bottom - top;
	if (cols >= WIDE_COLS) {
		int rw = cols >= 190 ? 84 : 72, cw = ndet ? cols - rw - 1 : cols;
		if (main >= 0) {
			t->panes[main] = (struct rect){top, 0, avail, cw};
			want(t, panels[main], cw, NULL);
		}
		for (int k = 0, y = top; k < ndet; k++) {
			int h = k == ndet - 1 ? top + avail - y : avail * panels[det[k]]->share / 100;
			t->panes[det[k]] = (struct rect){y, cw + 1, h, rw};
			y += h;
		}
		return;
	}
	bool split = cols >= SPLIT_COLS;
	if (ndet)
		s->details %= ndet;
	/* what the details shown want, at their width */
	int dw = 0;
	for (int k = 0; k < ndet; k++) {
		if (!split && k != s->details)
			continue;
		int w = split ? (k + 1) * cols / ndet - k * cols / ndet - (k > 0) : cols;
		int h = want(t, panels[det[k]], w, NULL);
		if (h > dw)
			dw = h;
	}
	int ch = 0, cl = 0;
	if (main >= 0) {
		int most = avail * 55 / 100;
		ch = want(t, panels[main], cols, &cl);
		if (ch > most)
			ch = most;
		if (ch < 5)
			ch = 5;
		if (cl < 5)
			cl = 5;
		/* the details' evidence first: the main panel scrolls */
		if (avail - ch < dw)
			ch = avail - dw > cl ? avail - dw : cl < ch ? cl : ch;
	}
	/* then, in the narrow layout (a projector's size), the top panels
	 * give up lines, the last first */
	int need = split ? 0 : dw - (avail - ch);
	for (int i = PANE__COUNT - 1; i >= 0 && need > 0; i--) {
		if (panels[i]->slot != SLOT_TOP)
			continue;
		int give = t->panes[i].h - least[i];
		if (give > need)
			give = need;
		if (give <= 0)
			continue;
		t->panes[i].h -= give;
		for (int j = i + 1; j < PANE__COUNT; j++)
			if (panels[j]->slot == SLOT_TOP)
				t->panes[j].y -= give;
		top -= give;
		avail += give;
		need -= give;
	}
	if (main >= 0)
		t->panes[main] = (struct rect){top, 0, ch, cols};
	int rest = avail - ch;
	if (!ndet)
		return;
	if (split) {
		for (int k = 0; k < ndet; k++) {
			int x0 = k * cols / ndet + (k > 0), x1 = (k + 1) * cols / ndet;
			t->panes[det[k]] = (struct rect){top + ch, x0, rest, x1 - x0};
		}
	} else {
		t->panes[det[s->details]] = (struct rect){top + ch, 0, rest, cols};
	}
}

void screen_scroll(struct sim *s, int delta)
{
	for (int i = 0; i < PANE__COUNT; i++) {
		if (!panels[i]->scrolls)
			continue;
		int v = s->pane_scroll[i] + delta;
		s->pane_scroll[i] = v < 0 ? 0 : v > 100000 ? s->pane_scroll[i] : v;
	}
}

void screen_scroll_reset(struct sim *s, bool cursor_only)
{
	for (int i = 0; i < PANE__COUNT; i++)
		if (!cursor_only || panels[i]->cursor_resets)
			s->pane_scroll[i] = 0;
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
		for (int i = 0; i < PANE__COUNT; i++) {
			struct rect r = t->panes[i];
			if (r.h <= 0 || r.w <= 0)
				continue;
			t->clip = r;
			panels[i]->draw(t, &r);
		}
		if (t->fixes)
			fixes_draw(t);
	}
	if (!t->headless)
		refresh();
}

static char attr_letter(attr_t a, short pair)
{
	return a & A_DIM ? 'd' : a & A_REVERSE ? 'r' : a & A_BOLD ? 'b' : a & A_UNDERLINE ? 'u'
	       : pair ? 'c' : '.';
}

int screen_dump(struct tui *t, const char *path, bool attrs)
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
			    !wc[0]) {
				wc[0] = L' ';
				a = A_NORMAL;
				pair = 0;
			}
			if (attrs) {
				char l = attr_letter(a, pair);
				int w = wcwidth(wc[0]);
				for (int k = 0; k < (w > 1 ? w : 1); k++)
					line[len++] = l;
				if (l != '.')
					keep = len;
				x += w > 1 ? w - 1 : 0;
				continue;
			}
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
