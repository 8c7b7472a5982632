/* sim.h - a scenario being viewed: its timeline, the step on screen, the edit history and predict mode (sim.c) */
#ifndef SKEWER_TUI_SIM_H
#define SKEWER_TUI_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "../load/load.h"
#include "../model/present.h"
#include "../model/timeline.h"
#include "clayout.h"
#include "pane.h"
#include "term.h"

struct tui;

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
	/* step `view` is a scaleUp and the scenario has node groups and
	 * NodePools: the other autoscaler's answer at the same moment (a
	 * dry run), NULL otherwise */
	struct as_report *as_other;
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
	/* Predict mode (the P key, t->predict): the step whose verdicts r
	 * revealed (its view, 0 none), and the guesses marked with x at
	 * step guess_view (one enum guess a node id, nguess of them). */
	uint32_t reveal_view;
	bool predict;            /* t->predict's copy for clayout: cells room "wrong" */
	uint8_t *guess;
	uint32_t nguess, guess_view;
	/* The outcome of each step of the scenario as opened (what its
	 * note was written for), by the step's position in the file. */
	struct sim_orig *orig;
	uint32_t norig;
};

/* A step's outcome as opened: its file position (line, col; the copies of
 * a `replicas` step share it, in order), the outcome and the chosen node's
 * name (SYM_NONE when none). */
struct sim_orig {
	uint32_t line, col;
	enum outcome outcome;
	sym_t node;
};

/* A student's guess on a node in predict mode (x cycles them). */
enum guess { GUESS_NONE, GUESS_FITS, GUESS_HERE, GUESS_NO, GUESS__COUNT };

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
/* The outcome step `index` had when the scenario was opened (found by
 * its position in the file); false for a step made in the view or one
 * not run then. */
bool sim_orig_outcome(const struct sim *s, uint32_t index, enum outcome *o, sym_t *node);
/* Predict mode: whether this step's verdicts are hidden (P is on, the
 * step ran a scheduling cycle, r has not revealed it). */
bool tui_hiding(const struct tui *t);
/* The guess marked on node at this step (GUESS_NONE when none). */
enum guess sim_guess(const struct sim *s, uint32_t node);
/* Sets it; 0 on OOM. */
int sim_set_guess(struct sim *s, uint32_t node, enum guess g);
/* Whether the guess on node was right (the decision on screen decides). */
bool sim_guess_right(const struct sim *s, uint32_t node, enum guess g);
/* Short words for a guess: "fits?", "here?", "no?" (short) or a phrase. */
const char *guess_text(enum guess g, bool short_form);
/* How pod id shows in the cluster view. */
enum role sim_pod_role(const struct sim *s, uint32_t pod, const char **glyph,
		       const struct glyphs *g);
/* The same for a pod on node (-1 none), where it is no longer: a pod
 * preemption evicted, drawn where it ran before the step. */
enum role sim_pod_role_on(const struct sim *s, uint32_t pod, int32_t node, const char **glyph,
			  const struct glyphs *g);

#endif
