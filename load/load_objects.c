/* load_objects.c - readers for nodes, taints, tolerations, label and node
 * selectors, affinity, topology spread constraints and workloads, in both
 * the shorthand and the Kubernetes object form. */
#include "loader.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../model/priority.h"
#include "../model/quantity.h"
#include "../model/validate.h"

/* ---- effects, taints, tolerations ---- */

static enum taint_effect effect_of(const char *s)
{
	if (!strcmp(s, "NoSchedule"))
		return EFFECT_NO_SCHEDULE;
	if (!strcmp(s, "PreferNoSchedule"))
		return EFFECT_PREFER_NO_SCHEDULE;
	if (!strcmp(s, "NoExecute"))
		return EFFECT_NO_EXECUTE;
	if (!*s)
		return EFFECT_NONE;
	return EFFECT_INVALID;
}

/* A taint's key (a qualified name) and value (a label value, may be
 * empty) as validation.go validateNodeTaints checks them, and kubectl
 * taint before it; an absent or empty key is the caller's to report.
 * at names the taint: a path ("spec.taints[0]") or a step ("taint
 * step"). */
static int taint_text_valid(struct loader *L, const struct ynode *m, const struct taint *t, const char *at,
			    bool path)
{
	const char *s[2] = { intern_get(L->in, t->key), intern_get(L->in, t->value) };
	size_t n[2] = { intern_len(L->in, t->key), intern_len(L->in, t->value) };
	static const char *const field[2] = { "key", "value" };
	for (int i = 0; i < 2; i++) {
		if (!n[i])
			continue;
		char *msg = i ? validate_label_value_text(s[i], n[i]) : validate_label_key_text(s[i], n[i]);
		if (!msg)
			continue;
		if (path)
			load_err_at(L, y_get(m, field[i]), "%s.%s: Invalid value: \"%s\": %s", at, field[i], s[i], msg);
		else
			load_err_at(L, y_get(m, field[i]), "%s has an invalid %s '%s': %s", at, field[i], s[i], msg);
		free(msg);
		return 0;
	}
	return 1;
}

int load_taint(struct loader *L, const struct ynode *m, const char *what, enum taint_use use,
	       struct taint *out)
{
	memset(out, 0, sizeof(*out));
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	if (!y_str(L, y_get(m, "key"), "key", &out->key) ||
	    !y_str(L, y_get(m, "value"), "value", &out->value) ||
	    !y_str(L, y_get(m, "effect"), "effect", &out->effect_text))
		return 0;
	if (!out->key && !(out->key = intern_str(L->in, "")))
		return load_oom(L);
	if (!out->value && !(out->value = intern_str(L->in, "")))
		return load_oom(L);
	/* timeAdded, read by no plugin: a metav1.Time, an RFC 3339 string
	 * (Time.UnmarshalJSON: time.Parse(time.RFC3339)) or null */
	int64_t t;
	if (!y_time(L, y_get(m, "timeAdded"), "timeAdded", &t))
		return 0;
	out->effect = effect_of(intern_get(L->in, out->effect_text));
	/* a node taint always has an effect; without one it is invalid */
	if (out->effect == EFFECT_NONE && use == TAINT_NODE)
		out->effect = EFFECT_INVALID;
	/* kubectl taint KEY- checks no key: a taint that is not there is
	 * the step's outcome, not an input error */
	if (use == TAINT_ADD && !taint_text_valid(L, m, out, "taint step", false))
		return 0;
	return 1;
}

/* path: "spec." (object form) or "" (shorthand), for messages */
static int load_taints(struct loader *L, const struct ynode *n, const char *path, struct taint **out,
		       uint32_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "taints"))
		return 0;
	if (!n->n)
		return 1;
	if (!(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	*nout = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		struct taint *t = &(*out)[i];
		if (!load_taint(L, &n->kids[i], "taints' entry", TAINT_NODE, t))
			return 0;
		char at[48];
		snprintf(at, sizeof(at), "%staints[%u]", path, i);
		if (!taint_text_valid(L, &n->kids[i], t, at, true))
			return 0;
		/* A node never holds a taint the API server would refuse
		 * (core/validation validateNodeTaints): such an input is a load
		 * error, not a state to simulate (docs/limits.md). */
		if (t->effect == EFFECT_INVALID) {
			const struct ynode *e = y_get(&n->kids[i], "effect");
			const char *text = intern_get(L->in, t->effect_text);
			if (!*text)
				load_err_at(L, y_absent(e) ? &n->kids[i] : e,
					    "%staints[%u].effect: Required value (expected NoSchedule, PreferNoSchedule or NoExecute)",
					    path, i);
			else
				load_err_at(L, e,
					    "%staints[%u].effect: Unsupported value: \"%s\" (expected NoSchedule, PreferNoSchedule or NoExecute)",
					    path, i, text);
			return 0;
		}
		if (!intern_len(L->in, t->key)) {
			load_err_at(L, &n->kids[i],
				    "%staints[%u].key: Required value (expected a taint key)", path, i);
			return 0;
		}
	}
	return 1;
}

