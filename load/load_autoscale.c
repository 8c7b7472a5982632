/* load_autoscale.c - the autoscaler inputs (spec/autoscalers.md section
 * 1): `autoscaler`, `nodeGroups`, `instanceTypes`, `nodePools` and `kind:
 * NodePool` objects, and what a `scaleUp` step adds to its action (the
 * settings it overrides, its expect block). Errors carry file, line and
 * column. */
#include "loader.h"
#include "../model/quantity.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../model/autoscale/autoscale.h"

static struct as_config *cfg_of(struct loader *L)
{
	if (!L->sc->autoscale) {
		L->sc->autoscale = calloc(1, sizeof(struct as_config));
		if (!L->sc->autoscale) {
			load_oom(L);
			return NULL;
		}
		struct as_settings *s = &L->sc->autoscale->set;
		s->balance = s->force_ds = s->pref_ignore = -1;
		s->max_nodes_total = s->max_per_scaleup = -1;
	}
	return L->sc->autoscale;
}

static int grow(struct loader *L, void **v, uint32_t n, size_t sz)
{
	void *nv = realloc(*v, (n + 1) * sz);
	if (!nv)
		return load_oom(L);
	memset((char *)nv + n * sz, 0, sz);
	*v = nv;
	return 1;
}

/* Unknown keys of map m, given the known ones (NULL-terminated). */
static int known_keys(struct loader *L, const struct ynode *m, const char *what, const char *const *keys,
		      const char *list)
{
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i];
		bool ok = false;
		for (const char *const *p = keys; *p && !ok; p++)
			ok = y_key_is(k, *p);
		if (!ok) {
			load_err_at(L, k, "unknown key '%s' in %s (expected %s)", k->s ? k->s : "?", what, list);
			return 0;
		}
	}
	return 1;
}

static int y_double(struct loader *L, const struct ynode *n, const char *what, double *out)
{
	if (!y_want(L, n, Y_SCALAR, what))
		return 0;
	char *end;
	errno = 0;
	double d = strtod(n->s, &end);
	if (end == n->s || *end || errno || d < 0) {
		load_err_at(L, n, "invalid number '%s' for '%s' (expected a non-negative number such as 0.2)", n->s, what);
		return 0;
	}
	*out = d;
	return 1;
}

/* A Node entry read by load_node without a name: m with `name: NAME` added. */
static int node_like(struct loader *L, const struct ynode *m, const char *what, const char *name,
		     struct node *out)
{
	memset(out, 0, sizeof(*out));
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	struct ynode copy = *m;
	copy.kids = malloc((2 * m->n + 2) * sizeof(struct ynode));
	if (!copy.kids)
		return load_oom(L);
	if (m->n)
		memcpy(copy.kids, m->kids, 2 * m->n * sizeof(struct ynode));
	struct ynode key = {.type = Y_SCALAR, .s = (char *)"name", .len = 4, .line = m->line, .col = m->col};
	struct ynode val = {.type = Y_SCALAR, .s = (char *)name, .len = strlen(name), .line = m->line, .col = m->col};
	copy.kids[2 * m->n] = key;
	copy.kids[2 * m->n + 1] = val;
	copy.n = m->n + 1;
	copy.cap = copy.n;
	int ok = load_node(L, &copy, what, out);
	free(copy.kids);
	return ok;
}

/* ---- settings ---- */

