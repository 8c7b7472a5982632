/* decision.h - the record of one scheduling cycle, as data. Everything the
 * explain output and the interface show comes from here; nothing is
 * recomputed by a view. Strings that depend on numbers (reasons, the
 * arithmetic of a rejection) are formatted on demand by decision_*. */
#ifndef SKEWER_DECISION_H
#define SKEWER_DECISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "objects.h"

struct cluster;

/* Why a node does not count for a constraint (PreFilter / PreScore). */
enum inelig {
	INELIG_NONE = 0,
	INELIG_MISSING_KEY,       /* lacks this constraint's key */
	INELIG_MISSING_OTHER_KEY, /* lacks another hard constraint's key */
	INELIG_AFFINITY,          /* nodeAffinityPolicy Honor, pod's affinity/selector */
	INELIG_TAINT,             /* nodeTaintsPolicy Honor, untolerated taint */
	INELIG_NOT_FEASIBLE,      /* soft: domain has no feasible node (not seeded) */
};

struct domain_rec {
	sym_t value;
	uint32_t nnodes;          /* eligible nodes carrying the value */
	uint32_t nineligible;     /* nodes with the value that were not eligible */
	bool exists;              /* a real domain (eligible / seeded) */
	bool is_min;              /* holds the global minimum */
	uint8_t why;              /* enum inelig: when !exists, reason of the first such node */
	int64_t count;            /* matching pods (PreFilter / PreScore count) */
	int64_t skew;             /* hard: count + selfMatch - globalMin */
};

enum constraint_origin { ORIGIN_POD, ORIGIN_DEFAULT_SYSTEM, ORIGIN_DEFAULT_LIST };

struct constraint_rec {
	uint32_t pod_index;       /* position in the pod's (or default) list */
	bool hard;
	enum constraint_origin origin;
	int32_t max_skew;
	sym_t key;
	int32_t min_domains;      /* in effect (1 when unset) */
	bool affinity_honor;      /* nodeAffinityPolicy in effect */
	bool taints_honor;        /* nodeTaintsPolicy in effect */
	struct selector sel;      /* effective (after matchLabelKeys / default) */
	char *sel_str;            /* Kubernetes string form */
	bool self_match;
	bool empty_quirk;         /* v1.37: labelSelector {} counts no pods */
	struct domain_rec *doms;  /* existing domains first? no: sorted by value text */
	uint32_t ndoms;
	uint32_t nreal;           /* domains that exist (count for minDomains) */
	/* hard */
	int64_t raw_min;          /* min over existing domains, INT32_MAX if none */
	int64_t global_min;       /* used for skew: 0 when nreal < min_domains */
	bool min_forced_zero;
	sym_t min_value;          /* a domain holding raw_min (first by value) */
	/* soft */
	uint32_t size;            /* distinct seeded values / scored nodes */
	double weight;            /* ln(size + 2) */
	bool scored;              /* PreScore ran */
};

/* One node's verdict. */
enum fit_bits {
	FIT_TOO_MANY_PODS = 1u << 0,
	FIT_CPU = 1u << 1,
	FIT_MEM = 1u << 2,
	FIT_EPH = 1u << 3,
	/* extended resources: ext_bits */
};

enum ipa_fail { IPA_AFFINITY = 1, IPA_ANTI = 2, IPA_EXISTING_ANTI = 3 };

/* Kept small (5,000 of them per decision): scores as 16-bit normalized
 * values, the failure as indices the decision_* formatters expand. */