int load_tolerations(struct loader *L, const struct ynode *n, struct toleration **out,
		     uint32_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "tolerations"))
		return 0;
	if (!n->n)
		return 1;
	if (!(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	*nout = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *m = &n->kids[i], *u;
		struct toleration *t = &(*out)[i];
		if (!y_want(L, m, Y_MAP, "tolerations' entry"))
			return 0;
		if (!y_str_at(L, y_get(m, "key"), "tolerations", i, "key", &t->key) ||
		    !y_str_at(L, y_get(m, "operator"), "tolerations", i, "operator", &t->op_text) ||
		    !y_str_at(L, y_get(m, "value"), "tolerations", i, "value", &t->value) ||
		    !y_str_at(L, y_get(m, "effect"), "tolerations", i, "effect", &t->effect_text))
			return 0;
		u = y_get(m, "tolerationSeconds");
		if (!y_absent(u)) {
			/* an int64 (*int64 in v1.Toleration): 1e400 and 2^63 are
			 * refused by the decoder */
			if (!y_int_at(L, u, "tolerations", i, "tolerationSeconds", INT64_MIN, INT64_MAX,
				      &t->seconds))
				return 0;
			t->has_seconds = true;
		}
		if (!t->key && !(t->key = intern_str(L->in, "")))
			return load_oom(L);
		if (!t->value && !(t->value = intern_str(L->in, "")))
			return load_oom(L);
		const char *op = intern_get(L->in, t->op_text);
		/* v1/toleration.go: an empty operator means Equal */
		t->op = (!*op || !strcmp(op, "Equal")) ? TOL_EQUAL :
			!strcmp(op, "Exists") ? TOL_EXISTS : TOL_OTHER;
		t->effect = effect_of(intern_get(L->in, t->effect_text));
	}
	return 1;
}

/* ---- label selectors ---- */

int load_selector_src(struct loader *L, const struct ynode *n, const char *what,
		      struct label_selector_src *out)
{
	memset(out, 0, sizeof(*out));
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_MAP, what))
		return 0;
	out->present = true;
	const struct ynode *ml = y_get(n, "matchLabels"), *me = y_get(n, "matchExpressions");
	if (!y_labels(L, ml, "matchLabels", &out->match_labels))
		return 0;
	if (!y_absent(ml) && ml->n) {
		if (!(out->ml_order = calloc(ml->n, sizeof(*out->ml_order))))
			return load_oom(L);
		for (uint32_t i = 0; i < ml->n; i++)
			if (!(out->ml_order[i] = intern_n(L->in, ml->kids[2 * i].s, ml->kids[2 * i].len)))
				return load_oom(L);
	}
	if (y_absent(me))
		return 1;
	if (!y_want(L, me, Y_SEQ, "matchExpressions"))
		return 0;
	if (!me->n)
		return 1;
	if (!(out->exprs = calloc(me->n, sizeof(*out->exprs))))
		return load_oom(L);
	out->nexprs = me->n;
	for (uint32_t i = 0; i < me->n; i++) {
		const struct ynode *e = &me->kids[i], *vals;
		struct sel_expr_src *x = &out->exprs[i];
		if (!y_want(L, e, Y_MAP, "matchExpressions' entry"))
			return 0;
		vals = y_get(e, "values");
		x->has_vals = vals != NULL;
		if (!y_str(L, y_get(e, "key"), "key", &x->key) ||
		    !y_str(L, y_get(e, "operator"), "operator", &x->op) ||
		    !y_syms(L, vals, "values", &x->vals, &x->nvals))
			return 0;
		if (!x->key && !(x->key = intern_str(L->in, "")))
			return load_oom(L);
	}
	return 1;
}

/* Compiles src; an invalid selector matches nothing (the API server would
 * have rejected it; validation reports it for pods to be scheduled). */
static int compile_or_nothing(struct loader *L, const struct label_selector_src *src,
			      struct selector *out)
{
	memset(out, 0, sizeof(*out));
	if (!selector_compile(L->in, src, out, NULL, 0)) {
		selector_fini(out);
		memset(out, 0, sizeof(*out));
		out->kind = SEL_NOTHING;
	}
	return 1;
}

/* The node of a label selector (or a shorthand label map) the first
 * validation error names; at a missing field, its entry. */
static const struct ynode *sel_expr_node(const struct intern *in, const struct ynode *e, const char *field,
					 sym_t text)
{
	const struct ynode *n = y_get(e, field);
	if (y_absent(n))
		return e;
	if (n->type == Y_SEQ && text != SYM_NONE) {
		for (uint32_t k = 0; k < n->n; k++)
			if (n->kids[k].type == Y_SCALAR && n->kids[k].len == intern_len(in, text) &&
			    !memcmp(n->kids[k].s, intern_get(in, text), n->kids[k].len))
				return &n->kids[k];
	}
	return n;
}

const struct ynode *load_locus_node(struct loader *L, const struct ynode *sel, const char *exprs,
				    const struct vlocus *at)
{
	const struct ynode *ml = y_get(sel, "matchLabels"), *me = y_get(sel, exprs);
	if (y_absent(ml) && y_absent(me))
		ml = sel; /* a shorthand label map */
	switch (at->part) {
	case VP_LABEL_KEY:
	case VP_LABEL_VALUE:
		if (y_absent(ml) || ml->type != Y_MAP || at->i >= ml->n)
			return sel;
		return &ml->kids[2 * at->i + (at->part == VP_LABEL_VALUE)];
	case VP_EXPR_KEY:
	case VP_EXPR_OPERATOR:
	case VP_EXPR_VALUES:
	case VP_EXPR_VALUE:
	case VP_FIELD_KEY:
	case VP_FIELD_OPERATOR:
	case VP_FIELD_VALUES:
	case VP_FIELD_VALUE: {
		if (at->part >= VP_FIELD_KEY)
			me = y_get(sel, "matchFields");
		if (y_absent(me) || me->type != Y_SEQ || at->i >= me->n)
			return sel;
		const struct ynode *e = &me->kids[at->i];
		switch (at->part) {
		case VP_EXPR_KEY:
		case VP_FIELD_KEY:
			return sel_expr_node(L->in, e, "key", SYM_NONE);
		case VP_EXPR_OPERATOR:
		case VP_FIELD_OPERATOR:
			return sel_expr_node(L->in, e, "operator", SYM_NONE);
		case VP_EXPR_VALUE:
		case VP_FIELD_VALUE:
			return sel_expr_node(L->in, e, "values", at->text);
		default:
			return sel_expr_node(L->in, e, "values", SYM_NONE);
		}
	}
	default:
		return sel;
	}
}

