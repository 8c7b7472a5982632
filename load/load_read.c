/* load_read.c - typed access to tree nodes: each reader checks the shape
 * and reports "expected X for 'KEY', found Y" at the node's position. */
#include "loader.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool y_absent(const struct ynode *n)
{
	return !n || n->type == Y_NULL;
}

const char *y_type_name(const struct ynode *n)
{
	if (!n)
		return "nothing";
	switch (n->type) {
	case Y_NULL:
		return "null";
	case Y_SCALAR:
		return "a scalar";
	case Y_SEQ:
		return "a sequence";
	case Y_MAP:
		return "a mapping";
	default:
		return "an invalid node";
	}
}

static const char *want_name(enum ytype t)
{
	switch (t) {
	case Y_SCALAR:
		return "a string";
	case Y_SEQ:
		return "a sequence";
	case Y_MAP:
		return "a mapping";
	default:
		return "null";
	}
}

struct ynode *y_get(const struct ynode *map, const char *key)
{
	if (!map || map->type != Y_MAP)
		return NULL;
	size_t len = strlen(key);
	for (uint32_t i = 0; i < map->n; i++) {
		const struct ynode *k = &map->kids[2 * i];
		if (k->len == len && k->s && !memcmp(k->s, key, len))
			return &map->kids[2 * i + 1];
	}
	return NULL;
}

static bool want_as(struct loader *L, const struct ynode *n, enum ytype t, const char *expected,
		    const char *what)
{
	assert(n);
	if (n->type == t)
		return true;
	if (n->type != Y_BAD)
		/* "nodes' entry" carries its own closing quote */
		load_err_at(L, n, "expected %s for '%s%s, found %s", expected, what,
			    strstr(what, "' ") ? "" : "'", y_type_name(n));
	return false;
}

bool y_want(struct loader *L, const struct ynode *n, enum ytype t, const char *what)
{
	return want_as(L, n, t, want_name(t), what);
}

int y_str(struct loader *L, const struct ynode *n, const char *what, sym_t *out)
{
	*out = SYM_NONE;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SCALAR, what))
		return 0;
	*out = intern_n(L->in, n->s, n->len);
	if (*out == SYM_NONE)
		return load_oom(L);
	return 1;
}

int y_int(struct loader *L, const struct ynode *n, const char *what, int64_t lo, int64_t hi,
	  int64_t *out)
{
	if (!want_as(L, n, Y_SCALAR, "an integer", what))
		return 0;
	const char *s = n->s;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	/* JSON writes integral floats as "3.0" sometimes; accept ".0" tails */
	if (end != s && *end == '.') {
		const char *z = end + 1;
		while (*z == '0')
			z++;
		if (*z == '\0')
			end = (char *)z;
	}
	if (end == s || *end != '\0' || errno == ERANGE || s[0] == ' ') {
		load_err_at(L, n, "expected an integer for '%s', found '%s'", what, s);
		return 0;
	}
	if (v < lo || v > hi) {
		load_err_at(L, n, "'%s' is out of range for '%s' (expected %lld to %lld)", s, what,
			    (long long)lo, (long long)hi);
		return 0;
	}
	*out = v;
	return 1;
}

int y_bool(struct loader *L, const struct ynode *n, const char *what, bool *out)
{
	static const char *const t[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
	static const char *const f[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
	if (!want_as(L, n, Y_SCALAR, "true or false", what))
		return 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcmp(n->s, t[i])) {
			*out = true;
			return 1;
		}
		if (!strcmp(n->s, f[i])) {
			*out = false;
			return 1;
		}
	}
	load_err_at(L, n, "expected true or false for '%s', found '%s'", what, n->s);
	return 0;
}

