/* actions.c - the key handlers that move through time and around the
 * view. Each returns what changed; none draws. */
#include "tui.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int go(struct tui *t, uint32_t view)
{
	struct sim *s = t->sim;
	if (!sim_goto(s, view)) {
		tui_flash(t, true, "out of memory");
		return TUI_R_DRAW;
	}
	screen_scroll_reset(s, false);
	s->cons_follow = true;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_next(struct tui *t)
{
	struct sim *s = t->sim;
	if (s->view >= timeline_len(s->tl)) {
		tui_flash(t, false, "this is the last step (p goes back, g to the start)");
		return TUI_R_DRAW;
	}
	return go(t, s->view + 1);
}

int act_prev(struct tui *t)
{
	struct sim *s = t->sim;
	if (s->view == 0) {
		tui_flash(t, false, "this is the start: no step has run yet");
		return TUI_R_DRAW;
	}
	return go(t, s->view - 1);
}

int act_first(struct tui *t)
{
	return go(t, 0);
}

int act_last(struct tui *t)
{
	return go(t, timeline_len(t->sim->tl));
}

int act_goto(struct tui *t)
{
	char label[64];
	snprintf(label, sizeof(label), "go to step (0-%u): ", timeline_len(t->sim->tl));
	prompt_open(t, PROMPT_GOTO, label, "");
	return TUI_R_DRAW;
}

int act_goto_done(struct tui *t, const char *text)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	uint32_t n = timeline_len(t->sim->tl);
	if (!*text || *end || errno || v > n || *text == '-' || *text == '+') {
		tui_flash(t, true, "no step '%s': steps go from 0 to %u", text, n);
		return TUI_R_DRAW;
	}
	return go(t, (uint32_t)v);
}

static int move_cursor(struct tui *t, int dx, int dy)
{
	int32_t before = t->sim->cursor;
	clayout_move(t->sim, dx, dy);
	if (t->sim->cursor != before)
		screen_scroll_reset(t->sim, true);
	return TUI_R_DRAW;
}

int act_left(struct tui *t)
{
	return move_cursor(t, -1, 0);
}

int act_right(struct tui *t)
{
	return move_cursor(t, 1, 0);
}

int act_up(struct tui *t)
{
	return move_cursor(t, 0, -1);
}

int act_down(struct tui *t)
{
	return move_cursor(t, 0, 1);
}

int act_mouse(struct tui *t)
{
	MEVENT ev = {0};
	if (t->headless) {
		/* a scripted <Click X,Y> */
		ev.x = t->click_x;
		ev.y = t->click_y;
	} else if (getmouse(&ev) != OK) {
		return TUI_R_NONE;
	}
	const struct rect *r = &t->panes[PANE_CLUSTER];
	int cy = ev.y - (r->y + 1) + t->sim->scroll, cx = ev.x - r->x;
	if (ev.y <= r->y || ev.y >= r->y + r->h - 1 || ev.x < r->x || ev.x >= r->x + r->w)
		return TUI_R_NONE;
	int32_t node = clayout_hit(t->sim, cy, cx);
	if (node >= 0) {
		t->sim->cursor = node;
		screen_scroll_reset(t->sim, true);
	}
	return TUI_R_DRAW;
}

int act_find(struct tui *t)
{
	prompt_open(t, PROMPT_FIND, "find node: ", "");
	return TUI_R_DRAW;
}

/* Exact name first, then a prefix, then any part, starting after the
 * cursor so that repeating a search walks through the matches. */
int act_find_done(struct tui *t, const char *text)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	if (!*text)
		return TUI_R_DRAW;
	uint32_t n = c->nnodes, start = s->cursor >= 0 ? (uint32_t)s->cursor + 1 : 0;
	for (int pass = 0; pass < 3; pass++) {
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = (start + k) % n;
			if (!c->nodes[i].alive)
				continue;
			const char *name = intern_get(c->in, c->nodes[i].name);
			bool hit = pass == 0 ? !strcmp(name, text)
				 : pass == 1 ? !strncmp(name, text, strlen(text))
					     : strstr(name, text) != NULL;
			if (!hit)
				continue;
			s->cursor = (int32_t)i;
			screen_scroll_reset(s, true);
			if (s->lay.cell_of_n > i && s->lay.cell_of[i] < 0) {
				s->zoomed = false; /* outside the zoomed domain */
				return TUI_R_LAYOUT | TUI_R_DRAW;
			}
			return TUI_R_DRAW;
		}
	}
	tui_flash(t, true, "no node matches '%s'", text);
	return TUI_R_DRAW;
}

