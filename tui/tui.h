/* tui.h - the interactive interface's shared context. tui/ owns every
 * colour, attribute and key; every number it shows comes from the model's
 * decision record (model/decision.h) or the live cluster. Panels are small
 * files with an ops table (draw, place, scrolling) listed once in
 * panels.h; keys are one
 * table in keys.c whose handlers return what changed (TUI_R_*); only the
 * main loop (run.c) draws. */
#ifndef SKEWER_TUI_H
#define SKEWER_TUI_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../cli/cli.h"
#include "../model/timeline.h"

/* ---- what a key handler changed (htop's HandlerResult) ---- */
enum {
	TUI_R_NONE = 0,
	TUI_R_DRAW = 1u << 0,   /* redraw */
	TUI_R_LAYOUT = 1u << 1, /* the cluster layout must be recomputed */
	TUI_R_QUIT = 1u << 2,
};

/* ---- the panes of the scenario view, one per line of panels.h ---- */
enum pane {
#define PANEL(P, n) PANE_##P,
#include "panels.h"
#undef PANEL
	PANE__COUNT,
};

/* ---- colours by role; monochrome is a complete scheme (term.c) ---- */
enum role {
	ROLE_NORMAL,
	ROLE_TITLE,        /* header bar */
	ROLE_HEADING,      /* panel headings */
	ROLE_BORDER,
	ROLE_DOMAIN,       /* domain box titles */
	ROLE_FEASIBLE,
	ROLE_CHOSEN,
	ROLE_FILTERED,
	ROLE_MATCHING_POD, /* counted by the current constraint */
	ROLE_OTHER_POD,    /* same namespace, not selected */
	ROLE_OTHER_NS,
	ROLE_TERMINATING,
	ROLE_GHOST,        /* the pod being scheduled */
	ROLE_CURSOR,
	ROLE_DIM,          /* only what repeats another mark */
	ROLE_LABEL,        /* field labels, table headers, the legend: normal contrast */
	ROLE_BAR,
	ROLE_MIN,          /* the global minimum */
	ROLE_OVER,         /* a skew beyond maxSkew */
	ROLE_ERROR,
	ROLE_FLASH,
	ROLE_EDITED,       /* steps the user made */
	ROLE_MARK,         /* cordon / taint marks */
	ROLE_KEY,          /* key names in hints and help */
	ROLE__COUNT,
};

/* ---- colour themes (term.c): --theme, SKEWER_THEME, the C key ---- */
enum theme { THEME_DARK, THEME_LIGHT, THEME_CONTRAST, THEME__COUNT };

/* The glyph set: Unicode when the locale is UTF-8, else ASCII. */
struct glyphs {
	const char *h, *v, *tl, *tr, *bl, *br;
	const char *pod_counted, *pod_other, *pod_ns, *pod_term, *pod_ghost;
	const char *ok, *chosen, *bad, *cordon, *taint;
	const char *bad_multi;   /* a node that fails two or more filters */
	const char *nominated;   /* the node preemption nominated */
	const char *bar, *bar_empty;
	const char *st_sched, *st_pending, *st_error, *st_applied, *st_unknown;
	const char *more, *arrow, *times;
};

struct rect {
	int y, x, h, w;
};

/* ---- the cluster drawing, laid out on a canvas (clayout.c) ---- */
struct cl_cell {
	uint32_t node;
	int y, x;            /* canvas position of the cell's top line */
	int pod_rows;        /* pod lines available to this cell */
};

struct cl_box {
	int y, x, h, w;
	int level;           /* 0: outermost */
	sym_t key, value;    /* value SYM_NONE: nodes without the key */
	uint32_t nnodes, nfeasible;
};

#define CL_MAX_LEVELS 3

struct cl_layout {
	struct cl_cell *cells;
	uint32_t ncells, cellcap;
	struct cl_box *boxes;
	uint32_t nboxes, boxcap;
	int32_t *cell_of;        /* node id -> cell index, -1 when not shown */
	uint32_t cell_of_n;
	int h, w;                /* canvas size */
	int cellw;
	bool compact;
	sym_t keys[CL_MAX_LEVELS]; /* coarsest first; the last is the grouping key */
	int nkeys;
	bool singletons;         /* the grouping key's domains hold one node each */
	/* What the layout was built for: clayout_build returns at once while
	 * all of it is unchanged (a redraw, a cursor move), so a frame at
	 * 5,000 nodes does not regroup and re-place every node. */
	bool valid;
	uint64_t gen;            /* sim gen */
	int width, density;
	uint32_t cons;
	/* The grouping (keys, node order) depends on the labels only: kept
	 * across steps while the cluster's label_gen, the grouping key and
	 * the zoom are those it was made for. */
	bool grouped;
	uint64_t label_gen;
	sym_t group, zoom_value;
	bool zoomed;
	uint32_t *ids;           /* node ids in layout order (nids shown) */
	uint32_t nids, idcap, cell_of_cap;
	int32_t *rec_of;         /* node id -> index into the sim's dec.nodes, -1 none
				  * (sim_node_rec reads it while gen is current) */
};

