/* test_cli.c - the output helpers the commands rely on for safety: the
 * terminal sanitiser, JSON string escaping and the JSON writer. Needs only
 * cli/out.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../cli/out.h"

/* sanitise s[0..len) with flags and compare with want */
static void check_sanitize(const char *s, size_t len, unsigned flags, const char *want)
{
	struct out_buf b = {0};
	out_sanitize(&b, s, len, flags);
	assert_false(b.oom);
	assert_string_equal(out_buf_str(&b), want);
	out_buf_fini(&b);
}

static void check_json(const char *s, size_t len, const char *want)
{
	struct out_buf b = {0};
	out_json_escape(&b, s, len);
	assert_false(b.oom);
	assert_string_equal(out_buf_str(&b), want);
	out_buf_fini(&b);
}

#define SAN(lit, flags, want) check_sanitize(lit, sizeof(lit) - 1, flags, want)
#define JSON(lit, want) check_json(lit, sizeof(lit) - 1, want)

static void test_sanitize_plain(void **state)
{
	(void)state;
	SAN("", 0, "");
	SAN("node-1.example_zone/A", 0, "node-1.example_zone/A");
	SAN("say \"hi\" \\ there", 0, "say \"hi\" \\ there");
	SAN("zone\xC3\xA9", 0, "zone\xC3\xA9");           /* é stays */
	SAN("\xF0\x9F\x98\x80", 0, "\xF0\x9F\x98\x80");   /* emoji stays */
}

static void test_sanitize_controls(void **state)
{
	(void)state;
	SAN("a\x1b[31mred", 0, "a\\x1b[31mred");
	SAN("bell\x07", 0, "bell\\x07");
	SAN("del\x7f", 0, "del\\x7f");
	SAN("a\nb\tc\rd", 0, "a\\nb\\tc\\rd");
	SAN("a\nb", OUT_KEEP_NL, "a\nb");
	SAN("a\x1b\nb", OUT_KEEP_NL, "a\\x1b\nb");
	/* an embedded NUL is shown, not a terminator */
	SAN("a\0b", 0, "a\\x00b");
	/* C1 CSI (U+009B) and bidi override (U+202E) are escaped */
	SAN("x\xC2\x9B" "2J", 0, "x\\u009b2J");
	SAN("abc\xE2\x80\xAE" "cba", 0, "abc\\u202ecba");
}

static void test_sanitize_invalid_utf8(void **state)
{
	(void)state;
	SAN("\xff", 0, "\\xff");
	SAN("ok\xC3", 0, "ok\\xc3");                 /* truncated */
	SAN("\xC0\xAF", 0, "\\xc0\\xaf");            /* overlong '/' */
	SAN("\xED\xA0\x80", 0, "\\xed\\xa0\\x80");   /* surrogate */
	SAN("\xF4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80"); /* > U+10FFFF */
	SAN("\x80" "a", 0, "\\x80a");                /* lone continuation */
}

static void test_sanitize_flags(void **state)
{
	(void)state;
	SAN("zone\xC3\xA9", OUT_ASCII, "zone\\u00e9");
	SAN("\xF0\x9F\x98\x80", OUT_ASCII, "\\U0001f600");
	SAN("a\"b\\c", OUT_QUOTE, "a\\\"b\\\\c");
}

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(out_width("node1", 0), 5);
	assert_int_equal(out_width("zone\xC3\xA9", 0), 5);
	assert_int_equal(out_width("zone\xC3\xA9", OUT_ASCII), 10);
	assert_int_equal(out_width("a\x1b", 0), 5);
	assert_int_equal(out_width(NULL, 0), 0);
}

