/* fix.c - `skewer fix`: for each pending step (or --step N) the changes
 * that let the scheduler place its pod (model/fix.c finds and verifies
 * them), as text or as the JSON of shared/spec/debugging.md section 3. */
#include "fixout.h"
#include "../model/steps/step.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *S(const struct timeline *t, sym_t s)
{
	return cli_sym(t->c, s);
}

/* [{}, {}, ..., VALUE at idx]: the contract's list merge */
static void list_upto(struct out_json *j, uint32_t idx)
{
	out_json_begin_array(j);
	for (uint32_t k = 0; k < idx; k++) {
		out_json_begin_object_flat(j);
		out_json_end_object(j);
	}
}

static void pod_patch(struct out_json *j, const struct timeline *t, const struct fix_report *r,
		      const struct fix *f)
{
	const struct step *s = &t->sc->steps[r->entry >= 0 ? (uint32_t)r->entry : r->step];
	out_json_key(j, "podPatch");
	if ((f->kind > FIX_TOLERATION && f->kind != FIX_PRIORITY) || f->sched) {
		out_json_null(j);
		return;
	}
	out_json_begin_object(j);
	if (f->kind == FIX_PRIORITY) {
		out_json_key(j, "priority");
		out_json_int(j, f->after);
		if (f->had_class) {
			out_json_key(j, "priorityClassName");
			out_json_null(j);
		}
		out_json_end_object(j);
		return;
	}
	if (f->kind == FIX_TOLERATION) {
		out_json_key(j, "tolerations");
		list_upto(j, s->pod.spec.ntols);
		out_json_begin_object_flat(j);
		out_json_key(j, "key");
		out_json_str(j, S(t, f->tol.key));
		out_json_key(j, "operator");
		out_json_str(j, f->tol.op == TOL_EXISTS ? "Exists" : "Equal");
		if (f->tol.op == TOL_EQUAL) {
			out_json_key(j, "value");
			out_json_str(j, S(t, f->tol.value));
		}
		out_json_key(j, "effect");
		out_json_str(j, effect_name(f->tol.effect));
		out_json_end_object(j);
		out_json_end_array(j);
		out_json_end_object(j);
		return;
	}
	out_json_key(j, "topologySpreadConstraints");
	list_upto(j, f->cons);
	if (f->kind == FIX_REMOVE_CONSTRAINT) {
		out_json_null(j);
	} else {
		out_json_begin_object_flat(j);
		switch (f->kind) {
		case FIX_MAX_SKEW:
			out_json_key(j, "maxSkew");
			out_json_int(j, f->after);
			break;
		case FIX_WHEN:
			out_json_key(j, "whenUnsatisfiable");
			out_json_str(j, "ScheduleAnyway");
			if (f->cons < s->pod.spec.ntscs && s->pod.spec.tscs[f->cons].has_min_domains) {
				out_json_key(j, "minDomains");
				out_json_null(j);
			}
			break;
		case FIX_MIN_DOMAINS:
			out_json_key(j, "minDomains");
			if (f->after > 1)
				out_json_int(j, f->after);
			else
				out_json_null(j);
			break;
		case FIX_AFFINITY_POLICY:
		case FIX_TAINTS_POLICY:
			out_json_key(j, fix_kind_name(f->kind));
			out_json_str(j, f->after ? "Honor" : "Ignore");
			break;
		default:
			break;
		}
		out_json_end_object(j);
	}
	out_json_end_array(j);
	out_json_end_object(j);
}

static void labels_json(struct out_json *j, const struct timeline *t, const struct labels *l)
{
	out_json_begin_object(j);
	for (uint32_t k = 0; k < l->n; k++) {
		out_json_key(j, S(t, l->v[k].key));
		out_json_str(j, S(t, l->v[k].val));
	}
	out_json_end_object(j);
}

static void qty(struct out_json *j, struct out_buf *b, const char *key, int64_t v, const char *unit)
{
	out_buf_reset(b);
	out_buf_printf(b, "%lld%s", (long long)v, unit);
	out_json_key(j, key);
	out_json_str(j, out_buf_str(b));
}

