/* gen.h - the parts of `skewer gen`, private to gen/: the seeded PRNG,
 * the in-memory model of the cluster to write, and the functions of each
 * file. gen.c reads the options (entry.h is the command's entry), nodes.c and workloads.c build the
 * cluster, names.c makes the names, objects.c writes the pieces both
 * formats share, scenario.c and kubectl.c write the two formats through
 * the YAML writer of util/yamlw.h. */
#ifndef SKEWER_GEN_H
#define SKEWER_GEN_H

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../util/yamlw.h"

/* ---- the PRNG ---- */

struct gen_rng {
	uint64_t s;
};

/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, good enough here */
static inline uint64_t rng_next(struct gen_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (multiply-shift, no modulo bias worth noting). */
static inline uint32_t rng_below(struct gen_rng *r, uint32_t n)
{
	assert(n > 0);
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static inline bool rng_pct(struct gen_rng *r, uint32_t pct)
{
	return rng_below(r, 100) < pct;
}


/* ---- the model of the cluster to write ---- */

#define POOL_GPU 6          /* the index of the gpu pool in gen_pools */
#define NTSC_KEYS 5u        /* topology keys constraints use (objects.c) */
#define GEN_MAX_TSC (2 * NTSC_KEYS) /* each key once hard, once soft */
#define GEN_NBASE_NS 13u    /* the fixed namespaces before team-NN (names.c) */
#define GEN_BASE_TIME 1736928000 /* 2025-01-15T08:00:00Z */
#define GEN_TIME_LEN 64     /* room for any int64 fields, so no truncation warning */

struct gen_pool {
	const char *name;     /* node-pool label */
	const char *itype;
	const char *arch;
	uint32_t cores, mem_gi, pods, gpus;
	bool spot;
	uint32_t weight;      /* share of the nodes, percent */
};

enum gen_kind { GK_DEPLOY, GK_STS, GK_DAEMON };

struct gen_tsc {
	uint8_t key;          /* index in tsc_keys */
	bool hard;
	uint8_t max_skew;
	uint8_t min_domains;  /* 0: unset */
	bool mlk;             /* matchLabelKeys: [the revision hash] */
	bool taints_honor;
	bool affinity_ignore;
};

struct gen_wl {
	enum gen_kind kind;
	uint32_t ns;
	char name[64];        /* app name (Deployment / StatefulSet / DaemonSet) */
	char hash[16];        /* pod-template-hash or revision */
	uint32_t salt;        /* scrambles pod name suffixes */
	uint32_t nrep;        /* replicas made so far */
	uint32_t nbound;
	uint32_t cpu_m, mem_mi, gpus;
	uint32_t zone0;       /* zone of replica 0 (round-robin from there) */
	uint8_t tier;
	bool service, anti_req, anti_pref, amd64_only, itype_req, pref_ondemand, tol_spot;
	uint8_t ntsc;
	struct gen_tsc tsc[GEN_MAX_TSC];
	uint32_t *hosts;      /* nodes holding a replica (anti_req only) */
	uint32_t nhosts, hostcap;
	uint64_t uid;
};

struct gen_node {
	uint32_t pool, zone, rack;
	bool cordoned, dedicated;
	int64_t cpu_used, mem_used; /* millicores, MiB */
	uint32_t npods;
	char name[128];
	char ip[16];
};

struct gen_pod {
	uint32_t wl;
	uint32_t rep;
	int32_t node;         /* -1: pending (a step) */
};

struct gen_opts {
	uint32_t nodes, zones, regions, pods, constraints, steps;
	uint64_t seed;
	bool kubectl;
	const char *out;
	const char *kube_version; /* --kube-version V: recorded, NULL when not given */
};

struct gen {
	struct gen_opts o;
	struct gen_rng r;
	struct gen_node *nodes;
	uint32_t **zone_nodes, *zone_n;
	char (*zone_names)[64];
	struct gen_wl *wls;
	uint32_t nwls, wlcap;
	uint32_t nns;
	struct gen_pod *pods;
	uint32_t npods, podcap;
	uint32_t nbound;
	FILE *f;
	char buf[256];
};


/* nodes.c: the node gen_pools, the nodes, what a node can hold */
extern const struct gen_pool gen_pools[];
int gen_build_nodes(struct gen *g);
int64_t gen_node_cpu_alloc(const struct gen_node *n);
int64_t gen_node_mem_alloc_mi(const struct gen_node *n);
/* workloads.c: DaemonSets, Deployments and StatefulSets, their pods
 * placed on the nodes or left pending (steps) */
int gen_build_pods(struct gen *g);
/* names.c: namespaces, regions, name suffixes and uids */
const char *gen_ns_name(const struct gen *g, uint32_t ns, char *buf, size_t len);
const char *gen_region_of(const struct gen *g, uint32_t zone, char *buf, size_t len);
void gen_suffix5(uint32_t salt, uint32_t i, char out[6]);
void gen_rand_chars(struct gen_rng *r, char *out, int n);
void gen_uid_text(uint64_t a, char out[37]);
/* objects.c: the pieces both formats write */
const char *gen_time_text(int64_t t, char buf[GEN_TIME_LEN]);
void gen_pod_name(const struct gen *g, const struct gen_wl *w, uint32_t rep, char *out, size_t len);
void gen_owner_name(const struct gen_wl *w, char *out, size_t len);
const char *gen_owner_kind(const struct gen_wl *w);
void gen_put_pod_labels(struct gen *g, struct yw *w, const struct gen_wl *wl, uint32_t rep);
void gen_put_tscs(struct gen *g, struct yw *w, const struct gen_wl *wl);
void gen_put_affinity(struct gen *g, struct yw *w, const struct gen_wl *wl, int32_t node);
void gen_put_node_labels(struct gen *g, struct yw *w, const struct gen_node *n);
void gen_put_taints(struct yw *w, const struct gen_node *n, bool kubectl);
void gen_put_tolerations(struct yw *w, const struct gen_wl *wl);
void gen_put_requests(struct yw *w, const struct gen_wl *wl, const char *key);
/* scenario.c, kubectl.c: the two formats */
void gen_write_scenario(struct gen *g);
void gen_write_kubectl(struct gen *g);

#endif
