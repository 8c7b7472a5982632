/* sched.c - one scheduling cycle, schedule_one.go schedulePod /
 * findNodesThatFitPod / prioritizeNodes / selectHost, over every node. */
#include "sched.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiterror.h"
#include "preempt.h"
#include "probe.h"
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
 * the cluster from one cycle to the next (no allocation per cycle). */
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

void sched_work_free(struct sched_work *w)
{
	if (!w)
		return;
	free(w->ids);
	free(w->rix);
	free(w->la);
	free(w->ba);
	free(w->lb);
	free(w->pts);
	free(w->ipa);
	free(w->host);
	free(w->ipa_fail);
	free(w->vpts);
	free(w->vtot);
	free(w->vipa);
	free(w);
}

/* Reallocates array p to n elements; returns NULL from the caller on OOM
 * (p keeps its old block, and cap its old value). */
#define GROW_OR_RETURN_NULL(p, n)                                   \
	do {                                                        \
		void *grown_ = realloc((p), (n) * sizeof(*(p)));    \
		if (!grown_)                                        \
			return NULL;                                \
		(p) = grown_;                                       \
	} while (0)

/* The cluster's work arrays with room for n nodes (node ids below n);
 * host zeroed for a full decision. NULL on OOM. */
static struct sched_work *work_get(struct cluster *c, uint32_t n, bool lean)
{
	struct sched_work *w = c->sched_work;
	if (!w && !(w = c->sched_work = calloc(1, sizeof(*w))))
		return NULL;
	n++;
	if (w->cap < n) {
		uint32_t cap = n + n / 4 + 16;
		GROW_OR_RETURN_NULL(w->ids, cap);
		GROW_OR_RETURN_NULL(w->rix, cap);
		GROW_OR_RETURN_NULL(w->la, cap);
		GROW_OR_RETURN_NULL(w->ba, cap);
		GROW_OR_RETURN_NULL(w->lb, cap);
		GROW_OR_RETURN_NULL(w->pts, cap);
		GROW_OR_RETURN_NULL(w->ipa, cap);
		GROW_OR_RETURN_NULL(w->host, cap);
		GROW_OR_RETURN_NULL(w->ipa_fail, cap);
		GROW_OR_RETURN_NULL(w->vpts, cap);
		GROW_OR_RETURN_NULL(w->vtot, cap);
		GROW_OR_RETURN_NULL(w->vipa, cap);
		/* read eight at a time, the entries of nodes not scored too
		 * (their lanes are then set aside): written once */
		memset(w->vpts, 0, cap * sizeof(*w->vpts));
		memset(w->vtot, 0, cap * sizeof(*w->vtot));
		memset(w->vipa, 0, cap * sizeof(*w->vipa));
		w->cap = cap;
	}
	if (!lean)
		memset(w->host, 0, n * sizeof(*w->host));
	return w;
}

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

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2 1

/* filter_lean_n for node id alone (any number of tables): writes its
 * verdict, and its id at ids[nf]; returns 1 when it is feasible. */
static uint32_t filter_lean_one(struct cluster *c, const struct pod *p, struct decision *d, const uint8_t *stat,
				const struct spread_hard_tbl *ht, uint32_t nht, const uint8_t *ipa_fail, bool ipa,
				uint32_t *ids, uint32_t nf, uint32_t id)
{
	uint8_t fl = c->nflag[id];
	bool fits;
	if (!(fl & NF_ALIVE))
		return 0;
	if (fl & NF_EXACT) {
		fits = fits_free(c, fl, id, want_of(p->spec.req.cpu), want_of(p->spec.req.mem));
	} else {
		struct node_rec scratch;
		init_rec(&scratch, id);
		fits = filter_fit(c, p, &c->nodes[id], d, &scratch);
	}
	bool spread = true;
	for (uint32_t t = 0; t < nht; t++)
		spread &= ht[t].ok[ht[t].kdom[id]] != 0;
	int8_t v = first_failure(stat[id], fits, spread, ipa && ipa_fail[id]);
	d->verdict[id] = v;
	ids[nf] = id;
	return v == PL_NONE;
}

/* perm8[m]: the lanes whose bit is set in m, first, in order (a
 * compress of eight node ids by the feasible mask) */
static uint8_t perm8[256][8];

static void perm8_init(void)
{
	for (uint32_t m = 0; m < 256; m++) {
		uint32_t k = 0;
		for (uint8_t b = 0; b < 8; b++)
			if (m >> b & 1)
				perm8[m][k++] = b;
		while (k < 8)
			perm8[m][k++] = 0;
	}
}

/* The ids id0 + i of the bits i set in m, written in order at out (which
 * has room for eight); returns their number. */
static inline __attribute__((target("avx2"))) uint32_t compress_ids(uint32_t *out, uint32_t id0, uint32_t m)
{
	__m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)perm8[m]));
	__m256i idv = _mm256_add_epi32(_mm256_set1_epi32((int)id0), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
	_mm256_storeu_si256((__m256i *)out, _mm256_permutevar8x32_epi32(idv, perm));
	return (uint32_t)__builtin_popcount(m);
}

/* One bit a node (lane i, bit i) of eight bytes that are not zero. */
static inline __attribute__((target("avx2"))) uint32_t nonzero8(__m128i b)
{
	return (uint32_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_setzero_si128())) & 0xFF;
}

/* The bytes of an eight-bit mask: 0xFF where the bit is set. */
static inline __attribute__((target("avx2"))) __m128i bytes_of(uint32_t m)
{
	const __m128i bit = _mm_set_epi8(0, 0, 0, 0, 0, 0, 0, 0, (char)0x80, 0x40, 0x20, 0x10, 8, 4, 2, 1);
	return _mm_cmpeq_epi8(_mm_and_si128(_mm_set1_epi8((char)m), bit), bit);
}

/* filter_lean_n eight nodes at a time with AVX2: the same answers read
 * for eight nodes in vector registers, and the same first failure chosen
 * in plugin order. A block with a removed node or a node whose free
 * amounts overflowed, and the last n % 8 nodes, take the scalar loop. */
