/* nodeaffinity.c - NodeAffinity: nodeSelector, required terms (Filter and
 * the PreFilter node-name narrowing) and preferred terms (Score). */
#include "../plugins.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strconv.ParseInt(s, 10, 64): optional sign, decimal digits only, no
 * overflow. Returns 1 and *out on success. */
static int parse_int64(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (len && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len)
		return 0;
	uint64_t v = 0;
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return 1;
}

/* apimachinery labels Requirement.Matches for Gt / Lt */
static bool gt_lt_matches(const struct cluster *c, const struct sel_req *r, const struct labels *l)
{
	sym_t v = labels_get(l, r->key);
	int64_t lv, rv;
	if (v == SYM_NONE || r->nvals != 1)
		return false;
	if (!parse_int64(intern_get(c->in, v), intern_len(c->in, v), &lv))
		return false;
	if (!parse_int64(intern_get(c->in, r->vals[0]), intern_len(c->in, r->vals[0]), &rv))
		return false;
	return r->op == SEL_GT ? lv > rv : lv < rv;
}

static bool expr_matches(const struct cluster *c, const struct sel_req *r, const struct labels *l)
{
	if (r->op == SEL_GT || r->op == SEL_LT)
		return gt_lt_matches(c, r, l);
	return sel_req_matches(c->in, r, l);
}

/* component-helpers nodeaffinity nodeSelectorRequirementsAsFieldSelector:
 * In / NotIn with exactly one value, against {metadata.name: node name}. */
static bool field_matches(const struct cluster *c, const struct sel_req *r, const struct node *n)
{
	if ((r->op != SEL_IN && r->op != SEL_NOTIN) || r->nvals != 1)
		return false;
	sym_t name_key = intern_find(c->in, "metadata.name", strlen("metadata.name"));
	/* fields.Set.Get of an unknown field is "" */
	sym_t val = (name_key != SYM_NONE && r->key == name_key) ? n->name : c->sym_empty;
	bool eq = r->vals[0] == val;
	return r->op == SEL_IN ? eq : !eq;
}

/* component-helpers nodeaffinity nodeSelectorTerm.match */
bool ns_term_matches(const struct cluster *c, const struct ns_term *t, const struct node *n)
{
	assert(c && t && n);
	/* a term that failed to parse, or has no requirement, matches nothing */
	if (t->invalid || (t->nexprs == 0 && t->nfields == 0))
		return false;
	for (uint32_t i = 0; i < t->nexprs; i++)
		if (!expr_matches(c, &t->exprs[i], &n->labels))
			return false;
	for (uint32_t i = 0; i < t->nfields; i++)
		if (!field_matches(c, &t->fields[i], n))
			return false;
	return true;
}

/* component-helpers nodeaffinity GetRequiredNodeAffinity(pod).Match */
bool node_matches_pod_affinity(const struct cluster *c, const struct pod *p, const struct node *n)
{
	assert(c && p && n);
	if (!labels_contains(&n->labels, &p->spec.node_selector))
		return false;
	if (!p->spec.has_affinity || !p->spec.affinity.node.has_required)
		return true;
	const struct node_affinity *na = &p->spec.affinity.node;
	for (uint32_t i = 0; i < na->nreq; i++)
		if (ns_term_matches(c, &na->req[i], n))
			return true;
	/* required with no (matching) term: nothing matches */
	return false;
}

/* The values of one key as a lookup table: tbl[0] answers for nodes
 * without the key, tbl[1 + v] for value v of the key index; a node's
 * answer is tbl[dom[id] + 1], one load instead of a label lookup. */
struct req_tbl {
	const int32_t *dom;
	uint8_t *tbl;
};

