/* load_tree.c - the libyaml event layer: a one-event lookahead, a small
 * tree built for one object at a time (so a 1 GB List never becomes one
 * tree), and the translation of libyaml errors into load errors. */
#include "loader.h"

#include <assert.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arena ---- */

/* Blocks of 64 KiB hold a few Pod objects' trees; a request above a
 * quarter block (a long scalar, a big mapping's kids) gets a block of its
 * own, freed at the next release. */
#define ARENA_BLOCK ((size_t)64 * 1024)
#define ARENA_BIG (ARENA_BLOCK / 4)
/* standard blocks kept for reuse after a release */
#define ARENA_SPARE 8u

struct load_block {
	struct load_block *next;
	size_t size, used;
	unsigned char data[];
};

static struct load_block *block_new(size_t size)
{
	struct load_block *b = malloc(sizeof(*b) + size);
	if (!b)
		return NULL;
	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

/* 8-aligned memory for the current object's tree, NULL on OOM. */
static void *arena_alloc(struct loader *L, size_t size)
{
	struct load_arena *a = &L->arena;
	struct load_block *b = a->cur, *nb;
	void *p;
	size = (size + 7) & ~(size_t)7;
	if (b && b->size - b->used >= size) {
		p = b->data + b->used;
		b->used += size;
		return p;
	}
	if (size > ARENA_BIG) {
		/* a block of its own, made current (and full) */
		if (!(nb = block_new(size)))
			return NULL;
	} else if (b && b->next && b->next->size == ARENA_BLOCK) {
		nb = b->next; /* a spare block */
		b->next = nb->next;
		nb->used = 0;
	} else if (!(nb = block_new(ARENA_BLOCK))) {
		return NULL;
	}
	if (b) {
		nb->next = b->next;
		b->next = nb;
	} else {
		nb->next = a->head;
		a->head = nb;
	}
	a->cur = nb;
	p = nb->data;
	nb->used = size;
	return p;
}

struct load_mark load_mark(struct loader *L)
{
	struct load_mark m = {L->arena.cur, L->arena.cur ? L->arena.cur->used : 0};
	return m;
}

void load_release(struct loader *L, struct load_mark m)
{
	struct load_arena *a = &L->arena;
	struct load_block **pp, *x;
	uint32_t keep = 0;
	/* an anchored node of this document may be aliased by a later
	 * object: the trees stay until the document ends (anchors are rare,
	 * and never in kubectl's output) */
	if (L->nanchors)
		return;
	if (!m.b) {
		/* the mark came before the first block: all blocks are spare */
		m.b = a->head;
		m.used = 0;
		if (!m.b)
			return;
	}
	a->cur = m.b;
	m.b->used = m.used;
	/* the blocks after the mark's are spare: keep a few standard ones */
	for (pp = &m.b->next; (x = *pp);) {
		if (x->size == ARENA_BLOCK && keep < ARENA_SPARE) {
			keep++;
			pp = &x->next;
		} else {
			*pp = x->next;
			free(x);
		}
	}
}

void load_tree_fini(struct loader *L)
{
	struct load_block *b = L->arena.head, *x;
	while ((x = b)) {
		b = x->next;
		free(x);
	}
	L->arena.head = L->arena.cur = NULL;
	load_anchors_reset(L);
	free(L->anchors);
	free(L->anchor_slots);
	free(L->open_anchors);
	L->anchors = NULL;
	L->anchor_slots = NULL;
	L->open_anchors = NULL;
	L->anchors_cap = L->open_cap = 0;
	free(L->krec);
	free(L->kbuf);
	free(L->frames);
	L->krec = NULL;
	L->kbuf = NULL;
	L->frames = NULL;
	L->nkrec = L->krec_cap = L->nframes = L->frames_cap = 0;
	L->kbuf_len = L->kbuf_cap = 0;
	free(L->stack);
	L->stack = NULL;
	L->nstack = L->stack_cap = 0;
}

void ynode_fini(struct ynode *n)
{
	if (n)
		memset(n, 0, sizeof(*n));
}

/* Line and column (1-based, columns in characters) of a byte offset,
 * found by reading the input again: libyaml's reader errors carry only
 * the offset. Returns 0 when the input cannot be re-read (stdin). */
static int pos_from_offset(const struct loader *L, size_t off, uint32_t *line, uint32_t *col)
{
	uint32_t ln = 1, cl = 1;
	if (L->mem) {
		for (size_t i = 0; i < off && i < L->memlen; i++) {
			unsigned char ch = (unsigned char)L->mem[i];
			if (ch == '\n') {
				ln++;
				cl = 1;
			} else if ((ch & 0xC0) != 0x80) {
				cl++;
			}
		}
	} else if (L->path) {
		FILE *f = fopen(L->path, "rb");
		if (!f)
			return 0;
		for (size_t i = 0; i < off; i++) {
			int ch = fgetc(f);
			if (ch == EOF)
				break;
			if (ch == '\n') {
				ln++;
				cl = 1;
			} else if ((ch & 0xC0) != 0x80) {
				cl++;
			}
		}
		fclose(f);
	} else {
		return 0;
	}
	*line = ln;
	*col = cl;
	return 1;
}

void load_syntax_error(struct loader *L)
{
	yaml_parser_t *p = &L->parser;
	const char *problem = p->problem ? p->problem : "unknown error";
	uint32_t line = (uint32_t)p->problem_mark.line + 1, col = (uint32_t)p->problem_mark.column + 1;

	L->abort_file = true;
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		load_oom(L);
		return;
	case YAML_READER_ERROR:
		/* invalid UTF-8, control characters (binary input) */
		if (!pos_from_offset(L, p->problem_offset, &line, &col)) {
			line = (uint32_t)p->mark.line + 1;
			col = (uint32_t)p->mark.column + 1;
		}
		if (p->problem_value != -1)
			load_err(L, line, col, "%s #%X at byte %zu (expected UTF-8 text)", problem,
				 (unsigned)p->problem_value, p->problem_offset);
		else
			load_err(L, line, col, "%s at byte %zu (expected UTF-8 text)", problem,
				 p->problem_offset);
		return;
	case YAML_SCANNER_ERROR:
		/* libyaml words tabs as "a character that cannot start any token" */
		if (strstr(problem, "tab") ||
		    (p->buffer.pointer && p->buffer.pointer < p->buffer.last &&
		     *p->buffer.pointer == '\t' && p->problem_mark.index == p->mark.index)) {
			load_err(L, (uint32_t)p->mark.line + 1, (uint32_t)p->mark.column + 1,
				 "tab character in indentation (expected spaces)");
			return;
		}
		break;
	default:
		break;
	}
	if (p->context)
		load_err(L, line, col, "%s (%s, which started at line %u column %u)", problem,
			 p->context, (unsigned)p->context_mark.line + 1,
			 (unsigned)p->context_mark.column + 1);
	else
		load_err(L, line, col, "%s (expected valid YAML)", problem);
}

/* The event at hand opens a collection deeper than the limit: reported,
 * and the file ends there. The limit is enforced for built and skipped
 * nodes alike, and ends the file: libyaml's scanner costs time quadratic
 * in the flow nesting depth, so skipping over 100,000 '[' would hang for
 * seconds where stopping at the limit is immediate. */
static void too_deep(struct loader *L)
{
	load_err(L, (uint32_t)L->ev.start_mark.line + 1, (uint32_t)L->ev.start_mark.column + 1,
		 "nesting deeper than %u levels (expected at most %u)", L->max_depth, L->max_depth);
	yaml_event_delete(&L->ev);
	L->have_ev = false;
	L->abort_file = true;
}

/* load_peek without an event at hand: parses the next one */
static yaml_event_t *parse_next(struct loader *L)
{
	if (L->abort_file || L->oom)
		return NULL;
	if (!yaml_parser_parse(&L->parser, &L->ev) &&
	    (!load_json_continue(L) || !yaml_parser_parse(&L->parser, &L->ev))) {
		load_syntax_error(L);
		return NULL;
	}
	load_count_event(L);
	L->have_ev = true;
	if ((L->ev.type == YAML_SEQUENCE_START_EVENT || L->ev.type == YAML_MAPPING_START_EVENT) &&
	    L->level >= L->max_depth) {
		too_deep(L);
		return NULL;
	}
	return &L->ev;
}

/* peek and take are inlined in this file's loops, which see every event
 * of a 1 GB dump; load_peek and load_take serve the other files. */
static inline yaml_event_t *peek(struct loader *L)
{
	return L->have_ev ? &L->ev : parse_next(L);
}

static inline void take(struct loader *L)
{
	assert(L->have_ev);
	if (L->ev.type == YAML_SEQUENCE_START_EVENT || L->ev.type == YAML_MAPPING_START_EVENT)
		L->level++;
	else if ((L->ev.type == YAML_SEQUENCE_END_EVENT || L->ev.type == YAML_MAPPING_END_EVENT) &&
		 L->level)
		L->level--;
	yaml_event_delete(&L->ev);
	L->have_ev = false;
}

yaml_event_t *load_peek(struct loader *L)
{
	return peek(L);
}

void load_take(struct loader *L)
{
	take(L);
}

/* ---- keys of skipped mappings ---- */

struct load_keyrec {
	uint64_t hash;
	size_t off;
	uint32_t len, line, col;
};

struct load_skipframe {
	bool map;
	bool want_key;         /* map: the next item is a key */
	bool merge_val;        /* map: the value of a `<<` is next */
	struct load_keys_mark keys;
};

struct load_keys_mark load_keys_mark(const struct loader *L)
{
	struct load_keys_mark m = {L->nkrec, L->kbuf_len};
	return m;
}

/* A word at a time, the last word overlapping: a dump's skipped
 * mappings hold most of its keys. */
