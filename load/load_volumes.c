/* load_volumes.c - the storage objects (StorageClass, PersistentVolume,
 * PersistentVolumeClaim, CSINode, CSIDriver) as Kubernetes objects and as
 * shorthand, and a pod's volumes, host ports and scheduling gates. The
 * objects are read as the scheduler's informers see them: a claim is
 * bound only with volumeName and the PV controller's bind-completed
 * annotation (the shorthand's volumeName implies it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "../model/cluster.h"
#include "../model/quantity.h"
#include "../model/ufmt.h"
#include "../model/validate.h"

static const struct {
	const char *key, *kind;
} storage_keys[] = {
	{"storageClasses", "StorageClass"},
	{"persistentVolumes", "PersistentVolume"},
	{"persistentVolumeClaims", "PersistentVolumeClaim"},
	{"csiNodes", "CSINode"},
	{"csiDrivers", "CSIDriver"},
};

const char *load_storage_key(uint32_t i, const char **kind)
{
	if (i >= sizeof(storage_keys) / sizeof(storage_keys[0]))
		return NULL;
	*kind = storage_keys[i].kind;
	return storage_keys[i].key;
}

/* A storage quantity ("10Gi") in bytes, rounded up. */
static int storage_qty(struct loader *L, const struct ynode *v, const char *what, int64_t *out)
{
	int64_t milli = 0, units = 0;
	bool neg = false;
	const char *qt;
	char qbuf[32];
	size_t qlen;
	*out = 0;
	if (y_absent(v))
		return 1;
	/* typed as for any quantity: 0x10 is 16, a boolean or a list is refused */
	if (!y_qty_text(L, v, what, NULL, false, qbuf, sizeof(qbuf), &qt, &qlen))
		return 0;
	if (!quantity_parse(qt, qlen, &milli, &units, &neg) || neg) {
		load_err_at(L, v, "invalid quantity '%s' for '%s' (expected a storage size such as 10Gi or 500M)",
			    v->s, what);
		return 0;
	}
	*out = units;
	return 1;
}

static int access_modes(struct loader *L, const struct ynode *n, uint8_t *out)
{
	*out = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "accessModes"))
		return 0;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *v = &n->kids[i];
		if (!y_want(L, v, Y_SCALAR, "accessModes"))
			return 0;
		if (!strcmp(v->s, "ReadWriteOnce"))
			*out |= AM_RWO;
		else if (!strcmp(v->s, "ReadOnlyMany"))
			*out |= AM_ROX;
		else if (!strcmp(v->s, "ReadWriteMany"))
			*out |= AM_RWX;
		else if (!strcmp(v->s, "ReadWriteOncePod"))
			*out |= AM_RWOP;
		else {
			load_err_at(L, v, "accessModes: Unsupported value: \"%s\" (expected ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod)",
				    v->s);
			return 0;
		}
	}
	return 1;
}

/* An object's accessModes as validation.go checks them for a volume
 * (ValidatePersistentVolumeSpec) and a claim (ValidatePersistentVolumeClaimSpec):
 * at least one, and ReadWriteOncePod alone. who: "PersistentVolume 'pv-1'". */
static int access_modes_valid(struct loader *L, const struct ynode *at, const struct ynode *n, uint8_t modes,
			      const char *who)
{
	if (!modes) {
		load_err_at(L, !y_absent(n) ? n : at,
			    "%s: spec.accessModes: Required value: at least 1 access mode is required (expected e.g. accessModes: [ReadWriteOnce])",
			    who);
		return 0;
	}
	if ((modes & AM_RWOP) && (modes & ~AM_RWOP)) {
		load_err_at(L, n, "%s: spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes (expected ReadWriteOncePod alone)",
			    who);
		return 0;
	}
	return 1;
}

/* A volume object's spec.capacity as ValidatePersistentVolumeSpec checks
 * it: required, the storage key alone, a quantity above zero. */
static int pv_capacity_valid(struct loader *L, const struct ynode *at, const struct ynode *u, int64_t capacity,
			     const char *who)
{
	const struct ynode *st = y_get(u, "storage");
	if (y_absent(u) || !u->n) {
		load_err_at(L, !y_absent(u) ? u : at, "%s: spec.capacity: Required value (expected capacity: {storage: 10Gi})", who);
		return 0;
	}
	for (uint32_t i = 0; i < u->n; i++)
		if (strcmp(u->kids[2 * i].s, "storage")) {
			load_err_at(L, &u->kids[2 * i], "%s: spec.capacity: Unsupported value: \"%s\" (expected storage alone)",
				    who, u->kids[2 * i].s);
			return 0;
		}
	if (!st || capacity <= 0) {
		load_err_at(L, st ? st : u, "%s: spec.capacity.storage: Invalid value: \"%s\": must be greater than zero (expected a storage size such as 10Gi)",
			    who, st && st->type == Y_SCALAR && st->s ? st->s : "0");
		return 0;
	}
	return 1;
}

