/* color.c - the colour roles of the text output (out.h). */
#include "out.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
