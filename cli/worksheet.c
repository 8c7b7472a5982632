/* worksheet.c - `skewer explain --worksheet`: a handout for a class. For
 * every step that schedules a pod it prints the pod, its spread
 * constraints and the cluster as it is before the step (the nodes' domain
 * labels, marks and pods), then three questions: which nodes are
 * feasible, where the pod goes, what skew each domain would get. The
 * answers, from the same decision records explain prints, are kept and
 * printed at the end as the answer key. */
#include "cli.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Whether key k is the topology key of one of the decision's constraints
 * or a key of the pod's nodeSelector (the labels the questions need). */
static bool wanted_key(const struct decision *d, const struct pod *p, sym_t k)
{
	for (uint32_t i = 0; i < d->ncons; i++)
		if (d->cons[i].key == k)
			return true;
	return p && labels_get(&p->spec.node_selector, k) != SYM_NONE;
}

static void put_labels(struct out_buf *b, const struct cluster *c, const struct labels *l)
{
	if (!l->n) {
		out_buf_puts(b, "no labels");
		return;
	}
	for (uint32_t i = 0; i < l->n; i++)
		out_buf_printf(b, "%s%s=%s", i ? "," : "", intern_get(c->in, l->v[i].key),
			       intern_get(c->in, l->v[i].val));
}

/* The cluster as it is now (before the step) into b: one line a node. */
static void cluster_lines(struct out_buf *b, const struct cluster *c, const struct decision *d,
			  const struct pod *p)
{
	for (uint32_t i = 0; i < c->nnodes; i++) {
		const struct node *n = &c->nodes[i];
		if (!n->alive)
			continue;
		out_buf_printf(b, "    %s  ", intern_get(c->in, n->name));
		uint32_t shown = 0;
		for (uint32_t j = 0; j < n->labels.n; j++) {
			if (!wanted_key(d, p, n->labels.v[j].key))
				continue;
			out_buf_printf(b, "%s%s=%s", shown++ ? " " : "", intern_get(c->in, n->labels.v[j].key),
				       intern_get(c->in, n->labels.v[j].val));
		}
		for (uint32_t k = 0; k < d->ncons; k++) {
			bool dup = false;
			for (uint32_t m = 0; m < k; m++)
				dup |= d->cons[m].key == d->cons[k].key;
			if (!dup && labels_get(&n->labels, d->cons[k].key) == SYM_NONE)
				out_buf_printf(b, "%s(no %s)", shown++ ? " " : "",
					       intern_get(c->in, d->cons[k].key));
		}
		if (n->unschedulable)
			out_buf_puts(b, "  cordoned");
		for (uint32_t j = 0; j < n->ntaints; j++) {
			const struct taint *tt = &n->taints[j];
			if (tt->key == c->sym_unsched_taint)
				continue;
			out_buf_printf(b, "  taint %s", intern_get(c->in, tt->key));
			if (intern_len(c->in, tt->value))
				out_buf_printf(b, "=%s", intern_get(c->in, tt->value));
			out_buf_printf(b, ":%s", tt->effect == EFFECT_INVALID
							  ? intern_get(c->in, tt->effect_text)
							  : effect_name(tt->effect));
		}
		out_buf_puts(b, "\n      pods:");
		uint32_t np = 0;
		for (uint32_t j = 0; j < n->npods; j++) {
			const struct pod *q = &c->pods[n->pods[j]];
			if (!q->alive)
				continue;
			out_buf_putc(b, ' ');
			if (np++)
				out_buf_puts(b, "      ");
			cli_pod_name(b, c, q->ns, q->name, true);
			out_buf_puts(b, " {");
			put_labels(b, c, &q->labels);
			out_buf_putc(b, '}');
			if (q->terminating)
				out_buf_puts(b, " terminating");
			out_buf_putc(b, '\n');
		}
		if (!np)
			out_buf_puts(b, " none\n");
	}
}

