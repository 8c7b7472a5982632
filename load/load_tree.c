/* load_tree.c - the libyaml event layer: a one-event lookahead, a small
 * tree built for one object at a time (so a 1 GB List never becomes one
 * tree), and the translation of libyaml errors into load errors. */
#include "loader.h"

#include <assert.h>
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
	if (!yaml_parser_parse(&L->parser, &L->ev)) {
		load_syntax_error(L);
		return NULL;
	}
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

/* The rest of a skipped collection, `depth` levels of it open: each event
 * straight from libyaml and freed at once, as a bare parse does, with the
 * checks of peek and take (syntax errors, the nesting limit, L->level).
 * Most of a kubectl dump (managedFields, status, annotations) goes by here. */
static int skip_open(struct loader *L, uint32_t depth)
{
	yaml_event_t *e = &L->ev;
	if (L->abort_file || L->oom)
		return 0;
	while (depth > 0) {
		if (!yaml_parser_parse(&L->parser, e)) {
			load_syntax_error(L);
			return 0;
		}
		switch (e->type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (L->level >= L->max_depth) {
				L->have_ev = true;
				too_deep(L);
				return 0;
			}
			L->level++;
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (L->level)
				L->level--;
			depth--;
			break;
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

int load_skip(struct loader *L)
{
	yaml_event_t *e = peek(L);
	if (!e)
		return 0;
	switch (e->type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		take(L);
		return skip_open(L, 1);
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
};
#define K(s) {s, sizeof(s) - 1}
static const struct keep keep_metadata[] = {K("name"), K("namespace"), K("labels"),
					    K("ownerReferences"), K("deletionTimestamp"),
					    K("creationTimestamp"), K("annotations"), K("uid"), {NULL, 0}};
static const struct keep keep_status[] = {K("phase"), K("allocatable"), K("capacity"),
					  K("startTime"), K("nominatedNodeName"),
					  K("disruptionsAllowed"), K("conditions"), K("containerStatuses"),
					  K("initContainerStatuses"), {NULL, 0}};
/* a bound pod's: its Ready condition and restarts (the controllers) */
static const struct keep keep_bound_status[] = {K("phase"), K("startTime"), K("nominatedNodeName"),
						K("conditions"), K("containerStatuses"),
						K("initContainerStatuses"), {NULL, 0}};
static const struct keep keep_cstatus[] = {K("name"), K("restartCount"), {NULL, 0}};
/* the annotations the controllers read (load_life.c) */
static const struct keep keep_annotations[] = {K("controller.kubernetes.io/pod-deletion-cost"),
					       K("kubernetes.io/config.mirror"),
					       K("kubernetes.io/config.source"),
					       K("descheduler.alpha.kubernetes.io/evict"),
					       K("deployment.kubernetes.io/max-replicas"), {NULL, 0}};
/* a condition: a pending pod's PodScheduled message, a terminating
 * pod's DisruptionTarget reason */
static const struct keep keep_condition[] = {K("type"), K("status"), K("message"), K("reason"),
					     K("lastTransitionTime"), {NULL, 0}};
static const struct keep keep_container[] = {K("name"), K("resources"), K("restartPolicy"),
					     {NULL, 0}};
/* a Pod's, a Node's, a workload's and a PodDisruptionBudget's spec:
 * volumes, securityContext, dnsPolicy and the like are never read */
static const struct keep keep_spec[] = {K("affinity"), K("containers"), K("initContainers"),
					K("nodeName"), K("nodeSelector"), K("overhead"),
					K("priority"), K("priorityClassName"),
					K("preemptionPolicy"), K("tolerations"),
					K("topologySpreadConstraints"), K("taints"),
					K("unschedulable"), K("selector"), K("template"),
					K("minAvailable"), K("maxUnavailable"), K("replicas"),
					K("strategy"), K("podManagementPolicy"), K("ordinals"),
					K("volumes"), {NULL, 0}};
/* the spec of a bound Pod once its nodeName is read (load_pod drops
 * these fields anyway): kubectl writes keys in order, so
 * topologySpreadConstraints and nodeSelector come after nodeName */
static const struct keep keep_bound_spec[] = {K("affinity"), K("containers"), K("initContainers"),
					      K("nodeName"), K("overhead"), K("priority"),
					      K("priorityClassName"), K("preemptionPolicy"),
					      K("tolerations"), K("taints"), K("unschedulable"),
					      K("selector"), K("template"), K("topologySpreadConstraints"),
					      K("nodeSelector"), K("volumes"), {NULL, 0}};
/* an owner reference: its blockOwnerDeletion is never read */
static const struct keep keep_owner[] = {K("apiVersion"), K("kind"), K("name"), K("controller"), K("uid"),
					 {NULL, 0}};
#undef K

bool load_kind_read(const char *k)
{
	static const char *const kinds[] = {"Node", "Pod", "Service", "Deployment", "ReplicaSet", "StatefulSet",
					    "ReplicationController", "PriorityClass",
					    "PodDisruptionBudget", NULL};
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
	if (y_key_is(key, "spec"))
		return keep_spec;
	if (y_key_is(key, "status"))
		return L->pod_bound && !L->pod_terminating ? keep_bound_status : keep_status;
	if (y_key_is(key, "containers") || y_key_is(key, "initContainers"))
		return keep_container;
	if (y_key_is(key, "containerStatuses") || y_key_is(key, "initContainerStatuses"))
		return keep_cstatus;
	if (y_key_is(key, "annotations"))
		return keep_annotations;
	if (y_key_is(key, "ownerReferences"))
		return keep_owner;
	return NULL;
}

static bool kept(const struct keep *keep, const struct ynode *key)
{
	if (!keep || key->type != Y_SCALAR)
		return true;
	for (; keep->s; keep++)
		if (key->len == keep->len && !memcmp(key->s, keep->s, keep->len))
			return true;
	return false;
}

static int tree_node(struct loader *L, uint32_t depth, const struct ynode *ctx, struct ynode *out);

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
	/* too long, or holding a NUL: tree_node reports it */
	if (len > L->max_scalar || memchr(v, '\0', len))
		return false;
	if (unread)
		return true;
	/* a null key is kept (and its value read) */
	if (e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && plain_null(v, len))
		return false;
	for (; keep->s; keep++)
		if (len == keep->len && !memcmp(v, keep->s, len))
			return false;
	return true;
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

/* ctx: the key whose value this collection is (or whose sequence holds it) */
static int tree_collection(struct loader *L, uint32_t depth, const struct ynode *ctx,
			   struct ynode *out, bool is_map)
{
	const struct keep *keep = is_map ? keep_list(L, ctx) : NULL;
	/* the entries of a List's items are objects */
	bool objects = is_map && ctx && y_key_is(ctx, "items");
	bool unread = false;   /* an object whose kind skewer does not read */
	yaml_event_type_t end = is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
	bool bad_key = false;
	uint32_t base = L->nstack;
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
			/* decided on the event: the key is never copied */
			take(L);
			if (!load_skip(L))
				goto done;
			continue;
		}
		if (!tree_node(L, depth + 1, NULL, &key))
			goto done;
		if (!kept(keep, &key) || unread) {
			if (!load_skip(L))
				goto done;
			continue;
		}
		if (!tree_node(L, depth + 1, &key, &val))
			goto done;
		if (key.type != Y_SCALAR && key.type != Y_NULL) {
			if (key.type != Y_BAD)
				load_err_at(L, &key, "%s used as a mapping key (expected a string key)",
					    y_type_name(&key));
			bad_key = true;
			continue;
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
	set_mark(out, e);
	switch (e->type) {
	case YAML_ALIAS_EVENT:
		load_err_at(L, out, "alias '*%s' is not supported (expected plain YAML without aliases)",
			    (const char *)e->data.alias.anchor);
		out->type = Y_BAD;
		take(L);
		return 1;
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
		out->type = (!out->quoted && plain_null(out->s, len)) ? Y_NULL : Y_SCALAR;
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
