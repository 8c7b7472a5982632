/* labels.h - a label map (key -> value), kept sorted by key sym. */
#ifndef SKEWER_LABELS_H
#define SKEWER_LABELS_H

#include <stdbool.h>
#include "intern.h"

struct label {
	sym_t key;
	sym_t val;
};

struct labels {
	struct label *v; /* sorted by key, unique keys */
	uint32_t n, cap;
};

/* An embedded map starts zeroed (empty); labels_fini frees it. */
void labels_fini(struct labels *l);
/* Sets key to val (replacing). Returns 1, or 0 when out of memory. */
int labels_set(struct labels *l, sym_t key, sym_t val);
/* Removes key; returns 1 if it was there. */
int labels_del(struct labels *l, sym_t key);
/* The value of key, or SYM_NONE when absent (an empty value is not NONE). */
sym_t labels_get(const struct labels *l, sym_t key);
/* Deep copy into dst (which must be zeroed or finalized). 1/0 on OOM. */
int labels_copy(struct labels *dst, const struct labels *src);
/* True when every pair of sub is in l (Kubernetes "set matches"). */
bool labels_contains(const struct labels *l, const struct labels *sub);
bool labels_equal(const struct labels *a, const struct labels *b);

#endif
