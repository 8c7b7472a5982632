/* check.c - `skewer check`: each file is loaded on its own and run; every
 * expect block is compared with the decision of its step (conventions
 * 24-25). One line per mismatching key:
 *   FILE: step N: KEY: expected X, got Y
 * and a final "N passed, N failed" counting files. */
#include "../model/version.h"
#include "cli.h"
#include "fixout.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../model/search.h"
#include "../model/validate.h"
#include "../model/controllers/ctl.h"

#define BUFLEN 4096

struct chk {
	FILE *f;
	const char *file;
	struct timeline *t;
	const struct cluster *c;
	uint32_t nmismatch;
	struct out_buf x, y;   /* expected / got renderings */
	char buf[BUFLEN];
};

/* rendering: every input string is sanitised; quoted ones also escape
 * '"' and '\\' so the value boundaries stay visible */

static void add_name(struct out_buf *b, const char *s)
{
	if (!s[0]) {
		out_buf_puts(b, "\"\"");
		return;
	}
	out_sanitize(b, s, strlen(s), 0);
}

static void add_quoted(struct out_buf *b, const char *s)
{
	if (!s) {
		out_buf_puts(b, "null");
		return;
	}
	out_buf_putc(b, '"');
	out_sanitize(b, s, strlen(s), OUT_QUOTE);
	out_buf_putc(b, '"');
}

static void sep(struct out_buf *b, bool *first)
{
	if (!*first)
		out_buf_puts(b, ", ");
	*first = false;
}

static void mismatch(struct chk *k, uint32_t step, const char *key)
{
	if (!k->nmismatch && k->c->cfg.version_named) {
		/* the release the expectations were checked against */
		char v[160];
		version_describe(&k->c->cfg, v, sizeof(v));
		out_text(k->f, k->file, 0);
		fprintf(k->f, ": simulated as %s\n", v);
	}
	out_text(k->f, k->file, 0);
	fprintf(k->f, ": step %u: %s: expected %s, got %s\n", step + 1, key,
		k->x.oom ? "<out of memory>" : out_buf_str(&k->x),
		k->y.oom ? "<out of memory>" : out_buf_str(&k->y));
	k->nmismatch++;
}

static void reset(struct chk *k)
{
	out_buf_reset(&k->x);
	out_buf_reset(&k->y);
}

static const char *sym(const struct chk *k, sym_t s)
{
	return cli_sym(k->c, s);
}

/* The `node` value of step i: node name, Pending, <invalid>, <error>. */
static const char *got_node(const struct chk *k, uint32_t i)
{
	const struct step_result *r = &k->t->res[i];
	switch (r->outcome) {
	case OUT_SCHEDULED: return cli_node_name(k->c, r->node);
	case OUT_PENDING: return "Pending";
	case OUT_INVALID: return "<invalid>";
	case OUT_ERROR: return "<error>";
	case OUT_APPLIED: return "<applied>";
	}
	return "<error>";
}

static int cmp_sym(const void *a, const void *b)
{
	sym_t x = *(const sym_t *)a, y = *(const sym_t *)b;
	return (x > y) - (x < y);
}

static uint32_t sort_unique(sym_t *v, uint32_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_sym);
	uint32_t m = 1;
	for (uint32_t i = 1; i < n; i++)
		if (v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}

static const struct node_rec *find_rec(const struct chk *k, const struct decision *d, sym_t name)
{
	/* expect blocks are rare and small: a linear scan is enough */
	for (uint32_t i = 0; i < d->nnodes; i++)
		if (d->nodes[i].node < k->c->nnodes && k->c->nodes[d->nodes[i].node].name == name)
			return &d->nodes[i];
	return NULL;
}

static void check_nodes(struct chk *k, const struct expect *e, uint32_t first, uint32_t last)
{
	uint32_t n = last - first + 1;
	bool same = e->nnodes == n;
	for (uint32_t i = 0; same && i < n; i++)
		same = !strcmp(sym(k, e->nodes[i]), got_node(k, first + i));
	if (same)
		return;
	reset(k);
	bool f1 = true, f2 = true;
	out_buf_putc(&k->x, '[');
	for (uint32_t i = 0; i < e->nnodes; i++) {
		sep(&k->x, &f1);
		add_name(&k->x, sym(k, e->nodes[i]));
	}
	out_buf_putc(&k->x, ']');
	out_buf_putc(&k->y, '[');
	for (uint32_t i = 0; i < n; i++) {
		sep(&k->y, &f2);
		add_name(&k->y, got_node(k, first + i));
	}
	out_buf_putc(&k->y, ']');
	mismatch(k, first, "nodes");
}

