/* score.c - the lean cycle's acceleration of the plugin table's scoring
 * (framework.c prioritize_nodes: framework/runtime/framework.go
 * RunScorePlugins, schedule_one.go prioritizeNodes): PreScore, Score and
 * NormalizeScore of the six score plugins batched over the feasible
 * nodes, from kept or precomputed raw scores (shape.c, the resource score
 * cache), with tables for the normalization; lean_avx2.c is the vector
 * form of the same passes. Full decisions run it only for
 * tests/test_lean.c (sched_set_batched), which checks every node's
 * records against the plain loop's. */
#include <stdlib.h>

#include "score.h"

/* helper/normalize_score.go DefaultNormalizeScore (TaintToleration
 * reversed, NodeAffinity), podtopologyspread and interpodaffinity
 * NormalizeScore of one raw score (not ignored by PodTopologySpread). */
static int16_t norm_of(enum norm_kind k, int64_t raw, const struct scores *s)
{
	switch (k) {
	case NORM_TT:
		return (int16_t)normalize_default_one(raw, s->tt_max, true);
	case NORM_NA:
		return (int16_t)normalize_default_one(raw, s->na_max, false);
	case NORM_PTS:
		return (int16_t)spread_normalize_one(false, raw, s->pts_min, s->pts_max);
	default:
		return (int16_t)ipa_normalize_one(raw, s->ipa_min, s->ipa_max);
	}
}

static void norm_tab_build(struct norm_tab *t, enum norm_kind k, int64_t lo, int64_t hi, uint32_t nf,
			   const struct scores *s, int32_t weight)
{
	int64_t span;
	t->on = hi >= lo && !__builtin_sub_overflow(hi, lo, &span) && span < NORM_TAB && span < nf / 2;
	if (!t->on)
		return;
	t->lo = lo;
	for (int64_t i = 0; i <= span; i++)
		t->v[i] = (int64_t)norm_of(k, lo + i, s) * weight;
}

/* Each feasible rec's raw and normalized scores, as score_and_select
 * computed them (the normalized ones by formula, not from the tables the
 * totals used). */
static void fill_recs(struct decision *d, const struct sched_work *wk, const struct scores *s,
		      const uint8_t *ign)
{
	for (uint32_t i = 0; i < d->nfeasible; i++) {
		struct node_rec *r = &d->nodes[wk->rix[i]];
		uint32_t id = wk->ids[i];
		if (s->fit) {
			r->scored[PL_NODE_RESOURCES_FIT] = true;
			r->raw[PL_NODE_RESOURCES_FIT] = wk->la[i];
			r->norm[PL_NODE_RESOURCES_FIT] = wk->la[i];
		}
		if (s->ba) {
			r->scored[PL_BALANCED_ALLOCATION] = true;
			r->raw[PL_BALANCED_ALLOCATION] = wk->ba[i];
			r->norm[PL_BALANCED_ALLOCATION] = wk->ba[i];
		}
		if (s->tt) {
			r->scored[PL_TAINT_TOLERATION] = true;
			r->raw[PL_TAINT_TOLERATION] = s->tt_raw[id];
			r->norm[PL_TAINT_TOLERATION] = norm_of(NORM_TT, s->tt_raw[id], s);
		}
		if (s->na) {
			r->scored[PL_NODE_AFFINITY] = true;
			r->raw[PL_NODE_AFFINITY] = s->na_raw[id];
			r->norm[PL_NODE_AFFINITY] = norm_of(NORM_NA, s->na_raw[id], s);
		}
		if (s->pts) {
			/* ignored by PodTopologySpread: raw and normalized 0 */
			r->scored[PL_POD_TOPOLOGY_SPREAD] = true;
			r->raw[PL_POD_TOPOLOGY_SPREAD] = wk->pts[i];
			r->norm[PL_POD_TOPOLOGY_SPREAD] = ign && !ign[id] ? 0 : norm_of(NORM_PTS, wk->pts[i], s);
			r->host_count = wk->host[i];
		}
		if (s->ipa) {
			r->scored[PL_INTER_POD_AFFINITY] = true;
			r->raw[PL_INTER_POD_AFFINITY] = wk->ipa[i];
			r->norm[PL_INTER_POD_AFFINITY] = norm_of(NORM_IPA, wk->ipa[i], s);
		}
	}
}

