/* p_status.c - the bottom line: an open prompt, else the last message
 * (errors stand out), else the hints of the key table. */
#include "tui.h"

#include <string.h>

static void draw(struct tui *t, const struct rect *r)
{
	draw_fill(t, r->y, r->x, r->w, ROLE_NORMAL);
	if (t->prompt.kind != PROMPT_NONE) {
		int x = r->x + draw_text(t, r->y, r->x, r->w, ROLE_KEY, t->prompt.label);
		/* keep the end of a long input in view */
		const char *s = t->prompt.buf;
		int room = r->x + r->w - x - 1;
		while (room > 0 && text_width(s, t->utf8) > room)
			s++;
		x += draw_text(t, r->y, x, room, ROLE_NORMAL, s);
		draw_fill(t, r->y, x, 1, ROLE_CURSOR);
		return;
	}
	if (t->flash[0]) {
		enum role role = t->flash_error ? ROLE_ERROR : ROLE_FLASH;
		draw_fill(t, r->y, r->x, r->w, role);
		draw_text(t, r->y, r->x + 1, r->w - 1, role, t->flash);
		return;
	}
	if (!t->sim) {
		draw_text(t, r->y, r->x, r->w, ROLE_LABEL,
			  "Up/Down choose  / search  Enter open  ? keys  q quit");
		return;
	}
	keys_status_hints(t, r->y, r->x, r->w);
}

const struct panel_ops panel_status = {.name = "status", .draw = draw, .slot = SLOT_BOTTOM, .lines = 1};
