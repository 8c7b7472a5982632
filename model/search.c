/* search.c - the depth-first search of search.h over the timeline.
 *
 * A state is the position in the step list and the live cluster. Moving
 * through runs uses the timeline only: timeline_step applies a step, and
 * given a decision it runs a fresh cycle for a step applied before (the
 * same pod id), honouring the step's `choose`, which the search sets to
 * the node of the branch; timeline_prev undoes. Orders move a step within
 * a group of consecutive schedule steps with timeline_remove/insert.
 *
 * States equal up to interchangeable nodes are merged: each node hashes
 * its labels (without its own kubernetes.io/hostname label), taints,
 * cordon and allocatable (and its name when a step names it), combined
 * with the multiset of its bound pods; the state hashes the multiset of
 * its nodes and the position, in 128 bits. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
	/* splitmix64's finaliser */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t mix2(uint64_t a, uint64_t b)
{
	return mix(a ^ mix(b + 0x632be59bd9b4e019ull));
}

struct seen {
	uint64_t *k;              /* pairs; k[2i] == 0: empty */
	uint64_t cap, n;
};

struct sx {
	struct timeline *t;
	struct cluster *c;
	const struct search_opts *o;
	struct search_result *r;
	struct seen seen;
	bool *pinned;             /* node id -> a step names it */
	uint32_t npinned;
	bool pin_all;
	bool pin_pods;            /* a step names pods: pods keep their names */
	int32_t *path;            /* node chosen at each position, -1 */
	uint32_t npath;
	bool oom, stop;
};

/* 1: new, 0: seen, -1: OOM */
static int seen_add(struct seen *s, uint64_t a, uint64_t b)
{
	if (!a)
		a = 1;
	if ((s->n + 1) * 2 > s->cap) {
		uint64_t ncap = s->cap ? s->cap * 2 : 1024;
		uint64_t *nk = calloc(ncap * 2, sizeof(*nk));
		if (!nk)
			return -1;
		for (uint64_t i = 0; i < s->cap; i++) {
			if (!s->k[2 * i])
				continue;
			uint64_t h = s->k[2 * i] & (ncap - 1);
			while (nk[2 * h])
				h = (h + 1) & (ncap - 1);
			nk[2 * h] = s->k[2 * i];
			nk[2 * h + 1] = s->k[2 * i + 1];
		}
		free(s->k);
		s->k = nk;
		s->cap = ncap;
	}
	uint64_t h = a & (s->cap - 1);
	while (s->k[2 * h]) {
		if (s->k[2 * h] == a && s->k[2 * h + 1] == b)
			return 0;
		h = (h + 1) & (s->cap - 1);
	}
	s->k[2 * h] = a;
	s->k[2 * h + 1] = b;
	s->n++;
	return 1;
}

/* A bound pod as later cycles see it: its namespace, labels, requests,
 * priority, terminating flag and the cluster's classes of its affinity
 * terms; its name only when a step names pods (delete, retry). Pods of a
 * workload are then interchangeable. */
static uint64_t pod_hash(const struct sx *x, const struct pod *p)
{
	uint64_t h = mix2(0x7073, p->ns);
	if (x->pin_pods)
		h = mix2(h, (uint64_t)p->name + 0x2000);
	for (uint32_t k = 0; k < p->labels.n; k++)
		h = mix2(h, ((uint64_t)p->labels.v[k].key << 32) ^ p->labels.v[k].val);
	const struct resources *r = &p->spec.req;
	h = mix2(h, (uint64_t)r->cpu);
	h = mix2(h, (uint64_t)r->mem);
	h = mix2(h, (uint64_t)r->eph);
	h = mix2(h, (uint64_t)p->spec.nz_cpu);
	h = mix2(h, (uint64_t)p->spec.nz_mem);
	for (uint32_t k = 0; k < r->next; k++)
		h = mix2(h, ((uint64_t)r->ext[k].name << 32) ^ (uint64_t)r->ext[k].v);
	h = mix2(h, (uint64_t)(uint32_t)p->spec.priority);
	h = mix2(h, (uint64_t)p->terminating);
	for (uint32_t k = 0; k < p->nterm_classes; k++)
		h = mix2(h, (uint64_t)p->term_classes[k] + 0x3000);
	return h;
}

