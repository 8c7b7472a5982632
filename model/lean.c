/* lean.c - a lean decision's filter (every node's verdict, the feasible
 * ids), the fast path of the plain loop over the plugin table that full
 * decisions run (framework.c filter_node_all): answers read once per pod spec (shape.c)
 * and per domain (PodTopologySpread's tables), then compared without
 * branches; the vector loop (lean_avx2.c) takes eight nodes at a time.
 * tests/test_lean.c proves the verdicts equal to the plain loop's. */
#include <stdlib.h>

#include "cycle.h"

/* The vector loops (filter_lean_avx2, score_lean_avx2): on unless a test
 * turns them off; the cycles they scored. */
static bool vector_on = true;
static uint64_t vector_scored;

void sched_set_vector(bool on)
{
	vector_on = on;
}

uint64_t sched_vector_scored(void)
{
	return vector_scored;
}

bool lean_vector_ok(void)
{
#ifdef HAVE_AVX2
	return vector_on && avx2_ok();
#else
	return false;
#endif
}

void lean_vector_count(void)
{
	vector_scored++;
}

bool lean_covers_table(void)
{
	/* the plugins whose Filter and Score the fast paths answer (shape.c,
	 * rescache.c, the loops here and in score.c and lean_avx2.c) */
	static const enum plugin_id fast[] = {
		PL_NODE_UNSCHEDULABLE, PL_NODE_NAME, PL_TAINT_TOLERATION, PL_NODE_AFFINITY,
		PL_NODE_RESOURCES_FIT, PL_POD_TOPOLOGY_SPREAD, PL_INTER_POD_AFFINITY, PL_BALANCED_ALLOCATION,
	};
	static int covers = -1;
	if (covers >= 0)
		return covers;
	covers = 1;
	for (uint32_t i = 0; i < plugin_table_len; i++) {
		const struct plugin_ops *op = plugin_table[i].ops;
		bool known = false;
		for (uint32_t k = 0; k < sizeof(fast) / sizeof(fast[0]); k++)
			known |= plugin_table[i].id == fast[k];
		if (!known && (op->prefilter || op->filter || op->prescore || op->score))
			covers = 0;
	}
	return covers;
}

/* framework/runtime/framework.go RunFilterPlugins, in plugin order, for
 * every node of a lean decision that filter_lean does not take (a
 * NodeAffinity PreFilterResult, ephemeral or extended requests, more
 * than three hard constraints): the per-node work is a few loads and
 * compares; only the failing plugin is kept. */
static void filter_loop(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
			const struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
			struct sched_work *wk)
{
	const struct resources *rq = &p->spec.req;
	const uint8_t *stat = node_shape_stat(shape);
	bool fit_simple = rq->eph == 0 && rq->next == 0;
	int64_t want_cpu = want_of(rq->cpu), want_mem = want_of(rq->mem);
	bool do_spread = !spread_filter_skipped(ss), do_ipa = !ipa_filter_skipped(is);
	const uint8_t *ign = spread_ignore_mask(ss);
	const struct spread_hard_tbl *ht;
	uint32_t nht = spread_hard_tables(ss, &ht);
	const uint8_t *nflag = c->nflag;
	if (do_ipa)
		ipa_filter_mask(c, p, is, wk->ipa_fail);
	/* the counts and arrays in locals: the byte stores below may alias
	 * anything, so fields of d would be reloaded at every node */
	int8_t *verdict = d->verdict;
	const uint8_t *ipa_fail = wk->ipa_fail;
	uint32_t *ids = wk->ids;
	uint32_t nn = 0, nf = 0, nig = 0;
	struct node_rec scratch;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		uint8_t fl = nflag[id];
		if (!(fl & NF_ALIVE))
			continue;
		nn++;
		int8_t fail = PL_NONE;
		if (allowed && !allowed[id]) {
			/* outside NodeAffinity's PreFilterResult: not evaluated */
			fail = PL_NODE_AFFINITY;
		} else if (stat[id]) {
			/* NodeUnschedulable, NodeName, TaintToleration and
			 * NodeAffinity, answered once per pod spec (shape.c) */
			fail = (int8_t)(stat[id] - 1);
		} else {
			/* noderesources/fit.go fitsRequest over the free
			 * amounts; the full filter handles ephemeral and
			 * extended resources, and overflow */
			bool sure = fit_simple && (fl & NF_EXACT);
			bool fits = sure ? fits_free(c, fl, id, want_cpu, want_mem)
					 : filter_fit(c, p, &c->nodes[id], d, init_rec(&scratch, id));
			bool spread = true;
			for (uint32_t t = 0; do_spread && t < nht && spread; t++)
				spread = ht[t].ok[ht[t].kdom[id]];
			fail = first_failure(0, fits, spread, do_ipa && ipa_fail[id]);
		}
		verdict[id] = fail;
		if (fail != PL_NONE)
			continue;
		ids[nf++] = id;
		nig += ign && !ign[id];
	}
	d->nnodes = nn;
	d->nfeasible = nf;
	d->nignored = nig;
}

