/* config.c - the autoscaler inputs, the expect tree and the report:
 * names, copies and frees. */
#include "autoscale.h"

#include <stdlib.h>
#include <string.h>

static const char *const exp_names[] = {
	[EXP_RANDOM] = "random", [EXP_MOST_PODS] = "most-pods", [EXP_LEAST_WASTE] = "least-waste",
	[EXP_LEAST_NODES] = "least-nodes", [EXP_PRICE] = "price", [EXP_PRIORITY] = "priority",
};

const char *as_expander_name(enum as_expander e)
{
	return (unsigned)e < sizeof(exp_names) / sizeof(exp_names[0]) ? exp_names[e] : "?";
}

int as_expander_parse(const char *s)
{
	for (unsigned i = 0; i < sizeof(exp_names) / sizeof(exp_names[0]); i++)
		if (!strcmp(s, exp_names[i]))
			return (int)i;
	return -1;
}

static void prios_fini(struct as_priority *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < p[i].n; j++)
			free(p[i].regex[j]);
		free(p[i].regex);
		free(p[i].lines);
		free(p[i].cols);
	}
	free(p);
}

void as_settings_fini(struct as_settings *s)
{
	prios_fini(s->prios, s->nprios);
	free(s->balance_ignore);
	memset(s, 0, sizeof(*s));
}

int as_settings_copy(struct as_settings *dst, const struct as_settings *src)
{
	*dst = *src;
	dst->prios = NULL;
	dst->nprios = 0;
	dst->balance_ignore = NULL;
	dst->nbalance_ignore = 0;
	if (src->nbalance_ignore) {
		dst->balance_ignore = malloc(src->nbalance_ignore * sizeof(sym_t));
		if (!dst->balance_ignore)
			return 0;
		memcpy(dst->balance_ignore, src->balance_ignore, src->nbalance_ignore * sizeof(sym_t));
		dst->nbalance_ignore = src->nbalance_ignore;
	}
	if (src->nprios) {
		dst->prios = calloc(src->nprios, sizeof(*dst->prios));
		if (!dst->prios)
			return 0;
		dst->nprios = src->nprios;
		for (uint32_t i = 0; i < src->nprios; i++) {
			dst->prios[i].prio = src->prios[i].prio;
			dst->prios[i].regex = calloc(src->prios[i].n + 1, sizeof(char *));
			if (!dst->prios[i].regex)
				return 0;
			for (uint32_t j = 0; j < src->prios[i].n; j++) {
				if (!(dst->prios[i].regex[j] = strdup(src->prios[i].regex[j])))
					return 0;
				dst->prios[i].n = j + 1;
			}
		}
	}
	return 1;
}

void as_config_free(struct as_config *c)
{
	if (!c)
		return;
	as_settings_fini(&c->set);
	for (uint32_t i = 0; i < c->ngroups; i++) {
		struct as_group *g = &c->groups[i];
		free(g->nodes);
		free(g->node_lines);
		free(g->node_cols);
		labels_fini(&g->selector);
		if (g->has_template)
			node_fini(&g->tmpl);
		for (uint32_t j = 0; j < g->ntmpl_pods; j++)
			pod_fini(&g->tmpl_pods[j]);
		free(g->tmpl_pods);
		free(g->zones);
	}
	free(c->groups);
	for (uint32_t i = 0; i < c->nitypes; i++) {
		labels_fini(&c->itypes[i].labels);
		free(c->itypes[i].alloc.ext);
		free(c->itypes[i].offers);
	}
	free(c->itypes);
	for (uint32_t i = 0; i < c->npools; i++) {
		struct as_pool *p = &c->pools[i];
		labels_fini(&p->labels);
		free(p->taints);
		for (uint32_t j = 0; j < p->nreqs; j++)
			free(p->reqs[j].vals);
		free(p->reqs);
		free(p->limits);
		free(p->itypes);
	}
	free(c->pools);
	free(c);
}

