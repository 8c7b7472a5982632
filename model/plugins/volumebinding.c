/* volumebinding.c - VolumeBinding: PreFilter (the claims must exist and
 * be bound or delayed), Filter (binder.go FindPodVolumes), PreScore and
 * Score (StorageCapacityScoring, on by default in v1.37: the static
 * bindings' utilization, the default shape 0 -> 100, 100 -> 0)
 * (volumebinding/volume_binding.go). The binding on the chosen node is
 * the timeline's (vb_bind, model/volumes.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c;
	return !p->spec.nvols;
}

static int prefilter(struct cycle_state *x)
{
	const struct cluster *c = x->c;
	const struct pod *p = x->p;
	char buf[1200];
	x->vb_skip = true;
	if (x->rejected || x->conflict || !p->spec.nvols)
		return 1; /* podHasPVCs: none, Skip */
	bool immediate = false;
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		const struct pod_volume *v = &p->spec.vols[k];
		struct pvc tmp;
		const struct pvc *q = volume_claim(c, p, v, &tmp);
		/* podHasPVCs: the listers' errors, UnschedulableAndUnresolvable */
		if (!q)
			snprintf(buf, sizeof(buf), "persistentvolumeclaim \"%s\" not found", intern_get(c->in, v->claim));
		else if (q->lost)
			snprintf(buf, sizeof(buf), "persistentvolumeclaim \"%s\" bound to non-existent persistentvolume \"%s\"",
				 intern_get(c->in, q->name), q->volume_name ? intern_get(c->in, q->volume_name) : "");
		else if (q->deleting)
			snprintf(buf, sizeof(buf), "persistentvolumeclaim \"%s\" is being deleted", intern_get(c->in, q->name));
		else {
			immediate |= claim_class(c, q) == CLAIM_IMMEDIATE;
			continue;
		}
		return cycle_reject(x, PL_VOLUME_BINDING, buf);
	}
	if (immediate)
		return cycle_reject(x, PL_VOLUME_BINDING, "pod has unbound immediate PersistentVolumeClaims");
	x->vb_skip = false;
	return 1;
}

static bool filter_skip(const struct cycle_state *x)
{
	return x->vb_skip;
}

/* FindPodVolumes on node id into r (r->pv: the caller's, nvols long,
 * or NULL for none). */
static void find(const struct cluster *c, const struct pod *p, uint32_t id, struct vb_result *r)
{
	int32_t local[16];
	int32_t *pv = p->spec.nvols <= 16 ? local : malloc(p->spec.nvols * sizeof(*pv));
	struct vb_result rr = { .pv = pv };
	if (!pv) {
		memset(r, 0, sizeof(*r));
		r->reasons = VB_BIND_CONFLICT;
		return;
	}
	vb_find(c, p, &c->nodes[id], &rr);
	if (r->pv)
		memcpy(r->pv, pv, p->spec.nvols * sizeof(*pv));
	r->reasons = rr.reasons;
	r->vol = rr.vol;
	r->has_static = rr.has_static;
	if (pv != local)
		free(pv);
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	struct vb_result vr = { 0 };
	find(x->c, x->p, id, &vr);
	if (!vr.reasons)
		return 1;
	r->why.vb.reasons = vr.reasons;
	r->why.vb.vol = (int16_t)vr.vol;
	r->unresolvable = true;
	return 0;
}

static bool prescore(struct cycle_state *x, const uint32_t *ids, uint32_t nf)
{
	(void)ids, (void)nf;
	/* upstream's PreScore does not Skip with StorageCapacityScoring on:
	 * a pod without claims scores 0 on every node, which adds nothing;
	 * skewer records it as skipped */
	return !x->vb_skip;
}

/* scorer.go buildScorerFunction over the static bindings per class:
 * 100 - requested * 100 / capacity (the default shape), 0 when full or
 * over; the classes' mean, rounded */
static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	const struct cluster *c = x->c;
	const struct pod *p = x->p;
	if (!p->spec.nvols)
		return 0;
	int32_t *pv = malloc(p->spec.nvols * sizeof(*pv));
	int64_t *req = calloc(p->spec.nvols, sizeof(*req)), *cap = calloc(p->spec.nvols, sizeof(*cap));
	sym_t *cls = calloc(p->spec.nvols, sizeof(*cls));
	int64_t total = 0, n = 0;
	if (!pv || !req || !cap || !cls)
		goto done;
	struct vb_result vr = { .pv = pv };
	find(c, p, id, &vr);
	uint32_t nc = 0;
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		if (pv[k] < 0)
			continue;
		struct pvc tmp;
		const struct pvc *q = volume_claim(c, p, &p->spec.vols[k], &tmp);
		const struct pv *v = &c->st.pvs[pv[k]];
		uint32_t j = 0;
		while (j < nc && cls[j] != v->class)
			j++;
		if (j == nc)
			cls[nc++] = v->class;
		req[j] += q ? q->request : 0;
		cap[j] += v->capacity;
	}
	for (uint32_t j = 0; j < nc; j++) {
		int64_t u = cap[j] == 0 || req[j] > cap[j] ? 100 : req[j] * 100 / cap[j];
		total += 100 - u;
		n++;
	}
