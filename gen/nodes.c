/* nodes.c - `skewer gen`'s node pools and nodes: each node's pool, zone,
 * rack and taints, and the cpu and memory it offers. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

const struct gen_pool gen_pools[] = {
	{"general", "m5.2xlarge", "amd64", 8, 32, 58, 0, false, 28},
	{"general-large", "m5.4xlarge", "amd64", 16, 64, 110, 0, false, 25},
	{"compute", "c5.4xlarge", "amd64", 16, 32, 110, 0, false, 15},
	{"memory", "r5.2xlarge", "amd64", 8, 64, 58, 0, false, 10},
	{"graviton", "m6g.4xlarge", "arm64", 16, 64, 110, 0, false, 10},
	{"spot", "m5.4xlarge", "amd64", 16, 64, 110, 0, true, 10},
	{"gpu", "g4dn.2xlarge", "amd64", 8, 32, 29, 1, false, 2},
};
#define NPOOLS (sizeof(gen_pools) / sizeof(gen_pools[0]))

int gen_build_nodes(struct gen *g)
{
	uint32_t n = g->o.nodes, z = g->o.zones;
	char rb[32];
	g->nodes = calloc(n, sizeof(*g->nodes));
	g->zone_nodes = calloc(z, sizeof(*g->zone_nodes));
	g->zone_n = calloc(z, sizeof(*g->zone_n));
	g->zone_names = calloc(z, sizeof(*g->zone_names));
	if (!g->nodes || !g->zone_nodes || !g->zone_n || !g->zone_names)
		return 0;
	for (uint32_t i = 0; i < z; i++) {
		uint32_t letter = i / g->o.regions;
		const char *reg = gen_region_of(g, i, rb, sizeof(rb));
		if (letter < 26)
			snprintf(g->zone_names[i], sizeof(g->zone_names[i]), "%s%c", reg, 'a' + (int)letter);
		else
			snprintf(g->zone_names[i], sizeof(g->zone_names[i]), "%s-az%" PRIu32, reg, letter);
		if (!(g->zone_nodes[i] = malloc((n / z + 1) * sizeof(uint32_t))))
			return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct gen_node *nd = &g->nodes[i];
		uint32_t w = rng_below(&g->r, 100), acc = 0;
		nd->pool = 0;
		for (uint32_t p = 0; p < NPOOLS; p++) {
			acc += gen_pools[p].weight;
			if (w < acc) {
				nd->pool = p;
				break;
			}
		}
		/* spread nodes evenly over zones, as a cluster autoscaler would */
		nd->zone = i % z;
		nd->rack = g->zone_n[nd->zone] / 40;
		g->zone_nodes[nd->zone][g->zone_n[nd->zone]++] = i;
		nd->cordoned = rng_pct(&g->r, 1) && n > 1;
		nd->dedicated = !nd->cordoned && gen_pools[nd->pool].gpus == 0 && rng_below(&g->r, 200) == 0;
		uint32_t ip = i + 257;
		snprintf(nd->ip, sizeof(nd->ip), "10.%" PRIu32 ".%" PRIu32 ".%" PRIu32,
			 (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
		snprintf(nd->name, sizeof(nd->name), "ip-10-%" PRIu32 "-%" PRIu32 "-%" PRIu32 ".%s.compute.internal",
			 (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, gen_region_of(g, nd->zone, rb, sizeof(rb)));
	}
	return 1;
}

int64_t gen_node_cpu_alloc(const struct gen_node *n)
{
	uint32_t c = gen_pools[n->pool].cores;
	return (int64_t)c * 1000 - (c <= 8 ? 90 : 150);
}

int64_t gen_node_mem_alloc_mi(const struct gen_node *n)
{
	return (int64_t)gen_pools[n->pool].mem_gi * 1024 - 1741; /* kube-reserved + eviction */
}
