/* scenario.c - lifecycles of scenarios and expectations (a step's are
 * the step table's, model/steps/step.c). */
#include "autoscale/autoscale.h"
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

void expect_fini(struct expect *e)
{
	free(e->nodes);
	free(e->feasible);
	free(e->filtered.kv);
	for (uint32_t i = 0; i < e->ndomains; i++)
		free(e->domains[i].kv);
	free(e->domains);
	free(e->global_min);
	for (uint32_t i = 0; i < e->nscores; i++)
		free(e->scores[i].nodes.kv);
	free(e->scores);
	for (uint32_t i = 0; i < e->nblockers; i++)
		free(e->blockers[i].vals);
	free(e->blockers);
	free(e->victims);
	free(e->fixes);
	free(e->deleted);
	memset(e, 0, sizeof(*e));
}

static int copy_syms(sym_t **dst, const sym_t *src, uint32_t n)
{
	*dst = NULL;
	if (!n)
		return 1;
	if (!(*dst = malloc(n * sizeof(**dst))))
		return 0;
	memcpy(*dst, src, n * sizeof(**dst));
	return 1;
}

static int copy_map(struct expect_map *dst, const struct expect_map *src)
{
	*dst = *src;
	dst->kv = NULL;
	if (!src->n)
		return 1;
	if (!(dst->kv = malloc(src->n * sizeof(*dst->kv))))
		return 0;
	memcpy(dst->kv, src->kv, src->n * sizeof(*dst->kv));
	return 1;
}

int expect_copy(struct expect *dst, const struct expect *src)
{
	*dst = *src;
	dst->nodes = dst->feasible = NULL;
	dst->filtered.kv = NULL;
	dst->domains = NULL;
	dst->global_min = NULL;
	dst->scores = NULL;
	dst->ndomains = dst->nscores = 0;
	dst->blockers = NULL;
	dst->nblockers = 0;
	dst->victims = NULL;
	dst->fixes = NULL;
	dst->deleted = NULL;
	if (!copy_syms(&dst->victims, src->victims, src->nvictims) ||
	    !copy_syms(&dst->fixes, src->fixes, src->nfixes) ||
	    !copy_syms(&dst->deleted, src->deleted, src->ndeleted))
		goto error;
	if (!copy_syms(&dst->nodes, src->nodes, src->nnodes) ||
	    !copy_syms(&dst->feasible, src->feasible, src->nfeasible) ||
	    !copy_map(&dst->filtered, &src->filtered))
		goto error;
	if (src->nglobal_min) {
		if (!(dst->global_min = malloc(src->nglobal_min * sizeof(*dst->global_min))))
			goto error;
		memcpy(dst->global_min, src->global_min, src->nglobal_min * sizeof(*dst->global_min));
	}
	if (src->ndomains) {
		if (!(dst->domains = calloc(src->ndomains, sizeof(*dst->domains))))
			goto error;
		dst->ndomains = src->ndomains;
		for (uint32_t i = 0; i < src->ndomains; i++)
			if (!copy_map(&dst->domains[i], &src->domains[i]))
				goto error;
	}
	if (src->nscores) {
		if (!(dst->scores = calloc(src->nscores, sizeof(*dst->scores))))
			goto error;
		dst->nscores = src->nscores;
		for (uint32_t i = 0; i < src->nscores; i++) {
			dst->scores[i].plugin = src->scores[i].plugin;
			if (!copy_map(&dst->scores[i].nodes, &src->scores[i].nodes))
				goto error;
		}
	}
	if (src->nblockers) {
		if (!(dst->blockers = calloc(src->nblockers, sizeof(*dst->blockers))))
			goto error;
		dst->nblockers = src->nblockers;
		for (uint32_t i = 0; i < src->nblockers; i++) {
			dst->blockers[i].key = src->blockers[i].key;
			dst->blockers[i].n = src->blockers[i].n;
			if (!copy_syms(&dst->blockers[i].vals, src->blockers[i].vals, src->blockers[i].n))
				goto error;
		}
	}
	return 1;
error:
	expect_fini(dst);
	memset(dst, 0, sizeof(*dst));
	return 0;
}

void scenario_free(struct scenario *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->description);
	free(s->source);
	cluster_free(s->cluster);
	for (uint32_t i = 0; i < s->nsteps; i++)
		step_fini(&s->steps[i]);
	free(s->steps);
	for (uint32_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	for (uint32_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->searches);
	as_config_free(s->autoscale);
	free(s);
}
