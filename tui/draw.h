/* draw.h - drawing primitives, the pen, the flash line (draw.c) */
#ifndef SKEWER_TUI_DRAW_H
#define SKEWER_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include "term.h"

struct tui;

/* draw.c: text is sanitised (out_sanitize) and clipped to t->clip */
int draw_text(struct tui *t, int y, int x, int maxw, enum role r, const char *s);
int draw_raw(struct tui *t, int y, int x, enum role r, const char *glyph);
void draw_fill(struct tui *t, int y, int x, int w, enum role r);
void draw_hline(struct tui *t, int y, int x, int w, enum role r);
void draw_box(struct tui *t, int y, int x, int h, int w, enum role r);
int text_width(const char *s, bool utf8);
/* Draws s word-wrapped into the w columns at (y, x), at most maxlines
 * lines; returns the lines used (or needed, when maxlines is 0 and
 * nothing is drawn). */
int draw_wrapped(struct tui *t, int y, int x, int w, int maxlines, enum role r, const char *s);
/* A pen writes lines of mixed roles into r, skipping the first `scroll`
 * lines; line counts every line written (the content's height). */
struct pen {
	struct tui *t;
	struct rect r;
	int line, scroll, x, indent;
};
/* Whether the pen's current line is inside its rectangle (a panel skips
 * the drawing of lines that are not, and only counts them). */
bool pen_visible(const struct pen *p);
void pen_put(struct pen *p, enum role r, const char *s);
void pen_raw(struct pen *p, enum role r, const char *glyph);
void pen_printf(struct pen *p, enum role r, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void pen_pad(struct pen *p, int col);
void pen_nl(struct pen *p);
/* Word-wraps s from the pen's column to the right edge. */
void pen_wrap(struct pen *p, enum role r, const char *s);
void tui_flash(struct tui *t, bool error, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* A stable merge sort with a context pointer. Returns 0 on OOM. */
int tui_sort(void *base, size_t n, size_t size,
	     int (*cmp)(const void *, const void *, void *), void *ctx);

#endif
