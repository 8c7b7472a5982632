/* sched.c - one scheduling cycle, schedule_one.go schedulePod /
 * findNodesThatFitPod / prioritizeNodes / selectHost, over every node. */
#include "sched.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"

typedef int (*simple_filter)(const struct cluster *, const struct pod *, const struct node *,
			     struct node_rec *);

static void score_plugin(struct cluster *c, const struct pod *p, struct decision *d, enum plugin_id pl)
{
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct node_rec *r = &d->nodes[i];
		if (!r->feasible)
			continue;
		const struct node *n = &c->nodes[r->node];
		int64_t raw = 0;
		switch (pl) {
		case PL_TAINT_TOLERATION: raw = score_taint_toleration(c, p, n); break;
		case PL_NODE_AFFINITY: raw = score_node_affinity(c, p, n); break;
		case PL_NODE_RESOURCES_FIT: raw = score_least_allocated(c, p, n); break;
		case PL_BALANCED_ALLOCATION: raw = score_balanced_allocation(c, p, n); break;
		default: assert(0);
		}
		r->scored[pl] = true;
		r->raw[pl] = raw;
		r->norm[pl] = raw;
	}
}

static void skip_plugin(struct decision *d, enum plugin_id pl)
{
	d->plugin_skipped[pl] = true;
	for (uint32_t i = 0; i < d->nnodes; i++)
		d->nodes[i].scored[pl] = false;
}

/* framework/runtime/framework.go RunScorePlugins + schedule_one.go selectHost */
static int score_and_select(struct cluster *c, const struct pod *p, struct decision *d,
			    struct spread_state *ss, struct ipa_state *is)
{
	const int32_t *w = c->cfg.weights;
	d->scored = true;
	if (w[PL_TAINT_TOLERATION]) {
		score_plugin(c, p, d, PL_TAINT_TOLERATION);
		normalize_default(d, PL_TAINT_TOLERATION, true);
	} else
		skip_plugin(d, PL_TAINT_TOLERATION);
	if (w[PL_NODE_AFFINITY] && pod_has_preferred_node_affinity(p)) {
		score_plugin(c, p, d, PL_NODE_AFFINITY);
		normalize_default(d, PL_NODE_AFFINITY, false);
	} else
		skip_plugin(d, PL_NODE_AFFINITY);
	if (w[PL_NODE_RESOURCES_FIT])
		score_plugin(c, p, d, PL_NODE_RESOURCES_FIT);
	else
		skip_plugin(d, PL_NODE_RESOURCES_FIT);
	/* PodTopologySpread always runs PreScore so its domains are recorded */
	if (!spread_score(c, p, ss, d) || !w[PL_POD_TOPOLOGY_SPREAD])
		skip_plugin(d, PL_POD_TOPOLOGY_SPREAD);
	if (w[PL_INTER_POD_AFFINITY] && ipa_prescore(c, p, is)) {
		for (uint32_t i = 0; i < d->nnodes; i++) {
			struct node_rec *r = &d->nodes[i];
			if (!r->feasible)
				continue;
			r->scored[PL_INTER_POD_AFFINITY] = true;
			r->raw[PL_INTER_POD_AFFINITY] = score_inter_pod_affinity(c, &c->nodes[r->node], is);
		}
		ipa_normalize(d);
	} else
		skip_plugin(d, PL_INTER_POD_AFFINITY);
	if (w[PL_BALANCED_ALLOCATION] && pod_requests_cpu_or_mem(p))
		score_plugin(c, p, d, PL_BALANCED_ALLOCATION);
	else
		skip_plugin(d, PL_BALANCED_ALLOCATION);

	int64_t best = INT64_MIN;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		struct node_rec *r = &d->nodes[i];
		if (!r->feasible)
			continue;
		r->total = 0;
		for (int pl = 0; pl < PL__COUNT; pl++)
			if (r->scored[pl])
				r->total += r->norm[pl] * w[pl];
		if (r->total > best)
			best = r->total;
	}
	d->tied = malloc(d->nfeasible * sizeof(*d->tied));
	if (!d->tied)
		return 0;
	for (uint32_t i = 0; i < d->nnodes; i++)
		if (d->nodes[i].feasible && d->nodes[i].total == best)
			d->tied[d->ntied++] = d->nodes[i].node;
	uint32_t pick = 0;
	if (c->cfg.tie_random && d->ntied > 1) {
		/* deterministic per seed and pod; not comparable across tools */
		uint64_t x = c->cfg.seed ^ (0x9e3779b97f4a7c15ull * (d->pod + 1));
		x ^= x >> 31;
		x *= 0xbf58476d1ce4e5b9ull;
		x ^= x >> 27;
		pick = (uint32_t)(x % d->ntied);
	}
	d->chosen = (int32_t)d->tied[pick];
	return 1;
}

