/* save.h - the scenario writer: the inverse of the loader for what the
 * model holds. Writes a scenario in the shorthand form of
 * docs/scenario-format.md (version 1) so that loading the output gives the
 * same cluster, scheduler profile and steps. Used by the interface's `w`.
 *
 * What does not survive the trip: comments and the order of keys of the
 * input, `expect:` blocks (edits change outcomes, so they are dropped),
 * `replicas:` (copies are written one step each), per-container requests
 * (the pod's total is written as one container's requests) and pod fields
 * skewer does not read. */
#ifndef SKEWER_SAVE_H
#define SKEWER_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../model/scenario.h"

/* Writes sc to f. The cluster is written as it is now: the caller puts it
 * in its initial state first (timeline_goto(t, 0)); the alive bound pods
 * are written under `pods`. Returns 1, 0 on a write error (errno set). */
int save_scenario(FILE *f, const struct scenario *sc);
/* The same, with why[i] (NULL, or one per step, each NULL or a sentence)
 * saying in the comment that replaces an expect: block left out after an
 * edit what changed at step i. */
int save_scenario_why(FILE *f, const struct scenario *sc, const char *const *why);

/* Writes sc to path (why: as save_scenario_why) through a temporary file
 * beside it and a rename, so a failure never leaves a half-written file;
 * a symbolic link's file is replaced (the link kept), and a path that is
 * not a regular file (a device, FIFO or socket: /dev/stdout) is written
 * in place. Refuses to replace an existing file unless overwrite (errno
 * EEXIST). On failure returns 0 and writes "cannot write PATH: REASON"
 * (the system's text) into err. */
int save_scenario_file(const char *path, const struct scenario *sc, bool overwrite,
		       const char *const *why, char *err, size_t errlen);

#endif