static void test_utf8_decode(void **state)
{
	(void)state;
	uint32_t cp = 0;
	assert_int_equal(out_utf8_decode((const unsigned char *)"A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(out_utf8_decode((const unsigned char *)"\xE2\x82\xAC", 3, &cp), 3);
	assert_int_equal(cp, 0x20AC);
	assert_int_equal(out_utf8_decode((const unsigned char *)"\xE2\x82\xAC", 2, &cp), 0);
	assert_int_equal(out_utf8_decode((const unsigned char *)"\xE0\x80\x80", 3, &cp), 0);
	assert_int_equal(out_utf8_decode((const unsigned char *)"\xF4\x8F\xBF\xBF", 4, &cp), 4);
	assert_int_equal(cp, 0x10FFFF);
}

static void test_json_escape(void **state)
{
	(void)state;
	JSON("", "\"\"");
	JSON("foo=bar", "\"foo=bar\"");
	JSON("a\"b\\c", "\"a\\\"b\\\\c\"");
	JSON("a\nb\x1b\x01\x7f", "\"a\\u000ab\\u001b\\u0001\\u007f\"");
	JSON("nul\0x", "\"nul\\u0000x\"");
	JSON("zone\xC3\xA9", "\"zone\xC3\xA9\"");
	/* invalid UTF-8: each bad byte becomes U+FFFD */
	JSON("a\xff" "b", "\"a\xEF\xBF\xBD" "b\"");
	JSON("\xC3", "\"\xEF\xBF\xBD\"");
	JSON("\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

/* Runs the writer into a memory file and returns the text (caller frees). */
static char *json_doc(int indent)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	struct out_json j;
	out_json_init(&j, f, indent);
	out_json_begin_object(&j);
	out_json_key(&j, "scenario");
	out_json_str(&j, "x\"y");
	out_json_key(&j, "steps");
	out_json_begin_array(&j);
	out_json_begin_object(&j);
	out_json_key(&j, "index");
	out_json_int(&j, 1);
	out_json_key(&j, "message");
	out_json_str(&j, NULL);
	out_json_key(&j, "ok");
	out_json_bool(&j, true);
	out_json_key(&j, "domains");
	out_json_begin_array(&j);
	out_json_end_array(&j);
	out_json_key(&j, "min");
	out_json_int(&j, -9);
	out_json_end_object(&j);
	out_json_null(&j);
	out_json_end_array(&j);
	out_json_end_object(&j);
	out_json_fini(&j);
	fclose(f);
	return text;
}

static void test_json_writer(void **state)
{
	(void)state;
	char *one = json_doc(0);
	assert_string_equal(one, "{\"scenario\":\"x\\\"y\",\"steps\":[{\"index\":1,\"message\":null,"
				 "\"ok\":true,\"domains\":[],\"min\":-9},null]}\n");
	free(one);
	char *pretty = json_doc(2);
	assert_string_equal(pretty,
			    "{\n"
			    "  \"scenario\": \"x\\\"y\",\n"
			    "  \"steps\": [\n"
			    "    {\n"
			    "      \"index\": 1,\n"
			    "      \"message\": null,\n"
			    "      \"ok\": true,\n"
			    "      \"domains\": [],\n"
			    "      \"min\": -9\n"
			    "    },\n"
			    "    null\n"
			    "  ]\n"
			    "}\n");
	free(pretty);
}

static void test_json_flat(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	struct out_json j;
	out_json_init(&j, f, 2);
	out_json_begin_object(&j);
	out_json_key(&j, "nodes");
	out_json_begin_array(&j);
	for (int i = 0; i < 2; i++) {
		out_json_begin_object_flat(&j);
		out_json_key(&j, "name");
		out_json_str(&j, i ? "b" : "a");
		out_json_key(&j, "scores");
		out_json_begin_object(&j);
		out_json_key(&j, "X");
		out_json_int(&j, i);
		out_json_key(&j, "Y");
		out_json_int(&j, 7);
		out_json_end_object(&j);
		out_json_key(&j, "empty");
		out_json_begin_array(&j);
		out_json_end_array(&j);
		out_json_end_object(&j);
	}
	out_json_end_array(&j);
	out_json_key(&j, "after");
	out_json_bool(&j, false);
	out_json_end_object(&j);
	out_json_fini(&j);
	fclose(f);
	assert_string_equal(text,
			    "{\n"
			    "  \"nodes\": [\n"
			    "    {\"name\": \"a\", \"scores\": {\"X\": 0, \"Y\": 7}, \"empty\": []},\n"
			    "    {\"name\": \"b\", \"scores\": {\"X\": 1, \"Y\": 7}, \"empty\": []}\n"
			    "  ],\n"
			    "  \"after\": false\n"
			    "}\n");
	free(text);
}

static void test_buf(void **state)
{
	(void)state;
	struct out_buf b = {0};
	assert_string_equal(out_buf_str(&b), "");
	for (int i = 0; i < 1000; i++)
		out_buf_printf(&b, "%d,", i % 10);
	assert_int_equal(b.len, 2000);
	out_buf_reset(&b);
	out_buf_puts(&b, "ab");
	out_buf_putc(&b, 'c');
	assert_string_equal(out_buf_str(&b), "abc");
	out_buf_fini(&b);
}

static void test_color_parse(void **state)
{
	(void)state;
	enum out_color_mode m;
	assert_int_equal(out_color_parse("never", &m), 1);
	assert_int_equal(m, OUT_COLOR_NEVER);
	assert_int_equal(out_color_parse("always", &m), 1);
	assert_int_equal(m, OUT_COLOR_ALWAYS);
	assert_int_equal(out_color_parse("sometimes", &m), 0);
	/* never colours a file that is not a terminal in auto mode */
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_false(out_color_enabled(f, OUT_COLOR_AUTO));
	assert_false(out_color_enabled(f, OUT_COLOR_NEVER));
	assert_true(out_color_enabled(f, OUT_COLOR_ALWAYS));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sanitize_plain),
		cmocka_unit_test(test_sanitize_controls),
		cmocka_unit_test(test_sanitize_invalid_utf8),
		cmocka_unit_test(test_sanitize_flags),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_utf8_decode),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_json_flat),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_color_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