static __attribute__((target("avx2"))) uint32_t
filter_lean_avx2(struct cluster *c, const struct pod *p, struct decision *d, const uint8_t *stat,
		 const struct spread_hard_tbl *ht, uint32_t nht, const uint8_t *ipa_fail, bool ipa, uint32_t *ids)
{
	const struct resources *rq = &p->spec.req;
	const __m256i want_cpu = _mm256_set1_epi64x(want_of(rq->cpu)), want_mem = _mm256_set1_epi64x(want_of(rq->mem));
	const int64_t *free_cpu = c->free_cpu, *free_mem = c->free_mem;
	const uint8_t *nflag = c->nflag;
	int8_t *verdict = d->verdict;
	uint32_t nf = 0, n = c->nnodes, id0 = 0;
	const __m128i ae = _mm_set1_epi8(NF_ALIVE | NF_EXACT), room = _mm_set1_epi8(NF_ROOM);
	/* a table of at most 16 entries (ok[-1 .. 15)) in lanes */
	int32_t okl[3][16];
	for (uint32_t t = 0; t < nht; t++) {
		if (ht[t].nvals >= 16)
			continue;
		for (int32_t i = 0; i < 16; i++)
			okl[t][i] = i <= (int32_t)ht[t].nvals ? ht[t].ok[i - 1] : 0;
	}
	for (; id0 + 8 <= n; id0 += 8) {
		__m128i fl = _mm_loadl_epi64((const __m128i *)(nflag + id0));
		if (nonzero8(_mm_xor_si128(_mm_and_si128(fl, ae), ae))) {
			/* a removed or inexact node among the eight */
			for (uint32_t id = id0; id < id0 + 8; id++)
				nf += filter_lean_one(c, p, d, stat, ht, nht, ipa_fail, ipa, ids, nf, id);
			continue;
		}
		/* NodeResourcesFit: room for a pod, and each request within
		 * what is free (four nodes a register) */
		uint32_t nofit = ~nonzero8(_mm_and_si128(fl, room)) & 0xFF;
		for (uint32_t k = 0; k < 8; k += 4) {
			__m256i gt = _mm256_or_si256(
				_mm256_cmpgt_epi64(want_cpu, _mm256_loadu_si256((const __m256i *)(free_cpu + id0 + k))),
				_mm256_cmpgt_epi64(want_mem, _mm256_loadu_si256((const __m256i *)(free_mem + id0 + k))));
			nofit |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(gt)) << k;
		}
		/* podtopologyspread/filtering.go Filter: the domains' tables
		 * (ok[kdom[id]]: a small one permuted, a large one gathered,
		 * four bytes read and the first kept) */
		uint32_t nospread = 0;
		for (uint32_t t = 0; t < nht; t++) {
			__m256i kd = _mm256_loadu_si256((const __m256i *)(ht[t].kdom + id0)), ok;
			if (ht[t].nvals < 16) {
				__m256i ix = _mm256_add_epi32(kd, _mm256_set1_epi32(1));
				__m256i lo = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)okl[t]), ix);
				__m256i hi = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(okl[t] + 8)), ix);
				ok = _mm256_blendv_epi8(lo, hi, _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(7)));
			} else {
				ok = _mm256_i32gather_epi32((const int *)(const void *)ht[t].ok, kd, 1);
				ok = _mm256_and_si256(ok, _mm256_set1_epi32(0xFF));
			}
			nospread |= (uint32_t)_mm256_movemask_ps(
				_mm256_castsi256_ps(_mm256_cmpeq_epi32(ok, _mm256_setzero_si256())));
		}
		/* the first failure in plugin order, as first_failure */
		__m128i v = _mm_set1_epi8(PL_NONE);
		if (ipa)
			v = _mm_blendv_epi8(v, _mm_set1_epi8(PL_INTER_POD_AFFINITY),
					    bytes_of(nonzero8(_mm_loadl_epi64((const __m128i *)(ipa_fail + id0)))));
		v = _mm_blendv_epi8(v, _mm_set1_epi8(PL_POD_TOPOLOGY_SPREAD), bytes_of(nospread));
		v = _mm_blendv_epi8(v, _mm_set1_epi8(PL_NODE_RESOURCES_FIT), bytes_of(nofit));
		__m128i st = _mm_loadl_epi64((const __m128i *)(stat + id0));
		v = _mm_blendv_epi8(v, _mm_sub_epi8(st, _mm_set1_epi8(1)), bytes_of(nonzero8(st)));
		_mm_storel_epi64((__m128i *)(verdict + id0), v);
		/* the feasible ids, compressed (ids has room for eight more) */
		uint32_t ok = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(PL_NONE))) & 0xFF;
		nf += compress_ids(ids + nf, id0, ok);
	}
	for (uint32_t id = id0; id < n; id++)
		nf += filter_lean_one(c, p, d, stat, ht, nht, ipa_fail, ipa, ids, nf, id);
	return nf;
}

/* AVX2 on this processor (once) */
static bool avx2_ok(void)
{
	static int have = -1;
	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("avx2") != 0;
		if (have)
			perm8_init();
	}
	return have;
}
#endif

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
	if (vector_on && avx2_ok()) {
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

/* schedule_one.go findNodesThatPassFilters for a full decision: the
 * plain loop over the filter table (filters.c) on every live node in
 * input order, recording every blocker and each hard constraint's
 * domain per node. 0 on OOM. */
static int filter_full(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
		       struct spread_state *ss, struct ipa_state *is, struct sched_work *wk)
{
	const uint8_t *ign = spread_ignore_mask(ss);
	const struct filter_ctx x = { .c = c, .p = p, .d = d, .allowed = allowed, .ss = ss, .is = is };
	const struct spread_hard_tbl *ht = NULL;
	uint32_t nht = spread_filter_skipped(ss) ? 0 : spread_hard_tables(ss, &ht);
	if (nht && !(d->spread_dom = malloc((size_t)(c->nalive_nodes + 1) * nht * sizeof(*d->spread_dom))))
		return 0;
	d->nhard = nht;
	uint32_t nn = 0, nf = 0, nig = 0;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!(c->nflag[id] & NF_ALIVE))
			continue;
		uint32_t k = nn++;
		struct node_rec *r = init_rec(&d->nodes[k], id);
		for (uint32_t t = 0; t < nht; t++)
			d->spread_dom[(size_t)k * nht + t] = ht[t].kdom[id];
		if (!filter_node_all(&x, id, r))
			continue;
		r->feasible = true;
		wk->rix[nf] = k;
		wk->ids[nf++] = id;
		if (ign && !ign[id]) {
			r->spread_ignored = true;
			nig++;
		}
	}
	d->nnodes = nn;
	d->nfeasible = nf;
	d->nignored = nig;
	return 1;
}

