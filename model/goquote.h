/* goquote.h - Go's strconv.Quote (%q), for messages that must read as
 * the API server writes them. */
#ifndef SKEWER_GOQUOTE_H
#define SKEWER_GOQUOTE_H

#include <stddef.h>

/* Writes the quoted form of the n bytes at s into buf (len bytes, always
 * NUL-terminated when len > 0, truncated when too small). GO_QUOTE_MAX(n)
 * bytes always suffice. */
void go_quote(char *buf, size_t len, const char *s, size_t n);
#define GO_QUOTE_MAX(n) (4 * (n) + 3)

#endif
