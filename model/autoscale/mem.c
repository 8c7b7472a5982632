/* mem.c - the array-append helper both autoscalers' simulations
 * (ca.c, karpenter.c) use for their reports (their formatted strings are
 * util's out_strf). */
#include "autoscale.h"

#include <stdlib.h>
#include <string.h>

int as_push(void **v, uint32_t *n, size_t sz)
{
	void *nv = realloc(*v, (*n + 1) * sz);
	if (!nv)
		return 0;
	memset((char *)nv + *n * sz, 0, sz);
	*v = nv;
	(*n)++;
	return 1;
}