static int run_filters(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
		       const struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
		       struct sched_work *wk)
{
	/* one loop compiled for each kind of decision */
	const struct resources *rq = &p->spec.req;
	const struct spread_hard_tbl *ht;
	if (!d->lean)
		return filter_full(c, p, d, allowed, ss, is, wk);
	if (!allowed && rq->eph == 0 && rq->next == 0 && spread_hard_tables(ss, &ht) <= 3)
		filter_lean(c, p, d, shape, ss, is, wk);
	else
		filter_loop(c, p, d, allowed, shape, ss, is, wk);
	return 1;
}

/* What the score plugins found: which ran, their raw scores' ranges. */
struct scores {
	bool tt, na, fit, ba, pts, ipa;
	const int64_t *tt_raw, *na_raw;
	int64_t tt_min, tt_max, na_min, na_max, pts_min, pts_max, ipa_min, ipa_max;
};

enum norm_kind { NORM_TT, NORM_NA, NORM_PTS, NORM_IPA };

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

/* The normalized score of every raw value in [lo, lo + n), times the
 * plugin's weight: a cycle's raw scores span a small range, so each
 * division is made once per value rather than once per node. */
#define NORM_TAB 1024
struct norm_tab {
	bool on;
	int64_t lo;
	int64_t v[NORM_TAB];
};

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
static double soft_sum(const struct soft_term *t, uint32_t ns, int32_t vary, int32_t vi, bool host, uint32_t cnt)
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

static bool rtab_build(struct rtab *rt, const struct soft_term *t, uint32_t ns)
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
static bool tabs_build(struct norm_tab *tab, const struct scores *s, uint32_t nf, const int32_t *w)
{
	norm_tab_build(&tab[NORM_TT], NORM_TT, s->tt_min, s->tt_max, nf, s, w[PL_TAINT_TOLERATION]);
	norm_tab_build(&tab[NORM_NA], NORM_NA, s->na_min, s->na_max, nf, s, w[PL_NODE_AFFINITY]);
	norm_tab_build(&tab[NORM_PTS], NORM_PTS, s->pts_min, s->pts_max, nf, s, w[PL_POD_TOPOLOGY_SPREAD]);
	norm_tab_build(&tab[NORM_IPA], NORM_IPA, s->ipa_min, s->ipa_max, nf, s, w[PL_INTER_POD_AFFINITY]);
	return (!s->tt || tab[NORM_TT].on) && (!s->na || tab[NORM_NA].on) && (!s->pts || tab[NORM_PTS].on) &&
	       (!s->ipa || tab[NORM_IPA].on);
}


#ifdef HAVE_AVX2
/* A lean cycle's scores with AVX2 (score_lean_avx2): the same raw scores,
 * ranges, tables and totals as raw_pass and totals_loop, for eight node
 * ids at a time in id order, the feasible ones picked by their verdicts,
 * in 32-bit lanes. Every raw score, table entry and total is first known
 * to lie within +-V_LIM, so no lane overflows. */
#define V_LIM (INT64_C(1) << 30)

/* What the passes read and write, by node id. */
struct vsrc {
	const int8_t *verdict;
	uint32_t n;                       /* node ids */
	const int16_t *tt, *na;           /* raw scores; NULL: the plugin does not score */
	const int64_t *ipa;
	const struct res_score *rv;       /* NULL: neither resource plugin scores */
	int32_t wfit, wba;
	const uint8_t *ign;
	const struct rtab *rt;            /* NULL: PodTopologySpread does not score */
	const struct soft_term *t;
	uint32_t ns;
	int32_t rt32[RT_ROWS * (RT_K + 1)]; /* rt->v, flat */
	int32_t *pts, *tot;
	int64_t *totals;
};

/* A normalization table in 32 bits; small: at most 16 entries, looked up
 * with two permutations rather than a gather (slower on some processors
 * than a dozen instructions). */
struct vtab {
	bool small;
	int32_t lo;
	int32_t v[NORM_TAB];
};

/* Eight int64 values known to fit in 32 bits, as 32-bit lanes. */
static inline __attribute__((target("avx2"))) __m256i v_narrow8(const int64_t *p)
{
	const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
	__m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)p), even);
	__m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(p + 4)), even);
	return _mm256_blend_epi32(a, b, 0xF0);
}

/* Eight int16 values as 32-bit lanes. */
static inline __attribute__((target("avx2"))) __m256i v_i16x8(const int16_t *p)
{
	return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p));
}

/* The lanes of the feasible nodes among id0..id0+7 (all ones), and their
 * bits in *bits. */
static inline __attribute__((target("avx2"))) __m256i v_feasible(const int8_t *verdict, uint32_t id0,
								   uint32_t *bits)
{
	__m128i f = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(verdict + id0)), _mm_set1_epi8(PL_NONE));
	*bits = (uint32_t)_mm_movemask_epi8(f) & 0xFF;
	return _mm256_cvtepi8_epi32(f);
}

/* m without the lanes PodTopologySpread ignores (ign[id] == 0):
 * podtopologyspread/scoring.go Score gives them 0, and they count for no
 * range */
