/* fiterror.h - framework/types.go FitError.Error: "0/N nodes are
 * available: <count> <reason>, ...." from a histogram of reasons. Used by
 * the scheduling cycle's Pending message and by preemption's. */
#ifndef SKEWER_FITERROR_H
#define SKEWER_FITERROR_H

#include <stdbool.h>
#include <stdint.h>

struct reason_hist {
	struct reason_count *v;
	uint32_t n;
};

/* Adds n nodes with reason text (copied). 0 on OOM. */
int reason_hist_add(struct reason_hist *h, const char *text, uint32_t n);
/* Adds one node's status: its reasons joined by ", " (several: split
 * them, as NodeResourcesFit's are counted each on its own). 0 on OOM. */
int reason_hist_add_status(struct reason_hist *h, const char *reasons, bool several);
/* "0/nall nodes are available: A, B." with the entries "COUNT REASON"
 * sorted as strings (sort.Strings), malloc'd; NULL on OOM. */
char *reason_hist_text(const struct reason_hist *h, uint32_t nall);
void reason_hist_fini(struct reason_hist *h);

/* schedule_one.go truncateMessage: an event note of more than 1,024
 * bytes is cut to 1,020 and " ..." appended (in place). */
void event_truncate(char *msg);

#endif
