/* sched.c - one scheduling cycle, schedule_one.go schedulePod /
 * findNodesThatFitPod / prioritizeNodes / selectHost, over every node. */
#include "sched.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"

static inline struct node_rec *init_rec(struct node_rec *r, uint32_t id)
{
	/* raw[] is written before it is read (scored[] says which) */
	memset(r, 0, offsetof(struct node_rec, raw));
	r->node = id;
	r->fail = PL_NONE;
	return r;
}

/* framework/runtime/framework.go RunFilterPlugins, in plugin order, for
 * every node: the per-node work is a few loads and compares; a failure
 * fills the rec's detail through the plugin's own filter. */
static void run_filters(struct cluster *c, const struct pod *p, struct decision *d, const bool *allowed,
			const struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
			uint32_t *fx)
{
	const struct resources *rq = &p->spec.req;
	const uint8_t *stat = node_shape_stat(shape);
	bool fit_simple = rq->eph == 0 && rq->next == 0;
	bool do_spread = !spread_filter_skipped(ss), do_ipa = !ipa_filter_skipped(is);
	const uint8_t *ign = spread_ignore_mask(ss);
	const struct spread_hard_tbl *ht;
	uint32_t nht = spread_hard_tables(ss, &ht);
	for (uint32_t id = 0; id < c->nnodes; id++) {
		const struct node *n = &c->nodes[id];
		if (!n->alive)
			continue;
		struct node_rec *r = init_rec(&d->nodes[d->nnodes++], id);
		int8_t ran;
		if (allowed && !allowed[id]) {
			/* outside NodeAffinity's PreFilterResult: not evaluated */
			r->prefilter_cut = true;
			r->unresolvable = true;
			r->fail = PL_NODE_AFFINITY;
			continue;
		}
		if (stat[id]) {
			/* NodeUnschedulable, NodeName, TaintToleration and
			 * NodeAffinity, answered once per pod spec (shape.c);
			 * every such failure is unresolvable */
			int8_t pl = (int8_t)(stat[id] - 1);
			r->fail = pl;
			r->nran = (int8_t)(pl + 1);
			r->unresolvable = true;
			if (pl == PL_TAINT_TOLERATION)
				r->why.taint.taint = (uint32_t)node_shape_taint_ix(shape, id);
			continue;
		}
		/* noderesources/fit.go fitsRequest; the full filter names the
		 * failures (and handles ephemeral and extended resources) */
		bool fits = fit_simple && (int64_t)n->npods + 1 <= n->alloc.pods;
		int64_t free_cpu, free_mem;
		if (fits && rq->cpu > 0)
			fits = !__builtin_sub_overflow(n->alloc.cpu, n->used.cpu, &free_cpu) && rq->cpu <= free_cpu;
		if (fits && rq->mem > 0)
			fits = !__builtin_sub_overflow(n->alloc.mem, n->used.mem, &free_mem) && rq->mem <= free_mem;
		if (!fits && !filter_fit(c, p, n, d, r)) {
			r->fail = PL_NODE_RESOURCES_FIT;
			r->nran = 5;
			continue;
		}
		ran = 5;
		if (do_spread) {
			ran++;
			bool pass = true;
			for (uint32_t k = 0; k < nht && pass; k++) {
				int32_t di = ht[k].kdom[id];
				pass = di >= 0 && ht[k].ok[di];
			}
			if (!pass && !filter_spread(id, ss, d, r)) {
				r->fail = PL_POD_TOPOLOGY_SPREAD;
				r->nran = ran;
				continue;
			}
		}
		if (do_ipa) {
			ran++;
			if (!filter_inter_pod_affinity(c, p, n, is, r)) {
				r->fail = PL_INTER_POD_AFFINITY;
				r->nran = ran;
				continue;
			}
		}
		r->nran = ran;
		r->feasible = true;
		fx[d->nfeasible++] = d->nnodes - 1;
		if (ign && !ign[id]) {
			r->spread_ignored = true;
			d->nignored++;
		}
	}
}

/* framework/runtime/framework.go RunScorePlugins + schedule_one.go
 * selectHost: every plugin's raw score in one pass over the feasible
 * nodes, then normalization, totals and the best nodes in a second. */
