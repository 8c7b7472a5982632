/* volumerestrictions.c - VolumeRestrictions: PreFilter (the pod's claims
 * must exist; its ReadWriteOncePod claims other pods use) and Filter
 * (volumerestrictions/volume_restrictions.go). The in-tree disk
 * conflicts (GCE PD, AWS EBS, iSCSI, RBD) are not modelled: skewer reads
 * no such volume source. */
#include <stdio.h>

#include "../plugins.h"

/* storage cache IsPVCUsedByPods: a bound pod of the cluster naming the
 * claim; the first such pod's id, -1 when none */
int32_t claim_used_by(const struct cluster *c, sym_t ns, sym_t claim, uint32_t except)
{
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *q = &c->pods[i];
		if (i == except || !q->alive || q->node < 0 || q->ns != ns)
			continue;
		for (uint32_t k = 0; k < q->spec.nvols; k++)
			if (q->spec.vols[k].kind == VOL_PVC && q->spec.vols[k].claim == claim)
				return (int32_t)i;
	}
	return -1;
}

/* The pod's ReadWriteOncePod claims that bound pods use: how many, and
 * the first one's volume index in *vol. */
static uint32_t rwop_in_use(const struct cluster *c, const struct pod *p, uint32_t self, int32_t *vol)
{
	uint32_t n = 0;
	*vol = -1;
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		const struct pod_volume *v = &p->spec.vols[k];
		if (v->kind != VOL_PVC)
			continue;
		int32_t q = storage_find_pvc(&c->st, p->ns, v->claim);
		if (q < 0 || !(c->st.pvcs[q].modes & AM_RWOP) || claim_used_by(c, p->ns, v->claim, self) < 0)
			continue;
		if (!n++)
			*vol = (int32_t)k;
	}
	return n;
}

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c;
	return p->spec.nvols == 0;
}

static int prefilter(struct cycle_state *x)
{
	const struct cluster *c = x->c;
	const struct pod *p = x->p;
	char buf[600];
	x->vr_skip = true;
	if (x->rejected || x->conflict)
		return 1;
	/* readWriteOncePodPVCsForPod: a missing claim is NotFound,
	 * UnschedulableAndUnresolvable with the API error's text */
	for (uint32_t k = 0; k < p->spec.nvols; k++) {
		const struct pod_volume *v = &p->spec.vols[k];
		if (v->kind == VOL_PVC && storage_find_pvc(&c->st, p->ns, v->claim) < 0) {
			snprintf(buf, sizeof(buf), "persistentvolumeclaim \"%s\" not found", intern_get(c->in, v->claim));
			return cycle_reject(x, PL_VOLUME_RESTRICTIONS, buf);
		}
	}
	int32_t vol;
	x->rwop_in_use = rwop_in_use(c, p, x->d->pod, &vol);
	x->vr_skip = x->rwop_in_use == 0;
	return 1;
}

static bool filter_skip(const struct cycle_state *x)
{
	/* the dry run of preemption may have taken the claim's user off */
	return x->vr_skip && !x->over;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)id;
	int32_t vol = -1;
	uint32_t n = x->over ? rwop_in_use(x->c, x->p, x->d->pod, &vol) : x->rwop_in_use;
	if (!n)
		return 1;
	if (vol < 0)
		rwop_in_use(x->c, x->p, x->d->pod, &vol);
	r->why.vr.vol = (int16_t)vol;
	r->why.vr.rwop = true;
	return 0; /* Unschedulable: preemption may remove the claim's user */
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)d, (void)r;
	/* ErrReasonReadWriteOncePodConflict; before 1.33 (#129145) the older text */
	snprintf(buf, len, "%s", c && !c->cfg.sw.rwop_text ?
		 "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode" :
		 "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	const struct pod *p = &c->pods[d->pod];
	int16_t k = r->why.vr.vol;
	if (k < 0 || (uint32_t)k >= p->spec.nvols) {
		snprintf(buf, len, "a ReadWriteOncePod claim is in use");
		return;
	}
	sym_t claim = p->spec.vols[k].claim;
	int32_t q = claim_used_by(c, p->ns, claim, d->pod);
	snprintf(buf, len, "claim %s/%s is ReadWriteOncePod and pod %s/%s uses it", intern_get(c->in, p->ns),
		 intern_get(c->in, claim), q >= 0 ? intern_get(c->in, c->pods[q].ns) : "?",
		 q >= 0 ? intern_get(c->in, c->pods[q].name) : "?");
}

const struct plugin_ops plugin_volume_restrictions = {
	.code = "VRes",
	.lean_skip = lean_skip,
	.prefilter = prefilter,
	.filter_skip = filter_skip,
	.filter = filter,
	.reason = reason,
	.detail = detail,
};
