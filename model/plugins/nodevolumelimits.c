/* nodevolumelimits.c - NodeVolumeLimits: PreFilter (Skip without claims)
 * and Filter, the CSI attach limits of CSINode objects
 * (nodevolumelimits/csi.go). VolumeAttachment objects and in-tree
 * volume translation are not modelled. */
#include <stdio.h>
#include <stdlib.h>

#include "../plugins.h"

/* An attachable volume: driver and handle (a bound claim's PV), or for
 * an unbound claim its class's provisioner and the claim itself
 * (csi.go getCSIDriverInfoFromSC's synthetic handle). */
struct att {
	sym_t driver, handle, ns;
};

/* csi.go getCSIDriverInfo for the claim pod volume v of pod p names:
 * 1 with *a, 0 when it is not a CSI volume skewer can count. */
static int attachable(const struct cluster *c, const struct pod *p, const struct pod_volume *v, struct att *a)
{
	struct pvc tmp;
	const struct pvc *q = volume_claim(c, p, v, &tmp);
	if (!q)
		return 0;
	int32_t pv = q->volume_name != SYM_NONE ? storage_find_pv(&c->st, q->volume_name) : -1;
	if (pv >= 0) {
		const struct pv *x = &c->st.pvs[pv];
		if (x->driver == SYM_NONE)
			return 0;
		*a = (struct att){ x->driver, x->handle != SYM_NONE ? x->handle : x->name, SYM_NONE };
		return 1;
	}
	int32_t sc = q->class != SYM_NONE ? storage_find_class(&c->st, q->class) : -1;
	if (sc < 0 || c->st.classes[sc].provisioner == SYM_NONE)
		return 0;
	*a = (struct att){ c->st.classes[sc].provisioner, q->name, q->ns };
	return 1;
}

static bool same(const struct att *a, const struct att *b)
{
	return a->driver == b->driver && a->handle == b->handle && a->ns == b->ns;
}

/* Filter on node n: 1 fits; 0 with the driver's index in the node's
 * CSINode and the counts; -1 on OOM. */
int node_volume_limits_fit(const struct cluster *c, const struct pod *p, const struct node *n, int16_t *drv,
			   int64_t *have, int64_t *want, int64_t *limit)
{
	int32_t cn = storage_find_csinode(&c->st, n->name);
	if (cn < 0)
		return 1; /* no CSINode, no limits */
	const struct csi_node *csn = &c->st.csinodes[cn];
	struct att *nw = calloc(p->spec.nvols + 1, sizeof(*nw));
	uint32_t nn = 0, na = 0, cap = 16;
	struct att *at = malloc(cap * sizeof(*at));
	int rc = 1;
	if (!nw || !at) {
		rc = -1;
		goto done;
	}
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		struct att a;
		bool dup = false;
		if (!attachable(c, p, &p->spec.vols[k], &a))
			continue;
		for (uint32_t j = 0; j < nn; j++)
			dup |= same(&nw[j], &a);
		if (!dup)
			nw[nn++] = a;
	}
	if (!nn)
		goto done;
	/* the volumes of the node's pods, each once */
	for (uint32_t i = 0; i < n->npods; i++) {
		const struct pod *q = &c->pods[n->pods[i]];
		for (uint32_t k = 0; k < q->spec.nvols; k++) {
			struct att a;
			bool dup = false;
			if (!attachable(c, q, &q->spec.vols[k], &a))
				continue;
			for (uint32_t j = 0; j < na; j++)
				dup |= same(&at[j], &a);
			if (dup)
				continue;
			if (na == cap) {
				struct att *m = realloc(at, 2 * cap * sizeof(*at));
				if (!m) {
					rc = -1;
					goto done;
				}
				at = m;
				cap *= 2;
			}
			at[na++] = a;
		}
	}
	/* a volume already attached takes no new slot; then per driver
	 * attached + new against allocatable.count */
	for (uint32_t d = 0; d < csn->ndrivers && rc == 1; d++) {
		if (!csn->drivers[d].has_count)
			continue;
		int64_t h = 0, w = 0;
		for (uint32_t j = 0; j < na; j++)
			h += at[j].driver == csn->drivers[d].name;
		for (uint32_t j = 0; j < nn; j++) {
			bool shared = false;
			for (uint32_t i = 0; i < na; i++)
				shared |= same(&at[i], &nw[j]);
			w += !shared && nw[j].driver == csn->drivers[d].name;
		}
		if (w && h + w > csn->drivers[d].count) {
			*drv = (int16_t)d;
			*have = h;
			*want = w;
			*limit = csn->drivers[d].count;
			rc = 0;
		}
	}
done:
	free(nw);
	free(at);
	return rc;
}

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c;
	return !p->spec.nvols;
}

static int prefilter(struct cycle_state *x)
{
	x->nvl_skip = !x->p->spec.nvols || x->rejected || x->conflict;
	return 1;
}

static bool filter_skip(const struct cycle_state *x)
{
	return x->nvl_skip;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	int64_t h = 0, w = 0, l = 0;
	int16_t drv = -1;
	int rc = node_volume_limits_fit(x->c, x->p, &x->c->nodes[id], &drv, &h, &w, &l);
	if (rc != 0)
		return 1; /* OOM counts as a fit: nothing to show */
	r->why.nvl.drv = drv;
	r->why.nvl.have = h;
	r->why.nvl.want = w;
	r->why.nvl.limit = l;
	return 0; /* Unschedulable */
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) exceed max volume count");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)d;
	int32_t cn = storage_find_csinode(&c->st, c->nodes[r->node].name);
	const char *drv = cn >= 0 && r->why.nvl.drv >= 0 && (uint32_t)r->why.nvl.drv < c->st.csinodes[cn].ndrivers
				  ? intern_get(c->in, c->st.csinodes[cn].drivers[r->why.nvl.drv].name)
				  : "?";
	snprintf(buf, len, "driver %s: %lld attached + %lld new > allocatable.count %lld", drv,
		 (long long)r->why.nvl.have, (long long)r->why.nvl.want, (long long)r->why.nvl.limit);
}

const struct plugin_ops plugin_node_volume_limits = {
	.code = "VLim",
	.lean_skip = lean_skip,
	.prefilter = prefilter,
	.filter_skip = filter_skip,
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
