/* cli.h - the skewer commands (explain, check, validate, render) and what
 * they share: option parsing, loading with error reports, and naming of
 * pods, nodes and steps for output. The commands only format what the
 * model computed; no skew or reason is derived here. */
#ifndef SKEWER_CLI_H
#define SKEWER_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../load/load.h"
#include "../model/timeline.h"
#include "out.h"

#define CLI_VERSION "0.1.0"

/* Exit statuses (documented in docs/skewer.1). */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

/* Options a command accepts (bits for cli_parse). */
enum {
	CLI_OPT_JSON = 1u << 0,   /* --json */
	CLI_OPT_STEP = 1u << 1,   /* --step N */
	CLI_OPT_FILTER = 1u << 2, /* --namespace NS, --selector SEL */
	CLI_OPT_COLOR = 1u << 3,  /* --color WHEN, --no-color */
	CLI_OPT_WORKSHEET = 1u << 4, /* --worksheet */
};

struct cli_opts {
	bool json;
	bool worksheet;           /* explain --worksheet */
	bool has_step;
	uint32_t step;            /* 1-based */
	const char *ns;
	const char *sel;
	const char *kube_version; /* --kube-version V (every command) */
	enum out_color_mode color;
	const char **files;       /* malloc'd array of argv pointers */
	uint32_t nfiles;
	bool help;                /* -h / --help given: print the command's help */
	/* cli_load's progress: NULL for the line on standard error (when it
	 * is a terminal), else this callback (load_opts.progress), and
	 * loaded once the load has returned, before anything is printed */
	void (*progress)(void *arg, const char *name, uint64_t done, uint64_t size);
	void (*loaded)(void *arg, bool ok);
	void *progress_arg;
};

/* Parses argv[0..argc) (the words after the command name) accepting the
 * options in `allowed`. Returns 1; on a usage error prints it with the
 * hint to run `skewer --help` and returns 0. cli_opts_fini frees. */
int cli_parse(const char *cmd, int argc, char **argv, unsigned allowed, struct cli_opts *o);
void cli_opts_fini(struct cli_opts *o);

/* The common start of a command over one merged scenario: parse options,
 * answer --help, insist on a file, load, make a timeline. Returns -1 when
 * the command goes on (*o, *sc and *t are set and the caller frees them),
 * else the exit status with everything already released. */
int cli_start(const char *cmd, int argc, char **argv, unsigned allowed, struct cli_opts *o,
	      struct scenario **sc, struct timeline **t);

/* Checks the value of --kube-version; on a bad one prints the usage
 * error naming the range and returns 0. */
int cli_kube_version_ok(const char *cmd, const char *v);

/* Prints "skewer: MESSAGE" and the help hint on stderr; returns CLI_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int cli_usage_error(const char *fmt, ...);

/* Prints the help of one command (or the overview for NULL) to f.
 * Returns 0 when cmd is unknown. (main.c) */
int cli_help(FILE *f, const char *cmd);
/* Runs command name with its arguments when there is one (1, its exit
 * status in *rc); 0 when no command has that name. */
int cli_run_command(const char *name, int argc, char **argv, int *rc);
/* Is name one of the commands of the table? */
bool cli_is_command(const char *name);

/* Loads files with opts; on failure prints the loader's errors to stderr
 * as FILE:LINE:COL: MESSAGE (at most LOAD_MAX_ERRORS) and returns 0.
 * Warnings are printed as "FILE: warning: ..." ("warning: ..."). Also
 * rejects an invalid scheduler configuration ("error: ..."). */
int cli_load(const struct cli_opts *o, const char *const *files, uint32_t nfiles,
	     struct scenario **out);
/* A load that takes more than CLI_PROGRESS_DELAY seconds says how far it
 * is on standard error when that is a terminal: "loading big.yaml: 43%
 * (460 of 1068 MiB)", redrawn in place and erased when done. Sets lo's
 * progress callback to that line (nothing when standard error is not a
 * terminal); cli_progress_end erases it. */
#define CLI_PROGRESS_DELAY 0.3
struct cli_progress {
	double t0;                /* when the load began (CLOCK_MONOTONIC) */
	bool shown;
	int last;                 /* the percentage shown */
};
void cli_progress_begin(struct cli_progress *p, struct load_opts *lo);
void cli_progress_end(struct cli_progress *p);
/* Seconds on CLOCK_MONOTONIC. */
double cli_monotonic(void);
/* Prints FILE:LINE:COL: MESSAGE lines; with prefix (check) the form is
 * PREFIX: error: LINE:COL: MESSAGE. */
