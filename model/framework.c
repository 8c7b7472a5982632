/* framework.c - the plugin table of the default profile (made from
 * SKEWER_PLUGINS, apis/config/v1/default_plugins.go) and the plain loops
 * over it that a full decision runs: PreFilter, Filter on one node,
 * PreScore/Score/NormalizeScore and the weighted sum (prioritizeNodes),
 * selectHost, PostFilter. The lean cycle's batched loops (lean.c,
 * lean_avx2.c, score.c, shape.c) are accelerations of the same answers;
 * tests/test_lean.c compares them with these on every node. */
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

#include "plugins.h"

#define PLUGIN_LINE(id, name, weight, ops, rec) { id, name, weight, &ops },
const struct plugin plugin_table[] = { SKEWER_PLUGINS(PLUGIN_LINE) };
#undef PLUGIN_LINE
const uint32_t plugin_table_len = sizeof(plugin_table) / sizeof(plugin_table[0]);

const struct plugin *plugin_get(enum plugin_id id)
{
	for (uint32_t i = 0; i < plugin_table_len; i++)
		if (plugin_table[i].id == id)
			return &plugin_table[i];
	return NULL;
}

const char *plugin_code(enum plugin_id id)
{
	const struct plugin *p = plugin_get(id);
	return p && p->ops->code ? p->ops->code : "?";
}

bool plugin_scores(enum plugin_id id)
{
	const struct plugin *p = plugin_get(id);
	return p && p->ops->score;
}

bool plugin_filters(enum plugin_id id)
{
	const struct plugin *p = plugin_get(id);
	return p && p->ops->filter;
}

void fmt_append(char *buf, size_t len, size_t *o, const char *s)
{
	size_t n = strlen(s);
	if (*o + 1 >= len)
		return;
	if (n > len - 1 - *o)
		n = len - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
}

int run_prefilters(struct cycle_state *x)
{
	/* one answer per node for the node-facing filters, shared with
	 * PodTopologySpread's node inclusion policies */
	if (!(x->shape = node_shape_get(x->sch, x->p)))
		return 0;
	for (uint32_t i = 0; i < plugin_table_len; i++) {
		const struct plugin_ops *op = plugin_table[i].ops;
		if (op->prefilter && !op->prefilter(x))
			return 0;
	}
	return 1;
}

void cycle_state_fini(struct cycle_state *x)
{
	for (uint32_t i = 0; i < plugin_table_len; i++)
		if (plugin_table[i].ops->prefilter_fini)
			plugin_table[i].ops->prefilter_fini(x);
}

/* framework/runtime/framework.go RunFilterPlugins stops at the first
 * failure; for debugging every later filter runs too (debugging contract
 * v2 section 1) and only the first decides. */
bool filter_node_all(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	uint32_t first = plugin_table_len, ran = 0;
	bool first_unres = false;
	r->blockers = r->blockers_unres = 0;
	r->fail = PL_NONE;
	if (x->allowed && !x->allowed[id]) {
		/* outside NodeAffinity's PreFilterResult: upstream never
		 * evaluates the node (schedule_one.go findNodesThatPassFilters) */
		r->prefilter_cut = true;
		r->fail = PL_NODE_AFFINITY;
		r->blockers = r->blockers_unres = 1u << PL_NODE_AFFINITY;
		first_unres = true;
		first = 0;
		for (uint32_t i = 0; i < plugin_table_len; i++)
			if (plugin_table[i].id == PL_NODE_AFFINITY)
				first = i;
	}
	for (uint32_t i = 0; i < plugin_table_len; i++) {
		const struct plugin *f = &plugin_table[i];
		if (!f->ops->filter || (r->prefilter_cut && i <= first) || (f->ops->filter_skip && f->ops->filter_skip(x)))
			continue;
		ran += first == plugin_table_len;
		r->unresolvable = false;
		if (f->ops->filter(x, id, r))
			continue;
		r->blockers |= (uint16_t)(1u << f->id);
		if (r->unresolvable)
			r->blockers_unres |= (uint16_t)(1u << f->id);
		if (first == plugin_table_len) {
			first = i;
			first_unres = r->unresolvable;
			r->fail = (int8_t)f->id;
		}
	}
	r->unresolvable = first_unres;
	/* the filters upstream ran: up to the first failure, none when
	 * the PreFilter result left the node out */
	r->nran = (int8_t)(r->prefilter_cut ? 0 : ran);
	return r->fail == PL_NONE;
}

int prioritize_nodes(struct cycle_state *x, const uint32_t *ids, const uint32_t *rix)
{
	struct decision *d = x->d;
	const int32_t *w = x->c->cfg.weights;
	uint32_t nf = d->nfeasible;
	d->scored = true;
	/* framework.go RunScorePlugins: each plugin's PreScore, its Score
	 * on every feasible node, its NormalizeScore */
	for (uint32_t k = 0; k < plugin_table_len; k++) {
		const struct plugin *pl = &plugin_table[k];
		const struct plugin_ops *op = pl->ops;
		if (!op->score)
			continue;
		/* PreScore runs even at weight 0 (PodTopologySpread's
		 * domains are recorded); weight 0 scores nothing */
		bool run = (!op->prescore || op->prescore(x, ids, nf)) && w[pl->id] != 0;
		d->plugin_skipped[pl->id] = !run;
		if (!run)
			continue;
		for (uint32_t i = 0; i < nf; i++) {
			struct node_rec *r = &d->nodes[rix[i]];
			r->scored[pl->id] = true;
			r->raw[pl->id] = op->score(x, ids[i], r);
			if (!op->normalize)
				r->norm[pl->id] = (int16_t)r->raw[pl->id];
		}
		if (op->normalize)
			op->normalize(d);
	}
	/* the weighted sum, and the nodes that share the best total */
	if (!(d->tied = malloc((nf ? nf : 1) * sizeof(*d->tied))))
		return 0;
	int64_t best = INT64_MIN;
	uint32_t ntied = 0;
	for (uint32_t i = 0; i < nf; i++) {
		struct node_rec *r = &d->nodes[rix[i]];
		int64_t total = 0;
		for (int p = 0; p < PL__COUNT; p++)
			if (r->scored[p])
				total += (int64_t)r->norm[p] * w[p];
		r->total = total;
		if (total > best) {
			best = total;
			ntied = 0;
		}
		if (total == best)
			d->tied[ntied++] = ids[i];
	}
	d->ntied = ntied;
	select_host(x->c, d);
	return 1;
}

void select_host(const struct cluster *c, struct decision *d)
{
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
}

int run_postfilters(struct scheduler *sch, uint32_t pod, struct decision *d)
{
	for (uint32_t i = 0; i < plugin_table_len; i++) {
		const struct plugin_ops *op = plugin_table[i].ops;
		if (op->postfilter && !op->postfilter(sch, pod, d))
			return 0;
	}
	return 1;
}
