/* load_read.c - typed access to tree nodes: each reader checks the shape
 * and reports "expected X for 'KEY', found Y" at the node's position. */
#include "loader.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
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

/* "the number 123", "the boolean yes", "the string \"1\"": what a
 * scalar is as Kubernetes' YAML reader types it. */
static const char *kind_name(const struct ynode *n)
{
	switch (n->kind) {
	case YS_INT:
	case YS_FLOAT:
		return "the number";
	case YS_BOOL:
		return "the boolean";
	default:
		return "the string";
	}
}

/* A value of the wrong type where a string belongs: the API server's
 * strict decoding refuses it ("cannot unmarshal number into Go struct
 * field ... of type string"), so it is an input error. */
static void not_a_string(struct loader *L, const struct ynode *n, const char *path)
{
	if (n->tagged)
		load_err_at(L, n, "%s: expected a string, found %s %s (tagged); write it as \"%s\" without the tag",
			    path, kind_name(n), n->s, n->s);
	else
		load_err_at(L, n, "%s: expected a string, found %s %s; quote it: \"%s\"", path,
			    kind_name(n), n->s, n->s);
}

bool y_is_string(struct loader *L, const struct ynode *n, const char *path)
{
	if (n->type != Y_SCALAR || n->kind == YS_STR || n->kind == YS_MERGE)
		return true;
	not_a_string(L, n, path);
	return false;
}

bool y_string_value(struct loader *L, const struct ynode *n, const char *path, const char *key)
{
	char *full = NULL;
	bool ok;
	if (y_absent(n) || n->type == Y_BAD ||
	    (n->type == Y_SCALAR && (n->kind == YS_STR || n->kind == YS_MERGE)))
		return true;
	if (key && !(full = out_strf("%s.%s", path, key)))
		return load_oom(L);
	if (n->type == Y_SCALAR)
		not_a_string(L, n, full ? full : path);
	else
		load_err_at(L, n, "expected a string for '%s', found %s", full ? full : path,
			    y_type_name(n));
	ok = false;
	free(full);
	return ok;
}

int y_str(struct loader *L, const struct ynode *n, const char *what, sym_t *out)
{
	*out = SYM_NONE;
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SCALAR, what) || !y_is_string(L, n, what))
		return 0;
	*out = intern_n(L->in, n->s, n->len);
	if (*out == SYM_NONE)
		return load_oom(L);
	return 1;
}

/* An entry's field: its path (LIST[IDX].FIELD) is only formatted for an
 * error, so the common case costs nothing. */
static bool typed_ok(const struct ynode *n, bool integer)
{
	if (y_absent(n))
		return !integer;
	if (n->type != Y_SCALAR)
		return false;
	return integer ? n->kind == YS_INT : (n->kind == YS_STR || n->kind == YS_MERGE);
}

int y_str_at(struct loader *L, const struct ynode *n, const char *list, uint32_t idx,
	     const char *field, sym_t *out)
{
	char path[192];
	if (typed_ok(n, false))
		return y_str(L, n, field, out);
	snprintf(path, sizeof(path), "%s[%u].%s", list, idx, field);
	return y_str(L, n, path, out);
}

int y_int_at(struct loader *L, const struct ynode *n, const char *list, uint32_t idx,
	     const char *field, int64_t lo, int64_t hi, int64_t *out)
{
	char path[192];
	if (typed_ok(n, true))
		return y_int(L, n, field, lo, hi, out);
	snprintf(path, sizeof(path), "%s[%u].%s", list, idx, field);
	return y_int(L, n, path, lo, hi, out);
}

int y_int_value(struct loader *L, const struct ynode *n, const char *what, int64_t *out)
{
	bool big = false;
	struct ydec d;
	double f;
	int r;
	switch (n->kind) {
	case YS_INT:
		r = load_yaml_int(n->s, n->len, out, &big);
		return r == 1 ? 1 : 2;
	case YS_FLOAT:
		/* sigs.k8s.io/yaml: a float64, written by encoding/json (1 for
		 * 1.0000000000000001, 1e+21 from 1e21 on): an integer when
		 * that text is one */
		if (!L->json_doc && load_yaml_f64(n->s, n->len, &f) && f == floor(f) &&
		    fabs(f) < 1e21) {
			if (fabs(f) >= 9223372036854775808.0)
				return 2;
			*out = (int64_t)f;
			return 1;
		}
		if (L->json_doc && load_yaml_float(n->s, n->len, &d) && d.integral && d.fits)
			load_err_at(L, n, "%s: expected an integer, found the number %s; write it as %lld",
				    what, n->s, (long long)d.v);
		else
			load_err_at(L, n, "%s: expected an integer, found the number %s", what, n->s);
		return 0;
	case YS_BOOL:
		load_err_at(L, n, "%s: expected an integer, found the boolean %s", what, n->s);
		return 0;
	default: {
		int64_t v;
		/* a quoted number: the fix is to drop the quotes */
		if (n->len && load_yaml_int(n->s, n->len, &v, &big) == 1 && (n->quoted || n->tagged))
			load_err_at(L, n, "%s: expected an integer, found the string \"%s\"; write it without %s: %s",
				    what, n->s, n->tagged ? "the tag" : "quotes", n->s);
		else
			load_err_at(L, n, "%s: expected an integer, found the string \"%s\"", what, n->s);
		return 0;
	}
	}
}

