/* nodename.c - NodeName: Filter (the pod's spec.nodeName). */
#include <assert.h>
#include <stdio.h>

#include "../plugins.h"

/* nodename/node_name.go Fits */
int filter_node_name(const struct cluster *c, const struct pod *p, const struct node *n,
		     struct node_rec *r)
{
	assert(c && p && n && r);
	if (p->spec.node_name == SYM_NONE || p->spec.node_name == c->sym_empty ||
	    p->spec.node_name == n->name)
		return 1;
	r->unresolvable = true;
	return 0;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_node_name(x->c, x->p, &x->c->nodes[id], r);
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) didn't match the requested node name");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)r;
	snprintf(buf, len, "pod asks for node %s", intern_get(c->in, c->pods[d->pod].spec.node_name));
}

const struct plugin_ops plugin_node_name = {
	.code = "Name",
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