static bool is_obj(const struct ynode *m)
{
	return y_get(m, "metadata") != NULL;
}

/* name (and namespace) from metadata or the shorthand */
static int meta_name(struct loader *L, const struct ynode *m, const char *kind, bool obj, sym_t *name, sym_t *ns)
{
	const struct ynode *meta = obj ? y_get(m, "metadata") : m;
	if (obj && !y_want(L, meta, Y_MAP, "metadata"))
		return 0;
	if (!y_str(L, y_get(meta, "name"), "name", name))
		return 0;
	if (!*name || !intern_len(L->in, *name)) {
		load_err_at(L, m, "%s has no name (expected '%s')", kind, obj ? "metadata.name" : "name");
		return 0;
	}
	if (ns) {
		if (!y_str(L, y_get(meta, "namespace"), "namespace", ns))
			return 0;
		if (!*ns || !intern_len(L->in, *ns))
			*ns = L->c->sym_default;
	}
	return 1;
}

static int topo_terms(struct loader *L, const struct ynode *n, struct topo_term **out, uint32_t *nout)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "allowedTopologies"))
		return 0;
	if (!n->n)
		return 1;
	if (!(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	*nout = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *t = &n->kids[i], *ex;
		if (!y_want(L, t, Y_MAP, "allowedTopologies"))
			return 0;
		ex = y_get(t, "matchLabelExpressions");
		if (y_absent(ex))
			continue;
		if (!y_want(L, ex, Y_SEQ, "matchLabelExpressions"))
			return 0;
		if (ex->n && !((*out)[i].exprs = calloc(ex->n, sizeof(*(*out)[i].exprs))))
			return load_oom(L);
		(*out)[i].nexprs = ex->n;
		for (uint32_t j = 0; j < ex->n; j++) {
			struct topo_expr *e = &(*out)[i].exprs[j];
			if (!y_want(L, &ex->kids[j], Y_MAP, "matchLabelExpressions") ||
			    !y_str(L, y_get(&ex->kids[j], "key"), "key", &e->key) ||
			    !y_syms(L, y_get(&ex->kids[j], "values"), "values", &e->vals, &e->nvals))
				return 0;
			if (!e->key) {
				load_err_at(L, &ex->kids[j], "allowedTopologies expression has no key (expected 'key' and 'values')");
				return 0;
			}
		}
	}
	return 1;
}

/* storage/validation validateProvisioner: required, and lowercased a
 * qualified name. */
