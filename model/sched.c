/* sched.c - one scheduling cycle, schedule_one.go schedulePod /
 * findNodesThatFitPod / prioritizeNodes / selectHost, over every node. */
#include "sched.h"

#include <assert.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiterror.h"
#include "preempt.h"
#include "probe.h"
#include "cycle.h"

void sched_work_free(struct sched_work *w)
{
	if (!w)
		return;
	free(w->ids);
	free(w->rix);
	free(w->la);
	free(w->ba);
	free(w->lb);
	free(w->pts);
	free(w->ipa);
	free(w->host);
	free(w->ipa_fail);
	free(w->vpts);
	free(w->vtot);
	free(w->vipa);
	free(w);
}

struct scheduler *scheduler_new(struct cluster *c)
{
	struct scheduler *s = calloc(1, sizeof(*s));
	if (s)
		s->c = c;
	return s;
}

void scheduler_free(struct scheduler *s)
{
	if (!s)
		return;
	res_cache_free(s->res_cache);
	shape_cache_free(s->shape_cache);
	spread_scratch_free(s->spread_scratch);
	sched_work_free(s->work);
	term_ns_index_free(s->term_ns);
	free(s);
}

/* Reallocates array p to n elements; returns NULL from the caller on OOM
 * (p keeps its old block, and cap its old value). */
#define GROW_OR_RETURN_NULL(p, n)                                   \
	do {                                                        \
		void *grown_ = realloc((p), (n) * sizeof(*(p)));    \
		if (!grown_)                                        \
			return NULL;                                \
		(p) = grown_;                                       \
	} while (0)

/* The scheduler's work arrays with room for n nodes (node ids below n);
 * host zeroed for a full decision. NULL on OOM. */
static struct sched_work *work_get(struct scheduler *sch, uint32_t n, bool lean)
{
	struct sched_work *w = sch->work;
	if (!w && !(w = sch->work = calloc(1, sizeof(*w))))
		return NULL;
	n++;
	if (w->cap < n) {
		uint32_t cap = n + n / 4 + 16;
		GROW_OR_RETURN_NULL(w->ids, cap);
		GROW_OR_RETURN_NULL(w->rix, cap);
		GROW_OR_RETURN_NULL(w->la, cap);
		GROW_OR_RETURN_NULL(w->ba, cap);
		GROW_OR_RETURN_NULL(w->lb, cap);
		GROW_OR_RETURN_NULL(w->pts, cap);
		GROW_OR_RETURN_NULL(w->ipa, cap);
		GROW_OR_RETURN_NULL(w->host, cap);
		GROW_OR_RETURN_NULL(w->ipa_fail, cap);
		GROW_OR_RETURN_NULL(w->vpts, cap);
		GROW_OR_RETURN_NULL(w->vtot, cap);
		GROW_OR_RETURN_NULL(w->vipa, cap);
		/* read eight at a time, the entries of nodes not scored too
		 * (their lanes are then set aside): written once */
		memset(w->vpts, 0, cap * sizeof(*w->vpts));
		memset(w->vtot, 0, cap * sizeof(*w->vtot));
		memset(w->vipa, 0, cap * sizeof(*w->vipa));
		w->cap = cap;
	}
	if (!lean)
		memset(w->host, 0, n * sizeof(*w->host));
	return w;
}

/* schedule_one.go findNodesThatPassFilters for a full decision: the
 * plain loop over the plugin table (framework.c filter_node_all) on every
 * live node in input order, recording every blocker and each hard
 * constraint's domain per node. 0 on OOM. */
static int filter_full(const struct cycle_state *x, struct sched_work *wk)
{
	struct cluster *c = x->c;
	struct decision *d = x->d;
	const uint8_t *ign = spread_ignore_mask(x->ss);
	const struct spread_hard_tbl *ht = NULL;
	uint32_t nht = spread_filter_skipped(x->ss) ? 0 : spread_hard_tables(x->ss, &ht);
	if (nht && !(d->spread_dom = malloc((size_t)(c->nalive_nodes + 1) * nht * sizeof(*d->spread_dom))))
		return 0;
	d->nhard = nht;
	uint32_t nn = 0, nf = 0, nig = 0;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!(c->nflag[id] & NF_ALIVE))
			continue;
		uint32_t k = nn++;
		struct node_rec *r = init_rec(&d->nodes[k], id);
		for (uint32_t t = 0; t < nht; t++)
			d->spread_dom[(size_t)k * nht + t] = ht[t].kdom[id];
		if (!filter_node_all(x, id, r))
			continue;
		r->feasible = true;
		wk->rix[nf] = k;
		wk->ids[nf++] = id;
		if (ign && !ign[id]) {
			r->spread_ignored = true;
			nig++;
		}
	}
	d->nnodes = nn;
	d->nfeasible = nf;
	d->nignored = nig;
	return 1;
}

