/* picker.c - `skewer` without a file: a list of the scenarios that ship
 * with skewer (name, source, description). Installed ones are read from
 * $(PREFIX)/share/skewer/scenarios (the SKEWER_DATADIR environment
 * variable overrides the directory); without them the copies compiled into
 * the binary are used, so it works on its own. */
#include "tui.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bundled.h"

#ifndef SKEWER_DATADIR
#define SKEWER_DATADIR "/usr/local/share/skewer"
#endif

static void item_fini(struct pick_item *it)
{
	free(it->path);
	free(it->file);
	free(it->name);
	free(it->source);
	free(it->description);
}

void picker_free(struct picker *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->n; i++)
		item_fini(&p->items[i]);
	free(p->items);
	free(p);
}

static char *dup_or(const char *s, const char *dflt)
{
	return strdup(s && *s ? s : dflt);
}

/* Reads name, source and description by loading the scenario. */
static int describe(struct pick_item *it)
{
	struct scenario *sc = NULL;
	struct load_errors errs = {0};
	const char *files[1] = {it->path};
	int ok = it->path ? load_scenario(files, 1, NULL, &sc, &errs)
			  : load_scenario_mem(it->file, it->text, it->len, NULL, &sc, &errs);
	if (ok) {
		it->name = dup_or(sc->name, it->file);
		it->source = dup_or(sc->source, "");
		it->description = dup_or(sc->description, "(no description)");
		scenario_free(sc);
	} else {
		it->name = dup_or(it->file, "?");
		it->source = dup_or("", "");
		it->description = dup_or(errs.n && errs.v[0].msg ? errs.v[0].msg : NULL,
					 "cannot load this file");
	}
	load_errors_fini(&errs);
	return it->name && it->source && it->description;
}

/* tour.yaml first: it is where the README says to start */
static int cmp_items(const void *a, const void *b)
{
	const struct pick_item *x = a, *y = b;
	bool tx = !strcmp(x->file, "tour.yaml"), ty = !strcmp(y->file, "tour.yaml");
	if (tx != ty)
		return tx ? -1 : 1;
	return strcmp(x->file, y->file);
}

static int add(struct picker *p, uint32_t *cap, const char *dir, const char *file,
	       const struct bundled_file *b)
{
	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		struct pick_item *n = realloc(p->items, *cap * sizeof(*n));
		if (!n)
			return 0;
		p->items = n;
	}
	struct pick_item *it = &p->items[p->n];
	memset(it, 0, sizeof(*it));
	if (!(it->file = strdup(file)))
		return 0;
	p->n++;
	if (dir) {
		size_t len = strlen(dir) + strlen(file) + 2;
		if (!(it->path = malloc(len)))
			return 0;
		snprintf(it->path, len, "%s/%s", dir, file);
	} else {
		it->text = b->text;
		it->len = b->len;
	}
	return 1;
}

struct picker *picker_new(char *err, size_t errlen)
{
	struct picker *p = calloc(1, sizeof(*p));
	uint32_t cap = 0;
	if (!p)
		goto oom;
	const char *base = getenv("SKEWER_DATADIR");
	snprintf(p->dir, sizeof(p->dir), "%s/scenarios", base && *base ? base : SKEWER_DATADIR);
	DIR *d = opendir(p->dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);
			if (n > 5 && !strcmp(e->d_name + n - 5, ".yaml") && e->d_name[0] != '.' &&
			    !add(p, &cap, p->dir, e->d_name, NULL)) {
				closedir(d);
				goto oom;
			}
		}
		closedir(d);
	}
	if (!p->n) {
		p->dir[0] = '\0';
		for (unsigned i = 0; i < bundled_count; i++)
			if (!add(p, &cap, NULL, bundled_files[i].name, &bundled_files[i]))
				goto oom;
	}
	if (!p->n) {
		snprintf(err, errlen, "no bundled scenarios: give a scenario file");
		picker_free(p);
		return NULL;
	}
	qsort(p->items, p->n, sizeof(*p->items), cmp_items);
	for (uint32_t i = 0; i < p->n; i++)
		if (!describe(&p->items[i]))
			goto oom;
	return p;
oom:
	snprintf(err, errlen, "out of memory");
	picker_free(p);
	return NULL;
}

static int desc_height(const struct tui *t)
{
	return t->rows / 3 > 5 ? t->rows / 3 : 5;
}

static int list_height(const struct tui *t)
{
	int h = t->rows - 3 - desc_height(t);
	return h > 1 ? h : 1;
}