/* The score plugins that run, as bits of a constant (totals_loop). */
enum { SC_FIT = 1, SC_BA = 2, SC_TT = 4, SC_NA = 8, SC_PTS = 16, SC_IPA = 32, SC_FIXED = 64 };

/* A plugin's normalized score times its weight: from its table, or
 * computed when the table is off. */
static inline __attribute__((always_inline)) int64_t
wnorm(const struct norm_tab *t, const int64_t *tv, int64_t tlo, enum norm_kind k, int64_t raw, const struct scores *s,
      int32_t weight, const bool tabs)
{
	if (tabs || t->on)
		return tv[raw - tlo];
	return (int64_t)norm_of(k, raw, s) * weight;
}

/* helper/normalize_score.go, interpodaffinity and podtopologyspread
 * NormalizeScore, then the weighted sum (framework.go RunScorePlugins)
 * of every feasible node, and the nodes sharing the best total into
 * d->tied (schedule_one.go selectHost). tabs: every plugin that scores
 * has its table. Returns the number of tied nodes. Everything the loop
 * reads is in locals: the int64 stores of the totals may alias any
 * int64 field. */
static inline __attribute__((always_inline)) uint32_t
totals_loop(const struct cluster *c, struct decision *d, const struct sched_work *wk, const struct scores *s,
	    const struct norm_tab *tab, const uint8_t *ign, const bool tabs, const int fixed)
{
	const int32_t *w = c->cfg.weights;
	/* fixed: the plugins that score, as constants (SC_* bits | SC_FIXED) */
	const bool fit = fixed ? (fixed & SC_FIT) : s->fit, ba = fixed ? (fixed & SC_BA) : s->ba,
		   tt = fixed ? (fixed & SC_TT) : s->tt, na = fixed ? (fixed & SC_NA) : s->na,
		   pts = fixed ? (fixed & SC_PTS) : s->pts, ipa = fixed ? (fixed & SC_IPA) : s->ipa;
	const int32_t wtt = w[PL_TAINT_TOLERATION], wna = w[PL_NODE_AFFINITY], wpts = w[PL_POD_TOPOLOGY_SPREAD],
		      wipa = w[PL_INTER_POD_AFFINITY];
	const int64_t *ttv = tab[NORM_TT].v, *nav = tab[NORM_NA].v, *ptsv = tab[NORM_PTS].v, *ipav = tab[NORM_IPA].v;
	const int64_t ttlo = tab[NORM_TT].lo, nalo = tab[NORM_NA].lo, ptslo = tab[NORM_PTS].lo,
		      ipalo = tab[NORM_IPA].lo;
	const int64_t *tt_raw = s->tt_raw, *na_raw = s->na_raw, *praw = wk->pts, *iraw = wk->ipa;
	const int64_t *lb = wk->lb;
	const uint32_t *ids = wk->ids, *rix = wk->rix;
	int64_t *totals = fixed || d->lean ? d->totals : NULL;
	struct node_rec *nodes = d->nodes;
	if (fixed)
		ign = NULL;
	uint32_t nf = d->nfeasible, ntied = 0, *tied = d->tied;
	int64_t best = INT64_MIN;
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t id = ids[i];
		/* both resource scores weighted and added (raw_pass) */
		int64_t total = fit || ba ? lb[i] : 0;
		if (tt)
			total += wnorm(&tab[NORM_TT], ttv, ttlo, NORM_TT, tt_raw[id], s, wtt, tabs);
		if (na)
			total += wnorm(&tab[NORM_NA], nav, nalo, NORM_NA, na_raw[id], s, wna, tabs);
		/* ignored by PodTopologySpread: 0 */
		if (pts && !(ign && !ign[id]))
			total += wnorm(&tab[NORM_PTS], ptsv, ptslo, NORM_PTS, praw[i], s, wpts, tabs);
		if (ipa)
			total += wnorm(&tab[NORM_IPA], ipav, ipalo, NORM_IPA, iraw[i], s, wipa, tabs);
		if (totals)
			totals[id] = total;
		else
			nodes[rix[i]].total = total;
		/* the best total so far and the nodes that have it, without
		 * branches (ties are common and come in no pattern): the id
		 * is written at the end of the list, which grows only for a
		 * node that ties or starts it anew */
		bool gt = total > best, eq = total == best;
		ntied = gt ? 0 : ntied;
		best = gt ? total : best;
		tied[ntied] = id;
		ntied += gt | eq;
	}
	return ntied;
}

