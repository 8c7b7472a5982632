/* preempt.h - DefaultPreemption's PostFilter (debugging contract v2
 * section 2) over a full decision in which no node is feasible. */
#ifndef SKEWER_PREEMPT_H
#define SKEWER_PREEMPT_H

#include "decision.h"
#include "scheduler.h"

/* Fills d->pre for pod (pending, d its full decision with no feasible
 * node): eligibility, the dry run on every node whose status is
 * Unschedulable (the cluster is changed and put back exactly), the
 * candidate picked and upstream's PostFilter message. Deletes nothing.
 * Returns 1, 0 on OOM. */
int preempt_run(struct scheduler *sch, uint32_t pod, struct decision *d);

/* d->condition: d->message and the PostFilter message as the pod's
 * PodScheduled condition holds them (framework/types.go FitError.Error),
 * and d->event, the same as the FailedScheduling event shows it
 * (truncated as schedule_one.go truncateMessage does). 0 on OOM. */
int preempt_event(struct decision *d);

#endif
