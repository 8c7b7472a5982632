/* keys.h - the key table (keys.c) and the handlers it names (actions.c, edit.c) */
#ifndef SKEWER_TUI_KEYS_H
#define SKEWER_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct tui;

/* ---- what a key handler changed (htop's HandlerResult) ---- */
enum {
	TUI_R_NONE = 0,
	TUI_R_DRAW = 1u << 0,   /* redraw */
	TUI_R_LAYOUT = 1u << 1, /* the cluster layout must be recomputed */
	TUI_R_QUIT = 1u << 2,
};

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
/* fixes.c: the list of the fixes of the pending step on screen; while
 * open it takes every key (fixes_key) and draws over the view */
int act_fix(struct tui *t);
int fixes_key(struct tui *t, int key);
void fixes_draw(struct tui *t);
void fixes_free(struct tui *t);
/* the autoscaler (scaleUp) at the step on screen, as a what-if */
int act_scale_up(struct tui *t);
/* the controllers' what-ifs: grow or shrink the cursor's pod's workload,
 * roll it out, run the descheduler (edit.c) */
int act_workload_up(struct tui *t);
int act_workload_down(struct tui *t);
int act_rollout(struct tui *t);
int act_deschedule(struct tui *t);
/* the Kubernetes release from the step on screen on: the previous or
 * next minor, or one typed (version.c) */
int act_version_prev(struct tui *t);
int act_version_next(struct tui *t);
int act_version_ask(struct tui *t);
/* A what-if step st (taken over) with its note (fmt with a): before the
 * step on screen when that step schedules a pod, else after it (edit.c) */
int tui_what_if(struct tui *t, struct step *st, const char *note, const char *a);
int act_undo(struct tui *t);
int act_redo(struct tui *t);
int act_predict(struct tui *t);
int act_selector(struct tui *t);
int act_match_keys(struct tui *t);
int act_add_constraint(struct tui *t);
int act_remove_constraint(struct tui *t);
int act_pod_labels(struct tui *t);
int act_toleration(struct tui *t);
int act_new_node(struct tui *t);
int act_remove_node(struct tui *t);
int act_relabel(struct tui *t);
int act_replica(struct tui *t);
int act_reveal(struct tui *t);
int act_guess(struct tui *t);
int act_write(struct tui *t);
int act_mouse(struct tui *t);
/* Finishing a prompt (prompt.c calls these). */
int act_goto_done(struct tui *t, const char *text);
int act_find_done(struct tui *t, const char *text);
int act_write_done(struct tui *t, const char *text, bool confirmed);

#endif
