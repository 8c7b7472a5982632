/* plugins.h - what the plugins of model/plugins/ export beside their
 * table entry (plugin.h): the per-node functions their entries call and
 * the unit tests call, the PreFilter states, and what the fast paths
 * (shape.c, the resource score cache, lean.c, lean_avx2.c, score.c)
 * read of them. Internal to model/.
 *
 * Filters return 1 when the node passes; on failure they fill the
 * node_rec's `why` and `unresolvable` fields. */
#ifndef SKEWER_PLUGINS_H
#define SKEWER_PLUGINS_H

#include "cluster.h"
#include "decision.h"
#include "plugin.h"
#include "scheduler.h"

/* tainttoleration/taint_toleration.go, v1/toleration.go ToleratesTaint */
bool toleration_tolerates(const struct toleration *t, const struct taint *taint);
/* index of the first untolerated NoSchedule/NoExecute taint, -1 if none */
int32_t taint_first_untolerated(const struct node *n, const struct toleration *tols, uint32_t ntols);
/* Same, also reading the "" sym as an empty key (any key) / empty value;
 * prefer this one when the cluster is at hand. */
int32_t taint_first_untolerated_in(const struct cluster *c, const struct node *n,
				   const struct toleration *tols, uint32_t ntols);
/* Does one of tols tolerate taint (the "" sym read as any key / empty
 * value)? */
bool taint_tolerated(const struct cluster *c, const struct taint *taint, const struct toleration *tols,
		     uint32_t ntols);
int filter_node_unschedulable(const struct cluster *c, const struct pod *p, const struct node *n,
			      struct node_rec *r);
int filter_node_name(const struct cluster *c, const struct pod *p, const struct node *n,
		     struct node_rec *r);
int filter_taint_toleration(const struct cluster *c, const struct pod *p, const struct node *n,
			    struct node_rec *r);
int64_t score_taint_toleration(const struct cluster *c, const struct pod *p, const struct node *n);

/* nodeaffinity: nodeSelector AND required terms (ORed) */
bool ns_term_matches(const struct cluster *c, const struct ns_term *t, const struct node *n);
bool node_matches_pod_affinity(const struct cluster *c, const struct pod *p, const struct node *n);
/* The same answers for every node id at once, through the key index:
 * out[id] = term t matches live node id (0 for removed nodes). */
int ns_term_eval(struct cluster *c, const struct ns_term *t, uint8_t *out);
/* ok[id] = node_matches_pod_affinity for every node id. 0 on OOM. */
int node_affinity_eval(struct cluster *c, const struct pod *p, uint8_t *ok);
/* Does the pod have a nodeSelector or required node affinity at all? */
bool pod_has_required_node_affinity(const struct pod *p);
int filter_node_affinity(const struct cluster *c, const struct pod *p, const struct node *n,
			 struct node_rec *r);
/* PreFilter narrowing by matchFields metadata.name In. Returns 0 = no
 * narrowing, 1 = narrowed (allowed[node id] set), -1 = conflict. */
int prefilter_node_affinity(const struct cluster *c, const struct pod *p, bool *allowed);
int64_t score_node_affinity(const struct cluster *c, const struct pod *p, const struct node *n);
bool pod_has_preferred_node_affinity(const struct pod *p);

/* noderesources */
int filter_fit(const struct cluster *c, const struct pod *p, const struct node *n,
	       struct decision *d, struct node_rec *r);
int64_t score_least_allocated(const struct cluster *c, const struct pod *p, const struct node *n);
int64_t score_balanced_allocation(const struct cluster *c, const struct pod *p, const struct node *n);
bool pod_requests_cpu_or_mem(const struct pod *p);
/* balanced_allocation.go Score given wo, the node's score without the
 * pod (balanced_allocation_now, which the resource score cache keeps) */
int64_t balanced_allocation_with(const struct pod *p, const struct node *n, int64_t wo);
int64_t balanced_allocation_now(const struct node *n);
/* rescache.c: both resource scores of a node for one pod's requests
 * (they need no normalization). */