static int provisioner_valid(struct loader *L, const struct ynode *m, sym_t scname, sym_t prov)
{
	const char *s = prov ? intern_get(L->in, prov) : "";
	size_t n = prov ? intern_len(L->in, prov) : 0;
	const struct ynode *at = y_get(m, "provisioner");
	if (!n) {
		load_err_at(L, !y_absent(at) ? at : m,
			    "StorageClass '%s': provisioner: Required value (expected the provisioner's name, such as ebs.csi.aws.com or kubernetes.io/no-provisioner)",
			    intern_get(L->in, scname));
		return 0;
	}
	char *low = malloc(n + 1);
	if (!low)
		return load_oom(L);
	for (size_t i = 0; i < n; i++)
		low[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
	low[n] = 0;
	struct msgs e = { 0 };
	qualified_name_msgs(&e, low, n);
	free(low);
	if (e.oom) {
		msgs_fini(&e);
		return load_oom(L);
	}
	if (e.n)
		load_err_at(L, at, "StorageClass '%s': provisioner: Invalid value: \"%s\": %s", intern_get(L->in, scname), s,
			    e.v[0]);
	msgs_fini(&e);
	return !e.n;
}

static void add_class(struct loader *L, const struct ynode *m, bool obj, struct storage *st)
{
	struct storage_class sc;
	const struct ynode *u;
	memset(&sc, 0, sizeof(sc));
	sc.line = m->line;
	sc.col = m->col;
	if (!meta_name(L, m, "StorageClass", obj, &sc.name, NULL) ||
	    !y_str(L, y_get(m, "provisioner"), "provisioner", &sc.provisioner) ||
	    !topo_terms(L, y_get(m, "allowedTopologies"), &sc.topo, &sc.ntopo))
		goto drop;
	if (obj && !provisioner_valid(L, m, sc.name, sc.provisioner))
		goto drop;
	/* read by no plugin, typed as the API server decodes them:
	 * parameters map[string]string, allowVolumeExpansion *bool */
	u = y_get(m, "parameters");
	if (!y_absent(u)) {
		bool ok = y_want(L, u, Y_MAP, "parameters");
		for (uint32_t i = 0; ok && i < u->n; i++)
			if (!y_string_value(L, &u->kids[2 * i + 1], "parameters", u->kids[2 * i].s))
				ok = false;
		if (!ok)
			goto drop;
	}
	bool expand;
	u = y_get(m, "allowVolumeExpansion");
	if (!y_absent(u) && !y_bool(L, u, "allowVolumeExpansion", &expand))
		goto drop;
	u = y_get(m, "volumeBindingMode");
	if (!y_absent(u)) {
		if (!y_want(L, u, Y_SCALAR, "volumeBindingMode"))
			goto drop;
		if (!strcmp(u->s, "WaitForFirstConsumer"))
			sc.wffc = true;
		else if (strcmp(u->s, "Immediate")) {
			load_err_at(L, u, "volumeBindingMode: Unsupported value: \"%s\" (expected Immediate or WaitForFirstConsumer)", u->s);
			goto drop;
		}
	}
	if (storage_find_class(st, sc.name) >= 0) {
		load_err_at(L, m, "duplicate StorageClass '%s' (expected unique names)", intern_get(L->in, sc.name));
		goto drop;
	}
	if (!storage_add_class(st, &sc))
		load_oom(L);
drop:
	storage_class_fini(&sc);
}

/* "ns/name" or {namespace, name} */
static int claim_ref(struct loader *L, const struct ynode *n, sym_t *ns, sym_t *name)
{
	*ns = *name = SYM_NONE;
	if (y_absent(n))
		return 1;
	if (n->type == Y_SCALAR) {
		if (!y_is_string(L, n, "claimRef"))
			return 0;
		const char *sl = strchr(n->s, '/');
		*ns = sl ? intern_n(L->in, n->s, (size_t)(sl - n->s)) : L->c->sym_default;
		*name = intern_str(L->in, sl ? sl + 1 : n->s);
		return *ns && *name ? 1 : load_oom(L);
	}
	if (!y_want(L, n, Y_MAP, "claimRef") || !y_str(L, y_get(n, "namespace"), "namespace", ns) ||
	    !y_str(L, y_get(n, "name"), "name", name))
		return 0;
	if (!*ns || !intern_len(L->in, *ns))
		*ns = L->c->sym_default;
	return 1;
}

static void add_pv(struct loader *L, const struct ynode *m, bool obj, struct storage *st)
{
	struct pv v;
	const struct ynode *spec = obj ? y_get(m, "spec") : m, *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *status = obj ? y_get(m, "status") : m, *u;
	memset(&v, 0, sizeof(v));
	v.line = m->line;
	v.col = m->col;
	if (!meta_name(L, m, "PersistentVolume", obj, &v.name, NULL))
		goto drop;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		goto drop;
	u = y_get(spec, "capacity");
	if (obj && !y_absent(u) && (!y_want(L, u, Y_MAP, "capacity") || !storage_qty(L, y_get(u, "storage"), "capacity.storage", &v.capacity)))
		goto drop;
	if (!obj && !storage_qty(L, u, "capacity", &v.capacity))
		goto drop;
	if (!y_str(L, y_get(spec, "storageClassName"), "storageClassName", &v.class) ||
	    !access_modes(L, y_get(spec, "accessModes"), &v.modes) ||
	    !y_labels(L, y_get(meta, "labels"), "labels", &v.labels) ||
	    !claim_ref(L, y_get(spec, "claimRef"), &v.claim_ns, &v.claim_name))
		goto drop;
	if (obj) {
		char who[320];
		snprintf(who, sizeof(who), "PersistentVolume '%s'", intern_get(L->in, v.name));
		if (!pv_capacity_valid(L, !y_absent(spec) ? spec : m, y_get(spec, "capacity"), v.capacity, who) ||
		    !access_modes_valid(L, !y_absent(spec) ? spec : m, y_get(spec, "accessModes"), v.modes, who))
			goto drop;
	}
	if (!v.class)
		v.class = L->c->sym_empty;
	u = y_get(spec, "csi");
	if (!y_absent(u) && (!y_want(L, u, Y_MAP, "csi") || !y_str(L, y_get(u, "driver"), "driver", &v.driver) ||
			     !y_str(L, y_get(u, "volumeHandle"), "volumeHandle", &v.handle)))
		goto drop;
	u = y_get(spec, "nodeAffinity");
	if (!y_absent(u)) {
		const struct ynode *req, *terms;
		if (!y_want(L, u, Y_MAP, "nodeAffinity"))
			goto drop;
		req = y_get(u, "required");
		if (!y_absent(req)) {
			if (!y_want(L, req, Y_MAP, "nodeAffinity.required"))
				goto drop;
			terms = y_get(req, "nodeSelectorTerms");
			v.has_aff = true;
			if (!y_absent(terms)) {
				if (!y_want(L, terms, Y_SEQ, "nodeSelectorTerms"))
					goto drop;
				if (terms->n && !(v.aff = calloc(terms->n, sizeof(*v.aff)))) {
					load_oom(L);
					goto drop;
				}
				for (uint32_t i = 0; i < terms->n; i++, v.naff++)
					if (!load_ns_term(L, &terms->kids[i], "nodeSelectorTerms", &v.aff[i]))
						goto drop;
			}
		}
		/* a volume the API server refuses cannot exist: a load error */
		if (!load_volume_affinity_valid(L, u, obj ? "spec.nodeAffinity" : "nodeAffinity", v.has_aff, v.aff,
						v.naff, intern_get(L->in, v.name)))
			goto drop;
	}
	v.deleting = obj && !y_absent(y_get(meta, "deletionTimestamp"));
	v.phase = v.claim_name ? PV_BOUND : PV_AVAILABLE;
	u = y_get(status, "phase");
	if (!y_absent(u)) {
		if (!y_want(L, u, Y_SCALAR, "phase") || !y_is_string(L, u, "phase"))
			goto drop;
		v.phase = !strcmp(u->s, "Available") ? PV_AVAILABLE : !strcmp(u->s, "Bound") ? PV_BOUND
			  : !strcmp(u->s, "Released") ? PV_RELEASED : PV_OTHER;
	}
	if (storage_find_pv(st, v.name) >= 0) {
		load_err_at(L, m, "duplicate PersistentVolume '%s' (expected unique names)", intern_get(L->in, v.name));
		goto drop;
	}
	if (!storage_add_pv(st, &v))
		load_oom(L);
drop:
	pv_fini(&v);
}

/* A claim object's spec.resources.requests.storage (resources: its
 * node, a mapping or absent): validation.go ValidatePersistentVolumeClaimSpec
 * requires it, and ValidatePositiveQuantityValue a value above zero. The
 * shorthand's request may be left out (more-plugins.md). */
static int claim_request(struct loader *L, const struct ynode *m, const struct ynode *spec,
			 const struct ynode *res, struct pvc *q)
{
	const struct ynode *r = y_get(res, "requests"), *n = y_get(r, "storage");
	const char *qt;
	char qbuf[32];
	size_t qlen;
	int64_t milli = 0, units = 0;
	bool neg = false;
	const char *who_ns = intern_get(L->in, q->ns), *who = intern_get(L->in, q->name);
	if (!y_absent(r) && !y_want(L, r, Y_MAP, "requests"))
		return 0;
	if (!n) {
		const struct ynode *at = !y_absent(r) ? r : !y_absent(res) ? res : !y_absent(spec) ? spec : m;
		load_err_at(L, at, "PersistentVolumeClaim '%s/%s': spec.resources.requests.storage: Required value (expected a storage size such as 10Gi)",
			    who_ns, who);
		return 0;
	}
	/* typed as for any quantity: 0x10 is 16, null is 0, a boolean or a
	 * list is refused */
	if (!y_qty_text(L, n, "spec.resources.requests", "storage", false, qbuf, sizeof(qbuf), &qt, &qlen))
		return 0;
	if (!quantity_parse(qt, qlen, &milli, &units, &neg)) {
		load_err_at(L, n, "invalid quantity '%s' for 'resources.requests.storage' (expected a storage size such as 10Gi or 500M)",
			    n->s ? n->s : qt);
		return 0;
	}
	if (neg || (!milli && !units)) {
		load_err_at(L, n, "PersistentVolumeClaim '%s/%s': spec.resources.requests.storage: Invalid value: \"%.*s\": must be greater than zero (expected a storage size such as 10Gi)",
			    who_ns, who, (int)qlen, qt);
		return 0;
	}
	q->request = units;
	return 1;
}

static void add_pvc(struct loader *L, const struct ynode *m, bool obj, struct storage *st)
{
	struct pvc q;
	const struct ynode *spec = obj ? y_get(m, "spec") : m, *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *status = obj ? y_get(m, "status") : m, *u;
	memset(&q, 0, sizeof(q));
	q.line = m->line;
	q.col = m->col;
	if (!meta_name(L, m, "PersistentVolumeClaim", obj, &q.name, &q.ns))
		goto drop;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		goto drop;
	if (!y_str(L, y_get(spec, "storageClassName"), "storageClassName", &q.class) ||
	    !access_modes(L, y_get(spec, "accessModes"), &q.modes) ||
	    !y_str(L, y_get(spec, "volumeName"), "volumeName", &q.volume_name))
		goto drop;
	if (q.volume_name && !intern_len(L->in, q.volume_name))
		q.volume_name = SYM_NONE;
	if (obj) {
		char who[640];
		snprintf(who, sizeof(who), "PersistentVolumeClaim '%s/%s'", intern_get(L->in, q.ns),
			 intern_get(L->in, q.name));
		if (!access_modes_valid(L, !y_absent(spec) ? spec : m, y_get(spec, "accessModes"), q.modes, who))
			goto drop;
		u = y_get(spec, "resources");
		if (!y_absent(u) && !y_want(L, u, Y_MAP, "resources"))
			goto drop;
		if (!claim_request(L, m, spec, u, &q))
			goto drop;
		u = y_get(meta, "annotations");
		if (!y_absent(u)) {
			if (!y_want(L, u, Y_MAP, "annotations"))
				goto drop;
			q.bind_completed = !y_absent(y_get(u, "pv.kubernetes.io/bind-completed"));
			if (!y_str(L, y_get(u, "volume.kubernetes.io/selected-node"), "selected-node", &q.selected_node))
				goto drop;
		}
		q.deleting = !y_absent(y_get(meta, "deletionTimestamp"));
	} else {
		/* the shorthand: volumeName is a bound claim */
		if (!storage_qty(L, y_get(m, "request"), "request", &q.request) ||
		    !y_str(L, y_get(m, "selectedNode"), "selectedNode", &q.selected_node))
			goto drop;
		q.bind_completed = q.volume_name != SYM_NONE;
		u = y_get(m, "bindCompleted");
		if (!y_absent(u) && !y_bool(L, u, "bindCompleted", &q.bind_completed))
			goto drop;
	}
	u = y_get(status, "phase");
	if (!y_absent(u)) {
		if (!y_want(L, u, Y_SCALAR, "phase") || !y_is_string(L, u, "phase"))
			goto drop;
		q.lost = !strcmp(u->s, "Lost");
	}
	if (storage_find_pvc(st, q.ns, q.name) >= 0) {
		load_err_at(L, m, "duplicate PersistentVolumeClaim '%s/%s' (expected unique namespace/name pairs)",
			    intern_get(L->in, q.ns), intern_get(L->in, q.name));
		goto drop;
	}
	if (!storage_add_pvc(st, &q))
		load_oom(L);
drop:;
}

static void add_csinode(struct loader *L, const struct ynode *m, bool obj, struct storage *st)
{
	struct csi_node n;
	const struct ynode *spec = obj ? y_get(m, "spec") : m, *d;
	memset(&n, 0, sizeof(n));
	n.line = m->line;
	n.col = m->col;
	if (!meta_name(L, m, "CSINode", obj, &n.name, NULL))
		goto drop;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		goto drop;
	d = y_get(spec, "drivers");
	if (!y_absent(d)) {
		if (!y_want(L, d, Y_SEQ, "drivers"))
			goto drop;
		if (d->n && !(n.drivers = calloc(d->n, sizeof(*n.drivers)))) {
			load_oom(L);
			goto drop;
		}
		for (uint32_t i = 0; i < d->n; i++) {
			struct csi_node_driver *x = &n.drivers[n.ndrivers++];
			const struct ynode *e = &d->kids[i], *a, *cnt;
			if (!y_want(L, e, Y_MAP, "drivers") || !y_str(L, y_get(e, "name"), "name", &x->name))
				goto drop;
			if (!x->name) {
				load_err_at(L, e, "CSINode '%s' driver has no name (expected 'name')", intern_get(L->in, n.name));
				goto drop;
			}
			/* storage/validation validateCSINodeDrivers */
			for (uint32_t j = 0; obj && j + 1 < n.ndrivers; j++)
				if (n.drivers[j].name == x->name) {
					load_err_at(L, y_get(e, "name"), "CSINode '%s': spec.drivers[%u].name: Duplicate value: \"%s\" (expected one entry per driver)",
						    intern_get(L->in, n.name), i, intern_get(L->in, x->name));
					goto drop;
				}
			/* the object's allocatable.count, or the shorthand's count */
			a = obj ? y_get(e, "allocatable") : e;
			if (obj && !y_absent(a) && !y_want(L, a, Y_MAP, "allocatable"))
				goto drop;
			cnt = y_get(a, "count");
			if (!y_absent(cnt)) {
				if (!y_int(L, cnt, "count", 0, INT32_MAX, &x->count))
					goto drop;
				x->has_count = true;
			}
		}
	}
	if (storage_find_csinode(st, n.name) >= 0) {
		load_err_at(L, m, "duplicate CSINode '%s' (expected one per node)", intern_get(L->in, n.name));
		goto drop;
	}
	if (!storage_add_csinode(st, &n))
		load_oom(L);
drop:
	csi_node_fini(&n);
}

static void add_driver(struct loader *L, const struct ynode *m, bool obj, struct storage *st)
{
	struct csi_driver x = { .attach_required = true };
	const struct ynode *spec = obj ? y_get(m, "spec") : m, *u;
	x.line = m->line;
	x.col = m->col;
	if (!meta_name(L, m, "CSIDriver", obj, &x.name, NULL))
		return;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		return;
	u = y_get(spec, "attachRequired");
	if (!y_absent(u) && !y_bool(L, u, "attachRequired", &x.attach_required))
		return;
	u = y_get(spec, "storageCapacity");
	if (!y_absent(u) && !y_bool(L, u, "storageCapacity", &x.storage_capacity))
		return;
	/* read by no plugin, typed as the API server decodes them */
	static const char *const bools[] = {"podInfoOnMount", "requiresRepublish", "seLinuxMount"};
	for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
		bool b;
		u = y_get(spec, bools[i]);
		if (!y_absent(u) && !y_bool(L, u, bools[i], &b))
			return;
	}
	if (!y_string_value(L, y_get(spec, "fsGroupPolicy"), "fsGroupPolicy", NULL))
		return;
	if (storage_find_driver(st, x.name) >= 0) {
		load_err_at(L, m, "duplicate CSIDriver '%s' (expected unique names)", intern_get(L->in, x.name));
		return;
	}
	if (!storage_add_driver(st, &x))
		load_oom(L);
}

