/* save.c - writes a scenario back as YAML (shorthand form) through the
 * one YAML writer (util/yamlw.h). Every string is written double-quoted
 * with YAML escapes, so no value can change type or break the document;
 * numbers are written as plain integers. */
#include "../model/version.h"
#include "save.h"
#include "../model/steps/step.h"
#include "../model/autoscale/autoscale.h"
#include "../util/yamlw.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct w {
	struct yw y;
	const struct cluster *c;
};

static const char *S(const struct w *w, sym_t s)
{
	return intern_get(w->c->in, s);
}

/* key k (NULL: a value or a sequence item): "the symbol s" */
static void kq(struct w *w, const char *k, sym_t s)
{
	yw_kq(&w->y, k, S(w, s));
}

static const char *tf(bool b)
{
	return b ? "true" : "false";
}

static void labels(struct w *w, const char *k, const struct labels *l)
{
	yw_fmap(&w->y, k);
	for (uint32_t i = 0; i < l->n; i++) {
		yw_qkey(&w->y, S(w, l->v[i].key));
		kq(w, NULL, l->v[i].val);
	}
	yw_end(&w->y);
}

static void syms(struct w *w, const char *k, const sym_t *v, uint32_t n)
{
	yw_fseq(&w->y, k);
	for (uint32_t i = 0; i < n; i++)
		kq(w, NULL, v[i]);
	yw_end(&w->y);
}

static void selector_src(struct w *w, const char *k, const struct label_selector_src *s)
{
	if (!s->present) {
		yw_kv(&w->y, k, "null");
		return;
	}
	yw_fmap(&w->y, k);
	labels(w, "matchLabels", &s->match_labels);
	yw_fseq(&w->y, "matchExpressions");
	for (uint32_t i = 0; i < s->nexprs; i++) {
		const struct sel_expr_src *x = &s->exprs[i];
		yw_fmap(&w->y, NULL);
		kq(w, "key", x->key);
		if (x->op)
			kq(w, "operator", x->op);
		if (x->has_vals)
			syms(w, "values", x->vals, x->nvals);
		yw_end(&w->y);
	}
	yw_end(&w->y);
	yw_end(&w->y);
}

static const char *op_text(enum sel_op op)
{
	switch (op) {
	case SEL_EQ:
	case SEL_IN: return "In";
	case SEL_NOTIN: return "NotIn";
	case SEL_EXISTS: return "Exists";
	case SEL_NOTEXISTS: return "DoesNotExist";
	case SEL_GT: return "Gt";
	case SEL_LT: return "Lt";
	}
	return "In";
}

/* Node selector requirements, with the operators and keys as written
 * where the input gave them. */
static void reqs(struct w *w, const char *k, const struct sel_req *r, uint32_t n, const sym_t *ops,
		 const sym_t *keys)
{
	yw_fseq(&w->y, k);
	for (uint32_t i = 0; i < n; i++) {
		yw_fmap(&w->y, NULL);
		kq(w, "key", keys && keys[i] ? keys[i] : r[i].key);
		if (ops && ops[i])
			kq(w, "operator", ops[i]);
		else
			yw_kq(&w->y, "operator", op_text(r[i].op));
		if (r[i].nvals)
			syms(w, "values", r[i].vals, r[i].nvals);
		yw_end(&w->y);
	}
	yw_end(&w->y);
}

static void ns_term(struct w *w, const char *k, const struct ns_term *t)
{
	yw_fmap(&w->y, k);
	reqs(w, "matchExpressions", t->exprs, t->nexprs, t->expr_ops, NULL);
	reqs(w, "matchFields", t->fields, t->nfields, t->field_ops, t->field_keys);
	yw_end(&w->y);
}

static void pod_term(struct w *w, const char *k, const struct pod_affinity_term *t)
{
	yw_fmap(&w->y, k);
	selector_src(w, "labelSelector", &t->sel_src);
	syms(w, "namespaces", t->namespaces, t->nnamespaces);
	if (t->ns_sel_src.present)
		selector_src(w, "namespaceSelector", &t->ns_sel_src);
	kq(w, "topologyKey", t->topology_key);
	if (t->nmlk)
		syms(w, "matchLabelKeys", t->mlk, t->nmlk);
	if (t->nmmlk)
		syms(w, "mismatchLabelKeys", t->mmlk, t->nmmlk);
	yw_end(&w->y);
}

static void pod_terms(struct w *w, const char *k, const struct pod_affinity_term *req,
		      uint32_t nreq, const struct weighted_pod_affinity_term *pref, uint32_t npref)
{
	if (!nreq && !npref)
		return;
	yw_map(&w->y, k);
	if (nreq) {
		yw_seq(&w->y, "requiredDuringSchedulingIgnoredDuringExecution");
		for (uint32_t i = 0; i < nreq; i++)
			pod_term(w, NULL, &req[i]);
		yw_end(&w->y);
	}
	if (npref) {
		yw_seq(&w->y, "preferredDuringSchedulingIgnoredDuringExecution");
		for (uint32_t i = 0; i < npref; i++) {
			yw_fmap(&w->y, NULL);
			yw_kf(&w->y, "weight", "%" PRId32, pref[i].weight);
			pod_term(w, "podAffinityTerm", &pref[i].term);
			yw_end(&w->y);
		}
		yw_end(&w->y);
	}
	yw_end(&w->y);
}

static void affinity(struct w *w, const struct affinity *a)
{
	const struct node_affinity *na = &a->node;
	yw_map(&w->y, "affinity");
	if (na->has_required || na->npref) {
		yw_map(&w->y, "nodeAffinity");
		if (na->has_required) {
			yw_map(&w->y, "requiredDuringSchedulingIgnoredDuringExecution");
			yw_seq(&w->y, "nodeSelectorTerms");
			for (uint32_t i = 0; i < na->nreq; i++)
				ns_term(w, NULL, &na->req[i]);
			yw_end(&w->y);
			yw_end(&w->y);
		}
		if (na->npref) {
			yw_seq(&w->y, "preferredDuringSchedulingIgnoredDuringExecution");
			for (uint32_t i = 0; i < na->npref; i++) {
				yw_fmap(&w->y, NULL);
				yw_kf(&w->y, "weight", "%" PRId32, na->pref[i].weight);
				ns_term(w, "preference", &na->pref[i].term);
				yw_end(&w->y);
			}
			yw_end(&w->y);
		}
		yw_end(&w->y);
	}
	pod_terms(w, "podAffinity", a->aff_req, a->naff_req, a->aff_pref, a->naff_pref);
	pod_terms(w, "podAntiAffinity", a->anti_req, a->nanti_req, a->anti_pref, a->nanti_pref);
	yw_end(&w->y);
}

