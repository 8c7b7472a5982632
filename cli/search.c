/* search.c - `skewer search`: whether some run of the scenario that the
 * scheduler could produce leaves a pod pending (model/search.c explores
 * them), as text or as the JSON of shared/spec/debugging.md section 4;
 * -o writes the witness run as a scenario. */
#include "fixout.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../load/save.h"
#include "../model/search.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct prog {
	double start, last;
};

/* progress on stderr once a second, from the second second on */
static void progress(void *arg, const struct search_result *r)
{
	struct prog *p = arg;
	double now = mono();
	if (now - p->start < 1.0 || now - p->last < 1.0)
		return;
	p->last = now;
	fprintf(stderr, "search: %llu states, %.0f states/s, at step %u (deepest %u)\n",
		(unsigned long long)r->states, (double)r->states / (now - p->start), r->depth, r->max_depth);
}

struct sopts {
	enum search_choices choices;
	bool orders;
	uint64_t max_states;
	const char *out;
};

/* The search's own options, taken out of argv before the common ones. */
static int take_opts(int *argc, char **argv, struct sopts *so)
{
	int o = 0;
	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i], *val = NULL;
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--orders")) {
			so->orders = true;
			continue;
		}
#define VALUE(name)                                                                  \
	(!strcmp(a, name) ? (val = i + 1 < *argc ? argv[++i] : "", 1)                  \
	 : !strncmp(a, name "=", strlen(name) + 1) ? (val = a + strlen(name) + 1, 1) : 0)
		if (VALUE("--choices")) {
			if (!strcmp(val, "ties")) {
				so->choices = SEARCH_TIES;
			} else if (!strcmp(val, "feasible")) {
				so->choices = SEARCH_FEASIBLE;
			} else {
				cli_usage_error("search: --choices takes ties or feasible (got '%s')", val);
				return 0;
			}
		} else if (VALUE("--max-states")) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(val, &end, 10);
			if (!*val || *val == '-' || *end || errno) {
				cli_usage_error("search: --max-states needs a number of states (got '%s')", val);
				return 0;
			}
			if (v == 0) {
				cli_usage_error("search: --max-states 0 explores nothing: give at least 1 "
						"(default 1000000)");
				return 0;
			}
			so->max_states = v;
		} else if (VALUE("-o") || VALUE("--output")) {
			if (!*val) {
				cli_usage_error("search: -o needs a file name for the witness scenario");
				return 0;
			}
			so->out = val;
		} else {
			argv[o++] = argv[i];
		}
#undef VALUE
	}
	*argc = o;
	return 1;
}

/* The witness as a whole scenario: the cluster at step 0 and the steps
 * of the run. */
static int write_witness(struct timeline *t, const struct search_result *r, const char *path)
{
	struct scenario *sc = t->sc;
	struct step *steps = sc->steps;
	uint32_t n = sc->nsteps;
	char err[512];
	timeline_goto(t, 0);
	sc->steps = r->witness;
	sc->nsteps = r->nwitness;
	int ok = save_scenario_file(path, sc, true, NULL, err, sizeof(err));
	sc->steps = steps;
	sc->nsteps = n;
	if (!ok) {
		fputs("skewer: search: ", stderr);
		out_text(stderr, err, 0);
		fputc('\n', stderr);
	}
	return ok;
}

static void pod_ref(struct out_buf *b, const struct cluster *c, const struct search_result *r)
{
	cli_pod_name(b, c, r->pod_ns, r->pod_name, false);
}