struct node_rec {
	uint32_t node;            /* node id */
	int8_t fail;              /* enum plugin_id; PL_NONE when feasible */
	int8_t nran;              /* filters that ran (passed + the failing one) */
	bool feasible;
	bool unresolvable;
	bool prefilter_cut;       /* NodeAffinity PreFilterResult excluded it */
	bool spread_ignored;      /* soft PTS: node lacks a soft key (score 0) */
	bool with_nominated;      /* failed with the pods nominated here counted
				   * (RunFilterPluginsWithNominatedPods) */
	/* scored[p] false when skipped (raw[p] and norm[p] are meaningful
	 * only when scored[p]) */
	bool scored[PL__COUNT];
	/* every filter that fails on the node, as bits 1 << plugin id (the
	 * first is `fail`), and which of them are unresolvable; full
	 * decisions only (debugging contract v2 section 1) */
	uint16_t blockers, blockers_unres;
	/* detail of each failure, one member per plugin (a node may fail
	 * several) */
	struct {
		struct { uint32_t taint; } taint;                 /* index in node taints */
		struct {
			uint32_t bits;
			uint64_t ext_bits;        /* ext: index in dec ext list */
			/* what the filter read: the node's pods, its free cpu,
			 * memory and ephemeral storage (the detail shows them
			 * after later steps changed the node) */
			uint32_t bound;
			int64_t free_cpu, free_mem, free_eph;
		} fit;
		struct {
			uint32_t cons;    /* index into dec->cons */
			int32_t dom;      /* index into its doms; -1 when missing */
		} spread;
		struct { uint8_t what; uint32_t term; } ipa;      /* enum ipa_fail */
		/* NodePorts: the pod's port; VolumeZone, VolumeRestrictions,
		 * NodeVolumeLimits: the pod volume (or the driver's index in
		 * the node's CSINode); VolumeBinding: its reasons (enum
		 * vb_reason bits) and the volume behind the first */
		struct { int16_t port; int32_t holder; } ports;
		struct { uint8_t reasons; int16_t vol; } vb;
		struct { int16_t vol; } vz;
		struct { int16_t vol; bool rwop; } vr;
		struct { int16_t drv; int64_t have, want, limit; } nvl;
	} why;
	int16_t norm[PL__COUNT];  /* normalized, 0..100 */
	uint32_t host_count;      /* soft PTS: matching pods on this node (hostname term) */
	int64_t total;
	int64_t raw[PL__COUNT];
};

enum outcome {
	OUT_SCHEDULED,
	OUT_PENDING,
	OUT_INVALID,
	OUT_ERROR,
	OUT_APPLIED,
};

/* DefaultPreemption's PostFilter (framework/preemption/preemption.go
 * Preempt), run when no node is feasible: what it decided per node and
 * overall (debugging contract v2 section 2). */
enum preempt_outcome {
	PRE_NONE = 0,             /* PostFilter did not run (a node was feasible) */
	PRE_DISABLED,             /* the profile turns it off (scheduler.preemption false) */
	PRE_NOT_ELIGIBLE,         /* PodEligibleToPreemptOthers said no (message says why) */
	PRE_NO_CANDIDATE,         /* dry run found no node */
	PRE_NOMINATED,            /* a node was chosen; victims deleted */
};

enum preempt_node_why {
	PN_NOT_HELPFUL,           /* UnschedulableAndUnresolvable: not dry-run */
	PN_NO_VICTIMS,            /* no pod of lower priority on the node */
	PN_STILL_UNFIT,           /* does not fit even without them (reason) */
	PN_CANDIDATE,             /* would fit with the victims gone */
	PN_NOT_TRIED,             /* the dry run stopped before this node */
};

/* Which of pickOneNodeForPreemption's criteria set the chosen candidate
 * apart from the next best (PICK_ONLY: it was the only candidate). */
enum preempt_pick {
	PICK_ONLY,
	PICK_PDB_VIOLATIONS,
	PICK_HIGHEST_PRIORITY,
	PICK_PRIORITY_SUM,
	PICK_VICTIM_COUNT,
	PICK_START_TIME,
	PICK_NODE_ORDER,
};

