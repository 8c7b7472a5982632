/* explain.c - `skewer explain`: runs the timeline and writes a readable
 * account of every step (the JSON form is explain_json.c). Every figure
 * comes from the decision record; every input string is sanitised. */
#include "../model/version.h"
#include "cli.h"
#include "fixout.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_WIDTH 78
#define BUFLEN 4096

struct text {
	FILE *f;
	bool color;
	struct timeline *t;
	const struct cluster *c;
	struct out_buf b;      /* scratch */
	char buf[BUFLEN];      /* decision_* texts */
};

static void put(struct text *x, const char *s)
{
	out_text(x->f, s, 0);
}

static void color(struct text *x, enum out_color c)
{
	out_color_begin(x->f, x->color, c);
}

static void uncolor(struct text *x)
{
	out_color_end(x->f, x->color);
}

/* Writes s word-wrapped at TEXT_WIDTH with `indent` spaces before each line. */
static void put_wrapped(struct text *x, const char *s, int indent)
{
	struct out_buf b = {0};
	out_sanitize(&b, s, strlen(s), OUT_KEEP_NL);
	const char *p = out_buf_str(&b);
	int width = TEXT_WIDTH - indent;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
		if (linelen == 0)
			fputc('\n', x->f); /* keep the note's blank lines */
		/* one paragraph line: break at the last space within width */
		while (linelen > 0) {
			size_t take = 0, cols = 0, last_space = 0;
			while (take < linelen && cols < (size_t)width) {
				if (p[take] == ' ')
					last_space = take;
				take++;
				while (take < linelen && ((unsigned char)p[take] & 0xC0) == 0x80)
					take++;
				cols++;
			}
			if (take < linelen && last_space > 0)
				take = last_space;
			fprintf(x->f, "%*s%.*s\n", indent, "", (int)take, p);
			p += take;
			linelen -= take;
			while (linelen > 0 && *p == ' ') {
				p++;
				linelen--;
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	out_buf_fini(&b);
}

static const char *inelig_text(enum inelig why)
{
	switch (why) {
	case INELIG_NONE: return "yes";
	case INELIG_MISSING_KEY: return "no: node lacks the key";
	case INELIG_MISSING_OTHER_KEY: return "no: lacks another hard constraint's key";
	case INELIG_AFFINITY: return "no: excluded by the pod's node affinity/selector";
	case INELIG_TAINT: return "no: untolerated taint";
	case INELIG_NOT_FEASIBLE: return "no: no feasible node";
	}
	return "no";
}

static void print_domains(struct text *x, const struct constraint_rec *k)
{
	size_t vw = strlen("DOMAIN");
	for (uint32_t i = 0; i < k->ndoms; i++) {
		size_t w = out_width(cli_sym(x->c, k->doms[i].value), 0);
		if (w > vw)
			vw = w;
	}
	fprintf(x->f, "    ");
	out_text_pad(x->f, "DOMAIN", vw + 2, 0);
	fprintf(x->f, "%6s %6s  %s\n", "PODS", "NODES",
		k->hard ? "ELIGIBLE / SKEW IF PLACED" : "SCORED");
	for (uint32_t i = 0; i < k->ndoms; i++) {
		const struct domain_rec *dm = &k->doms[i];
		const char *v = cli_sym(x->c, dm->value);
		fprintf(x->f, "    ");
		if (intern_len(x->c->in, dm->value) == 0)
			out_text_pad(x->f, "\"\"", vw + 2, 0);
		else
			out_text_pad(x->f, v, vw + 2, 0);
		fprintf(x->f, "%6" PRId64 " %6u  ", dm->count, dm->nnodes);
		if (!dm->exists) {
			fputs(inelig_text(dm->why), x->f);
			if (dm->nineligible > 0)
				fprintf(x->f, " (%u node%s)", dm->nineligible,
					dm->nineligible == 1 ? "" : "s");
		} else if (k->hard) {
			fprintf(x->f, "yes / %" PRId64, dm->skew);
			if (dm->skew > k->max_skew)
				fprintf(x->f, " > maxSkew %" PRId32, k->max_skew);
			if (dm->nineligible > 0)
				fprintf(x->f, " (%u more node%s not eligible)", dm->nineligible,
					dm->nineligible == 1 ? "" : "s");
		} else {
			fputs("yes", x->f);
		}
		if (dm->is_min)
			fputs("   <- minimum", x->f);
		fputc('\n', x->f);
	}
}

static void print_constraint(struct text *x, const struct decision *d, uint32_t i)
{
	const struct constraint_rec *k = &d->cons[i];
	const struct cluster *c = x->c;
	fprintf(x->f, "  Constraint %u/%u: %s (%s), %s\n", i + 1, d->ncons,
		k->hard ? "hard" : "soft", k->hard ? "DoNotSchedule" : "ScheduleAnyway",
		present_origin_name(k->origin));
	fputs("    topologyKey ", x->f);
	put(x, cli_sym(c, k->key));
	fprintf(x->f, ", maxSkew %" PRId32 ", minDomains %" PRId32
		", nodeAffinityPolicy %s, nodeTaintsPolicy %s\n",
		k->max_skew, k->min_domains, k->affinity_honor ? "Honor" : "Ignore",
		k->taints_honor ? "Honor" : "Ignore");
	fputs("    selector ", x->f);
	if (k->sel.kind == SEL_NOTHING)
		fputs("(nil: matches nothing)", x->f);
	else if (k->sel.kind == SEL_EVERYTHING)
		fputs("{} (matches everything)", x->f);
	else
		put(x, k->sel_str ? k->sel_str : "");
	fprintf(x->f, "; the pod %s\n", k->self_match ? "matches it (+1 where placed)"
						      : "does not match it (+0 where placed)");
	if (k->empty_quirk)
		fputs("    note: labelSelector {} counts no existing pods (v1.37 quirk)\n", x->f);
	if (!k->hard && !k->scored) {
		fputs("    not scored: PreScore did not run (no feasible node)\n", x->f);
		return;
	}
	if (k->ndoms > 0)
		print_domains(x, k);
	else
		fputs("    no domains\n", x->f);
	if (k->hard) {
		if (k->min_forced_zero)
			fprintf(x->f, "    fewer domains (%u) than minDomains (%" PRId32
				"): minimum taken as 0\n", k->nreal, k->min_domains);
		else if (k->nreal == 0)
			fprintf(x->f, "    global minimum %" PRId64 " (no domains)\n", k->global_min);
		else {
			fprintf(x->f, "    global minimum %" PRId64 " (", k->global_min);
			put(x, cli_sym(c, k->min_value));
			fputs(")\n", x->f);
		}
	} else {
		fprintf(x->f, "    weight ln(%u + 2) = %.2f\n", k->size, k->weight);
	}
}

static void print_scores(struct text *x, const struct decision *d, const struct node_rec *r)
{
	fprintf(x->f, "total %" PRId64 " (", r->total);
	bool first = true;
	for (int p = 0; p < PL__COUNT; p++) {
		if (!r->scored[p] || d->plugin_skipped[p])
			continue;
		fprintf(x->f, "%s%s %" PRId64 "x%" PRId32, first ? "" : ", ",
			plugin_name((enum plugin_id)p), (int64_t)r->norm[p], x->c->cfg.weights[p]);
		first = false;
	}
	fputc(')', x->f);
}

/* The filters that also fail on a filtered node, after the first one
 * (the scheduler stops at the first; debugging contract section 1). */
static void print_more_blockers(struct text *x, const struct decision *d, const struct node_rec *r,
				int nw)
{
	unsigned bits = cli_blockers(r);
	for (int p = 0; p < PL__COUNT; p++) {
		if (!(bits & (1u << p)) || p == r->fail)
			continue;
		fprintf(x->f, "    %*s  also: %s  ", nw, "", plugin_name((enum plugin_id)p));
		put(x, decision_reason_of(x->c, d, r, (enum plugin_id)p, x->buf, sizeof(x->buf)));
		const char *det = decision_detail_of(x->c, d, r, (enum plugin_id)p, x->buf,
						     sizeof(x->buf));
		if (det && det[0]) {
			fputs("  [", x->f);
			put(x, det);
			fputc(']', x->f);
		}
		if (cli_blocker_unresolvable(r, (enum plugin_id)p))
			fputs(" (unresolvable)", x->f);
		fputc('\n', x->f);
	}
}

/* Each hard constraint's verdict on the node, when there are two or more
 * (with one, the reason and its arithmetic already say it all):
 * "zone=zoneB passes (skew 1), node=node3 fails (skew 2 > maxSkew 1)". */
static void print_verdicts(struct text *x, const struct decision *d, const struct node_rec *r,
			   int nw)
{
	if (d->nhard < 2)
		return;
	for (uint32_t k = 0; k < d->nhard; k++) {
		struct spread_verdict v;
		if (!decision_spread_verdict(d, r, k, &v) || v.cons >= d->ncons)
			break;
		const struct constraint_rec *cr = &d->cons[v.cons];
		if (k == 0)
			fprintf(x->f, "    %*s  constraints: ", nw, "");
		else
			fputs(", ", x->f);
		put(x, cli_sym(x->c, cr->key));
		if (!v.has_domain) {
			fputs(" fails (the node lacks the key)", x->f);
			continue;
		}
		fputc('=', x->f);
		if (intern_len(x->c->in, v.domain) == 0)
			fputs("\"\"", x->f);
		else
			put(x, cli_sym(x->c, v.domain));
		if (v.ok)
			fprintf(x->f, " passes (skew %" PRId64 ")", v.skew);
		else
			fprintf(x->f, " fails (skew %" PRId64 " > maxSkew %" PRId32 ")", v.skew,
				cr->max_skew);
	}
	fputc('\n', x->f);
}

static void print_nodes(struct text *x, const struct decision *d, int32_t chosen)
{
	const struct cluster *c = x->c;
	size_t nw = 4;
	for (uint32_t i = 0; i < d->nnodes; i++) {
		size_t w = out_width(cli_node_name(c, d->nodes[i].node), 0);
		if (w > nw)
			nw = w;
	}
	bool soft = false;
	for (uint32_t i = 0; i < d->ncons; i++)
		soft |= !d->cons[i].hard && d->cons[i].scored;
	fprintf(x->f, "  Nodes (%u feasible of %u):\n", d->nfeasible, d->nnodes);
	if (d->prefilter_conflict)
		fputs("    NodeAffinity PreFilter: the pod's affinity terms conflict\n", x->f);
	for (uint32_t i = 0; i < d->nnodes; i++) {
		const struct node_rec *r = &d->nodes[i];
		fputs("    ", x->f);
		out_text_pad(x->f, cli_node_name(c, r->node), nw + 2, 0);
		if (!r->feasible) {
			color(x, OUT_C_FILTERED);
			fputs("filtered", x->f);
			uncolor(x);
			fprintf(x->f, "  %-17s  ", r->fail == PL_NONE ? "?" : plugin_name(r->fail));
			put(x, decision_reason(c, d, r, x->buf, sizeof(x->buf)));
			const char *det = decision_detail(c, d, r, x->buf, sizeof(x->buf));
			if (det && det[0]) {
				fputs("  [", x->f);
				put(x, det);
				fputc(']', x->f);
			}
			if (r->unresolvable)
				fputs(" (unresolvable)", x->f);
			fputc('\n', x->f);
			print_more_blockers(x, d, r, (int)nw);
			print_verdicts(x, d, r, (int)nw);
			continue;
		}
		bool is_chosen = chosen >= 0 && (uint32_t)chosen == r->node;
		color(x, is_chosen ? OUT_C_CHOSEN : OUT_C_FEASIBLE);
		fputs("feasible", x->f);
		uncolor(x);
		fputs("  ", x->f);
		if (d->scored)
			print_scores(x, d, r);
		if (is_chosen) {
			color(x, OUT_C_CHOSEN);
			fputs("  <- chosen", x->f);
			uncolor(x);
		}
		fputc('\n', x->f);
		print_verdicts(x, d, r, (int)nw);
		if (soft && d->scored && !d->plugin_skipped[PL_POD_TOPOLOGY_SPREAD]) {
			const char *terms = decision_spread_terms(c, d, r, x->buf, sizeof(x->buf));
			if (r->spread_ignored) {
				fprintf(x->f, "    %*s  spread: lacks a soft constraint's key (score 0)\n",
					(int)nw, "");
			} else if (terms && terms[0]) {
				fprintf(x->f, "    %*s  spread: ", (int)nw, "");
				put(x, terms);
				fputc('\n', x->f);
			}
		}
	}
	if (d->ntied > 1) {
		fputs("  tie between ", x->f);
		for (uint32_t i = 0; i < d->ntied; i++) {
			if (i)
				fputs(", ", x->f);
			put(x, cli_node_name(c, d->tied[i]));
		}
		if (c->cfg.tie_random)
			fprintf(x->f, ": picked at random (seed %" PRIu64 ")\n", c->cfg.seed);
		else
			fputs(": the first in node order wins\n", x->f);
	}
}

static void print_outcome(struct text *x, const struct step_result *r)
{
	fputs("  ", x->f);
	switch (r->outcome) {
	case OUT_SCHEDULED:
		color(x, OUT_C_CHOSEN);
		fputs("-> scheduled on ", x->f);
		put(x, cli_node_name(x->c, r->node));
		break;
	case OUT_APPLIED:
		fputs("-> applied", x->f);
		break;
	default:
		color(x, r->outcome == OUT_PENDING ? OUT_C_FILTERED : OUT_C_ERROR);
		fprintf(x->f, "-> %s", cli_outcome_name(r->outcome));
		if (r->message) {
			fputs(": ", x->f);
			put(x, r->message);
		}
		break;
	}
	uncolor(x);
	fputc('\n', x->f);
}

#define MAX_VICTIMS_SHOWN 8

static void put_pod(struct text *x, uint32_t pod)
{
	const struct pod *p = &x->c->pods[pod];
	out_buf_reset(&x->b);
	cli_pod_name(&x->b, x->c, p->ns, p->name, false);
	put(x, out_buf_str(&x->b));
}

static void put_victims(struct text *x, const uint32_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n && i < MAX_VICTIMS_SHOWN; i++) {
		if (i)
			fputs(", ", x->f);
		if (v[i] < x->c->npods)
			put_pod(x, v[i]);
	}
	if (n > MAX_VICTIMS_SHOWN)
		fprintf(x->f, " and %u more", n - MAX_VICTIMS_SHOWN);
}

static const char *pick_text(enum preempt_pick p)
{
	switch (p) {
	case PICK_ONLY: return "the only candidate";
	case PICK_PDB_VIOLATIONS: return "fewest PodDisruptionBudget violations";
	case PICK_HIGHEST_PRIORITY: return "the lowest highest victim priority";
	case PICK_PRIORITY_SUM: return "the smallest sum of victim priorities";
	case PICK_VICTIM_COUNT: return "the fewest victims";
	case PICK_START_TIME: return "its highest-priority victims started last";
	case PICK_NODE_ORDER: return "the first in node order among equal candidates";
	}
	return "";
}

/* DefaultPreemption's answer when no node was feasible (debugging
 * contract section 2): what it did, and per node why evicting pods does
 * not help there or whom it would evict. */
static void print_preemption(struct text *x, const struct decision *d)
{
	const struct preemption *pr = &d->pre;
	const struct cluster *c = x->c;
	if (!cli_postfilter_ran(d))
		return;
	fputs("  Preemption: ", x->f);
	switch (pr->outcome) {
	case PRE_NONE:
		return;
	case PRE_DISABLED:
		fputs("off (scheduler.preemption: false)\n", x->f);
		return;
	case PRE_NOT_ELIGIBLE: {
		const char *m = pr->message ? pr->message : "not eligible";
		if (!strncmp(m, "preemption: ", 12))
			m += 12;
		put(x, m);
		fputc('\n', x->f);
		return;
	}
	case PRE_NO_CANDIDATE:
		fputs("no candidate: evicting lower-priority pods makes room nowhere\n", x->f);
		break;
	case PRE_NOMINATED:
		fputs("nominated ", x->f);
		put(x, cli_node_name(c, cli_nominated(d)));
		fprintf(x->f, " (%s); victims deleted: ", pick_text(pr->pick));
		put_victims(x, pr->victims, pr->nvictims);
		fputc('\n', x->f);
		break;
	}
	size_t nw = 4;
	for (uint32_t i = 0; i < pr->nnodes; i++) {
		size_t w = out_width(cli_node_name(c, pr->nodes[i].node), 0);
		if (w > nw)
			nw = w;
	}
	int32_t prio = d->pod < c->npods ? c->pods[d->pod].spec.priority : 0;
	for (uint32_t i = 0; i < pr->nnodes; i++) {
		const struct preempt_node *pn = &pr->nodes[i];
		const struct node_rec *r = decision_node(d, pn->node);
		fputs("    ", x->f);
		out_text_pad(x->f, cli_node_name(c, pn->node), nw + 2, 0);
		switch (pn->why) {
		case PN_NOT_HELPFUL:
			fputs("not helpful: ", x->f);
			if (r && r->fail >= 0 && r->fail < PL__COUNT)
				fprintf(x->f, "%s is unresolvable", plugin_name(r->fail));
			else
				fputs("unresolvable", x->f);
			break;
		case PN_NO_VICTIMS:
			fprintf(x->f, "no victims: no pod of a priority below %" PRId32, prio);
			break;
		case PN_STILL_UNFIT:
			fputs("still does not fit without its lower-priority pods: ", x->f);
			if (pn->fail >= 0 && pn->fail < PL__COUNT)
				fprintf(x->f, "%s  ", plugin_name((enum plugin_id)pn->fail));
			put(x, pn->reason ? pn->reason : "");
			break;
		case PN_CANDIDATE:
			fputs("candidate: evicts ", x->f);
			put_victims(x, pn->victims, pn->nvictims);
			fprintf(x->f, " (highest priority %" PRId32 ", %u PDB violation%s)", pn->highest,
				pn->pdb_violations, pn->pdb_violations == 1 ? "" : "s");
			if ((int64_t)pn->node == cli_nominated(d))
				fputs("  <- nominated", x->f);
			break;
		case PN_NOT_TRIED:
			fputs("not tried: the dry run had found enough candidates", x->f);
			break;
		}
		fputc('\n', x->f);
	}
}

static void print_step(struct text *x, uint32_t i, const struct decision *d)
{
	const struct step *s = &x->t->sc->steps[i];
	out_buf_reset(&x->b);
	cli_step_what(&x->b, x->t, i);
	color(x, OUT_C_HEAD);
	fprintf(x->f, "Step %u/%u: ", i + 1, timeline_len(x->t));
	put(x, out_buf_str(&x->b));
	uncolor(x);
	fputc('\n', x->f);
	if (s->note && s->note[0]) {
		color(x, OUT_C_DIM);
		put_wrapped(x, s->note, 2);
		uncolor(x);
		fputc('\n', x->f);
	}
	if (d && d->gated) {
		fputs("  SchedulingGates' PreEnqueue keeps the pod out of the scheduling queue:\n"
		      "  no scheduling cycle ran, no node was filtered.\n", x->f);
	} else if (d && cli_decision_filled(s, d)) {
		for (uint32_t k = 0; k < d->ncons; k++)
			print_constraint(x, d, k);
		if (d->ncons == 0)
			fputs("  No topology spread constraint in force.\n", x->f);
		print_nodes(x, d, x->t->res[i].outcome == OUT_SCHEDULED ? x->t->res[i].node : -1);
		if (d->pre.nominated_first && x->t->res[i].outcome == OUT_SCHEDULED) {
			fputs("  the pod's nominated node ", x->f);
			put(x, cli_node_name(x->c, x->t->res[i].node));
			fputs(" was evaluated first and fits, so it is taken;\n"
			      "  the other nodes were not needed (shown for comparison)\n", x->f);
		}
		print_preemption(x, d);
	}
	if (s->kind == STEP_SCALE_UP)
		cli_scale_up_text(x->f, x->t, i);
	print_outcome(x, &x->t->res[i]);
	if (d && d->volume_note) {
		/* VolumeBinding's Reserve and PreBind, with the PV controller */
		fputs("  volumes: ", x->f);
		put(x, d->volume_note);
		fputc('\n', x->f);
	}
	cli_ctl_text(x->f, x->t, i, &x->b);
	if (d && cli_event(d) && cli_decision_filled(s, d)) {
		fputs("  event: ", x->f);
		put(x, cli_event(d));
		fputc('\n', x->f);
		/* a dump's pod: what its cluster's scheduler wrote in its
		 * PodScheduled condition, against the same text here */
		const struct pod *p = &x->c->pods[d->pod];
		if (p->cluster_message && !strcmp(intern_get(x->c->in, p->cluster_message), d->condition)) {
			fputs("  the cluster's PodScheduled message is the same\n", x->f);
		} else if (p->cluster_message) {
			fputs("  the cluster's PodScheduled message differs: ", x->f);
			put(x, intern_get(x->c->in, p->cluster_message));
			fputc('\n', x->f);
		}
	}
}

/* A pending step's best fix in one line (skewer fix lists them all). */
static int print_best_fix(struct text *x, uint32_t i)
{
	struct fix_report r;
	if (!cli_best_fix(x->t, i, &r)) {
		fix_report_fini(&r);
		return 0;
	}
	const struct fix *f = fix_report_best(&r);
	if (!f) {
		fputs("  fix: no change of the kinds 'skewer fix' tries schedules it\n", x->f);
	} else {
		out_buf_reset(&x->b);
		cli_fix_summary(&x->b, x->t, &r, f);
		fputs("  best fix: ", x->f);
		put(x, out_buf_str(&x->b));
		fputs(f->nominated ? "" : " -> ", x->f);
		if (!f->nominated)
			put(x, cli_sym(x->c, f->node));
		if (f->violation)
			fputs(" (an earlier pod's hard constraint is then violated)", x->f);
		fprintf(x->f, "; every fix: skewer fix --step %u\n", i + 1);
	}
	fix_report_fini(&r);
	return 1;
}

int explain_text(FILE *f, struct timeline *t, const struct cli_opts *o)
{
	assert(f && t && o);
	struct text x = {.f = f, .t = t, .c = t->c};
	x.color = out_color_enabled(f, o->color);
	int rc = CLI_OK;
	uint32_t n = timeline_len(t);
	uint32_t from = o->has_step ? o->step - 1 : 0;
	uint32_t to = o->has_step ? o->step : n;

	uint32_t npods = 0;
	for (uint32_t i = 0; i < t->c->npods; i++)
		npods += t->c->pods[i].alive;
	color(&x, OUT_C_HEAD);
	fputs("Scenario ", f);
	put(&x, t->sc->name ? t->sc->name : "");
	uncolor(&x);
	fprintf(f, ": %u node%s, %u pod%s, %u step%s\n", t->c->nalive_nodes,
		t->c->nalive_nodes == 1 ? "" : "s", npods, npods == 1 ? "" : "s", n,
		n == 1 ? "" : "s");
	if (t->sc->source && t->sc->source[0]) {
		fputs("Source: ", f);
		put(&x, t->sc->source);
		fputc('\n', f);
	}
	char kv[160];
	version_describe(&t->c->cfg, kv, sizeof(kv));
	fprintf(f, "Simulated: %s%s", kv, t->c->cfg.version_named ? "" : " (the default)");
	/* a version step changes it later on */
	for (uint32_t i = 0; i < n; i++)
		if (t->sc->steps[i].kind == STEP_VERSION)
			fprintf(f, "; from step %u, %s", i + 1, intern_get(t->c->in, t->sc->steps[i].label_val));
	fputc('\n', f);
	fputc('\n', f);

	if (from > 0 && !timeline_goto(t, from))
		goto oom;
	for (uint32_t i = from; i < to; i++) {
		struct decision d = {0};
		if (!timeline_step(t, &d)) {
			decision_fini(&d);
			goto oom;
		}
		print_step(&x, i, &d);
		decision_fini(&d);
		const struct step *s = &t->sc->steps[i];
		if ((s->kind == STEP_SCHEDULE || s->kind == STEP_RETRY) && t->res[i].outcome == OUT_PENDING &&
		    !print_best_fix(&x, i))
			goto oom;
		fputc('\n', f);
	}
	if (n == 0)
		fputs("No steps.\n", f);
	goto done;
oom:
	fprintf(stderr, "error: out of memory\n");
	rc = CLI_USAGE;
done:
	out_buf_fini(&x.b);
	return rc;
}

int cli_explain(int argc, char **argv)
{
	struct cli_opts o;
	struct scenario *sc;
	struct timeline *t;
	int rc = cli_start("explain", argc, argv, CLI_OPT_JSON | CLI_OPT_STEP | CLI_OPT_FILTER | CLI_OPT_COLOR | CLI_OPT_WORKSHEET, &o, &sc, &t);
	if (rc >= 0)
		return rc;
	rc = CLI_USAGE;
	if (o.has_step && (o.step == 0 || o.step > timeline_len(t))) {
		rc = cli_usage_error("explain: --step %u: steps count from 1 and the scenario has %u step%s", o.step,
				     timeline_len(t), timeline_len(t) == 1 ? "" : "s");
		goto done;
	}
	if (o.json && o.worksheet) {
		rc = cli_usage_error("explain: --json and --worksheet are two different outputs: give one");
		goto done;
	}
	rc = o.worksheet ? explain_worksheet(stdout, t, &o)
	     : o.json    ? explain_json(stdout, t, &o)
			 : explain_text(stdout, t, &o);
done:
	if (t)
		timeline_free(t);
	if (sc)
		scenario_free(sc);
	cli_opts_fini(&o);
	return rc;
}
