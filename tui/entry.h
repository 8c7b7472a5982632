/* entry.h - how the command line enters the interactive interface. */
#ifndef SKEWER_TUI_ENTRY_H
#define SKEWER_TUI_ENTRY_H

/* Runs the interface. argv holds the words after `skewer` (or after
 * `skewer tui`): options and scenario files; no file opens the picker of
 * bundled scenarios. Returns the exit status. */
int tui_main(int argc, char **argv);

/* Usage text of `skewer tui` (for `skewer help tui`). */
extern const char tui_synopsis[];
extern const char tui_help[];

#endif
