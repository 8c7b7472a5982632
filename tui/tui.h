/* tui.h - the interactive interface's shared context. tui/ owns every
 * colour, attribute and key; every number it shows comes from the model's
 * decision record (model/decision.h) or the live cluster. Panels are small
 * files with an ops table (draw, place, scrolling) listed once in
 * panels.h; keys are one
 * table in keys.c whose handlers return what changed (TUI_R_*); only the
 * main loop (run.c) draws. This header is the whole interface (struct
 * tui) and includes the small ones: term.h, draw.h, pane.h, panel.h,
 * clayout.h, sim.h, prompt.h, picker.h, keys.h. */
#ifndef SKEWER_TUI_H
#define SKEWER_TUI_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../load/load.h"
#include "../model/present.h"
#include "../model/timeline.h"
#include "../util/clock.h"
#include "clayout.h"
#include "pane.h"
#include "picker.h"
#include "prompt.h"
#include "sim.h"
#include "term.h"

/* ---- the whole interface ---- */
struct tui {
	bool headless;
	int click_x, click_y;    /* headless: the scripted <Click X,Y> */
	bool utf8;
	bool color;              /* colours in use (term_roles) */
	bool color_wanted;       /* no NO_COLOR */
	enum theme theme;
	bool predict;            /* predict mode (P): verdicts wait for r */
	const struct glyphs *g;
	attr_t attrs[ROLE__COUNT];
	struct rect clip;        /* drawing is clipped to this */
	int rows, cols;
	struct sim *sim;         /* NULL while the picker shows */
	struct picker *picker;
	bool help;
	int help_scroll;
	struct fix_list *fixes;  /* fixes.c: the list F opened, NULL when closed */
	struct prompt prompt;
	char flash[512];
	bool flash_error;
	struct load_opts lopts;  /* --namespace / --selector */
	struct rect panes[PANE__COUNT]; /* screen.c: where each panel draws */
	bool too_small;
	int (*armed)(struct tui *t); /* a key that asked "press again to confirm" */
	SCREEN *screen;          /* headless: newterm's screen and its files */
	FILE *hout, *hin;
	/* a long load's progress bar (run.c): curses started for it, and
	 * when the load began and the percentage drawn */
	bool started;
	double load_t0;
	int load_pct;
};

/* The only mutable global: set by the signal handler, read by the loop. */
extern volatile sig_atomic_t tui_signal;

#include "draw.h"
#include "keys.h"
#include "panel.h"

#endif
