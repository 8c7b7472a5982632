/* probe.c - a PreFilter state that single-node filters reuse while pods
 * move on one node (see probe.h). The node's requests move on a copy;
 * PodTopologySpread's counts move in the state (spread_move) and go back
 * to a mark; a pod InterPodAffinity's required terms can see is moved in
 * the cluster and that plugin's PreFilter made anew. */
#include "probe.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"

struct probe_op {
	uint32_t pod;
	int delta;                /* what was done in the cluster */
	uint32_t pos;             /* -1: the pod's position on the node */
};

struct probe {
	struct scheduler *sch;
	struct cluster *c;        /* sch's */
	uint32_t pod;
	struct decision d;        /* lean: the constraints, no node records */
	/* the PreFilter state: NodeAffinity's PreFilterResult (NULL: all)
	 * or conflict, PodTopologySpread's and InterPodAffinity's states */
	struct cycle_state x;
	bool tracked;             /* spread_track done */
	bool ipa_dirty;           /* the cluster moved under InterPodAffinity */
	int32_t node;             /* the node worked on, -1 none */
	struct node nn;           /* its copy */
	struct ext_res *ext;      /* the copy's own extended requests */
	struct spread_mark mark;
	struct probe_op *ops;
	uint32_t nops, capops;
};

struct probe *probe_new(struct scheduler *sch, uint32_t pod)
{
	struct cluster *c = sch->c;
	const struct pod *p = &c->pods[pod];
	struct probe *pr = calloc(1, sizeof(*pr));
	if (!pr)
		return NULL;
	pr->sch = sch;
	pr->c = c;
	pr->pod = pod;
	pr->node = -1;
	pr->d.lean = true; /* the tables, not the domain records */
	pr->d.pod = pod;
	pr->d.chosen = -1;
	/* PreFilter: the table's, in order */
	pr->x = (struct cycle_state){ .sch = sch, .c = c, .p = p, .d = &pr->d };
	if (!run_prefilters(&pr->x))
		goto oom;
	if (pr->x.conflict) {
		/* probe_filter answers for every node */
		free(pr->x.allowed);
		pr->x.allowed = NULL;
	}
	return pr;
oom:
	probe_free(pr);
	return NULL;
}

void probe_free(struct probe *pr)
{
	if (!pr)
		return;
	probe_done(pr);
	cycle_state_fini(&pr->x);
	free(pr->ops);
	decision_fini(&pr->d);
	free(pr);
}

const struct decision *probe_decision(const struct probe *pr)
{
	return &pr->d;
}

int probe_node(struct probe *pr, uint32_t node)
{
	if (!probe_done(pr))
		return 0;
	const struct node *n = &pr->c->nodes[node];
	pr->node = (int32_t)node;
	pr->nn = *n;
	/* extended requests are read only when the pod asks for some: the
	 * copy then has its own */
	if (pr->c->pods[pr->pod].spec.req.next && n->used.next) {
		if (!(pr->ext = malloc(n->used.next * sizeof(*pr->ext))))
			return 0;
		memcpy(pr->ext, n->used.ext, n->used.next * sizeof(*pr->ext));
	}
	pr->nn.used.ext = pr->ext;
	/* marked at each node; the counts are kept from the first move on
	 * (track), so that a probe that only filters (the cluster
	 * autoscaler's, one node each) does not count every node */
	return spread_mark(pr->x.ss, &pr->mark);
}

/* PodTopologySpread's counts per domain, made once, before the first
 * move: nothing moved since probe_node, so its mark is taken again with
 * the counts' critical paths. 0 on OOM. */
static int track(struct probe *pr)
{
	if (pr->tracked || spread_filter_skipped(pr->x.ss))
		return 1;
	spread_rollback(pr->x.ss, &pr->mark);
	if (!(pr->tracked = spread_track(pr->c, pr->x.ss)))
		return 0;
	return spread_mark(pr->x.ss, &pr->mark);
}

/* Can InterPodAffinity's PreFilter state see q: its required
 * anti-affinity terms may match the pod, the pod's required terms may
 * match it (their selectors, in whichever namespace)? */
static bool ipa_sees(const struct cluster *c, const struct pod *p, const struct pod *q)
{
	const struct affinity *qa = q->spec.has_affinity ? &q->spec.affinity : NULL;
	for (uint32_t i = 0; qa && i < qa->nanti_req; i++)
		if (selector_matches(c->in, &qa->anti_req[i].sel, &p->labels))
			return true;
	const struct affinity *a = p->spec.has_affinity ? &p->spec.affinity : NULL;
	for (uint32_t i = 0; a && i < a->naff_req; i++)
		if (selector_matches(c->in, &a->aff_req[i].sel, &q->labels))
			return true;
	for (uint32_t i = 0; a && i < a->nanti_req; i++)
		if (selector_matches(c->in, &a->anti_req[i].sel, &q->labels))
			return true;
	return false;
}