struct preempt_node {
	uint32_t node;            /* node id */
	enum preempt_node_why why;
	/* PN_STILL_UNFIT: the first failing filter and its reason text (the
	 * reasons of NodeResourcesFit joined by ", ") */
	int8_t fail;
	char *reason;
	/* PN_CANDIDATE: the victims (pod ids), most important first, and
	 * the criteria's values */
	uint32_t *victims;
	uint32_t nvictims;
	uint32_t pdb_violations;
	int32_t highest;          /* the highest victim priority */
	int64_t prio_sum;         /* sum of (priority + 2^31) */
	int64_t earliest;         /* earliest start among highest-priority victims
				   * (INT64_MAX: not started, "now") */
};

struct preemption {
	enum preempt_outcome outcome;
	char *message;            /* upstream's PostFilter status message, exact */
	int32_t nominated;        /* node id when outcome is PRE_NOMINATED */
	uint32_t *victims;        /* pod ids (deleted), upstream's order */
	uint32_t nvictims;
	struct preempt_node *nodes; /* every node in input order (PRE_NO_CANDIDATE / NOMINATED) */
	uint32_t nnodes;
	enum preempt_pick pick;
	bool nominated_first;     /* the cycle evaluated the pod's nominated node first */
};

/* A node's verdict in a lean decision (below): the failing filter's enum
 * plugin_id, PL_NONE when feasible, VERDICT_GONE for a removed node id. */
#define VERDICT_GONE ((int8_t)-2)

struct decision {
	/* Set by the caller before sched_decide: every node's verdict and
	 * total score (verdict[] by node id; totals[] by node id, written
	 * for the feasible ones only), the choice and the outcome, without
	 * the per-node records and the hostname domains; nodes is NULL
	 * then. A cycle whose live nodes are all filtered out (its message
	 * names every reason) and a NodeAffinity conflict are recorded in
	 * full, lean cleared; with no live node at all it stays lean (every
	 * verdict VERDICT_GONE). The detail of any step is recomputed on
	 * demand (timeline_explain). */
	bool lean;
	/* Set with lean by a caller that reads the verdicts only (the
	 * cluster autoscaler's simulation): a cycle whose nodes are all
	 * filtered out stays lean, pending, without message or PostFilter. */
	bool verdicts_only;
	int8_t *verdict;
	int64_t *totals;
	uint32_t pod;             /* pod id */
	enum outcome outcome;
	int32_t chosen;           /* node id, -1 when none */
	char *message;            /* pending / invalid / error text, else NULL */
	struct constraint_rec *cons; /* hard and soft, pod order */
	uint32_t ncons;
	struct node_rec *nodes;   /* every alive node, input order */
	uint32_t nnodes;
	uint32_t nfeasible;
	uint32_t nignored;        /* feasible, ignored by soft PodTopologySpread */
	uint32_t *tied;           /* node ids sharing the best total */
	uint32_t ntied;
	bool prefilter_conflict;  /* NodeAffinity: pod affinity terms conflict */
	/* another PreFilter rejected the pod (every node recorded with that
	 * plugin): its plugin id + 1 (0: none) and its status message */
	int8_t prefilter_reject;
	char *prefilter_msg;
	/* SchedulingGates' PreEnqueue kept the pod out: no cycle ran */
	bool gated;
	/* the claims the cycle bound or provisioned on the chosen node
	 * (VolumeBinding's Reserve and PreBind), NULL: none */
	char *volume_note;
	bool scored;              /* score plugins ran (>= 1 feasible node) */
	bool plugin_skipped[PL__COUNT]; /* PreScore Skip or weight 0 */
	sym_t *ext_names;         /* extended resources the pod requests (fit bits) */
	uint32_t next;
	/* full decisions: each node's domain index (into the constraint's
	 * doms, -1 without the key) for each hard constraint, by rec:
	 * spread_dom[rec * nhard + k] for the k-th hard constraint in
	 * d->cons order; NULL when the filter is skipped */
	int32_t *spread_dom;
	uint32_t nhard;
	/* no feasible node: DefaultPreemption's answer; `event` is the
	 * whole FailedScheduling event text (message + " " + the PostFilter
	 * message, truncated as upstream truncates events), else NULL */
	struct preemption pre;
	char *event;
	/* the same untruncated: the PodScheduled condition's message */
	char *condition;
};

