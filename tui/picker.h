/* picker.h - the list of bundled scenarios (picker.c) */
#ifndef SKEWER_TUI_PICKER_H
#define SKEWER_TUI_PICKER_H

#include <stddef.h>
#include <stdint.h>

struct tui;

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
	char last[128];          /* the last search, which an empty one repeats */
};

/* picker.c */
struct picker *picker_new(char *err, size_t errlen);
void picker_free(struct picker *p);
int picker_key(struct tui *t, int key);
int picker_open_selected(struct tui *t);
/* Selects the next scenario (after the selected one, round) whose name,
 * then description or source, holds text, case aside; an empty text
 * repeats the last search. */
int picker_find_done(struct tui *t, const char *text);

/* load_opts.progress of the view (run.c), arg the struct tui: a long
 * load shows a bar instead of a frozen screen. Set t->load_t0 and
 * t->load_pct = -1 before the load. */
void tui_load_progress(void *arg, const char *name, uint64_t done, uint64_t size);

#endif
