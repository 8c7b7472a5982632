/* objects.c - what both of `skewer gen`'s formats write alike: pod names
 * and labels, spread constraints, affinity, taints, tolerations and
 * requests. */
#include "gen.h"

#include <string.h>

static const char *const tiers[] = {"frontend", "backend", "cache", "worker"};

/* Topology keys constraints use, in the order a pod's list takes them. */
static const char *const tsc_keys[NTSC_KEYS] = {
	"topology.kubernetes.io/zone", "kubernetes.io/hostname",
	"topology.kubernetes.io/region", "topology.example.com/rack",
	"node.kubernetes.io/instance-type",
};


/* RFC 3339 text of a unix time (t >= 0). */
const char *gen_time_text(int64_t t, char buf[GEN_TIME_LEN])
{
	int64_t days = t / 86400, rem = t % 86400;
	/* civil_from_days (H. Hinnant) */
	int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	snprintf(buf, GEN_TIME_LEN, "%04" PRId64 "-%02" PRId64 "-%02" PRId64 "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 "Z",
		 y + (m <= 2), m, d, rem / 3600, rem / 60 % 60, rem % 60);
	return buf;
}

void gen_pod_name(const struct gen *g, const struct gen_wl *w, uint32_t rep, char *out, size_t len)
{
	char sfx[6];
	(void)g;
	if (w->kind == GK_STS) {
		snprintf(out, len, "%s-%" PRIu32, w->name, rep);
		return;
	}
	gen_suffix5(w->salt, rep, sfx);
	if (w->kind == GK_DEPLOY)
		snprintf(out, len, "%s-%s-%s", w->name, w->hash, sfx);
	else
		snprintf(out, len, "%s-%s", w->name, sfx);
}

/* The workload's controller name: the ReplicaSet, StatefulSet, DaemonSet. */
void gen_owner_name(const struct gen_wl *w, char *out, size_t len)
{
	if (w->kind == GK_DEPLOY)
		snprintf(out, len, "%s-%s", w->name, w->hash);
	else
		snprintf(out, len, "%s", w->name);
}

const char *gen_owner_kind(const struct gen_wl *w)
{
	return w->kind == GK_DEPLOY ? "ReplicaSet" : w->kind == GK_STS ? "StatefulSet" : "DaemonSet";
}

void gen_put_pod_labels(struct gen *g, struct yw *w, const struct gen_wl *wl, uint32_t rep)
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
	yw_end(w);
	(void)g;
}

static void put_match_app(struct yw *w, const struct gen_wl *wl)
{
	yw_map(w, "labelSelector");
	yw_map(w, "matchLabels");
	yw_kv(w, "app", wl->name);
	yw_end(w);
	yw_end(w);
}

void gen_put_tscs(struct gen *g, struct yw *w, const struct gen_wl *wl)
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
			yw_end(w);
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
		yw_end(w);
	}
	yw_end(w);
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
	yw_end(w);
	yw_end(w);
	yw_end(w);
}

void gen_put_affinity(struct gen *g, struct yw *w, const struct gen_wl *wl, int32_t node)
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
			yw_end(w);
			yw_end(w);
			yw_end(w);
		}
		if (npref) {
			yw_seq(w, "preferredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			yw_map(w, "preference");
			put_node_term(w, "eks.amazonaws.com/capacityType", "In", ondemand, 1, false);
			yw_end(w);
			yw_ku(w, "weight", 50);
			yw_end(w);
			yw_end(w);
		}
		yw_end(w);
	}
	if (wl->anti_req || wl->anti_pref) {
		yw_map(w, "podAntiAffinity");
		if (wl->anti_req) {
			yw_seq(w, "requiredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			put_match_app(w, wl);
			yw_kv(w, "topologyKey", "kubernetes.io/hostname");
			yw_end(w);
			yw_end(w);
		} else {
			yw_seq(w, "preferredDuringSchedulingIgnoredDuringExecution");
			yw_map(w, NULL);
			yw_map(w, "podAffinityTerm");
			put_match_app(w, wl);
			yw_kv(w, "topologyKey", "kubernetes.io/hostname");
			yw_end(w);
			yw_ku(w, "weight", 100);
			yw_end(w);
			yw_end(w);
		}
		yw_end(w);
	}
	yw_end(w);
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
	yw_end(w);
}

static void put_taint(struct yw *w, const char *effect, const char *key, const char *value)
{
	yw_map(w, NULL);
	yw_kv(w, "effect", effect);
	yw_kv(w, "key", key);
	if (value)
		yw_kv(w, "value", value);
	yw_end(w);
}

/* The taints of a node, the same in both formats. */
void gen_put_taints(struct yw *w, const struct gen_node *n, bool kubectl)
{
	const struct gen_pool *p = &gen_pools[n->pool];
	char tb[GEN_TIME_LEN];
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
			yw_kq(w, "timeAdded", gen_time_text(GEN_BASE_TIME - 3600, tb));
		yw_end(w);
	}
	yw_end(w);
}

void gen_put_tolerations(struct yw *w, const struct gen_wl *wl)
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
	yw_end(w);
}

void gen_put_requests(struct yw *w, const struct gen_wl *wl, const char *key)
{
	char b[32];
	yw_map(w, key);
	snprintf(b, sizeof(b), "%" PRIu32 "m", wl->cpu_m);
	yw_kv(w, "cpu", b);
	snprintf(b, sizeof(b), "%" PRIu32 "Mi", wl->mem_mi);
	yw_kv(w, "memory", b);
	if (wl->gpus)
		yw_kq(w, "nvidia.com/gpu", "1");
	yw_end(w);
}

/* A node's labels, sorted as kubectl prints them (both formats). */
void gen_put_node_labels(struct gen *g, struct yw *w, const struct gen_node *n)
{
	const struct gen_pool *p = &gen_pools[n->pool];
	char b[160], rb[32];
	yw_map(w, "labels");
	yw_kv(w, "beta.kubernetes.io/arch", p->arch);
	yw_kv(w, "beta.kubernetes.io/instance-type", p->itype);
	yw_kv(w, "beta.kubernetes.io/os", "linux");
	yw_kv(w, "eks.amazonaws.com/capacityType", p->spot ? "SPOT" : "ON_DEMAND");
	yw_kv(w, "eks.amazonaws.com/nodegroup", p->name);
	if (n->dedicated)
		yw_kv(w, "example.com/dedicated", "infra");
	yw_kv(w, "failure-domain.beta.kubernetes.io/region", gen_region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(w, "failure-domain.beta.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_kv(w, "kubernetes.io/arch", p->arch);
	yw_kv(w, "kubernetes.io/hostname", n->name);
	yw_kv(w, "kubernetes.io/os", "linux");
	yw_kv(w, "node-pool", p->name);
	yw_kv(w, "node.kubernetes.io/instance-type", p->itype);
	if (p->gpus)
		yw_kq(w, "nvidia.com/gpu.present", "true");
	snprintf(b, sizeof(b), "%s-r%02" PRIu32, g->zone_names[n->zone], n->rack);
	yw_kv(w, "topology.example.com/rack", b);
	yw_kv(w, "topology.kubernetes.io/region", gen_region_of(g, n->zone, rb, sizeof(rb)));
	yw_kv(w, "topology.kubernetes.io/zone", g->zone_names[n->zone]);
	yw_end(w);
}
