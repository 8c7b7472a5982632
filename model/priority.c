/* priority.c - PriorityClass resolution (plugin/pkg/admission/priority). */
#include "priority.h"

#include <string.h>

/* pkg/apis/scheduling/v1/defaults.go systemPriorityClasses: both with
 * preemptionPolicy PreemptLowerPriority and not globalDefault */
static const struct priority_class system_classes[] = {
	{.name = SYM_NONE, .value = PRIORITY_SYSTEM_CLUSTER_CRITICAL},
	{.name = SYM_NONE, .value = PRIORITY_SYSTEM_NODE_CRITICAL},
};
static const char *const system_names[] = {"system-cluster-critical", "system-node-critical"};

const struct priority_class *priority_class_system(const char *name)
{
	for (size_t i = 0; name && i < sizeof(system_names) / sizeof(*system_names); i++)
		if (!strcmp(name, system_names[i]))
			return &system_classes[i];
	return NULL;
}

const struct priority_class *priority_class_find(const struct cluster *c, sym_t name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < c->npclasses; i++)
		if (c->pclasses[i].name == name)
			return &c->pclasses[i];
	return priority_class_system(intern_get(c->in, name));
}

/* admission.go getDefaultPriorityClass: the lowest value among the
 * globalDefault classes ("in case more than one ... as a result of a race") */
const struct priority_class *priority_class_default(const struct cluster *c)
{
	const struct priority_class *d = NULL;
	for (uint32_t i = 0; i < c->npclasses; i++)
		if (c->pclasses[i].global_default && (!d || d->value > c->pclasses[i].value))
			d = &c->pclasses[i];
	return d;
}

/* admission.go admitPod */
int32_t priority_of_spec(const struct cluster *c, const struct pod_spec *s)
{
	const struct priority_class *pc;
	if (s->has_priority)
		return s->priority;
	if (s->priority_class && intern_len(c->in, s->priority_class))
		pc = priority_class_find(c, s->priority_class);
	else
		pc = priority_class_default(c);
	return pc ? pc->value : 0;
}
