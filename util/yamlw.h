/* yamlw.h - the one YAML writer: `skewer gen` writes both of its formats
 * with it and the view's `w` (load/save.c) writes its scalars with it.
 * It writes straight to a FILE, one pass, no tree; output errors are left
 * to ferror(). Two styles: block (one key a line, as kubectl writes) and
 * flow (`{a: 1, b: [x, y]}` on one line). */
#ifndef SKEWER_YAMLW_H
#define SKEWER_YAMLW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A YAML double-quoted scalar: '"' and '\\' escaped with a backslash,
 * newline and tab as \n and \t, the other C0 controls and DEL as \xNN;
 * the rest (valid UTF-8) copied. No value written this way can change
 * type or break the document. */
void yw_quote(FILE *f, const char *s);

#define YW_DEPTH 24

/* A writer: yw_init, then keys, items and nested collections, each
 * opened one closed (asserted; at most YW_DEPTH deep). */
struct yw {
	FILE *f;
	bool flow;
	int depth;
	struct {
		bool first;
		int ind;       /* block: indent of this container's lines */
	} st[YW_DEPTH];
	bool dash;             /* block: the next line starts a sequence item */
};

/* Starts at indent ind (block) on f. */
void yw_init(struct yw *w, FILE *f, bool flow, int ind);
/* key: value, the value plain (the caller knows it needs no quotes),
 * double-quoted (yw_quote) or an unsigned integer. */
void yw_kv(struct yw *w, const char *k, const char *v);
void yw_kq(struct yw *w, const char *k, const char *v);
void yw_ku(struct yw *w, const char *k, uint64_t v);
/* Opens a mapping under key k, or (k NULL) as the next sequence item. */
void yw_map(struct yw *w, const char *k);
/* Opens a sequence under key k (block: items at the key's indent, as
 * kubectl writes them). */
void yw_seq(struct yw *w, const char *k);
/* A plain scalar sequence item. */
void yw_item(struct yw *w, const char *v);
/* Closes the innermost collection (flow: with close, '}' or ']'). */
void yw_end(struct yw *w, char close);
#define yw_endmap(w) yw_end((w), '}')
#define yw_endseq(w) yw_end((w), ']')
/* Raw block lines at the current indent plus `extra`; each line of text
 * ends in \n. Only between complete block lines. */
void yw_raw(struct yw *w, int extra, const char *text);

#endif