static int read_expanders(struct loader *L, const struct ynode *v, struct as_settings *s)
{
	if (v->type == Y_SCALAR) {
		/* "least-waste,priority" as the flag takes it */
		char *t = load_strdup(v->s), *save = NULL;
		if (!t)
			return load_oom(L);
		for (char *p = strtok_r(t, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			int e = as_expander_parse(p);
			if (e < 0 || s->nexpander >= AS_MAX_EXPANDERS) {
				load_err_at(L, v, "unknown expander '%s' (expected random, most-pods, least-waste, least-nodes, price or priority)", p);
				free(t);
				return 0;
			}
			s->expander[s->nexpander++] = (enum as_expander)e;
		}
		free(t);
		return 1;
	}
	if (!y_want(L, v, Y_SEQ, "expander"))
		return 0;
	for (uint32_t i = 0; i < v->n; i++) {
		const struct ynode *e = &v->kids[i];
		if (!y_want(L, e, Y_SCALAR, "expander's entry"))
			return 0;
		int x = as_expander_parse(e->s);
		if (x < 0) {
			load_err_at(L, e, "unknown expander '%s' (expected random, most-pods, least-waste, least-nodes, price or priority)", e->s);
			return 0;
		}
		if (s->nexpander >= AS_MAX_EXPANDERS) {
			load_err_at(L, e, "more than %u expanders (expected a short chain)", AS_MAX_EXPANDERS);
			return 0;
		}
		s->expander[s->nexpander++] = (enum as_expander)x;
	}
	return 1;
}

static int read_priorities(struct loader *L, const struct ynode *v, struct as_settings *s)
{
	if (!y_want(L, v, Y_MAP, "priorities"))
		return 0;
	s->has_prios = true;
	for (uint32_t i = 0; i < v->n; i++) {
		const struct ynode *k = &v->kids[2 * i], *l = &v->kids[2 * i + 1];
		int64_t p;
		if (!y_int(L, k, "priorities' key", INT32_MIN, INT32_MAX, &p))
			return 0;
		if (!y_want(L, l, Y_SEQ, "priorities' value"))
			return 0;
		if (!grow(L, (void **)&s->prios, s->nprios, sizeof(*s->prios)))
			return 0;
		struct as_priority *ap = &s->prios[s->nprios++];
		ap->prio = p;
		ap->regex = calloc(l->n + 1, sizeof(char *));
		ap->lines = calloc(l->n + 1, sizeof(uint32_t));
		ap->cols = calloc(l->n + 1, sizeof(uint32_t));
		if (!ap->regex || !ap->lines || !ap->cols)
			return load_oom(L);
		for (uint32_t j = 0; j < l->n; j++) {
			if (!y_want(L, &l->kids[j], Y_SCALAR, "priorities' regex"))
				return 0;
			regex_t rx;
			if (regcomp(&rx, l->kids[j].s, REG_EXTENDED | REG_NOSUB)) {
				load_err_at(L, &l->kids[j], "invalid regular expression '%s' in priorities", l->kids[j].s);
				return 0;
			}
			regfree(&rx);
			if (!(ap->regex[j] = load_strdup(l->kids[j].s)))
				return load_oom(L);
			ap->lines[j] = l->kids[j].line;
			ap->cols[j] = l->kids[j].col;
			ap->n = j + 1;
		}
	}
	return 1;
}

/* The clusterAutoscaler / karpenter settings of map m into s; `also`
 * names keys the caller reads itself. */
static int read_settings(struct loader *L, const struct ynode *m, const char *what, struct as_settings *s,
			 const char *const *also)
{
	static const char *const keys[] = {"expander", "priorities", "podPrice", "balanceSimilarNodeGroups",
		"balancingIgnoreLabels", "maxNodesTotal", "maxNodesPerScaleUp", "forceDaemonSets",
		"schedulerConfig", "preferencePolicy", NULL};
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		bool ok = false;
		for (const char *const *p = keys; *p && !ok; p++)
			ok = y_key_is(k, *p);
		for (const char *const *p = also; p && *p && !ok; p++)
			ok = y_key_is(k, *p);
		if (!ok) {
			load_err_at(L, k, "unknown key '%s' in %s (expected expander, priorities, podPrice, balanceSimilarNodeGroups, balancingIgnoreLabels, maxNodesTotal, maxNodesPerScaleUp, forceDaemonSets, schedulerConfig or preferencePolicy)",
				    k->s ? k->s : "?", what);
			return 0;
		}
		if (y_absent(v))
			continue;
		bool b;
		int64_t n;
		if (y_key_is(k, "expander")) {
			if (!read_expanders(L, v, s))
				return 0;
		} else if (y_key_is(k, "priorities")) {
			if (!read_priorities(L, v, s))
				return 0;
		} else if (y_key_is(k, "podPrice")) {
			if (!y_want(L, v, Y_MAP, "podPrice"))
				return 0;
			const struct ynode *c = y_get(v, "cpu"), *mm = y_get(v, "memory");
			if ((!y_absent(c) && !y_double(L, c, "podPrice.cpu", &s->pod_price_cpu)) ||
			    (!y_absent(mm) && !y_double(L, mm, "podPrice.memory", &s->pod_price_mem)))
				return 0;
			s->has_pod_price = true;
		} else if (y_key_is(k, "balanceSimilarNodeGroups")) {
			if (!y_bool(L, v, "balanceSimilarNodeGroups", &b))
				return 0;
			s->balance = b;
		} else if (y_key_is(k, "balancingIgnoreLabels")) {
			if (!y_syms(L, v, "balancingIgnoreLabels", &s->balance_ignore, &s->nbalance_ignore))
				return 0;
		} else if (y_key_is(k, "maxNodesTotal")) {
			if (!y_int(L, v, "maxNodesTotal", 0, INT32_MAX, &n))
				return 0;
			s->max_nodes_total = n;
		} else if (y_key_is(k, "maxNodesPerScaleUp")) {
			if (!y_int(L, v, "maxNodesPerScaleUp", 0, INT32_MAX, &n))
				return 0;
			s->max_per_scaleup = n;
		} else if (y_key_is(k, "forceDaemonSets")) {
			if (!y_bool(L, v, "forceDaemonSets", &b))
				return 0;
			s->force_ds = b;
		} else if (y_key_is(k, "schedulerConfig")) {
			if (!y_want(L, v, Y_SCALAR, "schedulerConfig"))
				return 0;
			if (strcmp(v->s, "default") && strcmp(v->s, "scenario")) {
				load_err_at(L, v, "unknown schedulerConfig '%s' (expected default or scenario)", v->s);
				return 0;
			}
			s->sched_cfg = strcmp(v->s, "default") ? AS_SCHED_SCENARIO : AS_SCHED_DEFAULT;
		} else if (y_key_is(k, "preferencePolicy")) {
			if (!y_want(L, v, Y_SCALAR, "preferencePolicy"))
				return 0;
			if (strcmp(v->s, "Respect") && strcmp(v->s, "Ignore")) {
				load_err_at(L, v, "unknown preferencePolicy '%s' (expected Respect or Ignore)", v->s);
				return 0;
			}
			s->pref_ignore = !strcmp(v->s, "Ignore");
		}
	}
	return 1;
}

