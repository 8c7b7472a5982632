/* mem.c - the small allocation helpers both autoscalers' simulations
 * (ca.c, karpenter.c) use for their reports. */
#include "autoscale.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *as_fmt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

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