void decision_fini(struct decision *d);
void preemption_fini(struct preemption *p);

/* Does constraint cons of the decision count pod p where it is bound?
 * (common.go countPodsMatchSelector: same namespace as the incoming pod,
 * not terminating, selector matches, and never under the {} quirk.) */
bool decision_counts_pod(const struct cluster *c, const struct decision *d, uint32_t cons,
			 const struct pod *p);

/* Does constraint cons of the decision count the pods bound to node (its
 * domain's count includes them)? Hard: the node carries every hard key
 * and passes the inclusion policies (nodeAffinityPolicy,
 * nodeTaintsPolicy); soft: its value is one the feasible nodes seeded,
 * and it passes the policies (a hostname term counts its own pods). A
 * pod counts when this and decision_counts_pod hold. Reads the node and
 * the pod as they are in the live cluster. */
bool decision_counts_node(const struct cluster *c, const struct decision *d, uint32_t cons,
			  uint32_t node);

/* The node_rec of node id, or NULL. */
const struct node_rec *decision_node(const struct decision *d, uint32_t node_id);

/* The exact upstream reason text of a filtered node (joined by ", " when
 * NodeResourcesFit gives several). Writes into buf; returns buf. */
const char *decision_reason(const struct cluster *c, const struct decision *d,
			    const struct node_rec *r, char *buf, size_t len);
/* The same for blocker pl of the node (a bit of r->blockers); "" when
 * the plugin does not fail there. */
const char *decision_reason_of(const struct cluster *c, const struct decision *d,
			       const struct node_rec *r, enum plugin_id pl, char *buf, size_t len);
/* decision_reason_of, whole however long (many extended resources),
 * malloc'd; NULL on OOM. */
char *decision_reason_dup(const struct cluster *c, const struct decision *d, const struct node_rec *r,
			  enum plugin_id pl);
/* decision_detail for blocker pl of the node. */
const char *decision_detail_of(const struct cluster *c, const struct decision *d,
			       const struct node_rec *r, enum plugin_id pl, char *buf, size_t len);

/* PodTopologySpread's verdict on node rec r for the k-th hard constraint
 * (debugging contract v2 section 1, the `spread` entries): computed for
 * every node of a full decision, even where an earlier filter failed. */
struct spread_verdict {
	uint32_t cons;            /* index into d->cons */
	bool has_domain;          /* the node carries the key */
	sym_t domain;
	int64_t match;            /* matching pods in the domain */
	int64_t self;             /* selfMatch: 0 or 1 */
	int64_t global_min;
	int64_t skew;
	bool ok;                  /* skew <= maxSkew (false without the key) */
};
/* Fills *v for hard constraint k (0 <= k < d->nhard) of rec r; returns
 * false when the decision has no such verdicts. */
bool decision_spread_verdict(const struct decision *d, const struct node_rec *r, uint32_t k,
			     struct spread_verdict *v);
/* The arithmetic or fact behind the verdict, e.g.
 * "zone=zoneA: 2 + 1 - 1 = 2 > maxSkew 1", "missing label zone",
 * "untolerated taint dedicated=infra:NoSchedule", "Insufficient cpu:
 * requests 500m, free 200m"; "" for feasible nodes. */
const char *decision_detail(const struct cluster *c, const struct decision *d,
			    const struct node_rec *r, char *buf, size_t len);
/* Soft spread terms of a feasible node:
 * "zone: 2 x ln(3+2) + 0 = 3.22; ... raw 3". */
const char *decision_spread_terms(const struct cluster *c, const struct decision *d,
				  const struct node_rec *r, char *buf, size_t len);

#endif
