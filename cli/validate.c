/* validate.c - `skewer validate`: load the scenario and validate, as the
 * API server would after admission, every pod a schedule step creates. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "../model/validate.h"

/* Validates step i's pod on a copy (admission edits it). Returns 1 when
 * valid, 0 when invalid (reported), -1 on OOM. */
static int validate_step(struct cluster *c, const struct step *s, const char *where, uint32_t i)
{
	struct pod copy = {0};
	int rc = -1;
	if (!pod_copy(&copy, &s->pod))
		goto done;
	if (!admit_pod(c, &copy))
		goto done;
	char *msg = validate_pod(c, &copy);
	rc = 1;
	if (msg) {
		out_text(stdout, where, 0);
		printf(": step %u: ", i + 1);
		out_text(stdout, msg, 0);
		putchar('\n');
		free(msg);
		rc = 0;
	}
done:
	pod_fini(&copy);
	return rc;
}

int cli_validate(int argc, char **argv)
{
	struct cli_opts o;
	struct scenario *sc = NULL;
	int rc = CLI_USAGE;
	if (!cli_parse("validate", argc, argv, CLI_OPT_FILTER, &o))
		return CLI_USAGE;
	if (o.help) {
		cli_help(stdout, "validate");
		rc = CLI_OK;
		goto done;
	}
	if (o.nfiles == 0) {
		rc = cli_usage_error("validate: no scenario file given");
		goto done;
	}
	if (!cli_load(&o, o.files, o.nfiles, &sc))
		goto done;
	/* steps carry no file of their own: name the input when there is one */
	const char *where = o.nfiles == 1 ? o.files[0] : (sc->name ? sc->name : "-");
	uint32_t ninvalid = 0;
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		if (sc->steps[i].kind != STEP_SCHEDULE)
			continue;
		int v = validate_step(sc->cluster, &sc->steps[i], where, i);
		if (v < 0) {
			fprintf(stderr, "error: out of memory\n");
			goto done;
		}
		ninvalid += v == 0;
	}
	if (ninvalid == 0) {
		uint32_t npods = 0;
		for (uint32_t i = 0; i < sc->cluster->npods; i++)
			npods += sc->cluster->pods[i].alive;
		printf("ok: %u node%s, %u pod%s, %u step%s\n", sc->cluster->nalive_nodes,
		       sc->cluster->nalive_nodes == 1 ? "" : "s", npods, npods == 1 ? "" : "s",
		       sc->nsteps, sc->nsteps == 1 ? "" : "s");
		rc = CLI_OK;
	}
done:
	if (sc)
		scenario_free(sc);
	cli_opts_fini(&o);
	return rc;
}