struct res_score {
	int16_t least, balanced;
};
/* The kept scores for p's requests by node id, brought up to date first
 * with the nodes whose resources changed since they were last read (the
 * cluster's res_log); valid until the next change of the cluster or the
 * next call. NULL on OOM. */
struct res_score *res_scores_for(struct scheduler *sch, const struct pod *p);
/* Allocates and writes every way of the cache for the present nodes
 * (sched_warm_begin). 0 on OOM. */
int res_cache_reserve(struct scheduler *sch);
/* Computes node id's scores for p into *e. */
void res_score_fill(struct cluster *c, const struct pod *p, uint32_t id, struct res_score *e);

/* interpodaffinity: term t of pod owner as a matcher term (its
 * namespaces: the owner's when none are named; *own_ns holds that one, so
 * it must outlive mt). Karpenter's affinity groups count with it too. */
void ipa_term_matcher(const struct pod *owner, const struct pod_affinity_term *t, struct matcher_term *mt,
		      sym_t *own_ns);
/* interpodaffinity: state per decision */
struct ipa_state;
struct ipa_state *ipa_prepare(struct scheduler *sch, const struct pod *p);
/* Creates the matchers ipa_prepare and ipa_prescore would ask for p's
 * own terms (sched_warm). 0 on OOM. */
int ipa_warm(struct cluster *c, const struct pod *p);
void ipa_free(struct ipa_state *s);
bool ipa_filter_skipped(const struct ipa_state *s);
int filter_inter_pod_affinity(const struct cluster *c, const struct pod *p, const struct node *n,
			      const struct ipa_state *s, struct node_rec *r);
/* The filter's verdict for every node id: fail[id] 1 when the node fails
 * (fail has room for every node id). */
void ipa_filter_mask(const struct cluster *c, const struct pod *p, const struct ipa_state *s, uint8_t *fail);
/* Returns false when PreScore skips (nothing recorded). */
bool ipa_prescore(struct cluster *c, const struct pod *p, struct ipa_state *s);
int64_t score_inter_pod_affinity(const struct cluster *c, const struct node *n, const struct ipa_state *s);
/* score_inter_pod_affinity of the nodes ids[0..nf) into raw[i] (by_id:
 * raw[ids[i]]), with the range of the values folded into *lo and *hi */
void ipa_score_all(const struct ipa_state *s, const uint32_t *ids, uint32_t nf, int64_t *raw, bool by_id,
		   int64_t *lo, int64_t *hi);
/* interpodaffinity/scoring.go NormalizeScore (min-max, float order kept)
 * over the feasible recs with scored[PL_INTER_POD_AFFINITY]. */
void ipa_normalize(struct decision *d);

/* shape.c: the answers that depend only on the pod's nodeName,
 * nodeSelector, node affinity and tolerations and on the nodes (names,
 * labels, taints, cordons), kept across cycles for recent pod specs. The
 * shape returned is valid until the next node_shape_get on sch. NULL on
 * OOM. */
struct node_shape;
struct node_shape *node_shape_get(struct scheduler *sch, const struct pod *p);
/* per node id: 0 when NodeUnschedulable, NodeName, TaintToleration and
 * NodeAffinity pass, else the first failing plugin id + 1 */
const uint8_t *node_shape_stat(const struct node_shape *s);
/* node_affinity_eval of the pod; NULL when it has no required affinity */
const uint8_t *node_shape_aff(const struct node_shape *s);
/* per node id: no untolerated NoSchedule / NoExecute taint */
const uint8_t *node_shape_taint_ok(const struct node_shape *s);
/* the index of node id's first untolerated taint, -1 when none */
int32_t node_shape_taint_ix(const struct node_shape *s, uint32_t id);
/* aff & taint_ok (taint_ok when no affinity); NULL on OOM */
const uint8_t *node_shape_both_ok(struct node_shape *s);
/* The live node ids where arr, one of the arrays above (aff, taint_ok,
 * both_ok), is 0, in id order, kept with the shape: *n of them. NULL for
 * another array or on OOM. PodTopologySpread's node inclusion policies
 * (common.go matchNodeInclusionPolicies) exclude exactly these nodes. */