/* The step table's writer (model/steps/step.h) over the JSON writer: a
 * kind writes its action's value as it writes it for save.c, so no kind
 * is named here. A pod is its name and namespace (the witness names the
 * pods of its steps); a node is its whole entry. */
struct jw {
	struct step_writer w;
	struct out_json *j;
	const struct timeline *t;
	struct out_buf b;
};

static void jw_str(struct step_writer *w, sym_t s)
{
	struct jw *x = (struct jw *)w;
	out_json_str(x->j, s != SYM_NONE ? S(x->t, s) : NULL);
}

static void jw_text(struct step_writer *w, const char *s)
{
	out_json_str(((struct jw *)w)->j, s);
}

/* the plain tokens the steps write: null, true, false, a whole number */
static void jw_raw(struct step_writer *w, const char *tok)
{
	struct out_json *j = ((struct jw *)w)->j;
	if (!strcmp(tok, "true") || !strcmp(tok, "false"))
		out_json_bool(j, tok[0] == 't');
	else if (!strcmp(tok, "null"))
		out_json_null(j);
	else
		out_json_int(j, strtoll(tok, NULL, 10));
}

static void jw_begin(struct step_writer *w)
{
	out_json_begin_object_flat(((struct jw *)w)->j);
}

static void jw_key(struct step_writer *w, const char *key)
{
	out_json_key(((struct jw *)w)->j, key);
}

static void jw_end(struct step_writer *w)
{
	out_json_end_object(((struct jw *)w)->j);
}

static void jw_taint(struct step_writer *w, const struct taint *tt)
{
	struct jw *x = (struct jw *)w;
	out_json_key(x->j, "key");
	out_json_str(x->j, S(x->t, tt->key));
	if (tt->value != SYM_NONE && intern_len(x->t->c->in, tt->value)) {
		out_json_key(x->j, "value");
		out_json_str(x->j, S(x->t, tt->value));
	}
	if (tt->effect != EFFECT_NONE) {
		out_json_key(x->j, "effect");
		out_json_str(x->j, tt->effect == EFFECT_INVALID ? S(x->t, tt->effect_text) : effect_name(tt->effect));
	}
}

static void jw_pod(struct step_writer *w, const struct pod *p)
{
	struct jw *x = (struct jw *)w;
	out_json_begin_object_flat(x->j);
	out_json_key(x->j, "name");
	out_json_str(x->j, S(x->t, p->name));
	if (p->ns != SYM_NONE) {
		out_json_key(x->j, "namespace");
		out_json_str(x->j, S(x->t, p->ns));
	}
	out_json_end_object(x->j);
}

static void jw_node(struct step_writer *w, const struct node *n)
{
	struct jw *x = (struct jw *)w;
	struct out_json *j = x->j;
	out_json_begin_object(j);
	out_json_key(j, "name");
	out_json_str(j, S(x->t, n->name));
	out_json_key(j, "labels");
	labels_json(j, x->t, &n->labels);
	out_json_key(j, "taints");
	out_json_begin_array(j);
	for (uint32_t k = 0; k < n->ntaints; k++) {
		out_json_begin_object_flat(j);
		jw_taint(w, &n->taints[k]);
		out_json_end_object(j);
	}
	out_json_end_array(j);
	if (n->unschedulable) {
		out_json_key(j, "unschedulable");
		out_json_bool(j, true);
	}
	out_json_key(j, "allocatable");
	out_json_begin_object_flat(j);
	qty(j, &x->b, "cpu", n->alloc.cpu, "m");
	qty(j, &x->b, "memory", n->alloc.mem, "");
	qty(j, &x->b, "pods", n->alloc.pods, "");
	if (n->alloc.eph)
		qty(j, &x->b, "ephemeral-storage", n->alloc.eph, "");
	for (uint32_t k = 0; k < n->alloc.next; k++)
		qty(j, &x->b, S(x->t, n->alloc.ext[k].name), n->alloc.ext[k].v, "");
	out_json_end_object(j);
	out_json_end_object(j);
}

