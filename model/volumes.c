/* volumes.c - the storage objects and VolumeBinding's binder
 * (pkg/scheduler/framework/plugins/volumebinding/binder.go), shared by
 * the volume plugins and the timeline's binding of claims. */
#include "volumes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "plugins.h"

void storage_class_fini(struct storage_class *s)
{
	for (uint32_t i = 0; i < s->ntopo; i++) {
		for (uint32_t j = 0; j < s->topo[i].nexprs; j++)
			free(s->topo[i].exprs[j].vals);
		free(s->topo[i].exprs);
	}
	free(s->topo);
	memset(s, 0, sizeof(*s));
}

void pv_fini(struct pv *v)
{
	labels_fini(&v->labels);
	for (uint32_t i = 0; i < v->naff; i++)
		ns_term_fini(&v->aff[i]);
	free(v->aff);
	memset(v, 0, sizeof(*v));
}

void csi_node_fini(struct csi_node *n)
{
	free(n->drivers);
	memset(n, 0, sizeof(*n));
}

void storage_fini(struct storage *st)
{
	for (uint32_t i = 0; i < st->nclasses; i++)
		storage_class_fini(&st->classes[i]);
	free(st->classes);
	for (uint32_t i = 0; i < st->npvs; i++)
		pv_fini(&st->pvs[i]);
	free(st->pvs);
	free(st->pvcs);
	for (uint32_t i = 0; i < st->ncsinodes; i++)
		csi_node_fini(&st->csinodes[i]);
	free(st->csinodes);
	free(st->drivers);
	memset(st, 0, sizeof(*st));
}

static int class_copy(struct storage_class *d, const struct storage_class *s)
{
	*d = *s;
	d->topo = NULL;
	d->ntopo = 0;
	if (!s->ntopo)
		return 1;
	if (!(d->topo = calloc(s->ntopo, sizeof(*d->topo))))
		return 0;
	d->ntopo = s->ntopo;
	for (uint32_t i = 0; i < s->ntopo; i++) {
		if (s->topo[i].nexprs && !(d->topo[i].exprs = calloc(s->topo[i].nexprs, sizeof(*d->topo[i].exprs))))
			return 0;
		d->topo[i].nexprs = s->topo[i].nexprs;
		for (uint32_t j = 0; j < s->topo[i].nexprs; j++) {
			const struct topo_expr *e = &s->topo[i].exprs[j];
			d->topo[i].exprs[j] = *e;
			d->topo[i].exprs[j].vals = NULL;
			if (e->nvals && !(d->topo[i].exprs[j].vals = malloc(e->nvals * sizeof(sym_t))))
				return 0;
			if (e->nvals)
				memcpy(d->topo[i].exprs[j].vals, e->vals, e->nvals * sizeof(sym_t));
		}
	}
	return 1;
}

static int pv_copy(struct pv *d, const struct pv *s)
{
	*d = *s;
	memset(&d->labels, 0, sizeof(d->labels));
	d->aff = NULL;
	d->naff = 0;
	if (!labels_copy(&d->labels, &s->labels))
		return 0;
	if (s->naff && !(d->aff = calloc(s->naff, sizeof(*d->aff))))
		return 0;
	for (uint32_t i = 0; i < s->naff; i++, d->naff++)
		if (!ns_term_copy(&d->aff[i], &s->aff[i]))
			return 0;
	return 1;
}

static int csinode_copy(struct csi_node *d, const struct csi_node *s)
{
	*d = *s;
	d->drivers = NULL;
	if (s->ndrivers && !(d->drivers = malloc(s->ndrivers * sizeof(*d->drivers))))
		return 0;
	if (s->ndrivers)
		memcpy(d->drivers, s->drivers, s->ndrivers * sizeof(*d->drivers));
	return 1;
}

static int grow(void **v, uint32_t n, size_t sz)
{
	void *p = realloc(*v, (size_t)(n + 1) * sz);
	if (!p)
		return 0;
	*v = p;
	return 1;
}

#define ADD(arr, n, x)                                            \
	do {                                                      \
		if (!grow((void **)&(arr), (n), sizeof(*(arr))))  \
			return 0;                                 \
		(arr)[(n)++] = *(x);                              \
		memset((x), 0, sizeof(*(x)));                     \
		return 1;                                         \
	} while (0)

