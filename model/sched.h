/* sched.h - one scheduling cycle (pkg/scheduler/schedule_one.go
 * schedulePod): PreFilter, Filter on every node in input order with the
 * first failure reported, PreScore/Score/NormalizeScore with weights, and
 * host selection (ties to the first node in input order). */
#ifndef SKEWER_SCHED_H
#define SKEWER_SCHED_H

#include "cluster.h"
#include "decision.h"

/* Runs the cycle for pod id (alive, unbound) against the current state and
 * fills *d (zeroed by the caller, who may set d->lean; decision_fini frees
 * it). Does not bind. Validation is not done here (see validate.h).
 * Returns 1, 0 on OOM. */
int sched_decide(struct cluster *c, uint32_t pod, struct decision *d);
/* Before the sched_warm calls: allocates and writes the arrays cycles
 * keep from one to the next (the resource scores kept per request), so
 * that no cycle pays for fresh pages. 0 on OOM. */
int sched_warm_begin(struct cluster *c);
/* Makes ahead what a cycle for p (admitted and valid, not yet in the
 * cluster) would make on its first use: the matchers of its spreading
 * constraints and pod affinity terms with their sums per domain, the
 * node-facing answers of its spec (its shape), and the resource scores
 * of its requests on every node. All of it is kept the way cycles keep
 * it (checked against the cluster's changes when read), so this changes
 * no outcome; it moves the work of a workload's first pod to the loading
 * of the scenario. Returns 0 on OOM. */
int sched_warm(struct cluster *c, const struct pod *p);

/* For the tests that compare lean decisions with full ones: the filter
 * and scoring loops with vector instructions (AVX2, where the processor
 * has it) on or off (on by default), and the lean cycles of this process
 * they have scored. The decisions are the same either way. */
void sched_set_vector(bool on);
uint64_t sched_vector_scored(void);

/* Runs PreFilter for pod over the cluster as it is now and every filter
 * on node alone (preemption's dry run, the nominated node): fills *r
 * (fail, blockers, why; reasons through decision_reason_of with d) and
 * *d (lean, without node records; decision_fini frees it). Returns 1
 * when the node fits, 0 when not, -1 on OOM. */
int sched_filter_one(struct cluster *c, uint32_t pod, uint32_t node, struct decision *d, struct node_rec *r);

/* A cycle's PreFilter state for pod over the cluster as it is (every
 * Filter plugin's), to filter single nodes: what the dry run of
 * preemption reuses while only node-local state changes. NULL on OOM. */
struct sched_probe;
struct sched_probe *sched_probe_new(struct cluster *c, uint32_t pod);
void sched_probe_free(struct sched_probe *pr);
/* Every filter on node (its resources as they are now); 1 fits, 0 not. */
int sched_probe_filter(struct sched_probe *pr, uint32_t node, struct node_rec *r);
/* The same with over, when not NULL, standing for the node: a copy with
 * other pods' requests (NodeResourcesFit reads them there). */
int sched_probe_filter_node(struct sched_probe *pr, uint32_t node, const struct node *over, struct node_rec *r);
/* The decision whose constraints the records' reasons refer to. */
const struct decision *sched_probe_decision(const struct sched_probe *pr);
/* What binding or unbinding pod other changes of the PreFilter state:
 * nothing (0: the probe stays exact), PodTopologySpread's counts
 * (PROBE_SPREAD: sched_probe_refresh brings them up to date), or more
 * (PROBE_OTHER: InterPodAffinity's required terms may see it; a new
 * probe is needed). */
enum { PROBE_SPREAD = 1, PROBE_OTHER = 2 };
int sched_probe_pod_effect(const struct sched_probe *pr, uint32_t other);
/* PodTopologySpread's PreFilter again over the counts as they are now
 * (upstream's PreFilterExtensions AddPod / RemovePod). 0 on OOM. */
int sched_probe_refresh(struct sched_probe *pr);
/* Keeps the spreading counts per domain in the probe from now on, for
 * sched_probe_move (call it before the pods move). 0 on OOM. */
int sched_probe_track(struct sched_probe *pr);
/* The same for pod other just bound on node (delta 1) or unbound from it
 * (-1): O(1) unless a spreading minimum moves. 0 on OOM. */
int sched_probe_move(struct sched_probe *pr, uint32_t node, uint32_t other, int delta);

/* sched_filter_one as framework/runtime/framework.go
 * RunFilterPluginsWithNominatedPods runs it: first with the pods
 * nominated to node (other than pod, of at least its priority) bound
 * there for the moment, and when that passes, again without them. */
int sched_filter_nominated(struct cluster *c, uint32_t pod, uint32_t node, struct decision *d,
			   struct node_rec *r);

/* Builds the "0/N nodes are available: ..." text of a decision with no
 * feasible node (malloc'd). */
char *sched_fit_message(const struct cluster *c, const struct decision *d);
struct reason_hist;
/* Adds the reasons of plugin pl's failure on r (NodeResourcesFit's each
 * on its own) to h. 0 on OOM. */
int sched_hist_add_reasons(const struct cluster *c, const struct decision *d, const struct node_rec *r,
			   enum plugin_id pl, struct reason_hist *h);

#endif