void cli_step_json(struct out_json *j, const struct timeline *t, const struct step *e)
{
	const struct step_ops *ops = step_ops_of(e->kind);
	struct jw x = { .w = { .in = t->c->in, .str = jw_str, .text = jw_text, .raw = jw_raw, .begin = jw_begin,
			       .key = jw_key, .end = jw_end, .taint = jw_taint, .pod = jw_pod, .node = jw_node },
			.j = j, .t = t };
	x.w.ctx = &x;
	out_json_begin_object(j);
	if (ops) {
		out_json_key(j, ops->name);
		ops->save(e, &x.w);
	}
	if (e->choose != SYM_NONE) {
		out_json_key(j, "choose");
		out_json_str(j, S(t, e->choose));
	}
	out_json_end_object(j);
	out_buf_fini(&x.b);
}

/* A constraint of the scheduler's defaultConstraints, as the scenario
 * writes it (they have no labelSelector). */
static void tsc_json(struct out_json *j, const struct timeline *t, const struct tsc *k)
{
	out_json_begin_object_flat(j);
	out_json_key(j, "maxSkew");
	out_json_int(j, k->max_skew);
	out_json_key(j, "topologyKey");
	out_json_str(j, S(t, k->topology_key));
	out_json_key(j, "whenUnsatisfiable");
	out_json_str(j, S(t, k->when));
	if (k->has_min_domains) {
		out_json_key(j, "minDomains");
		out_json_int(j, k->min_domains);
	}
	if (k->node_affinity_policy != SYM_NONE) {
		out_json_key(j, "nodeAffinityPolicy");
		out_json_str(j, S(t, k->node_affinity_policy));
	}
	if (k->node_taints_policy != SYM_NONE) {
		out_json_key(j, "nodeTaintsPolicy");
		out_json_str(j, S(t, k->node_taints_policy));
	}
	if (k->nmatch_label_keys) {
		out_json_key(j, "matchLabelKeys");
		out_json_begin_array(j);
		for (uint32_t m = 0; m < k->nmatch_label_keys; m++)
			out_json_str(j, S(t, k->match_label_keys[m]));
		out_json_end_array(j);
	}
	out_json_end_object(j);
}

/* schedulerPatch: the whole defaultConstraints list after the change (a
 * merge patch replaces a list). 0 when f changes no default constraint. */
static int sched_patch(struct out_json *j, struct timeline *t, const struct fix *f)
{
	struct tsc *v;
	uint32_t n;
	if (!fix_defaults(t, f, &v, &n))
		return 0;
	out_json_begin_object(j);
	out_json_key(j, "defaultConstraints");
	out_json_begin_array(j);
	for (uint32_t k = 0; k < n; k++)
		tsc_json(j, t, &v[k]);
	out_json_end_array(j);
	out_json_end_object(j);
	fix_defaults_free(v, n);
	return 1;
}

