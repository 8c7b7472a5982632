/* schedulinggates.c - SchedulingGates: PreEnqueue
 * (schedulinggates/scheduling_gates.go): a pod with gates never enters
 * the queue, so no cycle runs for it. The timeline asks before a cycle
 * (run_preenqueue). */
#include <stdio.h>
#include <stdlib.h>

#include "../plugins.h"

static int preenqueue(const struct cluster *c, const struct pod *p, char **msg)
{
	if (!p->spec.ngates)
		return 1;
	/* UnschedulableAndUnresolvable, fmt.Sprintf("waiting for scheduling
	 * gates: %v", gates): Go prints a []string as [a b] */
	size_t n = 64;
	for (uint32_t i = 0; i < p->spec.ngates; i++)
		n += intern_len(c->in, p->spec.gates[i]) + 1;
	char *s = malloc(n);
	if (!s)
		return -1;
	size_t o = (size_t)snprintf(s, n, "waiting for scheduling gates: [");
	for (uint32_t i = 0; i < p->spec.ngates; i++)
		o += (size_t)snprintf(s + o, n - o, "%s%s", i ? " " : "", intern_get(c->in, p->spec.gates[i]));
	snprintf(s + o, n - o, "]");
	*msg = s;
	return 0;
}

static bool lean_skip(const struct cluster *c, const struct pod *p)
{
	(void)c, (void)p;
	return true; /* nothing in the cycle */
}

const struct plugin_ops plugin_scheduling_gates = {
	.lean_skip = lean_skip,
	.preenqueue = preenqueue,
};