/* Returns 0 on OOM. */
static int check_feasible(struct chk *k, uint32_t step, const struct expect *e,
			  const struct decision *d)
{
	sym_t *want = calloc((size_t)e->nfeasible + 1, sizeof(*want));
	sym_t *got = calloc((size_t)d->nfeasible + d->nnodes + 1, sizeof(*got));
	if (!want || !got) {
		free(want);
		free(got);
		return 0;
	}
	uint32_t ng = 0;
	for (uint32_t i = 0; i < d->nnodes; i++)
		if (d->nodes[i].feasible && d->nodes[i].node < k->c->nnodes)
			got[ng++] = k->c->nodes[d->nodes[i].node].name;
	if (e->nfeasible)
		memcpy(want, e->feasible, (size_t)e->nfeasible * sizeof(*want));
	uint32_t nw = sort_unique(want, e->nfeasible);
	uint32_t ngu = sort_unique(got, ng);
	bool same = nw == ngu && (nw == 0 || !memcmp(want, got, nw * sizeof(*want)));
	free(want);
	free(got);
	if (same)
		return 1;
	reset(k);
	bool f1 = true, f2 = true;
	out_buf_putc(&k->x, '[');
	for (uint32_t i = 0; i < e->nfeasible; i++) {
		sep(&k->x, &f1);
		add_name(&k->x, sym(k, e->feasible[i]));
	}
	out_buf_putc(&k->x, ']');
	out_buf_putc(&k->y, '[');
	for (uint32_t i = 0; i < d->nnodes; i++) {
		if (!d->nodes[i].feasible)
			continue;
		sep(&k->y, &f2);
		add_name(&k->y, cli_node_name(k->c, d->nodes[i].node));
	}
	out_buf_putc(&k->y, ']');
	mismatch(k, step, "feasible");
	return 1;
}

static void check_filtered(struct chk *k, uint32_t step, const struct expect *e,
			   const struct decision *d)
{
	bool any = false, f1 = true, f2 = true;
	reset(k);
	out_buf_putc(&k->x, '{');
	out_buf_putc(&k->y, '{');
	for (uint32_t i = 0; i < e->filtered.n; i++) {
		const struct expect_kv *kv = &e->filtered.kv[i];
		const struct node_rec *r = find_rec(k, d, kv->key);
		const char *want = sym(k, kv->sval);
		const char *got;
		bool quote = true;
		if (!r) {
			got = "<no such node>";
			quote = false;
		} else if (r->feasible) {
			got = "feasible";
			quote = false;
		} else {
			got = decision_reason(k->c, d, r, k->buf, sizeof(k->buf));
		}
		if (!strcmp(want, got))
			continue;
		any = true;
		sep(&k->x, &f1);
		add_name(&k->x, sym(k, kv->key));
		out_buf_puts(&k->x, ": ");
		add_quoted(&k->x, want);
		sep(&k->y, &f2);
		add_name(&k->y, sym(k, kv->key));
		out_buf_puts(&k->y, ": ");
		if (quote)
			add_quoted(&k->y, got);
		else
			out_buf_puts(&k->y, got);
	}
	out_buf_putc(&k->x, '}');
	out_buf_putc(&k->y, '}');
	if (any)
		mismatch(k, step, "filtered");
}

static void check_text(struct chk *k, uint32_t step, const char *key, bool want_null,
		       const char *want, const char *got, bool substring)
{
	bool same;
	if (want_null)
		same = got == NULL;
	else if (!got)
		same = false;
	else
		same = substring ? strstr(got, want) != NULL : !strcmp(want, got);
	if (same)
		return;
	reset(k);
	add_quoted(&k->x, want_null ? NULL : want);
	add_quoted(&k->y, got);
	mismatch(k, step, key);
}

/* The domains a constraint reports: the PreFilter map (hard) or the
 * PreScore counts (soft, none when PreScore did not run). */
static bool dom_counts(const struct constraint_rec *cr, const struct domain_rec *dm)
{
	return dm->exists && (cr->hard || cr->scored);
}