static void constraint_lines(struct out_buf *doc, const struct cluster *c, const struct decision *d)
{
	if (!d->ncons) {
		out_buf_puts(doc, "  No topology spread constraint applies to it.\n");
		return;
	}
	for (uint32_t i = 0; i < d->ncons; i++) {
		const struct constraint_rec *k = &d->cons[i];
		out_buf_printf(doc, "  Constraint %u: %s, topologyKey %s,\n    maxSkew %" PRId32 ", selector %s",
			i + 1, k->hard ? "DoNotSchedule (hard)" : "ScheduleAnyway (soft)",
			intern_get(c->in, k->key), k->max_skew,
			k->sel.kind == SEL_NOTHING ? "(none: matches nothing)"
			: k->sel.kind == SEL_EVERYTHING ? "{} (everything)"
			: k->sel_str ? k->sel_str : "");
		if (k->min_domains > 1)
			out_buf_printf(doc, ", minDomains %" PRId32, k->min_domains);
		if (!k->affinity_honor)
			out_buf_puts(doc, ", nodeAffinityPolicy Ignore");
		if (k->taints_honor)
			out_buf_puts(doc, ", nodeTaintsPolicy Honor");
		if (k->origin != ORIGIN_POD)
			out_buf_puts(doc, k->origin == ORIGIN_DEFAULT_SYSTEM ? " (the system default)"
								 : " (a cluster default)");
		out_buf_putc(doc, '\n');
	}
}

/* The answers of step i into key. */
static void answers(struct out_buf *key, const struct timeline *t, uint32_t i,
		    const struct decision *d, uint32_t q)
{
	const struct cluster *c = t->c;
	const struct step_result *r = &t->res[i];
	char buf[512], det[512];
	out_buf_printf(key, "%sStep %u: ", key->len ? "\n" : "", i + 1);
	cli_step_what(key, t, i);
	out_buf_puts(key, "\n  1. Feasible:");
	uint32_t nf = 0;
	for (uint32_t j = 0; j < d->nnodes; j++)
		if (d->nodes[j].feasible)
			out_buf_printf(key, "%s %s", nf++ ? "," : "", cli_node_name(c, d->nodes[j].node));
	if (!nf)
		out_buf_puts(key, " none");
	out_buf_putc(key, '\n');
	for (uint32_t j = 0; j < d->nnodes; j++) {
		const struct node_rec *n = &d->nodes[j];
		if (n->feasible)
			continue;
		const char *dt = decision_detail(c, d, n, det, sizeof(det));
		out_buf_printf(key, "     %s is filtered out by %s: %s%s%s\n", cli_node_name(c, n->node),
			       plugin_name(n->fail), decision_reason(c, d, n, buf, sizeof(buf)),
			       dt[0] ? ", " : "", dt);
	}
	out_buf_puts(key, "  2. ");
	if (r->outcome == OUT_SCHEDULED) {
		out_buf_printf(key, "It goes to %s", cli_node_name(c, r->node));
		if (d->ntied > 1)
			out_buf_printf(key, " (%u nodes tie on the top score; %s)", d->ntied,
				       c->cfg.tie_random ? "one is picked at random"
							 : "the first in node order wins");
		out_buf_puts(key, ".\n");
	} else {
		out_buf_printf(key, "It stays %s: %s\n", cli_outcome_name(r->outcome),
			       r->message ? r->message : "");
		int32_t nom = cli_postfilter_ran(d) ? cli_nominated(d) : -1;
		if (nom >= 0) {
			out_buf_printf(key, "     Preemption nominates %s, evicting", cli_node_name(c, nom));
			for (uint32_t v = 0; v < d->pre.nvictims; v++) {
				out_buf_puts(key, v ? ", " : " ");
				cli_pod_name(key, c, c->pods[d->pre.victims[v]].ns,
					     c->pods[d->pre.victims[v]].name, true);
			}
			out_buf_puts(key, ".\n");
		}
	}
	if (!q)
		return;
	out_buf_puts(key, "  3. Skew if placed:\n");
	for (uint32_t j = 0; j < d->ncons; j++) {
		const struct constraint_rec *k = &d->cons[j];
		if (!k->hard)
			continue;
		out_buf_printf(key, "     constraint %u (%s, global minimum %" PRId64 "%s):", j + 1,
			       intern_get(c->in, k->key), k->global_min,
			       k->min_forced_zero ? ", taken as 0: fewer domains than minDomains" : "");
		for (uint32_t m = 0; m < k->ndoms; m++) {
			const struct domain_rec *dm = &k->doms[m];
			out_buf_printf(key, "%s %s ", m ? "," : "", intern_get(c->in, dm->value));
			if (!dm->exists)
				out_buf_puts(key, "not a domain");
			else if (dm->skew > k->max_skew)
				out_buf_printf(key, "%" PRId64 " > maxSkew %" PRId32, dm->skew, k->max_skew);
			else
				out_buf_printf(key, "%" PRId64, dm->skew);
		}
		out_buf_putc(key, '\n');
	}
}

