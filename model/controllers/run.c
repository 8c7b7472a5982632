/* run.c - a controller step's run: each pod created (and scheduled) or
 * deleted is a sub-step, recorded for explain, undo and redo. */
#include "ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate.h"

struct ctl_run *ctl_run_of(struct step_ctx *x)
{
	return step_rec(x, sizeof(struct ctl_run));
}

uint32_t ctl_flat_index(const struct timeline *t, uint32_t i)
{
	uint32_t n = i + 1;
	for (uint32_t j = 0; j < i; j++)
		n += t->res[j].nsub;
	return n;
}

static int snapshot(const struct cluster *c, struct ctl_wl_state **v, uint32_t *n)
{
	free(*v);
	*v = NULL;
	*n = c->nworkloads;
	if (!c->nworkloads)
		return 1;
	if (!(*v = malloc(c->nworkloads * sizeof(**v))))
		return 0;
	for (uint32_t i = 0; i < c->nworkloads; i++)
		(*v)[i] = (struct ctl_wl_state){c->workloads[i].replicas, c->workloads[i].made};
	return 1;
}

static void restore(struct cluster *c, const struct ctl_wl_state *v, uint32_t n)
{
	for (uint32_t i = 0; i < n && i < c->nworkloads; i++) {
		c->workloads[i].replicas = v[i].replicas;
		c->workloads[i].made = v[i].made;
	}
}

static void sub_fini(struct ctl_sub *s)
{
	free(s->r.message);
	free(s->u.victims);
	free(s->u.cleared);
	free(s->u.rec);
}

void ctl_forget(struct step_undo *u)
{
	struct ctl_run *k = u->rec;
	if (!k)
		return;
	for (uint32_t i = 0; i < k->nsubs; i++)
		sub_fini(&k->subs[i]);
	free(k->subs);
	free(k->before);
	free(k->after);
	for (uint32_t i = 0; i < k->nadded; i++)
		workload_fini(&k->added[i]);
	free(k->added);
	if (k->tpl_other) {
		pod_fini(k->tpl_other);
		free(k->tpl_other);
	}
	free(k->summary);
	free(k->dom_sel);
	free(k->dom_vals);
	free(k->dom_before);
	free(k->deltas);
	memset(k, 0, sizeof(*k));
}

int ctl_begin(struct step_ctx *x, struct ctl_run *k)
{
	ctl_forget(x->u);
	k->tpl_wl = -1;
	x->r->nsub = 0;
	return snapshot(x->c, &k->before, &k->nbefore);
}

int ctl_end(struct step_ctx *x, struct ctl_run *k)
{
	if (!snapshot(x->c, &k->after, &k->nafter))
		return 0;
	k->recorded = true;
	x->r->nsub = k->nsubs;
	x->u->applied = true;
	if (x->d)
		x->d->outcome = OUT_APPLIED;
	return timeline_set_result(x->r, OUT_APPLIED, -1, NULL);
}

static struct ctl_sub *push(struct ctl_run *k)
{
	if (k->nsubs == k->cap) {
		uint32_t cap = k->cap ? k->cap * 2 : 8;
		struct ctl_sub *v = realloc(k->subs, cap * sizeof(*v));
		if (!v)
			return NULL;
		k->subs = v;
		k->cap = cap;
	}
	struct ctl_sub *s = &k->subs[k->nsubs++];
	memset(s, 0, sizeof(*s));
	s->node = -1;
	s->workload = -1;
	s->u.pod = s->u.node = -1;
	s->r.node = -1;
	return s;
}

int ctl_delete(struct step_ctx *x, struct ctl_run *k, uint32_t pod, int32_t workload, bool evicted)
{
	struct cluster *c = x->c;
	struct ctl_sub *s = push(k);
	if (!s)
		return 0;
	s->kind = CTL_DELETE;
	s->evicted = evicted;
	s->pod = pod;
	s->workload = workload;
	s->node = c->pods[pod].node;
	if (s->node >= 0) {
		s->pos = cluster_pod_pos(c, pod);
		cluster_unbind(c, pod);
	}
	cluster_kill_pod(c, pod);
	return 1;
}

static struct step_ctx sub_ctx(struct step_ctx *x, struct ctl_sub *s)
{
	return (struct step_ctx){x->t, x->c, x->i, x->s, &s->r, &s->u, NULL};
}