static inline __attribute__((target("avx2"))) __m256i v_unignored(const uint8_t *ign, uint32_t id0, __m256i m)
{
	if (!ign)
		return m;
	__m128i z = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(ign + id0)), _mm_setzero_si128());
	return _mm256_andnot_si256(_mm256_cvtepi8_epi32(z), m);
}

/* Whether a lane of x in m is above k */
static inline __attribute__((target("avx2"))) bool v_any_gt(__m256i m, __m256i x, int32_t k)
{
	__m256i gt = _mm256_and_si256(m, _mm256_cmpgt_epi32(x, _mm256_set1_epi32(k)));
	return _mm256_movemask_ps(_mm256_castsi256_ps(gt)) != 0;
}

static inline __attribute__((target("avx2"))) int32_t v_hmin(__m256i v)
{
	__m128i x = _mm_min_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	x = _mm_min_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
	x = _mm_min_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
	return _mm_cvtsi128_si32(x);
}

static inline __attribute__((target("avx2"))) int32_t v_hmax(__m256i v)
{
	__m128i x = _mm_max_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	x = _mm_max_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
	x = _mm_max_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
	return _mm_cvtsi128_si32(x);
}

/* The range of the lanes of x in m, folded into lo and hi */
#define V_RANGE(lo, hi, x, m)                                                                   \
	do {                                                                                    \
		(lo) = _mm256_min_epi32((lo), _mm256_blendv_epi8(_mm256_set1_epi32(INT32_MAX), (x), (m))); \
		(hi) = _mm256_max_epi32((hi), _mm256_blendv_epi8(_mm256_set1_epi32(INT32_MIN), (x), (m))); \
	} while (0)

/* A range of 32-bit values (lo INT32_MAX: none) folded into an int64 one */
static void range_fold(int32_t lo, int32_t hi, int64_t *min, int64_t *max)
{
	if (lo == INT32_MAX)
		return;
	*min = lo < *min ? lo : *min;
	*max = hi > *max ? hi : *max;
}

/* A scalar range step, for the last n % 8 nodes */
static inline void range_one(int32_t x, int32_t *lo, int32_t *hi)
{
	*lo = x < *lo ? x : *lo;
	*hi = x > *hi ? x : *hi;
}

/* raw_pass and soft_table_pass: the ranges of TaintToleration's and
 * NodeAffinity's raw scores, and PodTopologySpread's raw scores (into
 * v->pts) and their range, folded into s. False when a PodTopologySpread
 * score computed apart lies beyond the limit. */
static __attribute__((target("avx2"))) bool ranges_avx2(const struct vsrc *v, struct scores *s)
{
	const __m256i imax = _mm256_set1_epi32(INT32_MAX), imin = _mm256_set1_epi32(INT32_MIN);
	const __m256i zero = _mm256_setzero_si256(), rtk = _mm256_set1_epi32(RT_K);
	__m256i tlo = imax, thi = imin, nlo = imax, nhi = imin, plo = imax, phi = imin;
	/* in locals: the stores below may alias any field of *v */
	const struct rtab *rt = v->rt;
	const uint32_t n = v->n;
	const int8_t *verdict = v->verdict;
	const int16_t *tt = v->tt, *na = v->na;
	const uint8_t *ign = v->ign;
	const int32_t *kv = rt ? rt->kv : NULL, *kh = rt ? rt->kh : NULL, *rt32 = v->rt32;
	const uint32_t *pn = rt ? rt->pn : NULL;
	int32_t *pts = v->pts;
	/* a table of at most four rows: the first eight columns of each
	 * (hostname counts 0 to 7, the usual ones) in registers; without a
	 * hostname term, the one column of each row (16 at most) */
	__m256i small[4], byrow[2];
	uint32_t nsmall = rt && kh && rt->rows <= 4 ? rt->rows : 0;
	for (uint32_t k = 0; k < nsmall; k++)
		small[k] = _mm256_loadu_si256((const __m256i *)(rt32 + k * (RT_K + 1)));
	int32_t col16[16] = { 0 };
	for (uint32_t k = 0; rt && !kh && k < rt->rows; k++)
		col16[k] = rt32[k * (RT_K + 1) + RT_K];
	byrow[0] = _mm256_loadu_si256((const __m256i *)col16);
	byrow[1] = _mm256_loadu_si256((const __m256i *)(col16 + 8));
	uint32_t id0 = 0, bits;
	for (; id0 + 8 <= n; id0 += 8) {
		__m256i feas = v_feasible(verdict, id0, &bits);
		if (!bits)
			continue;
		if (tt) {
			__m256i x = v_i16x8(tt + id0);
			V_RANGE(tlo, thi, x, feas);
		}
		if (na) {
			__m256i x = v_i16x8(na + id0);
			V_RANGE(nlo, nhi, x, feas);
		}
		if (!rt)
			continue;
		/* soft_table_pass: row, column, the entry */
		__m256i m = v_unignored(ign, id0, feas);
		__m256i row = kv ? _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(kv + id0)),
							_mm256_set1_epi32(1))
				     : zero;
		__m256i cnt = pn ? _mm256_loadu_si256((const __m256i *)(pn + id0)) : zero;
		__m256i has = kh ? _mm256_cmpgt_epi32(_mm256_loadu_si256((const __m256i *)(kh + id0)),
							  _mm256_set1_epi32(-1))
				     : zero;
		__m256i col = _mm256_blendv_epi8(rtk, _mm256_min_epu32(cnt, rtk), has), x;
		if (!kh) {
			/* the row's entry: two permutations */
			x = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(byrow[0], row),
					       _mm256_permutevar8x32_epi32(byrow[1], row),
					       _mm256_cmpgt_epi32(row, _mm256_set1_epi32(7)));
			x = _mm256_and_si256(x, m);
		} else if (nsmall && !v_any_gt(m, col, 7)) {
			/* columns 0 to 7 of at most four rows: a permutation
			 * of each row's eight, the lane's row picked */
			x = _mm256_permutevar8x32_epi32(small[0], col);
			for (uint32_t k = 1; k < nsmall; k++)
				x = _mm256_blendv_epi8(x, _mm256_permutevar8x32_epi32(small[k], col),
						       _mm256_cmpeq_epi32(row, _mm256_set1_epi32((int)k)));
			x = _mm256_and_si256(x, m);
		} else {
			__m256i idx = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(row, 4), row), col);
			x = _mm256_mask_i32gather_epi32(zero, rt32, idx, m, 4);
		}
		_mm256_storeu_si256((__m256i *)(pts + id0), x);
		/* a count of RT_K or more: computed apart */
		__m256i big = _mm256_and_si256(_mm256_and_si256(has, m),
					       _mm256_cmpeq_epi32(_mm256_max_epu32(cnt, rtk), cnt));
		uint32_t bm = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(big));
		if (__builtin_expect(bm != 0, 0)) {
			for (; bm; bm &= bm - 1) {
				uint32_t id = id0 + (uint32_t)__builtin_ctz(bm);
				int64_t r = rt_score(rt, v->t, v->ns, id);
				if (r > V_LIM || r < -V_LIM)
					return false;
				pts[id] = (int32_t)r;
			}
			x = _mm256_loadu_si256((const __m256i *)(pts + id0));
		}
		V_RANGE(plo, phi, x, m);
	}
	int32_t tl = v_hmin(tlo), th = v_hmax(thi), nl = v_hmin(nlo), nh = v_hmax(nhi), pl = v_hmin(plo),
		ph = v_hmax(phi);
	for (uint32_t id = id0; id < n; id++) {
		if (verdict[id] != PL_NONE)
			continue;
		if (tt)
			range_one(tt[id], &tl, &th);
		if (na)
			range_one(na[id], &nl, &nh);
		if (!rt)
			continue;
		if (ign && !ign[id]) {
			/* podtopologyspread/scoring.go Score: ignored, 0 */
			pts[id] = 0;
			continue;
		}
		int64_t r = rt_score(rt, v->t, v->ns, id);
		if (r > V_LIM || r < -V_LIM)
			return false;
		pts[id] = (int32_t)r;
		range_one((int32_t)r, &pl, &ph);
	}
	range_fold(tl, th, &s->tt_min, &s->tt_max);
	range_fold(nl, nh, &s->na_min, &s->na_max);
	range_fold(pl, ph, &s->pts_min, &s->pts_max);
	return true;
}