/* Every raw score of NodeResourcesFit and BalancedAllocation (kept per
 * node for the pod's requests in rv; NULL on OOM), TaintToleration and
 * NodeAffinity (the shape's) and PodTopologySpread (the ns soft terms t)
 * over the feasible nodes, and their ranges. ns is a constant in the
 * copies for lean decisions; full adds what the records show (both
 * resource scores apart, the hostname counts). */
#define SOFT_FUSED 4
static inline __attribute__((always_inline)) void
raw_pass_n(struct cluster *c, const struct pod *p, struct sched_work *wk, uint32_t nf, struct scores *s,
	   struct res_score *rv, const struct soft_term *t, const uint32_t ns, const uint8_t *ign, const bool full)
{
	const uint32_t *ids = wk->ids;
	int64_t *lb = wk->lb, *praw = wk->pts;
	uint32_t *host = wk->host;
	/* what the totals read of the resource scores: both weighted */
	const int64_t wfit = s->fit ? c->cfg.weights[PL_NODE_RESOURCES_FIT] : 0,
		      wba = s->ba ? c->cfg.weights[PL_BALANCED_ALLOCATION] : 0;
	/* the resource scores without the kept ones (out of memory for
	 * them): computed node by node, apart from the pass */
	for (uint32_t i = 0; (s->fit || s->ba) && !rv && i < nf; i++) {
		struct res_score e;
		res_score_fill(c, p, ids[i], &e);
		lb[i] = e.least * wfit + e.balanced * wba;
		if (full) {
			wk->la[i] = e.least;
			wk->ba[i] = e.balanced;
		}
	}
	/* the first soft terms in locals (ns of them are used) */
#define SOFT_LOCALS(k)                                                                 \
	const int32_t *kd##k = ns > (k) ? t[k].kd : NULL;                              \
	const double *con##k = ns > (k) ? t[k].con : NULL;                             \
	const uint32_t *pn##k = ns > (k) ? t[k].pn : NULL;                             \
	const double w##k = ns > (k) ? t[k].w : 0, off##k = ns > (k) ? t[k].off : 0;
	SOFT_LOCALS(0)
	SOFT_LOCALS(1)
	SOFT_LOCALS(2)
	SOFT_LOCALS(3)
#undef SOFT_LOCALS
	/* the scores in one pass, with no value carried from node to node
	 * (the ranges below): this loop keeps more values than there are
	 * registers, and a range kept in memory would chain every node to
	 * the one before */
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t id = ids[i];
		if (rv) {
			const struct res_score *e = &rv[id];
			lb[i] = e->least * wfit + e->balanced * wba;
			if (full) {
				wk->la[i] = e->least;
				wk->ba[i] = e->balanced;
			}
		}
		if (!ns)
			continue;
		/* podtopologyspread/scoring.go Score: ignored nodes score 0
		 * (and count for no range) */
		if (ign && !ign[id]) {
			praw[i] = 0;
			continue;
		}
		/* the terms added in constraint order, as upstream adds them
		 * (written out: the copies for each ns are not unrolled) */
		double a = 0;
#define SOFT_TERM(k, kd, con, pn, w, off)                                              \
	do {                                                                           \
		int32_t vi = (kd)[id];                                                 \
		if (con) {                                                             \
			a += (con)[vi];                                                \
		} else if (vi >= 0) {                                                  \
			uint32_t cnt = (pn) ? (pn)[id] : 0;                            \
			if (full)                                                      \
				host[i] = cnt;                                         \
			a += (double)cnt * (w) + (off);                                \
		}                                                                      \
	} while (0)
		if (ns > 0)
			SOFT_TERM(0, kd0, con0, pn0, w0, off0);
		if (ns > 1)
			SOFT_TERM(1, kd1, con1, pn1, w1, off1);
		if (ns > 2)
			SOFT_TERM(2, kd2, con2, pn2, w2, off2);
		if (ns > 3)
			SOFT_TERM(3, kd3, con3, pn3, w3, off3);
		for (uint32_t k = SOFT_FUSED; k < ns; k++)
			SOFT_TERM(k, t[k].kd, t[k].con, t[k].pn, t[k].w, t[k].off);
#undef SOFT_TERM
		praw[i] = go_round(a);
	}
	/* the ranges, in a loop of their own */
	const int64_t *tt_raw = s->tt_raw, *na_raw = s->na_raw;
	int64_t tlo = s->tt_min, thi = s->tt_max, nlo = s->na_min, nhi = s->na_max, plo = s->pts_min,
		phi = s->pts_max;
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t id = ids[i];
		if (tt_raw) {
			int64_t v = tt_raw[id];
			tlo = v < tlo ? v : tlo;
			thi = v > thi ? v : thi;
		}
		if (na_raw) {
			int64_t v = na_raw[id];
			nlo = v < nlo ? v : nlo;
			nhi = v > nhi ? v : nhi;
		}
		if (ns && !(ign && !ign[id])) {
			int64_t v = praw[i];
			plo = v < plo ? v : plo;
			phi = v > phi ? v : phi;
		}
	}
	s->tt_min = tlo;
	s->tt_max = thi;
	s->na_min = nlo;
	s->na_max = nhi;
	s->pts_min = plo;
	s->pts_max = phi;
}

