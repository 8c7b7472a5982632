/* yalloc.c - libyaml's allocator, defined in skewer's executable.
 *
 * libyaml's scanner starts four strings of 16 bytes for every plain
 * scalar and frees three of them when the scalar ends; the parser frees
 * the fourth with the event. All of it goes through four functions of
 * libyaml's API (yaml_malloc, yaml_realloc, yaml_free, yaml_strdup),
 * which libyaml itself calls through its PLT, so the definitions below,
 * in the executable, are the ones the dynamic linker binds for libyaml
 * too (symbol interposition). They serve blocks of up to 8 KiB from
 * free lists of power-of-two classes carved from 64 KiB slabs: a
 * malloc or free is a pop or a push, where glibc's took a fifth of a
 * parse's time (docs/performance.md, eighth round). Larger blocks (the
 * input buffers) go to malloc.
 *
 * All four are defined together, so libyaml either takes all of them or
 * none (a static libyaml would fail to link, with two definitions). A
 * block records its class in a 16-byte header before it, so the blocks
 * keep malloc's alignment. skewer is single-threaded; these are not
 * thread-safe. Sanitizer builds leave libyaml on malloc, so that
 * AddressSanitizer sees its blocks. */
#include "yalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define YALLOC_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define YALLOC_OFF 1
#endif
#endif

#ifndef YALLOC_OFF
#include <yaml.h>

#define HDR 16u
#define MIN_SHIFT 5u           /* the smallest class: 32 bytes with the header */
#define NCLASS 9u              /* 32 .. 8192 */
#define LARGE NCLASS           /* class of a block from malloc */
#define MAX_BLOCK ((size_t)1 << (MIN_SHIFT + NCLASS - 1))  /* the largest class, header included */
#define SLAB ((size_t)64 * 1024)

struct hdr {
	uint32_t cls;
	uint32_t unused;
	size_t size;           /* LARGE: the size asked for */
};

/* the header keeps blocks at malloc's 16-byte alignment */
_Static_assert(sizeof(struct hdr) == HDR, "yalloc: the header must be 16 bytes");

struct slab {
	struct slab *next;
	unsigned char pad[HDR - sizeof(struct slab *)];
	unsigned char data[];
};

static void *free_list[NCLASS];
static struct slab *slabs;
static unsigned char *cur, *end;   /* the unused rest of the newest slab */
static size_t live;                /* blocks handed out and not yet freed */

/* n: the block's size with its header, at most MAX_BLOCK */
static inline unsigned class_of(size_t n)
{
	if (n <= (1u << MIN_SHIFT))
		return 0;
	return (unsigned)(64 - __builtin_clzll((unsigned long long)(n - 1))) - MIN_SHIFT;
}

/* a class's block size, header included */
static inline size_t class_size(unsigned c)
{
	return (size_t)1 << (c + MIN_SHIFT);
}

static void *alloc(size_t size)
{
	struct hdr *h;
	if (size > SIZE_MAX - HDR)
		return NULL;
	if (size + HDR > MAX_BLOCK) {
		if (!(h = malloc(size + HDR)))
			return NULL;
		h->cls = LARGE;
		h->size = size;
		live++;
		return h + 1;
	}
	unsigned c = class_of(size + HDR);
	void *p = free_list[c];
	if (p) {
		free_list[c] = *(void **)p;
		live++;
		return p;
	}
	if ((size_t)(end - cur) < class_size(c)) {
		struct slab *s = malloc(sizeof(*s) + SLAB);
		if (!s)
			return NULL;
		s->next = slabs;
		slabs = s;
		cur = s->data;
		end = s->data + SLAB;
	}
	h = (struct hdr *)cur;
	cur += class_size(c);
	h->cls = c;
	live++;
	return h + 1;
}

/* libyaml/src/api.c yaml_malloc: never NULL for 0 bytes */
void *yaml_malloc(size_t size)
{
	return alloc(size ? size : 1);
}

void yaml_free(void *ptr)
{
	if (!ptr)
		return;
	struct hdr *h = (struct hdr *)ptr - 1;
	live--;
	if (h->cls == LARGE) {
		free(h);
		return;
	}
	*(void **)ptr = free_list[h->cls];
	free_list[h->cls] = ptr;
}

void *yaml_realloc(void *ptr, size_t size)
{
	if (!ptr)
		return yaml_malloc(size);
	struct hdr *h = (struct hdr *)ptr - 1;
	size_t have = h->cls == LARGE ? h->size : class_size(h->cls) - HDR;
	void *q;
	if (!size)
		size = 1;
	if (h->cls != LARGE && size <= have)
		return ptr;
	if (h->cls == LARGE && size + HDR > MAX_BLOCK) {
		/* large stays large: realloc may grow it in place */
		if (size > SIZE_MAX - HDR || !(h = realloc(h, size + HDR)))
			return NULL;
		h->size = size;
		return h + 1;
	}
	if (!(q = alloc(size)))
		return NULL;
	memcpy(q, ptr, have < size ? have : size);
	yaml_free(ptr);
	return q;
}

yaml_char_t *yaml_strdup(const yaml_char_t *str)
{
	if (!str)
		return NULL;
	size_t n = strlen((const char *)str) + 1;
	yaml_char_t *q = alloc(n);
	if (q)
		memcpy(q, str, n);
	return q;
}

void yalloc_trim(void)
{
	if (live)
		return;
	while (slabs) {
		struct slab *s = slabs;
		slabs = s->next;
		free(s);
	}
	memset(free_list, 0, sizeof(free_list));
	cur = end = NULL;
}

struct yalloc_stats yalloc_stats(void)
{
	struct yalloc_stats st = {live, 0, 1};
	for (const struct slab *s = slabs; s; s = s->next)
		st.slabs++;
	return st;
}

#else /* sanitizer build: libyaml's own functions, on malloc */

void yalloc_trim(void)
{
}

struct yalloc_stats yalloc_stats(void)
{
	struct yalloc_stats st = {0, 0, 0};
	return st;
}

#endif
