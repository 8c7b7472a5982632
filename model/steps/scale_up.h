/* scale_up.h - the report of a scaleUp step, for explain and check. */
#ifndef SKEWER_STEP_SCALE_UP_H
#define SKEWER_STEP_SCALE_UP_H

#include <stdint.h>

struct timeline;
struct as_report;
/* The report of step i once applied (a scaleUp), else NULL. */
const struct as_report *scale_up_report(const struct timeline *t, uint32_t i);

#endif