int64_t ctl_create(struct step_ctx *x, struct ctl_run *k, struct pod *p, int32_t workload)
{
	struct cluster *c = x->c;
	struct ctl_sub *s = push(k);
	char uid[64];
	if (!s) {
		pod_fini(p);
		return -2;
	}
	s->kind = CTL_CREATE;
	s->workload = workload;
	/* contract: UID from the sub-step's index, created and Ready at
	 * now plus that index in seconds */
	uint32_t idx = ctl_flat_index(x->t, x->i) + k->nsubs;
	snprintf(uid, sizeof(uid), "00000000-0000-4000-8000-%012u", idx);
	p->life.uid = intern_str(c->in, uid);
	p->created = c->now + idx;
	p->life.ready_since = c->now + idx;
	p->life.phase = PHASE_RUNNING;
	p->life.ready = 1;
	if (!p->life.uid || !admit_pod(c, p)) {
		pod_fini(p);
		return -2;
	}
	char *err = timeline_admit(c, p);
	if (!err)
		err = validate_pod(c, p);
	if (err || cluster_find_pod(c, p->ns, p->name) >= 0) {
		char buf[300];
		if (!err) {
			snprintf(buf, sizeof(buf), "pod %s/%s already exists", intern_get(c->in, p->ns),
				 intern_get(c->in, p->name));
			err = strdup(buf);
		}
		s->pod = UINT32_MAX;
		int ok = err && timeline_set_result(&s->r, err ? OUT_INVALID : OUT_ERROR, -1, err);
		free(err);
		pod_fini(p);
		return ok ? -1 : -2;
	}
	int32_t id = cluster_add_pod(c, p);
	if (id < 0) {
		pod_fini(p);
		return -2;
	}
	s->pod = (uint32_t)id;
	s->u.pod = id;
	struct decision d;
	memset(&d, 0, sizeof(d));
	d.lean = true;
	d.chosen = -1;
	struct step_ctx y = sub_ctx(x, s);
	int rc = timeline_cycle(&y, (uint32_t)id, &d);
	decision_fini(&d);
	if (rc == 0)
		return -2;
	s->node = s->r.node;
	/* Ready once it runs; a pod left pending is not */
	if (s->node < 0) {
		c->pods[id].life.phase = PHASE_PENDING;
		c->pods[id].life.ready = 0;
		c->pods[id].life.ready_since = INT64_MAX;
	}
	return id;
}

void ctl_replay(struct step_ctx *x, struct ctl_run *k)
{
	struct cluster *c = x->c;
	for (uint32_t i = 0; i < k->nsubs; i++) {
		struct ctl_sub *s = &k->subs[i];
		if (s->pod == UINT32_MAX)
			continue;
		if (s->kind == CTL_CREATE) {
			cluster_revive_pod(c, s->pod);
			if (s->node >= 0)
				cluster_bind(c, s->pod, (uint32_t)s->node);
			struct step_ctx y = sub_ctx(x, s);
			timeline_preemption_redo(&y, s->pod);
		} else {
			if (c->pods[s->pod].node >= 0)
				cluster_unbind(c, s->pod);
			cluster_kill_pod(c, s->pod);
		}
	}
	for (uint32_t i = 0; i < k->nadded; i++) {
		if (!cluster_add_workload(c, &k->added[i]))
			break; /* out of memory: the set stays out */
	}
	k->nadded = 0;
	free(k->added);
	k->added = NULL;
	restore(c, k->after, k->nafter);
	if (k->tpl_wl >= 0) {
		struct pod *t = c->workloads[k->tpl_wl].tpl;
		c->workloads[k->tpl_wl].tpl = k->tpl_other;
		k->tpl_other = t;
	}
	x->r->nsub = k->nsubs;
	x->u->applied = true;
	if (x->d)
		x->d->outcome = OUT_APPLIED;
}

void ctl_undo(struct step_ctx *x)
{
	struct cluster *c = x->c;
	struct ctl_run *k = x->u->rec;
	if (!k || !k->recorded || !x->u->applied)
		return;
	if (k->tpl_wl >= 0) {
		struct pod *t = c->workloads[k->tpl_wl].tpl;
		c->workloads[k->tpl_wl].tpl = k->tpl_other;
		k->tpl_other = t;
	}
	/* the workloads the run added go back into the record */
	if (c->nworkloads > k->nbefore) {
		uint32_t n = c->nworkloads - k->nbefore;
		struct workload *v = malloc(n * sizeof(*v));
		if (v) {
			memcpy(v, c->workloads + k->nbefore, n * sizeof(*v));
			c->nworkloads = k->nbefore;
			k->added = v;
			k->nadded = n;
		}
	}
	restore(c, k->before, k->nbefore);
	for (uint32_t i = k->nsubs; i-- > 0;) {
		struct ctl_sub *s = &k->subs[i];
		if (s->pod == UINT32_MAX)
			continue;
		if (s->kind == CTL_CREATE) {
			if (c->pods[s->pod].node >= 0)
				cluster_unbind(c, s->pod);
			struct step_ctx y = sub_ctx(x, s);
			timeline_preemption_undo(&y, s->pod);
			cluster_kill_pod(c, s->pod);
		} else {
			cluster_revive_pod(c, s->pod);
			if (s->node >= 0)
				cluster_bind_at(c, s->pod, (uint32_t)s->node, s->pos);
		}
	}
}

