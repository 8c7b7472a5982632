/* filters.c - the Filter extension point of the default profile as one
 * table, in upstream's order (apis/config/v1/default_plugins.go), and the
 * plain per-node loop over it that full decisions run. The lean cycle's
 * batched loops in sched.c are a fast path of the same answers;
 * tests/test_lean.c compares the two on every node. */
#include <assert.h>

#include "plugins.h"

static int f_unschedulable(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_node_unschedulable(x->c, x->p, &x->c->nodes[id], r);
}

static int f_node_name(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_node_name(x->c, x->p, &x->c->nodes[id], r);
}

static int f_taint(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_taint_toleration(x->c, x->p, &x->c->nodes[id], r);
}

static int f_node_affinity(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_node_affinity(x->c, x->p, &x->c->nodes[id], r);
}

static int f_fit(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_fit(x->c, x->p, x->over && id == x->over_id ? x->over : &x->c->nodes[id], x->d, r);
}

/* PreFilter returns Skip without hard constraints */
static bool skip_spread(const struct filter_ctx *x)
{
	return !x->ss || spread_filter_skipped(x->ss);
}

static int f_spread(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_spread(id, x->ss, x->d, r);
}

/* PreFilter returns Skip without affinity terms of its own or of others */
static bool skip_ipa(const struct filter_ctx *x)
{
	return !x->is || ipa_filter_skipped(x->is);
}

static int f_ipa(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	return filter_inter_pod_affinity(x->c, x->p, &x->c->nodes[id], x->is, r);
}

/* In the order of the default profile's Filter plugins. */
const struct filter_plugin filter_table[] = {
	{ PL_NODE_UNSCHEDULABLE, NULL, f_unschedulable },
	{ PL_NODE_NAME, NULL, f_node_name },
	{ PL_TAINT_TOLERATION, NULL, f_taint },
	{ PL_NODE_AFFINITY, NULL, f_node_affinity },
	{ PL_NODE_RESOURCES_FIT, NULL, f_fit },
	{ PL_POD_TOPOLOGY_SPREAD, skip_spread, f_spread },
	{ PL_INTER_POD_AFFINITY, skip_ipa, f_ipa },
};
const uint32_t filter_table_len = sizeof(filter_table) / sizeof(filter_table[0]);

/* framework/runtime/framework.go RunFilterPlugins stops at the first
 * failure; for debugging every later filter runs too (debugging contract
 * v2 section 1) and only the first decides. */
bool filter_node_all(const struct filter_ctx *x, uint32_t id, struct node_rec *r)
{
	uint32_t first = filter_table_len, ran = 0;
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
		for (uint32_t i = 0; i < filter_table_len; i++)
			if (filter_table[i].id == PL_NODE_AFFINITY)
				first = i;
	}
	for (uint32_t i = 0; i < filter_table_len; i++) {
		const struct filter_plugin *f = &filter_table[i];
		if ((r->prefilter_cut && i <= first) || (f->skip && f->skip(x)))
			continue;
		ran += first == filter_table_len;
		r->unresolvable = false;
		if (f->filter(x, id, r))
			continue;
		r->blockers |= (uint16_t)(1u << f->id);
		if (r->unresolvable)
			r->blockers_unres |= (uint16_t)(1u << f->id);
		if (first == filter_table_len) {
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