/* A label map: string keys, scalar values (null gives ""). */
int y_labels(struct loader *L, const struct ynode *n, const char *what, struct labels *out)
{
	int ok = 1;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_MAP, what))
		return 0;
	if (!out->cap && n->n) {
		/* sized once: 150,000 pods' label maps, no doubling slack */
		if (!(out->v = malloc((size_t)n->n * sizeof(*out->v))))
			return load_oom(L);
		out->cap = n->n;
	}
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *k = &n->kids[2 * i], *v = &n->kids[2 * i + 1];
		sym_t ks = intern_n(L->in, k->s, k->len), vs;
		if (!ks)
			return load_oom(L);
		if (y_absent(v)) {
			vs = intern_n(L->in, "", 0);
		} else if (v->type == Y_SCALAR) {
			vs = intern_n(L->in, v->s, v->len);
		} else {
			if (v->type != Y_BAD)
				load_err_at(L, v, "expected a string for '%s' value '%s', found %s", what,
					    k->s, y_type_name(v));
			ok = 0;
			continue;
		}
		if (!vs || !labels_set(out, ks, vs))
			return load_oom(L);
	}
	return ok;
}

int y_syms(struct loader *L, const struct ynode *n, const char *what, sym_t **out, uint32_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, what))
		return 0;
	if (n->n == 0)
		return 1;
	sym_t *v = calloc(n->n, sizeof(*v));
	if (!v)
		return load_oom(L);
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *k = &n->kids[i];
		if (y_absent(k)) {
			v[i] = intern_n(L->in, "", 0);
		} else if (!y_want(L, k, Y_SCALAR, what)) {
			free(v);
			return 0;
		} else {
			v[i] = intern_n(L->in, k->s, k->len);
		}
		if (!v[i]) {
			free(v);
			return load_oom(L);
		}
	}
	*out = v;
	*nout = n->n;
	return 1;
}

static const struct intern *sort_in;

static int sym_text_cmp(const void *a, const void *b)
{
	return strcmp(intern_get(sort_in, *(const sym_t *)a), intern_get(sort_in, *(const sym_t *)b));
}

/* qsort has no context argument in C11; the loader is single-threaded. */
void load_sort_syms(const struct intern *in, sym_t *v, uint32_t n)
{
	if (n < 2)
		return;
	sort_in = in;
	qsort(v, n, sizeof(*v), sym_text_cmp);
	sort_in = NULL;
}

char *load_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		char c = (*p)[i];
		if (c < '0' || c > '9')
			return 0;
		v = v * 10 + (c - '0');
	}
	*p += n;
	*out = v;
	return 1;
}

/* days_from_civil (H. Hinnant): days since 1970-01-01 */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* RFC 3339 (metav1.Time): 2024-01-02T03:04:05Z, fractions and offsets
 * allowed; fractions are dropped (the queue compares whole seconds). */
int load_parse_time(const char *s, int64_t *out)
{
	int Y, M, D, h = 0, mi = 0, sec = 0;
	const char *p = s;
	if (!digits(&p, 4, &Y) || *p++ != '-' || !digits(&p, 2, &M) || *p++ != '-' ||
	    !digits(&p, 2, &D))
		return 0;
	if (M < 1 || M > 12 || D < 1 || D > 31)
		return 0;
	int64_t off = 0;
	if (*p) {
		if (*p != 'T' && *p != 't' && *p != ' ')
			return 0;
		p++;
		if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' ||
		    !digits(&p, 2, &sec))
			return 0;
		if (h > 23 || mi > 59 || sec > 60)
			return 0;
		if (*p == '.') {
			p++;
			if (*p < '0' || *p > '9')
				return 0;
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p++ == '-' ? -1 : 1, oh, om;
			if (!digits(&p, 2, &oh) || *p++ != ':' || !digits(&p, 2, &om))
				return 0;
			off = sign * (oh * 3600 + om * 60);
		} else {
			return 0;
		}
		if (*p)
			return 0;
	}
	*out = days_from_civil(Y, M, D) * 86400 + h * 3600 + mi * 60 + sec - off;
	return 1;
}

static int ext_text_cmp(const void *a, const void *b)
{
	return strcmp(intern_get(sort_in, ((const struct ext_res *)a)->name),
		      intern_get(sort_in, ((const struct ext_res *)b)->name));
}

void load_sort_ext(const struct intern *in, struct ext_res *v, uint32_t n)
{
	if (n < 2)
		return;
	sort_in = in;
	qsort(v, n, sizeof(*v), ext_text_cmp);
	sort_in = NULL;
}

char *load_fmt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
