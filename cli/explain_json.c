/* explain_json.c - `skewer explain --json`: the contract of
 * shared/spec/explain-json.md (version 1) and the debugging contract's
 * additions (shared/spec/debugging.md sections 1 and 2: every blocker,
 * each hard constraint's verdict per node, preemption and the event),
 * written from the decision records. Extra fields ("detail", ...) are
 * allowed by both. */
#include "../model/version.h"
#include "cli.h"
#include "fixout.h"

#include <assert.h>
#include <string.h>

#include "../model/controllers/ctl.h"

#define BUFLEN 4096

struct jx {
	struct out_json j;
	struct timeline *t;
	const struct cluster *c;
	struct out_buf b;
	char buf[BUFLEN];
};

static void key_sym(struct jx *x, const char *key, sym_t s)
{
	out_json_key(&x->j, key);
	out_json_str(&x->j, cli_sym(x->c, s));
}

static void write_constraint(struct jx *x, const struct constraint_rec *k)
{
	struct out_json *j = &x->j;
	out_json_begin_object(j);
	key_sym(x, "topologyKey", k->key);
	out_json_key(j, "whenUnsatisfiable");
	out_json_str(j, k->hard ? "DoNotSchedule" : "ScheduleAnyway");
	out_json_key(j, "maxSkew");
	out_json_int(j, k->max_skew);
	out_json_key(j, "minDomains");
	out_json_int(j, k->min_domains);
	out_json_key(j, "nodeAffinityPolicy");
	out_json_str(j, k->affinity_honor ? "Honor" : "Ignore");
	out_json_key(j, "nodeTaintsPolicy");
	out_json_str(j, k->taints_honor ? "Honor" : "Ignore");
	out_json_key(j, "selector");
	out_json_str(j, k->sel_str ? k->sel_str : "");
	out_json_key(j, "origin");
	out_json_str(j, k->origin == ORIGIN_POD ? "pod" : "default");
	out_json_key(j, "selfMatch");
	out_json_bool(j, k->self_match);
	out_json_key(j, "globalMin");
	if (k->hard)
		out_json_int(j, k->global_min);
	else
		out_json_null(j);
	/* hard: the PreFilter map; soft: the PreScore counts, [] when
	 * PreScore did not run (conventions 2). Only real domains count;
	 * the model keeps them sorted by value. */
	out_json_key(j, "domains");
	out_json_begin_array(j);
	if (k->hard || k->scored) {
		for (uint32_t i = 0; i < k->ndoms; i++) {
			const struct domain_rec *dm = &k->doms[i];
			if (!dm->exists)
				continue;
			out_json_begin_object_flat(j);
			key_sym(x, "value", dm->value);
			out_json_key(j, "matchNum");
			out_json_int(j, dm->count);
			out_json_end_object(j);
		}
	}
	out_json_end_array(j);
	if (k->empty_quirk) {
		out_json_key(j, "emptySelectorQuirk");
		out_json_bool(j, true);
	}
	out_json_end_object(j);
}

/* Every filter that fails on the node, in filter order (debugging
 * contract section 1); [] for a feasible node. */
static void write_blockers(struct jx *x, const struct decision *d, const struct node_rec *r)
{
	struct out_json *j = &x->j;
	unsigned bits = cli_blockers(r);
	out_json_key(j, "blockers");
	out_json_begin_array(j);
	for (int p = 0; p < PL__COUNT; p++) {
		if (!(bits & (1u << p)))
			continue;
		out_json_begin_object(j);
		out_json_key(j, "plugin");
		out_json_str(j, plugin_name((enum plugin_id)p));
		out_json_key(j, "reason");
		out_json_str(j, decision_reason_of(x->c, d, r, (enum plugin_id)p, x->buf,
						   sizeof(x->buf)));
		out_json_key(j, "unresolvable");
		out_json_bool(j, cli_blocker_unresolvable(r, (enum plugin_id)p));
		const char *det = decision_detail_of(x->c, d, r, (enum plugin_id)p, x->buf,
						     sizeof(x->buf));
		if (det && det[0]) {
			out_json_key(j, "detail");
			out_json_str(j, det);
		}
		out_json_end_object(j);
	}
	out_json_end_array(j);
}

