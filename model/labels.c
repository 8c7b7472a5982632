/* labels.c - sorted small arrays: label maps are short (a few to a few
 * dozen entries), so binary search beats hashing. */
#include "labels.h"

#include <stdlib.h>
#include <string.h>

void labels_fini(struct labels *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static uint32_t find(const struct labels *l, sym_t key, bool *found)
{
	uint32_t lo = 0, hi = l->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (l->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < l->n && l->v[lo].key == key;
	return lo;
}

int labels_set(struct labels *l, sym_t key, sym_t val)
{
	bool found;
	uint32_t i = find(l, key, &found);
	if (found) {
		l->v[i].val = val;
		return 1;
	}
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 4;
		struct label *nv = realloc(l->v, cap * sizeof(*nv));
		if (!nv)
			return 0;
		l->v = nv;
		l->cap = cap;
	}
	memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof(*l->v));
	l->v[i].key = key;
	l->v[i].val = val;
	l->n++;
	return 1;
}

int labels_del(struct labels *l, sym_t key)
{
	bool found;
	uint32_t i = find(l, key, &found);
	if (!found)
		return 0;
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
	return 1;
}

sym_t labels_get(const struct labels *l, sym_t key)
{
	bool found;
	uint32_t i = find(l, key, &found);
	return found ? l->v[i].val : SYM_NONE;
}

int labels_copy(struct labels *dst, const struct labels *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return 1;
	dst->v = malloc(src->n * sizeof(*dst->v));
	if (!dst->v)
		return 0;
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = dst->cap = src->n;
	return 1;
}

bool labels_contains(const struct labels *l, const struct labels *sub)
{
	for (uint32_t i = 0; i < sub->n; i++)
		if (labels_get(l, sub->v[i].key) != sub->v[i].val)
			return false;
	return true;
}

bool labels_equal(const struct labels *a, const struct labels *b)
{
	return a->n == b->n && (!a->n || memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0);
}
