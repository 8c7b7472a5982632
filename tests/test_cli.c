/* test_cli.c - the output helpers the commands rely on for safety: the
 * terminal sanitiser, JSON string escaping and the JSON writer; and what
 * explain writes of the debugging records (every blocker, the spread
 * verdicts, preemption and the event), over small scenarios. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../cli/cli.h"
#include "../util/out.h"

/* main.c (left out of the test library: it has main()) holds the command
 * table and the help the commands print. */
int cli_help(FILE *f, const char *cmd)
{
	(void)f;
	(void)cmd;
	return 1;
}

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

/* ---- explain over a scenario: the debugging contract's fields ---- */

/* Runs explain (JSON or text) on the scenario text, only step `step`
 * (0: all); returns the malloc'd output. */
static char *explain_of(const char *yaml, bool json, uint32_t step)
{
	struct scenario *sc = NULL;
	struct load_errors e = {0};
	assert_int_equal(load_scenario_mem("t.yaml", yaml, strlen(yaml), NULL, &sc, &e), 1);
	load_errors_fini(&e);
	struct timeline *t = timeline_new(sc);
	assert_non_null(t);
	struct cli_opts o = {0};
	o.color = OUT_COLOR_NEVER;
	o.has_step = step > 0;
	o.step = step;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(json ? explain_json(f, t, &o) : explain_text(f, t, &o), CLI_OK);
	fclose(f);
	timeline_free(t);
	scenario_free(sc);
	return text;
}

#define HAS(text, s)                                                                      \
	do {                                                                              \
		if (!strstr(text, s))                                                     \
			fail_msg("missing: %s\nin:\n%s", s, text);                        \
	} while (0)

/* z-b1 fails the taint and the zone skew; nokey lacks the zone label;
 * z-a1 is feasible. Two hard constraints: zone, then hostname. */
static const char blockers_yaml[] =
	"name: b\n"
	"nodes:\n"
	"  - {name: z-a1, labels: {zone: a, kubernetes.io/hostname: z-a1}}\n"
	"  - name: z-b1\n"
	"    labels: {zone: b, kubernetes.io/hostname: z-b1}\n"
	"    taints: [{key: dedicated, value: infra, effect: NoSchedule}]\n"
	"  - {name: nokey, labels: {kubernetes.io/hostname: nokey}}\n"
	"pods:\n"
	"  - {name: w1, nodeName: z-b1, labels: {app: web}}\n"
	"steps:\n"
	"  - schedule:\n"
	"      name: w2\n"
	"      labels: {app: web}\n"
	"      topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: web}}}\n"
	"        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,\n"
	"           labelSelector: {matchLabels: {app: web}}}\n";

static void test_json_blockers_spread(void **state)
{
	(void)state;
	char *j = explain_of(blockers_yaml, true, 0);
	/* every failing filter of z-b1, in filter order, the first one
	 * being plugin/reason */
	HAS(j, "{\"name\": \"z-b1\", \"feasible\": false, \"plugin\": \"TaintToleration\", "
	       "\"reason\": \"node(s) had untolerated taint(s)\", "
	       "\"detail\": \"untolerated taint dedicated=infra:NoSchedule\", \"blockers\": ["
	       "{\"plugin\": \"TaintToleration\", \"reason\": \"node(s) had untolerated taint(s)\", "
	       "\"unresolvable\": true, \"detail\": \"untolerated taint dedicated=infra:NoSchedule\"}, "
	       "{\"plugin\": \"PodTopologySpread\", \"reason\": \"node(s) didn't match pod topology "
	       "spread constraints\", \"unresolvable\": false, ");
	/* its verdict per hard constraint: zone b has 1 of the minimum 0
	 * (2 > 1), its hostname domain 1 of the minimum 0 (2 > 1) */
	HAS(j, "\"spread\": [{\"constraint\": 0, \"domain\": \"b\", \"matchNum\": 1, \"selfMatch\": 1, "
	       "\"globalMin\": 0, \"skew\": 2, \"ok\": false}, {\"constraint\": 1, \"domain\": \"z-b1\", "
	       "\"matchNum\": 1, \"selfMatch\": 1, \"globalMin\": 0, \"skew\": 2, \"ok\": false}]}");
	/* without the zone key: domain null for that constraint, the
	 * hostname one still judged */
	HAS(j, "\"spread\": [{\"constraint\": 0, \"domain\": null, \"ok\": false}, {\"constraint\": 1, "
	       "\"domain\": \"nokey\", \"matchNum\": 0, \"selfMatch\": 1, \"globalMin\": 0, \"skew\": 1, "
	       "\"ok\": true}]}");
	HAS(j, "\"unresolvable\": true, \"detail\": \"missing label zone\"}]");
	/* a feasible node: no blockers, every verdict ok */
	HAS(j, "{\"name\": \"z-a1\", \"feasible\": true, \"plugin\": null, \"reason\": null, "
	       "\"blockers\": [], \"spread\": [{\"constraint\": 0, \"domain\": \"a\", \"matchNum\": 0, "
	       "\"selfMatch\": 1, \"globalMin\": 0, \"skew\": 1, \"ok\": true}, ");
	/* scheduled: no preemption, no event */
	assert_null(strstr(j, "\"preemption\""));
	assert_null(strstr(j, "\"event\""));
	free(j);

	char *x = explain_of(blockers_yaml, false, 0);
	HAS(x, "also: PodTopologySpread  node(s) didn't match pod topology spread constraints  "
	       "[zone=b: 1 + 1 - 0 = 2 > maxSkew 1]\n");
	HAS(x, "constraints: zone=b fails (skew 2 > maxSkew 1), kubernetes.io/hostname=z-b1 fails "
	       "(skew 2 > maxSkew 1)\n");
	HAS(x, "constraints: zone fails (the node lacks the key), kubernetes.io/hostname=nokey "
	       "passes (skew 1)\n");
	free(x);
}

