/* load_search.c - the top-level `search:` list: the searches `skewer
 * check` runs on the scenario and what each must find (debugging
 * contract section 4; docs/scenario-format.md). */
#include "loader.h"

#include <stdlib.h>
#include <string.h>

static int one(struct loader *L, const struct ynode *m, struct search_expect *x)
{
	if (!y_want(L, m, Y_MAP, "search's entry"))
		return 0;
	x->line = m->line;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		if (y_key_is(k, "choices")) {
			sym_t s;
			if (!y_want(L, v, Y_SCALAR, "choices") || !y_str(L, v, "choices", &s))
				return 0;
			const char *t = intern_get(L->in, s);
			if (strcmp(t, "ties") && strcmp(t, "feasible")) {
				load_err_at(L, v, "search: choices '%s' (expected ties or feasible)", t);
				return 0;
			}
			x->feasible = !strcmp(t, "feasible");
		} else if (y_key_is(k, "orders")) {
			if (!y_bool(L, v, "orders", &x->orders))
				return 0;
		} else if (y_key_is(k, "maxStates")) {
			int64_t n;
			if (!y_int(L, v, "maxStates", 1, INT64_MAX, &n))
				return 0;
			x->max_states = (uint64_t)n;
		} else if (y_key_is(k, "stuck")) {
			x->has_stuck = true;
			if (!y_bool(L, v, "stuck", &x->stuck))
				return 0;
		} else if (y_key_is(k, "complete")) {
			x->has_complete = true;
			if (!y_bool(L, v, "complete", &x->complete))
				return 0;
		} else if (y_key_is(k, "pod")) {
			if (!y_want(L, v, Y_SCALAR, "pod") || !y_str(L, v, "pod", &x->pod))
				return 0;
		} else if (y_key_is(k, "message")) {
			if (!y_want(L, v, Y_SCALAR, "message") || !y_str(L, v, "message", &x->message))
				return 0;
		} else {
			load_err_at(L, k, "unknown search key '%s' (expected choices, orders, maxStates, stuck, "
				    "complete, pod or message)", k->s);
			return 0;
		}
	}
	return 1;
}

int load_search_expect(struct loader *L, const struct ynode *n)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "search"))
		return 0;
	struct scenario *sc = L->sc;
	struct search_expect *v = realloc(sc->searches, (sc->nsearches + n->n + 1) * sizeof(*v));
	if (!v)
		return load_oom(L);
	sc->searches = v;
	for (uint32_t i = 0; i < n->n; i++) {
		struct search_expect *x = &v[sc->nsearches];
		memset(x, 0, sizeof(*x));
		if (!one(L, &n->kids[i], x))
			return 0;
		sc->nsearches++;
	}
	return 1;
}
