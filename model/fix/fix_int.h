/* fix_int.h - what model/fix.c shares with the kinds in model/fix/: the
 * search's state, a trial's outcome, the trials themselves and the
 * helpers over the pending cycle's node records. Private to model/fix*. */
#ifndef SKEWER_FIX_INT_H
#define SKEWER_FIX_INT_H

#include "../fix.h"

/* candidates tried per kind beyond the limit (each costs one cycle) */
#define EXTRA_TRIALS 5

#define BIT(p) (1u << (p))

struct fx {
	struct timeline *t;
	struct cluster *c;
	uint32_t i;               /* the pending step */
	uint32_t limit;
	struct decision d0;       /* its pending cycle, full */
	struct fix_report *out;
	bool oom;
	bool accept_nominated;  /* priority: a nomination counts */
	bool first;             /* fix_best: stop at the first clean fix */
	bool reran;             /* a trial ran earlier steps again (fix.c refreshes d0) */
	bool preemption;        /* the scenario's PostFilter (off in the trials) */
	int32_t entry;          /* a retry: the schedule step that made its pod, else -1 */
	/* the pods the pending step made for the search (fix.c gives them back) */
	uint32_t pend[FIX__COUNT + 1];
	uint32_t npend;
};

struct trial {
	bool ok;
	int32_t node;
	/* the node's name and the violator's, read at once: the trial's
	 * own nodes and pods are given back after it (fx_give_back) */
	sym_t node_name, vns, vname;
	bool nominated;
	uint32_t *victims;
	uint32_t nvictims;
	char *violation;
	uint32_t violator;
};

/* A kind: run adds its fixes to x->out (ix: the pending cycle's node
 * records, fewest failing filters first, UINT32_MAX after the last). */
enum {
	FXK_POD = 1,        /* changes the pod: at a retry only with an entry */
	FXK_NOT_RETRY = 2,  /* not at a retry */
	FXK_POSTFILTER = 4, /* its trials run PostFilter as the scenario does */
};
struct fix_kind_ops {
	unsigned flags;
	void (*run)(struct fx *x, const uint32_t *ix);
};
#define FIX_KIND_DECL(id, name, ops) extern const struct fix_kind_ops fix_kind_##ops;
FIX_KINDS(FIX_KIND_DECL)
#undef FIX_KIND_DECL

/* fix.c: the trials */
void fx_trial_fini(struct trial *tr);
/* Gives back the slots of the pods and nodes made since the cluster had
 * npods and nnodes, last first, while they are gone: a trial's, once its
 * steps' records are forgotten and nothing refers to them
 * (cluster_drop_pod, cluster_drop_node). So trials leave the cluster's
 * size as they found it. */
void fx_give_back(struct cluster *c, uint32_t npods, uint32_t nnodes);
/* The pending step's outcome in d (pod pid) into tr, with the earlier
 * pods' violations. 1, 0 on OOM. */
int fx_read_outcome(struct fx *x, const struct decision *d, uint32_t upto, struct trial *tr);
/* Step i (a retry's: its entry) replaced by *s (taken over), run, and
 * put back. 1, 0 on OOM. */
int fx_try_step(struct fx *x, struct step *s, struct trial *tr);
/* *e (copied) inserted before step i, both run, and taken out again. */
int fx_try_edit(struct fx *x, const struct step *e, struct trial *tr);
/* *e (taken) tried as an edit; a fix of kind when it works. */
void fx_edit_kind(struct fx *x, enum fix_kind kind, struct step *e, uint32_t *tries);
struct fix *fx_add_fix(struct fx *x, enum fix_kind k, struct trial *tr);
bool fx_kind_full(const struct fx *x, enum fix_kind k);
/* The step whose pod the pod kinds change, and a copy of it to change
 * (no choose, no expect). */
const struct step *fx_pending_step(const struct fx *x);
int fx_step_for_trial(struct fx *x, struct step *s);
/* node records */
unsigned fx_popcount16(unsigned v);
bool fx_has_blocker(const struct node_rec *r, enum plugin_id p);
bool fx_only(const struct node_rec *r, unsigned lifts);
bool fx_some_node(const struct fx *x, unsigned lifts);
const struct taint *fx_blocking_taint(const struct fx *x, const struct node_rec *r);

/* cons.c, toleration.c: what fix_step applies */
int fx_cons_change(struct cluster *c, const struct fix *f, struct pod_spec *sp);
int fx_add_toleration(struct pod_spec *sp, const struct toleration *tol);

#endif