static void (*adder(const char *kind))(struct loader *, const struct ynode *, bool, struct storage *)
{
	return
		!strcmp(kind, "StorageClass") ? add_class : !strcmp(kind, "PersistentVolume") ? add_pv
		: !strcmp(kind, "PersistentVolumeClaim") ? add_pvc : !strcmp(kind, "CSINode") ? add_csinode
		: !strcmp(kind, "CSIDriver") ? add_driver : NULL;
}

int load_storage_object(struct loader *L, const struct ynode *m, const char *kind, const char *what)
{
	void (*add)(struct loader *, const struct ynode *, bool, struct storage *) = adder(kind);
	if (!add)
		return 0;
	if (y_want(L, m, Y_MAP, what))
		add(L, m, is_obj(m), &L->c->st);
	return 1;
}

int load_storage_into(struct loader *L, const struct ynode *m, const char *what, struct storage *st)
{
	const struct ynode *k;
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	k = y_get(m, "kind");
	if (y_absent(k) || k->type != Y_SCALAR || !adder(k->s)) {
		if (y_absent(k))
			load_err_at(L, m, "%s: the object has no kind (expected kind StorageClass, PersistentVolume, PersistentVolumeClaim, CSINode or CSIDriver)",
				    what);
		else
			load_err_at(L, k, "%s: kind '%s' cannot be created by a step (expected StorageClass, PersistentVolume, PersistentVolumeClaim, CSINode or CSIDriver)",
				    what, k->type == Y_SCALAR ? k->s : "?");
		return 0;
	}
	uint32_t before = st->nclasses + st->npvs + st->npvcs + st->ncsinodes + st->ndrivers;
	adder(k->s)(L, m, is_obj(m), st);
	return st->nclasses + st->npvs + st->npvcs + st->ncsinodes + st->ndrivers > before;
}

