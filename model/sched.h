/* sched.h - one scheduling cycle (pkg/scheduler/schedule_one.go
 * schedulingCycle / schedulePod): PreFilter; the pod's nominated node
 * first; Filter on every node in input order, with the pods nominated to
 * a node counted there (the first failure decides, every one is recorded
 * in a full decision); PreScore/Score/NormalizeScore with weights; host
 * selection (ties to the first node in input order); and when no node
 * fits, DefaultPreemption's PostFilter (preempt.h). */
#ifndef SKEWER_SCHED_H
#define SKEWER_SCHED_H

#include "decision.h"
#include "scheduler.h"

/* Runs sch's cycle for pod id (alive, unbound) against the current state
 * of its cluster and fills *d (zeroed by the caller, who may set d->lean; decision_fini frees
 * it). Does not bind and deletes nothing: a pending decision says what
 * preemption would do (d->pre, d->event), which the timeline applies.
 * Validation is not done here (see validate.h). Returns 1, 0 on OOM. */
int sched_decide(struct scheduler *sch, uint32_t pod, struct decision *d);
/* Raises glibc's mmap and trim thresholds for this process, so that the
 * node-sized arrays a cycle frees are not given back and faulted in anew
 * at every cycle (a program that steps many cycles calls it once, first;
 * nothing else in skewer changes process-wide settings). */
void sched_tune_memory(void);
/* Before the sched_warm calls: allocates and writes the arrays sch's
 * cycles keep from one to the next (the resource scores kept per
 * request), so that no cycle pays for fresh pages. 0 on OOM. */
int sched_warm_begin(struct scheduler *sch);
/* Makes ahead what a cycle of sch for p (admitted and valid, not yet in
 * the cluster) would make on its first use: in the cluster, the matchers
 * of its spreading constraints and pod affinity terms with their sums
 * per domain; in sch, the node-facing answers of its spec (its shape)
 * and the resource scores of its requests on every node. All of it is
 * kept the way cycles keep it (checked against the cluster's changes
 * when read), so this changes no outcome; it moves the work of a
 * workload's first pod to the loading of the scenario. Returns 0 on
 * OOM. */
int sched_warm(struct scheduler *sch, const struct pod *p);

/* For the tests that compare lean decisions with full ones: the filter
 * and scoring loops with vector instructions (AVX2, where the processor
 * has it) on or off (on by default), and the lean cycles of this process
 * they have scored. The decisions are the same either way. */
void sched_set_vector(bool on);
uint64_t sched_vector_scored(void);
/* For the same tests: full decisions score through the lean cycle's
 * batched passes (score.c) instead of the plain loop over the plugin
 * table (off by default); the records are the same either way. */
void sched_set_batched(bool on);

/* Builds the "0/N nodes are available: ..." text of a decision with no
 * feasible node (malloc'd). */
char *sched_fit_message(const struct cluster *c, const struct decision *d);

#endif
