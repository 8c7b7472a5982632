/* save.c - writes a scenario back as YAML (shorthand form). Every string is
 * written double-quoted with YAML escapes, so no value can change type or
 * break the document; numbers are written as plain integers. */
#include "../model/version.h"
#include "save.h"
#include "../model/steps/step.h"
#include "../model/autoscale/autoscale.h"
#include "../util/yamlw.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct w {
	FILE *f;
	const struct cluster *c;
};

/* A YAML double-quoted scalar (util/yamlw.h, the writer gen uses too). */
static void q(struct w *w, const char *s)
{
	yw_quote(w->f, s);
}

static void qs(struct w *w, sym_t s)
{
	q(w, intern_get(w->c->in, s));
}

static void ind(struct w *w, int n)
{
	fprintf(w->f, "%*s", n, "");
}

static void labels_flow(struct w *w, const struct labels *l)
{
	fputc('{', w->f);
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", w->f);
		qs(w, l->v[i].key);
		fputs(": ", w->f);
		qs(w, l->v[i].val);
	}
	fputc('}', w->f);
}

static void syms_flow(struct w *w, const sym_t *v, uint32_t n)
{
	fputc('[', w->f);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", w->f);
		qs(w, v[i]);
	}
	fputc(']', w->f);
}

static void selector_src(struct w *w, const struct label_selector_src *s)
{
	if (!s->present) {
		fputs("null", w->f);
		return;
	}
	fputs("{matchLabels: ", w->f);
	labels_flow(w, &s->match_labels);
	fputs(", matchExpressions: [", w->f);
	for (uint32_t i = 0; i < s->nexprs; i++) {
		const struct sel_expr_src *x = &s->exprs[i];
		fputs(i ? ", {key: " : "{key: ", w->f);
		qs(w, x->key);
		if (x->op) {
			fputs(", operator: ", w->f);
			qs(w, x->op);
		}
		if (x->has_vals) {
			fputs(", values: ", w->f);
			syms_flow(w, x->vals, x->nvals);
		}
		fputc('}', w->f);
	}
	fputs("]}", w->f);
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

static void reqs_flow(struct w *w, const struct sel_req *r, uint32_t n, const sym_t *ops,
		      const sym_t *keys)
{
	fputc('[', w->f);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ", {key: " : "{key: ", w->f);
		if (keys && keys[i])
			qs(w, keys[i]);
		else
			qs(w, r[i].key);
		fputs(", operator: ", w->f);
		if (ops && ops[i])
			qs(w, ops[i]);
		else
			q(w, op_text(r[i].op));
		if (r[i].nvals) {
			fputs(", values: ", w->f);
			syms_flow(w, r[i].vals, r[i].nvals);
		}
		fputc('}', w->f);
	}
	fputc(']', w->f);
}

static void ns_term(struct w *w, const struct ns_term *t)
{
	fputs("{matchExpressions: ", w->f);
	reqs_flow(w, t->exprs, t->nexprs, t->expr_ops, NULL);
	fputs(", matchFields: ", w->f);
	reqs_flow(w, t->fields, t->nfields, t->field_ops, t->field_keys);
	fputc('}', w->f);
}

static void pod_term(struct w *w, const struct pod_affinity_term *t)
{
	fputs("{labelSelector: ", w->f);
	selector_src(w, &t->sel_src);
	fputs(", namespaces: ", w->f);
	syms_flow(w, t->namespaces, t->nnamespaces);
	if (t->ns_sel_src.present) {
		fputs(", namespaceSelector: ", w->f);
		selector_src(w, &t->ns_sel_src);
	}
	fputs(", topologyKey: ", w->f);
	qs(w, t->topology_key);
	if (t->nmlk) {
		fputs(", matchLabelKeys: ", w->f);
		syms_flow(w, t->mlk, t->nmlk);
	}
	if (t->nmmlk) {
		fputs(", mismatchLabelKeys: ", w->f);
		syms_flow(w, t->mmlk, t->nmmlk);
	}
	fputc('}', w->f);
}

static void pod_terms(struct w *w, int in, const char *key, const struct pod_affinity_term *req,
		      uint32_t nreq, const struct weighted_pod_affinity_term *pref, uint32_t npref)
{
	if (!nreq && !npref)
		return;
	ind(w, in);
	fprintf(w->f, "%s:\n", key);
	if (nreq) {
		ind(w, in + 2);
		fputs("requiredDuringSchedulingIgnoredDuringExecution:\n", w->f);
		for (uint32_t i = 0; i < nreq; i++) {
			ind(w, in + 4);
			fputs("- ", w->f);
			pod_term(w, &req[i]);
			fputc('\n', w->f);
		}
	}
	if (npref) {
		ind(w, in + 2);
		fputs("preferredDuringSchedulingIgnoredDuringExecution:\n", w->f);
		for (uint32_t i = 0; i < npref; i++) {
			ind(w, in + 4);
			fprintf(w->f, "- {weight: %" PRId32 ", podAffinityTerm: ", pref[i].weight);
			pod_term(w, &pref[i].term);
			fputs("}\n", w->f);
		}
	}
}

static void affinity(struct w *w, int in, const struct affinity *a)
{
	ind(w, in);
	fputs("affinity:\n", w->f);
	const struct node_affinity *na = &a->node;
	if (na->has_required || na->npref) {
		ind(w, in + 2);
		fputs("nodeAffinity:\n", w->f);
		if (na->has_required) {
			ind(w, in + 4);
			fputs("requiredDuringSchedulingIgnoredDuringExecution:\n", w->f);
			ind(w, in + 6);
			fputs("nodeSelectorTerms:\n", w->f);
			for (uint32_t i = 0; i < na->nreq; i++) {
				ind(w, in + 8);
				fputs("- ", w->f);
				ns_term(w, &na->req[i]);
				fputc('\n', w->f);
			}
			if (!na->nreq) {
				ind(w, in + 8);
				fputs("[]\n", w->f);
			}
		}
		if (na->npref) {
			ind(w, in + 4);
			fputs("preferredDuringSchedulingIgnoredDuringExecution:\n", w->f);
			for (uint32_t i = 0; i < na->npref; i++) {
				ind(w, in + 6);
				fprintf(w->f, "- {weight: %" PRId32 ", preference: ", na->pref[i].weight);
				ns_term(w, &na->pref[i].term);
				fputs("}\n", w->f);
			}
		}
	}
	pod_terms(w, in + 2, "podAffinity", a->aff_req, a->naff_req, a->aff_pref, a->naff_pref);
	pod_terms(w, in + 2, "podAntiAffinity", a->anti_req, a->nanti_req, a->anti_pref,
		  a->nanti_pref);
}

static void tsc_flow(struct w *w, const struct tsc *t, bool with_selector)
{
	fprintf(w->f, "{maxSkew: %" PRId32 ", topologyKey: ", t->max_skew);
	qs(w, t->topology_key);
	if (t->when) {
		fputs(", whenUnsatisfiable: ", w->f);
		qs(w, t->when);
	}
	if (t->has_min_domains)
		fprintf(w->f, ", minDomains: %" PRId32, t->min_domains);
	if (t->node_affinity_policy) {
		fputs(", nodeAffinityPolicy: ", w->f);
		qs(w, t->node_affinity_policy);
	}
	if (t->node_taints_policy) {
		fputs(", nodeTaintsPolicy: ", w->f);
		qs(w, t->node_taints_policy);
	}
	if (with_selector && t->selector.present) {
		fputs(", labelSelector: ", w->f);
		selector_src(w, &t->selector);
	}
	if (t->nmatch_label_keys) {
		fputs(", matchLabelKeys: ", w->f);
		syms_flow(w, t->match_label_keys, t->nmatch_label_keys);
	}
	fputc('}', w->f);
}