/* ---- a pod's volumes, ports and gates ---- */

/* Only claim volumes are kept: no plugin reads another source (a
 * projected token, a configMap...), and the descheduler's local storage
 * is read apart (load_life.c). */
static bool is_claim_volume(const struct ynode *e)
{
	return !y_absent(y_get(e, "persistentVolumeClaim")) || !y_absent(y_get(e, "ephemeral"));
}

/* spec.volumes[i]: a mapping with a name unique in the pod
 * (validation.go validateVolumes), compared as text so that a volume no
 * plugin reads costs no symbol. */
static int volume_name(struct loader *L, const struct ynode *vols, uint32_t i, const struct pod *p)
{
	const struct ynode *e = &vols->kids[i], *nm;
	if (!y_want(L, e, Y_MAP, "volumes"))
		return 0;
	nm = y_get(e, "name");
	if (!y_absent(nm) && (!y_want(L, nm, Y_SCALAR, "name") || !y_is_string(L, nm, "name")))
		return 0;
	if (y_absent(nm) || !nm->len) {
		load_err_at(L, e, "pod '%s' has a volume without a name (expected 'name')", intern_get(L->in, p->name));
		return 0;
	}
	for (uint32_t j = 0; j < i; j++) {
		const struct ynode *o = y_get(&vols->kids[j], "name");
		if (o->len == nm->len && !memcmp(o->s, nm->s, nm->len)) {
			load_err_at(L, e, "pod '%s': spec.volumes[%u].name: Duplicate value: \"%s\" (expected unique volume names)",
				    intern_get(L->in, p->name), i, nm->s);
			return 0;
		}
	}
	return 1;
}

