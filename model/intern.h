/* intern.h - string interning: every label key, value, name and namespace
 * becomes a small dense integer (sym_t), so comparing two strings is
 * comparing two integers and a sym can index a plain array. */
#ifndef SKEWER_INTERN_H
#define SKEWER_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t sym_t;

/* 0 is "no string" (absent); the empty string "" is a real, non-zero sym. */
#define SYM_NONE ((sym_t)0)

struct intern;

/* Returns a new empty table, or NULL when out of memory. */
struct intern *intern_new(void);
void intern_free(struct intern *in);

/* Returns the sym of the len bytes at s (which need not be NUL-terminated),
 * adding it when new; SYM_NONE only when out of memory. */
sym_t intern_n(struct intern *in, const char *s, size_t len);
/* Same for a NUL-terminated string; s == NULL gives SYM_NONE. */
sym_t intern_str(struct intern *in, const char *s);
/* Returns the sym of s if already interned, else SYM_NONE; never adds. */
sym_t intern_find(const struct intern *in, const char *s, size_t len);

/* The NUL-terminated text of sym (owned by the table, valid until
 * intern_free); "" for SYM_NONE. */
const char *intern_get(const struct intern *in, sym_t sym);
size_t intern_len(const struct intern *in, sym_t sym);

/* One more than the largest sym handed out: arrays indexed by sym need
 * this many entries. */
uint32_t intern_count(const struct intern *in);

#endif
