/* load_steps.c - the `steps` list: one action key per step, its options
 * (note, replicas, choose, expect), and the expansion of `replicas`. */
#include "loader.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum step_kind kind;
} actions[] = {
	{"schedule", STEP_SCHEDULE}, {"delete", STEP_DELETE},     {"retry", STEP_RETRY},
	{"cordon", STEP_CORDON},     {"uncordon", STEP_UNCORDON}, {"addNode", STEP_ADD_NODE},
	{"removeNode", STEP_REMOVE_NODE}, {"taint", STEP_TAINT},  {"untaint", STEP_UNTAINT},
	{"label", STEP_LABEL},
};

#define ACTION_LIST "schedule, delete, retry, cordon, uncordon, addNode, removeNode, taint, untaint or label"
#define NACTIONS (sizeof(actions) / sizeof(actions[0]))

/* ---- expect ---- */

static int load_expect_map(struct loader *L, const struct ynode *n, const char *what, bool ints,
			   struct expect_map *out)
{
	memset(out, 0, sizeof(*out));
	if (y_absent(n)) {
		out->is_null = true;
		return 1;
	}
	if (!y_want(L, n, Y_MAP, what))
		return 0;
	if (!n->n)
		return 1;
	if (!(out->kv = calloc(n->n, sizeof(*out->kv))))
		return load_oom(L);
	out->n = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *k = &n->kids[2 * i], *v = &n->kids[2 * i + 1];
		struct expect_kv *kv = &out->kv[i];
		if (!(kv->key = intern_n(L->in, k->s, k->len)))
			return load_oom(L);
		if (ints) {
			if (!y_int(L, v, what, INT64_MIN, INT64_MAX, &kv->ival))
				return 0;
		} else if (!y_str(L, v, what, &kv->sval)) {
			return 0;
		}
	}
	return 1;
}

/* "PluginA, PluginB or PluginC": every plugin name the model knows */
static char *plugin_list(void)
{
	size_t len = 1;
	for (int p = 0; p < PL__COUNT; p++)
		len += strlen(plugin_name((enum plugin_id)p)) + 4;
	char *s = malloc(len), *o = s;
	if (!s)
		return NULL;
	*o = '\0';
	for (int p = 0; p < PL__COUNT; p++) {
		const char *sep = !p ? "" : p == PL__COUNT - 1 ? " or " : ", ";
		o += sprintf(o, "%s%s", sep, plugin_name((enum plugin_id)p));
	}
	return s;
}

/* blockers: node -> every failing filter plugin, in filter order */
static int load_expect_blockers(struct loader *L, const struct ynode *n, struct expect *e)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_MAP, "blockers"))
		return 0;
	if (n->n && !(e->blockers = calloc(n->n, sizeof(*e->blockers))))
		return load_oom(L);
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *k = &n->kids[2 * i], *v = &n->kids[2 * i + 1];
		struct expect_list *b = &e->blockers[i];
		e->nblockers = i + 1;
		if (!(b->key = intern_n(L->in, k->s, k->len)))
			return load_oom(L);
		if (!y_syms(L, v, "blockers", &b->vals, &b->n))
			return 0;
		for (uint32_t j = 0; j < b->n; j++) {
			const char *name = intern_get(L->in, b->vals[j]);
			if (plugin_from_name(name) != PL_NONE)
				continue;
			char *list = plugin_list();
			if (!list)
				return load_oom(L);
			load_err_at(L, &v->kids[j], "unknown plugin '%s' in blockers of node '%s' (expected %s)",
				    name, k->s, list);
			free(list);
			return 0;
		}
	}
	return 1;
}

/* victims: "namespace/name" each; a bare name means default/name */
static int load_expect_victims(struct loader *L, const struct ynode *n, struct expect *e)
{
	if (!y_syms(L, n, "victims", &e->victims, &e->nvictims))
		return 0;
	for (uint32_t i = 0; i < e->nvictims; i++) {
		const char *t = intern_get(L->in, e->victims[i]);
		if (strchr(t, '/'))
			continue;
		char *full = load_fmt("default/%s", t);
		sym_t s = full ? intern_str(L->in, full) : SYM_NONE;
		free(full);
		if (!s)
			return load_oom(L);
		e->victims[i] = s;
	}
	return 1;
}

