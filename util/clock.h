/* clock.h - seconds on a monotonic clock, and how long a load runs before
 * it shows its progress (the command line's stderr line, the view's bar). */
#ifndef SKEWER_CLOCK_H
#define SKEWER_CLOCK_H

/* A load quicker than this shows no progress at all. */
#define PROGRESS_DELAY 0.3

/* Seconds on CLOCK_MONOTONIC. */
double clock_monotonic(void);

#endif
