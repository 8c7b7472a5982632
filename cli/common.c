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

#include "../model/validate.h"
#include "../model/version.h"

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	struct out_buf b = {0};
	char tmp[512];
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* the message may quote an argument: keep the terminal safe */
	out_sanitize(&b, tmp, strlen(tmp), 0);
	fprintf(stderr, "skewer: %s\nTry 'skewer --help' for more information.\n",
		b.oom ? tmp : out_buf_str(&b));
	out_buf_fini(&b);
	return CLI_USAGE;
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

int cli_kube_version_ok(const char *cmd, const char *v)
{
	struct kube_version kv;
	char err[300];
	if (!v) {
		cli_usage_error("%s: --kube-version needs a version, 1.%d to 1.%d (as 1.31 or 1.34.1)", cmd,
				VERSION_MIN_MINOR, VERSION_MAX_MINOR);
		return 0;
	}
	if (!version_parse(v, false, &kv, err, sizeof(err))) {
		cli_usage_error("%s: --kube-version: %s", cmd, err);
		return 0;
	}
	return 1;
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
			if (!cli_kube_version_ok(cmd, val))
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

void cli_print_load_errors(FILE *f, const struct load_errors *e, const char *prefix)
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

double cli_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
	if ((p->shown && pct == p->last) || (!p->shown && cli_monotonic() - p->t0 < CLI_PROGRESS_DELAY))
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

void cli_progress_begin(struct cli_progress *p, struct load_opts *lo)
{
	memset(p, 0, sizeof(*p));
	p->t0 = cli_monotonic();
	if (!isatty(STDERR_FILENO))
		return;
	lo->progress = progress_line;
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
	struct load_errors errs = {0};
	struct load_opts lo = {0};
	struct scenario *sc = NULL;
	struct cli_progress prog;
	lo.ns_filter = o->ns;
	lo.label_filter = o->sel;
	lo.kube_version = o->kube_version;
	if (o->progress) {
		lo.progress = o->progress;
		lo.progress_arg = o->progress_arg;
	} else {
		cli_progress_begin(&prog, &lo);
	}
	int ok = load_scenario(files, nfiles, &lo, &sc, &errs);
	if (o->progress && o->loaded)
		o->loaded(o->progress_arg, ok);
	else if (!o->progress)
		cli_progress_end(&prog);
	if (!ok) {
		if (errs.n == 0)
			fprintf(stderr, "error: cannot load the scenario\n");
		cli_print_load_errors(stderr, &errs, NULL);
		goto error;
	}
	for (uint32_t i = 0; i < sc->nwarnings; i++) {
		fputs("warning: ", stderr);
		out_text(stderr, sc->warnings[i], 0);
		fputc('\n', stderr);
	}
	/* conventions 23: a bad scheduler profile stops the run */
	char *bad = validate_sched_config(sc->cluster);
	if (bad) {
		fputs("error: ", stderr);
		out_text(stderr, bad, 0);
		fputc('\n', stderr);
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

const char *cli_sym(const struct cluster *c, sym_t s)
{
	return intern_get(c->in, s);
}

void cli_pod_name(struct out_buf *b, const struct cluster *c, sym_t ns, sym_t name,
		  bool short_default)
{
	if (ns != SYM_NONE && !(short_default && ns == c->sym_default)) {
		out_buf_puts(b, cli_sym(c, ns));
		out_buf_putc(b, '/');
	} else if (!short_default) {
		out_buf_puts(b, "default/");
	}
	out_buf_puts(b, cli_sym(c, name));
}

bool cli_step_pod(struct out_buf *b, const struct timeline *t, uint32_t i)
{
	sym_t ns, name;
	if (!step_pod_name(t, i, &ns, &name))
		return false;
	if (ns != SYM_NONE) {
		cli_pod_name(b, t->c, ns, name, false);
	} else {
		/* a target written without its namespace, as written */
		out_buf_puts(b, cli_sym(t->c, name));
	}
	return true;
}

void cli_step_what(struct out_buf *b, const struct timeline *t, uint32_t i)
{
	char buf[256];
	size_t n = step_describe(t, i, buf, sizeof(buf));
	if (n < sizeof(buf)) {
		out_buf_puts(b, buf);
		return;
	}
	char *big = malloc(n + 1);
	if (!big) {
		out_buf_puts(b, buf); /* cut, as out_buf would be on OOM */
		return;
	}
	step_describe(t, i, big, n + 1);
	out_buf_puts(b, big);
	free(big);
}

const char *cli_node_name(const struct cluster *c, int64_t id)
{
	if (id < 0 || (uint64_t)id >= c->nnodes)
		return "";
	return cli_sym(c, c->nodes[id].name);
}

const char *cli_outcome_name(enum outcome o)
{
	switch (o) {
	case OUT_SCHEDULED: return "scheduled";
	case OUT_PENDING: return "pending";
	case OUT_INVALID: return "invalid";
	case OUT_ERROR: return "error";
	case OUT_APPLIED: return "applied";
	}
	return "error";
}

bool cli_decision_filled(const struct step *s, const struct decision *d)
{
	/* the model fills every decision it is given; only a scheduling cycle
	 * that ran has a verdict (an invalid pod or a duplicate name has none;
	 * a failed `choose` and a cluster without nodes do) */
	if (!step_runs_cycle(s))
		return false;
	return d->outcome == OUT_SCHEDULED || d->outcome == OUT_PENDING || d->nnodes > 0 ||
	       d->ncons > 0;
}

unsigned cli_blockers(const struct node_rec *r)
{
	if (r->feasible)
		return 0;
	if (r->blockers)
		return r->blockers;
	return r->fail >= 0 && r->fail < PL__COUNT ? 1u << r->fail : 0;
}

bool cli_blocker_unresolvable(const struct node_rec *r, enum plugin_id p)
{
	if (p < 0 || p >= PL__COUNT)
		return false;
	if (!r->blockers)
		return r->fail == (int8_t)p && r->unresolvable;
	return (r->blockers_unres >> p) & 1u;
}

bool cli_postfilter_ran(const struct decision *d)
{
	/* a failed `choose` undoes the cycle's preemption: the step is an
	 * error and changed nothing */
	return d->outcome == OUT_PENDING && d->pre.outcome != PRE_NONE;
}

const char *cli_event(const struct decision *d)
{
	return d->outcome == OUT_PENDING ? d->event : NULL;
}

int32_t cli_nominated(const struct decision *d)
{
	/* the node is set only for a nomination (a zeroed record has 0) */
	if (!cli_postfilter_ran(d) || d->pre.outcome != PRE_NOMINATED || d->pre.nominated < 0)
		return -1;
	return d->pre.nominated;
}

const char *cli_preempt_outcome_name(enum preempt_outcome o)
{
	switch (o) {
	case PRE_NONE: return "none";
	case PRE_DISABLED: return "disabled";
	case PRE_NOT_ELIGIBLE: return "notEligible";
	case PRE_NO_CANDIDATE: return "noCandidate";
	case PRE_NOMINATED: return "nominated";
	}
	return "none";
}

const char *cli_preempt_node_name(enum preempt_node_why w)
{
	switch (w) {
	case PN_NOT_HELPFUL: return "notHelpful";
	case PN_NO_VICTIMS: return "noVictims";
	case PN_STILL_UNFIT: return "stillUnfit";
	case PN_CANDIDATE: return "candidate";
	case PN_NOT_TRIED: return "notTried";
	}
	return "notHelpful";
}

const char *cli_preempt_pick_name(enum preempt_pick p)
{
	switch (p) {
	case PICK_ONLY: return "onlyCandidate";
	case PICK_PDB_VIOLATIONS: return "fewestPDBViolations";
	case PICK_HIGHEST_PRIORITY: return "lowestHighestPriority";
	case PICK_PRIORITY_SUM: return "smallestPrioritySum";
	case PICK_VICTIM_COUNT: return "fewestVictims";
	case PICK_START_TIME: return "latestStartTime";
	case PICK_NODE_ORDER: return "nodeOrder";
	}
	return "onlyCandidate";
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