/* tab in 32 bits into vt; the largest magnitude of its entries into
 * *mag. False when an entry lies beyond the limit. */
static bool vtab_build(struct vtab *vt, const struct norm_tab *tab, int64_t hi, int64_t *mag)
{
	int64_t span = hi - tab->lo, m = 0;
	for (int64_t i = 0; i <= span; i++) {
		int64_t x = tab->v[i];
		if (x > V_LIM || x < -V_LIM)
			return false;
		m = x > m ? x : -x > m ? -x : m;
		vt->v[i] = (int32_t)x;
	}
	for (int64_t i = span + 1; i < 16; i++)
		vt->v[i] = 0; /* read with the first 16, not used */
	vt->lo = (int32_t)tab->lo;
	vt->small = span < 16;
	*mag = m;
	return true;
}

/* The weighted normalized score of the lanes of raw in m from vt (r0,
 * r1: its first 16 entries). Other lanes are left undefined. */
static inline __attribute__((target("avx2"))) __m256i v_lookup(const struct vtab *vt, __m256i r0, __m256i r1,
								__m256i raw, __m256i m)
{
	__m256i idx = _mm256_sub_epi32(raw, _mm256_set1_epi32(vt->lo));
	if (vt->small)
		return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(r0, idx), _mm256_permutevar8x32_epi32(r1, idx),
					  _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)));
	return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), vt->v, idx, m, 4);
}

/* totals_loop: every feasible node's total into v->tot and v->totals, and
 * the nodes with the best one into tied (room for eight more than the
 * feasible nodes). Returns their number. */
