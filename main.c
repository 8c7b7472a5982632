/* main.c - skewer's entry point and its command table: each command's
 * name, the function that runs it and its usage (synopsis and help),
 * one line each. --help, `skewer help CMD` and the dispatcher read the
 * table; the man page (docs/skewer.1) describes the same commands. To
 * add a command: its function (cli/, or a directory of its own as gen/
 * and tui/ have), its usage strings, and one line in the table. */
#include "cli/cli.h"
#include "gen/entry.h"
#include "model/sched.h"
#include "tui/entry.h"
#include "util/status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);   /* the words after the name; returns the exit status */
	const char *synopsis;                /* after "usage: skewer " */
	const char *help;
};

/* ---- the commands' usage (tui's and gen's are theirs: tui/run.c,
 * gen/gen.c) ---- */

static const char explain_synopsis[] =
	"explain [--json | --worksheet] [--step N] [--namespace NS] [--selector SEL] [--kube-version V] FILE...";

static const char explain_help[] =
	"Run every step of the scenario and explain each scheduling decision:\n"
	"the constraints in force with their domains and global minimum, every\n"
	"node's verdict (every failing filter with its reason, the first one\n"
	"the scheduler's, or the scores), what preemption did when no node fits,\n"
	"and the outcome.\n"
	"  --json                one JSON document (docs/explain-json.md)\n"
	"  --worksheet           a handout for a class instead: the cluster before\n"
	"                        each scheduling step and its questions (which nodes\n"
	"                        are feasible, where the pod goes, the skew), then\n"
	"                        an answer key (docs/teaching.md)\n"
	"  --step N              explain only step N (earlier steps still apply)\n"
	"  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	"  -l, --selector SEL    only pending pods matching SEL become steps\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n"
	"  --color WHEN          auto (default), always or never; --no-color\n";

static const char check_synopsis[] =
	"check [--namespace NS] [--selector SEL] [--kube-version V] FILE...";

static const char check_help[] =
	"Load each FILE on its own, run it, and compare every step's expect:\n"
	"block with what happened. Prints one line per mismatch,\n"
	"  FILE: step N: KEY: expected X, got Y\n"
	"then 'N passed, N failed'. Exits 1 when an expectation failed, 2 when\n"
	"a file could not be loaded. The first line names the Kubernetes version\n"
	"of each file that names one.\n"
	"  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	"  -l, --selector SEL    only pending pods matching SEL become steps\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n";

static const char validate_synopsis[] =
	"validate [--namespace NS] [--selector SEL] [--kube-version V] FILE...";

static const char validate_help[] =
	"Load the scenario and validate every pod a schedule step creates, as\n"
	"the API server would (after admission). Prints 'ok: ...' or the errors\n"
	"and exits 2.\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n";

static const char render_synopsis[] =
	"render [--step N] [--namespace NS] [--selector SEL] [--kube-version V] FILE...";

static const char render_help[] =
	"Draw the cluster after step N (default: after the last step; 0: before\n"
	"any) as an ASCII grid: zones as column groups, nodes as columns, the\n"
	"pods bound to each node as rows.\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n";

static const char fix_synopsis[] =
	"fix [--json] [--step N] [--limit K] [--namespace NS] [--selector SEL] [--kube-version V] FILE...";

static const char fix_help[] =
	"For each pending pod (or step N), the changes that let the scheduler\n"
	"place it, each verified by running the scheduling cycle again on the\n"
	"changed state, cheapest kinds first: maxSkew (the smallest larger\n"
	"value), whenUnsatisfiable, minDomains, nodeAffinityPolicy,\n"
	"nodeTaintsPolicy, removeConstraint, toleration, uncordon, untaint,\n"
	"label, delete (one pod), addNode (a copy of a node) and priority (the\n"
	"smallest with which preemption nominates a node), with the node the\n"
	"pod then goes to. A fix that leaves an earlier step's pod violating its\n"
	"hard constraint says so. Exits 2 when step N is not a pending pod.\n"
	"  --json                one JSON document (docs/debugging.md)\n"
	"  --step N              only step N (it must leave its pod pending)\n"
	"  --limit K            at most K fixes of each kind (default 3)\n"
	"  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	"  -l, --selector SEL    only pending pods matching SEL become steps\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n";

static const char search_synopsis[] =
	"search [--json] [--choices ties|feasible] [--orders] [--max-states N] [-o WITNESS.yaml] [--kube-version V] FILE...";

