/* test_yamlw.c - the YAML writer (util/yamlw.h): block and flow styles,
 * flow collections inside block ones, keys apart from their values,
 * empty collections, comments. Expected texts written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../util/yamlw.h"

static char *text;
static size_t len;

static struct yw start(bool flow, int seq_indent)
{
	struct yw y;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	yw_init(&y, f, flow, 0);
	y.seq_indent = seq_indent;
	return y;
}

static void finish(struct yw *y, const char *want)
{
	assert_int_equal(y->depth, 0);
	assert_int_equal(fclose(y->f), 0);
	assert_string_equal(text, want);
	free(text);
}

/* save.c's shape: sequences indented under their key, flow values in
 * block mappings, quoted keys, a step's value after its key */
static void test_block_with_flow(void **state)
{
	(void)state;
	struct yw y = start(false, 2);
	yw_comment(&y, "a\tb %d", 1);
	yw_kq(&y, "name", "x\"y");
	yw_fmap(&y, "labels");
	yw_qkey(&y, "a: b");
	yw_kq(&y, NULL, "c");
	yw_kv(&y, "n", "1");
	yw_end(&y);
	yw_seq(&y, "items");
	yw_map(&y, NULL);
	yw_kf(&y, "skew", "%d", -1);
	yw_fseq(&y, "v");
	yw_item(&y, "a");
	yw_item(&y, "b");
	yw_end(&y);
	yw_end(&y);
	yw_fmap(&y, NULL);
	yw_key(&y, "k");
	yw_kq(&y, NULL, "v");
	yw_end(&y);
	yw_kq(&y, NULL, "s");
	yw_map(&y, NULL);
	yw_key(&y, "step");
	yw_map(&y, NULL);
	yw_kv(&y, "a", "1");
	yw_end(&y);
	yw_comment(&y, "left out");
	yw_end(&y);
	yw_end(&y);
	finish(&y, "# a b 1\n"
		   "name: \"x\\\"y\"\n"
		   "labels: {\"a: b\": \"c\", n: 1}\n"
		   "items:\n"
		   "  - skew: -1\n"
		   "    v: [a, b]\n"
		   "  - {k: \"v\"}\n"
		   "  - \"s\"\n"
		   "  - step:\n"
		   "      a: 1\n"
		   "    # left out\n");
}

/* an empty block collection is {} or [], never a null "k:" */
static void test_empty(void **state)
{
	(void)state;
	struct yw y = start(false, 2);
	yw_map(&y, "m");
	yw_end(&y);
	yw_seq(&y, "s");
	yw_end(&y);
	yw_fmap(&y, "f");
	yw_end(&y);
	yw_seq(&y, "one");
	yw_map(&y, NULL);
	yw_end(&y);
	yw_end(&y);
	finish(&y, "m: {}\ns: []\nf: {}\none:\n  - {}\n");
}

/* gen's two formats: kubectl's block style, the scenario's flow lines */
static void test_gen_styles(void **state)
{
	(void)state;
	struct yw y = start(false, 0);
	yw_map(&y, "spec");
	yw_seq(&y, "containers");
	yw_map(&y, NULL);
	yw_kv(&y, "name", "c");
	yw_seq(&y, "args");
	yw_item(&y, "x");
	yw_end(&y);
	yw_end(&y);
	yw_end(&y);
	yw_raw(&y, 2, "a: 1\nb: 2\n");
	yw_end(&y);
	finish(&y, "spec:\n  containers:\n  - name: c\n    args:\n    - x\n    a: 1\n    b: 2\n");
	y = start(true, 0);
	yw_map(&y, NULL);
	yw_kv(&y, "a", "1");
	yw_seq(&y, "b");
	yw_item(&y, "x");
	yw_item(&y, "y");
	yw_end(&y);
	yw_ku(&y, "c", UINT64_MAX);
	yw_end(&y);
	finish(&y, "{a: 1, b: [x, y], c: 18446744073709551615}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_with_flow),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_gen_styles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