static int parse_kind(struct loader *L, const struct ynode *v, enum as_kind *out)
{
	if (!y_want(L, v, Y_SCALAR, "autoscaler.default"))
		return 0;
	if (!strcmp(v->s, "clusterAutoscaler"))
		*out = AS_CA;
	else if (!strcmp(v->s, "karpenter"))
		*out = AS_KARPENTER;
	else {
		load_err_at(L, v, "unknown autoscaler '%s' (expected clusterAutoscaler or karpenter)", v->s);
		return 0;
	}
	return 1;
}

static void read_autoscaler(struct loader *L, const struct ynode *m)
{
	static const char *const keys[] = {"default", "clusterAutoscaler", "karpenter", NULL};
	struct as_config *c = cfg_of(L);
	if (!c || !y_want(L, m, Y_MAP, "autoscaler") ||
	    !known_keys(L, m, "autoscaler", keys, "default, clusterAutoscaler or karpenter"))
		return;
	const struct ynode *d = y_get(m, "default"), *ca = y_get(m, "clusterAutoscaler"),
			   *kp = y_get(m, "karpenter");
	if (!y_absent(d) && !parse_kind(L, d, &c->set.def))
		return;
	if (!y_absent(ca) && (!y_want(L, ca, Y_MAP, "autoscaler.clusterAutoscaler") ||
			      !read_settings(L, ca, "autoscaler.clusterAutoscaler", &c->set, NULL)))
		return;
	if (!y_absent(kp) && (!y_want(L, kp, Y_MAP, "autoscaler.karpenter") ||
			      !read_settings(L, kp, "autoscaler.karpenter", &c->set, NULL)))
		return;
}

/* ---- node groups ---- */

