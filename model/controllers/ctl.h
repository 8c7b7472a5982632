/* ctl.h - the controllers that move pods after scheduling (contract
 * shared/spec/controllers.md): the ReplicaSet's scale-down ranking
 * (kube-controller-manager controller_utils.go ActivePodsWithRanks), the
 * StatefulSet's ordinals, the Deployment's proportional scaling and
 * rolling passes (sync.go, rolling.go), and the descheduler v0.36.0's
 * RemovePodsViolatingTopologySpreadConstraint. The steps `scale`,
 * `rollout` and `deschedule` (model/steps/) run them through a `struct
 * ctl_run`, which records every pod created and deleted as a sub-step,
 * for explain and for undo and redo. */
#ifndef SKEWER_CTL_H
#define SKEWER_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include "../steps/step.h"

/* The most replicas a controller step works with (each may be a pod to
 * create and schedule). */
#define CTL_MAX_REPLICAS 100000

/* ---- the rankings (rank.c), pure functions of the pods ---- */

/* The pod's phase as the controllers read it: as written, else Running
 * when bound and Pending when not (contract: a bound input pod without
 * a phase is Running and Ready since its creation). */
enum pod_phase ctl_phase(const struct pod *p);
/* podutil.IsPodReady */
bool ctl_ready(const struct pod *p);
/* controller_utils.go podReadyTime: INT64_MAX when zero */
int64_t ctl_ready_time(const struct pod *p);
/* controller.IsPodActive (Succeeded and Failed pods are never loaded) */
bool ctl_active(const struct pod *p);
/* controller_utils.go logarithmicRankDiff's rank of one time: Go's
 * int64(math.Log2(float64(now - t))) in nanoseconds, -1 when t is not
 * before now. Times are unix seconds. */
int64_t ctl_logrank(int64_t now, int64_t t);
/* ActivePodsWithRanks.Less(a, b) with ranks ra, rb at now (the feature
 * gates of v1.37 on: PodDeletionCost, LogarithmicScaleDown). */
bool ctl_rs_less(const struct intern *in, const struct pod *a, int32_t ra, const struct pod *b,
		 int32_t rb, int64_t now);
/* Sorts ids (pods of c) with their ranks by ctl_rs_less: insertion sort
 * for 12 or fewer (what Go's sort.Sort does), a stable merge sort
 * otherwise. 0 on OOM. */
int ctl_rs_sort(const struct cluster *c, uint32_t *ids, int32_t *ranks, uint32_t n);

/* ---- the Deployment's arithmetic (deploy.c) ---- */

/* deployment_util.go ResolveFenceposts: *surge, *unavailable for
 * replicas r (intstr GetScaledValueFromIntOrPercent; unset = 25%). */
void ctl_fenceposts(const struct int_or_pct *max_surge, const struct int_or_pct *max_unavailable,
		    int32_t r, int32_t *surge, int32_t *unavailable);
/* deployment_util.go NewRSNewReplicas (RollingUpdate): the new
 * ReplicaSet's size given the sum of every set's replicas. */
int32_t ctl_new_rs_replicas(int32_t r, int32_t surge, int32_t all_replicas, int32_t new_replicas);
/* rolling.go reconcileOldReplicaSets' maxScaledDown and
 * scaleDownOldReplicaSetsForRollingUpdate's count: how many old
 * replicas may go this pass (<= 0: none). */
int32_t ctl_max_scaled_down(int32_t all_replicas, int32_t r, int32_t unavailable, int32_t new_replicas,
			    int32_t new_available);

/* ---- a controller step's run: sub-steps, undo, redo (run.c) ---- */

enum ctl_sub_kind { CTL_CREATE, CTL_DELETE };

struct ctl_sub {
	uint8_t kind;           /* enum ctl_sub_kind */
	bool evicted;           /* deleted by the descheduler */
	uint32_t pod;
	int32_t node;           /* create: bound to (-1 pending); delete: was on */
	uint32_t pos;           /* delete: its position on that node */
	int32_t workload;       /* the owner that acted, -1 none */
	struct step_result r;   /* create: the scheduling outcome */
	struct step_undo u;     /* create: its preemption */
	/* its changes to the domain table's counts: deltas[d0 .. d0+nd) */
	uint32_t d0, nd;
};

