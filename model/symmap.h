/* symmap.h - a small open-addressing map from sym to int32, sized for a
 * known number of keys; used for per-decision domain tables. */
#ifndef SKEWER_SYMMAP_H
#define SKEWER_SYMMAP_H

#include <stdint.h>
#include <stdlib.h>
#include "intern.h"

struct symmap {
	sym_t *keys;   /* SYM_NONE = empty slot */
	int32_t *vals;
	uint32_t mask;
};

/* Room for up to `n` keys. Returns 1, 0 on OOM. */
static inline int symmap_init(struct symmap *m, uint32_t n)
{
	uint32_t cap = 16;
	while (cap < n * 2 + 1)
		cap *= 2;
	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = malloc(cap * sizeof(*m->vals));
	m->mask = cap - 1;
	return m->keys && m->vals;
}

static inline void symmap_fini(struct symmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
}

static inline uint32_t symmap_slot(const struct symmap *m, sym_t k)
{
	uint32_t i = (k * 2654435761u) & m->mask;
	while (m->keys[i] && m->keys[i] != k)
		i = (i + 1) & m->mask;
	return i;
}

/* The value of k, or -1 when absent. */
static inline int32_t symmap_get(const struct symmap *m, sym_t k)
{
	uint32_t i = symmap_slot(m, k);
	return m->keys[i] ? m->vals[i] : -1;
}

/* Inserts k -> v unless present; returns the stored value. */
static inline int32_t symmap_put(struct symmap *m, sym_t k, int32_t v)
{
	uint32_t i = symmap_slot(m, k);
	if (!m->keys[i]) {
		m->keys[i] = k;
		m->vals[i] = v;
	}
	return m->vals[i];
}

#endif