static inline uint64_t key_hash(const char *s, size_t len)
{
	uint64_t h = (uint64_t)len * 0x9E3779B97F4A7C15ull, w = 0;
	uint32_t a, b;
	if (len >= 8) {
		for (; len > 8; s += 8, len -= 8) {
			memcpy(&w, s, 8);
			h = (h ^ w) * 0xff51afd7ed558ccdull;
			h ^= h >> 32;
		}
		memcpy(&w, s + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + len - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (len) {
		w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[len / 2] << 8 |
		    (unsigned char)s[len - 1];
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static int keys_grow(struct loader *L, size_t len)
{
	if (L->nkrec == L->krec_cap) {
		uint32_t ncap = L->krec_cap ? L->krec_cap * 2 : 256;
		struct load_keyrec *v = realloc(L->krec, (size_t)ncap * sizeof(*v));
		if (!v)
			return load_oom(L);
		L->krec = v;
		L->krec_cap = ncap;
	}
	if (L->kbuf_len + len + 1 > L->kbuf_cap) {
		size_t ncap = L->kbuf_cap ? L->kbuf_cap : 4096;
		while (ncap < L->kbuf_len + len + 1)
			ncap *= 2;
		char *b = realloc(L->kbuf, ncap);
		if (!b)
			return load_oom(L);
		L->kbuf = b;
		L->kbuf_cap = ncap;
	}
	return 1;
}

/* A key of at most 8 bytes is kept in its record (its bytes are its
 * hash, exactly); a longer one is copied to L->kbuf. */
static inline int keys_add(struct loader *L, const char *s, size_t len, uint32_t line, uint32_t col)
{
	struct load_keyrec *r;
	if (L->nkrec == L->krec_cap || (len > 8 && L->kbuf_len + len + 1 > L->kbuf_cap))
		if (!keys_grow(L, len))
			return 0;
	r = &L->krec[L->nkrec++];
	r->len = (uint32_t)len;
	r->line = line;
	r->col = col;
	if (len <= 8) {
		r->hash = 0;
		memcpy(&r->hash, s, len);
		r->off = SIZE_MAX;
		return 1;
	}
	memcpy(L->kbuf + L->kbuf_len, s, len);
	L->kbuf[L->kbuf_len + len] = '\0';
	r->hash = key_hash(s, len);
	r->off = L->kbuf_len;
	L->kbuf_len += len + 1;
	return 1;
}

int load_keys_add(struct loader *L, const char *s, size_t len, uint32_t line, uint32_t col)
{
	return keys_add(L, s, len, line, col);
}

static int keyrec_cmp(const void *a, const void *b)
{
	const struct load_keyrec *x = a, *y = b;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->col < y->col ? -1 : (x->col > y->col);
}

static bool keyrec_same(const struct loader *L, const struct load_keyrec *a,
			const struct load_keyrec *b)
{
	return a->hash == b->hash && a->len == b->len &&
	       (a->len <= 8 || !memcmp(L->kbuf + a->off, L->kbuf + b->off, a->len));
}

static void keyrec_dup(struct loader *L, const struct load_keyrec *first,
		       const struct load_keyrec *dup)
{
	char s[9] = {0};
	if (dup->len <= 8)
		memcpy(s, &dup->hash, dup->len);
	load_err(L, dup->line, dup->col,
		 "duplicate key '%s' (expected each key once in a mapping; first at line %u)",
		 dup->len <= 8 ? s : L->kbuf + dup->off, first->line);
}

int load_keys_check(struct loader *L, struct load_keys_mark m)
{
	uint32_t n = L->nkrec - m.rec;
	/* krec is NULL until a key is recorded */
	struct load_keyrec *r = n ? L->krec + m.rec : NULL;
	if (n < 2) {
		/* most skipped mappings of a dump (managedFields) */
	} else if (n <= 16) {
		for (uint32_t i = 1; i < n; i++)
			for (uint32_t j = 0; j < i; j++)
				if (keyrec_same(L, &r[j], &r[i])) {
					keyrec_dup(L, &r[j], &r[i]);
					break;
				}
	} else {
		/* the records are dropped next: sorted in place */
		qsort(r, n, sizeof(*r), keyrec_cmp);
		for (uint32_t i = 1, first = 0; i < n; i++) {
			if (r[i].hash != r[first].hash) {
				first = i;
				continue;
			}
			/* equal hashes: compare with every earlier one of them */
			for (uint32_t j = first; j < i; j++)
				if (keyrec_same(L, &r[j], &r[i])) {
					keyrec_dup(L, &r[j], &r[i]);
					break;
				}
		}
	}
	L->nkrec = m.rec;
	L->kbuf_len = m.buf;
	return !L->oom;
}

static int anchored_node(struct loader *L, uint32_t depth, struct ynode *out);
static int skip_alias(struct loader *L);
static const char *event_anchor(const yaml_event_t *e);

/* The rest of a skipped collection, `depth` levels of it open: each event
 * straight from libyaml and freed at once, as a bare parse does, with the
 * checks of peek and take (syntax errors, the nesting limit, L->level).
 * Most of a kubectl dump (managedFields, status, annotations) goes by here.
 * Nodes are counted for the alias budget; an anchored node is built (an
 * alias may use it later) and an alias is checked as if it were read. */
/* One item of the innermost frame above base is complete: a map's key
 * turns to its value and back. key: the item, when it is a scalar. */
static int event_key_add(struct loader *L, const yaml_event_t *e);

static int frame_item(struct loader *L, uint32_t base, const yaml_event_t *key)
{
	struct load_skipframe *f;
	if (L->nframes <= base)
		return 1;
	f = &L->frames[L->nframes - 1];
	if (!f->map)
		return 1;
	if (f->want_key && key && !event_key_add(L, key))
		return 0;
	f->want_key = !f->want_key;
	f->merge_val = false;
	return 1;
}

/* go-yaml v2 isMerge: a plain `<<`, or one tagged !!merge */
static bool merge_event(const yaml_event_t *e)
{
	const char *tag = (const char *)e->data.scalar.tag;
	return e->data.scalar.length == 2 && !memcmp(e->data.scalar.value, "<<", 2) &&
	       ((!tag && e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) ||
		(tag && !strcmp(tag, "tag:yaml.org,2002:merge")));
}

static int frame_push(struct loader *L, bool map)
{
	if (L->nframes == L->frames_cap) {
		uint32_t ncap = L->frames_cap ? L->frames_cap * 2 : 16;
		struct load_skipframe *v = realloc(L->frames, (size_t)ncap * sizeof(*v));
		if (!v)
			return load_oom(L);
		L->frames = v;
		L->frames_cap = ncap;
	}
	L->frames[L->nframes].map = map;
	L->frames[L->nframes].want_key = true;
	L->frames[L->nframes].merge_val = false;
	L->frames[L->nframes].keys = load_keys_mark(L);
	L->nframes++;
	return 1;
}

/* The frames live on L->frames from base up: an anchored node met here is
 * built, and may skip parts of itself with a skip_open of its own. */
static int skip_events(struct loader *L, uint32_t base)
{
	yaml_event_t *e = &L->ev;
	while (L->nframes > base) {
		if (!yaml_parser_parse(&L->parser, e)) {
			load_syntax_error(L);
			return 0;
		}
		load_count_event(L);
		switch (e->type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (L->level >= L->max_depth) {
				L->have_ev = true;
				too_deep(L);
				return 0;
			}
			if ((e->type == YAML_SEQUENCE_START_EVENT ? e->data.sequence_start.anchor
								   : e->data.mapping_start.anchor)) {
				struct ynode n;
				L->have_ev = true;
				if (!anchored_node(L, L->level + 1, &n) || !frame_item(L, base, NULL))
					return 0;
				continue;
			}
			/* the sequence of mappings a `<<` merges is not decoded */
			if (!(e->type == YAML_SEQUENCE_START_EVENT && L->nframes &&
			      L->frames[L->nframes - 1].merge_val))
				L->decode_count++;
			L->level++;
			if (!frame_push(L, e->type == YAML_MAPPING_START_EVENT))
				return 0;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			const struct load_skipframe *f = &L->frames[--L->nframes];
			if (L->level)
				L->level--;
			if ((f->map && !load_keys_check(L, f->keys)) || !frame_item(L, base, NULL))
				return 0;
			break;
		}
		case YAML_SCALAR_EVENT:
			if (e->data.scalar.anchor) {
				struct ynode n;
				L->have_ev = true;
				if (!anchored_node(L, L->level + 1, &n) || !frame_item(L, base, NULL))
					return 0;
				continue;
			}
			if (L->nframes > base && L->frames[L->nframes - 1].map &&
			    L->frames[L->nframes - 1].want_key && merge_event(e)) {
				/* decode.go mapping: a `<<` is not decoded, and
				 * is no duplicate of another */
				L->frames[L->nframes - 1].want_key = false;
				L->frames[L->nframes - 1].merge_val = true;
				break;
			}
			L->decode_count++;
			if (!frame_item(L, base, e))
				return 0;
			break;
		case YAML_ALIAS_EVENT:
			L->have_ev = true;
			if (!skip_alias(L) || !frame_item(L, base, NULL))
				return 0;
			continue;
		case YAML_STREAM_END_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			/* never reached inside a node: libyaml balances events */
			L->have_ev = true;
			return 0;
		default:
			break;
		}
		yaml_event_delete(e);
	}
	return 1;
}

static int skip_open(struct loader *L, bool map)
{
	uint32_t base = L->nframes;
	if (L->abort_file || L->oom || !frame_push(L, map))
		return 0;
	if (!skip_events(L, base)) {
		L->nframes = base;
		return 0;
	}
	return 1;
}

int load_skip(struct loader *L)
{
	yaml_event_t *e = peek(L);
	if (!e)
		return 0;
	switch (e->type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
	case YAML_SCALAR_EVENT:
		if (event_anchor(e)) {
			struct ynode n;
			return anchored_node(L, L->level + 1, &n);
		}
		L->decode_count++;
		if (e->type == YAML_SCALAR_EVENT) {
			take(L);
			return 1;
		}
		bool map = e->type == YAML_MAPPING_START_EVENT;
		take(L);
		return skip_open(L, map);
	case YAML_ALIAS_EVENT:
		return skip_alias(L);
	case YAML_STREAM_END_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		/* never reached where a node is due */
		return 0;
	default:
		take(L);
		return 1;
	}
}

static void set_mark(struct ynode *n, const yaml_event_t *e)
{
	n->line = (uint32_t)e->start_mark.line + 1;
	n->col = (uint32_t)e->start_mark.column + 1;
}

static bool plain_null(const char *s, size_t len)
{
	return len == 0 || (len == 1 && s[0] == '~') ||
	       (len == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "Null", 4) || !memcmp(s, "NULL", 4)));
}

/* ---- scalar types (gopkg.in/yaml.v2 resolve.go resolve) ---- */

static bool word_in(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if ((*words)[0] == s[0] && strlen(*words) == len && !memcmp(*words, s, len))
			return true;
	return false;
}

/* A YAML 1.1 float as resolve.go's yamlStyleFloat accepts it:
 * [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static bool yaml_style_float(const char *s, size_t len)
{
	size_t i = 0, d = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			d++;
		if (!d)
			return false;
	} else {
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			d++;
		if (!d)
			return false;
		if (i < len && s[i] == '.')
			for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
				;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			d++;
		if (!d)
			return false;
	}
	return i == len;
}

int load_yaml_int(const char *s, size_t len, int64_t *out, bool *big)
{
	/* strconv.ParseInt(s, 0, 64), then ParseUint, after resolve.go has
	 * dropped every '_' */
	char buf[80];
	size_t n = 0, i = 0;
	bool neg = false;
	unsigned base = 10;
	uint64_t v = 0;
	*big = false;
	for (size_t k = 0; k < len; k++) {
		if (s[k] == '_')
			continue;
		if (n + 1 >= sizeof(buf))
			return 0; /* far beyond 64 bits */
		buf[n++] = s[k];
	}
	buf[n] = '\0';
	if (i < n && (buf[i] == '+' || buf[i] == '-'))
		neg = buf[i++] == '-';
	if (i + 1 < n && buf[i] == '0') {
		char c = buf[i + 1];
		if (c == 'x' || c == 'X')
			base = 16, i += 2;
		else if (c == 'o' || c == 'O')
			base = 8, i += 2;
		else if (c == 'b' || c == 'B')
			base = 2, i += 2;
		else
			base = 8, i += 1;
	}
	if (i == n)
		return 0; /* "0x", "+" */
	for (; i < n; i++) {
		unsigned d;
		char c = buf[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return 0;
		if (d >= base)
			return 0;
		if (v > (UINT64_MAX - d) / base) {
			*big = true; /* beyond uint64: resolve.go tries a float */
			return 0;
		}
		v = v * base + d;
	}
	if (neg) {
		if (v > (uint64_t)1 << 63) {
			*big = true;
			return 0;
		}
		*out = v == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)v;
		return 1;
	}
	if (v > (uint64_t)INT64_MAX) {
		*big = true; /* a uint64: a number, but no int64 */
		return 2;
	}
	*out = (int64_t)v;
	return 1;
}

