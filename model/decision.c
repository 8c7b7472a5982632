/* decision.c - freeing a decision and turning its numbers into the exact
 * upstream reason strings and the arithmetic behind them (each plugin's
 * reason and detail, through the plugin table). */
#include "decision.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "plugins.h"

void decision_fini(struct decision *d)
{
	for (uint32_t i = 0; i < d->ncons; i++) {
		selector_fini(&d->cons[i].sel);
		free(d->cons[i].sel_str);
		free(d->cons[i].doms);
	}
	free(d->cons);
	free(d->nodes);
	free(d->tied);
	free(d->message);
	free(d->ext_names);
	free(d->verdict);
	free(d->totals);
	free(d->spread_dom);
	preemption_fini(&d->pre);
	free(d->event);
	free(d->condition);
	memset(d, 0, sizeof(*d));
}

void preemption_fini(struct preemption *p)
{
	for (uint32_t i = 0; i < p->nnodes; i++) {
		free(p->nodes[i].victims);
		free(p->nodes[i].reason);
	}
	free(p->nodes);
	free(p->victims);
	free(p->message);
	memset(p, 0, sizeof(*p));
	p->nominated = -1;
}

bool decision_counts_pod(const struct cluster *c, const struct decision *d, uint32_t cons,
			 const struct pod *p)
{
	if (cons >= d->ncons || d->pod >= c->npods)
		return false;
	const struct constraint_rec *k = &d->cons[cons];
	return !k->empty_quirk && !p->terminating && p->ns == c->pods[d->pod].ns &&
	       selector_matches(c->in, &k->sel, &p->labels);
}

const struct node_rec *decision_node(const struct decision *d, uint32_t node_id)
{
	/* nodes are in id order (input order), so binary search works;
	 * a lean decision has no records */
	if (!d->nodes)
		return NULL;
	uint32_t lo = 0, hi = d->nnodes;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (d->nodes[mid].node < node_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nnodes && d->nodes[lo].node == node_id ? &d->nodes[lo] : NULL;
}

const char *decision_reason(const struct cluster *c, const struct decision *d,
			    const struct node_rec *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->feasible)
		return buf;
	return decision_reason_of(c, d, r, r->fail, buf, len);
}

const char *decision_reason_of(const struct cluster *c, const struct decision *d,
			       const struct node_rec *r, enum plugin_id pl, char *buf, size_t len)
{
	const struct plugin *p = plugin_get(pl);
	if (!len)
		return buf;
	buf[0] = '\0';
	if (p && p->ops->reason)
		p->ops->reason(c, d, r, buf, len);
	return buf;
}

char *decision_reason_dup(const struct cluster *c, const struct decision *d, const struct node_rec *r,
			  enum plugin_id pl)
{
	size_t len = 256;
	for (uint32_t i = 0; i < d->next && i < 64; i++)
		len += strlen(intern_get(c->in, d->ext_names[i])) + 16;
	char *buf = malloc(len);
	return buf ? (char *)decision_reason_of(c, d, r, pl, buf, len) : NULL;
}

const char *decision_detail(const struct cluster *c, const struct decision *d,
			    const struct node_rec *r, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (r->feasible || !len)
		return buf;
	return decision_detail_of(c, d, r, r->fail, buf, len);
}

const char *decision_detail_of(const struct cluster *c, const struct decision *d,
			       const struct node_rec *r, enum plugin_id pl, char *buf, size_t len)
{
	const struct plugin *p = plugin_get(pl);
	if (!len)
		return buf;
	buf[0] = '\0';
	if (p && p->ops->detail)
		p->ops->detail(c, d, r, buf, len);
	return buf;
}

