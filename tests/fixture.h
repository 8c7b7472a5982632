/* fixture.h - load a scenario from a string for model tests. */
#ifndef SKEWER_TEST_FIXTURE_H
#define SKEWER_TEST_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../load/load.h"
#include "../model/sched.h"
#include "../model/timeline.h"

static inline struct scenario *fixture_load(const char *yaml)
{
	struct scenario *sc = NULL;
	struct load_errors errs;
	memset(&errs, 0, sizeof(errs));
	if (!load_scenario_mem("fixture.yaml", yaml, strlen(yaml), NULL, &sc, &errs)) {
		for (uint32_t i = 0; i < errs.n; i++)
			fprintf(stderr, "fixture.yaml:%u:%u: %s\n", errs.v[i].line, errs.v[i].col, errs.v[i].msg);
		load_errors_fini(&errs);
		fail_msg("fixture did not load");
	}
	load_errors_fini(&errs);
	return sc;
}

static inline int32_t fixture_node(const struct scenario *sc, const char *name)
{
	sym_t s = intern_find(sc->cluster->in, name, strlen(name));
	return s ? cluster_find_node(sc->cluster, s) : -1;
}

/* The node_rec of a named node. */
static inline const struct node_rec *fixture_rec(const struct scenario *sc, const struct decision *d,
						 const char *name)
{
	int32_t id = fixture_node(sc, name);
	assert_true(id >= 0);
	const struct node_rec *r = decision_node(d, (uint32_t)id);
	assert_non_null(r);
	return r;
}

static inline int64_t fixture_dom(const struct scenario *sc, const struct constraint_rec *r,
				  const char *value)
{
	for (uint32_t i = 0; i < r->ndoms; i++)
		if (r->doms[i].exists && strcmp(intern_get(sc->cluster->in, r->doms[i].value), value) == 0)
			return r->doms[i].count;
	return -1;
}

#endif