/* "(expected ...)" for an error that does not say what to write */
static const char *locus_hint(const struct vlocus *at, bool node)
{
	switch (at->part) {
	case VP_EXPR_OPERATOR:
		return node ? " (expected In, NotIn, Exists, DoesNotExist, Gt or Lt)"
			    : " (expected In, NotIn, Exists or DoesNotExist)";
	case VP_FIELD_OPERATOR:
		return " (expected In or NotIn)";
	case VP_FIELD_KEY:
		return " (expected metadata.name)";
	default:
		return "";
	}
}

int load_selector_valid(struct loader *L, const struct ynode *sel, const char *path,
			const struct label_selector_src *src, const char *kind, const char *ns,
			const char *name)
{
	struct vlocus at;
	char *err = validate_selector_first(L->c, path, src, &at);
	if (!err)
		return 1;
	load_err_at(L, load_locus_node(L, sel, "matchExpressions", &at), "%s '%s/%s': %s%s", kind, ns, name, err,
		    locus_hint(&at, false));
	free(err);
	return 0;
}

int load_volume_affinity_valid(struct loader *L, const struct ynode *na, const char *path, bool has_required,
			       const struct ns_term *terms, uint32_t nterms, const char *name)
{
	struct vlocus at;
	/* the rules of every version first; label values (1.33) once the
	 * version is known */
	bool values = false;
	char *err = validate_volume_node_affinity_first(L->c, path, has_required, terms, nterms, false, &at);
	if (!err) {
		values = true;
		err = validate_volume_node_affinity_first(L->c, path, has_required, terms, nterms, true, &at);
		if (!err)
			return 1;
	}
	const struct ynode *req = y_get(na, "required"), *ts = y_get(req, "nodeSelectorTerms"), *n = na;
	if (at.part == VP_TERMS)
		n = !y_absent(ts) ? ts : !y_absent(req) ? req : na;
	else if (at.part != VP_REQUIRED && !y_absent(ts) && ts->type == Y_SEQ && at.term < ts->n)
		n = load_locus_node(L, &ts->kids[at.term], "matchExpressions", &at);
	char *msg = out_strf("PersistentVolume '%s': %s%s", name, err, locus_hint(&at, true));
	free(err);
	if (!msg)
		return load_oom(L);
	if (values)
		return load_defer_err(L, n, msg);
	load_err_at(L, n, "%s", msg);
	free(msg);
	return 0;
}

/* ---- node selector terms ---- */

static bool parse_int64(const char *s, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (!*s || *end || errno)
		return false;
	*v = x;
	return true;
}

/* apimachinery validation.IsValidLabelValue: empty, or at most 63
 * characters, alphanumeric at both ends, '-', '_' or '.' between */
static bool label_value_valid(const char *s, size_t n)
{
	if (n == 0)
		return true;
	if (n > 63)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
		if (!alnum && (i == 0 || i == n - 1 || (ch != '-' && ch != '_' && ch != '.')))
			return false;
	}
	return true;
}

/* component-helpers nodeaffinity nodeSelectorRequirementsAsSelector and
 * apimachinery labels.NewRequirement: value counts per operator. */
static int load_ns_reqs(struct loader *L, const struct ynode *n, const char *what, bool fields,
			struct ns_term *t, struct sel_req **out, uint32_t *nout, sym_t **ops)
{
	*out = NULL;
	*nout = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, what))
		return 0;
	if (!n->n)
		return 1;
	if (!(*out = calloc(n->n, sizeof(**out))) || !(*ops = calloc(n->n, sizeof(**ops))))
		return load_oom(L);
	if (fields && !(t->field_keys = calloc(n->n, sizeof(*t->field_keys))))
		return load_oom(L);
	*nout = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *e = &n->kids[i];
		struct sel_req *r = &(*out)[i];
		if (!y_want(L, e, Y_MAP, what))
			return 0;
		if (!y_str(L, y_get(e, "key"), "key", &r->key) ||
		    !y_str(L, y_get(e, "operator"), "operator", &(*ops)[i]) ||
		    !y_syms(L, y_get(e, "values"), "values", &r->vals, &r->nvals))
			return 0;
		if (!r->key && !(r->key = intern_str(L->in, "")))
			return load_oom(L);
		if (fields)
			t->field_keys[i] = r->key;
		const char *op = intern_get(L->in, (*ops)[i]);
		if (!strcmp(op, "In"))
			r->op = SEL_IN;
		else if (!strcmp(op, "NotIn"))
			r->op = SEL_NOTIN;
		else if (!strcmp(op, "Exists"))
			r->op = SEL_EXISTS;
		else if (!strcmp(op, "DoesNotExist"))
			r->op = SEL_NOTEXISTS;
		else if (!strcmp(op, "Gt"))
			r->op = SEL_GT;
		else if (!strcmp(op, "Lt"))
			r->op = SEL_LT;
		else {
			t->invalid = true;
			r->op = SEL_IN;
			continue;
		}
		int64_t dummy;
		if (fields) {
			/* fieldSelectorRequirementsAsSelector: In/NotIn, one value */
			if ((r->op != SEL_IN && r->op != SEL_NOTIN) || r->nvals != 1)
				t->invalid = true;
		} else if (r->op == SEL_IN || r->op == SEL_NOTIN) {
			if (!r->nvals)
				t->invalid = true;

		} else if (r->op == SEL_EXISTS || r->op == SEL_NOTEXISTS) {
			if (r->nvals)
				t->invalid = true;
		} else if (r->nvals != 1 || !parse_int64(intern_get(L->in, r->vals[0]), &dummy)) {
			t->invalid = true;
		}
		if (!intern_len(L->in, r->key))
			t->invalid = true;
		if (r->op == SEL_IN || r->op == SEL_NOTIN)
			load_sort_syms(L->in, r->vals, r->nvals);
	}
	return 1;
}