static const char search_help[] =
	"Explore every run of the scenario's steps that the scheduler could\n"
	"produce, depth first from the initial cluster, and report a run that\n"
	"leaves a pod pending (the witness) or that none exists. States equal up\n"
	"to interchangeable nodes (same labels but the hostname, taints,\n"
	"allocatable and bound pods) are explored once. The scenario's own\n"
	"choose: fields are not followed. Progress goes to standard error for\n"
	"long searches; Ctrl-C stops and says how far it got (exit 130).\n"
	"Exit status: 0 no run gets stuck (or none found within the bound: the\n"
	"report says it is not complete), 1 a witness, 2 bad input.\n"
	"  --choices ties        at each placement any node tied for the best\n"
	"                        total (default); feasible: any feasible node\n"
	"  --orders              consecutive schedule steps also in any order\n"
	"  --max-states N        stop after N states (default 1000000; N >= 1)\n"
	"  -o WITNESS.yaml       write the witness run as a whole scenario, each\n"
	"                        placement with choose:, that replays it\n"
	"  --json                one JSON document (docs/debugging.md)\n"
	"  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	"  -l, --selector SEL    only pending pods matching SEL become steps\n"
	"  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1); default the scenario's or the dump's, else 1.37\n";

static const char help_synopsis[] = "help [COMMAND]";
static const char help_help[] =
	"Print the help of COMMAND, or without one the help of every command.\n";

static int help_main(int argc, char **argv);

static const struct command commands[] = {
	{"explain",  cli_explain,  explain_synopsis,  explain_help},
	{"check",    cli_check,    check_synopsis,    check_help},
	{"validate", cli_validate, validate_synopsis, validate_help},
	{"tui",      tui_main,     tui_synopsis,      tui_help},
	{"render",   cli_render,   render_synopsis,   render_help},
	{"fix",      cli_fix,      fix_synopsis,      fix_help},
	{"search",   cli_search,   search_synopsis,   search_help},
	{"gen",      gen_main,     gen_synopsis,      gen_help},
	{"help",     help_main,    help_synopsis,     help_help},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Declared in cli/cli.h: the commands' --help reads the table too. */
int cli_help(FILE *f, const char *cmd)
{
	if (cmd) {
		const struct command *c = find_command(cmd);
		if (!c)
			return 0;
		fprintf(f, "usage: skewer %s\n\n%s", c->synopsis, c->help);
		return 1;
	}
	fputs("usage: skewer [COMMAND] [OPTIONS] FILE...\n"
	      "\n"
	      "skewer simulates the Kubernetes v1.37 kube-scheduler's Pod Topology\n"
	      "Spread and the plugins around it, and explains every decision.\n"
	      "FILE is a scenario (YAML or JSON; '-' reads standard input).\n"
	      "Without a COMMAND, skewer opens the interactive view (see 'tui');\n"
	      "without a FILE either, a list of the bundled scenarios.\n"
	      "\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  skewer %s\n", commands[i].synopsis);
	fputc('\n', f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "%s:\n%s\n", commands[i].name, commands[i].help);
	fputs("options:\n"
	      "  -h, --help            this help (after a command: the command's)\n"
	      "  -V, --version         print the version\n"
	      "\n"
	      "exit status: 0 fine; 1 check found a mismatch or search a run that gets\n"
	      "stuck; 2 bad usage, bad input, an output that cannot be written or out of\n"
	      "memory; 130 search interrupted.\n"
	      "environment: NO_COLOR disables colour in text output.\n"
	      "See skewer(1).\n", f);
	return 1;
}

/* skewer help [COMMAND] */
static int help_main(int argc, char **argv)
{
	if (argc > 0 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")))
		return cli_help(stdout, "help"), STATUS_OK;
	if (argc > 0 && argv[0][0] == '-' && argv[0][1])
		return status_usage("help: unknown option '%s'", argv[0]);
	if (argc > 1)
		return status_usage("help: one COMMAND at most, found '%s' after '%s'", argv[1], argv[0]);
	if (argc > 0 && !cli_help(stdout, argv[0]))
		return status_usage("help: no command '%s'", argv[0]);
	if (argc == 0)
		cli_help(stdout, NULL);
	return STATUS_OK;
}

static int run(int argc, char **argv)
{
	if (argc < 2)
		return tui_main(0, argv + 1);
	const char *first = argv[1];
	if (!strcmp(first, "-h") || !strcmp(first, "--help")) {
		cli_help(stdout, NULL);
		return STATUS_OK;
	}
	if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
		printf("skewer %s\n", CLI_VERSION);
		return STATUS_OK;
	}
	const struct command *c = find_command(first);
	if (c)
		return c->run(argc - 2, argv + 2);
	/* no command named: `skewer FILE...` opens the view */
	return tui_main(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	sched_tune_memory();
	int rc = run(argc, argv);
	/* everything a command printed reached standard output, or the exit
	 * status says so: one check for every command */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	bool named = argc >= 2 && find_command(argv[1]);
	return status_write_error(named ? argv[1] : NULL, "the output", errno);
}
