/* save.c - writes a scenario back as YAML (shorthand form). Every string is
 * written double-quoted with YAML escapes, so no value can change type or
 * break the document; numbers are written as plain integers. */
#include "save.h"
#include "../model/steps/step.h"

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

/* A YAML double-quoted scalar: controls escaped, the rest (valid UTF-8,
 * as the loader only hands out what libyaml accepted) copied. */
static void q(struct w *w, const char *s)
{
	fputc('"', w->f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(w->f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", w->f);
		else if (*p == '\t')
			fputs("\\t", w->f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(w->f, "\\x%02x", *p);
		else
			fputc(*p, w->f);
	}
	fputc('"', w->f);
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
	if (l->protect & LIFE_LOCAL_STORAGE) {
		ind(w, in);
		fputs("volumes: [{name: local, emptyDir: {}}]\n", w->f);
	}
}

/* A pod entry at indentation `in` (the first line's "- " or key is the
 * caller's). */
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
	if (s->req.cpu || s->req.mem || s->req.eph || s->req.next) {
		ind(w, in);
		fputs("requests: ", w->f);
		resources(w, &s->req, false);
		fputc('\n', w->f);
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
	ind(w, in);
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

static void sw_null(struct step_writer *w)
{
	sw_lead(SW(w));
	fputs("null", SW(w)->out->f);
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
		{w, w->c->in, sw_str, sw_text, sw_null, sw_begin, sw_key, sw_end, sw_taint, sw_pod,
		 sw_node, sw_block},
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
	fputs("  featureGates:\n", w->f);
	for (int g = 0; g < GATE__COUNT; g++)
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

int save_scenario(FILE *f, const struct scenario *sc)
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
		if (!s->has_expect)
			continue;
		if (edit)
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
		       char *err, size_t errlen)
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
	if (!save_scenario(f, sc) || fflush(f) != 0 || fsync(fileno(f)) != 0) {
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