const char *decision_spread_terms(const struct cluster *c, const struct decision *d,
				  const struct node_rec *r, char *buf, size_t len)
{
	size_t o = 0;
	char tmp[256];
	buf[0] = '\0';
	if (!r->feasible || !r->scored[PL_POD_TOPOLOGY_SPREAD])
		return buf;
	if (r->spread_ignored) {
		snprintf(buf, len, "lacks a soft constraint's key: ignored, score 0");
		return buf;
	}
	const struct node *n = &c->nodes[r->node];
	for (uint32_t i = 0; i < d->ncons; i++) {
		const struct constraint_rec *cr = &d->cons[i];
		if (cr->hard || !cr->scored)
			continue;
		sym_t v = labels_get(&n->labels, cr->key);
		if (!v)
			continue;
		int64_t cnt = 0;
		for (uint32_t k = 0; k < cr->ndoms; k++)
			if (cr->doms[k].value == v)
				cnt = cr->doms[k].count;
		if (cr->key == c->sym_hostname)
			cnt = r->host_count; /* per node, as counted when scored */
		snprintf(tmp, sizeof(tmp), "%s%s: %" PRId64 " x ln(%u+2) + %d = %.2f", o ? "; " : "",
			 intern_get(c->in, cr->key), cnt, cr->size, cr->max_skew - 1,
			 (double)cnt * cr->weight + (cr->max_skew - 1));
		fmt_append(buf, len, &o, tmp);
	}
	snprintf(tmp, sizeof(tmp), "%sraw %" PRId64 ", normalized %" PRId64, o ? "; " : "",
		 r->raw[PL_POD_TOPOLOGY_SPREAD], (int64_t)r->norm[PL_POD_TOPOLOGY_SPREAD]);
	fmt_append(buf, len, &o, tmp);
	return buf;
}

bool decision_spread_verdict(const struct decision *d, const struct node_rec *r, uint32_t k,
			     struct spread_verdict *v)
{
	if (!d->spread_dom || k >= d->nhard || !d->nodes)
		return false;
	uint32_t i = (uint32_t)(r - d->nodes);
	uint32_t seen = 0, ci = 0;
	for (ci = 0; ci < d->ncons; ci++)
		if (d->cons[ci].hard && seen++ == k)
			break;
	if (ci == d->ncons)
		return false;
	const struct constraint_rec *cr = &d->cons[ci];
	int32_t di = d->spread_dom[(size_t)i * d->nhard + k];
	memset(v, 0, sizeof(*v));
	v->cons = ci;
	v->self = cr->self_match;
	v->global_min = cr->global_min;
	if (di < 0)
		return true;
	/* podtopologyspread/filtering.go Filter: a value no eligible node
	 * registered is an empty domain (matchNum 0) */
	const struct domain_rec *dr = &cr->doms[di];
	v->has_domain = true;
	v->domain = dr->value;
	v->match = dr->exists ? dr->count : 0;
	v->skew = dr->skew;
	v->ok = dr->skew <= cr->max_skew;
	return true;
}

bool decision_counts_node(const struct cluster *c, const struct decision *d, uint32_t cons,
			  uint32_t node)
{
	if (cons >= d->ncons || d->pod >= c->npods || node >= c->nnodes || !c->nodes[node].alive)
		return false;
	const struct constraint_rec *k = &d->cons[cons];
	const struct node *n = &c->nodes[node];
	const struct pod *p = &c->pods[d->pod];
	/* common.go nodeLabelsMatchSpreadConstraints: every key of the
	 * hard ones (PreFilter), of the soft ones unless System defaulting
	 * (PreScore requireAllTopologies) */
	bool all = k->hard || k->origin != ORIGIN_DEFAULT_SYSTEM;
	for (uint32_t i = 0; all && i < d->ncons; i++)
		if (d->cons[i].hard == k->hard && !labels_get(&n->labels, d->cons[i].key))
			return false;
	sym_t v = labels_get(&n->labels, k->key);
	if (k->hard && !v)
		return false;
	if (!k->hard) {
		/* scoring.go initPreScoreState: only the values of the
		 * feasible nodes are counted (a node without the key reads "") */
		bool seeded = false;
		for (uint32_t i = 0; i < k->ndoms && !seeded; i++)
			seeded = k->doms[i].value == (v ? v : c->sym_empty);
		if (!seeded)
			return false;
		/* scoring.go Score: a hostname term counts the node's own pods */
		if (k->key == c->sym_hostname)
			return true;
	}
	/* common.go matchNodeInclusionPolicies */
	if (k->affinity_honor && !node_matches_pod_affinity(c, p, n))
		return false;
	if (k->taints_honor && n->ntaints &&
	    taint_first_untolerated_in(c, n, p->spec.tols, p->spec.ntols) >= 0)
		return false;
	return true;
}
