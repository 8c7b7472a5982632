/* timeline.h - the scenario's steps applied in order over a live cluster,
 * with exact movement forward and back. Each applied step keeps an undo
 * record (what it changed), so a move costs only what that step changed;
 * redo of a schedule step reuses its recorded outcome without re-running
 * the scheduler. A user's own action at a step truncates what followed
 * and appends itself (a branch). */
#ifndef SKEWER_TIMELINE_H
#define SKEWER_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include "cluster.h"
#include "decision.h"
#include "scenario.h"
#include "scheduler.h"

/* What applying a step did, kept for every step once applied. */
struct step_result {
	bool done;             /* has been applied at least once */
	enum outcome outcome;
	int32_t node;          /* chosen node id (schedule) or -1 */
	uint32_t pod;          /* the pod id the step made or targeted */
	bool has_pod;          /* pod is set (the step resolved its pod) */
	char *message;         /* pending/invalid/error text or NULL */
	uint32_t nsub;         /* a controller step's sub-steps (pods made, deleted) */
};

struct timeline {
	struct scenario *sc;   /* borrowed; its cluster is the live state */
	struct cluster *c;     /* == sc->cluster */
	struct scheduler *sched; /* its own, over c: every cycle runs here */
	struct step_result *res;
	void *undo;            /* private undo records, one per step */
	uint32_t cur;          /* number of steps applied: 0..nsteps */
	/* the cluster's pods and nodes when the timeline was made: the
	 * slots below are the input's, the ones above steps made */
	uint32_t npods0, nnodes0;
};

/* Starts at step 0 (nothing applied). Returns NULL on OOM. */
struct timeline *timeline_new(struct scenario *sc);
void timeline_free(struct timeline *t);

uint32_t timeline_len(const struct timeline *t);
/* Moves to the state after `n` steps (0 = initial). Returns 1, 0 on OOM. */
int timeline_goto(struct timeline *t, uint32_t n);
int timeline_next(struct timeline *t);
/* Applies step cur (like timeline_next) and, when d != NULL, fills *d with
 * what happened: outcome and message for every step, and for schedule and
 * retry steps the whole decision (a fresh cycle). decision_fini frees it.
 * Returns 1, 0 at the end or on OOM. */
int timeline_step(struct timeline *t, struct decision *d);
/* The same with a lean decision (decision.h): every node's verdict and
 * total, without the records (a step with choose is recorded in full). */
int timeline_step_verdicts(struct timeline *t, struct decision *d);
int timeline_prev(struct timeline *t);

/* The decision for step i (0-based) of kind schedule/retry, computed on
 * demand from the state before that step (the timeline is moved there and
 * back). Fills *d (zeroed by caller). Returns 1 when the step schedules a
 * pod, 0 otherwise (d untouched) or on OOM. */
int timeline_explain(struct timeline *t, uint32_t i, struct decision *d);

/* Step i's own undo record (its kind's `rec`), NULL when none: a
 * scaleUp keeps its report there (model/steps/scale_up.c), a controller
 * step its `struct ctl_run` (model/controllers/ctl.h). */
void *timeline_step_rec(const struct timeline *t, uint32_t i);

/* Replaces every step after the current position with `s` (taken over,
 * *s zeroed) and applies it. Returns 1, 0 on OOM. */
int timeline_branch(struct timeline *t, struct step *s);

/* Editing the step list (the interface's what-ifs). Each works on steps
 * that are not applied (index >= t->cur) and forgets the recorded
 * outcomes of that step and every later one, so they are computed afresh
 * when next applied (later steps replay on the changed state). */

/* Replaces step i (t->cur <= i < len) with *s (taken over, *s zeroed) and
 * moves the old step into *old (the caller frees it with step_fini, or
 * puts it back with another replace). Returns 1. */
int timeline_replace(struct timeline *t, uint32_t i, struct step *s, struct step *old);
/* Inserts *s (taken over, *s zeroed) before step i (t->cur <= i <= len).
 * Returns 1, 0 on OOM (*s untouched). */
int timeline_insert(struct timeline *t, uint32_t i, struct step *s);
/* Forgets the recorded outcomes of steps i.. (t->cur <= i): they run
 * afresh when next applied, as after a change of the scheduler's
 * settings (model/fix.c's trials of the default constraints). */
void timeline_forget(struct timeline *t, uint32_t i);
/* Removes step i (t->cur <= i < len), moving it into *out. Returns 1. */
int timeline_remove(struct timeline *t, uint32_t i, struct step *out);

#endif
