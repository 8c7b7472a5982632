/* gen.c - `skewer gen`: writes a synthetic cluster of any size, as a
 * scenario or as the `kubectl get -o yaml` List of the same objects, for
 * benchmarks and load tests. Everything comes from one seeded PRNG
 * (splitmix64), so a seed always gives the same bytes; both formats are
 * written from the same in-memory model, so they load as the same cluster
 * and give the same placements. Written with stdio in one pass. */
#include "cli.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the PRNG ---- */

struct gen_rng {
	uint64_t s;
};

/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, good enough here */
static uint64_t rng_next(struct gen_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (multiply-shift, no modulo bias worth noting). */
static uint32_t rng_below(struct gen_rng *r, uint32_t n)
{
	assert(n > 0);
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static bool rng_pct(struct gen_rng *r, uint32_t pct)
{
	return rng_below(r, 100) < pct;
}

/* ---- the model of the cluster to write ---- */

struct gen_pool {
	const char *name;     /* node-pool label */
	const char *itype;
	const char *arch;
	uint32_t cores, mem_gi, pods, gpus;
	bool spot;
	uint32_t weight;      /* share of the nodes, percent */
};

static const struct gen_pool pools[] = {
	{"general", "m5.2xlarge", "amd64", 8, 32, 58, 0, false, 28},
	{"general-large", "m5.4xlarge", "amd64", 16, 64, 110, 0, false, 25},
	{"compute", "c5.4xlarge", "amd64", 16, 32, 110, 0, false, 15},
	{"memory", "r5.2xlarge", "amd64", 8, 64, 58, 0, false, 10},
	{"graviton", "m6g.4xlarge", "arm64", 16, 64, 110, 0, false, 10},
	{"spot", "m5.4xlarge", "amd64", 16, 64, 110, 0, true, 10},
	{"gpu", "g4dn.2xlarge", "amd64", 8, 32, 29, 1, false, 2},
};
#define NPOOLS (sizeof(pools) / sizeof(pools[0]))
#define POOL_GPU 6

static const char *const region_names[] = {
	"us-east-1", "us-west-2", "eu-west-1", "eu-central-1",
	"ap-southeast-1", "ap-northeast-1", "sa-east-1", "ca-central-1",
};

static const char *const base_namespaces[] = {
	"default", "payments", "checkout", "catalog", "search", "identity", "data",
	"ml", "frontend", "platform", "monitoring", "logging", "ingress-nginx",
};

static const char *const words1[] = {
	"web", "api", "cart", "order", "user", "auth", "search", "index", "feed",
	"media", "price", "stock", "promo", "mail", "notify", "report", "billing",
	"ledger", "geo", "chat", "review", "rank", "ads", "event",
};
static const char *const words2[] = {
	"server", "worker", "gateway", "service", "cache", "proxy", "sync",
	"consumer", "frontend", "backend", "scheduler", "indexer", "reader",
	"writer", "router", "store",
};
static const char *const tiers[] = {"frontend", "backend", "cache", "worker"};

/* Topology keys constraints use, in the order a pod's list takes them. */
static const char *const tsc_keys[] = {
	"topology.kubernetes.io/zone", "kubernetes.io/hostname",
	"topology.kubernetes.io/region", "topology.example.com/rack",
	"node.kubernetes.io/instance-type",
};
#define NTSC_KEYS (sizeof(tsc_keys) / sizeof(tsc_keys[0]))
#define GEN_MAX_TSC (2 * NTSC_KEYS) /* each key once hard, once soft */

/* DaemonSets: one pod per node (up to three of them, by pod budget). */
static const struct {
	const char *name, *ns;
	uint32_t cpu_m, mem_mi;
} daemons[] = {
	{"kube-proxy", "kube-system", 100, 64},
	{"aws-node", "kube-system", 25, 128},
	{"node-exporter", "monitoring", 50, 64},
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

static const char *ns_name(const struct gen *g, uint32_t ns, char *buf, size_t len)
{
	if (ns < sizeof(base_namespaces) / sizeof(base_namespaces[0]))
		return base_namespaces[ns];
	if (ns == UINT32_MAX)
		return "kube-system";
	snprintf(buf, len, "team-%02" PRIu32, ns);
	(void)g;
	return buf;
}

static const char *region_of(const struct gen *g, uint32_t zone, char *buf, size_t len)
{
	uint32_t reg = zone % g->o.regions;
	if (reg < sizeof(region_names) / sizeof(region_names[0]))
		return region_names[reg];
	snprintf(buf, len, "region-%" PRIu32, reg);
	return buf;
}

/* The Kubernetes name-suffix alphabet (no vowels, no look-alikes). */
static const char alnum[] = "bcdfghjklmnpqrstvwxz2456789";
#define NALNUM 27u

/* A 5-character suffix unique per (salt, i) for i < 27^5: multiplying by a
 * number prime to 27 is a bijection modulo 27^5. */
static void suffix5(uint32_t salt, uint32_t i, char out[6])
{
	uint64_t v = ((uint64_t)i * 1000003u + salt) % 14348907u;
	for (int k = 0; k < 5; k++) {
		out[k] = alnum[v % NALNUM];
		v /= NALNUM;
	}
	out[5] = 0;
}

static void rand_chars(struct gen_rng *r, char *out, int n)
{
	for (int k = 0; k < n; k++)
		out[k] = alnum[rng_below(r, NALNUM)];
	out[n] = 0;
}

static void uid_text(uint64_t a, char out[37])
{
	struct gen_rng r = {a};
	uint64_t x = rng_next(&r), y = rng_next(&r);
	snprintf(out, 37, "%08" PRIx32 "-%04" PRIx32 "-4%03" PRIx32 "-%04" PRIx32 "-%012" PRIx64,
		 (uint32_t)(x >> 32), (uint32_t)(x >> 16) & 0xffff, (uint32_t)x & 0xfff,
		 0x8000 | ((uint32_t)(y >> 48) & 0x3fff), (uint64_t)(y & 0xffffffffffffull));
}

/* ---- building the cluster ---- */

static int build_nodes(struct gen *g)
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
		const char *reg = region_of(g, i, rb, sizeof(rb));
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
			acc += pools[p].weight;
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
		nd->dedicated = !nd->cordoned && pools[nd->pool].gpus == 0 && rng_below(&g->r, 200) == 0;
		uint32_t ip = i + 257;
		snprintf(nd->ip, sizeof(nd->ip), "10.%" PRIu32 ".%" PRIu32 ".%" PRIu32,
			 (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
		snprintf(nd->name, sizeof(nd->name), "ip-10-%" PRIu32 "-%" PRIu32 "-%" PRIu32 ".%s.compute.internal",
			 (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, region_of(g, nd->zone, rb, sizeof(rb)));
	}
	return 1;
}

static int64_t node_cpu_alloc(const struct gen_node *n)
{
	uint32_t c = pools[n->pool].cores;
	return (int64_t)c * 1000 - (c <= 8 ? 90 : 150);
}

static int64_t node_mem_alloc_mi(const struct gen_node *n)
{
	return (int64_t)pools[n->pool].mem_gi * 1024 - 1741; /* kube-reserved + eviction */
}

static struct gen_wl *new_wl(struct gen *g)
{
	if (g->nwls == g->wlcap) {
		uint32_t cap = g->wlcap ? g->wlcap * 2 : 256;
		struct gen_wl *w = realloc(g->wls, cap * sizeof(*w));
		if (!w)
			return NULL;
		g->wls = w;
		g->wlcap = cap;
	}
	struct gen_wl *w = &g->wls[g->nwls++];
	memset(w, 0, sizeof(*w));
	return w;
}

static struct gen_pod *new_pod(struct gen *g)
{
	if (g->npods == g->podcap) {
		uint32_t cap = g->podcap ? g->podcap * 2 : 1024;
		struct gen_pod *p = realloc(g->pods, cap * sizeof(*p));
		if (!p)
			return NULL;
		g->pods = p;
		g->podcap = cap;
	}
	return &g->pods[g->npods++];
}

static const uint32_t cpu_sizes[] = {10, 50, 100, 100, 100, 200, 250, 250, 500, 1000};
static const uint32_t mem_sizes[] = {32, 64, 128, 128, 256, 256, 512, 512, 1024, 2048};
static const uint32_t replica_sizes[] = {1, 2, 2, 3, 3, 3, 4, 5, 6, 8, 10, 12, 20, 30, 50};

/* The spreading rules of a workload's pod template: K constraints over
 * zone, hostname, region, rack, instance type (then the same keys again
 * with the other whenUnsatisfiable), hard and soft mixed. */
static void make_tscs(struct gen *g, struct gen_wl *w)
{
	uint32_t k = g->o.constraints;
	bool mlk = rng_pct(&g->r, 35);
	w->ntsc = (uint8_t)k;
	for (uint32_t j = 0; j < k; j++) {
		struct gen_tsc *t = &w->tsc[j];
		t->key = (uint8_t)(j % NTSC_KEYS);
		uint32_t hard_pct = t->key == 0 ? 75 : t->key == 1 ? 30 : 15;
		t->hard = rng_pct(&g->r, hard_pct);
		if (j >= NTSC_KEYS) /* second round: the other whenUnsatisfiable */
			t->hard = !w->tsc[j - NTSC_KEYS].hard;
		t->max_skew = (uint8_t)(rng_pct(&g->r, 80) ? 1 : 2 + rng_below(&g->r, 2));
		if (t->hard && t->key == 0 && rng_pct(&g->r, 15))
			t->min_domains = (uint8_t)(g->o.zones < 250 ? g->o.zones : 250);
		t->mlk = mlk && rng_pct(&g->r, 70);
		t->taints_honor = rng_pct(&g->r, 10);
		t->affinity_ignore = rng_pct(&g->r, 5);
	}
}

static void make_wl(struct gen *g, struct gen_wl *w, enum gen_kind kind, uint32_t idx)
{
	const uint32_t n1 = sizeof(words1) / sizeof(words1[0]), n2 = sizeof(words2) / sizeof(words2[0]);
	w->kind = kind;
	w->ns = rng_below(&g->r, g->nns);
	if (idx < n1 * n2)
		snprintf(w->name, sizeof(w->name), "%s-%s", words1[idx % n1], words2[idx / n1]);
	else
		snprintf(w->name, sizeof(w->name), "%s-%s-%" PRIu32, words1[idx % n1],
			 words2[(idx / n1) % n2], idx);
	rand_chars(&g->r, w->hash, kind == GK_DEPLOY ? 10 : 10);
	w->salt = (uint32_t)rng_next(&g->r);
	w->uid = rng_next(&g->r);
	w->cpu_m = cpu_sizes[rng_below(&g->r, sizeof(cpu_sizes) / sizeof(cpu_sizes[0]))];
	w->mem_mi = mem_sizes[rng_below(&g->r, sizeof(mem_sizes) / sizeof(mem_sizes[0]))];
	w->zone0 = rng_below(&g->r, g->o.zones);
	w->tier = (uint8_t)rng_below(&g->r, 4);
	w->service = rng_pct(&g->r, kind == GK_STS ? 100 : 80);
	w->anti_req = rng_pct(&g->r, kind == GK_STS ? 50 : 5);
	w->anti_pref = !w->anti_req && rng_pct(&g->r, 25);
	w->amd64_only = rng_pct(&g->r, 30);
	w->itype_req = rng_pct(&g->r, 5);
	w->pref_ondemand = rng_pct(&g->r, 20);
	w->tol_spot = rng_pct(&g->r, 30);
	make_tscs(g, w);
}

static bool node_allows(const struct gen *g, const struct gen_wl *w, uint32_t id, bool capacity)
{
	const struct gen_node *n = &g->nodes[id];
	const struct gen_pool *p = &pools[n->pool];
	if (w->kind == GK_DAEMON)
		return true;
	if (n->dedicated || (p->gpus > 0) != (w->gpus > 0))
		return false;
	if (w->amd64_only && strcmp(p->arch, "amd64"))
		return false;
	if (w->itype_req && n->pool != 0 && n->pool != 1 && n->pool != 2)
		return false;
	for (uint32_t i = 0; i < w->nhosts; i++)
		if (w->hosts[i] == id)
			return false;
	if (capacity && (n->npods >= p->pods || n->cpu_used + w->cpu_m > node_cpu_alloc(n) ||
			 n->mem_used + w->mem_mi > node_mem_alloc_mi(n)))
		return false;
	return true;
}

/* Where a bound replica runs: its zone round-robin from the workload's
 * first zone (the scheduler kept zones balanced), a node with room there,
 * else anywhere with room, else anywhere the workload may run. */
static uint32_t place(struct gen *g, struct gen_wl *w, uint32_t rep)
{
	uint32_t z = (w->zone0 + rep) % g->o.zones, id;
	for (int pass = 0; pass < 3; pass++) {
		for (int t = 0; t < 16; t++) {
			if (pass == 0 && g->zone_n[z])
				id = g->zone_nodes[z][rng_below(&g->r, g->zone_n[z])];
			else
				id = rng_below(&g->r, g->o.nodes);
			if (node_allows(g, w, id, pass < 2))
				return id;
		}
	}
	return rng_below(&g->r, g->o.nodes);
}

static int bind(struct gen *g, struct gen_wl *w, uint32_t node)
{
	struct gen_node *n = &g->nodes[node];
	struct gen_pod *p = new_pod(g);
	if (!p)
		return 0;
	p->wl = (uint32_t)(w - g->wls);
	p->rep = w->nrep++;
	p->node = (int32_t)node;
	w->nbound++;
	n->npods++;
	n->cpu_used += w->cpu_m;
	n->mem_used += w->mem_mi;
	if (w->anti_req) {
		if (w->nhosts == w->hostcap) {
			uint32_t cap = w->hostcap ? w->hostcap * 2 : 8;
			uint32_t *h = realloc(w->hosts, cap * sizeof(*h));
			if (!h)
				return 0;
			w->hosts = h;
			w->hostcap = cap;
		}
		w->hosts[w->nhosts++] = node;
	}
	g->nbound++;
	return 1;
}

static int build_pods(struct gen *g)
{
	uint32_t budget = g->o.pods;
	bool have_gpu = false;
	for (uint32_t i = 0; i < g->o.nodes; i++)
		have_gpu = have_gpu || g->nodes[i].pool == POOL_GPU;
	g->nns = (uint32_t)(sizeof(base_namespaces) / sizeof(base_namespaces[0]));
	if (budget / 2000 > g->nns)
		g->nns = budget / 2000;

	/* DaemonSets first: one pod on every node, while they take at most a
	 * fifth of the pods */
	for (uint32_t d = 0; d < sizeof(daemons) / sizeof(daemons[0]); d++) {
		if ((uint64_t)(d + 1) * g->o.nodes * 5 > budget)
			break;
		struct gen_wl *w = new_wl(g);
		if (!w)
			return 0;
		w->kind = GK_DAEMON;
		w->ns = d == 2 ? 10 : UINT32_MAX; /* monitoring / kube-system */
		snprintf(w->name, sizeof(w->name), "%s", daemons[d].name);
		rand_chars(&g->r, w->hash, 10);
		w->salt = (uint32_t)rng_next(&g->r);
		w->uid = rng_next(&g->r);
		w->cpu_m = daemons[d].cpu_m;
		w->mem_mi = daemons[d].mem_mi;
		for (uint32_t i = 0; i < g->o.nodes; i++)
			if (!bind(g, w, i))
				return 0;
		budget -= g->o.nodes;
	}
	/* Deployments (a ReplicaSet each) and StatefulSets until the budget
	 * is spent */
	for (uint32_t idx = 0; budget > 0; idx++) {
		struct gen_wl *w = new_wl(g);
		if (!w)
			return 0;
		make_wl(g, w, rng_pct(&g->r, 20) ? GK_STS : GK_DEPLOY, idx);
		if (have_gpu && w->kind == GK_DEPLOY && rng_pct(&g->r, 1))
			w->gpus = 1;
		uint32_t nrep = replica_sizes[rng_below(&g->r, sizeof(replica_sizes) / sizeof(replica_sizes[0]))];
		if (nrep > budget)
			nrep = budget;
		for (uint32_t r = 0; r < nrep; r++)
			if (!bind(g, w, place(g, w, r)))
				return 0;
		budget -= nrep;
	}
	/* Pending pods: a rollout scales up a few workloads at once */
	uint32_t ncand = 0;
	for (uint32_t i = 0; i < g->nwls; i++)
		ncand += g->wls[i].kind != GK_DAEMON && !g->wls[i].gpus;
	if (g->o.steps && !ncand) { /* no workloads at all: make one */
		struct gen_wl *w = new_wl(g);
		if (!w)
			return 0;
		make_wl(g, w, GK_DEPLOY, g->nwls);
		ncand = 1;
	}
	uint32_t nscale = g->o.steps / 20 + 1;
	if (nscale > ncand)
		nscale = ncand;
	uint32_t *scale = malloc(ncand * sizeof(*scale)), got = nscale;
	if (!scale)
		return 0;
	for (uint32_t i = 0, k = 0; i < g->nwls; i++)
		if (g->wls[i].kind != GK_DAEMON && !g->wls[i].gpus)
			scale[k++] = i;
	/* the first nscale of a Fisher-Yates shuffle */
	for (uint32_t i = 0; i < nscale; i++) {
		uint32_t j = i + rng_below(&g->r, ncand - i), tmp = scale[i];
		scale[i] = scale[j];
		scale[j] = tmp;
	}
	for (uint32_t s = 0; s < g->o.steps; s++) {
		struct gen_wl *w = &g->wls[scale[rng_below(&g->r, got)]];
		struct gen_pod *p = new_pod(g);
		if (!p) {
			free(scale);
			return 0;
		}
		p->wl = (uint32_t)(w - g->wls);
		p->rep = w->nrep++;
		p->node = -1;
	}
	free(scale);
	return 1;
}

/* ---- a small YAML writer: block style (kubectl) or flow style ---- */

#define YW_DEPTH 24

struct yw {
	FILE *f;
	bool flow;
	int depth;
	struct {
		bool first;
		int ind;       /* block: indent of this container's lines */
	} st[YW_DEPTH];
	bool dash;             /* block: the next line starts a sequence item */
};

static void yw_init(struct yw *w, FILE *f, bool flow, int ind)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->flow = flow;
	w->st[0].first = true;
	w->st[0].ind = ind;
}

/* Starts an element: flow separator, or a block line's indent (and the
 * "- " of a sequence item's first key). */
static void yw_lead(struct yw *w)
{
	if (w->flow) {
		if (!w->st[w->depth].first)
			fputs(", ", w->f);
		w->st[w->depth].first = false;
		return;
	}
	int ind = w->st[w->depth].ind;
	if (w->dash) {
		fprintf(w->f, "%*s- ", ind - 2, "");
		w->dash = false;
	} else {
		fprintf(w->f, "%*s", ind, "");
	}
}

static void yw_kv(struct yw *w, const char *k, const char *v)
{
	yw_lead(w);
	fprintf(w->f, w->flow ? "%s: %s" : "%s: %s\n", k, v);
}

static void yw_kq(struct yw *w, const char *k, const char *v)
{
	yw_lead(w);
	fprintf(w->f, w->flow ? "%s: \"%s\"" : "%s: \"%s\"\n", k, v);
}

static void yw_ku(struct yw *w, const char *k, uint64_t v)
{
	yw_lead(w);
	fprintf(w->f, w->flow ? "%s: %" PRIu64 : "%s: %" PRIu64 "\n", k, v);
}

static void yw_push(struct yw *w, int ind)
{
	assert(w->depth + 1 < YW_DEPTH);
	w->depth++;
	w->st[w->depth].first = true;
	w->st[w->depth].ind = ind;
}

/* Opens a mapping under key k, or (k NULL) as the next sequence item. */
static void yw_map(struct yw *w, const char *k)
{
	int ind = w->st[w->depth].ind;
	if (w->flow) {
		yw_lead(w);
		fprintf(w->f, k ? "%s: {" : "{", k);
		yw_push(w, 0);
		return;
	}
	if (k) {
		yw_lead(w);
		fprintf(w->f, "%s:\n", k);
		yw_push(w, ind + 2);
	} else {
		/* a sequence's items sit at the sequence's indent */
		w->dash = true;
		yw_push(w, ind + 2);
	}
}

/* Opens a sequence under key k (block: items at the key's indent, as
 * kubectl writes them). */
static void yw_seq(struct yw *w, const char *k)
{
	int ind = w->st[w->depth].ind;
	yw_lead(w);
	if (w->flow) {
		fprintf(w->f, "%s: [", k);
		yw_push(w, 0);
	} else {
		fprintf(w->f, "%s:\n", k);
		yw_push(w, ind);
	}
}

/* A scalar sequence item. */
static void yw_item(struct yw *w, const char *v)
{
	if (w->flow) {
		yw_lead(w);
		fputs(v, w->f);
	} else {
		fprintf(w->f, "%*s- %s\n", w->st[w->depth].ind, "", v);
	}
}

static void yw_end(struct yw *w, char close)
{
	assert(w->depth > 0);
	if (w->flow)
		fputc(close, w->f);
	w->depth--;
}
#define yw_endmap(w) yw_end((w), '}')
#define yw_endseq(w) yw_end((w), ']')

/* Raw block lines at the current indent plus `extra`; each line of text
 * ends in \n. Only between complete block lines. */
static void yw_raw(struct yw *w, int extra, const char *text)
{
	assert(!w->flow && !w->dash);
	int ind = w->st[w->depth].ind + extra;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);
		fprintf(w->f, "%*s%.*s", ind, "", (int)n, text);
		text += n;
	}
}

/* ---- writing: shared pieces ---- */

#define BASE_TIME 1736928000 /* 2025-01-15T08:00:00Z */
#define TIME_LEN 64 /* room for any int64 fields, so no truncation warning */

/* RFC 3339 text of a unix time (t >= 0). */
static const char *time_text(int64_t t, char buf[TIME_LEN])
{
	int64_t days = t / 86400, rem = t % 86400;
	/* civil_from_days (H. Hinnant) */
	int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	snprintf(buf, TIME_LEN, "%04" PRId64 "-%02" PRId64 "-%02" PRId64 "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 "Z",
		 y + (m <= 2), m, d, rem / 3600, rem / 60 % 60, rem % 60);
	return buf;
}

static void pod_name(const struct gen *g, const struct gen_wl *w, uint32_t rep, char *out, size_t len)
{
	char sfx[6];
	(void)g;
	if (w->kind == GK_STS) {
		snprintf(out, len, "%s-%" PRIu32, w->name, rep);
		return;
	}
	suffix5(w->salt, rep, sfx);
	if (w->kind == GK_DEPLOY)
		snprintf(out, len, "%s-%s-%s", w->name, w->hash, sfx);
	else
		snprintf(out, len, "%s-%s", w->name, sfx);
}

/* The workload's controller name: the ReplicaSet, StatefulSet, DaemonSet. */
static void owner_name(const struct gen_wl *w, char *out, size_t len)
{
	if (w->kind == GK_DEPLOY)
		snprintf(out, len, "%s-%s", w->name, w->hash);
	else
		snprintf(out, len, "%s", w->name);
}

static const char *owner_kind(const struct gen_wl *w)
{
	return w->kind == GK_DEPLOY ? "ReplicaSet" : w->kind == GK_STS ? "StatefulSet" : "DaemonSet";
}

static void put_pod_labels(struct gen *g, struct yw *w, const struct gen_wl *wl, uint32_t rep)
{
	char b[128];
	yw_map(w, "labels");
	if (wl->kind == GK_DAEMON) {
		yw_kv(w, "controller-revision-hash", wl->hash);
		yw_kv(w, "k8s-app", wl->name);
		yw_kq(w, "pod-template-generation", "1");
	} else {
		yw_kv(w, "app", wl->name);
		yw_kv(w, "app.kubernetes.io/name", wl->name);
		if (wl->kind == GK_STS) {
			yw_kq(w, "apps.kubernetes.io/pod-index", (snprintf(b, sizeof(b), "%" PRIu32, rep), b));
			snprintf(b, sizeof(b), "%s-%s", wl->name, wl->hash);
			yw_kv(w, "controller-revision-hash", b);
		} else {
			yw_kv(w, "pod-template-hash", wl->hash);
		}
		if (wl->kind == GK_STS) {
			snprintf(b, sizeof(b), "%s-%" PRIu32, wl->name, rep);
			yw_kv(w, "statefulset.kubernetes.io/pod-name", b);
		}
		yw_kv(w, "tier", tiers[wl->tier]);
	}
	yw_endmap(w);
	(void)g;
}

static void put_match_app(struct yw *w, const struct gen_wl *wl)
{
	yw_map(w, "labelSelector");
	yw_map(w, "matchLabels");
	yw_kv(w, "app", wl->name);
	yw_endmap(w);
	yw_endmap(w);
}

static void put_tscs(struct gen *g, struct yw *w, const struct gen_wl *wl)
{
	char b[16];
	if (!wl->ntsc)
		return;
	yw_seq(w, "topologySpreadConstraints");
	for (uint32_t j = 0; j < wl->ntsc; j++) {
		const struct gen_tsc *t = &wl->tsc[j];
		yw_map(w, NULL);
		put_match_app(w, wl);
		if (t->mlk) {
			yw_seq(w, "matchLabelKeys");
			yw_item(w, wl->kind == GK_STS ? "controller-revision-hash" : "pod-template-hash");
			yw_endseq(w);
		}
		yw_ku(w, "maxSkew", t->max_skew);
		if (t->min_domains) {
			snprintf(b, sizeof(b), "%u", (unsigned)t->min_domains);
			yw_kv(w, "minDomains", b);
		}
		if (t->affinity_ignore)
			yw_kv(w, "nodeAffinityPolicy", "Ignore");
		if (t->taints_honor)
			yw_kv(w, "nodeTaintsPolicy", "Honor");
		yw_kv(w, "topologyKey", tsc_keys[t->key]);
		yw_kv(w, "whenUnsatisfiable", t->hard ? "DoNotSchedule" : "ScheduleAnyway");
		yw_endmap(w);
	}
	yw_endseq(w);
	(void)g;
}

static void put_node_term(struct yw *w, const char *key, const char *op, const char *const *vals,
			  uint32_t nvals, bool fields)
{
	yw_seq(w, fields ? "matchFields" : "matchExpressions");
	yw_map(w, NULL);
	yw_kv(w, "key", key);
	yw_kv(w, "operator", op);
	yw_seq(w, "values");
	for (uint32_t i = 0; i < nvals; i++)
		yw_item(w, vals[i]);
	yw_endseq(w);
	yw_endmap(w);
	yw_endseq(w);
}

static void put_affinity(struct gen *g, struct yw *w, const struct gen_wl *wl, int32_t node)
{
	static const char *const amd64[] = {"amd64"};
	static const char *const itypes[] = {"c5.4xlarge", "m5.2xlarge", "m5.4xlarge"};
	static const char *const ondemand[] = {"ON_DEMAND"};
	bool nreq = wl->amd64_only || wl->itype_req || (wl->kind == GK_DAEMON && node >= 0);
	bool npref = wl->pref_ondemand;
	if (!nreq && !npref && !wl->anti_req && !wl->anti_pref)
		return;
	yw_map(w, "affinity");
	if (nreq || npref) {
		yw_map(w, "nodeAffinity");
		if (nreq) {
			yw_map(w, "requiredDuringSchedulingIgnoredDuringExecution");
			yw_seq(w, "nodeSelectorTerms");
			yw_map(w, NULL);
			if (wl->kind == GK_DAEMON) {
				/* the DaemonSet controller pins each pod to its node */
				const char *nm = g->nodes[node].name;
				put_node_term(w, "metadata.name", "In", &nm, 1, true);
			} else if (wl->itype_req) {
				put_node_term(w, "node.kubernetes.io/instance-type", "In", itypes, 3, false);
			} else {
				put_node_term(w, "kubernetes.io/arch", "In", amd64, 1, false);
			}
			yw_endmap(w);
			yw_endseq(w);
			yw_endmap(w);
		}
		if (npref) {
			yw_seq(w, "preferredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			yw_map(w, "preference");
			put_node_term(w, "eks.amazonaws.com/capacityType", "In", ondemand, 1, false);
			yw_endmap(w);
			yw_ku(w, "weight", 50);
			yw_endmap(w);
			yw_endseq(w);
		}
		yw_endmap(w);
	}
	if (wl->anti_req || wl->anti_pref) {
		yw_map(w, "podAntiAffinity");
		if (wl->anti_req) {
			yw_seq(w, "requiredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			put_match_app(w, wl);
			yw_kv(w, "topologyKey", "kubernetes.io/hostname");
			yw_endmap(w);
			yw_endseq(w);
		} else {
			yw_seq(w, "preferredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			yw_map(w, "podAffinityTerm");
			put_match_app(w, wl);
			yw_kv(w, "topologyKey", "kubernetes.io/hostname");
			yw_endmap(w);
			yw_ku(w, "weight", 100);
			yw_endmap(w);
			yw_endseq(w);
		}
		yw_endmap(w);
	}
	yw_endmap(w);
}

static void put_toleration(struct yw *w, const char *effect, const char *key, const char *op,
			   const char *value, const char *seconds)
{
	yw_map(w, NULL);
	if (effect)
		yw_kv(w, "effect", effect);
	if (key)
		yw_kv(w, "key", key);
	yw_kv(w, "operator", op);
	if (seconds)
		yw_kv(w, "tolerationSeconds", seconds);
	if (value)
		yw_kq(w, "value", value);
	yw_endmap(w);
}

static void put_taint(struct yw *w, const char *effect, const char *key, const char *value)
{
	yw_map(w, NULL);
	yw_kv(w, "effect", effect);
	yw_kv(w, "key", key);
	if (value)
		yw_kv(w, "value", value);
	yw_endmap(w);
}

/* The taints of a node, the same in both formats. */
static void put_taints(struct yw *w, const struct gen_node *n, bool kubectl)
{
	const struct gen_pool *p = &pools[n->pool];
	char tb[TIME_LEN];
	if (!n->cordoned && !n->dedicated && !p->gpus && !p->spot)
		return;
	yw_seq(w, "taints");
	if (n->dedicated)
		put_taint(w, "NoSchedule", "dedicated", "infra");
	if (p->gpus)
		put_taint(w, "NoSchedule", "nvidia.com/gpu", "present");
	if (p->spot)
		put_taint(w, "PreferNoSchedule", "spot", "\"true\"");
	if (n->cordoned) {
		yw_map(w, NULL);
		yw_kv(w, "effect", "NoSchedule");
		yw_kv(w, "key", "node.kubernetes.io/unschedulable");
		if (kubectl)
			yw_kq(w, "timeAdded", time_text(BASE_TIME - 3600, tb));
		yw_endmap(w);
	}
	yw_endseq(w);
}

static void put_tolerations(struct yw *w, const struct gen_wl *wl)
{
	yw_seq(w, "tolerations");
	if (wl->kind == GK_DAEMON) {
		put_toleration(w, NULL, NULL, "Exists", NULL, NULL);
	} else {
		if (wl->gpus)
			put_toleration(w, "NoSchedule", "nvidia.com/gpu", "Exists", NULL, NULL);
		if (wl->tol_spot)
			put_toleration(w, "PreferNoSchedule", "spot", "Equal", "true", NULL);
		/* what the DefaultTolerationSeconds admission plugin adds */
		put_toleration(w, "NoExecute", "node.kubernetes.io/not-ready", "Exists", NULL, "300");
		put_toleration(w, "NoExecute", "node.kubernetes.io/unreachable", "Exists", NULL, "300");
	}
	yw_endseq(w);
}

static void put_requests(struct yw *w, const struct gen_wl *wl, const char *key)
{
	char b[32];
	yw_map(w, key);
	snprintf(b, sizeof(b), "%" PRIu32 "m", wl->cpu_m);
	yw_kv(w, "cpu", b);
	snprintf(b, sizeof(b), "%" PRIu32 "Mi", wl->mem_mi);
	yw_kv(w, "memory", b);
	if (wl->gpus)
		yw_kq(w, "nvidia.com/gpu", "1");
	yw_endmap(w);
}

/* ---- the scenario format ---- */

static void scen_node(struct gen *g, uint32_t i)
{
	const struct gen_node *n = &g->nodes[i];
	const struct gen_pool *p = &pools[n->pool];
	char b[160], rb[32];
	struct yw w;
	fputs("  - ", g->f);
	yw_init(&w, g->f, true, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "name", n->name);
	yw_map(&w, "labels");
	yw_kv(&w, "beta.kubernetes.io/arch", p->arch);
	yw_kv(&w, "beta.kubernetes.io/instance-type", p->itype);
	yw_kv(&w, "beta.kubernetes.io/os", "linux");
	yw_kv(&w, "eks.amazonaws.com/capacityType", p->spot ? "SPOT" : "ON_DEMAND");
	yw_kv(&w, "eks.amazonaws.com/nodegroup", p->name);
	if (n->dedicated)
		yw_kv(&w, "example.com/dedicated", "infra");
	yw_kv(&w, "failure-domain.beta.kubernetes.io/region", region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(&w, "failure-domain.beta.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_kv(&w, "kubernetes.io/arch", p->arch);
	yw_kv(&w, "kubernetes.io/hostname", n->name);
	yw_kv(&w, "kubernetes.io/os", "linux");
	yw_kv(&w, "node-pool", p->name);
	yw_kv(&w, "node.kubernetes.io/instance-type", p->itype);
	if (p->gpus)
		yw_kq(&w, "nvidia.com/gpu.present", "true");
	snprintf(b, sizeof(b), "%s-r%02" PRIu32, g->zone_names[n->zone], n->rack);
	yw_kv(&w, "topology.example.com/rack", b);
	yw_kv(&w, "topology.kubernetes.io/region", region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(&w, "topology.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_endmap(&w);
	put_taints(&w, n, false);
	if (n->cordoned)
		yw_kv(&w, "unschedulable", "true");
	yw_map(&w, "allocatable");
	snprintf(b, sizeof(b), "%" PRId64 "m", node_cpu_alloc(n));
	yw_kv(&w, "cpu", b);
	yw_kq(&w, "ephemeral-storage", "95551679124");
	snprintf(b, sizeof(b), "%" PRId64 "Ki", node_mem_alloc_mi(n) * 1024);
	yw_kv(&w, "memory", b);
	if (p->gpus)
		yw_kq(&w, "nvidia.com/gpu", "1");
	yw_ku(&w, "pods", p->pods);
	yw_endmap(&w);
	yw_endmap(&w);
	fputc('\n', g->f);
}

static void scen_pod(struct gen *g, const struct gen_pod *pd)
{
	const struct gen_wl *wl = &g->wls[pd->wl];
	char b[128], nb[32];
	struct yw w;
	fputs(pd->node >= 0 ? "  - " : "  - schedule: ", g->f);
	yw_init(&w, g->f, true, 0);
	yw_map(&w, NULL);
	pod_name(g, wl, pd->rep, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "namespace", ns_name(g, wl->ns, nb, sizeof(nb)));
	put_pod_labels(g, &w, wl, pd->rep);
	yw_seq(&w, "ownerReferences");
	yw_map(&w, NULL);
	yw_kv(&w, "kind", owner_kind(wl));
	owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_endmap(&w);
	yw_endseq(&w);
	if (pd->node >= 0)
		yw_kv(&w, "nodeName", g->nodes[pd->node].name);
	put_requests(&w, wl, "requests");
	put_tolerations(&w, wl);
	if (wl->gpus) {
		yw_map(&w, "nodeSelector");
		yw_kq(&w, "nvidia.com/gpu.present", "true");
		yw_endmap(&w);
	}
	put_affinity(g, &w, wl, pd->node);
	put_tscs(g, &w, wl);
	yw_endmap(&w);
	fputc('\n', g->f);
}

static void scen_workload(struct gen *g, const struct gen_wl *wl)
{
	char b[128], nb[32];
	struct yw w;
	if (wl->kind == GK_DAEMON)
		return;
	fputs("  - ", g->f);
	yw_init(&w, g->f, true, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "kind", owner_kind(wl));
	owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "namespace", ns_name(g, wl->ns, nb, sizeof(nb)));
	yw_map(&w, "selector");
	yw_map(&w, "matchLabels");
	yw_kv(&w, "app", wl->name);
	if (wl->kind == GK_DEPLOY)
		yw_kv(&w, "pod-template-hash", wl->hash);
	yw_endmap(&w);
	yw_endmap(&w);
	yw_endmap(&w);
	fputc('\n', g->f);
	if (!wl->service)
		return;
	fputs("  - ", g->f);
	yw_init(&w, g->f, true, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "kind", "Service");
	yw_kv(&w, "name", wl->name);
	yw_kv(&w, "namespace", ns_name(g, wl->ns, nb, sizeof(nb)));
	yw_map(&w, "selector");
	yw_kv(&w, "app", wl->name);
	yw_endmap(&w);
	yw_endmap(&w);
	fputc('\n', g->f);
}

static void write_scenario(struct gen *g)
{
	const struct gen_opts *o = &g->o;
	fprintf(g->f,
		"# generated by: skewer gen --nodes %" PRIu32 " --zones %" PRIu32 " --regions %" PRIu32
		" --pods %" PRIu32 " --constraints %" PRIu32 " --steps %" PRIu32 " --seed %" PRIu64 "\n"
		"name: gen-n%" PRIu32 "-p%" PRIu32 "-s%" PRIu64 "\n"
		"description: synthetic cluster of %" PRIu32 " nodes in %" PRIu32 " zones, %" PRIu32
		" bound pods and %" PRIu32 " pending ones\n"
		"source: skewer gen\n",
		o->nodes, o->zones, o->regions, o->pods, o->constraints, o->steps, o->seed,
		o->nodes, o->pods, o->seed, o->nodes, o->zones, g->nbound, o->steps);
	fputs("nodes:\n", g->f);
	for (uint32_t i = 0; i < o->nodes; i++)
		scen_node(g, i);
	fputs("workloads:\n", g->f);
	for (uint32_t i = 0; i < g->nwls; i++)
		scen_workload(g, &g->wls[i]);
	fputs("pods:\n", g->f);
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node >= 0)
			scen_pod(g, &g->pods[i]);
	if (o->steps)
		fputs("steps:\n", g->f);
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node < 0)
			scen_pod(g, &g->pods[i]);
}

/* ---- the kubectl format: `kubectl get nodes,pods,rs,sts,svc -A -o yaml` ---- */

static void kc_created(struct yw *w, int64_t created)
{
	char b[TIME_LEN];
	yw_kq(w, "creationTimestamp", time_text(created, b));
}

static void kc_node(struct gen *g, uint32_t i)
{
	const struct gen_node *n = &g->nodes[i];
	const struct gen_pool *p = &pools[n->pool];
	char b[160], rb[32], uid[37], tb[TIME_LEN];
	struct yw w;
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Node");
	yw_map(&w, "metadata");
	yw_map(&w, "annotations");
	yw_kv(&w, "alpha.kubernetes.io/provided-node-ip", n->ip);
	yw_kq(&w, "node.alpha.kubernetes.io/ttl", "0");
	yw_kq(&w, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
	yw_endmap(&w);
	kc_created(&w, BASE_TIME - 86400 * 30 + i);
	/* the same labels as the scenario form, in the same (sorted) order */
	yw_map(&w, "labels");
	yw_kv(&w, "beta.kubernetes.io/arch", p->arch);
	yw_kv(&w, "beta.kubernetes.io/instance-type", p->itype);
	yw_kv(&w, "beta.kubernetes.io/os", "linux");
	yw_kv(&w, "eks.amazonaws.com/capacityType", p->spot ? "SPOT" : "ON_DEMAND");
	yw_kv(&w, "eks.amazonaws.com/nodegroup", p->name);
	if (n->dedicated)
		yw_kv(&w, "example.com/dedicated", "infra");
	yw_kv(&w, "failure-domain.beta.kubernetes.io/region", region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(&w, "failure-domain.beta.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_kv(&w, "kubernetes.io/arch", p->arch);
	yw_kv(&w, "kubernetes.io/hostname", n->name);
	yw_kv(&w, "kubernetes.io/os", "linux");
	yw_kv(&w, "node-pool", p->name);
	yw_kv(&w, "node.kubernetes.io/instance-type", p->itype);
	if (p->gpus)
		yw_kq(&w, "nvidia.com/gpu.present", "true");
	snprintf(b, sizeof(b), "%s-r%02" PRIu32, g->zone_names[n->zone], n->rack);
	yw_kv(&w, "topology.example.com/rack", b);
	yw_kv(&w, "topology.kubernetes.io/region", region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(&w, "topology.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_endmap(&w);
	yw_kv(&w, "name", n->name);
	snprintf(b, sizeof(b), "%" PRIu64, 1000000 + (uint64_t)i * 7);
	yw_kq(&w, "resourceVersion", b);
	uid_text(g->o.seed * 7919 + i, uid);
	yw_kv(&w, "uid", uid);
	yw_endmap(&w);
	yw_map(&w, "spec");
	snprintf(b, sizeof(b), "aws:///%s/i-%016" PRIx64, g->zone_names[n->zone],
		 (uint64_t)((g->o.seed * 1315423911u + i) & 0xffffffffffffffull));
	yw_kv(&w, "providerID", b);
	put_taints(&w, n, true);
	if (n->cordoned)
		yw_kv(&w, "unschedulable", "true");
	yw_endmap(&w);
	yw_map(&w, "status");
	yw_seq(&w, "addresses");
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->ip);
	yw_kv(&w, "type", "InternalIP");
	yw_endmap(&w);
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->name);
	yw_kv(&w, "type", "InternalDNS");
	yw_endmap(&w);
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->name);
	yw_kv(&w, "type", "Hostname");
	yw_endmap(&w);
	yw_endseq(&w);
	for (int a = 0; a < 2; a++) {
		yw_map(&w, a == 0 ? "allocatable" : "capacity");
		if (a == 0)
			snprintf(b, sizeof(b), "%" PRId64 "m", node_cpu_alloc(n));
		else
			snprintf(b, sizeof(b), "%" PRIu32, p->cores);
		yw_kq(&w, "cpu", b);
		yw_kq(&w, "ephemeral-storage", a == 0 ? "95551679124" : "104845292Ki");
		yw_kq(&w, "hugepages-1Gi", "0");
		yw_kq(&w, "hugepages-2Mi", "0");
		snprintf(b, sizeof(b), "%" PRId64 "Ki",
			 a == 0 ? node_mem_alloc_mi(n) * 1024 : (int64_t)p->mem_gi * 1024 * 1024 - 250000);
		yw_kv(&w, "memory", b);
		if (p->gpus)
			yw_kq(&w, "nvidia.com/gpu", "1");
		snprintf(b, sizeof(b), "%" PRIu32, p->pods);
		yw_kq(&w, "pods", b);
		yw_endmap(&w);
	}
	yw_seq(&w, "conditions");
	static const char *const conds[][4] = {
		{"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
		{"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
		{"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
		{"Ready", "True", "KubeletReady", "kubelet is posting ready status"},
	};
	for (int c = 0; c < 4; c++) {
		yw_map(&w, NULL);
		yw_kq(&w, "lastHeartbeatTime", time_text(BASE_TIME - 20, tb));
		yw_kq(&w, "lastTransitionTime", time_text(BASE_TIME - 86400 * 30 + i + 40, tb));
		yw_kv(&w, "message", conds[c][3]);
		yw_kv(&w, "reason", conds[c][2]);
		yw_kq(&w, "status", conds[c][1]);
		yw_kv(&w, "type", conds[c][0]);
		yw_endmap(&w);
	}
	yw_endseq(&w);
	yw_raw(&w, 0, "daemonEndpoints:\n  kubeletEndpoint:\n    Port: 10250\n");
	yw_seq(&w, "images");
	static const char *const images[][3] = {
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni", "v1.18.3", "66743925"},
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy", "v1.30.0-eksbuild.3", "35721483"},
		{"quay.io/prometheus/node-exporter", "v1.8.1", "12135680"},
		{"registry.example.com/platform/app-runtime", "3.4.1", "187446127"},
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause", "3.9", "299210"},
	};
	for (int m = 0; m < 5; m++) {
		yw_map(&w, NULL);
		yw_seq(&w, "names");
		uint64_t h = (uint64_t)m * 0x9E3779B97F4A7C15ull + 12345;
		snprintf(b, sizeof(b), "%s@sha256:%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "%016" PRIx64,
			 images[m][0], h, h * 3, h * 5, h * 7);
		yw_item(&w, b);
		snprintf(b, sizeof(b), "%s:%s", images[m][0], images[m][1]);
		yw_item(&w, b);
		yw_endseq(&w);
		yw_kv(&w, "sizeBytes", images[m][2]);
		yw_endmap(&w);
	}
	yw_endseq(&w);
	yw_map(&w, "nodeInfo");
	yw_kv(&w, "architecture", p->arch);
	uid_text(g->o.seed * 31 + i, uid);
	yw_kv(&w, "bootID", uid);
	yw_kv(&w, "containerRuntimeVersion", "containerd://1.7.22");
	yw_kv(&w, "kernelVersion", "6.1.112-124.190.amzn2023.x86_64");
	yw_kv(&w, "kubeProxyVersion", "v1.30.4-eks-a737599");
	yw_kv(&w, "kubeletVersion", "v1.30.4-eks-a737599");
	snprintf(b, sizeof(b), "ec2%029" PRIx64, (uint64_t)i * 2654435761u);
	yw_kv(&w, "machineID", b);
	yw_kv(&w, "operatingSystem", "linux");
	yw_kv(&w, "osImage", "Amazon Linux 2023.6.20241031");
	yw_kv(&w, "systemUUID", b);
	yw_endmap(&w);
	yw_endmap(&w);
	yw_endmap(&w);
}

/* managedFields as the API server records them: noise the loader must
 * read past (kubectl shows them with --show-managed-fields). */
static void kc_managed_fields(struct gen *g, struct yw *w, const struct gen_wl *wl, bool bound,
			      const char *uid, const char *when)
{
	char b[2048];
	yw_seq(w, "managedFields");
	yw_map(w, NULL);
	yw_kv(w, "apiVersion", "v1");
	yw_kv(w, "fieldsType", "FieldsV1");
	yw_map(w, "fieldsV1");
	snprintf(b, sizeof(b),
		 "f:metadata:\n"
		 "  f:generateName: {}\n"
		 "  f:labels:\n"
		 "    .: {}\n"
		 "    f:app: {}\n"
		 "    f:%s: {}\n"
		 "  f:ownerReferences:\n"
		 "    .: {}\n"
		 "    k:{\"uid\":\"%s\"}: {}\n"
		 "f:spec:\n"
		 "  f:containers:\n"
		 "    k:{\"name\":\"app\"}:\n"
		 "      .: {}\n"
		 "      f:image: {}\n"
		 "      f:imagePullPolicy: {}\n"
		 "      f:name: {}\n"
		 "      f:ports:\n"
		 "        .: {}\n"
		 "        k:{\"containerPort\":8080,\"protocol\":\"TCP\"}:\n"
		 "          .: {}\n"
		 "          f:containerPort: {}\n"
		 "          f:name: {}\n"
		 "          f:protocol: {}\n"
		 "      f:resources:\n"
		 "        .: {}\n"
		 "        f:limits:\n"
		 "          .: {}\n"
		 "          f:cpu: {}\n"
		 "          f:memory: {}\n"
		 "        f:requests:\n"
		 "          .: {}\n"
		 "          f:cpu: {}\n"
		 "          f:memory: {}\n"
		 "      f:terminationMessagePath: {}\n"
		 "      f:terminationMessagePolicy: {}\n"
		 "  f:dnsPolicy: {}\n"
		 "  f:enableServiceLinks: {}\n"
		 "  f:restartPolicy: {}\n"
		 "  f:schedulerName: {}\n"
		 "  f:securityContext: {}\n"
		 "  f:terminationGracePeriodSeconds: {}\n"
		 "  f:topologySpreadConstraints: {}\n",
		 wl->kind == GK_DEPLOY ? "pod-template-hash" : "controller-revision-hash", uid);
	yw_raw(w, 0, b);
	yw_endmap(w);
	yw_kv(w, "manager", "kube-controller-manager");
	yw_kv(w, "operation", "Update");
	yw_kq(w, "time", when);
	yw_endmap(w);
	if (bound) {
		yw_map(w, NULL);
		yw_kv(w, "apiVersion", "v1");
		yw_kv(w, "fieldsType", "FieldsV1");
		yw_map(w, "fieldsV1");
		yw_raw(w, 0,
		       "f:status:\n"
		       "  f:conditions:\n"
		       "    k:{\"type\":\"ContainersReady\"}:\n"
		       "      .: {}\n"
		       "      f:lastProbeTime: {}\n"
		       "      f:lastTransitionTime: {}\n"
		       "      f:status: {}\n"
		       "      f:type: {}\n"
		       "    k:{\"type\":\"Ready\"}:\n"
		       "      .: {}\n"
		       "      f:lastProbeTime: {}\n"
		       "      f:lastTransitionTime: {}\n"
		       "      f:status: {}\n"
		       "      f:type: {}\n"
		       "  f:containerStatuses: {}\n"
		       "  f:hostIP: {}\n"
		       "  f:phase: {}\n"
		       "  f:podIP: {}\n"
		       "  f:podIPs:\n"
		       "    .: {}\n"
		       "    k:{\"ip\":\"10.1.2.3\"}:\n"
		       "      .: {}\n"
		       "      f:ip: {}\n"
		       "  f:startTime: {}\n");
		yw_endmap(w);
		yw_kv(w, "manager", "kubelet");
		yw_kv(w, "operation", "Update");
		yw_kv(w, "subresource", "status");
		yw_kq(w, "time", when);
		yw_endmap(w);
	}
	yw_endseq(w);
	(void)g;
}

static void kc_pod(struct gen *g, uint32_t idx)
{
	const struct gen_pod *pd = &g->pods[idx];
	const struct gen_wl *wl = &g->wls[pd->wl];
	bool bound = pd->node >= 0;
	char name[128], nb[32], b[256], uid[37], ouid[37], when[TIME_LEN], start[TIME_LEN];
	struct yw w;
	/* bound pods were made before the snapshot; pending ones after, in
	 * queue order (equal priority, so creation time orders them) */
	int64_t created = bound ? BASE_TIME - 86400 + (int64_t)(idx % 80000) : BASE_TIME + idx;
	time_text(created, when);
	time_text(created + 3, start);
	pod_name(g, wl, pd->rep, name, sizeof(name));
	uid_text(g->o.seed ^ ((uint64_t)idx << 20) ^ 0xabcdef, uid);
	uid_text(wl->uid, ouid);

	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Pod");
	yw_map(&w, "metadata");
	yw_map(&w, "annotations");
	if (wl->kind != GK_DAEMON) {
		yw_kq(&w, "kubectl.kubernetes.io/restartedAt", "2025-01-10T09:12:44Z");
		yw_kq(&w, "prometheus.io/port", "8080");
		yw_kq(&w, "prometheus.io/scrape", "true");
	} else {
		yw_kq(&w, "cluster-autoscaler.kubernetes.io/daemonset-pod", "true");
	}
	yw_endmap(&w);
	yw_kq(&w, "creationTimestamp", when);
	if (wl->kind != GK_STS) {
		owner_name(wl, b, sizeof(b));
		strcat(b, "-");
		yw_kv(&w, "generateName", b);
	} else {
		yw_kv(&w, "generateName", wl->name);
	}
	put_pod_labels(g, &w, wl, pd->rep);
	kc_managed_fields(g, &w, wl, bound, ouid, when);
	yw_kv(&w, "name", name);
	yw_kv(&w, "namespace", ns_name(g, wl->ns, nb, sizeof(nb)));
	yw_seq(&w, "ownerReferences");
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "apps/v1");
	yw_kv(&w, "blockOwnerDeletion", "true");
	yw_kv(&w, "controller", "true");
	yw_kv(&w, "kind", owner_kind(wl));
	owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "uid", ouid);
	yw_endmap(&w);
	yw_endseq(&w);
	snprintf(b, sizeof(b), "%" PRIu64, 2000000 + (uint64_t)idx * 3);
	yw_kq(&w, "resourceVersion", b);
	yw_kv(&w, "uid", uid);
	yw_endmap(&w);

	yw_map(&w, "spec");
	put_affinity(g, &w, wl, pd->node);
	yw_seq(&w, "containers");
	yw_map(&w, NULL);
	yw_seq(&w, "env");
	yw_map(&w, NULL);
	yw_kv(&w, "name", "POD_NAME");
	yw_raw(&w, 0, "valueFrom:\n  fieldRef:\n    apiVersion: v1\n    fieldPath: metadata.name\n");
	yw_endmap(&w);
	yw_endseq(&w);
	snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32,
		 ns_name(g, wl->ns, nb, sizeof(nb)), wl->name, wl->salt % 40, wl->salt % 7);
	yw_kv(&w, "image", b);
	yw_kv(&w, "imagePullPolicy", "IfNotPresent");
	yw_raw(&w, 0,
	       "livenessProbe:\n"
	       "  failureThreshold: 3\n"
	       "  httpGet:\n"
	       "    path: /healthz\n"
	       "    port: http\n"
	       "    scheme: HTTP\n"
	       "  periodSeconds: 10\n"
	       "  successThreshold: 1\n"
	       "  timeoutSeconds: 1\n");
	yw_kv(&w, "name", "app");
	yw_raw(&w, 0, "ports:\n- containerPort: 8080\n  name: http\n  protocol: TCP\n");
	yw_map(&w, "resources");
	yw_map(&w, "limits");
	snprintf(b, sizeof(b), "%" PRIu32 "m", wl->cpu_m * 2);
	yw_kv(&w, "cpu", b);
	snprintf(b, sizeof(b), "%" PRIu32 "Mi", wl->mem_mi);
	yw_kv(&w, "memory", b);
	if (wl->gpus)
		yw_kq(&w, "nvidia.com/gpu", "1");
	yw_endmap(&w);
	put_requests(&w, wl, "requests");
	yw_endmap(&w);
	yw_kv(&w, "terminationMessagePath", "/dev/termination-log");
	yw_kv(&w, "terminationMessagePolicy", "File");
	yw_seq(&w, "volumeMounts");
	yw_map(&w, NULL);
	yw_kv(&w, "mountPath", "/var/run/secrets/kubernetes.io/serviceaccount");
	snprintf(b, sizeof(b), "kube-api-access-%.5s", uid);
	yw_kv(&w, "name", b);
	yw_kv(&w, "readOnly", "true");
	yw_endmap(&w);
	yw_endseq(&w);
	yw_endmap(&w);
	yw_endseq(&w);
	yw_kv(&w, "dnsPolicy", "ClusterFirst");
	yw_kv(&w, "enableServiceLinks", "true");
	if (bound)
		yw_kv(&w, "nodeName", g->nodes[pd->node].name);
	if (wl->gpus) {
		yw_map(&w, "nodeSelector");
		yw_kq(&w, "nvidia.com/gpu.present", "true");
		yw_endmap(&w);
	}
	yw_kv(&w, "preemptionPolicy", "PreemptLowerPriority");
	yw_ku(&w, "priority", 0);
	yw_kv(&w, "restartPolicy", "Always");
	yw_kv(&w, "schedulerName", "default-scheduler");
	yw_kv(&w, "securityContext", "{}");
	yw_kv(&w, "serviceAccount", "default");
	yw_kv(&w, "serviceAccountName", "default");
	yw_ku(&w, "terminationGracePeriodSeconds", 30);
	put_tolerations(&w, wl);
	put_tscs(g, &w, wl);
	yw_seq(&w, "volumes");
	yw_map(&w, NULL);
	snprintf(b, sizeof(b), "kube-api-access-%.5s", uid);
	yw_kv(&w, "name", b);
	yw_raw(&w, 0,
	       "projected:\n"
	       "  defaultMode: 420\n"
	       "  sources:\n"
	       "  - serviceAccountToken:\n"
	       "      expirationSeconds: 3607\n"
	       "      path: token\n"
	       "  - configMap:\n"
	       "      items:\n"
	       "      - key: ca.crt\n"
	       "        path: ca.crt\n"
	       "      name: kube-root-ca.crt\n");
	yw_endmap(&w);
	yw_endseq(&w);
	yw_endmap(&w);

	yw_map(&w, "status");
	yw_seq(&w, "conditions");
	if (bound) {
		static const char *const types[] = {"PodReadyToStartContainers", "Initialized", "Ready",
						    "ContainersReady", "PodScheduled"};
		for (int c = 0; c < 5; c++) {
			yw_map(&w, NULL);
			yw_kv(&w, "lastProbeTime", "null");
			yw_kq(&w, "lastTransitionTime", start);
			yw_kq(&w, "status", "True");
			yw_kv(&w, "type", types[c]);
			yw_endmap(&w);
		}
	} else {
		yw_map(&w, NULL);
		yw_kv(&w, "lastProbeTime", "null");
		yw_kq(&w, "lastTransitionTime", when);
		yw_kv(&w, "message", "'0/1 nodes are available: 1 Too many pods.'");
		yw_kv(&w, "reason", "Unschedulable");
		yw_kq(&w, "status", "False");
		yw_kv(&w, "type", "PodScheduled");
		yw_endmap(&w);
	}
	yw_endseq(&w);
	if (bound) {
		const struct gen_node *n = &g->nodes[pd->node];
		yw_seq(&w, "containerStatuses");
		yw_map(&w, NULL);
		snprintf(b, sizeof(b), "containerd://%016" PRIx64 "%016" PRIx64, wl->uid ^ idx, wl->uid * idx);
		yw_kv(&w, "containerID", b);
		snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32,
			 ns_name(g, wl->ns, nb, sizeof(nb)), wl->name, wl->salt % 40, wl->salt % 7);
		yw_kv(&w, "image", b);
		yw_kv(&w, "lastState", "{}");
		yw_kv(&w, "name", "app");
		yw_kv(&w, "ready", "true");
		yw_ku(&w, "restartCount", idx % 7 == 0);
		yw_kv(&w, "started", "true");
		yw_map(&w, "state");
		yw_map(&w, "running");
		yw_kq(&w, "startedAt", start);
		yw_endmap(&w);
		yw_endmap(&w);
		yw_endmap(&w);
		yw_endseq(&w);
		yw_kv(&w, "hostIP", n->ip);
		yw_kv(&w, "phase", "Running");
		snprintf(b, sizeof(b), "10.%" PRIu32 ".%" PRIu32 ".%" PRIu32, 64 + (idx >> 16) % 64,
			 (idx >> 8) & 255, idx & 255);
		yw_kv(&w, "podIP", b);
		yw_seq(&w, "podIPs");
		yw_map(&w, NULL);
		yw_kv(&w, "ip", b);
		yw_endmap(&w);
		yw_endseq(&w);
		yw_kv(&w, "qosClass", "Burstable");
		yw_kq(&w, "startTime", start);
	} else {
		yw_kv(&w, "phase", "Pending");
		yw_kv(&w, "qosClass", "Burstable");
	}
	yw_endmap(&w);
	yw_endmap(&w);
}

static void kc_workload(struct gen *g, const struct gen_wl *wl)
{
	char b[128], nb[32], uid[37];
	struct yw w;
	const char *ns = ns_name(g, wl->ns, nb, sizeof(nb));
	if (wl->kind == GK_DAEMON)
		return; /* skewer skips DaemonSets; a dump of rs,sts,svc has none */
	uid_text(wl->uid, uid);
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "apps/v1");
	yw_kv(&w, "kind", owner_kind(wl));
	yw_map(&w, "metadata");
	if (wl->kind == GK_DEPLOY) {
		yw_map(&w, "annotations");
		snprintf(b, sizeof(b), "%" PRIu32, wl->nbound);
		yw_kq(&w, "deployment.kubernetes.io/desired-replicas", b);
		yw_kq(&w, "deployment.kubernetes.io/max-replicas", b);
		yw_kq(&w, "deployment.kubernetes.io/revision", "1");
		yw_endmap(&w);
	}
	kc_created(&w, BASE_TIME - 86400 * 2);
	yw_ku(&w, "generation", 1);
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	if (wl->kind == GK_DEPLOY)
		yw_kv(&w, "pod-template-hash", wl->hash);
	yw_endmap(&w);
	owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "namespace", ns);
	yw_kv(&w, "uid", uid);
	yw_endmap(&w);
	yw_map(&w, "spec");
	yw_ku(&w, "replicas", wl->nbound);
	yw_map(&w, "selector");
	yw_map(&w, "matchLabels");
	yw_kv(&w, "app", wl->name);
	if (wl->kind == GK_DEPLOY)
		yw_kv(&w, "pod-template-hash", wl->hash);
	yw_endmap(&w);
	yw_endmap(&w);
	if (wl->kind == GK_STS)
		yw_kv(&w, "serviceName", wl->name);
	yw_map(&w, "template");
	yw_map(&w, "metadata");
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	yw_endmap(&w);
	yw_endmap(&w);
	yw_map(&w, "spec");
	yw_seq(&w, "containers");
	yw_map(&w, NULL);
	snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32, ns, wl->name,
		 wl->salt % 40, wl->salt % 7);
	yw_kv(&w, "image", b);
	yw_kv(&w, "name", "app");
	put_requests(&w, wl, "resources");
	yw_endmap(&w);
	yw_endseq(&w);
	yw_endmap(&w);
	yw_endmap(&w);
	yw_endmap(&w);
	yw_map(&w, "status");
	yw_ku(&w, "availableReplicas", wl->nbound);
	yw_ku(&w, "observedGeneration", 1);
	yw_ku(&w, "readyReplicas", wl->nbound);
	yw_ku(&w, "replicas", wl->nbound);
	yw_endmap(&w);
	yw_endmap(&w);
	if (!wl->service)
		return;
	uid_text(wl->uid ^ 1, uid);
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Service");
	yw_map(&w, "metadata");
	kc_created(&w, BASE_TIME - 86400 * 2);
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	yw_endmap(&w);
	yw_kv(&w, "name", wl->name);
	yw_kv(&w, "namespace", ns);
	yw_kv(&w, "uid", uid);
	yw_endmap(&w);
	yw_map(&w, "spec");
	if (wl->kind == GK_STS) {
		yw_kv(&w, "clusterIP", "None");
	} else {
		snprintf(b, sizeof(b), "172.20.%" PRIu32 ".%" PRIu32, (wl->salt >> 8) & 255, wl->salt & 255);
		yw_kv(&w, "clusterIP", b);
	}
	yw_kv(&w, "internalTrafficPolicy", "Cluster");
	yw_raw(&w, 0, "ipFamilies:\n- IPv4\nipFamilyPolicy: SingleStack\n"
		      "ports:\n- name: http\n  port: 80\n  protocol: TCP\n  targetPort: http\n");
	yw_map(&w, "selector");
	yw_kv(&w, "app", wl->name);
	yw_endmap(&w);
	yw_kv(&w, "sessionAffinity", "None");
	yw_kv(&w, "type", "ClusterIP");
	yw_endmap(&w);
	yw_raw(&w, 0, "status:\n  loadBalancer: {}\n");
	yw_endmap(&w);
}

static void write_kubectl(struct gen *g)
{
	fputs("apiVersion: v1\nitems:\n", g->f);
	for (uint32_t i = 0; i < g->o.nodes; i++)
		kc_node(g, i);
	for (uint32_t i = 0; i < g->nwls; i++)
		kc_workload(g, &g->wls[i]);
	/* bound pods, then the pending ones in queue order */
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node >= 0)
			kc_pod(g, i);
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node < 0)
			kc_pod(g, i);
	fputs("kind: List\nmetadata:\n  resourceVersion: \"\"\n", g->f);
}

/* ---- the command ---- */

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
		return cli_usage_error("gen: %s needs a value", opt), 0;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || x > max)
		return cli_usage_error("gen: %s: '%s' is not a number from 0 to %" PRIu64, opt, s, max), 0;
	*v = x;
	return 1;
}