/* A claim volume (persistentVolumeClaim or ephemeral) of spec.volumes,
 * already checked by volume_name. */
static int pod_volume(struct loader *L, const struct ynode *e, struct pod *p, struct pod_volume *v)
{
	const struct ynode *u;
	char buf[600];
	memset(v, 0, sizeof(*v));
	if (!y_str(L, y_get(e, "name"), "name", &v->name))
		return 0;
	if (!y_absent(u = y_get(e, "persistentVolumeClaim"))) {
		v->kind = VOL_PVC;
		if (!y_want(L, u, Y_MAP, "persistentVolumeClaim") || !y_str(L, y_get(u, "claimName"), "claimName", &v->claim))
			return 0;
		if (!v->claim || !intern_len(L->in, v->claim)) {
			load_err_at(L, u, "volume '%s' has no claimName (expected persistentVolumeClaim.claimName)",
				    intern_get(L->in, v->name));
			return 0;
		}
	} else if (!y_absent(u = y_get(e, "ephemeral"))) {
		const struct ynode *t, *s, *r;
		v->kind = VOL_EPHEMERAL;
		/* ephemeral.VolumeClaimName: POD-VOLUME */
		snprintf(buf, sizeof(buf), "%s-%s", intern_get(L->in, p->name), intern_get(L->in, v->name));
		if (!(v->claim = intern_str(L->in, buf)))
			return load_oom(L);
		if (!y_want(L, u, Y_MAP, "ephemeral"))
			return 0;
		t = y_get(u, "volumeClaimTemplate");
		if (y_absent(t) || !y_want(L, t, Y_MAP, "volumeClaimTemplate")) {
			if (y_absent(t))
				load_err_at(L, u, "ephemeral volume '%s' has no volumeClaimTemplate (expected volumeClaimTemplate.spec)",
					    intern_get(L->in, v->name));
			return 0;
		}
		s = y_get(t, "spec");
		if (!y_absent(s)) {
			if (!y_want(L, s, Y_MAP, "spec") ||
			    !y_str(L, y_get(s, "storageClassName"), "storageClassName", &v->eph_class) ||
			    !access_modes(L, y_get(s, "accessModes"), &v->eph_modes))
				return 0;
			r = y_get(s, "resources");
			if (!y_absent(r)) {
				if (!y_want(L, r, Y_MAP, "resources"))
					return 0;
				r = y_get(r, "requests");
				if (!y_absent(r) && (!y_want(L, r, Y_MAP, "requests") ||
						     !storage_qty(L, y_get(r, "storage"), "requests.storage", &v->eph_request)))
					return 0;
			}
		}
	}
	return 1;
}

