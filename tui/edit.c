/* edit.c - the key handlers that change the scenario: placing the pod,
 * editing its spreading constraints, and what-ifs on the cluster. Each
 * builds a step (the scenario format's own: schedule with choose, cordon,
 * taint, delete, addNode...) and hands it to sim.c, which records it on
 * the timeline for undo. The model then recomputes everything. */
#include "tui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/autoscale/autoscale.h"
#include "../model/controllers/ctl.h"

/* A copy of step src as the user's own (the step table's copy): no note
 * nor expect block, and line 0, which marks it edited. */
static int user_copy(struct step *dst, const struct step *src)
{
	return step_copy_bare(dst, src);
}

static int set_note(struct step *st, const char *fmt, const char *a, const char *b)
{
	char buf[512];
	snprintf(buf, sizeof(buf), fmt, a, b);
	free(st->note);
	return (st->note = strdup(buf)) != NULL;
}

static int oom(struct tui *t)
{
	tui_flash(t, true, "out of memory");
	return TUI_R_DRAW;
}

int act_place(struct tui *t)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct step *cur = sim_step(s);
	char reason[512], detail[512];
	if (!cur || !step_runs_cycle(cur) || !s->has_dec) {
		tui_flash(t, true, cur && cur->kind == STEP_SCHEDULE
					   ? "the pod was not scheduled at this step (see the outcome)"
					   : "no pod is being scheduled at this step");
		return TUI_R_DRAW;
	}
	if (s->cursor < 0)
		return TUI_R_DRAW;
	if (tui_hiding(t)) {
		tui_flash(t, true, "predict mode: r reveals the verdicts before a placement");
		return TUI_R_DRAW;
	}
	const char *name = intern_get(c->in, c->nodes[s->cursor].name);
	const struct node_rec *r = sim_node_rec(s, (uint32_t)s->cursor);
	if (!r || !r->feasible) {
		if (!r) {
			tui_flash(t, true, "%s is not in this step's decision", name);
			return TUI_R_DRAW;
		}
		const char *det = decision_detail(c, &s->dec, r, detail, sizeof(detail));
		/* the arithmetic first: it is what a narrow status line keeps */
		tui_flash(t, true, "cannot place on %s: %s%s%s: %s", name, det, det[0] ? " - " : "",
			  plugin_name(r->fail), decision_reason(c, &s->dec, r, reason, sizeof(reason)));
		return TUI_R_DRAW;
	}
	if (s->ghost_node == s->cursor) {
		tui_flash(t, false, "the pod is already on %s", name);
		return TUI_R_DRAW;
	}
	struct step st;
	if (!user_copy(&st, cur))
		return oom(t);
	st.choose = c->nodes[s->cursor].name;
	if (!set_note(&st, "You placed the pod on %s (choose: %s).", name, name) ||
	    !sim_replace(s, s->view - 1, &st, s->view)) {
		step_fini(&st);
		return oom(t);
	}
	tui_flash(t, false, "placed on %s; later steps replayed (u undoes)", name);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

/* What an edit starts from: the constraint as in force (from the
 * decision), or, when the pod did not get that far (an edit made it
 * invalid), as written, so that the next edit can repair it. */
struct target {
	struct tsc *tsc;
	bool hard, affinity_honor, taints_honor;
};

/* The constraint the edit keys change: the selected one, which must be
 * the pod's own, in a schedule step. NULL (with a flash) otherwise. */
static struct tsc *editable(struct tui *t, struct step *copy, struct target *tg)
{
	struct sim *s = t->sim;
	const struct step *cur = sim_step(s);
	const struct constraint_rec *k = sim_cons(s);
	const struct intern *in = s->sc->cluster->in;
	if (!cur || !step_runs_cycle(cur)) {
		tui_flash(t, true, "no pod is being scheduled at this step");
		return NULL;
	}
	if (cur->kind == STEP_RETRY) {
		tui_flash(t, true, "a retry reschedules a pod made by an earlier step: edit it there");
		return NULL;
	}
	uint32_t idx;
	if (k) {
		if (k->origin != ORIGIN_POD || k->pod_index >= cur->pod.spec.ntscs) {
			tui_flash(t, true, "this constraint is a cluster default, not the pod's own: not editable here");
			return NULL;
		}
		idx = k->pod_index;
	} else if (!s->has_dec && cur->pod.spec.ntscs) {
		idx = s->cons < cur->pod.spec.ntscs ? s->cons : 0;
	} else {
		tui_flash(t, true, "the pod has no topology spread constraint of its own");
		return NULL;
	}
	if (!user_copy(copy, cur)) {
		oom(t);
		return NULL;
	}
	struct tsc *ts = &copy->pod.spec.tscs[idx];
	tg->tsc = ts;
	if (k) {
		tg->hard = k->hard;
		tg->affinity_honor = k->affinity_honor;
		tg->taints_honor = k->taints_honor;
	} else {
		/* the API defaults: affinity Honor, taints Ignore */
		tg->hard = !ts->when || !strcmp(intern_get(in, ts->when), "DoNotSchedule");
		tg->affinity_honor = !ts->node_affinity_policy ||
				     strcmp(intern_get(in, ts->node_affinity_policy), "Ignore");
		tg->taints_honor = ts->node_taints_policy &&
				   !strcmp(intern_get(in, ts->node_taints_policy), "Honor");
	}
	return ts;
}

/* The copies of a `replicas` step that index belongs to: the first
 * index, and their number (1 for a step without copies). */