/* PodTopologySpread's verdict for each hard constraint, even where an
 * earlier filter failed; a node without the key gets domain null. */
static void write_spread(struct jx *x, const struct decision *d, const struct node_rec *r)
{
	struct out_json *j = &x->j;
	out_json_key(j, "spread");
	out_json_begin_array(j);
	for (uint32_t k = 0; k < d->nhard; k++) {
		struct spread_verdict v;
		if (!decision_spread_verdict(d, r, k, &v) || v.cons >= d->ncons)
			break;
		out_json_begin_object(j);
		out_json_key(j, "constraint");
		out_json_int(j, d->cons[v.cons].pod_index);
		out_json_key(j, "domain");
		if (v.has_domain) {
			out_json_str(j, cli_sym(x->c, v.domain));
			out_json_key(j, "matchNum");
			out_json_int(j, v.match);
			out_json_key(j, "selfMatch");
			out_json_int(j, v.self);
			out_json_key(j, "globalMin");
			out_json_int(j, v.global_min);
			out_json_key(j, "skew");
			out_json_int(j, v.skew);
		} else {
			out_json_null(j);
		}
		out_json_key(j, "ok");
		out_json_bool(j, v.ok);
		out_json_end_object(j);
	}
	out_json_end_array(j);
}

static void write_node(struct jx *x, const struct decision *d, const struct node_rec *r)
{
	struct out_json *j = &x->j;
	out_json_begin_object_flat(j);
	out_json_key(j, "name");
	out_json_str(j, cli_node_name(x->c, r->node));
	out_json_key(j, "feasible");
	out_json_bool(j, r->feasible);
	out_json_key(j, "plugin");
	if (r->feasible || r->fail == PL_NONE)
		out_json_null(j);
	else
		out_json_str(j, plugin_name(r->fail));
	out_json_key(j, "reason");
	if (r->feasible) {
		out_json_null(j);
	} else {
		out_json_str(j, decision_reason(x->c, d, r, x->buf, sizeof(x->buf)));
		const char *det = decision_detail(x->c, d, r, x->buf, sizeof(x->buf));
		if (det && det[0]) {
			out_json_key(j, "detail");
			out_json_str(j, det);
		}
	}
	write_blockers(x, d, r);
	write_spread(x, d, r);
	if (r->feasible && d->scored) {
		out_json_key(j, "scores");
		out_json_begin_object(j);
		for (int p = 0; p < PL__COUNT; p++) {
			if (!r->scored[p] || d->plugin_skipped[p])
				continue;
			out_json_key(j, plugin_name((enum plugin_id)p));
			out_json_int(j, r->norm[p]);
		}
		out_json_end_object(j);
		out_json_key(j, "total");
		out_json_int(j, r->total);
	}
	out_json_end_object(j);
}

static void pod_str(struct jx *x, uint32_t pod)
{
	out_buf_reset(&x->b);
	const struct pod *p = &x->c->pods[pod];
	cli_pod_name(&x->b, x->c, p->ns, p->name, false);
	out_json_str(&x->j, out_buf_str(&x->b));
}

static void write_victims(struct jx *x, const uint32_t *v, uint32_t n)
{
	out_json_begin_array(&x->j);
	for (uint32_t i = 0; i < n; i++)
		if (v[i] < x->c->npods)
			pod_str(x, v[i]);
	out_json_end_array(&x->j);
}

/* DefaultPreemption's answer when no node was feasible (debugging
 * contract section 2): upstream's PostFilter message, the nominated node
 * and the victims; as extras the outcome, what decided the pick and the
 * dry run's verdict on each node. */
