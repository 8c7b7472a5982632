/* common.c - what the commands share: option parsing, loading with error
 * reports, and the names of pods, nodes, steps and outcomes. */
#include "cli.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = status_usagev(fmt, ap);
	va_end(ap);
	return rc;
}

static int parse_step(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+')
		return 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return 0;
	*out = (uint32_t)v;
	return 1;
}

/* Matches --name VALUE and --name=VALUE; *val is NULL when the value is
 * missing (reported by the caller). */
static bool opt_value(const char *arg, const char *name, int *i, int argc, char **argv,
		      const char **val)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return false;
	if (arg[n] == '=') {
		*val = arg + n + 1;
		return true;
	}
	if (arg[n] != '\0')
		return false;
	*val = (*i + 1 < argc) ? argv[++*i] : NULL;
	return true;
}

int cli_parse(const char *cmd, int argc, char **argv, unsigned allowed, struct cli_opts *o)
{
	assert(cmd && o);
	memset(o, 0, sizeof(*o));
	o->color = OUT_COLOR_AUTO;
	if (argc > 0) {
		o->files = calloc((size_t)argc, sizeof(*o->files));
		if (!o->files) {
			fprintf(stderr, "skewer: out of memory\n");
			return 0;
		}
	}
	bool only_files = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (only_files || a[0] != '-' || !strcmp(a, "-")) {
			o->files[o->nfiles++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_files = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = true;
		} else if ((allowed & CLI_OPT_JSON) && !strcmp(a, "--json")) {
			o->json = true;
		} else if ((allowed & CLI_OPT_STEP) && opt_value(a, "--step", &i, argc, argv, &val)) {
			if (!parse_step(val, &o->step)) {
				cli_usage_error("%s: --step needs a step number (got %s)", cmd,
						val ? val : "nothing");
				goto error;
			}
			o->has_step = true;
		} else if ((allowed & CLI_OPT_FILTER) &&
			   (opt_value(a, "--namespace", &i, argc, argv, &val) ||
			    opt_value(a, "-n", &i, argc, argv, &val))) {
			if (!val) {
				cli_usage_error("%s: --namespace needs a namespace", cmd);
				goto error;
			}
			o->ns = val;
		} else if ((allowed & CLI_OPT_FILTER) &&
			   (opt_value(a, "--selector", &i, argc, argv, &val) ||
			    opt_value(a, "-l", &i, argc, argv, &val))) {
			if (!val) {
				cli_usage_error("%s: --selector needs a label selector", cmd);
				goto error;
			}
			o->sel = val;
		} else if ((allowed & CLI_OPT_COLOR) && opt_value(a, "--color", &i, argc, argv, &val)) {
			if (!val || !out_color_parse(val, &o->color)) {
				cli_usage_error("%s: --color takes auto, always or never", cmd);
				goto error;
			}
		} else if ((allowed & CLI_OPT_WORKSHEET) && !strcmp(a, "--worksheet")) {
			o->worksheet = true;
		} else if ((allowed & CLI_OPT_COLOR) && !strcmp(a, "--no-color")) {
			o->color = OUT_COLOR_NEVER;
		} else if (opt_value(a, "--kube-version", &i, argc, argv, &val)) {
			if (!load_version_arg_ok(cmd, val))
				goto error;
			o->kube_version = val;
		} else {
			cli_usage_error("%s: unknown option '%s'", cmd, a);
			goto error;
		}
	}
	return 1;
error:
	cli_opts_fini(o);
	return 0;
}

void cli_opts_fini(struct cli_opts *o)
{
	free(o->files);
	o->files = NULL;
	o->nfiles = 0;
}

static void progress_line(void *arg, const char *name, uint64_t done, uint64_t size)
{
	struct cli_progress *p = arg;
	if (done >= size) {
		/* this file is read: the next one starts its own line */
		cli_progress_end(p);
		return;
	}
	int pct = (int)(done * 100 / size);
	if ((p->shown && pct == p->last) || (!p->shown && clock_monotonic() - p->t0 < PROGRESS_DELAY))
		return;
	/* \r and erase to the end of the line: redrawn in place */
	/* the file's base name: the line must fit the terminal's width to
	 * be redrawn in place */
	const char *base = strrchr(name, '/');
	fputs("\rloading ", stderr);
	out_text(stderr, base && base[1] ? base + 1 : name, 0);
	fprintf(stderr, ": %d%% (%.0f of %.0f MiB)\033[K", pct, (double)done / 1048576.0,
		(double)size / 1048576.0);
	fflush(stderr);
	p->shown = true;
	p->last = pct;
}

static void progress_loaded(void *arg, bool ok)
{
	(void)ok;
	cli_progress_end(arg);
}

void cli_progress_begin(struct cli_progress *p, struct load_opts *lo)
{
	memset(p, 0, sizeof(*p));
	p->t0 = clock_monotonic();
	if (!isatty(STDERR_FILENO))
		return;
	lo->progress = progress_line;
	lo->loaded = progress_loaded;
	lo->progress_arg = p;
}

void cli_progress_end(struct cli_progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}

int cli_load(const struct cli_opts *o, const char *const *files, uint32_t nfiles,
	     struct scenario **out)
{
	struct load_opts lo = {0};
	struct cli_progress prog;
	lo.ns_filter = o->ns;
	lo.label_filter = o->sel;
	lo.kube_version = o->kube_version;
	cli_progress_begin(&prog, &lo);
	return load_report(stderr, &lo, files, nfiles, out);
}

const char *cli_sym(const struct cluster *c, sym_t s)
{
	return intern_get(c->in, s);
}

int cli_start(const char *cmd, int argc, char **argv, unsigned allowed, struct cli_opts *o,
	      struct scenario **sc, struct timeline **t)
{
	*sc = NULL;
	*t = NULL;
	if (!cli_parse(cmd, argc, argv, allowed, o))
		return CLI_USAGE;
	if (o->help) {
		cli_help(stdout, cmd);
		cli_opts_fini(o);
		return CLI_OK;
	}
	if (o->nfiles == 0) {
		cli_opts_fini(o);
		return cli_usage_error("%s: no scenario file given", cmd);
	}
	if (!cli_load(o, o->files, o->nfiles, sc)) {
		cli_opts_fini(o);
		return CLI_USAGE;
	}
	if (!(*t = timeline_new(*sc))) {
		fprintf(stderr, "error: out of memory\n");
		scenario_free(*sc);
		*sc = NULL;
		cli_opts_fini(o);
		return CLI_USAGE;
	}
	return -1;
}