int y_int(struct loader *L, const struct ynode *n, const char *what, int64_t lo, int64_t hi,
	  int64_t *out)
{
	int64_t v = 0;
	int r;
	if (!want_as(L, n, Y_SCALAR, "an integer", what))
		return 0;
	if (!(r = y_int_value(L, n, what, &v)))
		return 0;
	if (r == 2 || v < lo || v > hi) {
		load_err_at(L, n, "'%s' is out of range for '%s' (expected %lld to %lld)", n->s, what,
			    (long long)lo, (long long)hi);
		return 0;
	}
	*out = v;
	return 1;
}

int y_bool(struct loader *L, const struct ynode *n, const char *what, bool *out)
{
	/* resolve.go: y, yes, true, on (any case form it lists) are true */
	static const char *const t[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
					"on", "On", "ON"};
	if (!want_as(L, n, Y_SCALAR, "true or false", what))
		return 0;
	if (n->kind != YS_BOOL) {
		if (n->kind == YS_STR && (n->quoted || n->tagged) &&
		    (!strcmp(n->s, "true") || !strcmp(n->s, "false")))
			load_err_at(L, n, "%s: expected true or false, found the string \"%s\"; write it without %s: %s",
				    what, n->s, n->tagged ? "the tag" : "quotes", n->s);
		else if (n->kind == YS_STR)
			load_err_at(L, n, "%s: expected true or false, found the string \"%s\"", what, n->s);
		else
			load_err_at(L, n, "%s: expected true or false, found %s %s", what, kind_name(n), n->s);
		return 0;
	}
	*out = false;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(n->s, t[i]))
			*out = true;
	return 1;
}

/* A label map: string keys, string values (null gives ""). */
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
			if (v->kind != YS_STR && v->kind != YS_MERGE) {
				char *path = out_strf("%s.%s", what, k->s);
				if (!path)
					return load_oom(L);
				not_a_string(L, v, path);
				free(path);
				ok = 0;
				continue;
			}
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

/* unicode.IsSpace, as strings.TrimSpace uses it: the bytes of the space
 * at the start of s (len bytes), or 0 */
static size_t space_at(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	if (*u == ' ' || (*u >= '\t' && *u <= '\r'))
		return 1;
	if (len >= 2 && u[0] == 0xC2 && (u[1] == 0x85 || u[1] == 0xA0))
		return 2;
	if (len >= 3 && u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80)
		return 3; /* U+1680 */
	if (len >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
	    (u[2] <= 0x8A || u[2] == 0xA8 || u[2] == 0xA9 || u[2] == 0xAF))
		return 3; /* U+2000..U+200A, U+2028, U+2029, U+202F */
	if (len >= 3 && u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F)
		return 3; /* U+205F */
	if (len >= 3 && u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80)
		return 3; /* U+3000 */
	return 0;
}

/* ... and at the end of s */
static size_t space_before(const char *s, size_t len)
{
	for (size_t w = 1; w <= 3 && w <= len; w++)
		if (space_at(s + len - w, w) == w)
			return w;
	return 0;
}