int storage_append(struct storage *dst, const struct storage *src)
{
	for (uint32_t i = 0; i < src->nclasses; i++) {
		struct storage_class x;
		if (!class_copy(&x, &src->classes[i]) || !storage_add_class(dst, &x)) {
			storage_class_fini(&x);
			return 0;
		}
	}
	for (uint32_t i = 0; i < src->npvs; i++) {
		struct pv x;
		if (!pv_copy(&x, &src->pvs[i]) || !storage_add_pv(dst, &x)) {
			pv_fini(&x);
			return 0;
		}
	}
	for (uint32_t i = 0; i < src->npvcs; i++) {
		struct pvc x = src->pvcs[i];
		if (!storage_add_pvc(dst, &x))
			return 0;
	}
	for (uint32_t i = 0; i < src->ncsinodes; i++) {
		struct csi_node x;
		if (!csinode_copy(&x, &src->csinodes[i]) || !storage_add_csinode(dst, &x)) {
			csi_node_fini(&x);
			return 0;
		}
	}
	for (uint32_t i = 0; i < src->ndrivers; i++) {
		struct csi_driver x = src->drivers[i];
		if (!storage_add_driver(dst, &x))
			return 0;
	}
	return 1;
}

void storage_pop(struct storage *dst, const struct storage *src)
{
	for (uint32_t i = 0; i < src->nclasses && dst->nclasses; i++)
		storage_class_fini(&dst->classes[--dst->nclasses]);
	for (uint32_t i = 0; i < src->npvs && dst->npvs; i++)
		pv_fini(&dst->pvs[--dst->npvs]);
	for (uint32_t i = 0; i < src->npvcs && dst->npvcs; i++)
		dst->npvcs--;
	for (uint32_t i = 0; i < src->ncsinodes && dst->ncsinodes; i++)
		csi_node_fini(&dst->csinodes[--dst->ncsinodes]);
	for (uint32_t i = 0; i < src->ndrivers && dst->ndrivers; i++)
		dst->ndrivers--;
}

const char *storage_describe(const struct intern *in, const struct storage *st, char *buf, size_t len)
{
	if (st->nclasses)
		snprintf(buf, len, "StorageClass %s", intern_get(in, st->classes[0].name));
	else if (st->npvs)
		snprintf(buf, len, "PersistentVolume %s", intern_get(in, st->pvs[0].name));
	else if (st->npvcs)
		snprintf(buf, len, "PersistentVolumeClaim %s/%s", intern_get(in, st->pvcs[0].ns),
			 intern_get(in, st->pvcs[0].name));
	else if (st->ncsinodes)
		snprintf(buf, len, "CSINode %s", intern_get(in, st->csinodes[0].name));
	else if (st->ndrivers)
		snprintf(buf, len, "CSIDriver %s", intern_get(in, st->drivers[0].name));
	else
		snprintf(buf, len, "nothing");
	return buf;
}

const char *storage_clash(const struct intern *in, const struct storage *dst, const struct storage *src, char *buf,
			  size_t len)
{
	struct storage one;
	for (uint32_t i = 0; i < src->nclasses; i++)
		if (storage_find_class(dst, src->classes[i].name) >= 0) {
			one = (struct storage){ .classes = &src->classes[i], .nclasses = 1 };
			return storage_describe(in, &one, buf, len);
		}
	for (uint32_t i = 0; i < src->npvs; i++)
		if (storage_find_pv(dst, src->pvs[i].name) >= 0) {
			one = (struct storage){ .pvs = &src->pvs[i], .npvs = 1 };
			return storage_describe(in, &one, buf, len);
		}
	for (uint32_t i = 0; i < src->npvcs; i++)
		if (storage_find_pvc(dst, src->pvcs[i].ns, src->pvcs[i].name) >= 0) {
			one = (struct storage){ .pvcs = &src->pvcs[i], .npvcs = 1 };
			return storage_describe(in, &one, buf, len);
		}
	for (uint32_t i = 0; i < src->ncsinodes; i++)
		if (storage_find_csinode(dst, src->csinodes[i].name) >= 0) {
			one = (struct storage){ .csinodes = &src->csinodes[i], .ncsinodes = 1 };
			return storage_describe(in, &one, buf, len);
		}
	for (uint32_t i = 0; i < src->ndrivers; i++)
		if (storage_find_driver(dst, src->drivers[i].name) >= 0) {
			one = (struct storage){ .drivers = &src->drivers[i], .ndrivers = 1 };
			return storage_describe(in, &one, buf, len);
		}
	return NULL;
}

int storage_add_class(struct storage *st, struct storage_class *x)
{
	ADD(st->classes, st->nclasses, x);
}

