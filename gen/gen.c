/* gen.c - `skewer gen`: writes a synthetic cluster of any size, as a
 * scenario or as the `kubectl get -o yaml` List of the same objects, for
 * benchmarks and load tests. Everything comes from one seeded PRNG
 * (splitmix64), so a seed always gives the same bytes; both formats are
 * written from the same in-memory model, so they load as the same cluster
 * and give the same placements. Written with stdio in one pass. */
#include "gen.h"
#include "entry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../load/load.h"
#include "../load/report.h"
#include "../util/status.h"

const char gen_synopsis[] =
	"gen [--nodes N] [--zones Z] [--regions R] [--pods P] [--constraints K] [--steps S] [--seed X] "
	"[--kube-version V] [--format scenario|kubectl] [-o FILE]";
const char gen_help[] =
	"Write a synthetic cluster, the same for a given seed: N nodes over Z zones\n"
	"in R regions (node pools, taints, cordoned nodes), P bound pods of\n"
	"Deployments, StatefulSets and DaemonSets, and S pending pods with K\n"
	"topology spread constraints each (hard and soft), some node affinity and\n"
	"pod anti-affinity. --format kubectl writes the same cluster as a\n"
	"`kubectl get -o yaml` List. Defaults: 100 nodes, 3 zones, 3000 pods,\n"
	"2 constraints, 100 steps, seed 1, scenario format, standard output.\n"
	"  --kube-version V      record Kubernetes V, 1.27 to 1.38 (as 1.31 or\n"
	"                        1.34.1): scheduler.version in a scenario, the\n"
	"                        List's skewer.io/server-version annotation\n";

static void gen_fini(struct gen *g)
{
	free(g->nodes);
	if (g->zone_nodes)
		for (uint32_t i = 0; i < g->o.zones; i++)
			free(g->zone_nodes[i]);
	free(g->zone_nodes);
	free(g->zone_n);
	free(g->zone_names);
	for (uint32_t i = 0; i < g->nwls; i++)
		free(g->wls[i].hosts);
	free(g->wls);
	free(g->pods);
}

static int parse_u(const char *opt, const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	if (!s)
		return status_usage("gen: %s needs a value", opt), 0;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || x > max)
		return status_usage("gen: %s: '%s' is not a number from 0 to %" PRIu64, opt, s, max), 0;
	*v = x;
	return 1;
}

int gen_main(int argc, char **argv)
{
	struct gen g;
	memset(&g, 0, sizeof(g));
	struct gen_opts *o = &g.o;
	*o = (struct gen_opts){.nodes = 100, .zones = 3, .regions = 1, .pods = 3000,
			       .constraints = 2, .steps = 100, .seed = 1};
	static const struct {
		const char *name;
		size_t off;
		uint64_t max;
	} nums[] = {
		{"--nodes", offsetof(struct gen_opts, nodes), LOAD_MAX_NODES},
		{"--zones", offsetof(struct gen_opts, zones), LOAD_MAX_NODES},
		{"--regions", offsetof(struct gen_opts, regions), LOAD_MAX_NODES},
		{"--pods", offsetof(struct gen_opts, pods), LOAD_MAX_PODS},
		{"--constraints", offsetof(struct gen_opts, constraints), GEN_MAX_TSC},
		{"--steps", offsetof(struct gen_opts, steps), LOAD_MAX_STEPS},
	};
	bool has_regions = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t x;
		size_t k;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: skewer %s\n\n%s", gen_synopsis, gen_help);
			return STATUS_OK;
		}
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			if (!strcmp(a, nums[k].name))
				break;
		if (k < sizeof(nums) / sizeof(nums[0])) {
			if (!parse_u(a, v, nums[k].max, &x))
				return STATUS_USAGE;
			*(uint32_t *)((char *)o + nums[k].off) = (uint32_t)x;
			has_regions = has_regions || k == 2;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (!parse_u(a, v, UINT64_MAX, &x))
				return STATUS_USAGE;
			o->seed = x;
			i++;
		} else if (!strcmp(a, "--kube-version")) {
			if (!load_version_arg_ok("gen", v))
				return STATUS_USAGE;
			o->kube_version = v;
			i++;
		} else if (!strcmp(a, "--format")) {
			if (!v || (strcmp(v, "scenario") && strcmp(v, "kubectl")))
				return status_usage("gen: --format takes scenario or kubectl");
			o->kubectl = !strcmp(v, "kubectl");
			i++;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!v)
				return status_usage("gen: %s needs a file name", a);
			o->out = v;
			i++;
		} else {
			return status_usage("gen: unknown option '%s'", a);
		}
	}
	if (!has_regions)
		o->regions = o->zones >= 6 ? o->zones / 3 : 1;
	if (!o->nodes || !o->zones || o->zones > o->nodes || !o->regions || o->regions > o->zones)
		return status_usage("gen: need 1 <= --regions <= --zones <= --nodes");
	if ((uint64_t)o->pods + o->steps > LOAD_MAX_PODS)
		return status_usage("gen: --pods plus --steps is more than %u", LOAD_MAX_PODS);

	int rc = STATUS_USAGE; /* out of memory, too */
	g.r.s = o->seed;
	if (!gen_build_nodes(&g) || !gen_build_pods(&g)) {
		fprintf(stderr, "skewer: gen: out of memory\n");
		goto done;
	}
	g.f = o->out ? fopen(o->out, "w") : stdout;
	if (!g.f) {
		rc = status_write_error("gen", o->out, errno);
		goto done;
	}
	static char iobuf[1 << 20];
	setvbuf(g.f, iobuf, _IOFBF, sizeof(iobuf));
	if (o->kubectl)
		gen_write_kubectl(&g);
	else
		gen_write_scenario(&g);
	if (!o->out) {
		/* standard output: main checks it, as for every command */
		rc = STATUS_OK;
	} else if ((ferror(g.f) | (fflush(g.f) != 0) | (fclose(g.f) != 0))) {
		/* an output that cannot be written: 2, as in every command */
		status_write_error("gen", o->out, errno);
	} else {
		rc = STATUS_OK;
	}
done:
	gen_fini(&g);
	return rc;
}