/* validation.go validateContainerPorts and AccumulateUniqueHostPorts
 * for one port (path spec.containers[i].ports[j]): a containerPort in
 * 1..65535, a hostPort 0 or in range, each hostIP/protocol/hostPort once
 * in the pod; with hostNetwork the hostPort defaults to the containerPort
 * (SetDefaults_Pod) and must equal it (validateHostNetwork). A pod to be
 * scheduled records the errors for validation, a bound pod's is an input
 * error. */
static int pod_port(struct loader *L, const struct ynode *e, const char *path, bool admit, bool host_net,
		    struct pod *p)
{
	int64_t hp = 0, cp = 0;
	sym_t proto = SYM_NONE, ip = SYM_NONE;
	if (!y_want(L, e, Y_MAP, "ports"))
		return 0;
	const struct ynode *hn = y_get(e, "hostPort"), *cn = y_get(e, "containerPort");
	if (!y_absent(hn) && !y_int(L, hn, "hostPort", INT32_MIN, INT32_MAX, &hp))
		return 0;
	if (!y_absent(cn) && !y_int(L, cn, "containerPort", INT32_MIN, INT32_MAX, &cp))
		return 0;
	if (!y_str(L, y_get(e, "protocol"), "protocol", &proto) || !y_str(L, y_get(e, "hostIP"), "hostIP", &ip))
		return 0;
	if (proto && intern_len(L->in, proto) && strcmp(intern_get(L->in, proto), "TCP") &&
	    strcmp(intern_get(L->in, proto), "UDP") && strcmp(intern_get(L->in, proto), "SCTP")) {
		load_err_at(L, y_get(e, "protocol"), "ports.protocol: Unsupported value: \"%s\" (expected TCP, UDP or SCTP)",
			    intern_get(L->in, proto));
		return 0;
	}
	if (host_net && hp == 0)
		hp = cp;
	if (host_net && hp != cp) {
		if (admit && !load_admission_error(L, p, out_strf("%s.hostPort: Invalid value: %lld: must match `containerPort` "
								  "when `hostNetwork` is true", path, (long long)hp)))
			return 0;
		if (!admit) {
			load_err_at(L, hn, "hostPort %lld differs from containerPort %lld in '%s' of a hostNetwork pod (expected "
				    "the same port: the API server refuses it)", (long long)hp, (long long)cp, path);
			return 0;
		}
	}
	const char *pt = proto && intern_len(L->in, proto) ? intern_get(L->in, proto) : "TCP";
	const char *it = ip ? intern_get(L->in, ip) : "";
	if (cp == 0) {
		if (admit && !load_admission_error(L, p, out_strf("%s.containerPort: Required value", path)))
			return 0;
		if (!admit) {
			load_err_at(L, e, "'%s' has no containerPort (expected containerPort, 1 to 65535: the API server refuses a port without one)",
				    path);
			return 0;
		}
	}
	for (int f = 0; f < 2; f++) {
		int64_t port = f ? hp : cp;
		const char *msg = port ? port_num_msg(port) : NULL;
		if (!msg)
			continue;
		if (admit && !load_admission_error(L, p, out_strf("%s.%s: Invalid value: %lld: %s", path,
								  f ? "hostPort" : "containerPort", (long long)port, msg)))
			return 0;
		if (!admit) {
			load_err_at(L, f ? hn : cn, "'%lld' is out of range for '%s.%s' (expected 1 to 65535)", (long long)port,
				    path, f ? "hostPort" : "containerPort");
			return 0;
		}
	}
	if (hp == 0 || port_num_msg(hp))
		return 1; /* not a host port: no scheduler reads it */
	for (uint32_t i = 0; i < p->spec.nports; i++) {
		const struct host_port *o = &p->spec.ports[i];
		const char *op = o->protocol && intern_len(L->in, o->protocol) ? intern_get(L->in, o->protocol) : "TCP";
		const char *oi = o->host_ip ? intern_get(L->in, o->host_ip) : "";
		if (o->host_port != hp || strcmp(op, pt) || strcmp(oi, it))
			continue;
		if (admit)
			return load_admission_error(L, p, out_strf("%s.hostPort: Duplicate value: \"%s/%s/%lld\"", path, pt, it,
								   (long long)hp));
		load_err_at(L, hn, "host port %lld/%s%s%s is declared twice in pod '%s' (expected each hostIP, protocol and hostPort once in a pod: the API server refuses a duplicate)",
			    (long long)hp, pt, *it ? " on " : "", it, intern_get(L->in, p->name));
		return 0;
	}
	struct host_port *v = realloc(p->spec.ports, (p->spec.nports + 1) * sizeof(*v));
	if (!v)
		return load_oom(L);
	p->spec.ports = v;
	v[p->spec.nports++] = (struct host_port){ (int32_t)hp, (int32_t)cp, proto, ip };
	return 1;
}