static int load_expect(struct loader *L, const struct ynode *key, const struct ynode *m,
		       struct expect *e)
{
	memset(e, 0, sizeof(*e));
	e->line = key->line;
	if (!y_want(L, m, Y_MAP, "expect"))
		return 0;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		if (y_key_is(k, "node")) {
			if (!y_want(L, v, Y_SCALAR, "node") || !y_str(L, v, "node", &e->node))
				return 0;
			e->has_node = true;
		} else if (y_key_is(k, "nodes")) {
			if (!y_syms(L, v, "nodes", &e->nodes, &e->nnodes))
				return 0;
			e->has_nodes = true;
		} else if (y_key_is(k, "feasible")) {
			if (!y_syms(L, v, "feasible", &e->feasible, &e->nfeasible))
				return 0;
			e->has_feasible = true;
		} else if (y_key_is(k, "filtered")) {
			if (!load_expect_map(L, v, "filtered", false, &e->filtered))
				return 0;
			e->has_filtered = true;
		} else if (y_key_is(k, "message")) {
			e->has_message = true;
			e->message_null = y_absent(v);
			if (!y_str(L, v, "message", &e->message))
				return 0;
		} else if (y_key_is(k, "invalid")) {
			if (!y_want(L, v, Y_SCALAR, "invalid") || !y_str(L, v, "invalid", &e->invalid))
				return 0;
			e->has_invalid = true;
		} else if (y_key_is(k, "domains")) {
			e->has_domains = true;
			if (y_absent(v))
				continue;
			if (!y_want(L, v, Y_SEQ, "domains"))
				return 0;
			if (v->n && !(e->domains = calloc(v->n, sizeof(*e->domains))))
				return load_oom(L);
			e->ndomains = v->n;
			for (uint32_t j = 0; j < v->n; j++)
				if (!load_expect_map(L, &v->kids[j], "domains' entry", true, &e->domains[j]))
					return 0;
		} else if (y_key_is(k, "globalMin")) {
			e->has_global_min = true;
			if (y_absent(v))
				continue;
			if (!y_want(L, v, Y_SEQ, "globalMin"))
				return 0;
			if (v->n && !(e->global_min = calloc(v->n, sizeof(*e->global_min))))
				return load_oom(L);
			e->nglobal_min = v->n;
			for (uint32_t j = 0; j < v->n; j++) {
				if (y_absent(&v->kids[j]))
					e->global_min[j].is_null = true;
				else if (!y_int(L, &v->kids[j], "globalMin", INT64_MIN, INT64_MAX,
						&e->global_min[j].v))
					return 0;
			}
		} else if (y_key_is(k, "scores")) {
			e->has_scores = true;
			if (y_absent(v))
				continue;
			if (!y_want(L, v, Y_MAP, "scores"))
				return 0;
			if (v->n && !(e->scores = calloc(v->n, sizeof(*e->scores))))
				return load_oom(L);
			e->nscores = v->n;
			for (uint32_t j = 0; j < v->n; j++) {
				const struct ynode *pk = &v->kids[2 * j];
				if (!(e->scores[j].plugin = intern_n(L->in, pk->s, pk->len)))
					return load_oom(L);
				if (!load_expect_map(L, &v->kids[2 * j + 1], "scores", true,
						     &e->scores[j].nodes))
					return 0;
			}
		} else if (y_key_is(k, "blockers")) {
			e->has_blockers = true;
			if (!load_expect_blockers(L, v, e))
				return 0;
		} else if (y_key_is(k, "event")) {
			if (!y_want(L, v, Y_SCALAR, "event") || !y_str(L, v, "event", &e->event))
				return 0;
			e->has_event = true;
		} else if (y_key_is(k, "nominated")) {
			e->has_nominated = true;
			e->nominated_null = y_absent(v);
			if (!y_str(L, v, "nominated", &e->nominated))
				return 0;
		} else if (y_key_is(k, "victims")) {
			e->has_victims = true;
			if (!load_expect_victims(L, v, e))
				return 0;
		} else if (y_key_is(k, "fixes")) {
			e->has_fixes = true;
			if (!y_syms(L, v, "fixes", &e->fixes, &e->nfixes))
				return 0;
		} else {
			load_err_at(L, k, "unknown expect key '%s' (expected node, nodes, feasible, filtered, message, invalid, domains, globalMin, scores, blockers, event, nominated, victims or fixes)",
				    k->s);
			return 0;
		}
	}
	return 1;
}

