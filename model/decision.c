/* decision.c - freeing a decision and turning its numbers into the exact
 * upstream reason strings and the arithmetic behind them. */
#include "decision.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "plugins.h"
#include "quantity.h"

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

/* Appends s, truncating at len - 1 bytes. */
static void append(char *buf, size_t len, size_t *o, const char *s)
{
	size_t n = strlen(s);
	if (*o + 1 >= len)
		return;
	if (n > len - 1 - *o)
		n = len - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
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
	size_t o = 0;
	buf[0] = '\0';
	switch (pl) {
	case PL_NODE_UNSCHEDULABLE:
		append(buf, len, &o, "node(s) were unschedulable");
		break;
	case PL_NODE_NAME:
		append(buf, len, &o, "node(s) didn't match the requested node name");
		break;
	case PL_TAINT_TOLERATION:
		append(buf, len, &o, "node(s) had untolerated taint(s)");
		break;
	case PL_NODE_AFFINITY:
		append(buf, len, &o, d->prefilter_conflict ? "pod affinity terms conflict" :
			r->prefilter_cut ? "node(s) didn't satisfy plugin(s) [NodeAffinity]" :
			"node(s) didn't match Pod's node affinity/selector");
		break;
	case PL_NODE_RESOURCES_FIT: {
		/* noderesources/fit.go fitsRequest order */
		const char *sep = "";
		if (r->why.fit.bits & FIT_TOO_MANY_PODS) {
			append(buf, len, &o, sep);
			append(buf, len, &o, "Too many pods");
			sep = ", ";
		}
		if (r->why.fit.bits & FIT_CPU) {
			append(buf, len, &o, sep);
			append(buf, len, &o, "Insufficient cpu");
			sep = ", ";
		}
		if (r->why.fit.bits & FIT_MEM) {
			append(buf, len, &o, sep);
			append(buf, len, &o, "Insufficient memory");
			sep = ", ";
		}
		if (r->why.fit.bits & FIT_EPH) {
			append(buf, len, &o, sep);
			append(buf, len, &o, "Insufficient ephemeral-storage");
			sep = ", ";
		}
		for (uint32_t i = 0; i < d->next && i < 64; i++) {
			if (!(r->why.fit.ext_bits & (1ull << i)))
				continue;
			append(buf, len, &o, sep);
			append(buf, len, &o, "Insufficient ");
			append(buf, len, &o, intern_get(c->in, d->ext_names[i]));
			sep = ", ";
		}
		break;
	}
	case PL_POD_TOPOLOGY_SPREAD:
		append(buf, len, &o, r->why.spread.dom < 0 ?
			"node(s) didn't match pod topology spread constraints (missing required label)" :
			"node(s) didn't match pod topology spread constraints");
		break;
	case PL_INTER_POD_AFFINITY:
		append(buf, len, &o, r->why.ipa.what == IPA_AFFINITY ?
			"node(s) didn't match pod affinity rules" :
			r->why.ipa.what == IPA_ANTI ? "node(s) didn't match pod anti-affinity rules" :
			"node(s) didn't satisfy existing pods anti-affinity rules");
		break;
	default:
		break;
	}
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

static void fit_detail(const struct cluster *c, const struct decision *d, const struct node_rec *r,
		       char *buf, size_t len)
{
	const struct node *n = &c->nodes[r->node];
	const struct pod *p = &c->pods[d->pod];
	char a[32], b[32], tmp[160];
	size_t o = 0;
	buf[0] = '\0';
	if (r->why.fit.bits & FIT_TOO_MANY_PODS) {
		snprintf(tmp, sizeof(tmp), "pods: %u bound of %" PRId64 " allowed", r->why.fit.bound, n->alloc.pods);
		append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_CPU) {
		quantity_format_milli(p->spec.req.cpu, a, sizeof(a));
		quantity_format_milli(r->why.fit.free_cpu, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%scpu: requests %s, free %s", o ? "; " : "", a, b);
		append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_MEM) {
		quantity_format_bytes(p->spec.req.mem, a, sizeof(a));
		quantity_format_bytes(r->why.fit.free_mem, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%smemory: requests %s, free %s", o ? "; " : "", a, b);
		append(buf, len, &o, tmp);
	}
	if (r->why.fit.bits & FIT_EPH) {
		quantity_format_bytes(p->spec.req.eph, a, sizeof(a));
		quantity_format_bytes(r->why.fit.free_eph, b, sizeof(b));
		snprintf(tmp, sizeof(tmp), "%sephemeral-storage: requests %s, free %s", o ? "; " : "", a, b);
		append(buf, len, &o, tmp);
	}
	for (uint32_t i = 0; i < d->next && i < 64; i++) {
		if (!(r->why.fit.ext_bits & (1ull << i)))
			continue;
		sym_t name = d->ext_names[i];
		snprintf(tmp, sizeof(tmp), "%s%.80s: requests %" PRId64 ", free %" PRId64, o ? "; " : "",
			 intern_get(c->in, name), resources_ext(&p->spec.req, name),
			 wrap_sub(resources_ext(&n->alloc, name), resources_ext(&n->used, name)));
		append(buf, len, &o, tmp);
	}
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
	const struct node *n = &c->nodes[r->node];
	if (!len)
		return buf;
	buf[0] = '\0';
	switch (pl) {
	case PL_NODE_UNSCHEDULABLE:
		snprintf(buf, len, "node is cordoned (spec.unschedulable)");
		break;
	case PL_NODE_NAME:
		snprintf(buf, len, "pod asks for node %s", intern_get(c->in, c->pods[d->pod].spec.node_name));
		break;
	case PL_TAINT_TOLERATION: {
		const struct taint *t = &n->taints[r->why.taint.taint];
		const char *v = intern_get(c->in, t->value);
		snprintf(buf, len, "untolerated taint %s%s%s:%s", intern_get(c->in, t->key), *v ? "=" : "",
			 v, effect_name(t->effect));
		break;
	}
	case PL_NODE_AFFINITY:
		snprintf(buf, len, "%s", d->prefilter_conflict ?
			 "the required terms' matchFields name no common node" :
			 r->prefilter_cut ? "not among the nodes named by matchFields metadata.name" :
			 "node labels do not satisfy nodeSelector / required node affinity");
		break;
	case PL_NODE_RESOURCES_FIT:
		fit_detail(c, d, r, buf, len);
		break;
	case PL_POD_TOPOLOGY_SPREAD: {
		const struct constraint_rec *cr = &d->cons[r->why.spread.cons];
		if (r->with_nominated && r->why.spread.dom >= 0) {
			/* the domains recorded are counted without them */
			snprintf(buf, len, "%s: too many matching pods once the pods nominated to this node are counted",
				 intern_get(c->in, cr->key));
			break;
		}
		if (r->why.spread.dom < 0) {
			snprintf(buf, len, "missing label %s", intern_get(c->in, cr->key));
			break;
		}
		/* a value no eligible node registered is an empty domain */
		const struct domain_rec *dr = &cr->doms[r->why.spread.dom];
		int64_t match = dr->exists ? dr->count : 0;
		int64_t self = cr->self_match;
		snprintf(buf, len, "%s=%s: %" PRId64 " + %" PRId64 " - %" PRId64 " = %" PRId64
			 " > maxSkew %d", intern_get(c->in, cr->key), intern_get(c->in, dr->value),
			 match, self, cr->global_min, dr->skew, cr->max_skew);
		break;
	}
	case PL_INTER_POD_AFFINITY:
		snprintf(buf, len, "%s", r->why.ipa.what == IPA_AFFINITY ?
			 "no pod matching the required affinity terms in this node's topology domain" :
			 r->why.ipa.what == IPA_ANTI ?
			 "a pod matching a required anti-affinity term runs in this node's topology domain" :
			 "an existing pod's required anti-affinity matches this pod in this domain");
		break;
	default:
		break;
	}
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
		append(buf, len, &o, tmp);
	}
	snprintf(tmp, sizeof(tmp), "%sraw %" PRId64 ", normalized %" PRId64, o ? "; " : "",
		 r->raw[PL_POD_TOPOLOGY_SPREAD], (int64_t)r->norm[PL_POD_TOPOLOGY_SPREAD]);
	append(buf, len, &o, tmp);
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
