/* report.h - loading for a front end (the commands, the view, gen): the
 * loader's errors and warnings written to the FILE given, and the value
 * of --kube-version checked as every command checks it. */
#ifndef SKEWER_LOAD_REPORT_H
#define SKEWER_LOAD_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "load.h"

/* Loads files with opts; on failure writes the loader's errors to err
 * as FILE:LINE:COL: MESSAGE (at most LOAD_MAX_ERRORS) and returns 0.
 * Warnings are written as "warning: ...". Also rejects an invalid
 * scheduler configuration ("error: ..."). On success returns 1 and the
 * scenario in *out (the caller frees it). */
int load_report(FILE *err, const struct load_opts *opts, const char *const *files, uint32_t nfiles,
		struct scenario **out);

/* Writes FILE:LINE:COL: MESSAGE lines; with prefix (check) the form is
 * PREFIX: error: LINE:COL: MESSAGE. Every text is sanitised. */
void load_errors_print(FILE *f, const struct load_errors *e, const char *prefix);

/* Checks the value of --kube-version (NULL: the option had no value);
 * on a bad one prints the usage error "CMD: --kube-version: ..." naming
 * the range (util/status.h) and returns 0. */
int load_version_arg_ok(const char *cmd, const char *v);

#endif
