/* json.c - JSON string escaping and the streaming JSON writer
 * (out.h: struct out_json). */
#include "out.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

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
			} else if (out_cp_dangerous(cp)) {
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
