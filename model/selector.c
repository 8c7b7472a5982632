/* selector.c - label selectors: compiling the API form, matching, and the
 * Kubernetes string form. Mirrors apimachinery pkg/labels/selector.go and
 * pkg/apis/meta/v1/helpers.go; see selector.h for the contract. */
#include "selector.h"

#include "goquote.h"
#include "ufmt.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Go compares strings bytewise; syms may hold NUL bytes, so compare by
 * length rather than with strcmp. */
static int sym_text_cmp(const struct intern *in, sym_t a, sym_t b)
{
	if (a == b)
		return 0;
	size_t la = intern_len(in, a), lb = intern_len(in, b);
	int c = memcmp(intern_get(in, a), intern_get(in, b), la < lb ? la : lb);
	if (c)
		return c;
	return la < lb ? -1 : la > lb;
}

/* strconv.ParseInt(s, 10, 64): optional sign, at least one digit, nothing
 * else, within int64. */
static bool parse_int64(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return false;
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t v = 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return true;
}

/* ---- lifecycle ---------------------------------------------------------- */

static void req_fini(struct sel_req *r)
{
	free(r->vals);
	memset(r, 0, sizeof(*r));
}

void selector_fini(struct selector *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n; i++)
		req_fini(&s->reqs[i]);
	free(s->reqs);
	memset(s, 0, sizeof(*s));
}

static int req_copy(struct sel_req *dst, const struct sel_req *src)
{
	*dst = *src;
	dst->vals = NULL;
	if (!src->nvals)
		return 1;
	dst->vals = malloc(src->nvals * sizeof(*dst->vals));
	if (!dst->vals) {
		dst->nvals = 0;
		return 0;
	}
	memcpy(dst->vals, src->vals, src->nvals * sizeof(*dst->vals));
	return 1;
}

int selector_copy(struct selector *dst, const struct selector *src)
{
	assert(dst && src);
	memset(dst, 0, sizeof(*dst));
	dst->kind = src->kind;
	if (!src->n)
		return 1;
	dst->reqs = calloc(src->n, sizeof(*dst->reqs));
	if (!dst->reqs)
		goto error;
	for (uint32_t i = 0; i < src->n; i++) {
		if (!req_copy(&dst->reqs[i], &src->reqs[i]))
			goto error;
		dst->n++;
	}
	return 1;
error:
	selector_fini(dst);
	return 0;
}

void selector_src_fini(struct label_selector_src *s)
{
	if (!s)
		return;
	labels_fini(&s->match_labels);
	free(s->ml_order);
	for (uint32_t i = 0; i < s->nexprs; i++)
		free(s->exprs[i].vals);
	free(s->exprs);
	memset(s, 0, sizeof(*s));
}

static int dup_syms(sym_t **dst, const sym_t *src, uint32_t n)
{
	*dst = NULL;
	if (!n || !src)
		return 1;
	*dst = malloc(n * sizeof(**dst));
	if (!*dst)
		return 0;
	memcpy(*dst, src, n * sizeof(**dst));
	return 1;
}

int selector_src_copy(struct label_selector_src *dst, const struct label_selector_src *src)
{
	assert(dst && src);
	memset(dst, 0, sizeof(*dst));
	dst->present = src->present;
	/* ml_order has one entry per matchLabels key */
	if (!labels_copy(&dst->match_labels, &src->match_labels) ||
	    !dup_syms(&dst->ml_order, src->ml_order, src->match_labels.n))
		goto error;
	if (src->nexprs) {
		dst->exprs = calloc(src->nexprs, sizeof(*dst->exprs));
		if (!dst->exprs)
			goto error;
		for (uint32_t i = 0; i < src->nexprs; i++) {
			struct sel_expr_src *d = &dst->exprs[i];
			*d = src->exprs[i];
			if (!dup_syms(&d->vals, src->exprs[i].vals, src->exprs[i].nvals)) {
				d->nvals = 0;
				dst->nexprs = i + 1;
				goto error;
			}
		}
		dst->nexprs = src->nexprs;
	}
	return 1;
error:
	selector_src_fini(dst);
	return 0;
}

/* ---- ordering ----------------------------------------------------------- */

/* qsort has no context argument: sort (text, index) pairs instead. The
 * index breaks ties, which makes the sort stable. */
struct sort_item {
	const char *s;
	size_t len;
	uint32_t idx;
};

