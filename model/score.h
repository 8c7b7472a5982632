/* score.h - what the scalar scoring (score.c) shares with the vector one
 * (lean_avx2.c). Internal to model/. */
#ifndef SKEWER_SCORE_H
#define SKEWER_SCORE_H

#include "cycle.h"

/* What the score plugins found: which ran, their raw scores' ranges. */
struct scores {
	bool tt, na, fit, ba, pts, ipa;
	const int64_t *tt_raw, *na_raw;
	int64_t tt_min, tt_max, na_min, na_max, pts_min, pts_max, ipa_min, ipa_max;
};

enum norm_kind { NORM_TT, NORM_NA, NORM_PTS, NORM_IPA };

/* The normalized score of every raw value in [lo, lo + n), times the
 * plugin's weight: a cycle's raw scores span a small range, so each
 * division is made once per value rather than once per node. */
#define NORM_TAB 1024
struct norm_tab {
	bool on;
	int64_t lo;
	int64_t v[NORM_TAB];
};

/* PodTopologySpread's raw score as a table, when a node's soft terms
 * depend on two small numbers only: the value index of at most one key
 * with a few values (the row; the other keys have one value, carried by
 * every node, or none) and the node's count for at most one hostname
 * term (the column; RT_K: the node lacks the hostname key). Each entry is
 * computed with the additions of scoring.go Score in constraint order,
 * the same as raw_pass_n makes them per node, so the table holds the same
 * numbers; a node with a count of RT_K or more is computed apart. */
#define RT_K 16
#define RT_ROWS 16
struct rtab {
	const int32_t *kv, *kh;     /* the row's key, the hostname term's key */
	const uint32_t *pn;         /* the hostname term's counts */
	int32_t vary;               /* the row's term, -1 */
	uint32_t rows;
	int64_t v[RT_ROWS][RT_K + 1];
};

/* The terms t[0..ns) added for a node whose varying key has value index
 * vi and whose hostname count is cnt (host false: it lacks the key). */
static inline double soft_sum(const struct soft_term *t, uint32_t ns, int32_t vary, int32_t vi, bool host, uint32_t cnt)
{
	double a = 0;
	for (uint32_t k = 0; k < ns; k++) {
		if (t[k].con)
			a += t[k].con[(int32_t)k == vary ? vi : t[k].nvals ? 0 : -1];
		else if (host)
			a += (double)cnt * t[k].w + t[k].off;
	}
	return a;
}

bool rtab_build(struct rtab *rt, const struct soft_term *t, uint32_t ns);

/* PodTopologySpread's raw score of node id from the table */
static inline int64_t rt_score(const struct rtab *rt, const struct soft_term *t, uint32_t ns, uint32_t id)
{
	uint32_t row = rt->kv ? (uint32_t)(rt->kv[id] + 1) : 0;
	uint32_t cnt = rt->pn ? rt->pn[id] : 0;
	bool has = rt->kh && rt->kh[id] >= 0;
	if (__builtin_expect(has && cnt >= RT_K, 0))
		return go_round(soft_sum(t, ns, rt->vary, (int32_t)row - 1, true, cnt));
	return rt->v[row][has ? cnt : RT_K];
}

/* The normalization tables of the plugins that score; true when each has
 * its table. */
bool tabs_build(struct norm_tab *tab, const struct scores *s, uint32_t nf, const int32_t *w);

#ifdef HAVE_AVX2
/* A lean cycle's scores with AVX2 (lean_avx2.c): 1 done, 0 when the
 * scalar passes must do it, -1 on OOM. */
int score_lean_avx2(struct cluster *c, struct decision *d, struct sched_work *wk, struct scores *s,
		    const struct node_shape *shape, const struct ipa_state *is, const struct res_score *rv,
		    const struct soft_term *t, uint32_t ns, const uint8_t *ign);
#endif

#endif
