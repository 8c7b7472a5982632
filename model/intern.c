/* intern.c - open-addressing hash table over an append-only string arena. */
#include "intern.h"

#include <stdlib.h>
#include <string.h>

struct intern {
	char **chunks;      /* arena chunks; strings never move */
	uint32_t nchunks;
	size_t chunk_used, chunk_size;
	const char **str;   /* sym -> text */
	uint32_t *len;      /* sym -> length */
	uint32_t nsyms, symcap;
	/* hash slots: 0 (empty) or the string's 32-bit hash above its sym,
	 * so that a probe compares hashes without reading the string, and
	 * growing rehashes nothing */
	uint64_t *slots;
	uint32_t nslots;    /* power of two */
};

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return (uint32_t)(h ^ (h >> 29));
}

struct intern *intern_new(void)
{
	struct intern *in = calloc(1, sizeof(*in));
	if (!in)
		return NULL;
	in->nslots = 1024;
	in->slots = calloc(in->nslots, sizeof(*in->slots));
	in->symcap = 512;
	in->str = malloc(in->symcap * sizeof(*in->str));
	in->len = malloc(in->symcap * sizeof(*in->len));
	if (!in->slots || !in->str || !in->len) {
		intern_free(in);
		return NULL;
	}
	in->str[0] = "";
	in->len[0] = 0;
	in->nsyms = 1;
	return in;
}

void intern_free(struct intern *in)
{
	if (!in)
		return;
	for (uint32_t i = 0; i < in->nchunks; i++)
		free(in->chunks[i]);
	free(in->chunks);
	free(in->str);
	free(in->len);
	free(in->slots);
	free(in);
}

static char *arena_copy(struct intern *in, const char *s, size_t n)
{
	if (!in->nchunks || in->chunk_used + n + 1 > in->chunk_size) {
		size_t size = n + 1 > 65536 ? n + 1 : 65536;
		char **nc = realloc(in->chunks, (in->nchunks + 1) * sizeof(*nc));
		if (!nc)
			return NULL;
		in->chunks = nc;
		if (!(nc[in->nchunks] = malloc(size)))
			return NULL;
		in->nchunks++;
		in->chunk_used = 0;
		in->chunk_size = size;
	}
	char *d = in->chunks[in->nchunks - 1] + in->chunk_used;
	memcpy(d, s, n);
	d[n] = '\0';
	in->chunk_used += n + 1;
	return d;
}

static int grow_slots(struct intern *in)
{
	uint32_t n = in->nslots * 2;
	uint64_t *s = calloc(n, sizeof(*s));
	if (!s)
		return 0;
	for (uint32_t k = 0; k < in->nslots; k++) {
		uint64_t e = in->slots[k];
		if (!e)
			continue;
		uint32_t i = (uint32_t)(e >> 32) & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = e;
	}
	free(in->slots);
	in->slots = s;
	in->nslots = n;
	return 1;
}

static uint64_t *lookup(const struct intern *in, const char *s, size_t n, uint32_t h)
{
	uint32_t i = h & (in->nslots - 1);
	for (;;) {
		uint64_t e = in->slots[i];
		sym_t sym = (sym_t)e;
		if (!e || ((uint32_t)(e >> 32) == h && in->len[sym] == n && memcmp(in->str[sym], s, n) == 0))
			return &in->slots[i];
		i = (i + 1) & (in->nslots - 1);
	}
}

sym_t intern_find(const struct intern *in, const char *s, size_t len)
{
	return (sym_t)*lookup(in, s, len, hash_bytes(s, len));
}

sym_t intern_n(struct intern *in, const char *s, size_t len)
{
	if (len > UINT32_MAX)
		return SYM_NONE;
	uint32_t h = hash_bytes(s, len);
	uint64_t *slot = lookup(in, s, len, h);
	if (*slot)
		return (sym_t)*slot;
	if ((uint64_t)(in->nsyms + 1) * 4 > (uint64_t)in->nslots * 3) {
		if (!grow_slots(in))
			return SYM_NONE;
		slot = lookup(in, s, len, h);
	}
	if (in->nsyms == in->symcap) {
		uint32_t cap = in->symcap * 2;
		const char **ns = realloc(in->str, cap * sizeof(*ns));
		if (!ns)
			return SYM_NONE;
		in->str = ns;
		uint32_t *nl = realloc(in->len, cap * sizeof(*nl));
		if (!nl)
			return SYM_NONE;
		in->len = nl;
		in->symcap = cap;
	}
	char *d = arena_copy(in, s, len);
	if (!d)
		return SYM_NONE;
	sym_t sym = in->nsyms++;
	in->str[sym] = d;
	in->len[sym] = (uint32_t)len;
	*slot = (uint64_t)h << 32 | sym;
	return sym;
}

sym_t intern_str(struct intern *in, const char *s)
{
	return s ? intern_n(in, s, strlen(s)) : SYM_NONE;
}

const char *intern_get(const struct intern *in, sym_t sym)
{
	return sym < in->nsyms ? in->str[sym] : "";
}

size_t intern_len(const struct intern *in, sym_t sym)
{
	return sym < in->nsyms ? in->len[sym] : 0;
}

uint32_t intern_count(const struct intern *in)
{
	return in->nsyms;
}