/* ---- steps ---- */

static int push_step(struct loader *L, struct step *s)
{
	if (L->nsteps == L->steps_cap) {
		uint32_t ncap = L->steps_cap ? L->steps_cap * 2 : 16;
		struct step *v = realloc(L->steps, (size_t)ncap * sizeof(*v));
		if (!v)
			return load_oom(L);
		L->steps = v;
		L->steps_cap = ncap;
	}
	L->steps[L->nsteps++] = *s;
	memset(s, 0, sizeof(*s));
	return 1;
}

static int node_name(struct loader *L, const struct ynode *v, const char *what, sym_t *out)
{
	if (!y_want(L, v, Y_SCALAR, what) || !y_str(L, v, what, out))
		return 0;
	return 1;
}

/* "name" or "namespace/name" */
static int pod_target(struct loader *L, const struct ynode *v, const char *what, struct step *st)
{
	if (!y_want(L, v, Y_SCALAR, what))
		return 0;
	const char *slash = memchr(v->s, '/', v->len);
	if (slash) {
		st->target_ns = intern_n(L->in, v->s, (size_t)(slash - v->s));
		st->target = intern_n(L->in, slash + 1, v->len - (size_t)(slash - v->s) - 1);
		if (!st->target_ns || !st->target)
			return load_oom(L);
	} else if (!(st->target = intern_n(L->in, v->s, v->len))) {
		return load_oom(L);
	}
	return 1;
}

static int node_field(struct loader *L, const struct ynode *m, const char *action, sym_t *out)
{
	const struct ynode *n = y_get(m, "node");
	if (y_absent(n)) {
		load_err_at(L, m, "%s step has no 'node' (expected the node name)", action);
		return 0;
	}
	return node_name(L, n, "node", out);
}

static int read_action(struct loader *L, const struct ynode *key, const struct ynode *v,
		       struct step *st)
{
	const char *a = key->s;
	switch (st->kind) {
	case STEP_SCHEDULE: {
		int r = load_pod(L, v, "schedule", true, &st->pod);
		if (r == 2) {
			load_err_at(L, v, "schedule pod has status.phase Succeeded or Failed (expected a pod to schedule)");
			return 0;
		}
		return r;
	}
	case STEP_DELETE:
	case STEP_RETRY:
		return pod_target(L, v, a, st);
	case STEP_CORDON:
	case STEP_UNCORDON:
	case STEP_REMOVE_NODE:
		return node_name(L, v, a, &st->node);
	case STEP_ADD_NODE:
		return load_node(L, v, a, &st->new_node);
	case STEP_TAINT:
	case STEP_UNTAINT:
		if (!y_want(L, v, Y_MAP, a) || !node_field(L, v, a, &st->node))
			return 0;
		if (y_absent(y_get(v, "key"))) {
			load_err_at(L, v, "%s step has no 'key' (expected the taint key)", a);
			return 0;
		}
		if (!load_taint(L, v, a, true, &st->taint))
			return 0;
		if (st->kind == STEP_TAINT && st->taint.effect == EFFECT_NONE) {
			load_err_at(L, v, "taint step has no 'effect' (expected NoSchedule, PreferNoSchedule or NoExecute)");
			return 0;
		}
		/* a node's taints are validated at load time; a step's too */
		if (st->taint.effect == EFFECT_INVALID) {
			load_err_at(L, v, "%s step has an unknown effect '%s' (expected NoSchedule, PreferNoSchedule or NoExecute)",
				    a, intern_get(L->in, st->taint.effect_text));
			return 0;
		}
		return 1;
	case STEP_LABEL:
		if (!y_want(L, v, Y_MAP, a) || !node_field(L, v, a, &st->node))
			return 0;
		if (y_absent(y_get(v, "key"))) {
			load_err_at(L, v, "label step has no 'key' (expected the label key)");
			return 0;
		}
		return y_str(L, y_get(v, "key"), "key", &st->label_key) &&
		       y_str(L, y_get(v, "value"), "value", &st->label_val);
	}
	return 0;
}

