/* hmap.h - the one hash map: 64-bit keys to 64-bit values, open
 * addressing with linear probing, growing by doubling at half full.
 * Keys are never removed. Used for name indices (the cluster's pods by
 * namespace and name, its label pairs; the loader's duplicate names).
 * Lookups are inline: they sit on paths that run per pod. */
#ifndef SKEWER_HMAP_H
#define SKEWER_HMAP_H

#include <stdint.h>

/* Starts zeroed (an empty map, no memory); hmap_fini frees. */
struct hmap {
	uint64_t *keys;        /* key + 1; 0 = empty slot */
	uint64_t *vals;
	uint32_t mask, n;      /* mask = slots - 1 (0: no slots yet), n keys */
};

/* The slot hash: murmur3's finalizer, halved. */
static inline uint64_t hmap_mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

/* The value of key (any key but UINT64_MAX), or -1 when absent. Values
 * above INT64_MAX read back negative: keep them below. */
static inline int64_t hmap_get(const struct hmap *m, uint64_t key)
{
	if (!m->mask)
		return -1;
	uint32_t i = (uint32_t)hmap_mix(key + 1) & m->mask;
	while (m->keys[i]) {
		if (m->keys[i] == key + 1)
			return (int64_t)m->vals[i];
		i = (i + 1) & m->mask;
	}
	return -1;
}

/* Sets key to val (adding or replacing). Returns 1, 0 when out of memory
 * (the map is then unchanged). */
int hmap_put(struct hmap *m, uint64_t key, uint64_t val);

/* Empties the map, keeping its slots for reuse. */
void hmap_clear(struct hmap *m);

/* Frees the slots and zeroes the map. */
void hmap_fini(struct hmap *m);

#endif
