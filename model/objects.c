/* objects.c - the scheduler profile, name tables and the lifecycle helpers
 * of the plain Kubernetes objects (deep copy / free of every pointer). */
#include "objects.h"
#include "version.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* apis/config/v1/default_plugins.go getDefaultPlugins: score weights */
void sched_config_defaults(struct sched_config *c)
{
	assert(c);
	memset(c, 0, sizeof(*c));
	c->defaulting = DEFAULTING_SYSTEM;
	c->version = (struct kube_version){ VERSION_DEFAULT_MINOR, -1 };
	version_apply(c); /* the gates and switches of 1.37 */
#define PLUGIN_WEIGHT_1(id, weight) c->weights[id] = weight;
#define PLUGIN_WEIGHT_0(id, weight)
#define PLUGIN_WEIGHT(id, name, weight, ops, rec) PLUGIN_WEIGHT_##rec(id, weight)
	SKEWER_PLUGINS(PLUGIN_WEIGHT)
#undef PLUGIN_WEIGHT
	c->tie_random = false;
	c->seed = 0;
	c->preemption = true;
}

void sched_config_fini(struct sched_config *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->ndefault_tscs; i++)
		tsc_fini(&c->default_tscs[i]);
	free(c->default_tscs);
	c->default_tscs = NULL;
	c->ndefault_tscs = 0;
}

#define PLUGIN_NAME(id, name, weight, ops, rec) [id] = name,
static const char *const plugin_names[PL__ALL] = { SKEWER_PLUGINS(PLUGIN_NAME) };
#undef PLUGIN_NAME

const char *plugin_name(enum plugin_id p)
{
	if ((int)p < 0 || p >= PL__ALL)
		return "";
	return plugin_names[p];
}

enum plugin_id plugin_from_name(const char *name)
{
	if (!name)
		return PL_NONE;
	for (int p = 0; p < PL__COUNT; p++)
		if (strcmp(plugin_names[p], name) == 0)
			return (enum plugin_id)p;
	return PL_NONE;
}

const char *gate_name(enum feature_gate g)
{
	switch (g) {
	case GATE_MIN_DOMAINS:
		return "MinDomainsInPodTopologySpread";
	case GATE_NODE_INCLUSION_POLICY:
		return "NodeInclusionPolicyInPodTopologySpread";
	case GATE_MATCH_LABEL_KEYS:
		return "MatchLabelKeysInPodTopologySpread";
	case GATE_MATCH_LABEL_KEYS_MERGE:
		return "MatchLabelKeysInPodTopologySpreadSelectorMerge";
	case GATE_MATCH_LABEL_KEYS_AFFINITY:
		return "MatchLabelKeysInPodAffinity";
	case GATE_SIDECARS:
		return "SidecarContainers";
	case GATE_TOLERATION_CMP:
		return "TaintTolerationComparisonOperators";
	default:
		return "";
	}
}

const char *effect_name(enum taint_effect e)
{
	switch (e) {
	case EFFECT_NO_SCHEDULE:
		return "NoSchedule";
	case EFFECT_PREFER_NO_SCHEDULE:
		return "PreferNoSchedule";
	case EFFECT_NO_EXECUTE:
		return "NoExecute";
	case EFFECT_NONE:
	case EFFECT_INVALID:
	default:
		return "";
	}
}

/* Duplicates n elements of size sz; *out = NULL when n == 0. 0 on OOM. */
static int dup_array(void *out, const void *src, uint32_t n, size_t sz)
{
	void **dst = out;
	*dst = NULL;
	if (!n || !src)
		return 1;
	*dst = malloc((size_t)n * sz);
	if (!*dst)
		return 0;
	memcpy(*dst, src, (size_t)n * sz);
	return 1;
}

/* ---- resources ---- */

void resources_fini(struct resources *r)
{
	if (!r)
		return;
	free(r->ext);
	r->ext = NULL;
	r->next = 0;
}