int load_ns_term(struct loader *L, const struct ynode *m, const char *what, struct ns_term *t)
{
	memset(t, 0, sizeof(*t));
	if (y_absent(m))
		return 1;
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	return load_ns_reqs(L, y_get(m, "matchExpressions"), "matchExpressions", false, t, &t->exprs,
			    &t->nexprs, &t->expr_ops) &&
	       load_ns_reqs(L, y_get(m, "matchFields"), "matchFields", true, t, &t->fields,
			    &t->nfields, &t->field_ops);
}

static int load_node_affinity(struct loader *L, const struct ynode *m, struct node_affinity *na)
{
	if (y_absent(m))
		return 1;
	if (!y_want(L, m, Y_MAP, "nodeAffinity"))
		return 0;
	const struct ynode *req = y_get(m, "requiredDuringSchedulingIgnoredDuringExecution");
	const struct ynode *pref = y_get(m, "preferredDuringSchedulingIgnoredDuringExecution");
	if (!y_absent(req)) {
		if (!y_want(L, req, Y_MAP, "requiredDuringSchedulingIgnoredDuringExecution"))
			return 0;
		na->has_required = true;
		const struct ynode *terms = y_get(req, "nodeSelectorTerms");
		if (!y_absent(terms)) {
			if (!y_want(L, terms, Y_SEQ, "nodeSelectorTerms"))
				return 0;
			if (terms->n && !(na->req = calloc(terms->n, sizeof(*na->req))))
				return load_oom(L);
			for (uint32_t i = 0; i < terms->n; i++) {
				na->nreq = i + 1;
				if (!load_ns_term(L, &terms->kids[i], "nodeSelectorTerms' entry", &na->req[i]))
					return 0;
				/* labels.NewRequirement checks each In/NotIn value: a
				 * required term with an invalid one fails to parse and
				 * matches no node (validation refuses such a pod from
				 * 1.33, #128212; before, it was stored and stayed Pending) */
				struct ns_term *t = &na->req[i];
				for (uint32_t j = 0; j < t->nexprs; j++) {
					const struct sel_req *r = &t->exprs[j];
					for (uint32_t k = 0; (r->op == SEL_IN || r->op == SEL_NOTIN) && k < r->nvals; k++)
						if (!label_value_valid(intern_get(L->in, r->vals[k]),
								       intern_len(L->in, r->vals[k])))
							t->invalid = true;
				}
			}
		}
	}
	/* conventions 18: an empty preferred list is absent */
	if (!y_absent(pref)) {
		if (!y_want(L, pref, Y_SEQ, "preferredDuringSchedulingIgnoredDuringExecution"))
			return 0;
		if (pref->n && !(na->pref = calloc(pref->n, sizeof(*na->pref))))
			return load_oom(L);
		for (uint32_t i = 0; i < pref->n; i++) {
			const struct ynode *e = &pref->kids[i], *w;
			int64_t wt = 0;
			na->npref = i + 1;
			if (!y_want(L, e, Y_MAP, "preferredDuringSchedulingIgnoredDuringExecution' entry"))
				return 0;
			w = y_get(e, "weight");
			if (!y_absent(w) && !y_int(L, w, "weight", INT32_MIN, INT32_MAX, &wt))
				return 0;
			na->pref[i].weight = (int32_t)wt;
			if (!load_ns_term(L, y_get(e, "preference"), "preference", &na->pref[i].term))
				return 0;
		}
	}
	return 1;
}

/* ---- pod (anti-)affinity ---- */

static int load_pa_term(struct loader *L, const struct ynode *m, const char *what,
			struct pod_affinity_term *t)
{
	memset(t, 0, sizeof(*t));
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	if (!load_selector_src(L, y_get(m, "labelSelector"), "labelSelector", &t->sel_src) ||
	    !compile_or_nothing(L, &t->sel_src, &t->sel) ||
	    !y_syms(L, y_get(m, "namespaces"), "namespaces", &t->namespaces, &t->nnamespaces) ||
	    !load_selector_src(L, y_get(m, "namespaceSelector"), "namespaceSelector", &t->ns_sel_src) ||
	    !compile_or_nothing(L, &t->ns_sel_src, &t->ns_sel) ||
	    !y_str(L, y_get(m, "topologyKey"), "topologyKey", &t->topology_key) ||
	    !y_syms(L, y_get(m, "matchLabelKeys"), "matchLabelKeys", &t->mlk, &t->nmlk) ||
	    !y_syms(L, y_get(m, "mismatchLabelKeys"), "mismatchLabelKeys", &t->mmlk, &t->nmmlk))
		return 0;
	return 1;
}

static int load_pa_terms(struct loader *L, const struct ynode *n, const char *what,
			 struct pod_affinity_term **out, uint32_t *nout)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, what))
		return 0;
	if (n->n && !(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	for (uint32_t i = 0; i < n->n; i++) {
		*nout = i + 1;
		if (!load_pa_term(L, &n->kids[i], what, &(*out)[i]))
			return 0;
	}
	return 1;
}

static int load_wpa_terms(struct loader *L, const struct ynode *n, const char *what,
			  struct weighted_pod_affinity_term **out, uint32_t *nout)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, what))
		return 0;
	if (n->n && !(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *e = &n->kids[i], *w;
		int64_t wt = 0;
		*nout = i + 1;
		if (!y_want(L, e, Y_MAP, what))
			return 0;
		w = y_get(e, "weight");
		if (!y_absent(w) && !y_int(L, w, "weight", INT32_MIN, INT32_MAX, &wt))
			return 0;
		(*out)[i].weight = (int32_t)wt;
		const struct ynode *pt = y_get(e, "podAffinityTerm");
		if (y_absent(pt)) {
			/* an absent term selects nothing (nil selector) */
			(*out)[i].term.sel.kind = SEL_NOTHING;
			(*out)[i].term.ns_sel.kind = SEL_NOTHING;
			continue;
		}
		if (!load_pa_term(L, pt, "podAffinityTerm", &(*out)[i].term))
			return 0;
	}
	return 1;
}