int y_qty_text(struct loader *L, const struct ynode *n, const char *path, const char *key,
	       bool bracket, char *buf, size_t cap, const char **text, size_t *len)
{
	int64_t v;
	bool big;
	const char *open = !key ? "" : bracket ? "[" : ".", *close = key && bracket ? "]" : "";
	*text = n->s;
	*len = n->len;
	if (n->type == Y_BAD)
		return 0;
	if (n->type == Y_NULL) {
		/* Quantity's UnmarshalJSON: null is the zero quantity */
		*text = "0";
		*len = 1;
		return 1;
	}
	if (n->type != Y_SCALAR) {
		load_err_at(L, n, "expected a quantity for '%s%s%s%s', found %s", path, open, key ? key : "",
			    close, y_type_name(n));
		return 0;
	}
	switch (n->kind) {
	case YS_BOOL:
		load_err_at(L, n, "%s%s%s%s: expected a quantity, found the boolean %s; write a quantity such as 500m, 2 or 16Gi",
			    path, open, key ? key : "", close, n->s);
		return 0;
	case YS_INT:
		/* a YAML int reaches Quantity's UnmarshalJSON as a JSON number */
		if (load_yaml_int(n->s, n->len, &v, &big) == 1) {
			snprintf(buf, cap, "%lld", (long long)v);
			*text = buf;
			*len = strlen(buf);
		}
		return 1;
	case YS_FLOAT: {
		/* sigs.k8s.io/yaml: a float64, written by encoding/json (1.0
		 * and 1.0000000000000001 reach ParseQuantity as 1, 1e3 as
		 * 1000); a JSON document's number is handed on as written */
		double f;
		size_t k = 0;
		if (!L->json_doc && load_yaml_f64(n->s, n->len, &f) &&
		    (k = load_json_float(f, buf, cap))) {
			*text = buf;
			*len = k;
		} else if (memchr(n->s, '_', n->len) && n->len < cap) {
			for (size_t i = 0; i < n->len; i++)
				if (n->s[i] != '_')
					buf[k++] = n->s[i];
			buf[k] = '\0';
			*text = buf;
			*len = k;
		}
		return 1;
	}
	default: {
		/* Quantity.UnmarshalJSON: strings.TrimSpace before ParseQuantity */
		const char *a = n->s, *b = n->s + n->len;
		size_t w;
		while (a < b && (w = space_at(a, (size_t)(b - a))))
			a += w;
		while (b > a && (w = space_before(a, (size_t)(b - a))))
			b -= w;
		*text = a;
		*len = (size_t)(b - a);
		return 1;
	}
	}
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
		} else if (k->kind != YS_STR && k->kind != YS_MERGE) {
			char *path = out_strf("%s[%u]", what, i);
			if (path)
				not_a_string(L, k, path);
			free(v);
			free(path);
			return path ? 0 : load_oom(L);
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

/* RFC 3339 as metav1.Time reads it, time.Parse(time.RFC3339, s)
 * (go/src/time/format_rfc3339.go parseRFC3339, then format.go parse):
 * 2024-01-02T03:04:05Z, 'T' and 'Z' upper case, the hour one or two
 * digits, seconds 0-59, the day within its month, an optional fraction
 * after '.' or ',' (dropped: the queue compares whole seconds), an offset
 * +hh:mm up to 24:60 (parse's fallback is that lenient). */
int load_parse_time(const char *s, int64_t *out)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int Y, M, D, h, mi, sec;
	const char *p = s;
	if (!digits(&p, 4, &Y) || *p++ != '-' || !digits(&p, 2, &M) || *p++ != '-' ||
	    !digits(&p, 2, &D) || *p++ != 'T' ||
	    !(digits(&p, 2, &h) || digits(&p, 1, &h)) || *p++ != ':' ||
	    !digits(&p, 2, &mi) || *p++ != ':' || !digits(&p, 2, &sec))
		return 0;
	bool leap = (Y % 4 == 0 && Y % 100 != 0) || Y % 400 == 0;
	if (M < 1 || M > 12 || D < 1 || D > mdays[M - 1] + (M == 2 && leap) || h > 23 || mi > 59 ||
	    sec > 59)
		return 0;
	if ((*p == '.' || *p == ',') && p[1] >= '0' && p[1] <= '9') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	int64_t off = 0;
	if (*p == 'Z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1, oh, om;
		if (!digits(&p, 2, &oh) || *p++ != ':' || !digits(&p, 2, &om) || oh > 24 || om > 60)
			return 0;
		off = sign * (oh * 3600 + om * 60);
	} else {
		return 0;
	}
	if (*p)
		return 0;
	*out = days_from_civil(Y, M, D) * 86400 + h * 3600 + mi * 60 + sec - off;
	return 1;
}

int y_time(struct loader *L, const struct ynode *u, const char *what, int64_t *out)
{
	if (y_absent(u))
		return 1;
	if (!y_want(L, u, Y_SCALAR, what) || !y_string_value(L, u, what, NULL))
		return 0;
	if (!load_parse_time(u->s, out)) {
		load_err_at(L, u, "invalid %s '%s' (expected an RFC 3339 time such as 2024-01-02T03:04:05Z)",
			    what, u->s);
		return 0;
	}
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

