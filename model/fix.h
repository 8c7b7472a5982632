/* fix.h - changes that let a Pending pod be scheduled (debugging contract
 * section 3): for one pending step of a timeline, the smallest change of
 * each kind, cheapest kinds first, each verified by running the step's
 * scheduling cycle again on the changed state through the timeline's
 * what-ifs (timeline_replace / timeline_insert, then undone), so the
 * verdict is the scheduler's own. Data only: cli/fix.c writes it. */
#ifndef SKEWER_FIX_H
#define SKEWER_FIX_H

#include <stdbool.h>
#include <stdint.h>
#include "timeline.h"
#include "fix/kinds.h"

/* The kinds, cheapest first (the order of the contract's table):
 * FIX_MAX_SKEW ... FIX_PRIORITY, from the table in fix/kinds.h. */
#define FIX_KIND_ENUM(id, name, ops) FIX_##id,
enum fix_kind {
	FIX_KINDS(FIX_KIND_ENUM)
	FIX__COUNT
};
#undef FIX_KIND_ENUM

/* The contract's name of a kind ("maxSkew", "addNode", ...). */
const char *fix_kind_name(enum fix_kind k);

struct fix {
	enum fix_kind kind;
	/* pod kinds: the constraint's index in the pod's own
	 * topologySpreadConstraints and its topologyKey */
	uint32_t cons;
	sym_t key;
	/* the constraint is the scheduler's defaultConstraints[cons] (the
	 * pod has none of its own): the change is a schedulerPatch, verified
	 * by running every step up to the pending one under it */
	bool sched;
	/* maxSkew, minDomains, priority: the value before and after;
	 * policies: after is 1 for Honor, 0 for Ignore */
	int32_t before, after;
	bool had_class;           /* priority: the pod named a priorityClassName (dropped) */
	struct toleration tol;    /* toleration: the one the pod gains */
	/* uncordon, untaint, label, delete, addNode: the step inserted just
	 * before the pending one (owned; step_fini) */
	bool has_edit;
	struct step edit;
	int32_t tmpl;             /* addNode: the node copied */
	/* scaleUp: the autoscaler (1 Cluster Autoscaler, 2 Karpenter: enum
	 * as_kind) and the group or NodePool and zone of the node it adds
	 * (the edit is that node added) */
	int as_kind;
	sym_t as_group, as_zone;
	sym_t dom_key, dom_val;   /* addNode: the domain it is in (SYM_NONE: none named) */
	/* where the pod goes: the node it is bound to, or for priority the
	 * node preemption nominates (nominated true) with the victims */
	sym_t node;
	bool nominated;
	uint32_t *victims;        /* pod ids */
	uint32_t nvictims;
	/* an earlier step's pod whose hard constraint the change leaves
	 * violated where it is bound: "ns/name: KEY=VALUE: C + 0 - M = S >
	 * maxSkew K" (malloc'd), NULL when none */
	char *violation;
	sym_t vns, vname;         /* that pod */
};

struct fix_report {
	uint32_t step;            /* 0-based index of the pending step */
	uint32_t pod;             /* the pod id of its cycle */
	bool retry;               /* a retry step */
	/* a retry: the schedule step that made its pod (0-based), where the
	 * changes of the pod go (podPatch is on that entry); -1 when none
	 * (then the changes of the pod are not tried) */
	int32_t entry;
	char *message;            /* the pending cycle's message (malloc'd) */
	struct fix *v;
	uint32_t n;
	uint32_t trials;          /* cycles run to verify candidates */
};

enum fix_rc {
	FIX_OK = 1,
	FIX_OOM = 0,
	FIX_NOT_SCHEDULING = -1,  /* the step schedules no pod */
	FIX_NOT_PENDING = -2,     /* its pod was not left pending */
};

/* Fixes for step i (0-based) of t: at most `limit` per kind. The
 * timeline is left at step i (nothing of step i applied). The step's
 * outcome, on the state before it, must be pending. */
int fix_find(struct timeline *t, uint32_t i, uint32_t limit, struct fix_report *out);
/* The same, stopping at the first fix that violates no earlier pod's
 * hard constraint (at most one per kind before it). */
int fix_best(struct timeline *t, uint32_t i, struct fix_report *out);
/* The first fix of r that violates nothing, else the first; NULL when
 * r has none. */
const struct fix *fix_report_best(const struct fix_report *r);
/* The step that applies f (found for r->step of t): for a change of the
 * pod, a copy of the pending step (a retry's: of r->entry) with it (to
 * replace that step); for a
 * change of the cluster, a copy of the step to insert before it. 1, 0 on
 * OOM, for a retry without entry or for a change of the scheduler (sched). *out is the caller's (step_fini). */
int fix_step(struct timeline *t, const struct fix_report *r, const struct fix *f, struct step *out);
void fix_report_fini(struct fix_report *r);
/* For a fix with sched set: the scheduler's defaultConstraints with the
 * change made (*out, *n; fix_defaults_free). 1, 0 on OOM or for another
 * fix. */
int fix_defaults(struct timeline *t, const struct fix *f, struct tsc **out, uint32_t *n);
void fix_defaults_free(struct tsc *v, uint32_t n);

#endif
