/* fixout.h - how `skewer fix` words and writes a fix (cli/fix.c), shared
 * with explain's one-line best fix. */
#ifndef SKEWER_FIXOUT_H
#define SKEWER_FIXOUT_H

#include "cli.h"
#include "../model/fix.h"

/* One fix as the contract's JSON object (kind, summary, podPatch,
 * schedulerPatch, edits, node, and the extra fields). */
void cli_fix_json(struct out_json *j, const struct timeline *t, const struct fix_report *r,
		  const struct fix *f);

/* Every fix of step i (just applied, pending), at most limit per kind,
 * the timeline left after step i again. 0 on OOM. */
int cli_fixes_at(struct timeline *t, uint32_t i, uint32_t limit, struct fix_report *r);
/* A step as a version 1 step of the scenario format (schedule gives the
 * pod's name and namespace only), with its choose. */
void cli_step_json(struct out_json *j, const struct timeline *t, const struct step *e);
/* Step i, just applied (t->cur == i + 1) and pending: its best fix
 * (fix_best) into *r, the timeline left after step i again. 0 on OOM. */
int cli_best_fix(struct timeline *t, uint32_t i, struct fix_report *r);

#endif
