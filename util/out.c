/* out.c - string buffer, terminal sanitiser, JSON writer, colour roles. */
#include "out.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
static bool dangerous_cp(uint32_t cp)
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
		} else if (dangerous_cp(cp) || (flags & OUT_ASCII)) {
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

void out_json_escape(struct out_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	out_buf_putc(b, '"');
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && p[j] >= 0x20 && p[j] < 0x7F && p[j] != '"' && p[j] != '\\')
			j++;
		if (j > i) {
			out_buf_add(b, s + i, j - i);
			i = j;
			continue;
		}
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			out_buf_putc(b, '\\');
			out_buf_putc(b, (char)c);
			i++;
		} else if (c < 0x80) {
			/* C0 controls and DEL */
			out_buf_printf(b, "\\u%04x", c);
			i++;
		} else {
			uint32_t cp;
			size_t n = out_utf8_decode(p + i, len - i, &cp);
			if (n == 0) {
				out_buf_puts(b, "\xEF\xBF\xBD"); /* U+FFFD */
				i++;
			} else if (dangerous_cp(cp)) {
				/* valid JSON either way; escaped, it is also safe to
				 * show on a terminal (all are in the BMP) */
				out_buf_printf(b, "\\u%04x", (unsigned)cp);
				i += n;
			} else {
				out_buf_add(b, s + i, n);
				i += n;
			}
		}
	}
	out_buf_putc(b, '"');
}

/* JSON writer */

void out_json_init(struct out_json *j, FILE *f, int indent)
{
	assert(j && f);
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->indent = indent;
}

void out_json_fini(struct out_json *j)
{
	assert(j->depth == 0);
	fputc('\n', j->f);
	out_buf_fini(&j->tmp);
}

static void json_newline(struct out_json *j)
{
	if (j->indent <= 0)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth * j->indent; i++)
		fputc(' ', j->f);
}

static bool json_in_flat(const struct out_json *j, int depth)
{
	return j->flat && depth >= j->flat;
}

/* Before any value: a comma and a new line inside a container (one space
 * inside a one-line object), nothing right after a key. */
static void json_pre_value(struct out_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		bool had = j->nonempty[j->depth - 1];
		if (had)
			fputc(',', j->f);
		j->nonempty[j->depth - 1] = true;
		if (!json_in_flat(j, j->depth))
			json_newline(j);
		else if (had && j->indent > 0)
			fputc(' ', j->f);
	}
}

static void json_open(struct out_json *j, char ch)
{
	json_pre_value(j);
	assert(j->depth < OUT_JSON_MAX_DEPTH);
	fputc(ch, j->f);
	j->nonempty[j->depth++] = false;
}

static void json_close(struct out_json *j, char ch)
{
	assert(j->depth > 0 && !j->after_key);
	bool flat = json_in_flat(j, j->depth);
	bool had = j->nonempty[--j->depth];
	if (had && !flat)
		json_newline(j);
	fputc(ch, j->f);
	if (j->flat && j->depth < j->flat)
		j->flat = 0;
}

void out_json_begin_object(struct out_json *j) { json_open(j, '{'); }
void out_json_end_object(struct out_json *j) { json_close(j, '}'); }
void out_json_begin_array(struct out_json *j) { json_open(j, '['); }

void out_json_begin_object_flat(struct out_json *j)
{
	json_open(j, '{');
	if (!j->flat)
		j->flat = j->depth;
}
void out_json_end_array(struct out_json *j) { json_close(j, ']'); }

static void json_write_string(struct out_json *j, const char *s, size_t len)
{
	out_buf_reset(&j->tmp);
	out_json_escape(&j->tmp, s, len);
	if (j->tmp.oom) {
		/* keep the document valid even when the scratch could not grow */
		fputs("\"\"", j->f);
		out_buf_fini(&j->tmp);
		return;
	}
	fwrite(j->tmp.s, 1, j->tmp.len, j->f);
}

void out_json_key(struct out_json *j, const char *key)
{
	assert(key && !j->after_key);
	json_pre_value(j);
	json_write_string(j, key, strlen(key));
	fputs(j->indent > 0 ? ": " : ":", j->f);
	j->after_key = true;
}

void out_json_strn(struct out_json *j, const char *s, size_t len)
{
	json_pre_value(j);
	json_write_string(j, s, len);
}

void out_json_str(struct out_json *j, const char *s)
{
	if (!s) {
		out_json_null(j);
		return;
	}
	out_json_strn(j, s, strlen(s));
}

void out_json_int(struct out_json *j, int64_t v)
{
	json_pre_value(j);
	fprintf(j->f, "%" PRId64, v);
}

void out_json_bool(struct out_json *j, bool v)
{
	json_pre_value(j);
	fputs(v ? "true" : "false", j->f);
}

void out_json_null(struct out_json *j)
{
	json_pre_value(j);
	fputs("null", j->f);
}

/* colour */

int out_color_parse(const char *s, enum out_color_mode *mode)
{
	if (!strcmp(s, "auto"))
		*mode = OUT_COLOR_AUTO;
	else if (!strcmp(s, "always"))
		*mode = OUT_COLOR_ALWAYS;
	else if (!strcmp(s, "never"))
		*mode = OUT_COLOR_NEVER;
	else
		return 0;
	return 1;
}

bool out_color_enabled(FILE *f, enum out_color_mode mode)
{
	if (mode == OUT_COLOR_ALWAYS)
		return true;
	if (mode == OUT_COLOR_NEVER)
		return false;
	/* https://no-color.org: any non-empty value disables colour */
	const char *nc = getenv("NO_COLOR");
	if (nc && nc[0])
		return false;
	const char *term = getenv("TERM");
	if (!term || !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(f)) == 1;
}

void out_color_begin(FILE *f, bool on, enum out_color c)
{
	static const char *const sgr[] = {
		[OUT_C_NONE] = "",
		[OUT_C_HEAD] = "\033[1m",
		[OUT_C_FEASIBLE] = "\033[32m",
		[OUT_C_FILTERED] = "\033[31m",
		[OUT_C_CHOSEN] = "\033[1;32m",
		[OUT_C_DIM] = "\033[2m",
		[OUT_C_ERROR] = "\033[1;31m",
	};
	if (on && c != OUT_C_NONE)
		fputs(sgr[c], f);
}

void out_color_end(FILE *f, bool on)
{
	if (on)
		fputs("\033[0m", f);
}