/* The loop of filter_lean for nht hard spreading tables and with (ipa)
 * or without the InterPodAffinity mask, constants in each copy. */
static inline __attribute__((always_inline)) uint32_t
filter_lean_n(struct cluster *c, const struct pod *p, struct decision *d, const uint8_t *stat,
	      const struct spread_hard_tbl *ht, const uint32_t nht, const uint8_t *ipa_fail, const bool ipa,
	      uint32_t *ids)
{
	const struct resources *rq = &p->spec.req;
	const int64_t want_cpu = want_of(rq->cpu), want_mem = want_of(rq->mem);
	const int32_t *kd0 = nht > 0 ? ht[0].kdom : NULL, *kd1 = nht > 1 ? ht[1].kdom : NULL,
		      *kd2 = nht > 2 ? ht[2].kdom : NULL;
	const uint8_t *ok0 = nht > 0 ? ht[0].ok : NULL, *ok1 = nht > 1 ? ht[1].ok : NULL,
		      *ok2 = nht > 2 ? ht[2].ok : NULL;
	const uint8_t *nflag = c->nflag;
	int8_t *verdict = d->verdict;
	uint32_t nf = 0, n = c->nnodes;
	for (uint32_t id = 0; id < n; id++) {
		uint8_t fl = nflag[id];
		bool fits;
		if (__builtin_expect((fl & (NF_ALIVE | NF_EXACT)) == (NF_ALIVE | NF_EXACT), 1))
			fits = fits_free(c, fl, id, want_cpu, want_mem);
		else if (!(fl & NF_ALIVE))
			continue;
		else {
			struct node_rec scratch;
			init_rec(&scratch, id);
			fits = filter_fit(c, p, &c->nodes[id], d, &scratch);
		}
		/* podtopologyspread/filtering.go Filter: the domains' tables */
		bool spread = true;
		if (nht > 0)
			spread &= ok0[kd0[id]];
		if (nht > 1)
			spread &= ok1[kd1[id]];
		if (nht > 2)
			spread &= ok2[kd2[id]];
		int8_t v = first_failure(stat[id], fits, spread, ipa && ipa_fail[id]);
		verdict[id] = v;
		ids[nf] = id;
		nf += v == PL_NONE;
	}
	return nf;
}

/* filter_loop for a lean decision when the pod requests only cpu and
 * memory and has at most three hard spreading constraints: each node's
 * verdict is computed without branches on its data (the answers of the
 * plugins are all read, then the first failure is selected), as data
 * dependent branches mispredict at every few nodes. A node whose free
 * amounts overflowed takes the full filter. */
static void filter_lean(struct cluster *c, const struct pod *p, struct decision *d, const struct node_shape *shape,
			struct spread_state *ss, struct ipa_state *is, struct sched_work *wk)
{
	const uint8_t *stat = node_shape_stat(shape);
	const uint8_t *ign = spread_ignore_mask(ss);
	const struct spread_hard_tbl *ht;
	uint32_t nht = spread_filter_skipped(ss) ? 0 : spread_hard_tables(ss, &ht);
	bool ipa = !ipa_filter_skipped(is);
	if (ipa)
		ipa_filter_mask(c, p, is, wk->ipa_fail);
	uint32_t nf;
#ifdef HAVE_AVX2
	if (lean_vector_ok()) {
		nf = filter_lean_avx2(c, p, d, stat, ht, nht, wk->ipa_fail, ipa, wk->ids);
		goto done;
	}
#endif
	/* one copy of the loop for each number of tables, with and
	 * without the InterPodAffinity mask */
	switch (nht * 2 + ipa) {
#define FILTER_CASE(t, i)                                                                  \
	case (t) * 2 + (i):                                                                \
		nf = filter_lean_n(c, p, d, stat, ht, (t), wk->ipa_fail, (i), wk->ids);    \
		break
		FILTER_CASE(0, 0);
		FILTER_CASE(0, 1);
		FILTER_CASE(1, 0);
		FILTER_CASE(1, 1);
		FILTER_CASE(2, 0);
		FILTER_CASE(2, 1);
		FILTER_CASE(3, 0);
	default:
		nf = filter_lean_n(c, p, d, stat, ht, 3, wk->ipa_fail, true, wk->ids);
		break;
#undef FILTER_CASE
	}
#ifdef HAVE_AVX2
done:;
#endif
	uint32_t nig = 0;
	for (uint32_t i = 0; ign && i < nf; i++)
		nig += !ign[wk->ids[i]];
	d->nnodes = c->nalive_nodes;
	d->nfeasible = nf;
	d->nignored = nig;
}

void lean_filter(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
		 const struct node_shape *shape, struct spread_state *ss, struct ipa_state *is, struct sched_work *wk)
{
	/* one loop compiled for each kind of decision */
	const struct resources *rq = &p->spec.req;
	const struct spread_hard_tbl *ht;
	if (!allowed && rq->eph == 0 && rq->next == 0 && spread_hard_tables(ss, &ht) <= 3)
		filter_lean(c, p, d, shape, ss, is, wk);
	else
		filter_loop(c, p, d, allowed, shape, ss, is, wk);
}