static int score_and_select(struct cluster *c, const struct pod *p, struct decision *d,
			    struct node_shape *shape, struct spread_state *ss, struct ipa_state *is,
			    const uint32_t *fx)
{
	uint32_t nf = d->nfeasible;
	const int32_t *w = c->cfg.weights;
	d->scored = true;
	bool tt = w[PL_TAINT_TOLERATION] != 0;
	bool na = w[PL_NODE_AFFINITY] && pod_has_preferred_node_affinity(p);
	bool fit = w[PL_NODE_RESOURCES_FIT] != 0;
	bool ba = w[PL_BALANCED_ALLOCATION] && pod_requests_cpu_or_mem(p);
	/* PodTopologySpread always runs PreScore so its domains are recorded */
	bool pts = spread_prescore(c, ss, d, fx, nf, d->nignored) && w[PL_POD_TOPOLOGY_SPREAD];
	bool ipa = w[PL_INTER_POD_AFFINITY] && ipa_prescore(c, p, is);
	d->plugin_skipped[PL_TAINT_TOLERATION] = !tt;
	d->plugin_skipped[PL_NODE_AFFINITY] = !na;
	d->plugin_skipped[PL_NODE_RESOURCES_FIT] = !fit;
	d->plugin_skipped[PL_POD_TOPOLOGY_SPREAD] = !pts;
	d->plugin_skipped[PL_INTER_POD_AFFINITY] = !ipa;
	d->plugin_skipped[PL_BALANCED_ALLOCATION] = !ba;
	const int64_t *tt_raw = tt ? node_shape_tt_raw(c, p, shape) : NULL;
	const int64_t *na_raw = na ? node_shape_na_raw(c, p, shape) : NULL;
	if ((tt && !tt_raw) || (na && !na_raw))
		return 0;
	if (fit || ba)
		score_resources(c, p, d, fx, nf, fit, ba);
	int64_t tt_max = 0, na_max = 0;
	int64_t pts_min = INT64_MAX, pts_max = 0, ipa_min = INT64_MAX, ipa_max = INT64_MIN;
	if (pts && !spread_raw_all(ss, d, fx, nf, &pts_min, &pts_max))
		return 0;
	for (uint32_t i = 0; i < nf; i++) {
		struct node_rec *r = &d->nodes[fx[i]];
		const struct node *n = &c->nodes[r->node];
		if (tt) {
			int64_t raw = tt_raw[r->node];
			r->scored[PL_TAINT_TOLERATION] = true;
			r->raw[PL_TAINT_TOLERATION] = raw;
			if (raw > tt_max)
				tt_max = raw;
		}
		if (na) {
			int64_t sum = na_raw[r->node];
			r->scored[PL_NODE_AFFINITY] = true;
			r->raw[PL_NODE_AFFINITY] = sum;
			if (sum > na_max)
				na_max = sum;
		}
		if (ipa) {
			int64_t raw = score_inter_pod_affinity(c, n, is);
			r->scored[PL_INTER_POD_AFFINITY] = true;
			r->raw[PL_INTER_POD_AFFINITY] = raw;
			if (raw < ipa_min)
				ipa_min = raw;
			if (raw > ipa_max)
				ipa_max = raw;
		}
	}

	d->tied = malloc(d->nfeasible * sizeof(*d->tied));
	if (!d->tied)
		return 0;
	int64_t best = INT64_MIN;
	for (uint32_t i = 0; i < nf; i++) {
		struct node_rec *r = &d->nodes[fx[i]];
		/* helper/normalize_score.go, interpodaffinity and
		 * podtopologyspread NormalizeScore; then the weighted sum
		 * (framework.go RunScorePlugins) */
		int64_t total = 0;
		if (fit)
			total += (int64_t)r->norm[PL_NODE_RESOURCES_FIT] * w[PL_NODE_RESOURCES_FIT];
		if (ba)
			total += (int64_t)r->norm[PL_BALANCED_ALLOCATION] * w[PL_BALANCED_ALLOCATION];
		if (tt) {
			int16_t v = (int16_t)normalize_default_one(r->raw[PL_TAINT_TOLERATION], tt_max, true);
			r->norm[PL_TAINT_TOLERATION] = v;
			total += (int64_t)v * w[PL_TAINT_TOLERATION];
		}
		if (na) {
			int16_t v = (int16_t)normalize_default_one(r->raw[PL_NODE_AFFINITY], na_max, false);
			r->norm[PL_NODE_AFFINITY] = v;
			total += (int64_t)v * w[PL_NODE_AFFINITY];
		}
		if (pts) {
			int16_t v = (int16_t)spread_normalize_one(r, r->raw[PL_POD_TOPOLOGY_SPREAD], pts_min,
								  pts_max);
			r->norm[PL_POD_TOPOLOGY_SPREAD] = v;
			total += (int64_t)v * w[PL_POD_TOPOLOGY_SPREAD];
		}
		if (ipa) {
			int16_t v = (int16_t)ipa_normalize_one(r->raw[PL_INTER_POD_AFFINITY], ipa_min, ipa_max);
			r->norm[PL_INTER_POD_AFFINITY] = v;
			total += (int64_t)v * w[PL_INTER_POD_AFFINITY];
		}
		r->total = total;
		if (total > best) {
			best = total;
			d->ntied = 0;
		}
		if (total == best)
			d->tied[d->ntied++] = r->node;
	}
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
	struct node_shape *shape = NULL;
	uint32_t *fx = NULL;
	d->pod = pod;
	d->chosen = -1;
	d->nodes = malloc((c->nalive_nodes + 1) * sizeof(*d->nodes));
	/* the feasible recs' indices, in node order, for the score passes */
	fx = malloc((c->nalive_nodes + 1) * sizeof(*fx));
	if (!d->nodes || !fx)
		goto error;
	/* PreFilter: NodeAffinity, PodTopologySpread, InterPodAffinity */
	int narrow = 0;
	if (p->spec.has_affinity && p->spec.affinity.node.has_required) {
		/* only required terms can narrow by metadata.name */
		if (!(allowed = calloc(c->nnodes + 1, sizeof(*allowed))))
			goto error;
		narrow = prefilter_node_affinity(c, p, allowed);
	}
	/* one answer per node for the node-facing filters, shared with
	 * PodTopologySpread's node inclusion policies */
	if (!(shape = node_shape_get(c, p)))
		goto error;
	if (!(ss = spread_prepare(c, p, d, shape)))
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
		for (uint32_t id = 0; id < c->nnodes; id++) {
			if (!c->nodes[id].alive)
				continue;
			struct node_rec *r = init_rec(&d->nodes[d->nnodes++], id);
			r->fail = PL_NODE_AFFINITY;
			r->unresolvable = true;
		}
	} else {
		run_filters(c, p, d, narrow > 0 ? allowed : NULL, shape, ss, is, fx);
	}
	if (d->nfeasible) {
		if (!score_and_select(c, p, d, shape, ss, is, fx))
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
	free(fx);
	return 1;
error:
	spread_free(ss);
	ipa_free(is);
	free(allowed);
	free(fx);
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