/* A change to one domain's count (the view's table of sub-steps). */
struct ctl_dom_delta {
	uint32_t dom;
	int32_t by;
};

struct ctl_wl_state {
	int32_t replicas;
	uint32_t made;
};

struct ctl_run {
	struct ctl_sub *subs;
	uint32_t nsubs, cap;
	bool recorded;          /* applied once: apply again replays */
	/* the workloads before and after (replicas, pods made) */
	struct ctl_wl_state *before, *after;
	uint32_t nbefore, nafter;
	/* the workloads the step added (a rollout's new ReplicaSet), kept
	 * here while undone */
	struct workload *added;
	uint32_t nadded;
	/* a rollout's Deployment and the template not in force */
	int32_t tpl_wl;
	struct pod *tpl_other;
	/* what the step says of itself (explain), malloc'd */
	char *summary;
	/* the owners without a template or a kind that makes pods: the
	 * evicted pods that got no replacement */
	uint32_t unreplaced;
	/* the domain table (ctl_summarize): the first constraint of the
	 * template it was given, its key and selector (malloc'd text),
	 * its domains (the live nodes' values, in node order) with the
	 * counts before the run; each sub-step's changes are its deltas.
	 * ndoms 0: no table (no constraint). */
	sym_t dom_key, dom_ns;
	char *dom_sel;
	uint32_t ndoms;
	sym_t *dom_vals;
	int64_t *dom_before;
	struct ctl_dom_delta *deltas;
	uint32_t ndeltas;
};

/* The run of step x (its record, made on first use). NULL on OOM. */
struct ctl_run *ctl_run_of(struct step_ctx *x);
/* Starts a run: the workloads' state before. 1, 0 on OOM. */
int ctl_begin(struct step_ctx *x, struct ctl_run *k);
/* Ends a run: the state after, the result (applied), nsub. 1, 0 on OOM. */
int ctl_end(struct step_ctx *x, struct ctl_run *k);
/* Replays a recorded run (redo). */
void ctl_replay(struct step_ctx *x, struct ctl_run *k);
/* Undoes it. */
void ctl_undo(struct step_ctx *x);
/* Frees the record's contents (the step kinds' forget). */
void ctl_forget(struct step_undo *u);

/* The 1-based index of step i as explain numbers steps, sub-steps
 * included: i + 1 plus the sub-steps of the steps before. */
uint32_t ctl_flat_index(const struct timeline *t, uint32_t i);

/* The skew a template's first constraint sees among ns's live bound
 * pods: max - min over the domains of the live nodes with its topology
 * key (*key set); -1 when the template has no constraint. */
int64_t ctl_skew(struct cluster *c, sym_t ns, const struct pod *tpl, sym_t *key);
/* k->summary: what the step did ("3 deleted, 1 created") and the skew
 * before and after ("; zone skew 0 -> 2 after scale-down", after_what
 * naming the step), skew_before from ctl_skew before the run (-1:
 * none); and the domain table of tpl's first constraint. 1, 0 on OOM. */
int ctl_summarize(struct cluster *c, struct ctl_run *k, const char *what, const char *after_what, sym_t ns,
		  const struct pod *tpl, int64_t skew_before);
/* Adds sub-step sub's changes to the domain counts cnt (k->ndoms). */
void ctl_dom_apply(const struct ctl_run *k, uint32_t sub, int64_t *cnt);
/* max - min of the domain counts cnt (-1: no domain). */
int64_t ctl_dom_skew(const struct ctl_run *k, const int64_t *cnt);

/* Deletes pod (a controller's deletion, or an eviction) as a sub-step. */
int ctl_delete(struct step_ctx *x, struct ctl_run *k, uint32_t pod, int32_t workload, bool evicted);
/* Creates pod p (taken over) for workload w and schedules it, a
 * sub-step: its UID, times and readiness from the sub-step's index.
 * Returns the pod id, -1 when it could not be created (invalid: the
 * sub-step records why), -2 on OOM. */
