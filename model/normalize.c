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
		if (r->feasible && r->scored[p])
			r->norm[p] = (int16_t)normalize_default_one(r->raw[p], max, reverse);
	}
}