static void tsc(struct w *w, const char *k, const struct tsc *t, bool with_selector)
{
	yw_fmap(&w->y, k);
	yw_kf(&w->y, "maxSkew", "%" PRId32, t->max_skew);
	kq(w, "topologyKey", t->topology_key);
	if (t->when)
		kq(w, "whenUnsatisfiable", t->when);
	if (t->has_min_domains)
		yw_kf(&w->y, "minDomains", "%" PRId32, t->min_domains);
	if (t->node_affinity_policy)
		kq(w, "nodeAffinityPolicy", t->node_affinity_policy);
	if (t->node_taints_policy)
		kq(w, "nodeTaintsPolicy", t->node_taints_policy);
	if (with_selector && t->selector.present)
		selector_src(w, "labelSelector", &t->selector);
	if (t->nmatch_label_keys)
		syms(w, "matchLabelKeys", t->match_label_keys, t->nmatch_label_keys);
	yw_end(&w->y);
}

/* A number of bytes as people write it: the largest binary suffix that
 * divides it (16Gi), else the largest decimal one (500M), else bytes. */
static void bytes(struct w *w, const char *k, int64_t v)
{
	static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
	static const char *const dec[] = {"k", "M", "G", "T", "P", "E"};
	int64_t m = v;
	int n = 0;
	while (v > 0 && n < 6 && m % 1024 == 0) {
		m /= 1024;
		n++;
	}
	if (n) {
		yw_kf(&w->y, k, "\"%" PRId64 "%s\"", m, bin[n - 1]);
		return;
	}
	while (v > 0 && n < 6 && m % 1000 == 0) {
		m /= 1000;
		n++;
	}
	yw_kf(&w->y, k, "\"%" PRId64 "%s\"", m, n ? dec[n - 1] : "");
}

static void resources(struct w *w, const char *k, const struct resources *r, bool node)
{
	yw_fmap(&w->y, k);
	/* millicores: whole cores without the m */
	if ((node || r->cpu) && r->cpu % 1000 == 0)
		yw_kf(&w->y, "cpu", "\"%" PRId64 "\"", r->cpu / 1000);
	else if (node || r->cpu)
		yw_kf(&w->y, "cpu", "\"%" PRId64 "m\"", r->cpu);
	if (node || r->mem)
		bytes(w, "memory", r->mem);
	if (node)
		yw_kf(&w->y, "pods", "\"%" PRId64 "\"", r->pods);
	if (r->eph)
		bytes(w, "ephemeral-storage", r->eph);
	for (uint32_t i = 0; i < r->next; i++) {
		yw_qkey(&w->y, S(w, r->ext[i].name));
		yw_kf(&w->y, NULL, "\"%" PRId64 "\"", r->ext[i].v);
	}
	yw_end(&w->y);
}

/* A taint's fields in the open mapping. */
static void taint_fields(struct w *w, const struct taint *t)
{
	kq(w, "key", t->key);
	if (t->value && intern_len(w->c->in, t->value))
		kq(w, "value", t->value);
	if (t->effect != EFFECT_NONE && t->effect_text)
		kq(w, "effect", t->effect_text);
	else if (t->effect != EFFECT_NONE)
		yw_kq(&w->y, "effect", effect_name(t->effect));
}

static void taints(struct w *w, const struct taint *t, uint32_t n)
{
	if (!n)
		return;
	yw_seq(&w->y, "taints");
	for (uint32_t i = 0; i < n; i++) {
		yw_fmap(&w->y, NULL);
		taint_fields(w, &t[i]);
		yw_end(&w->y);
	}
	yw_end(&w->y);
}

/* k: "RFC 3339 time", unless t is INT64_MAX (none) */
static void timestamp(struct w *w, const char *k, int64_t t)
{
	char ts[64];
	time_t tt = (time_t)t;
	struct tm tm;
	if (t != INT64_MAX && gmtime_r(&tt, &tm) && strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm))
		yw_kq(&w->y, k, ts);
}

/* What the controllers read of a pod (load_life.c), in the shorthand. */
static void pod_life(struct w *w, const struct pod *p)
{
	const struct pod_life *l = &p->life;
	static const char *const phases[] = {"", "Pending", "Running", "Unknown"};
	if (l->uid)
		kq(w, "uid", l->uid);
	if (l->phase != PHASE_NONE && l->phase <= PHASE_UNKNOWN)
		yw_kv(&w->y, "phase", phases[l->phase]);
	if (l->ready >= 0)
		yw_kv(&w->y, "ready", tf(l->ready));
	if (l->ready == 1)
		timestamp(w, "readySince", l->ready_since);
	if (l->restarts)
		yw_kf(&w->y, "restarts", "%" PRId32, l->restarts);
	if (l->sidecar_restarts)
		yw_kf(&w->y, "sidecarRestarts", "%" PRId32, l->sidecar_restarts);
	if (!l->deletion_cost && !(l->protect & (LIFE_MIRROR | LIFE_STATIC | LIFE_EVICT)))
		return;
	yw_fmap(&w->y, "annotations");
	if (l->deletion_cost)
		yw_kf(&w->y, "controller.kubernetes.io/pod-deletion-cost", "\"%" PRId32 "\"", l->deletion_cost);
	if (l->protect & LIFE_MIRROR)
		yw_kq(&w->y, "kubernetes.io/config.mirror", "");
	if (l->protect & LIFE_STATIC)
		yw_kv(&w->y, "kubernetes.io/config.source", "file");
	if (l->protect & LIFE_EVICT)
		yw_kq(&w->y, "descheduler.alpha.kubernetes.io/evict", "true");
	yw_end(&w->y);
}

