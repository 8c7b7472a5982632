/* buf.c - the growable string (out.h: struct out_buf). */
#include "out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void out_buf_fini(struct out_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = false;
}

void out_buf_reset(struct out_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

static bool buf_reserve(struct out_buf *b, size_t more)
{
	if (b->oom)
		return false;
	if (more > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return false;
	}
	size_t need = b->len + more + 1;
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void out_buf_add(struct out_buf *b, const char *s, size_t len)
{
	if (!buf_reserve(b, len))
		return;
	if (len)
		memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

void out_buf_puts(struct out_buf *b, const char *s)
{
	if (s)
		out_buf_add(b, s, strlen(s));
}

void out_buf_putc(struct out_buf *b, char ch)
{
	out_buf_add(b, &ch, 1);
}

void out_buf_printf(struct out_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (!buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *out_buf_str(const struct out_buf *b)
{
	return (b->s && !b->oom) ? b->s : "";
}

char *out_vstrf(const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *out_strf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = out_vstrf(fmt, ap);
	va_end(ap);
	return s;
}
