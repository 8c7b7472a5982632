/* validate.c - pod admission (gate field dropping, the API server's
 * matchLabelKeys merge) and pod / scheduler-profile validation with the
 * API server's field paths and apimachinery field.Error rendering. */
#include "validate.h"
#include "priority.h"
#include "quantity.h"

#include "goquote.h"
#include "ufmt.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------
 * A growing string and an error list.
 */

struct sb {
	char *s;
	size_t n, cap;
	bool oom;
};

static void sb_addn(struct sb *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 128) + n;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

static void sb_printf(struct sb *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_addn(b, tmp, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_addn(b, big, (size_t)n);
	free(big);
}

/* Go's %q (strconv.Quote), as field.Error prints values. */
static void sb_quote(struct sb *b, const char *s, size_t n)
{
	char *q = malloc(GO_QUOTE_MAX(n));
	if (!q) {
		b->oom = true;
		return;
	}
	go_quote(q, GO_QUOTE_MAX(n), s, n);
	sb_add(b, q);
	free(q);
}

struct errlist {
	char **v;
	uint32_t n, cap;
	bool oom;
	struct vlocus cur;   /* what the validators look at now */
	struct vlocus first; /* where the first error lies */
};

static void errs_fini(struct errlist *e)
{
	for (uint32_t i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

/* Takes the built string of b (or records OOM). */
static void errs_push(struct errlist *e, struct sb *b)
{
	if (b->oom || !b->s) {
		free(b->s);
		e->oom = true;
		return;
	}
	if (e->n == e->cap) {
		uint32_t cap = e->cap ? e->cap * 2 : 8;
		char **nv = realloc(e->v, cap * sizeof(*nv));
		if (!nv) {
			free(b->s);
			e->oom = true;
			return;
		}
		e->v = nv;
		e->cap = cap;
	}
	if (!e->n)
		e->first = e->cur;
	e->v[e->n++] = b->s;
}

static void at(struct errlist *e, enum vpart part, uint32_t i, sym_t text)
{
	e->cur.part = part;
	e->cur.i = i;
	e->cur.text = text;
}

/* field.Invalid with a string value: `PATH: Invalid value: "V": DETAIL` */
static void err_invalid_str(struct errlist *e, const char *path, const char *v, size_t vlen, const char *detail)
{
	struct sb b = { 0 };
	sb_add(&b, path);
	sb_add(&b, ": Invalid value: ");
	sb_quote(&b, v, vlen);
	if (detail && *detail) {
		sb_add(&b, ": ");
		sb_add(&b, detail);
	}
	errs_push(e, &b);
}

static void err_invalid_int(struct errlist *e, const char *path, int64_t v, const char *detail)
{
	struct sb b = { 0 };
	sb_printf(&b, "%s: Invalid value: %" PRId64, path, v);
	if (detail && *detail) {
		sb_add(&b, ": ");
		sb_add(&b, detail);
	}
	errs_push(e, &b);
}

/* Required / Forbidden print no value */
static void err_plain(struct errlist *e, const char *path, const char *type, const char *detail)
{
	struct sb b = { 0 };
	sb_add(&b, path);
	sb_add(&b, ": ");
	sb_add(&b, type);
	if (detail && *detail) {
		sb_add(&b, ": ");
		sb_add(&b, detail);
	}
	errs_push(e, &b);
}

static void err_unsupported(struct errlist *e, const char *path, const char *v, const char *const *valid,
			    uint32_t nvalid)
{
	struct sb b = { 0 };
	sb_add(&b, path);
	sb_add(&b, ": Unsupported value: ");
	sb_quote(&b, v, strlen(v));
	if (nvalid) {
		sb_add(&b, ": supported values: ");
		for (uint32_t i = 0; i < nvalid; i++) {
			if (i)
				sb_add(&b, ", ");
			sb_quote(&b, valid[i], strlen(valid[i]));
		}
	}
	errs_push(e, &b);
}

static void err_duplicate(struct errlist *e, const char *path, const char *v)
{
	struct sb b = { 0 };
	sb_add(&b, path);
	sb_add(&b, ": Duplicate value: ");
	sb_quote(&b, v, strlen(v));
	errs_push(e, &b);
}

/* ---------------------------------------------------------------------
 * apimachinery validation messages (api/validate/content, util/validation).
 */

static const char label_key_fmt[] = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
static const char label_key_msg[] =
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
static const char label_value_msg[] =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
static const char dns_label_fmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
static const char dns_label_msg[] =
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
static const char dns_sub_fmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
static const char dns_sub_msg[] =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/* A list of messages about one value (validation.IsXxx results):
 * struct msgs of validate.h. */
void msgs_fini(struct msgs *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		free(m->v[i]);
	m->n = 0;
}

static void msgs_add(struct msgs *m, struct sb *b)
{
	if (b->oom || m->n == 4) {
		free(b->s);
		m->oom = true;
		return;
	}
	m->v[m->n++] = b->s;
}

/* content.RegexError */
static void regex_error(struct sb *b, const char *msg, const char *re, const char *const *ex, int nex)
{
	sb_add(b, msg);
	if (nex == 0) {
		sb_add(b, " (regex used for validation is '");
	} else {
		sb_add(b, " (e.g. ");
		for (int i = 0; i < nex; i++) {
			if (i > 0)
				sb_add(b, " or ");
			sb_add(b, "'");
			sb_add(b, ex[i]);
			sb_add(b, "', ");
		}
		sb_add(b, "regex used for validation is '");
	}
	sb_add(b, re);
	sb_add(b, "')");
}

static bool is_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static bool is_lower_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] */
static bool match_label_key_name(const char *s, size_t n)
{
	if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? */
static bool match_dns_label(const char *s, size_t n)
{
	if (n == 0 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool match_dns_subdomain(const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			if (!match_dns_label(s + start, i - start))
				return false;
			start = i + 1;
		}
	}
	return true;
}

/* util/validation MaxLenError (DNS names of objects) */
static void max_len_chars(struct sb *b, int len)
{
	sb_printf(b, "must be no more than %d characters", len);
}

/* content.MaxLenError (label keys and values) */
static void max_len_bytes(struct sb *b, int len)
{
	sb_printf(b, "must be no more than %d bytes", len);
}

/* IsDNS1123Subdomain; prefix is "" or "prefix part "; bytes selects the
 * content package's length wording. */
static void dns_subdomain_msgs(struct msgs *m, const char *s, size_t n, const char *prefix, bool bytes)
{
	static const char *const ex[] = { "example.com" };
	if (n > 253) {
		struct sb b = { 0 };
		sb_add(&b, prefix);
		if (bytes)
			max_len_bytes(&b, 253);
		else
			max_len_chars(&b, 253);
		msgs_add(m, &b);
	}
	if (!match_dns_subdomain(s, n)) {
		struct sb b = { 0 };
		sb_add(&b, prefix);
		regex_error(&b, dns_sub_msg, dns_sub_fmt, ex, 1);
		msgs_add(m, &b);
	}
}

/* IsDNS1123Label */
static void dns_label_msgs(struct msgs *m, const char *s, size_t n)
{
	static const char *const ex[] = { "my-name", "123-abc" };
	if (n > 63) {
		struct sb b = { 0 };
		max_len_chars(&b, 63);
		msgs_add(m, &b);
	}
	if (!match_dns_label(s, n)) {
		struct sb b = { 0 };
		if (match_dns_subdomain(s, n))
			sb_add(&b, "must not contain dots");
		else
			regex_error(&b, dns_label_msg, dns_label_fmt, ex, 2);
		msgs_add(m, &b);
	}
}

/* content.IsLabelKey and util/validation IsQualifiedName, which differ
 * in the wording of the many-slashes message only */
static void qualified_msgs(struct msgs *m, const char *s, size_t n, const char *what);

static void label_key_msgs(struct msgs *m, const char *s, size_t n)
{
	qualified_msgs(m, s, n, "a valid label key ");
}

void qualified_name_msgs(struct msgs *m, const char *s, size_t n)
{
	qualified_msgs(m, s, n, "a qualified name ");
}

static void qualified_msgs(struct msgs *m, const char *s, size_t n, const char *what)
{
	static const char *const ex[] = { "MyName", "my.name", "123-abc" };
	uint32_t slashes = 0;
	size_t slash = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/') {
			slashes++;
			slash = i;
		}
	const char *name = s;
	size_t nlen = n;
	if (slashes > 1) {
		struct sb b = { 0 };
		sb_add(&b, what);
		regex_error(&b, label_key_msg, label_key_fmt, ex, 3);
		sb_add(&b, " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
		msgs_add(m, &b);
		return;
	}
	if (slashes == 1) {
		name = s + slash + 1;
		nlen = n - slash - 1;
		if (slash == 0) {
			struct sb b = { 0 };
			sb_add(&b, "prefix part must be non-empty");
			msgs_add(m, &b);
		} else {
			dns_subdomain_msgs(m, s, slash, "prefix part ", true);
		}
	}
	if (nlen == 0) {
		struct sb b = { 0 };
		sb_add(&b, "name part must be non-empty");
		msgs_add(m, &b);
	} else if (nlen > 63) {
		struct sb b = { 0 };
		sb_add(&b, "name part ");
		max_len_bytes(&b, 63);
		msgs_add(m, &b);
	}
	if (!match_label_key_name(name, nlen)) {
		struct sb b = { 0 };
		sb_add(&b, "name part ");
		regex_error(&b, label_key_msg, label_key_fmt, ex, 3);
		msgs_add(m, &b);
	}
}

/* content.IsLabelValue */
static void label_value_msgs(struct msgs *m, const char *s, size_t n)
{
	static const char *const ex[] = { "MyValue", "my_value", "12345" };
	static const char value_fmt[] = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
	if (n > 63) {
		struct sb b = { 0 };
		max_len_bytes(&b, 63);
		msgs_add(m, &b);
	}
	if (n > 0 && !match_label_key_name(s, n)) {
		struct sb b = { 0 };
		regex_error(&b, label_value_msg, value_fmt, ex, 3);
		msgs_add(m, &b);
	}
}

/* ---------------------------------------------------------------------
 * Resource names (pkg/apis/core/helper, pkg/apis/core/v1/helper).
 */

static bool name_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

static bool has_prefix(const char *s, size_t n, const char *pre)
{
	size_t k = strlen(pre);
	return n >= k && !memcmp(s, pre, k);
}

static bool has_slash(const char *s, size_t n)
{
	return memchr(s, '/', n) != NULL;
}

/* v1helper IsNativeResource: no domain, or a kubernetes.io one */
static bool is_native(const char *s, size_t n)
{
	if (!has_slash(s, n))
		return true;
	for (size_t i = 0; i + 14 <= n; i++)
		if (!memcmp(s + i, "kubernetes.io/", 14))
			return true;
	return false;
}

bool resource_is_extended(const char *s, size_t n)
{
	if (is_native(s, n) || has_prefix(s, n, "requests."))
		return false;
	/* IsQualifiedName("requests." + name) */
	char buf[320];
	if (n + 9 >= sizeof(buf))
		return false;
	memcpy(buf, "requests.", 9);
	memcpy(buf + 9, s, n);
	struct msgs m = { 0 };
	qualified_name_msgs(&m, buf, n + 9);
	bool ok = m.n == 0 && !m.oom;
	msgs_fini(&m);
	return ok;
}

bool resource_is_integer(const char *s, size_t n)
{
	static const char *const integer[] = { "pods", "resourcequotas", "services", "replicationcontrollers",
					      "secrets", "configmaps", "persistentvolumeclaims",
					      "services.nodeports", "services.loadbalancers" };
	for (size_t i = 0; i < sizeof(integer) / sizeof(*integer); i++)
		if (name_is(s, n, integer[i]))
			return true;
	return resource_is_extended(s, n);
}

bool resource_overcommit_allowed(const char *s, size_t n)
{
	return is_native(s, n) && !has_prefix(s, n, "hugepages-");
}

/* helper.IsStandardResourceName */
static bool is_standard_resource(const char *s, size_t n)
{
	static const char *const standard[] = {
		"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
		"services.loadbalancers"
	};
	for (size_t i = 0; i < sizeof(standard) / sizeof(*standard); i++)
		if (name_is(s, n, standard[i]))
			return true;
	return has_prefix(s, n, "hugepages-") || has_prefix(s, n, "requests.hugepages-");
}

static void msgs_lit(struct msgs *m, const char *text)
{
	struct sb b = { 0 };
	sb_add(&b, text);
	msgs_add(m, &b);
}

/* validation.go validateContainerResourceName (validateResourceName
 * first, which stops at a name that is not a qualified name) */
void container_resource_name_msgs(struct msgs *m, const char *s, size_t n)
{
	qualified_name_msgs(m, s, n);
	if (m->n == 0 && !has_slash(s, n) && !is_standard_resource(s, n))
		msgs_lit(m, "must be a standard resource type or fully qualified");
	if (!has_slash(s, n)) {
		/* helper.IsStandardContainerResourceName */
		if (!name_is(s, n, "cpu") && !name_is(s, n, "memory") && !name_is(s, n, "ephemeral-storage") &&
		    !has_prefix(s, n, "hugepages-"))
			msgs_lit(m, "must be a standard resource for containers");
	} else if (!is_native(s, n) && !resource_is_extended(s, n)) {
		msgs_lit(m, "doesn't follow extended resource name standard");
	}
}

bool hugepage_divisible(const char *s, size_t n, int64_t units)
{
	int64_t milli = 0, size = 0;
	bool neg = false;
	if (!has_prefix(s, n, "hugepages-"))
		return true;
	/* helper.IsHugePageResourceValueDivisible: the page size a positive
	 * whole quantity that divides the value */
	if (!quantity_parse(s + 10, n - 10, &milli, &size, &neg) || neg || size <= 0 || milli % 1000)
		return false;
	return units % size == 0;
}

const char *port_num_msg(int64_t port)
{
	return port >= 1 && port <= 65535 ? NULL : "must be between 1 and 65535, inclusive";
}

/* ---------------------------------------------------------------------
 * Field validators (pkg/apis/core/validation, meta/v1/validation).
 */

struct vctx {
	const struct cluster *c;
	struct errlist *e;
};

static const char *txt(const struct vctx *v, sym_t s)
{
	return intern_get(v->c->in, s);
}

static size_t tlen(const struct vctx *v, sym_t s)
{
	return intern_len(v->c->in, s);
}

/* Invalid(path, value, msg) for each message */
static void push_msgs(struct vctx *v, const char *path, const char *val, size_t vlen, struct msgs *m)
{
	if (m->oom)
		v->e->oom = true;
	for (uint32_t i = 0; i < m->n; i++)
		err_invalid_str(v->e, path, val, vlen, m->v[i]);
	msgs_fini(m);
}

/* metav1validation.ValidateLabelName */
static void validate_label_name(struct vctx *v, const char *path, sym_t key)
{
	struct msgs m = { 0 };
	label_key_msgs(&m, txt(v, key), tlen(v, key));
	push_msgs(v, path, txt(v, key), tlen(v, key), &m);
}

static void validate_label_value(struct vctx *v, const char *path, sym_t val)
{
	struct msgs m = { 0 };
	label_value_msgs(&m, txt(v, val), tlen(v, val));
	push_msgs(v, path, txt(v, val), tlen(v, val), &m);
}

/* Sorts labels by key text (Go map order is random; text order is
 * stable). Label maps are short: insertion sort. */
static void sort_labels_by_text(const struct intern *in, struct label *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct label x = v[i];
		const char *kx = intern_get(in, x.key);
		uint32_t j = i;
		while (j > 0 && strcmp(intern_get(in, v[j - 1].key), kx) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* metav1validation.ValidateLabels */
static void validate_labels(struct vctx *v, const char *path, const struct labels *l, const sym_t *order)
{
	if (!l->n)
		return;
	struct label *sorted = malloc(l->n * sizeof(*sorted));
	if (!sorted) {
		v->e->oom = true;
		return;
	}
	if (order) {
		for (uint32_t i = 0; i < l->n; i++) {
			sorted[i].key = order[i];
			sorted[i].val = labels_get(l, order[i]);
		}
	} else {
		memcpy(sorted, l->v, l->n * sizeof(*sorted));
		sort_labels_by_text(v->c->in, sorted, l->n);
	}
	for (uint32_t i = 0; i < l->n; i++) {
		at(v->e, VP_LABEL_KEY, i, sorted[i].key);
		validate_label_name(v, path, sorted[i].key);
		at(v->e, VP_LABEL_VALUE, i, sorted[i].val);
		validate_label_value(v, path, sorted[i].val);
	}
	free(sorted);
}

static bool op_is(const struct vctx *v, sym_t op, const char *s)
{
	return op != SYM_NONE && strcmp(txt(v, op), s) == 0;
}

/* metav1validation.ValidateLabelSelector (invalid label values rejected) */
static void validate_label_selector(struct vctx *v, const char *path, const struct label_selector_src *s)
{
	char p[512], q[560];
	if (!s->present)
		return;
	path_cat(p, sizeof(p), path, ".matchLabels");
	validate_labels(v, p, &s->match_labels, s->ml_order);
	for (uint32_t i = 0; i < s->nexprs; i++) {
		const struct sel_expr_src *x = &s->exprs[i];
		path_idx(p, sizeof(p), path, ".matchExpressions", i, "");
		at(v->e, VP_EXPR_VALUES, i, SYM_NONE);
		if (op_is(v, x->op, "In") || op_is(v, x->op, "NotIn")) {
			if (x->nvals == 0) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Required value",
					  "must be specified when `operator` is 'In' or 'NotIn'");
			}
		} else if (op_is(v, x->op, "Exists") || op_is(v, x->op, "DoesNotExist")) {
			if (x->nvals > 0) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Forbidden",
					  "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
			}
		} else {
			at(v->e, VP_EXPR_OPERATOR, i, x->op);
			path_cat(q, sizeof(q), p, ".operator");
			err_invalid_str(v->e, q, txt(v, x->op), tlen(v, x->op), "not a valid selector operator");
		}
		at(v->e, VP_EXPR_KEY, i, x->key);
		path_cat(q, sizeof(q), p, ".key");
		validate_label_name(v, q, x->key);
		for (uint32_t k = 0; k < x->nvals; k++) {
			at(v->e, VP_EXPR_VALUE, i, x->vals[k]);
			path_idx(q, sizeof(q), p, ".values", k, "");
			validate_label_value(v, q, x->vals[k]);
		}
	}
}

/* Operator text of a node selector requirement as written. */
static const char *ns_op_text(const struct vctx *v, const sym_t *ops, uint32_t i, enum sel_op op)
{
	if (ops)
		return txt(v, ops[i]);
	switch (op) {
	case SEL_IN: return "In";
	case SEL_NOTIN: return "NotIn";
	case SEL_EXISTS: return "Exists";
	case SEL_NOTEXISTS: return "DoesNotExist";
	case SEL_GT: return "Gt";
	case SEL_LT: return "Lt";
	case SEL_EQ: default: return "";
	}
}

/* validation.go ValidateNodeSelectorTerm */
static void validate_ns_term(struct vctx *v, const char *path, const struct ns_term *t, bool allow_invalid_values)
{
	char p[512], q[560];
	for (uint32_t j = 0; j < t->nexprs; j++) {
		const struct sel_req *r = &t->exprs[j];
		const char *op = ns_op_text(v, t->expr_ops, j, r->op);
		path_idx(p, sizeof(p), path, ".matchExpressions", j, "");
		at(v->e, VP_EXPR_VALUES, j, SYM_NONE);
		if (!strcmp(op, "In") || !strcmp(op, "NotIn")) {
			if (r->nvals == 0) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Required value",
					  "must be specified when `operator` is 'In' or 'NotIn'");
			}
		} else if (!strcmp(op, "Exists") || !strcmp(op, "DoesNotExist")) {
			if (r->nvals > 0) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Forbidden",
					  "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
			}
		} else if (!strcmp(op, "Gt") || !strcmp(op, "Lt")) {
			if (r->nvals != 1) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Required value",
					  "must be specified single value when `operator` is 'Lt' or 'Gt'");
			}
		} else {
			at(v->e, VP_EXPR_OPERATOR, j, t->expr_ops ? t->expr_ops[j] : SYM_NONE);
			path_cat(q, sizeof(q), p, ".operator");
			err_invalid_str(v->e, q, op, strlen(op), "not a valid selector operator");
		}
		at(v->e, VP_EXPR_KEY, j, r->key);
		path_cat(q, sizeof(q), p, ".key");
		validate_label_name(v, q, r->key);
		if (!allow_invalid_values) {
			for (uint32_t k = 0; k < r->nvals; k++) {
				at(v->e, VP_EXPR_VALUE, j, r->vals[k]);
				path_idx(q, sizeof(q), p, ".values", k, "");
				validate_label_value(v, q, r->vals[k]);
			}
		}
	}
	for (uint32_t j = 0; j < t->nfields; j++) {
		const struct sel_req *r = &t->fields[j];
		const char *op = ns_op_text(v, t->field_ops, j, r->op);
		sym_t key = t->field_keys ? t->field_keys[j] : r->key;
		path_idx(p, sizeof(p), path, ".matchFields", j, "");
		at(v->e, VP_FIELD_VALUES, j, SYM_NONE);
		if (!strcmp(op, "In") || !strcmp(op, "NotIn")) {
			if (r->nvals != 1) {
				path_cat(q, sizeof(q), p, ".values");
				err_plain(v->e, q, "Required value",
					  "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
			}
		} else {
			at(v->e, VP_FIELD_OPERATOR, j, t->field_ops ? t->field_ops[j] : SYM_NONE);
			path_cat(q, sizeof(q), p, ".operator");
			err_invalid_str(v->e, q, op, strlen(op), "not a valid selector operator");
		}
		if (strcmp(txt(v, key), "metadata.name") != 0) {
			at(v->e, VP_FIELD_KEY, j, key);
			path_cat(q, sizeof(q), p, ".key");
			err_invalid_str(v->e, q, txt(v, key), tlen(v, key), "not a valid field selector key");
		} else {
			for (uint32_t k = 0; k < r->nvals; k++) {
				struct msgs m = { 0 };
				at(v->e, VP_FIELD_VALUE, j, r->vals[k]);
				path_idx(q, sizeof(q), p, ".values", k, "");
				dns_subdomain_msgs(&m, txt(v, r->vals[k]), tlen(v, r->vals[k]), "", false);
				push_msgs(v, q, txt(v, r->vals[k]), tlen(v, r->vals[k]), &m);
			}
		}
	}
}