static const char *const mode_names[] = {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"};

static void modes(struct w *w, const char *k, uint8_t m)
{
	yw_fseq(&w->y, k);
	for (int b = 0; b < 4; b++)
		if (m & (1u << b))
			yw_kq(&w->y, NULL, mode_names[b]);
	yw_end(&w->y);
}

/* A name for the emptyDir that stands for the pod's local storage (the
 * descheduler reads only that it has one), unused by its claims. */
static void local_volume_name(const struct w *w, const struct pod_spec *s, char *buf, size_t n)
{
	for (uint32_t k = 0;; k++) {
		bool used = false;
		if (k)
			snprintf(buf, n, "local-%u", k);
		else
			snprintf(buf, n, "local");
		for (uint32_t i = 0; i < s->nvols && !used; i++)
			used = !strcmp(S(w, s->vols[i].name), buf);
		if (!used)
			return;
	}
}

/* A pod's volumes (its claims, and an emptyDir when local is set: the
 * only other source anything reads), host ports and scheduling gates
 * (shorthand). */
static void pod_storage(struct w *w, const struct pod_spec *s, bool local)
{
	struct yw *y = &w->y;
	if (s->nvols || local)
		yw_seq(y, "volumes");
	if (local) {
		char name[32];
		local_volume_name(w, s, name, sizeof(name));
		yw_fmap(y, NULL);
		yw_kv(y, "name", name);
		yw_fmap(y, "emptyDir");
		yw_end(y);
		yw_end(y);
	}
	for (uint32_t i = 0; i < s->nvols; i++) {
		const struct pod_volume *v = &s->vols[i];
		yw_fmap(y, NULL);
		kq(w, "name", v->name);
		if (v->kind == VOL_PVC) {
			yw_fmap(y, "persistentVolumeClaim");
			kq(w, "claimName", v->claim);
			yw_end(y);
		} else if (v->kind == VOL_EPHEMERAL) {
			yw_fmap(y, "ephemeral");
			yw_fmap(y, "volumeClaimTemplate");
			yw_fmap(y, "spec");
			modes(w, "accessModes", v->eph_modes);
			if (v->eph_class)
				kq(w, "storageClassName", v->eph_class);
			yw_fmap(y, "resources");
			yw_fmap(y, "requests");
			yw_kf(y, "storage", "\"%lld\"", (long long)v->eph_request);
			/* requests, resources, spec, volumeClaimTemplate, ephemeral */
			for (int d = 0; d < 5; d++)
				yw_end(y);
		}
		yw_end(y);
	}
	if (s->nvols || local)
		yw_end(y);
	if (s->nports)
		yw_seq(y, "ports");
	for (uint32_t i = 0; i < s->nports; i++) {
		const struct host_port *hp = &s->ports[i];
		yw_fmap(y, NULL);
		yw_kf(y, "containerPort", "%d", hp->container_port);
		yw_kf(y, "hostPort", "%d", hp->host_port);
		if (hp->protocol)
			kq(w, "protocol", hp->protocol);
		if (hp->host_ip)
			kq(w, "hostIP", hp->host_ip);
		yw_end(y);
	}
	if (s->nports)
		yw_end(y);
	if (s->ngates)
		yw_seq(y, "schedulingGates");
	for (uint32_t i = 0; i < s->ngates; i++) {
		yw_fmap(y, NULL);
		kq(w, "name", s->gates[i]);
		yw_end(y);
	}
	if (s->ngates)
		yw_end(y);
}

/* A pod as a block mapping under key k (NULL: a sequence item, or the
 * value of the key just written). */
static void pod(struct w *w, const char *k, const struct pod *p, bool bound)
{
	struct yw *y = &w->y;
	yw_map(y, k);
	kq(w, "name", p->name);
	if (p->ns)
		kq(w, "namespace", p->ns);
	if (p->labels.n)
		labels(w, "labels", &p->labels);
	if (p->nowners)
		yw_seq(y, "ownerReferences");
	for (uint32_t i = 0; i < p->nowners; i++) {
		const struct owner_ref *o = &p->owners[i];
		yw_fmap(y, NULL);
		kq(w, "kind", o->kind);
		kq(w, "name", o->name);
		if (o->api_version)
			kq(w, "apiVersion", o->api_version);
		if (o->controller >= 0)
			yw_kv(y, "controller", tf(o->controller));
		if (o->uid)
			kq(w, "uid", o->uid);
		yw_end(y);
	}
	if (p->nowners)
		yw_end(y);
	pod_life(w, p);
	if (p->terminating)
		yw_kv(y, "terminating", "true");
	if (p->stored && !bound)
		yw_kv(y, "admitted", "true");
	timestamp(w, "creationTimestamp", p->created);
	timestamp(w, "startTime", p->start_time);
	if (p->nominated)
		kq(w, "nominatedNodeName", p->nominated);
	const struct pod_spec *s = &p->spec;
	/* a priority the loader resolved from the class is not written:
	 * the class gives it again */
	if (s->has_priority || (s->priority && !s->priority_class))
		yw_kf(y, "priority", "%" PRId32, s->priority);
	if (s->priority_class)
		kq(w, "priorityClassName", s->priority_class);
	if (s->preemption_policy)
		kq(w, "preemptionPolicy", s->preemption_policy);
	if (bound && p->node >= 0)
		kq(w, "nodeName", w->c->nodes[p->node].name);
	if (s->node_selector.n)
		labels(w, "nodeSelector", &s->node_selector);
	if (s->has_affinity)
		affinity(w, &s->affinity);
	if (s->ntols)
		yw_seq(y, "tolerations");
	for (uint32_t i = 0; i < s->ntols; i++) {
		const struct toleration *t = &s->tols[i];
		yw_fmap(y, NULL);
		kq(w, "key", t->key);
		if (t->op_text)
			kq(w, "operator", t->op_text);
		kq(w, "value", t->value);
		if (t->effect_text)
			kq(w, "effect", t->effect_text);
		yw_end(y);
	}
	if (s->ntols)
		yw_end(y);
	if (s->ntscs)
		yw_seq(y, "topologySpreadConstraints");
	for (uint32_t i = 0; i < s->ntscs; i++)
		tsc(w, NULL, &s->tscs[i], true);
	if (s->ntscs)
		yw_end(y);
	/* sidecars: the app's requests are the plain ones (the sidecars as
	 * init containers), one sidecar holds the rest, so that both
	 * accountings come back (when one sidecar can hold it) */
	struct resources app = s->req, rest = { 0 };
	const struct pod_plain *pl = s->plain;
	bool sidecar = s->has_sidecars && pl && pl->cpu <= s->req.cpu && pl->mem <= s->req.mem &&
		       pl->eph <= s->req.eph && s->req.cpu - pl->cpu <= pl->cpu &&
		       s->req.mem - pl->mem <= pl->mem && s->req.eph - pl->eph <= pl->eph;
	if (sidecar) {
		app.cpu = pl->cpu;
		app.mem = pl->mem;
		app.eph = pl->eph;
		rest.cpu = s->req.cpu - pl->cpu;
		rest.mem = s->req.mem - pl->mem;
		rest.eph = s->req.eph - pl->eph;
	}
	if (app.cpu || app.mem || app.eph || app.next)
		resources(w, "requests", &app, false);
	if (sidecar) {
		yw_seq(y, "initContainers");
		yw_fmap(y, NULL);
		yw_kv(y, "name", "sidecar");
		yw_kv(y, "restartPolicy", "Always");
		yw_fmap(y, "resources");
		resources(w, "requests", &rest, false);
		yw_end(y);
		yw_end(y);
		yw_end(y);
	}
	pod_storage(w, s, p->life.protect & LIFE_LOCAL_STORAGE);
	yw_end(y);
}

/* The storage objects as shorthand flow mappings under key k, with
 * their kind when asked (a create step). */
static void storage_class(struct w *w, const char *k, const struct storage_class *x, bool kind)
{
	struct yw *y = &w->y;
	yw_fmap(y, k);
	if (kind)
		yw_kv(y, "kind", "StorageClass");
	kq(w, "name", x->name);
	if (x->provisioner)
		kq(w, "provisioner", x->provisioner);
	yw_kv(y, "volumeBindingMode", x->wffc ? "WaitForFirstConsumer" : "Immediate");
	if (x->ntopo)
		yw_fseq(y, "allowedTopologies");
	for (uint32_t i = 0; i < x->ntopo; i++) {
		yw_fmap(y, NULL);
		yw_fseq(y, "matchLabelExpressions");
		for (uint32_t j = 0; j < x->topo[i].nexprs; j++) {
			yw_fmap(y, NULL);
			kq(w, "key", x->topo[i].exprs[j].key);
			syms(w, "values", x->topo[i].exprs[j].vals, x->topo[i].exprs[j].nvals);
			yw_end(y);
		}
		yw_end(y);
		yw_end(y);
	}
	if (x->ntopo)
		yw_end(y);
	yw_end(y);
}

static void storage_pv(struct w *w, const char *k, const struct pv *x, bool kind)
{
	static const char *const phases[] = {"Available", "Bound", "Released", "Failed"};
	struct yw *y = &w->y;
	yw_fmap(y, k);
	if (kind)
		yw_kv(y, "kind", "PersistentVolume");
	kq(w, "name", x->name);
	kq(w, "storageClassName", x->class);
	yw_kf(y, "capacity", "\"%lld\"", (long long)x->capacity);
	modes(w, "accessModes", x->modes);
	if (x->labels.n)
		labels(w, "labels", &x->labels);
	yw_kv(y, "phase", phases[x->phase & 3]);
	if (x->claim_name) {
		yw_fmap(y, "claimRef");
		kq(w, "namespace", x->claim_ns);
		kq(w, "name", x->claim_name);
		yw_end(y);
	}
	if (x->driver) {
		yw_fmap(y, "csi");
		kq(w, "driver", x->driver);
		if (x->handle)
			kq(w, "volumeHandle", x->handle);
		yw_end(y);
	}
	if (x->has_aff) {
		yw_fmap(y, "nodeAffinity");
		yw_fmap(y, "required");
		yw_fseq(y, "nodeSelectorTerms");
		for (uint32_t i = 0; i < x->naff; i++)
			ns_term(w, NULL, &x->aff[i]);
		yw_end(y);
		yw_end(y);
		yw_end(y);
	}
	yw_end(y);
}

static void storage_pvc(struct w *w, const char *k, const struct pvc *x, bool kind)
{
	struct yw *y = &w->y;
	yw_fmap(y, k);
	if (kind)
		yw_kv(y, "kind", "PersistentVolumeClaim");
	kq(w, "name", x->name);
	kq(w, "namespace", x->ns);
	if (x->class)
		kq(w, "storageClassName", x->class);
	yw_kf(y, "request", "\"%lld\"", (long long)x->request);
	modes(w, "accessModes", x->modes);
	if (x->volume_name)
		kq(w, "volumeName", x->volume_name);
	if (x->volume_name && !x->bind_completed)
		yw_kv(y, "bindCompleted", "false");
	if (x->selected_node)
		kq(w, "selectedNode", x->selected_node);
	yw_end(y);
}

static void storage_csinode(struct w *w, const char *k, const struct csi_node *x, bool kind)
{
	struct yw *y = &w->y;
	yw_fmap(y, k);
	if (kind)
		yw_kv(y, "kind", "CSINode");
	kq(w, "name", x->name);
	yw_fseq(y, "drivers");
	for (uint32_t i = 0; i < x->ndrivers; i++) {
		yw_fmap(y, NULL);
		kq(w, "name", x->drivers[i].name);
		if (x->drivers[i].has_count)
			yw_kf(y, "count", "%lld", (long long)x->drivers[i].count);
		yw_end(y);
	}
	yw_end(y);
	yw_end(y);
}

static void storage_driver(struct w *w, const char *k, const struct csi_driver *x, bool kind)
{
	struct yw *y = &w->y;
	yw_fmap(y, k);
	if (kind)
		yw_kv(y, "kind", "CSIDriver");
	kq(w, "name", x->name);
	yw_kv(y, "attachRequired", tf(x->attach_required));
	yw_kv(y, "storageCapacity", tf(x->storage_capacity));
	yw_end(y);
}

/* The cluster's storage objects (those the input gave: not the ones a
 * scheduling step provisioned) as the scenario's lists. */
static void storage_lists(struct w *w, const struct storage *st)
{
	struct yw *y = &w->y;
	if (st->nclasses)
		yw_seq(y, "storageClasses");
	for (uint32_t i = 0; i < st->nclasses; i++)
		storage_class(w, NULL, &st->classes[i], false);
	if (st->nclasses)
		yw_end(y);
	bool any = false;
	for (uint32_t i = 0; i < st->npvs; i++) {
		if (!st->pvs[i].alive || st->pvs[i].provisioned)
			continue;
		if (!any)
			yw_seq(y, "persistentVolumes");
		any = true;
		storage_pv(w, NULL, &st->pvs[i], false);
	}
	if (any)
		yw_end(y);
	any = false;
	for (uint32_t i = 0; i < st->npvcs; i++) {
		if (!st->pvcs[i].alive || st->pvcs[i].ephemeral)
			continue;
		if (!any)
			yw_seq(y, "persistentVolumeClaims");
		any = true;
		storage_pvc(w, NULL, &st->pvcs[i], false);
	}
	if (any)
		yw_end(y);
	if (st->ncsinodes)
		yw_seq(y, "csiNodes");
	for (uint32_t i = 0; i < st->ncsinodes; i++)
		storage_csinode(w, NULL, &st->csinodes[i], false);
	if (st->ncsinodes)
		yw_end(y);
	if (st->ndrivers)
		yw_seq(y, "csiDrivers");
	for (uint32_t i = 0; i < st->ndrivers; i++)
		storage_driver(w, NULL, &st->drivers[i], false);
	if (st->ndrivers)
		yw_end(y);
}

static void node(struct w *w, const char *k, const struct node *n)
{
	struct yw *y = &w->y;
	yw_map(y, k);
	kq(w, "name", n->name);
	labels(w, "labels", &n->labels);
	taints(w, n->taints, n->ntaints);
	if (n->unschedulable)
		yw_kv(y, "unschedulable", "true");
	if (n->cap_cpu || n->cap_mem) {
		/* the capacity CA's least-waste and similarity read: beside
		 * the allocatable under status, as a Node object has them */
		struct resources cap = {0};
		cap.cpu = n->cap_cpu;
		cap.mem = n->cap_mem;
		yw_map(y, "status");
		resources(w, "capacity", &cap, false);
		resources(w, "allocatable", &n->alloc, true);
		yw_end(y);
	} else {
		resources(w, "allocatable", &n->alloc, true);
	}
	yw_end(y);
}

/* ---- the autoscaler inputs (spec/autoscalers.md 1) ---- */

static void price(struct w *w, const char *k, double p)
{
	yw_kf(&w->y, k, "%.6g", p);
}

/* The settings that are set, as fields of the open flow mapping. */
static void as_settings_fields(struct w *w, const struct as_settings *s)
{
	struct yw *y = &w->y;
	if (s->nexpander) {
		yw_fseq(y, "expander");
		for (uint32_t i = 0; i < s->nexpander; i++)
			yw_kv(y, NULL, as_expander_name(s->expander[i]));
		yw_end(y);
	}
	if (s->has_prios) {
		yw_fmap(y, "priorities");
		for (uint32_t i = 0; i < s->nprios; i++) {
			char prio[24];
			snprintf(prio, sizeof(prio), "%" PRId64, s->prios[i].prio);
			yw_fseq(y, prio);
			for (uint32_t j = 0; j < s->prios[i].n; j++)
				yw_kq(y, NULL, s->prios[i].regex[j]);
			yw_end(y);
		}
		yw_end(y);
	}
	if (s->has_pod_price) {
		yw_fmap(y, "podPrice");
		price(w, "cpu", s->pod_price_cpu);
		price(w, "memory", s->pod_price_mem);
		yw_end(y);
	}
	if (s->balance >= 0)
		yw_kv(y, "balanceSimilarNodeGroups", tf(s->balance));
	if (s->nbalance_ignore)
		syms(w, "balancingIgnoreLabels", s->balance_ignore, s->nbalance_ignore);
	if (s->max_nodes_total >= 0)
		yw_kf(y, "maxNodesTotal", "%" PRId64, s->max_nodes_total);
	if (s->max_per_scaleup >= 0)
		yw_kf(y, "maxNodesPerScaleUp", "%" PRId64, s->max_per_scaleup);
	if (s->force_ds >= 0)
		yw_kv(y, "forceDaemonSets", tf(s->force_ds));
	if (s->sched_cfg)
		yw_kv(y, "schedulerConfig", s->sched_cfg == AS_SCHED_DEFAULT ? "default" : "scenario");
	if (s->pref_ignore >= 0)
		yw_kv(y, "preferencePolicy", s->pref_ignore ? "Ignore" : "Respect");
}

static void autoscale(struct w *w, const struct as_config *c)
{
	struct yw *y = &w->y;
	if (!c)
		return;
	yw_map(y, "autoscaler");
	if (c->set.def != AS_DEFAULT)
		yw_kv(y, "default", c->set.def == AS_CA ? "clusterAutoscaler" : "karpenter");
	/* the settings are one set; written under clusterAutoscaler */
	yw_fmap(y, "clusterAutoscaler");
	as_settings_fields(w, &c->set);
	yw_end(y);
	yw_end(y);
	if (c->ngroups)
		yw_seq(y, "nodeGroups");
	for (uint32_t i = 0; i < c->ngroups; i++) {
		const struct as_group *g = &c->groups[i];
		yw_map(y, NULL);
		kq(w, "name", g->name);
		yw_kf(y, "max", "%" PRId64, g->max);
		if (g->min)
			yw_kf(y, "min", "%" PRId64, g->min);
		if (g->has_size)
			yw_kf(y, "size", "%" PRId64, g->size);
		if (g->nnodes)
			syms(w, "nodes", g->nodes, g->nnodes);
		if (g->has_selector)
			labels(w, "selector", &g->selector);
		if (g->has_template) {
			yw_map(y, "template");
			labels(w, "labels", &g->tmpl.labels);
			taints(w, g->tmpl.taints, g->tmpl.ntaints);
			resources(w, "allocatable", &g->tmpl.alloc, true);
			yw_end(y);
		}
		if (g->nzones)
			syms(w, "zones", g->zones, g->nzones);
		if (g->has_price)
			price(w, "price", g->price);
		yw_end(y);
	}
	if (c->ngroups)
		yw_end(y);
	if (c->nitypes)
		yw_seq(y, "instanceTypes");
	for (uint32_t i = 0; i < c->nitypes; i++) {
		const struct as_itype *t = &c->itypes[i];
		yw_map(y, NULL);
		kq(w, "name", t->name);
		resources(w, "allocatable", &t->alloc, true);
		labels(w, "labels", &t->labels);
		yw_seq(y, "offerings");
		for (uint32_t o = 0; o < t->noffers; o++) {
			yw_fmap(y, NULL);
			kq(w, "zone", t->offers[o].zone);
			kq(w, "capacityType", t->offers[o].capacity_type);
			price(w, "price", t->offers[o].price);
			yw_kv(y, "available", tf(t->offers[o].available));
			yw_end(y);
		}
		yw_end(y);
		yw_end(y);
	}
	if (c->nitypes)
		yw_end(y);
	static const char *const ops[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
	if (c->npools)
		yw_seq(y, "nodePools");
	for (uint32_t i = 0; i < c->npools; i++) {
		const struct as_pool *p = &c->pools[i];
		yw_map(y, NULL);
		kq(w, "name", p->name);
		yw_kf(y, "weight", "%" PRId64, p->weight);
		if (p->labels.n)
			labels(w, "labels", &p->labels);
		taints(w, p->taints, p->ntaints);
		if (p->nreqs)
			yw_seq(y, "requirements");
		for (uint32_t r = 0; r < p->nreqs; r++) {
			yw_fmap(y, NULL);
			kq(w, "key", p->reqs[r].key);
			yw_kv(y, "operator", ops[p->reqs[r].op]);
			if (p->reqs[r].nvals)
				syms(w, "values", p->reqs[r].vals, p->reqs[r].nvals);
			yw_end(y);
		}
		if (p->nreqs)
			yw_end(y);
		if (p->nlimits) {
			/* spec.limits as read: cpu in millicores, the rest in units */
			yw_fmap(y, "limits");
			for (uint32_t l = 0; l < p->nlimits; l++) {
				const char *res = S(w, p->limits[l].res);
				yw_qkey(y, res);
				yw_kf(y, NULL, "\"%" PRId64 "%s\"", p->limits[l].v, strcmp(res, "cpu") ? "" : "m");
			}
			yw_end(y);
		}
		if (p->has_itypes)
			syms(w, "instanceTypes", p->itypes, p->nitypes);
		yw_end(y);
	}
	if (c->npools)
		yw_end(y);
}

/* A scaleUp's expect tree as a flow value under key k. */
static void as_val(struct w *w, const char *k, const struct as_val *v)
{
	switch (v->type) {
	case AV_NULL:
		yw_kv(&w->y, k, "null");
		break;
	case AV_STR:
		yw_kq(&w->y, k, v->s);
		break;
	case AV_SEQ:
	case AV_MAP:
		(v->type == AV_SEQ ? yw_fseq : yw_fmap)(&w->y, k);
		for (uint32_t i = 0; i < v->n; i++) {
			if (v->type == AV_MAP)
				yw_qkey(&w->y, v->keys[i]);
			as_val(w, NULL, &v->kids[i]);
		}
		yw_end(&w->y);
		break;
	}
}

/* ---- the step writer: a kind's save (model/steps/) over the writer ---- */

static struct w *W(struct step_writer *sw)
{
	return sw->ctx;
}

static void sw_str(struct step_writer *sw, sym_t s)
{
	kq(W(sw), NULL, s);
}

static void sw_text(struct step_writer *sw, const char *s)
{
	yw_kq(&W(sw)->y, NULL, s);
}

static void sw_raw(struct step_writer *sw, const char *tok)
{
	yw_kv(&W(sw)->y, NULL, tok);
}

static void sw_begin(struct step_writer *sw)
{
	yw_fmap(&W(sw)->y, NULL);
}

static void sw_key(struct step_writer *sw, const char *key)
{
	yw_key(&W(sw)->y, key);
}

static void sw_end(struct step_writer *sw)
{
	yw_end(&W(sw)->y);
}

static void sw_taint(struct step_writer *sw, const struct taint *t)
{
	taint_fields(W(sw), t);
}

static void sw_settings(struct step_writer *sw, const struct as_settings *s)
{
	as_settings_fields(W(sw), s);
}

static void sw_pod(struct step_writer *sw, const struct pod *p)
{
	pod(W(sw), NULL, p, false);
}

static void sw_node(struct step_writer *sw, const struct node *n)
{
	node(W(sw), NULL, n);
}

static void sw_storage(struct step_writer *sw, const struct storage *st)
{
	struct w *w = W(sw);
	if (st->nclasses)
		storage_class(w, NULL, &st->classes[0], true);
	else if (st->npvs)
		storage_pv(w, NULL, &st->pvs[0], true);
	else if (st->npvcs)
		storage_pvc(w, NULL, &st->pvcs[0], true);
	else if (st->ncsinodes)
		storage_csinode(w, NULL, &st->csinodes[0], true);
	else if (st->ndrivers)
		storage_driver(w, NULL, &st->drivers[0], true);
	else
		yw_kv(&w->y, NULL, "null");
}

static void sw_block(struct step_writer *sw, const char *const *keys, const char *const *vals,
		     const bool *raw, uint32_t n, const char *tkey, const struct pod *t)
{
	struct w *w = W(sw);
	yw_map(&w->y, NULL);
	for (uint32_t i = 0; i < n; i++)
		(raw[i] ? yw_kv : yw_kq)(&w->y, keys[i], vals[i]);
	if (t)
		pod(w, tkey, t, false);
	yw_end(&w->y);
}

/* Opens the step's mapping: the action, choose and note. */
static void step(struct w *w, const struct step *s)
{
	struct step_writer sw = {
		w, w->c->in, sw_str, sw_text, sw_raw, sw_begin, sw_key, sw_end, sw_taint, sw_pod,
		sw_node, sw_storage, sw_block, sw_settings,
	};
	yw_map(&w->y, NULL);
	yw_key(&w->y, step_kind_name(s->kind));
	step_ops_of(s->kind)->save(s, &sw);
	if (s->choose && step_runs_cycle(s))
		kq(w, "choose", s->choose);
	if (s->note)
		yw_kq(&w->y, "note", s->note);
}

/* An expect map as a flow mapping (strings or numbers), null when is_null. */
static void expect_map(struct w *w, const char *k, const struct expect_map *m, bool ints)
{
	if (m->is_null) {
		yw_kv(&w->y, k, "null");
		return;
	}
	yw_fmap(&w->y, k);
	for (uint32_t i = 0; i < m->n; i++) {
		yw_qkey(&w->y, S(w, m->kv[i].key));
		if (ints)
			yw_kf(&w->y, NULL, "%" PRId64, m->kv[i].ival);
		else
			kq(w, NULL, m->kv[i].sval);
	}
	yw_end(&w->y);
}

/* The step's expect block as the loader reads it (load_steps.c
 * load_expect), every key it had. */
static void expect(struct w *w, const struct expect *e)
{
	struct yw *y = &w->y;
	yw_map(y, "expect");
	if (e->has_node)
		kq(w, "node", e->node);
	if (e->has_nodes)
		syms(w, "nodes", e->nodes, e->nnodes);
	if (e->has_feasible)
		syms(w, "feasible", e->feasible, e->nfeasible);
	if (e->has_filtered)
		expect_map(w, "filtered", &e->filtered, false);
	if (e->has_message && e->message_null)
		yw_kv(y, "message", "null");
	else if (e->has_message)
		kq(w, "message", e->message);
	if (e->has_invalid)
		kq(w, "invalid", e->invalid);
	if (e->has_domains) {
		yw_fseq(y, "domains");
		for (uint32_t i = 0; i < e->ndomains; i++)
			expect_map(w, NULL, &e->domains[i], true);
		yw_end(y);
	}
	if (e->has_global_min) {
		yw_fseq(y, "globalMin");
		for (uint32_t i = 0; i < e->nglobal_min; i++)
			if (e->global_min[i].is_null)
				yw_kv(y, NULL, "null");
			else
				yw_kf(y, NULL, "%" PRId64, e->global_min[i].v);
		yw_end(y);
	}
	if (e->has_scores) {
		yw_fmap(y, "scores");
		for (uint32_t i = 0; i < e->nscores; i++) {
			yw_qkey(y, S(w, e->scores[i].plugin));
			expect_map(w, NULL, &e->scores[i].nodes, true);
		}
		yw_end(y);
	}
	if (e->has_blockers) {
		yw_fmap(y, "blockers");
		for (uint32_t i = 0; i < e->nblockers; i++) {
			yw_qkey(y, S(w, e->blockers[i].key));
			syms(w, NULL, e->blockers[i].vals, e->blockers[i].n);
		}
		yw_end(y);
	}
	if (e->has_event)
		kq(w, "event", e->event);
	if (e->has_nominated && e->nominated_null)
		yw_kv(y, "nominated", "null");
	else if (e->has_nominated)
		kq(w, "nominated", e->nominated);
	if (e->has_victims)
		syms(w, "victims", e->victims, e->nvictims);
	if (e->has_deleted)
		syms(w, "deleted", e->deleted, e->ndeleted);
	if (e->has_deleted_count)
		yw_kf(y, "deletedCount", "%" PRId64, e->deleted_count);
	if (e->has_created)
		yw_kf(y, "created", "%" PRId64, e->created);
	yw_end(y);
}

static void int_or_pct(struct w *w, const char *k, const struct int_or_pct *v)
{
	if (v->set && v->pct)
		yw_kf(&w->y, k, "\"%" PRId32 "%%\"", v->v);
	else if (v->set)
		yw_kf(&w->y, k, "%" PRId32, v->v);
}

/* A workload: a flow mapping, or a block one when it has a template. */
static void workload(struct w *w, const struct workload *wl)
{
	static const char *const kinds[] = {
		[WL_SERVICE] = "Service", [WL_REPLICASET] = "ReplicaSet",
		[WL_STATEFULSET] = "StatefulSet", [WL_RC] = "ReplicationController",
		[WL_DEPLOYMENT] = "Deployment",
	};
	struct yw *y = &w->y;
	(wl->tpl ? yw_map : yw_fmap)(y, NULL);
	yw_kv(y, "kind", kinds[wl->kind]);
	kq(w, "name", wl->name);
	kq(w, "namespace", wl->ns);
	if ((wl->kind == WL_SERVICE || wl->kind == WL_RC) && wl->has_selector)
		labels(w, "selector", &wl->set);
	else if (wl->kind != WL_SERVICE && wl->kind != WL_RC && wl->sel_src.present)
		selector_src(w, "selector", &wl->sel_src);
	/* what the controllers read (load_life.c) */
	if (wl->uid)
		kq(w, "uid", wl->uid);
	if (wl->owner_name && wl->owner_kind) {
		yw_fseq(y, "ownerReferences");
		yw_fmap(y, NULL);
		kq(w, "kind", wl->owner_kind);
		kq(w, "name", wl->owner_name);
		if (wl->owner_uid)
			kq(w, "uid", wl->owner_uid);
		yw_end(y);
		yw_end(y);
	}
	if (wl->has_replicas)
		yw_kf(y, "replicas", "%" PRId32, wl->replicas);
	timestamp(w, "creationTimestamp", wl->created);
	if (wl->max_replicas >= 0) {
		yw_fmap(y, "annotations");
		yw_kf(y, "deployment.kubernetes.io/max-replicas", "\"%" PRId64 "\"", wl->max_replicas);
		yw_end(y);
	}
	if (wl->kind == WL_DEPLOYMENT && (wl->recreate || wl->max_surge.set || wl->max_unavailable.set)) {
		yw_fmap(y, "strategy");
		yw_kv(y, "type", wl->recreate ? "Recreate" : "RollingUpdate");
		int_or_pct(w, "maxSurge", &wl->max_surge);
		int_or_pct(w, "maxUnavailable", &wl->max_unavailable);
		yw_end(y);
	}
	if (wl->parallel)
		yw_kv(y, "podManagementPolicy", "Parallel");
	if (wl->ordinal_start) {
		yw_fmap(y, "ordinals");
		yw_kf(y, "start", "%" PRId32, wl->ordinal_start);
		yw_end(y);
	}
	if (wl->tpl)
		pod(w, "template", wl->tpl, false);
	yw_end(y);
}

static void scheduler(struct w *w, const struct sched_config *cfg)
{
	struct yw *y = &w->y;
	yw_map(y, "scheduler");
	yw_kv(y, "defaultingType", cfg->defaulting == DEFAULTING_LIST ? "List" : "System");
	if (cfg->defaulting == DEFAULTING_LIST) {
		yw_seq(y, "defaultConstraints");
		for (uint32_t i = 0; i < cfg->ndefault_tscs; i++)
			tsc(w, NULL, &cfg->default_tscs[i], false);
		yw_end(y);
	}
	if (cfg->version_named) {
		char v[32];
		version_format(&cfg->version, v, sizeof(v));
		yw_kq(y, "version", v);
	}
	/* the gates the scenario set (the others are the version's) */
	yw_map(y, "featureGates");
	for (int g = 0; g < GATE__COUNT; g++)
		if (cfg->gate_set[g])
			yw_kv(y, gate_name((enum feature_gate)g), tf(cfg->gates[g]));
	yw_end(y);
	/* the Score plugins in id order (the profile's) */
	yw_map(y, "scoreWeights");
	for (int p = 0; p < PL__COUNT; p++)
		if (plugin_scores((enum plugin_id)p))
			yw_kf(y, plugin_name((enum plugin_id)p), "%" PRId32, cfg->weights[p]);
	yw_end(y);
	yw_kv(y, "tieBreak", cfg->tie_random ? "random" : "first");
	yw_ku(y, "seed", cfg->seed);
	if (!cfg->preemption)
		yw_kv(y, "preemption", "false");
	yw_end(y);
}

static void priority_class(struct w *w, const struct priority_class *pc)
{
	yw_fmap(&w->y, NULL);
	kq(w, "name", pc->name);
	yw_kf(&w->y, "value", "%" PRId32, pc->value);
	if (pc->global_default)
		yw_kv(&w->y, "globalDefault", "true");
	if (pc->preemption_policy)
		kq(w, "preemptionPolicy", pc->preemption_policy);
	yw_end(&w->y);
}

static void pdb(struct w *w, const struct pdb *d)
{
	yw_fmap(&w->y, NULL);
	kq(w, "name", d->name);
	kq(w, "namespace", d->ns);
	if (d->has_selector)
		selector_src(w, "selector", &d->sel_src);
	int_or_pct(w, "minAvailable", &d->min_available);
	int_or_pct(w, "maxUnavailable", &d->max_unavailable);
	if (d->has_allowed)
		yw_kf(&w->y, "disruptionsAllowed", "%" PRId32, d->allowed);
	yw_end(&w->y);
}

int save_scenario(FILE *f, const struct scenario *sc)
{
	return save_scenario_why(f, sc, NULL);
}

int save_scenario_why(FILE *f, const struct scenario *sc, const char *const *why)
{
	assert(f && sc && sc->cluster);
	const struct cluster *c = sc->cluster;
	struct w w = {.c = c};
	struct yw *y = &w.y;
	yw_init(y, f, false, 0);
	y->seq_indent = 2;
	yw_comment(y, "Written by skewer. Replicas are written one step each, without their");
	yw_comment(y, "expect: block; the steps after an edit lose theirs (it changes the");
	yw_comment(y, "outcomes).");
	if (sc->name)
		yw_kq(y, "name", sc->name);
	if (sc->description)
		yw_kq(y, "description", sc->description);
	if (sc->source)
		yw_kq(y, "source", sc->source);
	/* the controllers' clock, when a workload can use it */
	for (uint32_t i = 0; i < c->nworkloads; i++)
		if (c->workloads[i].tpl || c->workloads[i].has_replicas) {
			timestamp(&w, "now", c->now);
			break;
		}
	scheduler(&w, &c->cfg);
	autoscale(&w, sc->autoscale);
	yw_seq(y, "nodes");
	for (uint32_t i = 0; i < c->nnodes; i++)
		if (c->nodes[i].alive)
			node(&w, NULL, &c->nodes[i]);
	yw_end(y);
	bool any = false;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (!p->alive || p->node < 0)
			continue;
		if (!any)
			yw_seq(y, "pods");
		any = true;
		pod(&w, NULL, p, true);
	}
	if (any)
		yw_end(y);
	if (c->nworkloads)
		yw_seq(y, "workloads");
	for (uint32_t i = 0; i < c->nworkloads; i++)
		workload(&w, &c->workloads[i]);
	if (c->nworkloads)
		yw_end(y);
	if (c->npclasses)
		yw_seq(y, "priorityClasses");
	for (uint32_t i = 0; i < c->npclasses; i++)
		priority_class(&w, &c->pclasses[i]);
	if (c->npclasses)
		yw_end(y);
	if (c->npdbs)
		yw_seq(y, "disruptionBudgets");
	for (uint32_t i = 0; i < c->npdbs; i++)
		pdb(&w, &c->pdbs[i]);
	if (c->npdbs)
		yw_end(y);
	storage_lists(&w, &c->st);
	yw_seq(y, "steps");
	/* a step made or changed in the view has line 0; after one, the
	 * author's expectations may no longer hold */
	const struct step *edit = NULL;
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		const struct step *s = &sc->steps[i];
		step(&w, s);
		if (!s->line && !s->col && !edit)
			edit = s;
		const struct as_step *as = s->kind == STEP_SCALE_UP ? s->arg : NULL;
		if (as && as->has_expect && !edit)
			as_val(&w, "expect", &as->expect);
		if (s->has_expect && edit)
			yw_comment(y, "expect: left out: step %u, an edit, came first%s%s",
				   (unsigned)(edit - sc->steps) + 1, why && why[i] ? "; " : "",
				   why && why[i] ? why[i] : "");
		else if (s->has_expect && s->nreplicas)
			yw_comment(y, "expect: left out: it was written for all the replicas");
		else if (s->has_expect)
			expect(&w, &s->expect);
		yw_end(y);
	}
	yw_end(y);
	return !ferror(f);
}

