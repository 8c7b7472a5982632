/* out.h - output helpers shared by every layer above util/: a growable
 * string buffer (buf.c), the terminal-safe text sanitiser every input
 * string passes through before it reaches a terminal (sanitize.c), a
 * small streaming JSON writer (json.c) and the colour roles of the text
 * output (color.c). Nothing here knows the model. */
#ifndef SKEWER_OUT_H
#define SKEWER_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

/* A growable NUL-terminated string. Starts zeroed; out_buf_fini frees it.
 * After an allocation failure `oom` is set and further appends are
 * ignored, so callers check once at the end. */
struct out_buf {
	char *s;
	size_t len, cap;
	bool oom;
};

void out_buf_fini(struct out_buf *b);
void out_buf_reset(struct out_buf *b);
void out_buf_add(struct out_buf *b, const char *s, size_t len);
void out_buf_puts(struct out_buf *b, const char *s);
void out_buf_putc(struct out_buf *b, char ch);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void out_buf_printf(struct out_buf *b, const char *fmt, ...);
/* A formatted string on the heap (NULL when out of memory). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
char *out_strf(const char *fmt, ...);
/* out_strf over a va_list (ap is consumed). */
char *out_vstrf(const char *fmt, va_list ap);
/* The text so far ("" when empty or after OOM). */
const char *out_buf_str(const struct out_buf *b);

/* Sanitiser flags. */
enum {
	OUT_KEEP_NL = 1u << 0,  /* pass '\n' through (multi-line notes) */
	OUT_ASCII = 1u << 1,    /* escape every non-ASCII code point (\u00e9) */
	OUT_QUOTE = 1u << 2,    /* also escape '"' and '\\' (quoted forms) */
};

/* Appends the terminal-safe form of s[0..len) to b: C0 controls, DEL and
 * ESC as \xNN (\n, \t, \r as \n, \t, \r), C1 controls and the Unicode
 * bidirectional and line/paragraph separators as \uXXXX, every byte that
 * is not part of valid UTF-8 (overlong, surrogate, > U+10FFFF, truncated)
 * as \xNN. Everything else is copied. */
void out_sanitize(struct out_buf *b, const char *s, size_t len, unsigned flags);
/* Writes the sanitised form of the NUL-terminated s to f (NULL: nothing). */
void out_text(FILE *f, const char *s, unsigned flags);
/* Columns s takes once sanitised (code points; wide glyphs count 1). */
size_t out_width(const char *s, unsigned flags);
/* Writes the sanitised s padded with spaces to `width` columns. */
void out_text_pad(FILE *f, const char *s, size_t width, unsigned flags);

/* Appends s[0..len) as a JSON string literal (with the quotes): '"', '\\'
 * and control characters escaped (controls and DEL as \u00XX), invalid
 * UTF-8 bytes replaced by U+FFFD, valid UTF-8 copied. */
void out_json_escape(struct out_buf *b, const char *s, size_t len);

/* Decodes one UTF-8 sequence at s (n bytes available). Returns its length
 * (1-4) and the code point in *cp, or 0 when s does not start a valid,
 * shortest-form sequence. */
size_t out_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
/* Whether code point cp would change how a terminal shows text: a C1
 * control, a bidirectional control, a line or paragraph separator, a
 * BOM. out_sanitize escapes them, and so does out_json_escape. */
bool out_cp_dangerous(uint32_t cp);

/* Streaming JSON writer: commas and indentation are handled here. Calls
 * must nest properly (asserted). Output errors are left to ferror(). */
#define OUT_JSON_MAX_DEPTH 32

struct out_json {
	FILE *f;
	int indent;                        /* spaces per level, 0 = one line */
	int depth;
	bool nonempty[OUT_JSON_MAX_DEPTH]; /* the container has a member */
	bool after_key;
	int flat;                          /* depth of the open one-line container, 0: none */
	struct out_buf tmp;                /* escape scratch */
};

void out_json_init(struct out_json *j, FILE *f, int indent);
/* Ends the document with a newline and frees the scratch buffer. */
void out_json_fini(struct out_json *j);
void out_json_begin_object(struct out_json *j);
void out_json_end_object(struct out_json *j);
/* An object written on one line however deep (a node, a domain), so that
 * large documents stay readable with line tools. */
void out_json_begin_object_flat(struct out_json *j);
void out_json_begin_array(struct out_json *j);
void out_json_end_array(struct out_json *j);
void out_json_key(struct out_json *j, const char *key);
void out_json_str(struct out_json *j, const char *s); /* NULL writes null */
void out_json_strn(struct out_json *j, const char *s, size_t len);
void out_json_int(struct out_json *j, int64_t v);
void out_json_bool(struct out_json *j, bool v);
void out_json_null(struct out_json *j);

/* Colour roles of the text output; meaning is always in the text too. */
enum out_color {
	OUT_C_NONE,
	OUT_C_HEAD,      /* step headings */
	OUT_C_FEASIBLE,
	OUT_C_FILTERED,
	OUT_C_CHOSEN,
	OUT_C_DIM,       /* notes, secondary figures */
	OUT_C_ERROR,
};

enum out_color_mode { OUT_COLOR_AUTO, OUT_COLOR_ALWAYS, OUT_COLOR_NEVER };

/* Parses "auto" / "always" / "never"; returns 1, 0 when unknown. */
int out_color_parse(const char *s, enum out_color_mode *mode);
/* Whether to colour f: ALWAYS, NEVER, or AUTO = a terminal, NO_COLOR
 * unset or empty, TERM not "dumb". */
bool out_color_enabled(FILE *f, enum out_color_mode mode);
/* Starts / ends a colour role on f when `on`. */
void out_color_begin(FILE *f, bool on, enum out_color c);
void out_color_end(FILE *f, bool on);

#endif