void cli_fix_json(struct out_json *j, const struct timeline *t, const struct fix_report *r,
		  const struct fix *f)
{
	struct out_buf b = { 0 };
	out_json_begin_object(j);
	out_json_key(j, "kind");
	out_json_str(j, fix_kind_name(f->kind));
	cli_fix_summary(&b, t, r, f);
	out_json_key(j, "summary");
	out_json_str(j, out_buf_str(&b));
	pod_patch(j, t, r, f);
	out_json_key(j, "schedulerPatch");
	if (!sched_patch(j, (struct timeline *)t, f))
		out_json_null(j);
	out_json_key(j, "edits");
	out_json_begin_array(j);
	if (f->has_edit)
		cli_step_json(j, t, &f->edit);
	out_json_end_array(j);
	out_json_key(j, "node");
	out_json_str(j, S(t, f->node));
	if (f->kind == FIX_SCALE_UP) {
		/* the autoscaler's names (autoscalers.md section 4) */
		out_json_key(j, "autoscaler");
		out_json_str(j, f->as_kind == 2 ? "karpenter" : "clusterAutoscaler");
		out_json_key(j, f->as_kind == 2 ? "nodePool" : "group");
		out_json_str(j, f->as_group != SYM_NONE ? S(t, f->as_group) : NULL);
		out_json_key(j, "zone");
		out_json_str(j, f->as_zone != SYM_NONE ? S(t, f->as_zone) : NULL);
	}
	out_json_key(j, "nominated");
	out_json_bool(j, f->nominated);
	if (f->nominated) {
		out_json_key(j, "victims");
		out_json_begin_array(j);
		for (uint32_t k = 0; k < f->nvictims; k++) {
			const struct pod *p = &t->c->pods[f->victims[k]];
			out_buf_reset(&b);
			cli_pod_name(&b, t->c, p->ns, p->name, false);
			out_json_str(j, out_buf_str(&b));
		}
		out_json_end_array(j);
	}
	out_json_key(j, "violates");
	out_json_str(j, f->violation);
	out_json_end_object(j);
	out_buf_fini(&b);
}

int cli_fixes_at(struct timeline *t, uint32_t i, uint32_t limit, struct fix_report *r)
{
	if (t->cur != i + 1 || !timeline_prev(t))
		return 0;
	if (fix_find(t, i, limit, r) != FIX_OK)
		return 0;
	return timeline_next(t);
}

int cli_best_fix(struct timeline *t, uint32_t i, struct fix_report *r)
{
	if (t->cur != i + 1 || !timeline_prev(t))
		return 0;
	if (fix_best(t, i, r) != FIX_OK)
		return 0;
	return timeline_next(t);
}

static void text_report(FILE *f, const struct timeline *t, const struct fix_report *r)
{
	struct out_buf b = { 0 };
	cli_step_pod(&b, t, r->step);
	fprintf(f, "Step %u/%u: ", r->step + 1, timeline_len(t));
	out_text(f, out_buf_str(&b), 0);
	fputs(" is pending\n  ", f);
	out_text(f, r->message ? r->message : "", 0);
	fputc('\n', f);
	if (!r->n) {
		fputs("  no change of these kinds schedules it\n", f);
	} else {
		fprintf(f, "  %u fix%s, cheapest first:\n", r->n, r->n == 1 ? "" : "es");
		for (uint32_t k = 0; k < r->n; k++) {
			const struct fix *x = &r->v[k];
			out_buf_reset(&b);
			cli_fix_line(&b, t, r, x);
			fprintf(f, "    %-18s ", fix_kind_name(x->kind));
			out_text(f, out_buf_str(&b), 0);
			fputc('\n', f);
			if (x->violation) {
				fputs("                       its own hard constraint no longer holds: ", f);
				out_text(f, x->violation, 0);
				fputc('\n', f);
			}
		}
	}
	if (r->retry && r->entry < 0)
		fputs("  (a retry step: changes of the pod itself are not tried)\n", f);
	else if (r->retry)
		fprintf(f, "  (a retry step: changes of the pod go to step %d, which made it)\n", r->entry + 1);
	out_buf_fini(&b);
}

/* --limit K, taken out of argv before the common options */
static int take_limit(int *argc, char **argv, uint32_t *limit)
{
	int o = 0;
	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i], *val = NULL;
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--limit"))
			val = i + 1 < *argc ? argv[++i] : "";
		else if (!strncmp(a, "--limit=", 8))
			val = a + 8;
		if (!val) {
			argv[o++] = argv[i];
			continue;
		}
		char *end;
		errno = 0;
		unsigned long v = strtoul(val, &end, 10);
		if (!*val || *val == '-' || *end || errno || v == 0 || v > 1000) {
			cli_usage_error("fix: --limit needs a number of fixes per kind from 1 to 1000 (got '%s')", val);
			return 0;
		}
		*limit = (uint32_t)v;
	}
	*argc = o;
	return 1;
}