int resources_copy(struct resources *dst, const struct resources *src)
{
	*dst = *src;
	dst->ext = NULL;
	if (!dup_array(&dst->ext, src->ext, src->next, sizeof(*src->ext))) {
		dst->next = 0;
		return 0;
	}
	return 1;
}

int64_t resources_ext(const struct resources *r, sym_t name)
{
	for (uint32_t i = 0; i < r->next; i++)
		if (r->ext[i].name == name)
			return r->ext[i].v;
	return 0;
}

/* ---- topology spread constraints ---- */

void tsc_fini(struct tsc *t)
{
	if (!t)
		return;
	selector_src_fini(&t->selector);
	free(t->match_label_keys);
	memset(t, 0, sizeof(*t));
}

int tsc_copy(struct tsc *dst, const struct tsc *src)
{
	*dst = *src;
	memset(&dst->selector, 0, sizeof(dst->selector));
	dst->match_label_keys = NULL;
	if (!dup_array(&dst->match_label_keys, src->match_label_keys, src->nmatch_label_keys,
		       sizeof(sym_t)))
		goto error;
	if (!selector_src_copy(&dst->selector, &src->selector))
		goto error;
	return 1;
error:
	tsc_fini(dst);
	return 0;
}

static bool syms_equal(const sym_t *a, const sym_t *b, uint32_t n)
{
	return !n || !memcmp(a, b, n * sizeof(*a));
}

static bool selector_src_equal(const struct label_selector_src *a, const struct label_selector_src *b)
{
	if (a->present != b->present || !labels_equal(&a->match_labels, &b->match_labels) ||
	    !syms_equal(a->ml_order, b->ml_order, a->match_labels.n) || a->nexprs != b->nexprs)
		return false;
	for (uint32_t i = 0; i < a->nexprs; i++) {
		const struct sel_expr_src *x = &a->exprs[i], *y = &b->exprs[i];
		if (x->key != y->key || x->op != y->op || x->has_vals != y->has_vals ||
		    x->nvals != y->nvals || !syms_equal(x->vals, y->vals, x->nvals))
			return false;
	}
	return true;
}

bool tsc_list_equal(const struct tsc *a, const struct tsc *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct tsc *x = &a[i], *y = &b[i];
		if (x->max_skew != y->max_skew || x->topology_key != y->topology_key ||
		    x->when != y->when || x->has_min_domains != y->has_min_domains ||
		    x->min_domains != y->min_domains ||
		    x->node_affinity_policy != y->node_affinity_policy ||
		    x->node_taints_policy != y->node_taints_policy ||
		    x->nmatch_label_keys != y->nmatch_label_keys ||
		    !syms_equal(x->match_label_keys, y->match_label_keys, x->nmatch_label_keys) ||
		    !selector_src_equal(&x->selector, &y->selector))
			return false;
	}
	return true;
}

static bool sel_reqs_equal(const struct sel_req *a, const struct sel_req *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].key != b[i].key || a[i].op != b[i].op || a[i].nvals != b[i].nvals ||
		    !syms_equal(a[i].vals, b[i].vals, a[i].nvals))
			return false;
	return true;
}

static bool selector_equal(const struct selector *a, const struct selector *b)
{
	return a->kind == b->kind && a->n == b->n && sel_reqs_equal(a->reqs, b->reqs, a->n);
}

static bool ns_term_equal(const struct ns_term *a, const struct ns_term *b)
{
	return a->nexprs == b->nexprs && a->nfields == b->nfields && a->invalid == b->invalid &&
	       sel_reqs_equal(a->exprs, b->exprs, a->nexprs) &&
	       sel_reqs_equal(a->fields, b->fields, a->nfields) &&
	       syms_equal(a->field_keys, b->field_keys, a->nfields) &&
	       syms_equal(a->expr_ops, b->expr_ops, a->nexprs) &&
	       syms_equal(a->field_ops, b->field_ops, a->nfields);
}

