/* volumezone.c - VolumeZone: PreFilter (the zone and region labels of
 * the pod's bound PersistentVolumes; Skip without) and Filter
 * (volumezone/volume_zone.go). */
#include <stdio.h>
#include <string.h>

#include "../plugins.h"

/* volume_zone.go topologyLabels, in order */
static const char *const topo_keys[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};

/* translateToGALabel */
static const char *ga_key(int k)
{
	return k < 2 ? topo_keys[k + 2] : topo_keys[k];
}

/* volumehelpers.LabelZonesToSet: values split on "__" */
static bool in_zone_set(const char *set, const char *v)
{
	size_t n = strlen(v);
	for (const char *s = set;;) {
		const char *e = strstr(s, "__");
		size_t m = e ? (size_t)(e - s) : strlen(s);
		if (m == n && !strncmp(s, v, n))
			return true;
		if (!e)
			return false;
		s = e + 2;
	}
}

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c;
	for (uint32_t k = 0; k < p->spec.nvols; k++)
		if (p->spec.vols[k].kind == VOL_PVC)
			return false;
	return true;
}

/* The PV of claim volume k when it is bound (volumeName set), else -1. */
static int32_t bound_pv(const struct cluster *c, const struct pod *p, uint32_t k)
{
	if (p->spec.vols[k].kind != VOL_PVC)
		return -1;
	int32_t q = storage_find_pvc(&c->st, p->ns, p->spec.vols[k].claim);
	if (q < 0 || c->st.pvcs[q].volume_name == SYM_NONE)
		return -1;
	return storage_find_pv(&c->st, c->st.pvcs[q].volume_name);
}

static int prefilter(struct cycle_state *x)
{
	const struct cluster *c = x->c;
	const struct pod *p = x->p;
	char buf[1200];
	x->vz_skip = true;
	if (x->rejected || x->conflict)
		return 1;
	bool any = false;
	/* getPVbyPod */
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		const struct pod_volume *v = &p->spec.vols[k];
		if (v->kind != VOL_PVC)
			continue;
		int32_t qi = storage_find_pvc(&c->st, p->ns, v->claim);
		if (qi < 0) {
			snprintf(buf, sizeof(buf), "persistentvolumeclaim \"%s\" not found", intern_get(c->in, v->claim));
			return cycle_reject(x, PL_VOLUME_ZONE, buf);
		}
		const struct pvc *q = &c->st.pvcs[qi];
		if (q->volume_name == SYM_NONE) {
			if (q->class == SYM_NONE || !intern_len(c->in, q->class))
				return cycle_reject(x, PL_VOLUME_ZONE, "PersistentVolumeClaim had no pv name and storageClass name");
			int32_t sc = storage_find_class(&c->st, q->class);
			if (sc < 0) {
				snprintf(buf, sizeof(buf), "storageclass.storage.k8s.io \"%s\" not found",
					 intern_get(c->in, q->class));
				return cycle_reject(x, PL_VOLUME_ZONE, buf);
			}
			if (c->st.classes[sc].wffc)
				continue; /* unbound volumes are skipped */
			return cycle_reject(x, PL_VOLUME_ZONE, "PersistentVolume had no name");
		}
		int32_t pv = storage_find_pv(&c->st, q->volume_name);
		if (pv < 0) {
			snprintf(buf, sizeof(buf), "persistentvolume \"%s\" not found", intern_get(c->in, q->volume_name));
			return cycle_reject(x, PL_VOLUME_ZONE, buf);
		}
		for (int t = 0; t < 4; t++)
			any |= labels_get(&c->st.pvs[pv].labels, intern_find(c->in, topo_keys[t], strlen(topo_keys[t]))) != SYM_NONE;
	}
	x->vz_skip = !any;
	return 1;
}

static bool filter_skip(const struct cycle_state *x)
{
	return x->vz_skip;
}

static sym_t key_sym(const struct cluster *c, const char *k)
{
	return intern_find(c->in, k, strlen(k));
}

/* Filter: 1 fits; 0 with the pod volume and the label key that failed. */
int volume_zone_fit(const struct cluster *c, const struct pod *p, const struct node *n, int16_t *vol, int *key)
{
	bool constrained = false;
	for (int t = 0; t < 4; t++)
		constrained |= labels_get(&n->labels, key_sym(c, topo_keys[t])) != SYM_NONE;
	if (!constrained)
		return 1; /* a node without topology labels: single-zone clusters */
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		int32_t pv = bound_pv(c, p, k);
		if (pv < 0)
			continue;
		for (int t = 0; t < 4; t++) {
			sym_t pk = key_sym(c, topo_keys[t]);
			sym_t val = pk ? labels_get(&c->st.pvs[pv].labels, pk) : SYM_NONE;
			if (val == SYM_NONE)
				continue;
			sym_t nv = labels_get(&n->labels, pk);
			if (nv == SYM_NONE)
				nv = labels_get(&n->labels, key_sym(c, ga_key(t)));
			if (nv == SYM_NONE || !in_zone_set(intern_get(c->in, val), intern_get(c->in, nv))) {
				*vol = (int16_t)k;
				*key = t;
				return 0;
			}
		}
	}
	return 1;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	int16_t vol = -1;
	int key = 0;
	if (volume_zone_fit(x->c, x->p, &x->c->nodes[id], &vol, &key))
		return 1;
	r->why.vz.vol = vol;
	r->unresolvable = true;
	return 0;
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) had no available volume zone");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct pod *p = &c->pods[d->pod];
	const struct node *n = &c->nodes[r->node];
	int16_t vol = -1;
	int t = 0;
	if (volume_zone_fit(c, p, n, &vol, &t) || vol < 0) {
		snprintf(buf, len, "volume zone labels do not match");
		return;
	}
	int32_t pv = bound_pv(c, p, (uint32_t)vol);
	sym_t pk = key_sym(c, topo_keys[t]);
	sym_t nv = labels_get(&n->labels, pk);
	const char *nk = topo_keys[t];
	if (nv == SYM_NONE) {
		nv = labels_get(&n->labels, key_sym(c, ga_key(t)));
		nk = ga_key(t);
	}
	snprintf(buf, len, "PersistentVolume %s has %s=%s; the node has %s%s%s",
		 intern_get(c->in, c->st.pvs[pv].name), topo_keys[t],
		 intern_get(c->in, labels_get(&c->st.pvs[pv].labels, pk)), nv ? nk : "no ", nv ? "=" : nk,
		 nv ? intern_get(c->in, nv) : " label");
}

const struct plugin_ops plugin_volume_zone = {
	.code = "VZon",
	.lean_skip = lean_skip,
	.prefilter = prefilter,
	.filter_skip = filter_skip,
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