static void read_group(struct loader *L, struct as_config *c, const struct ynode *m)
{
	static const char *const keys[] = {"name", "max", "min", "size", "nodes", "selector", "template",
		"zones", "price", NULL};
	if (!y_want(L, m, Y_MAP, "nodeGroups' entry") ||
	    !known_keys(L, m, "a node group", keys, "name, max, min, size, nodes, selector, template, zones or price"))
		return;
	if (!grow(L, (void **)&c->groups, c->ngroups, sizeof(*c->groups)))
		return;
	struct as_group *g = &c->groups[c->ngroups++];
	g->line = m->line;
	g->col = m->col;
	const struct ynode *v;
	if (!y_str(L, y_get(m, "name"), "name", &g->name))
		return;
	if (!g->name || !intern_len(L->in, g->name)) {
		load_err_at(L, m, "node group has no name (expected 'name')");
		return;
	}
	for (uint32_t i = 0; i + 1 < c->ngroups; i++)
		if (c->groups[i].name == g->name) {
			load_err_at(L, y_get(m, "name"), "duplicate node group '%s' (expected unique names)",
				    intern_get(L->in, g->name));
			return;
		}
	v = y_get(m, "max");
	if (y_absent(v)) {
		load_err_at(L, m, "node group '%s' has no 'max' (expected its maximum size)", intern_get(L->in, g->name));
		return;
	}
	if (!y_int(L, v, "max", 0, INT32_MAX, &g->max))
		return;
	v = y_get(m, "min");
	if (!y_absent(v) && !y_int(L, v, "min", 0, INT32_MAX, &g->min))
		return;
	if (g->min > g->max) {
		load_err_at(L, v, "node group '%s' has min %lld above its max %lld (expected min <= max)",
			    intern_get(L->in, g->name), (long long)g->min, (long long)g->max);
		return;
	}
	v = y_get(m, "size");
	if (!y_absent(v)) {
		if (!y_int(L, v, "size", 0, INT32_MAX, &g->size))
			return;
		g->has_size = true;
		if (g->size > g->max) {
			load_err_at(L, v, "node group '%s' has size %lld above its max %lld (expected size <= max)",
				    intern_get(L->in, g->name), (long long)g->size, (long long)g->max);
			return;
		}
	}
	v = y_get(m, "nodes");
	if (!y_absent(v)) {
		if (!y_syms(L, v, "nodes", &g->nodes, &g->nnodes))
			return;
		g->node_lines = calloc(g->nnodes + 1, sizeof(uint32_t));
		g->node_cols = calloc(g->nnodes + 1, sizeof(uint32_t));
		if (!g->node_lines || !g->node_cols) {
			load_oom(L);
			return;
		}
		for (uint32_t i = 0; i < g->nnodes && i < v->n; i++) {
			g->node_lines[i] = v->kids[i].line;
			g->node_cols[i] = v->kids[i].col;
		}
	}
	v = y_get(m, "selector");
	if (!y_absent(v)) {
		if (!y_labels(L, v, "selector", &g->selector))
			return;
		g->has_selector = true;
		g->sel_line = v->line;
		g->sel_col = v->col;
	}
	v = y_get(m, "template");
	if (!y_absent(v)) {
		char *nm = out_strf("template-node-for-%s", intern_get(L->in, g->name));
		if (!nm) {
			load_oom(L);
			return;
		}
		int ok = node_like(L, v, "template", nm, &g->tmpl);
		free(nm);
		if (!ok)
			return;
		g->has_template = true;
		const struct ynode *pods = y_get(v, "pods");
		if (!y_absent(pods) && !y_want(L, pods, Y_SEQ, "template.pods"))
			return;
		if (!y_absent(pods) && pods->n)
			load_warn_at(L, pods, "template pods (DaemonSet pods of a new node) are not simulated yet (ignored)");
	}
	v = y_get(m, "zones");
	if (!y_absent(v) && !y_syms(L, v, "zones", &g->zones, &g->nzones))
		return;
	v = y_get(m, "price");
	if (!y_absent(v)) {
		if (!y_double(L, v, "price", &g->price))
			return;
		g->has_price = true;
	}
}

/* ---- instance types and NodePools ---- */

static void read_itype(struct loader *L, struct as_config *c, const struct ynode *m)
{
	static const char *const keys[] = {"name", "allocatable", "labels", "offerings", "zones", "price", NULL};
	if (!y_want(L, m, Y_MAP, "instanceTypes' entry") ||
	    !known_keys(L, m, "an instance type", keys, "name, allocatable, labels, offerings, zones or price"))
		return;
	if (!grow(L, (void **)&c->itypes, c->nitypes, sizeof(*c->itypes)))
		return;
	struct as_itype *t = &c->itypes[c->nitypes++];
	t->line = m->line;
	t->col = m->col;
	if (!y_str(L, y_get(m, "name"), "name", &t->name))
		return;
	if (!t->name || !intern_len(L->in, t->name)) {
		load_err_at(L, m, "instance type has no name (expected 'name')");
		return;
	}
	for (uint32_t i = 0; i + 1 < c->nitypes; i++)
		if (c->itypes[i].name == t->name) {
			load_err_at(L, y_get(m, "name"), "duplicate instance type '%s' (expected unique names)",
				    intern_get(L->in, t->name));
			return;
		}
	struct node n;
	/* allocatable and labels as a node takes them */
	struct ynode sub = *m;
	(void)sub;
	if (!node_like(L, m, "instance type", intern_get(L->in, t->name), &n))
		return;
	t->alloc = n.alloc;
	n.alloc.ext = NULL;
	n.alloc.next = 0;
	t->labels = n.labels;
	memset(&n.labels, 0, sizeof(n.labels));
	node_fini(&n);
	const struct ynode *offs = y_get(m, "offerings"), *zones = y_get(m, "zones"), *price = y_get(m, "price");
	double p = 0;
	if (!y_absent(price) && !y_double(L, price, "price", &p))
		return;
	if (!y_absent(offs)) {
		if (!y_want(L, offs, Y_SEQ, "offerings"))
			return;
		for (uint32_t i = 0; i < offs->n; i++) {
			const struct ynode *o = &offs->kids[i];
			static const char *const okeys[] = {"zone", "capacityType", "price", "available", NULL};
			if (!y_want(L, o, Y_MAP, "offerings' entry") ||
			    !known_keys(L, o, "an offering", okeys, "zone, capacityType, price or available"))
				return;
			if (!grow(L, (void **)&t->offers, t->noffers, sizeof(*t->offers)))
				return;
			struct as_offering *of = &t->offers[t->noffers++];
			of->available = true;
			of->price = p;
			const struct ynode *v;
			if (!y_str(L, y_get(o, "zone"), "zone", &of->zone) ||
			    !y_str(L, y_get(o, "capacityType"), "capacityType", &of->capacity_type))
				return;
			if (!of->zone) {
				load_err_at(L, o, "offering has no zone (expected 'zone')");
				return;
			}
			if (!of->capacity_type && !(of->capacity_type = intern_str(L->in, "on-demand"))) {
				load_oom(L);
				return;
			}
			v = y_get(o, "price");
			if (!y_absent(v) && !y_double(L, v, "price", &of->price))
				return;
			v = y_get(o, "available");
			if (!y_absent(v) && !y_bool(L, v, "available", &of->available))
				return;
		}
	}
	if (!y_absent(zones)) {
		sym_t *z;
		uint32_t nz;
		if (!y_syms(L, zones, "zones", &z, &nz))
			return;
		sym_t od = intern_str(L->in, "on-demand");
		for (uint32_t i = 0; i < nz; i++) {
			if (!grow(L, (void **)&t->offers, t->noffers, sizeof(*t->offers))) {
				free(z);
				return;
			}
			t->offers[t->noffers++] = (struct as_offering){z[i], od, p, true};
		}
		free(z);
	}
}