/* The domains of tpl's first constraint (the live nodes' values of its
 * key, in node order) and the count of ns's live bound pods its selector
 * (with matchLabelKeys' values from tpl) matches in each. 1 done, 0 on
 * OOM or no constraint (nothing allocated then). */
struct doms {
	sym_t key;
	struct selector sel;
	uint32_t n;
	sym_t *vals;
	int64_t *cnt;
	uint32_t *of_node;      /* node -> domain, UINT32_MAX none */
};

static void doms_fini(struct doms *d)
{
	selector_fini(&d->sel);
	free(d->vals);
	free(d->cnt);
	free(d->of_node);
	memset(d, 0, sizeof(*d));
}

static int doms_count(struct cluster *c, sym_t ns, const struct pod *tpl, struct doms *d)
{
	const struct tsc *t = NULL;
	memset(d, 0, sizeof(*d));
	for (uint32_t i = 0; tpl && i < tpl->spec.ntscs && !t; i++)
		t = &tpl->spec.tscs[i];
	if (!t)
		return 0;
	d->key = t->topology_key;
	if (!selector_compile(c->in, &t->selector, &d->sel, NULL, 0)) {
		doms_fini(d);
		return 0;
	}
	/* matchLabelKeys: the template's own values */
	for (uint32_t i = 0; i < t->nmatch_label_keys; i++) {
		sym_t v = labels_get(&tpl->labels, t->match_label_keys[i]);
		struct labels one = {0};
		struct selector add;
		if (!v)
			continue;
		if (labels_set(&one, t->match_label_keys[i], v) && selector_from_set(c->in, &one, &add)) {
			selector_and(c->in, &d->sel, &add);
			selector_fini(&add);
		}
		labels_fini(&one);
	}
	d->vals = malloc(((size_t)c->nnodes + 1) * sizeof(*d->vals));
	d->cnt = calloc((size_t)c->nnodes + 1, sizeof(*d->cnt));
	d->of_node = malloc(((size_t)c->nnodes + 1) * sizeof(*d->of_node));
	if (!d->vals || !d->cnt || !d->of_node) {
		doms_fini(d);
		return 0;
	}
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		sym_t v = n->alive ? labels_get(&n->labels, d->key) : SYM_NONE;
		d->of_node[i] = UINT32_MAX;
		if (!v)
			continue;
		uint32_t j;
		for (j = 0; j < d->n && d->vals[j] != v; j++)
			;
		if (j == d->n)
			d->vals[d->n++] = v;
		d->of_node[i] = j;
		for (uint32_t q = 0; q < n->npods; q++) {
			const struct pod *p = &c->pods[n->pods[q]];
			if (p->alive && p->ns == ns && selector_matches(c->in, &d->sel, &p->labels))
				d->cnt[j]++;
		}
	}
	return 1;
}

static int64_t doms_skew(const int64_t *cnt, uint32_t n)
{
	if (!n)
		return -1;
	int64_t mn = INT64_MAX, mx = 0;
	for (uint32_t j = 0; j < n; j++) {
		mn = cnt[j] < mn ? cnt[j] : mn;
		mx = cnt[j] > mx ? cnt[j] : mx;
	}
	return mx - mn;
}

int64_t ctl_skew(struct cluster *c, sym_t ns, const struct pod *tpl, sym_t *key)
{
	struct doms d;
	if (!doms_count(c, ns, tpl, &d))
		return -1;
	*key = d.key;
	int64_t skew = doms_skew(d.cnt, d.n);
	doms_fini(&d);
	return skew;
}

/* The domain of pod id on node (-1: none) when the table counts it,
 * else UINT32_MAX. */
