/* probe.h - one pod's PreFilter state, to filter single nodes while pods
 * move on one of them: upstream's copy of a NodeInfo and Clone of the
 * CycleState with PreFilterExtensions AddPod / RemovePod, as
 * framework/runtime/framework.go RunFilterPluginsWithNominatedPods and
 * preemption's SelectVictimsOnNode use them. */
#ifndef SKEWER_PROBE_H
#define SKEWER_PROBE_H

#include "decision.h"
#include "scheduler.h"

struct probe;

/* PreFilter for pod over sch's cluster as it is now (with sch's kept
 * answers). NULL on OOM. */
struct probe *probe_new(struct scheduler *sch, uint32_t pod);
/* Puts back what probe_node changed, and frees. */
void probe_free(struct probe *pr);

/* Starts on node: a copy of its requests and of the PreFilter state
 * (the node the probe was on is put back first). 0 on OOM. */
int probe_node(struct probe *pr, uint32_t node);
/* Pod q taken off the node (delta -1: RemovePod) or put on it (1:
 * AddPod): its requests on the copy, PodTopologySpread's counts as
 * upstream's updateWithPod moves them; a pod InterPodAffinity's required
 * terms can see is moved in the cluster itself (until probe_done) and
 * that plugin's state made anew. 0 on OOM. */
int probe_move(struct probe *pr, uint32_t q, int delta);
/* Every filter on the node as it now is: 1 fits, 0 not (r says why,
 * with probe_decision's constraints), -1 on OOM. */
int probe_filter(struct probe *pr, struct node_rec *r);
/* RunFilterPluginsWithNominatedPods: the pods nominated to the node
 * (pending, not the probe's pod, of at least its priority) added for a
 * first pass, and when that passes, the node without them. */
int probe_filter_nominated(struct probe *pr, struct node_rec *r);
/* Puts the node, the cluster and the PreFilter state back as they were
 * at probe_node. 0 on OOM. */
int probe_done(struct probe *pr);

/* The decision (lean, no node records) whose constraints and extended
 * resources the records' reasons refer to. */
const struct decision *probe_decision(const struct probe *pr);

#endif