static __attribute__((target("avx2"))) uint32_t totals_avx2(const struct vsrc *v, const struct vtab *vt,
							      uint32_t *tied)
{
	/* in locals: the stores below may alias any field of *v */
	const uint32_t n = v->n;
	const int8_t *verdict = v->verdict;
	const struct res_score *rv = v->rv;
	const int16_t *tt = v->tt, *na = v->na;
	const int64_t *ipa = v->ipa;
	const uint8_t *ign = v->ign;
	const int32_t *pts = v->rt ? v->pts : NULL, wfit = v->wfit, wba = v->wba;
	int32_t *tot32 = v->tot;
	int64_t *totals = v->totals;
	const __m256i imin = _mm256_set1_epi32(INT32_MIN);
	const __m256i vwfit = _mm256_set1_epi32(wfit), vwba = _mm256_set1_epi32(wba);
	/* the first 16 entries of each table that is read */
	__m256i r[4][2];
	const bool on[4] = { [NORM_TT] = tt, [NORM_NA] = na, [NORM_PTS] = pts, [NORM_IPA] = ipa };
	for (int k = 0; k < 4; k++)
		for (int h = 0; h < 2; h++)
			r[k][h] = on[k] ? _mm256_loadu_si256((const __m256i *)(vt[k].v + 8 * h)) : _mm256_setzero_si256();
	__m256i best = imin;
	uint32_t id0 = 0, bits;
	for (; id0 + 8 <= n; id0 += 8) {
		__m256i feas = v_feasible(verdict, id0, &bits);
		if (!bits) {
			/* no node to pick among the eight */
			_mm256_storeu_si256((__m256i *)(tot32 + id0), imin);
			continue;
		}
		__m256i sum = _mm256_setzero_si256();
		if (rv) {
			/* both resource scores weighted and added */
			__m256i x = _mm256_loadu_si256((const __m256i *)(rv + id0));
			__m256i la = _mm256_srai_epi32(_mm256_slli_epi32(x, 16), 16), ba = _mm256_srai_epi32(x, 16);
			sum = _mm256_add_epi32(_mm256_mullo_epi32(la, vwfit), _mm256_mullo_epi32(ba, vwba));
		}
		if (tt)
			sum = _mm256_add_epi32(sum, v_lookup(&vt[NORM_TT], r[NORM_TT][0], r[NORM_TT][1],
							     v_i16x8(tt + id0), feas));
		if (na)
			sum = _mm256_add_epi32(sum, v_lookup(&vt[NORM_NA], r[NORM_NA][0], r[NORM_NA][1],
							     v_i16x8(na + id0), feas));
		if (pts) {
			/* podtopologyspread/scoring.go Score: ignored nodes 0 */
			__m256i m = v_unignored(ign, id0, feas);
			__m256i x = v_lookup(&vt[NORM_PTS], r[NORM_PTS][0], r[NORM_PTS][1],
					     _mm256_loadu_si256((const __m256i *)(pts + id0)), m);
			sum = _mm256_add_epi32(sum, _mm256_and_si256(x, m));
		}
		if (ipa)
			sum = _mm256_add_epi32(sum, v_lookup(&vt[NORM_IPA], r[NORM_IPA][0], r[NORM_IPA][1],
							     v_narrow8(ipa + id0), feas));
		/* an infeasible node's total: below every feasible one */
		sum = _mm256_blendv_epi8(imin, sum, feas);
		_mm256_storeu_si256((__m256i *)(tot32 + id0), sum);
		_mm256_storeu_si256((__m256i *)(totals + id0), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum)));
		_mm256_storeu_si256((__m256i *)(totals + id0 + 4),
				    _mm256_cvtepi32_epi64(_mm256_extracti128_si256(sum, 1)));
		best = _mm256_max_epi32(best, sum);
	}
	int32_t b = v_hmax(best);
	for (uint32_t id = id0; id < n; id++) {
		tot32[id] = INT32_MIN;
		if (verdict[id] != PL_NONE)
			continue;
		int32_t sum = rv ? rv[id].least * wfit + rv[id].balanced * wba : 0;
		if (tt)
			sum += vt[NORM_TT].v[tt[id] - vt[NORM_TT].lo];
		if (na)
			sum += vt[NORM_NA].v[na[id] - vt[NORM_NA].lo];
		if (pts && !(ign && !ign[id]))
			sum += vt[NORM_PTS].v[pts[id] - vt[NORM_PTS].lo];
		if (ipa)
			sum += vt[NORM_IPA].v[(int32_t)ipa[id] - vt[NORM_IPA].lo];
		tot32[id] = sum;
		totals[id] = sum;
		b = sum > b ? sum : b;
	}
	/* schedule_one.go selectHost: the nodes with the best total, in id
	 * order; b is a feasible node's */
	const __m256i bv = _mm256_set1_epi32(b);
	uint32_t ntied = 0;
	for (id0 = 0; id0 + 8 <= n; id0 += 8) {
		__m256i eq = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(tot32 + id0)), bv);
		ntied += compress_ids(tied + ntied, id0, (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(eq)));
	}
	for (uint32_t id = id0; id < n; id++)
		if (tot32[id] == b)
			tied[ntied++] = id;
	return ntied;
}

/* score_and_select's raw scores, tables, totals and best nodes for a lean
 * cycle, with AVX2: 1 when done (d->tied and d->ntied set), 0 when the
 * cycle is not one it takes (numbers beyond the limit, a plugin without
 * its table; s may then hold some ranges, which raw_pass folds in again
 * to the same values), -1 on OOM. */
static int score_lean_avx2(struct cluster *c, struct decision *d, struct sched_work *wk, struct scores *s,
			   const struct node_shape *shape, const struct ipa_state *is, const struct res_score *rv,
			   const struct soft_term *t, uint32_t ns, const uint8_t *ign)
{
	const int32_t *w = c->cfg.weights;
	uint32_t nf = d->nfeasible;
	struct rtab rt;
	const int16_t *tt = s->tt ? node_shape_tt16(shape) : NULL, *na = s->na ? node_shape_na16(shape) : NULL;
	if (((s->fit || s->ba) && !rv) || (s->tt && !tt) || (s->na && !na) ||
	    (s->pts && (!ns || !rtab_build(&rt, t, ns))))
		return 0;
	struct vsrc vs = {
		.verdict = d->verdict,
		.n = c->nnodes,
		.tt = tt,
		.na = na,
		.ipa = s->ipa ? wk->vipa : NULL,
		.rv = s->fit || s->ba ? rv : NULL,
		.wfit = s->fit ? w[PL_NODE_RESOURCES_FIT] : 0,
		.wba = s->ba ? w[PL_BALANCED_ALLOCATION] : 0,
		.ign = ign,
		.rt = s->pts ? &rt : NULL,
		.t = t,
		.ns = ns,
		.pts = wk->vpts,
		.tot = wk->vtot,
		.totals = d->totals,
	};
	/* the bound of a total: both resource scores, then each table */
	int64_t bound = (llabs(vs.wfit) + llabs(vs.wba)) * 32768, mag;
	for (uint32_t r = 0; vs.rt && r < rt.rows; r++)
		for (uint32_t k = 0; k <= RT_K; k++) {
			if (rt.v[r][k] > V_LIM || rt.v[r][k] < -V_LIM)
				return 0;
			vs.rt32[r * (RT_K + 1) + k] = (int32_t)rt.v[r][k];
		}
	if (s->ipa) {
		ipa_score_all(is, wk->ids, nf, wk->vipa, true, &s->ipa_min, &s->ipa_max);
		if (s->ipa_min < -V_LIM || s->ipa_max > V_LIM)
			return 0;
	}
	if (!ranges_avx2(&vs, s))
		return 0;
	struct norm_tab tab[4];
	struct vtab vt[4];
	if (!tabs_build(tab, s, nf, w))
		return 0;
	const bool on[4] = { [NORM_TT] = s->tt, [NORM_NA] = s->na, [NORM_PTS] = s->pts, [NORM_IPA] = s->ipa };
	const int64_t hi[4] = { [NORM_TT] = s->tt_max, [NORM_NA] = s->na_max, [NORM_PTS] = s->pts_max,
				[NORM_IPA] = s->ipa_max };
	for (int k = 0; k < 4; k++) {
		if (!on[k])
			continue;
		if (!vtab_build(&vt[k], &tab[k], hi[k], &mag))
			return 0;
		bound += mag;
	}
	if (bound > V_LIM)
		return 0;
	if (!(d->tied = malloc((nf + 8) * sizeof(*d->tied))))
		return -1;
	d->ntied = totals_avx2(&vs, vt, d->tied);
	vector_scored++;
	return 1;
}
#endif

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
static int score_and_select(struct cluster *c, const struct pod *p, struct decision *d,
			    struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
			    struct sched_work *wk)
{
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
	struct res_score *rv = s.fit || s.ba ? res_scores_for(c, p) : NULL;
	const uint8_t *ign = spread_ignore_mask(ss);
	int vec = 0;
#ifdef HAVE_AVX2
	if (d->lean && vector_on && avx2_ok())
		vec = score_lean_avx2(c, d, wk, &s, shape, is, rv, terms, nterms, ign);
#endif
	if (!vec)
		raw_pass(c, p, wk, nf, &s, rv, terms, nterms, ign, !d->lean);
	if (terms != few)
		free(terms);
	if (vec < 0 || (!vec && !score_totals(c, d, wk, &s, is, ign)))
		return 0;
	uint32_t pick = 0;
	if (c->cfg.tie_random && d->ntied > 1) {
		/* deterministic per seed and pod; not comparable across tools */
		uint64_t x = c->cfg.seed ^ (0x9e3779b97f4a7c15ull * (d->pod + 1));
		x ^= x >> 31;
		x *= 0xbf58476d1ce4e5b9ull;
		x ^= x >> 27;
		pick = (uint32_t)(x % d->ntied);
	}
	d->chosen = (int32_t)d->tied[pick];
	return 1;
}

