/* load_steps.c - the `steps` list: one action key per step, its options
 * (note, replicas, choose, expect), and the expansion of `replicas`. */
#include "loader.h"
#include "../model/quantity.h"
#include "../model/steps/step.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "schedule, delete, ... or label": the step table's names, those with
 * flag when flag is not 0. */
static char *action_list(unsigned flag)
{
	size_t len = 1;
	uint32_t n = 0, k = 0;
	for (int i = 0; i < STEP__COUNT; i++)
		if (!flag || (step_ops_of((enum step_kind)i)->flags & flag)) {
			len += strlen(step_kind_name((enum step_kind)i)) + 4;
			n++;
		}
	char *s = malloc(len), *o = s;
	if (!s)
		return NULL;
	*o = '\0';
	for (int i = 0; i < STEP__COUNT; i++) {
		if (flag && !(step_ops_of((enum step_kind)i)->flags & flag))
			continue;
		const char *sep = !k ? "" : k == n - 1 ? " or " : ", ";
		o += sprintf(o, "%s%s", sep, step_kind_name((enum step_kind)i));
		k++;
	}
	return s;
}

/* Reports fmt with a and the list of the kinds with flag (all: 0) at
 * `at`; fmt's first %s is a, its second the list. Returns 0. */
static int action_error(struct loader *L, const struct ynode *at, const char *fmt, const char *a,
			unsigned flag)
{
	char *list = action_list(flag);
	if (!list)
		return load_oom(L);
	load_err_at(L, at, fmt, a, list);
	free(list);
	return 0;
}

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
		char *full = out_strf("default/%s", t);
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
		} else if (y_key_is(k, "deleted")) {
			e->has_deleted = true;
			if (!y_absent(v) && !y_syms(L, v, "deleted", &e->deleted, &e->ndeleted))
				return 0;
		} else if (y_key_is(k, "deletedCount")) {
			e->has_deleted_count = true;
			if (!y_int(L, v, "deletedCount", 0, INT32_MAX, &e->deleted_count))
				return 0;
		} else if (y_key_is(k, "created")) {
			e->has_created = true;
			if (!y_int(L, v, "created", 0, INT32_MAX, &e->created))
				return 0;
		} else {
			load_err_at(L, k, "unknown expect key '%s' (expected node, nodes, feasible, filtered, message, invalid, domains, globalMin, scores, blockers, event, nominated, victims, fixes, deleted, deletedCount or created)",
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

/* ---- the step reader: a kind's read (model/steps/) over the tree ---- */

static const struct ynode *YN(const struct step_value *v)
{
	return (const struct ynode *)v;
}

static bool r_absent(const struct step_value *v)
{
	return y_absent(YN(v));
}

static const struct step_value *r_get(const struct step_value *map, const char *key)
{
	return (const struct step_value *)y_get(YN(map), key);
}

static int r_want_map(struct step_reader *r, const struct step_value *v, const char *what)
{
	return y_want(r->ctx, YN(v), Y_MAP, what);
}

static int r_scalar(struct step_reader *r, const struct step_value *v, const char *what, sym_t *out)
{
	return node_name(r->ctx, YN(v), what, out);
}

static int r_text(struct step_reader *r, const struct step_value *v, const char *what, const char **s,
		  size_t *len)
{
	if (!y_want(r->ctx, YN(v), Y_SCALAR, what))
		return 0;
	*s = YN(v)->s;
	*len = YN(v)->len;
	return 1;
}

static int r_str(struct step_reader *r, const struct step_value *v, const char *what, sym_t *out)
{
	return y_str(r->ctx, YN(v), what, out);
}

static int r_int(struct step_reader *r, const struct step_value *v, const char *what, int64_t lo,
		 int64_t hi, int64_t *out)
{
	return y_int(r->ctx, YN(v), what, lo, hi, out);
}

static int r_bool(struct step_reader *r, const struct step_value *v, const char *what, bool *out)
{
	return y_bool(r->ctx, YN(v), what, out);
}

static int r_quantity(struct step_reader *r, const struct step_value *v, const char *what,
		      int64_t *milli, int64_t *units)
{
	const struct ynode *n = YN(v);
	int64_t m = 0, u = 0;
	bool neg;
	if (!n || n->type != Y_SCALAR || !quantity_parse(n->s, n->len, &m, &u, &neg)) {
		if (!n || n->type != Y_BAD)
			load_err_at(r->ctx, n, "invalid quantity '%s' for '%s' (expected a quantity such as 500m, 2 or 16Gi)",
				    n && n->s ? n->s : y_type_name(n), what);
		return 0;
	}
	if (milli)
		*milli = m;
	if (units)
		*units = u;
	return 1;
}

static int r_labels(struct step_reader *r, const struct step_value *v, const char *what,
		    struct labels *out)
{
	return y_labels(r->ctx, YN(v), what, out);
}

static int r_pod(struct step_reader *r, const struct step_value *v, const char *what, struct pod *out)
{
	return load_pod(r->ctx, YN(v), what, true, out);
}

static int r_tpl(struct step_reader *r, const struct step_value *v, const char *what, struct pod *out)
{
	struct loader *L = r->ctx;
	bool was = L->reading_template;
	L->reading_template = true;
	int rc = load_pod(L, YN(v), what, true, out);
	L->reading_template = was;
	return rc;
}

static int r_strs(struct step_reader *r, const struct step_value *v, const char *what, sym_t **out,
		  uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (y_absent(YN(v)))
		return 1;
	return y_syms(r->ctx, YN(v), what, out, n);
}

static int r_node(struct step_reader *r, const struct step_value *v, const char *what, struct node *out)
{
	return load_node(r->ctx, YN(v), what, out);
}

static int r_taint(struct step_reader *r, const struct step_value *v, const char *what, struct taint *out)
{
	return load_taint(r->ctx, YN(v), what, strcmp(what, "untaint") ? TAINT_ADD : TAINT_REMOVE, out);
}

static int r_storage(struct step_reader *r, const struct step_value *v, const char *what, struct storage *out)
{
	return load_storage_into(r->ctx, YN(v), what, out);
}

static void r_error(struct step_reader *r, const struct step_value *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	load_verr_at(r->ctx, YN(at), fmt, ap);
	va_end(ap);
}

static int r_oom(struct step_reader *r)
{
	return load_oom(r->ctx);
}

static int read_action(struct loader *L, const struct ynode *v, struct step *st)
{
	struct step_reader r = {
		.ctx = L, .in = L->in, .absent = r_absent, .get = r_get, .want_map = r_want_map,
		.scalar = r_scalar, .text = r_text, .str = r_str, .integer = r_int, .boolean = r_bool,
		.quantity = r_quantity, .labels = r_labels, .pod = r_pod, .node = r_node, .taint = r_taint, .storage = r_storage, .tpl = r_tpl, .strs = r_strs, .error = r_error,
		.oom = r_oom,
	};
	return step_ops_of(st->kind)->read(st, &r, (const struct step_value *)v);
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
		int j;
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
		for (j = 0; j < STEP__COUNT; j++)
			if (y_key_is(k, step_kind_name((enum step_kind)j)))
				break;
		if (j == STEP__COUNT)
			return action_error(L, k, "unknown step action '%s' (expected one of %s)", k->s, 0);
		if (akey) {
			load_err_at(L, k, "step has two actions '%s' and '%s' (expected exactly one)",
				    akey->s, k->s);
			return 0;
		}
		akey = k;
		aval = v;
		st.kind = (enum step_kind)j;
	}
	if (!akey)
		return action_error(L, m, "step has no action (expected one of %s%s)", "", 0);
	st.line = akey->line;
	st.col = akey->col;
	unsigned flags = step_ops_of(st.kind)->flags;
	if (reps && !(flags & STEP_F_POD))
		return action_error(L, reps, "'replicas' on a %s step (expected it only with %s)", akey->s,
				    STEP_F_POD);
	if ((choose && !(flags & STEP_F_CYCLE)) ||
	    (expect && st.kind != STEP_SCALE_UP && !(flags & (STEP_F_CYCLE | STEP_F_EXPECT)))) {
		char *list = action_list(choose ? STEP_F_CYCLE : STEP_F_CYCLE | STEP_F_EXPECT);
		if (!list)
			return load_oom(L);
		load_err_at(L, choose ? choose : ekey, "'%s' on a %s step (expected it only with %s)",
			    choose ? "choose" : "expect", akey->s, list);
		free(list);
		return 0;
	}
	if (reps && !y_int(L, reps, "replicas", 1, L->max_pods, &nrep))
		return 0;
	/* every pod a step creates counts against the pod limit, so that
	 * many steps with large `replicas` cannot exhaust memory */
	if (!load_count_steps(L, reps ? reps : akey, reps ? (uint64_t)nrep : 1))
		return 0;
	if (flags & STEP_F_POD) {
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
	if (!read_action(L, aval, &st))
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
	if (st.kind == STEP_SCALE_UP) {
		if (!load_scale_up_step(L, aval, ekey, expect, &st))
			goto error;
	} else if (expect) {
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
		char *nm = out_strf("%s-%u", base, r);
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
