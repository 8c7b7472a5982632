/* workload.c - the workloads that own pods: which pods they own, the
 * pods they create (names, labels, hashes per the contract), and the
 * ReplicaSet and StatefulSet controllers' sync. */
#include "ctl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BURST_REPLICAS 500 /* replica_set.go BurstReplicas */

int32_t ctl_find_workload(const struct cluster *c, enum workload_kind k, sym_t ns, sym_t name)
{
	for (uint32_t i = 0; i < c->nworkloads; i++)
		if (c->workloads[i].kind == k && c->workloads[i].ns == ns && c->workloads[i].name == name)
			return (int32_t)i;
	return -1;
}

static const char *kind_name(enum workload_kind k)
{
	switch (k) {
	case WL_REPLICASET: return "ReplicaSet";
	case WL_STATEFULSET: return "StatefulSet";
	case WL_DEPLOYMENT: return "Deployment";
	case WL_RC: return "ReplicationController";
	case WL_SERVICE: return "Service";
	}
	return "";
}

/* metav1.GetControllerOf: the first reference with controller true (or,
 * in the shorthand, without the field) */
static const struct owner_ref *controller_of(const struct pod *p)
{
	for (uint32_t i = 0; i < p->nowners; i++)
		if (p->owners[i].controller != 0)
			return &p->owners[i];
	return NULL;
}

bool ctl_owned_by(const struct cluster *c, const struct pod *p, const struct workload *w)
{
	const struct owner_ref *o = controller_of(p);
	if (!o || p->ns != w->ns || o->name != w->name || !o->kind)
		return false;
	if (strcmp(intern_get(c->in, o->kind), kind_name(w->kind)))
		return false;
	/* by UID when both give one, else by kind and name */
	return !o->uid || !w->uid || o->uid == w->uid;
}

int32_t ctl_workload_of(const struct cluster *c, const struct pod *p)
{
	for (uint32_t i = 0; i < c->nworkloads; i++) {
		const struct workload *w = &c->workloads[i];
		if ((w->kind != WL_REPLICASET && w->kind != WL_STATEFULSET) || !ctl_owned_by(c, p, w))
			continue;
		for (uint32_t j = 0; w->kind == WL_REPLICASET && j < c->nworkloads; j++)
			if (ctl_wl_owned_by(w, &c->workloads[j]))
				return (int32_t)j;
		return (int32_t)i;
	}
	return -1;
}

bool ctl_wl_owned_by(const struct workload *r, const struct workload *d)
{
	if (r->ns != d->ns || r->owner_name != d->name || d->kind != WL_DEPLOYMENT)
		return false;
	return !r->owner_uid || !d->uid || r->owner_uid == d->uid;
}

int64_t ctl_pods_of(const struct cluster *c, const struct workload *w, uint32_t **out)
{
	uint32_t n = 0, cap = 0;
	uint32_t *v = NULL;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (!ctl_active(p) || !ctl_owned_by(c, p, w))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			uint32_t *nv = realloc(v, cap * sizeof(*nv));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		v[n++] = i;
	}
	*out = v;
	return n;
}

/* ---- the template's hash ---- */

struct buf {
	char *s;
	size_t n, cap;
	bool oom;
};

static void bputs(struct buf *b, const char *s)
{
	size_t l = strlen(s);
	if (b->oom)
		return;
	if (b->n + l + 1 > b->cap) {
		size_t cap = (b->n + l + 1) * 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, l + 1);
	b->n += l;
}