int load_affinity(struct loader *L, const struct ynode *m, struct affinity *a, bool *has)
{
	memset(a, 0, sizeof(*a));
	*has = false;
	if (y_absent(m))
		return 1;
	if (!y_want(L, m, Y_MAP, "affinity"))
		return 0;
	*has = true;
	const struct ynode *pa = y_get(m, "podAffinity"), *anti = y_get(m, "podAntiAffinity");
	if (!load_node_affinity(L, y_get(m, "nodeAffinity"), &a->node))
		return 0;
	if (!y_absent(pa)) {
		if (!y_want(L, pa, Y_MAP, "podAffinity") ||
		    !load_pa_terms(L, y_get(pa, "requiredDuringSchedulingIgnoredDuringExecution"),
				   "requiredDuringSchedulingIgnoredDuringExecution", &a->aff_req,
				   &a->naff_req) ||
		    !load_wpa_terms(L, y_get(pa, "preferredDuringSchedulingIgnoredDuringExecution"),
				    "preferredDuringSchedulingIgnoredDuringExecution", &a->aff_pref,
				    &a->naff_pref))
			return 0;
	}
	if (!y_absent(anti)) {
		if (!y_want(L, anti, Y_MAP, "podAntiAffinity") ||
		    !load_pa_terms(L, y_get(anti, "requiredDuringSchedulingIgnoredDuringExecution"),
				   "requiredDuringSchedulingIgnoredDuringExecution", &a->anti_req,
				   &a->nanti_req) ||
		    !load_wpa_terms(L, y_get(anti, "preferredDuringSchedulingIgnoredDuringExecution"),
				    "preferredDuringSchedulingIgnoredDuringExecution", &a->anti_pref,
				    &a->nanti_pref))
			return 0;
	}
	return 1;
}

/* ---- topology spread constraints ---- */

static int load_tsc(struct loader *L, const struct ynode *m, const char *what, uint32_t i,
		    struct tsc *t)
{
	const struct ynode *ms = y_get(m, "maxSkew"), *md = y_get(m, "minDomains");
	int64_t v = 0;
	if (!y_want(L, m, Y_MAP, "topologySpreadConstraints' entry"))
		return 0;
	if (!y_absent(ms) && !y_int_at(L, ms, what, i, "maxSkew", INT32_MIN, INT32_MAX, &v))
		return 0;
	t->max_skew = (int32_t)v;
	if (!y_absent(md)) {
		if (!y_int_at(L, md, what, i, "minDomains", INT32_MIN, INT32_MAX, &v))
			return 0;
		t->has_min_domains = true;
		t->min_domains = (int32_t)v;
	}
	return y_str_at(L, y_get(m, "topologyKey"), what, i, "topologyKey", &t->topology_key) &&
	       y_str_at(L, y_get(m, "whenUnsatisfiable"), what, i, "whenUnsatisfiable", &t->when) &&
	       y_str_at(L, y_get(m, "nodeAffinityPolicy"), what, i, "nodeAffinityPolicy",
			&t->node_affinity_policy) &&
	       y_str_at(L, y_get(m, "nodeTaintsPolicy"), what, i, "nodeTaintsPolicy",
			&t->node_taints_policy) &&
	       load_selector_src(L, y_get(m, "labelSelector"), "labelSelector", &t->selector) &&
	       y_syms(L, y_get(m, "matchLabelKeys"), "matchLabelKeys", &t->match_label_keys,
		      &t->nmatch_label_keys);
}

int load_tscs(struct loader *L, const struct ynode *n, const char *what, struct tsc **out,
	      uint32_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, what))
		return 0;
	if (n->n && !(*out = calloc(n->n, sizeof(**out))))
		return load_oom(L);
	for (uint32_t i = 0; i < n->n; i++) {
		*nout = i + 1;
		if (!load_tsc(L, &n->kids[i], what, i, &(*out)[i]))
			return 0;
	}
	return 1;
}

/* ---- nodes ---- */

static int add_ext(struct loader *L, struct resources *r, sym_t name, int64_t v)
{
	for (uint32_t i = 0; i < r->next; i++)
		if (r->ext[i].name == name) {
			r->ext[i].v = v;
			return 1;
		}
	struct ext_res *e = realloc(r->ext, (r->next + 1) * sizeof(*e));
	if (!e)
		return load_oom(L);
	r->ext = e;
	r->ext[r->next].name = name;
	r->ext[r->next++].v = v;
	return 1;
}

/* status.allocatable: cpu in millicores, the rest in units; conventions 12
 * fills missing cpu/memory/pods one by one. */
static int load_alloc(struct loader *L, const struct ynode *m, const char *what, struct resources *r)
{
	bool has_cpu = false, has_mem = false, has_pods = false;
	int ok = 1;
	if (!y_absent(m)) {
		if (!y_want(L, m, Y_MAP, what))
			return 0;
		if (m->n > LOAD_MAX_RESOURCES) {
			load_err_at(L, m, "more than %u resources in '%s' (expected at most %u)",
				    LOAD_MAX_RESOURCES, what, LOAD_MAX_RESOURCES);
			return 0;
		}
		for (uint32_t i = 0; i < m->n; i++) {
			const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
			int64_t milli = 0, units = 0;
			bool neg;
			const char *qt;
			char qbuf[32];
			size_t qlen;
			if (!y_qty_text(L, v, what, k->s, false, qbuf, sizeof(qbuf), &qt, &qlen)) {
				ok = 0;
				continue;
			}
			if (!quantity_parse(qt, qlen, &milli, &units, &neg)) {
				load_err_at(L, v, "invalid quantity '%s' for '%s.%s' (expected a quantity such as 500m, 2 or 16Gi)",
					    v->s, what, k->s);
				ok = 0;
				continue;
			}
			if (neg) {
				/* validation.go ValidateNode, ValidateResourceQuantityValue */
				load_err_at(L, v, "negative quantity '%s' for '%s.%s' (expected 0 or more: the API server refuses a node with a negative resource)",
					    v->s, what, k->s);
				ok = 0;
				continue;
			}
			if (milli % 1000 && resource_is_integer(k->s, k->len)) {
				/* validation.go ValidateResourceQuantityValue, helper.IsIntegerResourceName */
				load_err_at(L, v, "quantity '%s' for '%s.%s' is not a whole number (expected an integer such as 4: "
					    "the API server counts %s in whole units)", v->s, what, k->s, k->s);
				ok = 0;
				continue;
			}
			if (y_key_is(k, "cpu")) {
				r->cpu = milli;
				has_cpu = true;
			} else if (y_key_is(k, "memory")) {
				r->mem = units;
				has_mem = true;
			} else if (y_key_is(k, "pods")) {
				r->pods = units;
				has_pods = true;
			} else if (y_key_is(k, "ephemeral-storage")) {
				r->eph = units;
			} else {
				sym_t name = intern_n(L->in, k->s, k->len);
				if (!name || !add_ext(L, r, name, units))
					return load_oom(L);
			}
		}
	}
	if (!has_cpu)
		r->cpu = 4000;
	if (!has_mem)
		r->mem = 16LL << 30;
	if (!has_pods)
		r->pods = 110;
	load_sort_ext(L->in, r->ext, r->next);
	return ok;
}