/* A number of bytes as people write it: the largest binary suffix that
 * divides it (16Gi), else the largest decimal one (500M), else bytes. */
static void bytes(struct w *w, int64_t v)
{
	static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
	static const char *const dec[] = {"k", "M", "G", "T", "P", "E"};
	int64_t m = v;
	int k = 0;
	while (v > 0 && k < 6 && m % 1024 == 0) {
		m /= 1024;
		k++;
	}
	if (k) {
		fprintf(w->f, "\"%" PRId64 "%s\"", m, bin[k - 1]);
		return;
	}
	while (v > 0 && k < 6 && m % 1000 == 0) {
		m /= 1000;
		k++;
	}
	fprintf(w->f, "\"%" PRId64 "%s\"", m, k ? dec[k - 1] : "");
}

static void resources(struct w *w, const struct resources *r, bool node)
{
	fputc('{', w->f);
	const char *sep = "";
	if (node || r->cpu) {
		/* millicores: whole cores without the m */
		if (r->cpu % 1000 == 0)
			fprintf(w->f, "cpu: \"%" PRId64 "\"", r->cpu / 1000);
		else
			fprintf(w->f, "cpu: \"%" PRId64 "m\"", r->cpu);
		sep = ", ";
	}
	if (node || r->mem) {
		fprintf(w->f, "%smemory: ", sep);
		bytes(w, r->mem);
		sep = ", ";
	}
	if (node) {
		fprintf(w->f, "%spods: \"%" PRId64 "\"", sep, r->pods);
		sep = ", ";
	}
	if (r->eph) {
		fprintf(w->f, "%sephemeral-storage: ", sep);
		bytes(w, r->eph);
		sep = ", ";
	}
	for (uint32_t i = 0; i < r->next; i++) {
		fputs(sep, w->f);
		qs(w, r->ext[i].name);
		fprintf(w->f, ": \"%" PRId64 "\"", r->ext[i].v);
		sep = ", ";
	}
	fputc('}', w->f);
}

static void taint_fields(struct w *w, const struct taint *t)
{
	fputs("key: ", w->f);
	qs(w, t->key);
	if (t->value && intern_len(w->c->in, t->value)) {
		fputs(", value: ", w->f);
		qs(w, t->value);
	}
	if (t->effect != EFFECT_NONE) {
		fputs(", effect: ", w->f);
		if (t->effect_text)
			qs(w, t->effect_text);
		else
			q(w, effect_name(t->effect));
	}
}

/* KEY: "RFC 3339 time" at indentation in, unless t is INT64_MAX (none) */
static void timestamp(struct w *w, int in, const char *key, int64_t t)
{
	char ts[64];
	time_t tt = (time_t)t;
	struct tm tm;
	if (t == INT64_MAX)
		return;
	if (gmtime_r(&tt, &tm) && strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		ind(w, in);
		fprintf(w->f, "%s: \"%s\"\n", key, ts);
	}
}

/* What the controllers read of a pod (load_life.c), in the shorthand. */
static void pod_life(struct w *w, int in, const struct pod *p)
{
	const struct pod_life *l = &p->life;
	static const char *const phases[] = {"", "Pending", "Running", "Unknown"};
	if (l->uid) {
		ind(w, in);
		fputs("uid: ", w->f);
		qs(w, l->uid);
		fputc('\n', w->f);
	}
	if (l->phase != PHASE_NONE && l->phase <= PHASE_UNKNOWN) {
		ind(w, in);
		fprintf(w->f, "phase: %s\n", phases[l->phase]);
	}
	if (l->ready >= 0) {
		ind(w, in);
		fprintf(w->f, "ready: %s\n", l->ready ? "true" : "false");
	}
	if (l->ready == 1)
		timestamp(w, in, "readySince", l->ready_since);
	if (l->restarts) {
		ind(w, in);
		fprintf(w->f, "restarts: %" PRId32 "\n", l->restarts);
	}
	if (l->sidecar_restarts) {
		ind(w, in);
		fprintf(w->f, "sidecarRestarts: %" PRId32 "\n", l->sidecar_restarts);
	}
	if (l->deletion_cost || (l->protect & (LIFE_MIRROR | LIFE_STATIC | LIFE_EVICT))) {
		bool first = true;
		ind(w, in);
		fputs("annotations: {", w->f);
		if (l->deletion_cost) {
			fprintf(w->f, "controller.kubernetes.io/pod-deletion-cost: \"%" PRId32 "\"", l->deletion_cost);
			first = false;
		}
		if (l->protect & LIFE_MIRROR) {
			fprintf(w->f, "%skubernetes.io/config.mirror: \"\"", first ? "" : ", ");
			first = false;
		}
		if (l->protect & LIFE_STATIC) {
			fprintf(w->f, "%skubernetes.io/config.source: file", first ? "" : ", ");
			first = false;
		}
		if (l->protect & LIFE_EVICT)
			fprintf(w->f, "%sdescheduler.alpha.kubernetes.io/evict: \"true\"", first ? "" : ", ");
		fputs("}\n", w->f);
	}
}

/* A pod entry at indentation `in` (the first line's "- " or key is the
 * caller's). */
static void pod_storage(struct w *w, int in, const struct pod_spec *s, bool local);