/* schedule_one.go findNodesThatFitPod's Filter: the plain loop, or for a
 * lean decision its fast paths (lean.c) */
static int run_filters(const struct cycle_state *x, struct sched_work *wk)
{
	if (!x->d->lean)
		return filter_full(x, wk);
	lean_filter(x->c, x->p, x->d, x->allowed, x->shape, x->ss, x->is, wk);
	return 1;
}

static bool batched_full;

void sched_set_batched(bool on)
{
	batched_full = on;
}

/* schedule_one.go prioritizeNodes and selectHost: the plain loop over
 * the plugin table for a full decision, the batched passes (score.c,
 * lean_avx2.c) for a lean one */
static int run_scores(struct cycle_state *x, struct sched_work *wk)
{
	/* the batched passes answer the releases cfg.sw.fast names */
	if (x->d->lean || (batched_full && x->c->cfg.sw.fast && lean_covers_pod(x->c, x->p))) {
		lean_mark_idle(x->c, x->p, x->d);
		return score_and_select(x->sch, x->p, x->d, x->shape, x->ss, x->is, wk);
	}
	return prioritize_nodes(x, wk->ids, wk->rix);
}

/* A scheduling cycle allocates node-sized arrays and frees them at its
 * end; glibc would give the freed top of the heap back to the system
 * after each cycle (the trim threshold) and fault the same pages in,
 * zeroed, at the next one, or serve node-sized arrays by mmap. Both
 * thresholds are raised once, for the whole process, by the program that
 * wants it (the library never changes them on its own). */
