/* draw.c - the generic drawing every panel uses: sanitised, clipped text,
 * boxes and lines, word wrapping, the flash message, and a stable sort.
 * Text from the input never reaches the terminal unsanitised. */
#include "tui.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static bool in_clip(const struct tui *t, int y, int x)
{
	const struct rect *c = &t->clip;
	return y >= c->y && y < c->y + c->h && x >= c->x && x < c->x + c->w && y < t->rows &&
	       x < t->cols && y >= 0 && x >= 0;
}

/* Columns of one code point on the screen. ASCII never reaches wcwidth:
 * after sanitising it is printable (1 column), and wcwidth is a table walk
 * that showed up in every frame's profile. */
static int cp_width(uint32_t cp)
{
	if (cp < 0x80)
		return 1;
	int w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w;
}

/* Length of s when it is plain printable ASCII (what the sanitiser copies
 * unchanged and what takes one column a byte), else -1. */
static long ascii_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (p[i] >= 0x20 && p[i] < 0x7F)
		i++;
	return p[i] ? -1 : (long)i;
}

int text_width(const char *s, bool utf8)
{
	/* most strings (names, numbers, labels) are plain ASCII */
	long n0 = ascii_len(s);
	if (n0 >= 0)
		return n0 > (1L << 30) ? 1 << 30 : (int)n0;
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), utf8 ? 0 : OUT_ASCII);
	const unsigned char *p = (const unsigned char *)out_buf_str(&b);
	size_t n = strlen((const char *)p);
	int w = 0;
	while (n > 0) {
		uint32_t cp;
		size_t k = out_utf8_decode(p, n, &cp);
		if (!k) {
			k = 1;
			cp = '?';
		}
		w += cp_width(cp);
		p += k;
		n -= k;
	}
	out_buf_fini(&b);
	return w;
}

/* Draws already-safe UTF-8 text; returns the columns it took. */
static int put_safe(struct tui *t, int y, int x, int maxw, enum role r, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	int used = 0;
	attr_t a = t->attrs[r];
	while (n > 0 && used < maxw) {
		uint32_t cp = *p;
		size_t k = 1;
		if (cp >= 0x80 && !(k = out_utf8_decode(p, n, &cp))) {
			k = 1;
			cp = '?';
		}
		int cw = cp_width(cp);
		if (used + cw > maxw)
			break;
		if (in_clip(t, y, x + used) && in_clip(t, y, x + used + cw - 1)) {
			if (cp < 0x80 || !t->utf8) {
				mvaddch(y, x + used, (chtype)(cp < 0x80 ? cp : '?') | a);
			} else {
				wchar_t wc[2] = {(wchar_t)cp, 0};
				cchar_t cc;
				setcchar(&cc, wc, a, 0, NULL);
				mvadd_wch(y, x + used, &cc);
			}
		}
		used += cw;
		p += k;
		n -= k;
	}
	return used;
}

int draw_text(struct tui *t, int y, int x, int maxw, enum role r, const char *s)
{
	if (!s || maxw <= 0)
		return 0;
	/* plain ASCII is already safe: no copy */
	if (ascii_len(s) >= 0)
		return put_safe(t, y, x, maxw, r, s);
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), t->utf8 ? 0 : OUT_ASCII);
	int n = put_safe(t, y, x, maxw, r, b.oom ? "?" : out_buf_str(&b));
	out_buf_fini(&b);
	return n;
}

int draw_raw(struct tui *t, int y, int x, enum role r, const char *glyph)
{
	return put_safe(t, y, x, 1 << 20, r, glyph);
}

void draw_fill(struct tui *t, int y, int x, int w, enum role r)
{
	for (int i = 0; i < w; i++)
		if (in_clip(t, y, x + i))
			mvaddch(y, x + i, ' ' | t->attrs[r]);
}

void draw_hline(struct tui *t, int y, int x, int w, enum role r)
{
	for (int i = 0; i < w; i++)
		put_safe(t, y, x + i, 1, r, t->g->h);
}

void draw_box(struct tui *t, int y, int x, int h, int w, enum role r)
{
	if (h < 2 || w < 2)
		return;
	put_safe(t, y, x, 1, r, t->g->tl);
	put_safe(t, y, x + w - 1, 1, r, t->g->tr);
	put_safe(t, y + h - 1, x, 1, r, t->g->bl);
	put_safe(t, y + h - 1, x + w - 1, 1, r, t->g->br);
	draw_hline(t, y, x + 1, w - 2, r);
	draw_hline(t, y + h - 1, x + 1, w - 2, r);
	for (int i = 1; i < h - 1; i++) {
		put_safe(t, y + i, x, 1, r, t->g->v);
		put_safe(t, y + i, x + w - 1, 1, r, t->g->v);
	}
}

/* Word wrap over sanitised text: breaks at the last space that fits,
 * keeps the text's own newlines. */
