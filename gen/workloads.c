/* workloads.c - the workloads of `skewer gen`: DaemonSets on every node,
 * Deployments and StatefulSets with their constraints, affinity and
 * tolerations, each replica placed on a node that admits it or left
 * pending as a step. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

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

/* DaemonSets: one pod per node (up to three of them, by pod budget). */
static const struct {
	const char *name, *ns;
	uint32_t cpu_m, mem_mi;
} daemons[] = {
	{"kube-proxy", "kube-system", 100, 64},
	{"aws-node", "kube-system", 25, 128},
	{"node-exporter", "monitoring", 50, 64},
};

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
	gen_rand_chars(&g->r, w->hash, kind == GK_DEPLOY ? 10 : 10);
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
	const struct gen_pool *p = &gen_pools[n->pool];
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
	if (capacity && (n->npods >= p->pods || n->cpu_used + w->cpu_m > gen_node_cpu_alloc(n) ||
			 n->mem_used + w->mem_mi > gen_node_mem_alloc_mi(n)))
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

int gen_build_pods(struct gen *g)
{
	uint32_t budget = g->o.pods;
	bool have_gpu = false;
	for (uint32_t i = 0; i < g->o.nodes; i++)
		have_gpu = have_gpu || g->nodes[i].pool == POOL_GPU;
	g->nns = GEN_NBASE_NS;
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
		gen_rand_chars(&g->r, w->hash, 10);
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
