/* term.h - the look: colour roles, themes, glyphs and the terminal (term.c) */
#ifndef SKEWER_TUI_TERM_H
#define SKEWER_TUI_TERM_H

#include <stdbool.h>

struct tui;

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

#endif