/* node id's hash in the state: its shape (labels without its own
 * hostname label, taints, cordon, allocatable, its name when pinned) and
 * the multiset of its bound pods, two independent 64-bit halves */
static void node_hash(const struct sx *x, uint32_t id, uint64_t *ha, uint64_t *hb)
{
	const struct cluster *c = x->c;
	const struct node *n = &c->nodes[id];
	uint64_t s = 0x51ed27;
	for (uint32_t k = 0; k < n->labels.n; k++) {
		const struct label *l = &n->labels.v[k];
		if (l->key == c->sym_hostname && l->val == n->name)
			continue;
		s = mix2(s, ((uint64_t)l->key << 32) ^ l->val);
	}
	for (uint32_t k = 0; k < n->ntaints; k++)
		s = mix2(s, ((uint64_t)n->taints[k].key << 32) ^ ((uint64_t)n->taints[k].value << 4) ^
				    (uint64_t)n->taints[k].effect);
	s = mix2(s, (uint64_t)n->unschedulable);
	s = mix2(s, (uint64_t)n->alloc.cpu);
	s = mix2(s, (uint64_t)n->alloc.mem);
	s = mix2(s, (uint64_t)n->alloc.pods);
	s = mix2(s, (uint64_t)n->alloc.eph);
	for (uint32_t k = 0; k < n->alloc.next; k++)
		s = mix2(s, ((uint64_t)n->alloc.ext[k].name << 32) ^ (uint64_t)n->alloc.ext[k].v);
	if (x->pin_all || (id < x->npinned && x->pinned[id]))
		s = mix2(s, (uint64_t)n->name + 0x1000);
	/* the multiset of its pods: a sum of their hashes */
	uint64_t pa = 0, pb = 0;
	for (uint32_t k = 0; k < n->npods; k++) {
		uint64_t ph = pod_hash(x, &c->pods[n->pods[k]]);
		pa += mix(ph);
		pb += mix2(ph, 3);
	}
	*ha = mix2(s, pa);
	*hb = mix2(mix(s), pb);
}

/* the canonical hash of the state at the timeline's position: the
 * position and the multiset of the live nodes' hashes */
static void state_hash(const struct sx *x, uint64_t *ha, uint64_t *hb)
{
	const struct cluster *c = x->c;
	uint64_t a = mix(x->t->cur), b = mix2(x->t->cur, 77);
	for (uint32_t id = 0; id < c->nnodes; id++) {
		if (!c->nodes[id].alive)
			continue;
		uint64_t na, nb;
		node_hash(x, id, &na, &nb);
		a += mix(na);
		b += mix2(nb, 5);
	}
	*ha = a;
	*hb = b;
}

static int witness(struct sx *x, uint32_t i, const struct decision *d)
{
	struct search_result *r = x->r;
	struct cluster *c = x->c;
	r->stuck = true;
	r->nwitness = i + 1;
	if (!(r->witness = calloc(i + 1, sizeof(*r->witness))))
		return 0;
	for (uint32_t k = 0; k <= i; k++) {
		if (!step_copy(&r->witness[k], &x->t->sc->steps[k]))
			return 0;
		struct step *s = &r->witness[k];
		expect_fini(&s->expect);
		s->has_expect = false;
		s->choose = k < i && x->path[k] >= 0 ? c->nodes[x->path[k]].name : SYM_NONE;
		s->replica = s->nreplicas = 0;
	}
	const struct pod *p = &c->pods[d->pod];
	r->pod_ns = p->ns;
	r->pod_name = p->name;
	if (d->message && !(r->message = strdup(d->message)))
		return 0;
	return 1;
}

static int dfs(struct sx *x);

static void report(struct sx *x)
{
	x->r->depth = x->t->cur;
	if (x->o->progress && !(x->r->states & 4095))
		x->o->progress(x->o->arg, x->r);
}

