/* sim.c - a scenario being viewed: the timeline, the position the user
 * looks at, the decision of that step (computed once per step change,
 * never per redraw), and the edit history. Everything here asks the model;
 * nothing recomputes a scheduler rule. */
#include "tui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../load/save.h"
#include "../model/validate.h"
#include "../model/autoscale/autoscale.h"

/* Filling the timeline strip runs every step once; past this many steps
 * the strip shows only what was visited, so opening stays instant. */
#define SIM_REFILL_MAX 4000u

static void load_error_text(const struct load_errors *e, char *err, size_t errlen)
{
	if (!e->n) {
		snprintf(err, errlen, "cannot load the scenario");
		return;
	}
	const struct load_error *le = &e->v[0];
	snprintf(err, errlen, "%s:%u:%u: %s%s", le->file ? le->file : "-", le->line, le->col,
		 le->msg ? le->msg : "error", e->n > 1 ? " (and more)" : "");
}

/* Records the outcome of every step run so far (all of them, but past
 * SIM_REFILL_MAX), for the notes (sim_orig_outcome). 0 on OOM. */
static int keep_orig(struct sim *s)
{
	uint32_t n = timeline_len(s->tl);
	if (!n)
		return 1;
	if (!(s->orig = calloc(n, sizeof(*s->orig))))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct step_result *r = &s->tl->res[i];
		if (!r->done)
			break;
		const struct cluster *c = s->sc->cluster;
		s->orig[i] = (struct sim_orig){s->sc->steps[i].line, s->sc->steps[i].col, r->outcome,
					       r->node >= 0 && (uint32_t)r->node < c->nnodes
						       ? c->nodes[r->node].name : SYM_NONE};
		s->norig = i + 1;
	}
	return 1;
}

bool sim_orig_outcome(const struct sim *s, uint32_t index, enum outcome *o, sym_t *node)
{
	const struct step *st = &s->sc->steps[index];
	if (!st->line && !st->col)
		return false;
	/* the k-th step at this position (the copies of replicas share it) */
	uint32_t k = 0;
	for (uint32_t i = 0; i < index; i++)
		k += s->sc->steps[i].line == st->line && s->sc->steps[i].col == st->col;
	for (uint32_t i = 0; i < s->norig; i++) {
		if (s->orig[i].line != st->line || s->orig[i].col != st->col || k--)
			continue;
		*o = s->orig[i].outcome;
		*node = s->orig[i].node;
		return true;
	}
	return false;
}