static const char *const req_ops[] = {
	[REQ_IN] = "In", [REQ_NOT_IN] = "NotIn", [REQ_EXISTS] = "Exists",
	[REQ_DOES_NOT_EXIST] = "DoesNotExist", [REQ_GT] = "Gt", [REQ_LT] = "Lt",
};

static int read_reqs(struct loader *L, const struct ynode *v, struct as_pool *p)
{
	if (!y_want(L, v, Y_SEQ, "requirements"))
		return 0;
	for (uint32_t i = 0; i < v->n; i++) {
		const struct ynode *r = &v->kids[i];
		static const char *const keys[] = {"key", "operator", "values", "minValues", NULL};
		if (!y_want(L, r, Y_MAP, "requirements' entry") ||
		    !known_keys(L, r, "a requirement", keys, "key, operator, values or minValues"))
			return 0;
		if (!grow(L, (void **)&p->reqs, p->nreqs, sizeof(*p->reqs)))
			return 0;
		struct as_req *q = &p->reqs[p->nreqs++];
		if (!y_str(L, y_get(r, "key"), "key", &q->key))
			return 0;
		if (!q->key) {
			load_err_at(L, r, "requirement has no key (expected 'key')");
			return 0;
		}
		const struct ynode *op = y_get(r, "operator");
		if (y_absent(op) || !y_want(L, op, Y_SCALAR, "operator")) {
			if (y_absent(op))
				load_err_at(L, r, "requirement has no operator (expected In, NotIn, Exists, DoesNotExist, Gt or Lt)");
			return 0;
		}
		unsigned k = 0;
		for (; k < sizeof(req_ops) / sizeof(req_ops[0]); k++)
			if (!strcmp(op->s, req_ops[k]))
				break;
		if (k == sizeof(req_ops) / sizeof(req_ops[0])) {
			load_err_at(L, op, "unknown requirement operator '%s' (expected In, NotIn, Exists, DoesNotExist, Gt or Lt)", op->s);
			return 0;
		}
		q->op = (enum as_req_op)k;
		const struct ynode *vals = y_get(r, "values");
		if (!y_absent(vals) && !y_syms(L, vals, "values", &q->vals, &q->nvals))
			return 0;
	}
	return 1;
}

/* spec.limits is a ResourceList: every key is a resource the NodePool may
 * not exceed (scheduler.go filterByRemainingResources reads them all). */
static int read_limits(struct loader *L, const struct ynode *v, struct as_pool *p)
{
	if (!y_want(L, v, Y_MAP, "limits"))
		return 0;
	for (uint32_t i = 0; i < v->n; i++) {
		const struct ynode *k = &v->kids[2 * i], *q = &v->kids[2 * i + 1];
		int64_t val = 0;
		if (y_key_is(k, "nodes")) {
			/* a ResourceList entry: a quantity, "4" as well as 4 */
			bool neg = false;
			if (q->type == Y_SCALAR && q->quoted) {
				if (!quantity_parse(q->s, strlen(q->s), NULL, &val, &neg) || neg || val > INT32_MAX) {
					load_err_at(L, q, "limits.nodes: '%s' is not a node count (expected a whole number of nodes, as 4)",
						    q->s);
					return 0;
				}
			} else if (!y_int(L, q, "limits.nodes", 0, INT32_MAX, &val)) {
				return 0;
			}
		} else {
			/* a quantity: cpu in millicores, the rest in units */
			int64_t milli = 0, units = 0;
			bool neg = false;
			char qbuf[32];
			const char *qt;
			size_t qlen;
			if (!y_qty_text(L, q, "limits", k->s, true, qbuf, sizeof(qbuf), &qt, &qlen))
				return 0;
			if (!quantity_parse(qt, qlen, &milli, &units, &neg)) {
				load_err_at(L, q, "invalid quantity '%s' for 'limits.%s' (expected a quantity such as 100, 500m or 64Gi)",
					    q->s, k->s);
				return 0;
			}
			if (neg) {
				load_err_at(L, q, "negative quantity '%s' for 'limits.%s' (expected 0 or more: a NodePool's limit caps what it may launch)",
					    q->s, k->s);
				return 0;
			}
			val = y_key_is(k, "cpu") ? milli : units;
		}
		sym_t res = intern_n(L->in, k->s, k->len);
		if (!res)
			return load_oom(L);
		uint32_t j = 0;
		while (j < p->nlimits && p->limits[j].res != res)
			j++;
		if (j == p->nlimits) {
			if (!grow(L, (void **)&p->limits, p->nlimits, sizeof(*p->limits)))
				return 0;
			p->nlimits++;
		}
		p->limits[j] = (struct as_limit){res, val};
	}
	return 1;
}