int cli_gen(int argc, char **argv)
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
			cli_help(stdout, "gen");
			return CLI_OK;
		}
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			if (!strcmp(a, nums[k].name))
				break;
		if (k < sizeof(nums) / sizeof(nums[0])) {
			if (!parse_u(a, v, nums[k].max, &x))
				return CLI_USAGE;
			*(uint32_t *)((char *)o + nums[k].off) = (uint32_t)x;
			has_regions = has_regions || k == 2;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (!parse_u(a, v, UINT64_MAX, &x))
				return CLI_USAGE;
			o->seed = x;
			i++;
		} else if (!strcmp(a, "--format")) {
			if (!v || (strcmp(v, "scenario") && strcmp(v, "kubectl")))
				return cli_usage_error("gen: --format takes scenario or kubectl");
			o->kubectl = !strcmp(v, "kubectl");
			i++;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!v)
				return cli_usage_error("gen: %s needs a file name", a);
			o->out = v;
			i++;
		} else {
			return cli_usage_error("gen: unknown option '%s'", a);
		}
	}
	if (!has_regions)
		o->regions = o->zones >= 6 ? o->zones / 3 : 1;
	if (!o->nodes || !o->zones || o->zones > o->nodes || !o->regions || o->regions > o->zones)
		return cli_usage_error("gen: need 1 <= --regions <= --zones <= --nodes");
	if ((uint64_t)o->pods + o->steps > LOAD_MAX_PODS)
		return cli_usage_error("gen: --pods plus --steps is more than %u", LOAD_MAX_PODS);

	int rc = CLI_USAGE; /* out of memory, too */
	g.r.s = o->seed;
	if (!build_nodes(&g) || !build_pods(&g)) {
		fprintf(stderr, "skewer: gen: out of memory\n");
		goto done;
	}
	g.f = o->out ? fopen(o->out, "w") : stdout;
	if (!g.f) {
		fprintf(stderr, "skewer: gen: cannot write %s: %s\n", o->out, strerror(errno));
		rc = CLI_USAGE;
		goto done;
	}
	static char iobuf[1 << 20];
	setvbuf(g.f, iobuf, _IOFBF, sizeof(iobuf));
	if (o->kubectl)
		write_kubectl(&g);
	else
		write_scenario(&g);
	if (!o->out) {
		/* standard output: main checks it, as for every command */
		rc = CLI_OK;
	} else if ((ferror(g.f) | (fflush(g.f) != 0) | (fclose(g.f) != 0))) {
		/* an output that cannot be written: 2, as in every command */
		fprintf(stderr, "skewer: gen: cannot write %s: %s\n", o->out, errno ? strerror(errno) : "write error");
	} else {
		rc = CLI_OK;
	}
done:
	gen_fini(&g);
	return rc;
}
