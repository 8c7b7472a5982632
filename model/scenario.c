/* scenario.c - lifecycles of scenarios, steps and expectations. */
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
	memset(e, 0, sizeof(*e));
}

void step_fini(struct step *s)
{
	free(s->note);
	pod_fini(&s->pod);
	node_fini(&s->new_node);
	expect_fini(&s->expect);
	memset(s, 0, sizeof(*s));
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
	free(s);
}

const char *step_kind_name(enum step_kind k)
{
	static const char *const names[] = {
		[STEP_SCHEDULE] = "schedule", [STEP_DELETE] = "delete", [STEP_RETRY] = "retry",
		[STEP_CORDON] = "cordon", [STEP_UNCORDON] = "uncordon", [STEP_ADD_NODE] = "addNode",
		[STEP_REMOVE_NODE] = "removeNode", [STEP_TAINT] = "taint", [STEP_UNTAINT] = "untaint",
		[STEP_LABEL] = "label",
	};
	return (unsigned)k < sizeof(names) / sizeof(*names) ? names[k] : "?";
}