/* The digits of YAML float text s (resolve.go's yamlStyleFloat, '_'
 * dropped): value = [-]D * 10^x, D (*nd digits, into d) without leading
 * or trailing zeros, none for zero. 1, or 0 when s is no such float. No
 * strtod here: its decimal point follows the locale the TUI sets. */
static int dec_digits(const char *s, size_t len, char *d, size_t *ndp, int64_t *xp, bool *negp)
{
	char buf[400];
	size_t n = 0, i = 0, nd = 0;
	int64_t x = 0, e = 0;
	bool neg = false, seen = false;
	for (size_t k = 0; k < len; k++) {
		if (s[k] == '_')
			continue;
		if (n + 1 >= sizeof(buf))
			return 0;
		buf[n++] = s[k];
	}
	if (!yaml_style_float(buf, n))
		return 0;
	if (buf[i] == '+' || buf[i] == '-')
		neg = buf[i++] == '-';
	for (; i < n && buf[i] != 'e' && buf[i] != 'E'; i++) {
		if (buf[i] == '.') {
			seen = true;
			continue;
		}
		if (!nd && buf[i] == '0') {
			if (seen)
				x--;
			continue;
		}
		d[nd++] = buf[i];
		if (seen)
			x--;
	}
	if (i < n) {
		i++;
		bool eneg = buf[i] == '-';
		if (buf[i] == '+' || buf[i] == '-')
			i++;
		for (; i < n; i++)
			if (e < 100000)
				e = e * 10 + (buf[i] - '0');
		x += eneg ? -e : e;
	}
	while (nd && d[nd - 1] == '0') {
		nd--;
		x++;
	}
	*ndp = nd;
	*xp = x;
	*negp = neg;
	return 1;
}

/* D * 10^x as strtod reads "De<x>": no decimal point, so no locale */
static double dec_value(const char *d, size_t nd, int64_t x, bool neg)
{
	char t[440];
	if (!nd)
		return neg ? -0.0 : 0.0;
	snprintf(t, sizeof(t), "%s%.*se%lld", neg ? "-" : "", (int)nd, d, (long long)x);
	return strtod(t, NULL);
}

int load_yaml_float(const char *s, size_t len, struct ydec *out)
{
	char d[400];
	size_t nd;
	int64_t x;
	bool neg;
	struct ydec r = {0};
	if (!dec_digits(s, len, d, &nd, &x, &neg))
		return 0;
	r.neg = neg;
	r.zero = nd == 0;
	if (!r.zero) {
		/* strconv.ParseFloat fails above the largest float64 (~1.8e308) */
		int64_t mag = (int64_t)nd + x; /* digits before the point */
		if (mag > 309 || (mag >= 308 && !isfinite(dec_value(d, nd, x, neg))))
			return 0;
	}
	r.integral = r.zero || x >= 0;
	if (r.integral && (r.zero || (int64_t)nd + x <= 19)) {
		uint64_t v = 0;
		for (size_t k = 0; k < nd; k++)
			v = v * 10 + (uint64_t)(d[k] - '0');
		for (int64_t k = 0; k < x && !r.zero; k++)
			v *= 10;
		if (v <= (uint64_t)INT64_MAX) {
			r.fits = true;
			r.v = neg ? -(int64_t)v : (int64_t)v;
		}
	}
	*out = r;
	return 1;
}

int load_yaml_f64(const char *s, size_t len, double *out)
{
	char d[400];
	size_t nd;
	int64_t x;
	bool neg;
	if (!dec_digits(s, len, d, &nd, &x, &neg))
		return 0;
	*out = dec_value(d, nd, x, neg);
	return isfinite(*out);
}

/* The shortest digits that read back as v (strconv's -1 precision):
 * v = 0.D * 10^(*e10 + 1), D into d (at most 17 digits). */
static size_t shortest_digits(double v, char *d, int *e10)
{
	char t[64], r[48];
	for (int p = 1; p <= 17; p++) {
		size_t nd = 0;
		const char *c;
		snprintf(t, sizeof(t), "%.*e", p - 1, v);
		/* "-1.25e+02", whatever the locale's decimal point */
		for (c = t; *c && *c != 'e'; c++)
			if (*c >= '0' && *c <= '9')
				d[nd++] = *c;
		if (*c != 'e')
			return 0;
		*e10 = atoi(c + 1);
		snprintf(r, sizeof(r), "%.*se%d", (int)nd, d, *e10 - (int)nd + 1);
		if (strtod(r, NULL) == fabs(v) || p == 17) {
			while (nd > 1 && d[nd - 1] == '0')
				nd--;
			return nd;
		}
	}
	return 0;
}

size_t load_json_float(double v, char *buf, size_t cap)
{
	char d[24];
	int e10 = 0;
	size_t nd, n = 0;
	double a = fabs(v);
	if (!isfinite(v) || cap < 32)
		return 0;
	if (v == 0) {
		snprintf(buf, cap, "%s", signbit(v) ? "-0" : "0");
		return strlen(buf);
	}
	if (!(nd = shortest_digits(v, d, &e10)))
		return 0;
	if (v < 0)
		buf[n++] = '-';
	if (a < 1e-6 || a >= 1e21) {
		/* encoding/json: 'e' with the e-09 of FormatFloat cut to e-9 */
		buf[n++] = d[0];
		if (nd > 1) {
			buf[n++] = '.';
			memcpy(buf + n, d + 1, nd - 1);
			n += nd - 1;
		}
		n += (size_t)snprintf(buf + n, cap - n, "e%c%02d", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
		if (e10 < 0 && e10 > -10) {
			buf[n - 2] = buf[n - 1];
			n--;
		}
		buf[n] = '\0';
		return n;
	}
	if (e10 < 0) {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int k = -1; k > e10; k--)
			buf[n++] = '0';
		memcpy(buf + n, d, nd);
		n += nd;
	} else {
		for (int k = 0; k <= e10; k++)
			buf[n++] = (size_t)k < nd ? d[k] : '0';
		if (nd > (size_t)e10 + 1) {
			buf[n++] = '.';
			memcpy(buf + n, d + e10 + 1, nd - (size_t)e10 - 1);
			n += nd - (size_t)e10 - 1;
		}
	}
	buf[n] = '\0';
	return n;
}

/* strconv's underscoreOK (atoi.go): every '_' between two digits, or
 * after a base prefix. */