void as_val_fini(struct as_val *v)
{
	free(v->s);
	for (uint32_t i = 0; i < v->n; i++) {
		as_val_fini(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

int as_val_copy(struct as_val *dst, const struct as_val *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->type = src->type;
	dst->line = src->line;
	dst->col = src->col;
	if (src->s && !(dst->s = strdup(src->s)))
		return 0;
	if (!src->n)
		return 1;
	dst->kids = calloc(src->n, sizeof(*dst->kids));
	if (!dst->kids)
		return 0;
	if (src->keys && !(dst->keys = calloc(src->n, sizeof(char *))))
		return 0;
	for (uint32_t i = 0; i < src->n; i++) {
		dst->n = i + 1;
		if (!as_val_copy(&dst->kids[i], &src->kids[i]))
			return 0;
		if (src->keys && !(dst->keys[i] = strdup(src->keys[i])))
			return 0;
	}
	return 1;
}

const struct as_val *as_val_get(const struct as_val *v, const char *k)
{
	if (!v || v->type != AV_MAP)
		return NULL;
	for (uint32_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], k))
			return &v->kids[i];
	return NULL;
}

static void strs_free(char **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void as_report_free(struct as_report *r)
{
	if (!r)
		return;
	free(r->error);
	strs_free(r->pods, r->npods);
	free(r->for_pod);
	for (uint32_t i = 0; i < r->ngroups; i++) {
		struct as_group_rep *g = &r->groups[i];
		free(g->name);
		free(g->reason);
		free(g->tmpl_from);
		free(g->tmpl_zone);
		free(g->detail);
		free(g->plugin);
		strs_free(g->domains, g->ndomains);
		free(g->gmin);
		strs_free(g->helped, g->nhelped);
	}
	free(r->groups);
	free(r->chosen);
	free(r->why);
	for (uint32_t i = 0; i < r->nresized; i++)
		free(r->resized[i].group);
	free(r->resized);
	for (uint32_t i = 0; i < r->nadded; i++) {
		free(r->added[i].name);
		free(r->added[i].group);
		free(r->added[i].zone);
		free(r->added[i].itype);
	}
	free(r->added);
	for (uint32_t i = 0; i < r->nevents; i++) {
		free(r->events[i].pod);
		free(r->events[i].reason);
		free(r->events[i].message);
	}
	free(r->events);
	for (uint32_t i = 0; i < r->nclaims; i++) {
		struct as_claim *c = &r->claims[i];
		free(c->name);
		free(c->pool);
		free(c->zone);
		free(c->itype);
		free(c->capacity);
		strs_free(c->pods, c->npods);
	}
	free(r->claims);
	for (uint32_t i = 0; i < r->nerrors; i++) {
		free(r->errors[i].pod);
		free(r->errors[i].error);
	}
	free(r->errors);
	for (uint32_t i = 0; i < r->nplaces; i++) {
		struct as_place *pl = &r->places[i];
		free(pl->pod);
		free(pl->result);
		free(pl->node);
		free(pl->claim);
		free(pl->zone);
		free(pl->error);
		strs_free(pl->relaxed, pl->nrelaxed);
	}
	free(r->places);
	strs_free(r->kdomains, r->nkdomains);
	free(r->kgmin);
	free(r);
}

void as_step_free(struct as_step *a)
{
	if (!a)
		return;
	as_settings_fini(&a->over);
	as_val_fini(&a->expect);
	free(a);
}

int as_step_copy(struct as_step **dst, const struct as_step *src)
{
	*dst = NULL;
	if (!src)
		return 1;
	struct as_step *a = calloc(1, sizeof(*a));
	if (!a)
		return 0;
	a->kind = src->kind;
	a->dry = src->dry;
	a->has_expect = src->has_expect;
	if (!as_settings_copy(&a->over, &src->over) || !as_val_copy(&a->expect, &src->expect)) {
		as_step_free(a);
		return 0;
	}
	*dst = a;
	return 1;
}
