/* entry.h - how the command line enters `skewer gen` (gen/). */
#ifndef SKEWER_GEN_ENTRY_H
#define SKEWER_GEN_ENTRY_H

/* Runs `skewer gen` with the words after the command name: reads the
 * options, builds the cluster and writes it (standard output, or -o
 * FILE). Returns the exit status (util/status.h). */
int gen_main(int argc, char **argv);

/* Usage text of `skewer gen` (for `skewer help gen` and gen --help). */
extern const char gen_synopsis[];
extern const char gen_help[];

#endif