/* framework/types.go NodeInfo.update on the copy */
static int move_requests(struct probe *pr, const struct resources *r, int delta)
{
	struct node *n = &pr->nn;
	n->used.cpu = delta > 0 ? wrap_add(n->used.cpu, r->cpu) : wrap_sub(n->used.cpu, r->cpu);
	n->used.mem = delta > 0 ? wrap_add(n->used.mem, r->mem) : wrap_sub(n->used.mem, r->mem);
	n->used.eph = delta > 0 ? wrap_add(n->used.eph, r->eph) : wrap_sub(n->used.eph, r->eph);
	n->used.pods += delta;
	n->npods = (uint32_t)((int64_t)n->npods + delta);
	for (uint32_t i = 0; pr->c->pods[pr->pod].spec.req.next && i < r->next; i++) {
		uint32_t j = 0;
		while (j < n->used.next && n->used.ext[j].name != r->ext[i].name)
			j++;
		if (j == n->used.next) {
			struct ext_res *ne = realloc(pr->ext, (j + 1) * sizeof(*ne));
			if (!ne)
				return 0;
			pr->ext = n->used.ext = ne;
			ne[j] = (struct ext_res){ r->ext[i].name, 0 };
			n->used.next++;
		}
		n->used.ext[j].v = delta > 0 ? wrap_add(n->used.ext[j].v, r->ext[i].v)
					     : wrap_sub(n->used.ext[j].v, r->ext[i].v);
	}
	return 1;
}

int probe_move(struct probe *pr, uint32_t q, int delta)
{
	struct cluster *c = pr->c;
	const struct pod *p = &c->pods[pr->pod], *qp = &c->pods[q];
	uint32_t node = (uint32_t)pr->node;
	if (!track(pr) || !move_requests(pr, &qp->spec.req, delta))
		return 0;
	if (!spread_filter_skipped(pr->x.ss) && !spread_move(c, pr->x.ss, node, p, qp, delta))
		return 0;
	/* the node's pods themselves for InterPodAffinity, and for the
	 * plugins that read them: NodePorts (host ports), VolumeRestrictions
	 * and NodeVolumeLimits (volumes) */
	if (!ipa_sees(c, p, qp) && !qp->spec.nports && !qp->spec.nvols)
		return 1;
	if (pr->nops == pr->capops) {
		uint32_t cap = pr->capops ? pr->capops * 2 : 16;
		struct probe_op *no = realloc(pr->ops, cap * sizeof(*no));
		if (!no)
			return 0;
		pr->ops = no;
		pr->capops = cap;
	}
	struct probe_op *op = &pr->ops[pr->nops++];
	*op = (struct probe_op){ q, delta, 0 };
	if (delta < 0) {
		op->pos = cluster_pod_pos(c, q);
		cluster_unbind(c, q);
	} else {
		cluster_bind(c, q, node);
	}
	pr->ipa_dirty = true;
	return 1;
}

int probe_filter(struct probe *pr, struct node_rec *r)
{
	uint32_t node = (uint32_t)pr->node;
	memset(r, 0, offsetof(struct node_rec, raw));
	r->node = node;
	r->fail = PL_NONE;
	if (pr->x.conflict) {
		/* the PreFilter rejects the pod on every node */
		r->fail = PL_NODE_AFFINITY;
		r->unresolvable = true;
		r->blockers = r->blockers_unres = 1u << PL_NODE_AFFINITY;
		return 0;
	}
	if (pr->ipa_dirty) {
		/* InterPodAffinity's PreFilter over the cluster as it now is
		 * (upstream's AddPod / RemovePod of that plugin) */
		ipa_free(pr->x.is);
		if (!(pr->x.is = ipa_prepare(pr->sch, &pr->c->pods[pr->pod])))
			return -1;
		pr->ipa_dirty = false;
	}
	struct cycle_state x = pr->x;
	x.over = &pr->nn;
	x.over_id = node;
	r->feasible = filter_node_all(&x, node, r);
	return r->feasible;
}

int probe_filter_nominated(struct probe *pr, struct node_rec *r)
{
	struct cluster *c = pr->c;
	const struct pod *p = &c->pods[pr->pod];
	sym_t name = c->nodes[pr->node].name;
	uint32_t *added = NULL, n = 0, nops = pr->nops;
	struct spread_mark m;
	int rc = -1;
	for (uint32_t i = 0; i < c->nnominated; i++) {
		uint32_t k = c->nominated[i];
		if (k == pr->pod || cluster_pending_nomination(c, k) != name ||
		    c->pods[k].spec.priority < p->spec.priority)
			continue;
		/* framework.go addGENominatedPods, on a Clone of the state */
		if (!added && (!(added = malloc(c->nnominated * sizeof(*added))) || !track(pr) ||
			       !spread_mark(pr->x.ss, &m))) {
			free(added);
			return -1;
		}
		added[n++] = c->nominated[i];
		if (!probe_move(pr, c->nominated[i], 1))
			goto undo;
	}
	rc = probe_filter(pr, r);
undo:
	if (added) {
		/* back to the state without them: pass 1 must pass too */
		spread_rollback(pr->x.ss, &m);
		for (uint32_t k = n; k-- > 0;)
			if (!move_requests(pr, &c->pods[added[k]].spec.req, -1))
				rc = -1;
		for (uint32_t k = pr->nops; k-- > nops;)
			cluster_unbind(c, pr->ops[k].pod); /* bound for the pass: pending pods */
		if (pr->nops > nops)
			pr->ipa_dirty = true;
		pr->nops = nops;
		if (rc == 1)
			rc = probe_filter(pr, r);
		free(added);
	}
	return rc;
}

int probe_done(struct probe *pr)
{
	if (pr->node < 0)
		return 1;
	struct cluster *c = pr->c;
	/* the cluster back, last move first */
	for (uint32_t k = pr->nops; k-- > 0;) {
		const struct probe_op *op = &pr->ops[k];
		if (op->delta < 0)
			cluster_bind_at(c, op->pod, (uint32_t)pr->node, op->pos);
		else
			cluster_unbind(c, op->pod);
	}
	if (pr->nops)
		pr->ipa_dirty = true;
	pr->nops = 0;
	spread_rollback(pr->x.ss, &pr->mark);
	free(pr->ext);
	pr->ext = NULL;
	pr->node = -1;
	return 1;
}