/* Object form when `kind` or `metadata` is present; the shorthand keeps
 * metadata and spec fields side by side. */
static bool is_object(const struct ynode *m)
{
	return y_get(m, "metadata") || y_get(m, "kind");
}

int load_node(struct loader *L, const struct ynode *m, const char *what, struct node *out)
{
	memset(out, 0, sizeof(*out));
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	bool obj = is_object(m);
	const struct ynode *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *spec = obj ? y_get(m, "spec") : m;
	const struct ynode *status = y_get(m, "status"), *alloc = NULL, *u;
	const char *alloc_what = "allocatable";

	out->line = m->line;
	out->col = m->col;
	if (obj && !y_absent(meta) && !y_want(L, meta, Y_MAP, "metadata"))
		goto error;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		goto error;
	if (!y_str(L, y_get(meta, "name"), "name", &out->name))
		goto error;
	if (!out->name || !intern_len(L->in, out->name)) {
		load_err_at(L, m, "node has no name (expected '%s')", obj ? "metadata.name" : "name");
		goto error;
	}
	if (!y_labels(L, y_get(meta, "labels"), "labels", &out->labels))
		goto error;
	if (!load_taints(L, y_get(spec, "taints"), obj ? "spec." : "", &out->taints, &out->ntaints))
		goto error;
	u = y_get(spec, "unschedulable");
	if (!y_absent(u) && !y_bool(L, u, "unschedulable", &out->unschedulable))
		goto error;
	if (!y_absent(status) && !y_want(L, status, Y_MAP, "status"))
		goto error;
	if (!y_absent(y_get(status, "allocatable"))) {
		alloc = y_get(status, "allocatable");
		alloc_what = "status.allocatable";
	} else if (!y_absent(y_get(status, "capacity"))) {
		alloc = y_get(status, "capacity");
		alloc_what = "status.capacity";
	} else {
		alloc = y_get(m, "allocatable");
	}
	if (!load_alloc(L, alloc, alloc_what, &out->alloc))
		goto error;
	u = y_get(status, "capacity");
	if (alloc != u && !y_absent(u)) {
		/* validation.go ValidateNode checks capacity as well: a
		 * negative or malformed one refuses the node, read or not;
		 * its cpu and memory are what CA's least-waste and similarity
		 * read (spec/autoscalers.md 1.2) */
		struct resources cap = {0};
		int ok = load_alloc(L, u, "status.capacity", &cap);
		if (ok && !y_absent(y_get(u, "cpu")))
			out->cap_cpu = cap.cpu;
		if (ok && !y_absent(y_get(u, "memory")))
			out->cap_mem = cap.mem;
		resources_fini(&cap);
		if (!ok)
			goto error;
	}
	return 1;
error:
	node_fini(out);
	memset(out, 0, sizeof(*out));
	return 0;
}

/* ---- workloads ---- */

/* A label selector; in the shorthand (!obj) a plain label map is read as
 * matchLabels (conventions 15). */
static int load_shorthand_selector(struct loader *L, const struct ynode *sel, bool obj,
				   struct label_selector_src *out)
{
	memset(out, 0, sizeof(*out));
	if (obj || y_absent(sel) || sel->type != Y_MAP || y_get(sel, "matchLabels") ||
	    y_get(sel, "matchExpressions") || !sel->n)
		return load_selector_src(L, sel, "selector", out);
	out->present = true;
	if (!y_labels(L, sel, "selector", &out->match_labels))
		return 0;
	if (!(out->ml_order = calloc(sel->n, sizeof(sym_t))))
		return load_oom(L);
	for (uint32_t i = 0; i < sel->n; i++)
		if (!(out->ml_order[i] = intern_n(L->in, sel->kids[2 * i].s, sel->kids[2 * i].len)))
			return load_oom(L);
	return 1;
}

static bool kind_is(const char *k, enum workload_kind *out)
{
	static const struct {
		const char *name;
		enum workload_kind kind;
	} kinds[] = {
		{"Service", WL_SERVICE},
		{"ReplicaSet", WL_REPLICASET},
		{"StatefulSet", WL_STATEFULSET},
		{"ReplicationController", WL_RC},
		{"Deployment", WL_DEPLOYMENT},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i].name)) {
			*out = kinds[i].kind;
			return true;
		}
	return false;
}