static uint32_t counted_in(const struct cluster *c, const struct doms *d, sym_t ns, uint32_t id, int64_t node)
{
	const struct pod *p = &c->pods[id];
	if (node < 0 || (uint64_t)node >= c->nnodes || p->ns != ns ||
	    !selector_matches(c->in, &d->sel, &p->labels))
		return UINT32_MAX;
	return d->of_node[node];
}

static int add_delta(struct ctl_run *k, uint32_t *cap, uint32_t dom, int32_t by)
{
	if (dom == UINT32_MAX)
		return 1;
	if (k->ndeltas == *cap) {
		uint32_t n = *cap ? *cap * 2 : 16;
		struct ctl_dom_delta *v = realloc(k->deltas, n * sizeof(*v));
		if (!v)
			return 0;
		k->deltas = v;
		*cap = n;
	}
	k->deltas[k->ndeltas++] = (struct ctl_dom_delta){dom, by};
	return 1;
}

/* The domain table of the run (the view's list of sub-steps): the
 * domains, the counts before, each sub-step's changes, from the counts
 * after (now) and the sub-steps walked back. 1, 0 on OOM. */
static int dom_table(struct cluster *c, struct ctl_run *k, sym_t ns, const struct pod *tpl)
{
	struct doms d;
	uint32_t cap = 0;
	if (!doms_count(c, ns, tpl, &d))
		return 1; /* no table (or OOM: the view says there is none) */
	int ok = 1;
	for (uint32_t i = 0; i < k->nsubs && ok; i++) {
		struct ctl_sub *s = &k->subs[i];
		s->d0 = k->ndeltas;
		if (s->pod != UINT32_MAX)
			ok = add_delta(k, &cap, counted_in(c, &d, ns, s->pod, s->node),
				       s->kind == CTL_DELETE ? -1 : 1);
		/* the victims a created pod's preemption deleted */
		for (uint32_t v = 0; ok && v < s->u.nvictims; v++)
			ok = add_delta(k, &cap, counted_in(c, &d, ns, s->u.victims[v].pod, s->u.victims[v].node),
				       -1);
		s->nd = k->ndeltas - s->d0;
	}
	if (ok) {
		for (uint32_t i = 0; i < k->ndeltas; i++)
			d.cnt[k->deltas[i].dom] -= k->deltas[i].by;
		char *sel = selector_string(c->in, &d.sel);
		if (!sel) {
			ok = 0;
		} else {
			k->dom_key = d.key;
			k->dom_ns = ns;
			k->dom_sel = sel;
			k->ndoms = d.n;
			k->dom_vals = d.vals;
			k->dom_before = d.cnt;
			d.vals = NULL;
			d.cnt = NULL;
		}
	}
	doms_fini(&d);
	return ok;
}

void ctl_dom_apply(const struct ctl_run *k, uint32_t sub, int64_t *cnt)
{
	const struct ctl_sub *s = &k->subs[sub];
	for (uint32_t i = 0; i < s->nd; i++)
		cnt[k->deltas[s->d0 + i].dom] += k->deltas[s->d0 + i].by;
}

int64_t ctl_dom_skew(const struct ctl_run *k, const int64_t *cnt)
{
	return doms_skew(cnt, k->ndoms);
}

int ctl_summarize(struct cluster *c, struct ctl_run *k, const char *what, const char *after_what, sym_t ns,
		  const struct pod *tpl, int64_t skew_before)
{
	uint32_t nd = 0, nc = 0;
	for (uint32_t i = 0; i < k->nsubs; i++) {
		if (k->subs[i].kind == CTL_DELETE)
			nd++;
		else if (k->subs[i].pod != UINT32_MAX)
			nc++;
	}
	char buf[600];
	int n = snprintf(buf, sizeof(buf), "%s: %u deleted, %u created", what, nd, nc);
	sym_t key = SYM_NONE;
	int64_t after = skew_before >= 0 ? ctl_skew(c, ns, tpl, &key) : -1;
	if (after >= 0 && n > 0 && (size_t)n < sizeof(buf)) {
		const char *kt = intern_get(c->in, key), *sl = strrchr(kt, '/');
		snprintf(buf + n, sizeof(buf) - (size_t)n, "; %s skew %lld -> %lld after %s", sl ? sl + 1 : kt,
			 (long long)skew_before, (long long)after, after_what);
	}
	if (k->unreplaced && strlen(buf) + 64 < sizeof(buf))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "; %u evicted without a replacement (no owner with a template)", k->unreplaced);
	free(k->summary);
	return (k->summary = strdup(buf)) != NULL && dom_table(c, k, ns, tpl);
}