int picker_open_selected(struct tui *t)
{
	struct picker *p = t->picker;
	const struct pick_item *it = &p->items[p->sel];
	char err[600];
	const char *files[1] = {it->path};
	struct load_opts lo = t->lopts;
	if (!t->headless) {
		lo.progress = tui_load_progress;
		lo.progress_arg = t;
		t->load_t0 = clock_monotonic();
		t->load_pct = -1;
	}
	struct sim *s = it->path ? sim_open(files, 1, NULL, NULL, 0, &lo, err, sizeof(err))
				 : sim_open(NULL, 0, it->file, it->text, it->len, &lo, err, sizeof(err));
	if (!s) {
		tui_flash(t, true, "%s", err);
		return TUI_R_DRAW;
	}
	t->sim = s;
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

/* Whether hay holds needle, ASCII case aside. */
static bool holds(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; hay && *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

static void keep_visible(struct tui *t)
{
	struct picker *p = t->picker;
	uint32_t page = (uint32_t)list_height(t);
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + page)
		p->top = p->sel - page + 1;
}

int picker_find_done(struct tui *t, const char *text)
{
	struct picker *p = t->picker;
	if (!*text)
		text = p->last; /* / Enter: the next match of the last search */
	else
		snprintf(p->last, sizeof(p->last), "%s", text);
	if (!*text || !p->n)
		return TUI_R_DRAW;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t k = 1; k <= p->n; k++) {
			const struct pick_item *it = &p->items[(p->sel + k) % p->n];
			if (pass == 0 ? holds(it->name, text)
				      : holds(it->description, text) || holds(it->source, text)) {
				p->sel = (p->sel + k) % p->n;
				keep_visible(t);
				return TUI_R_DRAW;
			}
		}
	}
	tui_flash(t, true, "no scenario mentions '%s'", text);
	return TUI_R_DRAW;
}

int picker_key(struct tui *t, int key)
{
	struct picker *p = t->picker;
	int page = list_height(t);
	switch (key) {
	case 'q':
		return TUI_R_QUIT;
	case '?':
	case KEY_F(1):
		return act_help(t);
	case 'j':
	case KEY_DOWN:
		if (p->sel + 1 < p->n)
			p->sel++;
		break;
	case 'k':
	case KEY_UP:
		if (p->sel > 0)
			p->sel--;
		break;
	case KEY_NPAGE:
	case ' ':
		p->sel = p->sel + (uint32_t)page < p->n ? p->sel + (uint32_t)page : p->n - 1;
		break;
	case KEY_PPAGE:
		p->sel = p->sel > (uint32_t)page ? p->sel - (uint32_t)page : 0;
		break;
	case 'g':
	case KEY_HOME:
		p->sel = 0;
		break;
	case 'G':
	case KEY_END:
		p->sel = p->n - 1;
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
	case 'l':
	case KEY_RIGHT:
		return picker_open_selected(t);
	case '/':
		prompt_open(t, PROMPT_PICK, "search: ", "");
		return TUI_R_DRAW;
	default:
		tui_flash(t, true, "Up/Down choose, / searches, Enter opens, q quits");
		break;
	}
	keep_visible(t);
	return TUI_R_DRAW;
}

static void draw(struct tui *t, const struct rect *r)
{
	struct picker *p = t->picker;
	char buf[700];
	draw_fill(t, r->y, r->x, r->w, ROLE_TITLE);
	snprintf(buf, sizeof(buf), " skewer %s choose a scenario (%u, %s)", t->g->v, p->n,
		 p->dir[0] ? p->dir : "built in");
	draw_text(t, r->y, r->x, r->w, ROLE_TITLE, buf);
	int lh = list_height(t);
	if (p->sel >= p->top + (uint32_t)lh)
		p->top = p->sel - (uint32_t)lh + 1;
	/* the whole names, the sources get the rest */
	int namew = 0;
	for (uint32_t k = 0; k < p->n; k++) {
		int w = text_width(p->items[k].name, t->utf8) + 2;
		if (w > namew)
			namew = w;
	}
	if (namew > r->w - 20)
		namew = r->w - 20 > 10 ? r->w - 20 : 10;
	for (int i = 0; i < lh && p->top + (uint32_t)i < p->n; i++) {
		uint32_t k = p->top + (uint32_t)i;
		const struct pick_item *it = &p->items[k];
		int y = r->y + 1 + i;
		bool sel = k == p->sel;
		if (sel)
			draw_fill(t, y, r->x, r->w, ROLE_CURSOR);
		draw_text(t, y, r->x, 2, sel ? ROLE_CURSOR : ROLE_NORMAL, sel ? ">" : " ");
		draw_text(t, y, r->x + 2, namew - 1, sel ? ROLE_CURSOR : ROLE_HEADING, it->name);
		draw_text(t, y, r->x + 2 + namew, r->w - namew - 2, sel ? ROLE_CURSOR : ROLE_LABEL,
			  it->source);
	}
	int dy = r->y + 1 + lh;
	const struct pick_item *it = &p->items[p->sel];
	draw_hline(t, dy, r->x, r->w, ROLE_BORDER);
	snprintf(buf, sizeof(buf), " %s ", it->file);
	draw_text(t, dy, r->x + 2, r->w - 4, ROLE_HEADING, buf);
	int avail = r->y + r->h - 1 - (dy + 1);
	if (avail > 0) {
		int n = draw_wrapped(t, dy + 1, r->x + 1, r->w - 2, avail, ROLE_NORMAL, it->description);
		if (n < avail && it->source[0])
			draw_wrapped(t, dy + 1 + n, r->x + 1, r->w - 2, avail - n, ROLE_LABEL, it->source);
	}
}

const struct panel_ops panel_picker = {.name = "picker", .draw = draw, .key = picker_key};