static bool map_equal(const struct constraint_rec *cr, const struct expect_map *m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < cr->ndoms; i++)
		n += dom_counts(cr, &cr->doms[i]);
	if (n != m->n)
		return false;
	for (uint32_t i = 0; i < m->n; i++) {
		bool found = false;
		for (uint32_t j = 0; j < cr->ndoms && !found; j++) {
			const struct domain_rec *dm = &cr->doms[j];
			if (dom_counts(cr, dm) && dm->value == m->kv[i].key) {
				if (dm->count != m->kv[i].ival)
					return false;
				found = true;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

static void render_map(struct chk *k, struct out_buf *b, const struct expect_map *m)
{
	if (m->is_null) {
		out_buf_puts(b, "null");
		return;
	}
	bool first = true;
	out_buf_putc(b, '{');
	for (uint32_t i = 0; i < m->n; i++) {
		sep(b, &first);
		add_name(b, sym(k, m->kv[i].key));
		out_buf_printf(b, ": %" PRId64, m->kv[i].ival);
	}
	out_buf_putc(b, '}');
}

static void check_domains(struct chk *k, uint32_t step, const struct expect *e,
			  const struct decision *d)
{
	bool same = e->ndomains == d->ncons;
	for (uint32_t i = 0; same && i < d->ncons; i++)
		if (!e->domains[i].is_null)
			same = map_equal(&d->cons[i], &e->domains[i]);
	if (same)
		return;
	reset(k);
	bool f1 = true, f2 = true;
	out_buf_putc(&k->x, '[');
	for (uint32_t i = 0; i < e->ndomains; i++) {
		sep(&k->x, &f1);
		render_map(k, &k->x, &e->domains[i]);
	}
	out_buf_putc(&k->x, ']');
	out_buf_putc(&k->y, '[');
	for (uint32_t i = 0; i < d->ncons; i++) {
		const struct constraint_rec *cr = &d->cons[i];
		bool first = true;
		sep(&k->y, &f2);
		out_buf_putc(&k->y, '{');
		for (uint32_t j = 0; j < cr->ndoms; j++) {
			if (!dom_counts(cr, &cr->doms[j]))
				continue;
			sep(&k->y, &first);
			add_name(&k->y, sym(k, cr->doms[j].value));
			out_buf_printf(&k->y, ": %" PRId64, cr->doms[j].count);
		}
		out_buf_putc(&k->y, '}');
	}
	out_buf_putc(&k->y, ']');
	mismatch(k, step, "domains");
}

static void check_global_min(struct chk *k, uint32_t step, const struct expect *e,
			     const struct decision *d)
{
	bool same = e->nglobal_min == d->ncons;
	for (uint32_t i = 0; same && i < d->ncons; i++)
		if (!e->global_min[i].is_null)
			same = d->cons[i].hard && d->cons[i].global_min == e->global_min[i].v;
	if (same)
		return;
	reset(k);
	bool f1 = true, f2 = true;
	out_buf_putc(&k->x, '[');
	for (uint32_t i = 0; i < e->nglobal_min; i++) {
		sep(&k->x, &f1);
		if (e->global_min[i].is_null)
			out_buf_puts(&k->x, "null");
		else
			out_buf_printf(&k->x, "%" PRId64, e->global_min[i].v);
	}
	out_buf_putc(&k->x, ']');
	out_buf_putc(&k->y, '[');
	for (uint32_t i = 0; i < d->ncons; i++) {
		sep(&k->y, &f2);
		if (d->cons[i].hard)
			out_buf_printf(&k->y, "%" PRId64, d->cons[i].global_min);
		else
			out_buf_puts(&k->y, "null");
	}
	out_buf_putc(&k->y, ']');
	mismatch(k, step, "globalMin");
}

/* Whether node r has a score of plugin p to report (conventions 5). */
static bool has_score(const struct decision *d, const struct node_rec *r, enum plugin_id p)
{
	return d->scored && r->feasible && r->scored[p] && !d->plugin_skipped[p];
}

static void check_scores(struct chk *k, uint32_t step, const struct expect *e,
			 const struct decision *d)
{
	bool any = false, f1 = true, f2 = true;
	reset(k);
	out_buf_putc(&k->x, '{');
	out_buf_putc(&k->y, '{');
	for (uint32_t s = 0; s < e->nscores; s++) {
		const struct expect_scores *es = &e->scores[s];
		if (es->nodes.is_null)
			continue;
		const char *pname = sym(k, es->plugin);
		enum plugin_id p = plugin_from_name(pname);
		bool same = p != PL_NONE;
		if (same) {
			uint32_t n = 0;
			for (uint32_t i = 0; i < d->nnodes; i++)
				n += has_score(d, &d->nodes[i], p);
			same = n == es->nodes.n;
			for (uint32_t i = 0; same && i < es->nodes.n; i++) {
				const struct node_rec *r = find_rec(k, d, es->nodes.kv[i].key);
				same = r && has_score(d, r, p) && r->norm[p] == es->nodes.kv[i].ival;
			}
		}
		if (same)
			continue;
		any = true;
		sep(&k->x, &f1);
		add_name(&k->x, pname);
		out_buf_puts(&k->x, ": ");
		render_map(k, &k->x, &es->nodes);
		sep(&k->y, &f2);
		add_name(&k->y, pname);
		out_buf_puts(&k->y, ": ");
		if (p == PL_NONE) {
			out_buf_puts(&k->y, "<unknown plugin>");
			continue;
		}
		bool first = true;
		out_buf_putc(&k->y, '{');
		for (uint32_t i = 0; i < d->nnodes; i++) {
			const struct node_rec *r = &d->nodes[i];
			if (!has_score(d, r, p))
				continue;
			sep(&k->y, &first);
			add_name(&k->y, cli_node_name(k->c, r->node));
			out_buf_printf(&k->y, ": %" PRId64, (int64_t)r->norm[p]);
		}
		out_buf_putc(&k->y, '}');
	}
	out_buf_putc(&k->x, '}');
	out_buf_putc(&k->y, '}');
	if (any)
		mismatch(k, step, "scores");
}

/* blockers: node -> every failing filter, in filter order; [] for a
 * feasible node (debugging contract section 1). Only the nodes whose
 * list differs are shown. */
static void add_blockers(struct out_buf *b, const struct node_rec *r)
{
	bool first = true;
	unsigned bits = cli_blockers(r);
	out_buf_putc(b, '[');
	for (int p = 0; p < PL__COUNT; p++) {
		if (!(bits & (1u << p)))
			continue;
		sep(b, &first);
		out_buf_puts(b, plugin_name((enum plugin_id)p));
	}
	out_buf_putc(b, ']');
}

static bool blockers_equal(const struct chk *k, const struct expect_list *l,
			   const struct node_rec *r)
{
	unsigned bits = cli_blockers(r);
	uint32_t n = 0;
	for (int p = 0; p < PL__COUNT; p++) {
		if (!(bits & (1u << p)))
			continue;
		if (n >= l->n || strcmp(sym(k, l->vals[n]), plugin_name((enum plugin_id)p)) != 0)
			return false;
		n++;
	}
	return n == l->n;
}

static void check_blockers(struct chk *k, uint32_t step, const struct expect *e,
			   const struct decision *d)
{
	bool any = false, f1 = true, f2 = true;
	reset(k);
	out_buf_putc(&k->x, '{');
	out_buf_putc(&k->y, '{');
	for (uint32_t i = 0; i < e->nblockers; i++) {
		const struct expect_list *l = &e->blockers[i];
		const struct node_rec *r = find_rec(k, d, l->key);
		if (r && blockers_equal(k, l, r))
			continue;
		any = true;
		sep(&k->x, &f1);
		add_name(&k->x, sym(k, l->key));
		out_buf_puts(&k->x, ": [");
		for (uint32_t j = 0; j < l->n; j++) {
			if (j)
				out_buf_puts(&k->x, ", ");
			add_name(&k->x, sym(k, l->vals[j]));
		}
		out_buf_putc(&k->x, ']');
		sep(&k->y, &f2);
		add_name(&k->y, sym(k, l->key));
		out_buf_puts(&k->y, ": ");
		if (r)
			add_blockers(&k->y, r);
		else
			out_buf_puts(&k->y, "<no such node>");
	}
	out_buf_putc(&k->x, '}');
	out_buf_putc(&k->y, '}');
	if (any)
		mismatch(k, step, "blockers");
}

/* nominated: the node preemption nominated, null when none */
static void check_nominated(struct chk *k, uint32_t step, const struct expect *e,
			    const struct decision *d)
{
	int32_t got = cli_nominated(d);
	const char *want = e->nominated_null ? NULL : sym(k, e->nominated);
	const char *gname = got >= 0 ? cli_node_name(k->c, got) : NULL;
	if (want ? gname && !strcmp(want, gname) : !gname)
		return;
	reset(k);
	if (want)
		add_name(&k->x, want);
	else
		out_buf_puts(&k->x, "null");
	if (gname)
		add_name(&k->y, gname);
	else
		out_buf_puts(&k->y, "null");
	mismatch(k, step, "nominated");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* victims: "ns/name" of each pod preemption deleted, in any order.
 * Returns 0 on OOM. */
static int check_victims(struct chk *k, uint32_t step, const struct expect *e,
			 const struct decision *d)
{
	const struct preemption *pr = &d->pre;
	uint32_t ng = cli_nominated(d) >= 0 ? pr->nvictims : 0;
	const char **want = calloc((size_t)e->nvictims + 1, sizeof(*want));
	char **got = calloc((size_t)ng + 1, sizeof(*got));
	struct out_buf nb = {0};
	int ok = 0;
	if (!want || !got)
		goto done;
	for (uint32_t i = 0; i < e->nvictims; i++)
		want[i] = sym(k, e->victims[i]);
	for (uint32_t i = 0; i < ng; i++) {
		out_buf_reset(&nb);
		if (pr->victims[i] < k->c->npods) {
			const struct pod *p = &k->c->pods[pr->victims[i]];
			cli_pod_name(&nb, k->c, p->ns, p->name, false);
		}
		if (nb.oom || !(got[i] = strdup(out_buf_str(&nb))))
			goto done;
	}
	qsort(want, e->nvictims, sizeof(*want), cmp_str);
	qsort(got, ng, sizeof(*got), cmp_str);
	bool same = e->nvictims == ng;
	for (uint32_t i = 0; same && i < ng; i++)
		same = !strcmp(want[i], got[i]);
	if (!same) {
		bool f1 = true, f2 = true;
		reset(k);
		out_buf_putc(&k->x, '[');
		for (uint32_t i = 0; i < e->nvictims; i++) {
			sep(&k->x, &f1);
			add_name(&k->x, want[i]);
		}
		out_buf_putc(&k->x, ']');
		out_buf_putc(&k->y, '[');
		for (uint32_t i = 0; i < ng; i++) {
			sep(&k->y, &f2);
			add_name(&k->y, got[i]);
		}
		out_buf_putc(&k->y, ']');
		mismatch(k, step, "victims");
	}
	ok = 1;
done:
	for (uint32_t i = 0; got && i < ng; i++)
		free(got[i]);
	free(got);
	free(want);
	out_buf_fini(&nb);
	return ok;
}

/* fixes: skewer fix's list for the pending step (default limit), in
 * order, each as cli_fix_line writes it. Run last: the what-ifs leave
 * the timeline after step i as it was. 0 on OOM. */
static int check_fixes(struct chk *k, uint32_t i, const struct expect *e)
{
	struct fix_report r;
	memset(&r, 0, sizeof(r));
	reset(k);
	bool first = true;
	out_buf_putc(&k->x, '[');
	for (uint32_t j = 0; j < e->nfixes; j++) {
		sep(&k->x, &first);
		add_quoted(&k->x, sym(k, e->fixes[j]));
	}
	out_buf_putc(&k->x, ']');
	const struct step *s = &k->t->sc->steps[i];
	if ((s->kind != STEP_SCHEDULE && s->kind != STEP_RETRY) || k->t->res[i].outcome != OUT_PENDING) {
		out_buf_printf(&k->y, "a step that is not pending (%s)", cli_outcome_name(k->t->res[i].outcome));
		mismatch(k, i, "fixes");
		return 1;
	}
	/* the what-ifs insert steps: the step array (and e in it) may move,
	 * the expected list stays where it is */
	const sym_t *want = e->fixes;
	uint32_t nwant = e->nfixes;
	e = NULL;
	if (!cli_fixes_at(k->t, i, 3, &r)) {
		fix_report_fini(&r);
		return 0;
	}
	bool same = r.n == nwant;
	struct out_buf line = { 0 };
	first = true;
	out_buf_putc(&k->y, '[');
	for (uint32_t j = 0; j < r.n; j++) {
		out_buf_reset(&line);
		cli_fix_line(&line, k->t, &r, &r.v[j]);
		sep(&k->y, &first);
		add_quoted(&k->y, out_buf_str(&line));
		if (same && strcmp(out_buf_str(&line), sym(k, want[j])))
			same = false;
	}
	out_buf_putc(&k->y, ']');
	if (!same)
		mismatch(k, i, "fixes");
	out_buf_fini(&line);
	fix_report_fini(&r);
	return 1;
}

/* search: each expected search run on the scenario (the timeline is
 * moved to step 0). Mismatches name the entry as "search N". 0 on OOM. */
static int check_searches(struct chk *k)
{
	const struct scenario *sc = k->t->sc;
	for (uint32_t n = 0; n < sc->nsearches; n++) {
		const struct search_expect *x = &sc->searches[n];
		struct search_opts o = { x->feasible ? SEARCH_FEASIBLE : SEARCH_TIES, x->orders,
					 x->max_states ? x->max_states : 1000000, NULL, NULL, NULL };
		struct search_result r;
		if (!search_run(k->t, &o, &r)) {
			search_result_fini(&r);
			return 0;
		}
		struct out_buf pod = { 0 };
		if (r.stuck)
			cli_pod_name(&pod, k->c, r.pod_ns, r.pod_name, false);
		char what[64];
		snprintf(what, sizeof(what), "search %u (line %u) ", n + 1, x->line);
		struct { bool has; bool want, got; const char *key; } b[] = {
			{ x->has_stuck, x->stuck, r.stuck, "stuck" },
			{ x->has_complete, x->complete, r.complete, "complete" },
		};
		for (size_t m = 0; m < 2; m++) {
			if (!b[m].has || b[m].want == b[m].got)
				continue;
			out_text(k->f, k->file, 0);
			fprintf(k->f, ": %s%s: expected %s, got %s\n", what, b[m].key, b[m].want ? "true" : "false",
				b[m].got ? "true" : "false");
			k->nmismatch++;
		}
		const char *want_pod = x->pod ? sym(k, x->pod) : NULL;
		if (want_pod && strcmp(want_pod, r.stuck ? out_buf_str(&pod) : "")) {
			out_text(k->f, k->file, 0);
			fprintf(k->f, ": %spod: expected %s, got ", what, want_pod);
			out_text(k->f, r.stuck ? out_buf_str(&pod) : "none (not stuck)", 0);
			fputc('\n', k->f);
			k->nmismatch++;
		}
		const char *want_msg = x->message ? sym(k, x->message) : NULL;
		if (want_msg && strcmp(want_msg, r.message ? r.message : "")) {
			reset(k);
			add_quoted(&k->x, want_msg);
			add_quoted(&k->y, r.message);
			out_text(k->f, k->file, 0);
			fprintf(k->f, ": %smessage: expected %s, got %s\n", what, out_buf_str(&k->x), out_buf_str(&k->y));
			k->nmismatch++;
		}
		out_buf_fini(&pod);
		search_result_fini(&r);
	}
	return 1;
}

static void put_list(struct out_buf *b, char *const *v, uint32_t n)
{
	bool first = true;
	out_buf_putc(b, '[');
	for (uint32_t i = 0; i < n; i++) {
		sep(b, &first);
		add_name(b, v[i]);
	}
	out_buf_putc(b, ']');
}

/* A controller step's keys (contract controllers.md): deleted (any
 * order), deletedCount, created, nodes (of the pods created, in order).
 * Returns 0 on OOM. */
static int check_controller(struct chk *k, uint32_t step, const struct expect *e)
{
	const struct ctl_run *run = timeline_step_rec(k->t, step);
	uint32_t ns = run ? run->nsubs : 0, nd = 0, nc = 0;
	char **del = calloc((size_t)ns + 1, sizeof(*del)), **nodes = calloc((size_t)ns + 1, sizeof(*nodes));
	char **want = calloc((size_t)e->ndeleted + 1, sizeof(*want));
	int ok = 0;
	if (!del || !nodes || !want)
		goto done;
	for (uint32_t i = 0; i < ns; i++) {
		const struct ctl_sub *s = &run->subs[i];
		if (s->pod == UINT32_MAX)
			continue;
		const struct pod *p = &k->c->pods[s->pod];
		if (s->kind == CTL_DELETE) {
			size_t len = strlen(sym(k, p->ns)) + strlen(sym(k, p->name)) + 2;
			if (!(del[nd] = malloc(len)))
				goto done;
			snprintf(del[nd++], len, "%s/%s", sym(k, p->ns), sym(k, p->name));
		} else {
			nodes[nc++] = (char *)(s->node >= 0 ? cli_node_name(k->c, s->node) : "Pending");
		}
	}
	if (e->has_deleted) {
		for (uint32_t i = 0; i < e->ndeleted; i++)
			want[i] = (char *)sym(k, e->deleted[i]);
		qsort(want, e->ndeleted, sizeof(*want), cmp_str);
		char **sorted = malloc(((size_t)nd + 1) * sizeof(*sorted));
		if (!sorted)
			goto done;
		memcpy(sorted, del, nd * sizeof(*sorted));
		qsort(sorted, nd, sizeof(*sorted), cmp_str);
		bool same = nd == e->ndeleted;
		for (uint32_t i = 0; same && i < nd; i++)
			same = !strcmp(want[i], sorted[i]);
		if (!same) {
			reset(k);
			put_list(&k->x, want, e->ndeleted);
			put_list(&k->y, sorted, nd);
			mismatch(k, step, "deleted");
		}
		free(sorted);
	}
	if (e->has_deleted_count && e->deleted_count != nd) {
		reset(k);
		out_buf_printf(&k->x, "%" PRId64, e->deleted_count);
		out_buf_printf(&k->y, "%u", nd);
		mismatch(k, step, "deletedCount");
	}
	if (e->has_created && e->created != nc) {
		reset(k);
		out_buf_printf(&k->x, "%" PRId64, e->created);
		out_buf_printf(&k->y, "%u", nc);
		mismatch(k, step, "created");
	}
	if (e->has_nodes) {
		bool same = e->nnodes == nc;
		for (uint32_t i = 0; same && i < nc; i++)
			same = !strcmp(sym(k, e->nodes[i]), nodes[i]);
		if (!same) {
			reset(k);
			bool f1 = true;
			out_buf_putc(&k->x, '[');
			for (uint32_t i = 0; i < e->nnodes; i++) {
				sep(&k->x, &f1);
				add_name(&k->x, sym(k, e->nodes[i]));
			}
			out_buf_putc(&k->x, ']');
			put_list(&k->y, nodes, nc);
			mismatch(k, step, "nodes");
		}
	}
	ok = 1;
done:
	for (uint32_t i = 0; del && i < nd; i++)
		free(del[i]);
	free(del);
	free(nodes);
	free(want);
	return ok;
}

/* Keys that need the scheduler's decision, when there is none (the pod
 * was rejected by validation or the step failed before scheduling). */
static void no_decision(struct chk *k, uint32_t step, const char *key)
{
	reset(k);
	out_buf_puts(&k->x, "a scheduling decision");
	out_buf_printf(&k->y, "<%s>", cli_outcome_name(k->t->res[step].outcome));
	mismatch(k, step, key);
}

/* Returns 0 on OOM. */
static int check_step(struct chk *k, uint32_t i, uint32_t first, const struct expect *e,
		      const struct decision *d)
{
	const struct step_result *r = &k->t->res[i];
	bool filled = cli_decision_filled(&k->t->sc->steps[i], d);
	if (step_ops_of(k->t->sc->steps[i].kind)->flags & STEP_F_EXPECT) {
		if (r->outcome == OUT_ERROR && (e->has_deleted || e->has_deleted_count || e->has_created || e->has_nodes)) {
			reset(k);
			out_buf_puts(&k->x, "the step applied");
			out_buf_puts(&k->y, "<error>: ");
			out_buf_puts(&k->y, r->message ? r->message : "");
			mismatch(k, i, "deleted/created");
			return 1;
		}
		return check_controller(k, i, e);
	}
	if (e->has_node && strcmp(sym(k, e->node), got_node(k, i)) != 0) {
		reset(k);
		add_name(&k->x, sym(k, e->node));
		add_name(&k->y, got_node(k, i));
		mismatch(k, i, "node");
	}
	if (e->has_nodes)
		check_nodes(k, e, first, i);
	if (e->has_feasible) {
		if (!filled)
			no_decision(k, i, "feasible");
		else if (!check_feasible(k, i, e, d))
			return 0;
	}
	if (e->has_filtered) {
		if (!filled)
			no_decision(k, i, "filtered");
		else
			check_filtered(k, i, e, d);
	}
	if (e->has_message)
		check_text(k, i, "message", e->message_null, sym(k, e->message),
			   r->outcome == OUT_PENDING ? r->message : NULL, false);
	if (e->has_invalid)
		check_text(k, i, "invalid", false, sym(k, e->invalid),
			   r->outcome == OUT_INVALID ? r->message : NULL, true);
	if (e->has_domains) {
		if (!filled)
			no_decision(k, i, "domains");
		else
			check_domains(k, i, e, d);
	}
	if (e->has_global_min) {
		if (!filled)
			no_decision(k, i, "globalMin");
		else
			check_global_min(k, i, e, d);
	}
	if (e->has_scores) {
		if (!filled)
			no_decision(k, i, "scores");
		else
			check_scores(k, i, e, d);
	}
	if (e->has_blockers) {
		if (!filled)
			no_decision(k, i, "blockers");
		else
			check_blockers(k, i, e, d);
	}
	/* a pod that was scheduled (or never reached the scheduler) has no
	 * FailedScheduling event, no nomination and no victims */
	if (e->has_event)
		check_text(k, i, "event", false, sym(k, e->event), filled ? cli_event(d) : NULL, false);
	if (e->has_nominated)
		check_nominated(k, i, e, d);
	if (e->has_victims && !check_victims(k, i, e, d))
		return 0;
	if (e->has_fixes && !check_fixes(k, i, e))
		return 0;
	return 1;
}

/* The expect block checked at step i, or NULL. A replicas group is
 * checked once, on its last copy (conventions 25), whichever copy the
 * loader attached the block to. *first is the group's first step. */
static const struct expect *expect_at(const struct scenario *sc, uint32_t i, uint32_t *first)
{
	const struct step *s = &sc->steps[i];
	*first = i;
	if (s->nreplicas == 0 || s->replica == 0)
		return s->has_expect ? &s->expect : NULL;
	if (s->replica != s->nreplicas)
		return NULL;
	uint32_t f = s->replica - 1 <= i ? i - (s->replica - 1) : 0;
	*first = f;
	for (uint32_t j = i + 1; j-- > f;)
		if (sc->steps[j].has_expect)
			return &sc->steps[j].expect;
	return NULL;
}

/* Runs one file. Returns 1 when it passed, 0 when an expectation failed,
 * -1 when the file could not be loaded (bad input). */
static int check_file(FILE *f, const char *file, const struct load_opts *lo)
{
	struct load_errors errs = {0};
	struct scenario *sc = NULL;
	struct timeline *t = NULL;
	struct chk k = {.f = f, .file = file};
	int passed = 0;
	const char *files[1] = {file};
	struct load_opts plo = *lo;
	struct cli_progress prog;

	cli_progress_begin(&prog, &plo);
	int ok = load_scenario(files, 1, &plo, &sc, &errs);
	cli_progress_end(&prog);
	if (!ok) {
		if (errs.n == 0) {
			out_text(f, file, 0);
			fputs(": error: cannot load the scenario\n", f);
		}
		load_errors_print(f, &errs, file);
		passed = -1;
		goto done;
	}
	for (uint32_t i = 0; i < sc->nwarnings; i++) {
		out_text(stderr, file, 0);
		fputs(": warning: ", stderr);
		out_text(stderr, sc->warnings[i], 0);
		fputc('\n', stderr);
	}
	char *bad = validate_sched_config(sc->cluster);
	if (bad) {
		out_text(f, file, 0);
		fputs(": error: ", f);
		out_text(f, bad, 0);
		fputc('\n', f);
		free(bad);
		passed = -1;
		goto done;
	}
	t = timeline_new(sc);
	if (!t)
		goto oom;
	k.t = t;
	k.c = t->c;
	uint32_t n = timeline_len(t);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t first;
		const struct expect *e = expect_at(sc, i, &first);
		struct decision d = {0};
		if (!timeline_step(t, e ? &d : NULL)) {
			decision_fini(&d);
			goto oom;
		}
		int ok = e ? check_step(&k, i, first, e, &d) : 1;
		decision_fini(&d);
		if (ok && sc->steps[i].kind == STEP_SCALE_UP)
			ok = cli_check_scale_up(f, file, t, i, &k.nmismatch);
		if (!ok)
			goto oom;
	}
	if (!check_searches(&k))
		goto oom;
	if (k.x.oom || k.y.oom)
		goto oom;
	passed = k.nmismatch == 0;
	goto done;
oom:
	out_text(f, file, 0);
	fputs(": error: out of memory\n", f);
done:
	out_buf_fini(&k.x);
	out_buf_fini(&k.y);
	if (t)
		timeline_free(t);
	if (sc)
		scenario_free(sc);
	load_errors_fini(&errs);
	return passed;
}

int cli_check(int argc, char **argv)
{
	struct cli_opts o;
	int rc;
	if (!cli_parse("check", argc, argv, CLI_OPT_FILTER, &o))
		return CLI_USAGE;
	if (o.help) {
		cli_help(stdout, "check");
		rc = CLI_OK;
		goto done;
	}
	if (o.nfiles == 0) {
		rc = cli_usage_error("check: no scenario file given");
		goto done;
	}
	uint32_t npassed = 0, nfailed = 0, nbad = 0;
	for (uint32_t i = 0; i < o.nfiles; i++) {
		struct load_opts lo = {0};
		lo.ns_filter = o.ns;
		lo.label_filter = o.sel;
		lo.kube_version = o.kube_version;
		int r = check_file(stdout, o.files[i], &lo);
		npassed += r == 1;
		nfailed += r != 1;
		nbad += r < 0;
	}
	if (o.kube_version)
		printf("%u passed, %u failed (Kubernetes %s)\n", npassed, nfailed, o.kube_version);
	else
		printf("%u passed, %u failed\n", npassed, nfailed);
	/* a file that cannot be loaded is bad input (2), as in every command */
	rc = nbad ? CLI_USAGE : nfailed ? CLI_FAILED : CLI_OK;
done:
	cli_opts_fini(&o);
	return rc;
}