int storage_add_pv(struct storage *st, struct pv *x)
{
	x->alive = true;
	ADD(st->pvs, st->npvs, x);
}

int storage_add_pvc(struct storage *st, struct pvc *x)
{
	x->alive = true;
	ADD(st->pvcs, st->npvcs, x);
}

int storage_add_csinode(struct storage *st, struct csi_node *x)
{
	ADD(st->csinodes, st->ncsinodes, x);
}

int storage_add_driver(struct storage *st, struct csi_driver *x)
{
	ADD(st->drivers, st->ndrivers, x);
}

int32_t storage_find_class(const struct storage *st, sym_t name)
{
	for (uint32_t i = 0; i < st->nclasses; i++)
		if (st->classes[i].name == name)
			return (int32_t)i;
	return -1;
}

int32_t storage_find_pv(const struct storage *st, sym_t name)
{
	for (uint32_t i = 0; i < st->npvs; i++)
		if (st->pvs[i].alive && st->pvs[i].name == name)
			return (int32_t)i;
	return -1;
}

int32_t storage_find_pvc(const struct storage *st, sym_t ns, sym_t name)
{
	for (uint32_t i = 0; i < st->npvcs; i++)
		if (st->pvcs[i].alive && st->pvcs[i].name == name && st->pvcs[i].ns == ns)
			return (int32_t)i;
	return -1;
}

int32_t storage_find_csinode(const struct storage *st, sym_t name)
{
	for (uint32_t i = 0; i < st->ncsinodes; i++)
		if (st->csinodes[i].name == name)
			return (int32_t)i;
	return -1;
}

int32_t storage_find_driver(const struct storage *st, sym_t name)
{
	for (uint32_t i = 0; i < st->ndrivers; i++)
		if (st->drivers[i].name == name)
			return (int32_t)i;
	return -1;
}

bool topo_terms_match(const struct topo_term *t, uint32_t n, const struct labels *l)
{
	if (!n)
		return true;
	for (uint32_t i = 0; i < n; i++) {
		bool ok = true;
		for (uint32_t j = 0; j < t[i].nexprs && ok; j++) {
			sym_t v = labels_get(l, t[i].exprs[j].key);
			bool in = false;
			for (uint32_t k = 0; v != SYM_NONE && k < t[i].exprs[j].nvals; k++)
				in |= t[i].exprs[j].vals[k] == v;
			ok = in;
		}
		if (ok)
			return true;
	}
	return false;
}

bool pv_node_affinity_ok(const struct cluster *c, const struct pv *v, const struct node *n)
{
	if (!v->has_aff)
		return true;
	/* component-helpers nodeaffinity: the terms are ORed */
	for (uint32_t i = 0; i < v->naff; i++)
		if (ns_term_matches(c, &v->aff[i], n))
			return true;
	return false;
}

const struct pvc *volume_claim(const struct cluster *c, const struct pod *p, const struct pod_volume *v,
			       struct pvc *tmp)
{
	int32_t i = storage_find_pvc(&c->st, p->ns, v->claim);
	if (i >= 0)
		return &c->st.pvcs[i];
	if (v->kind != VOL_EPHEMERAL)
		return NULL;
	/* the ephemeral volume controller makes it from the template */
	memset(tmp, 0, sizeof(*tmp));
	tmp->name = v->claim;
	tmp->ns = p->ns;
	tmp->class = v->eph_class;
	tmp->request = v->eph_request;
	tmp->modes = v->eph_modes;
	tmp->alive = true;
	tmp->ephemeral = true;
	return tmp;
}

static sym_t class_of(const struct cluster *c, const struct pvc *q)
{
	return q->class == SYM_NONE ? c->sym_empty : q->class;
}

/* binder.go GetPodVolumeClaims, isPVCFullyBound, and component-helpers
 * IsDelayBindingMode (no class or an unknown one: not delayed) */
int claim_class(const struct cluster *c, const struct pvc *q)
{
	if (q->volume_name != SYM_NONE && q->bind_completed)
		return CLAIM_BOUND;
	sym_t cn = class_of(c, q);
	int32_t k = cn == c->sym_empty ? -1 : storage_find_class(&c->st, cn);
	if (k >= 0 && c->st.classes[k].wffc && q->volume_name == SYM_NONE)
		return CLAIM_DELAY;
	return CLAIM_IMMEDIATE;
}