int sched_warm_begin(struct cluster *c)
{
	return res_cache_reserve(c);
}

int sched_warm(struct cluster *c, const struct pod *p)
{
	if (!spread_warm(c, p) || !ipa_warm(c, p))
		return 0;
	/* the node-facing answers of its spec, and the arrays a cycle
	 * builds from them on first use */
	struct node_shape *shape = node_shape_get(c, p);
	if (!shape || !node_shape_tt_raw(c, p, shape))
		return 0;
	if (pod_has_preferred_node_affinity(p) && !node_shape_na_raw(c, p, shape))
		return 0;
	/* the nodes each node inclusion policy leaves out */
	uint32_t nz;
	const uint8_t *aff = node_shape_aff(shape), *both = node_shape_both_ok(shape);
	if (!both || (aff && !node_shape_zeros(c, shape, aff, &nz)) ||
	    !node_shape_zeros(c, shape, node_shape_taint_ok(shape), &nz) || !node_shape_zeros(c, shape, both, &nz))
		return 0;
	/* the resource scores of its requests on every node, kept and
	 * brought up to date with the nodes that change */
	return res_scores_for(c, p) != NULL;
}

/* Takes node id's verdict out of the feasible list of d (wk->ids, and
 * wk->rix in a full decision). */
static void drop_feasible(struct decision *d, struct sched_work *wk, uint32_t id, const uint8_t *ign)
{
	uint32_t j = 0;
	while (j < d->nfeasible && wk->ids[j] != id)
		j++;
	if (j == d->nfeasible)
		return;
	memmove(&wk->ids[j], &wk->ids[j + 1], (d->nfeasible - j - 1) * sizeof(*wk->ids));
	if (!d->lean)
		memmove(&wk->rix[j], &wk->rix[j + 1], (d->nfeasible - j - 1) * sizeof(*wk->rix));
	d->nfeasible--;
	d->nignored -= ign && !ign[id];
}

/* A node's failure once the pods nominated there are counted. */
struct nom_fail {
	uint32_t node;
	struct node_rec r;
};

/* framework.go RunFilterPluginsWithNominatedPods for the nodes other pods
 * are nominated to, run before the cycle: the nodes where the pod fails
 * with them (pass 0) into *out; where it passes the plain loop's verdict
 * stands (pass 1). 0 on OOM. */
static int nominated_failures(struct cluster *c, uint32_t pod, struct nom_fail **out, uint32_t *nout)
{
	const struct pod *p = &c->pods[pod];
	struct nom_fail *v = NULL;
	struct probe *pr = NULL;
	uint32_t nv = 0;
	for (uint32_t i = 0; i < c->nnominated; i++) {
		const struct pod *q = &c->pods[c->nominated[i]];
		if (c->nominated[i] == pod || !q->alive || q->node >= 0 || !q->nominated ||
		    q->spec.priority < p->spec.priority)
			continue;
		int32_t node = cluster_find_node(c, q->nominated);
		bool seen = node < 0;
		for (uint32_t k = 0; k < nv && !seen; k++)
			seen = v[k].node == (uint32_t)node;
		if (seen)
			continue;
		if (!v && !(v = calloc(c->nnominated, sizeof(*v))))
			goto oom;
		if (!pr && !(pr = probe_new(c, pod)))
			goto oom;
		if (!probe_node(pr, (uint32_t)node))
			goto oom;
		int rc = probe_filter_nominated(pr, &v[nv].r);
		if (rc < 0)
			goto oom;
		/* the pass with them failed, or the node fails anyway (the
		 * plain loop says so too) */
		if (rc == 0)
			v[nv++].node = (uint32_t)node;
	}
	probe_free(pr);
	*out = v;
	*nout = nv;
	return 1;
oom:
	probe_free(pr);
	free(v);
	return 0;
}

/* The failures nominated_failures found, over the plain loop's verdicts. */
static void apply_nominated(struct decision *d, struct sched_work *wk, const uint8_t *ign,
			    const struct nom_fail *v, uint32_t nv)
{
	for (uint32_t i = 0; i < nv; i++) {
		uint32_t node = v[i].node;
		drop_feasible(d, wk, node, ign);
		if (d->lean) {
			d->verdict[node] = v[i].r.fail;
			continue;
		}
		struct node_rec *dr = (struct node_rec *)decision_node(d, node);
		if (dr)
			*dr = v[i].r;
	}
}