static void read_pool_fields(struct loader *L, struct as_config *c, const struct ynode *at, const struct ynode *name,
			     const struct ynode *weight, const struct ynode *labels, const struct ynode *taints,
			     const struct ynode *reqs, const struct ynode *limits, const struct ynode *itypes)
{
	if (!grow(L, (void **)&c->pools, c->npools, sizeof(*c->pools)))
		return;
	struct as_pool *p = &c->pools[c->npools++];
	p->line = at->line;
	p->col = at->col;
	if (!y_str(L, name, "name", &p->name))
		return;
	if (!p->name || !intern_len(L->in, p->name)) {
		load_err_at(L, at, "NodePool has no name (expected 'name')");
		return;
	}
	for (uint32_t i = 0; i + 1 < c->npools; i++)
		if (c->pools[i].name == p->name) {
			load_err_at(L, name, "duplicate NodePool '%s' (expected unique names)", intern_get(L->in, p->name));
			return;
		}
	if (!y_absent(weight) && !y_int(L, weight, "weight", 0, 100, &p->weight))
		return;
	if (!y_absent(labels) && !y_labels(L, labels, "labels", &p->labels))
		return;
	if (!y_absent(taints)) {
		struct ynode kk = {.type = Y_SCALAR, .s = (char *)"taints", .len = 6};
		struct ynode kids[2] = {kk, *taints};
		struct ynode m = {.type = Y_MAP, .kids = kids, .n = 1, .cap = 1, .line = taints->line, .col = taints->col};
		struct node n;
		if (!node_like(L, &m, "taints", "pool", &n))
			return;
		p->taints = n.taints;
		p->ntaints = n.ntaints;
		n.taints = NULL;
		n.ntaints = 0;
		node_fini(&n);
	}
	if (!y_absent(reqs) && !read_reqs(L, reqs, p))
		return;
	if (!y_absent(limits) && !read_limits(L, limits, p))
		return;
	if (!y_absent(itypes)) {
		if (!y_syms(L, itypes, "instanceTypes", &p->itypes, &p->nitypes))
			return;
		p->has_itypes = true;
	}
}

static void read_pool(struct loader *L, struct as_config *c, const struct ynode *m)
{
	static const char *const keys[] = {"name", "weight", "labels", "taints", "requirements", "limits",
		"instanceTypes", NULL};
	if (!y_want(L, m, Y_MAP, "nodePools' entry") ||
	    !known_keys(L, m, "a NodePool", keys, "name, weight, labels, taints, requirements, limits or instanceTypes"))
		return;
	read_pool_fields(L, c, m, y_get(m, "name"), y_get(m, "weight"), y_get(m, "labels"), y_get(m, "taints"),
			 y_get(m, "requirements"), y_get(m, "limits"), y_get(m, "instanceTypes"));
}

void load_nodepool_object(struct loader *L, const struct ynode *m)
{
	struct as_config *c = cfg_of(L);
	if (!c)
		return;
	const struct ynode *meta = y_get(m, "metadata"), *spec = y_get(m, "spec");
	const struct ynode *tmpl = y_get(spec, "template");
	const struct ynode *tmeta = y_get(tmpl, "metadata"), *tspec = y_get(tmpl, "spec");
	read_pool_fields(L, c, m, y_get(meta, "name"), y_get(spec, "weight"), y_get(tmeta, "labels"),
			 y_get(tspec, "taints"), y_get(tspec, "requirements"), y_get(spec, "limits"), NULL);
}

static void read_list(struct loader *L, const struct ynode *v, const char *what,
		      void (*one)(struct loader *, struct as_config *, const struct ynode *))
{
	struct as_config *c = cfg_of(L);
	if (!c || !y_want(L, v, Y_SEQ, what))
		return;
	for (uint32_t i = 0; i < v->n && !L->oom; i++)
		one(L, c, &v->kids[i]);
}