static void write_preemption(struct jx *x, const struct decision *d)
{
	struct out_json *j = &x->j;
	const struct preemption *pr = &d->pre;
	out_json_key(j, "preemption");
	out_json_begin_object(j);
	out_json_key(j, "message");
	out_json_str(j, pr->message);
	out_json_key(j, "nominatedNode");
	int32_t nom = cli_nominated(d);
	if (nom >= 0)
		out_json_str(j, cli_node_name(x->c, nom));
	else
		out_json_null(j);
	out_json_key(j, "victims");
	write_victims(x, pr->victims, pr->nvictims);
	out_json_key(j, "result");
	out_json_str(j, cli_preempt_outcome_name(pr->outcome));
	if (pr->outcome == PRE_NOMINATED) {
		out_json_key(j, "pick");
		out_json_str(j, cli_preempt_pick_name(pr->pick));
	}
	out_json_key(j, "nodes");
	out_json_begin_array(j);
	for (uint32_t i = 0; i < pr->nnodes; i++) {
		const struct preempt_node *pn = &pr->nodes[i];
		out_json_begin_object_flat(j);
		out_json_key(j, "name");
		out_json_str(j, cli_node_name(x->c, pn->node));
		out_json_key(j, "result");
		out_json_str(j, cli_preempt_node_name(pn->why));
		if (pn->why == PN_STILL_UNFIT) {
			out_json_key(j, "plugin");
			if (pn->fail >= 0 && pn->fail < PL__COUNT)
				out_json_str(j, plugin_name((enum plugin_id)pn->fail));
			else
				out_json_null(j);
			out_json_key(j, "reason");
			out_json_str(j, pn->reason);
		}
		if (pn->why == PN_CANDIDATE) {
			out_json_key(j, "victims");
			write_victims(x, pn->victims, pn->nvictims);
			out_json_key(j, "pdbViolations");
			out_json_int(j, pn->pdb_violations);
			out_json_key(j, "highestPriority");
			out_json_int(j, pn->highest);
		}
		out_json_end_object(j);
	}
	out_json_end_array(j);
	out_json_end_object(j);
}

static void write_step(struct jx *x, uint32_t i, const struct decision *d)
{
	struct out_json *j = &x->j;
	const struct step *s = &x->t->sc->steps[i];
	const struct step_result *r = &x->t->res[i];
	out_json_begin_object(j);
	out_json_key(j, "index");
	out_json_int(j, (int64_t)ctl_flat_index(x->t, i));
	out_json_key(j, "action");
	out_json_str(j, step_kind_name(s->kind));
	out_json_key(j, "pod");
	out_buf_reset(&x->b);
	if (cli_step_pod(&x->b, x->t, i) && !x->b.oom)
		out_json_str(j, out_buf_str(&x->b));
	else
		out_json_null(j);
	out_json_key(j, "outcome");
	out_json_str(j, cli_outcome_name(r->outcome));
	out_json_key(j, "node");
	if (r->outcome == OUT_SCHEDULED && r->node >= 0)
		out_json_str(j, cli_node_name(x->c, r->node));
	else
		out_json_null(j);
	out_json_key(j, "message");
	out_json_str(j, r->message);
	if (s->kind == STEP_SCALE_UP)
		cli_scale_up_json(j, x->t, i);
	if (d && d->volume_note) {
		out_json_key(j, "volumes");
		out_json_str(j, d->volume_note);
	}
	if (step_runs_cycle(s) && d) {
		if (cli_postfilter_ran(d))
			write_preemption(x, d);
		if (cli_event(d)) {
			out_json_key(j, "event");
			out_json_str(j, cli_event(d));
			/* what a dump's pod says its cluster's scheduler wrote */
			const struct pod *p = &x->c->pods[d->pod];
			if (p->cluster_message) {
				out_json_key(j, "clusterMessage");
				out_json_str(j, intern_get(x->c->in, p->cluster_message));
				out_json_key(j, "clusterMessageMatches");
				out_json_bool(j, !strcmp(intern_get(x->c->in, p->cluster_message), d->condition));
			}
		}
		if (d->pre.nominated_first && r->outcome == OUT_SCHEDULED) {
			out_json_key(j, "nominatedFirst");
			out_json_bool(j, true);
		}
	}
	if (s->nreplicas > 0) {
		out_json_key(j, "replica");
		out_json_int(j, s->replica);
		out_json_key(j, "replicas");
		out_json_int(j, s->nreplicas);
	}
	if (!step_runs_cycle(s)) {
		out_buf_reset(&x->b);
		cli_step_what(&x->b, x->t, i);
		out_json_key(j, "description");
		out_json_str(j, out_buf_str(&x->b));
	}
	if (s->note) {
		out_json_key(j, "note");
		out_json_str(j, s->note);
	}
	cli_ctl_json_fields(j, x->t, i, &x->b);
	if (step_runs_cycle(s)) {
		bool filled = d && cli_decision_filled(s, d);
		out_json_key(j, "constraints");
		out_json_begin_array(j);
		for (uint32_t k = 0; filled && k < d->ncons; k++)
			write_constraint(x, &d->cons[k]);
		out_json_end_array(j);
		out_json_key(j, "nodes");
		out_json_begin_array(j);
		for (uint32_t k = 0; filled && k < d->nnodes; k++)
			write_node(x, d, &d->nodes[k]);
		out_json_end_array(j);
	}
}