/* Did node id pass every filter in decision d (lean or full)? */
static bool node_feasible(const struct decision *d, uint32_t id)
{
	if (d->lean)
		return d->verdict[id] == PL_NONE;
	const struct node_rec *r = decision_node(d, id);
	return r && r->feasible;
}

/* One cycle; 2 when a lean decision must be recorded in full instead. */
static int decide(struct cluster *c, uint32_t pod, struct decision *d, const struct nom_fail *nom, uint32_t nnom)
{
	assert(pod < c->npods);
	const struct pod *p = &c->pods[pod];
	struct spread_state *ss = NULL;
	struct ipa_state *is = NULL;
	bool *allowed = NULL;
	struct node_shape *shape = NULL;
	struct sched_work *wk = NULL;
	int rc = 0;
	d->pod = pod;
	d->chosen = -1;
	if (d->lean) {
		d->verdict = malloc(c->nnodes + 1);
		d->totals = malloc((c->nnodes + 1) * sizeof(*d->totals));
		if (!d->verdict || !d->totals)
			goto done;
		memset(d->verdict, (uint8_t)VERDICT_GONE, c->nnodes + 1);
	} else if (!(d->nodes = malloc((c->nalive_nodes + 1) * sizeof(*d->nodes)))) {
		goto done;
	}
	if (!(wk = work_get(c, c->nnodes, d->lean)))
		goto done;
	/* PreFilter: NodeAffinity, PodTopologySpread, InterPodAffinity */
	int narrow = 0;
	if (p->spec.has_affinity && p->spec.affinity.node.has_required) {
		/* only required terms can narrow by metadata.name */
		if (!(allowed = calloc(c->nnodes + 1, sizeof(*allowed))))
			goto done;
		narrow = prefilter_node_affinity(c, p, allowed);
	}
	if (narrow < 0 && d->lean) {
		rc = 2;
		goto done;
	}
	/* one answer per node for the node-facing filters, shared with
	 * PodTopologySpread's node inclusion policies */
	if (!(shape = node_shape_get(c, p)))
		goto done;
	if (!(ss = spread_prepare(c, p, d, shape)))
		goto done;
	if (!(is = ipa_prepare(c, p)))
		goto done;
	if (!c->nalive_nodes) {
		d->outcome = OUT_PENDING;
		/* schedule_one.go ErrNoNodesAvailable */
		d->message = strdup("no nodes available to schedule pods");
		rc = d->message != NULL;
		goto done;
	}
	if (narrow < 0) {
		/* the PreFilter rejects the pod: no node is evaluated, each
		 * recorded as outside the result, with the later filters'
		 * blockers (a full decision: a lean one returned above) */
		d->prefilter_conflict = true;
		memset(allowed, 0, (c->nnodes + 1) * sizeof(*allowed));
		if (!filter_full(c, p, d, allowed, ss, is, wk))
			goto done;
	} else if (!run_filters(c, p, d, narrow > 0 ? allowed : NULL, shape, ss, is, wk)) {
		goto done;
	} else {
		apply_nominated(d, wk, spread_ignore_mask(ss), nom, nnom);
	}
	if (d->nfeasible) {
		if (!score_and_select(c, p, d, shape, ss, is, wk))
			goto done;
		d->outcome = OUT_SCHEDULED;
		/* schedule_one.go findNodesThatFitPod evaluates the pod's
		 * nominated node first (evaluateNominatedNode) and takes it,
		 * unscored, when it passes; the other nodes are recorded all
		 * the same, as not needed */
		int32_t nom = p->nominated ? cluster_find_node(c, p->nominated) : -1;
		if (nom >= 0 && node_feasible(d, (uint32_t)nom)) {
			d->chosen = nom;
			d->pre.nominated_first = true;
		}
	} else if (d->lean) {
		/* the message counts every node's reason */
		rc = 2;
		goto done;
	} else {
		d->outcome = OUT_PENDING;
		if (!(d->message = sched_fit_message(c, d)))
			goto done;
	}
	rc = 1;
done:
	spread_free(ss);
	ipa_free(is);
	free(allowed);
	return rc;
}

int sched_decide(struct cluster *c, uint32_t pod, struct decision *d)
{
	struct nom_fail *nom = NULL;
	uint32_t nnom = 0;
	if (c->nnominated && !nominated_failures(c, pod, &nom, &nnom))
		return 0;
	int rc = decide(c, pod, d, nom, nnom);
	if (rc == 2) {
		decision_fini(d); /* clears lean */
		rc = decide(c, pod, d, nom, nnom);
	}
	free(nom);
	if (rc != 1 || d->outcome != OUT_PENDING)
		return rc;
	/* schedule_one.go schedulingCycle: PostFilter (DefaultPreemption)
	 * when nodes exist but none fits, over the filters' statuses */
	if (d->nnodes && !preempt_run(c, pod, d))
		return 0;
	return preempt_event(d);
}

/* framework/types.go FitError.Error: every node's reasons counted (the
 * reasons of NodeResourcesFit each on its own). */
char *sched_fit_message(const struct cluster *c, const struct decision *d)
{
	struct reason_hist h = { 0 };
	char buf[128], *out = NULL;
	if (d->prefilter_conflict) {
		snprintf(buf, sizeof(buf), "0/%u nodes are available: pod affinity terms conflict.",
			 d->nnodes);
		return strdup(buf);
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (r->feasible)
			continue;
		char *why = decision_reason_dup(c, d, r, r->fail);
		int ok = why && reason_hist_add_status(&h, why, r->fail == PL_NODE_RESOURCES_FIT);
		free(why);
		if (!ok)
			goto done;
	}
	out = reason_hist_text(&h, d->nnodes);
done:
	reason_hist_fini(&h);
	return out;
}