int draw_wrapped(struct tui *t, int y, int x, int w, int maxlines, enum role r, const char *s)
{
	if (!s || w <= 0)
		return 0;
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), OUT_KEEP_NL | (t->utf8 ? 0 : OUT_ASCII));
	const char *p = out_buf_str(&b);
	int lines = 0;
	char *line = malloc(strlen(p) + 1);
	if (!line) {
		out_buf_fini(&b);
		return 0;
	}
	while (*p && (maxlines <= 0 || lines < maxlines)) {
		size_t take = 0, last_space = 0, end = strcspn(p, "\n");
		int cols = 0;
		while (take < end) {
			uint32_t cp;
			size_t k = out_utf8_decode((const unsigned char *)p + take, end - take, &cp);
			if (!k)
				k = 1, cp = '?';
			if (cols + cp_width(cp) > w)
				break;
			if (p[take] == ' ')
				last_space = take;
			cols += cp_width(cp);
			take += k;
		}
		if (take < end && last_space > 0)
			take = last_space;
		if (take == 0 && end > 0)
			take = 1; /* a glyph wider than the line */
		if (maxlines > 0) {
			memcpy(line, p, take);
			line[take] = '\0';
			/* the last allowed line shows that text was cut */
			if (lines == maxlines - 1 && p[take] && p[take + strspn(p + take, " \n")]) {
				int lw = put_safe(t, y + lines, x, w - 1, r, line);
				put_safe(t, y + lines, x + (lw < w - 1 ? lw : w - 1), 1, ROLE_DIM, t->g->more);
			} else {
				put_safe(t, y + lines, x, w, r, line);
			}
		}
		lines++;
		p += take;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
	}
	free(line);
	out_buf_fini(&b);
	return lines;
}

void tui_flash(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->flash, sizeof(t->flash), fmt, ap);
	va_end(ap);
	t->flash_error = error;
}

int tui_sort(void *base, size_t n, size_t size,
	     int (*cmp)(const void *, const void *, void *), void *ctx)
{
	if (n < 2)
		return 1;
	char *a = base, *tmp = malloc(n * size);
	if (!tmp)
		return 0;
	/* bottom-up merge sort: stable, O(n log n) */
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) {
				if (cmp(a + j * size, a + i * size, ctx) < 0)
					memcpy(tmp + k++ * size, a + j++ * size, size);
				else
					memcpy(tmp + k++ * size, a + i++ * size, size);
			}
			while (i < mid)
				memcpy(tmp + k++ * size, a + i++ * size, size);
			while (j < hi)
				memcpy(tmp + k++ * size, a + j++ * size, size);
		}
		memcpy(a, tmp, n * size);
	}
	free(tmp);
	return 1;
}

/* ---- the pen: lines of mixed roles with vertical scrolling ---- */

bool pen_visible(const struct pen *p)
{
	return p->line >= p->scroll && p->line - p->scroll < p->r.h;
}

void pen_put(struct pen *p, enum role r, const char *s)
{
	int room = p->r.w - p->x;
	if (room <= 0 || !s)
		return;
	if (pen_visible(p))
		p->x += draw_text(p->t, p->r.y + p->line - p->scroll, p->r.x + p->x, room, r, s);
	else
		p->x += text_width(s, p->t->utf8) < room ? text_width(s, p->t->utf8) : room;
}

void pen_raw(struct pen *p, enum role r, const char *glyph)
{
	if (p->x >= p->r.w)
		return;
	if (pen_visible(p))
		p->x += draw_raw(p->t, p->r.y + p->line - p->scroll, p->r.x + p->x, r, glyph);
	else
		p->x++;
}

void pen_printf(struct pen *p, enum role r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pen_put(p, r, buf);
}

void pen_pad(struct pen *p, int col)
{
	if (p->x < col)
		p->x = col;
}

void pen_nl(struct pen *p)
{
	p->line++;
	p->x = p->indent;
}

void pen_wrap(struct pen *p, enum role r, const char *s)
{
	int w = p->r.w - p->x;
	if (w <= 0 || !s)
		return;
	int n = draw_wrapped(p->t, 0, 0, w, 0, r, s);
	for (int i = 0; i < n; i++) {
		if (pen_visible(p)) {
			struct rect save = p->t->clip;
			/* draw line i alone: wrap again with the line's offset */
			int y = p->r.y + p->line - p->scroll;
			p->t->clip = (struct rect){y, p->r.x + p->x, 1, w};
			struct rect cl = p->t->clip;
			if (cl.y < save.y || cl.y >= save.y + save.h)
				cl.h = 0;
			p->t->clip = cl;
			draw_wrapped(p->t, y - i, p->r.x + p->x, w, n, r, s);
			p->t->clip = save;
		}
		if (i < n - 1) {
			int x = p->x;
			pen_nl(p);
			p->x = x;
		}
	}
	p->x = p->r.w;
}