/* Writes to f, flushed; 0 with errno on a write error. */
static int save_to(FILE *f, const struct scenario *sc, const char *const *why)
{
	errno = 0;
	if (save_scenario_why(f, sc, why) && fflush(f) == 0)
		return 1;
	if (!errno)
		errno = EIO;
	return 0;
}

/* path after its symbolic links (malloc'd; NULL with errno on failure):
 * a link to nothing resolves to the name it holds, made there. */
static char *resolve(const char *path)
{
	char *p = strdup(path), link[PATH_MAX];
	struct stat st;
	for (int hops = 0; p && lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t n = readlink(p, link, sizeof(link));
		if (n >= (ssize_t)sizeof(link) || hops == 40) {
			n = -1;
			errno = hops == 40 ? ELOOP : ENAMETOOLONG;
		}
		char *slash = strrchr(p, '/'), *q = NULL;
		/* a relative link names a file in the link's directory */
		size_t dir = n > 0 && link[0] != '/' && slash ? (size_t)(slash - p) + 1 : 0;
		if (n >= 0 && (q = malloc(dir + (size_t)n + 1))) {
			memcpy(q, p, dir);
			memcpy(q + dir, link, (size_t)n);
			q[dir + (size_t)n] = 0;
		}
		free(p);
		p = q;
	}
	return p;
}

