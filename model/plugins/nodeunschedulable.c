/* nodeunschedulable.c - NodeUnschedulable: Filter (a cordoned node, unless
 * the pod tolerates the unschedulable taint). */
#include <assert.h>
#include <stdio.h>

#include "../plugins.h"

/* nodeunschedulable/node_unschedulable.go Filter */
int filter_node_unschedulable(const struct cluster *c, const struct pod *p, const struct node *n,
			      struct node_rec *r)
{
	assert(c && p && n && r);
	if (!n->unschedulable)
		return 1;
	struct taint t = {
		.key = c->sym_unsched_taint,
		.value = c->sym_empty,
		.effect = EFFECT_NO_SCHEDULE,
		.effect_text = SYM_NONE,
	};
	if (taint_tolerated(c, &t, p->spec.tols, p->spec.ntols))
		return 1;
	r->unresolvable = true;
	return 0;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_node_unschedulable(x->c, x->p, &x->c->nodes[id], r);
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) were unschedulable");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node is cordoned (spec.unschedulable)");
}

const struct plugin_ops plugin_node_unschedulable = {
	.code = "Unsch",
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