static void pod(struct w *w, int in, const struct pod *p, bool bound)
{
	fputs("name: ", w->f);
	qs(w, p->name);
	fputc('\n', w->f);
	if (p->ns) {
		ind(w, in);
		fputs("namespace: ", w->f);
		qs(w, p->ns);
		fputc('\n', w->f);
	}
	if (p->labels.n) {
		ind(w, in);
		fputs("labels: ", w->f);
		labels_flow(w, &p->labels);
		fputc('\n', w->f);
	}
	for (uint32_t i = 0; i < p->nowners; i++) {
		const struct owner_ref *o = &p->owners[i];
		ind(w, in);
		fputs(i ? "  - {kind: " : "ownerReferences:\n", w->f);
		if (!i) {
			ind(w, in);
			fputs("  - {kind: ", w->f);
		}
		qs(w, o->kind);
		fputs(", name: ", w->f);
		qs(w, o->name);
		if (o->api_version) {
			fputs(", apiVersion: ", w->f);
			qs(w, o->api_version);
		}
		if (o->controller >= 0)
			fprintf(w->f, ", controller: %s", o->controller ? "true" : "false");
		if (o->uid) {
			fputs(", uid: ", w->f);
			qs(w, o->uid);
		}
		fputs("}\n", w->f);
	}
	pod_life(w, in, p);
	if (p->terminating) {
		ind(w, in);
		fputs("terminating: true\n", w->f);
	}
	if (p->stored && !bound) {
		ind(w, in);
		fputs("admitted: true\n", w->f);
	}
	timestamp(w, in, "creationTimestamp", p->created);
	timestamp(w, in, "startTime", p->start_time);
	if (p->nominated) {
		ind(w, in);
		fputs("nominatedNodeName: ", w->f);
		qs(w, p->nominated);
		fputc('\n', w->f);
	}
	const struct pod_spec *s = &p->spec;
	/* a priority the loader resolved from the class is not written:
	 * the class gives it again */
	if (s->has_priority || (s->priority && !s->priority_class)) {
		ind(w, in);
		fprintf(w->f, "priority: %" PRId32 "\n", s->priority);
	}
	if (s->priority_class) {
		ind(w, in);
		fputs("priorityClassName: ", w->f);
		qs(w, s->priority_class);
		fputc('\n', w->f);
	}
	if (s->preemption_policy) {
		ind(w, in);
		fputs("preemptionPolicy: ", w->f);
		qs(w, s->preemption_policy);
		fputc('\n', w->f);
	}
	if (bound && p->node >= 0) {
		ind(w, in);
		fputs("nodeName: ", w->f);
		qs(w, w->c->nodes[p->node].name);
		fputc('\n', w->f);
	}
	if (s->node_selector.n) {
		ind(w, in);
		fputs("nodeSelector: ", w->f);
		labels_flow(w, &s->node_selector);
		fputc('\n', w->f);
	}
	if (s->has_affinity)
		affinity(w, in, &s->affinity);
	if (s->ntols) {
		ind(w, in);
		fputs("tolerations:\n", w->f);
		for (uint32_t i = 0; i < s->ntols; i++) {
			const struct toleration *t = &s->tols[i];
			ind(w, in + 2);
			fputs("- {key: ", w->f);
			qs(w, t->key);
			if (t->op_text) {
				fputs(", operator: ", w->f);
				qs(w, t->op_text);
			}
			fputs(", value: ", w->f);
			qs(w, t->value);
			if (t->effect_text) {
				fputs(", effect: ", w->f);
				qs(w, t->effect_text);
			}
			fputs("}\n", w->f);
		}
	}
	if (s->ntscs) {
		ind(w, in);
		fputs("topologySpreadConstraints:\n", w->f);
		for (uint32_t i = 0; i < s->ntscs; i++) {
			ind(w, in + 2);
			fputs("- ", w->f);
			tsc_flow(w, &s->tscs[i], true);
			fputc('\n', w->f);
		}
	}
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
	if (app.cpu || app.mem || app.eph || app.next) {
		ind(w, in);
		fputs("requests: ", w->f);
		resources(w, &app, false);
		fputc('\n', w->f);
	}
	if (sidecar) {
		ind(w, in);
		fputs("initContainers:\n", w->f);
		ind(w, in + 2);
		fputs("- {name: sidecar, restartPolicy: Always, resources: {requests: ", w->f);
		resources(w, &rest, false);
		fputs("}}\n", w->f);
	}
	pod_storage(w, in, s, p->life.protect & LIFE_LOCAL_STORAGE);
}

static const char *mode_names[] = {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"};

static void modes_flow(struct w *w, uint8_t m)
{
	bool first = true;
	fputc('[', w->f);
	for (int b = 0; b < 4; b++)
		if (m & (1u << b)) {
			fputs(first ? "" : ", ", w->f);
			q(w, mode_names[b]);
			first = false;
		}
	fputc(']', w->f);
}

/* The storage objects as shorthand flow mappings, with their kind when
 * asked (a create step). */
static void storage_class(struct w *w, const struct storage_class *x, bool kind)
{
	fputs(kind ? "{kind: StorageClass, name: " : "{name: ", w->f);
	qs(w, x->name);
	if (x->provisioner) {
		fputs(", provisioner: ", w->f);
		qs(w, x->provisioner);
	}
	fputs(x->wffc ? ", volumeBindingMode: WaitForFirstConsumer" : ", volumeBindingMode: Immediate", w->f);
	if (x->ntopo) {
		fputs(", allowedTopologies: [", w->f);
		for (uint32_t i = 0; i < x->ntopo; i++) {
			fputs(i ? ", {matchLabelExpressions: [" : "{matchLabelExpressions: [", w->f);
			for (uint32_t j = 0; j < x->topo[i].nexprs; j++) {
				fputs(j ? ", {key: " : "{key: ", w->f);
				qs(w, x->topo[i].exprs[j].key);
				fputs(", values: ", w->f);
				syms_flow(w, x->topo[i].exprs[j].vals, x->topo[i].exprs[j].nvals);
				fputc('}', w->f);
			}
			fputs("]}", w->f);
		}
		fputc(']', w->f);
	}
	fputc('}', w->f);
}

static void storage_pv(struct w *w, const struct pv *x, bool kind)
{
	static const char *phases[] = {"Available", "Bound", "Released", "Failed"};
	fputs(kind ? "{kind: PersistentVolume, name: " : "{name: ", w->f);
	qs(w, x->name);
	fputs(", storageClassName: ", w->f);
	qs(w, x->class);
	fprintf(w->f, ", capacity: \"%lld\", accessModes: ", (long long)x->capacity);
	modes_flow(w, x->modes);
	if (x->labels.n) {
		fputs(", labels: ", w->f);
		labels_flow(w, &x->labels);
	}
	fprintf(w->f, ", phase: %s", phases[x->phase & 3]);
	if (x->claim_name) {
		fputs(", claimRef: {namespace: ", w->f);
		qs(w, x->claim_ns);
		fputs(", name: ", w->f);
		qs(w, x->claim_name);
		fputc('}', w->f);
	}
	if (x->driver) {
		fputs(", csi: {driver: ", w->f);
		qs(w, x->driver);
		if (x->handle) {
			fputs(", volumeHandle: ", w->f);
			qs(w, x->handle);
		}
		fputc('}', w->f);
	}
	if (x->has_aff) {
		fputs(", nodeAffinity: {required: {nodeSelectorTerms: [", w->f);
		for (uint32_t i = 0; i < x->naff; i++) {
			fputs(i ? ", " : "", w->f);
			ns_term(w, &x->aff[i]);
		}
		fputs("]}}", w->f);
	}
	fputc('}', w->f);
}

static void storage_pvc(struct w *w, const struct pvc *x, bool kind)
{
	fputs(kind ? "{kind: PersistentVolumeClaim, name: " : "{name: ", w->f);
	qs(w, x->name);
	fputs(", namespace: ", w->f);
	qs(w, x->ns);
	if (x->class) {
		fputs(", storageClassName: ", w->f);
		qs(w, x->class);
	}
	fprintf(w->f, ", request: \"%lld\", accessModes: ", (long long)x->request);
	modes_flow(w, x->modes);
	if (x->volume_name) {
		fputs(", volumeName: ", w->f);
		qs(w, x->volume_name);
		if (!x->bind_completed)
			fputs(", bindCompleted: false", w->f);
	}
	if (x->selected_node) {
		fputs(", selectedNode: ", w->f);
		qs(w, x->selected_node);
	}
	fputc('}', w->f);
}

static void storage_csinode(struct w *w, const struct csi_node *x, bool kind)
{
	fputs(kind ? "{kind: CSINode, name: " : "{name: ", w->f);
	qs(w, x->name);
	fputs(", drivers: [", w->f);
	for (uint32_t i = 0; i < x->ndrivers; i++) {
		fputs(i ? ", {name: " : "{name: ", w->f);
		qs(w, x->drivers[i].name);
		if (x->drivers[i].has_count)
			fprintf(w->f, ", count: %lld", (long long)x->drivers[i].count);
		fputc('}', w->f);
	}
	fputs("]}", w->f);
}

static void storage_driver(struct w *w, const struct csi_driver *x, bool kind)
{
	fputs(kind ? "{kind: CSIDriver, name: " : "{name: ", w->f);
	qs(w, x->name);
	fprintf(w->f, ", attachRequired: %s, storageCapacity: %s}", x->attach_required ? "true" : "false",
		x->storage_capacity ? "true" : "false");
}

/* The cluster's storage objects (those the input gave: not the ones a
 * scheduling step provisioned) as the scenario's lists. */
static void storage_lists(struct w *w, const struct storage *st)
{
	if (st->nclasses)
		fputs("storageClasses:\n", w->f);
	for (uint32_t i = 0; i < st->nclasses; i++) {
		fputs("  - ", w->f);
		storage_class(w, &st->classes[i], false);
		fputc('\n', w->f);
	}
	bool any = false;
	for (uint32_t i = 0; i < st->npvs; i++) {
		if (!st->pvs[i].alive || st->pvs[i].provisioned)
			continue;
		fputs(any ? "  - " : "persistentVolumes:\n  - ", w->f);
		any = true;
		storage_pv(w, &st->pvs[i], false);
		fputc('\n', w->f);
	}
	any = false;
	for (uint32_t i = 0; i < st->npvcs; i++) {
		if (!st->pvcs[i].alive || st->pvcs[i].ephemeral)
			continue;
		fputs(any ? "  - " : "persistentVolumeClaims:\n  - ", w->f);
		any = true;
		storage_pvc(w, &st->pvcs[i], false);
		fputc('\n', w->f);
	}
	if (st->ncsinodes)
		fputs("csiNodes:\n", w->f);
	for (uint32_t i = 0; i < st->ncsinodes; i++) {
		fputs("  - ", w->f);
		storage_csinode(w, &st->csinodes[i], false);
		fputc('\n', w->f);
	}
	if (st->ndrivers)
		fputs("csiDrivers:\n", w->f);
	for (uint32_t i = 0; i < st->ndrivers; i++) {
		fputs("  - ", w->f);
		storage_driver(w, &st->drivers[i], false);
		fputc('\n', w->f);
	}
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
			used = !strcmp(intern_get(w->c->in, s->vols[i].name), buf);
		if (!used)
			return;
	}
}