bool load_autoscale_key(struct loader *L, const struct ynode *k, const struct ynode *v)
{
	if (y_key_is(k, "autoscaler")) {
		if (!y_absent(v))
			read_autoscaler(L, v);
	} else if (y_key_is(k, "nodeGroups")) {
		if (!y_absent(v))
			read_list(L, v, "nodeGroups", read_group);
	} else if (y_key_is(k, "instanceTypes")) {
		if (!y_absent(v))
			read_list(L, v, "instanceTypes", read_itype);
	} else if (y_key_is(k, "nodePools")) {
		if (!y_absent(v))
			read_list(L, v, "nodePools", read_pool);
	} else {
		return false;
	}
	return true;
}

/* A node a group's selector takes that another group lists or selects
 * too: CA's cloud provider answers one group per node
 * (NodeGroupForNode). */
static void member_by_selector(struct loader *L, const struct as_config *c)
{
	const struct cluster *cl = L->c;
	bool any = false;
	for (uint32_t i = 0; i < c->ngroups; i++)
		any |= c->groups[i].has_selector;
	if (!any || !cl->nnodes)
		return;
	int32_t *owner = malloc(cl->nnodes * sizeof(*owner));
	if (!owner) {
		load_oom(L);
		return;
	}
	for (uint32_t id = 0; id < cl->nnodes; id++)
		owner[id] = -1;
	for (uint32_t i = 0; i < c->ngroups; i++)
		for (uint32_t j = 0; j < c->groups[i].nnodes; j++) {
			int32_t id = cluster_find_node(cl, c->groups[i].nodes[j]);
			if (id >= 0 && owner[id] < 0)
				owner[id] = (int32_t)i;
		}
	for (uint32_t id = 0; id < cl->nnodes; id++) {
		const struct node *n = &cl->nodes[id];
		if (!n->alive)
			continue;
		for (uint32_t i = 0; i < c->ngroups; i++) {
			const struct as_group *g = &c->groups[i];
			if (!g->has_selector || owner[id] == (int32_t)i)
				continue;
			bool all = true;
			for (uint32_t k = 0; k < g->selector.n && all; k++)
				all = labels_get(&n->labels, g->selector.v[k].key) == g->selector.v[k].val;
			if (!all)
				continue;
			if (owner[id] >= 0) {
				load_err(L, g->sel_line, g->sel_col,
					 "node '%s' is in two node groups, '%s' and '%s' (its selector takes it too; expected each node in at most one group)",
					 intern_get(L->in, n->name), intern_get(L->in, c->groups[owner[id]].name),
					 intern_get(L->in, g->name));
				free(owner);
				return;
			}
			owner[id] = (int32_t)i;
		}
	}
	free(owner);
}

/* Each pattern of the priority expander's `priorities` names a node
 * group: upstream ignores one that matches none (expander/priority
 * priority.go), which here is a typo that silently changes the choice. */
static void priorities_match(struct loader *L, const struct as_config *c)
{
	const struct as_settings *s = &c->set;
	if (!c->ngroups)
		return;
	for (uint32_t i = 0; i < s->nprios; i++)
		for (uint32_t j = 0; j < s->prios[i].n; j++) {
			regex_t rx;
			if (regcomp(&rx, s->prios[i].regex[j], REG_EXTENDED | REG_NOSUB))
				continue;
			bool hit = false;
			for (uint32_t g = 0; g < c->ngroups && !hit; g++)
				hit = !regexec(&rx, intern_get(L->in, c->groups[g].name), 0, NULL, 0);
			regfree(&rx);
			if (!hit)
				load_err(L, s->prios[i].lines ? s->prios[i].lines[j] : 0,
					 s->prios[i].cols ? s->prios[i].cols[j] : 0,
					 "priority expander pattern '%s' matches no node group (expected a regular expression matching a name in 'nodeGroups', as ^%s$)",
					 s->prios[i].regex[j], intern_get(L->in, c->groups[0].name));
		}
}

/* After every file: the groups' members are nodes, in one group each;
 * size is not below the member count. */
