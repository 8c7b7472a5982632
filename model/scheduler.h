/* scheduler.h - a scheduler over one cluster: what its cycles keep from
 * one to the next, apart from the cluster. The cluster keeps its objects
 * and the indices every mutation updates (matchers, key indices, term
 * classes, free resources) with change counters (label_gen, taint_gen,
 * res_clock and res_log, the term classes only ever appended); a
 * scheduler keeps answers derived from them and checks each against
 * those counters when it reads it, so the cluster never knows its
 * schedulers, and any number of them may work on one cluster (one at a
 * time: a cycle changes the cluster while it probes nodes). */
#ifndef SKEWER_SCHEDULER_H
#define SKEWER_SCHEDULER_H

#include "cluster.h"

/* rescache.c: each node's resource scores for a few recent pod requests,
 * brought up to date from the cluster's res_log */
struct res_cache;
void res_cache_free(struct res_cache *rc);
/* shape.c: node-facing answers per recent pod spec (label_gen,
 * taint_gen, nnodes) */
struct shape_cache;
void shape_cache_free(struct shape_cache *sc);
/* plugins/podtopologyspread.c: PodTopologySpread's counters per value,
 * all zero between uses */
struct spread_scratch;
void spread_scratch_free(struct spread_scratch *x);
/* cycle.h: a cycle's arrays over the feasible nodes */
struct sched_work;
void sched_work_free(struct sched_work *w);
/* plugins/interpodaffinity.c: the cluster's term classes by namespace
 * (up to nterms) */
struct term_ns_index;
void term_ns_index_free(struct term_ns_index *x);

struct scheduler {
	struct cluster *c;                     /* borrowed */
	/* each made on first use */
	struct res_cache *res_cache;
	struct shape_cache *shape_cache;
	struct spread_scratch *spread_scratch;
	struct sched_work *work;
	struct term_ns_index *term_ns;
};

/* A scheduler for c (which must outlive it); NULL on OOM. */
struct scheduler *scheduler_new(struct cluster *c);
void scheduler_free(struct scheduler *s);

#endif
