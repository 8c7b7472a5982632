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
#include "../load/report.h"
#include "../model/present.h"
#include "../model/timeline.h"
#include "../util/out.h"
#include "../util/clock.h"
#include "../util/status.h"

#define CLI_VERSION "0.1.0"

/* The commands' names of the exit statuses (util/status.h, documented in
 * docs/skewer.1). */
enum { CLI_OK = STATUS_OK, CLI_FAILED = STATUS_FAILED, CLI_USAGE = STATUS_USAGE };

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

/* status_usage (util/status.h) for the commands; returns CLI_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int cli_usage_error(const char *fmt, ...);

/* Prints the help of one command (or the overview for NULL) to f, from
 * the command table. Returns 0 when cmd is unknown. Defined by the
 * top-level main.c, which holds the table. */
int cli_help(FILE *f, const char *cmd);

/* load_report (load/report.h) to stderr with the options' namespace,
 * selector and --kube-version. */
int cli_load(const struct cli_opts *o, const char *const *files, uint32_t nfiles,
	     struct scenario **out);
/* A load that takes more than PROGRESS_DELAY seconds (util/clock.h) says how far it
 * is on standard error when that is a terminal: "loading big.yaml: 43%
 * (460 of 1068 MiB)", redrawn in place and erased when done. Sets lo's
 * progress callback to that line (nothing when standard error is not a
 * terminal); cli_progress_end erases it. */
struct cli_progress {
	double t0;                /* when the load began (CLOCK_MONOTONIC) */
	bool shown;
	int last;                 /* the percentage shown */
};
void cli_progress_begin(struct cli_progress *p, struct load_opts *lo);
void cli_progress_end(struct cli_progress *p);

/* Text of a sym (borrowed). */
const char *cli_sym(const struct cluster *c, sym_t s);

/* The commands' names for what every output reads off the model
 * (model/present.h, shared with the view). */
#define cli_pod_name present_pod_name
#define cli_step_pod present_step_pod
#define cli_step_what present_step_what
#define cli_node_name present_node_name
#define cli_outcome_name present_outcome_name
#define cli_preempt_outcome_name present_preempt_outcome_name
#define cli_preempt_node_name present_preempt_node_name
#define cli_preempt_pick_name present_preempt_pick_name
#define cli_decision_filled present_decision_filled
#define cli_blockers present_blockers
#define cli_blocker_unresolvable present_blocker_unresolvable
#define cli_postfilter_ran present_postfilter_ran
#define cli_event present_event
#define cli_nominated present_nominated
#define cli_ctl_run present_ctl_run
#define cli_fix_summary present_fix_summary
#define cli_fix_line present_fix_line

/* explain_ctl.c: a controller step's text (summary and sub-steps), its
 * JSON fields (summary, deleted, created) and its sub-steps as JSON
 * steps. */
void cli_ctl_text(FILE *f, const struct timeline *t, uint32_t i, struct out_buf *b);
void cli_ctl_json_fields(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b);
void cli_ctl_json_subs(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b);
/* `check` of a scaleUp step's expect block (check_autoscale.c): prints a
 * line per mismatching key, counted in *nmismatch. 0 on OOM. */
/* explain of a scaleUp step (explain_autoscale.c): its report as text
 * lines, or as keys of the step's open JSON object. */
struct out_json;
void cli_scale_up_text(FILE *f, const struct timeline *t, uint32_t i);
struct as_report;
/* The same text for a report of its own (the view's what-if of the
 * other autoscaler). */
void cli_scale_up_report_text(FILE *f, const struct as_report *r);
void cli_scale_up_json(struct out_json *j, const struct timeline *t, uint32_t i);
int cli_check_scale_up(FILE *f, const char *file, const struct timeline *t, uint32_t i, uint32_t *nmismatch);

/* Commands: argc/argv are the words after the command name. */
int cli_explain(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_render(int argc, char **argv);
/* skewer fix / skewer search (fix.c, search.c; debugging contract 3-4) */
int cli_fix(int argc, char **argv);
int cli_search(int argc, char **argv);
/* explain's two forms over a timeline at step 0 (explain.c, explain_json.c). */
int explain_text(FILE *f, struct timeline *t, const struct cli_opts *o);
int explain_json(FILE *f, struct timeline *t, const struct cli_opts *o);
/* explain --worksheet: a handout with questions and an answer key (worksheet.c). */
int explain_worksheet(FILE *f, struct timeline *t, const struct cli_opts *o);

#endif
