/* ufmt.h - decimal text of unsigned numbers without printf, for keys
 * built on every scheduling cycle (selector and matcher identities) and
 * for the field paths of validation. */
#ifndef SKEWER_UFMT_H
#define SKEWER_UFMT_H

#include <stdint.h>

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

#endif