const uint32_t *node_shape_zeros(struct cluster *c, struct node_shape *s, const uint8_t *arr, uint32_t *n);
/* TaintToleration and NodeAffinity raw scores per node id; NULL on OOM */
const int64_t *node_shape_tt_raw(struct cluster *c, const struct pod *p, struct node_shape *s);
const int64_t *node_shape_na_raw(struct cluster *c, const struct pod *p, struct node_shape *s);
/* The same in 16 bits, made with them (the vector scoring in sched.c
 * reads these: a quarter of the bytes); NULL before, or when a value
 * does not fit. */
const int16_t *node_shape_tt16(const struct node_shape *s);
const int16_t *node_shape_na16(const struct node_shape *s);

/* podtopologyspread: fills d->cons, filters, scores (plugins/podtopologyspread.c) */
struct spread_state;
/* shape: the pod's node-facing answers (node inclusion policies); it
 * must outlive the state. */
struct spread_state *spread_prepare(struct scheduler *sch, const struct pod *p, struct decision *d,
				    struct node_shape *shape);
void spread_free(struct spread_state *s);
/* Creates the matchers of p's constraints (the default ones when it has
 * none) and their sums per domain, as spread_prepare would (sched_warm).
 * 0 on OOM. */
int spread_warm(struct cluster *c, const struct pod *p);
bool spread_filter_skipped(const struct spread_state *s);
/* Keeps the counts per domain and the critical paths from now on, as
 * upstream's PreFilter state keeps them (before the first spread_move).
 * 0 on OOM. */
int spread_track(struct cluster *c, struct spread_state *s);
/* filtering.go updateWithPod: pod q of the preemptor p's namespace added
 * to (delta 1) or removed from (-1) node, as PreFilterExtensions AddPod /
 * RemovePod count it (terminating or not, with the selector as it is),
 * the critical paths updated as upstream updates them. 0 on OOM. */
int spread_move(struct cluster *c, struct spread_state *s, uint32_t node, const struct pod *p, const struct pod *q,
		int delta);
/* A point to come back to (upstream works on a Clone of the cycle state
 * and drops it): spread_rollback undoes every spread_move since
 * spread_mark, and frees the mark. 0 on OOM. */
struct crit_path {
	int32_t v;                    /* value index, -1 for none */
	int64_t num;
};
struct spread_saved {
	int64_t raw_min, global_min;
	struct crit_path paths[2];
};
struct spread_mark {
	uint32_t nlog, ngmin;
	struct spread_saved *saved;
};
int spread_mark(struct spread_state *s, struct spread_mark *m);
void spread_rollback(struct spread_state *s, struct spread_mark *m);
/* Bytes readable after the last value of a table (ok[nvals + 3] at
 * least): a vector gather reads four bytes from ok + kdom[id]. */
#define SPREAD_TBL_PAD 4
/* The hard constraints' answers as tables for the filter loop: a node
 * passes constraint k when ok[kdom[id]] (ok[-1], for a node without the
 * key, is 0); filter_spread gives the detail of a failure. Returns their
 * number. */
struct spread_hard_tbl {
	const int32_t *kdom;
	const uint8_t *ok;
	uint32_t nvals;           /* ok[-1 .. nvals) */
};
uint32_t spread_hard_tables(const struct spread_state *s, const struct spread_hard_tbl **tbl);
int filter_spread(uint32_t node_id, const struct spread_state *s, struct decision *d, struct node_rec *r);

/* helper/normalize_score.go DefaultNormalizeScore over the feasible recs */
void normalize_default(struct decision *d, enum plugin_id p, bool reverse);
/* The same for one raw score, given the maximum over the feasible nodes
 * (0 when none is positive). */
static inline int64_t normalize_default_one(int64_t raw, int64_t max, bool reverse)
{
	if (max == 0)
		/* all raw scores 0 (or negative): kept, or 100 reversed */
		return reverse ? 100 : raw;
	/* 100 * s cannot overflow for counts and weights in range */
	int64_t s = (raw > INT64_MAX / 100 || raw < INT64_MIN / 100) ? (raw / max) * 100 : 100 * raw / max;
	return reverse ? 100 - s : s;
}

