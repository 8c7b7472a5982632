/* main.c - skewer's entry point: global options, then the command table
 * (commands.c). */
#include "../model/sched.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int run(int argc, char **argv)
{
	if (argc < 2)
		return cli_default(0, argv + 1);
	const char *first = argv[1];
	if (!strcmp(first, "-h") || !strcmp(first, "--help")) {
		cli_help(stdout, NULL);
		return CLI_OK;
	}
	if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
		printf("skewer %s\n", CLI_VERSION);
		return CLI_OK;
	}
	if (!strcmp(first, "help")) {
		if (argc > 2 && !cli_help(stdout, argv[2]))
			return cli_usage_error("help: no command '%s'", argv[2]);
		if (argc <= 2)
			cli_help(stdout, NULL);
		return CLI_OK;
	}
	int rc;
	if (cli_run_command(first, argc - 2, argv + 2, &rc))
		return rc;
	return cli_default(argc - 1, argv + 1);
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
	bool named = argc >= 2 && (cli_is_command(argv[1]) || !strcmp(argv[1], "help"));
	return status_write_error(named ? argv[1] : NULL, "the output", errno);
}