void sched_tune_memory(void)
{
#if defined(__GLIBC__)
	static bool done;
	if (done)
		return;
	done = true;
	/* a refusal (a value out of range) leaves glibc's defaults: only
	 * slower */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int sched_warm_begin(struct scheduler *sch)
{
	return res_cache_reserve(sch);
}

int sched_warm(struct scheduler *sch, const struct pod *p)
{
	struct cluster *c = sch->c;
	if (!spread_warm(c, p) || !ipa_warm(c, p))
		return 0;
	/* the node-facing answers of its spec, and the arrays a cycle
	 * builds from them on first use */
	struct node_shape *shape = node_shape_get(sch, p);
	if (!shape || !node_shape_tt_raw(c, p, shape))
		return 0;
	if (pod_has_preferred_node_affinity(p) && !node_shape_na_raw(c, p, shape))
		return 0;
	/* the nodes each node inclusion policy leaves out */
	uint32_t nz;
	const uint8_t *aff = node_shape_aff(shape), *both = node_shape_both_ok(shape);
	if (!both || (aff && !node_shape_zeros(c, shape, aff, &nz)) ||
	    !node_shape_zeros(c, shape, node_shape_taint_ok(shape), &nz) || !node_shape_zeros(c, shape, both, &nz))
		return 0;
	/* the resource scores of its requests on every node, kept and
	 * brought up to date with the nodes that change */
	return res_scores_for(sch, p) != NULL;
}

/* Takes node id's verdict out of the feasible list of d (wk->ids, and
 * wk->rix in a full decision). */
static void drop_feasible(struct decision *d, struct sched_work *wk, uint32_t id, const uint8_t *ign)
{
	uint32_t j = 0;
	while (j < d->nfeasible && wk->ids[j] != id)
		j++;
	if (j == d->nfeasible)
		return;
	memmove(&wk->ids[j], &wk->ids[j + 1], (d->nfeasible - j - 1) * sizeof(*wk->ids));
	if (!d->lean)
		memmove(&wk->rix[j], &wk->rix[j + 1], (d->nfeasible - j - 1) * sizeof(*wk->rix));
	d->nfeasible--;
	d->nignored -= ign && !ign[id];
}

/* A node's failure once the pods nominated there are counted. */
struct nom_fail {
	uint32_t node;
	struct node_rec r;
};

/* framework.go RunFilterPluginsWithNominatedPods for the nodes other pods
 * are nominated to, run before the cycle: the nodes where the pod fails
 * with them (pass 0) into *out; where it passes the plain loop's verdict
 * stands (pass 1). 0 on OOM. */
static int nominated_failures(struct scheduler *sch, uint32_t pod, struct nom_fail **out, uint32_t *nout)
{
	struct cluster *c = sch->c;
	const struct pod *p = &c->pods[pod];
	struct nom_fail *v = NULL;
	struct probe *pr = NULL;
	uint32_t nv = 0;
	for (uint32_t i = 0; i < c->nnominated; i++) {
		sym_t at = cluster_pending_nomination(c, c->nominated[i]);
		if (c->nominated[i] == pod || !at || c->pods[c->nominated[i]].spec.priority < p->spec.priority)
			continue;
		int32_t node = cluster_find_node(c, at);
		bool seen = node < 0;
		for (uint32_t k = 0; k < nv && !seen; k++)
			seen = v[k].node == (uint32_t)node;
		if (seen)
			continue;
		if (!v && !(v = calloc(c->nnominated, sizeof(*v))))
			goto oom;
		if (!pr && !(pr = probe_new(sch, pod)))
			goto oom;
		if (!probe_node(pr, (uint32_t)node))
			goto oom;
		int rc = probe_filter_nominated(pr, &v[nv].r);
		if (rc < 0)
			goto oom;
		/* the pass with them failed, or the node fails anyway (the
		 * plain loop says so too) */
		if (rc == 0)
			v[nv++].node = (uint32_t)node;
	}
	probe_free(pr);
	*out = v;
	*nout = nv;
	return 1;
oom:
	probe_free(pr);
	free(v);
	return 0;
}

/* The failures nominated_failures found, over the plain loop's verdicts. */
static void apply_nominated(struct decision *d, struct sched_work *wk, const uint8_t *ign,
			    const struct nom_fail *v, uint32_t nv)
{
	for (uint32_t i = 0; i < nv; i++) {
		uint32_t node = v[i].node;
		drop_feasible(d, wk, node, ign);
		if (d->lean) {
			d->verdict[node] = v[i].r.fail;
			continue;
		}
		struct node_rec *dr = (struct node_rec *)decision_node(d, node);
		if (dr) {
			*dr = v[i].r;
			dr->with_nominated = true;
		}
	}
}

/* Did node id pass every filter in decision d (lean or full)? */
static bool node_feasible(const struct decision *d, uint32_t id)
{
	if (d->lean)
		return d->verdict[id] == PL_NONE;
	const struct node_rec *r = decision_node(d, id);
	return r && r->feasible;
}

/* One cycle; 2 when a lean decision must be recorded in full instead. */
static int decide(struct scheduler *sch, uint32_t pod, struct decision *d, const struct nom_fail *nom,
		  uint32_t nnom)
{
	struct cluster *c = sch->c;
	assert(pod < c->npods);
	const struct pod *p = &c->pods[pod];
	struct cycle_state x = { .sch = sch, .c = c, .p = p, .d = d };
	struct sched_work *wk = NULL;
	int rc = 0;
	d->pod = pod;
	d->chosen = -1;
	/* a plugin the fast paths do not answer for this pod, or a release
	 * whose rules they do not model (model/version.c), makes lean cycles
	 * full */
	if (d->lean && (!lean_covers_pod(c, p) || !c->cfg.sw.fast))
		return 2;
	if (d->lean) {
		d->verdict = malloc(c->nnodes + 1);
		d->totals = malloc((c->nnodes + 1) * sizeof(*d->totals));
		if (!d->verdict || !d->totals)
			goto done;
		memset(d->verdict, (uint8_t)VERDICT_GONE, c->nnodes + 1);
	} else if (!(d->nodes = malloc((c->nalive_nodes + 1) * sizeof(*d->nodes)))) {
		goto done;
	}
	if (!(wk = work_get(sch, c->nnodes, d->lean)))
		goto done;
	/* PreFilter: the table's, in order (NodeAffinity,
	 * PodTopologySpread, InterPodAffinity) */
	if (!run_prefilters(&x))
		goto done;
	if ((x.conflict || x.rejected) && d->lean) {
		rc = 2;
		goto done;
	}
	if (x.rejected) {
		d->prefilter_reject = x.rejected;
		if (!(d->prefilter_msg = strdup(x.reject_msg)))
			goto done;
	}
	if (!c->nalive_nodes) {
		d->outcome = OUT_PENDING;
		/* schedule_one.go ErrNoNodesAvailable */
		d->message = strdup("no nodes available to schedule pods");
		rc = d->message != NULL;
		goto done;
	}
	if (x.rejected) {
		/* another PreFilter rejected the pod: every node has its
		 * status (filter_node_all), no filter ran */
		uint32_t nn = 0;
		for (uint32_t id = 0; id < c->nnodes; id++)
			if (c->nflag[id] & NF_ALIVE)
				filter_node_all(&x, id, init_rec(&d->nodes[nn++], id));
		d->nnodes = nn;
	} else if (x.conflict) {
		/* the PreFilter rejects the pod: no node is evaluated, each
		 * recorded as outside the result, with the later filters'
		 * blockers (a full decision: a lean one returned above) */
		d->prefilter_conflict = true;
		if (!filter_full(&x, wk))
			goto done;
	} else if (!run_filters(&x, wk)) {
		goto done;
	} else {
		apply_nominated(d, wk, spread_ignore_mask(x.ss), nom, nnom);
	}
	if (d->nfeasible) {
		if (!run_scores(&x, wk))
			goto done;
		d->outcome = OUT_SCHEDULED;
		/* schedule_one.go findNodesThatFitPod evaluates the pod's
		 * nominated node first (evaluateNominatedNode) and takes it,
		 * unscored, when it passes; the other nodes are recorded all
		 * the same, as not needed */
		int32_t nom = p->nominated ? cluster_find_node(c, p->nominated) : -1;
		if (nom >= 0 && node_feasible(d, (uint32_t)nom)) {
			d->chosen = nom;
			d->pre.nominated_first = true;
		}
	} else if (d->lean && d->verdicts_only) {
		d->outcome = OUT_PENDING;
	} else if (d->lean) {
		/* the message counts every node's reason */
		rc = 2;
		goto done;
	} else {
		d->outcome = OUT_PENDING;
		if (!(d->message = sched_fit_message(c, d)))
			goto done;
	}
	rc = 1;
done:
	cycle_state_fini(&x);
	return rc;
}

int sched_decide(struct scheduler *sch, uint32_t pod, struct decision *d)
{
	struct nom_fail *nom = NULL;
	uint32_t nnom = 0;
	if (sch->c->nnominated && !nominated_failures(sch, pod, &nom, &nnom))
		return 0;
	int rc = decide(sch, pod, d, nom, nnom);
	if (rc == 2) {
		decision_fini(d); /* clears lean */
		rc = decide(sch, pod, d, nom, nnom);
	}
	free(nom);
	if (rc != 1 || d->outcome != OUT_PENDING || (d->lean && d->verdicts_only))
		return rc;
	/* schedule_one.go schedulingCycle: PostFilter (DefaultPreemption)
	 * when nodes exist but none fits, over the filters' statuses */
	if (d->nnodes && !run_postfilters(sch, pod, d))
		return 0;
	return preempt_event(d);
}

/* framework/types.go FitError.Error: every node's reasons counted (the
 * reasons of NodeResourcesFit each on its own). */
char *sched_fit_message(const struct cluster *c, const struct decision *d)
{
	struct reason_hist h = { 0 };
	char buf[128], *out = NULL;
	if (d->prefilter_conflict) {
		snprintf(buf, sizeof(buf), "0/%u nodes are available: pod affinity terms conflict.",
			 d->nnodes);
		return strdup(buf);
	}
	if (d->prefilter_reject && d->prefilter_msg) {
		/* types.go FitError.Error: the PreFilter's message alone */
		size_t n = strlen(d->prefilter_msg) + 64;
		if (!(out = malloc(n)))
			return NULL;
		snprintf(out, n, "0/%u nodes are available: %s.", d->nnodes, d->prefilter_msg);
		return out;
	}
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		if (r->feasible)
			continue;
		/* nodes a PreFilterResult cut have no status before 1.30 and
		 * from 1.30.2 to 1.31 (#125197; model/version.c) */
		if (r->prefilter_cut && c->cfg.sw.absent == ABSENT_UNCOUNTED)
			continue;
		char *why = decision_reason_dup(c, d, r, r->fail);
		int ok = why && reason_hist_add_status(&h, why, r->fail == PL_NODE_RESOURCES_FIT ||
								   r->fail == PL_VOLUME_BINDING);
		free(why);
		if (!ok)
			goto done;
	}
	out = reason_hist_text(&h, d->nnodes);
done:
	reason_hist_fini(&h);
	return out;
}