/* A pod's volumes (its claims, and an emptyDir when local is set: the
 * only other source anything reads), host ports and scheduling gates
 * (shorthand). */
static void pod_storage(struct w *w, int in, const struct pod_spec *s, bool local)
{
	if (s->nvols || local) {
		ind(w, in);
		fputs("volumes:\n", w->f);
	}
	if (local) {
		char name[32];
		local_volume_name(w, s, name, sizeof(name));
		ind(w, in + 2);
		fprintf(w->f, "- {name: %s, emptyDir: {}}\n", name);
	}
	for (uint32_t i = 0; i < s->nvols; i++) {
		const struct pod_volume *v = &s->vols[i];
		ind(w, in + 2);
		fputs("- {name: ", w->f);
		qs(w, v->name);
		if (v->kind == VOL_PVC) {
			fputs(", persistentVolumeClaim: {claimName: ", w->f);
			qs(w, v->claim);
			fputc('}', w->f);
		} else if (v->kind == VOL_EPHEMERAL) {
			fputs(", ephemeral: {volumeClaimTemplate: {spec: {accessModes: ", w->f);
			modes_flow(w, v->eph_modes);
			if (v->eph_class) {
				fputs(", storageClassName: ", w->f);
				qs(w, v->eph_class);
			}
			fprintf(w->f, ", resources: {requests: {storage: \"%lld\"}}}}}", (long long)v->eph_request);
		}
		fputs("}\n", w->f);
	}
	if (s->nports) {
		ind(w, in);
		fputs("ports:\n", w->f);
	}
	for (uint32_t i = 0; i < s->nports; i++) {
		const struct host_port *hp = &s->ports[i];
		ind(w, in + 2);
		fprintf(w->f, "- {containerPort: %d, hostPort: %d", hp->container_port, hp->host_port);
		if (hp->protocol) {
			fputs(", protocol: ", w->f);
			qs(w, hp->protocol);
		}
		if (hp->host_ip) {
			fputs(", hostIP: ", w->f);
			qs(w, hp->host_ip);
		}
		fputs("}\n", w->f);
	}
	if (s->ngates) {
		ind(w, in);
		fputs("schedulingGates:\n", w->f);
	}
	for (uint32_t i = 0; i < s->ngates; i++) {
		ind(w, in + 2);
		fputs("- {name: ", w->f);
		qs(w, s->gates[i]);
		fputs("}\n", w->f);
	}
}

static void node(struct w *w, int in, const struct node *n)
{
	fputs("name: ", w->f);
	qs(w, n->name);
	fputc('\n', w->f);
	ind(w, in);
	fputs("labels: ", w->f);
	labels_flow(w, &n->labels);
	fputc('\n', w->f);
	if (n->ntaints) {
		ind(w, in);
		fputs("taints:\n", w->f);
		for (uint32_t i = 0; i < n->ntaints; i++) {
			ind(w, in + 2);
			fputs("- {", w->f);
			taint_fields(w, &n->taints[i]);
			fputs("}\n", w->f);
		}
	}
	if (n->unschedulable) {
		ind(w, in);
		fputs("unschedulable: true\n", w->f);
	}
	if (n->cap_cpu || n->cap_mem) {
		/* the capacity CA's least-waste and similarity read: beside
		 * the allocatable under status, as a Node object has them */
		struct resources cap = {0};
		cap.cpu = n->cap_cpu;
		cap.mem = n->cap_mem;
		ind(w, in);
		fputs("status:\n", w->f);
		ind(w, in + 2);
		fputs("capacity: ", w->f);
		resources(w, &cap, false);
		fputc('\n', w->f);
		ind(w, in + 2);
	} else {
		ind(w, in);
	}
	fputs("allocatable: ", w->f);
	resources(w, &n->alloc, true);
	fputc('\n', w->f);
}

/* ---- the step writer: a kind's save (model/steps/) over the FILE ---- */

struct sw {
	struct step_writer w;   /* first: the kind's pointer is this struct's */
	struct w *out;
	bool first;             /* nothing written after "NAME:" yet */
	bool keyed;             /* the open mapping has a key */
	bool block;             /* a block value, which ends its own lines */
};

static struct sw *SW(struct step_writer *w)
{
	return (struct sw *)w;
}

/* a value after "NAME:" needs its space; one in a mapping follows "KEY: " */
static void sw_lead(struct sw *x)
{
	if (x->first) {
		fputc(' ', x->out->f);
		x->first = false;
	}
}

static void sw_str(struct step_writer *w, sym_t s)
{
	sw_lead(SW(w));
	qs(SW(w)->out, s);
}

static void sw_text(struct step_writer *w, const char *s)
{
	sw_lead(SW(w));
	q(SW(w)->out, s);
}

static void sw_raw(struct step_writer *w, const char *tok)
{
	sw_lead(SW(w));
	fputs(tok, SW(w)->out->f);
}