static bool paterms_equal(const struct pod_affinity_term *a, const struct pod_affinity_term *b,
			  uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct pod_affinity_term *x = &a[i], *y = &b[i];
		if (x->topology_key != y->topology_key || x->nnamespaces != y->nnamespaces ||
		    x->nmlk != y->nmlk || x->nmmlk != y->nmmlk ||
		    !syms_equal(x->namespaces, y->namespaces, x->nnamespaces) ||
		    !syms_equal(x->mlk, y->mlk, x->nmlk) || !syms_equal(x->mmlk, y->mmlk, x->nmmlk) ||
		    !selector_src_equal(&x->sel_src, &y->sel_src) || !selector_equal(&x->sel, &y->sel) ||
		    !selector_src_equal(&x->ns_sel_src, &y->ns_sel_src) ||
		    !selector_equal(&x->ns_sel, &y->ns_sel))
			return false;
	}
	return true;
}

static bool wpaterms_equal(const struct weighted_pod_affinity_term *a,
			   const struct weighted_pod_affinity_term *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].weight != b[i].weight || !paterms_equal(&a[i].term, &b[i].term, 1))
			return false;
	return true;
}

bool affinity_equal(const struct affinity *a, const struct affinity *b)
{
	const struct node_affinity *x = &a->node, *y = &b->node;
	if (x->has_required != y->has_required || x->nreq != y->nreq || x->npref != y->npref ||
	    a->naff_req != b->naff_req || a->naff_pref != b->naff_pref ||
	    a->nanti_req != b->nanti_req || a->nanti_pref != b->nanti_pref)
		return false;
	for (uint32_t i = 0; i < x->nreq; i++)
		if (!ns_term_equal(&x->req[i], &y->req[i]))
			return false;
	for (uint32_t i = 0; i < x->npref; i++)
		if (x->pref[i].weight != y->pref[i].weight || !ns_term_equal(&x->pref[i].term, &y->pref[i].term))
			return false;
	return paterms_equal(a->aff_req, b->aff_req, a->naff_req) &&
	       wpaterms_equal(a->aff_pref, b->aff_pref, a->naff_pref) &&
	       paterms_equal(a->anti_req, b->anti_req, a->nanti_req) &&
	       wpaterms_equal(a->anti_pref, b->anti_pref, a->nanti_pref);
}

bool tolerations_equal(const struct toleration *a, const struct toleration *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct toleration *x = &a[i], *y = &b[i];
		if (x->key != y->key || x->op != y->op || x->op_text != y->op_text ||
		    x->value != y->value || x->effect != y->effect || x->effect_text != y->effect_text ||
		    x->has_seconds != y->has_seconds || x->seconds != y->seconds)
			return false;
	}
	return true;
}

/* ---- node affinity ---- */

static void sel_reqs_free(struct sel_req *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(r[i].vals);
	free(r);
}

static int sel_reqs_copy(struct sel_req **dst, const struct sel_req *src, uint32_t n)
{
	*dst = NULL;
	if (!n)
		return 1;
	struct sel_req *d = calloc(n, sizeof(*d));
	if (!d)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		d[i] = src[i];
		d[i].vals = NULL;
		if (!dup_array(&d[i].vals, src[i].vals, src[i].nvals, sizeof(sym_t))) {
			sel_reqs_free(d, i);
			return 0;
		}
	}
	*dst = d;
	return 1;
}

void ns_term_fini(struct ns_term *t)
{
	if (!t)
		return;
	sel_reqs_free(t->exprs, t->nexprs);
	sel_reqs_free(t->fields, t->nfields);
	free(t->field_keys);
	free(t->expr_ops);
	free(t->field_ops);
	memset(t, 0, sizeof(*t));
}

