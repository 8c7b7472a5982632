/* prompt.h - the modal input line (prompt.c) */
#ifndef SKEWER_TUI_PROMPT_H
#define SKEWER_TUI_PROMPT_H

#include <stddef.h>

struct tui;

enum prompt_kind { PROMPT_NONE, PROMPT_GOTO, PROMPT_FIND, PROMPT_WRITE, PROMPT_OVERWRITE, PROMPT_PICK,
		   PROMPT_EDIT };

struct prompt {
	enum prompt_kind kind;
	char label[64];
	char buf[512];
	size_t len;
	char pending[512];       /* PROMPT_OVERWRITE: the path asked about */
	int (*done)(struct tui *t, const char *text); /* PROMPT_EDIT: takes the text */
};

/* prompt.c */
void prompt_open(struct tui *t, enum prompt_kind k, const char *label, const char *init);
int prompt_key(struct tui *t, int key);
/* An edit's prompt: Enter hands the text to done. */
void prompt_edit(struct tui *t, const char *label, const char *init,
		 int (*done)(struct tui *t, const char *text));

#endif
