/* report.c - loading for a front end: the loader's errors written out,
 * the scheduler profile checked, --kube-version's value checked. */
#include "report.h"

#include <stdlib.h>

#include "../model/validate.h"
#include "../model/version.h"
#include "../util/out.h"
#include "../util/status.h"

int load_version_arg_ok(const char *cmd, const char *v)
{
	struct kube_version kv;
	char err[300];
	if (!v) {
		status_usage("%s: --kube-version needs a version, 1.%d to 1.%d (as 1.31 or 1.34.1)", cmd,
			     VERSION_MIN_MINOR, VERSION_MAX_MINOR);
		return 0;
	}
	if (!version_parse(v, false, &kv, err, sizeof(err))) {
		status_usage("%s: --kube-version: %s", cmd, err);
		return 0;
	}
	return 1;
}

void load_errors_print(FILE *f, const struct load_errors *e, const char *prefix)
{
	uint32_t n = e->n < LOAD_MAX_ERRORS ? e->n : LOAD_MAX_ERRORS;
	for (uint32_t i = 0; i < n; i++) {
		const struct load_error *le = &e->v[i];
		if (prefix) {
			/* check's form: FILE: error: LINE:COL: MESSAGE */
			out_text(f, prefix, 0);
			fputs(": error: ", f);
			if (le->line)
				fprintf(f, "%u:%u: ", le->line, le->col);
		} else {
			out_text(f, le->file ? le->file : "-", 0);
			if (le->line)
				fprintf(f, ":%u:%u", le->line, le->col);
			fputs(": ", f);
		}
		out_text(f, le->msg ? le->msg : "error", 0);
		fputc('\n', f);
	}
	uint32_t more = e->dropped + (e->n - n);
	if (more) {
		if (prefix) {
			out_text(f, prefix, 0);
			fputs(": error: ", f);
		}
		fprintf(f, "... and %u more error%s\n", more, more == 1 ? "" : "s");
	}
}

int load_report(FILE *err, const struct load_opts *opts, const char *const *files, uint32_t nfiles,
		struct scenario **out)
{
	struct load_errors errs = {0};
	struct scenario *sc = NULL;
	int ok = load_scenario(files, nfiles, opts, &sc, &errs);
	if (opts->loaded)
		opts->loaded(opts->progress_arg, ok);
	if (!ok) {
		if (errs.n == 0)
			fprintf(err, "error: cannot load the scenario\n");
		load_errors_print(err, &errs, NULL);
		goto error;
	}
	for (uint32_t i = 0; i < sc->nwarnings; i++) {
		fputs("warning: ", err);
		out_text(err, sc->warnings[i], 0);
		fputc('\n', err);
	}
	/* conventions 23: a bad scheduler profile stops the run */
	char *bad = validate_sched_config(sc->cluster);
	if (bad) {
		fputs("error: ", err);
		out_text(err, bad, 0);
		fputc('\n', err);
		free(bad);
		goto error;
	}
	load_errors_fini(&errs);
	*out = sc;
	return 1;
error:
	load_errors_fini(&errs);
	if (sc)
		scenario_free(sc);
	*out = NULL;
	return 0;
}