/* pv_helpers.go FindMatchingVolume for a delayed claim on node n: the
 * smallest available PV of the claim's class that is big enough, offers
 * its access modes and whose node affinity the node satisfies; a PV
 * pre-bound to the claim wins when the node suits it. -1: none. */
static int32_t find_matching(const struct cluster *c, const struct pvc *q, const struct node *n,
			     const int32_t *chosen, uint32_t nchosen)
{
	const struct storage *st = &c->st;
	sym_t cn = class_of(c, q);
	int32_t best = -1;
	for (uint32_t i = 0; i < st->npvs; i++) {
		const struct pv *v = &st->pvs[i];
		bool taken = false;
		for (uint32_t k = 0; k < nchosen; k++)
			taken |= chosen[k] == (int32_t)i;
		if (!v->alive || taken || v->class != cn)
			continue;
		bool mine = v->claim_ns == q->ns && v->claim_name == q->name;
		if (v->claim_name != SYM_NONE && !mine)
			continue;
		if (v->capacity < q->request || v->deleting)
			continue;
		bool aff = pv_node_affinity_ok(c, v, n);
		if (mine)
			return aff ? (int32_t)i : -1;
		if (v->phase != PV_AVAILABLE || !aff || (q->modes & v->modes) != q->modes)
			continue;
		if (best < 0 || st->pvs[best].capacity > v->capacity)
			best = (int32_t)i;
	}
	return best;
}

/* binder.go hasEnoughCapacity: a CSIDriver with storageCapacity true
 * needs a CSIStorageCapacity object, which skewer does not read: none
 * has room */
static bool enough_capacity(const struct cluster *c, const struct storage_class *sc, const struct pvc *q)
{
	if (q->request == 0)
		return true;
	int32_t d = storage_find_driver(&c->st, sc->provisioner);
	return d < 0 || !c->st.drivers[d].storage_capacity;
}