/* interpodaffinity/scoring.go NormalizeScore for one raw score. */
static inline int64_t ipa_normalize_one(int64_t raw, int64_t min, int64_t max)
{
	double f = 0;
	/* unsigned differences: no overflow for extreme raw scores */
	if (max > min)
		f = 100.0 * ((double)((uint64_t)raw - (uint64_t)min) / (double)((uint64_t)max - (uint64_t)min));
	return (int64_t)f;
}

/* Soft PodTopologySpread: per node id, 0 for nodes whose score it ignores
 * (requireAllTopologies and a soft key missing); NULL when none is. The
 * filter loop marks feasible such recs spread_ignored. */
const uint8_t *spread_ignore_mask(const struct spread_state *s);
/* PodTopologySpread PreScore (scoring.go initPreScoreState) over the
 * feasible node ids ids[0..nf) (nignored of them ignored by the mask),
 * recording the soft constraints' domains (lean: not the hostname ones);
 * false when it skips. */
bool spread_prescore(struct cluster *c, struct spread_state *s, const uint32_t *ids, uint32_t nf,
		     uint32_t nignored, bool lean);
/* One soft constraint's term of scoring.go Score, for a loop over the
 * nodes: con[kd[id]] (con[-1] is 0) for a key with domains, else the
 * hostname term cnt * w + off with cnt = pn[id] (0 when pn is NULL),
 * for nodes with the key. */
struct soft_term {
	const int32_t *kd;
	const double *con;
	const uint32_t *pn;
	double w, off;
	uint32_t nvals;    /* values of the key */
	bool all_keyed;    /* every live node carries the key */
};
/* scoring.go Score of node id (after spread_prescore): 0 for a node
 * the mask ignores; *host set to the node's count for a hostname term. */
int64_t score_pod_topology_spread(const struct spread_state *s, uint32_t id, uint32_t *host);
/* scoring.go NormalizeScore over the feasible recs it scored (the
 * ignored ones 0) */
void spread_normalize(struct decision *d);
/* The soft constraints' terms (after spread_prescore) in constraint
 * order into t when their number, returned, is at most max. */
uint32_t spread_soft_terms(const struct spread_state *s, struct soft_term *t, uint32_t max);

/* math.Round (half away from zero) for the non-negative scores here,
 * without a libm call: x - trunc(x) is exact in binary floating point. */
static inline int64_t go_round(double x)
{
	if (!(x >= 0 && x < 9e18))
		return (int64_t)__builtin_round(x);
	int64_t i = (int64_t)x;
	/* no branch: the fractions vary from node to node */
	return i + (int64_t)(x - (double)i >= 0.5);
}

/* scoring.go NormalizeScore for one node, given min and max of the raw
 * scores of the feasible, not ignored nodes. */
static inline int64_t spread_normalize_one(bool ignored, int64_t raw, int64_t min, int64_t max)
{
	if (ignored)
		return 0;
	if (max == 0)
		return 100;
	return 100 * (max + min - raw) / max;
}
/* NodePorts: the first bound pod on n holding a host port p wants (its
 * id; *port the pod's port index), -1 when all are free. */
int32_t node_ports_holder(const struct cluster *c, const struct pod *p, const struct node *n, int32_t *port);
/* VolumeRestrictions: the first bound pod other than except naming
 * claim ns/claim, -1 when none. */
int32_t claim_used_by(const struct cluster *c, sym_t ns, sym_t claim, uint32_t except);
/* NodeVolumeLimits on n: 1 fits, 0 over a CSI driver's limit (*drv its
 * index in the node's CSINode, the counts), -1 on OOM. */
int node_volume_limits_fit(const struct cluster *c, const struct pod *p, const struct node *n, int16_t *drv,
			   int64_t *have, int64_t *want, int64_t *limit);
/* VolumeZone on n: 1 fits, 0 with the pod volume and topology key
 * (0..3: beta zone, beta region, zone, region) that failed. */
int volume_zone_fit(const struct cluster *c, const struct pod *p, const struct node *n, int16_t *vol, int *key);

#endif
