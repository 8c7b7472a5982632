/* names.c - the names `skewer gen` makes: namespaces, regions, the
 * Kubernetes name suffixes and uids. */
#include "gen.h"

static const char *const region_names[] = {
	"us-east-1", "us-west-2", "eu-west-1", "eu-central-1",
	"ap-southeast-1", "ap-northeast-1", "sa-east-1", "ca-central-1",
};

static const char *const base_namespaces[GEN_NBASE_NS] = {
	"default", "payments", "checkout", "catalog", "search", "identity", "data",
	"ml", "frontend", "platform", "monitoring", "logging", "ingress-nginx",
};

const char *gen_ns_name(const struct gen *g, uint32_t ns, char *buf, size_t len)
{
	if (ns < sizeof(base_namespaces) / sizeof(base_namespaces[0]))
		return base_namespaces[ns];
	if (ns == UINT32_MAX)
		return "kube-system";
	snprintf(buf, len, "team-%02" PRIu32, ns);
	(void)g;
	return buf;
}

const char *gen_region_of(const struct gen *g, uint32_t zone, char *buf, size_t len)
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
void gen_suffix5(uint32_t salt, uint32_t i, char out[6])
{
	uint64_t v = ((uint64_t)i * 1000003u + salt) % 14348907u;
	for (int k = 0; k < 5; k++) {
		out[k] = alnum[v % NALNUM];
		v /= NALNUM;
	}
	out[5] = 0;
}

void gen_rand_chars(struct gen_rng *r, char *out, int n)
{
	for (int k = 0; k < n; k++)
		out[k] = alnum[rng_below(r, NALNUM)];
	out[n] = 0;
}

void gen_uid_text(uint64_t a, char out[37])
{
	struct gen_rng r = {a};
	uint64_t x = rng_next(&r), y = rng_next(&r);
	snprintf(out, 37, "%08" PRIx32 "-%04" PRIx32 "-4%03" PRIx32 "-%04" PRIx32 "-%012" PRIx64,
		 (uint32_t)(x >> 32), (uint32_t)(x >> 16) & 0xffff, (uint32_t)x & 0xfff,
		 0x8000 | ((uint32_t)(y >> 48) & 0x3fff), (uint64_t)(y & 0xffffffffffffull));
}