int act_cons_next(struct tui *t)
{
	struct sim *s = t->sim;
	if (!s->has_dec || s->dec.ncons < 2) {
		tui_flash(t, false, "only one constraint (or none) at this step");
		return TUI_R_DRAW;
	}
	s->cons = (s->cons + 1) % s->dec.ncons;
	s->cons_follow = true;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_cons_prev(struct tui *t)
{
	struct sim *s = t->sim;
	if (!s->has_dec || s->dec.ncons < 2) {
		tui_flash(t, false, "only one constraint (or none) at this step");
		return TUI_R_DRAW;
	}
	s->cons = (s->cons + s->dec.ncons - 1) % s->dec.ncons;
	s->cons_follow = true;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_group(struct tui *t)
{
	struct sim *s = t->sim;
	uint32_t n;
	sym_t *keys = sim_label_keys(s, &n);
	if (!keys && n) {
		tui_flash(t, true, "out of memory");
		return TUI_R_DRAW;
	}
	sym_t next = n ? keys[0] : SYM_NONE;
	if (s->group_key) {
		next = SYM_NONE;
		for (uint32_t i = 0; i + 1 < n; i++)
			if (keys[i] == s->group_key)
				next = keys[i + 1];
	}
	free(keys);
	s->group_key = next;
	s->zoomed = false;
	s->scroll = 0;
	if (next)
		tui_flash(t, false, "grouped by %s (o: next key)",
			  intern_get(s->sc->cluster->in, next));
	else
		tui_flash(t, false, "grouping follows the selected constraint's key");
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_zoom(struct tui *t)
{
	struct sim *s = t->sim;
	if (s->zoomed) {
		s->zoomed = false;
	} else {
		sym_t k = sim_group_key(s);
		if (s->cursor < 0 || !k) {
			tui_flash(t, false, "nothing to zoom into");
			return TUI_R_DRAW;
		}
		s->zoom_value = labels_get(&s->sc->cluster->nodes[s->cursor].labels, k);
		s->zoomed = true;
	}
	s->scroll = 0;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_density(struct tui *t)
{
	static const char *const names[] = {"automatic", "full (pods listed)", "compact"};
	struct sim *s = t->sim;
	s->density = (s->density + 1) % 3;
	tui_flash(t, false, "node cells: %s", names[s->density]);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_details(struct tui *t)
{
	t->sim->details++; /* screen_layout wraps it */
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_fold(struct tui *t)
{
	t->sim->fold_note = !t->sim->fold_note;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_theme(struct tui *t)
{
	t->theme = (enum theme)((t->theme + 1) % THEME__COUNT);
	term_roles(t);
	tui_flash(t, false, "theme %s%s (C: next)", term_theme_name(t->theme),
		  t->color ? "" : ", without colours");
	return TUI_R_DRAW;
}

int act_scroll_down(struct tui *t)
{
	screen_scroll(t->sim, 5);
	return TUI_R_DRAW;
}

int act_scroll_up(struct tui *t)
{
	screen_scroll(t->sim, -5);
	return TUI_R_DRAW;
}

int act_help(struct tui *t)
{
	t->help = true;
	t->help_scroll = 0;
	return TUI_R_DRAW;
}

int act_redraw(struct tui *t)
{
	if (!t->headless)
		clearok(curscr, TRUE);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

/* Leaving with edits not written asks for the same key again. */
static bool confirm_leave(struct tui *t, int (*self)(struct tui *), const char *what)
{
	if (!t->sim || t->sim->nundo == t->sim->saved_undo || t->armed == self)
		return true;
	t->armed = self;
	tui_flash(t, true, "edits not written: w writes them, %s again %s",
		  self == act_quit ? "q" : "b", what);
	return false;
}

int act_quit(struct tui *t)
{
	if (!confirm_leave(t, act_quit, "quits"))
		return TUI_R_DRAW;
	return TUI_R_QUIT;
}

int act_picker(struct tui *t)
{
	char err[256];
	if (!confirm_leave(t, act_picker, "leaves them"))
		return TUI_R_DRAW;
	if (!t->picker && !(t->picker = picker_new(err, sizeof(err)))) {
		tui_flash(t, true, "%s", err);
		return TUI_R_DRAW;
	}
	sim_free(t->sim);
	t->sim = NULL;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}