static void sw_begin(struct step_writer *w)
{
	sw_lead(SW(w));
	fputc('{', SW(w)->out->f);
	SW(w)->keyed = false;
}

static void sw_key(struct step_writer *w, const char *key)
{
	struct sw *x = SW(w);
	fprintf(x->out->f, "%s%s: ", x->keyed ? ", " : "", key);
	x->keyed = true;
}

static void sw_end(struct step_writer *w)
{
	fputc('}', SW(w)->out->f);
}

static void sw_taint(struct step_writer *w, const struct taint *t)
{
	struct sw *x = SW(w);
	fputs(x->keyed ? ", " : "", x->out->f);
	taint_fields(x->out, t);
	x->keyed = true;
}

static bool as_settings_fields(struct w *w, const struct as_settings *s, const char *sep);

static void sw_settings(struct step_writer *w, const struct as_settings *st)
{
	struct sw *x = SW(w);
	if (as_settings_fields(x->out, st, x->keyed ? ", " : ""))
		x->keyed = true;
}

static void sw_pod(struct step_writer *w, const struct pod *p)
{
	fputs("\n      ", SW(w)->out->f);
	pod(SW(w)->out, 6, p, false);
	SW(w)->first = false;
	SW(w)->block = true;
}

static void sw_node(struct step_writer *w, const struct node *n)
{
	fputs("\n      ", SW(w)->out->f);
	node(SW(w)->out, 6, n);
	SW(w)->first = false;
	SW(w)->block = true;
}

static void sw_storage(struct step_writer *w, const struct storage *st)
{
	struct sw *x = SW(w);
	sw_lead(x);
	if (st->nclasses)
		storage_class(x->out, &st->classes[0], true);
	else if (st->npvs)
		storage_pv(x->out, &st->pvs[0], true);
	else if (st->npvcs)
		storage_pvc(x->out, &st->pvcs[0], true);
	else if (st->ncsinodes)
		storage_csinode(x->out, &st->csinodes[0], true);
	else if (st->ndrivers)
		storage_driver(x->out, &st->drivers[0], true);
	else
		fputs("null", x->out->f);
}

static void sw_block(struct step_writer *w, const char *const *keys, const char *const *vals,
		     const bool *raw, uint32_t n, const char *tkey, const struct pod *t)
{
	struct w *o = SW(w)->out;
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o->f, "\n      %s: ", keys[i]);
		if (raw[i])
			fputs(vals[i], o->f);
		else
			q(o, vals[i]);
	}
	if (t) {
		fprintf(o->f, "\n      %s:\n        ", tkey);
		pod(o, 8, t, false);
	} else {
		fputc('\n', o->f);
	}
	SW(w)->first = false;
	SW(w)->block = true;
}

static void step(struct w *w, const struct step *s)
{
	struct sw x = {
		{w, w->c->in, sw_str, sw_text, sw_raw, sw_begin, sw_key, sw_end, sw_taint, sw_pod,
		 sw_node, sw_storage, sw_block, sw_settings},
		w, true, false, false,
	};
	fprintf(w->f, "  - %s:", step_kind_name(s->kind));
	step_ops_of(s->kind)->save(s, &x.w);
	if (!x.block)
		fputc('\n', w->f);
	if (s->choose && step_runs_cycle(s)) {
		fputs("    choose: ", w->f);
		qs(w, s->choose);
		fputc('\n', w->f);
	}
	if (s->note) {
		fputs("    note: ", w->f);
		q(w, s->note);
		fputc('\n', w->f);
	}
}

/* The next key of a workload: ", KEY: " in a flow mapping, or a line of
 * its own in a block one (a workload with a template). */
static void wkey(struct w *w, bool block, const char *key)
{
	if (block)
		fprintf(w->f, "\n    %s: ", key);
	else
		fprintf(w->f, ", %s: ", key);
}

/* An expect map as a flow mapping (strings or numbers), null when is_null. */
static void expect_map(struct w *w, const struct expect_map *m, bool ints)
{
	if (m->is_null) {
		fputs("null", w->f);
		return;
	}
	fputc('{', w->f);
	for (uint32_t i = 0; i < m->n; i++) {
		fputs(i ? ", " : "", w->f);
		qs(w, m->kv[i].key);
		fputs(": ", w->f);
		if (ints)
			fprintf(w->f, "%" PRId64, m->kv[i].ival);
		else
			qs(w, m->kv[i].sval);
	}
	fputc('}', w->f);
}

/* The step's expect block as the loader reads it (load_steps.c
 * load_expect), every key it had. */
static void expect(struct w *w, const struct expect *e)
{
	fputs("    expect:\n", w->f);
	if (e->has_node) {
		fputs("      node: ", w->f);
		qs(w, e->node);
		fputc('\n', w->f);
	}
	if (e->has_nodes) {
		fputs("      nodes: ", w->f);
		syms_flow(w, e->nodes, e->nnodes);
		fputc('\n', w->f);
	}
	if (e->has_feasible) {
		fputs("      feasible: ", w->f);
		syms_flow(w, e->feasible, e->nfeasible);
		fputc('\n', w->f);
	}
	if (e->has_filtered) {
		fputs("      filtered: ", w->f);
		expect_map(w, &e->filtered, false);
		fputc('\n', w->f);
	}
	if (e->has_message) {
		fputs("      message: ", w->f);
		if (e->message_null)
			fputs("null", w->f);
		else
			qs(w, e->message);
		fputc('\n', w->f);
	}
	if (e->has_invalid) {
		fputs("      invalid: ", w->f);
		qs(w, e->invalid);
		fputc('\n', w->f);
	}
	if (e->has_domains) {
		fputs("      domains: [", w->f);
		for (uint32_t i = 0; i < e->ndomains; i++) {
			fputs(i ? ", " : "", w->f);
			expect_map(w, &e->domains[i], true);
		}
		fputs("]\n", w->f);
	}
	if (e->has_global_min) {
		fputs("      globalMin: [", w->f);
		for (uint32_t i = 0; i < e->nglobal_min; i++) {
			fputs(i ? ", " : "", w->f);
			if (e->global_min[i].is_null)
				fputs("null", w->f);
			else
				fprintf(w->f, "%" PRId64, e->global_min[i].v);
		}
		fputs("]\n", w->f);
	}
	if (e->has_scores) {
		fputs("      scores: {", w->f);
		for (uint32_t i = 0; i < e->nscores; i++) {
			fputs(i ? ", " : "", w->f);
			qs(w, e->scores[i].plugin);
			fputs(": ", w->f);
			expect_map(w, &e->scores[i].nodes, true);
		}
		fputs("}\n", w->f);
	}
	if (e->has_blockers) {
		fputs("      blockers: {", w->f);
		for (uint32_t i = 0; i < e->nblockers; i++) {
			fputs(i ? ", " : "", w->f);
			qs(w, e->blockers[i].key);
			fputs(": ", w->f);
			syms_flow(w, e->blockers[i].vals, e->blockers[i].n);
		}
		fputs("}\n", w->f);
	}
	if (e->has_event) {
		fputs("      event: ", w->f);
		qs(w, e->event);
		fputc('\n', w->f);
	}
	if (e->has_nominated) {
		fputs("      nominated: ", w->f);
		if (e->nominated_null)
			fputs("null", w->f);
		else
			qs(w, e->nominated);
		fputc('\n', w->f);
	}
	if (e->has_victims) {
		fputs("      victims: ", w->f);
		syms_flow(w, e->victims, e->nvictims);
		fputc('\n', w->f);
	}
	if (e->has_deleted) {
		fputs("      deleted: ", w->f);
		syms_flow(w, e->deleted, e->ndeleted);
		fputc('\n', w->f);
	}
	if (e->has_deleted_count)
		fprintf(w->f, "      deletedCount: %" PRId64 "\n", e->deleted_count);
	if (e->has_created)
		fprintf(w->f, "      created: %" PRId64 "\n", e->created);
}