void load_autoscale_finish(struct loader *L)
{
	struct as_config *c = L->sc->autoscale;
	if (!c)
		return;
	for (uint32_t i = 0; i < c->ngroups; i++) {
		struct as_group *g = &c->groups[i];
		for (uint32_t j = 0; j < g->nnodes; j++) {
			uint32_t line = g->node_lines ? g->node_lines[j] : g->line;
			uint32_t col = g->node_cols ? g->node_cols[j] : g->col;
			if (cluster_find_node(L->c, g->nodes[j]) < 0) {
				load_err(L, line, col, "node group '%s' lists node '%s', which is no node (expected a name from 'nodes')",
					 intern_get(L->in, g->name), intern_get(L->in, g->nodes[j]));
				continue;
			}
			for (uint32_t a = 0; a <= i; a++)
				for (uint32_t b = 0; b < c->groups[a].nnodes && (a < i || b < j); b++)
					if (c->groups[a].nodes[b] == g->nodes[j]) {
						load_err(L, line, col, "node '%s' is in two node groups, '%s' and '%s' (expected each node in at most one group)",
							 intern_get(L->in, g->nodes[j]), intern_get(L->in, c->groups[a].name),
							 intern_get(L->in, g->name));
						a = i + 1;
						break;
					}
		}
		if (g->has_size && g->size < g->nnodes)
			load_err(L, g->line, g->col, "node group '%s' has size %lld below its %u member nodes (expected size >= the members)",
				 intern_get(L->in, g->name), (long long)g->size, g->nnodes);
		if (g->nnodes > g->max && !g->has_size)
			load_err(L, g->line, g->col, "node group '%s' has %u member nodes above its max %lld (expected max >= the members)",
				 intern_get(L->in, g->name), g->nnodes, (long long)g->max);
		if (!g->nnodes && !g->has_selector && !g->has_template)
			load_err(L, g->line, g->col, "node group '%s' has no member nodes and no template (expected 'nodes', 'selector' or 'template')",
				 intern_get(L->in, g->name));
	}
	member_by_selector(L, c);
	priorities_match(L, c);
	for (uint32_t i = 0; i < c->npools; i++)
		for (uint32_t j = 0; j < c->pools[i].nitypes; j++) {
			bool found = false;
			for (uint32_t k = 0; k < c->nitypes && !found; k++)
				found = c->itypes[k].name == c->pools[i].itypes[j];
			if (!found)
				load_err(L, c->pools[i].line, c->pools[i].col, "NodePool '%s' names instance type '%s', which is not in 'instanceTypes'",
					 intern_get(L->in, c->pools[i].name), intern_get(L->in, c->pools[i].itypes[j]));
		}
}

/* ---- the scaleUp step ---- */

static int to_val(struct loader *L, const struct ynode *n, struct as_val *out)
{
	memset(out, 0, sizeof(*out));
	out->line = n->line;
	out->col = n->col;
	switch (n->type) {
	case Y_NULL:
		out->type = AV_NULL;
		return 1;
	case Y_SCALAR:
		out->type = AV_STR;
		return (out->s = load_strdup(n->s)) ? 1 : load_oom(L);
	case Y_SEQ:
	case Y_MAP: {
		out->type = n->type == Y_SEQ ? AV_SEQ : AV_MAP;
		if (!n->n)
			return 1;
		out->kids = calloc(n->n, sizeof(*out->kids));
		if (!out->kids)
			return load_oom(L);
		if (n->type == Y_MAP && !(out->keys = calloc(n->n, sizeof(char *))))
			return load_oom(L);
		for (uint32_t i = 0; i < n->n; i++) {
			out->n = i + 1;
			const struct ynode *v = n->type == Y_SEQ ? &n->kids[i] : &n->kids[2 * i + 1];
			if (n->type == Y_MAP) {
				const struct ynode *k = &n->kids[2 * i];
				if (!y_want(L, k, Y_SCALAR, "key"))
					return 0;
				if (!(out->keys[i] = load_strdup(k->s)))
					return load_oom(L);
			}
			if (!to_val(L, v, &out->kids[i]))
				return 0;
		}
		return 1;
	}
	default:
		return 0;
	}
}

int load_scale_up_step(struct loader *L, const struct ynode *aval, const struct ynode *ekey,
		       const struct ynode *expect, struct step *st)
{
	struct as_step *a = st->arg;
	static const char *const also[] = {"autoscaler", "dryRun", NULL};
	(void)ekey;
	if (!a)
		return 1;
	if (!y_absent(aval) && aval->type == Y_MAP && !read_settings(L, aval, "scaleUp", &a->over, also))
		return 0;
	if (expect) {
		static const char *const keys[] = {"pods", "added", "zones", "groups", "estimate", "helped",
			"chosen", "resized", "for", "groupDomains", "groupGlobalMin", "nodeClaims", "errors",
			"domains", "globalMin", "events", "relaxed", NULL};
		if (!y_want(L, expect, Y_MAP, "expect") ||
		    !known_keys(L, expect, "a scaleUp's expect", keys,
				"pods, added, zones, groups, estimate, helped, chosen, resized, for, groupDomains, groupGlobalMin, nodeClaims, errors, domains, globalMin, events or relaxed"))
			return 0;
		if (!to_val(L, expect, &a->expect))
			return 0;
		a->has_expect = true;
	}
	return 1;
}