int sched_decide(struct cluster *c, uint32_t pod, struct decision *d)
{
	assert(pod < c->npods);
	const struct pod *p = &c->pods[pod];
	struct spread_state *ss = NULL;
	struct ipa_state *is = NULL;
	bool *allowed = NULL;
	d->pod = pod;
	d->chosen = -1;
	d->nodes = malloc((c->nalive_nodes + 1) * sizeof(*d->nodes));
	allowed = calloc(c->nnodes + 1, sizeof(*allowed));
	if (!d->nodes || !allowed)
		goto error;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!c->nodes[id].alive)
			continue;
		struct node_rec *r = &d->nodes[d->nnodes++];
		/* raw[] and norm[] are written before they are read (scored[]
		 * says which): zeroing them for 5,000 nodes is most of a cycle's
		 * memset */
		memset(r, 0, offsetof(struct node_rec, raw));
		r->total = 0;
		r->spread_ignored = false;
		r->host_count = 0;
		r->node = id;
		r->fail = PL_NONE;
	}
	/* PreFilter: NodeAffinity, PodTopologySpread, InterPodAffinity */
	int narrow = prefilter_node_affinity(c, p, allowed);
	if (!(ss = spread_prepare(c, p, d)))
		goto error;
	if (!(is = ipa_prepare(c, p)))
		goto error;
	if (!c->nalive_nodes) {
		d->outcome = OUT_PENDING;
		/* schedule_one.go ErrNoNodesAvailable */
		d->message = strdup("no nodes available to schedule pods");
		if (!d->message)
			goto error;
		goto done;
	}
	if (narrow < 0) {
		d->prefilter_conflict = true;
		for (uint32_t i = 0; i < d->nnodes; i++) {
			d->nodes[i].fail = PL_NODE_AFFINITY;
			d->nodes[i].unresolvable = true;
		}
	} else {
		for (uint32_t i = 0; i < d->nnodes; i++) {
			struct node_rec *r = &d->nodes[i];
			const struct node *n = &c->nodes[r->node];
			static const simple_filter first[] = {
				filter_node_unschedulable, filter_node_name,
				filter_taint_toleration, filter_node_affinity,
			};
			if (narrow > 0 && !allowed[r->node]) {
				r->prefilter_cut = true;
				r->unresolvable = true;
				r->fail = PL_NODE_AFFINITY;
				continue;
			}
			int pl;
			for (pl = 0; pl < 4; pl++) {
				r->nran++;
				/* the same question PodTopologySpread's PreFilter asked */
				int known = pl == PL_NODE_AFFINITY ? spread_node_affinity_known(ss, r->node) : -1;
				if (known == 1)
					continue;
				if (known == 0) {
					r->unresolvable = true;
					break;
				}
				if (!first[pl](c, p, n, r))
					break;
			}
			if (pl < 4) {
				r->fail = (enum plugin_id)pl;
				continue;
			}
			r->nran++;
			if (!filter_fit(c, p, n, d, r)) {
				r->fail = PL_NODE_RESOURCES_FIT;
				continue;
			}
			if (!spread_filter_skipped(ss)) {
				r->nran++;
				if (!filter_spread(c, p, n, r->node, ss, d, r)) {
					r->fail = PL_POD_TOPOLOGY_SPREAD;
					continue;
				}
			}
			if (!ipa_filter_skipped(is)) {
				r->nran++;
				if (!filter_inter_pod_affinity(c, p, n, is, r)) {
					r->fail = PL_INTER_POD_AFFINITY;
					continue;
				}
			}
			r->feasible = true;
			d->nfeasible++;
		}
	}
	if (d->nfeasible) {
		if (!score_and_select(c, p, d, ss, is))
			goto error;
		d->outcome = OUT_SCHEDULED;
	} else {
		d->outcome = OUT_PENDING;
		if (!(d->message = sched_fit_message(c, d)))
			goto error;
	}
done:
	spread_free(ss);
	ipa_free(is);
	free(allowed);
	return 1;
error:
	spread_free(ss);
	ipa_free(is);
	free(allowed);
	return 0;
}

struct reason_count {
	char *text;
	uint32_t n;
};

static int rc_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_reason(struct reason_count **v, uint32_t *n, const char *text)
{
	for (uint32_t i = 0; i < *n; i++) {
		if (strcmp((*v)[i].text, text) == 0) {
			(*v)[i].n++;
			return 1;
		}
	}
	struct reason_count *nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return 0;
	*v = nv;
	if (!(nv[*n].text = strdup(text)))
		return 0;
	nv[(*n)++].n = 1;
	return 1;
}

/* framework/types.go FitError.Error: a histogram of reasons, each rendered
 * "<count> <reason>", sorted as strings, joined by ", ". */
char *sched_fit_message(const struct cluster *c, const struct decision *d)
{
	struct reason_count *v = NULL;
	uint32_t nv = 0;
	char **parts = NULL, *out = NULL;
	size_t len = 0;
	char buf[512];
	if (d->prefilter_conflict) {
		snprintf(buf, sizeof(buf), "0/%u nodes are available: pod affinity terms conflict.",
			 d->nnodes);
		return strdup(buf);
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (r->feasible)
			continue;
		decision_reason(c, d, r, buf, sizeof(buf));
		/* NodeResourcesFit reasons count separately */
		char *s = buf;
		for (;;) {
			char *sep = r->fail == PL_NODE_RESOURCES_FIT ? strstr(s, ", ") : NULL;
			if (sep)
				*sep = '\0';
			if (!add_reason(&v, &nv, s))
				goto done;
			if (!sep)
				break;
			s = sep + 2;
		}
	}
	parts = calloc(nv + 1, sizeof(*parts));
	if (!parts)
		goto done;
	for (uint32_t i = 0; i < nv; i++) {
		size_t n = strlen(v[i].text) + 16;
		if (!(parts[i] = malloc(n)))
			goto done;
		snprintf(parts[i], n, "%u %s", v[i].n, v[i].text);
		len += strlen(parts[i]) + 2;
	}
	qsort(parts, nv, sizeof(*parts), rc_cmp);
	len += 64;
	if (!(out = malloc(len)))
		goto done;
	size_t o = (size_t)snprintf(out, len, "0/%u nodes are available: ", d->nnodes);
	for (uint32_t i = 0; i < nv; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? ", " : "", parts[i]);
	snprintf(out + o, len - o, ".");
done:
	for (uint32_t i = 0; i < nv; i++) {
		free(v[i].text);
		if (parts)
			free(parts[i]);
	}
	free(v);
	free(parts);
	return out;
}