/* validation.go validateNodeAffinity */
static void validate_node_affinity(struct vctx *v, const struct node_affinity *na)
{
	char p[512];
	const char *base = "spec.affinity.nodeAffinity";
	if (na->has_required) {
		if (na->nreq == 0) {
			path_cat(p, sizeof(p), base, ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
			err_plain(v->e, p, "Required value", "must have at least one node selector term");
		}
		for (uint32_t i = 0; i < na->nreq; i++) {
			path_idx(p, sizeof(p), base, ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", i, "");
			/* label values checked from 1.33 (#128212) */
			validate_ns_term(v, p, &na->req[i], !v->c->cfg.sw.na_value_check);
		}
	}
	for (uint32_t i = 0; i < na->npref; i++) {
		if (na->pref[i].weight <= 0 || na->pref[i].weight > 100) {
			path_idx(p, sizeof(p), base, ".preferredDuringSchedulingIgnoredDuringExecution", i, ".weight");
			err_invalid_int(v->e, p, na->pref[i].weight, "must be in the range 1-100");
		}
		path_idx(p, sizeof(p), base, ".preferredDuringSchedulingIgnoredDuringExecution", i, ".preference");
		/* invalid label values are allowed in preferred terms */
		validate_ns_term(v, p, &na->pref[i].term, true);
	}
}

/* validation.go validateMatchLabelKeysAndMismatchLabelKeys: the keys a
 * pod affinity term still has after admission (1.31, or 1.29-1.30 with
 * MatchLabelKeysInPodAffinity on; else they were dropped), checked after
 * the merge, so a key the pod carries that the selector also names is
 * reported at the term's path and the key's index ("...[0][0]") */
static void validate_label_keys(struct vctx *v, const char *path, const struct pod_affinity_term *t)
{
	char q[600];
	const struct label_selector_src *s = &t->sel_src;
	for (int mm = 0; mm < 2; mm++) {
		const sym_t *keys = mm ? t->mmlk : t->mlk;
		uint32_t n = mm ? t->nmmlk : t->nmlk;
		const char *field = mm ? ".mismatchLabelKeys" : ".matchLabelKeys";
		if (!n)
			continue;
		path_cat(q, sizeof(q), path, field);
		if (!s->present) {
			err_plain(v->e, q, "Forbidden", "must not be specified when labelSelector is not set");
			continue;
		}
		for (uint32_t j = 0; j < n; j++) {
			path_idx(q, sizeof(q), path, field, j, "");
			validate_label_name(v, q, keys[j]);
		}
	}
	if (s->present) {
		for (uint32_t k = 0; k < s->nexprs; k++) {
			sym_t key = s->exprs[k].key;
			int32_t idx = -1;
			for (uint32_t j = 0; j < t->nmlk; j++)
				if (t->mlk[j] == key)
					idx = (int32_t)j; /* the map keeps the last index */
			bool seen = labels_get(&s->match_labels, key) != SYM_NONE;
			for (uint32_t e = 0; e < k && !seen; e++)
				seen = s->exprs[e].key == key;
			if (idx >= 0 && seen) {
				path_idx(q, sizeof(q), path, "", (uint32_t)idx, "");
				err_invalid_str(v->e, q, txt(v, key), tlen(v, key),
						"exists in both matchLabelKeys and labelSelector");
			}
		}
	}
	for (uint32_t j = 0; j < t->nmlk; j++) {
		for (uint32_t k = 0; k < t->nmmlk; k++) {
			if (t->mmlk[k] != t->mlk[j])
				continue;
			path_idx(q, sizeof(q), path, ".matchLabelKeys", j, "");
			err_invalid_str(v->e, q, txt(v, t->mlk[j]), tlen(v, t->mlk[j]),
					"exists in both matchLabelKeys and mismatchLabelKeys");
			break;
		}
	}
}

/* validation.go validatePodAffinityTerm */
static void validate_pod_affinity_term(struct vctx *v, const char *path, const struct pod_affinity_term *t)
{
	char p[560];
	path_cat(p, sizeof(p), path, ".labelSelector");
	validate_label_selector(v, p, &t->sel_src);
	path_cat(p, sizeof(p), path, ".namespaceSelector");
	validate_label_selector(v, p, &t->ns_sel_src);
	path_cat(p, sizeof(p), path, ".namespace");
	for (uint32_t i = 0; i < t->nnamespaces; i++) {
		struct msgs m = { 0 };
		dns_label_msgs(&m, txt(v, t->namespaces[i]), tlen(v, t->namespaces[i]));
		push_msgs(v, p, txt(v, t->namespaces[i]), tlen(v, t->namespaces[i]), &m);
	}
	validate_label_keys(v, path, t);
	path_cat(p, sizeof(p), path, ".topologyKey");
	if (tlen(v, t->topology_key) == 0)
		err_plain(v->e, p, "Required value", "can not be empty");
	validate_label_name(v, p, t->topology_key);
}

static void validate_pod_affinity_terms(struct vctx *v, const char *base, const struct pod_affinity_term *t,
					uint32_t n, const struct weighted_pod_affinity_term *w, uint32_t nw)
{
	char p[512];
	for (uint32_t i = 0; i < n; i++) {
		path_idx(p, sizeof(p), base, ".requiredDuringSchedulingIgnoredDuringExecution", i, "");
		validate_pod_affinity_term(v, p, &t[i]);
	}
	for (uint32_t i = 0; i < nw; i++) {
		if (w[i].weight <= 0 || w[i].weight > 100) {
			path_idx(p, sizeof(p), base, ".preferredDuringSchedulingIgnoredDuringExecution", i, ".weight");
			err_invalid_int(v->e, p, w[i].weight, "must be in the range 1-100");
		}
		path_idx(p, sizeof(p), base, ".preferredDuringSchedulingIgnoredDuringExecution", i, ".podAffinityTerm");
		validate_pod_affinity_term(v, p, &w[i].term);
	}
}

/* Does the written selector mention key (matchLabels or an expression)? */
static bool selector_src_has_key(const struct label_selector_src *s, sym_t key)
{
	if (labels_get(&s->match_labels, key) != SYM_NONE)
		return true;
	for (uint32_t i = 0; i < s->nexprs; i++)
		if (s->exprs[i].key == key)
			return true;
	return false;
}

static const char *const when_values[] = { "DoNotSchedule", "ScheduleAnyway" };
static const char *const policy_values[] = { "Honor", "Ignore" };

/* validation.go validateTopologySpreadConstraints */
static void validate_tscs(struct vctx *v, const struct pod *pod)
{
	const struct sched_config *cfg = &v->c->cfg;
	char p[512], q[560];
	for (uint32_t i = 0; i < pod->spec.ntscs; i++) {
		const struct tsc *t = &pod->spec.tscs[i];
		const char *when = txt(v, t->when);
		path_idx(p, sizeof(p), "", "spec.topologySpreadConstraints", i, "");
		if (t->max_skew <= 0) {
			path_cat(q, sizeof(q), p, ".maxSkew");
			err_invalid_int(v->e, q, t->max_skew, "must be greater than zero");
		}
		if (tlen(v, t->topology_key) == 0) {
			path_cat(q, sizeof(q), p, ".topologyKey");
			err_plain(v->e, q, "Required value", "can not be empty");
		}
		if (strcmp(when, "DoNotSchedule") && strcmp(when, "ScheduleAnyway")) {
			path_cat(q, sizeof(q), p, ".whenUnsatisfiable");
			err_unsupported(v->e, q, when, when_values, 2);
		}
		/* the pair is reported at the earlier index */
		for (uint32_t j = i + 1; j < pod->spec.ntscs; j++) {
			const struct tsc *o = &pod->spec.tscs[j];
			if (!strcmp(txt(v, o->topology_key), txt(v, t->topology_key)) &&
			    !strcmp(txt(v, o->when), when)) {
				struct sb b = { 0 };
				sb_printf(&b, "{%s, %s}", txt(v, t->topology_key), when);
				path_cat(q, sizeof(q), p, ".{topologyKey, whenUnsatisfiable}");
				if (b.oom)
					v->e->oom = true;
				else
					err_duplicate(v->e, q, b.s ? b.s : "");
				free(b.s);
				break;
			}
		}
		if (t->has_min_domains) {
			path_cat(q, sizeof(q), p, ".minDomains");
			if (t->min_domains <= 0)
				err_invalid_int(v->e, q, t->min_domains, "must be greater than zero");
			if (strcmp(when, "DoNotSchedule")) {
				struct sb b = { 0 };
				sb_printf(&b, "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not %s", when);
				if (b.oom)
					v->e->oom = true;
				else
					err_invalid_int(v->e, q, t->min_domains, b.s);
				free(b.s);
			}
		}
		if (t->node_affinity_policy != SYM_NONE && !op_is(v, t->node_affinity_policy, "Honor") &&
		    !op_is(v, t->node_affinity_policy, "Ignore")) {
			path_cat(q, sizeof(q), p, ".nodeAffinityPolicy");
			err_unsupported(v->e, q, txt(v, t->node_affinity_policy), policy_values, 2);
		}
		if (t->node_taints_policy != SYM_NONE && !op_is(v, t->node_taints_policy, "Honor") &&
		    !op_is(v, t->node_taints_policy, "Ignore")) {
			path_cat(q, sizeof(q), p, ".nodeTaintsPolicy");
			err_unsupported(v->e, q, txt(v, t->node_taints_policy), policy_values, 2);
		}
		if (t->nmatch_label_keys) {
			const struct label_selector_src *s = &t->selector;
			path_cat(q, sizeof(q), p, ".matchLabelKeys");
			if (!s->present) {
				err_plain(v->e, q, "Forbidden", "must not be specified when labelSelector is not set");
			} else if (cfg->gates[GATE_MATCH_LABEL_KEYS_MERGE]) {
				/* validateMatchLabelKeysAndMismatchLabelKeys (after the merge) */
				for (uint32_t j = 0; j < t->nmatch_label_keys; j++) {
					path_idx(q, sizeof(q), p, ".matchLabelKeys", j, "");
					validate_label_name(v, q, t->match_label_keys[j]);
				}
				for (uint32_t k = 0; k < s->nexprs; k++) {
					sym_t key = s->exprs[k].key;
					int32_t idx = -1;
					for (uint32_t j = 0; j < t->nmatch_label_keys; j++)
						if (t->match_label_keys[j] == key)
							idx = (int32_t)j; /* the map keeps the last index */
					bool seen = labels_get(&s->match_labels, key) != SYM_NONE;
					for (uint32_t e = 0; e < k && !seen; e++)
						seen = s->exprs[e].key == key;
					if (idx >= 0 && seen) {
						path_idx(q, sizeof(q), p, "", (uint32_t)idx, "");
						err_invalid_str(v->e, q, txt(v, key), tlen(v, key),
								"exists in both matchLabelKeys and labelSelector");
					}
				}
			} else {
				/* validateMatchLabelKeysInTopologySpread (legacy) */
				for (uint32_t j = 0; j < t->nmatch_label_keys; j++) {
					sym_t key = t->match_label_keys[j];
					path_idx(q, sizeof(q), p, ".matchLabelKeys", j, "");
					validate_label_name(v, q, key);
					if (selector_src_has_key(s, key))
						err_invalid_str(v->e, q, txt(v, key), tlen(v, key),
								"exists in both matchLabelKeys and labelSelector");
				}
			}
		}
		path_cat(q, sizeof(q), p, ".labelSelector");
		validate_label_selector(v, q, &t->selector);
	}
}

/* "Lt" and "Gt" are listed from 1.35 (TaintTolerationComparisonOperators) */
static const char *const tol_ops[] = { "Equal", "Exists", "Lt", "Gt" };
static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };

static const char *effect_text(const struct vctx *v, enum taint_effect e, sym_t text)
{
	if (text != SYM_NONE)
		return txt(v, text);
	return effect_name(e);
}

/* validation.go ValidateTolerations */
/* ValidateTolerations before 1.32: the bad value is the whole internal
 * toleration, as Go's %#v prints it (skewer reads no tolerationSeconds) */
static void err_toleration_struct(struct vctx *v, const char *path, const struct toleration *t, const char *op)
{
	const char *f[4] = { txt(v, t->key), op, txt(v, t->value), effect_text(v, t->effect, t->effect_text) };
	char qs[4][GO_QUOTE_MAX(256)];
	for (int i = 0; i < 4; i++)
		go_quote(qs[i], sizeof(qs[i]), f[i], strlen(f[i]));
	struct sb b = { 0 };
	sb_printf(&b, "%s: Invalid value: core.Toleration{Key:%s, Operator:%s, Value:%s, Effect:%s, "
		  "TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'",
		  path, qs[0], qs[1], qs[2], qs[3]);
	errs_push(v->e, &b);
}

static void validate_tolerations(struct vctx *v, const struct pod *pod)
{
	char p[128], q[160];
	for (uint32_t i = 0; i < pod->spec.ntols; i++) {
		const struct toleration *t = &pod->spec.tols[i];
		const char *op = t->op_text != SYM_NONE ? txt(v, t->op_text)
			       : t->op == TOL_EXISTS ? "Exists" : "";
		path_idx(p, sizeof(p), "", "spec.tolerations", i, "");
		if (tlen(v, t->key) > 0) {
			path_cat(q, sizeof(q), p, ".key");
			validate_label_name(v, q, t->key);
		}
		path_cat(q, sizeof(q), p, ".operator");
		if (tlen(v, t->key) == 0 && strcmp(op, "Exists"))
			err_invalid_str(v->e, q, op, strlen(op),
					"operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
		if (t->has_seconds) {
			const char *eff = effect_text(v, t->effect, t->effect_text);
			if (strcmp(eff, "NoExecute")) {
				char r[160];
				path_cat(r, sizeof(r), p, ".effect");
				err_invalid_str(v->e, r, eff, strlen(eff),
						"effect must be 'NoExecute' when `tolerationSeconds` is set");
			}
		}
		if (!strcmp(op, "Equal") || !*op) {
			struct msgs m = { 0 };
			label_value_msgs(&m, txt(v, t->value), tlen(v, t->value));
			if (m.n) {
				struct sb b = { 0 };
				for (uint32_t k = 0; k < m.n; k++) {
					if (k)
						sb_add(&b, ";");
					sb_add(&b, m.v[k]);
				}
				if (b.oom)
					v->e->oom = true;
				else
					err_invalid_str(v->e, q, txt(v, t->value), tlen(v, t->value), b.s);
				free(b.s);
			}
			msgs_fini(&m);
		} else if (!strcmp(op, "Exists")) {
			if (tlen(v, t->value) > 0 && v->c->cfg.sw.tol_value_quoted)
				err_invalid_str(v->e, q, txt(v, t->value), tlen(v, t->value),
						"value must be empty when `operator` is 'Exists'");
			else if (tlen(v, t->value) > 0)
				err_toleration_struct(v, q, t, op);
		} else {
			err_unsupported(v->e, q, op, tol_ops, v->c->cfg.sw.tol_cmp_known ? 4 : 2);
		}
		const char *eff = effect_text(v, t->effect, t->effect_text);
		if (*eff && strcmp(eff, "NoSchedule") && strcmp(eff, "PreferNoSchedule") &&
		    strcmp(eff, "NoExecute")) {
			path_cat(q, sizeof(q), p, ".effect");
			err_unsupported(v->e, q, eff, effects, 3);
		}
	}
}

/* apimachinery ObjectMeta: name (DNS subdomain), namespace (DNS label), labels */
static void validate_meta(struct vctx *v, const struct pod *pod)
{
	struct msgs m = { 0 };
	if (tlen(v, pod->name) == 0) {
		err_plain(v->e, "metadata.name", "Required value", "name or generateName is required");
	} else {
		dns_subdomain_msgs(&m, txt(v, pod->name), tlen(v, pod->name), "", false);
		push_msgs(v, "metadata.name", txt(v, pod->name), tlen(v, pod->name), &m);
	}
	if (tlen(v, pod->ns) == 0) {
		err_plain(v->e, "metadata.namespace", "Required value", "");
	} else {
		dns_label_msgs(&m, txt(v, pod->ns), tlen(v, pod->ns));
		push_msgs(v, "metadata.namespace", txt(v, pod->ns), tlen(v, pod->ns), &m);
	}
	validate_labels(v, "metadata.labels", &pod->labels, NULL);
}

/* validation.go validateSchedulingGates (qualified names, no duplicate)
 * and ValidatePodCreate's refusal of spec.nodeName with gates */
static void validate_gates(struct vctx *v, const struct pod *pod)
{
	char path[48];
	for (uint32_t i = 0; i < pod->spec.ngates; i++) {
		sym_t g = pod->spec.gates[i];
		struct msgs m = { 0 };
		path_idx(path, sizeof(path), "spec.", "schedulingGates", i, "");
		qualified_name_msgs(&m, txt(v, g), tlen(v, g));
		push_msgs(v, path, txt(v, g), tlen(v, g), &m);
		for (uint32_t j = 0; j < i; j++)
			if (pod->spec.gates[j] == g) {
				err_duplicate(v->e, path, txt(v, g));
				break;
			}
	}
	if (pod->spec.ngates && pod->spec.node_name != SYM_NONE && tlen(v, pod->spec.node_name))
		err_plain(v->e, "spec.nodeName", "Forbidden", "cannot be set until all schedulingGates have been cleared");
}

/* errors.NewInvalid: `Pod "NAME" is invalid: ERR` / `[ERR1, ERR2]`, the
 * list deduplicated as field.ErrorList.ToAggregate does. */
static char *render(const struct vctx *v, const struct pod *pod, struct errlist *e)
{
	struct sb b = { 0 };
	uint32_t uniq = 0;
	for (uint32_t i = 0; i < e->n; i++) {
		bool dup = false;
		for (uint32_t j = 0; j < i && !dup; j++)
			dup = !strcmp(e->v[i], e->v[j]);
		if (!dup)
			uniq++;
	}
	sb_add(&b, "Pod ");
	sb_quote(&b, txt(v, pod->name), tlen(v, pod->name));
	sb_add(&b, " is invalid: ");
	if (uniq > 1)
		sb_add(&b, "[");
	uint32_t k = 0;
	for (uint32_t i = 0; i < e->n; i++) {
		bool dup = false;
		for (uint32_t j = 0; j < i && !dup; j++)
			dup = !strcmp(e->v[i], e->v[j]);
		if (dup)
			continue;
		if (k++)
			sb_add(&b, ", ");
		sb_add(&b, e->v[i]);
	}
	if (uniq > 1)
		sb_add(&b, "]");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

char *validate_pod(const struct cluster *c, const struct pod *p)
{
	assert(c && p);
	struct errlist e = { 0 };
	struct vctx v = { c, &e };
	char *out = NULL;

	validate_meta(&v, p);
	/* ValidatePodSpec order: containers (request quantities), nodeSelector,
	 * affinity, topologySpreadConstraints, nodeName, tolerations */
	for (uint32_t i = 0; i < p->spec.nadmission_errors; i++) {
		struct sb b = { 0 };
		sb_add(&b, p->spec.admission_errors[i]);
		errs_push(&e, &b);
	}
	validate_labels(&v, "spec.nodeSelector", &p->spec.node_selector, NULL);
	if (p->spec.has_affinity) {
		const struct affinity *a = &p->spec.affinity;
		validate_node_affinity(&v, &a->node);
		validate_pod_affinity_terms(&v, "spec.affinity.podAffinity", a->aff_req, a->naff_req, a->aff_pref,
					    a->naff_pref);
		validate_pod_affinity_terms(&v, "spec.affinity.podAntiAffinity", a->anti_req, a->nanti_req,
					    a->anti_pref, a->nanti_pref);
	}
	validate_tscs(&v, p);
	if (p->spec.node_name != SYM_NONE && tlen(&v, p->spec.node_name) > 0) {
		struct msgs m = { 0 };
		dns_subdomain_msgs(&m, txt(&v, p->spec.node_name), tlen(&v, p->spec.node_name), "", false);
		push_msgs(&v, "spec.nodeName", txt(&v, p->spec.node_name), tlen(&v, p->spec.node_name), &m);
	}
	validate_tolerations(&v, p);
	validate_gates(&v, p);
	if (p->spec.preemption_policy != SYM_NONE) {
		/* validation.go ValidatePreemptionPolicy */
		static const char *const pp_values[] = { "Never", "PreemptLowerPriority" };
		const char *pp = txt(&v, p->spec.preemption_policy);
		if (strcmp(pp, pp_values[0]) && strcmp(pp, pp_values[1]))
			err_unsupported(&e, "spec.preemptionPolicy", pp, pp_values, 2);
	}

	if (e.n)
		out = render(&v, p, &e);
	if (e.oom && !out)
		out = strdup("Pod is invalid: out of memory while validating");
	errs_fini(&e);
	return out;
}

/* ---------------------------------------------------------------------
 * Objects other than pods, for the loader: the first error and where it
 * lies.
 */

/* The first error of e (NULL when none), *where from e->first. */
static char *first_error(struct errlist *e, struct vlocus *where)
{
	char *out = NULL;
	if (e->n) {
		out = e->v[0];
		e->v[0] = NULL;
		*where = e->first;
	} else if (e->oom) {
		out = strdup("out of memory while validating");
		where->part = VP_NONE;
	}
	errs_fini(e);
	return out;
}

char *validate_selector_first(const struct cluster *c, const char *path, const struct label_selector_src *s,
			      struct vlocus *where)
{
	assert(c && path && s && where);
	struct errlist e = { 0 };
	struct vctx v = { c, &e };
	memset(where, 0, sizeof(*where));
	validate_label_selector(&v, path, s);
	return first_error(&e, where);
}

char *validate_volume_node_affinity_first(const struct cluster *c, const char *path, bool has_required,
					  const struct ns_term *terms, uint32_t nterms, bool values,
					  struct vlocus *where)
{
	assert(c && path && where);
	struct errlist e = { 0 };
	struct vctx v = { c, &e };
	char p[512];
	memset(where, 0, sizeof(*where));
	/* validation.go validateVolumeNodeAffinity, ValidateNodeSelector */
	if (!has_required) {
		at(&e, VP_REQUIRED, 0, SYM_NONE);
		path_cat(p, sizeof(p), path, ".required");
		err_plain(&e, p, "Required value", "must specify required node constraints");
	} else if (!nterms) {
		at(&e, VP_TERMS, 0, SYM_NONE);
		path_cat(p, sizeof(p), path, ".required.nodeSelectorTerms");
		err_plain(&e, p, "Required value", "must have at least one node selector term");
	}
	for (uint32_t i = 0; i < nterms; i++) {
		e.cur.term = i;
		path_idx(p, sizeof(p), path, ".required.nodeSelectorTerms", i, "");
		validate_ns_term(&v, p, &terms[i], !values);
	}
	return first_error(&e, where);
}

/* The first message of m as a malloc'd string, NULL when none. */
static char *first_msg(struct msgs *m)
{
	char *out = NULL;
	if (m->n) {
		out = m->v[0];
		m->v[0] = NULL;
	} else if (m->oom) {
		out = strdup("out of memory while validating");
	}
	for (uint32_t i = 1; i < m->n; i++)
		free(m->v[i]);
	m->n = 0;
	return out;
}

char *validate_label_key_text(const char *s, size_t n)
{
	struct msgs m = { 0 };
	label_key_msgs(&m, s, n);
	return first_msg(&m);
}

char *validate_dns_subdomain_text(const char *s, size_t n)
{
	struct msgs m = { 0 };
	dns_subdomain_msgs(&m, s, n, "", false);
	return first_msg(&m);
}

char *validate_label_value_text(const char *s, size_t n)
{
	struct msgs m = { 0 };
	label_value_msgs(&m, s, n);
	return first_msg(&m);
}

/* ---------------------------------------------------------------------
 * Admission.
 */

/* pkg/api/pod/util.go dropDisabledFields: gated fields of a new pod */
static void drop_gated_fields(const struct sched_config *cfg, struct tsc *t)
{
	if (!cfg->gates[GATE_MIN_DOMAINS]) {
		t->has_min_domains = false;
		t->min_domains = 0;
	}
	if (!cfg->gates[GATE_NODE_INCLUSION_POLICY]) {
		t->node_affinity_policy = SYM_NONE;
		t->node_taints_policy = SYM_NONE;
	}
	if (!cfg->gates[GATE_MATCH_LABEL_KEYS]) {
		free(t->match_label_keys);
		t->match_label_keys = NULL;
		t->nmatch_label_keys = 0;
	}
}

/* registry/core/pod/strategy.go PrepareForCreate: append key OP [value]
 * to selector s for each of keys the pod carries (In for matchLabelKeys,
 * NotIn for mismatchLabelKeys). */
static int merge_keys(struct cluster *c, const struct pod *p, struct label_selector_src *s, const sym_t *keys,
		      uint32_t nkeys, const char *op)
{
	if (!s->present || !nkeys)
		return 1;
	sym_t in_op = intern_str(c->in, op);
	if (!in_op)
		return 0;
	for (uint32_t j = 0; j < nkeys; j++) {
		sym_t val = labels_get(&p->labels, keys[j]);
		if (val == SYM_NONE)
			continue;
		/* a stored pod (from a dump of a cluster that merges) carries
		 * the merged expression already: admission is not run twice */
		bool merged = false;
		for (uint32_t k = 0; (p->stored || p->spec.node_name != SYM_NONE) && k < s->nexprs && !merged; k++)
			merged = s->exprs[k].key == keys[j] && s->exprs[k].op == in_op && s->exprs[k].nvals == 1 &&
				 s->exprs[k].vals[0] == val;
		if (merged)
			continue;
		struct sel_expr_src *nx = realloc(s->exprs, (s->nexprs + 1) * sizeof(*nx));
		if (!nx)
			return 0;
		s->exprs = nx;
		struct sel_expr_src *x = &nx[s->nexprs];
		memset(x, 0, sizeof(*x));
		x->vals = malloc(sizeof(sym_t));
		if (!x->vals)
			return 0;
		x->key = keys[j];
		x->op = in_op;
		x->vals[0] = val;
		x->nvals = 1;
		x->has_vals = true;
		s->nexprs++;
	}
	return 1;
}

/* pkg/api/pod/util.go dropDisabledMatchLabelKeysFieldInPodAffinity (gate
 * off, or a release without the field), else strategy.go
 * mutatePodAffinity: the keys merged into the term's labelSelector */
static int admit_pa_term(struct cluster *c, const struct pod *p, struct pod_affinity_term *t)
{
	const struct sched_config *cfg = &c->cfg;
	if (!t->nmlk && !t->nmmlk)
		return 1;
	if (!cfg->sw.ipa_mlk_field || !cfg->gates[GATE_MATCH_LABEL_KEYS_AFFINITY]) {
		free(t->mlk);
		free(t->mmlk);
		t->mlk = t->mmlk = NULL;
		t->nmlk = t->nmmlk = 0;
		return 1;
	}
	if (!merge_keys(c, p, &t->sel_src, t->mlk, t->nmlk, "In") ||
	    !merge_keys(c, p, &t->sel_src, t->mmlk, t->nmmlk, "NotIn"))
		return 0;
	selector_fini(&t->sel);
	if (!selector_compile(c->in, &t->sel_src, &t->sel, NULL, 0))
		t->sel.kind = SEL_NOTHING; /* validation rejects such pods first */
	return 1;
}

/* pkg/api/pod/util.go dropDisabledFields: without SidecarContainers an
 * init container's restartPolicy is dropped, so a sidecar counts as a
 * plain init container */
static void admit_sidecars(const struct sched_config *cfg, struct pod *p)
{
	struct pod_spec *s = &p->spec;
	if (!s->has_sidecars || !s->plain || cfg->gates[GATE_SIDECARS])
		return;
	s->req.cpu = s->plain->cpu;
	s->req.mem = s->plain->mem;
	s->req.eph = s->plain->eph;
	s->nz_cpu = s->plain->nz_cpu;
	s->nz_mem = s->plain->nz_mem;
	s->has_sidecars = false;
}

int admit_bound_pod(struct cluster *c, struct pod *p)
{
	assert(c && p);
	admit_sidecars(&c->cfg, p);
	if (!p->spec.has_affinity)
		return 1;
	struct affinity *a = &p->spec.affinity;
	for (uint32_t i = 0; i < a->naff_req; i++)
		if (!admit_pa_term(c, p, &a->aff_req[i]))
			return 0;
	for (uint32_t i = 0; i < a->nanti_req; i++)
		if (!admit_pa_term(c, p, &a->anti_req[i]))
			return 0;
	for (uint32_t i = 0; i < a->naff_pref; i++)
		if (!admit_pa_term(c, p, &a->aff_pref[i].term))
			return 0;
	for (uint32_t i = 0; i < a->nanti_pref; i++)
		if (!admit_pa_term(c, p, &a->anti_pref[i].term))
			return 0;
	return 1;
}

int admit_pod(struct cluster *c, struct pod *p)
{
	assert(c && p);
	const struct sched_config *cfg = &c->cfg;
	for (uint32_t i = 0; i < p->spec.ntscs; i++) {
		struct tsc *t = &p->spec.tscs[i];
		drop_gated_fields(cfg, t);
		if (cfg->gates[GATE_MATCH_LABEL_KEYS] && cfg->gates[GATE_MATCH_LABEL_KEYS_MERGE] &&
		    !merge_keys(c, p, &t->selector, t->match_label_keys, t->nmatch_label_keys, "In"))
			return 0;
	}
	if (!admit_bound_pod(c, p))
		return 0;
	/* one spelling for empty toleration fields: key "" is "any key"
	 * (SYM_NONE), an omitted value is "" */
	for (uint32_t i = 0; i < p->spec.ntols; i++) {
		struct toleration *t = &p->spec.tols[i];
		if (t->key == c->sym_empty)
			t->key = SYM_NONE;
		if (t->value == SYM_NONE)
			t->value = c->sym_empty;
	}
	return 1;
}

/* plugin/pkg/admission/priority/admission.go admitPod: the pod's priority
 * and preemptionPolicy from its PriorityClass (or the globalDefault one),
 * refused when the pod names a class that does not exist or gives values
 * of its own that differ from the class's. */
char *admit_priority(struct cluster *c, struct pod *p)
{
	assert(c && p);
	struct pod_spec *s = &p->spec;
	const struct priority_class *pc = NULL;
	char msg[512];
	msg[0] = '\0';
	if (s->priority_class && intern_len(c->in, s->priority_class)) {
		if (!(pc = priority_class_find(c, s->priority_class)))
			snprintf(msg, sizeof(msg), "no PriorityClass with name %s was found",
				 intern_get(c->in, s->priority_class));
	} else {
		pc = priority_class_default(c);
	}
	/* with no class at all (none named, no globalDefault one) a
	 * scenario's own `priority` stands, where the API server would
	 * refuse any but DefaultPriorityWhenNoDefaultClassExists (0) */
	if (!pc && !msg[0])
		return NULL;
	int32_t prio = pc ? pc->value : 0;
	if (!msg[0] && s->has_priority && s->priority != prio)
		snprintf(msg, sizeof(msg), "the integer value of priority (%d) must not be provided in pod spec; "
			 "priority admission controller computed %d from the given PriorityClass name",
			 s->priority, prio);
	/* scheduling/v1 SetDefaults_PriorityClass: PreemptLowerPriority */
	const char *cls_policy = pc ? (pc->preemption_policy ? intern_get(c->in, pc->preemption_policy)
				       : "PreemptLowerPriority") : NULL;
	if (!msg[0] && cls_policy && s->preemption_policy &&
	    strcmp(intern_get(c->in, s->preemption_policy), cls_policy))
		snprintf(msg, sizeof(msg), "the string value of PreemptionPolicy (%s) must not be provided in pod "
			 "spec; priority admission controller computed %s from the given PriorityClass name",
			 intern_get(c->in, s->preemption_policy), cls_policy);
	if (msg[0]) {
		/* apimachinery errors.NewForbidden */
		size_t n = strlen(msg) + strlen(intern_get(c->in, p->name)) + 32;
		char *out = malloc(n);
		if (out)
			snprintf(out, n, "pods \"%s\" is forbidden: %s", intern_get(c->in, p->name), msg);
		return out ? out : strdup("pods is forbidden: out of memory");
	}
	s->priority = prio;
	s->has_priority = true;
	if (cls_policy)
		s->preemption_policy = intern_str(c->in, cls_policy);
	return NULL;
}

/* ---------------------------------------------------------------------
 * Scheduler configuration (apis/config/validation ValidatePodTopologySpreadArgs).
 */

char *validate_sched_config(const struct cluster *c)
{
	assert(c);
	const struct sched_config *cfg = &c->cfg;
	struct errlist e = { 0 };
	struct vctx v = { c, &e };
	char p[128], q[160];
	char *out = NULL;

	if (cfg->defaulting == DEFAULTING_SYSTEM && cfg->ndefault_tscs > 0)
		err_invalid_str(&e, "scheduler.defaultingType", "System", 6, "when .defaultConstraints are not empty");
	for (uint32_t i = 0; i < cfg->ndefault_tscs; i++) {
		const struct tsc *t = &cfg->default_tscs[i];
		const char *when = txt(&v, t->when);
		path_idx(p, sizeof(p), "", "scheduler.defaultConstraints", i, "");
		if (t->max_skew <= 0) {
			path_cat(q, sizeof(q), p, ".maxSkew");
			err_invalid_int(&e, q, t->max_skew, "not in valid range (0, inf)");
		}
		path_cat(q, sizeof(q), p, ".topologyKey");
		if (tlen(&v, t->topology_key) == 0)
			err_plain(&e, q, "Required value", "can not be empty");
		else
			validate_label_name(&v, q, t->topology_key);
		path_cat(q, sizeof(q), p, ".whenUnsatisfiable");
		if (!*when)
			err_plain(&e, q, "Required value", "can not be empty");
		else if (strcmp(when, "DoNotSchedule") && strcmp(when, "ScheduleAnyway"))
			err_unsupported(&e, q, when, when_values, 2);
		if (t->selector.present) {
			path_cat(q, sizeof(q), p, ".labelSelector");
			err_plain(&e, q, "Forbidden", "constraint must not define a selector, as they deduced for each pod");
		}
		/* duplicate of an EARLIER entry, reported at the later index */
		for (uint32_t j = 0; j < i; j++) {
			const struct tsc *o = &cfg->default_tscs[j];
			if (!strcmp(txt(&v, o->topology_key), txt(&v, t->topology_key)) &&
			    !strcmp(txt(&v, o->when), when)) {
				struct sb b = { 0 };
				sb_printf(&b, "{%s, %s}", txt(&v, t->topology_key), when);
				if (b.oom)
					e.oom = true;
				else
					err_duplicate(&e, p, b.s ? b.s : "");
				free(b.s);
				break;
			}
		}
	}
	if (e.n) {
		struct sb b = { 0 };
		uint32_t k = 0;
		for (uint32_t i = 0; i < e.n; i++) {
			bool dup = false;
			for (uint32_t j = 0; j < i && !dup; j++)
				dup = !strcmp(e.v[i], e.v[j]);
			if (dup)
				continue;
			if (k++)
				sb_add(&b, ", ");
			sb_add(&b, e.v[i]);
		}
		if (k > 1) {
			struct sb w = { 0 };
			sb_add(&w, "[");
			sb_add(&w, b.s ? b.s : "");
			sb_add(&w, "]");
			free(b.s);
			b = w;
		}
		out = b.oom ? NULL : b.s;
		if (b.oom)
			free(b.s);
	}
	if (e.oom && !out)
		out = strdup("scheduler configuration: out of memory while validating");
	errs_fini(&e);
	return out;
}