/* Index of val among the key index's values (sorted by text), or -1. */
static int32_t value_index(const struct cluster *c, const struct key_index *ki, sym_t val)
{
	const char *t = intern_get(c->in, val);
	uint32_t lo = 0, hi = ki->nvals;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int cmp = strcmp(intern_get(c->in, ki->vals[mid]), t);
		if (cmp == 0)
			return (int32_t)mid;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The table of requirement r (same answers as expr_matches on each node). */
static int req_table(struct cluster *c, const struct sel_req *r, struct req_tbl *t)
{
	const struct key_index *ki = cluster_key_index(c, r->key);
	if (!ki)
		return 0;
	uint32_t nv = ki->nvals;
	t->dom = ki->dom;
	t->tbl = malloc(nv + 1);
	if (!t->tbl)
		return 0;
	switch (r->op) {
	case SEL_EQ:
	case SEL_IN:
	case SEL_NOTIN: {
		bool notin = r->op == SEL_NOTIN;
		memset(t->tbl, notin, nv + 1);
		for (uint32_t i = 0; i < r->nvals; i++) {
			int32_t v = value_index(c, ki, r->vals[i]);
			if (v >= 0)
				t->tbl[v + 1] = !notin;
		}
		break;
	}
	case SEL_EXISTS:
	case SEL_NOTEXISTS:
		memset(t->tbl, r->op == SEL_EXISTS, nv + 1);
		t->tbl[0] = r->op == SEL_NOTEXISTS;
		break;
	default: {
		struct label one = { r->key, SYM_NONE };
		struct labels l = { &one, 0, 1 };
		t->tbl[0] = expr_matches(c, r, &l);
		l.n = 1;
		for (uint32_t v = 0; v < nv; v++) {
			one.val = ki->vals[v];
			t->tbl[v + 1] = expr_matches(c, r, &l);
		}
		break;
	}
	}
	return 1;
}

/* ok[id] &= r matches node id, over every node id. */
static int and_req(struct cluster *c, const struct sel_req *r, uint8_t *ok)
{
	struct req_tbl t;
	if (!req_table(c, r, &t))
		return 0;
	for (uint32_t id = 0; id < c->nnodes; id++)
		ok[id] &= t.tbl[t.dom[id] + 1];
	free(t.tbl);
	return 1;
}

int ns_term_eval(struct cluster *c, const struct ns_term *t, uint8_t *out)
{
	assert(c && t && out);
	bool none = t->invalid || (t->nexprs == 0 && t->nfields == 0);
	for (uint32_t id = 0; id < c->nnodes; id++)
		out[id] = !none && (c->nflag[id] & NF_ALIVE);
	if (none)
		return 1;
	for (uint32_t i = 0; i < t->nexprs; i++)
		if (!and_req(c, &t->exprs[i], out))
			return 0;
	for (uint32_t id = 0; t->nfields && id < c->nnodes; id++)
		for (uint32_t i = 0; i < t->nfields && out[id]; i++)
			out[id] = field_matches(c, &t->fields[i], &c->nodes[id]);
	return 1;
}

bool pod_has_required_node_affinity(const struct pod *p)
{
	return p->spec.node_selector.n || (p->spec.has_affinity && p->spec.affinity.node.has_required);
}

int node_affinity_eval(struct cluster *c, const struct pod *p, uint8_t *ok)
{
	assert(c && p && ok);
	for (uint32_t id = 0; id < c->nnodes; id++)
		ok[id] = (c->nflag[id] & NF_ALIVE) != 0;
	const struct labels *ns = &p->spec.node_selector;
	for (uint32_t i = 0; i < ns->n; i++) {
		struct sel_req r = { ns->v[i].key, SEL_EQ, &ns->v[i].val, 1 };
		if (!and_req(c, &r, ok))
			return 0;
	}
	if (!p->spec.has_affinity || !p->spec.affinity.node.has_required)
		return 1;
	/* terms are ORed; required with no (matching) term matches nothing */
	const struct node_affinity *na = &p->spec.affinity.node;
	uint8_t *any = calloc(c->nnodes + 1, 1), *one = malloc(c->nnodes + 1);
	if (!any || !one) {
		free(any);
		free(one);
		return 0;
	}
	for (uint32_t i = 0; i < na->nreq; i++) {
		if (!ns_term_eval(c, &na->req[i], one)) {
			free(any);
			free(one);
			return 0;
		}
		for (uint32_t id = 0; id < c->nnodes; id++)
			any[id] |= one[id];
	}
	for (uint32_t id = 0; id < c->nnodes; id++)
		ok[id] &= any[id];
	free(any);
	free(one);
	return 1;
}

/* nodeaffinity/node_affinity.go Filter */
int filter_node_affinity(const struct cluster *c, const struct pod *p, const struct node *n,
			 struct node_rec *r)
{
	assert(c && p && n && r);
	if (node_matches_pod_affinity(c, p, n))
		return 1;
	r->unresolvable = true;
	return 0;
}

/* Is field requirement j of term t a "metadata.name In [...]"? */
static bool is_name_in(const struct cluster *c, const struct ns_term *t, uint32_t j, sym_t name_key)
{
	if (name_key == SYM_NONE || t->fields[j].key != name_key)
		return false;
	if (t->field_ops && t->field_ops[j] != SYM_NONE)
		return strcmp(intern_get(c->in, t->field_ops[j]), "In") == 0;
	return t->fields[j].op == SEL_IN;
}

static bool req_has(const struct sel_req *r, sym_t v)
{
	for (uint32_t i = 0; i < r->nvals; i++)
		if (r->vals[i] == v)
			return true;
	return false;
}

/* Is name in every metadata.name In requirement of term t? (t has one.) */
static bool term_allows(const struct cluster *c, const struct ns_term *t, sym_t name, sym_t name_key)
{
	for (uint32_t j = 0; j < t->nfields; j++)
		if (is_name_in(c, t, j, name_key) && !req_has(&t->fields[j], name))
			return false;
	return true;
}

/* nodeaffinity/node_affinity.go PreFilter */
int prefilter_node_affinity(const struct cluster *c, const struct pod *p, bool *allowed)
{
	assert(c && p && allowed);
	if (!p->spec.has_affinity || !p->spec.affinity.node.has_required)
		return 0;
	const struct node_affinity *na = &p->spec.affinity.node;
	if (na->nreq == 0)
		return 0;
	sym_t name_key = intern_find(c->in, "metadata.name", strlen("metadata.name"));
	bool any_name = false;
	for (uint32_t i = 0; i < na->nreq; i++) {
		const struct ns_term *t = &na->req[i];
		int32_t first = -1;
		for (uint32_t j = 0; j < t->nfields && first < 0; j++)
			if (is_name_in(c, t, j, name_key))
				first = (int32_t)j;
		/* a term without a name requirement admits every node (terms ORed) */
		if (first < 0)
			return 0;
		/* intersection of this term's name sets non-empty? */
		const struct sel_req *r0 = &t->fields[first];
		for (uint32_t v = 0; v < r0->nvals && !any_name; v++)
			if (term_allows(c, t, r0->vals[v], name_key))
				any_name = true;
	}
	if (!any_name)
		return -1;
	for (uint32_t id = 0; id < c->nnodes; id++) {
		const struct node *n = &c->nodes[id];
		allowed[id] = false;
		if (!n->alive)
			continue;
		for (uint32_t i = 0; i < na->nreq && !allowed[id]; i++)
			allowed[id] = term_allows(c, &na->req[i], n->name, name_key);
	}
	return 1;
}

/* nodeaffinity/node_affinity.go Score */
int64_t score_node_affinity(const struct cluster *c, const struct pod *p, const struct node *n)
{
	assert(c && p && n);
	if (!p->spec.has_affinity)
		return 0;
	const struct node_affinity *na = &p->spec.affinity.node;
	int64_t sum = 0;
	for (uint32_t i = 0; i < na->npref; i++) {
		if (na->pref[i].weight == 0)
			continue;
		if (ns_term_matches(c, &na->pref[i].term, n))
			sum += na->pref[i].weight;
	}
	return sum;
}

bool pod_has_preferred_node_affinity(const struct pod *p)
{
	assert(p);
	return p->spec.has_affinity && p->spec.affinity.node.npref > 0;
}

/* PreFilter: the nodes that metadata.name In requirements allow
 * (PreFilterResult), or a conflict */
static int prefilter(struct cycle_state *x)
{
	const struct pod *p = x->p;
	/* only required terms can narrow by metadata.name */
	if (!p->spec.has_affinity || !p->spec.affinity.node.has_required)
		return 1;
	if (!(x->allowed = calloc(x->c->nnodes + 1, sizeof(*x->allowed))))
		return 0;
	int narrow = prefilter_node_affinity(x->c, p, x->allowed);
	x->conflict = narrow < 0;
	if (narrow < 0) {
		/* no node is evaluated */
		memset(x->allowed, 0, (x->c->nnodes + 1) * sizeof(*x->allowed));
	} else if (narrow == 0) {
		free(x->allowed);
		x->allowed = NULL;
	}
	return 1;
}

static void prefilter_fini(struct cycle_state *x)
{
	free(x->allowed);
	x->allowed = NULL;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_node_affinity(x->c, x->p, &x->c->nodes[id], r);
}

/* PreScore: Skip without preferred terms */
static bool prescore(struct cycle_state *x, const uint32_t *ids, uint32_t nf)
{
	(void)ids, (void)nf;
	return pod_has_preferred_node_affinity(x->p);
}

static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	return score_node_affinity(x->c, x->p, &x->c->nodes[id]);
}

static void normalize(struct decision *d)
{
	normalize_default(d, PL_NODE_AFFINITY, false);
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", d->prefilter_conflict ? "pod affinity terms conflict" :
		 r->prefilter_cut ? "node(s) didn't satisfy plugin(s) [NodeAffinity]" :
		 "node(s) didn't match Pod's node affinity/selector");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", d->prefilter_conflict ? "the required terms' matchFields name no common node" :
		 r->prefilter_cut ? "not among the nodes named by matchFields metadata.name" :
		 "node labels do not satisfy nodeSelector / required node affinity");
}

const struct plugin_ops plugin_node_affinity = {
	.code = "Affin",
	.prefilter = prefilter,
	.prefilter_fini = prefilter_fini,
	.filter = filter,
	.prescore = prescore,
	.score = score,
	.normalize = normalize,
	.reason = reason,
	.detail = detail,
};
