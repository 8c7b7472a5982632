/* panel.h - the panel ops table and the screen that places them (screen.c) */
#ifndef SKEWER_TUI_PANEL_H
#define SKEWER_TUI_PANEL_H

#include <stdbool.h>
#include "../util/out.h"
#include "../model/timeline.h"
#include "clayout.h"
#include "draw.h"
#include "pane.h"

struct tui;

struct sim;

/* ---- panels: one file each, listed once in panels.h ---- */
/* Where a panel goes. The screen is a column of SLOT_TOP panels (in table
 * order), the SLOT_BOTTOM ones at the foot, and between them the main
 * panel with the details: in the wide layout the main panel is the left
 * column and the details are stacked on the right; in the split layout
 * the details sit side by side under the main panel; in the narrow one
 * one detail at a time shows under it (Tab shows the next). */
enum panel_slot {
	SLOT_TOP,
	SLOT_BOTTOM,
	SLOT_MAIN,
	SLOT_DETAIL,
};

struct panel_ops {
	const char *name;        /* also the narrow layout's "Tab: NAME" hint */
	void (*draw)(struct tui *t, const struct rect *r);
	enum panel_slot slot;
	/* The lines it wants at width w and, in *least, the fewest it can
	 * do with (NULL: `lines` for both). SLOT_MAIN's is called with its
	 * width in every layout (it may lay its content out there). In the
	 * split and narrow layouts the details get what they want (the one
	 * shown, or the tallest) before the main panel, and in the narrow one
	 * before the top panels too, which give up lines down to their least. */
	int (*height)(struct tui *t, int w, int *least);
	int lines;
	int share;               /* SLOT_DETAIL, wide: percent of the column (the last takes the rest) */
	/* Scrolling: PgDn/PgUp move s->pane_scroll[its pane] by 5 lines; a
	 * step change puts it back to 0, and so does a cursor move when
	 * cursor_resets. */
	bool scrolls, cursor_resets;
	/* A panel that takes the whole screen (the help, the list of
	 * scenarios) reads every key while it shows (screen_owner); the
	 * scenario view's panels share the key table of keys.c (NULL). */
	int (*key)(struct tui *t, int key);
};

#define PANEL(P, n) extern const struct panel_ops panel_##n;
#include "panels.h"
#undef PANEL
extern const struct panel_ops panel_help;     /* p_help.c: every key */
extern const struct panel_ops panel_picker;   /* picker.c: bundled scenarios */

/* Draws a panel's frame title "─ Title ─" on row y; returns nothing. */
/* A pane's top border with its title and, at the right, the hint right
 * (or none); scrolls adds PgUp/PgDn, which is kept when both do not fit. */
void draw_title(struct tui *t, const struct rect *r, const char *title, const char *right, bool scrolls);

/* p_cluster.c: the title of a domain box (value, count, minimum; hiding:
 * without the feasible count) */
void cluster_box_title(const struct sim *s, const struct cl_box *b, bool hiding,
		       struct out_buf *o);

/* screen.c */
/* The panel that takes the whole screen now (the help, or the list while
 * no scenario is open), NULL for the scenario view's panels. */
const struct panel_ops *screen_owner(const struct tui *t);
void screen_layout(struct tui *t);
void screen_draw(struct tui *t);
/* Writes the screen as text to path ("-": standard output); with attrs,
 * one letter a cell instead: d dim, r reverse, b bold, u underline (the
 * first that applies), c a colour alone, . nothing. 0 on error (errno). */
int screen_dump(struct tui *t, const char *path, bool attrs);
int screen_min_rows(void);
int screen_min_cols(void);
/* Scrolls every panel that scrolls by delta lines (0 at the least). */
void screen_scroll(struct sim *s, int delta);
/* The scroll offsets back to 0: all of them (a step change), or those of
 * the panels that follow the cursor. */
void screen_scroll_reset(struct sim *s, bool cursor_only);

/* help (p_help.c) */
int help_key(struct tui *t, int key);

/* Short code of the filter plugin that rejected a node ("PTS"). */
const char *tui_plugin_code(enum plugin_id p);

#endif