static void workload(struct w *w, const struct workload *wl)
{
	static const char *const kinds[] = {
		[WL_SERVICE] = "Service", [WL_REPLICASET] = "ReplicaSet",
		[WL_STATEFULSET] = "StatefulSet", [WL_RC] = "ReplicationController",
		[WL_DEPLOYMENT] = "Deployment",
	};
	bool b = wl->tpl != NULL;
	fprintf(w->f, b ? "  - kind: %s" : "  - {kind: %s", kinds[wl->kind]);
	wkey(w, b, "name");
	qs(w, wl->name);
	wkey(w, b, "namespace");
	qs(w, wl->ns);
	if (wl->kind == WL_SERVICE || wl->kind == WL_RC) {
		if (wl->has_selector) {
			wkey(w, b, "selector");
			labels_flow(w, &wl->set);
		}
	} else if (wl->sel_src.present) {
		wkey(w, b, "selector");
		selector_src(w, &wl->sel_src);
	}
	/* what the controllers read (load_life.c) */
	if (wl->uid) {
		wkey(w, b, "uid");
		qs(w, wl->uid);
	}
	if (wl->owner_name && wl->owner_kind) {
		wkey(w, b, "ownerReferences");
		fputs("[{kind: ", w->f);
		qs(w, wl->owner_kind);
		fputs(", name: ", w->f);
		qs(w, wl->owner_name);
		if (wl->owner_uid) {
			fputs(", uid: ", w->f);
			qs(w, wl->owner_uid);
		}
		fputs("}]", w->f);
	}
	if (wl->has_replicas) {
		wkey(w, b, "replicas");
		fprintf(w->f, "%" PRId32, wl->replicas);
	}
	if (wl->created != INT64_MAX) {
		char ts[64];
		time_t tt = (time_t)wl->created;
		struct tm tm;
		if (gmtime_r(&tt, &tm) && strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm)) {
			wkey(w, b, "creationTimestamp");
			fprintf(w->f, "\"%s\"", ts);
		}
	}
	if (wl->max_replicas >= 0) {
		wkey(w, b, "annotations");
		fprintf(w->f, "{deployment.kubernetes.io/max-replicas: \"%" PRId64 "\"}", wl->max_replicas);
	}
	if (wl->kind == WL_DEPLOYMENT && (wl->recreate || wl->max_surge.set || wl->max_unavailable.set)) {
		wkey(w, b, "strategy");
		fprintf(w->f, "{type: %s", wl->recreate ? "Recreate" : "RollingUpdate");
		if (wl->max_surge.set)
			fprintf(w->f, wl->max_surge.pct ? ", maxSurge: \"%" PRId32 "%%\"" : ", maxSurge: %" PRId32,
				wl->max_surge.v);
		if (wl->max_unavailable.set)
			fprintf(w->f, wl->max_unavailable.pct ? ", maxUnavailable: \"%" PRId32 "%%\"" :
				", maxUnavailable: %" PRId32, wl->max_unavailable.v);
		fputc('}', w->f);
	}
	if (wl->parallel) {
		wkey(w, b, "podManagementPolicy");
		fputs("Parallel", w->f);
	}
	if (wl->ordinal_start) {
		wkey(w, b, "ordinals");
		fprintf(w->f, "{start: %" PRId32 "}", wl->ordinal_start);
	}
	if (b) {
		fputs("\n    template:\n      ", w->f);
		pod(w, 6, wl->tpl, false);
		return;
	}
	fputs("}\n", w->f);
}

static void scheduler(struct w *w, const struct sched_config *cfg)
{
	fprintf(w->f, "scheduler:\n  defaultingType: %s\n",
		cfg->defaulting == DEFAULTING_LIST ? "List" : "System");
	if (cfg->defaulting == DEFAULTING_LIST) {
		fputs("  defaultConstraints:", w->f);
		fputs(cfg->ndefault_tscs ? "\n" : " []\n", w->f);
		for (uint32_t i = 0; i < cfg->ndefault_tscs; i++) {
			fputs("    - ", w->f);
			tsc_flow(w, &cfg->default_tscs[i], false);
			fputc('\n', w->f);
		}
	}
	if (cfg->version_named) {
		char v[32];
		version_format(&cfg->version, v, sizeof(v));
		fprintf(w->f, "  version: \"%s\"\n", v);
	}
	/* the gates the scenario set (the others are the version's) */
	int nset = 0;
	for (int g = 0; g < GATE__COUNT; g++)
		nset += cfg->gate_set[g];
	fputs(nset ? "  featureGates:\n" : "  featureGates: {}\n", w->f);
	for (int g = 0; g < GATE__COUNT; g++)
		if (cfg->gate_set[g])
			fprintf(w->f, "    %s: %s\n", gate_name((enum feature_gate)g),
				cfg->gates[g] ? "true" : "false");
	fputs("  scoreWeights:\n", w->f);
	/* the Score plugins in id order (the profile's) */
	for (int p = 0; p < PL__COUNT; p++)
		if (plugin_scores((enum plugin_id)p))
			fprintf(w->f, "    %s: %" PRId32 "\n", plugin_name((enum plugin_id)p), cfg->weights[p]);
	fprintf(w->f, "  tieBreak: %s\n  seed: %" PRIu64 "\n", cfg->tie_random ? "random" : "first",
		cfg->seed);
	if (!cfg->preemption)
		fputs("  preemption: false\n", w->f);
}

static void priority_class(struct w *w, const struct priority_class *pc)
{
	fputs("  - {name: ", w->f);
	qs(w, pc->name);
	fprintf(w->f, ", value: %" PRId32, pc->value);
	if (pc->global_default)
		fputs(", globalDefault: true", w->f);
	if (pc->preemption_policy) {
		fputs(", preemptionPolicy: ", w->f);
		qs(w, pc->preemption_policy);
	}
	fputs("}\n", w->f);
}

static void int_or_pct(struct w *w, const char *key, const struct int_or_pct *v)
{
	if (!v->set)
		return;
	if (v->pct)
		fprintf(w->f, ", %s: \"%" PRId32 "%%\"", key, v->v);
	else
		fprintf(w->f, ", %s: %" PRId32, key, v->v);
}

static void pdb(struct w *w, const struct pdb *d)
{
	fputs("  - {name: ", w->f);
	qs(w, d->name);
	fputs(", namespace: ", w->f);
	qs(w, d->ns);
	if (d->has_selector) {
		fputs(", selector: ", w->f);
		selector_src(w, &d->sel_src);
	}
	int_or_pct(w, "minAvailable", &d->min_available);
	int_or_pct(w, "maxUnavailable", &d->max_unavailable);
	if (d->has_allowed)
		fprintf(w->f, ", disruptionsAllowed: %" PRId32, d->allowed);
	fputs("}\n", w->f);
}