void vb_find(const struct cluster *c, const struct pod *p, const struct node *n, struct vb_result *r)
{
	const struct storage *st = &c->st;
	bool bound_ok = true, bound_found = true, unbound_ok = true, space = true;
	int32_t vol_bound = -1, vol_unbound = -1, vol_space = -1;
	r->has_static = false;
	r->vol = -1;
	for (uint32_t i = 0; i < p->spec.nvols; i++)
		r->pv[i] = -1;
	/* checkBoundClaims: the first claim that fails decides */
	for (uint32_t i = 0; i < p->spec.nvols && bound_ok && bound_found; i++) {
		struct pvc tmp;
		const struct pvc *q = volume_claim(c, p, &p->spec.vols[i], &tmp);
		if (!q || claim_class(c, q) != CLAIM_BOUND)
			continue;
		int32_t v = storage_find_pv(st, q->volume_name);
		if (v < 0)
			bound_found = false;
		else if (!pv_node_affinity_ok(c, &st->pvs[v], n))
			bound_ok = false;
		if (!bound_ok || !bound_found)
			vol_bound = (int32_t)i;
	}
	/* the delayed claims: a selected node that is another fails at
	 * once; the others matched by increasing request, smallest first */
	uint32_t nd = 0;
	uint32_t *order = p->spec.nvols ? malloc(p->spec.nvols * sizeof(*order)) : NULL;
	int32_t *chosen = p->spec.nvols ? malloc(p->spec.nvols * sizeof(*chosen)) : NULL;
	struct pvc *tmps = p->spec.nvols ? calloc(p->spec.nvols, sizeof(*tmps)) : NULL;
	uint32_t nchosen = 0;
	if (p->spec.nvols && (!order || !chosen || !tmps)) {
		unbound_ok = false; /* out of memory: fail safe */
		goto done;
	}
	for (uint32_t i = 0; i < p->spec.nvols; i++) {
		const struct pvc *q = volume_claim(c, p, &p->spec.vols[i], &tmps[i]);
		if (!q || claim_class(c, q) != CLAIM_DELAY)
			continue;
		if (q->selected_node != SYM_NONE && q->selected_node != n->name) {
			unbound_ok = false;
			vol_unbound = (int32_t)i;
			goto done;
		}
		/* insertion by request (sort.Sort byPVCSize) */
		uint32_t k = nd++;
		while (k > 0) {
			struct pvc t2;
			const struct pvc *o = volume_claim(c, p, &p->spec.vols[order[k - 1]], &t2);
			if (o->request <= q->request)
				break;
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	for (uint32_t k = 0; k < nd; k++) {
		uint32_t i = order[k];
		struct pvc t2;
		const struct pvc *q = volume_claim(c, p, &p->spec.vols[i], &t2);
		int32_t v = q->selected_node != SYM_NONE ? -1 : find_matching(c, q, n, chosen, nchosen);
		if (v >= 0) {
			chosen[nchosen++] = v;
			r->pv[i] = v;
			r->has_static = true;
		}
	}
	/* checkVolumeProvisions over the claims left, in the same order */
	for (uint32_t k = 0; k < nd; k++) {
		uint32_t i = order[k];
		if (r->pv[i] >= 0)
			continue;
		struct pvc t2;
		const struct pvc *q = volume_claim(c, p, &p->spec.vols[i], &t2);
		int32_t sc = storage_find_class(st, class_of(c, q));
		const struct storage_class *cls = sc >= 0 ? &st->classes[sc] : NULL;
		if (!cls || cls->provisioner == SYM_NONE || !intern_len(c->in, cls->provisioner) ||
		    !strcmp(intern_get(c->in, cls->provisioner), "kubernetes.io/no-provisioner") ||
		    !topo_terms_match(cls->topo, cls->ntopo, &n->labels)) {
			unbound_ok = false;
			vol_unbound = (int32_t)i;
			break;
		}
		if (!enough_capacity(c, cls, q)) {
			space = false;
			vol_space = (int32_t)i;
			break;
		}
	}
done:
	free(order);
	free(chosen);
	free(tmps);
	r->reasons = (uint8_t)((!bound_ok ? VB_NODE_CONFLICT : 0) | (!unbound_ok ? VB_BIND_CONFLICT : 0) |
			       (!space ? VB_NO_SPACE : 0) | (!bound_found ? VB_PV_MISSING : 0));
	r->vol = !bound_ok ? vol_bound : !unbound_ok ? vol_unbound : !space ? vol_space : vol_bound;
	if (!r->reasons)
		r->vol = -1;
}

static int note_add(struct vol_undo *u, const char *s)
{
	size_t a = u->note ? strlen(u->note) : 0, b = strlen(s);
	char *n = realloc(u->note, a + b + 3);
	if (!n)
		return 0;
	if (a)
		memcpy(n + a, "; ", 2), a += 2;
	memcpy(n + a, s, b + 1);
	u->note = n;
	return 1;
}

static int keep_pvc(struct cluster *c, struct vol_undo *u, uint32_t id)
{
	void *v = realloc(u->pvc, (u->npvc + 1) * sizeof(*u->pvc));
	if (!v)
		return 0;
	u->pvc = v;
	const struct pvc *q = &c->st.pvcs[id];
	u->pvc[u->npvc].id = id;
	u->pvc[u->npvc].volume_name = q->volume_name;
	u->pvc[u->npvc].bind_completed = q->bind_completed;
	u->pvc[u->npvc].selected_node = q->selected_node;
	u->npvc++;
	return 1;
}

static int keep_pv(struct cluster *c, struct vol_undo *u, uint32_t id)
{
	void *v = realloc(u->pv, (u->npv + 1) * sizeof(*u->pv));
	if (!v)
		return 0;
	u->pv = v;
	const struct pv *q = &c->st.pvs[id];
	u->pv[u->npv].id = id;
	u->pv[u->npv].claim_ns = q->claim_ns;
	u->pv[u->npv].claim_name = q->claim_name;
	u->pv[u->npv].phase = q->phase;
	u->npv++;
	return 1;
}

/* A new PV for claim q provisioned for node n: its zone as node
 * affinity, the class's provisioner as its CSI driver. -1 on OOM. */
static int32_t provision(struct cluster *c, const struct pvc *q, const struct node *n)
{
	struct pv v;
	char name[600];
	memset(&v, 0, sizeof(v));
	snprintf(name, sizeof(name), "pvc-%s-%s", intern_get(c->in, q->ns), intern_get(c->in, q->name));
	if (!(v.name = intern_str(c->in, name)))
		return -1;
	v.class = class_of(c, q);
	v.capacity = q->request;
	v.modes = q->modes;
	v.claim_ns = q->ns;
	v.claim_name = q->name;
	v.phase = PV_BOUND;
	v.provisioned = true;
	v.handle = v.name;
	int32_t sc = storage_find_class(&c->st, v.class);
	v.driver = sc >= 0 ? c->st.classes[sc].provisioner : SYM_NONE;
	sym_t zone = labels_get(&n->labels, c->sym_zone);
	if (zone != SYM_NONE) {
		v.has_aff = true;
		if (!(v.aff = calloc(1, sizeof(*v.aff))) || !(v.aff->exprs = calloc(1, sizeof(*v.aff->exprs))) ||
		    !(v.aff->exprs->vals = malloc(sizeof(sym_t)))) {
			pv_fini(&v);
			return -1;
		}
		v.naff = 1;
		v.aff->nexprs = 1;
		v.aff->exprs->key = c->sym_zone;
		v.aff->exprs->op = SEL_IN;
		v.aff->exprs->vals[0] = zone;
		v.aff->exprs->nvals = 1;
	}
	if (!storage_add_pv(&c->st, &v)) {
		pv_fini(&v);
		return -1;
	}
	return (int32_t)c->st.npvs - 1;
}

int vb_bind(struct cluster *c, uint32_t pod, uint32_t node, struct vol_undo *u)
{
	const struct pod *p = &c->pods[pod];
	const struct node *n = &c->nodes[node];
	char buf[1200];
	memset(u, 0, sizeof(*u));
	u->npvs = c->st.npvs;
	u->npvcs = c->st.npvcs;
	if (!p->spec.nvols)
		return 1;
	int32_t *pvs = malloc(p->spec.nvols * sizeof(*pvs));
	if (!pvs)
		return 0;
	struct vb_result r = { .pv = pvs };
	vb_find(c, p, n, &r);
	for (uint32_t i = 0; i < p->spec.nvols; i++) {
		const struct pod_volume *pvol = &p->spec.vols[i];
		struct pvc tmp;
		const struct pvc *q0 = volume_claim(c, p, pvol, &tmp);
		if (!q0 || claim_class(c, q0) != CLAIM_DELAY)
			continue;
		if (q0 == &tmp) {
			/* the ephemeral volume controller's claim, owned by the pod */
			if (!storage_add_pvc(&c->st, &tmp))
				goto oom;
		}
		uint32_t qi = (uint32_t)storage_find_pvc(&c->st, p->ns, pvol->claim);
		if (!keep_pvc(c, u, qi))
			goto oom;
		int32_t v = pvs[i];
		const char *how = "bound to";
		if (v < 0) {
			v = provision(c, &c->st.pvcs[qi], n);
			how = "provisioned as";
			if (v < 0)
				goto oom;
		} else if (!keep_pv(c, u, (uint32_t)v)) {
			goto oom;
		}
		struct pvc *q = &c->st.pvcs[qi];
		struct pv *pv = &c->st.pvs[v];
		/* the PV controller completes the binding both ways */
		pv->claim_ns = q->ns;
		pv->claim_name = q->name;
		pv->phase = PV_BOUND;
		q->volume_name = pv->name;
		q->bind_completed = true;
		q->selected_node = n->name;
		sym_t zone = labels_get(&n->labels, c->sym_zone);
		snprintf(buf, sizeof(buf), "claim %s/%s %s PersistentVolume %s%s%s", intern_get(c->in, q->ns),
			 intern_get(c->in, q->name), how, intern_get(c->in, pv->name),
			 pv->provisioned && zone != SYM_NONE ? " in zone " : "",
			 pv->provisioned && zone != SYM_NONE ? intern_get(c->in, zone) : "");
		if (!note_add(u, buf))
			goto oom;
	}
	free(pvs);
	return 1;
oom:
	free(pvs);
	return 0;
}

void vb_unbind(struct cluster *c, struct vol_undo *u)
{
	for (uint32_t k = u->npv; k-- > 0;) {
		struct pv *v = &c->st.pvs[u->pv[k].id];
		v->claim_ns = u->pv[k].claim_ns;
		v->claim_name = u->pv[k].claim_name;
		v->phase = u->pv[k].phase;
	}
	for (uint32_t k = u->npvc; k-- > 0;) {
		if (u->pvc[k].id >= u->npvcs)
			continue;
		struct pvc *q = &c->st.pvcs[u->pvc[k].id];
		q->volume_name = u->pvc[k].volume_name;
		q->bind_completed = u->pvc[k].bind_completed;
		q->selected_node = u->pvc[k].selected_node;
	}
	while (c->st.npvs > u->npvs)
		pv_fini(&c->st.pvs[--c->st.npvs]);
	c->st.npvcs = u->npvcs;
	vol_undo_fini(u);
}

void vol_undo_fini(struct vol_undo *u)
{
	free(u->pvc);
	free(u->pv);
	free(u->note);
	memset(u, 0, sizeof(*u));
}
