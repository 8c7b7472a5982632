/* normalize.c - the framework's default score normalization. */
#include "plugins.h"

#include <assert.h>

/* helper/normalize_score.go DefaultNormalizeScore (maxPriority 100) */
void normalize_default(struct decision *d, enum plugin_id p, bool reverse)
{
	assert(d && p >= 0 && p < PL__COUNT);
	int64_t max = 0;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (r->feasible && r->scored[p] && r->raw[p] > max)
			max = r->raw[p];
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct node_rec *r = &d->nodes[i];
		if (!r->feasible || !r->scored[p])
			continue;
		if (max == 0) {
			/* all raw scores 0 (or negative): kept, or 100 reversed */
			r->norm[p] = reverse ? 100 : r->raw[p];
			continue;
		}
		int64_t s = r->raw[p];
		/* 100 * s cannot overflow for counts and weights in range */
		s = (s > INT64_MAX / 100 || s < INT64_MIN / 100) ? (s / max) * 100 : 100 * s / max;
		r->norm[p] = reverse ? 100 - s : s;
	}
}