static uint32_t copies(const struct sim *s, uint32_t index, uint32_t *first)
{
	const struct step *st = &s->sc->steps[index];
	uint32_t n = st->nreplicas, r = st->replica;
	*first = index;
	if (n < 2 || r < 1 || r > index + 1 || index - (r - 1) + n > timeline_len(s->tl))
		return 1;
	uint32_t f = index - (r - 1);
	for (uint32_t j = 0; j < n; j++) {
		const struct step *c = &s->sc->steps[f + j];
		if (c->kind != STEP_SCHEDULE || c->nreplicas != n || c->replica != j + 1)
			return 1;
	}
	*first = f;
	return n;
}

/* Puts the edited step st (its constraint k changed) in place of the one
 * on screen and, for a `replicas` step, makes the same change to every
 * copy: one edit for undo. */
static int commit(struct tui *t, struct step *st, const struct tsc *k, const char *what,
		  const char *value)
{
	struct sim *s = t->sim;
	uint32_t index = s->view - 1, first, n = copies(s, index, &first);
	uint32_t ki = (uint32_t)(k - st->pod.spec.tscs);
	char note[64];
	snprintf(note, sizeof(note), n > 1 ? " (all %u copies)" : "", n);
	struct tsc edited = *k;
	s->group = n > 1 ? ++s->group_seq : 0;
	char buf[512];
	snprintf(buf, sizeof(buf), "You changed the constraint%s: %s %s.", note, what, value);
	free(st->note);
	/* a failed sim_replace leaves st zeroed or whole: freeing it is safe */
	if (!(st->note = strdup(buf)) || !sim_replace(s, index, st, s->view)) {
		step_fini(st);
		s->group = 0;
		return oom(t);
	}
	for (uint32_t j = first; j < first + n; j++) {
		struct step cp;
		if (j == index)
			continue;
		if (!user_copy(&cp, &s->sc->steps[j])) {
			s->group = 0;
			return oom(t);
		}
		if (ki < cp.pod.spec.ntscs) {
			/* the scalar fields: the selector and matchLabelKeys stay */
			struct tsc *c = &cp.pod.spec.tscs[ki];
			c->max_skew = edited.max_skew;
			c->topology_key = edited.topology_key;
			c->when = edited.when;
			c->has_min_domains = edited.has_min_domains;
			c->min_domains = edited.min_domains;
			c->node_affinity_policy = edited.node_affinity_policy;
			c->node_taints_policy = edited.node_taints_policy;
		}
		if (!(cp.note = strdup(buf)) || !sim_replace(s, j, &cp, s->view)) {
			step_fini(&cp);
			s->group = 0;
			return oom(t);
		}
	}
	s->group = 0;
	tui_flash(t, false, "%s %s%s (u undoes)", what, value, note);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

static int skew(struct tui *t, int d)
{
	struct step st;
	struct target tg;
	struct tsc *k = editable(t, &st, &tg);
	char v[32];
	if (!k)
		return TUI_R_DRAW;
	if (k->max_skew + d < 1) {
		step_fini(&st);
		tui_flash(t, true, "maxSkew is at least 1");
		return TUI_R_DRAW;
	}
	k->max_skew += d;
	snprintf(v, sizeof(v), "%d", (int)k->max_skew);
	return commit(t, &st, k, "maxSkew", v);
}

int act_skew_up(struct tui *t)
{
	return skew(t, 1);
}

int act_skew_down(struct tui *t)
{
	return skew(t, -1);
}

int act_when(struct tui *t)
{
	struct step st;
	struct target tg;
	struct tsc *k = editable(t, &st, &tg);
	if (!k)
		return TUI_R_DRAW;
	const char *v = tg.hard ? "ScheduleAnyway" : "DoNotSchedule";
	k->when = intern_str(t->sim->sc->cluster->in, v);
	if (!k->when) {
		step_fini(&st);
		return oom(t);
	}
	return commit(t, &st, k, "whenUnsatisfiable", v);
}

int act_topokey(struct tui *t)
{
	struct step st;
	struct target tg;
	struct tsc *k = editable(t, &st, &tg);
	uint32_t n;
	if (!k)
		return TUI_R_DRAW;
	sym_t *keys = sim_label_keys(t->sim, &n);
	if (!n) {
		free(keys);
		step_fini(&st);
		tui_flash(t, true, "the nodes carry no labels");
		return TUI_R_DRAW;
	}
	sym_t next = keys[0];
	for (uint32_t i = 0; i + 1 < n; i++)
		if (keys[i] == k->topology_key)
			next = keys[i + 1];
	free(keys);
	k->topology_key = next;
	t->sim->group_key = SYM_NONE; /* the view follows the new key */
	return commit(t, &st, k, "topologyKey", intern_get(t->sim->sc->cluster->in, next));
}

static int mindom(struct tui *t, int d)
{
	struct step st;
	struct target tg;
	struct tsc *k = editable(t, &st, &tg);
	char v[32];
	if (!k)
		return TUI_R_DRAW;
	if (!k->has_min_domains && d < 0) {
		step_fini(&st);
		tui_flash(t, true, "minDomains is already unset (1 applies)");
		return TUI_R_DRAW;
	}
	if (!k->has_min_domains) {
		k->has_min_domains = true;
		k->min_domains = 1;
	} else if (k->min_domains + d < 1) {
		k->has_min_domains = false;
		k->min_domains = 0;
	} else {
		k->min_domains += d;
	}
	if (k->has_min_domains)
		snprintf(v, sizeof(v), "%d", (int)k->min_domains);
	else
		snprintf(v, sizeof(v), "unset");
	return commit(t, &st, k, "minDomains", v);
}

int act_mindom_up(struct tui *t)
{
	return mindom(t, 1);
}

int act_mindom_down(struct tui *t)
{
	return mindom(t, -1);
}

static int policy(struct tui *t, bool affinity)
{
	struct step st;
	struct target tg;
	struct tsc *k = editable(t, &st, &tg);
	if (!k)
		return TUI_R_DRAW;
	bool honor = affinity ? tg.affinity_honor : tg.taints_honor;
	const char *v = honor ? "Ignore" : "Honor";
	sym_t sym = intern_str(t->sim->sc->cluster->in, v);
	if (!sym) {
		step_fini(&st);
		return oom(t);
	}
	if (affinity)
		k->node_affinity_policy = sym;
	else
		k->node_taints_policy = sym;
	return commit(t, &st, k, affinity ? "nodeAffinityPolicy" : "nodeTaintsPolicy", v);
}

int act_aff_policy(struct tui *t)
{
	return policy(t, true);
}

int act_taint_policy(struct tui *t)
{
	return policy(t, false);
}

/* What-ifs are new steps: before the step on screen when it schedules a
 * pod (its decision is made again on the changed cluster, and stays on
 * screen), else right after it (and the screen shows the what-if). */
static int what_if(struct tui *t, struct step *st, const char *note, const char *a)
{
	struct sim *s = t->sim;
	const struct step *cur = sim_step(s);
	bool before = cur && (cur->kind == STEP_SCHEDULE || cur->kind == STEP_RETRY);
	uint32_t at = before ? s->view - 1 : s->view;
	if (!set_note(st, note, a, "") || !sim_insert(s, at, st, s->view + 1)) {
		step_fini(st);
		return oom(t);
	}
	if (before)
		tui_flash(t, false, "what-if added as step %u, before this one: decided again (u undoes)",
			  at + 1);
	else
		tui_flash(t, false, "what-if added as step %u; later steps replayed (u undoes)", at + 1);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int tui_what_if(struct tui *t, struct step *st, const char *note, const char *a)
{
	return what_if(t, st, note, a);
}

static struct node *cursor_node(struct tui *t)
{
	struct sim *s = t->sim;
	if (s->cursor < 0) {
		tui_flash(t, true, "no node under the cursor");
		return NULL;
	}
	return &s->sc->cluster->nodes[s->cursor];
}

int act_cordon(struct tui *t)
{
	struct node *n = cursor_node(t);
	if (!n)
		return TUI_R_DRAW;
	const char *name = intern_get(t->sim->sc->cluster->in, n->name);
	struct step st = {.kind = n->unschedulable ? STEP_UNCORDON : STEP_CORDON, .node = n->name};
	return what_if(t, &st, n->unschedulable ? "What if %s is uncordoned?" : "What if %s is cordoned?",
		       name);
}

int act_taint(struct tui *t)
{
	struct node *n = cursor_node(t);
	struct cluster *c = t->sim->sc->cluster;
	if (!n)
		return TUI_R_DRAW;
	sym_t key = intern_str(c->in, "what-if"), val = intern_str(c->in, "true"),
	      eff = intern_str(c->in, "NoSchedule");
	if (!key || !val || !eff)
		return oom(t);
	for (uint32_t i = 0; i < n->ntaints; i++) {
		if (n->taints[i].key == key) {
			tui_flash(t, true, "already tainted what-if (T removes the last taint)");
			return TUI_R_DRAW;
		}
	}
	struct step st = {.kind = STEP_TAINT, .node = n->name,
			  .taint = {key, val, EFFECT_NO_SCHEDULE, eff}};
	return what_if(t, &st, "What if %s is tainted what-if=true:NoSchedule?",
		       intern_get(c->in, n->name));
}

int act_untaint(struct tui *t)
{
	struct node *n = cursor_node(t);
	const struct cluster *c = t->sim->sc->cluster;
	if (!n)
		return TUI_R_DRAW;
	if (!n->ntaints) {
		tui_flash(t, true, "%s has no taint", intern_get(c->in, n->name));
		return TUI_R_DRAW;
	}
	struct step st = {.kind = STEP_UNTAINT, .node = n->name, .taint = n->taints[n->ntaints - 1]};
	return what_if(t, &st, "What if %s loses its last taint?", intern_get(c->in, n->name));
}

int act_delete_pod(struct tui *t)
{
	struct node *n = cursor_node(t);
	const struct cluster *c = t->sim->sc->cluster;
	if (!n)
		return TUI_R_DRAW;
	if (!n->npods) {
		tui_flash(t, true, "%s runs no pod", intern_get(c->in, n->name));
		return TUI_R_DRAW;
	}
	const struct pod *p = &c->pods[n->pods[n->npods - 1]];
	struct step st = {.kind = STEP_DELETE, .target_ns = p->ns, .target = p->name};
	return what_if(t, &st, "What if pod %s is deleted?", intern_get(c->in, p->name));
}

/* ---- the controllers' what-ifs (contract controllers.md) ---- */

/* The workload of the newest pod on the cursor's node (its ReplicaSet's
 * Deployment when it has one); -1 after a flash. */
static int32_t cursor_workload(struct tui *t)
{
	struct node *n = cursor_node(t);
	const struct cluster *c = t->sim->sc->cluster;
	if (!n)
		return -1;
	for (uint32_t i = n->npods; i-- > 0;) {
		int32_t w = ctl_workload_of(c, &c->pods[n->pods[i]]);
		if (w >= 0)
			return w;
	}
	tui_flash(t, true, "no pod on %s belongs to a Deployment, ReplicaSet or StatefulSet",
		  intern_get(c->in, n->name));
	return -1;
}

static int scale_by(struct tui *t, int d)
{
	const struct cluster *c = t->sim->sc->cluster;
	int32_t wi = cursor_workload(t);
	if (wi < 0)
		return TUI_R_DRAW;
	const struct workload *w = &c->workloads[wi];
	if (d < 0 && w->replicas == 0) {
		tui_flash(t, true, "%s has no replica left", intern_get(c->in, w->name));
		return TUI_R_DRAW;
	}
	struct step st;
	if (!ctl_step_scale(&st, w->kind, w->ns, w->name, (int64_t)w->replicas + d)) {
		step_fini(&st);
		return oom(t);
	}
	return what_if(t, &st, d > 0 ? "What if %s gets one more replica?" : "What if %s loses a replica?",
		       intern_get(c->in, w->name));
}

int act_workload_up(struct tui *t)
{
	return scale_by(t, 1);
}

int act_workload_down(struct tui *t)
{
	return scale_by(t, -1);
}

int act_rollout(struct tui *t)
{
	struct sim *s = t->sim;
	struct cluster *c = s->sc->cluster;
	int32_t wi = cursor_workload(t);
	if (wi < 0)
		return TUI_R_DRAW;
	const struct workload *w = &c->workloads[wi];
	if (w->kind != WL_DEPLOYMENT || !w->tpl) {
		tui_flash(t, true, "%s is not a Deployment with a template", intern_get(c->in, w->name));
		return TUI_R_DRAW;
	}
	/* a new revision: the template with a label of its own */
	char val[32];
	snprintf(val, sizeof(val), "%u", ++s->whatif_seq);
	sym_t k = intern_str(c->in, "skewer.whatif/revision"), v = intern_str(c->in, val);
	struct pod tpl;
	struct step st;
	if (!k || !v || !pod_copy(&tpl, w->tpl))
		return oom(t);
	int ok = labels_set(&tpl.labels, k, v) && ctl_step_rollout(&st, w->ns, w->name, &tpl);
	pod_fini(&tpl);
	if (!ok) {
		step_fini(&st);
		return oom(t);
	}
	return what_if(t, &st, "What if %s rolls out a new revision?", intern_get(c->in, w->name));
}

int act_deschedule(struct tui *t)
{
	struct step st;
	if (!ctl_step_deschedule(&st, true)) {
		step_fini(&st);
		return oom(t);
	}
	return what_if(t, &st, "What if the descheduler runs once%s?", "");
}

int act_add_node(struct tui *t)
{
	struct sim *s = t->sim;
	struct node *n = cursor_node(t);
	struct cluster *c = s->sc->cluster;
	char name[300];
	if (!n)
		return TUI_R_DRAW;
	const char *base = intern_get(c->in, n->name);
	sym_t sym;
	do {
		snprintf(name, sizeof(name), "%.200s-whatif-%u", base, ++s->whatif_seq);
		if (!(sym = intern_str(c->in, name)))
			return oom(t);
	} while (cluster_find_node(c, sym) >= 0);
	struct step st;
	if (!step_add_node_like(&st, n, sym))
		return oom(t);
	/* the hostname label is the node's own even when it differs from
	 * the node's name (as on EKS): the new node gets its name there */
	if (labels_get(&st.new_node.labels, c->sym_hostname) &&
	    !labels_set(&st.new_node.labels, c->sym_hostname, sym)) {
		step_fini(&st);
		return oom(t);
	}
	return what_if(t, &st, "What if a node like this one, %s, is added?", name);
}

int act_scale_up(struct tui *t)
{
	struct sim *s = t->sim;
	const struct as_config *c = s->sc->autoscale;
	if (!c || (!c->ngroups && !c->npools)) {
		tui_flash(t, true, "no nodeGroups or NodePools in this scenario (see docs/scenario-format.md)");
		return TUI_R_DRAW;
	}
	struct as_step *a = calloc(1, sizeof(*a));
	if (!a)
		return oom(t);
	a->over.balance = a->over.force_ds = a->over.pref_ignore = -1;
	a->over.max_nodes_total = a->over.max_per_scaleup = -1;
	struct step st = {.kind = STEP_SCALE_UP, .arg = a};
	st.pod.node = -1;
	return what_if(t, &st, "What would the %s add here?", "autoscaler");
}

int act_undo(struct tui *t)
{
	struct sim *s = t->sim;
	if (!s->nundo) {
		tui_flash(t, false, "nothing to undo");
		return TUI_R_DRAW;
	}
	if (!sim_undo(s))
		return oom(t);
	tui_flash(t, false, "undone (%u edit%s left)", s->nedits, s->nedits == 1 ? "" : "s");
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

int act_redo(struct tui *t)
{
	struct sim *s = t->sim;
	if (!s->nredo) {
		tui_flash(t, false, "nothing to redo");
		return TUI_R_DRAW;
	}
	if (!sim_redo(s))
		return oom(t);
	tui_flash(t, false, "redone (%u edit%s)", s->nedits, s->nedits == 1 ? "" : "s");
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

static void default_path(const struct sim *s, char *out, size_t len)
{
	const char *f = s->nfiles ? s->files[0] : "scenario.yaml";
	const char *slash = strrchr(f, '/');
	const char *base = slash ? slash + 1 : f;
	const char *dot = strrchr(base, '.');
	int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
	if (s->bundled || !strcmp(f, "-"))
		snprintf(out, len, "%.*s-edited.yaml", stem, strcmp(f, "-") ? base : "stdin");
	else
		snprintf(out, len, "%.*s%.*s-edited.yaml", slash ? (int)(slash - f + 1) : 0, f, stem,
			 base);
}

int act_write(struct tui *t)
{
	char path[512];
	default_path(t->sim, path, sizeof(path));
	prompt_open(t, PROMPT_WRITE, "write to: ", path);
	return TUI_R_DRAW;
}

int act_write_done(struct tui *t, const char *text, bool confirmed)
{
	char err[700];
	if (!*text) {
		tui_flash(t, false, "not written");
		return TUI_R_DRAW;
	}
	if (!confirmed && access(text, F_OK) == 0) {
		char label[600];
		snprintf(label, sizeof(label), "%.500s exists: replace it? (y/n) ", text);
		prompt_open(t, PROMPT_OVERWRITE, label, "");
		snprintf(t->prompt.pending, sizeof(t->prompt.pending), "%s", text);
		return TUI_R_DRAW;
	}
	if (!sim_write(t->sim, text, confirmed, err, sizeof(err))) {
		tui_flash(t, true, "%s", err);
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	t->sim->saved_undo = t->sim->nundo; /* leaving now loses nothing */
	tui_flash(t, false, "wrote %s", text);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

/* ---- the class's edits: prompts that change the pod, its constraints
 * and the nodes. Each parses the prompt's text first (a bad one is
 * refused with what to type) and then changes the step on screen and,
 * for a `replicas` step, every copy: one edit for undo. ---- */

/* Parses "k=v,k2=v2" (spaces around items allowed) into l. 1; 0 with a
 * flash saying what is wrong (OOM too). */
static int parse_labels(struct tui *t, const char *text, struct labels *l)
{
	struct intern *in = t->sim->sc->cluster->in;
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", text);
	memset(l, 0, sizeof(*l));
	for (char *save = NULL, *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		while (*it == ' ')
			it++;
		char *end = it + strlen(it);
		while (end > it && end[-1] == ' ')
			*--end = '\0';
		if (!*it)
			continue;
		char *eq = strchr(it, '=');
		if (!eq || eq == it) {
			labels_fini(l);
			tui_flash(t, true, "'%s' is not KEY=VALUE: type labels as k=v,k2=v2", it);
			return 0;
		}
		*eq = '\0';
		sym_t k = intern_str(in, it), v = intern_str(in, eq + 1);
		if (!k || !v || !labels_set(l, k, v)) {
			labels_fini(l);
			oom(t);
			return 0;
		}
	}
	return 1;
}

static void labels_text(const struct intern *in, const struct labels *l, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (uint32_t i = 0; i < l->n && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s=%s", i ? "," : "", intern_get(in, l->v[i].key),
				      intern_get(in, l->v[i].val));
}

/* Applies fn to the step on screen and its copies (a schedule step). */
typedef int (*pod_edit)(struct tui *t, struct step *st, const void *ctx);

static int edit_pod(struct tui *t, pod_edit fn, const void *ctx, const char *what, const char *value)
{
	struct sim *s = t->sim;
	const struct step *cur = sim_step(s);
	if (!cur || cur->kind != STEP_SCHEDULE) {
		tui_flash(t, true, cur && cur->kind == STEP_RETRY
					   ? "a retry reschedules a pod made by an earlier step: edit it there"
					   : "no pod is created at this step: go to a schedule step");
		return TUI_R_DRAW;
	}
	uint32_t index = s->view - 1, first, n = copies(s, index, &first);
	char note[64], buf[700];
	snprintf(note, sizeof(note), n > 1 ? " (all %u copies)" : "", n);
	snprintf(buf, sizeof(buf), "You changed the pod%s: %s %.500s.", note, what, value);
	s->group = n > 1 ? ++s->group_seq : 0;
	for (uint32_t j = first; j < first + n; j++) {
		struct step cp;
		if (!user_copy(&cp, &s->sc->steps[j])) {
			s->group = 0;
			return oom(t);
		}
		if (!fn(t, &cp, ctx) || !(cp.note = strdup(buf)) || !sim_replace(s, j, &cp, s->view)) {
			step_fini(&cp);
			s->group = 0;
			return oom(t);
		}
	}
	s->group = 0;
	tui_flash(t, false, "%s %.300s%s (u undoes)", what, value, note);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}

/* The pod's own constraint the selected one is (its index in *idx); a
 * flash and 0 when there is none. */
static int own_constraint(struct tui *t, uint32_t *idx)
{
	struct step st;
	struct target tg;
	if (!editable(t, &st, &tg))
		return 0;
	*idx = (uint32_t)(tg.tsc - st.pod.spec.tscs);
	step_fini(&st);
	return 1;
}

struct sel_edit {
	uint32_t idx;
	struct labels labels;    /* matchLabels, or the keys of matchLabelKeys */
};

static int set_selector(struct tui *t, struct step *st, const void *ctx)
{
	const struct sel_edit *e = ctx;
	(void)t;
	if (e->idx >= st->pod.spec.ntscs)
		return 1;
	struct label_selector_src *sel = &st->pod.spec.tscs[e->idx].selector;
	selector_src_fini(sel);
	memset(sel, 0, sizeof(*sel));
	sel->present = true;
	if (!labels_copy(&sel->match_labels, &e->labels))
		return 0;
	if (e->labels.n && !(sel->ml_order = calloc(e->labels.n, sizeof(*sel->ml_order))))
		return 0;
	for (uint32_t i = 0; i < e->labels.n; i++)
		sel->ml_order[i] = e->labels.v[i].key;
	return 1;
}

static int selector_done(struct tui *t, const char *text)
{
	struct sel_edit e = {0};
	if (!own_constraint(t, &e.idx) || !parse_labels(t, text, &e.labels))
		return TUI_R_DRAW;
	int r = edit_pod(t, set_selector, &e, "labelSelector matchLabels", *text ? text : "{} (every pod)");
	labels_fini(&e.labels);
	return r;
}

int act_selector(struct tui *t)
{
	uint32_t idx;
	char cur[400];
	if (!own_constraint(t, &idx))
		return TUI_R_DRAW;
	const struct tsc *k = &sim_step(t->sim)->pod.spec.tscs[idx];
	labels_text(t->sim->sc->cluster->in, &k->selector.match_labels, cur, sizeof(cur));
	prompt_edit(t, "labelSelector (matchLabels k=v,...; its expressions go): ", cur, selector_done);
	return TUI_R_DRAW;
}

static int set_mlk(struct tui *t, struct step *st, const void *ctx)
{
	const struct sel_edit *e = ctx;
	(void)t;
	if (e->idx >= st->pod.spec.ntscs)
		return 1;
	struct tsc *k = &st->pod.spec.tscs[e->idx];
	free(k->match_label_keys);
	k->match_label_keys = NULL;
	k->nmatch_label_keys = 0;
	if (e->labels.n && !(k->match_label_keys = calloc(e->labels.n, sizeof(sym_t))))
		return 0;
	for (uint32_t i = 0; i < e->labels.n; i++)
		k->match_label_keys[k->nmatch_label_keys++] = e->labels.v[i].key;
	return 1;
}

static int mlk_done(struct tui *t, const char *text)
{
	struct sel_edit e = {0};
	struct intern *in = t->sim->sc->cluster->in;
	char buf[512];
	if (!own_constraint(t, &e.idx))
		return TUI_R_DRAW;
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *save = NULL, *it = strtok_r(buf, ", ", &save); it; it = strtok_r(NULL, ", ", &save)) {
		sym_t k = intern_str(in, it);
		if (!k || !labels_set(&e.labels, k, k)) {
			labels_fini(&e.labels);
			return oom(t);
		}
	}
	int r = edit_pod(t, set_mlk, &e, "matchLabelKeys", *text ? text : "none");
	labels_fini(&e.labels);
	return r;
}

int act_match_keys(struct tui *t)
{
	uint32_t idx;
	char cur[400] = "";
	if (!own_constraint(t, &idx))
		return TUI_R_DRAW;
	const struct tsc *k = &sim_step(t->sim)->pod.spec.tscs[idx];
	size_t n = 0;
	for (uint32_t i = 0; i < k->nmatch_label_keys && n < sizeof(cur); i++)
		n += (size_t)snprintf(cur + n, sizeof(cur) - n, "%s%s", i ? "," : "",
				      intern_get(t->sim->sc->cluster->in, k->match_label_keys[i]));
	prompt_edit(t, "matchLabelKeys (label keys, comma separated): ", cur, mlk_done);
	return TUI_R_DRAW;
}

/* A new hard constraint: maxSkew 1 over the key typed, selecting the
 * pod's own labels (so that it counts its siblings). */
struct add_cons {
	sym_t key;
};

static int add_constraint(struct tui *t, struct step *st, const void *ctx)
{
	const struct add_cons *a = ctx;
	struct pod_spec *sp = &st->pod.spec;
	struct tsc *v = realloc(sp->tscs, (sp->ntscs + 1) * sizeof(*v));
	if (!v)
		return 0;
	sp->tscs = v;
	struct tsc *k = &v[sp->ntscs++];
	memset(k, 0, sizeof(*k));
	k->max_skew = 1;
	k->topology_key = a->key;
	k->when = intern_str(t->sim->sc->cluster->in, "DoNotSchedule");
	struct sel_edit e = {sp->ntscs - 1, st->pod.labels};
	return k->when && set_selector(t, st, &e);
}

static int add_cons_done(struct tui *t, const char *text)
{
	struct add_cons a;
	char buf[300];
	if (sscanf(text, " %299s", buf) != 1) {
		tui_flash(t, true, "no key typed: a node label key such as topology.kubernetes.io/zone");
		return TUI_R_DRAW;
	}
	if (!(a.key = intern_str(t->sim->sc->cluster->in, buf)))
		return oom(t);
	int r = edit_pod(t, add_constraint, &a, "new constraint, maxSkew 1 DoNotSchedule over", buf);
	/* select the new constraint */
	if (t->sim->has_dec && t->sim->dec.ncons)
		t->sim->cons = t->sim->dec.ncons - 1;
	return r;
}

int act_add_constraint(struct tui *t)
{
	const struct constraint_rec *k = sim_cons(t->sim);
	uint32_t n;
	sym_t *keys = sim_label_keys(t->sim, &n);
	sym_t def = k ? k->key : n ? keys[0] : SYM_NONE;
	free(keys);
	prompt_edit(t, "new constraint's topologyKey (maxSkew 1, the pod's labels): ",
		    def ? intern_get(t->sim->sc->cluster->in, def) : "", add_cons_done);
	return TUI_R_DRAW;
}

static int remove_constraint(struct tui *t, struct step *st, const void *ctx)
{
	const uint32_t *idx = ctx;
	struct pod_spec *sp = &st->pod.spec;
	(void)t;
	if (*idx >= sp->ntscs)
		return 1;
	tsc_fini(&sp->tscs[*idx]);
	memmove(&sp->tscs[*idx], &sp->tscs[*idx + 1], (sp->ntscs - *idx - 1) * sizeof(*sp->tscs));
	sp->ntscs--;
	return 1;
}

int act_remove_constraint(struct tui *t)
{
	uint32_t idx;
	char v[32];
	if (!own_constraint(t, &idx))
		return TUI_R_DRAW;
	snprintf(v, sizeof(v), "%u", idx + 1);
	int r = edit_pod(t, remove_constraint, &idx, "removed constraint", v);
	t->sim->cons = 0;
	return r;
}

static int set_pod_labels(struct tui *t, struct step *st, const void *ctx)
{
	(void)t;
	labels_fini(&st->pod.labels);
	return labels_copy(&st->pod.labels, ctx);
}

static int pod_labels_done(struct tui *t, const char *text)
{
	struct labels l;
	if (!parse_labels(t, text, &l))
		return TUI_R_DRAW;
	int r = edit_pod(t, set_pod_labels, &l, "labels", *text ? text : "none");
	labels_fini(&l);
	return r;
}

int act_pod_labels(struct tui *t)
{
	const struct step *cur = sim_step(t->sim);
	char buf[400] = "";
	if (cur && cur->kind == STEP_SCHEDULE)
		labels_text(t->sim->sc->cluster->in, &cur->pod.labels, buf, sizeof(buf));
	prompt_edit(t, "the pod's labels (k=v,...): ", buf, pod_labels_done);
	return TUI_R_DRAW;
}

/* "key[=value][:Effect]", or "key:Effect"; Exists when no value. */
static int add_toleration(struct tui *t, struct step *st, const void *ctx)
{
	const struct toleration *tol = ctx;
	struct pod_spec *sp = &st->pod.spec;
	(void)t;
	struct toleration *v = realloc(sp->tols, (sp->ntols + 1) * sizeof(*v));
	if (!v)
		return 0;
	sp->tols = v;
	v[sp->ntols++] = *tol;
	return 1;
}

static int toleration_done(struct tui *t, const char *text)
{
	struct intern *in = t->sim->sc->cluster->in;
	char buf[300], *effect = NULL, *value = NULL;
	snprintf(buf, sizeof(buf), "%s", text);
	if ((effect = strrchr(buf, ':')))
		*effect++ = '\0';
	if ((value = strchr(buf, '=')))
		*value++ = '\0';
	struct toleration tol = {0};
	if (!buf[0]) {
		tui_flash(t, true, "no key typed: key[=value][:NoSchedule|PreferNoSchedule|NoExecute]");
		return TUI_R_DRAW;
	}
	if (effect && *effect) {
		if (!strcmp(effect, "NoSchedule"))
			tol.effect = EFFECT_NO_SCHEDULE;
		else if (!strcmp(effect, "PreferNoSchedule"))
			tol.effect = EFFECT_PREFER_NO_SCHEDULE;
		else if (!strcmp(effect, "NoExecute"))
			tol.effect = EFFECT_NO_EXECUTE;
		else {
			tui_flash(t, true, "effect '%s' unknown: NoSchedule, PreferNoSchedule or NoExecute", effect);
			return TUI_R_DRAW;
		}
		if (!(tol.effect_text = intern_str(in, effect)))
			return oom(t);
	}
	tol.op = value ? TOL_EQUAL : TOL_EXISTS;
	if (!(tol.key = intern_str(in, buf)) || !(tol.op_text = intern_str(in, value ? "Equal" : "Exists")) ||
	    (value && !(tol.value = intern_str(in, value))))
		return oom(t);
	if (!value && !(tol.value = intern_str(in, "")))
		return oom(t);
	return edit_pod(t, add_toleration, &tol, "new toleration", text);
}

int act_toleration(struct tui *t)
{
	struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	char def[300] = "";
	/* the cursor node's last taint, what a class wants to tolerate */
	if (s->cursor >= 0 && c->nodes[s->cursor].ntaints) {
		const struct taint *tt = &c->nodes[s->cursor].taints[c->nodes[s->cursor].ntaints - 1];
		snprintf(def, sizeof(def), "%s%s%s:%s", intern_get(c->in, tt->key),
			 intern_len(c->in, tt->value) ? "=" : "", intern_get(c->in, tt->value),
			 effect_name(tt->effect));
	}
	prompt_edit(t, "tolerate (key[=value][:Effect]): ", def, toleration_done);
	return TUI_R_DRAW;
}

/* A new node: the name and labels typed, the cursor node's allocatable
 * (its labels are not copied: the class says which domains). */
static int add_node_done(struct tui *t, const char *text)
{
	struct sim *s = t->sim;
	struct cluster *c = s->sc->cluster;
	struct node *like = cursor_node(t);
	char name[256];
	int used = 0;
	if (!like)
		return TUI_R_DRAW;
	if (sscanf(text, " %255[^ ,=]%n", name, &used) != 1 || strchr(name, '=')) {
		tui_flash(t, true, "type the new node's name, then its labels: node-d zone=zone-d");
		return TUI_R_DRAW;
	}
	sym_t sym = intern_str(c->in, name);
	if (!sym)
		return oom(t);
	if (cluster_find_node(c, sym) >= 0) {
		tui_flash(t, true, "a node is called %s already: type another name", name);
		return TUI_R_DRAW;
	}
	struct labels l;
	if (!parse_labels(t, text + used, &l))
		return TUI_R_DRAW;
	struct step st;
	if (!step_add_node_like(&st, like, sym)) {
		labels_fini(&l);
		return oom(t);
	}
	labels_fini(&st.new_node.labels);
	st.new_node.labels = l;
	return what_if(t, &st, "What if a node %s is added?", name);
}

int act_new_node(struct tui *t)
{
	struct sim *s = t->sim;
	struct cluster *c = s->sc->cluster;
	struct node *n = cursor_node(t);
	char def[512];
	if (!n)
		return TUI_R_DRAW;
	/* a fresh name, and the cursor node's values of the constraints'
	 * keys: Enter adds it to the same domains, an edited value makes a
	 * new one */
	char fresh[32];
	snprintf(fresh, sizeof(fresh), "node-new-%u", s->whatif_seq + 1);
	int len = snprintf(def, sizeof(def), "%s", fresh);
	sym_t seen[8];
	int nseen = 0;
	for (uint32_t i = 0; s->has_dec && i < s->dec.ncons && nseen < 8; i++) {
		sym_t k = s->dec.cons[i].key, v = labels_get(&n->labels, k);
		bool dup = false;
		for (int j = 0; j < nseen; j++)
			dup |= seen[j] == k;
		if (dup || !v || len >= (int)sizeof(def))
			continue;
		seen[nseen++] = k;
		/* a per-node key (the hostname, or a value that is the node's
		 * name) is the new node's own domain, never the cursor's */
		bool own = k == c->sym_hostname || v == n->name;
		len += snprintf(def + len, sizeof(def) - (size_t)len, "%s%s=%s", nseen == 1 ? " " : ",",
				intern_get(c->in, k), own ? fresh : intern_get(c->in, v));
	}
	s->whatif_seq++;
	prompt_edit(t, "new node NAME k=v,...: ", def, add_node_done);
	return TUI_R_DRAW;
}

int act_remove_node(struct tui *t)
{
	struct node *n = cursor_node(t);
	if (!n)
		return TUI_R_DRAW;
	struct step st = {.kind = STEP_REMOVE_NODE, .node = n->name};
	return what_if(t, &st, "What if node %s is removed?",
		       intern_get(t->sim->sc->cluster->in, n->name));
}

/* One label of the cursor node: "k=v" sets it, "k=" with nothing after
 * the sign... sets it empty, "k-" removes it (kubectl label's forms). */
static int relabel_done(struct tui *t, const char *text)
{
	struct sim *s = t->sim;
	struct intern *in = s->sc->cluster->in;
	struct node *n = cursor_node(t);
	char buf[300];
	if (!n)
		return TUI_R_DRAW;
	snprintf(buf, sizeof(buf), "%s", text);
	size_t l = strlen(buf);
	struct step st = {.kind = STEP_LABEL, .node = n->name};
	char *eq = strchr(buf, '=');
	if (l > 1 && buf[l - 1] == '-' && !eq) {
		buf[l - 1] = '\0';
		st.label_key = intern_str(in, buf);
	} else if (eq && eq != buf) {
		*eq = '\0';
		st.label_key = intern_str(in, buf);
		if (!(st.label_val = intern_str(in, eq + 1)))
			return oom(t);
	} else {
		tui_flash(t, true, "type KEY=VALUE to set a label or KEY- to remove it");
		return TUI_R_DRAW;
	}
	if (!st.label_key)
		return oom(t);
	char what[400];
	snprintf(what, sizeof(what), "What if %s is labelled %%s (%.300s)?", "the node", text);
	return what_if(t, &st, what, intern_get(in, n->name));
}

int act_relabel(struct tui *t)
{
	struct sim *s = t->sim;
	struct node *n = cursor_node(t);
	char def[300] = "";
	if (!n)
		return TUI_R_DRAW;
	const struct constraint_rec *k = sim_cons(s);
	sym_t v = k ? labels_get(&n->labels, k->key) : SYM_NONE;
	if (k && v)
		snprintf(def, sizeof(def), "%s=%s", intern_get(s->sc->cluster->in, k->key),
			 intern_get(s->sc->cluster->in, v));
	prompt_edit(t, "label the node (k=v sets, k- removes): ", def, relabel_done);
	return TUI_R_DRAW;
}

/* One more replica: a copy of this step's pod, named NAME-more-N, as a
 * new step right after this one. */
int act_replica(struct tui *t)
{
	struct sim *s = t->sim;
	struct cluster *c = s->sc->cluster;
	const struct step *cur = sim_step(s);
	char name[300];
	if (!cur || cur->kind != STEP_SCHEDULE) {
		tui_flash(t, true, "no pod is created at this step: go to a schedule step");
		return TUI_R_DRAW;
	}
	const char *base = intern_get(c->in, cur->pod.name);
	sym_t sym;
	bool taken;
	do {
		snprintf(name, sizeof(name), "%.200s-more-%u", base, ++s->whatif_seq);
		if (!(sym = intern_str(c->in, name)))
			return oom(t);
		taken = false;
		for (uint32_t i = 0; i < c->npods && !taken; i++)
			taken = c->pods[i].name == sym && c->pods[i].ns == cur->pod.ns;
		for (uint32_t i = 0; i < s->sc->nsteps && !taken; i++)
			taken = s->sc->steps[i].kind == STEP_SCHEDULE && s->sc->steps[i].pod.name == sym;
	} while (taken);
	struct step st;
	if (!user_copy(&st, cur))
		return oom(t);
	st.pod.name = sym;
	st.choose = SYM_NONE;
	st.replica = st.nreplicas = 0;
	if (!set_note(&st, "One more replica: %s, like %s.", name, base) ||
	    !sim_insert(s, s->view, &st, s->view + 1)) {
		step_fini(&st);
		return oom(t);
	}
	tui_flash(t, false, "one more replica, %s, as step %u (u undoes)", name, s->view);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}