/* Applies step cur (already decided: d filled), recurses, undoes. */
static int descend(struct sx *x, int32_t node)
{
	x->path[x->npath++] = node;
	int rc = dfs(x);
	x->npath--;
	timeline_prev(x->t);
	return rc;
}

/* The placements of step i (at the position cur): the scheduler's own
 * first, then every other tied or feasible node with choose. 1: witness
 * found, 0: go on, -1: stop (OOM, bound, interrupted). */
static int branch(struct sx *x)
{
	struct timeline *t = x->t;
	struct cluster *c = x->c;
	uint32_t i = t->cur;
	struct step *s = &t->sc->steps[i];
	struct decision d;
	s->choose = SYM_NONE;
	x->r->cycles++;
	if (!timeline_step_verdicts(t, &d)) {
		x->oom = true;
		return -1;
	}
	if (d.outcome == OUT_PENDING) {
		int ok = witness(x, i, &d);
		decision_fini(&d);
		timeline_prev(t);
		if (!ok)
			x->oom = true;
		return ok ? 1 : -1;
	}
	if (d.outcome != OUT_SCHEDULED || d.chosen < 0) {
		/* invalid or an error: the step changes nothing */
		decision_fini(&d);
		return descend(x, -1);
	}
	/* the other choices, before the cluster moves on */
	uint32_t n = 0;
	int32_t *alt = NULL;
	if (x->o->choices == SEARCH_TIES) {
		alt = malloc((d.ntied + 1) * sizeof(*alt));
		for (uint32_t k = 0; alt && k < d.ntied; k++)
			if ((int32_t)d.tied[k] != d.chosen)
				alt[n++] = (int32_t)d.tied[k];
	} else {
		alt = malloc((c->nnodes + 1) * sizeof(*alt));
		for (uint32_t id = 0; alt && id < c->nnodes; id++) {
			bool ok = d.lean ? d.verdict && d.verdict[id] == PL_NONE
					 : decision_node(&d, id) && decision_node(&d, id)->feasible;
			if (ok && (int32_t)id != d.chosen)
				alt[n++] = (int32_t)id;
		}
	}
	int32_t chosen = d.chosen;
	decision_fini(&d);
	if (!alt) {
		timeline_prev(t);
		x->oom = true;
		return -1;
	}
	int rc = descend(x, chosen);
	/* a node interchangeable with one already taken leads to the same
	 * state up to renaming: one cycle is enough for each class */
	uint64_t *sig = rc == 0 ? malloc((n + 1) * 2 * sizeof(*sig)) : NULL;
	uint32_t nsig = 0;
	if (sig)
		node_hash(x, (uint32_t)chosen, &sig[0], &sig[1]), nsig = 1;
	for (uint32_t k = 0; k < n && rc == 0; k++) {
		if (sig) {
			uint64_t a, b;
			bool dup = false;
			node_hash(x, (uint32_t)alt[k], &a, &b);
			for (uint32_t m = 0; m < nsig && !dup; m++)
				dup = sig[2 * m] == a && sig[2 * m + 1] == b;
			if (dup)
				continue;
			sig[2 * nsig] = a;
			sig[2 * nsig + 1] = b;
			nsig++;
		}
		s = &t->sc->steps[i];
		s->choose = c->nodes[alt[k]].name;
		x->r->cycles++;
		if (!timeline_step_verdicts(t, &d)) {
			x->oom = true;
			rc = -1;
			break;
		}
		bool placed = d.outcome == OUT_SCHEDULED && d.chosen == alt[k];
		decision_fini(&d);
		if (!placed) {
			timeline_prev(t);
			continue;
		}
		rc = descend(x, alt[k]);
	}
	t->sc->steps[i].choose = SYM_NONE;
	free(sig);
	free(alt);
	return rc;
}