/* ---- the edit history (undo) ---- */
enum undo_kind { UNDO_REPLACE, UNDO_INSERT };

struct undo_entry {
	enum undo_kind kind;
	uint32_t index;          /* step index */
	struct step old;         /* undo, UNDO_REPLACE: the step that was replaced;
				  * redo: the edit's own step */
	uint32_t view;           /* where the user was */
	uint32_t view_after;     /* where the edit took the user */
	uint32_t group;          /* nonzero: undone and redone with its neighbours of the same group */
};

/* ---- a scenario being viewed (sim.c) ---- */
struct sim {
	struct scenario *sc;
	struct timeline *tl;
	char **files;            /* the input paths (for `w`) */
	uint32_t nfiles;
	bool bundled;            /* opened from the compiled-in set */
	uint32_t view;           /* 0 = before any step, i = after step i */
	uint64_t gen;            /* bumped whenever the cluster or decision may change */
	struct decision dec;     /* the cycle of step `view` (when has_dec) */
	bool has_dec;
	int32_t ghost_pod, ghost_node; /* the pod scheduled at this step */
	uint32_t cons;           /* selected constraint in dec */
	int32_t cursor;          /* node id under the cursor, -1 none */
	sym_t group_key;         /* SYM_NONE: follow the constraint's key */
	sym_t zoom_value;        /* domain of lay.keys[last] zoomed into */
	bool zoomed;
	int density;             /* 0 auto, 1 full, 2 compact */
	struct undo_entry *undo;
	uint32_t nundo, undocap;
	struct undo_entry *redo; /* what undo took back, the last on top; a new edit clears it */
	uint32_t nredo, redocap;
	uint32_t group, group_seq; /* edits made while group is set form one (replicas) */
	uint32_t nedits;         /* edits in force (made and not undone) */
	uint32_t saved_undo;     /* nundo when last written (0: as opened) */
	uint32_t whatif_seq;     /* names of added nodes */
	struct cl_layout lay;
	int scroll;              /* cluster canvas first line */
	int details;             /* narrow layout: which SLOT_DETAIL panel shows (0 the first) */
	int pane_scroll[PANE__COUNT]; /* first line of each scrolling panel */
	bool cons_follow;        /* the next drawing scrolls the selected constraint into view */
	bool fold_note;          /* the story shows no note (f) */
};

/* ---- modal input line (prompt.c) ---- */
enum prompt_kind { PROMPT_NONE, PROMPT_GOTO, PROMPT_FIND, PROMPT_WRITE, PROMPT_OVERWRITE, PROMPT_PICK };

struct prompt {
	enum prompt_kind kind;
	char label[64];
	char buf[512];
	size_t len;
	char pending[512];       /* PROMPT_OVERWRITE: the path asked about */
};

/* ---- the scenario picker (picker.c) ---- */
struct pick_item {
	char *path;              /* installed file, NULL for a compiled-in one */
	const char *text;        /* compiled-in text */
	size_t len;
	char *file;              /* file name shown */
	char *name, *source, *description;
};

struct picker {
	struct pick_item *items;
	uint32_t n;
	uint32_t sel, top;
	char dir[512];           /* where the installed ones came from, "" none */
};

/* ---- the whole interface ---- */
struct tui {
	bool headless;
	int click_x, click_y;    /* headless: the scripted <Click X,Y> */
	bool utf8;
	bool color;              /* colours in use (term_roles) */
	bool color_wanted;       /* no NO_COLOR */
	enum theme theme;
	const struct glyphs *g;
	attr_t attrs[ROLE__COUNT];
	struct rect clip;        /* drawing is clipped to this */
	int rows, cols;
	struct sim *sim;         /* NULL while the picker shows */
	struct picker *picker;
	bool help;
	int help_scroll;
	struct prompt prompt;
	char flash[512];
	bool flash_error;
	struct load_opts lopts;  /* --namespace / --selector */
	struct rect panes[PANE__COUNT]; /* screen.c: where each panel draws */
	bool too_small;
	int (*armed)(struct tui *t); /* a key that asked "press again to confirm" */
	SCREEN *screen;          /* headless: newterm's screen and its files */
	FILE *hout, *hin;
};

