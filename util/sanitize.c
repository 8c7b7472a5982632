/* sanitize.c - the terminal-safe form of input text (out_sanitize) and
 * its width, and UTF-8 decoding. */
#include "out.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* RFC 3629: shortest form only, no surrogates, nothing above U+10FFFF. */
size_t out_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	assert(s && cp);
	if (n == 0)
		return 0;
	unsigned char c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		len = 2; v = c & 0x1Fu; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; v = c & 0x0Fu; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; v = c & 0x07u; min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

/* Code points a terminal may act on although they are not C0 controls:
 * C1 controls (0x9B is CSI on some terminals) and the invisible
 * reordering marks that make text display other than it reads. */
bool out_cp_dangerous(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0xFEFF;
}

void out_sanitize(struct out_buf *b, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		/* copy the longest run of plain printable ASCII at once */
		size_t j = i;
		while (j < len && p[j] >= 0x20 && p[j] < 0x7F &&
		       !((flags & OUT_QUOTE) && (p[j] == '"' || p[j] == '\\')))
			j++;
		if (j > i) {
			out_buf_add(b, s + i, j - i);
			i = j;
			continue;
		}
		unsigned char c = p[i];
		if (c < 0x80) {
			if (c == '\n' && (flags & OUT_KEEP_NL))
				out_buf_putc(b, '\n');
			else if (c == '\n')
				out_buf_puts(b, "\\n");
			else if (c == '\t')
				out_buf_puts(b, "\\t");
			else if (c == '\r')
				out_buf_puts(b, "\\r");
			else if (c == '"' || c == '\\') {
				out_buf_putc(b, '\\');
				out_buf_putc(b, (char)c);
			} else
				out_buf_printf(b, "\\x%02x", c);
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = out_utf8_decode(p + i, len - i, &cp);
		if (n == 0) {
			out_buf_printf(b, "\\x%02x", c);
			i++;
		} else if (out_cp_dangerous(cp) || (flags & OUT_ASCII)) {
			if (cp > 0xFFFF)
				out_buf_printf(b, "\\U%08" PRIx32, cp);
			else
				out_buf_printf(b, "\\u%04" PRIx32, cp);
			i += n;
		} else {
			out_buf_add(b, s + i, n);
			i += n;
		}
	}
}

void out_text(FILE *f, const char *s, unsigned flags)
{
	if (!s)
		return;
	/* fast path: most names are plain ASCII */
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (p[i] >= 0x20 && p[i] < 0x7F && !((flags & OUT_QUOTE) && (p[i] == '"' || p[i] == '\\')))
		i++;
	if (p[i] == '\0') {
		fputs(s, f);
		return;
	}
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), flags);
	if (b.oom)
		fputs("<out of memory>", f);
	else
		fputs(out_buf_str(&b), f);
	out_buf_fini(&b);
}

static size_t count_cps(const char *s, size_t len)
{
	size_t w = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

size_t out_width(const char *s, unsigned flags)
{
	if (!s)
		return 0;
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), flags);
	/* the sanitised text is valid UTF-8: count lead bytes */
	size_t w = b.oom ? strlen(s) : count_cps(b.s ? b.s : "", b.len);
	out_buf_fini(&b);
	return w;
}

void out_text_pad(FILE *f, const char *s, size_t width, unsigned flags)
{
	out_text(f, s, flags);
	for (size_t w = out_width(s, flags); w < width; w++)
		fputc(' ', f);
}