static int pod_ports(struct loader *L, const struct ynode *n, uint32_t ci, bool admit, bool host_net, struct pod *p)
{
	char path[80], cpath[48];
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "ports"))
		return 0;
	path_idx(cpath, sizeof(cpath), "spec.", "containers", ci, ".ports");
	for (uint32_t i = 0; i < n->n; i++) {
		path_idx(path, sizeof(path), cpath, "", i, "");
		if (!pod_port(L, &n->kids[i], path, admit, host_net, p))
			return 0;
	}
	return 1;
}

int load_pod_storage(struct loader *L, const struct ynode *spec, bool obj, bool admit, struct pod *p)
{
	const struct ynode *n = y_get(spec, "volumes");
	if (!y_absent(n)) {
		if (!y_want(L, n, Y_SEQ, "volumes"))
			return 0;
		uint32_t nclaims = 0;
		for (uint32_t i = 0; i < n->n; i++) {
			if (!volume_name(L, n, i, p))
				return 0;
			nclaims += is_claim_volume(&n->kids[i]);
		}
		if (nclaims && !(p->spec.vols = calloc(nclaims, sizeof(*p->spec.vols))))
			return load_oom(L);
		for (uint32_t i = 0; i < n->n; i++)
			if (is_claim_volume(&n->kids[i]) && !pod_volume(L, &n->kids[i], p, &p->spec.vols[p->spec.nvols++]))
				return 0;
	}
	/* the shorthand's ports are those of its first container, the one
	 * its requests give (load_pod.c compute_requests) */
	uint32_t first = !obj && !y_absent(y_get(spec, "requests"));
	const struct ynode *cs = y_get(spec, "containers");
	bool host_net = false;
	if (!y_absent(y_get(spec, "hostNetwork")) && !y_bool(L, y_get(spec, "hostNetwork"), "hostNetwork", &host_net))
		return 0;
	if (!obj && !pod_ports(L, y_get(spec, "ports"), 0, admit, host_net, p))
		return 0;
	for (uint32_t i = 0; cs && cs->type == Y_SEQ && i < cs->n; i++)
		if (cs->kids[i].type == Y_MAP &&
		    !pod_ports(L, y_get(&cs->kids[i], "ports"), first + i, admit, host_net, p))
			return 0;
	n = y_get(spec, "schedulingGates");
	if (!y_absent(n)) {
		if (!y_want(L, n, Y_SEQ, "schedulingGates"))
			return 0;
		if (n->n && !(p->spec.gates = calloc(n->n, sizeof(*p->spec.gates))))
			return load_oom(L);
		for (uint32_t i = 0; i < n->n; i++) {
			const struct ynode *g = &n->kids[i];
			sym_t name = SYM_NONE;
			if (!y_want(L, g, Y_MAP, "schedulingGates") || !y_str(L, y_get(g, "name"), "name", &name))
				return 0;
			if (!name || !intern_len(L->in, name)) {
				load_err_at(L, g, "pod '%s' has a scheduling gate without a name (expected 'name')",
					    intern_get(L->in, p->name));
				return 0;
			}
			p->spec.gates[p->spec.ngates++] = name;
		}
		if (n->n && !admit) {
			/* validation.go ValidatePodCreate; validation of a pod to
			 * be scheduled reports it */
			load_err_at(L, n, "pod '%s' is bound to node '%s' and has scheduling gates (expected no schedulingGates: "
				    "the API server refuses spec.nodeName until all schedulingGates have been cleared)",
				    intern_get(L->in, p->name), intern_get(L->in, p->spec.node_name));
			return 0;
		}
	}
	return 1;
}