static bool underscore_ok(const char *s, size_t len)
{
	char saw = '^';
	size_t i = 0;
	bool hex = false;
	if (len && (s[0] == '+' || s[0] == '-'))
		s++, len--;
	if (len >= 2 && s[0] == '0' && strchr("bBoOxX", s[1])) {
		i = 2;
		saw = '0';
		hex = s[1] == 'x' || s[1] == 'X';
	}
	for (; i < len; i++) {
		char c = s[i];
		if ((c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))) {
			saw = '0';
			continue;
		}
		if (c == '_') {
			if (saw != '0')
				return false;
			saw = '_';
			continue;
		}
		if (saw == '_')
			return false;
		saw = '!';
	}
	return saw != '_';
}

/* The type of a plain scalar that is not null. */
static uint8_t resolve_plain(const char *s, size_t len)
{
	static const char *const bools[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
					    "on", "On", "ON", "n", "N", "no", "No", "NO", "false",
					    "False", "FALSE", "off", "Off", "OFF", NULL};
	static const char *const floats[] = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
					     "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
					     NULL};
	int64_t iv;
	struct ydec dv;
	bool big;
	switch (s[0]) {
	case 'y': case 'Y': case 'n': case 'N': case 't': case 'T':
	case 'f': case 'F': case 'o': case 'O':
		/* most keys start so (name, namespace, type): only a short
		 * word with a bool's last letter can be one */
		if (len > 5 || !s[len - 1] || !strchr("yYsSnNoOeEfF", s[len - 1]))
			return YS_STR;
		return word_in(s, len, bools) ? YS_BOOL : YS_STR;
	case '<':
		return len == 2 && s[1] == '<' ? YS_MERGE : YS_STR;
	case '.':
		if (word_in(s, len, floats))
			return YS_FLOAT;
		/* strconv.ParseFloat(in), '_' kept: ".5", ".5e3", ".5_5" */
		return load_yaml_float(s, len, &dv) && underscore_ok(s, len) ? YS_FLOAT : YS_STR;
	case '+': case '-':
		if (len >= 4 && s[1] == '.' && word_in(s, len, floats))
			return YS_FLOAT;
		/* fall through */
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		if (load_yaml_int(s, len, &iv, &big))
			return YS_INT;
		return load_yaml_float(s, len, &dv) ? YS_FLOAT : YS_STR;
	default:
		return YS_STR;
	}
}

/* The decimal digits (no point, so that no locale can change the
 * reading) and exponent of x rounded to p significant digits: x ~
 * 0.D * 10^dp. */
static void float_digits(double x, int p, char *d, int *dp)
{
	char buf[64];
	int n = 0, e = 0;
	const char *q;
	snprintf(buf, sizeof(buf), "%.*e", p - 1, x);
	/* the digits around the locale's decimal point, then e+XX */
	for (q = buf; *q && *q != 'e'; q++)
		if (*q >= '0' && *q <= '9')
			d[n++] = *q;
	d[n] = '\0';
	if (*q == 'e')
		e = atoi(q + 1);
	*dp = e + 1;
}

/* strtof of digits d times 10^(dp - strlen(d)), no decimal point */
static float digits_float(const char *d, int dp)
{
	char buf[80];
	snprintf(buf, sizeof(buf), "%se%d", d, dp - (int)strlen(d));
	return strtof(buf, NULL);
}

/* d (n digits) plus or minus one unit in its last place; 0 when it
 * would change length */
static int digits_step(char *d, int up)
{
	int n = (int)strlen(d);
	for (int i = n - 1; i >= 0; i--) {
		if (up) {
			if (d[i] < '9') {
				d[i]++;
				return 1;
			}
			d[i] = '0';
		} else {
			if (d[i] > '0') {
				d[i]--;
				return d[0] != '0';
			}
			d[i] = '9';
		}
	}
	return 0;
}

/* strconv.FormatFloat(v, 'g', -1, 32) of the float k holds, as
 * sigs.k8s.io/yaml convertToJSONableObject makes a JSON key of a float
 * key: the shortest digits that read back as the same float32, %e form
 * below 1e-4 or from 1e+06; +Inf, -Inf and NaN as .inf, -.inf, .nan. */
static void float_key(const char *s, size_t len, char *out, size_t cap)
{
	char plain[400], d[32];
	size_t n = 0;
	int64_t iv;
	bool big;
	double x;
	for (size_t i = 0; i < len && n + 1 < sizeof(plain); i++)
		if (s[i] != '_')
			plain[n++] = s[i];
	plain[n] = '\0';
	if (strstr(plain, "nan") || strstr(plain, "NaN") || strstr(plain, "NAN")) {
		snprintf(out, cap, ".nan");
		return;
	}
	if (strchr(plain, 'i') || strchr(plain, 'I')) {
		snprintf(out, cap, plain[0] == '-' ? "-.inf" : ".inf");
		return;
	}
	if (load_yaml_int(s, len, &iv, &big) == 1) {
		x = (double)iv; /* !!float 0x10: go-yaml's float64(int) */
	} else {
		/* mantissa digits and exponent, without the point */
		char m[420];
		size_t k = 0, i = 0;
		long e = 0, frac = 0;
		bool dot = false;
		if (plain[i] == '+' || plain[i] == '-')
			m[k++] = plain[i++];
		for (; plain[i] && plain[i] != 'e' && plain[i] != 'E'; i++) {
			if (plain[i] == '.') {
				dot = true;
				continue;
			}
			m[k++] = plain[i];
			frac += dot;
		}
		if (plain[i])
			e = strtol(plain + i + 1, NULL, 10);
		snprintf(m + k, sizeof(m) - k, "e%ld", e - frac);
		x = strtod(m, NULL);
	}
	float f = (float)x;
	const char *sign = signbit(f) ? "-" : "";
	if (isinf(f)) {
		snprintf(out, cap, "%s.inf", *sign ? "-" : "");
		return;
	}
	if (f == 0) {
		snprintf(out, cap, "%s0", sign);
		return;
	}
	float a = fabsf(f);
	int dp = 0;
	for (int p = 1; p <= 9; p++) {
		float_digits(a, p, d, &dp);
		if (digits_float(d, dp) == a)
			break;
		/* the neighbour on f's other side may read back where the
		 * nearest does not (a power of two's lopsided interval) */
		char alt[32];
		int adp = dp;
		memcpy(alt, d, sizeof(alt));
		if (digits_step(alt, digits_float(d, dp) < a) && digits_float(alt, adp) == a) {
			memcpy(d, alt, sizeof(alt));
			break;
		}
	}
	int nd = (int)strlen(d);
	while (nd > 1 && d[nd - 1] == '0')
		d[--nd] = '\0';
	int e = dp - 1;
	if (e < -4 || e >= 6) {
		snprintf(out, cap, "%s%c%s%se%c%02d", sign, d[0], nd > 1 ? "." : "", d + 1, e < 0 ? '-' : '+',
			 e < 0 ? -e : e);
	} else if (dp <= 0) {
		snprintf(out, cap, "%s0.%0*d%s", sign, -dp, 0, d);
		if (dp == 0) /* "%0*d" wrote one 0 too many */
			snprintf(out, cap, "%s0.%s", sign, d);
	} else if (dp >= nd) {
		snprintf(out, cap, "%s%s%0*d", sign, d, dp - nd, 0);
		if (dp == nd)
			snprintf(out, cap, "%s%s", sign, d);
	} else {
		snprintf(out, cap, "%s%.*s.%s", sign, dp, d, d + dp);
	}
}

/* The JSON key of an int, float or boolean key s (kind), into buf (48
 * bytes): 0 for an int beyond int64. */
static int canon_text(uint8_t kind, const char *s, size_t len, char *buf)
{
	int64_t v;
	bool big;
	if (kind == YS_FLOAT) {
		float_key(s, len, buf, 48);
	} else if (kind == YS_BOOL) {
		static const char *const yes[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
						  "on", "On", "ON", NULL};
		snprintf(buf, 48, "%s", word_in(s, len, yes) ? "true" : "false");
	} else if (load_yaml_int(s, len, &v, &big) == 1) {
		snprintf(buf, 48, "%lld", (long long)v);
	} else {
		return 0;
	}
	return 1;
}

/* A key of a skipped mapping, recorded for the duplicate check by its
 * JSON key as load_key_canon makes it (`yes:` and `true:` are one key,
 * `0x10:` and `16:`, `.5:` and `0.5:`): only a plain or tagged key that
 * resolves to a number or a boolean needs more than its text. A null key is refused as
 * tree_collection refuses it. 1, 0 on OOM. */
static int event_key_add(struct loader *L, const yaml_event_t *e)
{
	const char *v = (const char *)e->data.scalar.value, *tag = (const char *)e->data.scalar.tag;
	size_t len = e->data.scalar.length;
	uint32_t line = (uint32_t)e->start_mark.line + 1, col = (uint32_t)e->start_mark.column + 1;
	uint8_t kind = YS_STR;
	char buf[48];
	if (!tag && e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		if (plain_null(v, len)) {
			load_err(L, line, col, "null used as a mapping key (expected a string key; quote it: \"%s\")",
				 v);
			return keys_add(L, v, len, line, col);
		}
		kind = resolve_plain(v, len);
	} else if (tag && (!strcmp(tag, "tag:yaml.org,2002:int") || !strcmp(tag, "tag:yaml.org,2002:bool") ||
			   !strcmp(tag, "tag:yaml.org,2002:float"))) {
		kind = len ? resolve_plain(v, len) : YS_STR;
		if (kind == YS_INT && !strcmp(tag, "tag:yaml.org,2002:float"))
			kind = YS_FLOAT;
	}
	if (kind == YS_INT || kind == YS_BOOL || kind == YS_FLOAT) {
		if (!canon_text(kind, v, len, buf)) {
			load_err(L, line, col, "the number %s used as a mapping key does not fit an int64 "
				 "(expected a string key; quote it: \"%s\")", v, v);
			return keys_add(L, v, len, line, col);
		}
		return keys_add(L, buf, strlen(buf), line, col);
	}
	return keys_add(L, v, len, line, col);
}

