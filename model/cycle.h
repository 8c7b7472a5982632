/* cycle.h - what a scheduling cycle (sched.c) shares with its fast paths
 * (lean.c, lean_avx2.c) and its scoring (score.c): the arrays a cycle
 * works in and the small helpers their loops inline. Internal to model/:
 * the public entry is sched.h. */
#ifndef SKEWER_CYCLE_H
#define SKEWER_CYCLE_H

#include <stddef.h>
#include <string.h>

#include "plugins.h"

static inline struct node_rec *init_rec(struct node_rec *r, uint32_t id)
{
	/* raw[] is written before it is read (scored[] says which) */
	memset(r, 0, offsetof(struct node_rec, raw));
	r->node = id;
	r->fail = PL_NONE;
	return r;
}

/* Per-cycle arrays over the feasible nodes, by their position i; kept in
 * the scheduler from one cycle to the next (no allocation per cycle). */
struct sched_work {
	uint32_t cap;
	uint32_t *ids;            /* node id */
	uint32_t *rix;            /* index of its rec (full decisions) */
	int16_t *la, *ba;         /* NodeResourcesFit, NodeResourcesBalancedAllocation */
	int64_t *lb;              /* the two weighted and added */
	int64_t *pts, *ipa;       /* raw PodTopologySpread, InterPodAffinity */
	uint32_t *host;           /* PodTopologySpread hostname count (full) */
	uint8_t *ipa_fail;        /* InterPodAffinity filter, by node id */
	/* by node id, for the vector scoring (score_lean_avx2) */
	int32_t *vpts, *vtot;     /* raw PodTopologySpread, totals */
	int64_t *vipa;            /* raw InterPodAffinity */
};

/* noderesources/fit.go fitsRequest for a pod requesting only cpu and
 * memory, over a node's free amounts computed without overflow (fl has
 * NF_EXACT): room for a pod, and each request within what is free (a
 * request of 0 always is: INT64_MIN from want_of). */
static inline int64_t want_of(int64_t request)
{
	return request > 0 ? request : INT64_MIN;
}

static inline bool fits_free(const struct cluster *c, uint8_t fl, uint32_t id, int64_t want_cpu, int64_t want_mem)
{
	/* no branch: the answers alternate from node to node */
	return ((fl & NF_ROOM) != 0) & (want_cpu <= c->free_cpu[id]) & (want_mem <= c->free_mem[id]);
}

/* The first failure in plugin order (framework.go RunFilterPlugins;
 * shape.c answers the four node-facing filters, before NodeResourcesFit)
 * from every plugin's answer, without branches: st is the shape's
 * answer (failing plugin + 1, or 0). */
static inline int8_t first_failure(int st, bool fits, bool spread, bool ipa_fails)
{
	int8_t v = ipa_fails ? PL_INTER_POD_AFFINITY : PL_NONE;
	v = spread ? v : PL_POD_TOPOLOGY_SPREAD;
	v = fits ? v : PL_NODE_RESOURCES_FIT;
	return st ? (int8_t)(st - 1) : v;
}

/* lean.c: a lean decision's verdicts, the fast paths of the plain loop
 * over the plugin table (framework.c) that full decisions run; the
 * feasible node ids into wk->ids, their numbers into d. */
void lean_filter(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
		 const struct node_shape *shape, struct spread_state *ss, struct ipa_state *is, struct sched_work *wk);
/* The fast paths answer every plugin of the table that filters or
 * scores: false when a plugin was added to the table and not to them (a
 * lean decision is then made in full). */
bool lean_covers_table(void);
/* The vector loops are to run: on (sched_set_vector) and the processor
 * has AVX2; lean_vector_count counts a cycle they scored. */
bool lean_vector_ok(void);
void lean_vector_count(void);

/* score.c: PreScore, Score, NormalizeScore and selectHost over the
 * feasible nodes (wk->ids); d->chosen. 0 on OOM. */
int score_and_select(struct scheduler *sch, const struct pod *p, struct decision *d, struct node_shape *shape,
		     struct spread_state *ss, struct ipa_state *is, struct sched_work *wk);

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2 1
/* lean_avx2.c: the processor has AVX2 */
bool avx2_ok(void);
/* filter_lean_n for eight node ids at a time */
uint32_t filter_lean_avx2(struct cluster *c, const struct pod *p, struct decision *d, const uint8_t *stat,
			  const struct spread_hard_tbl *ht, uint32_t nht, const uint8_t *ipa_fail, bool ipa,
			  uint32_t *ids);
#endif

#endif