int cli_fix(int argc, char **argv)
{
	uint32_t limit = 3;
	if (!take_limit(&argc, argv, &limit))
		return CLI_USAGE;
	struct cli_opts o;
	struct scenario *sc;
	struct timeline *t;
	int rc = cli_start("fix", argc, argv, CLI_OPT_JSON | CLI_OPT_STEP | CLI_OPT_FILTER, &o, &sc, &t);
	if (rc >= 0)
		return rc;
	rc = CLI_USAGE;
	uint32_t n = timeline_len(t);
	struct fix_report *reps = NULL;
	uint32_t nreps = 0;
	if (o.has_step && (o.step == 0 || o.step > n)) {
		cli_usage_error("fix: --step %u: steps count from 1 and the scenario has %u step%s", o.step, n,
				n == 1 ? "" : "s");
		goto done;
	}
	uint32_t from = o.has_step ? o.step - 1 : 0, to = o.has_step ? o.step : n;
	if (!timeline_goto(t, from))
		goto oom;
	for (uint32_t i = from; i < to; i++) {
		const struct step *s = &sc->steps[i];
		struct decision d;
		if (!timeline_step_verdicts(t, &d))
			goto oom;
		bool pending = (s->kind == STEP_SCHEDULE || s->kind == STEP_RETRY) && d.outcome == OUT_PENDING;
		enum outcome out = d.outcome;
		decision_fini(&d);
		if (!pending) {
			if (o.has_step) {
				struct out_buf b = { 0 };
				cli_step_what(&b, t, i);
				fprintf(stderr, "skewer: fix: step %u (", i + 1);
				out_text(stderr, out_buf_str(&b), 0);
				fprintf(stderr, ") is not a pending pod: its outcome is %s; run 'skewer explain' to see "
					"the steps and give --step a pending one\n", cli_outcome_name(out));
				out_buf_fini(&b);
				goto done;
			}
			continue;
		}
		timeline_prev(t);
		struct fix_report *nr = realloc(reps, (nreps + 1) * sizeof(*nr));
		if (!nr)
			goto oom;
		reps = nr;
		if (fix_find(t, i, limit, &reps[nreps]) != FIX_OK) {
			fix_report_fini(&reps[nreps]);
			goto oom;
		}
		nreps++;
		/* the step again, as the scenario has it */
		if (!timeline_next(t))
			goto oom;
	}
	if (o.json) {
		struct out_json j;
		out_json_init(&j, stdout, 1);
		out_json_begin_object(&j);
		out_json_key(&j, "fixes");
		out_json_begin_array(&j);
		for (uint32_t k = 0; k < nreps; k++) {
			struct out_buf b = { 0 };
			out_json_begin_object(&j);
			out_json_key(&j, "step");
			out_json_int(&j, reps[k].step + 1);
			cli_step_pod(&b, t, reps[k].step);
			out_json_key(&j, "pod");
			out_json_str(&j, out_buf_str(&b));
			out_json_key(&j, "message");
			out_json_str(&j, reps[k].message);
			out_json_key(&j, "fixes");
			out_json_begin_array(&j);
			for (uint32_t m = 0; m < reps[k].n; m++)
				cli_fix_json(&j, t, &reps[k], &reps[k].v[m]);
			out_json_end_array(&j);
			out_json_end_object(&j);
			out_buf_fini(&b);
		}
		out_json_end_array(&j);
		out_json_end_object(&j);
		out_json_fini(&j);
	} else {
		if (!nreps)
			fputs("No pending pod.\n", stdout);
		for (uint32_t k = 0; k < nreps; k++) {
			if (k)
				fputc('\n', stdout);
			text_report(stdout, t, &reps[k]);
		}
	}
	rc = CLI_OK;
	goto done;
oom:
	fprintf(stderr, "error: out of memory\n");
	rc = CLI_USAGE;
done:
	for (uint32_t k = 0; k < nreps; k++)
		fix_report_fini(&reps[k]);
	free(reps);
	timeline_free(t);
	scenario_free(sc);
	cli_opts_fini(&o);
	return rc;
}
