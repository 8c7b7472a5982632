/* prompt.c - the one-line input of `:` (go to step), `/` (find a node,
 * or a scenario in the list) and `w` (write), and the y/n question before replacing a file. It owns
 * the keys while open; Enter hands the text to the action that asked. */
#include "tui.h"

#include <stdio.h>
#include <string.h>

void prompt_open(struct tui *t, enum prompt_kind k, const char *label, const char *init)
{
	struct prompt *p = &t->prompt;
	p->kind = k;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->buf, sizeof(p->buf), "%s", init);
	p->len = strlen(p->buf);
}

static int finish(struct tui *t)
{
	struct prompt *p = &t->prompt;
	char text[sizeof(p->buf)];
	enum prompt_kind k = p->kind;
	memcpy(text, p->buf, sizeof(text));
	p->kind = PROMPT_NONE;
	switch (k) {
	case PROMPT_GOTO: return act_goto_done(t, text);
	case PROMPT_FIND: return act_find_done(t, text);
	case PROMPT_WRITE: return act_write_done(t, text, false);
	case PROMPT_PICK: return picker_find_done(t, text);
	default: return TUI_R_DRAW;
	}
}

int prompt_key(struct tui *t, int key)
{
	struct prompt *p = &t->prompt;
	if (p->kind == PROMPT_OVERWRITE) {
		char path[sizeof(p->pending)];
		memcpy(path, p->pending, sizeof(path));
		p->kind = PROMPT_NONE;
		if (key == 'y' || key == 'Y')
			return act_write_done(t, path, true);
		tui_flash(t, false, "not written");
		return TUI_R_DRAW;
	}
	switch (key) {
	case 27:
		p->kind = PROMPT_NONE;
		return TUI_R_DRAW;
	case '\r':
	case '\n':
	case KEY_ENTER:
		return finish(t);
	case KEY_BACKSPACE:
	case 127:
	case 8:
		/* drop one whole UTF-8 sequence */
		while (p->len > 0 && ((unsigned char)p->buf[p->len - 1] & 0xC0) == 0x80)
			p->len--;
		if (p->len > 0)
			p->len--;
		p->buf[p->len] = '\0';
		return TUI_R_DRAW;
	case 'u' & 0x1f:
		p->len = 0;
		p->buf[0] = '\0';
		return TUI_R_DRAW;
	}
	/* bytes of typed text, UTF-8 included; no controls or curses keys */
	if (key >= 32 && key < 256 && key != 127 && p->len + 1 < sizeof(p->buf)) {
		p->buf[p->len++] = (char)key;
		p->buf[p->len] = '\0';
	}
	return TUI_R_DRAW;
}
