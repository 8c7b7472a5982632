/* yamlw.c - the YAML writer (yamlw.h): quoted scalars, and block or
 * flow collections with their indentation and separators. */
#include "yamlw.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Whether s holds a byte yw_quote escapes. */
static bool needs_escape(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

void yw_quote(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	fputc('"', f);
	for (; *p; p++) {
		/* runs of bytes that need no escape go out in one write */
		if (*p != '"' && *p != '\\' && *p >= 0x20 && *p != 0x7f)
			continue;
		fwrite(run, 1, (size_t)(p - run), f);
		run = p + 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else
			fprintf(f, "\\x%02x", *p);
	}
	fwrite(run, 1, (size_t)(p - run), f);
	fputc('"', f);
}

void yw_init(struct yw *w, FILE *f, bool flow, int ind)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->st[0].flow = flow;
	w->st[0].first = flow;
	w->st[0].ind = ind;
}

/* Starts an element: the space after its key, a flow separator, or a
 * block line's indent (ending the open key line first) with the "- " of
 * a sequence item. */
static void yw_start(struct yw *w)
{
	struct yw_level *l = &w->st[w->depth];
	if (w->keyed) {
		fputc(' ', w->f);
		w->keyed = false;
	} else if (l->flow) {
		if (!l->first)
			fputs(", ", w->f);
	} else {
		if (l->first)
			fputc('\n', w->f);
		if (w->dash)
			fprintf(w->f, "%*s- ", l->ind - 2, "");
		else
			fprintf(w->f, l->seq ? "%*s- " : "%*s", l->ind, "");
		w->dash = false;
	}
	l->first = false;
}

/* Ends a scalar: a block one ends its line. */
static void yw_stop(struct yw *w)
{
	if (!w->st[w->depth].flow)
		fputc('\n', w->f);
}

void yw_key(struct yw *w, const char *k)
{
	yw_start(w);
	fprintf(w->f, "%s:", k);
	w->keyed = true;
}

void yw_qkey(struct yw *w, const char *k)
{
	yw_start(w);
	yw_quote(w->f, k);
	fputc(':', w->f);
	w->keyed = true;
}

void yw_kv(struct yw *w, const char *k, const char *v)
{
	if (k) {
		/* keys and values in one call: gen writes millions of these */
		yw_start(w);
		fprintf(w->f, w->st[w->depth].flow ? "%s: %s" : "%s: %s\n", k, v);
		return;
	}
	yw_start(w);
	fputs(v, w->f);
	yw_stop(w);
}

void yw_kq(struct yw *w, const char *k, const char *v)
{
	if (k && !needs_escape(v)) {
		yw_start(w);
		fprintf(w->f, w->st[w->depth].flow ? "%s: \"%s\"" : "%s: \"%s\"\n", k, v);
		return;
	}
	if (k)
		yw_key(w, k);
	yw_start(w);
	yw_quote(w->f, v);
	yw_stop(w);
}

void yw_ku(struct yw *w, const char *k, uint64_t v)
{
	yw_kf(w, k, "%" PRIu64, v);
}

void yw_kf(struct yw *w, const char *k, const char *fmt, ...)
{
	va_list ap;
	if (k)
		yw_key(w, k);
	yw_start(w);
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	yw_stop(w);
}

void yw_item(struct yw *w, const char *v)
{
	yw_kv(w, NULL, v);
}

static void yw_push(struct yw *w, int ind, bool flow, bool seq, bool first)
{
	assert(w->depth + 1 < YW_DEPTH);
	bool nl = flow && !w->st[w->depth].flow;
	w->depth++;
	w->st[w->depth].ind = ind;
	w->st[w->depth].flow = flow;
	w->st[w->depth].seq = seq;
	w->st[w->depth].first = first;
	w->st[w->depth].nl = nl;
}

static void yw_open(struct yw *w, const char *k, bool flow, bool seq)
{
	struct yw_level *l = &w->st[w->depth];
	if (k)
		yw_key(w, k);
	if (flow || l->flow) {
		yw_start(w);
		fputc(seq ? '[' : '{', w->f);
		yw_push(w, 0, true, seq, true);
	} else if (w->keyed) {
		/* the key's line ends at the first element */
		w->keyed = false;
		yw_push(w, l->ind + (seq ? w->seq_indent : 2), false, seq, true);
	} else {
		/* a sequence item's mapping: "- " before its first key */
		assert(!seq);
		if (l->first)
			fputc('\n', w->f);
		l->first = false;
		w->dash = true;
		yw_push(w, l->ind + 2, false, false, false);
	}
}

void yw_map(struct yw *w, const char *k)
{
	yw_open(w, k, false, false);
}

void yw_seq(struct yw *w, const char *k)
{
	yw_open(w, k, false, true);
}

void yw_fmap(struct yw *w, const char *k)
{
	yw_open(w, k, true, false);
}

void yw_fseq(struct yw *w, const char *k)
{
	yw_open(w, k, true, true);
}

void yw_end(struct yw *w)
{
	struct yw_level *l = &w->st[w->depth];
	assert(w->depth > 0 && !w->keyed);
	if (l->flow) {
		fputc(l->seq ? ']' : '}', w->f);
		if (l->nl)
			fputc('\n', w->f);
	} else if (l->first) {
		fputs(l->seq ? " []\n" : " {}\n", w->f);
	} else if (w->dash) {
		fprintf(w->f, "%*s- {}\n", l->ind - 2, "");
		w->dash = false;
	}
	w->depth--;
}

/* Ends the open key line before a line of the caller's. */
static struct yw_level *yw_line(struct yw *w)
{
	struct yw_level *l = &w->st[w->depth];
	assert(!l->flow && !w->dash && !w->keyed);
	if (l->first)
		fputc('\n', w->f);
	l->first = false;
	return l;
}

void yw_raw(struct yw *w, int extra, const char *text)
{
	int ind = yw_line(w)->ind + extra;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);
		fprintf(w->f, "%*s%.*s", ind, "", (int)n, text);
		text += n;
	}
}

void yw_comment(struct yw *w, const char *fmt, ...)
{
	char buf[256], *s = buf;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf) && (s = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!s)
		s = buf;   /* out of memory: the comment cut short */
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	fprintf(w->f, "%*s# %s\n", yw_line(w)->ind, "", s);
	if (s != buf)
		free(s);
}