int save_scenario_file(const char *path, const struct scenario *sc, bool overwrite,
		       const char *const *why, char *err, size_t errlen)
{
	assert(path && sc && err);
	char *real = NULL, *tmp = NULL;
	const char *target = path;
	FILE *f = NULL;
	int fd = -1, e = 0;
	struct stat st;
	if (!overwrite && access(path, F_OK) == 0) {
		e = EEXIST;
		goto error;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or socket (/dev/null, /dev/stdout): written
		 * in place, never replaced by a file */
		if (!(f = fopen(path, "w")) || !save_to(f, sc, why)) {
			e = errno;
			goto error;
		}
		if (fclose(f) != 0) {
			f = NULL;
			e = errno;
			goto error;
		}
		return 1;
	}
	/* a symbolic link: the file it points to is replaced, not the link */
	if (!(real = resolve(path))) {
		e = errno;
		goto error;
	}
	target = real;
	/* the temporary file sits beside the target, so rename is atomic */
	size_t len = strlen(target) + sizeof(".tmpXXXXXX");
	if (!(tmp = malloc(len))) {
		e = ENOMEM;
		goto error;
	}
	snprintf(tmp, len, "%s.tmpXXXXXX", target);
	if ((fd = mkstemp(tmp)) < 0) {
		e = errno;
		free(tmp);
		tmp = NULL;
		goto error;
	}
	/* mkstemp makes the file 0600; a scenario is an ordinary file */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		goto error;
	}
	fd = -1;
	if (!save_to(f, sc, why) || fsync(fileno(f)) != 0) {
		e = errno;
		goto error;
	}
	if (fclose(f) != 0) {
		f = NULL;
		e = errno;
		goto error;
	}
	f = NULL;
	if (rename(tmp, target) != 0) {
		e = errno;
		goto error;
	}
	free(tmp);
	free(real);
	return 1;
error:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	free(real);
	snprintf(err, errlen, "cannot write %s: %s", path,
		 e == EEXIST ? "the file exists" : strerror(e));
	errno = e;
	return 0;
}
