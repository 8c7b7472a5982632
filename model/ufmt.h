/* ufmt.h - decimal text of unsigned numbers and field paths without
 * printf, for keys built on every scheduling cycle (selector and matcher
 * identities) and for the field paths of validation and of the loader's
 * messages (built for every field of every pod). */
#ifndef SKEWER_UFMT_H
#define SKEWER_UFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes v in decimal at out (no terminator); returns the digits written
 * (at most 10). */
static inline unsigned ufmt_u32(char *out, uint32_t v)
{
	char tmp[10];
	unsigned n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (unsigned i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* A field path: base then the parts, cut to cap - 1 bytes as snprintf
 * would. */
static inline void path_put(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
	if (*n + len >= cap)
		len = cap - 1 - *n;
	memcpy(out + *n, s, len);
	*n += len;
}

/* "%s%s" of base and tail */
static inline void path_cat(char *out, size_t cap, const char *base, const char *tail)
{
	size_t n = 0;
	path_put(out, cap, &n, base, strlen(base));
	path_put(out, cap, &n, tail, strlen(tail));
	out[n] = '\0';
}

/* "%s%s[%u]%s" of base, mid, i and tail */
static inline void path_idx(char *out, size_t cap, const char *base, const char *mid, uint32_t i, const char *tail)
{
	char num[12];
	size_t n = 0;
	unsigned d = ufmt_u32(num + 1, i);
	num[0] = '[';
	num[d + 1] = ']';
	path_put(out, cap, &n, base, strlen(base));
	path_put(out, cap, &n, mid, strlen(mid));
	path_put(out, cap, &n, num, d + 2);
	path_put(out, cap, &n, tail, strlen(tail));
	out[n] = '\0';
}

#endif
