/* hmap.c - growing and filling the one hash map (hmap.h). */
#include "hmap.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct hmap *m)
{
	uint32_t ncap = m->mask ? (m->mask + 1) * 2 : 64;
	uint64_t *k = calloc(ncap, sizeof(*k)), *v = malloc(ncap * sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return 0;
	}
	for (uint32_t i = 0; m->mask && i <= m->mask; i++) {
		if (!m->keys[i])
			continue;
		uint32_t j = (uint32_t)hmap_mix(m->keys[i]) & (ncap - 1);
		while (k[j])
			j = (j + 1) & (ncap - 1);
		k[j] = m->keys[i];
		v[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = k;
	m->vals = v;
	m->mask = ncap - 1;
	return 1;
}

int hmap_put(struct hmap *m, uint64_t key, uint64_t val)
{
	if ((m->n + 1) * 2 > (m->mask ? m->mask + 1 : 0) && !grow(m))
		return 0;
	uint32_t i = (uint32_t)hmap_mix(key + 1) & m->mask;
	while (m->keys[i] && m->keys[i] != key + 1)
		i = (i + 1) & m->mask;
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key + 1;
	m->vals[i] = val;
	return 1;
}

void hmap_clear(struct hmap *m)
{
	if (m->mask)
		memset(m->keys, 0, ((size_t)m->mask + 1) * sizeof(*m->keys));
	m->n = 0;
}

void hmap_fini(struct hmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