static int sort_item_cmp(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Sorts syms by text (Go sort.Strings; duplicates kept). */
static int sort_syms(const struct intern *in, sym_t *v, uint32_t n)
{
	if (n < 2)
		return 1;
	struct sort_item *it = malloc(n * sizeof(*it));
	sym_t *tmp = malloc(n * sizeof(*tmp));
	if (!it || !tmp) {
		free(it);
		free(tmp);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		it[i] = (struct sort_item){ intern_get(in, v[i]), intern_len(in, v[i]), i };
	qsort(it, n, sizeof(*it), sort_item_cmp);
	for (uint32_t i = 0; i < n; i++)
		tmp[i] = v[it[i].idx];
	memcpy(v, tmp, n * sizeof(*v));
	free(it);
	free(tmp);
	return 1;
}

/* Stable sort of requirements by key text. labels.Selector.Add uses
 * sort.Sort(ByKey), which is an insertion sort (stable) for the short
 * lists selectors have; stability keeps matchLabels before expressions of
 * the same key, and expressions in written order. */
static int sort_reqs(const struct intern *in, struct sel_req *r, uint32_t n)
{
	if (n < 2)
		return 1;
	struct sort_item *it = malloc(n * sizeof(*it));
	struct sel_req *tmp = malloc(n * sizeof(*tmp));
	if (!it || !tmp) {
		free(it);
		free(tmp);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		it[i] = (struct sort_item){ intern_get(in, r[i].key), intern_len(in, r[i].key), i };
	qsort(it, n, sizeof(*it), sort_item_cmp);
	for (uint32_t i = 0; i < n; i++)
		tmp[i] = r[it[i].idx];
	memcpy(r, tmp, n * sizeof(*r));
	free(it);
	free(tmp);
	return 1;
}

/* ---- building ----------------------------------------------------------- */



/* field.Invalid(path "values", vals, detail).Error(): the bad value is
 * printed with %#v, which for the []string LabelSelectorAsSelector passes
 * (append([]string(nil), values...)) is []string(nil) when empty. */
static void values_error(const struct intern *in, const struct sel_expr_src *e, const char *detail,
			 char *err, size_t errlen)
{
	if (!err || !errlen)
		return;
	size_t o = 0;
	int w = snprintf(err, errlen, "values: Invalid value: %s", e->nvals ? "[]string{" : "[]string(nil)");
	o = w > 0 ? (size_t)w : 0;
	for (uint32_t i = 0; i < e->nvals && o + 1 < errlen; i++) {
		if (i) {
			w = snprintf(err + o, errlen - o, ", ");
			o += w > 0 ? (size_t)w : 0;
		}
		if (o + 1 >= errlen)
			break;
		go_quote(err + o, errlen - o, intern_get(in, e->vals[i]), intern_len(in, e->vals[i]));
		o += strlen(err + o);
	}
	if (o + 1 < errlen)
		snprintf(err + o, errlen - o, "%s: %s", e->nvals ? "}" : "", detail);
}

static bool sym_is(const struct intern *in, sym_t s, const char *text)
{
	size_t n = strlen(text);
	return s != SYM_NONE && intern_len(in, s) == n && memcmp(intern_get(in, s), text, n) == 0;
}

/* metav1 helpers.go LabelSelectorAsSelector */
int selector_compile(struct intern *in, const struct label_selector_src *src, struct selector *out,
		     char *err, size_t errlen)
{
	assert(in && src && out);
	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!src->present) {
		out->kind = SEL_NOTHING;
		return 1;
	}
	uint32_t total = src->match_labels.n + src->nexprs;
	if (total == 0) {
		out->kind = SEL_EVERYTHING;
		return 1;
	}
	out->kind = SEL_REQS;
	out->reqs = calloc(total, sizeof(*out->reqs));
	if (!out->reqs)
		goto oom;
	for (uint32_t i = 0; i < src->match_labels.n; i++) {
		struct sel_req *r = &out->reqs[out->n++];
		r->key = src->match_labels.v[i].key;
		r->op = SEL_EQ;
		r->vals = malloc(sizeof(*r->vals));
		if (!r->vals)
			goto oom;
		r->vals[0] = src->match_labels.v[i].val;
		r->nvals = 1;
	}
	for (uint32_t i = 0; i < src->nexprs; i++) {
		const struct sel_expr_src *e = &src->exprs[i];
		enum sel_op op;
		if (sym_is(in, e->op, "In"))
			op = SEL_IN;
		else if (sym_is(in, e->op, "NotIn"))
			op = SEL_NOTIN;
		else if (sym_is(in, e->op, "Exists"))
			op = SEL_EXISTS;
		else if (sym_is(in, e->op, "DoesNotExist"))
			op = SEL_NOTEXISTS;
		else {
			if (err && errlen) {
				go_quote(err, errlen, intern_get(in, e->op), intern_len(in, e->op));
				size_t o = strlen(err);
				snprintf(err + o, errlen - o, " is not a valid label selector operator");
			}
			goto invalid;
		}
		/* labels/selector.go NewRequirement: value count per operator */
		if ((op == SEL_IN || op == SEL_NOTIN) && e->nvals == 0) {
			values_error(in, e, "for 'in', 'notin' operators, values set can't be empty", err, errlen);
			goto invalid;
		}
		if ((op == SEL_EXISTS || op == SEL_NOTEXISTS) && e->nvals != 0) {
			values_error(in, e, "values set must be empty for exists and does not exist", err, errlen);
			goto invalid;
		}
		struct sel_req *r = &out->reqs[out->n++];
		r->key = e->key;
		r->op = op;
		if (!dup_syms(&r->vals, e->vals, e->nvals))
			goto oom;
		r->nvals = r->vals ? e->nvals : 0;
		if (!sort_syms(in, r->vals, r->nvals))
			goto oom;
	}
	if (!sort_reqs(in, out->reqs, out->n))
		goto oom;
	return 1;
oom:
	if (err && errlen)
		snprintf(err, errlen, "out of memory");
invalid:
	selector_fini(out);
	return 0;
}

/* labels.SelectorFromSet (SelectorFromValidatedSet) */
int selector_from_set(struct intern *in, const struct labels *set, struct selector *out)
{
	assert(in && set && out);
	memset(out, 0, sizeof(*out));
	if (!set->n) {
		out->kind = SEL_EVERYTHING;
		return 1;
	}
	out->kind = SEL_REQS;
	out->reqs = calloc(set->n, sizeof(*out->reqs));
	if (!out->reqs)
		goto error;
	for (uint32_t i = 0; i < set->n; i++) {
		struct sel_req *r = &out->reqs[out->n++];
		r->key = set->v[i].key;
		r->op = SEL_EQ;
		r->vals = malloc(sizeof(*r->vals));
		if (!r->vals)
			goto error;
		r->vals[0] = set->v[i].val;
		r->nvals = 1;
	}
	if (!sort_reqs(in, out->reqs, out->n))
		goto error;
	return 1;
error:
	selector_fini(out);
	return 0;
}

/* Position after the last requirement whose key sorts <= key: where
 * Selector.Add's (stable) sort puts a new requirement. */
static uint32_t insert_pos(const struct intern *in, const struct selector *s, sym_t key)
{
	uint32_t lo = 0, hi = s->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sym_text_cmp(in, s->reqs[mid].key, key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* labels/selector.go internalSelector.Add */
int selector_add_req(struct intern *in, struct selector *s, const struct sel_req *r)
{
	assert(in && s && r);
	if (s->kind == SEL_NOTHING)
		return 1; /* nothingSelector.Add returns itself */
	struct sel_req copy;
	if (!req_copy(&copy, r))
		return 0;
	if ((copy.op == SEL_IN || copy.op == SEL_NOTIN) && !sort_syms(in, copy.vals, copy.nvals)) {
		req_fini(&copy);
		return 0;
	}
	struct sel_req *nr = realloc(s->reqs, (s->n + 1) * sizeof(*nr));
	if (!nr) {
		req_fini(&copy);
		return 0;
	}
	s->reqs = nr;
	uint32_t at = insert_pos(in, s, copy.key);
	memmove(&s->reqs[at + 1], &s->reqs[at], (s->n - at) * sizeof(*s->reqs));
	s->reqs[at] = copy;
	s->n++;
	s->kind = SEL_REQS;
	return 1;
}

/* plugins/podtopologyspread/common.go mergeLabelSetWithSelector: the
 * requirements of add are Add()ed one by one, each after the equal keys
 * already present. */
int selector_and(struct intern *in, struct selector *dst, const struct selector *add)
{
	assert(in && dst && add);
	if (dst->kind == SEL_NOTHING)
		return 1;
	if (add->kind == SEL_NOTHING) {
		selector_fini(dst);
		dst->kind = SEL_NOTHING;
		return 1;
	}
	if (!add->n)
		return 1;
	/* copy first, so that failure leaves dst untouched */
	struct selector copy;
	if (!selector_copy(&copy, add))
		return 0;
	struct sel_req *m = malloc((dst->n + copy.n) * sizeof(*m));
	if (!m) {
		selector_fini(&copy);
		return 0;
	}
	uint32_t i = 0, k = 0;
	for (uint32_t j = 0; j < copy.n; j++) {
		while (i < dst->n && sym_text_cmp(in, dst->reqs[i].key, copy.reqs[j].key) <= 0)
			m[k++] = dst->reqs[i++];
		m[k++] = copy.reqs[j];
	}
	while (i < dst->n)
		m[k++] = dst->reqs[i++];
	free(copy.reqs); /* the values moved into m */
	free(dst->reqs);
	dst->reqs = m;
	dst->n = k;
	dst->kind = SEL_REQS;
	return 1;
}

/* ---- matching ----------------------------------------------------------- */

static bool has_value(const struct sel_req *r, sym_t v)
{
	for (uint32_t i = 0; i < r->nvals; i++)
		if (r->vals[i] == v)
			return true;
	return false;
}

/* labels/selector.go Requirement.Matches, with the label's value given
 * (SYM_NONE when the key is absent). */
static bool req_matches_val(const struct intern *in, const struct sel_req *r, sym_t val)
{
	switch (r->op) {
	case SEL_EQ:
	case SEL_IN:
		return val != SYM_NONE && has_value(r, val);
	case SEL_NOTIN:
		return val == SYM_NONE || !has_value(r, val);
	case SEL_EXISTS:
		return val != SYM_NONE;
	case SEL_NOTEXISTS:
		return val == SYM_NONE;
	case SEL_GT:
	case SEL_LT: {
		int64_t lv, rv;
		if (val == SYM_NONE || r->nvals != 1)
			return false;
		if (!parse_int64(intern_get(in, val), intern_len(in, val), &lv) ||
		    !parse_int64(intern_get(in, r->vals[0]), intern_len(in, r->vals[0]), &rv))
			return false;
		return r->op == SEL_GT ? lv > rv : lv < rv;
	}
	}
	return false;
}

bool sel_req_matches(const struct intern *in, const struct sel_req *r, const struct labels *l)
{
	assert(in && r && l);
	return req_matches_val(in, r, labels_get(l, r->key));
}

bool sel_req_matches_value(const struct intern *in, const struct sel_req *r, sym_t val)
{
	assert(in && r);
	return req_matches_val(in, r, val);
}

bool selector_matches(const struct intern *in, const struct selector *s, const struct labels *l)
{
	assert(in && s && l);
	if (s->kind == SEL_NOTHING)
		return false;
	for (uint32_t i = 0; i < s->n; i++)
		if (!sel_req_matches(in, &s->reqs[i], l))
			return false;
	return true;
}

bool selector_empty(const struct selector *s)
{
	assert(s);
	return s->kind != SEL_NOTHING && s->n == 0;
}

/* ---- text --------------------------------------------------------------- */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_sym(struct sbuf *b, const struct intern *in, sym_t s)
{
	sb_add(b, intern_get(in, s), intern_len(in, s));
}

static char *sb_take(struct sbuf *b)
{
	sb_add(b, "", 0);
	if (b->oom) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

/* labels/selector.go Requirement.String (values are kept sorted) */
static void req_string(struct sbuf *b, const struct intern *in, const struct sel_req *r)
{
	if (r->op == SEL_NOTEXISTS)
		sb_puts(b, "!");
	sb_sym(b, in, r->key);
	switch (r->op) {
	case SEL_EQ: sb_puts(b, "="); break;
	case SEL_IN: sb_puts(b, " in ("); break;
	case SEL_NOTIN: sb_puts(b, " notin ("); break;
	case SEL_GT: sb_puts(b, ">"); break;
	case SEL_LT: sb_puts(b, "<"); break;
	case SEL_EXISTS:
	case SEL_NOTEXISTS:
		return;
	}
	for (uint32_t i = 0; i < r->nvals; i++) {
		if (i)
			sb_puts(b, ",");
		sb_sym(b, in, r->vals[i]);
	}
	if (r->op == SEL_IN || r->op == SEL_NOTIN)
		sb_puts(b, ")");
}

char *selector_string(const struct intern *in, const struct selector *s)
{
	assert(in && s);
	struct sbuf b = { 0 };
	for (uint32_t i = 0; s->kind != SEL_NOTHING && i < s->n; i++) {
		if (i)
			sb_puts(&b, ",");
		req_string(&b, in, &s->reqs[i]);
	}
	return sb_take(&b);
}

/* Syms as numbers: unambiguous, and equal for equal selectors built the
 * same way (values sorted, requirements in key order). */
char *selector_key(const struct intern *in, const struct selector *s)
{
	assert(in && s);
	struct sbuf b = { 0 };
	char num[32];
	sb_puts(&b, s->kind == SEL_NOTHING ? "N" : s->n ? "R" : "E");
	for (uint32_t i = 0; s->kind != SEL_NOTHING && i < s->n; i++) {
		const struct sel_req *r = &s->reqs[i];
		/* "%u:%d" of the key and the operator (an enum, >= 0) */
		unsigned n = ufmt_u32(num, (uint32_t)r->key);
		num[n++] = ':';
		n += ufmt_u32(num + n, (uint32_t)r->op);
		sb_add(&b, num, n);
		for (uint32_t j = 0; j < r->nvals; j++) {
			num[0] = j ? ',' : '=';
			sb_add(&b, num, 1 + ufmt_u32(num + 1, (uint32_t)r->vals[j]));
		}
		sb_add(&b, ";", 1);
	}
	return sb_take(&b);
}
