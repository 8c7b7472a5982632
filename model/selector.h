/* selector.h - Kubernetes label selectors and node selector requirements.
 *
 * Two forms exist. struct label_selector_src is the API object as written
 * (metaV1.LabelSelector: nil or not, matchLabels, matchExpressions with the
 * operator text as given) and is what validation looks at. struct selector
 * is the compiled form the plugins match with (labels.Selector): Nothing,
 * Everything, or an AND of requirements sorted by key. */
#ifndef SKEWER_SELECTOR_H
#define SKEWER_SELECTOR_H

#include <stdbool.h>
#include "intern.h"
#include "labels.h"

enum sel_op {
	SEL_EQ,        /* from matchLabels: key present and value equal */
	SEL_IN,
	SEL_NOTIN,     /* also matches when the key is absent */
	SEL_EXISTS,
	SEL_NOTEXISTS, /* DoesNotExist */
	SEL_GT,        /* node selectors only: integer label > value */
	SEL_LT,
};

struct sel_req {
	sym_t key;
	enum sel_op op;
	sym_t *vals; /* sorted by text for In/NotIn (as apimachinery's String) */
	uint32_t nvals;
};

enum sel_kind {
	SEL_NOTHING,    /* nil labelSelector: matches no label set */
	SEL_EVERYTHING, /* {}: matches every label set ("empty") */
	SEL_REQS,       /* AND of reqs */
};

struct selector {
	enum sel_kind kind;
	struct sel_req *reqs; /* sorted by key text */
	uint32_t n;
};

/* One matchExpressions entry as written. */
struct sel_expr_src {
	sym_t key;
	sym_t op; /* operator text as written, SYM_NONE when missing */
	sym_t *vals;
	uint32_t nvals;
	bool has_vals; /* "values:" key present (even if empty) */
};

struct label_selector_src {
	bool present; /* false: nil */
	struct labels match_labels;
	sym_t *ml_order; /* matchLabels keys in written order (for error paths) */
	struct sel_expr_src *exprs;
	uint32_t nexprs;
};

void selector_fini(struct selector *s);
void selector_src_fini(struct label_selector_src *s);
int selector_src_copy(struct label_selector_src *dst, const struct label_selector_src *src);
int selector_copy(struct selector *dst, const struct selector *src);

/* Compiles src as metav1.LabelSelectorAsSelector does. Returns 1, or 0
 * when src holds an unknown operator or a wrong value count (the error
 * text, apimachinery's wording, goes to err when err != NULL). A nil src
 * gives SEL_NOTHING, {} gives SEL_EVERYTHING. */
int selector_compile(struct intern *in, const struct label_selector_src *src,
		     struct selector *out, char *err, size_t errlen);

/* Builds SEL_REQS from a plain map (labels.SelectorFromSet); an empty map
 * gives SEL_EVERYTHING. */
int selector_from_set(struct intern *in, const struct labels *set, struct selector *out);

/* dst := dst AND every requirement of add. Nothing stays Nothing; AND with
 * Nothing gives Nothing; Everything AND x = x. Keeps key order. */
int selector_and(struct intern *in, struct selector *dst, const struct selector *add);

/* Appends one requirement (copied) and keeps key order. */
int selector_add_req(struct intern *in, struct selector *s, const struct sel_req *r);

bool selector_matches(const struct intern *in, const struct selector *s, const struct labels *l);
bool sel_req_matches(const struct intern *in, const struct sel_req *r, const struct labels *l);
/* A requirement against a single value (matchFields metadata.name). */
bool sel_req_matches_value(const struct intern *in, const struct sel_req *r, sym_t val);

/* "Empty" in the apimachinery sense: no requirements (Everything). */
bool selector_empty(const struct selector *s);

/* Kubernetes string form (labels.Selector.String()): requirements joined
 * by ",": "k=v", "k in (a,b)", "k notin (a)", "k", "!k", "k>1", "k<1".
 * Nothing and Everything both give "". Returns a malloc'd string. */
char *selector_string(const struct intern *in, const struct selector *s);

/* Canonical identity text (distinguishes Nothing from Everything); malloc'd. */
char *selector_key(const struct intern *in, const struct selector *s);

#endif