void cli_print_load_errors(FILE *f, const struct load_errors *e, const char *prefix);

/* Text of a sym (borrowed). */
const char *cli_sym(const struct cluster *c, sym_t s);
/* "ns/name" of a pod into b (unsanitised; callers sanitise or escape).
 * With short_default, pods in "default" are written as "name". */
void cli_pod_name(struct out_buf *b, const struct cluster *c, sym_t ns, sym_t name,
		  bool short_default);
/* The pod a step made or targeted, as "ns/name" into b; false when the
 * step concerns no pod. */
bool cli_step_pod(struct out_buf *b, const struct timeline *t, uint32_t i);
/* Short human description of step i's action, e.g. "cordon node1",
 * "taint node1 dedicated=infra:NoSchedule" (unsanitised). */
void cli_step_what(struct out_buf *b, const struct timeline *t, uint32_t i);
/* Name of node id, "" when out of range. */
const char *cli_node_name(const struct cluster *c, int64_t id);
/* explain_ctl.c: a controller step's record (NULL for other kinds or
 * before it is applied), its text (summary and sub-steps), its JSON
 * fields (summary, deleted, created) and its sub-steps as JSON steps. */
struct ctl_run;
const struct ctl_run *cli_ctl_run(const struct timeline *t, uint32_t i);
void cli_ctl_text(FILE *f, const struct timeline *t, uint32_t i, struct out_buf *b);
void cli_ctl_json_fields(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b);
void cli_ctl_json_subs(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b);
/* The name of the outcome in the JSON contract. */
const char *cli_outcome_name(enum outcome o);
/* `check` of a scaleUp step's expect block (check_autoscale.c): prints a
 * line per mismatching key, counted in *nmismatch. 0 on OOM. */
/* explain of a scaleUp step (explain_autoscale.c): its report as text
 * lines, or as keys of the step's open JSON object. */
struct out_json;
void cli_scale_up_text(FILE *f, const struct timeline *t, uint32_t i);
void cli_scale_up_json(struct out_json *j, const struct timeline *t, uint32_t i);
int cli_check_scale_up(FILE *f, const char *file, const struct timeline *t, uint32_t i, uint32_t *nmismatch);
/* Whether d, filled by timeline_step for step s, holds a scheduling
 * cycle's verdict (constraints and nodes). */
bool cli_decision_filled(const struct step *s, const struct decision *d);

/* The debugging contract's records (shared/spec/debugging.md 1-2). */
/* The node's blockers as bits 1 << plugin id, in filter order when read
 * from bit 0 up: every failing filter, or the first one alone where the
 * decision recorded no more (0 for a feasible node). */
unsigned cli_blockers(const struct node_rec *r);
/* Whether blocker p of the node is UnschedulableAndUnresolvable. */
bool cli_blocker_unresolvable(const struct node_rec *r, enum plugin_id p);
/* Whether the step's cycle left the pod pending after PostFilter
 * (DefaultPreemption) ran: d->pre is what happened. */
bool cli_postfilter_ran(const struct decision *d);
/* The FailedScheduling event of the step, NULL when the pod was not left
 * pending (scheduled, invalid, a failed step). */
const char *cli_event(const struct decision *d);
/* The node the step's preemption nominated, -1 when none (also when
 * PostFilter did not run or nominated nobody). */
int32_t cli_nominated(const struct decision *d);
/* Names of the preemption records as the JSON writes them. */
const char *cli_preempt_outcome_name(enum preempt_outcome o);
const char *cli_preempt_node_name(enum preempt_node_why w);
const char *cli_preempt_pick_name(enum preempt_pick p);

/* Commands: argc/argv are the words after the command name. */
int cli_explain(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_render(int argc, char **argv);
/* skewer gen: writes a synthetic scenario or kubectl List (gen.c). */
int cli_gen(int argc, char **argv);
/* skewer fix / skewer search (fix.c, search.c; debugging contract 3-4) */
int cli_fix(int argc, char **argv);
int cli_search(int argc, char **argv);
/* What `skewer FILE...` runs when no command is named: explain for now;
 * the interactive interface takes this hook over once it exists. */
int cli_default(int argc, char **argv);

/* explain's two forms over a timeline at step 0 (explain.c, explain_json.c). */
int explain_text(FILE *f, struct timeline *t, const struct cli_opts *o);
int explain_json(FILE *f, struct timeline *t, const struct cli_opts *o);
/* explain --worksheet: a handout with questions and an answer key (worksheet.c). */
int explain_worksheet(FILE *f, struct timeline *t, const struct cli_opts *o);

#endif