struct sim *sim_new(struct scenario *sc, const char *const *files, uint32_t nfiles,
		    bool bundled, char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	if (!s) {
		scenario_free(sc);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->sc = sc;
	s->cursor = s->ghost_pod = s->ghost_node = -1;
	s->bundled = bundled;
	if (!(s->files = calloc(nfiles + 1, sizeof(*s->files))))
		goto oom;
	for (uint32_t i = 0; i < nfiles; i++) {
		if (!(s->files[i] = strdup(files[i])))
			goto oom;
		s->nfiles++;
	}
	if (!(s->tl = timeline_new(s->sc)) || !sim_refill(s) || !keep_orig(s) ||
	    !sim_goto(s, timeline_len(s->tl) > 0 ? 1 : 0))
		goto oom;
	return s;
oom:
	snprintf(err, errlen, "out of memory");
	sim_free(s);
	return NULL;
}

struct sim *sim_open(const char *const *files, uint32_t nfiles, const char *name,
		     const char *text, size_t len, const struct load_opts *lo, char *err,
		     size_t errlen)
{
	struct load_errors errs = {0};
	struct scenario *sc = NULL;
	int ok = text ? load_scenario_mem(name, text, len, lo, &sc, &errs)
		      : load_scenario(files, nfiles, lo, &sc, &errs);
	if (!ok) {
		load_error_text(&errs, err, errlen);
		load_errors_fini(&errs);
		return NULL;
	}
	load_errors_fini(&errs);
	char *bad = validate_sched_config(sc->cluster);
	if (bad) {
		snprintf(err, errlen, "error: %s", bad);
		free(bad);
		scenario_free(sc);
		return NULL;
	}
	const char *one[1] = {name};
	return text ? sim_new(sc, one, 1, true, err, errlen)
		    : sim_new(sc, files, nfiles, false, err, errlen);
}

static void clear_redo(struct sim *s)
{
	for (uint32_t i = 0; i < s->nredo; i++)
		step_fini(&s->redo[i].old);
	s->nredo = 0;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	decision_fini(&s->dec);
	clayout_fini(&s->lay);
	for (uint32_t i = 0; i < s->nundo; i++)
		step_fini(&s->undo[i].old);
	free(s->undo);
	clear_redo(s);
	free(s->redo);
	free(s->guess);
	as_report_free(s->as_other);
	free(s->orig);
	if (s->tl)
		timeline_free(s->tl);
	if (s->sc)
		scenario_free(s->sc);
	for (uint32_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s);
}

/* Step i is a scaleUp and both autoscalers are configured: the one the
 * step does not run, as a dry run over the state before the step (the
 * timeline is there), into s->as_other. 0 on OOM. */
static int other_autoscaler(struct sim *s, uint32_t i)
{
	const struct step *st = &s->sc->steps[i];
	const struct as_config *c = s->sc->autoscale;
	if (st->kind != STEP_SCALE_UP || !c || !c->ngroups || !c->npools)
		return 1;
	const struct as_step *a = st->arg;
	enum as_kind k = a && a->kind != AS_DEFAULT ? a->kind : c->set.def != AS_DEFAULT ? c->set.def : AS_CA;
	struct as_step *o = NULL;
	if (a ? !as_step_copy(&o, a) : !(o = calloc(1, sizeof(*o))))
		return 0;
	if (!a) {
		o->over.balance = o->over.force_ds = o->over.pref_ignore = -1;
		o->over.max_nodes_total = o->over.max_per_scaleup = -1;
	}
	o->kind = k == AS_CA ? AS_KARPENTER : AS_CA;
	o->dry = true;
	struct as_changes ch;
	memset(&ch, 0, sizeof(ch));
	int ok = as_scale_up(s->tl->sched, s->sc, o, &s->as_other, &ch);
	free(ch.nodes);
	free(ch.pods);
	free(ch.pod_node);
	as_step_free(o);
	return ok;
}

int sim_goto(struct sim *s, uint32_t view)
{
	as_report_free(s->as_other);
	s->as_other = NULL;
	uint32_t n = timeline_len(s->tl);
	if (view > n)
		view = n;
	decision_fini(&s->dec);
	s->has_dec = false;
	s->ghost_pod = s->ghost_node = -1;
	s->view = view;
	s->gen++; /* the cluster and the decision change: the layout is stale */
	if (view == 0)
		return timeline_goto(s->tl, 0);
	/* the state after the step, with the decision of its own cycle */
	if (!timeline_goto(s->tl, view - 1) || !other_autoscaler(s, view - 1) || !timeline_step(s->tl, &s->dec))
		return 0;
	const struct step *st = &s->sc->steps[view - 1];
	const struct step_result *r = &s->tl->res[view - 1];
	s->has_dec = present_decision_filled(st, &s->dec);
	if ((st->kind == STEP_SCHEDULE || st->kind == STEP_RETRY) && r->outcome == OUT_SCHEDULED &&
	    r->node >= 0) {
		s->ghost_pod = (int32_t)r->pod;
		s->ghost_node = r->node;
	}
	if (s->cons >= s->dec.ncons)
		s->cons = 0;
	return 1;
}

int sim_refill(struct sim *s)
{
	s->gen++;
	uint32_t v = s->view;
	if (timeline_len(s->tl) <= SIM_REFILL_MAX && !timeline_goto(s->tl, timeline_len(s->tl)))
		return 0;
	return sim_goto(s, v);
}

const struct constraint_rec *sim_cons(const struct sim *s)
{
	if (!s->has_dec || s->cons >= s->dec.ncons)
		return NULL;
	return &s->dec.cons[s->cons];
}

const struct step *sim_step(const struct sim *s)
{
	return s->view ? &s->sc->steps[s->view - 1] : NULL;
}

const struct node_rec *sim_node_rec(const struct sim *s, uint32_t node)
{
	if (!s->has_dec)
		return NULL;
	/* the layout's table when it was built for this step */
	const struct cl_layout *l = &s->lay;
	if (l->valid && l->gen == s->gen && node < l->cell_of_n) {
		int32_t ri = l->rec_of[node];
		return ri >= 0 ? &s->dec.nodes[ri] : NULL;
	}
	return decision_node(&s->dec, node);
}

int32_t sim_nominated(const struct sim *s)
{
	return s->has_dec ? present_nominated(&s->dec) : -1;
}

uint32_t sim_evicted(const struct sim *s, uint32_t node, const uint32_t **v)
{
	*v = NULL;
	if (sim_nominated(s) != (int32_t)node)
		return 0;
	*v = s->dec.pre.victims;
	return s->dec.pre.nvictims;
}

int sim_nblockers(const struct node_rec *r)
{
	unsigned bits = present_blockers(r);
	int n = 0;
	for (; bits; bits &= bits - 1)
		n++;
	return n;
}

/* The key views without a decision group by: the first constraint a
 * schedule step's pod carries, else the zone label, so the grouping does
 * not depend on the way the user came to a step. */
static sym_t base_key(const struct sim *s)
{
	for (uint32_t i = 0; i < s->sc->nsteps; i++) {
		const struct step *st = &s->sc->steps[i];
		if (st->kind == STEP_SCHEDULE && st->pod.spec.ntscs)
			return st->pod.spec.tscs[0].topology_key;
	}
	return s->sc->cluster->sym_zone;
}

sym_t sim_group_key(const struct sim *s)
{
	if (s->group_key)
		return s->group_key;
	const struct constraint_rec *k = sim_cons(s);
	return k ? k->key : base_key(s);
}

/* Makes room for one more entry on a stack (undo or redo), so an edit
 * never fails after it changed the timeline. */
static int reserve(struct undo_entry **v, uint32_t n, uint32_t *cap)
{
	if (n < *cap)
		return 1;
	uint32_t c = *cap ? *cap * 2 : 16;
	struct undo_entry *nv = realloc(*v, c * sizeof(*nv));
	if (!nv)
		return 0;
	*v = nv;
	*cap = c;
	return 1;
}

/* Applies one edit to the timeline (st is taken over) and records it for
 * undo; the caller refills. nedits counts a group once. */
static int apply_edit(struct sim *s, enum undo_kind kind, uint32_t index, struct step *st,
		      uint32_t view_before, uint32_t view_after, uint32_t group)
{
	s->gen++; /* even a failed edit may have moved the timeline */
	struct undo_entry e = {.kind = kind, .index = index, .view = view_before,
			       .view_after = view_after, .group = group};
	if (!reserve(&s->undo, s->nundo, &s->undocap) || !timeline_goto(s->tl, index))
		return 0;
	if (kind == UNDO_REPLACE)
		timeline_replace(s->tl, index, st, &e.old);
	else if (!timeline_insert(s->tl, index, st))
		return 0;
	bool same = group && s->nundo && s->undo[s->nundo - 1].group == group;
	s->undo[s->nundo++] = e;
	s->nedits += !same;
	return 1;
}

int sim_replace(struct sim *s, uint32_t index, struct step *st, uint32_t view)
{
	clear_redo(s);
	return apply_edit(s, UNDO_REPLACE, index, st, s->view, view, s->group) && sim_refill(s) &&
	       sim_goto(s, view);
}

int sim_insert(struct sim *s, uint32_t index, struct step *st, uint32_t view)
{
	clear_redo(s);
	return apply_edit(s, UNDO_INSERT, index, st, s->view, view, s->group) && sim_refill(s) &&
	       sim_goto(s, view);
}

int sim_undo(struct sim *s)
{
	s->gen++;
	if (!s->nundo)
		return 0;
	uint32_t group = s->undo[s->nundo - 1].group, view = s->view;
	do {
		struct undo_entry e = s->undo[--s->nundo];
		struct step tmp;
		if (!timeline_goto(s->tl, e.index))
			return 0;
		if (e.kind == UNDO_REPLACE)
			timeline_replace(s->tl, e.index, &e.old, &tmp);
		else
			timeline_remove(s->tl, e.index, &tmp);
		/* the edit itself goes on the redo stack */
		if (reserve(&s->redo, s->nredo, &s->redocap)) {
			e.old = tmp;
			s->redo[s->nredo++] = e;
		} else {
			step_fini(&tmp);
		}
		view = e.view;
	} while (group && s->nundo && s->undo[s->nundo - 1].group == group);
	s->nedits--;
	return sim_refill(s) && sim_goto(s, view);
}

int sim_redo(struct sim *s)
{
	s->gen++;
	if (!s->nredo)
		return 0;
	uint32_t group = s->redo[s->nredo - 1].group, view = s->view;
	do {
		struct undo_entry e = s->redo[--s->nredo];
		if (!apply_edit(s, e.kind, e.index, &e.old, e.view, e.view_after, e.group)) {
			step_fini(&e.old);
			return 0;
		}
		view = e.view_after;
	} while (group && s->nredo && s->redo[s->nredo - 1].group == group);
	return sim_refill(s) && sim_goto(s, view);
}

static int cmp_sym_text(const void *a, const void *b, void *ctx)
{
	const struct intern *in = ctx;
	return strcmp(intern_get(in, *(const sym_t *)a), intern_get(in, *(const sym_t *)b));
}

sym_t *sim_label_keys(const struct sim *s, uint32_t *n)
{
	const struct cluster *c = s->sc->cluster;
	uint32_t nsym = intern_count(c->in);
	bool *seen = calloc(nsym, 1);
	sym_t *out = NULL;
	uint32_t cnt = 0, cap = 0;
	*n = 0;
	if (!seen)
		return NULL;
	for (uint32_t i = 0; i < c->nnodes; i++) {
		if (!c->nodes[i].alive)
			continue;
		const struct labels *l = &c->nodes[i].labels;
		for (uint32_t j = 0; j < l->n; j++) {
			if (seen[l->v[j].key])
				continue;
			seen[l->v[j].key] = true;
			if (cnt == cap) {
				cap = cap ? cap * 2 : 16;
				sym_t *no = realloc(out, cap * sizeof(*no));
				if (!no)
					goto error;
				out = no;
			}
			out[cnt++] = l->v[j].key;
		}
	}
	free(seen);
	if (!tui_sort(out, cnt, sizeof(*out), cmp_sym_text, c->in)) {
		free(out);
		return NULL;
	}
	*n = cnt;
	return out;
error:
	free(seen);
	free(out);
	return NULL;
}

/* For each step after the first edit that keeps an expect: block, what
 * the edit did to it (the outcome then and now), for the comment `w`
 * writes in the block's place; NULL entries where nothing is known. */
static char **expect_why(const struct sim *s)
{
	uint32_t n = timeline_len(s->tl);
	const struct cluster *c = s->sc->cluster;
	char **why = n ? calloc(n, sizeof(*why)) : NULL;
	bool after = false;
	for (uint32_t i = 0; why && i < n; i++) {
		const struct step *st = &s->sc->steps[i];
		const struct step_result *r = &s->tl->res[i];
		enum outcome o;
		sym_t node;
		after |= !st->line && !st->col;
		if (!after || !st->has_expect || !r->done || !sim_orig_outcome(s, i, &o, &node))
			continue;
		char then[300], now[300];
		snprintf(then, sizeof(then), "%s", o == OUT_SCHEDULED ? intern_get(c->in, node)
						 : o == OUT_PENDING ? "Pending" : present_outcome_name(o));
		snprintf(now, sizeof(now), "%s", r->outcome == OUT_SCHEDULED ? present_node_name(c, r->node)
						 : r->outcome == OUT_PENDING ? "Pending"
						 : present_outcome_name(r->outcome));
		char buf[700];
		if (strcmp(then, now))
			snprintf(buf, sizeof(buf), "it was written for %s, now %s", then, now);
		else
			snprintf(buf, sizeof(buf), "still %s, other figures may differ", now);
		why[i] = strdup(buf);
	}
	return why;
}

int sim_write(struct sim *s, const char *path, bool overwrite, char *err, size_t errlen)
{
	s->gen++;
	uint32_t v = s->view;
	char **why = expect_why(s); /* before the move to step 0 */
	/* the writer wants the initial cluster */
	if (!timeline_goto(s->tl, 0)) {
		snprintf(err, errlen, "out of memory");
		for (uint32_t i = 0; why && i < timeline_len(s->tl); i++)
			free(why[i]);
		free(why);
		return 0;
	}
	int ok = save_scenario_file(path, s->sc, overwrite, (const char *const *)why, err, errlen);
	for (uint32_t i = 0; why && i < timeline_len(s->tl); i++)
		free(why[i]);
	free(why);
	if (!sim_goto(s, v) && ok) {
		snprintf(err, errlen, "out of memory");
		return 0;
	}
	return ok;
}

enum role sim_pod_role(const struct sim *s, uint32_t pod, const char **glyph,
		       const struct glyphs *g)
{
	return sim_pod_role_on(s, pod, s->sc->cluster->pods[pod].node, glyph, g);
}

enum role sim_pod_role_on(const struct sim *s, uint32_t pod, int32_t node, const char **glyph,
			  const struct glyphs *g)
{
	const struct cluster *c = s->sc->cluster;
	const struct pod *p = &c->pods[pod];
	const struct constraint_rec *k = sim_cons(s);
	if ((int32_t)pod == s->ghost_pod) {
		*glyph = g->pod_ghost;
		return ROLE_GHOST;
	}
	if (p->terminating) {
		*glyph = g->pod_term;
		return ROLE_TERMINATING;
	}
	/* spread counts pods of the incoming pod's namespace only */
	if (s->has_dec && s->dec.pod < c->npods && p->ns != c->pods[s->dec.pod].ns) {
		*glyph = g->pod_ns;
		return ROLE_OTHER_NS;
	}
	/* counted: the pod matches and its node counts for the constraint
	 * (not excluded by the inclusion policies, carrying the keys) */
	uint32_t ci = k ? (uint32_t)(k - s->dec.cons) : 0;
	if (k && decision_counts_pod(c, &s->dec, ci, p) && node >= 0 &&
	    decision_counts_node(c, &s->dec, ci, (uint32_t)node)) {
		*glyph = g->pod_counted;
		return ROLE_MATCHING_POD;
	}
	*glyph = g->pod_other;
	return ROLE_OTHER_POD;
}

bool tui_hiding(const struct tui *t)
{
	const struct sim *s = t->sim;
	return t->predict && s && s->view > 0 && s->has_dec && s->reveal_view != s->view;
}

enum guess sim_guess(const struct sim *s, uint32_t node)
{
	if (s->guess_view != s->view || node >= s->nguess)
		return GUESS_NONE;
	return (enum guess)s->guess[node];
}

int sim_set_guess(struct sim *s, uint32_t node, enum guess g)
{
	uint32_t n = s->sc->cluster->nnodes;
	if (s->guess_view != s->view) {
		if (s->guess)
			memset(s->guess, 0, s->nguess);
		s->guess_view = s->view;
	}
	if (node >= s->nguess) {
		uint32_t want = n > node ? n : node + 1;
		uint8_t *v = realloc(s->guess, want);
		if (!v)
			return 0;
		memset(v + s->nguess, 0, want - s->nguess);
		s->guess = v;
		s->nguess = want;
	}
	s->guess[node] = (uint8_t)g;
	return 1;
}

bool sim_guess_right(const struct sim *s, uint32_t node, enum guess g)
{
	const struct node_rec *r = sim_node_rec(s, node);
	switch (g) {
	case GUESS_FITS: return r && r->feasible;
	case GUESS_NO: return !r || !r->feasible;
	case GUESS_HERE: return s->ghost_node == (int32_t)node;
	default: return false;
	}
}

const char *guess_text(enum guess g, bool short_form)
{
	switch (g) {
	case GUESS_FITS: return short_form ? "fits?" : "feasible";
	case GUESS_HERE: return short_form ? "here?" : "the pod goes here";
	case GUESS_NO: return short_form ? "no?" : "filtered out";
	default: return short_form ? "" : "none";
	}
}