bool rtab_build(struct rtab *rt, const struct soft_term *t, uint32_t ns)
{
	int32_t vary = -1, host = -1;
	for (uint32_t k = 0; k < ns; k++) {
		if (!t[k].con) {
			if (host >= 0)
				return false; /* two hostname terms */
			host = (int32_t)k;
		} else if (!(t[k].nvals == 0 || (t[k].nvals == 1 && t[k].all_keyed))) {
			if (vary >= 0 || t[k].nvals + 1 > RT_ROWS)
				return false;
			vary = (int32_t)k;
		}
	}
	rt->vary = vary;
	rt->kv = vary >= 0 ? t[vary].kd : NULL;
	rt->kh = host >= 0 ? t[host].kd : NULL;
	rt->pn = host >= 0 ? t[host].pn : NULL;
	rt->rows = vary >= 0 ? t[vary].nvals + 1 : 1;
	for (uint32_t r = 0; r < rt->rows; r++) {
		for (uint32_t k = 0; k < RT_K; k++)
			rt->v[r][k] = host >= 0 ? go_round(soft_sum(t, ns, vary, (int32_t)r - 1, true, k)) : 0;
		rt->v[r][RT_K] = go_round(soft_sum(t, ns, vary, (int32_t)r - 1, false, 0));
	}
	return true;
}

/* raw_pass_n's PodTopologySpread scores from the table, and their range */
static void soft_table_pass(const struct sched_work *wk, uint32_t nf, struct scores *s, const struct rtab *rt,
			    const struct soft_term *t, uint32_t ns, const uint8_t *ign)
{
	const uint32_t *ids = wk->ids;
	int64_t *praw = wk->pts, lo = s->pts_min, hi = s->pts_max;
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t id = ids[i];
		/* podtopologyspread/scoring.go Score: ignored nodes score 0
		 * (and count for no range) */
		if (ign && !ign[id]) {
			praw[i] = 0;
			continue;
		}
		int64_t v = rt_score(rt, t, ns, id);
		praw[i] = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	s->pts_min = lo;
	s->pts_max = hi;
}