int load_workload(struct loader *L, const struct ynode *m, const char *what, struct workload *out)
{
	memset(out, 0, sizeof(*out));
	out->sel.kind = SEL_NOTHING;
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	const struct ynode *kn = y_get(m, "kind");
	bool obj = y_get(m, "metadata") != NULL || y_get(m, "spec") != NULL;
	const struct ynode *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *spec = obj ? y_get(m, "spec") : NULL;
	const struct ynode *sel = obj ? y_get(spec, "selector") : y_get(m, "selector");
	if (y_absent(kn) || kn->type != Y_SCALAR || !kind_is(kn->s, &out->kind)) {
		if (kn && kn->type == Y_BAD)
			return 0;
		load_err_at(L, kn && !y_absent(kn) ? kn : m,
			    "unknown workload kind '%s' (expected Service, ReplicaSet, StatefulSet, ReplicationController or Deployment)",
			    kn && kn->s ? kn->s : "");
		return 0;
	}
	if (!y_str(L, y_get(meta, "name"), "name", &out->name) ||
	    !y_str(L, y_get(meta, "namespace"), "namespace", &out->ns))
		goto error;
	if (!out->name && !(out->name = intern_str(L->in, ""))) {
		load_oom(L);
		goto error;
	}
	if (!out->ns || !intern_len(L->in, out->ns))
		out->ns = L->c->sym_default;
	switch (out->kind) {
	case WL_RC:
		/* conventions 15: API defaulting copies the template labels */
		if (obj && y_absent(sel)) {
			const struct ynode *tpl = y_get(spec, "template");
			sel = y_get(y_get(tpl, "metadata"), "labels");
		}
		/* fall through */
	case WL_SERVICE:
		if (y_absent(sel))
			break;
		if (!y_labels(L, sel, "selector", &out->set))
			goto error;
		out->has_selector = true;
		if (!selector_from_set(L->in, &out->set, &out->sel)) {
			load_oom(L);
			goto error;
		}
		break;
	case WL_DEPLOYMENT:
	case WL_REPLICASET:
	case WL_STATEFULSET: {
		if (!load_shorthand_selector(L, sel, obj, &out->sel_src))
			goto error;
		out->has_selector = out->sel_src.present;
		compile_or_nothing(L, &out->sel_src, &out->sel);
		break;
	}
	}
	if (!load_workload_ctl(L, m, obj, out))
		goto error;
	return 1;
error:
	workload_fini(out);
	memset(out, 0, sizeof(*out));
	return 0;
}

/* ---- PriorityClass ---- */

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* scheduling.k8s.io/v1: value, globalDefault and preemptionPolicy are
 * top-level fields. What the API server's validation refuses
 * (pkg/apis/scheduling/validation ValidatePriorityClass, core
 * ValidatePreemptionPolicy) cannot exist, so it is a load error. */
int load_priority_class(struct loader *L, const struct ynode *m, const char *what,
			struct priority_class *out)
{
	const struct ynode *meta, *v, *pp;
	const char *name;
	int64_t x;
	memset(out, 0, sizeof(*out));
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	bool obj = is_object(m);
	meta = obj ? y_get(m, "metadata") : m;
	out->line = m->line;
	out->col = m->col;
	if (obj && !y_absent(meta) && !y_want(L, meta, Y_MAP, "metadata"))
		return 0;
	if (!y_str(L, y_get(meta, "name"), "name", &out->name))
		return 0;
	if (!out->name || !intern_len(L->in, out->name)) {
		load_err_at(L, m, "PriorityClass has no name (expected '%s')",
			    obj ? "metadata.name" : "name");
		return 0;
	}
	name = intern_get(L->in, out->name);
	/* ValidateObjectMeta with NameIsDNSSubdomain */
	char *msg = validate_dns_subdomain_text(name, intern_len(L->in, out->name));
	if (msg) {
		load_err_at(L, y_get(meta, "name"), "PriorityClass '%s': metadata.name: Invalid value: \"%s\": %s", name,
			    name, msg);
		free(msg);
		return 0;
	}
	/* value is an int32 without omitempty (scheduling/v1 types.go): the
	 * decoder leaves a missing or null one 0, which validation accepts */
	v = y_get(m, "value");
	x = 0;
	if (!y_absent(v) && !y_int(L, v, "value", INT32_MIN, INT32_MAX, &x))
		return 0;
	out->value = (int32_t)x;
	pp = y_get(m, "globalDefault");
	if (!y_absent(pp) && !y_bool(L, pp, "globalDefault", &out->global_default))
		return 0;
	pp = y_get(m, "preemptionPolicy");
	if (!y_str(L, pp, "preemptionPolicy", &out->preemption_policy))
		return 0;
	if (out->preemption_policy) {
		const char *t = intern_get(L->in, out->preemption_policy);
		if (strcmp(t, "PreemptLowerPriority") && strcmp(t, "Never")) {
			load_err_at(L, pp, "PriorityClass '%s': preemptionPolicy: Unsupported value: \"%s\" (expected PreemptLowerPriority or Never)",
				    name, t);
			return 0;
		}
	}
	if (has_prefix(name, PRIORITY_SYSTEM_PREFIX)) {
		const struct priority_class *sys = priority_class_system(name);
		if (!sys || sys->value != out->value || out->global_default) {
			load_err_at(L, sys && sys->value != out->value && !y_absent(v) ? v : m,
				    "PriorityClass '%s': metadata.name: Forbidden: priority class names with '" PRIORITY_SYSTEM_PREFIX "' prefix are reserved for system use only (expected system-cluster-critical with value %d or system-node-critical with value %d, neither globalDefault)",
				    name, PRIORITY_SYSTEM_CLUSTER_CRITICAL, PRIORITY_SYSTEM_NODE_CRITICAL);
			return 0;
		}
	} else if (out->value > PRIORITY_HIGHEST_USER_DEFINABLE) {
		load_err_at(L, v, "PriorityClass '%s': value: Forbidden: maximum allowed value of a user defined priority is %d (expected at most %d)",
			    name, PRIORITY_HIGHEST_USER_DEFINABLE, PRIORITY_HIGHEST_USER_DEFINABLE);
		return 0;
	}
	return 1;
}

/* ---- PodDisruptionBudget ---- */

