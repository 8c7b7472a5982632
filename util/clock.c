/* clock.c - see clock.h. */
#include "clock.h"

#include <time.h>

double clock_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