static void bprintf(struct buf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	bputs(b, tmp);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void labels_canon(struct buf *b, const struct intern *in, const struct labels *l, const char *skip)
{
	const char **v = l->n ? malloc(l->n * sizeof(*v)) : NULL;
	char **kv = l->n ? calloc(l->n, sizeof(*kv)) : NULL;
	uint32_t n = 0;
	if (l->n && (!v || !kv)) {
		b->oom = true;
		free(v);
		free(kv);
		return;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		const char *k = intern_get(in, l->v[i].key), *val = intern_get(in, l->v[i].val);
		if (skip && !strcmp(k, skip))
			continue;
		size_t len = strlen(k) + strlen(val) + 2;
		if (!(kv[n] = malloc(len))) {
			b->oom = true;
			break;
		}
		snprintf(kv[n], len, "%s=%s", k, val);
		v[n] = kv[n];
		n++;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	bputs(b, "{");
	for (uint32_t i = 0; i < n; i++) {
		bputs(b, v[i]);
		bputs(b, ",");
	}
	bputs(b, "}");
	for (uint32_t i = 0; i < n; i++)
		free(kv[i]);
	free(kv);
	free(v);
}

static void sym_out(struct buf *b, const struct intern *in, sym_t s)
{
	bputs(b, s ? intern_get(in, s) : "<nil>");
	bputs(b, ";");
}

static void selector_canon(struct buf *b, const struct intern *in, const struct label_selector_src *s)
{
	if (!s->present) {
		bputs(b, "<nil>");
		return;
	}
	labels_canon(b, in, &s->match_labels, NULL);
	for (uint32_t i = 0; i < s->nexprs; i++) {
		sym_out(b, in, s->exprs[i].key);
		sym_out(b, in, s->exprs[i].op);
		for (uint32_t j = 0; j < s->exprs[i].nvals; j++)
			sym_out(b, in, s->exprs[i].vals[j]);
	}
}

/* What the hash covers: labels but pod-template-hash, requests, node
 * selector, spread constraints, tolerations, priority and its class,
 * and the count of each kind of affinity term. */
static char *template_canon(const struct cluster *c, const struct pod *t)
{
	const struct intern *in = c->in;
	struct buf b = {0};
	const struct pod_spec *s = &t->spec;
	labels_canon(&b, in, &t->labels, "pod-template-hash");
	bprintf(&b, "req:%lld,%lld,%lld;", (long long)s->req.cpu, (long long)s->req.mem,
		(long long)s->req.eph);
	for (uint32_t i = 0; i < s->req.next; i++) {
		sym_out(&b, in, s->req.ext[i].name);
		bprintf(&b, "%lld;", (long long)s->req.ext[i].v);
	}
	labels_canon(&b, in, &s->node_selector, NULL);
	for (uint32_t i = 0; i < s->ntscs; i++) {
		const struct tsc *k = &s->tscs[i];
		bprintf(&b, "tsc:%d,%d,%d;", (int)k->max_skew, (int)k->has_min_domains, (int)k->min_domains);
		sym_out(&b, in, k->topology_key);
		sym_out(&b, in, k->when);
		sym_out(&b, in, k->node_affinity_policy);
		sym_out(&b, in, k->node_taints_policy);
		selector_canon(&b, in, &k->selector);
		for (uint32_t j = 0; j < k->nmatch_label_keys; j++)
			sym_out(&b, in, k->match_label_keys[j]);
	}
	for (uint32_t i = 0; i < s->ntols; i++) {
		sym_out(&b, in, s->tols[i].key);
		sym_out(&b, in, s->tols[i].op_text);
		sym_out(&b, in, s->tols[i].value);
		sym_out(&b, in, s->tols[i].effect_text);
	}
	bprintf(&b, "prio:%d,%d;", (int)s->has_priority, (int)s->priority);
	sym_out(&b, in, s->priority_class);
	bprintf(&b, "aff:%d,%u,%u,%u,%u,%u;", (int)s->has_affinity, s->affinity.node.nreq,
		s->affinity.node.npref, s->affinity.naff_req, s->affinity.nanti_req,
		s->affinity.naff_pref + s->affinity.nanti_pref);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

sym_t ctl_template_hash(struct cluster *c, const struct pod *tpl)
{
	char *s = template_canon(c, tpl);
	if (!s)
		return SYM_NONE;
	/* controller_utils.go ComputeHash: FNV-32a, then
	 * rand.SafeEncodeString of its decimal form */
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	free(s);
	static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";
	char dec[16], out[16];
	snprintf(dec, sizeof(dec), "%u", h);
	size_t i;
	for (i = 0; dec[i]; i++)
		out[i] = alphanums[(unsigned char)dec[i] % 27];
	out[i] = '\0';
	return intern_str(c->in, out);
}

bool ctl_template_equal(struct cluster *c, const struct pod *a, const struct pod *b)
{
	char *x = template_canon(c, a), *y = template_canon(c, b);
	bool eq = x && y && !strcmp(x, y);
	free(x);
	free(y);
	return eq;
}

/* ---- pods from a template ---- */

static int set_label(struct cluster *c, struct pod *p, const char *k, sym_t v)
{
	sym_t ks = intern_str(c->in, k);
	return ks && v && labels_set(&p->labels, ks, v);
}

int ctl_pod_from_template(struct cluster *c, uint32_t wi, sym_t name, struct pod *p)
{
	const struct workload *w = &c->workloads[wi];
	memset(p, 0, sizeof(*p));
	if (!w->tpl)
		return 1;
	if (!pod_copy(p, w->tpl))
		return 0;
	p->name = name;
	p->ns = w->ns;
	p->node = -1;
	p->alive = true;
	p->stored = false;
	p->created = INT64_MAX;
	p->start_time = INT64_MAX;
	p->nominated = SYM_NONE;
	p->cluster_message = SYM_NONE;
	p->spec.node_name = SYM_NONE;
	memset(&p->life, 0, sizeof(p->life));
	p->life.ready = -1;
	p->life.ready_since = INT64_MAX;
	p->life.deletion_cost = w->tpl->life.deletion_cost;
	free(p->owners);
	if (!(p->owners = calloc(1, sizeof(*p->owners)))) {
		pod_fini(p);
		return 0;
	}
	p->nowners = 1;
	p->owners[0] = (struct owner_ref){intern_str(c->in, kind_name(w->kind)), w->name,
					  intern_str(c->in, "apps/v1"), 1, w->uid};
	if (!p->owners[0].kind || !p->owners[0].api_version)
		goto oom;
	if (w->kind == WL_REPLICASET && w->hash && !set_label(c, p, "pod-template-hash", w->hash))
		goto oom;
	if (w->kind == WL_STATEFULSET) {
		if (!set_label(c, p, "statefulset.kubernetes.io/pod-name", name))
			goto oom;
		if (w->hash && !set_label(c, p, "controller-revision-hash", w->hash))
			goto oom;
	}
	return 1;
oom:
	pod_fini(p);
	memset(p, 0, sizeof(*p));
	return 0;
}

/* ---- ReplicaSet ---- */

/* RSNAME-K, K counting the pods skewer made for the set (a name in use
 * is passed over) */
static sym_t next_rs_name(struct cluster *c, struct workload *w)
{
	char buf[300];
	for (;;) {
		w->made++;
		snprintf(buf, sizeof(buf), "%s-%u", intern_get(c->in, w->name), w->made);
		sym_t s = intern_str(c->in, buf);
		if (!s || cluster_find_pod(c, w->ns, s) < 0)
			return s;
	}
}

/* replica_set.go getPodsRankedByRelatedPodsOnSameNode: per candidate,
 * the active pods on its node that any ReplicaSet of the same
 * controller selects (none when the set has no controller) */
static int rank_related(const struct cluster *c, const struct workload *rs, const uint32_t *cand,
			uint32_t n, int32_t *ranks)
{
	memset(ranks, 0, n * sizeof(*ranks));
	if (!rs->owner_name)
		return 1;
	int32_t *count = calloc((size_t)c->nnodes + 1, sizeof(*count));
	uint8_t *seen = calloc(c->npods ? c->npods : 1, 1);
	if (!count || !seen) {
		free(count);
		free(seen);
		return 0;
	}
	for (uint32_t s = 0; s < c->nworkloads; s++) {
		const struct workload *o = &c->workloads[s];
		if (o->kind != WL_REPLICASET || o->ns != rs->ns || o->owner_name != rs->owner_name ||
		    o->owner_kind != rs->owner_kind ||
		    (o->owner_uid && rs->owner_uid && o->owner_uid != rs->owner_uid))
			continue;
		for (uint32_t i = 0; i < c->npods; i++) {
			const struct pod *p = &c->pods[i];
			if (seen[i] || !p->alive || p->ns != rs->ns || !selector_matches(c->in, &o->sel, &p->labels))
				continue;
			seen[i] = 1;
			if (ctl_active(p))
				count[p->node + 1]++;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		ranks[i] = count[c->pods[cand[i]].node + 1];
	free(count);
	free(seen);
	return 1;
}

int ctl_rs_sync(struct step_ctx *x, struct ctl_run *k, uint32_t wi)
{
	struct cluster *c = x->c;
	for (;;) {
		uint32_t *pods;
		int64_t n = ctl_pods_of(c, &c->workloads[wi], &pods);
		if (n < 0)
			return 0;
		int64_t want = c->workloads[wi].replicas;
		if (n == want) {
			free(pods);
			return 1;
		}
		if (n < want) {
			free(pods);
			/* one pod at a time: each is scheduled before the next
			 * exists (slowStartBatch's pods reach the scheduler's
			 * queue in order) */
			for (int64_t j = n; j < want; j++) {
				struct pod p;
				sym_t name = next_rs_name(c, &c->workloads[wi]);
				if (!name || !ctl_pod_from_template(c, wi, name, &p))
					return 0;
				if (!p.name)
					return 1; /* no template: nothing to create */
				if (ctl_create(x, k, &p, (int32_t)wi) == -2)
					return 0;
			}
			return 1;
		}
		/* scale down: getPodsToDelete, BurstReplicas per sync */
		uint32_t diff = (uint32_t)(n - want);
		if (diff > BURST_REPLICAS)
			diff = BURST_REPLICAS;
		int32_t *ranks = malloc((size_t)n * sizeof(*ranks));
		if (!ranks || !rank_related(c, &c->workloads[wi], pods, (uint32_t)n, ranks) ||
		    (diff < n && !ctl_rs_sort(c, pods, ranks, (uint32_t)n))) {
			free(ranks);
			free(pods);
			return 0;
		}
		for (uint32_t j = 0; j < diff; j++)
			if (!ctl_delete(x, k, pods[j], (int32_t)wi, false)) {
				free(ranks);
				free(pods);
				return 0;
			}
		free(ranks);
		free(pods);
	}
}

/* ---- StatefulSet ---- */

/* stateful_set_utils.go getParentNameAndOrdinal: "(.*)-([0-9]+)$" */
static int64_t ordinal_of(const struct cluster *c, const struct pod *p, const struct workload *w)
{
	const char *n = intern_get(c->in, p->name), *set = intern_get(c->in, w->name);
	size_t ln = strlen(n), ls = strlen(set);
	if (ln < ls + 2 || strncmp(n, set, ls) || n[ls] != '-')
		return -1;
	int64_t v = 0;
	for (const char *q = n + ls + 1; *q; q++) {
		if (*q < '0' || *q > '9')
			return -1;
		v = v * 10 + (*q - '0');
		if (v > INT32_MAX)
			return -1;
	}
	return v;
}

/* stateful_set_control.go isRunningAndReady */
static bool running_ready(const struct pod *p)
{
	return ctl_phase(p) == PHASE_RUNNING && ctl_ready(p);
}

/* The live pod of w with ordinal o among its n pods, -1 none. */
static int64_t sts_pod(const struct cluster *c, const struct workload *w, const uint32_t *pods, int64_t n,
		       int64_t o)
{
	for (int64_t i = 0; i < n; i++)
		if (c->pods[pods[i]].alive && ordinal_of(c, &c->pods[pods[i]], w) == o)
			return i;
	return -1;
}

/* stateful_set_control.go updateStatefulSet, sync after sync until it
 * waits (pods Ready at once, deletions instant): processReplica over the
 * ordinals in range, ascending (create the missing; OrderedReady waits
 * for each to be Running and Ready, so a pod left pending, or a replica
 * not Running and Ready or terminating, stops everything), then
 * processCondemned over the ordinals outside it, highest first
 * (OrderedReady: a terminating one, or one not Running and Ready unless
 * it is the first unhealthy pod, waits). */
int ctl_sts_sync(struct step_ctx *x, struct ctl_run *k, uint32_t wi)
{
	struct cluster *c = x->c;
	struct workload *w = &c->workloads[wi];
	uint32_t *pods = NULL;
	int64_t n = 0, cap = 0;
	/* the pods it owns, terminating ones too (they keep their ordinal) */
	for (uint32_t i = 0; i < c->npods; i++) {
		if (!c->pods[i].alive || !ctl_owned_by(c, &c->pods[i], w))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			uint32_t *nv = realloc(pods, (size_t)cap * sizeof(*nv));
			if (!nv) {
				free(pods);
				return 0;
			}
			pods = nv;
		}
		pods[n++] = i;
	}
	bool monotonic = !w->parallel;
	int64_t start = w->ordinal_start, end = start + w->replicas; /* [start, end) */
	/* the revision the pods carry when the set names none */
	if (!w->hash) {
		sym_t key = intern_str(c->in, "controller-revision-hash");
		for (int64_t i = 0; i < n && key && !w->hash; i++)
			w->hash = labels_get(&c->pods[pods[i]].labels, key);
	}
	bool blocked = false;
	for (int64_t o = start; o < end && !blocked; o++) {
		int64_t have = sts_pod(c, w, pods, n, o);
		if (have >= 0) {
			const struct pod *p = &c->pods[pods[have]];
			/* processReplica: a terminating replica, or one not
			 * Running and Ready, makes OrderedReady wait */
			if (monotonic && (p->terminating || !running_ready(p)))
				blocked = true;
			continue;
		}
		char buf[300];
		snprintf(buf, sizeof(buf), "%s-%lld", intern_get(c->in, w->name), (long long)o);
		sym_t name = intern_str(c->in, buf);
		struct pod p;
		if (!name || !ctl_pod_from_template(c, wi, name, &p)) {
			free(pods);
			return 0;
		}
		if (!p.name) {
			blocked = true;
			break;
		}
		int64_t id = ctl_create(x, k, &p, (int32_t)wi);
		if (id == -2) {
			free(pods);
			return 0;
		}
		w = &c->workloads[wi];
		if (monotonic && (id < 0 || c->pods[id].node < 0))
			blocked = true;
	}
	if (blocked) {
		free(pods);
		return 1;
	}
	for (;;) {
		/* the condemned pod to process, highest ordinal, and the
		 * first unhealthy pod (isHealthy: Running, Ready, not
		 * terminating): none of the replicas here (OrderedReady got
		 * past them all), so the lowest-ordinal unhealthy condemned
		 * one; both again after each deletion (a sync each) */
		int64_t best = -1, bi = -1, low = INT64_MAX, li = -1;
		for (int64_t i = 0; i < n; i++) {
			const struct pod *q = &c->pods[pods[i]];
			if (!q->alive)
				continue;
			int64_t o = ordinal_of(c, q, w);
			if (o < 0 || (o >= start && o < end))
				continue;
			if (o > best) {
				best = o;
				bi = i;
			}
			if ((q->terminating || !running_ready(q)) && o < low) {
				low = o;
				li = i;
			}
		}
		if (bi < 0)
			break;
		const struct pod *p = &c->pods[pods[bi]];
		if (p->terminating) {
			if (monotonic)
				break;
			/* Parallel: skipped; out of the list */
			pods[bi] = pods[--n];
			continue;
		}
		/* processCondemned: OrderedReady deletes an unhealthy pod
		 * only when it is the first unhealthy one, else waits */
		if (monotonic && !running_ready(p) && bi != li)
			break;
		if (!ctl_delete(x, k, pods[bi], (int32_t)wi, false)) {
			free(pods);
			return 0;
		}
	}
	free(pods);
	return 1;
}

int ctl_replace(struct step_ctx *x, struct ctl_run *k, sym_t ns, sym_t name, const struct pod *evicted)
{
	struct cluster *c = x->c;
	const struct owner_ref *o = controller_of(evicted);
	if (!o || !o->kind)
		return 2;
	const char *kind = intern_get(c->in, o->kind);
	enum workload_kind wk = !strcmp(kind, "ReplicaSet") ? WL_REPLICASET :
				!strcmp(kind, "StatefulSet") ? WL_STATEFULSET : WL_SERVICE;
	int32_t wi = wk == WL_SERVICE ? -1 : ctl_find_workload(c, wk, ns, o->name);
	if (wi < 0 || !c->workloads[wi].tpl)
		return 2;
	(void)name;
	struct pod p;
	sym_t nm = wk == WL_STATEFULSET ? evicted->name : next_rs_name(c, &c->workloads[wi]);
	if (!nm || !ctl_pod_from_template(c, (uint32_t)wi, nm, &p))
		return 0;
	return ctl_create(x, k, &p, wi) == -2 ? 0 : 1;
}