/* The only mutable global: set by the signal handler, read by the loop. */
extern volatile sig_atomic_t tui_signal;

/* term.c */
int term_start(struct tui *t, int rows, int cols);
void term_stop(struct tui *t);
bool term_locale_utf8(void);
void term_install_signals(void);
const struct glyphs *term_glyphs(bool utf8);
/* Sets t->attrs from t->theme (colours when t->color_wanted and the
 * terminal has them, else the theme's monochrome attributes). */
void term_roles(struct tui *t);
const char *term_theme_name(enum theme th);
/* The theme called name, -1 when none is. */
int term_theme_from_name(const char *name);

/* draw.c: text is sanitised (out_sanitize) and clipped to t->clip */
int draw_text(struct tui *t, int y, int x, int maxw, enum role r, const char *s);
int draw_raw(struct tui *t, int y, int x, enum role r, const char *glyph);
void draw_fill(struct tui *t, int y, int x, int w, enum role r);
void draw_hline(struct tui *t, int y, int x, int w, enum role r);
void draw_box(struct tui *t, int y, int x, int h, int w, enum role r);
int text_width(const char *s, bool utf8);
/* Draws s word-wrapped into the w columns at (y, x), at most maxlines
 * lines; returns the lines used (or needed, when maxlines is 0 and
 * nothing is drawn). */
int draw_wrapped(struct tui *t, int y, int x, int w, int maxlines, enum role r, const char *s);
/* A pen writes lines of mixed roles into r, skipping the first `scroll`
 * lines; line counts every line written (the content's height). */
struct pen {
	struct tui *t;
	struct rect r;
	int line, scroll, x, indent;
};
/* Whether the pen's current line is inside its rectangle (a panel skips
 * the drawing of lines that are not, and only counts them). */
