/* fuzz_explain.c - libFuzzer target over the loader and the whole explain
 * path: load_scenario_mem, the scheduler profile check, the timeline (every
 * step, then back to the start and forward again) and both explain writers
 * into memory streams.
 *
 * Beyond "no crash, no leak, no undefined behaviour, no hang", it checks
 * one property of its own: the text output never carries a raw control
 * character (ESC, C1 controls as raw UTF-8 are escaped by the sanitiser),
 * so no input can drive the user's terminal. The limits are small so that
 * a single input cannot ask for millions of pods and time out. */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "../model/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* main.c (left out: it has main()) holds the command table and the help
 * the commands print. */
int cli_help(FILE *f, const char *cmd)
{
	(void)f;
	(void)cmd;
	return 1;
}

/* Text output: only '\n' and printable characters. Raw bytes >= 0x80 are
 * allowed (valid UTF-8 is copied through), but not the C1 range encoded as
 * U+0080..U+009F (0xC2 0x80..0x9F). */
static void check_terminal_safe(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if ((ch < 0x20 && ch != '\n') || ch == 0x7f)
			abort();
		if (ch == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f)
			abort();
	}
}

/* JSON output: control characters only as escapes (the writer's own
 * newlines and indentation aside), and every string closed. */
static void check_json_escaped(const char *s, size_t n)
{
	bool in_str = false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (in_str) {
			if (ch < 0x20)
				abort();
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = false;
		} else if (ch == '"') {
			in_str = true;
		} else if (ch < 0x20 && ch != '\n') {
			abort();
		}
	}
	if (in_str)
		abort();
}

static void run(struct scenario *sc)
{
	struct timeline *t = timeline_new(sc);
	struct cli_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!t)
		return;
	memset(&o, 0, sizeof(o));
	o.color = OUT_COLOR_NEVER;

	f = open_memstream(&buf, &len);
	if (f) {
		explain_json(f, t, &o);
		fclose(f);
		check_json_escaped(buf, len);
		free(buf);
		buf = NULL;
	}
	/* undo every step, then redo them (recorded outcomes are reused) */
	timeline_goto(t, 0);
	timeline_goto(t, timeline_len(t));
	timeline_goto(t, 0);

	f = open_memstream(&buf, &len);
	if (f) {
		explain_text(f, t, &o);
		fclose(f);
		check_terminal_safe(buf, len);
		free(buf);
		buf = NULL;
	}
	/* an on-demand decision for the middle step (moves and comes back) */
	if (timeline_len(t)) {
		struct decision d;
		memset(&d, 0, sizeof(d));
		if (timeline_explain(t, timeline_len(t) / 2, &d))
			decision_fini(&d);
	}
	timeline_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct load_opts lo;
	struct load_errors errs;
	struct scenario *sc = NULL;

	memset(&lo, 0, sizeof(lo));
	memset(&errs, 0, sizeof(errs));
	lo.max_nodes = 64;
	lo.max_pods = 256;
	lo.max_depth = 64;
	lo.max_scalar = 4096;
	if (!load_scenario_mem("fuzz.yaml", (const char *)data, size, &lo, &sc, &errs)) {
		/* every failure carries at least one message */
		if (errs.n == 0 && errs.dropped == 0)
			abort();
		load_errors_fini(&errs);
		return 0;
	}
	load_errors_fini(&errs);
	char *bad = validate_sched_config(sc->cluster);
	if (bad) {
		free(bad);
		scenario_free(sc);
		return 0;
	}
	run(sc);
	scenario_free(sc);
	return 0;
}
