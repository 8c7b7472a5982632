/* frame.c - CPU time of one full frame of the interface, headless (curses
 * on /dev/null, as `skewer tui --size` runs it): loads the scenario, opens
 * it at its first step as the interface does, then times RUNS batches of
 * BATCH frames, each a relayout and a full redraw (what <C-l> asks for),
 * and prints the median seconds per frame. Built only when tui/ exists.
 *
 *   build-bench/frame FILE COLSxROWS BATCH RUNS */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../model/sched.h"
#include "../load/report.h"
#include "../tui/tui.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	sched_tune_memory();
	int cols, rows;
	if (argc != 5 || sscanf(argv[2], "%dx%d", &cols, &rows) != 2) {
		fprintf(stderr, "usage: frame FILE COLSxROWS BATCH RUNS\n");
		return 2;
	}
	int batch = atoi(argv[3]), runs = atoi(argv[4]);
	if (batch < 1 || runs < 1)
		return 2;
	const char *files[] = {argv[1]};
	struct load_opts lo;
	memset(&lo, 0, sizeof(lo));
	struct scenario *sc = NULL;
	char err[700];
	struct tui t;
	memset(&t, 0, sizeof(t));
	if (!load_report(stderr, &lo, files, 1, &sc))
		return 2;
	if (!(t.sim = sim_new(sc, files, 1, false, err, sizeof(err)))) {
		fprintf(stderr, "frame: %s\n", err);
		return 2;
	}
	setlocale(LC_ALL, "");
	t.headless = true;
	t.utf8 = term_locale_utf8();
	t.g = term_glyphs(t.utf8);
	t.color = true;
	if (!term_start(&t, rows, cols)) {
		fprintf(stderr, "frame: cannot start curses\n");
		return 2;
	}
	screen_layout(&t);
	screen_draw(&t); /* the first frame builds what later ones reuse */
	double *per = calloc((size_t)runs, sizeof(double));
	if (!per)
		return 2;
	for (int r = 0; r < runs; r++) {
		double t0 = now();
		for (int i = 0; i < batch; i++) {
			screen_layout(&t);
			screen_draw(&t);
		}
		per[r] = (now() - t0) / batch;
	}
	term_stop(&t);
	qsort(per, (size_t)runs, sizeof(double), cmp_double);
	printf("%.9f\n", per[runs / 2]);
	free(per);
	sim_free(t.sim);
	return 0;
}