bool pen_visible(const struct pen *p);
void pen_put(struct pen *p, enum role r, const char *s);
void pen_raw(struct pen *p, enum role r, const char *glyph);
void pen_printf(struct pen *p, enum role r, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void pen_pad(struct pen *p, int col);
void pen_nl(struct pen *p);
/* Word-wraps s from the pen's column to the right edge. */
void pen_wrap(struct pen *p, enum role r, const char *s);
void tui_flash(struct tui *t, bool error, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* A stable merge sort with a context pointer. Returns 0 on OOM. */
int tui_sort(void *base, size_t n, size_t size,
	     int (*cmp)(const void *, const void *, void *), void *ctx);

/* keys.c: the key table */
int keys_dispatch(struct tui *t, int key);
void keys_help_lines(struct tui *t, void (*line)(void *ctx, const char *k, const char *v,
						  bool heading), void *ctx);
void keys_markdown(FILE *f);
int keys_status_hints(struct tui *t, int y, int x, int w);
/* Parses a --keys script into key codes; <Resize WxH> becomes
 * KEYS_RESIZE_BASE + (W << 12 | H), <Click X,Y> (a left click at column
 * X, row Y, from 0) KEYS_CLICK_BASE + (X << 12 | Y). Returns a malloc'd
 * array (n in *n), NULL with a message in err on a bad token. */
#define KEYS_RESIZE_BASE 0x1000000
#define KEYS_CLICK_BASE 0x2000000
int *keys_parse_script(const char *s, size_t *n, char *err, size_t errlen);

/* sim.c: sim_new takes sc over (freed on failure too) */
struct sim *sim_new(struct scenario *sc, const char *const *files, uint32_t nfiles,
		    bool bundled, char *err, size_t errlen);
struct sim *sim_open(const char *const *files, uint32_t nfiles, const char *name,
		     const char *text, size_t len, const struct load_opts *lo, char *err,
		     size_t errlen);
void sim_free(struct sim *s);
int sim_goto(struct sim *s, uint32_t view);
int sim_refill(struct sim *s);
const struct constraint_rec *sim_cons(const struct sim *s);
sym_t sim_group_key(const struct sim *s);
const struct node_rec *sim_node_rec(const struct sim *s, uint32_t node);
/* The node this step's preemption nominated, -1 when none. */
int32_t sim_nominated(const struct sim *s);
/* The pods this step's preemption evicted from node (they are gone from
 * the cluster; their records stay readable): their number, the ids in
 * *v. 0 for any other node. */
uint32_t sim_evicted(const struct sim *s, uint32_t node, const uint32_t **v);
/* How many filters fail on the node (0 when feasible or unknown). */
int sim_nblockers(const struct node_rec *r);
const struct step *sim_step(const struct sim *s);
/* Edits: the new step replaces step `index` / is inserted at `index`;
 * recorded for undo; the view moves to `view`. 1, 0 on OOM. */
int sim_replace(struct sim *s, uint32_t index, struct step *st, uint32_t view);
int sim_insert(struct sim *s, uint32_t index, struct step *st, uint32_t view);
int sim_undo(struct sim *s);
/* Makes the last undone edit (or group) again. 1, 0 on OOM. */
int sim_redo(struct sim *s);
/* Label keys of the alive nodes, sorted by text (malloc'd, n in *n). */
sym_t *sim_label_keys(const struct sim *s, uint32_t *n);
int sim_write(struct sim *s, const char *path, bool overwrite, char *err, size_t errlen);
/* How pod id shows in the cluster view. */
enum role sim_pod_role(const struct sim *s, uint32_t pod, const char **glyph,
		       const struct glyphs *g);

/* clayout.c */
int clayout_build(struct sim *s, int width);
void clayout_fini(struct cl_layout *l);
/* Moves the cursor: dx -1/+1 along the order, dy -1/+1 visually. */
void clayout_move(struct sim *s, int dx, int dy);
int32_t clayout_hit(const struct sim *s, int cy, int cx);
const struct cl_box *clayout_box_of(const struct sim *s, uint32_t node, int level);

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

/* p_cluster.c: the title of a domain box (value, count, minimum) */
void cluster_box_title(const struct sim *s, const struct cl_box *b, struct out_buf *o);

/* screen.c */
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

/* prompt.c */
void prompt_open(struct tui *t, enum prompt_kind k, const char *label, const char *init);
int prompt_key(struct tui *t, int key);

/* picker.c */
struct picker *picker_new(char *err, size_t errlen);
void picker_free(struct picker *p);
int picker_key(struct tui *t, int key);
int picker_open_selected(struct tui *t);
/* Selects the next scenario (after the selected one, round) whose name,
 * then description or source, holds text, case aside. */
int picker_find_done(struct tui *t, const char *text);

/* help (p_help.c) */
int help_key(struct tui *t, int key);

/* actions.c / edit.c: the handlers the key table names */
int act_next(struct tui *t);
int act_prev(struct tui *t);
int act_first(struct tui *t);
int act_last(struct tui *t);
int act_goto(struct tui *t);
int act_left(struct tui *t);
int act_right(struct tui *t);
int act_up(struct tui *t);
int act_down(struct tui *t);
int act_cons_next(struct tui *t);
int act_cons_prev(struct tui *t);
int act_group(struct tui *t);
int act_zoom(struct tui *t);
int act_density(struct tui *t);
int act_details(struct tui *t);
int act_fold(struct tui *t);
int act_theme(struct tui *t);
int act_scroll_down(struct tui *t);
int act_scroll_up(struct tui *t);
int act_find(struct tui *t);
int act_help(struct tui *t);
int act_picker(struct tui *t);
int act_redraw(struct tui *t);
int act_quit(struct tui *t);
int act_place(struct tui *t);
int act_skew_up(struct tui *t);
int act_skew_down(struct tui *t);
int act_when(struct tui *t);
int act_topokey(struct tui *t);
int act_mindom_up(struct tui *t);
int act_mindom_down(struct tui *t);
int act_aff_policy(struct tui *t);
int act_taint_policy(struct tui *t);
int act_cordon(struct tui *t);
int act_taint(struct tui *t);
int act_untaint(struct tui *t);
int act_delete_pod(struct tui *t);
int act_add_node(struct tui *t);
/* the controllers' what-ifs: scale the cursor's pod's workload, roll it
 * out, run the descheduler (edit.c) */
int act_scale_up(struct tui *t);
int act_scale_down(struct tui *t);
int act_rollout(struct tui *t);
int act_deschedule(struct tui *t);
int act_undo(struct tui *t);
int act_redo(struct tui *t);
int act_write(struct tui *t);
int act_mouse(struct tui *t);
/* Finishing a prompt (prompt.c calls these). */
int act_goto_done(struct tui *t, const char *text);
int act_find_done(struct tui *t, const char *text);
int act_write_done(struct tui *t, const char *text, bool confirmed);

/* Short code of the filter plugin that rejected a node ("PTS"). */
const char *tui_plugin_code(enum plugin_id p);

#endif