int load_step(struct loader *L, const struct ynode *m)
{
	struct step st;
	const struct ynode *akey = NULL, *aval = NULL, *note = NULL, *reps = NULL, *choose = NULL;
	const struct ynode *ekey = NULL, *expect = NULL;
	int64_t nrep = 0;
	int ok = 0;

	memset(&st, 0, sizeof(st));
	st.pod.node = -1;
	if (!y_want(L, m, Y_MAP, "steps' entry"))
		return 0;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		size_t j;
		if (y_key_is(k, "note")) {
			note = v;
			continue;
		} else if (y_key_is(k, "replicas")) {
			reps = v;
			continue;
		} else if (y_key_is(k, "choose")) {
			choose = v;
			continue;
		} else if (y_key_is(k, "expect")) {
			ekey = k;
			expect = v;
			continue;
		}
		for (j = 0; j < NACTIONS; j++)
			if (y_key_is(k, actions[j].name))
				break;
		if (j == NACTIONS) {
			load_err_at(L, k, "unknown step action '%s' (expected one of " ACTION_LIST ")",
				    k->s);
			return 0;
		}
		if (akey) {
			load_err_at(L, k, "step has two actions '%s' and '%s' (expected exactly one)",
				    akey->s, k->s);
			return 0;
		}
		akey = k;
		aval = v;
		st.kind = actions[j].kind;
	}
	if (!akey) {
		load_err_at(L, m, "step has no action (expected one of " ACTION_LIST ")");
		return 0;
	}
	st.line = akey->line;
	st.col = akey->col;
	if (reps && st.kind != STEP_SCHEDULE) {
		load_err_at(L, reps, "'replicas' on a %s step (expected it only with schedule)", akey->s);
		return 0;
	}
	if ((choose || expect) && st.kind != STEP_SCHEDULE && st.kind != STEP_RETRY) {
		load_err_at(L, choose ? choose : ekey,
			    "'%s' on a %s step (expected it only with schedule or retry)",
			    choose ? "choose" : "expect", akey->s);
		return 0;
	}
	if (reps && !y_int(L, reps, "replicas", 1, L->max_pods, &nrep))
		return 0;
	/* every pod a step creates counts against the pod limit, so that
	 * many steps with large `replicas` cannot exhaust memory */
	if (!load_count_steps(L, reps ? reps : akey, reps ? (uint64_t)nrep : 1))
		return 0;
	if (st.kind == STEP_SCHEDULE) {
		uint64_t n = reps ? (uint64_t)nrep : 1;
		if (L->npods_total + n > L->max_pods) {
			if (!L->pods_limit_reported)
				load_err_at(L, reps ? reps : akey, "more than %u pods (expected at most %u)",
					    L->max_pods, L->max_pods);
			L->pods_limit_reported = true;
			return 0;
		}
		L->npods_total += (uint32_t)n;
	}
	if (!read_action(L, akey, aval, &st))
		goto error;
	if (!y_absent(note)) {
		if (!y_want(L, note, Y_SCALAR, "note"))
			goto error;
		if (!(st.note = load_strdup(note->s))) {
			load_oom(L);
			goto error;
		}
	}
	if (!y_absent(choose) && !node_name(L, choose, "choose", &st.choose))
		goto error;
	if (expect) {
		if (!load_expect(L, ekey, expect, &st.expect))
			goto error;
		st.has_expect = true;
	}
	if (!reps)
		return push_step(L, &st);

	/* replicas: N steps NAME-1..NAME-N, each carrying the expect block */
	const char *base = intern_get(L->in, st.pod.name);
	for (uint32_t r = 1; r <= (uint32_t)nrep; r++) {
		struct step cp = st;
		char *nm = load_fmt("%s-%u", base, r);
		sym_t s = nm ? intern_str(L->in, nm) : SYM_NONE;
		free(nm);
		if (!s) {
			load_oom(L);
			goto error;
		}
		if (r < nrep && !step_copy(&cp, &st)) {
			load_oom(L);
			goto error;
		}
		cp.pod.name = s;
		cp.replica = r;
		cp.nreplicas = (uint32_t)nrep;
		if (!push_step(L, &cp)) {
			if (r < nrep)
				step_fini(&cp);
			goto error;
		}
		if (r == nrep)
			memset(&st, 0, sizeof(st)); /* the last copy took st's contents */
	}
	return 1;
error:
	step_fini(&st);
	return ok;
}