/* A pending step's best fix (skewer fix's first clean one), null when
 * none schedules it. 0 on OOM. */
static int write_best_fix(struct jx *x, uint32_t i)
{
	struct fix_report r;
	if (!cli_best_fix(x->t, i, &r)) {
		fix_report_fini(&r);
		return 0;
	}
	const struct fix *f = fix_report_best(&r);
	out_json_key(&x->j, "bestFix");
	if (f)
		cli_fix_json(&x->j, x->t, &r, f);
	else
		out_json_null(&x->j);
	fix_report_fini(&r);
	return 1;
}

int explain_json(FILE *f, struct timeline *t, const struct cli_opts *o)
{
	assert(f && t && o);
	struct jx x = {.t = t, .c = t->c};
	int rc = CLI_OK;
	uint32_t n = timeline_len(t);
	uint32_t from = o->has_step ? o->step - 1 : 0;
	uint32_t to = o->has_step ? o->step : n;
	/* the release the scenario starts with (a version step changes it
	 * later: the step says so) */
	char kv[32];
	version_format(&t->sc->cluster->cfg.version, kv, sizeof(kv));

	if (from > 0 && !timeline_goto(t, from)) {
		fprintf(stderr, "error: out of memory\n");
		return CLI_USAGE;
	}
	out_json_init(&x.j, f, 2);
	out_json_begin_object(&x.j);
	out_json_key(&x.j, "version");
	out_json_str(&x.j, kv);
	out_json_key(&x.j, "formatVersion");
	out_json_int(&x.j, 1);
	out_json_key(&x.j, "scenario");
	out_json_str(&x.j, t->sc->name ? t->sc->name : "");
	out_json_key(&x.j, "steps");
	out_json_begin_array(&x.j);
	for (uint32_t i = from; i < to; i++) {
		struct decision d = {0};
		if (!timeline_step(t, &d)) {
			decision_fini(&d);
			/* an unfinished document is worse than none: say so loudly */
			fprintf(stderr, "error: out of memory\n");
			rc = CLI_USAGE;
			break;
		}
		write_step(&x, i, &d);
		decision_fini(&d);
		const struct step *s = &t->sc->steps[i];
		if ((s->kind == STEP_SCHEDULE || s->kind == STEP_RETRY) && t->res[i].outcome == OUT_PENDING &&
		    !write_best_fix(&x, i)) {
			fprintf(stderr, "error: out of memory\n");
			rc = CLI_USAGE;
			out_json_end_object(&x.j);
			break;
		}
		out_json_end_object(&x.j);
		/* a controller step's sub-steps: steps of their own, after it */
		cli_ctl_json_subs(&x.j, t, i, &x.b);
	}
	out_json_end_array(&x.j);
	out_json_end_object(&x.j);
	out_json_fini(&x.j);
	out_buf_fini(&x.b);
	return rc;
}