int ns_term_copy(struct ns_term *dst, const struct ns_term *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->invalid = src->invalid;
	if (!sel_reqs_copy(&dst->exprs, src->exprs, src->nexprs))
		goto error;
	dst->nexprs = src->nexprs;
	if (!sel_reqs_copy(&dst->fields, src->fields, src->nfields))
		goto error;
	dst->nfields = src->nfields;
	if (!dup_array(&dst->field_keys, src->field_keys, src->field_keys ? src->nfields : 0,
		       sizeof(sym_t)) ||
	    !dup_array(&dst->expr_ops, src->expr_ops, src->expr_ops ? src->nexprs : 0,
		       sizeof(sym_t)) ||
	    !dup_array(&dst->field_ops, src->field_ops, src->field_ops ? src->nfields : 0,
		       sizeof(sym_t)))
		goto error;
	return 1;
error:
	ns_term_fini(dst);
	return 0;
}

static void node_affinity_fini(struct node_affinity *na)
{
	for (uint32_t i = 0; i < na->nreq; i++)
		ns_term_fini(&na->req[i]);
	free(na->req);
	for (uint32_t i = 0; i < na->npref; i++)
		ns_term_fini(&na->pref[i].term);
	free(na->pref);
	memset(na, 0, sizeof(*na));
}

static int node_affinity_copy(struct node_affinity *dst, const struct node_affinity *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->has_required = src->has_required;
	if (src->nreq) {
		dst->req = calloc(src->nreq, sizeof(*dst->req));
		if (!dst->req)
			goto error;
		for (uint32_t i = 0; i < src->nreq; i++) {
			if (!ns_term_copy(&dst->req[i], &src->req[i]))
				goto error;
			dst->nreq++;
		}
	}
	if (src->npref) {
		dst->pref = calloc(src->npref, sizeof(*dst->pref));
		if (!dst->pref)
			goto error;
		for (uint32_t i = 0; i < src->npref; i++) {
			dst->pref[i].weight = src->pref[i].weight;
			if (!ns_term_copy(&dst->pref[i].term, &src->pref[i].term))
				goto error;
			dst->npref++;
		}
	}
	return 1;
error:
	node_affinity_fini(dst);
	return 0;
}

/* ---- pod affinity ---- */

void pod_affinity_term_fini(struct pod_affinity_term *t)
{
	if (!t)
		return;
	selector_src_fini(&t->sel_src);
	selector_fini(&t->sel);
	free(t->namespaces);
	free(t->mlk);
	free(t->mmlk);
	selector_src_fini(&t->ns_sel_src);
	selector_fini(&t->ns_sel);
	memset(t, 0, sizeof(*t));
}

static int pod_affinity_term_copy(struct pod_affinity_term *dst, const struct pod_affinity_term *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->topology_key = src->topology_key;
	if (!selector_src_copy(&dst->sel_src, &src->sel_src) || !selector_copy(&dst->sel, &src->sel) ||
	    !selector_src_copy(&dst->ns_sel_src, &src->ns_sel_src) ||
	    !selector_copy(&dst->ns_sel, &src->ns_sel))
		goto error;
	if (!dup_array(&dst->namespaces, src->namespaces, src->nnamespaces, sizeof(sym_t)))
		goto error;
	dst->nnamespaces = src->nnamespaces;
	if (!dup_array(&dst->mlk, src->mlk, src->nmlk, sizeof(sym_t)))
		goto error;
	dst->nmlk = src->nmlk;
	if (!dup_array(&dst->mmlk, src->mmlk, src->nmmlk, sizeof(sym_t)))
		goto error;
	dst->nmmlk = src->nmmlk;
	return 1;
error:
	pod_affinity_term_fini(dst);
	return 0;
}

static void paterms_free(struct pod_affinity_term *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pod_affinity_term_fini(&t[i]);
	free(t);
}

static void wpaterms_free(struct weighted_pod_affinity_term *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pod_affinity_term_fini(&t[i].term);
	free(t);
}

static int paterms_copy(struct pod_affinity_term **dst, uint32_t *ndst,
			const struct pod_affinity_term *src, uint32_t n)
{
	*dst = NULL;
	*ndst = 0;
	if (!n)
		return 1;
	*dst = calloc(n, sizeof(**dst));
	if (!*dst)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!pod_affinity_term_copy(&(*dst)[i], &src[i]))
			return 0;
		(*ndst)++;
	}
	return 1;
}