static void text(FILE *f, struct timeline *t, const struct sopts *so, const struct search_result *r)
{
	struct out_buf b = { 0 };
	const struct cluster *c = t->c;
	fprintf(f, "Search of %s: %u step%s, choices %s%s, %llu state%s explored\n",
		t->sc->name ? t->sc->name : "", timeline_len(t), timeline_len(t) == 1 ? "" : "s",
		so->choices == SEARCH_TIES ? "ties" : "feasible", so->orders ? ", any order of schedule steps" : "",
		(unsigned long long)r->states, r->states == 1 ? "" : "s");
	if (r->stuck) {
		pod_ref(&b, c, r);
		fputs("stuck: this run leaves ", f);
		out_text(f, out_buf_str(&b), 0);
		fputs(" pending:\n  ", f);
		out_text(f, r->message ? r->message : "", 0);
		fputc('\n', f);
		for (uint32_t k = 0; k < r->nwitness; k++) {
			const struct step *s = &r->witness[k];
			out_buf_reset(&b);
			out_buf_puts(&b, step_kind_name(s->kind));
			out_buf_putc(&b, ' ');
			if (s->kind == STEP_SCHEDULE)
				cli_pod_name(&b, c, s->pod.ns, s->pod.name, false);
			else if (s->kind == STEP_RETRY || s->kind == STEP_DELETE)
				out_buf_puts(&b, cli_sym(c, s->target));
			else if (s->kind == STEP_ADD_NODE)
				out_buf_puts(&b, cli_sym(c, s->new_node.name));
			else
				out_buf_puts(&b, cli_sym(c, s->node));
			fprintf(f, "  %3u. ", k + 1);
			out_text(f, out_buf_str(&b), 0);
			if (s->choose != SYM_NONE) {
				fputs(" -> ", f);
				out_text(f, cli_sym(c, s->choose), 0);
			} else if (k + 1 == r->nwitness) {
				fputs(" -> Pending", f);
			}
			fputc('\n', f);
		}
		if (so->out) {
			fputs("witness written to ", f);
			out_text(f, so->out, 0);
			fputs(" (skewer explain replays it)\n", f);
		}
	} else if (r->complete) {
		fputs("not stuck: no run leaves a pod pending (every run explored: complete)\n", f);
	} else if (r->interrupted) {
		fprintf(f, "interrupted after %llu states (at step %u, deepest %u): no stuck run found so far; "
			   "the search is not complete\n",
			(unsigned long long)r->states, r->depth, r->max_depth);
	} else {
		fprintf(f, "no stuck run found within --max-states %llu: the search is not complete "
			   "(raise --max-states)\n", (unsigned long long)so->max_states);
	}
	out_buf_fini(&b);
}

static void json(FILE *f, struct timeline *t, const struct search_result *r)
{
	struct out_json j;
	struct out_buf b = { 0 };
	out_json_init(&j, f, 1);
	out_json_begin_object(&j);
	out_json_key(&j, "stuck");
	out_json_bool(&j, r->stuck);
	out_json_key(&j, "complete");
	out_json_bool(&j, r->complete);
	out_json_key(&j, "states");
	out_json_int(&j, (int64_t)r->states);
	out_json_key(&j, "cycles");
	out_json_int(&j, (int64_t)r->cycles);
	out_json_key(&j, "interrupted");
	out_json_bool(&j, r->interrupted);
	out_json_key(&j, "pod");
	if (r->stuck) {
		pod_ref(&b, t->c, r);
		out_json_str(&j, out_buf_str(&b));
	} else {
		out_json_null(&j);
	}
	out_json_key(&j, "witness");
	if (r->stuck) {
		out_json_begin_array(&j);
		for (uint32_t k = 0; k < r->nwitness; k++)
			cli_step_json(&j, t, &r->witness[k]);
		out_json_end_array(&j);
	} else {
		out_json_null(&j);
	}
	out_json_key(&j, "message");
	out_json_str(&j, r->stuck ? r->message : NULL);
	out_json_end_object(&j);
	out_json_fini(&j);
	out_buf_fini(&b);
}

int cli_search(int argc, char **argv)
{
	struct sopts so = { SEARCH_TIES, false, 1000000, NULL };
	if (!take_opts(&argc, argv, &so))
		return CLI_USAGE;
	struct cli_opts o;
	struct scenario *sc;
	struct timeline *t;
	int rc = cli_start("search", argc, argv, CLI_OPT_JSON | CLI_OPT_FILTER, &o, &sc, &t);
	if (rc >= 0)
		return rc;
	struct prog pg = { mono(), 0 };
	struct search_opts opt = { so.choices, so.orders, so.max_states, &interrupted, progress, &pg };
	struct search_result r;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	int ok = search_run(t, &opt, &r);
	sigaction(SIGINT, &old, NULL);
	if (!ok) {
		fprintf(stderr, "error: out of memory after %llu states\n", (unsigned long long)r.states);
		rc = CLI_USAGE;
		goto done;
	}
	if (r.stuck && so.out && !write_witness(t, &r, so.out)) {
		rc = CLI_USAGE;
		goto done;
	}
	if (o.json)
		json(stdout, t, &r);
	else
		text(stdout, t, &so, &r);
	if (r.interrupted)
		fprintf(stderr, "search: interrupted after %llu states\n", (unsigned long long)r.states);
	rc = r.stuck ? CLI_FAILED : r.interrupted ? STATUS_INTERRUPTED : CLI_OK;
done:
	search_result_fini(&r);
	timeline_free(t);
	scenario_free(sc);
	cli_opts_fini(&o);
	return rc;
}