static void raw_pass(struct cluster *c, const struct pod *p, struct sched_work *wk, uint32_t nf, struct scores *s,
		     struct res_score *rv, const struct soft_term *t, uint32_t ns, const uint8_t *ign, bool full)
{
	struct rtab rt;
	if (!full && ns && rtab_build(&rt, t, ns)) {
		/* the resources and the other ranges, then the table */
		raw_pass_n(c, p, wk, nf, s, rv, t, 0, ign, false);
		soft_table_pass(wk, nf, s, &rt, t, ns, ign);
		return;
	}
	/* a copy of the pass for each number of soft terms of a lean
	 * decision; one for any number, for a full one and the rest */
	switch (full ? UINT32_MAX : ns) {
#define RAW_CASE(n)                                                      \
	case (n):                                                        \
		raw_pass_n(c, p, wk, nf, s, rv, t, (n), ign, false);     \
		break
		RAW_CASE(0);
		RAW_CASE(1);
		RAW_CASE(2);
		RAW_CASE(3);
		RAW_CASE(4);
#undef RAW_CASE
	default:
		if (full)
			raw_pass_n(c, p, wk, nf, s, rv, t, ns, ign, true);
		else
			raw_pass_n(c, p, wk, nf, s, rv, t, ns, ign, false);
		break;
	}
}

/* The normalization tables of the plugins that score; true when each has
 * its table. */
bool tabs_build(struct norm_tab *tab, const struct scores *s, uint32_t nf, const int32_t *w)
{
	norm_tab_build(&tab[NORM_TT], NORM_TT, s->tt_min, s->tt_max, nf, s, w[PL_TAINT_TOLERATION]);
	norm_tab_build(&tab[NORM_NA], NORM_NA, s->na_min, s->na_max, nf, s, w[PL_NODE_AFFINITY]);
	norm_tab_build(&tab[NORM_PTS], NORM_PTS, s->pts_min, s->pts_max, nf, s, w[PL_POD_TOPOLOGY_SPREAD]);
	norm_tab_build(&tab[NORM_IPA], NORM_IPA, s->ipa_min, s->ipa_max, nf, s, w[PL_INTER_POD_AFFINITY]);
	return (!s->tt || tab[NORM_TT].on) && (!s->na || tab[NORM_NA].on) && (!s->pts || tab[NORM_PTS].on) &&
	       (!s->ipa || tab[NORM_IPA].on);
}


/* The scalar totals: InterPodAffinity's raw scores, the tables, every
 * feasible node's total and the nodes sharing the best one (d->tied,
 * d->ntied). 0 on OOM. */
static int score_totals(struct cluster *c, struct decision *d, struct sched_work *wk, struct scores *s,
			const struct ipa_state *is, const uint8_t *ign)
{
	uint32_t nf = d->nfeasible;
	if (s->ipa)
		ipa_score_all(is, wk->ids, nf, wk->ipa, false, &s->ipa_min, &s->ipa_max);
	if (!(d->tied = malloc(nf * sizeof(*d->tied))))
		return 0;
	struct norm_tab tab[4];
	bool tabs = tabs_build(tab, s, nf, c->cfg.weights);
	/* one loop compiled for tables only, one for any mix */
	uint32_t ntied;
	int bits = (s->fit ? SC_FIT : 0) | (s->ba ? SC_BA : 0) | (s->tt ? SC_TT : 0) | (s->na ? SC_NA : 0) |
		   (s->pts ? SC_PTS : 0) | (s->ipa ? SC_IPA : 0);
	/* the usual sets of plugins compiled each with its own loop */
#define FIXED_CASE(b)                                                                      \
	case (b):                                                                          \
		ntied = totals_loop(c, d, wk, s, tab, NULL, true, (b) | SC_FIXED);         \
		break
	if (tabs && d->lean && !ign && (bits & (SC_FIT | SC_BA | SC_TT)) == (SC_FIT | SC_BA | SC_TT)) {
		switch (bits) {
			FIXED_CASE(SC_FIT | SC_BA | SC_TT);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_PTS);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_NA);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_IPA);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_PTS | SC_NA);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_PTS | SC_IPA);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_NA | SC_IPA);
			FIXED_CASE(SC_FIT | SC_BA | SC_TT | SC_PTS | SC_NA | SC_IPA);
		default:
			ntied = totals_loop(c, d, wk, s, tab, ign, true, 0);
			break;
		}
	} else if (tabs) {
		ntied = totals_loop(c, d, wk, s, tab, ign, true, 0);
	} else {
		ntied = totals_loop(c, d, wk, s, tab, ign, false, 0);
	}
