/* commands.c - the command table: each command's name, runner, synopsis
 * and help, read by --help, `skewer help CMD` and the dispatcher. */
#include "cli.h"
#include "../tui/entry.h"

#include <stdio.h>
#include <string.h>

/* One table defines each command: its name, its runner, its synopsis and
 * its help; --help, `skewer help CMD` and the dispatcher read it. The man
 * page (docs/skewer.1) describes the same commands. */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *help;
};

static const struct command commands[] = {
	{"explain", cli_explain,
	 "explain [--json | --worksheet] [--step N] [--namespace NS] [--selector SEL] [--kube-version V] FILE...",
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
	 "  --color WHEN          auto (default), always or never; --no-color\n"},
	{"check", cli_check,
	 "check [--namespace NS] [--selector SEL] [--kube-version V] FILE...",
	 "Load each FILE on its own, run it, and compare every step's expect:\n"
	 "block with what happened. Prints one line per mismatch,\n"
	 "  FILE: step N: KEY: expected X, got Y\n"
	 "then 'N passed, N failed'. Exits 1 when an expectation failed, 2 when\n"
	 "a file could not be loaded. The first line names the Kubernetes version\n"
	 "of each file that names one.\n"
	 "  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	 "  -l, --selector SEL    only pending pods matching SEL become steps\n"
	 "  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	 "                        1.34.1); default the scenario's or the dump's, else 1.37\n"},
	{"validate", cli_validate,
	 "validate [--namespace NS] [--selector SEL] [--kube-version V] FILE...",
	 "Load the scenario and validate every pod a schedule step creates, as\n"
	 "the API server would (after admission). Prints 'ok: ...' or the errors\n"
	 "and exits 2.\n"
	 "  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	 "                        1.34.1); default the scenario's or the dump's, else 1.37\n"},
	{"tui", tui_main, tui_synopsis, tui_help},
	{"render", cli_render,
	 "render [--step N] [--namespace NS] [--selector SEL] [--kube-version V] FILE...",
	 "Draw the cluster after step N (default: after the last step; 0: before\n"
	 "any) as an ASCII grid: zones as column groups, nodes as columns, the\n"
	 "pods bound to each node as rows.\n"
	 "  --kube-version V      simulate Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	 "                        1.34.1); default the scenario's or the dump's, else 1.37\n"},
	{"fix", cli_fix,
	 "fix [--json] [--step N] [--limit K] [--namespace NS] [--selector SEL] [--kube-version V] FILE...",
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
	 "                        1.34.1); default the scenario's or the dump's, else 1.37\n"},
	{"search", cli_search,
	 "search [--json] [--choices ties|feasible] [--orders] [--max-states N] [-o WITNESS.yaml] [--kube-version V] FILE...",
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
	 "                        1.34.1); default the scenario's or the dump's, else 1.37\n"},
	{"gen", cli_gen, "gen [--nodes N] [--zones Z] [--regions R] [--pods P] [--constraints K] [--steps S] [--seed X] [--format scenario|kubectl] [-o FILE]", "Write a synthetic cluster, the same for a given seed: N nodes over Z zones\nin R regions (node pools, taints, cordoned nodes), P bound pods of\nDeployments, StatefulSets and DaemonSets, and S pending pods with K\ntopology spread constraints each (hard and soft), some node affinity and\npod anti-affinity. --format kubectl writes the same cluster as a\n`kubectl get -o yaml` List. Defaults: 100 nodes, 3 zones, 3000 pods,\n2 constraints, 100 steps, seed 1, scenario format, standard output.\n"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int cli_help(FILE *f, const char *cmd)
{
	if (cmd) {
		if (!strcmp(cmd, "help")) {
			fputs("usage: skewer help [COMMAND]\n\n"
			      "Print the help of COMMAND, or without one the help of every command.\n", f);
			return 1;
		}
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
	fputs("  skewer help [COMMAND]\n"
	      "\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "%s:\n%s\n", commands[i].name, commands[i].help);
	fputs("options:\n"
	      "  -h, --help            this help (after a command: the command's)\n"
	      "  -V, --version         print the version\n"
	      "\n"
	      "exit status: 0 fine, 1 check found a mismatch, 2 bad usage or bad input.\n"
	      "environment: NO_COLOR disables colour in text output.\n"
	      "See skewer(1).\n", f);
	return 1;
}

int cli_default(int argc, char **argv)
{
	return tui_main(argc, argv);
}

bool cli_is_command(const char *name)
{
	return find_command(name) != NULL;
}

int cli_run_command(const char *name, int argc, char **argv, int *rc)
{
	const struct command *c = find_command(name);
	if (!c)
		return 0;
	*rc = c->run(argc, argv);
	return 1;
}
