/* yalloc.h - libyaml's memory (yalloc.c): libyaml allocates and frees a
 * few small strings for every scalar it scans, through yaml_malloc,
 * yaml_realloc, yaml_free and yaml_strdup. yalloc.c defines those four in
 * skewer's executable, where they take the place of libyaml's own (which
 * call malloc and free) and serve small blocks from free lists. */
#ifndef SKEWER_YALLOC_H
#define SKEWER_YALLOC_H

#include <stddef.h>

struct yalloc_stats {
	size_t live;           /* blocks handed out and not yet freed */
	size_t slabs;          /* slabs held for the small blocks */
	int active;            /* 0 in sanitizer builds: libyaml keeps malloc */
};

/* Gives the slabs back to malloc when no block is live (after
 * yaml_parser_delete). */
void yalloc_trim(void);
struct yalloc_stats yalloc_stats(void);

#endif
