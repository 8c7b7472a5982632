/* yamlw.h - the one YAML writer: `skewer gen` writes both of its formats
 * with it and the view's `w` and `skewer search -o` (load/save.c) write
 * whole scenarios with it. It writes straight to a FILE, one pass, no
 * tree; output errors are left to ferror(). Two styles: block (one key
 * a line) and flow (`{a: 1, b: [x, y]}` on one line); a flow collection
 * may sit in a block one (`labels: {app: web}`), and an empty block
 * collection is written `k: {}` or `k: []`, never as a null `k:`. */
#ifndef SKEWER_YAMLW_H
#define SKEWER_YAMLW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define YW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define YW_PRINTF(a, b)
#endif

/* A YAML double-quoted scalar: '"' and '\\' escaped with a backslash,
 * newline and tab as \n and \t, the other C0 controls and DEL as \xNN;
 * the rest (valid UTF-8) copied. No value written this way can change
 * type or break the document. */
void yw_quote(FILE *f, const char *s);

#define YW_DEPTH 24

/* One open collection of a writer. */
struct yw_level {
	int ind;               /* block: the indent of its lines ("- " of a sequence's) */
	bool flow;
	bool seq;
	bool first;            /* flow: nothing in it yet; block: its key's line is open */
	bool nl;               /* a flow collection in a block one: its close ends the line */
};

/* A writer: yw_init, then keys, values and nested collections, each
 * opened one closed with yw_end (asserted; at most YW_DEPTH deep). */
struct yw {
	FILE *f;
	int depth;
	int seq_indent;        /* block: a sequence's "- " this far right of
	                        * its key; 0 (yw_init), as kubectl writes */
	bool dash;             /* block: the next key starts a sequence item */
	bool keyed;            /* a key was written: next comes its value */
	struct yw_level st[YW_DEPTH];
};

/* Starts at indent ind (block) on f. */
void yw_init(struct yw *w, FILE *f, bool flow, int ind);

/* A key whose value the next call writes (that call's k NULL): plain
 * (the caller knows it needs no quotes) or double-quoted. */
void yw_key(struct yw *w, const char *k);
void yw_qkey(struct yw *w, const char *k);

/* A scalar: under key k, or (k NULL) as the value of the key just
 * written or as the next sequence item. Plain, double-quoted (yw_quote),
 * an unsigned integer, or printf-formatted plain text (signed numbers,
 * true/false: the caller knows it needs no quotes). */
void yw_kv(struct yw *w, const char *k, const char *v);
void yw_kq(struct yw *w, const char *k, const char *v);
void yw_ku(struct yw *w, const char *k, uint64_t v);
void yw_kf(struct yw *w, const char *k, const char *fmt, ...) YW_PRINTF(3, 4);
/* A plain scalar sequence item. */
void yw_item(struct yw *w, const char *v);

/* Opens a mapping or a sequence, k as above: in the writer's style
 * (block sequences under a key only), or (yw_fmap, yw_fseq) in flow
 * style even in a block one. */
void yw_map(struct yw *w, const char *k);
void yw_seq(struct yw *w, const char *k);
void yw_fmap(struct yw *w, const char *k);
void yw_fseq(struct yw *w, const char *k);
/* Closes the innermost collection. */
void yw_end(struct yw *w);

/* Block style, between complete lines, at the current indent: raw lines
 * (plus `extra` spaces; each line of text ends in \n), or a comment
 * line "# TEXT" (printf-formatted; control bytes become spaces). */
void yw_raw(struct yw *w, int extra, const char *text);
void yw_comment(struct yw *w, const char *fmt, ...) YW_PRINTF(2, 3);

#endif