/* A scalar key as sigs.k8s.io/yaml's convertToJSONableObject makes a
 * JSON key of it: an int its decimal value (`0x10:` is "16"), a boolean
 * "true" or "false" (`yes:` is "true"), a float FormatFloat(v, 'g', -1,
 * 32) (`0.5:` and `.5:` are "0.5", `1e6:` "1e+06"); a uint64 beyond int64
 * is refused as it refuses it. 0 after an out-of-memory error; a refused
 * key becomes Y_BAD. */
int load_key_canon(struct loader *L, struct ynode *k)
{
	char buf[48];
	if (k->type != Y_SCALAR || (k->kind != YS_INT && k->kind != YS_BOOL && k->kind != YS_FLOAT))
		return 1;
	if (!canon_text(k->kind, k->s, k->len, buf)) {
		load_err_at(L, k, "the number %s used as a mapping key does not fit an int64 "
			    "(expected a string key; quote it: \"%s\")", k->s, k->s);
		k->type = Y_BAD;
		return 1;
	}
	size_t n = strlen(buf);
	if (n == k->len && !memcmp(buf, k->s, n))
		return 1;
	char *t = arena_alloc(L, n + 1);
	if (!t)
		return load_oom(L);
	memcpy(t, buf, n + 1);
	k->s = t;
	k->len = n;
	return 1;
}

/* ---- anchors and aliases ---- */

struct load_anchor {
	char *name;
	struct ynode node;
	uint64_t size;         /* nodes, its aliases expanded */
};

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void load_anchors_reset(struct loader *L)
{
	for (uint32_t i = 0; i < L->nanchors; i++)
		free(L->anchors[i].name);
	L->nanchors = 0;
	if (L->anchor_slots)
		memset(L->anchor_slots, 0, ((size_t)L->anchor_mask + 1) * sizeof(*L->anchor_slots));
	for (uint32_t i = 0; i < L->nopen; i++)
		free(L->open_anchors[i]);
	L->nopen = 0;
	L->decode_count = L->alias_count = 0;
	L->nkrec = 0;
	L->kbuf_len = 0;
	L->nframes = 0;
}

static struct load_anchor *anchor_find(const struct loader *L, const char *name)
{
	if (!L->anchor_slots)
		return NULL;
	for (uint32_t h = name_hash(name) & L->anchor_mask;; h = (h + 1) & L->anchor_mask) {
		uint32_t x = L->anchor_slots[h];
		if (!x)
			return NULL;
		if (!strcmp(L->anchors[x - 1].name, name))
			return &L->anchors[x - 1];
	}
}

/* Records name -> n; a later anchor of the same name replaces the earlier
 * one for the aliases after it, as YAML says. Takes name. */
static int anchor_put(struct loader *L, char *name, const struct ynode *n, uint64_t size)
{
	struct load_anchor *a = anchor_find(L, name);
	if (a) {
		free(name);
		a->node = *n;
		a->size = size;
		return 1;
	}
	if (L->nanchors == L->anchors_cap) {
		uint32_t ncap = L->anchors_cap ? L->anchors_cap * 2 : 16;
		struct load_anchor *v = realloc(L->anchors, (size_t)ncap * sizeof(*v));
		if (!v) {
			free(name);
			return load_oom(L);
		}
		L->anchors = v;
		L->anchors_cap = ncap;
	}
	if (!L->anchor_slots || (L->nanchors + 1) * 2 > L->anchor_mask + 1) {
		uint32_t nmask = L->anchor_slots ? L->anchor_mask * 2 + 1 : 63;
		uint32_t *t = calloc((size_t)nmask + 1, sizeof(*t));
		if (!t) {
			free(name);
			return load_oom(L);
		}
		free(L->anchor_slots);
		L->anchor_slots = t;
		L->anchor_mask = nmask;
		for (uint32_t i = 0; i < L->nanchors; i++) {
			uint32_t h = name_hash(L->anchors[i].name) & nmask;
			while (t[h])
				h = (h + 1) & nmask;
			t[h] = i + 1;
		}
	}
	uint32_t h = name_hash(name) & L->anchor_mask;
	while (L->anchor_slots[h])
		h = (h + 1) & L->anchor_mask;
	L->anchor_slots[h] = L->nanchors + 1;
	L->anchors[L->nanchors].name = name;
	L->anchors[L->nanchors].node = *n;
	L->anchors[L->nanchors].size = size;
	L->nanchors++;
	return 1;
}

static const char *event_anchor(const yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return (const char *)e->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return (const char *)e->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return (const char *)e->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* go-yaml v2 decode.go allowedAliasRatio: 99% of a document's nodes may
 * come from aliases up to 400,000 nodes, falling to 10% at 4,000,000 */
static double allowed_alias_ratio(uint64_t decoded)
{
	if (decoded <= 400000)
		return 0.99;
	if (decoded >= 4000000)
		return 0.10;
	return 0.99 - 0.89 * ((double)(decoded - 400000) / 3600000.0);
}

/* The alias event at hand (not taken): counts its expansion against the
 * budget. Returns its anchor, or NULL when it was reported (unknown or
 * unfinished anchor: *fatal false; excessive aliasing: *fatal true, the
 * file is abandoned). */
static const struct load_anchor *alias_use(struct loader *L, const yaml_event_t *e, bool *fatal)
{
	const char *name = (const char *)e->data.alias.anchor;
	uint32_t line = (uint32_t)e->start_mark.line + 1, col = (uint32_t)e->start_mark.column + 1;
	const struct load_anchor *a = anchor_find(L, name);
	*fatal = false;
	if (!a) {
		for (uint32_t i = 0; i < L->nopen; i++)
			if (!strcmp(L->open_anchors[i], name)) {
				load_err(L, line, col, "alias '*%s' is inside the node of its own anchor '&%s' (expected an alias after its anchor's node ends)",
					 name, name);
				return NULL;
			}
		load_err(L, line, col, "alias '*%s' has no anchor '&%s' before it (expected an anchor earlier in the same document)",
			 name, name);
		return NULL;
	}
	/* decode.go unmarshal: the alias node itself, then its anchor's
	 * nodes, each counted as decoded through an alias */
	L->decode_count = sat_add(sat_add(L->decode_count, 1), a->size);
	L->alias_count = sat_add(L->alias_count, a->size);
	if (L->alias_count > 100 && L->decode_count > 1000 &&
	    (double)L->alias_count / (double)L->decode_count > allowed_alias_ratio(L->decode_count)) {
		load_err(L, line, col, "alias '*%s' expands the document to %llu nodes, %llu of them from aliases (expected aliases to expand to at most %.0f%% of a document this size; Kubernetes refuses such excessive aliasing, the mark of an alias bomb)",
			 name, (unsigned long long)L->decode_count, (unsigned long long)L->alias_count,
			 allowed_alias_ratio(L->decode_count) * 100);
		*fatal = true;
		L->abort_file = true;
		return NULL;
	}
	return a;
}

static int tree_plain(struct loader *L, uint32_t depth, const struct ynode *ctx, struct ynode *out);

/* The node at hand carries an anchor: built whole (no key filter: an
 * alias may use it where other keys are read) and recorded. */
static int anchored_node(struct loader *L, uint32_t depth, struct ynode *out)
{
	char *name = load_strdup(event_anchor(&L->ev));
	uint64_t before = L->decode_count;
	int ok;
	if (!name)
		return load_oom(L);
	if (L->nopen == L->open_cap) {
		uint32_t ncap = L->open_cap ? L->open_cap * 2 : 8;
		char **v = realloc(L->open_anchors, (size_t)ncap * sizeof(*v));
		if (!v) {
			free(name);
			return load_oom(L);
		}
		L->open_anchors = v;
		L->open_cap = ncap;
	}
	L->open_anchors[L->nopen++] = name;
	ok = tree_plain(L, depth, NULL, out);
	L->nopen--;
	if (!ok) {
		free(name);
		return 0;
	}
	return anchor_put(L, name, out, L->decode_count - before);
}

/* Skips the alias event at hand, its use counted. 0: the file is abandoned. */
static int skip_alias(struct loader *L)
{
	bool fatal;
	alias_use(L, &L->ev, &fatal);
	take(L);
	return !fatal;
}

/* Kids are gathered on L->stack while their collection is read (its own
 * kids come and go above them) and copied to the arena at its end, at
 * their final count: no array grows in the arena. */
static int stack_push(struct loader *L, const struct ynode *n)
{
	if (L->nstack == L->stack_cap) {
		uint32_t ncap = L->stack_cap ? L->stack_cap * 2 : 256;
		struct ynode *v = realloc(L->stack, (size_t)ncap * sizeof(*v));
		if (!ncap || !v)
			return load_oom(L);
		L->stack = v;
		L->stack_cap = ncap;
	}
	L->stack[L->nstack++] = *n;
	return 1;
}

struct keyref {
	const struct ynode *key;
	uint32_t idx;
};

static int keyref_cmp(const void *a, const void *b)
{
	const struct ynode *x = ((const struct keyref *)a)->key, *y = ((const struct keyref *)b)->key;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	int c = memcmp(x->s, y->s, x->len);
	if (c)
		return c;
	/* equal keys: earlier position first, so the later one is reported */
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->col < y->col ? -1 : (x->col > y->col);
}

static void report_dup(struct loader *L, const struct ynode *first, const struct ynode *dup)
{
	load_err_at(L, dup, "duplicate key '%s' (expected each key once in a mapping; first at line %u)",
		    dup->s, first->line);
}

static bool same_key(const struct ynode *a, const struct ynode *b)
{
	if ((a->type == Y_SCALAR && a->kind == YS_MERGE) || (b->type == Y_SCALAR && b->kind == YS_MERGE))
		return false;
	return (a->type == Y_SCALAR || a->type == Y_NULL) && (b->type == Y_SCALAR || b->type == Y_NULL) &&
	       a->s && b->s && a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* Removes the pairs flagged in dup, keeping the order of the rest. */
static void drop_pairs(struct ynode *m, const bool *dup)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->n; i++) {
		if (dup[i]) {
			ynode_fini(&m->kids[2 * i]);
			ynode_fini(&m->kids[2 * i + 1]);
			continue;
		}
		if (k != i) {
			m->kids[2 * k] = m->kids[2 * i];
			m->kids[2 * k + 1] = m->kids[2 * i + 1];
		}
		k++;
	}
	m->n = k;
}