#define INT_OR_PCT "(expected an integer >= 0 or a percentage such as 50%%)"

/* An IntOrString (a PDB's minAvailable, a rolling update's maxSurge): a
 * number read as every integer field is (y_int_value: 010 is 8, 0x10 16,
 * 1.0 and 1e0 are 1), or a string "N%" (a quoted or !!str number is a
 * string, and no percentage). intstr.go IntOrString.UnmarshalJSON (an
 * int32), validation ValidatePodDisruptionBudgetSpec:
 * ValidatePositiveIntOrPercent, IsNotMoreThan100Percent. */
int load_int_or_pct(struct loader *L, const struct ynode *n, const char *path,
		    struct int_or_pct *out)
{
	const char *s;
	char *end;
	long long v;
	memset(out, 0, sizeof(*out));
	if (y_absent(n))
		return 1;
	if (n->type != Y_SCALAR) {
		if (n->type != Y_BAD)
			load_err_at(L, n, "expected an integer or a percentage for '%s', found %s", path,
				    y_type_name(n));
		return 0;
	}
	s = n->s;
	if (n->kind == YS_BOOL) {
		load_err_at(L, n, "%s: expected an integer or a percentage, found the boolean %s", path, s);
		return 0;
	}
	if (n->kind == YS_INT || n->kind == YS_FLOAT) {
		int64_t iv = 0;
		int r = y_int_value(L, n, path, &iv);
		if (!r)
			return 0;
		if (r == 2 || iv > INT32_MAX || iv < INT32_MIN) {
			load_err_at(L, n, "'%s' is out of range for '%s' (expected 0 to %d)", s, path,
				    INT32_MAX);
			return 0;
		}
		if (iv < 0) {
			load_err_at(L, n, "invalid %s '%s': must be greater than or equal to 0 " INT_OR_PCT,
				    path, s);
			return 0;
		}
		out->set = true;
		out->v = (int32_t)iv;
		return 1;
	}
	errno = 0;
	/* apimachinery validation IsValidPercent: ^[0-9]+%$ */
	size_t i = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	if (!i || s[i] != '%' || s[i + 1]) {
		load_err_at(L, n, "invalid %s '%s': must be an integer or percentage (e.g '5%%') " INT_OR_PCT,
			    path, s);
		return 0;
	}
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || v > 100) {
		load_err_at(L, n, "invalid %s '%s': must not be greater than 100%% " INT_OR_PCT, path, s);
		return 0;
	}
	out->set = true;
	out->pct = true;
	out->v = (int32_t)v;
	return 1;
}

int load_pdb(struct loader *L, const struct ynode *m, const char *what, struct pdb *out)
{
	const struct ynode *meta, *spec, *status, *sel, *minv, *maxv, *u;
	int64_t x;
	memset(out, 0, sizeof(*out));
	out->sel.kind = SEL_NOTHING;
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	bool obj = is_object(m);
	meta = obj ? y_get(m, "metadata") : m;
	spec = obj ? y_get(m, "spec") : m;
	status = obj ? y_get(m, "status") : m;
	out->line = m->line;
	out->col = m->col;
	if (obj && ((!y_absent(meta) && !y_want(L, meta, Y_MAP, "metadata")) ||
		    (!y_absent(spec) && !y_want(L, spec, Y_MAP, "spec")) ||
		    (!y_absent(status) && !y_want(L, status, Y_MAP, "status"))))
		goto error;
	if (!y_str(L, y_get(meta, "name"), "name", &out->name) ||
	    !y_str(L, y_get(meta, "namespace"), "namespace", &out->ns))
		goto error;
	if (!out->name || !intern_len(L->in, out->name)) {
		load_err_at(L, m, "PodDisruptionBudget has no name (expected '%s')",
			    obj ? "metadata.name" : "name");
		goto error;
	}
	if (!out->ns || !intern_len(L->in, out->ns))
		out->ns = L->c->sym_default;
	sel = y_get(spec, "selector");
	if (!load_shorthand_selector(L, sel, obj, &out->sel_src))
		goto error;
	out->has_selector = out->sel_src.present;
	/* policy validation ValidatePodDisruptionBudgetSpec: the selector
	 * as any label selector, label values included */
	if (!load_selector_valid(L, sel, obj ? "spec.selector" : "selector", &out->sel_src, "PodDisruptionBudget",
				 intern_get(L->in, out->ns), intern_get(L->in, out->name)))
		goto error;
	if (!selector_compile(L->in, &out->sel_src, &out->sel, NULL, 0)) {
		load_oom(L);
		goto error;
	}
	minv = y_get(spec, "minAvailable");
	maxv = y_get(spec, "maxUnavailable");
	if (!load_int_or_pct(L, minv, obj ? "spec.minAvailable" : "minAvailable",
			     &out->min_available) ||
	    !load_int_or_pct(L, maxv, obj ? "spec.maxUnavailable" : "maxUnavailable",
			     &out->max_unavailable))
		goto error;
	if (out->min_available.set && out->max_unavailable.set) {
		/* policy validation ValidatePodDisruptionBudgetSpec */
		const struct ynode *later = (maxv->line > minv->line ||
					     (maxv->line == minv->line && maxv->col > minv->col)) ? maxv : minv;
		load_err_at(L, later, "PodDisruptionBudget '%s/%s': minAvailable and maxUnavailable cannot be both set (expected one of them)",
			    intern_get(L->in, out->ns), intern_get(L->in, out->name));
		goto error;
	}
	u = y_get(status, "disruptionsAllowed");
	if (!y_absent(u)) {
		if (!y_int(L, u, obj ? "status.disruptionsAllowed" : "disruptionsAllowed", 0, INT32_MAX,
			   &x))
			goto error;
		out->has_allowed = true;
		out->allowed = (int32_t)x;
	}
	return 1;
error:
	pdb_fini(out);
	memset(out, 0, sizeof(*out));
	return 0;
}
