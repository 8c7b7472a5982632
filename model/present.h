/* present.h - what every output reads off the model's records, shared by
 * the commands (cli/) and the view (tui/): the names of pods, nodes,
 * steps, outcomes and preemption records as the outputs write them, the
 * facts of a decision they all show, and a fix in words. Text goes into
 * an out_buf (util/out.h) unsanitised: the caller sanitises or escapes. */
#ifndef SKEWER_PRESENT_H
#define SKEWER_PRESENT_H

#include <stdbool.h>
#include <stdint.h>
#include "timeline.h"
#include "../util/out.h"

/* "ns/name" of a pod into b. With short_default, pods in "default" are
 * written as "name". */
void present_pod_name(struct out_buf *b, const struct cluster *c, sym_t ns, sym_t name,
		      bool short_default);
/* The pod a step made or targeted, as "ns/name" into b; false when the
 * step concerns no pod. */
bool present_step_pod(struct out_buf *b, const struct timeline *t, uint32_t i);
/* Short description of step i's action, e.g. "cordon node1",
 * "taint node1 dedicated=infra:NoSchedule" (step_describe). */
void present_step_what(struct out_buf *b, const struct timeline *t, uint32_t i);
/* Name of node id (borrowed), "" when out of range. */
const char *present_node_name(const struct cluster *c, int64_t id);
/* The name of the outcome in the JSON contract. */
const char *present_outcome_name(enum outcome o);
/* Names of the preemption records as the JSON writes them. */
const char *present_preempt_outcome_name(enum preempt_outcome o);
const char *present_preempt_node_name(enum preempt_node_why w);
const char *present_preempt_pick_name(enum preempt_pick p);
/* Where a constraint comes from: "from the pod", "system default",
 * "cluster default". */
const char *present_origin_name(enum constraint_origin o);

/* Whether d, filled by timeline_step for step s, holds a scheduling
 * cycle's verdict (constraints and nodes). */
bool present_decision_filled(const struct step *s, const struct decision *d);
/* The debugging contract's records (shared/spec/debugging.md 1-2): the
 * node's blockers as bits 1 << plugin id, in filter order when read
 * from bit 0 up: every failing filter, or the first one alone where the
 * decision recorded no more (0 for a feasible node). */
unsigned present_blockers(const struct node_rec *r);
/* Whether blocker p of the node is UnschedulableAndUnresolvable. */
bool present_blocker_unresolvable(const struct node_rec *r, enum plugin_id p);
/* Whether the step's cycle left the pod pending after PostFilter
 * (DefaultPreemption) ran: d->pre is what happened. */
bool present_postfilter_ran(const struct decision *d);
/* The FailedScheduling event of the step, NULL when the pod was not left
 * pending (scheduled, invalid, a failed step). */
const char *present_event(const struct decision *d);
/* The node the step's preemption nominated, -1 when none (also when
 * PostFilter did not run or nominated nobody). */
int32_t present_nominated(const struct decision *d);

/* A controller step's record (model/controllers/ctl.h), NULL for other
 * kinds or before it is applied. */
struct ctl_run;
const struct ctl_run *present_ctl_run(const struct timeline *t, uint32_t i);

/* A fix in words (model/fix.h): "maxSkew 1 -> 2 on the
 * topology.kubernetes.io/zone constraint", "uncordon node-c", ... */
struct fix_report;
struct fix;
void present_fix_summary(struct out_buf *b, const struct timeline *t, const struct fix_report *r,
			 const struct fix *f);
/* The fix as `expect: fixes`, `skewer fix` and the view's F write it:
 * "SUMMARY -> NODE" (no node for a nomination), then " (violates
 * NS/NAME)" when an earlier pod's hard constraint is then violated. */
void present_fix_line(struct out_buf *b, const struct timeline *t, const struct fix_report *r,
		      const struct fix *f);

#endif