/* ---- the autoscaler inputs (spec/autoscalers.md 1) ---- */

static void price(struct w *w, double p)
{
	fprintf(w->f, "%.6g", p);
}

/* The settings that are set, as "KEY: VALUE" pairs of a flow mapping,
 * the first after sep; whether any was written. */
static bool as_settings_fields(struct w *w, const struct as_settings *s, const char *sep)
{
	const char *first = sep;
	if (s->nexpander) {
		fprintf(w->f, "%sexpander: [", sep);
		for (uint32_t i = 0; i < s->nexpander; i++)
			fprintf(w->f, "%s%s", i ? ", " : "", as_expander_name(s->expander[i]));
		fputc(']', w->f);
		sep = ", ";
	}
	if (s->has_prios) {
		fprintf(w->f, "%spriorities: {", sep);
		for (uint32_t i = 0; i < s->nprios; i++) {
			fprintf(w->f, "%s%" PRId64 ": [", i ? ", " : "", s->prios[i].prio);
			for (uint32_t j = 0; j < s->prios[i].n; j++) {
				if (j)
					fputs(", ", w->f);
				q(w, s->prios[i].regex[j]);
			}
			fputc(']', w->f);
		}
		fputc('}', w->f);
		sep = ", ";
	}
	if (s->has_pod_price) {
		fprintf(w->f, "%spodPrice: {cpu: ", sep);
		price(w, s->pod_price_cpu);
		fputs(", memory: ", w->f);
		price(w, s->pod_price_mem);
		fputc('}', w->f);
		sep = ", ";
	}
	if (s->balance >= 0) {
		fprintf(w->f, "%sbalanceSimilarNodeGroups: %s", sep, s->balance ? "true" : "false");
		sep = ", ";
	}
	if (s->nbalance_ignore) {
		fprintf(w->f, "%sbalancingIgnoreLabels: ", sep);
		syms_flow(w, s->balance_ignore, s->nbalance_ignore);
		sep = ", ";
	}
	if (s->max_nodes_total >= 0) {
		fprintf(w->f, "%smaxNodesTotal: %" PRId64, sep, s->max_nodes_total);
		sep = ", ";
	}
	if (s->max_per_scaleup >= 0) {
		fprintf(w->f, "%smaxNodesPerScaleUp: %" PRId64, sep, s->max_per_scaleup);
		sep = ", ";
	}
	if (s->force_ds >= 0) {
		fprintf(w->f, "%sforceDaemonSets: %s", sep, s->force_ds ? "true" : "false");
		sep = ", ";
	}
	if (s->sched_cfg) {
		fprintf(w->f, "%sschedulerConfig: %s", sep, s->sched_cfg == AS_SCHED_DEFAULT ? "default" : "scenario");
		sep = ", ";
	}
	if (s->pref_ignore >= 0) {
		fprintf(w->f, "%spreferencePolicy: %s", sep, s->pref_ignore ? "Ignore" : "Respect");
		sep = ", ";
	}
	return sep != first;
}

static void as_settings(struct w *w, const struct as_settings *s)
{
	fputc('{', w->f);
	as_settings_fields(w, s, "");
	fputc('}', w->f);
}

static void autoscale(struct w *w, const struct as_config *c)
{
	if (!c)
		return;
	fputs("autoscaler:\n", w->f);
	if (c->set.def != AS_DEFAULT)
		fprintf(w->f, "  default: %s\n", c->set.def == AS_CA ? "clusterAutoscaler" : "karpenter");
	/* the settings are one set; written under clusterAutoscaler */
	fputs("  clusterAutoscaler: ", w->f);
	as_settings(w, &c->set);
	fputc('\n', w->f);
	if (c->ngroups)
		fputs("nodeGroups:\n", w->f);
	for (uint32_t i = 0; i < c->ngroups; i++) {
		const struct as_group *g = &c->groups[i];
		fputs("  - name: ", w->f);
		qs(w, g->name);
		fprintf(w->f, "\n    max: %" PRId64 "\n", g->max);
		if (g->min)
			fprintf(w->f, "    min: %" PRId64 "\n", g->min);
		if (g->has_size)
			fprintf(w->f, "    size: %" PRId64 "\n", g->size);
		if (g->nnodes) {
			fputs("    nodes: ", w->f);
			syms_flow(w, g->nodes, g->nnodes);
			fputc('\n', w->f);
		}
		if (g->has_selector) {
			fputs("    selector: ", w->f);
			labels_flow(w, &g->selector);
			fputc('\n', w->f);
		}
		if (g->has_template) {
			fputs("    template:\n      labels: ", w->f);
			labels_flow(w, &g->tmpl.labels);
			fputc('\n', w->f);
			if (g->tmpl.ntaints) {
				fputs("      taints:\n", w->f);
				for (uint32_t t = 0; t < g->tmpl.ntaints; t++) {
					fputs("        - {", w->f);
					taint_fields(w, &g->tmpl.taints[t]);
					fputs("}\n", w->f);
				}
			}
			fputs("      allocatable: ", w->f);
			resources(w, &g->tmpl.alloc, true);
			fputc('\n', w->f);
		}
		if (g->nzones) {
			fputs("    zones: ", w->f);
			syms_flow(w, g->zones, g->nzones);
			fputc('\n', w->f);
		}
		if (g->has_price) {
			fputs("    price: ", w->f);
			price(w, g->price);
			fputc('\n', w->f);
		}
	}
	if (c->nitypes)
		fputs("instanceTypes:\n", w->f);
	for (uint32_t i = 0; i < c->nitypes; i++) {
		const struct as_itype *t = &c->itypes[i];
		fputs("  - name: ", w->f);
		qs(w, t->name);
		fputs("\n    allocatable: ", w->f);
		resources(w, &t->alloc, true);
		fputs("\n    labels: ", w->f);
		labels_flow(w, &t->labels);
		fputs("\n    offerings:\n", w->f);
		for (uint32_t o = 0; o < t->noffers; o++) {
			fputs("      - {zone: ", w->f);
			qs(w, t->offers[o].zone);
			fputs(", capacityType: ", w->f);
			qs(w, t->offers[o].capacity_type);
			fputs(", price: ", w->f);
			price(w, t->offers[o].price);
			fprintf(w->f, ", available: %s}\n", t->offers[o].available ? "true" : "false");
		}
	}
	static const char *const ops[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
	if (c->npools)
		fputs("nodePools:\n", w->f);
	for (uint32_t i = 0; i < c->npools; i++) {
		const struct as_pool *p = &c->pools[i];
		fputs("  - name: ", w->f);
		qs(w, p->name);
		fprintf(w->f, "\n    weight: %" PRId64 "\n", p->weight);
		if (p->labels.n) {
			fputs("    labels: ", w->f);
			labels_flow(w, &p->labels);
			fputc('\n', w->f);
		}
		if (p->ntaints) {
			fputs("    taints:\n", w->f);
			for (uint32_t t = 0; t < p->ntaints; t++) {
				fputs("      - {", w->f);
				taint_fields(w, &p->taints[t]);
				fputs("}\n", w->f);
			}
		}
		if (p->nreqs) {
			fputs("    requirements:\n", w->f);
			for (uint32_t r = 0; r < p->nreqs; r++) {
				fputs("      - {key: ", w->f);
				qs(w, p->reqs[r].key);
				fprintf(w->f, ", operator: %s", ops[p->reqs[r].op]);
				if (p->reqs[r].nvals) {
					fputs(", values: ", w->f);
					syms_flow(w, p->reqs[r].vals, p->reqs[r].nvals);
				}
				fputs("}\n", w->f);
			}
		}
		if (p->nlimits) {
			/* spec.limits as read: cpu in millicores, the rest in units */
			fputs("    limits: {", w->f);
			for (uint32_t l = 0; l < p->nlimits; l++) {
				bool cpu = !strcmp(intern_get(w->c->in, p->limits[l].res), "cpu");
				fputs(l ? ", " : "", w->f);
				qs(w, p->limits[l].res);
				fprintf(w->f, ": \"%" PRId64 "%s\"", p->limits[l].v, cpu ? "m" : "");
			}
			fputs("}\n", w->f);
		}
		if (p->has_itypes) {
			fputs("    instanceTypes: ", w->f);
			syms_flow(w, p->itypes, p->nitypes);
			fputc('\n', w->f);
		}
	}
}

/* A scaleUp's expect tree as a flow value. */
static void as_val_flow(struct w *w, const struct as_val *v)
{
	switch (v->type) {
	case AV_NULL:
		fputs("null", w->f);
		break;
	case AV_STR:
		q(w, v->s);
		break;
	case AV_SEQ:
	case AV_MAP:
		fputc(v->type == AV_SEQ ? '[' : '{', w->f);
		for (uint32_t i = 0; i < v->n; i++) {
			if (i)
				fputs(", ", w->f);
			if (v->type == AV_MAP) {
				q(w, v->keys[i]);
				fputs(": ", w->f);
			}
			as_val_flow(w, &v->kids[i]);
		}
		fputc(v->type == AV_SEQ ? ']' : '}', w->f);
		break;
	}
}

int save_scenario(FILE *f, const struct scenario *sc)
{
	return save_scenario_why(f, sc, NULL);
}

/* Text on one comment line: controls and newlines become spaces. */
static void comment_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	fputc('\n', f);
}

