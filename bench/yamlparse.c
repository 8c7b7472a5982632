/* yamlparse.c - the floor for loading: a bare libyaml event loop over a
 * file, keeping nothing. Prints "cpu_seconds maxrss_kib events" (process
 * CPU time, as bench.c measures) on one line,
 * so bench/run.sh can compare skewer's loader against it.
 *
 *   build-bench/yamlparse FILE */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <yaml.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: yamlparse FILE\n");
		return 2;
	}
	double t0 = now();
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	yaml_parser_t p;
	yaml_event_t e;
	unsigned long long events = 0;
	int done = 0, rc = 0;
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return 2;
	}
	/* the same input path as the loader: a FILE, libyaml's own buffering */
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		if (!yaml_parser_parse(&p, &e)) {
			fprintf(stderr, "%s: parse error: %s\n", argv[1], p.problem ? p.problem : "?");
			rc = 1;
			break;
		}
		done = e.type == YAML_STREAM_END_EVENT;
		events++;
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	fclose(f);
	double t1 = now();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%.6f %ld %llu\n", t1 - t0, ru.ru_maxrss, events);
	return rc;
}