int64_t ctl_create(struct step_ctx *x, struct ctl_run *k, struct pod *p, int32_t workload);

/* ---- workloads (workload.c) ---- */

/* The workload of kind k named ns/name, -1 when none. */
int32_t ctl_find_workload(const struct cluster *c, enum workload_kind k, sym_t ns, sym_t name);
/* Whether pod p's controller ownerReference names workload w. */
bool ctl_owned_by(const struct cluster *c, const struct pod *p, const struct workload *w);
/* Whether workload r's controller is workload d. */
bool ctl_wl_owned_by(const struct workload *r, const struct workload *d);
/* The active pods w owns, in pod order, into *out (malloc'd). -1 OOM. */
int64_t ctl_pods_of(const struct cluster *c, const struct workload *w, uint32_t **out);
/* The hash skewer gives a template: FNV-32a over a canonical form of
 * what it holds (the pod-template-hash label left out), written in the
 * alphabet of rand.SafeEncodeString. */
sym_t ctl_template_hash(struct cluster *c, const struct pod *tpl);
/* Whether two templates are equal but for pod-template-hash
 * (deployment_util.go EqualIgnoreHash). */
bool ctl_template_equal(struct cluster *c, const struct pod *a, const struct pod *b);
/* A new pod from workload wi's template: its name, labels and owner.
 * 1, 0 on OOM (or no template: *p zeroed, name SYM_NONE). */
int ctl_pod_from_template(struct cluster *c, uint32_t wi, sym_t name, struct pod *p);
/* The ReplicaSet controller (replica_set.go manageReplicas) on set wi:
 * creates or deletes pods until it has its replicas. 1, 0 on OOM. */
int ctl_rs_sync(struct step_ctx *x, struct ctl_run *k, uint32_t wi);
/* The StatefulSet controller (stateful_set_control.go updateStatefulSet)
 * on set wi, pods Ready at once. 1, 0 on OOM. */
int ctl_sts_sync(struct step_ctx *x, struct ctl_run *k, uint32_t wi);
/* Creates the replacement of an evicted pod owned by w (a ReplicaSet: a
 * new RSNAME-K; a StatefulSet: the same name). 1 done, 2 none made (no
 * such owner or template), 0 on OOM. */
int ctl_replace(struct step_ctx *x, struct ctl_run *k, sym_t ns, sym_t name, const struct pod *evicted);

/* ---- Deployment (deploy.c) ---- */

/* sync.go scale: the Deployment di at replicas r. 1, 0 on OOM. */
int ctl_deploy_scale(struct step_ctx *x, struct ctl_run *k, uint32_t di, int32_t r);
/* rolling.go rolloutRolling, pass after pass until nothing changes.
 * 1, 0 on OOM. */
int ctl_deploy_rollout(struct step_ctx *x, struct ctl_run *k, uint32_t di);

/* ---- steps the view makes (scale.c, rollout.c, deschedule.c) ---- */

/* A scale step of workload k ns/name to replicas into *st (zeroed first).
 * 1, 0 on OOM. */
int ctl_step_scale(struct step *st, enum workload_kind k, sym_t ns, sym_t name, int64_t replicas);
/* A rollout of Deployment ns/name to template tpl (copied). 1, 0 on OOM. */
int ctl_step_rollout(struct step *st, sym_t ns, sym_t name, const struct pod *tpl);
/* A deschedule step with the defaults and recreate. 1, 0 on OOM. */
int ctl_step_deschedule(struct step *st, bool recreate);
/* The workload a what-if on pod p acts for: its ReplicaSet's Deployment
 * when it has one, else its ReplicaSet or StatefulSet; -1 none. */
int32_t ctl_workload_of(const struct cluster *c, const struct pod *p);

/* ---- the descheduler (desched.c) ---- */

struct desched_args {
	bool hard, soft;        /* constraints: DoNotSchedule, ScheduleAnyway */
	bool node_fit;          /* topologyBalanceNodeFit */
	bool recreate;
};
/* RemovePodsViolatingTopologySpreadConstraint once. 1, 0 on OOM. */
int ctl_deschedule(struct step_ctx *x, struct ctl_run *k, const struct desched_args *a);

#endif