int explain_worksheet(FILE *f, struct timeline *t, const struct cli_opts *o)
{
	assert(f && t && o);
	const struct cluster *c = t->c;
	struct out_buf key = {0}, cl = {0}, all = {0}, *doc = &all;
	uint32_t n = timeline_len(t);
	uint32_t from = o->has_step ? o->step - 1 : 0, to = o->has_step ? o->step : n;
	int rc = CLI_OK;
	out_buf_printf(doc, "Worksheet: %s\n", t->sc->name ? t->sc->name : "");
	if (t->sc->source && t->sc->source[0])
		out_buf_printf(doc, "Source: %s\n", t->sc->source);
	out_buf_puts(doc, "\nFor each step that schedules a pod: read the pod, its topology spread\n"
	      "constraints and the cluster as it is before the step, then answer the\n"
	      "questions. Steps that change the cluster are listed as they happen. The\n"
	      "answer key is at the end.\n");
	if (from > 0 && !timeline_goto(t, from))
		goto oom;
	for (uint32_t i = from; i < to; i++) {
		const struct step *st = &t->sc->steps[i];
		struct decision d = {0};
		if (!timeline_step(t, &d)) {
			decision_fini(&d);
			goto oom;
		}
		out_buf_printf(doc, "\nStep %u of %u: ", i + 1, n);
		out_buf_reset(&cl);
		cli_step_what(&cl, t, i);
		out_buf_printf(doc, "%s\n", out_buf_str(&cl));
		if (!step_runs_cycle(st) || !cli_decision_filled(st, &d)) {
			out_buf_puts(doc, step_runs_cycle(st) ? "  (no scheduling cycle: see the answer key)\n"
						  : "  The cluster changes; no question.\n");
			if (step_runs_cycle(st)) {
				out_buf_printf(&key, "%sStep %u: ", key.len ? "\n" : "", i + 1);
				cli_step_what(&key, t, i);
				out_buf_printf(&key, "\n  %s: %s\n", cli_outcome_name(t->res[i].outcome),
					       t->res[i].message ? t->res[i].message : "");
			}
			decision_fini(&d);
			continue;
		}
		/* the cluster as it was before the step: back one step, lay
		 * it out, forward again (the decision tells which keys matter) */
		const struct pod *p = d.pod < c->npods ? &c->pods[d.pod] : NULL;
		if (!timeline_goto(t, i)) {
			decision_fini(&d);
			goto oom;
		}
		out_buf_reset(&cl);
		cluster_lines(&cl, c, &d, p);
		if (!timeline_goto(t, i + 1)) {
			decision_fini(&d);
			goto oom;
		}
		if (p) {
			struct out_buf pl = {0};
			put_labels(&pl, c, &p->labels);
			struct out_buf pn = {0};
			cli_pod_name(&pn, c, p->ns, p->name, true);
			out_buf_printf(doc, "  The pod: %s, labels %s\n", out_buf_str(&pn), out_buf_str(&pl));
			out_buf_fini(&pn);
			out_buf_fini(&pl);
		}
		constraint_lines(doc, c, &d);
		out_buf_puts(doc, "  The cluster before this step (the constraints' keys, the pods with\n"
		      "  their labels):\n");
		out_buf_puts(doc, out_buf_str(&cl));
		uint32_t nhard = 0;
		for (uint32_t k = 0; k < d.ncons; k++)
			nhard += d.cons[k].hard;
		out_buf_puts(doc, "  Questions:\n"
		      "    1. Which nodes are feasible (pass every filter)?\n"
		      "    2. Where does the pod go, or does it stay Pending?\n");
		if (nhard)
			out_buf_puts(doc, "    3. For each hard constraint: the skew of each domain if the pod\n"
			      "       went there (its count + 1 if the pod matches - the global minimum)?\n");
		answers(&key, t, i, &d, nhard);
		decision_fini(&d);
	}
	if (n == 0)
		out_buf_puts(doc, "\nNo steps.\n");
	out_buf_printf(doc, "\n\nAnswer key\n==========\n\n%s", key.len ? out_buf_str(&key) : "No questions.\n");
	goto done;
oom:
	fprintf(stderr, "error: out of memory\n");
	rc = CLI_USAGE;
done:
	/* the scenario's names and labels are the author's: sanitised */
	if (rc == CLI_OK)
		out_text(f, out_buf_str(&all), OUT_KEEP_NL);
	out_buf_fini(&all);
	out_buf_fini(&key);
	out_buf_fini(&cl);
	return rc;
}