/* Duplicate keys are an error, as for the API server's strict decoding.
 * Small maps are checked pairwise, large ones (labels) by sorting. The
 * later pairs are dropped once reported, so that no reader ever sees a
 * key twice (and overwrites what the first one set). */
int load_check_dup_keys(struct loader *L, struct ynode *m)
{
	uint32_t n = m->n;
	bool small[16], *dup = small, any = false;
	if (n < 2)
		return 1;
	if (n > 16 && !(dup = calloc(n, sizeof(*dup))))
		return load_oom(L);
	if (n <= 16) {
		memset(small, 0, sizeof(small));
		for (uint32_t i = 1; i < n; i++) {
			const struct ynode *ki = &m->kids[2 * i];
			for (uint32_t j = 0; j < i; j++) {
				if (!dup[j] && same_key(&m->kids[2 * j], ki)) {
					report_dup(L, &m->kids[2 * j], ki);
					dup[i] = any = true;
					break;
				}
			}
		}
	} else {
		struct keyref *r = malloc((size_t)n * sizeof(*r));
		uint32_t k = 0;
		if (!r) {
			free(dup);
			return load_oom(L);
		}
		for (uint32_t i = 0; i < n; i++)
			if (m->kids[2 * i].s) {
				r[k].key = &m->kids[2 * i];
				r[k++].idx = i;
			}
		qsort(r, k, sizeof(*r), keyref_cmp);
		for (uint32_t i = 1, first = 0; i < k; i++) {
			if (same_key(r[i].key, r[first].key)) {
				report_dup(L, r[first].key, r[i].key);
				dup[r[i].idx] = any = true;
			} else {
				first = i;
			}
		}
		free(r);
	}
	if (any)
		drop_pairs(m, dup);
	if (dup != small)
		free(dup);
	return 1;
}

/* What skewer reads below a few well-known keys of Kubernetes objects.
 * Everything else there (annotations, managedFields, conditions, images,
 * env, probes...) is skipped event by event without being stored, so an
 * object's tree holds only what the readers use, however large the dump's
 * metadata. A context applies to the mapping that is the key's value, or
 * to the mappings that are the items of its sequence (containers). */
struct keep {
	const char *s;
	size_t len;
	bool str;              /* a string no reader types: typed here */
};
#define K(s) {s, sizeof(s) - 1, false}
#define KSTR(s) {s, sizeof(s) - 1, true}
static const struct keep keep_metadata[] = {K("name"), K("namespace"), K("labels"),
					    K("ownerReferences"), K("deletionTimestamp"),
					    K("creationTimestamp"), K("annotations"), K("uid"), {NULL, 0, false}};
/* a document's own metadata (a List's): its annotations may name the
 * server's version (skewer.io/server-version) */
static const struct keep keep_doc_metadata[] = {K("name"), K("namespace"), K("labels"),
						K("ownerReferences"), K("deletionTimestamp"),
						K("creationTimestamp"), K("annotations"), {NULL, 0, false}};
/* the annotations read: a claim's binding (the PV controller's,
 * VolumeBinding's), a List's server version (kubectl skewer) */
static const struct keep keep_annotations[] = {K("pv.kubernetes.io/bind-completed"),
					       K("volume.kubernetes.io/selected-node"),
					       K("skewer.io/server-version"),
					       /* a pod's, for the controllers (load_life.c) */
					       K("controller.kubernetes.io/pod-deletion-cost"),
					       K("kubernetes.io/config.mirror"), K("kubernetes.io/config.source"),
					       K("descheduler.alpha.kubernetes.io/evict"),
					       K("deployment.kubernetes.io/max-replicas"), {NULL, 0, false}};
static const struct keep keep_status[] = {K("phase"), K("allocatable"), K("capacity"),
					  K("startTime"), K("nominatedNodeName"),
					  K("disruptionsAllowed"), K("conditions"), K("containerStatuses"),
					  K("initContainerStatuses"), {NULL, 0, false}};
/* a bound pod's: its Ready condition and restarts (the controllers) */
static const struct keep keep_bound_status[] = {K("phase"), K("startTime"), K("nominatedNodeName"),
						K("conditions"), K("containerStatuses"),
						K("initContainerStatuses"), {NULL, 0, false}};
static const struct keep keep_cstatus[] = {K("name"), K("restartCount"), {NULL, 0, false}};
/* a condition: a pending pod's PodScheduled message, a terminating
 * pod's DisruptionTarget reason */
static const struct keep keep_condition[] = {K("type"), K("status"), K("message"), K("reason"),
					     K("lastTransitionTime"), {NULL, 0, false}};
static const struct keep keep_container[] = {K("name"), K("resources"), KSTR("restartPolicy"),
					     K("ports"), {NULL, 0, false}};
/* a Pod's, a Node's, a workload's and a PodDisruptionBudget's spec:
 * volumes, securityContext, dnsPolicy and the like are never read */
static const struct keep keep_spec[] = {K("affinity"), K("containers"), K("initContainers"),
					K("nodeName"), K("nodeSelector"), K("overhead"),
					K("priority"), K("priorityClassName"),
					K("preemptionPolicy"), K("tolerations"),
					K("topologySpreadConstraints"), K("taints"),
					K("unschedulable"), K("selector"), K("template"),
					K("minAvailable"), K("maxUnavailable"),
					/* a NodePool's (karpenter.sh/v1) */
					K("weight"), K("limits"), K("requirements"),
					K("volumes"),
					K("schedulingGates"), K("hostNetwork"), K("accessModes"), K("storageClassName"),
					K("claimRef"), K("nodeAffinity"), K("csi"), K("volumeName"),
					K("resources"), K("capacity"), K("drivers"), K("attachRequired"),
					K("storageCapacity"), K("podInfoOnMount"),
					K("requiresRepublish"), K("seLinuxMount"), K("fsGroupPolicy"),
					K("replicas"), K("strategy"),
					K("podManagementPolicy"), K("ordinals"), {NULL, 0, false}};
/* the spec of a bound Pod once its nodeName is read (load_pod drops
 * these fields anyway): kubectl writes keys in order, so
 * topologySpreadConstraints and nodeSelector come after nodeName */
static const struct keep keep_bound_spec[] = {K("affinity"), K("containers"), K("initContainers"),
					      K("nodeName"), K("overhead"), K("priority"),
					      K("priorityClassName"), K("preemptionPolicy"),
					      K("tolerations"), K("taints"), K("unschedulable"),
					      K("selector"), K("template"), K("topologySpreadConstraints"),
					      K("nodeSelector"), K("volumes"),
					      /* refused with nodeName (load_volumes.c) */
					      K("schedulingGates"), K("hostNetwork"), {NULL, 0, false}};
/* a pod's volume: the sources the volume plugins (a claim, an
 * ephemeral claim) and the descheduler (local storage) read; a projected
 * service account token and the like are never read */
static const struct keep keep_volume[] = {K("name"), K("persistentVolumeClaim"), K("ephemeral"),
					  K("hostPath"), K("emptyDir"), {NULL, 0, false}};
/* an owner reference: its blockOwnerDeletion is never read */
static const struct keep keep_owner[] = {K("apiVersion"), K("kind"), K("name"), K("controller"), K("uid"),
					 {NULL, 0, false}};
#undef K
#undef KSTR

bool load_kind_read(const char *k)
{
	static const char *const kinds[] = {"Node", "Pod", "Service", "Deployment", "ReplicaSet", "StatefulSet",
					    "ReplicationController", "PriorityClass",
					    "PodDisruptionBudget", "NodePool", "Version", "StorageClass",
					    "PersistentVolume", "PersistentVolumeClaim", "CSINode", "CSIDriver",
					    NULL};
	size_t n = strlen(k);
	for (const char *const *p = kinds; *p; p++)
		if (!strcmp(k, *p))
			return true;
	return n >= 4 && !strcmp(k + n - 4, "List");
}

/* An object of a kind skewer does not read keeps only its kind (and what
 * came before it: apiVersion): kubectl writes kind before metadata and
 * spec, so a Deployment's template or a ConfigMap's data is never built. */
static bool unread_kind(const struct ynode *key, const struct ynode *val)
{
	return y_key_is(key, "kind") && val->type == Y_SCALAR && !load_kind_read(val->s);
}

static const struct keep *keep_list(const struct loader *L, const struct ynode *key)
{
	if (!key || !key->s)
		return NULL;
	if (y_key_is(key, "conditions"))
		return keep_condition;
	if (y_key_is(key, "metadata"))
		return keep_metadata;
	if (y_key_is(key, "annotations"))
		return keep_annotations;
	if (y_key_is(key, "spec"))
		return keep_spec;
	if (y_key_is(key, "status"))
		return L->pod_bound && !L->pod_terminating ? keep_bound_status : keep_status;
	if (y_key_is(key, "containers") || y_key_is(key, "initContainers"))
		return keep_container;
	if (y_key_is(key, "containerStatuses") || y_key_is(key, "initContainerStatuses"))
		return keep_cstatus;
	if (y_key_is(key, "ownerReferences"))
		return keep_owner;
	if (y_key_is(key, "volumes"))
		return keep_volume;
	return NULL;
}