#undef FIXED_CASE
	d->ntied = ntied;
	if (!d->lean)
		fill_recs(d, wk, s, ign);
	return 1;
}

/* framework/runtime/framework.go RunScorePlugins + schedule_one.go
 * selectHost: every plugin's raw score in one pass over the feasible
 * nodes, then normalization, totals and the best nodes in a second. */
int score_and_select(struct scheduler *sch, const struct pod *p, struct decision *d,
			    struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
			    struct sched_work *wk)
{
	struct cluster *c = sch->c;
	uint32_t nf = d->nfeasible;
	const uint32_t *ids = wk->ids;
	const int32_t *w = c->cfg.weights;
	struct scores s = { .tt_min = INT64_MAX, .na_min = INT64_MAX, .pts_min = INT64_MAX, .ipa_min = INT64_MAX,
			    .ipa_max = INT64_MIN };
	d->scored = true;
	s.tt = w[PL_TAINT_TOLERATION] != 0;
	s.na = w[PL_NODE_AFFINITY] && pod_has_preferred_node_affinity(p);
	s.fit = w[PL_NODE_RESOURCES_FIT] != 0;
	s.ba = w[PL_BALANCED_ALLOCATION] && pod_requests_cpu_or_mem(p);
	/* PodTopologySpread always runs PreScore so its domains are recorded */
	s.pts = spread_prescore(c, ss, ids, nf, d->nignored, d->lean) && w[PL_POD_TOPOLOGY_SPREAD];
	s.ipa = w[PL_INTER_POD_AFFINITY] && ipa_prescore(c, p, is);
	d->plugin_skipped[PL_TAINT_TOLERATION] = !s.tt;
	d->plugin_skipped[PL_NODE_AFFINITY] = !s.na;
	d->plugin_skipped[PL_NODE_RESOURCES_FIT] = !s.fit;
	d->plugin_skipped[PL_POD_TOPOLOGY_SPREAD] = !s.pts;
	d->plugin_skipped[PL_INTER_POD_AFFINITY] = !s.ipa;
	d->plugin_skipped[PL_BALANCED_ALLOCATION] = !s.ba;
	s.tt_raw = s.tt ? node_shape_tt_raw(c, p, shape) : NULL;
	s.na_raw = s.na ? node_shape_na_raw(c, p, shape) : NULL;
	if ((s.tt && !s.tt_raw) || (s.na && !s.na_raw))
		return 0;
	/* every raw score in one pass */
	struct soft_term few[SOFT_FUSED], *terms = few;
	uint32_t nterms = s.pts ? spread_soft_terms(ss, few, SOFT_FUSED) : 0;
	if (nterms > SOFT_FUSED) {
		if (!(terms = malloc(nterms * sizeof(*terms))))
			return 0;
		spread_soft_terms(ss, terms, nterms);
	}
	struct res_score *rv = s.fit || s.ba ? res_scores_for(sch, p) : NULL;
	const uint8_t *ign = spread_ignore_mask(ss);
	int vec = 0;
#ifdef HAVE_AVX2
	if (d->lean && lean_vector_ok())
		vec = score_lean_avx2(c, d, wk, &s, shape, is, rv, terms, nterms, ign);
#endif
	if (!vec)
		raw_pass(c, p, wk, nf, &s, rv, terms, nterms, ign, !d->lean);
	if (terms != few)
		free(terms);
	if (vec < 0 || (!vec && !score_totals(c, d, wk, &s, is, ign)))
		return 0;
	select_host(c, d);
	return 1;
}