static int wpaterms_copy(struct weighted_pod_affinity_term **dst, uint32_t *ndst,
			 const struct weighted_pod_affinity_term *src, uint32_t n)
{
	*dst = NULL;
	*ndst = 0;
	if (!n)
		return 1;
	*dst = calloc(n, sizeof(**dst));
	if (!*dst)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		(*dst)[i].weight = src[i].weight;
		if (!pod_affinity_term_copy(&(*dst)[i].term, &src[i].term))
			return 0;
		(*ndst)++;
	}
	return 1;
}

void affinity_fini(struct affinity *a)
{
	if (!a)
		return;
	node_affinity_fini(&a->node);
	paterms_free(a->aff_req, a->naff_req);
	wpaterms_free(a->aff_pref, a->naff_pref);
	paterms_free(a->anti_req, a->nanti_req);
	wpaterms_free(a->anti_pref, a->nanti_pref);
	memset(a, 0, sizeof(*a));
}

static int affinity_copy(struct affinity *dst, const struct affinity *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!node_affinity_copy(&dst->node, &src->node) ||
	    !paterms_copy(&dst->aff_req, &dst->naff_req, src->aff_req, src->naff_req) ||
	    !wpaterms_copy(&dst->aff_pref, &dst->naff_pref, src->aff_pref, src->naff_pref) ||
	    !paterms_copy(&dst->anti_req, &dst->nanti_req, src->anti_req, src->nanti_req) ||
	    !wpaterms_copy(&dst->anti_pref, &dst->nanti_pref, src->anti_pref, src->nanti_pref))
		goto error;
	return 1;
error:
	affinity_fini(dst);
	return 0;
}

/* ---- pods ---- */

void pod_spec_fini(struct pod_spec *s)
{
	if (!s)
		return;
	labels_fini(&s->node_selector);
	if (!(s->shared & SPEC_SHARED_AFF))
		affinity_fini(&s->affinity);
	if (!(s->shared & SPEC_SHARED_TOLS))
		free(s->tols);
	if (!(s->shared & SPEC_SHARED_TSCS)) {
		for (uint32_t i = 0; i < s->ntscs; i++)
			tsc_fini(&s->tscs[i]);
		free(s->tscs);
	}
	resources_fini(&s->req);
	free(s->plain);
	free(s->vols);
	free(s->ports);
	free(s->gates);
	for (uint32_t i = 0; i < s->nadmission_errors; i++)
		free(s->admission_errors[i]);
	free(s->admission_errors);
	memset(s, 0, sizeof(*s));
}

int pod_spec_copy(struct pod_spec *dst, const struct pod_spec *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->node_name = src->node_name;
	dst->has_affinity = src->has_affinity;
	dst->nz_cpu = src->nz_cpu;
	dst->nz_mem = src->nz_mem;
	dst->has_sidecars = src->has_sidecars;
	if (src->plain) {
		if (!(dst->plain = malloc(sizeof(*dst->plain))))
			goto error;
		*dst->plain = *src->plain;
	}
	dst->priority = src->priority;
	dst->has_priority = src->has_priority;
	dst->priority_class = src->priority_class;
	dst->preemption_policy = src->preemption_policy;
	if (!labels_copy(&dst->node_selector, &src->node_selector))
		goto error;
	if (!affinity_copy(&dst->affinity, &src->affinity))
		goto error;
	if (!dup_array(&dst->tols, src->tols, src->ntols, sizeof(*src->tols)))
		goto error;
	dst->ntols = src->ntols;
	if (src->ntscs) {
		dst->tscs = calloc(src->ntscs, sizeof(*dst->tscs));
		if (!dst->tscs)
			goto error;
		for (uint32_t i = 0; i < src->ntscs; i++) {
			if (!tsc_copy(&dst->tscs[i], &src->tscs[i]))
				goto error;
			dst->ntscs++;
		}
	}
	if (!resources_copy(&dst->req, &src->req))
		goto error;
	if (!dup_array(&dst->vols, src->vols, src->nvols, sizeof(*src->vols)) ||
	    !dup_array(&dst->ports, src->ports, src->nports, sizeof(*src->ports)) ||
	    !dup_array(&dst->gates, src->gates, src->ngates, sizeof(*src->gates)))
		goto error;
	dst->nvols = src->nvols;
	dst->nports = src->nports;
	dst->ngates = src->ngates;
	if (src->nadmission_errors) {
		dst->admission_errors = calloc(src->nadmission_errors, sizeof(char *));
		if (!dst->admission_errors)
			goto error;
		for (uint32_t i = 0; i < src->nadmission_errors; i++) {
			dst->admission_errors[i] = strdup(src->admission_errors[i]);
			if (!dst->admission_errors[i])
				goto error;
			dst->nadmission_errors++;
		}
	}
	return 1;
error:
	pod_spec_fini(dst);
	return 0;
}