done:
	free(pv);
	free(req);
	free(cap);
	free(cls);
	return n ? (int64_t)llround((double)total / (double)n) : 0;
}

static const char *const vb_texts[] = {
	"node(s) didn't match PersistentVolume's node affinity",                    /* ErrReasonNodeConflict, v1.33 */
	"node(s) didn't find available persistent volumes to bind",                 /* ErrReasonBindConflict */
	"node(s) did not have enough free storage",                                 /* ErrReasonNotEnoughSpace */
	"node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", /* ErrReasonPVNotExist */
};

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)d;
	size_t o = 0;
	buf[0] = '\0';
	/* Status.AppendReason in binder.go's order; FitError counts each */
	for (int b = 0; b < 4; b++) {
		if (!(r->why.vb.reasons & (1u << b)))
			continue;
		if (o)
			fmt_append(buf, len, &o, ", ");
		/* ErrReasonNodeConflict before 1.33 (#129887) */
		fmt_append(buf, len, &o, b == 0 && c && !c->cfg.sw.pv_affinity_text ?
				 "node(s) had volume node affinity conflict" : vb_texts[b]);
	}
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct pod *p = &c->pods[d->pod];
	int16_t k = r->why.vb.vol;
	if (k < 0 || (uint32_t)k >= p->spec.nvols) {
		snprintf(buf, len, "no volume for the pod's claims here");
		return;
	}
	struct pvc tmp;
	const struct pvc *q = volume_claim(c, p, &p->spec.vols[k], &tmp);
	const struct node *n = &c->nodes[r->node];
	if (!q) {
		snprintf(buf, len, "claim %s is missing", intern_get(c->in, p->spec.vols[k].claim));
		return;
	}
	uint8_t first = r->why.vb.reasons & (uint8_t)-r->why.vb.reasons;
	int32_t pv = q->volume_name != SYM_NONE ? storage_find_pv(&c->st, q->volume_name) : -1;
	int32_t sc = q->class != SYM_NONE ? storage_find_class(&c->st, q->class) : -1;
	sym_t zone = labels_get(&n->labels, c->sym_zone);
	if (first == VB_NODE_CONFLICT && pv >= 0) {
		snprintf(buf, len, "claim %s is bound to PersistentVolume %s, whose node affinity the node (%s=%s) does not match",
			 intern_get(c->in, q->name), intern_get(c->in, c->st.pvs[pv].name), intern_get(c->in, c->sym_zone),
			 zone ? intern_get(c->in, zone) : "(none)");
	} else if (first == VB_PV_MISSING) {
		snprintf(buf, len, "claim %s is bound to PersistentVolume %s, which does not exist",
			 intern_get(c->in, q->name), intern_get(c->in, q->volume_name));
	} else if (first == VB_BIND_CONFLICT && q->selected_node != SYM_NONE) {
		snprintf(buf, len, "claim %s was provisioned for node %s", intern_get(c->in, q->name),
			 intern_get(c->in, q->selected_node));
	} else if (first == VB_BIND_CONFLICT && sc >= 0) {
		const struct storage_class *cl = &c->st.classes[sc];
		const char *prov = cl->provisioner ? intern_get(c->in, cl->provisioner) : "";
		if (!*prov || !strcmp(prov, "kubernetes.io/no-provisioner"))
			snprintf(buf, len, "claim %s: no available PersistentVolume of class %s fits on the node, and the class provisions none",
				 intern_get(c->in, q->name), intern_get(c->in, cl->name));
		else
			snprintf(buf, len, "claim %s: no available PersistentVolume fits, and class %s's allowedTopologies exclude the node (%s=%s)",
				 intern_get(c->in, q->name), intern_get(c->in, cl->name), intern_get(c->in, c->sym_zone),
				 zone ? intern_get(c->in, zone) : "(none)");
	} else if (first == VB_NO_SPACE && sc >= 0) {
		snprintf(buf, len, "claim %s: CSIDriver %s tracks storage capacity and no CSIStorageCapacity offers room",
			 intern_get(c->in, q->name), intern_get(c->in, c->st.classes[sc].provisioner));
	} else {
		snprintf(buf, len, "claim %s cannot be bound here", intern_get(c->in, q->name));
	}
}

const struct plugin_ops plugin_volume_binding = {
	.code = "VBnd",
	.lean_skip = lean_skip,
	.prefilter = prefilter,
	.filter_skip = filter_skip,
	.filter = filter,
	.prescore = prescore,
	.score = score,
	.reason = reason,
	.detail = detail,
};
