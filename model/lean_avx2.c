/* lean_avx2.c - the vector loops of a lean cycle (AVX2, eight node ids at
 * a time): its filter (filter_lean_avx2) and its scores
 * (score_lean_avx2), the same answers as lean.c's and score.c's scalar
 * loops (tests/test_lean.c compares them with the vector loops on and
 * off). Empty on other processors. */
#include "score.h"

#ifdef HAVE_AVX2
#include <immintrin.h>
#include <stdlib.h>

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
__attribute__((target("avx2"))) uint32_t
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
bool avx2_ok(void)
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
int score_lean_avx2(struct cluster *c, struct decision *d, struct sched_work *wk, struct scores *s,
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
	lean_vector_count();
	return 1;
}
#endif