static int tree_node(struct loader *L, uint32_t depth, const struct ynode *ctx, struct ynode *out);

/* The entry of keep that keeps key, keep_all when there is no list;
 * NULL when the key is not kept. */
static const struct keep keep_all = {NULL, 0, false};
static const struct keep *kept(const struct keep *keep, const struct ynode *key)
{
	if (!keep || key->type != Y_SCALAR || key->kind == YS_MERGE)
		return &keep_all;
	for (; keep->s; keep++)
		if (key->len == keep->len && !memcmp(key->s, keep->s, keep->len))
			return keep;
	return NULL;
}

/* The value of a skipped annotation (a map[string]string's, which the
 * API server's strict decoding types): a string, null (""), nothing else.
 * A plain or quoted scalar is checked on its event and never built;
 * a tagged one, an alias or a collection is built and checked. r: the
 * key's record, for the message. 1, 0 when the file is abandoned. */
static int skip_string_value(struct loader *L, uint32_t depth, const struct load_keyrec *r)
{
	yaml_event_t *e = peek(L);
	struct ynode v;
	char small[9] = {0};
	const char *key;
	if (!e)
		return 0;
	bool on_event = false;
	if (e->type == YAML_SCALAR_EVENT && !e->data.scalar.anchor && !e->data.scalar.tag) {
		const char *s = (const char *)e->data.scalar.value;
		size_t len = e->data.scalar.length;
		uint8_t kind;
		L->decode_count++;
		if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || plain_null(s, len) ||
		    (kind = resolve_plain(s, len)) == YS_STR || kind == YS_MERGE) {
			take(L);
			return 1;
		}
		memset(&v, 0, sizeof(v));
		v.type = Y_SCALAR;
		v.kind = kind;
		v.s = (char *)s;
		v.len = len;
		set_mark(&v, e);
		on_event = true;
	} else if (!tree_node(L, depth, NULL, &v)) {
		return 0;
	} else if (y_absent(&v) || v.type == Y_BAD ||
		   (v.type == Y_SCALAR && (v.kind == YS_STR || v.kind == YS_MERGE))) {
		return 1;
	}
	if (r->len <= 8)
		memcpy(small, &r->hash, r->len);
	key = r->len <= 8 ? small : L->kbuf + r->off;
	y_string_value(L, &v, "annotations", key);
	if (on_event)
		take(L);
	return 1;
}

/* Whether the key event e would be built into a key that kept() refuses
 * (or that an unread object skips), without any error to report for it:
 * then it need not be built at all. */
static bool skipped_key(const struct loader *L, const struct keep *keep, bool unread,
			const yaml_event_t *e)
{
	if (e->type != YAML_SCALAR_EVENT)
		return false;
	const char *v = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	/* too long, or holding a NUL: tree_node reports it; an anchor is
	 * recorded, a merge key kept */
	if (len > L->max_scalar || memchr(v, '\0', len) || e->data.scalar.anchor ||
	    (len == 2 && v[0] == '<' && v[1] == '<'))
		return false;
	/* an unread object's metadata is read all the same (its types) */
	if (unread)
		return !(len == 8 && !memcmp(v, "metadata", 8));
	/* a null key is kept (and its value read) */
	if (e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && plain_null(v, len))
		return false;
	for (; keep->s; keep++)
		if (len == keep->len && !memcmp(v, keep->s, len))
			return false;
	return true;
}

int load_unread_metadata(struct loader *L, uint32_t depth, const struct ynode *key)
{
	struct ynode m, *labels;
	if (!tree_node(L, depth, key, &m))
		return 0;
	/* its annotations are typed as they are built; its labels here */
	labels = y_get(&m, "labels");
	if (!y_absent(labels) && y_want(L, labels, Y_MAP, "metadata.labels"))
		for (uint32_t i = 0; i < labels->n; i++)
			y_string_value(L, &labels->kids[2 * i + 1], "metadata.labels", labels->kids[2 * i].s);
	return !L->oom;
}

/* Consumes the rest of the collection being read, its end included. */
static int skip_rest(struct loader *L)
{
	uint32_t depth = 1;
	while (depth > 0) {
		yaml_event_t *e = peek(L);
		if (!e)
			return 0;
		if (e->type == YAML_SEQUENCE_START_EVENT || e->type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (e->type == YAML_SEQUENCE_END_EVENT || e->type == YAML_MAPPING_END_EVENT)
			depth--;
		take(L);
	}
	return 1;
}

/* The pairs of a mapping being merged, keyed by their text in an
 * open-addressing table of indices + 1: a merge of two 20,000-key
 * mappings stays linear. */
struct merge_out {
	struct ynode *kids;
	uint32_t n, mask, *slots;
};

/* go-yaml v2 setMapIndex, not strict: the pair k: v is set, over an
 * earlier value of the same key */
static void merge_put(struct merge_out *o, const struct ynode *k, const struct ynode *v)
{
	const char *ks = k->s ? k->s : "";
	size_t kl = k->s ? k->len : 0;
	uint32_t h = (uint32_t)key_hash(ks, kl) & o->mask;
	for (; o->slots[h]; h = (h + 1) & o->mask) {
		struct ynode *x = &o->kids[2 * (o->slots[h] - 1)];
		if ((x->s ? x->len : 0) == kl && !memcmp(x->s ? x->s : "", ks, kl)) {
			x[0] = *k;
			x[1] = *v;
			return;
		}
	}
	o->slots[h] = o->n + 1;
	o->kids[2 * o->n] = *k;
	o->kids[2 * o->n + 1] = *v;
	o->n++;
}

/* Merge keys (YAML 1.1 `<<`), as go-yaml v2 decode.go's mapping and
 * merge read them into a map: the pairs of m are set in document order,
 * and a `<<` sets the pairs of the mapping it names (an alias of a
 * mapping, a mapping, or a sequence of those, taken last to first so
 * that the earlier ones win) over what is set already. So an explicit
 * key before the `<<` is overwritten by a merged one of the same name,
 * an explicit key after it overwrites the merged one, and a later `<<`
 * overwrites an earlier one's; none of these is a duplicate key.
 * Returns 1, 0 on OOM. */
int load_merge_keys(struct loader *L, struct ynode *m)
{
	uint64_t total = 0;
	bool bad = false;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		if (k->type != Y_SCALAR || k->kind != YS_MERGE) {
			total++;
			continue;
		}
		/* decode.go merge: an alias must name a mapping; an inline
		 * sequence lists mappings or aliases of them */
		bool list = v->type == Y_SEQ && !v->aliased;
		uint32_t nv = list ? v->n : 1;
		for (uint32_t j = 0; j < nv; j++) {
			const struct ynode *x = list ? &v->kids[j] : v;
			if (x->type == Y_BAD) {
				bad = true;
				continue;
			}
			if (x->type != Y_MAP) {
				load_err_at(L, x, "expected a mapping to merge for '<<', found %s (a merge key takes a mapping, an alias of one, or a sequence of them)",
					    y_type_name(x));
				bad = true;
				continue;
			}
			total += x->n;
		}
	}
	if (bad) {
		/* reported: the readers stay silent about this mapping */
		ynode_fini(m);
		m->type = Y_BAD;
		return 1;
	}
	if (total > L->max_entries) {
		load_err_at(L, m, "more than %u entries in one mapping once its merge keys are expanded (expected at most %u)",
			    L->max_entries, L->max_entries);
		ynode_fini(m);
		m->type = Y_BAD;
		return 1;
	}
	struct merge_out o = {0};
	o.kids = total ? arena_alloc(L, (size_t)total * 2 * sizeof(*o.kids)) : NULL;
	if (total && !o.kids)
		return load_oom(L);
	o.mask = 15;
	while (o.mask + 1 < 2 * total)
		o.mask = o.mask * 2 + 1;
	if (!(o.slots = calloc((size_t)o.mask + 1, sizeof(*o.slots))))
		return load_oom(L);
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		if (k->type != Y_SCALAR || k->kind != YS_MERGE) {
			merge_put(&o, k, v);
			continue;
		}
		bool list = v->type == Y_SEQ && !v->aliased;
		for (uint32_t j = list ? v->n : 1; j-- > 0;) {
			const struct ynode *x = list ? &v->kids[j] : v;
			for (uint32_t p = 0; p < x->n; p++)
				merge_put(&o, &x->kids[2 * p], &x->kids[2 * p + 1]);
		}
	}
	free(o.slots);
	m->kids = o.kids;
	m->n = m->cap = o.n;
	return 1;
}