static int dfs(struct sx *x)
{
	struct timeline *t = x->t;
	uint32_t i = t->cur;
	if (i > x->r->max_depth)
		x->r->max_depth = i;
	if (i >= timeline_len(t))
		return 0;
	if (x->o->stop && *x->o->stop) {
		x->r->interrupted = true;
		x->r->depth = i;
		return -1;
	}
	uint64_t ha, hb;
	state_hash(x, &ha, &hb);
	int fresh = seen_add(&x->seen, ha, hb);
	if (fresh < 0) {
		x->oom = true;
		return -1;
	}
	if (!fresh)
		return 0;
	if (x->r->states >= x->o->max_states) {
		x->r->depth = i;
		return -1; /* the bound: not complete */
	}
	x->r->states++;
	report(x);
	const struct step *s = &t->sc->steps[i];
	if (s->kind != STEP_SCHEDULE && s->kind != STEP_RETRY) {
		struct decision d;
		if (!timeline_step(t, &d)) {
			x->oom = true;
			return -1;
		}
		decision_fini(&d);
		return descend(x, -1);
	}
	if (!x->o->orders || s->kind != STEP_SCHEDULE)
		return branch(x);
	/* any step of the group of consecutive schedule steps goes next */
	uint32_t end = i;
	while (end < timeline_len(t) && t->sc->steps[end].kind == STEP_SCHEDULE)
		end++;
	int rc = 0;
	for (uint32_t j = i; j < end && rc == 0; j++) {
		struct step tmp;
		if (j > i) {
			timeline_remove(t, j, &tmp);
			if (!timeline_insert(t, i, &tmp)) {
				/* put back where it was */
				step_fini(&tmp);
				x->oom = true;
				return -1;
			}
		}
		rc = branch(x);
		if (j > i) {
			timeline_remove(t, i, &tmp);
			if (!timeline_insert(t, j, &tmp)) {
				step_fini(&tmp);
				x->oom = true;
				return -1;
			}
		}
	}
	return rc;
}

int search_run(struct timeline *t, const struct search_opts *o, struct search_result *r)
{
	memset(r, 0, sizeof(*r));
	struct sx x;
	memset(&x, 0, sizeof(x));
	x.t = t;
	x.c = t->c;
	x.o = o;
	x.r = r;
	if (!timeline_goto(t, 0))
		return 0;
	uint32_t n = timeline_len(t);
	sym_t *chooses = calloc(n + 1, sizeof(*chooses));
	x.path = calloc(n + 1, sizeof(*x.path));
	x.pinned = calloc(x.c->nnodes + 1, sizeof(*x.pinned));
	x.npinned = x.c->nnodes;
	if (!chooses || !x.path || !x.pinned) {
		free(chooses);
		free(x.path);
		free(x.pinned);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct step *s = &t->sc->steps[i];
		chooses[i] = s->choose;
		s->choose = SYM_NONE;
		int32_t id = s->node ? cluster_find_node(x.c, s->node) : -1;
		if (id >= 0)
			x.pinned[id] = true;
		/* a step that names nodes in other ways: no node is
		 * interchangeable */
		if (s->kind == STEP_ADD_NODE || (s->kind == STEP_SCHEDULE && s->pod.spec.node_name))
			x.pin_all = true;
		if (s->kind == STEP_DELETE || s->kind == STEP_RETRY)
			x.pin_pods = true;
		if (s->kind == STEP_SCHEDULE && s->pod.spec.has_affinity)
			for (uint32_t k = 0; k < s->pod.spec.affinity.node.nreq; k++)
				if (s->pod.spec.affinity.node.req[k].nfields)
					x.pin_all = true;
	}
	int rc = dfs(&x);
	/* a witness ends the search as surely as exhausting it */
	if ((rc == 0 || r->stuck) && !x.oom)
		r->complete = true;
	timeline_goto(t, 0);
	for (uint32_t i = 0; i < n; i++)
		t->sc->steps[i].choose = chooses[i];
	free(chooses);
	free(x.path);
	free(x.pinned);
	free(x.seen.k);
	return !x.oom;
}

void search_result_fini(struct search_result *r)
{
	for (uint32_t k = 0; k < r->nwitness; k++)
		step_fini(&r->witness[k]);
	free(r->witness);
	free(r->message);
	memset(r, 0, sizeof(*r));
}
