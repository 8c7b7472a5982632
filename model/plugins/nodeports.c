/* nodeports.c - NodePorts: PreFilter (the pod's host ports, Skip without)
 * and Filter (nodeports/node_ports.go; framework HostPortInfo). */
#include <stdio.h>
#include <string.h>

#include "../plugins.h"

static const char *proto_of(const struct cluster *c, sym_t p)
{
	return p == SYM_NONE || !intern_len(c->in, p) ? "TCP" : intern_get(c->in, p);
}

static const char *ip_of(const struct cluster *c, sym_t ip)
{
	return ip == SYM_NONE || !intern_len(c->in, ip) ? "0.0.0.0" : intern_get(c->in, ip);
}

/* framework/types.go HostPortInfo.CheckConflict: 0.0.0.0 conflicts with
 * the same protocol and port on any address, another address with
 * itself and 0.0.0.0 */
static bool ports_conflict(const struct cluster *c, const struct host_port *want, const struct host_port *used)
{
	if (want->host_port <= 0 || used->host_port <= 0 || want->host_port != used->host_port ||
	    strcmp(proto_of(c, want->protocol), proto_of(c, used->protocol)))
		return false;
	const char *wi = ip_of(c, want->host_ip), *ui = ip_of(c, used->host_ip);
	return !strcmp(wi, "0.0.0.0") || !strcmp(ui, "0.0.0.0") || !strcmp(wi, ui);
}

/* The first bound pod on node n holding a port the pod wants: its id,
 * -1 when every port is free; *port the pod's port. */
int32_t node_ports_holder(const struct cluster *c, const struct pod *p, const struct node *n, int32_t *port)
{
	for (uint32_t i = 0; i < p->spec.nports; i++)
		for (uint32_t k = 0; k < n->npods; k++) {
			const struct pod *q = &c->pods[n->pods[k]];
			for (uint32_t j = 0; j < q->spec.nports; j++)
				if (ports_conflict(c, &p->spec.ports[i], &q->spec.ports[j])) {
					*port = (int32_t)i;
					return (int32_t)n->pods[k];
				}
		}
	return -1;
}

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c;
	return p->spec.nports == 0;
}

static int prefilter(struct cycle_state *x)
{
	/* util.GetHostPorts: none, Skip */
	x->ports_skip = x->p->spec.nports == 0;
	return 1;
}

static bool filter_skip(const struct cycle_state *x)
{
	return x->ports_skip;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	int32_t port = -1, q = node_ports_holder(x->c, x->p, &x->c->nodes[id], &port);
	if (q < 0)
		return 1;
	r->why.ports.port = (int16_t)port;
	r->why.ports.holder = q; /* the detail names it after preemption too */
	return 0; /* Unschedulable: preemption may free the port */
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) didn't have free ports for the requested pod ports");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct pod *p = &c->pods[d->pod];
	int32_t port = r->why.ports.port, q = r->why.ports.holder;
	if (q < 0 || (uint32_t)q >= c->npods || port < 0 || (uint32_t)port >= p->spec.nports) {
		snprintf(buf, len, "host port in use");
		return;
	}
	const struct host_port *hp = &p->spec.ports[port];
	snprintf(buf, len, "hostPort %d/%s on %s is held by pod %s/%s", hp->host_port, proto_of(c, hp->protocol),
		 ip_of(c, hp->host_ip), intern_get(c->in, c->pods[q].ns), intern_get(c->in, c->pods[q].name));
}

const struct plugin_ops plugin_node_ports = {
	.code = "Port",
	.lean_skip = lean_skip,
	.prefilter = prefilter,
	.filter_skip = filter_skip,
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