/* ctx: the key whose value this collection is (or whose sequence holds it) */
static int tree_collection(struct loader *L, uint32_t depth, const struct ynode *ctx,
			   struct ynode *out, bool is_map)
{
	const struct keep *keep = is_map ? keep_list(L, ctx) : NULL;
	if (keep == keep_metadata && depth <= 2 && L->doc_list)
		keep = keep_doc_metadata;
	/* the entries of a List's items are objects */
	bool objects = is_map && ctx && y_key_is(ctx, "items");
	bool unread = false;   /* an object whose kind skewer does not read */
	yaml_event_type_t end = is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
	bool bad_key = false, merge = false, strmap = keep == keep_annotations;
	uint32_t base = L->nstack;
	struct load_keys_mark skipped = load_keys_mark(L);
	int ok = 0;
	out->type = is_map ? Y_MAP : Y_SEQ;
	take(L);
	for (;;) {
		yaml_event_t *e = peek(L);
		if (!e)
			goto done;
		if (e->type == end) {
			take(L);
			break;
		}
		if (out->n >= L->max_entries) {
			/* the model's checks pair lists (taints x tolerations,
			 * resources): a bound keeps them from going quadratic */
			load_err_at(L, out, "more than %u entries in one %s (expected at most %u)",
				    L->max_entries, is_map ? "mapping" : "sequence", L->max_entries);
			ynode_fini(out);
			out->type = Y_BAD;
			ok = skip_rest(L);
			goto done;
		}
		if (!is_map) {
			struct ynode kid;
			/* items of a sequence keep its context (containers' entries) */
			if (!tree_node(L, depth + 1, ctx, &kid) || !stack_push(L, &kid))
				goto done;
			out->n++;
			continue;
		}
		/* a map stores key and value as two consecutive kids; n counts pairs */
		struct ynode key, val;
		if ((keep || unread) && skipped_key(L, keep, unread, e)) {
			/* decided on the event: the key is never built, but
			 * recorded for the duplicate check */
			L->decode_count++;
			if (!event_key_add(L, e))
				goto done;
			take(L);
			if (strmap ? !skip_string_value(L, depth + 1, &L->krec[L->nkrec - 1])
				   : !load_skip(L))
				goto done;
			continue;
		}
		if (!tree_node(L, depth + 1, NULL, &key) || !load_key_canon(L, &key))
			goto done;
		const struct keep *ke = kept(keep, &key);
		if (unread && y_key_is(&key, "metadata")) {
			if (!keys_add(L, key.s, key.len, key.line, key.col) ||
			    !load_unread_metadata(L, depth + 1, &key))
				goto done;
			continue;
		}
		if (!ke || unread) {
			if (key.type == Y_SCALAR && key.kind == YS_MERGE) {
				/* not decoded, nor the sequence it merges */
				yaml_event_t *v = peek(L);
				if (!v)
					goto done;
				L->decode_count -= 1 + (v->type == YAML_SEQUENCE_START_EVENT &&
							!v->data.sequence_start.anchor);
			} else if (key.type == Y_SCALAR &&
				   !keys_add(L, key.s, key.len, key.line, key.col)) {
				goto done;
			}
			if (!load_skip(L))
				goto done;
			continue;
		}
		if (!tree_node(L, depth + 1, &key, &val))
			goto done;
		/* a string no reader types: an annotation, an init
		 * container's restartPolicy */
		if ((strmap || ke->str) && key.type == Y_SCALAR &&
		    !y_string_value(L, &val, strmap ? "annotations" : key.s, strmap ? key.s : NULL))
			val.type = Y_BAD;
		if (key.type != Y_SCALAR) {
			/* sigs.k8s.io/yaml convertToJSONableObject: "unsupported
			 * map key" for a null key as for a collection */
			if (key.type == Y_NULL)
				load_err_at(L, &key, "null used as a mapping key (expected a string key; "
					    "quote it: \"%s\")", key.s ? key.s : "");
			else if (key.type != Y_BAD)
				load_err_at(L, &key, "%s used as a mapping key (expected a string key)",
					    y_type_name(&key));
			bad_key = true;
			continue;
		}
		if (key.type == Y_SCALAR && key.kind == YS_MERGE) {
			/* decode.go mapping/merge decode neither the `<<` nor
			 * the sequence that lists the merged mappings */
			L->decode_count -= 1 + (val.type == Y_SEQ && !val.aliased);
			merge = true;
		}
		if (objects && unread_kind(&key, &val))
			unread = true;
		if (keep == keep_metadata && y_key_is(&key, "deletionTimestamp") && val.type != Y_NULL)
			L->pod_terminating = true;
		if (keep == keep_spec && L->bound_ok && y_key_is(&key, "nodeName") &&
		    val.type == Y_SCALAR && val.len) {
			keep = keep_bound_spec;
			L->pod_bound = true;
		}
		if (!stack_push(L, &key) || !stack_push(L, &val))
			goto done;
		out->n++;
	}
	if (is_map && !load_keys_check(L, skipped))
		goto done;
	if (bad_key) {
		/* reported: the readers stay silent about this mapping rather
		 * than add "no name" and the like for the key they lost */
		ynode_fini(out);
		out->type = Y_BAD;
		ok = 1;
		goto done;
	}
	if (out->n) {
		size_t nk = L->nstack - base;
		if (!(out->kids = arena_alloc(L, nk * sizeof(*out->kids)))) {
			load_oom(L);
			goto done;
		}
		memcpy(out->kids, L->stack + base, nk * sizeof(*out->kids));
		out->cap = out->n;
	}
	ok = is_map ? load_check_dup_keys(L, out) : 1;
	if (ok && merge)
		ok = load_merge_keys(L, out);
done:
	L->nstack = base;
	return ok;
}

int load_tree(struct loader *L, uint32_t depth, struct ynode *out)
{
	return tree_node(L, depth, NULL, out);
}

int load_tree_in(struct loader *L, uint32_t depth, const struct ynode *key, struct ynode *out)
{
	return tree_node(L, depth, key, out);
}

static int tree_node(struct loader *L, uint32_t depth, const struct ynode *ctx, struct ynode *out)
{
	memset(out, 0, sizeof(*out));
	yaml_event_t *e = peek(L);
	if (!e)
		return 0;
	if (e->type == YAML_ALIAS_EVENT) {
		bool fatal;
		const struct load_anchor *a;
		set_mark(out, e);
		if (!(a = alias_use(L, e, &fatal))) {
			out->type = Y_BAD;
			take(L);
			return !fatal;
		}
		/* the anchor's node, shared: readers never change a tree */
		*out = a->node;
		out->aliased = true;
		/* reported where it is used; what is inside, where written */
		set_mark(out, e);
		take(L);
		return 1;
	}
	if (event_anchor(e))
		return anchored_node(L, depth, out);
	return tree_plain(L, depth, ctx, out);
}

/* The type of the scalar event e (not null) from its tag or, untagged
 * and plain, its text (resolve.go resolve). */
static int scalar_kind(struct loader *L, const yaml_event_t *e, struct ynode *out)
{
	const char *tag = (const char *)e->data.scalar.tag;
	static const char pre[] = "tag:yaml.org,2002:";
	if (!tag) {
		out->kind = out->quoted ? YS_STR : resolve_plain(out->s, out->len);
		return 1;
	}
	/* decode.go scalar: the non-specific tag '!' is not resolvable, so
	 * `! 5` is the string "5" */
	if (!strcmp(tag, "!")) {
		out->tagged = true;
		out->kind = YS_STR;
		return 1;
	}
	out->tagged = true;
	if (strncmp(tag, pre, sizeof(pre) - 1)) {
		out->kind = YS_STR; /* a local tag: go-yaml keeps the text */
		return 1;
	}
	tag += sizeof(pre) - 1;
	if (!strcmp(tag, "null")) {
		out->type = Y_NULL;
		return 1;
	}
	if (!strcmp(tag, "merge") && out->len == 2 && !memcmp(out->s, "<<", 2)) {
		out->kind = YS_MERGE;
		return 1;
	}
	uint8_t want = !strcmp(tag, "int") ? YS_INT : !strcmp(tag, "float") ? YS_FLOAT :
		       !strcmp(tag, "bool") ? YS_BOOL : YS_STR;
	if (want == YS_STR) {
		out->kind = YS_STR; /* !!str, !!binary, !!timestamp... */
		return 1;
	}
	uint8_t got = out->len ? resolve_plain(out->s, out->len) : YS_STR;
	/* resolve.go: an int is a fine !!float */
	if (got == want || (want == YS_FLOAT && got == YS_INT)) {
		out->kind = want;
		return 1;
	}
	load_err_at(L, out, "cannot read '%s' as !!%s (expected a value of its tag's type)", out->s, tag);
	out->type = Y_BAD;
	return 1;
}

static int tree_plain(struct loader *L, uint32_t depth, const struct ynode *ctx, struct ynode *out)
{
	yaml_event_t *e = peek(L);
	if (!e)
		return 0;
	memset(out, 0, sizeof(*out));
	set_mark(out, e);
	L->decode_count++;
	switch (e->type) {
	case YAML_SCALAR_EVENT: {
		size_t len = e->data.scalar.length;
		if (len > L->max_scalar) {
			load_err_at(L, out, "scalar of %zu bytes is too long (expected at most %zu bytes)",
				    len, L->max_scalar);
			out->type = Y_BAD;
			take(L);
			return 1;
		}
		/* Every string skewer keeps is a C string: a NUL inside (written
		 * as "\0" or "\u0000") would silently cut a name short and make
		 * two names look alike, so it is refused here. Only a
		 * double-quoted scalar's escapes can make one: libyaml's
		 * reader refuses a NUL byte of the input in any style
		 * (yaml_parser_update_buffer, "control characters are not
		 * allowed"). */
		if (e->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE &&
		    memchr(e->data.scalar.value, '\0', len)) {
			load_err_at(L, out, "string contains a NUL character \\u0000 (expected text without NUL)");
			out->type = Y_BAD;
			take(L);
			return 1;
		}
		/* copied to the arena: libyaml's buffer is freed at once, while
		 * it is hot, as a bare parse does */
		if (!(out->s = arena_alloc(L, len + 1))) {
			take(L);
			return load_oom(L);
		}
		memcpy(out->s, e->data.scalar.value, len);
		out->s[len] = '\0';
		out->len = len;
		out->quoted = e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		out->type = (!out->quoted && !e->data.scalar.tag && plain_null(out->s, len)) ? Y_NULL : Y_SCALAR;
		if (out->type == Y_SCALAR)
			scalar_kind(L, e, out);
		take(L);
		return 1;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		/* depth is L->level + 1: load_peek enforced the limit already */
		(void)depth;
		if (!tree_collection(L, depth, ctx, out, e->type == YAML_MAPPING_START_EVENT)) {
			ynode_fini(out);
			return 0;
		}
		return 1;
	default:
		/* libyaml never yields another event where a node is due */
		load_err_at(L, out, "unexpected YAML event (expected a node)");
		L->abort_file = true;
		return 0;
	}
}