/* n1 (2 cpu) holds a low-priority pod (800m) and a mid one (500m), n2
 * is tainted: a pod too big for n1 even without the low one gets no
 * candidate (1500m free < 1600m), a smaller one evicts it */
static const char preempt_yaml[] =
	"name: p\n"
	"nodes:\n"
	"  - {name: n1, allocatable: {cpu: \"2\"}}\n"
	"  - name: n2\n"
	"    allocatable: {cpu: \"2\"}\n"
	"    taints: [{key: k, value: v, effect: NoSchedule}]\n"
	"pods:\n"
	"  - {name: low, namespace: team, nodeName: n1, priority: 0, requests: {cpu: 800m}}\n"
	"  - {name: mid, nodeName: n1, priority: 100, requests: {cpu: 500m}}\n"
	"steps:\n"
	"  - schedule: {name: big, priority: 50, requests: {cpu: 1600m}}\n"
	"  - schedule: {name: high, priority: 100, requests: {cpu: \"1\"}}\n";

static void test_json_preemption(void **state)
{
	(void)state;
	char *j = explain_of(preempt_yaml, true, 2);
	HAS(j, "      \"message\": \"0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had "
	       "untolerated taint(s).\",\n"
	       "      \"preemption\": {\n"
	       "        \"message\": \"preemption: found a potential placement for pod on node n1, "
	       "preempting 1 victims\",\n"
	       "        \"nominatedNode\": \"n1\",\n"
	       "        \"victims\": [\n"
	       "          \"team/low\"\n"
	       "        ],\n"
	       "        \"result\": \"nominated\",\n"
	       "        \"pick\": \"onlyCandidate\",\n"
	       "        \"nodes\": [\n"
	       "          {\"name\": \"n1\", \"result\": \"candidate\", \"victims\": [\"team/low\"], "
	       "\"pdbViolations\": 0, \"highestPriority\": 0},\n"
	       "          {\"name\": \"n2\", \"result\": \"notHelpful\"}\n"
	       "        ]\n"
	       "      },\n"
	       "      \"event\": \"0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated "
	       "taint(s). preemption: found a potential placement for pod on node n1, preempting 1 "
	       "victims\",\n");
	free(j);
	/* n1 without its pod is still too small: no candidate */
	j = explain_of(preempt_yaml, true, 1);
	HAS(j, "\"nominatedNode\": null,\n        \"victims\": [],\n        \"result\": \"noCandidate\",");
	HAS(j, "{\"name\": \"n1\", \"result\": \"stillUnfit\", \"plugin\": \"NodeResourcesFit\", "
	       "\"reason\": \"Insufficient cpu\"}");
	free(j);

	char *x = explain_of(preempt_yaml, false, 2);
	HAS(x, "  Preemption: nominated n1 (the only candidate); victims deleted: team/low\n"
	       "    n1    candidate: evicts team/low (highest priority 0, 0 PDB violations)  <- nominated\n"
	       "    n2    not helpful: TaintToleration is unresolvable\n"
	       "  -> pending: 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated "
	       "taint(s).\n"
	       "  event: 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated "
	       "taint(s). preemption: found a potential placement for pod on node n1, preempting 1 "
	       "victims\n");
	free(x);
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
		cmocka_unit_test(test_json_blockers_spread),
		cmocka_unit_test(test_json_preemption),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