int save_scenario_why(FILE *f, const struct scenario *sc, const char *const *why)
{
	assert(f && sc && sc->cluster);
	struct w w = {f, sc->cluster};
	const struct cluster *c = sc->cluster;
	fputs("# Written by skewer. Replicas are written one step each, without their\n"
	      "# expect: block; the steps after an edit lose theirs (it changes the\n"
	      "# outcomes).\n", f);
	if (sc->name) {
		fputs("name: ", f);
		q(&w, sc->name);
		fputc('\n', f);
	}
	if (sc->description) {
		fputs("description: ", f);
		q(&w, sc->description);
		fputc('\n', f);
	}
	if (sc->source) {
		fputs("source: ", f);
		q(&w, sc->source);
		fputc('\n', f);
	}
	/* the controllers' clock, when a workload can use it */
	for (uint32_t i = 0; i < c->nworkloads; i++) {
		if (!c->workloads[i].tpl && !c->workloads[i].has_replicas)
			continue;
		char ts[64];
		time_t tt = (time_t)c->now;
		struct tm tm;
		if (gmtime_r(&tt, &tm) && strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm))
			fprintf(f, "now: \"%s\"\n", ts);
		break;
	}
	scheduler(&w, &c->cfg);
	autoscale(&w, sc->autoscale);
	fputs("nodes:", f);
	fputs(c->nalive_nodes ? "\n" : " []\n", f);
	for (uint32_t i = 0; i < c->nnodes; i++) {
		if (!c->nodes[i].alive)
			continue;
		fputs("  - ", f);
		node(&w, 4, &c->nodes[i]);
	}
	bool any = false;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (!p->alive || p->node < 0)
			continue;
		fputs(any ? "  - " : "pods:\n  - ", f);
		any = true;
		pod(&w, 4, p, true);
	}
	if (c->nworkloads) {
		fputs("workloads:\n", f);
		for (uint32_t i = 0; i < c->nworkloads; i++)
			workload(&w, &c->workloads[i]);
	}
	if (c->npclasses) {
		fputs("priorityClasses:\n", f);
		for (uint32_t i = 0; i < c->npclasses; i++)
			priority_class(&w, &c->pclasses[i]);
	}
	if (c->npdbs) {
		fputs("disruptionBudgets:\n", f);
		for (uint32_t i = 0; i < c->npdbs; i++)
			pdb(&w, &c->pdbs[i]);
	}
	storage_lists(&w, &c->st);
	fputs("steps:", f);
	fputs(sc->nsteps ? "\n" : " []\n", f);
	/* a step made or changed in the view has line 0; after one, the
	 * author's expectations may no longer hold */
	const struct step *edit = NULL;
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		const struct step *s = &sc->steps[i];
		step(&w, s);
		if (!s->line && !s->col && !edit)
			edit = s;
		const struct as_step *as = s->kind == STEP_SCALE_UP ? s->arg : NULL;
		if (as && as->has_expect && !edit) {
			fputs("    expect: ", f);
			as_val_flow(&w, &as->expect);
			fputc('\n', f);
		}
		if (!s->has_expect)
			continue;
		if (edit && why && why[i]) {
			fprintf(f, "    # expect: left out: step %u, an edit, came first; ",
				(uint32_t)(edit - sc->steps) + 1);
			comment_text(f, why[i]);
		} else if (edit)
			fprintf(f, "    # expect: left out: step %u, an edit, came first\n",
				(uint32_t)(edit - sc->steps) + 1);
		else if (s->nreplicas)
			fputs("    # expect: left out: it was written for all the replicas\n", f);
		else
			expect(&w, &s->expect);
	}
	return !ferror(f);
}

int save_scenario_file(const char *path, const struct scenario *sc, bool overwrite,
		       const char *const *why, char *err, size_t errlen)
{
	assert(path && sc && err);
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1, e = 0;
	if (!overwrite && access(path, F_OK) == 0) {
		e = EEXIST;
		goto error;
	}
	/* the temporary file sits beside the target, so rename is atomic */
	size_t len = strlen(path) + sizeof(".tmpXXXXXX");
	if (!(tmp = malloc(len))) {
		e = ENOMEM;
		goto error;
	}
	snprintf(tmp, len, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		e = errno;
		free(tmp);
		tmp = NULL;
		goto error;
	}
	/* mkstemp makes the file 0600; a scenario is an ordinary file */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		e = errno;
		goto error;
	}
	if (!(f = fdopen(fd, "w"))) {
		e = errno;
		goto error;
	}
	fd = -1;
	if (!save_scenario_why(f, sc, why) || fflush(f) != 0 || fsync(fileno(f)) != 0) {
		e = errno ? errno : EIO;
		goto error;
	}
	if (fclose(f) != 0) {
		f = NULL;
		e = errno;
		goto error;
	}
	f = NULL;
	if (rename(tmp, path) != 0) {
		e = errno;
		goto error;
	}
	free(tmp);
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
	snprintf(err, errlen, "cannot write %s: %s", path,
		 e == EEXIST ? "the file exists" : strerror(e));
	errno = e;
	return 0;
}