uint32_t pod_no_term_classes[1];

void pod_fini(struct pod *p)
{
	if (!p)
		return;
	if (!(p->spec.shared & SPEC_SHARED_LABELS))
		labels_fini(&p->labels);
	if (!(p->spec.shared & SPEC_SHARED_OWNERS))
		free(p->owners);
	memset(&p->labels, 0, sizeof(p->labels));
	pod_spec_fini(&p->spec);
	p->owners = NULL;
	p->nowners = 0;
	if (p->term_classes != pod_no_term_classes)
		free(p->term_classes);
	p->term_classes = NULL;
	p->nterm_classes = 0;
}

int pod_copy(struct pod *dst, const struct pod *src)
{
	*dst = *src;
	memset(&dst->labels, 0, sizeof(dst->labels));
	memset(&dst->spec, 0, sizeof(dst->spec));
	dst->owners = NULL;
	dst->nowners = 0;
	dst->term_classes = NULL;
	dst->nterm_classes = 0;
	if (!labels_copy(&dst->labels, &src->labels))
		goto error;
	if (!dup_array(&dst->owners, src->owners, src->nowners, sizeof(*src->owners)))
		goto error;
	dst->nowners = src->nowners;
	if (!pod_spec_copy(&dst->spec, &src->spec))
		goto error;
	return 1;
error:
	pod_fini(dst);
	return 0;
}

/* ---- nodes ---- */

void node_fini(struct node *n)
{
	if (!n)
		return;
	labels_fini(&n->labels);
	free(n->taints);
	n->taints = NULL;
	n->ntaints = 0;
	resources_fini(&n->alloc);
	free(n->pods);
	n->pods = NULL;
	n->npods = n->podcap = 0;
	resources_fini(&n->used);
}

int node_copy_def(struct node *dst, const struct node *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->name = src->name;
	dst->unschedulable = src->unschedulable;
	dst->cap_cpu = src->cap_cpu;
	dst->cap_mem = src->cap_mem;
	dst->line = src->line;
	dst->col = src->col;
	if (!labels_copy(&dst->labels, &src->labels))
		goto error;
	if (!dup_array(&dst->taints, src->taints, src->ntaints, sizeof(*src->taints)))
		goto error;
	dst->ntaints = src->ntaints;
	if (!resources_copy(&dst->alloc, &src->alloc))
		goto error;
	return 1;
error:
	node_fini(dst);
	return 0;
}

/* ---- workloads ---- */

void pdb_fini(struct pdb *d)
{
	if (!d)
		return;
	selector_src_fini(&d->sel_src);
	selector_fini(&d->sel);
}

void workload_fini(struct workload *w)
{
	if (!w)
		return;
	labels_fini(&w->set);
	selector_src_fini(&w->sel_src);
	selector_fini(&w->sel);
	if (w->tpl) {
		pod_fini(w->tpl);
		free(w->tpl);
		w->tpl = NULL;
	}
}
