/* yamlw.c - the YAML writer (yamlw.h): quoted scalars, and block or
 * flow collections with their indentation and separators. */
#include "yamlw.h"

#include <assert.h>
#include <inttypes.h>
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
	w->flow = flow;
	w->st[0].first = true;
	w->st[0].ind = ind;
}

/* Starts an element: flow separator, or a block line's indent (and the
 * "- " of a sequence item's first key). */
static void yw_lead(struct yw *w)
{
	if (w->flow) {
		if (!w->st[w->depth].first)
			fputs(", ", w->f);
		w->st[w->depth].first = false;
		return;
	}
	int ind = w->st[w->depth].ind;
	if (w->dash) {
		fprintf(w->f, "%*s- ", ind - 2, "");
		w->dash = false;
	} else {
		fprintf(w->f, "%*s", ind, "");
	}
}

void yw_kv(struct yw *w, const char *k, const char *v)
{
	yw_lead(w);
	fprintf(w->f, w->flow ? "%s: %s" : "%s: %s\n", k, v);
}

void yw_kq(struct yw *w, const char *k, const char *v)
{
	yw_lead(w);
	if (needs_escape(v)) {
		fprintf(w->f, "%s: ", k);
		yw_quote(w->f, v);
		if (!w->flow)
			fputc('\n', w->f);
		return;
	}
	/* the common case in one call: gen writes millions of these */
	fprintf(w->f, w->flow ? "%s: \"%s\"" : "%s: \"%s\"\n", k, v);
}

void yw_ku(struct yw *w, const char *k, uint64_t v)
{
	yw_lead(w);
	fprintf(w->f, w->flow ? "%s: %" PRIu64 : "%s: %" PRIu64 "\n", k, v);
}

static void yw_push(struct yw *w, int ind)
{
	assert(w->depth + 1 < YW_DEPTH);
	w->depth++;
	w->st[w->depth].first = true;
	w->st[w->depth].ind = ind;
}

/* Opens a mapping under key k, or (k NULL) as the next sequence item. */
void yw_map(struct yw *w, const char *k)
{
	int ind = w->st[w->depth].ind;
	if (w->flow) {
		yw_lead(w);
		fprintf(w->f, k ? "%s: {" : "{", k);
		yw_push(w, 0);
		return;
	}
	if (k) {
		yw_lead(w);
		fprintf(w->f, "%s:\n", k);
		yw_push(w, ind + 2);
	} else {
		/* a sequence's items sit at the sequence's indent */
		w->dash = true;
		yw_push(w, ind + 2);
	}
}

/* Opens a sequence under key k (block: items at the key's indent, as
 * kubectl writes them). */
void yw_seq(struct yw *w, const char *k)
{
	int ind = w->st[w->depth].ind;
	yw_lead(w);
	if (w->flow) {
		fprintf(w->f, "%s: [", k);
		yw_push(w, 0);
	} else {
		fprintf(w->f, "%s:\n", k);
		yw_push(w, ind);
	}
}

/* A scalar sequence item. */
void yw_item(struct yw *w, const char *v)
{
	if (w->flow) {
		yw_lead(w);
		fputs(v, w->f);
	} else {
		fprintf(w->f, "%*s- %s\n", w->st[w->depth].ind, "", v);
	}
}

void yw_end(struct yw *w, char close)
{
	assert(w->depth > 0);
	if (w->flow)
		fputc(close, w->f);
	w->depth--;
}

/* Raw block lines at the current indent plus `extra`; each line of text
 * ends in \n. Only between complete block lines. */
void yw_raw(struct yw *w, int extra, const char *text)
{
	assert(!w->flow && !w->dash);
	int ind = w->st[w->depth].ind + extra;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);
		fprintf(w->f, "%*s%.*s", ind, "", (int)n, text);
		text += n;
	}
}
